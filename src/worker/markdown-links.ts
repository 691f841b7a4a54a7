/**
 * Where a Markdown link or image may lead, decided once in the worker so the view only renders:
 * http(s) pages (opened in a new tab), mailto, files of the repository (opened in the viewer;
 * images shown from the repository's own bytes), headings of the same document; anything else
 * (javascript:, data:, vbscript:, file:, a path above the root...) is 'blocked' and shown as
 * text. Character references are decoded first, and tabs, newlines and leading controls are
 * dropped as the URL parser drops them, so `&#106;avascript:` or `java\tscript:` is blocked too.
 */

export type LinkTarget =
  /** An http(s) URL, normalised by the URL parser. */
  | { kind: 'external'; href: string }
  | { kind: 'mailto'; href: string }
  /** A file of the repository: its workspace path, and a line from a `#L12` fragment (0: none). */
  | { kind: 'repo'; path: string; line: number }
  /** A heading of this document (its slug). */
  | { kind: 'anchor'; id: string }
  /** Not followed: shown as text. */
  | { kind: 'blocked'; href: string };

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  deg: '°',
  times: '×',
  divide: '÷',
  plusmn: '±',
  rarr: '→',
  larr: '←',
  uarr: '↑',
  darr: '↓',
  harr: '↔',
  check: '✓',
  sect: '§',
  para: '¶',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  shy: '\u00ad',
  zwj: '\u200d',
  zwnj: '\u200c',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
};

/**
 * Markdown text with its character references decoded (`&amp;` -> `&`, `&#x41;` -> `A`), as a
 * browser would show them. Unknown names stay as written; a code point that is not a valid
 * scalar value (0, surrogates, > U+10FFFF) becomes U+FFFD, as HTML says.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g,
    (whole, dec: string, hex: string, name: string) => {
      if (name) return NAMED[name] ?? whole;
      const cp = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex, 16);
      if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(cp);
    },
  );
}

/** A heading's id as GitHub makes it: lower case, punctuation dropped, spaces to '-'. */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The same as the URL parser's cleanup: no tab or newline anywhere, no control or space at either end. */
function clean(href: string): string {
  return href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

function safeDecodeURI(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * `target` resolved against the folder of `from` (both workspace paths); a leading '/' starts
 * at `root` (a workspace root's prefix, '' for a single root). null when it climbs above it.
 */
export function resolveRepoPath(from: string, target: string, root = ''): string | null {
  const base = target.startsWith('/')
    ? root.replace(/\/+$/, '')
    : from.slice(0, Math.max(0, from.lastIndexOf('/')));
  const floor = target.startsWith('/')
    ? base.split('/').filter(Boolean).length
    : root.replace(/\/+$/, '').split('/').filter(Boolean).length;
  const parts = base.split('/').filter(Boolean);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length <= floor) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

/** What a link's destination (as the lexer gives it) leads to, from the document at `from`. */
export function linkTarget(rawHref: string, from: string, root = ''): LinkTarget {
  const href = clean(decodeEntities(rawHref));
  if (!href) return { kind: 'blocked', href: rawHref };
  if (href.startsWith('#')) return { kind: 'anchor', id: slugify(safeDecodeURI(href.slice(1))) };
  // a scheme (anything before ':' that a URL parser would take as one), or protocol-relative '//' or '\\'
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(href)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    try {
      const url = new URL(href);
      return { kind: 'external', href: url.href };
    } catch {
      return { kind: 'blocked', href };
    }
  }
  if (scheme === 'mailto')
    return /^mailto:[^\s<>"]+$/i.test(href) ? { kind: 'mailto', href } : { kind: 'blocked', href };
  if (scheme || /^[/\\]{2}/.test(href) || href.includes('\\')) return { kind: 'blocked', href };
  // a path of the repository, with an optional ?query (dropped) and #fragment (#L12: a line)
  const hash = href.indexOf('#');
  const fragment = hash < 0 ? '' : href.slice(hash + 1);
  const beforeHash = hash < 0 ? href : href.slice(0, hash);
  const q = beforeHash.indexOf('?');
  const pathPart = safeDecodeURI(q < 0 ? beforeHash : beforeHash.slice(0, q));
  if (!pathPart)
    return fragment ? { kind: 'anchor', id: slugify(safeDecodeURI(fragment)) } : { kind: 'blocked', href };
  const path = resolveRepoPath(from, pathPart, root);
  if (path === null || path === '') return { kind: 'blocked', href };
  const line = /^L(\d{1,9})(?:-L?\d+)?$/.exec(fragment)?.[1];
  return { kind: 'repo', path, line: line ? Number(line) : 0 };
}
