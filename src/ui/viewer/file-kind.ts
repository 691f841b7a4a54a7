/**
 * How the viewer shows a file: Markdown rendered (or its source), an image as a picture (an SVG
 * also as its source), everything else as text. Plain TS (tested in Node).
 */
import { extensionOf, isImagePath } from '../shell/file-icons';

export type ViewerKind = 'markdown' | 'image' | 'text';

const MARKDOWN = new Set(['md', 'markdown']);

export function viewerKind(path: string): ViewerKind {
  if (MARKDOWN.has(extensionOf(path))) return 'markdown';
  if (isImagePath(path)) return 'image';
  return 'text';
}

/** An SVG is text too: it can be shown as its source. */
export function hasSource(path: string): boolean {
  const kind = viewerKind(path);
  return kind === 'markdown' || (kind === 'image' && extensionOf(path) === 'svg');
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  avif: 'image/avif',
};

/** The type a picture's blob is given (the browser still sniffs the bytes of raster formats). */
export function imageMime(path: string): string {
  return MIME[extensionOf(path)] ?? 'application/octet-stream';
}

/**
 * Whether the viewer shows the file rendered (a picture, a Markdown page) rather than as text.
 * A Markdown file opened at a line (a search hit, a link to a line) shows its source, so the line
 * can be seen; a raster image has no source to show.
 */
export function showsRendered(path: string, md: 'rendered' | 'source', line: number): boolean {
  const kind = viewerKind(path);
  if (kind === 'text') return false;
  if (!hasSource(path)) return true;
  return md === 'rendered' && (kind !== 'markdown' || line === 0);
}

/** The README a folder's listing holds, if any: README.md first, then other Markdown spellings. */
export function pickReadme(
  entries: ReadonlyArray<{ name: string; kind: string; skipped?: string }>,
): string | null {
  const candidates = entries.filter(
    (e) => e.kind === 'file' && !e.skipped && /^readme\.(md|markdown)$/i.test(e.name),
  );
  candidates.sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1));
  return candidates[0]?.name ?? null;
}

const rank = (name: string) => (name === 'README.md' ? 0 : /\.md$/i.test(name) ? 1 : 2);
