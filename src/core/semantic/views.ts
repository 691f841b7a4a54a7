/**
 * The natural-language view of a symbol chunk, what the sentence model embeds: an English
 * model reads "write blob" well and `writeBlob(oid, buf) {` not at all, so a chunk is
 * described by words, not shown as code. Its head is the symbol name split into words
 * ("KeepAliveImpl.setup" -> "keep alive impl setup") and the path's words without the
 * extension and the usual source folders ("src/lib/git/writeBlob.ts" -> "git write blob");
 * the view is a sentence-shaped description, "<short view>. <comment words>. takes <parameter
 *   names>. uses <the words of the identifiers it calls and names>", capped at MAX_VIEW_WORDS
 *   words: the comments (the doc comment right above it and those inside) where there are
 *   some, and the code's own vocabulary, never its raw text (raw code embeds as noise; the
 *   sentence shape and the identifiers' words scored best on the tuning set). A second
 *   view of the head alone, scored by the better of the two, did worse there: one vector
 *   per chunk, half the embedding.
 */
import type { Chunk } from '../chunk/types';
import { splitIdentifier } from '../rank/identifier-parts';

/** Bumped when views change: stored vectors of other views are re-embedded. */
export const VIEWS_VERSION = 4;
export const MAX_VIEW_WORDS = 80;
/** Lines above a chunk searched for its doc comment. */
const DOC_LOOKBACK = 12;
/** Lines of a chunk's header searched for its parameters. */
const HEADER_LINES = 4;

/** Folders that say nothing about what the code does. */
const NOISE_DIRS = new Set([
  'src',
  'lib',
  'dist',
  'source',
  'sources',
  'app',
  'main',
  'pkg',
  'internal',
  'index',
  'mod',
  'init',
  '__init__',
]);
/** Words of code, not of meaning: dropped from parameter names. */
const CODE_WORDS = new Set(
  'const let var function return export default async await new this self class def fn func pub public private protected static readonly void null undefined true false string number boolean any unknown never int float double char bool str usize isize u8 u16 u32 u64 i32 i64 f32 f64 typeof instanceof extends implements'.split(
    ' ',
  ),
);
/** Keywords and plumbing words that say nothing about what a body does. */
const BODY_NOISE = new Set(
  'var let const function return if else for while new this self null nil none undefined true false typeof length result index value def fn func'.split(
    ' ',
  ),
);
/** Identifier words of the body used in the long view. */
const MAX_BODY_WORDS = 25;

/** Comment words that are markup, not meaning. */
const COMMENT_NOISE = new Set([
  'eslint',
  'disable',
  'ts',
  'ignore',
  'todo',
  'fixme',
  'xxx',
  'nocheck',
  'noinspection',
  'istanbul',
  'prettier',
]);

/** An identifier or phrase as lowercase words ("getUserById" -> "get user by id"; "user_name" -> "user name"). */
export function identifierWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[A-Za-z][A-Za-z0-9_]*|[0-9]+/g) ?? []) {
    const parts = splitIdentifier(raw);
    if (parts.length) out.push(...parts);
    else if (raw.length > 1 || /[a-z]/i.test(raw)) out.push(raw.toLowerCase());
  }
  return out;
}

/** The path's words: folders and file name, without the extension and the noise folders. */
export function pathWords(path: string): string[] {
  const segs = path.split('/');
  const file = segs.pop() ?? '';
  const dot = file.lastIndexOf('.');
  const base = dot > 0 ? file.slice(0, dot) : file;
  const words: string[] = [];
  for (const seg of [...segs, base]) {
    if (NOISE_DIRS.has(seg.toLowerCase())) continue;
    words.push(...identifierWords(seg));
  }
  return words;
}

function symbolWords(chunk: Chunk): string[] {
  return identifierWords(chunk.symbolName);
}

/** Parameter names from the chunk's header: the identifiers inside its first parentheses. */
export function parameterWords(header: string): string[] {
  // a Go method's receiver comes first: its parameters are in the second parentheses
  const receiver = /^\s*func\s*\([^)]*\)/.exec(header);
  const open = receiver ? header.indexOf('(', receiver[0].length) : header.indexOf('(');
  if (open < 0) return [];
  let depth = 0;
  let end = header.length;
  for (let i = open; i < header.length; i++) {
    const c = header[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      end = i;
      break;
    }
  }
  const inside = header.slice(open + 1, end);
  // names, not types or defaults: the identifier that starts each comma-separated parameter
  const names: string[] = [];
  let level = 0;
  let start = 0;
  const take = (part: string) => {
    const m =
      /^[\s.*&]*(?:(?:mut|ref|out|in|const|readonly|public|private|protected|final|var|val)\s+)*([A-Za-z_$][\w$]*)/.exec(
        part.replace(/[{}[\]]/g, ' '),
      );
    if (m && !CODE_WORDS.has(m[1].toLowerCase()) && m[1] !== 'self' && m[1] !== 'this') names.push(m[1]);
  };
  for (let i = 0; i < inside.length; i++) {
    const c = inside[i];
    if (c === '(' || c === '<' || c === '[' || c === '{') level++;
    else if (c === '>' && inside[i - 1] === '=')
      continue; // an arrow, not a closing angle bracket
    else if (c === ')' || c === '>' || c === ']' || c === '}') level--;
    else if (c === ',' && level <= 0) {
      take(inside.slice(start, i));
      start = i + 1;
    }
  }
  take(inside.slice(start));
  return names.flatMap((n) => identifierWords(n)).filter((w) => !CODE_WORDS.has(w));
}

