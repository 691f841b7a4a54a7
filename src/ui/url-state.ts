/**
 * Every view state lives in the URL (repo, view, query, mode, order, filters, file, line), so a
 * reload or a shared link restores it. Kept in the query string: works from any base path
 * on any static host. Text fields are capped (core/limits.ts) as the address is read.
 */
import { MAX_PATH_CHARS, MAX_QUERY_CHARS, queryTooLongMessage } from '../core/limits';
import type { ResultOrder } from '../core/grep/text-relevance';

/** Text and Regex stream grep hits; Ranked asks the code index (chunks ranked for people). */
export type SearchMode = 'text' | 'regex' | 'ranked' | 'semantic' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['text', 'regex', 'ranked', 'semantic', 'hybrid'];
export type ViewKey = 'search' | 'explore' | 'components' | 'routes' | 'features' | 'history';
const VIEW_KEYS: readonly ViewKey[] = ['search', 'explore', 'components', 'routes', 'features', 'history'];
export type ExploreDepthKey = 'shallow' | 'standard' | 'deep';

export interface ViewState {
  /** The open roots' keys, in order (one `repo=` parameter each); see parseRepoKey. */
  repos: string[];
  /** For the first 'git:' root: its clone URL and ref, so a shared link can offer to clone it elsewhere. */
  clone: string;
  cref: string;
  view: ViewKey;
  q: string;
  mode: SearchMode;
  /** How Text/Regex results are ordered: by relevance (the default, not written) or by path. */
  order: ResultOrder;
  caseSensitive: boolean;
  wholeWord: boolean;
  include: string;
  exclude: string;
  ext: string;
  file: string;
  line: number;
  /**
   * The caret's column on `line` (1-based; 0: none). With the line it makes every jump's place in
   * the browser's history exact: Back (Alt+←, the mouse's back button, the browser's own) lands
   * on the column the caret left, as in VS Code. An update of the line alone resets it.
   */
  col: number;
  /** Components view: name filter. */
  cq: string;
  /** Routes view: text filter, type filter ('' = all), and table or tree. */
  rq: string;
  rtype: string;
  rshow: 'tree' | 'table' | 'graph';
  /** Features view: the feature checked, and the flag inventory filter. */
  feature: string;
  fq: string;
  /** Explore view: the folder explored ('' = the whole repository), the focus, the depth. */
  xpath: string;
  xfocus: string;
  xdepth: ExploreDepthKey;
  /** Navigation: the identifier looked up, and whether its definitions or its references are listed ('' = none). */
  sym: string;
  nav: NavKind;
  /** History: the open file shown as a diff: a commit's oid (against its first parent) or 'worktree' (uncommitted, against HEAD). */
  diff: string;
  /** How a diff is laid out. */
  dview: 'split' | 'inline';
  /** The open file with blame, and with its history listed. */
  blame: boolean;
  fhist: boolean;
  /** A Markdown file shown as its source rather than rendered. */
  md: 'rendered' | 'source';
}

export type NavKind = '' | 'defs' | 'refs';

export const DEFAULT_VIEW: ViewState = {
  repos: [],
  clone: '',
  cref: '',
  view: 'search',
  q: '',
  mode: 'text',
  order: 'relevance',
  caseSensitive: false,
  wholeWord: false,
  include: '',
  exclude: '',
  ext: '',
  file: '',
  line: 0,
  col: 0,
  cq: '',
  rq: '',
  rtype: '',
  rshow: 'tree',
  feature: '',
  fq: '',
  xpath: '',
  xfocus: '',
  xdepth: 'deep',
  sym: '',
  nav: '',
  diff: '',
  dview: 'split',
  blame: false,
  fhist: false,
  md: 'rendered',
};

/** The address's `repo=` value that opens nothing: the app starts empty, without the demo. */
export const NO_REPO = 'none';

