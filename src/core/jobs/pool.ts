/**
 * The scheduler under each of Quarry's thread pools (search lanes: grep/lane-pool.ts; parsing:
 * chunk/pool.ts; the embedding model: semantic/thread-embedder.ts), whatever the host: up to
 * `size` threads, each started through the `spawn` factory when first needed (a PoolThread: a Web
 * Worker in the browser, a worker_threads Worker in Node), and tasks that wait here in order
 * until a thread has room for them.
 *
 * A task is numbered, sent with `encode`, and settled by the reply `replyId` names, as `outcome`
 * reads it (a reply that ends nothing, a progress report, is left to `outcome` to pass on). What
 * the pools differ in are hooks:
 * - where a task goes: unplaced, it goes to the least busy thread with room when its turn comes;
 *   `place` may bind it to a thread as it arrives instead (the search's least busy lane, a parse
 *   file's thread that has its grammar), and it then waits for that thread;
 * - how much a thread takes at once (`room`, `weight`: one task by default, any number for the
 *   lanes, a window of text for the parsers), and `holdWhile`, a gate that keeps new tasks back
 *   while foreground work runs;
 * - what cancelling a task already with a thread does (`cancelRunning`): end the thread (the
 *   default), let the task finish, or send the thread a cancel message;
 * - `budget`: how long a thread may hold a task before it is deemed hung.
 *
 * A thread that dies fails the tasks it held (`lost`: its work may be what killed it) and a new
 * one takes the tasks waiting for it and later ones; a hung thread is ended and fails only the
 * task it hung on (the others it held wait again, first in line). A thread that stops before its
 * first answer, `giveUpAfter` times in a row (a worker script that cannot load, a host that
 * cannot start threads), makes the pool give up: every task goes to `fallback` from then on.
 * With `restart: false` a lost thread closes the pool (its thread's state, a loaded model,
 * cannot be rebuilt behind the callers' backs), as dispose() does.
 */
import { QuarryError } from '../errors';
import type { PoolThread } from './pool-thread';
import { onAbort } from './abort-fanout';
import { MAX_BACKGROUND_WAIT_MS, now } from './yielder';

export type { PoolThread };

export type Outcome<V> = { ok: true; value: V } | { ok: false; error: unknown };

/** What the hooks see of a thread's slot (started or not). */
export interface ThreadSlot<S> {
  readonly index: number;
  /** Whether its thread is running. */
  readonly started: boolean;
  /** Tasks sent to the thread and not settled yet, and their weight. */
  readonly inFlight: number;
  readonly inFlightWeight: number;
  /** The weight of every task bound to the slot: in flight and waiting for room. */
  readonly load: number;
  /** The pool owner's record of the thread (`state()`: fresh for each thread). */
  readonly state: S;
}

export interface PoolOptions<M, R, T, V, S> {
  /** Threads at most (at least one). */
  size: number;
  /** Starts a thread; a throw counts as a thread that stopped before its first answer. */
  spawn: () => PoolThread<M, R>;
  /** The message that sends task `id`, and the buffers it moves. */
  encode(id: number, task: T): { message: M; transfer: ArrayBuffer[] };
  /** The task a reply is about. */
  replyId(reply: R): number;
  /** What the reply means for its task: its end (a value or an error), or undefined while it goes on. */
  outcome(reply: R, task: T): Outcome<V> | undefined;
  /** The error a task fails with when its thread is lost (it died, hung or could not start). */
  lost(reason: string, task: T): unknown;
  /** The error of a task cancelled by its signal. */
  cancelled(task: T): unknown;
  /** The error of a task still pending, or given later, once the pool is disposed. */
  closed(reason: string | undefined, task: T): unknown;
  /** A fresh record for a new thread (say, the grammars it loaded). */
  state?: () => S;
  /** What a task weighs in a thread's load (default 1). */
  weight?(task: T): number;
  /** Whether the slot's thread takes `task` now (default: when it holds nothing). */
  room?(slot: ThreadSlot<S>, task: T): boolean;
  /** Binds an arriving task to a slot (its thread starts now); null leaves it to the next thread with room. */
  place?(task: T, slots: readonly ThreadSlot<S>[]): number | null;
  /** The longest a thread may hold `task` (ms, from when it is the oldest the thread holds) before it is deemed hung. */
  budget?(task: T): number | undefined;
  /**
   * Cancelling a task a thread holds: 'terminate' (default) ends the thread (the other tasks it
   * held wait again, for a new one); 'finish' lets it run (the signal counts only while it
   * waits); `message` asks the thread to drop it (it fails at once; a late answer is ignored).
   */
  cancelRunning?: 'terminate' | 'finish' | { message: (id: number) => M };
  /** Threads stopping before their first answer, in a row, after which the pool gives up (default 2). */
  giveUpAfter?: number;
  /** Where tasks go once the pool gave up; without one it never gives up. */
  fallback?: (task: T) => Promise<V>;
  /** false: a lost thread closes the pool, failing every task with `lost` (default true). */
  restart?: boolean;
  /** Told once, when the pool closes (disposed, or a lost thread with restart: false). */
  onClose?: (reason: string) => void;
  /** The longest a hold keeps tasks back in one go (ms). */
  maxHoldMs?: number;
}