const COMMENT_LINE = /^\s*(\/\/+|#+(?!include|define|if|pragma|!)|\/\*+|\*+(?!\/)|--|;+|"""|''')/;

/** The text of a comment line without its markers and tags ("@param {string} name the name" -> "name the name"). */
function commentText(line: string): string {
  return line
    .replace(/^\s*(\/\/+!?|#+|\/\*+!?|\*+|--|;+|"""|''')/, '')
    .replace(/\*+\/\s*$|"""\s*$|'''\s*$/, '')
    .replace(
      /@(param|arg|argument|returns?|throws?|type|typedef|template|see|since|example|memberOf|static|private|public|category)\b/g,
      ' ',
    )
    .replace(/\{[^}]*\}/g, ' ');
}

function isComment(line: string): boolean {
  return COMMENT_LINE.test(line);
}

/** Words of the comment block right above the chunk and of the comment lines inside it. */
function commentWords(chunk: Chunk, lines: readonly string[]): string[] {
  const texts: string[] = [];
  // above: contiguous comment lines (one blank line between them and the symbol, or among them, is allowed)
  const above: string[] = [];
  let l = Math.min(chunk.startLine - 2, lines.length - 1);
  let blanks = 0;
  for (let k = 0; k < DOC_LOOKBACK && l >= 0; k++, l--) {
    const line = lines[l];
    if (!line.trim()) {
      if (++blanks > 1) break;
      continue;
    }
    if (!isComment(line) && !/^\s*\*\/\s*$/.test(line) && !/^\s*@\w/.test(line)) break;
    above.push(line);
  }
  texts.push(...above.reverse().map(commentText));
  const last = Math.min(chunk.endLine, lines.length);
  for (let i = chunk.startLine - 1; i < last; i++) {
    const line = lines[i];
    if (isComment(line)) texts.push(commentText(line));
    else {
      // a trailing comment after code
      const m = /\s(\/\/|#)\s+(.*)$/.exec(line);
      if (m && !/['"`]/.test(line.slice(0, m.index))) texts.push(m[2]);
    }
  }
  return texts.flatMap((t) => identifierWords(t)).filter((w) => !COMMENT_NOISE.has(w));
}

/** The distinct words of the identifiers in the chunk's code lines, its signature's included (comment lines and string contents left out), in order. */
function bodyWords(chunk: Chunk, lines: readonly string[]): string[] {
  const out = new Set<string>();
  const last = Math.min(chunk.endLine, lines.length);
  for (let i = chunk.startLine - 1; i < last && out.size < MAX_BODY_WORDS; i++) {
    const line = lines[i];
    if (isComment(line)) continue;
    // strings out, and a trailing comment (its words are the comment words already)
    const code = line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, ' ').replace(/\s(\/\/|#)\s.*$/, ' ');
    for (const w of identifierWords(code)) {
      if (!BODY_NOISE.has(w)) out.add(w);
      if (out.size >= MAX_BODY_WORDS) break;
    }
  }
  return [...out];
}

function cap(words: string[]): string {
  return words.slice(0, MAX_VIEW_WORDS).join(' ');
}

function distinct(words: string[]): string[] {
  return [...new Set(words)].filter((w) => !BODY_NOISE.has(w));
}

/** The view of one chunk; `lines` are its file's lines (1-based chunk lines index them from 0). */
export function chunkView(chunk: Chunk, lines: readonly string[]): string {
  const head = distinct([...symbolWords(chunk), ...pathWords(chunk.path)]);
  const header = lines
    .slice(chunk.startLine - 1, Math.min(chunk.endLine, chunk.startLine - 1 + HEADER_LINES))
    .join(' ');
  const params = distinct(parameterWords(header));
  const comments = commentWords(chunk, lines);
  const body = bodyWords(chunk, lines);
  if (!params.length && !comments.length && !body.length) return cap(head);
  // words, with the sentence's joints: the cap counts only the words
  const parts: string[][] = [head];
  if (comments.length) parts.push(comments);
  parts.push(['takes', ...(params.length ? params : ['nothing'])]);
  if (body.length) parts.push(['uses', ...body]);
  let left = MAX_VIEW_WORDS;
  const sentences: string[] = [];
  for (const p of parts) {
    if (left <= 0) break;
    sentences.push(p.slice(0, left).join(' '));
    left -= p.length;
  }
  return sentences.join('. ');
}