/** What a repository key in the address names (the engine makes keys; this is the one place the UI reads them). */
export type RepoKeyRef =
  | { kind: 'demo' }
  /** No repository: the app starts empty (a link that should not download the demo). */
  | { kind: 'none' }
  /** A clone in the library. */
  | { kind: 'git'; id: string }
  /** An opened folder: its handle is in the library (Recent). */
  | { kind: 'folder'; id: string }
  /** A one-time copy of a chosen folder (or files in memory): cannot be re-read after a reload. */
  | { kind: 'snapshot'; name: string }
  /** The folder `quarry serve --root` exposes: reopened when the page still names it. */
  | { kind: 'served'; name: string }
  | { kind: 'unknown'; key: string };

export function parseRepoKey(key: string): RepoKeyRef {
  if (key === 'demo') return { kind: 'demo' };
  if (key === NO_REPO) return { kind: 'none' };
  const colon = key.indexOf(':');
  const scheme = colon < 0 ? '' : key.slice(0, colon);
  const rest = colon < 0 ? '' : key.slice(colon + 1);
  if (scheme === 'git' && rest) return { kind: 'git', id: rest };
  if (scheme === 'recent' && rest) return { kind: 'folder', id: key };
  if (scheme === 'served' && rest) return { kind: 'served', name: rest };
  if ((scheme === 'snapshot' || scheme === 'memory' || scheme === 'handle') && rest)
    return { kind: 'snapshot', name: rest };
  return { kind: 'unknown', key };
}

/**
 * Whether an address's `clone=` may be offered for cloning: an http(s) URL with a host, the only
 * kind a browser clones. A link's `javascript:`, `file:` or `data:` URL is refused before the page
 * offers anything (the clone itself refuses them too).
 */
export function isCloneUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return false;
  }
  return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
}

/** The text fields of the address, each with the name its length-cap message gives it. */
const TEXT_FIELDS = {
  q: 'The search query',
  include: 'The include filter',
  exclude: 'The exclude filter',
  ext: 'The extensions filter',
  cq: 'The component filter',
  rq: 'The route filter',
  fq: 'The flag filter',
  feature: 'The feature name',
  clone: 'The clone URL',
  cref: 'The clone branch or tag',
  xpath: 'The explored path',
  xfocus: 'The explore focus',
  sym: 'The symbol',
  diff: 'The diff',
} as const satisfies Partial<Record<keyof ViewState, string>>;

/** A field of the address over its cap (MAX_QUERY_CHARS; MAX_PATH_CHARS for the file), and what was done. */
export interface Overlong {
  field: keyof ViewState;
  length: number;
  /** Said to the person: the engine's message for the cap, then what the app did with the value. */
  message: string;
}

/** The first `limit` UTF-16 units of `text`, never ending inside a surrogate pair. */
export function clipText(text: string, limit = MAX_QUERY_CHARS): string {
  if (text.length <= limit) return text;
  const end = /[\uD800-\uDBFF]/.test(text[limit - 1]) ? limit - 1 : limit;
  return text.slice(0, end);
}

/** What the person reads when a text over MAX_QUERY_CHARS was cut: the engine's message, then what the app did. */
export function clippedMessage(label: string, length: number): string {
  return `${queryTooLongMessage(label, length)}; only its first ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters are used.`;
}

/**
 * Raw characters decoded per value at most: enough for MAX_QUERY_CHARS UTF-16 units (one unit
 * takes at most 9, `%E2%80%AE`). A longer value is decoded only that far, and its length counted.
 */
const MAX_DECODED_RAW = 9 * MAX_QUERY_CHARS + 12;
/** No parameter Quarry reads has a longer name. */
const MAX_KEY_RAW = 64;

export interface AddressValue {
  /** Decoded; over MAX_DECODED_RAW raw characters, only its first MAX_QUERY_CHARS units (a surrogate pair kept whole). */
  value: string;
  /** The whole value's decoded length (UTF-16 units). */
  length: number;
}

const formDecode = (raw: string): string => new URLSearchParams(`v=${raw}`).get('v') ?? '';

