/**
 * The job edge: what every call needs at the worker boundary and nothing about repositories.
 * - errors caught and returned as an Outcome ({code, message, data}: Comlink forwards only
 *   message/name/stack of a thrown Error);
 * - job ids (one AbortController each; cancel is its own call, as in VS Code's search service);
 * - one event channel per job (`{type, data}` envelopes, not awaited one by one);
 * - batching of streamed items (every BATCH_MAX_ITEMS items or BATCH_MAX_MS);
 * - foreground tracking: calls a person waits on make background index builds give way.
 */
import { QuarryError, toQuarryError, type QuarryErrorJSON } from '../core/errors';
import { Foreground, now } from '../core/jobs/yielder';
import {
  BATCH_MAX_ITEMS,
  BATCH_MAX_MS,
  type JobCallback,
  type JobEvent,
  type JobId,
  type Outcome,
} from './protocol';

/** Error data must survive structured clone: keep only plain values. */
export function plainData(data: Record<string, unknown> | undefined): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(data ?? {}));
  } catch {
    return {};
  }
}

/** Any thrown value as the plain JSON that crosses the boundary. */
export function errorJSON(err: unknown): QuarryErrorJSON {
  const e = toQuarryError(err);
  return { code: e.code, message: e.message, data: plainData(e.data) };
}

export async function outcome<T>(fn: () => Promise<T> | T): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: errorJSON(err) };
  }
}

/** Collects items and flushes them every BATCH_MAX_ITEMS items or BATCH_MAX_MS, whichever first. */
export class Batcher<R> {
  private pending: R[] = [];
  private weight = 0;
  private firstAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  constructor(
    private readonly emit: (items: R[]) => void,
    private readonly weigh: (item: R) => number = () => 1,
    private readonly maxItems = BATCH_MAX_ITEMS,
    private readonly maxMs = BATCH_MAX_MS,
  ) {}

  push(item: R): void {
    if (!this.pending.length) {
      this.firstAt = now();
      this.timer = setTimeout(() => this.flush(), this.maxMs);
    }
    this.pending.push(item);
    this.weight += this.weigh(item);
    if (this.weight >= this.maxItems || now() - this.firstAt >= this.maxMs) this.flush();
  }

  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.length) return;
    const items = this.pending;
    this.pending = [];
    this.weight = 0;
    this.emit(items);
  }

  /** Stop the timer and hand back what was never sent (it travels with the job's end). */
  drain(): R[] {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const items = this.pending;
    this.pending = [];
    this.weight = 0;
    return items;
  }
}

export interface EventChannel<R> {
  send(event: JobEvent<R>): void;
  /** Messages on one port arrive in order, so the last callback settling means all did. */
  settle(): Promise<unknown>;
}

/** Sends events through the job callback without awaiting each; `settle()` awaits the last one. */
export function eventChannel<R>(onEvent: JobCallback<R>): EventChannel<R> {
  let last: Promise<unknown> = Promise.resolve();
  return {
    send(event) {
      try {
        const r = onEvent(event);
        if (r && typeof (r as Promise<void>).then === 'function') last = (r as Promise<void>).catch(() => {});
      } catch {
        // A callback that throws (or was released) must not break the job.
      }
    },
    settle: () => last,
  };
}

export interface JobScope<R> {
  signal: AbortSignal;
  events: EventChannel<R>;
}

export class JobEdge {
  private readonly jobs = new Map<JobId, AbortController>();
  /** Calls a person waits on; background index builds give way to them (see Foreground). */
  readonly foreground: Foreground;

  constructor(options: { foregroundGraceMs?: number } = {}) {
    this.foreground = new Foreground(options.foregroundGraceMs);
  }

  /** A short call: its error becomes an Outcome. */
  call<T>(fn: () => Promise<T> | T): Promise<Outcome<T>> {
    return outcome(fn);
  }

  /** A call a person waits on (search, file reads, listings, tools): the index build yields meanwhile. */
  async foregroundCall<T>(fn: () => Promise<T> | T): Promise<Outcome<T>> {
    const end = this.foreground.begin();
    try {
      return await outcome(fn);
    } finally {
      end();
    }
  }

  /**
   * A long call under a job id: `body` gets the job's signal and event channel; the id is free
   * again, and every event sent has settled, before the Outcome resolves.
   */
  job<R, T>(
    jobId: JobId,
    onEvent: JobCallback<R> | undefined,
    body: (scope: JobScope<R>) => Promise<T>,
    options: { foreground?: boolean } = {},
  ): Promise<Outcome<T>> {
    const run = async (): Promise<T> => {
      const controller = this.start(jobId);
      const events = eventChannel<R>(onEvent ?? (() => {}));
      try {
        return await body({ signal: controller.signal, events });
      } finally {
        this.jobs.delete(jobId);
        await events.settle();
      }
    };
    return options.foreground ? this.foregroundCall(run) : outcome(run);
  }

  /** Ask a job to stop; false when no such job runs. */
  cancel(jobId: JobId): boolean {
    const job = this.jobs.get(jobId);
    job?.abort();
    return !!job;
  }

  private start(jobId: JobId): AbortController {
    if (typeof jobId !== 'string' || !jobId)
      throw new QuarryError('InvalidArgument', 'jobId must be a non-empty string', { field: 'jobId' });
    if (this.jobs.has(jobId))
      throw new QuarryError('InvalidArgument', `Job "${jobId}" is already running`, {
        field: 'jobId',
        value: jobId,
      });
    const controller = new AbortController();
    this.jobs.set(jobId, controller);
    return controller;
  }
}