type Timer = ReturnType<typeof setTimeout>;

interface Entry<T, V> {
  readonly id: number;
  readonly task: T;
  readonly weight: number;
  resolve(value: V): void;
  reject(error: unknown): void;
  /** Stops listening to the task's signal (one listener per signal for all its tasks: abort-fanout.ts). */
  offAbort?: () => void;
  /** The slot it is bound to (waiting there or in flight), or null while it waits in the shared queue. */
  slot: number | null;
  where: 'waiting' | 'sent' | 'done';
}

class Slot<M, R, T, V, S> implements ThreadSlot<S> {
  thread: PoolThread<M, R> | null = null;
  running = new Map<number, Entry<T, V>>();
  waiting: Array<Entry<T, V>> = [];
  inFlightWeight = 0;
  load = 0;
  answered = false;
  timer: Timer | null = null;
  watched: Entry<T, V> | null = null;

  constructor(
    readonly index: number,
    public state: S,
  ) {}

  get started(): boolean {
    return this.thread !== null;
  }

  get inFlight(): number {
    return this.running.size;
  }
}

/** A task's thread could not start: why. */
type StartFailure = { reason: string };

export class Pool<M, R, T, V, S = undefined> {
  private readonly slotList: Array<Slot<M, R, T, V, S>>;
  /** Unplaced tasks waiting for a thread with room, in order. */
  private readonly queue: Array<Entry<T, V>> = [];
  private nextId = 1;
  private startFailures = 0;
  private given = false;
  private closedWith: ((task: T) => unknown) | null = null;
  private gate: (() => number) | null = null;
  private heldSince = -1;
  private resumeTimer: Timer | null = null;

  constructor(private readonly o: PoolOptions<M, R, T, V, S>) {
    if (!(o.size >= 1))
      throw new QuarryError('InvalidArgument', `A pool needs at least one thread, not ${o.size}`);
    this.slotList = Array.from({ length: Math.floor(o.size) }, (_, i) => new Slot(i, this.freshState()));
  }

  /** Every slot, started or not (the hooks' view). */
  get slots(): readonly ThreadSlot<S>[] {
    return this.slotList;
  }

