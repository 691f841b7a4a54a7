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
import { elementScroll, type Virtualizer } from '@tanstack/react-virtual';

type Rect = { width: number; height: number };

export function observeRectAfterLayout<S extends Element, I extends Element>(
  instance: Virtualizer<S, I>,
  cb: (rect: Rect) => void,
): void | (() => void) {
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

/**
 * The library's scroll write, minus the one that changes nothing: when it first sees its scroll
 * element it writes the position it already knows (0 for a new list) into it, inside React's
 * commit, and a scroll write makes the browser lay out the whole page there and then (traced:
 * the viewer opening a 4,600-line file, a 50-70 ms layout inside the commit's task). A new
 * element is at 0 already; any other write goes through.
 */
export function scrollUnlessThere<S extends Element, I extends Element>(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<S, I>,
): void {
  if (offset + (options.adjustments ?? 0) === 0 && (instance.scrollOffset ?? 0) === 0) return;
  elementScroll(offset, options, instance);
}

/**
 * A row's size without a layout read. The library measures a row the moment React attaches it
 * (`ref={virtualizer.measureElement}`), inside the commit, with offsetHeight: the browser lays out
 * the whole page there and then. Opening History on 10,000 commits, that put a 34 ms layout into
 * the commit's task (62-70 ms in all, Chrome trace). Here a row React has just attached keeps the
 * size already known (measured before, or the estimate); the ResizeObserver the library puts on
 * every row reports the real size after the browser's own layout, in a task of its own.
 */
export function measureAfterLayout<S extends Element, I extends Element>(
  element: I,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<S, I>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(instance.options.horizontal ? box.inlineSize : box.blockSize);
  if (entry) return Math.round(entry.contentRect[instance.options.horizontal ? 'width' : 'height']);
  const index = instance.indexFromElement(element);
  return (
    instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index)
  );
}

/**
 * Spread into useVirtualizer's options. `useFlushSync: false`: by default the library re-renders
 * with flushSync inside every scroll event, so React renders, commits and the browser lays out
 * the new rows inside the event's task, and a scroll the virtualizer starts itself (the viewer
 * landing on a line) chained that with its own layout reads: tasks of 60-120 ms on a real tree
 * (Chrome trace: flushSync -> commitRoot -> scrollTo / scrollHeight). Without it the rows follow
 * in React's next render, a frame later at most.
 */
export function lazyMeasureOptions() {
  return {
    observeElementRect: observeRectAfterLayout,
    initialRect: { width: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight },
    useFlushSync: false,
    scrollToFn: scrollUnlessThere,
    measureElement: measureAfterLayout,
  };
}

/**
 * Whether item `index` (of fixed height `rowHeight`) is wholly in view, from what the
 * virtualizer knows (no layout read). Scrolling to an item reads the list's scroll height,
 * which lays out the page at once: skipped when there is nothing to scroll.
 */
export function inView<S extends Element, I extends Element>(
  virtualizer: Virtualizer<S, I>,
  index: number,
  rowHeight: number,
): boolean {
  const top = virtualizer.scrollOffset ?? 0;
  const height = virtualizer.scrollRect?.height ?? 0;
  const start = virtualizer.options.paddingStart + index * rowHeight;
  return height > 0 && start >= top && start + rowHeight <= top + height;
}
