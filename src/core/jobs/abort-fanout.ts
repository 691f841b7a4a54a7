/**
 * One 'abort' listener per signal, however many waits hang on it. A signal shared by many
 * tasks (an index refresh hands its own to every file it parses on the thread pool) would
 * otherwise collect a listener per task in flight, and Node warns past ten
 * (MaxListenersExceededWarning: "11 abort listeners added to [AbortSignal]").
 */
interface Fanout {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/** Calls `callback` once when `signal` aborts; the returned function stops that (idempotent). */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let fanout = fanouts.get(signal);
  if (!fanout) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      fanouts.delete(signal);
      for (const cb of [...callbacks]) cb();
      callbacks.clear();
    };
    fanout = { callbacks, listener };
    fanouts.set(signal, fanout);
    signal.addEventListener('abort', listener, { once: true });
  }
  const own = fanout;
  // a function of its own per call: the same callback registered twice is removed once per registration
  const entry = () => callback();
  own.callbacks.add(entry);
  return () => {
    if (!own.callbacks.delete(entry) || own.callbacks.size > 0) return;
    if (fanouts.get(signal) === own) fanouts.delete(signal);
    signal.removeEventListener('abort', own.listener);
  };
}