  /** Whether the pool gave up on threads (every task goes to the fallback). */
  get gaveUp(): boolean {
    return this.given;
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  /** Runs `task` on a thread; `signal` cancels it (see cancelRunning for one a thread holds). */
  run(task: T, signal?: AbortSignal): Promise<V> {
    if (this.closedWith) return Promise.reject(this.closedWith(task));
    if (signal?.aborted) return Promise.reject(this.o.cancelled(task));
    if (this.given && this.o.fallback) return this.o.fallback(task);
    return new Promise<V>((resolve, reject) => {
      const entry: Entry<T, V> = {
        id: this.nextId++,
        task,
        weight: this.o.weight?.(task) ?? 1,
        resolve,
        reject,
        slot: null,
        where: 'waiting',
      };
      if (signal) entry.offAbort = onAbort(signal, () => this.cancel(entry));
      this.enqueue(entry, false);
      this.pump();
    });
  }

  /**
   * Posts a message that is no task (nothing answers it: a grammar to preload) to slot `index`'s
   * thread, starting it if need be; false when it cannot start.
   */
  post(index: number, message: M, transfer: ArrayBuffer[] = []): boolean {
    const slot = this.slotList[index];
    if (!slot || this.closedWith || this.given) return false;
    if (this.ensureStarted(slot)) return false;
    try {
      slot.thread!.post(message, transfer);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * While `gate()` is above 0 no task is sent to a thread (those in flight finish); it is asked
   * again after min(its answer, 50) ms, and a hold never lasts more than maxHoldMs in one go.
   */
  holdWhile(gate: (() => number) | null): void {
    this.gate = gate;
  }

  /** Terminates the threads; every task pending, and any given later, fails with `closed(reason)`. */
  dispose(reason?: string): void {
    this.close(reason ?? 'the pool was disposed', (task) => this.o.closed(reason, task));
  }

  private freshState(): S {
    return this.o.state ? this.o.state() : (undefined as S);
  }

  private close(reason: string, error: (task: T) => unknown): void {
    if (this.closedWith) return;
    this.closedWith = error;
    if (this.resumeTimer !== null) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    const pending = this.queue.splice(0);
    for (const slot of this.slotList) {
      const { held, waiting } = this.retire(slot);
      pending.push(...held, ...waiting);
    }
    for (const entry of pending) this.settle(entry, { ok: false, error: error(entry.task) });
    this.o.onClose?.(reason);
  }

  /** Places an entry: bound to a slot (`front`: first in its line), in the shared queue, or to the fallback. */
  private enqueue(entry: Entry<T, V>, front: boolean): void {
    entry.where = 'waiting';
    entry.slot = null;
    if (this.given && this.o.fallback) return this.toFallback(entry);
    const at = this.o.place?.(entry.task, this.slotList);
    const slot = at === null || at === undefined ? undefined : this.slotList[at];
    if (!slot) {
      if (front) this.queue.unshift(entry);
      else this.queue.push(entry);
      return;
    }
    const failed = this.ensureStarted(slot);
    if (failed) return this.startFailed(entry, failed.reason);
    entry.slot = slot.index;
    slot.load += entry.weight;
    if (front) slot.waiting.unshift(entry);
    else slot.waiting.push(entry);
  }

  /** Starts the slot's thread unless it runs; what went wrong when it could not. */
  private ensureStarted(slot: Slot<M, R, T, V, S>): StartFailure | null {
    if (slot.thread) return null;
    let thread: PoolThread<M, R>;
    try {
      thread = this.o.spawn();
    } catch (err) {
      slot.state = this.freshState();
      this.startFailures++;
      if (this.o.fallback && this.startFailures >= (this.o.giveUpAfter ?? 2)) this.giveUp();
      return { reason: err instanceof Error ? err.message : String(err) };
    }
    slot.thread = thread;
    thread.listen(
      (reply) => this.onReply(slot, thread, reply),
      (reason) => this.onExit(slot, thread, reason),
    );
    return null;
  }

  /** A task whose thread could not start: the fallback's once the pool gave up, failed otherwise. */
  private startFailed(entry: Entry<T, V>, reason: string): void {
    if (this.o.restart === false) return this.closeLost(reason, [entry]);
    if (this.given && this.o.fallback) return this.toFallback(entry);
    this.settle(entry, { ok: false, error: this.o.lost(reason, entry.task) });
  }

  private giveUp(): void {
    if (this.given) return;
    this.given = true;
    // nothing more goes to a thread: what waits goes to the fallback too
    const waiting = this.queue.splice(0);
    for (const slot of this.slotList) {
      waiting.push(...slot.waiting.splice(0));
      slot.load = slot.inFlightWeight;
    }
    for (const entry of waiting) this.toFallback(entry);
  }

  private toFallback(entry: Entry<T, V>): void {
    this.detach(entry);
    entry.where = 'done';
    this.o.fallback!(entry.task).then(entry.resolve, entry.reject);
  }

  private onReply(slot: Slot<M, R, T, V, S>, thread: PoolThread<M, R>, reply: R): void {
    if (slot.thread !== thread || this.closedWith) return;
    slot.answered = true;
    this.startFailures = 0;
    const entry = slot.running.get(this.o.replyId(reply));
    if (!entry) return; // cancelled meanwhile
    const outcome = this.o.outcome(reply, entry.task);
    if (!outcome) return;
    this.unsend(slot, entry);
    this.pump();
    this.settle(entry, outcome);
  }

  private onExit(slot: Slot<M, R, T, V, S>, thread: PoolThread<M, R>, reason: string): void {
    if (slot.thread !== thread || this.closedWith) return;
    const { held, waiting, answered } = this.retire(slot);
    this.afterLoss(reason, answered, held, [], waiting);
  }

  /** The thread took longer than its budget over its oldest task: ended, that task failed, the others requeued. */
  private onHung(slot: Slot<M, R, T, V, S>, entry: Entry<T, V>, ms: number, armedAt: number): void {
    slot.timer = null;
    if (slot.running.get(entry.id) !== entry || this.closedWith) return;
    if (now() - armedAt > 2 * ms) {
      // the timer fired far later than asked: this process was asleep (a suspended machine, a
      // frozen tab), the thread too; it gets its budget again
      const again = now();
      slot.timer = setTimeout(() => this.onHung(slot, entry, ms, again), ms);
      return;
    }
    const { held, waiting, answered } = this.retire(slot);
    this.afterLoss(
      `it gave no answer in ${ms} ms`,
      answered,
      [entry],
      held.filter((e) => e !== entry),
      waiting,
    );
  }

  /**
   * After a thread was lost: `suspects` fail (or go to the fallback, when this loss makes or
   * finds the pool given up on threads that never answered), `innocent` wait again first in
   * line, `waiting` are placed again.
   */
  private afterLoss(
    reason: string,
    answered: boolean,
    suspects: Array<Entry<T, V>>,
    innocent: Array<Entry<T, V>>,
    waiting: Array<Entry<T, V>>,
  ): void {
    if (!answered) this.startFailures++;
    if (this.o.restart === false) return this.closeLost(reason, [...suspects, ...innocent, ...waiting]);
    const fallBack =
      !answered &&
      this.o.fallback !== undefined &&
      (this.given || this.startFailures >= (this.o.giveUpAfter ?? 2));
    if (fallBack) this.giveUp();
    for (const entry of suspects)
      if (fallBack) this.toFallback(entry);
      else this.settle(entry, { ok: false, error: this.o.lost(reason, entry.task) });
    for (const entry of [...innocent].reverse()) this.enqueue(entry, true);
    for (const entry of waiting) this.enqueue(entry, false);
    this.pump();
  }

  private closeLost(reason: string, held: Array<Entry<T, V>>): void {
    for (const entry of held) this.settle(entry, { ok: false, error: this.o.lost(reason, entry.task) });
    this.close(reason, (task) => this.o.lost(reason, task));
  }

  /** Ends a slot's thread and empties the slot (a new thread starts when a task needs one); what it held. */
  private retire(slot: Slot<M, R, T, V, S>): {
    held: Array<Entry<T, V>>;
    waiting: Array<Entry<T, V>>;
    answered: boolean;
  } {
    const thread = slot.thread;
    slot.thread = null;
    thread?.terminate();
    if (slot.timer !== null) clearTimeout(slot.timer);
    const held = [...slot.running.values()];
    const waiting = slot.waiting;
    const answered = slot.answered;
    slot.running = new Map();
    slot.waiting = [];
    slot.inFlightWeight = 0;
    slot.load = 0;
    slot.answered = false;
    slot.timer = null;
    slot.watched = null;
    slot.state = this.freshState();
    for (const entry of [...held, ...waiting]) entry.slot = null;
    return { held, waiting, answered };
  }

  private cancel(entry: Entry<T, V>): void {
    if (entry.where === 'done') return;
    if (entry.where === 'waiting') {
      const line = entry.slot === null ? this.queue : this.slotList[entry.slot].waiting;
      const at = line.indexOf(entry);
      if (at >= 0) line.splice(at, 1);
      if (entry.slot !== null) this.slotList[entry.slot].load -= entry.weight;
      this.settle(entry, { ok: false, error: this.o.cancelled(entry.task) });
      this.pump();
      return;
    }
    const slot = this.slotList[entry.slot!];
    const how = this.o.cancelRunning ?? 'terminate';
    if (how === 'finish') return;
    if (how === 'terminate') {
      const { held, waiting } = this.retire(slot);
      this.settle(entry, { ok: false, error: this.o.cancelled(entry.task) });
      for (const other of held.filter((e) => e !== entry).reverse()) this.enqueue(other, true);
      for (const other of waiting) this.enqueue(other, false);
    } else {
      this.unsend(slot, entry);
      slot.thread?.post(how.message(entry.id), []);
      this.settle(entry, { ok: false, error: this.o.cancelled(entry.task) });
    }
    this.pump();
  }

  /** Sends what the threads have room for, in order, unless held. */
  private pump(): void {
    if (this.closedWith) return;
    if (!this.queue.length && !this.slotList.some((s) => s.waiting.length)) {
      // nothing waiting: no hold to keep (the next one starts afresh), no timer armed to check it again
      this.heldSince = -1;
      return;
    }
    if (this.holding()) return;
    for (const slot of this.slotList)
      while (slot.waiting.length && slot.thread && this.hasRoom(slot, slot.waiting[0]))
        this.send(slot, slot.waiting.shift()!);
    while (this.queue.length && !this.closedWith) {
      const slot = this.freeSlot(this.queue[0]);
      if (!slot) return;
      const entry = this.queue.shift()!;
      const failed = this.ensureStarted(slot);
      if (failed) this.startFailed(entry, failed.reason);
      else this.send(slot, entry);
    }
  }

  private hasRoom(slot: Slot<M, R, T, V, S>, entry: Entry<T, V>): boolean {
    return this.o.room ? this.o.room(slot, entry.task) : slot.running.size === 0;
  }

  /** The least busy slot with room for an unplaced task (the first of equals), if any. */
  private freeSlot(entry: Entry<T, V>): Slot<M, R, T, V, S> | undefined {
    let best: Slot<M, R, T, V, S> | undefined;
    for (const slot of this.slotList)
      if (this.hasRoom(slot, entry) && (!best || slot.running.size < best.running.size)) best = slot;
    return best;
  }

  private holding(): boolean {
    const wait = this.gate?.() ?? 0;
    if (!(wait > 0)) {
      this.heldSince = -1;
      return false;
    }
    const t = now();
    if (this.heldSince < 0) this.heldSince = t;
    if (t - this.heldSince >= (this.o.maxHoldMs ?? MAX_BACKGROUND_WAIT_MS)) return false;
    this.resumeTimer ??= setTimeout(
      () => {
        this.resumeTimer = null;
        this.pump();
      },
      Math.min(wait, 50),
    );
    return true;
  }

  private send(slot: Slot<M, R, T, V, S>, entry: Entry<T, V>): void {
    if (entry.slot === null) slot.load += entry.weight;
    entry.slot = slot.index;
    entry.where = 'sent';
    slot.running.set(entry.id, entry);
    slot.inFlightWeight += entry.weight;
    if (this.o.cancelRunning === 'finish') this.detach(entry);
    try {
      const { message, transfer } = this.o.encode(entry.id, entry.task);
      slot.thread!.post(message, transfer);
    } catch (err) {
      // it could not be sent (a message that cannot be cloned): the task's own failure
      this.unsend(slot, entry);
      this.settle(entry, { ok: false, error: err });
      return;
    }
    this.watch(slot);
  }

  /** Takes an entry off its thread's books. */
  private unsend(slot: Slot<M, R, T, V, S>, entry: Entry<T, V>): void {
    if (!slot.running.delete(entry.id)) return;
    slot.inFlightWeight -= entry.weight;
    slot.load -= entry.weight;
    this.watch(slot);
  }

  /** Arms the slot's budget for its oldest task when that changed. */
  private watch(slot: Slot<M, R, T, V, S>): void {
    const oldest = slot.running.values().next().value ?? null;
    if (oldest === slot.watched) return;
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.watched = oldest;
    const ms = oldest ? this.o.budget?.(oldest.task) : undefined;
    if (oldest && ms !== undefined && ms > 0 && ms < Infinity) {
      const armedAt = now();
      slot.timer = setTimeout(() => this.onHung(slot, oldest, ms, armedAt), ms);
    }
  }

  private detach(entry: Entry<T, V>): void {
    entry.offAbort?.();
    entry.offAbort = undefined;
  }

  private settle(entry: Entry<T, V>, outcome: Outcome<V>): void {
    if (entry.where === 'done') return;
    entry.where = 'done';
    this.detach(entry);
    if (outcome.ok) entry.resolve(outcome.value);
    else entry.reject(outcome.error);
  }
}
