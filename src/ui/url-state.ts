/**
 * Every view state lives in the URL (repo, view, query, mode, filters, file, line), so a
 * reload or a shared link restores it. Kept in the query string: works from any base path
 * on any static host.
 */
export type SearchMode = 'text' | 'regex';

export interface ViewState {
  /** 'demo', 'recent:<id>' (a stored folder handle) or 'snapshot:<name>' (cannot be re-read). */
  repo: string;
  view: 'search';
  q: string;
  mode: SearchMode;
  caseSensitive: boolean;
  wholeWord: boolean;
  include: string;
  exclude: string;
  ext: string;
  file: string;
  line: number;
}

export const DEFAULT_VIEW: ViewState = {
  repo: '',
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
};

export function parseViewState(search: string): ViewState {
  const p = new URLSearchParams(search);
  const line = Number.parseInt(p.get('line') ?? '', 10);
  return {
    repo: p.get('repo') ?? '',
    view: 'search',
    q: p.get('q') ?? '',
    mode: p.get('mode') === 'regex' ? 'regex' : 'text',
    caseSensitive: p.get('case') === '1',
    wholeWord: p.get('word') === '1',
    include: p.get('include') ?? '',
    exclude: p.get('exclude') ?? '',
    ext: p.get('ext') ?? '',
    file: p.get('file') ?? '',
    line: Number.isFinite(line) && line > 0 ? line : 0,
  };
}

/** Only non-default values are written, in a stable order, so links stay short and readable. */
export function serializeViewState(s: ViewState): string {
  const p = new URLSearchParams();
  if (s.repo) p.set('repo', s.repo);
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
