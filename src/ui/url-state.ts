/**
 * Every view state lives in the URL (repo, view, query, mode, filters, file, line), so a
 * reload or a shared link restores it. Kept in the query string: works from any base path
 * on any static host.
 */
/** Text and Regex stream grep hits; Ranked asks the code index (chunks ranked for people). */
export type SearchMode = 'text' | 'regex' | 'ranked';
export type ViewKey = 'search' | 'components' | 'routes' | 'features' | 'history';
const VIEW_KEYS: readonly ViewKey[] = ['search', 'components', 'routes', 'features', 'history'];

export interface ViewState {
  /** The open roots' keys, in order (one `repo=` parameter each); see parseRepoKey. */
  repos: string[];
  /** For the first 'git:' root: its clone URL and ref, so a shared link can offer to clone it elsewhere. */
  clone: string;
  cref: string;
  view: ViewKey;
  q: string;
  mode: SearchMode;
  caseSensitive: boolean;
  wholeWord: boolean;
  include: string;
  exclude: string;
  ext: string;
  file: string;
  line: number;
  /** Components view: name filter. */
  cq: string;
  /** Routes view: text filter, type filter ('' = all), and table or tree. */
  rq: string;
  rtype: string;
  rshow: 'tree' | 'table';
  /** Features view: the feature checked, and the flag inventory filter. */
  feature: string;
  fq: string;
}

export const DEFAULT_VIEW: ViewState = {
  repos: [],
  clone: '',
  cref: '',
  view: 'search',
  q: '',
  mode: 'text',
  caseSensitive: false,
  wholeWord: false,
  include: '',
  exclude: '',
  ext: '',
  file: '',
  line: 0,
  cq: '',
  rq: '',
  rtype: '',
  rshow: 'tree',
  feature: '',
  fq: '',
};

/** What a repository key in the address names (the engine makes keys; this is the one place the UI reads them). */
export type RepoKeyRef =
  | { kind: 'demo' }
  /** A clone in the library. */
  | { kind: 'git'; id: string }
  /** An opened folder: its handle is in the library (Recent). */
  | { kind: 'folder'; id: string }
  /** A one-time copy of a chosen folder (or files in memory): cannot be re-read after a reload. */
  | { kind: 'snapshot'; name: string }
  | { kind: 'unknown'; key: string };

export function parseRepoKey(key: string): RepoKeyRef {
  if (key === 'demo') return { kind: 'demo' };
  const colon = key.indexOf(':');
  const scheme = colon < 0 ? '' : key.slice(0, colon);
  const rest = colon < 0 ? '' : key.slice(colon + 1);
  if (scheme === 'git' && rest) return { kind: 'git', id: rest };
  if (scheme === 'recent' && rest) return { kind: 'folder', id: key };
  if ((scheme === 'snapshot' || scheme === 'memory' || scheme === 'handle') && rest) return { kind: 'snapshot', name: rest };
  return { kind: 'unknown', key };
}

export function parseViewState(search: string): ViewState {
  const p = new URLSearchParams(search);
  const line = Number.parseInt(p.get('line') ?? '', 10);
  return {
    repos: p.getAll('repo').filter(Boolean),
    clone: p.get('clone') ?? '',
    cref: p.get('cref') ?? '',
    view: VIEW_KEYS.find((v) => v === p.get('view')) ?? 'search',
    q: p.get('q') ?? '',
    mode: p.get('mode') === 'regex' ? 'regex' : p.get('mode') === 'ranked' ? 'ranked' : 'text',
    caseSensitive: p.get('case') === '1',
    wholeWord: p.get('word') === '1',
    include: p.get('include') ?? '',
    exclude: p.get('exclude') ?? '',
    ext: p.get('ext') ?? '',
    file: p.get('file') ?? '',
    line: Number.isFinite(line) && line > 0 ? line : 0,
    cq: p.get('cq') ?? '',
    rq: p.get('rq') ?? '',
    rtype: p.get('rtype') ?? '',
    rshow: p.get('rshow') === 'table' ? 'table' : 'tree',
    feature: p.get('feature') ?? '',
    fq: p.get('fq') ?? '',
  };
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
  if (s.caseSensitive) p.set('case', '1');
  if (s.wholeWord) p.set('word', '1');
  if (s.include) p.set('include', s.include);
  if (s.exclude) p.set('exclude', s.exclude);
  if (s.ext) p.set('ext', s.ext);
  if (s.file) p.set('file', s.file);
  if (s.file && s.line) p.set('line', String(s.line));
  if (s.cq) p.set('cq', s.cq);
  if (s.rq) p.set('rq', s.rq);
  if (s.rtype) p.set('rtype', s.rtype);
  if (s.rshow !== 'tree') p.set('rshow', s.rshow);
  if (s.feature) p.set('feature', s.feature);
  if (s.fq) p.set('fq', s.fq);
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