/** The UTF-16 length `raw` decodes to, counted without decoding it (lone bytes counted as one). */
function decodedLength(raw: string): number {
  const hex = (i: number) => {
    const c = raw.charCodeAt(i) | 0x20; // lower case; NaN past the end gives 32
    return (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
  };
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw.charCodeAt(i) === 37 && hex(i + 1) && hex(i + 2)) {
      const byte = Number.parseInt(raw.slice(i + 1, i + 3), 16);
      // a UTF-8 continuation byte adds nothing; a 4-byte sequence's lead makes a surrogate pair
      if (byte < 0x80 || byte >= 0xc0) n += byte >= 0xf0 ? 2 : 1;
      i += 2;
    } else n++;
  }
  return n;
}

/**
 * An address's query string as name -> values, as URLSearchParams reads it, except that no
 * value is decoded past what MAX_QUERY_CHARS needs: a 300,000-character query costs a split
 * and a count, not a decode of all of it (URLSearchParams took 50-360 ms on one here).
 */
export function readAddressParams(search: string): Map<string, AddressValue[]> {
  const out = new Map<string, AddressValue[]>();
  for (const part of (search.startsWith('?') ? search.slice(1) : search).split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    if (rawKey.length > MAX_KEY_RAW) continue;
    const raw = eq < 0 ? '' : part.slice(eq + 1);
    let entry: AddressValue;
    if (raw.length <= MAX_DECODED_RAW) {
      const value = formDecode(raw);
      entry = { value, length: value.length };
    } else {
      // never cut inside a %XX escape
      const pct = raw.lastIndexOf('%', MAX_DECODED_RAW - 1);
      const cut = pct > MAX_DECODED_RAW - 3 ? pct : MAX_DECODED_RAW;
      // the first MAX_QUERY_CHARS units are whole characters (a sequence cut at the end decodes past them)
      entry = { value: clipText(formDecode(raw.slice(0, cut))), length: decodedLength(raw) };
    }
    const key = formDecode(rawKey);
    const list = out.get(key);
    if (list) list.push(entry);
    else out.set(key, [entry]);
  }
  return out;
}

/**
 * The view state in an address, with every text field cut to MAX_QUERY_CHARS (a file path
 * over MAX_PATH_CHARS is dropped): nothing downstream (the search box, the links, the
 * engine) ever holds a 300,000-character query. `overlong` says what was cut, for the person.
 */
export function readViewState(search: string): { state: ViewState; overlong: Overlong[] } {
  const params = readAddressParams(search);
  const entry = (name: string): AddressValue | undefined => params.get(name)?.[0];
  const p = {
    get: (name: string) => entry(name)?.value ?? null,
    getAll: (name: string) => (params.get(name) ?? []).map((e) => clipText(e.value)),
  };
  const overlong: Overlong[] = [];
  const text = (field: keyof typeof TEXT_FIELDS): string => {
    const e = entry(field);
    if (!e) return '';
    if (e.length <= MAX_QUERY_CHARS) return e.value;
    overlong.push({ field, length: e.length, message: clippedMessage(TEXT_FIELDS[field], e.length) });
    return clipText(e.value);
  };
  const fileEntry = entry('file');
  let file = fileEntry?.value ?? '';
  if (fileEntry && fileEntry.length > MAX_PATH_CHARS) {
    const message = `The file path is too long: ${fileEntry.length} characters (the limit is ${MAX_PATH_CHARS}). No file was opened.`;
    overlong.push({ field: 'file', length: fileEntry.length, message });
    file = '';
  }
  const line = Number.parseInt((p.get('line') ?? '').slice(0, 16), 10);
  const col = Number.parseInt((p.get('col') ?? '').slice(0, 16), 10);
  const state: ViewState = {
    repos: p.getAll('repo').filter(Boolean),
    clone: text('clone'),
    cref: text('cref'),
    view: VIEW_KEYS.find((v) => v === p.get('view')) ?? 'search',
    q: text('q'),
    mode: SEARCH_MODES.find((m) => m === p.get('mode')) ?? 'text',
    order: p.get('order') === 'path' ? 'path' : 'relevance',
    caseSensitive: p.get('case') === '1',
    wholeWord: p.get('word') === '1',
    include: text('include'),
    exclude: text('exclude'),
    ext: text('ext'),
    file,
    line: Number.isFinite(line) && line > 0 ? line : 0,
    col: Number.isFinite(line) && line > 0 && Number.isFinite(col) && col > 0 ? col : 0,
    cq: text('cq'),
    rq: text('rq'),
    rtype: p.get('rtype') ?? '',
    rshow: p.get('rshow') === 'table' ? 'table' : p.get('rshow') === 'graph' ? 'graph' : 'tree',
    feature: text('feature'),
    fq: text('fq'),
    xpath: text('xpath'),
    xfocus: text('xfocus'),
    xdepth: p.get('xdepth') === 'shallow' ? 'shallow' : p.get('xdepth') === 'standard' ? 'standard' : 'deep',
    sym: text('sym'),
    nav: p.get('nav') === 'defs' ? 'defs' : p.get('nav') === 'refs' ? 'refs' : '',
    diff: text('diff'),
    dview: p.get('dview') === 'inline' ? 'inline' : 'split',
    blame: p.get('blame') === '1',
    fhist: p.get('fhist') === '1',
    md: p.get('md') === 'source' ? 'source' : 'rendered',
  };
  return { state, overlong };
}

