/**
 * The main-thread side of the worker boundary, derived from the method table (ENGINE_METHODS):
 * every call and job of the engine is a method here without being written again. It turns Outcomes back into values or rebuilt
 * QuarryErrors, gives every long call a job id, streams batches to a callback, and owns
 * cancellation. A job that is still running `graceMs` after cancel() gets the worker
 * terminated and a fresh one started; every call still pending is rejected with a clear
 * error (the worker cannot answer them any more). The same client drives a Web Worker, the
 * main-thread fallback and a Node worker_threads Worker (tests, benchmarks) through an
 * EngineTransport.
 *
 * It lives in worker/ rather than ui/ because it has no React in it and Node benchmarks use it.
 */
import { QuarryError, toQuarryError } from '../core/errors';
import { snapshotPuller, type PullFiles } from '../adapters/browser/files';
import { ENGINE_METHODS, STAGE_SLICE_PATHS } from './protocol';
import type {
  EngineApi,
  EngineCalls,
  EngineInfo,
  EngineJobs,
  JobCallback,
  JobEnd,
  JobEvent,
  JobId,
  JobStats,
  OpenOptions,
  OpenSpec,
  Outcome,
  Progress,
  RankedRequest,
  RankedResult,
  RelatedResult,
  RepoStats,
  SemanticRequest,
  SemanticResult,
} from './protocol';

export interface EngineTransport {
  api: EngineApi;
  /** Wrap a callback so it can cross the boundary (Comlink.proxy; identity on the main thread). */
  proxy<T extends object>(value: T): T;
  /** Mark a value's buffers as transferred when it crosses (Comlink.transfer; identity on the main thread). */
  transfer?<T>(value: T, transferables: Transferable[]): T;
  terminate(): void;
  host: EngineInfo['host'];
}

export type TransportFactory = () => EngineTransport | Promise<EngineTransport>;

export interface EngineClientOptions {
  /** How long a cancelled job may keep running before the worker is restarted. */
  graceMs?: number;
  /** Called after a restart, with the error pending calls were rejected with. */
  onRestart?: (reason: QuarryError) => void;
}

export const DEFAULT_CANCEL_GRACE_MS = 2000;
/**
 * Git jobs stop at the next network read or progress event, but a checkout that has started is
 * finished on purpose (a half-rewritten tree is worse): never restart the worker under one.
 */
const GIT_JOB_GRACE_MS = 5 * 60_000;
const JOB_GRACE_MS: Partial<Record<keyof EngineJobs, number>> = {
  cloneRepo: GIT_JOB_GRACE_MS,
  fetchRepo: GIT_JOB_GRACE_MS,
  deepenRepo: GIT_JOB_GRACE_MS,
};

type ItemOf<E> = E extends JobEnd<infer R, JobStats> ? R : never;

/**
 * A running job. Attach handlers right after the call, before any await: events cross the
 * boundary asynchronously, so none is missed. Each item reaches `onBatch` exactly once, in order
 * (the end's remaining results included).
 */
export interface Job<E extends JobEnd<unknown, JobStats>> {
  id: JobId;
  done: Promise<E>;
  /** Ask the engine to stop; the job then ends normally with ending 'cancelled'. */
  cancel(): void;
  onBatch(fn: ((items: ItemOf<E>[]) => void) | undefined): Job<E>;
  onProgress(fn: ((p: Progress) => void) | undefined): Job<E>;
}

interface Pending {
  reject(err: QuarryError): void;
}

/** The engine's view tools, typed for the app (other names are core's contract tools: plain data). */
export interface ViewTools {
  ranked_view: [RankedRequest, RankedResult];
  semantic_search: [SemanticRequest, SemanticResult];
  related_view: [{ path: string; line: number; limit?: number }, RelatedResult];
}

/** Methods the client writes itself: cancel (the grace timer), openRepo (a snapshot's bytes), callTool (typed views). */
type OwnMethods = 'cancel' | 'stagePaths' | 'callTool' | 'openRepo';
/** Every other method of the table, derived: a call resolves with its value; a job returns a Job. */
type DerivedCalls = {
  [K in Exclude<keyof EngineCalls, OwnMethods>]: (
    ...args: Parameters<EngineCalls[K]>
  ) => Promise<Awaited<ReturnType<EngineCalls[K]>>>;
};
type DerivedJobs = {
  [K in Exclude<keyof EngineJobs, OwnMethods>]: (...args: EngineJobs[K]['args']) => Job<EngineJobs[K]['end']>;
};
type AnyCall = (...args: unknown[]) => Promise<Outcome<unknown>>;
type AnyJob = (id: JobId, cb: JobCallback<unknown>, ...args: unknown[]) => Promise<Outcome<JobEnd<unknown>>>;

