/**
 * The lexical pieces manifests.ts reads its formats with: comments blanked in C-like text
 * (Gradle), JSONC read (jsonc-parser), Ruby comments cut, and a tolerant XML element tree
 * (pom.xml). Pure and lenient: they never throw on any text.
 */
import { getNodeValue, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** `//` and `/* *\/` comments blanked outside strings in the given quotes; newlines stay, so positions hold. */
export function blankComments(text: string, quotes: string): string {
  const out: string[] = [];
  let last = 0;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (quotes.includes(c)) i = stringEnd(text, i);
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const line = text[i + 1] === '/';
      const close = line ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : line ? close : close + 2;
      out.push(text.slice(last, i), text.slice(i, end).replace(/[^\n]/g, ' '));
      last = i = end;
    } else i++;
  }
  out.push(text.slice(last));
  return out.join('');
}

/** Past the string that opens at `i` (backslash escapes), or at the line end when it is not closed there. */
export function stringEnd(text: string, i: number): number {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return j + 1;
    else if (text[j] === '\n') return j;
  }
  return text.length;
}

/**
 * JSON with comments and trailing commas (tsconfig, jsconfig, deno.jsonc), read by jsonc-parser:
 * the value, its objects without a prototype (so a key such as `__proto__` is data like any
 * other), or the first error with its line when the text is not JSONC.
 */
export function parseJsonc(text: string): { value: unknown } | { error: string } {
  const errors: ParseError[] = [];
  try {
    const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    const first = errors.at(0);
    if (first) return { error: `${printParseErrorCode(first.error)} at line ${lineAt(text, first.offset)}` };
    return tree ? { value: getNodeValue(tree) } : { error: 'no JSON value' };
  } catch (e) {
    // jsonc-parser recurses: nesting deep enough overflows the stack
    if (e instanceof RangeError) return { error: 'nested too deeply' };
    throw e;
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** A line without its Ruby `#` comment (quotes respected). */
export function withoutRubyComment(line: string): string {
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"' || line[i] === "'") i = stringEnd(line, i) - 1;
    else if (line[i] === '#') return line.slice(0, i);
  }
  return line;
}

export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

const XML_TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<[?!][^>]*>?|<(\/?)([A-Za-z_][\w.:-]*)[^>]*?(\/?)>|([^<]+)|</g;
const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Just enough XML for a pom: elements, their text (entities decoded), comments and CDATA; mismatched tags are errors, not throws. */
export function readXml(text: string, errors: string[]): XmlElement {
  const root: XmlElement = { name: '', children: [], text: '' };
  const open: XmlElement[] = [root];
  for (const token of text.matchAll(XML_TOKEN)) {
    const [all, cdata, closing, tag, selfClosing, chars] = token;
    const top = open[open.length - 1];
    if (chars !== undefined)
      top.text += chars.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => XML_ENTITIES[e]);
    else if (cdata !== undefined) top.text += cdata;
    else if (tag === undefined) continue;
    else if (closing) {
      const at = open.map((e) => e.name).lastIndexOf(tag.replace(/^.*:/, ''));
      if (at > 0) open.length = at;
      else errors.push(`unexpected </${tag}> at offset ${token.index}`);
    } else {
      const element: XmlElement = { name: tag.replace(/^.*:/, ''), children: [], text: '' };
      top.children.push(element);
      if (!selfClosing && !all.endsWith('/>')) open.push(element);
    }
  }
  if (open.length > 1) errors.push(`unclosed <${open[open.length - 1].name}>`);
  return root;
}

export const child = (e: XmlElement | undefined, name: string) => e?.children.find((c) => c.name === name);
export const children = (e: XmlElement | undefined, name: string) =>
  e?.children.filter((c) => c.name === name) ?? [];
export const textOf = (e: XmlElement | undefined, name: string) => child(e, name)?.text.trim() || null;
