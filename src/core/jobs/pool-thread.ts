/**
 * The thread under each of Quarry's pools (search lanes: grep/lane-pool.ts; parsing:
 * chunk/pool.ts; the embedding model: semantic/thread-embedder.ts, all scheduled by jobs/pool.ts),
 * whatever the host: the pools speak to a PoolThread and are handed a factory of them, so the
 * same pool runs on Web Workers in the browser (messagePortThread over a Worker) and on
 * worker_threads in Node (adapters/node/worker-thread.ts).
 */

export interface PoolThread<M, R> {
  /** Send a message, moving the buffers in `transfer` ([] for none). */
  post(message: M, transfer: ArrayBuffer[]): void;
  /** Every reply; `onExit` once, when the thread died (an error event, a failed start, an exit). */
  listen(onReply: (reply: R) => void, onExit: (reason: string) => void): void;
  terminate(): void;
}

/** The parts of a worker's event messagePortThread reads (core has no DOM types). */
export interface WorkerEventLike {
  data?: unknown;
  message?: string;
  preventDefault?: () => void;
}

/** What messagePortThread needs of a Web Worker (or anything with its shape). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(
    type: 'message' | 'error' | 'messageerror',
    listener: (event: WorkerEventLike) => void,
  ): void;
  terminate(): void;
}

/**
 * A Web Worker as a PoolThread: its messages are the replies; an `error` or `messageerror`
 * event terminates it and is its exit, once, with the event's message or `failed`.
 */
export function messagePortThread<M, R>(worker: WorkerLike, failed: string): PoolThread<M, R> {
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    listen(onReply, onExit) {
      let exited = false;
      worker.addEventListener('message', (e) => onReply(e.data as R));
      const exit = (e: WorkerEventLike) => {
        e.preventDefault?.();
        if (exited) return;
        exited = true;
        worker.terminate();
        onExit(e.message || failed);
      };
      worker.addEventListener('error', exit);
      worker.addEventListener('messageerror', exit);
    },
    terminate: () => worker.terminate(),
  };
}
