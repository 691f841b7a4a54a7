/**
 * The commit log of a repository, streamed and kept with the index: a stored log paints at
 * once, then only what is new is read.
 *
 *   no stored log ........ walk from HEAD, commits streamed in batches as they are read
 *   same HEAD ............ the stored log as it is ('cache_hit')
 *   HEAD moved ........... walk from the new HEAD until stored commits ('incremental' when the
 *                          old head was reached; 'rewritten' when it was not: an amend, a
 *                          rebase, a reset). Stored commits are immutable by oid and the stored
 *                          log holds every ancestor of its head, so the new log is the same
 *                          walk over new + stored commits in memory; a history rewritten down
 *                          to its root reaches no stored commit and so is read in full.
 *   shallow list changed . a full read (a deepened clone has parents the stored log lacks)
 *
 * Changed files are not read here (commit-changes.ts, on demand). The stored log is the
 * index's persistence format (core/rank/persist: versioned, checksummed); anything unreadable
 * is ignored and the log read again.
 */
import * as git from 'isomorphic-git';
import './env';
import { QuarryError, toQuarryError } from '../../core/errors';
import type { HistoryLogPart, LogCommit, LogRefresh } from '../../core/git/types';
import { decodeIndex, encodeIndex, fromJsonParts, jsonParts, type IndexStore } from '../../core/rank/persist';
import { GitObjectStore, isOid, type GitFs } from './objects';
import { parseCommit, walkLog, type CommitLoader } from './log-walk';

export type { HistoryLogPart, LogCommit, LogRefresh } from '../../core/git/types';

export interface HistoryLogProgress {
  read: number;
  /** About how many commits there are (the commit-graph's count, or the stored log's); 0 = unknown. */
  estimate: number;
}

export interface HistoryLogResult {
  head: string | null;
  branch: string | null;
  shallow: boolean;
  commits: number;
  refresh: LogRefresh;
  /** Commits read from the object store in this run. */
  read: number;
  /** Why a stored log was not used (unreadable, another format version). */
  cacheIgnored?: string;
  /** Set when the refreshed log could not be stored (it still shows; the next visit reads again). */
  saveError?: string;
}

export interface HistoryLogOptions {
  /** The working tree (or a clone's directory); git data in `<dir>/.git` unless `gitdir` is given. */
  dir: string;
  gitdir: string;
  store?: IndexStore;
  storeKey?: string;
  signal?: AbortSignal;
  onPart(part: HistoryLogPart): void;
  onProgress?(p: HistoryLogProgress): void;
  maybeYield?: () => Promise<void> | void;
  /** Commits per streamed batch after the first (which goes out after FIRST_BATCH commits). */
  batchCommits?: number;
}

const LOG_FORMAT = 'quarry-history-log';
const LOG_VERSION = 1;
/** The first batch is small so the first rows paint at once; later ones are larger (fewer messages). */
export const FIRST_BATCH = 50;
const BATCH = 500;
const BATCH_MS = 100;
/** A stored log goes out in parts of this many commits (each part is one structured clone). */
const SNAPSHOT_PART = 2000;

type Row = [
  oid: string,
  parents: string,
  author: string,
  email: string,
  dateSec: number,
  committed: number,
  message: string,
  parentMissing: 0 | 1,
];

interface StoredLog {
  head: string;
  branch: string | null;
  shallow: string[];
  commits: LogCommit[];
}

export function encodeLog(log: StoredLog): Uint8Array {
  const rows: Row[] = log.commits.map((c) => [
    c.oid,
    c.parents.join(' '),
    c.author,
    c.email,
    c.date / 1000,
    c.committed,
    c.message,
    c.parentMissing ? 1 : 0,
  ]);
  return encodeIndex({
    json: {
      format: LOG_FORMAT,
      version: LOG_VERSION,
      head: log.head,
      branch: log.branch,
      shallow: log.shallow,
      count: rows.length,
    },
    sections: jsonParts(rows),
  });
}

