/**
 * History's state, folded from the history job's parts (plain TS, tested in Node): the head,
 * the commit list (a `reset` part replaces it: the stored log, then the refreshed one), where
 * the list came from, the read's progress, and an opened folder's uncommitted changes.
 */
import type { QuarryError } from '../../core/errors';
import type {
  HistoryJobPart,
  HistoryLogStats,
  LogCommit,
  Progress,
  UncommittedFile,
} from '../../worker/protocol';
import { formatCount, plural } from '../format';

export type Uncommitted =
  | { state: 'none' }
  | { state: 'pending' }
  | { state: 'ready'; files: UncommittedFile[] }
  | { state: 'error'; message: string };

export interface HistoryState {
  phase: 'loading' | 'streaming' | 'done' | 'cancelled' | 'error';
  source: 'clone' | 'folder' | null;
  libraryId?: string;
  head: string | null;
  branch: string | null;
  shallow: boolean;
  commits: LogCommit[];
  /** Where the list on screen came from: the stored log, or this read. */
  from: 'cache' | 'read' | null;
  progress: { read: number; estimate: number } | null;
  uncommitted: Uncommitted;
  end: HistoryLogStats | null;
  error: QuarryError | null;
}

export const INITIAL_HISTORY: HistoryState = {
  phase: 'loading',
  source: null,
  head: null,
  branch: null,
  shallow: false,
  commits: [],
  from: null,
  progress: null,
  uncommitted: { state: 'none' },
  end: null,
  error: null,
};

export type HistoryAction =
  | { type: 'reset' }
  | { type: 'parts'; parts: HistoryJobPart[] }
  | { type: 'progress'; progress: Progress }
  | { type: 'end'; stats: HistoryLogStats }
  | { type: 'error'; error: QuarryError };

export function historyReducer(state: HistoryState, action: HistoryAction): HistoryState {
  switch (action.type) {
    case 'reset':
      return INITIAL_HISTORY;
    case 'parts': {
      let s = state;
      for (const part of action.parts) s = applyPart(s, part);
      return s;
    }
    case 'progress':
      return { ...state, progress: { read: action.progress.files, estimate: action.progress.totalFiles } };
    case 'end': {
      const stats = action.stats;
      const phase = stats.ending === 'complete' ? 'done' : 'cancelled';
      return {
        ...state,
        phase,
        end: stats,
        head: stats.available ? stats.head : state.head,
        branch: stats.available ? stats.branch : state.branch,
        shallow: stats.available ? stats.shallow : state.shallow,
        libraryId: stats.libraryId ?? state.libraryId,
        source: stats.source ?? state.source,
        // a cancelled read stops looking for uncommitted changes too
        uncommitted:
          phase === 'cancelled' && state.uncommitted.state === 'pending'
            ? { state: 'none' }
            : state.uncommitted,
      };
    }
    case 'error':
      return { ...state, phase: 'error', error: action.error };
  }
}

function applyPart(s: HistoryState, part: HistoryJobPart): HistoryState {
  switch (part.kind) {
    case 'repo':
      return {
        ...s,
        source: part.source,
        libraryId: part.libraryId,
        uncommitted: part.source === 'folder' ? { state: 'pending' } : { state: 'none' },
      };
    case 'head':
      return { ...s, head: part.head, branch: part.branch, shallow: part.shallow };
    case 'commits':
      return {
        ...s,
        phase: s.phase === 'loading' ? 'streaming' : s.phase,
        commits: part.reset ? part.commits : s.commits.concat(part.commits),
        from: part.reset ? part.from : s.from,
      };
    case 'uncommitted':
      return { ...s, uncommitted: { state: 'ready', files: part.files } };
    case 'uncommittedError':
      return { ...s, uncommitted: { state: 'error', message: part.error.message } };
  }
}

/** The progress line while the log is read: "1,200 of ~10,000 commits" (or without a total). */
export function progressText(state: HistoryState): string {
  const read = state.progress?.read ?? 0;
  const estimate = state.progress?.estimate ?? 0;
  if (state.from === 'cache')
    return read ? `Checking for new commits: ${plural(read, 'commit')} read…` : 'Checking for new commits…';
  if (!read) return 'Reading the git history…';
  return estimate > read
    ? `Reading commits: ${formatCount(read)} of ~${formatCount(estimate)}`
    : `Reading commits: ${plural(read, 'commit')} so far`;
}

/** Where the list on screen came from, said once the job ends (or while the stored log shows). */
export function freshnessText(state: HistoryState): string {
  const text = freshness(state);
  return text && state.end?.saveError
    ? `${text} · not stored for the next visit (${state.end.saveError})`
    : text;
}

function freshness(state: HistoryState): string {
  const end = state.end;
  if (!end) return state.from === 'cache' ? 'From the stored log' : '';
  if (end.ending !== 'complete')
    return state.from === 'cache'
      ? 'From the stored log (not refreshed: stopped)'
      : `Stopped after ${plural(state.commits.length, 'commit')}`;
  switch (end.refresh) {
    case 'cache_hit':
      return 'From the stored log · up to date';
    case 'incremental':
      return `From the stored log · refreshed: ${plural(end.read, 'new commit')}`;
    case 'rewritten':
      return `From the stored log · refreshed after a rewrite (${plural(end.read, 'commit')} read)`;
    case 'full':
      return `Read ${plural(end.commits, 'commit')}${end.cacheIgnored ? ' (the stored log was unusable)' : ''}`;
    default:
      return '';
  }
}
