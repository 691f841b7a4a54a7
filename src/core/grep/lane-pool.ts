/**
 * The platform-free half of the search pool: threads started on first use (a Web Worker in
 * the browser, a worker_threads Worker in Node: see the adapters), each chunk given to the
 * thread with the fewest chunks out, a cancel sent for a chunk no longer wanted. A thread
 * that dies fails its chunks with laneLost (the coordinator searches them itself), and a new
 * thread is started for later ones; after two threads in a row die before answering anything,
 * every chunk fails so (the search goes on on the calling thread alone).
 */
import { QuarryError } from '../errors';
import type { PoolThread } from '../jobs/pool-thread';
import type { FileSource } from '../source/types';
import { transferables, type ChunkResult, type ChunkTask, type LaneMessage, type LaneReply } from './lane';
import type { SearchPool } from './pool';

/** A search thread: messages go with their buffers moved (see transferables()). */
export type LaneThread = PoolThread<LaneMessage, LaneReply>;

interface Lane {
  thread: LaneThread;
  out: Map<
    number,
    { task: ChunkTask; resolve: (r: ChunkResult) => void; reject: (e: unknown) => void; signal: AbortSignal }
  >;
  answered: boolean;
}

/** The smallest packing buffer (chunks grow to MAX_CHUNK_BYTES; a buffer fits many of the small first ones). */
const MIN_BUFFER_BYTES = 1 << 20;
/** Buffers kept for reuse: a lane's two chunks in flight, for a few lanes. */
const MAX_SPARE_BUFFERS = 8;

/** A chunk a lane will not answer (it died, or none could start): the coordinator searches it itself. */
export function laneLost(reason: string): QuarryError {
  return new QuarryError('EngineError', `A search thread stopped: ${reason}`, { reason: 'laneLost' });
}

export function isLaneLost(err: unknown): boolean {
  return err instanceof QuarryError && err.data.reason === 'laneLost';
}

/** Search threads for a machine with `cores` cores, leaving one for the caller's thread. */
export function searchLaneCount(cores: number | undefined): number {
  return Math.max(1, Math.floor(cores ?? 2) - 1);
}

export class LanePool implements SearchPool {
  private readonly threads: Array<Lane | null>;
  private nextId = 1;
  /** Packed-bytes buffers back from the lanes, to be filled again (fresh memory costs page faults). */
  private spare: ArrayBuffer[] = [];
  private deadInARow = 0;
  private broken = false;

  constructor(
    private readonly spawn: () => LaneThread,
    readonly lanes: number,
    private readonly refOf: (source: FileSource) => string | null,
  ) {
    this.threads = new Array<Lane | null>(Math.max(1, lanes)).fill(null);
  }

  rootRef(source: FileSource): string | null {
    return this.refOf(source);
  }

  buffer(bytes: number): Uint8Array {
    const i = this.spare.findIndex((b) => b.byteLength >= bytes);
    if (i >= 0) return new Uint8Array(this.spare.splice(i, 1)[0]);
    // a power of two: a chunk a little over the last one's size still fits a recycled buffer
    return new Uint8Array(Math.max(MIN_BUFFER_BYTES, 2 ** Math.ceil(Math.log2(Math.max(1, bytes)))));
  }

  /** Keep a packed buffer handed back (a few, the largest). */
  private recycle(packed: Uint8Array | undefined): void {
    if (!packed || !(packed.buffer instanceof ArrayBuffer) || packed.buffer.byteLength === 0) return;
    this.spare.push(packed.buffer);
    this.spare.sort((a, b) => b.byteLength - a.byteLength);
    this.spare.length = Math.min(this.spare.length, MAX_SPARE_BUFFERS);
  }

  run(task: ChunkTask, signal: AbortSignal): Promise<ChunkResult> {
    if (signal.aborted) return Promise.reject(new QuarryError('Cancelled', 'The search was cancelled', {}));
    if (this.broken) return Promise.reject(laneLost('the search threads could not start'));
    const slot = this.leastBusy();
    const lane = this.threads[slot] ?? this.start(slot);
    if (!lane) return Promise.reject(laneLost('the search threads could not start'));
    const id = this.nextId++;
    return new Promise<ChunkResult>((resolve, reject) => {
      const onAbort = () => {
        if (!lane.out.delete(id)) return;
        lane.thread.post({ cancel: id }, []);
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
      const message: LaneMessage = { id, task };
      lane.thread.post(message, transferables(message));
    });
  }

  dispose(): void {
    for (const lane of this.threads) lane?.thread.terminate();
    this.threads.fill(null);
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
        this.recycle('result' in reply ? reply.result.packed : reply.packed);
        const job = lane.out.get(reply.id);
        if (!job) return; // cancelled meanwhile
        lane.out.delete(reply.id);
        lane.answered = true;
        this.deadInARow = 0;
        if ('result' in reply) job.resolve(reply.result);
        else job.reject(QuarryError.fromJSON(reply.error));
      },
      (reason) => {
        if (this.threads[slot] === lane) this.threads[slot] = null;
        if (!lane.answered && ++this.deadInARow >= 2) this.broken = true;
        // what it held is searched again by the coordinator (its bytes went with the thread)
        for (const job of lane.out.values()) job.reject(laneLost(reason));
        lane.out.clear();
        thread.terminate();
      },
    );
    this.threads[slot] = lane;
    return lane;
  }
}
