/**
 * The platform-free half of the search pool, on core's thread pool (jobs/pool.ts): threads
 * started on first use (a Web Worker in the browser, a worker_threads Worker in Node: see the
 * adapters), each chunk given at once to the thread with the fewest chunks out (a lane not started
 * yet first), a cancel sent for a chunk no longer wanted. A thread that dies fails its chunks with
 * laneLost (the coordinator searches them itself), and a new thread is started for later ones;
 * after two threads in a row die before answering anything (or cannot be created), every chunk
 * fails so (the search goes on on the calling thread alone).
 */
import { QuarryError } from '../errors';
import { Pool } from '../jobs/pool';
import type { PoolThread } from '../jobs/pool-thread';
import type { FileSource } from '../source/types';
import {
  laneLost,
  transferables,
  type ChunkResult,
  type ChunkTask,
  type LaneMessage,
  type LaneReply,
} from './lane';
import type { SearchPool } from './pool';

/** A search thread: messages go with their buffers moved (see transferables()). */
export type LaneThread = PoolThread<LaneMessage, LaneReply>;

/** The smallest packing buffer (chunks grow to MAX_CHUNK_BYTES; a buffer fits many of the small first ones). */
const MIN_BUFFER_BYTES = 1 << 20;
/** Buffers kept for reuse: a lane's two chunks in flight, for a few lanes. */
const MAX_SPARE_BUFFERS = 8;

/** Search threads for a machine with `cores` cores, leaving one for the caller's thread. */
export function searchLaneCount(cores: number | undefined): number {
  return Math.max(1, Math.floor(cores ?? 2) - 1);
}

const cancelled = () => new QuarryError('Cancelled', 'The search was cancelled', {});

export class LanePool implements SearchPool {
  private readonly pool: Pool<LaneMessage, LaneReply, ChunkTask, ChunkResult>;
  /** Packed-bytes buffers back from the lanes, to be filled again (fresh memory costs page faults). */
  private spare: ArrayBuffer[] = [];

  constructor(
    spawn: () => LaneThread,
    readonly lanes: number,
    private readonly refOf: (source: FileSource) => string | null,
  ) {
    this.pool = new Pool({
      size: Math.max(1, lanes),
      spawn: () => this.recycling(spawn()),
      encode: (id, task) => {
        const message: LaneMessage = { id, task };
        return { message, transfer: transferables(message) };
      },
      replyId: (reply) => reply.id,
      outcome: (reply) =>
        'result' in reply
          ? { ok: true, value: reply.result }
          : { ok: false, error: QuarryError.fromJSON(reply.error) },
      // the lane searches its chunks one after the other: the pool never holds one back
      room: () => true,
      // the lane with the fewest chunks out; one not started yet before any that has one
      place: (_task, slots) => {
        let best = 0;
        const out = (i: number) => (slots[i].started ? slots[i].inFlight : -1);
        for (let i = 1; i < slots.length; i++) if (out(i) < out(best)) best = i;
        return best;
      },
      cancelRunning: { message: (id) => ({ cancel: id }) },
      cancelled,
      // what it held is searched again by the coordinator (its bytes went with the thread)
      lost: (reason) => laneLost(reason),
      closed: () => laneLost('the search pool was closed'),
      giveUpAfter: 2,
      fallback: () => Promise.reject(laneLost('the search threads could not start')),
    });
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

  run(task: ChunkTask, signal: AbortSignal): Promise<ChunkResult> {
    return this.pool.run(task, signal);
  }

  /** Terminates the threads: chunks still out fail with laneLost (the coordinator searches them), as do later ones. */
  dispose(): void {
    this.pool.dispose();
  }

  /** The thread, keeping the packed buffer of every answer (a cancelled chunk's too). */
  private recycling(thread: LaneThread): LaneThread {
    return {
      post: (message, transfer) => thread.post(message, transfer),
      listen: (onReply, onExit) =>
        thread.listen((reply) => {
          this.recycle('result' in reply ? reply.result.packed : reply.packed);
          onReply(reply);
        }, onExit),
      terminate: () => thread.terminate(),
    };
  }

  /** Keep a packed buffer handed back (a few, the largest). */
  private recycle(packed: Uint8Array | undefined): void {
    if (!packed || !(packed.buffer instanceof ArrayBuffer) || packed.buffer.byteLength === 0) return;
    this.spare.push(packed.buffer);
    this.spare.sort((a, b) => b.byteLength - a.byteLength);
    this.spare.length = Math.min(this.spare.length, MAX_SPARE_BUFFERS);
  }
}
