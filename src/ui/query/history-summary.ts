/** What a history search (type:commit, type:diff) says about itself: progress, the end, a shallow log's reach. */
import type { QuarryError } from '../../core/errors';
import type { HistorySearchStats, Progress } from '../../worker/protocol';
import { formatCount, plural } from '../format';

export type HistoryRun =
  | { state: 'idle' }
  | { state: 'running'; progress: Progress | null }
  | { state: 'done'; stats: HistorySearchStats }
  | { state: 'error'; error: QuarryError };

/** The line above the results: what is being done, or what was found. */
export function historySummary(run: HistoryRun, kind: 'commit' | 'diff'): string {
  const what = kind === 'diff' ? 'commit changed matching lines' : 'commit matches';
  const whatMany = kind === 'diff' ? 'commits changed matching lines' : 'commits match';
  switch (run.state) {
    case 'idle':
    case 'error':
      return '';
    case 'running': {
      const p = run.progress;
      if (!p) return 'Searching the history…';
      if (p.phase === 'searching')
        return `Searched ${formatCount(p.files)} of ${plural(p.totalFiles, 'commit')}…`;
      return p.totalFiles
        ? `Reading the commit log… ${formatCount(p.files)} of about ${formatCount(p.totalFiles)}`
        : `Reading the commit log… ${formatCount(p.files)}`;
    }
    case 'done': {
      const s = run.stats;
      const searched = `${formatCount(s.searched)} of ${plural(s.total, 'commit')}`;
      if (s.ending === 'cancelled')
        return `Cancelled after searching ${searched}: ${plural(s.matched, 'commit')} found.`;
      if (!s.matched) return `No commits match (searched ${searched}).`;
      if (s.limitHit)
        return `Showing the first ${plural(s.matched, 'commit')} (searched ${searched}); add count:all for every one.`;
      return `${formatCount(s.matched)} ${s.matched === 1 ? what : whatMany} (searched ${searched}, ${Math.round(s.elapsedMs)} ms)`;
    }
  }
}

/** How far back a shallow log let the search reach (null when the log is whole). */
export function shallowNote(stats: HistorySearchStats): string | null {
  if (!stats.shallow) return null;
  return stats.oldest === null
    ? 'History is shallow: older commits were not fetched.'
    : `History is shallow: searched back to ${new Date(stats.oldest).toISOString().slice(0, 10)}.`;
}