export function parseViewState(search: string): ViewState {
  return readViewState(search).state;
}

/** Only non-default values are written, in a stable order, so links stay short and readable. */
export function serializeViewState(s: ViewState): string {
  const p = new URLSearchParams();
  for (const r of s.repos) p.append('repo', r);
  const hasClone = s.repos.some((r) => parseRepoKey(r).kind === 'git');
  if (s.clone && hasClone) p.set('clone', s.clone);
  if (s.cref && s.clone && hasClone) p.set('cref', s.cref);
  if (s.view !== 'search') p.set('view', s.view);
  if (s.q) p.set('q', s.q);
  if (s.mode !== 'text') p.set('mode', s.mode);
  if (s.order !== 'relevance') p.set('order', s.order);
  if (s.caseSensitive) p.set('case', '1');
  if (s.wholeWord) p.set('word', '1');
  if (s.include) p.set('include', s.include);
  if (s.exclude) p.set('exclude', s.exclude);
  if (s.ext) p.set('ext', s.ext);
  if (s.file) p.set('file', s.file);
  if (s.file && s.line) p.set('line', String(s.line));
  if (s.file && s.line && s.col) p.set('col', String(s.col));
  if (s.cq) p.set('cq', s.cq);
  if (s.rq) p.set('rq', s.rq);
  if (s.rtype) p.set('rtype', s.rtype);
  if (s.rshow !== 'tree') p.set('rshow', s.rshow);
  if (s.feature) p.set('feature', s.feature);
  if (s.fq) p.set('fq', s.fq);
  if (s.xpath) p.set('xpath', s.xpath);
  if (s.xfocus) p.set('xfocus', s.xfocus);
  if (s.xdepth !== 'deep') p.set('xdepth', s.xdepth);
  if (s.sym) p.set('sym', s.sym);
  if (s.sym && s.nav) p.set('nav', s.nav);
  if (s.file && s.diff) p.set('diff', s.diff);
  if (s.file && s.diff && s.dview !== 'split') p.set('dview', s.dview);
  if (s.file && s.blame) p.set('blame', '1');
  if (s.file && s.fhist) p.set('fhist', '1');
  if (s.file && s.md !== 'rendered') p.set('md', s.md);
  const out = p.toString();
  return out ? `?${out}` : '';
}

/** A comma- or space-separated filter field as a list. */
export function splitList(value: string): string[] {
  return value
    .split(/[,\s]+/)
    .map((v) => v.trim())
    .filter(Boolean);
}
