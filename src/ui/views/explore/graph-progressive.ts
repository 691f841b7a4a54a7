/**
 * Bringing a Cytoscape instance to a new set of elements without one long main-thread task:
 * what is gone is removed at once (cheap), then, a few milliseconds at a time with a frame
 * between, what stays is moved or restyled where it changed and what is new is added and
 * styled (styleNow), a slice smaller after a slow frame. The renderer draws between slices, so
 * a large drawing fills in progressively. Element definitions come in drawing order: nodes
 * before the edges between them.
 *
 * Cancelling (a newer change, an unmount) stops between two slices; the next change starts
 * from whatever the instance holds.
 */
import type { CollectionReturnValue, Core, ElementDefinition } from 'cytoscape';

/** Work per slice before yielding to the next frame, in ms. */
export const SLICE_MS = 8;
/** Elements applied between two looks at the clock. */
const CHUNK = 4;
/** The first slice's budget: the first elements of a kind cost most (Cytoscape's style contexts, texture caches). */
const FIRST_SLICE_MS = 2;
/** A frame between two slices longer than this (the renderer drawing them) halves the next slice's budget. */
const SLOW_FRAME_MS = 34;

/** The next frame's work, then a task after it (so the renderer's frame has drawn). */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') setTimeout(resolve, 16);
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

const sameClasses = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((c) => b.includes(c));

const classList = (c: ElementDefinition['classes']): string[] =>
  Array.isArray(c) ? c : typeof c === 'string' ? c.split(/\s+/).filter(Boolean) : [];

/** Bring an element that stays up to date: its position, data and classes, where they changed. */
function update(cy: Core, def: ElementDefinition): boolean {
  const el = cy.getElementById(String(def.data.id));
  if (el.empty()) return false;
  if (def.position && el.isNode()) {
    const p = el.position();
    if (p.x !== def.position.x || p.y !== def.position.y) el.position({ ...def.position });
  }
  const data = el.data() as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(def.data)) {
    if (k === 'id' || k === 'source' || k === 'target' || k === 'parent') continue;
    if (data[k] !== v) {
      changed[k] = v;
      any = true;
    }
  }
  if (any) el.data(changed);
  // picked / near are the selection's, set again after every change
  const want = classList(def.classes);
  const have = el.classes().filter((c) => c !== 'picked' && c !== 'near');
  if (!sameClasses(want, have)) el.classes(want);
  return true;
}

export interface ApplyHooks {
  /** True once this change is superseded. */
  cancelled: () => boolean;
  /** Called with each slice's new elements (e.g. to patch them). */
  added?: (added: CollectionReturnValue) => void;
  /** Called after each slice (e.g. to drop a cached hit-test index). */
  sliced?: () => void;
}

/**
 * Style the new elements now, inside the slice's budget: Cytoscape styles lazily, so otherwise
 * the renderer's next frame would style the whole slice, and measure its labels and edges, on
 * top of drawing (most of its 200-500 ms frames on a graph being filled in, traced).
 */
function styleNow(eles: CollectionReturnValue): void {
  (eles as unknown as { recalculateRenderedStyle?: () => void }).recalculateRenderedStyle?.();
}

/** Bring `cy` to `defs`, a slice per frame. Resolves true when done, false when cancelled. */
export async function applyElements(
  cy: Core,
  defs: readonly ElementDefinition[],
  hooks: ApplyHooks,
): Promise<boolean> {
  const want = new Set<string>();
  for (const d of defs) want.add(String(d.data.id));
  const gone = cy.elements().filter((el) => !want.has(el.id()));
  if (gone.nonempty()) cy.remove(gone);
  let i = 0;
  let budget = FIRST_SLICE_MS;
  let lastEnd = -1;
  // a task of its own, not the caller's (a React effect)
  await nextFrame();
  while (i < defs.length) {
    if (hooks.cancelled() || cy.destroyed()) return false;
    const start = performance.now();
    // the frame between two slices drew everything added so far: a slow one means smaller slices
    if (lastEnd >= 0) {
      const gap = start - lastEnd;
      budget = gap > SLOW_FRAME_MS ? Math.max(1, budget / 2) : Math.min(SLICE_MS, budget * 1.5);
    }
    while (i < defs.length) {
      const fresh: ElementDefinition[] = [];
      const end = Math.min(defs.length, i + CHUNK);
      cy.startBatch();
      try {
        for (; i < end; i++) if (!update(cy, defs[i])) fresh.push(defs[i]);
      } finally {
        cy.endBatch();
      }
      if (fresh.length) {
        const added = cy.add(fresh);
        hooks.added?.(added);
        styleNow(added);
      }
      if (performance.now() - start > budget) break;
    }
    hooks.sliced?.();
    lastEnd = performance.now();
    if (i < defs.length) await nextFrame();
  }
  return !hooks.cancelled() && !cy.destroyed();
}
