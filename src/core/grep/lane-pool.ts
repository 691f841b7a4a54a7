/**
 * The platform-free half of the search pool: threads started on first use (a Web Worker in
 * the browser, a worker_threads Worker in Node: see the adapters), each chunk given to the
 * thread with the fewest chunks out, a cancel sent for a chunk no longer wanted. A thread
 * that dies hands its chunks back to be searched on the calling thread, and a new thread is
 * started for later ones; after two threads in a row die before answering anything, the pool
 * searches on the calling thread alone.
 */
import { QuarryError } from '../errors';
import type { FileSource } from '../source/types';
import { searchChunk, taskSource, type ChunkResult, type ChunkTask, type LaneMessage, type LaneReply } from './lane';
import type { SearchPool } from './pool';

export interface LaneThread {
  post(message: LaneMessage): void;
  listen(onReply: (reply: LaneReply) => void, onExit: (reason: string) => void): void;
  terminate(): void;
}

interface Lane {
  thread: LaneThread;
  out: Map<number, { task: ChunkTask; resolve: (r: ChunkResult) => void; reject: (e: unknown) => void; signal: AbortSignal }>;
  answered: boolean;
}

/** Search threads for a machine with `cores` cores, leaving one for the caller's thread. */
export function searchLaneCount(cores: number | undefined): number {
  return Math.max(1, Math.floor(cores ?? 2) - 1);
}

export class LanePool implements SearchPool {
  private readonly threads: Array<Lane | null>;
  private nextId = 1;
  private deadInARow = 0;
  private broken = false;

  constructor(
    private readonly spawn: () => LaneThread,
    readonly lanes: number,
    private readonly refOf: (source: FileSource) => string | null,
    /** How this thread opens a root by path, when a dead lane's chunk is searched here. */
    private readonly openRoot: ((root: string) => FileSource) | null,
  ) {
    this.threads = new Array<Lane | null>(Math.max(1, lanes)).fill(null);
  }

  rootRef(source: FileSource): string | null {
    return this.refOf(source);
  }

  run(task: ChunkTask, signal: AbortSignal): Promise<ChunkResult> {
    if (signal.aborted) return Promise.reject(new QuarryError('Cancelled', 'The search was cancelled', {}));
    if (this.broken) return this.here(task, signal);
    const slot = this.leastBusy();
    const lane = this.threads[slot] ?? this.start(slot);
    if (!lane) return this.here(task, signal);
    const id = this.nextId++;
    return new Promise<ChunkResult>((resolve, reject) => {
      const onAbort = () => {
        if (!lane.out.delete(id)) return;
        lane.thread.post({ cancel: id });
        reject(new QuarryError('Cancelled', 'The search was cancelled', {}));
      };
      const settle = () => signal.removeEventListener('abort', onAbort);
      lane.out.set(id, {
        task,
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
        signal,
      });
      signal.addEventListener('abort', onAbort, { once: true });
      lane.thread.post({ id, task });
    });
  }

  dispose(): void {
    for (const lane of this.threads) lane?.thread.terminate();
    this.threads.fill(null);
  }

  private here(task: ChunkTask, signal: AbortSignal): Promise<ChunkResult> {
    return searchChunk(taskSource(task, this.openRoot), task, signal);
  }

  private leastBusy(): number {
    let best = 0;
    for (let i = 1; i < this.threads.length; i++) {
      const n = this.threads[i]?.out.size ?? -1;
      const b = this.threads[best]?.out.size ?? -1;
      if (n < b) best = i;
    }
    return best;
  }

  private start(slot: number): Lane | null {
    let thread: LaneThread;
    try {
      thread = this.spawn();
    } catch {
      this.broken = true;
      return null;
    }
    const lane: Lane = { thread, out: new Map(), answered: false };
    thread.listen(
      (reply) => {
        const job = lane.out.get(reply.id);
        if (!job) return; // cancelled meanwhile
        lane.out.delete(reply.id);
        lane.answered = true;
        this.deadInARow = 0;
        if ('result' in reply) job.resolve(reply.result);
        else job.reject(QuarryError.fromJSON(reply.error));
      },
      () => {
        if (this.threads[slot] === lane) this.threads[slot] = null;
        if (!lane.answered && ++this.deadInARow >= 2) this.broken = true;
        // what it held is searched here, in the order asked
        for (const job of lane.out.values()) this.here(job.task, job.signal).then(job.resolve, job.reject);
        lane.out.clear();
        thread.terminate();
      },
    );
    this.threads[slot] = lane;
    return lane;
  }
}
