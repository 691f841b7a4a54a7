/**
 * Run `fn` when the page is idle (requestIdleCallback, at most `timeoutMs` later), or after
 * `fallbackMs` where there is no idle callback; returns a cancel function.
 */
export function whenIdle(fn: () => void, timeoutMs: number, fallbackMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(fn, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(fn, fallbackMs);
  return () => clearTimeout(handle);
}
