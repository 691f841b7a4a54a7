/**
 * The commit log in `git log`'s default order, streamed: commits leave a queue ordered by
 * committer date (newest first; equal dates in the order they were queued), a commit's
 * parents join the queue the first time they are seen. That is git's own rev-walk without
 * --topo-order, so the list equals `git log` commit for commit (the tests compare them).
 *
 * The same walk runs over the object store (a first read) and over commits already in
 * memory (the cached log merged with the new ones), so both give the same order.
 */
import { QuarryError } from '../../core/errors';
import type { LogCommit } from '../../core/git/types';

export type { LogCommit } from '../../core/git/types';

const decoder = new TextDecoder();
const OID = /^[0-9a-f]{40}$/;

/** A person line: `Name <email> 1700000000 +0100`. */
function person(value: string): { name: string; email: string; seconds: number } {
  const m = /^(.*?) ?<([^>]*)> (-?\d+)(?: [+-]\d{4})?$/.exec(value);
  if (!m) return { name: value, email: '', seconds: 0 };
  return { name: m[1], email: m[2], seconds: Number(m[3]) };
}

/**
 * A commit object's fields (headers, then a blank line, then the message). A `parent` line
 * that is not a 40-hex id is dropped and the commit marked `parentMissing` (as if that parent
 * were not fetched): one damaged commit does not fail the whole log.
 */
export function parseCommit(oid: string, bytes: Uint8Array): LogCommit {
  const text = decoder.decode(bytes);
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const parents: string[] = [];
  let badParent = false;
  let author = '';
  let committer = '';
  let tree = false;
  for (const line of head.split('\n')) {
    if (line.startsWith(' ')) continue; // a continued header (gpgsig, mergetag)
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'tree') tree = true;
    else if (key === 'parent') {
      if (OID.test(value)) parents.push(value);
      else badParent = true;
    } else if (key === 'author') author = value;
    else if (key === 'committer') committer = value;
  }
  if (!tree || !committer)
    throw new QuarryError('Unreadable', `git object ${oid} is not a readable commit`, { oid });
  const a = person(author || committer);
  const c = person(committer);
  return {
    oid,
    parents,
    author: a.name,
    email: a.email,
    date: a.seconds * 1000,
    committed: c.seconds,
    message: end < 0 ? '' : text.slice(end + 2).trimEnd(),
    ...(badParent ? { parentMissing: true } : {}),
  };
}

/** Loads a commit by oid: null when the repository does not have it. */
export type CommitLoader = (oid: string) => Promise<LogCommit | null> | LogCommit | null;

export interface WalkOptions {
  /** Commits whose parents are not walked (`.git/shallow`). */
  shallow?: ReadonlySet<string>;
  /** Commits the walk does not enter (already known): reached ones are added to `reached`. */
  stopAt?: { has(oid: string): boolean };
  reached?: Set<string>;
  signal?: AbortSignal;
  /** Awaited now and then so a long walk lets the event loop run (cancel arrives that way). */
  maybeYield?: () => Promise<void> | void;
}

/** A binary heap on (committer date desc, queue order asc): git's prio_queue for the rev-walk. */
class CommitQueue {
  private items: Array<{ c: LogCommit; seq: number }> = [];
  private seq = 0;
  get size() {
    return this.items.length;
  }
  private before(a: { c: LogCommit; seq: number }, b: { c: LogCommit; seq: number }) {
    return a.c.committed !== b.c.committed ? a.c.committed > b.c.committed : a.seq < b.seq;
  }
  push(c: LogCommit) {
    const items = this.items;
    items.push({ c, seq: this.seq++ });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }
  pop(): LogCommit {
    const items = this.items;
    const top = items[0];
    const last = items.pop()!;
    if (items.length) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < items.length && this.before(items[l], items[best])) best = l;
        if (r < items.length && this.before(items[r], items[best])) best = r;
        if (best === i) break;
        [items[i], items[best]] = [items[best], items[i]];
        i = best;
      }
    }
    return top.c;
  }
}

/** The log from `head`, one commit at a time, in `git log` order. */
export async function* walkLog(
  head: string,
  load: CommitLoader,
  options: WalkOptions = {},
): AsyncGenerator<LogCommit> {
  const { shallow, stopAt, reached, signal } = options;
  const cancelled = () => new QuarryError('Cancelled', 'Reading the history was cancelled');
  if (stopAt?.has(head)) {
    reached?.add(head);
    return;
  }
  const first = await load(head);
  if (!first)
    throw new QuarryError('NotFound', `The commit ${head} is not in this repository`, { oid: head });
  const queue = new CommitQueue();
  const seen = new Set<string>([head]);
  queue.push(first);
  while (queue.size) {
    if (signal?.aborted) throw cancelled();
    await options.maybeYield?.();
    const c = queue.pop();
    let missing = !!shallow?.has(c.oid);
    if (!missing) {
      for (const p of c.parents) {
        if (!OID.test(p)) {
          missing = true; // not an object id (a damaged commit): a parent that is not there
          continue;
        }
        if (seen.has(p)) continue;
        seen.add(p);
        if (stopAt?.has(p)) {
          reached?.add(p);
          continue;
        }
        const parent = await load(p);
        if (parent) queue.push(parent);
        else missing = true;
      }
    }
    yield missing && c.parents.length ? { ...c, parentMissing: true } : c;
  }
}