// The derived methods are installed on the prototype from ENGINE_METHODS (the static block below).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface EngineClient extends DerivedCalls, DerivedJobs {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class EngineClient {
  private ready: Promise<EngineTransport>;
  private current: EngineTransport | null = null;
  private pending = new Set<Pending>();
  private running = new Map<JobId, { graceTimer: ReturnType<typeof setTimeout> | null; graceMs?: number }>();
  private seq = 0;
  private disposed = false;
  /** Incremented on every restart. */
  generation = 0;
  private restartListeners = new Set<(reason: QuarryError) => void>();

  static {
    const proto = EngineClient.prototype as unknown as Record<string, unknown>;
    const own = new Set<string>(['cancel', 'stagePaths', 'callTool', 'openRepo']);
    for (const [name, kind] of Object.values(ENGINE_METHODS).flatMap((s) => Object.entries(s))) {
      if (own.has(name)) continue;
      const method = name as keyof EngineApi;
      proto[name] =
        kind === 'job' || kind === 'foregroundJob'
          ? function (this: EngineClient, ...args: unknown[]) {
              const graceMs = JOB_GRACE_MS[method as keyof EngineJobs];
              return this.job(name, (api, id, cb) => (api[method] as AnyJob)(id, cb, ...args), { graceMs });
            }
          : function (this: EngineClient, ...args: unknown[]) {
              return this.call((api) => (api[method] as AnyCall)(...args));
            };
    }
  }

  /** Called after every restart (the new engine is empty: reopen what was open); returns an unsubscribe. */
  addRestartListener(listener: (reason: QuarryError) => void): () => void {
    this.restartListeners.add(listener);
    return () => void this.restartListeners.delete(listener);
  }

  constructor(
    private readonly factory: TransportFactory,
    private readonly options: EngineClientOptions = {},
  ) {
    this.ready = this.start();
  }

  private start(): Promise<EngineTransport> {
    return Promise.resolve()
      .then(() => this.factory())
      .then((t) => {
        this.current = t;
        return t;
      });
  }

  /** Where the engine runs, once started. */
  async host(): Promise<EngineInfo['host']> {
    return (await this.ready).host;
  }

  private call<T>(invoke: (api: EngineApi, t: EngineTransport) => Promise<Outcome<T>>): Promise<T> {
    if (this.disposed) return Promise.reject(new QuarryError('Cancelled', 'The engine was shut down'));
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { reject };
      this.pending.add(entry);
      this.ready
        .then((t) => invoke(t.api, t))
        .then(
          (result) => {
            if (!this.pending.delete(entry)) return; // already rejected by a restart
            if (result.ok) resolve(result.value);
            else reject(QuarryError.fromJSON(result.error));
          },
          (err) => {
            if (this.pending.delete(entry)) reject(toQuarryError(err));
          },
        );
    });
  }

  /** A long call under a fresh job id (protected: test clients add jobs of their own). */
  protected job<E extends JobEnd<unknown, JobStats>>(
    kind: string,
    invoke: (
      api: EngineApi,
      id: JobId,
      cb: JobCallback<ItemOf<E>>,
      t: EngineTransport,
    ) => Promise<Outcome<E>>,
    options: { graceMs?: number } = {},
  ): Job<E> {
    const id = `${kind}-${++this.seq}-${Date.now().toString(36)}`;
    const batchFns: ((items: ItemOf<E>[]) => void)[] = [];
    const progressFns: ((p: Progress) => void)[] = [];
    let live = true;
    const onEvent = (event: JobEvent<ItemOf<E>>) => {
      if (!live) return;
      if (event.type === 'batch') for (const fn of batchFns) fn(event.data);
      else for (const fn of progressFns) fn(event.data);
    };
    this.running.set(id, { graceTimer: null, graceMs: options.graceMs });
    const done = this.call<E>((api, t) => invoke(api, id, t.proxy(onEvent) as JobCallback<ItemOf<E>>, t))
      .then((end) => {
        if (end.results.length) for (const fn of batchFns) fn(end.results as ItemOf<E>[]);
        return end;
      })
      .finally(() => {
        live = false;
        const r = this.running.get(id);
        if (r?.graceTimer) clearTimeout(r.graceTimer);
        this.running.delete(id);
      });
    const job: Job<E> = {
      id,
      done,
      cancel: () => this.cancel(id),
      onBatch: (fn) => {
        if (fn) batchFns.push(fn);
        return job;
      },
      onProgress: (fn) => {
        if (fn) progressFns.push(fn);
        return job;
      },
    };
    return job;
  }

  /** Open a repository as the workspace, or with `{add: true}` as one more root. */
  openRepo(spec: OpenSpec, open: OpenOptions = {}): Job<JobEnd<never, RepoStats>> {
    return this.job<JobEnd<never, RepoStats>>('openRepo', async (api, id, cb, t) => {
      if (spec.kind !== 'files') return api.openRepo(id, cb, spec, undefined, open);
      // A snapshot: only the paths cross; the worker pulls bytes through `pull`, which reads
      // the File objects here with streams and transfers the ArrayBuffers (never a File clone).
      const read = snapshotPuller(spec.files);
      const pull: PullFiles = async (paths, maxBytes) => {
        const files = await read(paths, maxBytes);
        const buffers = files.flatMap((f) => (f.bytes ? [f.bytes] : []));
        return t.transfer ? t.transfer(files, buffers) : files;
      };
      const paths = spec.files.map((f) => f.path);
      if (paths.length <= STAGE_SLICE_PATHS)
        return api.openRepo(id, cb, { kind: 'files', name: spec.name, paths }, t.proxy(pull), open);
      for (let i = 0; i < paths.length; i += STAGE_SLICE_PATHS) {
        const staged = await api.stagePaths(id, paths.slice(i, i + STAGE_SLICE_PATHS));
        if (!staged.ok) return staged;
      }
      return api.openRepo(
        id,
        cb,
        { kind: 'files', name: spec.name, paths: [], stageId: id },
        t.proxy(pull),
        open,
      );
    });
  }

  /** Run a tool (core's contracts or the engine's views) on the open workspace: plain data in and out. */
  callTool<N extends keyof ViewTools>(name: N, args: ViewTools[N][0]): Promise<ViewTools[N][1]>;
  callTool<T = unknown>(name: string, args?: unknown): Promise<T>;
  callTool(name: string, args: unknown = {}): Promise<unknown> {
    return this.call((api) => api.callTool(name, args));
  }

  /**
   * Cancel is its own call. If the job has not ended `graceMs` later, the worker is
   * stuck: terminate it, start a new one, reject everything pending.
   */
  cancel(id: JobId): void {
    const job = this.running.get(id);
    if (!job) return;
    this.current?.api.cancel(id).catch(() => {});
    if (job.graceTimer) return;
    const graceMs = job.graceMs ?? this.options.graceMs ?? DEFAULT_CANCEL_GRACE_MS;
    job.graceTimer = setTimeout(() => {
      if (this.running.has(id)) {
        void this.restart(`job ${id} did not stop within ${graceMs} ms of being cancelled`);
      }
    }, graceMs);
  }

  /** Terminate the engine, reject every pending call, start a fresh engine. */
  async restart(why: string): Promise<void> {
    const err = new QuarryError(
      'EngineRestarted',
      `The search engine was restarted: ${why}. Pending requests were stopped; try again.`,
    );
    this.generation++;
    const old = this.current;
    this.current = null;
    try {
      old?.terminate();
    } catch {
      // a transport that cannot terminate (main thread) is simply dropped
    }
    for (const p of [...this.pending]) {
      this.pending.delete(p);
      p.reject(err);
    }
    for (const r of this.running.values()) if (r.graceTimer) clearTimeout(r.graceTimer);
    this.running.clear();
    if (this.disposed) return;
    this.ready = this.start();
    await this.ready.catch(() => {});
    this.options.onRestart?.(err);
    for (const l of [...this.restartListeners]) l(err);
  }

  dispose(): void {
    this.disposed = true;
    void this.restart('the client was disposed');
  }
}

/** A transport that runs the engine on this thread (the fallback, and tests). */
export function inThreadTransport(api: EngineApi, host: EngineInfo['host'] = 'main-thread'): EngineTransport {
  return { api, proxy: (v) => v, terminate: () => {}, host };
}
