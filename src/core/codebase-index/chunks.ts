/**
 * Seed 004's chunking, as the reference engine (Locus 0.6.2) does it. The seed's own "symbol
 * chunks" section is missing, so every rule here was observed by running the engine
 * (test/parity/ drives it side by side):
 * - A symbol starts at the beginning of a line (the text's start or just after '\n') with one
 *   of PATTERNS. Whitespace is Unicode's (so it may run across lines: "function\nfoo" is a
 *   symbol on the line of `function`); a name is ASCII `[A-Za-z_][A-Za-z0-9_]*` ("naïve" is
 *   "na"). Each pattern finds its matches left to right without overlap.
 * - Symbols are ordered by line; one repeating the same line and name is dropped. A symbol's
 *   chunk runs to the line before the next symbol (the last to the file's end), at least its
 *   own line. Chunks never nest.
 * - Lines are Rust's `str::lines()`: split at '\n', one '\r' before it dropped, no empty last
 *   line after a final '\n'. A lone '\r' ends nothing.
 * - The lines before the first symbol (the preamble), joined by '\n', are put before every
 *   chunk's text with a '\n', unless they join to the empty string.
 * - A file without a symbol is one chunk: chunkType 'file', lines 1 to max(1, line count), its
 *   text the whole file as read.
 * - A chunk's tokens come from: the path with '/', '.' and '-' as spaces, a space, the symbol
 *   name, a space, the chunk text (the tokenizer splits at every other character anyway).
 * - The file is read as UTF-8 with its byte-order mark kept (so a BOM hides a first-line
 *   symbol); bytes that are not UTF-8 read as an empty text.
 */

export type SeedChunkType = 'function' | 'class' | 'const' | 'file';

export interface CodebaseChunk {
  path: string;
  startLine: number;
  endLine: number;
  /** Absent for a 'file' chunk. */
  symbolName?: string;
  chunkType: SeedChunkType;
  /** The chunk's text: the preamble (when any), '\n', its lines; a file chunk's whole text. */
  text: string;
  /** `text` in two parts: the preamble and its '\n' (shared by the file's chunks; '' when none), then the rest. */
  head: string;
  body: string;
}

/** Unicode White_Space (Rust regex's `\s`); JavaScript's `\s` differs (it has U+FEFF, lacks U+0085). */
const WS = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const NAME = '([A-Za-z_][A-Za-z0-9_]*)';
/** Start of the text or just after '\n' (JavaScript's multiline `^` also counts '\r', U+2028 and U+2029). */
const BOL = '(?<![^\\n])';

const PATTERNS: ReadonlyArray<{ re: RegExp; type: Exclude<SeedChunkType, 'file'> }> = [
  { re: `export${WS}+function${WS}+${NAME}`, type: 'function' as const },
  { re: `export${WS}+async${WS}+function${WS}+${NAME}`, type: 'function' as const },
  { re: `export${WS}+class${WS}+${NAME}`, type: 'class' as const },
  { re: `export${WS}+const${WS}+${NAME}${WS}*=`, type: 'const' as const },
  { re: `function${WS}+${NAME}`, type: 'function' as const },
  { re: `async${WS}+function${WS}+${NAME}`, type: 'function' as const },
  { re: `def${WS}+${NAME}${WS}*\\(`, type: 'function' as const },
  { re: `class${WS}+${NAME}`, type: 'class' as const },
].map(({ re, type }) => ({ re: new RegExp(BOL + re, 'g'), type }));

/** Rust's `str::lines()`. */
export function rustLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  // every part but the last ended with '\n'; only those lose a '\r'
  const endedWithNewline = text.endsWith('\n') ? parts.length : parts.length - 1;
  for (let i = 0; i < endedWithNewline; i++) if (parts[i].endsWith('\r')) parts[i] = parts[i].slice(0, -1);
  return parts;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file's bytes as the engine reads them: UTF-8, BOM kept; not UTF-8 -> ''. */
export function decodeSeedText(bytes: Uint8Array): string {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return '';
  }
}

interface Symbol {
  line: number;
  name: string;
  type: Exclude<SeedChunkType, 'file'>;
  order: number;
}

function findSymbols(text: string): Symbol[] {
  const found: Symbol[] = [];
  let order = 0;
  let lineOf: ((offset: number) => number) | null = null;
  for (const { re, type } of PATTERNS) {
    for (const m of text.matchAll(re)) {
      lineOf ??= lineFinder(text);
      found.push({ line: lineOf(m.index), name: m[1], type, order: order++ });
    }
  }
  found.sort((a, b) => a.line - b.line || a.order - b.order);
  const seen = new Set<string>();
  return found.filter((s) => {
    const k = `${s.line}\u0000${s.name}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The 1-based line of a UTF-16 offset ('\n' alone ends lines). */
function lineFinder(text: string): (offset: number) => number {
  const ends: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) ends.push(i);
  return (offset) => {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

/** The chunks of one file's text (path repo-relative, forward slashes). */
export function seedChunks(path: string, text: string): CodebaseChunk[] {
  const symbols = findSymbols(text);
  const lines = rustLines(text);
  if (!symbols.length)
    return [
      {
        path,
        startLine: 1,
        endLine: Math.max(1, lines.length),
        chunkType: 'file',
        text,
        head: '',
        body: text,
      },
    ];
  const preamble = lines.slice(0, symbols[0].line - 1).join('\n');
  const head = preamble === '' ? '' : preamble + '\n';
  return symbols.map((s, i) => {
    const next = i + 1 < symbols.length ? symbols[i + 1].line - 1 : lines.length;
    const endLine = Math.max(s.line, next);
    const body = lines.slice(s.line - 1, endLine).join('\n');
    return {
      path,
      startLine: s.line,
      endLine,
      symbolName: s.name,
      chunkType: s.type,
      text: head + body,
      head,
      body,
    };
  });
}

/** The text a chunk's tokens come from. */
export function tokenSource(chunk: CodebaseChunk): string {
  return labelOf(chunk) + chunk.text;
}

/** The path words and the name, before the text (tokens never span the separators, so a chunk's tokens are label + head + body). */
export function labelOf(chunk: CodebaseChunk): string {
  return chunk.path.replace(/[/.-]/g, ' ') + ' ' + (chunk.symbolName ?? '') + ' ';
}
