/** Pane sizes: fitted to the window, kept across reloads, tolerant of whatever storage holds. */
import { describe, expect, it } from 'vitest';
import {
  applySizes,
  keyResize,
  LAYOUT_STORAGE_KEY,
  MIDDLE_DEFAULT_FRACTION,
  PANE_DEFAULTS,
  PANE_MIN,
  PaneLayout,
  parseSizes,
  STACK_DEFAULT_FRACTION,
  type SizeStorage,
} from './pane-layout';

function memoryStorage(initial: Record<string, string> = {}): SizeStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('applySizes', () => {
  it('gives the defaults room at 1400 px: the viewer gets the most', () => {
    const a = applySizes(PANE_DEFAULTS, 1400);
    expect(a.tree).toBe(240);
    expect(a.middle).toBe(Math.round(1400 * MIDDLE_DEFAULT_FRACTION));
    const viewer = 1400 - a.tree - a.middle;
    expect(viewer).toBeGreaterThan(a.middle);
    expect(viewer).toBeGreaterThan(700);
  });

  it('clamps chosen sizes so the viewer keeps its minimum, and never below the panes own minimums', () => {
    const wide = applySizes({ ...PANE_DEFAULTS, tree: 900, middle: 900 }, 1400);
    expect(wide.tree).toBe(1400 - PANE_MIN.middle - PANE_MIN.viewer);
    expect(1400 - wide.tree - wide.middle).toBe(PANE_MIN.viewer);
    const tiny = applySizes({ ...PANE_DEFAULTS, tree: 10, middle: 10, related: 10 }, 1400);
    expect([tiny.tree, tiny.middle, tiny.related]).toEqual([
      PANE_MIN.tree,
      PANE_MIN.middle,
      PANE_MIN.related,
    ]);
    // narrower than the minimums together: each keeps its minimum (the grid scrolls)
    const narrow = applySizes(PANE_DEFAULTS, 500);
    expect([narrow.tree, narrow.middle]).toEqual([PANE_MIN.tree, PANE_MIN.middle]);
  });

  it('keeps the Related panel from eating the viewer', () => {
    const a = applySizes({ ...PANE_DEFAULTS, related: 5000 }, 1400);
    expect(a.related).toBe(a.range.related.max);
    expect(1400 - a.tree - a.middle - a.related).toBeGreaterThanOrEqual(300);
  });
});

describe('parseSizes', () => {
  it.each([
    [null, PANE_DEFAULTS],
    ['not json', PANE_DEFAULTS],
    ['[1,2]', PANE_DEFAULTS],
    ['{"tree":"wide","middle":-5,"related":1e9,"relatedCollapsed":"yes"}', PANE_DEFAULTS],
    [
      '{"tree":300.4,"middle":512,"related":200,"relatedCollapsed":true}',
      { tree: 300, middle: 512, related: 200, relatedCollapsed: true, stack: null },
    ],
    ['{"stack":330.6}', { ...PANE_DEFAULTS, stack: 331 }],
    ['{"stack":-4}', PANE_DEFAULTS],
    ['{"tree":300,"middle":null}', { ...PANE_DEFAULTS, tree: 300 }],
  ])('%j', (raw, want) => {
    expect(parseSizes(raw)).toEqual(want);
  });
});

describe('keyResize', () => {
  const range = { min: 150, max: 600 };
  it('moves the splitter the way the arrow points, for panes on either side', () => {
    expect(keyResize('ArrowRight', false, 240, range, 1)).toBe(256);
    expect(keyResize('ArrowLeft', true, 240, range, 1)).toBe(176);
    // a pane right of its splitter grows when the splitter moves left
    expect(keyResize('ArrowLeft', false, 240, range, -1)).toBe(256);
    expect(keyResize('ArrowLeft', false, 155, range, 1)).toBe(150);
    expect(keyResize('Home', false, 240, range, 1)).toBe(150);
    expect(keyResize('End', false, 240, range, 1)).toBe(600);
    expect(keyResize('Enter', false, 240, range, 1)).toBe('reset');
    expect(keyResize('a', false, 240, range, 1)).toBeNull();
    // a horizontal splitter (the view above the file): ArrowUp moves it up, the upper part shrinks
    expect(keyResize('ArrowUp', false, 240, range, 1)).toBe(224);
    expect(keyResize('ArrowDown', true, 240, range, 1)).toBe(304);
  });
});

describe('the stacked parts (a view above the file or diff)', () => {
  it('gives the file or diff below its minimum height, the view above the rest', () => {
    const a = applySizes(PANE_DEFAULTS, 1200, 830);
    expect(a.stack).toBe(Math.round(830 * STACK_DEFAULT_FRACTION));
    expect(830 - a.stack).toBeGreaterThanOrEqual(PANE_MIN.stackViewer);
    // a short window: the file keeps its minimum, the view gives way
    const short = applySizes(PANE_DEFAULTS, 1000, 690);
    expect(690 - short.stack).toBe(PANE_MIN.stackViewer);
    // a chosen height is clamped the same way, and never below the view's own minimum
    expect(applySizes({ ...PANE_DEFAULTS, stack: 2000 }, 1200, 830).stack).toBe(830 - PANE_MIN.stackViewer);
    expect(applySizes({ ...PANE_DEFAULTS, stack: 10 }, 1200, 830).stack).toBe(PANE_MIN.stack);
  });
});

describe('PaneLayout', () => {
  it('stores a drag only when it ends, and restores it in a new page', () => {
    const storage = memoryStorage();
    const layout = new PaneLayout(storage);
    layout.attach(null, 1400);
    let notified = 0;
    layout.subscribe(() => notified++);
    layout.preview('tree', 320);
    layout.preview('tree', 330);
    expect(layout.layout.tree).toBe(330);
    expect(storage.data.has(LAYOUT_STORAGE_KEY)).toBe(false);
    layout.commit();
    layout.set('middle', 500);
    layout.setRelatedCollapsed(true);
    expect(notified).toBe(4);
    const next = new PaneLayout(storage);
    next.attach(null, 1400);
    expect([next.layout.tree, next.layout.middle, next.relatedCollapsed]).toEqual([330, 500, true]);
    next.reset('middle');
    expect(next.chosen.middle).toBeNull();
    expect(new PaneLayout(storage).chosen.middle).toBeNull();
  });

  it('survives storage that throws', () => {
    const layout = new PaneLayout({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    });
    layout.attach(null, 1200);
    layout.set('tree', 300);
    expect(layout.layout.tree).toBe(300);
  });
});
