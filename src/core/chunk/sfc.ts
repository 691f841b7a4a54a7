/**
 * Single-file components (Vue .vue, Svelte .svelte) and HTML files: where their scripts are,
 * so the TS/JS grammar can chunk them, and a 'section' chunk per top-level block. Pure: a
 * careful tag scanner, not an HTML parser.
 *
 * THE SCANNER. A tag is `<` and a name (a letter, then letters, digits, `_` `:` `.` `-`;
 * `</` and a name for an end tag); its
 * attributes are read with their quoted values, so a `>` or `<script>` inside a value does not
 * end the tag or start another. `<!-- ... -->` comments, `<!...>` and `<?...>` are skipped.
 * The content of `script`, `style`, `textarea`, `title` and `xmp` is raw text up to the first
 * `</name` (case-insensitive, as in HTML: a `"</script>"` in JS ends the script there as it
 * does in a browser, a `"<script>"` does not start one). Unterminated tags, comments and
 * blocks run to the end of the file.
 *   Vue: every top-level element is a block; `<template>` (unless it has a lang other than
 *   html) holds markup and ends at its matching `</template>` (nested `<template>`s counted,
 *   `{{ ... }}` interpolations skipped); any other block is raw text up to its end tag, as in
 *   Vue's own SFC parser. Only top-level `<script>` blocks are scripts.
 *   Svelte: `{ ... }` expressions in text and as attribute values are skipped (strings inside
 *   them followed); elements nest on a stack (void elements and `/>` do not open; an end tag
 *   pops back to its element and is ignored when it is not among the innermost 64 open). `<script>` and `<style>`
 *   with nothing open are the component's blocks. Every JS `<script>` is a script, top-level
 *   or in `<svelte:head>`.
 *   HTML: every JS `<script>`.
 *
 * SCRIPTS. Skipped: `src=` (external), a `type` that is not JavaScript (text/template,
 * application/json, importmap, ...: JavaScript is no type, `module`, text/javascript and its
 * aliases, text/babel and text/jsx (JSX: the javascript grammar), text/typescript), a `lang`
 * that is not ts/tsx/js/jsx/typescript/javascript, and blank content. lang ts/typescript ->
 * 'typescript', tsx -> 'tsx', anything else -> 'javascript'. `text` is the content exactly
 * (CRLF kept); when the opening tag's line holds nothing more, the content starts on the next
 * line and so does startLine. Line N of `text` is line startLine+N-1 of the file.
 *
 * SECTIONS (.vue and .svelte only; HTML files get []): one 'section' chunk per top-level block,
 * from the line of its `<` to the line of its end tag's `>` (or the last line), named by the
 * tag in lower case plus the attributes that make it a different block: `setup`, `scoped`,
 * `module`, `context="module"` (`script setup`, `style scoped`, `script context="module"`,
 * custom blocks such as `i18n`). Svelte's markup outside its blocks gives a 'markup' section
 * per run of lines between blocks (trimmed of blank lines; lines shared with a block are the
 * block's).
 */
import { lineIndex } from './fallback';
import type { Chunk } from './types';

export type SfcKind = 'vue' | 'svelte' | 'html';

export interface EmbeddedScript {
  language: 'typescript' | 'tsx' | 'javascript';
  /** The file line of `text`'s first line (1-based). */
  startLine: number;
  text: string;
}

/** By final extension, case-sensitive: .vue, .svelte, .html and .htm; otherwise null. */
export function sfcKindForPath(path: string): SfcKind | null {
  const m = /\.(vue|svelte|html|htm)$/.exec(path);
  if (!m) return null;
  return m[1] === 'htm' ? 'html' : (m[1] as SfcKind);
}

interface Element {
  /** Lower case. */
  name: string;
  attrs: Map<string, string | true>;
  /** Offset of the `<`. */
  start: number;
  contentStart: number;
  contentEnd: number;
  /** Offset after the end tag's `>` (the text's length when unterminated). */
  end: number;
  topLevel: boolean;
}

