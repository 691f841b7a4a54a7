/** The virtualizer options that keep layout out of React's commit: which scroll writes happen, and what counts as in view. */
import type { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it, vi } from 'vitest';
import { inView, measureAfterLayout, scrollUnlessThere } from './virtual';

type Fake = {
  scrollOffset: number | null;
  scrollRect: { width: number; height: number } | null;
  options: Record<string, unknown>;
  scrollElement: { scrollTo: (o: unknown) => void };
};

function fake(scrollOffset: number | null, height = 200): Fake {
  return {
    scrollOffset,
    scrollRect: { width: 300, height },
    options: { paddingStart: 0, horizontal: false },
    scrollElement: { scrollTo: vi.fn() },
  };
}
const asVirtualizer = (f: Fake) => f as unknown as Virtualizer<Element, Element>;

describe('scrollUnlessThere', () => {
  it('skips writing 0 into a list known to be at 0 (a new list)', () => {
    for (const known of [0, null]) {
      const v = fake(known);
      scrollUnlessThere(0, {}, asVirtualizer(v));
      expect(v.scrollElement.scrollTo).not.toHaveBeenCalled();
    }
  });

  it('writes every other position, and 0 into a list scrolled away from it', () => {
    const scrolled = fake(300);
    scrollUnlessThere(0, {}, asVirtualizer(scrolled));
    expect(scrolled.scrollElement.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: undefined });
    const fresh = fake(0);
    scrollUnlessThere(120, { behavior: 'auto' }, asVirtualizer(fresh));
    expect(fresh.scrollElement.scrollTo).toHaveBeenCalledWith({ top: 120, behavior: 'auto' });
    // an adjustment that lands on a real position is a write too
    const adjusted = fake(0);
    scrollUnlessThere(0, { adjustments: 40 }, asVirtualizer(adjusted));
    expect(adjusted.scrollElement.scrollTo).toHaveBeenCalledWith({ top: 40, behavior: undefined });
  });
});

describe('inView', () => {
  it('is true only for an item wholly inside the viewport', () => {
    const v = asVirtualizer(fake(100, 200)); // rows of 20: 5..14 wholly visible
    expect(inView(v, 5, 20)).toBe(true);
    expect(inView(v, 14, 20)).toBe(true);
    expect(inView(v, 4, 20)).toBe(false); // starts above the top
    expect(inView(v, 15, 20)).toBe(false); // ends below the bottom
  });

  it('is false before the list has a size (nothing known: scroll)', () => {
    expect(inView(asVirtualizer(fake(0, 0)), 0, 20)).toBe(false);
    expect(inView(asVirtualizer({ ...fake(0), scrollRect: null }), 0, 20)).toBe(false);
  });
});

describe('measureAfterLayout', () => {
  /** A row whose every layout read is counted: offsetHeight and getBoundingClientRect force a layout. */
  function row(index: number) {
    const reads = { count: 0 };
    const el = {
      dataset: { index: String(index) },
      getAttribute: (name: string) => (name === 'data-index' ? String(index) : null),
      get offsetHeight() {
        reads.count++;
        return 99;
      },
      getBoundingClientRect() {
        reads.count++;
        return { height: 99, width: 300 };
      },
    };
    return { el: el as unknown as Element, reads };
  }
  function instance(known: Map<string, number>) {
    return {
      itemSizeCache: known,
      indexFromElement: (el: Element) => Number(el.getAttribute('data-index')),
      options: { horizontal: false, getItemKey: (i: number) => `k${i}`, estimateSize: () => 54 },
    } as unknown as Virtualizer<Element, Element>;
  }

  it('answers a row React has just attached from what is known, without reading layout', () => {
    const v = instance(new Map([['k3', 61]]));
    const measured = row(3);
    expect(measureAfterLayout(measured.el, undefined, v)).toBe(61);
    const fresh = row(7);
    expect(measureAfterLayout(fresh.el, undefined, v)).toBe(54); // the estimate until the observer reports
    expect(measured.reads.count + fresh.reads.count).toBe(0);
  });

  it("takes the ResizeObserver's border box (rounded), over anything known", () => {
    const v = instance(new Map([['k3', 61]]));
    const { el, reads } = row(3);
    const entry = {
      borderBoxSize: [{ blockSize: 72.4, inlineSize: 300 }],
      contentRect: { height: 70, width: 300 },
    } as unknown as ResizeObserverEntry;
    expect(measureAfterLayout(el, entry, v)).toBe(72);
    // a browser without borderBoxSize: the content rect
    const old = { contentRect: { height: 70.6, width: 300 } } as unknown as ResizeObserverEntry;
    expect(measureAfterLayout(el, old, v)).toBe(71);
    expect(reads.count).toBe(0);
  });
});
