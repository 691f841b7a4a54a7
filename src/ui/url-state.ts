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
  /** 'demo', 'recent:<id>' (a stored folder handle), 'git:<id>' (a clone in the library) or 'snapshot:<name>' (cannot be re-read). */
  repo: string;
  /** For a 'git:' repo: its clone URL and ref, so a shared link can offer to clone it elsewhere. */
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
  repo: '',
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

export function parseViewState(search: string): ViewState {
  const p = new URLSearchParams(search);
  const line = Number.parseInt(p.get('line') ?? '', 10);
  return {
    repo: p.get('repo') ?? '',
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
  if (s.repo) p.set('repo', s.repo);
  if (s.clone && s.repo.startsWith('git:')) p.set('clone', s.clone);
  if (s.cref && s.clone && s.repo.startsWith('git:')) p.set('cref', s.cref);
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