/** A stored log, or an IndexVersionMismatch saying why it cannot be used. */
export function decodeLog(data: Uint8Array): StoredLog {
  const bad = (why: string) =>
    new QuarryError('IndexVersionMismatch', `The stored history is not usable: ${why}`, {});
  const { json, sections } = decodeIndex(data);
  const meta = json as {
    format?: unknown;
    version?: unknown;
    head?: unknown;
    branch?: unknown;
    shallow?: unknown;
    count?: unknown;
  };
  if (meta?.format !== LOG_FORMAT) throw bad('not a history log');
  if (meta.version !== LOG_VERSION) throw bad(`format version ${String(meta.version)} != ${LOG_VERSION}`);
  if (!isOid(meta.head) || !Array.isArray(meta.shallow) || !meta.shallow.every(isOid))
    throw bad('its head is not an object id');
  const rows = fromJsonParts<Row>(sections);
  if (rows.length !== meta.count) throw bad(`${rows.length} commits where ${String(meta.count)} were stored`);
  const commits = rows.map((r): LogCommit => {
    if (
      !Array.isArray(r) ||
      r.length !== 8 ||
      !isOid(r[0]) ||
      typeof r[1] !== 'string' ||
      typeof r[6] !== 'string' ||
      typeof r[4] !== 'number' ||
      typeof r[5] !== 'number'
    ) {
      throw bad('a commit row is malformed');
    }
    const c: LogCommit = {
      oid: r[0],
      parents: r[1] ? r[1].split(' ') : [],
      author: String(r[2]),
      email: String(r[3]),
      date: r[4] * 1000,
      committed: r[5],
      message: r[6],
    };
    if (r[7]) c.parentMissing = true;
    return c;
  });
  if (commits[0]?.oid !== meta.head) throw bad('its first commit is not its head');
  return {
    head: meta.head,
    branch: typeof meta.branch === 'string' ? meta.branch : null,
    shallow: meta.shallow as string[],
    commits,
  };
}

async function readShallow(fs: GitFs, gitdir: string): Promise<string[]> {
  try {
    const text = await fs.promises.readFile(`${gitdir}/shallow`, 'utf8');
    const s = typeof text === 'string' ? text : new TextDecoder().decode(text);
    return s.split('\n').filter(isOid).sort();
  } catch {
    return [];
  }
}

/** How many commits the commit-graph (a single file or a chain) lists: an estimate, 0 when there is none. */
export async function commitGraphCount(fs: GitFs, gitdir: string): Promise<number> {
  const countOf = async (path: string): Promise<number> => {
    let data: Uint8Array | string;
    try {
      data = await fs.promises.readFile(path);
    } catch {
      return 0;
    }
    if (typeof data === 'string' || data.length < 8) return 0;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (view.getUint32(0) !== 0x43475048) return 0; // 'CGPH'
    const chunks = data[6];
    for (let i = 0; i < chunks; i++) {
      const at = 8 + i * 12;
      if (at + 12 > data.length) return 0;
      if (view.getUint32(at) === 0x4f494446) {
        // 'OIDF': 256 cumulative counts; the last is the number of commits
        const offset = view.getUint32(at + 4) * 2 ** 32 + view.getUint32(at + 8);
        return offset + 1024 <= data.length ? view.getUint32(offset + 1020) : 0;
      }
    }
    return 0;
  };
  const single = await countOf(`${gitdir}/objects/info/commit-graph`);
  if (single) return single;
  try {
    const chain = await fs.promises.readFile(
      `${gitdir}/objects/info/commit-graphs/commit-graph-chain`,
      'utf8',
    );
    const hashes = (typeof chain === 'string' ? chain : new TextDecoder().decode(chain))
      .split('\n')
      .filter(isOid);
    let total = 0;
    for (const h of hashes) total += await countOf(`${gitdir}/objects/info/commit-graphs/graph-${h}.graph`);
    return total;
  } catch {
    return 0;
  }
}

