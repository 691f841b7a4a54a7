/** History's state from the job's parts: the stored log replaced by the refreshed one, streaming appends, what the lines say. */
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../../core/errors';
import type { HistoryJobPart, HistoryLogStats, LogCommit } from '../../worker/protocol';
import {
  freshnessText,
  historyReducer,
  INITIAL_HISTORY,
  progressText,
  type HistoryState,
} from './history-state';

const commit = (n: number): LogCommit => ({
  oid: String(n).padStart(40, '0'),
  parents: [],
  author: 'A',
  email: 'a@x',
  date: n * 1000,
  committed: n,
  message: `c${n}`,
});
const stats = (s: Partial<HistoryLogStats>): HistoryLogStats => ({
  elapsedMs: 1,
  ending: 'complete',
  available: true,
  head: null,
  branch: 'main',
  shallow: false,
  commits: 0,
  read: 0,
  refresh: 'full',
  ...s,
});
const apply = (parts: HistoryJobPart[], from: HistoryState = INITIAL_HISTORY) =>
  historyReducer(from, { type: 'parts', parts });

describe('historyReducer', () => {
  it('paints the stored log, then the refreshed log replaces it', () => {
    let s = apply([
      { kind: 'repo', source: 'folder' },
      { kind: 'head', head: commit(2).oid, branch: 'main', shallow: false },
      { kind: 'commits', commits: [commit(2), commit(1)], reset: true, from: 'cache' },
    ]);
    expect(s).toMatchObject({
      phase: 'streaming',
      from: 'cache',
      branch: 'main',
      uncommitted: { state: 'pending' },
    });
    expect(freshnessText(s)).toBe('From the stored log');
    expect(progressText(s)).toBe('Checking for new commits…');
    s = apply(
      [{ kind: 'commits', commits: [commit(3), commit(2), commit(1)], reset: true, from: 'read' }],
      s,
    );
    expect(s.commits.map((c) => c.message)).toEqual(['c3', 'c2', 'c1']);
    expect(s.from).toBe('read');
    s = historyReducer(s, { type: 'end', stats: stats({ refresh: 'incremental', read: 1, commits: 3 }) });
    expect(s.phase).toBe('done');
    expect(freshnessText(s)).toBe('From the stored log · refreshed: 1 new commit');
  });

  it('a first read appends batches and counts progress against the estimate', () => {
    let s = apply([{ kind: 'commits', commits: [commit(5), commit(4)], reset: true, from: 'read' }]);
    s = apply([{ kind: 'commits', commits: [commit(3)], reset: false, from: 'read' }], s);
    expect(s.commits).toHaveLength(3);
    s = historyReducer(s, {
      type: 'progress',
      progress: {
        phase: 'git',
        label: 'Reading commits',
        files: 1200,
        totalFiles: 10000,
        bytes: 0,
        totalBytes: 0,
      },
    });
    expect(progressText(s)).toBe('Reading commits: 1,200 of ~10,000');
    s = historyReducer(s, {
      type: 'progress',
      progress: {
        phase: 'git',
        label: 'Reading commits',
        files: 1200,
        totalFiles: 0,
        bytes: 0,
        totalBytes: 0,
      },
    });
    expect(progressText(s)).toBe('Reading commits: 1,200 commits so far');
    s = historyReducer(s, {
      type: 'end',
      stats: stats({ refresh: 'full', commits: 3, cacheIgnored: 'The stored history is not usable' }),
    });
    expect(freshnessText(s)).toBe('Read 3 commits (the stored log was unusable)');
    const unsaved = historyReducer(s, {
      type: 'end',
      stats: stats({ refresh: 'full', commits: 3, saveError: 'QuotaExceeded' }),
    });
    expect(freshnessText(unsaved)).toBe('Read 3 commits · not stored for the next visit (QuotaExceeded)');
  });

  it('uncommitted changes arrive, fail, or are dropped with a stopped read; a clone has none', () => {
    const folder = apply([{ kind: 'repo', source: 'folder' }]);
    expect(
      apply(
        [
          {
            kind: 'uncommitted',
            files: [{ path: 'a.ts', status: 'modified' }],
            tracked: 3,
            hashed: 1,
            elapsedMs: 2,
          },
        ],
        folder,
      ).uncommitted,
    ).toEqual({
      state: 'ready',
      files: [{ path: 'a.ts', status: 'modified' }],
    });
    expect(
      apply(
        [
          {
            kind: 'uncommittedError',
            error: { code: 'Unreadable', message: 'The git index is not readable' },
          },
        ],
        folder,
      ).uncommitted,
    ).toEqual({
      state: 'error',
      message: 'The git index is not readable',
    });
    const stopped = historyReducer(folder, { type: 'end', stats: stats({ ending: 'cancelled' }) });
    expect(stopped).toMatchObject({ phase: 'cancelled', uncommitted: { state: 'none' } });
    expect(freshnessText(stopped)).toBe('Stopped after 0 commits');
    expect(apply([{ kind: 'repo', source: 'clone', libraryId: 'lib-1' }])).toMatchObject({
      libraryId: 'lib-1',
      uncommitted: { state: 'none' },
    });
  });

  it('no git data, an error, and a reset', () => {
    const none = historyReducer(INITIAL_HISTORY, {
      type: 'end',
      stats: stats({ available: false, reason: 'The demo has no git history.', refresh: null }),
    });
    expect(none.end?.reason).toMatch(/demo/);
    const failed = historyReducer(INITIAL_HISTORY, {
      type: 'error',
      error: new QuarryError('NotFound', 'gone'),
    });
    expect(failed).toMatchObject({ phase: 'error' });
    expect(historyReducer(failed, { type: 'reset' })).toBe(INITIAL_HISTORY);
  });
});
