/**
 * Options for @tanstack/react-virtual that never force a synchronous layout on mount.
 *
 * The library measures its scroll element with offsetWidth/offsetHeight inside React's layout
 * effect, i.e. right after the commit, while the new DOM's layout is dirty: the browser then
 * lays out the whole page inside that script task. When a 10,000-file folder finished loading,
 * that merged the commit and the layout into one 50-60 ms task (Chrome trace). A ResizeObserver
 * reports the same size after the browser's own layout step, in a separate task; until then
 * the window's height is a good guess for the first rows.
 */
import type { Virtualizer } from '@tanstack/react-virtual';

type Rect = { width: number; height: number };

export function observeRectAfterLayout<S extends Element, I extends Element>(instance: Virtualizer<S, I>, cb: (rect: Rect) => void): void | (() => void) {
  const element = instance.scrollElement;
  const win = element?.ownerDocument.defaultView;
  if (!element || !win) return;
  const el = element as unknown as HTMLElement;
  // clientWidth/clientHeight, as the library measures; read inside the observer's callback the
  // layout is already clean, so the read costs nothing.
  const measure = () => cb({ width: el.clientWidth, height: el.clientHeight });
  if (!win.ResizeObserver) {
    measure();
    return () => {};
  }
  const observer = new win.ResizeObserver(measure);
  observer.observe(element);
  return () => observer.disconnect();
}

/** Spread into useVirtualizer's options. */
export function lazyMeasureOptions() {
  return {
    observeElementRect: observeRectAfterLayout,
    initialRect: { width: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight },
  };
}
