/**
 * Declarations and bodies, for go to definition. A declaration names something without the code
 * that does it: a C/C++ prototype (`int cmd_commit(int argc, ...);` in a header), a TypeScript
 * overload signature (`function parse(s: string): number;`), a `declare`d name, anything in a
 * `.d.ts`, an abstract or interface method (`void draw();`), a Rust trait's `fn f(&self);`.
 * The chunkers give each of these a chunk of its own (a `function` or `method` whose code stops
 * at a `;` before any `{`), so it is read from the chunk's lines, not from a parse tree.
 */
import type { Chunk } from '../chunk/types';

/** C and C++ sources and headers. */
const C_FAMILY = /\.(c|h|cc|cpp|cxx|c\+\+|hpp|hh|hxx|h\+\+|inl|ipp|tpp)$/;
/** A C/C++ header: its prototypes are implemented in some source file. */
const C_HEADER = /\.(h|hh|hpp|hxx|h\+\+|inl)$/;
const TYPESCRIPT = /\.[cm]?tsx?$/;
/** Ambient declarations only (`index.d.ts` describes `index.js`). */
const AMBIENT = /\.d\.[cm]?ts$/;
/** Other languages with bodiless methods (abstract, interface or trait members). */
const OTHER_DECLARING = /\.(java|cs|rs|php)$/;
const DECLARE = /^\s*(export\s+)?(default\s+)?declare\s/;
const STATIC = /^\s*static\b/;
const QUOTES = `"'\``;
/** What may follow a bodiless C++ member's `=`: pure virtual, defaulted, deleted. */
const NO_BODY_AFTER_EQUALS = /^\s*(0|default|delete)\s*;/;

export interface DefinitionShape {
  /** A name without a body (see the module note). */
  declaration: boolean;
  /** A C/C++ `static` body: visible in its own file only, so it implements no header's prototype. */
  fileLocal: boolean;
}

/**
 * The text without `//` and block comments (strings kept, so a `//` inside one stays).
 * `quotes` are the string delimiters (Rust has no single-quoted strings: `'a` is a lifetime).
 */
export function stripComments(text: string, quotes = QUOTES): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quotes.includes(ch)) {
      i = closingQuote(text, i, ch);
    } else if (ch === '/' && text[i + 1] === '/') {
      out += text.slice(from, i);
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
      from = i + 1;
    } else if (ch === '/' && text[i + 1] === '*') {
      out += text.slice(from, i) + ' ';
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/** The index of the quote closing the string opened at `open`; a `'` or `"` left open at the line's end opens nothing. */
function closingQuote(text: string, open: number, quote: string): number {
  for (let j = open + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return j;
    else if (text[j] === '\n' && quote !== '`') return open;
  }
  return quote === '`' ? text.length : open;
}

/**
 * Whether code (comments stripped) stops at a `;` outside parentheses before any body: no `{`,
 * `=>` or `= value` first (`= 0;`, `= default;`, `= delete;` are bodiless), and no `{` after it
 * (a K&R definition declares its parameters between the `)` and the body).
 */
export function endsBeforeBody(code: string, quotes = QUOTES): boolean {
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (quotes.includes(ch)) i = closingQuote(code, i, ch);
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if (ch === '{') return false;
    else if (ch === ';') return !code.slice(i + 1).includes('{');
    else if (ch === '=' && code[i + 1] !== '=' && !'=<>!'.includes(code[i - 1] ?? ''))
      return NO_BODY_AFTER_EQUALS.test(code.slice(i + 1));
  }
  return false;
}

/** Whether a definition chunk is a declaration, and whether it is a file-local C/C++ body. */
export function definitionShape(
  chunk: Pick<Chunk, 'path' | 'startLine' | 'endLine' | 'chunkType'>,
  lines: readonly string[] | null,
): DefinitionShape {
  if (AMBIENT.test(chunk.path)) return { declaration: true, fileLocal: false };
  const cFamily = C_FAMILY.test(chunk.path);
  const ts = TYPESCRIPT.test(chunk.path);
  if (!lines || !(cFamily || ts || OTHER_DECLARING.test(chunk.path)))
    return { declaration: false, fileLocal: false };
  const quotes = chunk.path.endsWith('.rs') ? '"' : QUOTES;
  const code = stripComments(lines.slice(Math.max(chunk.startLine, 1) - 1, chunk.endLine).join('\n'), quotes);
  const declaration =
    (ts && DECLARE.test(code)) ||
    ((chunk.chunkType === 'function' || chunk.chunkType === 'method') && endsBeforeBody(code, quotes));
  return { declaration, fileLocal: cFamily && !declaration && STATIC.test(code) };
}

const stem = (path: string) => path.replace(AMBIENT, '').replace(/\.[^./]+$/, '');

/**
 * Whether a body is the code behind a declaration: the same file (overloads, a forward
 * prototype); a header's prototype and any C/C++ body that is not `static` (C has one global
 * namespace for functions; a header declares what some source defines); a `.d.ts` and the
 * module of the same name beside it (`index.d.ts`, `index.js`).
 */
export function implementsDeclaration(
  body: { path: string; fileLocal: boolean },
  declaration: { path: string },
): boolean {
  if (body.path === declaration.path) return true;
  if (C_HEADER.test(declaration.path)) return C_FAMILY.test(body.path) && !body.fileLocal;
  return AMBIENT.test(declaration.path) && stem(body.path) === stem(declaration.path);
}
