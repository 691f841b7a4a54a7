/**
 * The page's side of the layout worker (layout.worker.ts): the worker is started on the first
 * request (not before the graph is opened), kept for the requests that follow (each expanded
 * folder is a new layout) and terminated by dispose() when the view goes away.
 *
 * Only the latest request counts: a request made while an older one is still out settles the
 * older one with null at once ("superseded", a normal ending), and the older one's answer is
 * dropped when it arrives. So a folder expanded, then another before the first layout came
 * back, never draws the first one's positions.
 *
 * Where no worker starts (no Worker in this scope, the constructor throws, or the worker fails
 * to load: an error event before any answer), the layout runs on the main thread instead, with
 * the same function (answerLayout): slower to block, never wrong.
 */
import {
  answerLayout,
  graphLayoutRequest,
  transferablesOf,
  type GraphLayoutAnswer,
  type GraphLayoutInput,
  type LayoutAnswer,
  type LayoutRequest,
} from './layout-protocol';

/** What the client needs of a worker (a Worker, or a fake in tests). */
export interface LayoutPort {
  postMessage(message: LayoutRequest, transfer: Transferable[]): void;
  onmessage: ((event: { data: LayoutAnswer }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  terminate(): void;
}

/** Positions for a GraphLayoutInput: x, y per input node, in its order, and the groups' boxes. */
export type GraphPlacement = Pick<GraphLayoutAnswer, 'xy' | 'clusters'>;

interface Pending {
  /** Kept for the fallback: a posted request's buffers are handed over to the worker (detached here). */
  input: GraphLayoutInput;
  id: number;
  resolve: (answer: GraphPlacement | null) => void;
  reject: (error: Error) => void;
}

/** The name the layout worker runs under (the e2e spec finds it by its script's name). */
export const LAYOUT_WORKER_NAME = 'quarry-graph-layout';

/** A module worker running layout.worker.ts, or null where there is no Worker. */
export function startLayoutWorker(): LayoutPort | null {
  if (typeof Worker === 'undefined') return null;
  const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), {
    type: 'module',
    name: LAYOUT_WORKER_NAME,
  });
  return worker as unknown as LayoutPort;
}

export class LayoutClient {
  private port: LayoutPort | null = null;
  /** No worker: lay out on the main thread. */
  private local = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private disposed = false;

  /** `start` is called once, on the first request. */
  constructor(private readonly start: () => LayoutPort | null = startLayoutWorker) {}

  /** True once a worker has been started and has not failed. */
  get inWorker(): boolean {
    return this.port !== null;
  }

  /** The input laid out; null when a newer request (or dispose) superseded it before its answer came. */
  layoutGraph(input: GraphLayoutInput): Promise<GraphPlacement | null> {
    if (this.disposed) return Promise.resolve(null);
    const id = this.nextId++;
    // older requests are superseded: settled now, their answers dropped when they arrive
    for (const [old, p] of this.pending) {
      this.pending.delete(old);
      p.resolve(null);
    }
    return new Promise<GraphPlacement | null>((resolve, reject) => {
      const pending: Pending = { input, id, resolve, reject };
      const port = this.ensurePort();
      if (!port) return this.runLocally(pending);
      this.pending.set(id, pending);
      try {
        const request = graphLayoutRequest(input, id);
        port.postMessage(request, transferablesOf(request));
      } catch {
        // a request that cannot be posted (a broken port): this one and later ones run here
        this.pending.delete(id);
        this.fail();
        this.runLocally(pending);
      }
    });
  }

  /** Terminate the worker; requests still out settle with null. */
  dispose(): void {
    this.disposed = true;
    this.port?.terminate();
    this.port = null;
    for (const p of this.pending.values()) p.resolve(null);
    this.pending.clear();
  }

  private ensurePort(): LayoutPort | null {
    if (this.port || this.local) return this.port;
    let port: LayoutPort | null;
    try {
      port = this.start();
    } catch {
      port = null;
    }
    if (!port) {
      this.local = true;
      return null;
    }
    port.onmessage = (event) => this.answered(event.data);
    port.onerror = () => {
      // the worker could not load or died: what is still out is laid out here, and so is what follows
      const out = [...this.pending.values()];
      this.pending.clear();
      this.fail();
      for (const p of out) this.runLocally(p);
    };
    this.port = port;
    return port;
  }

  private fail(): void {
    this.port?.terminate();
    this.port = null;
    this.local = true;
  }

  private answered(answer: LayoutAnswer): void {
    const p = this.pending.get(answer?.id);
    if (!p) return; // superseded (already settled with null), or disposed: dropped
    this.pending.delete(answer.id);
    settle(p, answer);
  }

  private runLocally(p: Pending): void {
    settle(p, answerLayout(graphLayoutRequest(p.input, p.id)));
  }
}

function settle(p: Pending, answer: LayoutAnswer): void {
  if (answer.type === 'error') p.reject(new Error(`The graph could not be laid out: ${answer.message}`));
  else p.resolve({ xy: answer.xy, clusters: answer.clusters });
}
