/**
 * Run one engine tool for a view and follow its state (loading, ready, error). The call
 * is re-run when the repository is reloaded (repoKey) or the arguments change; an answer
 * for superseded arguments is dropped.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { QuarryError, toQuarryError } from '../../core/errors';
import { useEngine } from '../engine';

export type ToolState<T> =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; value: T }
  | { state: 'error'; error: QuarryError };

/** `args` null means "do not call" (e.g. no feature name typed yet). */
export function useTool<T>(
  name: string,
  args: Record<string, unknown> | null,
  repoKey: string,
): [ToolState<T>, () => void] {
  const engine = useEngine();
  const [state, setState] = useState<ToolState<T>>(args ? { state: 'loading' } : { state: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const argsKey = args ? JSON.stringify(args) : '';
  // The call follows the arguments' value (argsKey), not their identity: a caller may build a new object each render.
  const latestArgs = useEffectEvent(() => args);

  useEffect(() => {
    const args = latestArgs();
    if (!args) {
      setState({ state: 'idle' });
      return;
    }
    let current = true;
    setState({ state: 'loading' });
    engine.callTool<T>(name, args).then(
      (value) => current && setState({ state: 'ready', value }),
      (err) => current && setState({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      current = false;
    };
  }, [engine, name, argsKey, repoKey, attempt]);

  return [state, () => setAttempt((a) => a + 1)];
}

/** Keep a text box responsive and write its value to the URL after a short pause. */
export function useDebouncedDraft(
  value: string,
  commit: (v: string) => void,
  delayMs = 150,
): [string, (v: string) => void] {
  const [draft, setDraft] = useState(value);
  /** Values written and not yet come back as `value`, oldest first. */
  const sent = useRef<string[]>([]);
  // The URL can change under us (back/forward, a link): follow it. Not our own writes coming
  // back: the view renders them as transitions, and the box may hold more typing by then.
  useEffect(() => {
    const i = sent.current.indexOf(value);
    if (i >= 0) {
      sent.current = sent.current.slice(i + 1);
      return;
    }
    setDraft(value);
  }, [value]);
  // Only a new draft restarts the pause; the latest value and commit are read when it ends.
  const settle = useEffectEvent((v: string) => {
    if (v === value) return;
    sent.current = [...sent.current.slice(-15), v];
    commit(v);
  });
  useEffect(() => {
    const t = setTimeout(() => settle(draft), delayMs);
    return () => clearTimeout(t);
  }, [draft, delayMs]);
  return [draft, setDraft];
}