export function embeddedScripts(path: string, text: string): EmbeddedScript[] {
  try {
    return scripts(sfcKindForPath(path) ?? 'html', text);
  } catch {
    return []; // a scanner bug must not fail the file; its text is still indexed
  }
}

function scripts(kind: SfcKind, text: string): EmbeddedScript[] {
  const lineAt = lineIndex(text);
  const out: EmbeddedScript[] = [];
  for (const el of scan(text, kind)) {
    if (el.name !== 'script' || (kind === 'vue' && !el.topLevel)) continue;
    const language = scriptLanguage(el.attrs);
    if (!language) continue;
    let from = el.contentStart;
    const content = text.slice(from, el.contentEnd);
    if (/^\s*$/.test(content)) continue;
    const lead = /^[ \t\r]*\n/.exec(content);
    if (lead) from += lead[0].length;
    out.push({ language, startLine: lineAt(from) + 1, text: text.slice(from, el.contentEnd) });
  }
  return out;
}

export function sfcSections(path: string, text: string): Chunk[] {
  const kind = sfcKindForPath(path);
  if (kind !== 'vue' && kind !== 'svelte') return [];
  try {
    return sections(kind, path, text);
  } catch {
    return [];
  }
}

function sections(kind: 'vue' | 'svelte', path: string, text: string): Chunk[] {
  const lineAt = lineIndex(text);
  const blocks = scan(text, kind).filter(
    (el) => el.topLevel && (kind === 'vue' || el.name === 'script' || el.name === 'style'),
  );
  const out: Chunk[] = blocks.map((el) => ({
    path,
    startLine: lineAt(el.start) + 1,
    endLine: lineAt(Math.max(el.start, el.end - 1)) + 1,
    symbolName: sectionName(el),
    chunkType: 'section' as const,
  }));
  if (kind === 'svelte') {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    let from = 1;
    const gap = (to: number) => {
      let s = from;
      let e = to;
      while (s <= e && /^\s*$/.test(lines[s - 1])) s++;
      while (e >= s && /^\s*$/.test(lines[e - 1])) e--;
      if (s <= e) out.push({ path, startLine: s, endLine: e, symbolName: 'markup', chunkType: 'section' });
    };
    for (const c of [...out]) {
      gap(c.startLine - 1);
      from = Math.max(from, c.endLine + 1);
    }
    gap(lines.length);
  }
  return out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

function sectionName(el: Element): string {
  let name = el.name;
  for (const flag of ['setup', 'scoped', 'module']) if (el.attrs.has(flag)) name += ` ${flag}`;
  if (el.attrs.get('context') === 'module') name += ' context="module"';
  return name;
}

const JS_TYPES = new Set([
  'module',
  'text/javascript',
  'application/javascript',
  'text/ecmascript',
  'application/ecmascript',
  'application/x-javascript',
  'text/x-javascript',
  'text/jsx',
  'text/babel',
  'text/typescript',
  'application/typescript',
]);

function scriptLanguage(attrs: Map<string, string | true>): EmbeddedScript['language'] | null {
  if (attrs.has('src')) return null;
  const type = attrs.get('type');
  const t = typeof type === 'string' ? type.split(';')[0].trim().toLowerCase() : '';
  if (t !== '' && !JS_TYPES.has(t)) return null;
  const lang = attrs.get('lang');
  const l = typeof lang === 'string' ? lang.trim().toLowerCase() : '';
  if (l === 'ts' || l === 'typescript') return 'typescript';
  if (l === 'tsx') return 'tsx';
  if (l === '') return t.endsWith('typescript') ? 'typescript' : 'javascript';
  return l === 'js' || l === 'javascript' || l === 'jsx' ? 'javascript' : null;
}

/** An end tag closes its element only within this many open elements (else it is ignored): bounded work per tag. */
const MAX_POP = 64;
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp']);
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** The elements that matter: every raw-text element (script, style, ...) and, for Vue, every top-level block. */
function scan(text: string, kind: SfcKind): Element[] {
  const out: Element[] = [];
  const n = text.length;
  const open: string[] = []; // svelte/html nesting
  let i = 0;
  // The next `<` and `{` at or after i, each searched for once per occurrence (linear time).
  let lt = -1;
  let brace = kind === 'svelte' ? -1 : n;
  while (i < n) {
    if (lt < i) lt = indexOrEnd(text, '<', i);
    if (brace < i) brace = indexOrEnd(text, '{', i);
    if (brace < lt) {
      i = skipBraces(text, brace);
      continue;
    }
    if (lt >= n) break;
    const tag = readTag(text, lt, kind === 'svelte');
    if (!tag) {
      i = lt + 1;
      continue;
    }
    i = tag.end;
    if (tag.kind === 'close') {
      if (kind !== 'vue') {
        for (let at = open.length - 1; at >= Math.max(0, open.length - MAX_POP); at--) {
          if (open[at] !== tag.name) continue;
          open.length = at;
          break;
        }
      }
      continue;
    }
    if (tag.kind !== 'open') continue;
    const topLevel = kind === 'vue' || open.length === 0;
    const el: Element = {
      name: tag.name,
      attrs: tag.attrs,
      start: lt,
      contentStart: tag.end,
      contentEnd: tag.end,
      end: tag.end,
      topLevel,
    };
    if (tag.selfClosing) {
      if (kind === 'vue' || RAW_TEXT.has(tag.name)) out.push(el);
      continue;
    }
    const lang = tag.attrs.get('lang');
    if (
      kind === 'vue' &&
      tag.name === 'template' &&
      (typeof lang !== 'string' || lang.toLowerCase() === 'html')
    ) {
      const close = templateEnd(text, tag.end);
      el.contentEnd = close.contentEnd;
      el.end = close.end;
    } else if (kind === 'vue' || RAW_TEXT.has(tag.name)) {
      const close = rawEnd(text, tag.end, tag.name);
      el.contentEnd = close.contentEnd;
      el.end = close.end;
    } else {
      if (!VOID.has(tag.name)) open.push(tag.name);
      continue;
    }
    out.push(el);
    i = el.end;
  }
  return out;
}

interface Tag {
  kind: 'open' | 'close' | 'other';
  name: string;
  attrs: Map<string, string | true>;
  selfClosing: boolean;
  /** Offset after the `>` (the text's length when unterminated). */
  end: number;
}

/** The tag at `<` (offset lt), or null when this `<` starts none (`a < b`, `<3`). */
function readTag(text: string, lt: number, braces: boolean): Tag | null {
  const n = text.length;
  const other = (end: number): Tag => ({
    kind: 'other',
    name: '',
    attrs: new Map(),
    selfClosing: false,
    end,
  });
  if (text.startsWith('<!--', lt)) {
    const close = text.indexOf('-->', lt + 4);
    return other(close < 0 ? n : close + 3);
  }
  if (text[lt + 1] === '!' || text[lt + 1] === '?') {
    const close = text.indexOf('>', lt + 2);
    return other(close < 0 ? n : close + 1);
  }
  const closing = text[lt + 1] === '/';
  TAG_NAME.lastIndex = lt + (closing ? 2 : 1);
  const m = TAG_NAME.exec(text);
  if (!m) return null;
  const name = m[0].toLowerCase();
  let i = TAG_NAME.lastIndex;
  if (closing) {
    const close = text.indexOf('>', i);
    return { kind: 'close', name, attrs: new Map(), selfClosing: false, end: close < 0 ? n : close + 1 };
  }
  const attrs = new Map<string, string | true>();
  while (i < n) {
    const c = text[i];
    if (c === '>') return { kind: 'open', name, attrs, selfClosing: false, end: i + 1 };
    if (c === '/' && text[i + 1] === '>') return { kind: 'open', name, attrs, selfClosing: true, end: i + 2 };
    if (/\s|\//.test(c)) {
      i++;
      continue;
    }
    if (braces && c === '{') {
      i = skipBraces(text, i); // {spread} or {shorthand}
      continue;
    }
    ATTR_NAME.lastIndex = i;
    const a = ATTR_NAME.exec(text);
    const attr = a ? a[0] : c;
    i += attr.length;
    while (i < n && /\s/.test(text[i])) i++;
    if (text[i] !== '=') {
      attrs.set(attr.toLowerCase(), true);
      continue;
    }
    i++;
    while (i < n && /\s/.test(text[i])) i++;
    const q = text[i];
    let value: string;
    if (q === '"' || q === "'") {
      const close = text.indexOf(q, i + 1);
      const stop = close < 0 ? n : close;
      value = text.slice(i + 1, stop);
      i = stop + 1;
    } else if (braces && q === '{') {
      const stop = skipBraces(text, i);
      value = text.slice(i, stop);
      i = stop;
    } else {
      UNQUOTED.lastIndex = i;
      value = UNQUOTED.exec(text)?.[0] ?? '';
      i += value.length;
    }
    attrs.set(attr.toLowerCase(), value);
  }
  return { kind: 'open', name, attrs, selfClosing: false, end: n };
}

const TAG_NAME = /[A-Za-z][\w:.-]*/y; // svelte:head, my-element, Foo.Bar
const ATTR_NAME = /[^\s/>="'{]+/y;
const UNQUOTED = /[^\s>]*/y;

/** After the `}` that matches the `{` at i (strings in between followed), or the text's length. */
function skipBraces(text: string, i: number): number {
  const n = text.length;
  let depth = 0;
  for (; i < n; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') {
      if (--depth === 0) return i + 1;
    } else if (c === '"' || c === "'" || c === '`') {
      for (i++; i < n && text[i] !== c; i++) if (text[i] === '\\') i++;
    }
  }
  return n;
}

/** Raw text from `from` up to `</name` (case-insensitive; `name` is lower case) and a space, `/`, `>` or the end. */
function rawEnd(text: string, from: number, name: string): { contentEnd: number; end: number } {
  const n = text.length;
  for (let at = text.indexOf('</', from); at >= 0; at = text.indexOf('</', at + 2)) {
    const after = at + 2 + name.length;
    if (text.slice(at + 2, after).toLowerCase() !== name || (after < n && !/[\s/>]/.test(text[after])))
      continue;
    const close = text.indexOf('>', after);
    return { contentEnd: at, end: close < 0 ? n : close + 1 };
  }
  return { contentEnd: n, end: n };
}

/** A Vue template's content from `from` up to its matching `</template>`. */
function templateEnd(text: string, from: number): { contentEnd: number; end: number } {
  const n = text.length;
  let depth = 1;
  let i = from;
  let lt = -1;
  let mustache = -1;
  while (i < n) {
    if (lt < i) lt = indexOrEnd(text, '<', i);
    if (mustache < i) mustache = indexOrEnd(text, '{{', i);
    if (mustache < lt) {
      const close = text.indexOf('}}', mustache + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (lt >= n) break;
    const tag = readTag(text, lt, false);
    if (!tag) {
      i = lt + 1;
      continue;
    }
    i = tag.end;
    if (tag.kind === 'close' && tag.name === 'template' && --depth === 0)
      return { contentEnd: lt, end: tag.end };
    if (tag.kind !== 'open' || tag.selfClosing) continue;
    if (tag.name === 'template') depth++;
    else if (RAW_TEXT.has(tag.name)) i = rawEnd(text, tag.end, tag.name).end;
  }
  return { contentEnd: n, end: n };
}

function indexOrEnd(text: string, what: string, from: number): number {
  const at = text.indexOf(what, from);
  return at < 0 ? text.length : at;
}