export function commitLoader(objects: GitObjectStore): CommitLoader {
  return async (oid) => {
    const obj = await objects.read(oid);
    if (!obj) return null;
    if (obj.type !== 'commit')
      throw new QuarryError('Unreadable', `git object ${oid} is a ${obj.type}, not a commit`, { oid });
    return parseCommit(oid, obj.bytes);
  };
}

/** HEAD's commit and branch; null head for a repository without commits. */
export async function readHead(
  fs: GitFs,
  dir: string,
  gitdir: string,
): Promise<{ head: string | null; branch: string | null }> {
  const gfs = fs as unknown as git.PromiseFsClient;
  const branch =
    (await git.currentBranch({ fs: gfs, dir, gitdir, fullname: false }).catch(() => undefined)) ?? null;
  try {
    return { head: await git.resolveRef({ fs: gfs, dir, gitdir, ref: 'HEAD' }), branch };
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError') return { head: null, branch };
    throw new QuarryError('NotFound', `No git repository at ${dir}: ${(err as Error).message}`, { dir });
  }
}

/** Read (or refresh) the log, streaming parts; resolves when the log is complete and stored. */
export async function readHistoryLog(
  fs: GitFs,
  objects: GitObjectStore,
  options: HistoryLogOptions,
): Promise<HistoryLogResult> {
  const { dir, gitdir, store, storeKey, onPart } = options;

  const { cached, cacheIgnored } = await loadStoredLog(options);
  if (cached) {
    onPart({
      kind: 'head',
      head: cached.head,
      branch: cached.branch,
      shallow: cached.shallow.length > 0 || cached.commits.some((c) => c.parentMissing),
    });
    sendAll(onPart, cached.commits, 'cache');
  }

  const { head, branch } = await readHead(fs, dir, gitdir);
  const shallowList = await readShallow(fs, gitdir);
  const shallowSet = new Set(shallowList);
  const finish = async (
    commits: LogCommit[],
    refresh: LogRefresh,
    read: number,
  ): Promise<HistoryLogResult> => {
    const shallow = commits.some((c) => c.parentMissing);
    let saveError: string | undefined;
    if (store && storeKey && head && refresh !== 'cache_hit') {
      try {
        await store.save(storeKey, encodeLog({ head, branch, shallow: shallowList, commits }));
      } catch (err) {
        saveError = toQuarryError(err).message;
      }
    }
    return {
      head,
      branch,
      shallow,
      commits: commits.length,
      refresh,
      read,
      ...(cacheIgnored ? { cacheIgnored } : {}),
      ...(saveError ? { saveError } : {}),
    };
  };

  if (!head) {
    onPart({ kind: 'head', head: null, branch, shallow: false });
    if (cached) onPart({ kind: 'commits', commits: [], reset: true, from: 'read' });
    if (store && storeKey && cached) await store.remove?.(storeKey).catch(() => undefined);
    return {
      head,
      branch,
      shallow: false,
      commits: 0,
      refresh: 'full',
      read: 0,
      ...(cacheIgnored ? { cacheIgnored } : {}),
    };
  }

  const sameShallow = cached && cached.shallow.join(' ') === shallowList.join(' ');
  if (cached && sameShallow && cached.head === head) {
    if (cached.branch !== branch)
      onPart({ kind: 'head', head, branch, shallow: cached.commits.some((c) => c.parentMissing) });
    return finish(cached.commits, 'cache_hit', 0);
  }

  const load = commitLoader(objects);
  let read = 0;
  const estimate = cached && sameShallow ? 0 : await commitGraphCount(fs, gitdir);
  let lastProgress = 0;
  const progress = (force = false) => {
    const t = Date.now();
    if (!force && t - lastProgress < BATCH_MS) return;
    lastProgress = t;
    options.onProgress?.({ read, estimate: estimate && Math.max(estimate, read) });
  };
  const counted: CommitLoader = async (oid) => {
    const c = await load(oid);
    if (c) {
      read++;
      progress();
    }
    return c;
  };

  if (cached && sameShallow) {
    const { merged, reached } = await mergeWithStored(head, cached, counted, shallowSet, options);
    progress(true);
    onPart({ kind: 'head', head, branch, shallow: merged.some((c) => c.parentMissing) });
    sendAll(onPart, merged, 'read');
    return finish(merged, reached.has(cached.head) ? 'incremental' : 'rewritten', read);
  }

  onPart({ kind: 'head', head, branch, shallow: shallowList.length > 0 });
  const all = await streamFullLog(head, counted, shallowSet, options);
  progress(true);
  const shallow = all.some((c) => c.parentMissing);
  if (shallow) onPart({ kind: 'head', head, branch, shallow });
  return finish(all, 'full', read);
}

/** The stored log, if there is one and it decodes (else why it was ignored). */
async function loadStoredLog({
  store,
  storeKey,
}: HistoryLogOptions): Promise<{ cached: StoredLog | null; cacheIgnored?: string }> {
  if (!store || !storeKey) return { cached: null };
  try {
    const data = await store.load(storeKey);
    return { cached: data ? decodeLog(data) : null };
  } catch (err) {
    return { cached: null, cacheIgnored: toQuarryError(err).message };
  }
}

/**
 * Walk from the new HEAD until stored commits, then order new + stored in memory. `reached`:
 * the stored commits the walk came to.
 */
async function mergeWithStored(
  head: string,
  cached: StoredLog,
  counted: CommitLoader,
  shallowSet: Set<string>,
  { signal, maybeYield }: HistoryLogOptions,
): Promise<{ merged: LogCommit[]; reached: Set<string> }> {
  const known = new Map(cached.commits.map((c) => [c.oid, c]));
  const reached = new Set<string>();
  const fresh = new Map<string, LogCommit>();
  for await (const c of walkLog(head, counted, {
    shallow: shallowSet,
    stopAt: known,
    reached,
    signal,
    maybeYield,
  }))
    fresh.set(c.oid, c);
  const headDate = cached.commits[0].committed;
  if (
    reached.size === 1 &&
    reached.has(cached.head) &&
    [...fresh.values()].every((c) => c.committed > headDate)
  ) {
    // The usual case (commits on top of the stored head, all newer): the walk would pop every
    // new commit before the old head and then go on exactly as the stored log did.
    return { merged: [...fresh.values(), ...cached.commits], reached };
  }
  const merged: LogCommit[] = [];
  const inMemory: CommitLoader = (oid) => fresh.get(oid) ?? known.get(oid) ?? null;
  for await (const c of walkLog(head, inMemory, { shallow: shallowSet, signal, maybeYield })) merged.push(c);
  return { merged, reached };
}

/** A full read, streamed: the first batch small, then larger ones at most every BATCH_MS. */
async function streamFullLog(
  head: string,
  counted: CommitLoader,
  shallowSet: Set<string>,
  { signal, maybeYield, onPart, batchCommits: batch }: HistoryLogOptions,
): Promise<LogCommit[]> {
  const batchCommits = Math.max(1, batch ?? BATCH);
  const all: LogCommit[] = [];
  let pending: LogCommit[] = [];
  let first = true;
  let lastSend = Date.now();
  const flush = () => {
    if (!pending.length && !first) return;
    onPart({ kind: 'commits', commits: pending, reset: first, from: 'read' });
    first = false;
    pending = [];
    lastSend = Date.now();
  };
  for await (const c of walkLog(head, counted, { shallow: shallowSet, signal, maybeYield })) {
    all.push(c);
    pending.push(c);
    if (
      first
        ? pending.length >= FIRST_BATCH || Date.now() - lastSend >= BATCH_MS
        : pending.length >= batchCommits || Date.now() - lastSend >= BATCH_MS
    )
      flush();
  }
  flush();
  return all;
}

function sendAll(onPart: HistoryLogOptions['onPart'], commits: LogCommit[], from: 'cache' | 'read'): void {
  if (!commits.length) onPart({ kind: 'commits', commits: [], reset: true, from });
  for (let i = 0; i < commits.length; i += SNAPSHOT_PART)
    onPart({ kind: 'commits', commits: commits.slice(i, i + SNAPSHOT_PART), reset: i === 0, from });
}
