/**
 * What the drawn import graph and the drawn route tree share: a hook that owns one Cytoscape
 * instance (loaded lazily, created empty, destroyed on unmount), brings it to positioned
 * elements a few milliseconds per frame (graph-progressive.ts: a change keeps what stays, moves
 * it, adds the rest in slices, so the drawing fills in and no task is long), the theme's colors
 * read from the CSS variables (again when the theme changes), the zoom buttons, and the find box
 * (graph-finder.tsx).
 *
 * Repository strings reach the canvas only as label data (drawn text) and the DOM only as
 * React text: never as markup.
 *
 * Speed on big graphs (bench/explore/graph-view.ts: 2,000 files, 7,000 imports): Cytoscape
 * redraws the whole graph in 0.3-1 s there (software canvas), so the view stays interactive only
 * while it draws from its layered texture cache (a few bitmaps of the graph, blitted on each
 * pan or zoom frame). Any element that changes (a restyle) drops those layers and makes the
 * next frames full redraws, so: every element is inert to Cytoscape's pointer handling (a press
 * on an interactive element "activates" it, a restyle of it and its compound parent or
 * children, and Cytoscape's own hit test walks all 9,000 elements and their label boxes on
 * every pointer move: 80 ms); the hook finds the file under the pointer itself (nodeIndex);
 * no texture-on-viewport (a full redraw at twice the resolution when a drag starts); edges hidden
 * while moving only when zoomed in past what the layers can hold (hideEdgesWhenUnlayered);
 * and, before Cytoscape 3.35, every drawing of a node restyled it (keepBackgroundingStill).
 */
import type {
  CollectionReturnValue,
  Core,
  CytoscapeOptions,
  ElementDefinition,
  EventObject,
  StylesheetJson,
} from 'cytoscape';
import { useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import { visibleText } from '../../visible-text';
import { VisibleText } from '../../VisibleText';
import { loadCytoscape, type Cytoscape } from './cytoscape-loader';
import { applyElements, nextFrame } from './graph-progressive';

export { NodeFinder, rankMatches, type FinderItem } from './graph-finder';

/** The theme as concrete colors: CSS variable name -> a color Cytoscape understands; `font` is the UI font. */
export type GraphTheme = Record<string, string>;

/** Elements above which the canvas is drawn at one pixel per CSS pixel. */
export const BIG_GRAPH = 600;

/** After the last change to the elements, Cytoscape leaves its layered cache alone this long (its `invalidThreshold`, 250 ms), and a bit. */
const LAYERS_SETTLE_MS = 300;

/** Cytoscape's largest layer bitmap (its `maxLayerArea`), in pixels. */
const LAYER_MAX_AREA = 4000 * 4000;

/** Appended to every stylesheet: no element takes Cytoscape's pointer events (see the header). */
const INERT: StylesheetJson = [{ selector: 'node, edge', style: { events: 'no' } }];

/**
 * Cytoscape before 3.35.0 flips a node's private `backgrounding` state (background images still
 * loading) on every drawing of the node, even without a background image, and restyles the node
 * for it, with its compound parent and children: the folder boxes are drawn on every frame, so
 * every frame dropped the layered cache and the next was a full redraw again (0.3-1 s at 2,000
 * files). The graphs here have no background images, so the state is pinned to false. Nothing
 * to do from 3.35.0 on (fixed there: images with no URL are skipped).
 */
function keepBackgroundingStill(cytoscape: Cytoscape, added: CollectionReturnValue): void {
  const [major, minor] = String((cytoscape as unknown as { version?: string }).version ?? '')
    .split('.')
    .map(Number);
  if (!(major === 3 && minor < 35)) return;
  added.nodes().forEach((n) => {
    Object.defineProperty((n as unknown as { _private: object })._private, 'backgrounding', {
      get: () => false,
      set: () => {},
      configurable: true,
    });
  });
}

/**
 * Cytoscape's layers are bitmaps of the whole graph at about the current scale, at most about
 * 4,000 x 4,000 pixels: zoomed in further on a big graph there are none, and each moving frame
 * draws every element in view and tests all 9,000 (60-100 ms here). There, and only there, the
 * edges are hidden while the view moves (Cytoscape's hideEdgesOnViewport, switched with the
 * zoom; at the scales the layers cover, hiding them would draw the nodes one by one instead).
 */
function hideEdgesWhenUnlayered(cy: Core, extent: () => Bounds | null): () => void {
  const renderer = (
    cy as unknown as { renderer?: () => { hideEdgesOnViewport?: boolean } | undefined }
  ).renderer?.();
  if (!renderer || !('hideEdgesOnViewport' in renderer)) return () => {};
  // the pixel ratio is 1 on big graphs; a layer is drawn at up to twice the current scale
  const update = () => {
    const bb = extent();
    renderer.hideEdgesOnViewport =
      !!bb && (bb.x2 - bb.x1) * (bb.y2 - bb.y1) * cy.zoom() ** 2 > LAYER_MAX_AREA / 4;
  };
  update();
  cy.on('zoom', update);
  return update;
}

/** A drawing's extent in model units. */
export interface Bounds {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The viewport that shows `b` whole in the container, `padding` pixels around (Cytoscape's fit, without measuring any element). */
function fitBounds(cy: Core, b: Bounds, padding: number): void {
  const w = Math.max(1, cy.width() - 2 * padding);
  const h = Math.max(1, cy.height() - 2 * padding);
  const scale = Math.min(w / (b.x2 - b.x1 || 1), h / (b.y2 - b.y1 || 1));
  const zoom = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), scale));
  cy.viewport({
    zoom,
    pan: { x: (cy.width() - zoom * (b.x1 + b.x2)) / 2, y: (cy.height() - zoom * (b.y1 + b.y2)) / 2 },
  });
}

/** The boxes of the drawn nodes, for the hook's own hit test. */
interface NodeIndex {
  ids: string[];
  /** x1, y1, x2, y2 per node, in model coordinates. */
  boxes: Float64Array;
  /** 1 for a folder box (a compound parent, or a `cluster` node drawn under the others). */
  parent: Uint8Array;
}

function indexNodes(cy: Core): NodeIndex {
  const nodes = cy.nodes();
  const boxes = new Float64Array(nodes.length * 4);
  const parent = new Uint8Array(nodes.length);
  const ids: string[] = [];
  nodes.forEach((n, i) => {
    const p = n.position();
    const hw = n.outerWidth() / 2;
    const hh = n.outerHeight() / 2;
    boxes.set([p.x - hw, p.y - hh, p.x + hw, p.y + hh], i * 4);
    parent[i] = n.isParent() || n.hasClass('cluster') ? 1 : 0;
    ids.push(n.id());
  });
  return { ids, boxes, parent };
}

/** The node at `pos`, within `slack` model units: a node drawn over a compound parent wins (the last drawn among equals). */
function nodeAt(
  index: NodeIndex,
  pos: { x: number; y: number },
  slack: number,
): { id: string; parent: boolean } | undefined {
  const b = index.boxes;
  for (const wantParent of [0, 1]) {
    for (let i = index.ids.length - 1; i >= 0; i--) {
      const k = i * 4;
      if (index.parent[i] !== wantParent) continue;
      if (
        pos.x >= b[k] - slack &&
        pos.x <= b[k + 2] + slack &&
        pos.y >= b[k + 1] - slack &&
        pos.y <= b[k + 3] + slack
      )
        return { id: index.ids[i], parent: wantParent === 1 };
    }
  }
  return undefined;
}

let probe: CanvasRenderingContext2D | null | undefined;

/** Any CSS color the browser knows, as `#rrggbb` / `rgba(...)` (what a canvas answers), or `fallback`. */
function normalizeColor(value: string, fallback: string): string {
  if (!value) return fallback;
  if (probe === undefined) probe = document.createElement('canvas').getContext('2d');
  if (!probe) return value;
  probe.fillStyle = fallback;
  probe.fillStyle = value;
  return String(probe.fillStyle);
}

/** The CSS variables `names` as computed on `el` (so the current theme's values), plus the UI font. */
export function readTheme(el: Element, names: readonly string[]): GraphTheme {
  const cs = getComputedStyle(el);
  const theme: GraphTheme = { font: cs.getPropertyValue('--sans').trim() || cs.fontFamily || 'sans-serif' };
  for (const name of names) theme[name] = normalizeColor(cs.getPropertyValue(name).trim(), '#808080');
  return theme;
}

export interface CytoscapeSetup {
  /** Positioned elements, nodes before edges (memoize them: a new array is a change, applied progressively). */
  elements: ElementDefinition[];
  /** The drawing's extent: the first viewport shows it before any element is in (else the view fits the elements once all are). */
  bounds?: Bounds;
  /** Draw at one pixel per CSS pixel (default: more than BIG_GRAPH elements at the start). */
  big?: boolean;
  /** The stylesheet for a theme (a stable function). */
  style: (theme: GraphTheme) => StylesheetJson;
  /** The CSS variables the stylesheet reads (a stable array). */
  colors: readonly string[];
  /** Called with a node's id when it is clicked or tapped. */
  onNodeTap?: (id: string) => void;
  /** Called when the background is clicked. */
  onBackgroundTap?: () => void;
  /** The tooltip of a node as lines of plain text (shown as the canvas's title while the pointer is over it; hidden characters shown). */
  titleOf?: (id: string) => string[] | undefined;
}

export interface CytoscapeHandle {
  containerRef: RefObject<HTMLDivElement | null>;
  /** The live instance, null while loading (and after a failure); its elements fill in progressively. */
  cy: Core | null;
  /** Every element of the last change is in and drawn. */
  drawn: boolean;
  /** Counts the changes of elements completed (effects that need the elements depend on it). */
  version: number;
  error: string | null;
  retry: () => void;
}

/**
 * Attach a headless instance to its container. Cytoscape's mount() sets the stylesheet again
 * from the creation options (parsing it a second time): the instance has it already, so the
 * options forget it first (the same private state as keepBackgroundingStill's).
 */
function mountParsed(c: Core, el: HTMLElement): void {
  const p = (c as unknown as { _private?: { options?: { style?: unknown } } })._private;
  if (p?.options) delete p.options.style;
  c.mount(el);
}

/** The window under e2e tests, and a container that carries its instance for them. */
type TestWindow = Window & { __QUARRY_TEST__?: unknown };
type DebugContainer = HTMLElement & { __cy?: Core };

/** The instance's options: an empty preset drawing (the elements come in slices), inert to drags and selection. */
function graphOptions(
  container: HTMLElement | null,
  style: CytoscapeOptions['style'],
  big: boolean,
): CytoscapeOptions {
  return {
    container: container ?? undefined,
    elements: [],
    style,
    layout: { name: 'preset', fit: false },
    minZoom: 0.03,
    maxZoom: 4,
    boxSelectionEnabled: false,
    autoungrabify: true,
    autounselectify: true,
    // moving frames come from the layered texture cache (see the header), not from these
    textureOnViewport: false,
    hideEdgesOnViewport: false, // but see hideEdgesWhenUnlayered
    motionBlur: false,
    pixelRatio: big ? 1 : 'auto',
  };
}

/** Taps and hovers: the node under the pointer found with the hook's own index (see the header), rebuilt when `changes()` moves. */
function wirePointer(
  c: Core,
  el: HTMLElement,
  changes: () => number,
  on: {
    tapNode: (id: string) => void;
    tapBackground: () => void;
    title: (id: string) => string[] | undefined;
  },
): void {
  let nodes: NodeIndex | null = null;
  let indexed = -1;
  // the node under the pointer: a tap or a touch (larger slack) from Cytoscape, which reports it on the core
  const hit = (e: EventObject, touch = false) => {
    if (!nodes || indexed !== changes()) {
      nodes = indexNodes(c);
      indexed = changes();
    }
    return nodeAt(nodes, e.position, (touch ? 8 : 2) / c.zoom());
  };
  c.on('tap', (e: EventObject) => {
    if (e.target !== c) return;
    const at = hit(e, typeof TouchEvent !== 'undefined' && e.originalEvent instanceof TouchEvent);
    if (at === undefined) on.tapBackground();
    else if (!at.parent) on.tapNode(at.id); // a folder box's own space: neither (as before)
  });
  let hovered: string | undefined;
  c.on('mousemove', (e: EventObject) => {
    if (e.target !== c) return;
    const at = hit(e);
    const id = at && !at.parent ? at.id : undefined;
    if (id === hovered) return;
    hovered = id;
    const t = id === undefined ? undefined : on.title(id);
    if (t?.length) el.title = t.map(visibleText).join('\n');
    else el.removeAttribute('title');
  });
}

/** What the instance and its elements share (one ref). */
interface Shared {
  lib: Cytoscape | null;
  /** Bumped whenever elements come or go: the hit-test index is rebuilt on the next pointer event. */
  changes: number;
  /** The drawing's extent once known, and what to call when it changes. */
  extent: Bounds | null;
  extentChanged: () => void;
}

/** The elements: applied a slice per frame (graph-progressive.ts), so no change is one long task. */
function useElements(
  cy: Core | null,
  elements: ElementDefinition[],
  bounds: Bounds | undefined,
  sharedRef: RefObject<Shared>,
): { drawn: boolean; version: number } {
  const [drawn, setDrawn] = useState(false);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!cy || cy.destroyed()) return;
    let cancelled = false;
    let settle: ReturnType<typeof setTimeout> | undefined;
    setDrawn(false);
    const first = cy.elements().empty();
    if (first && bounds) fitBounds(cy, bounds, 24);
    const shared = sharedRef.current;
    if (bounds) {
      shared.extent = bounds;
      shared.extentChanged();
    }
    const cytoscape = shared.lib;
    void applyElements(cy, elements, {
      cancelled: () => cancelled,
      added: (added) => {
        if (cytoscape) keepBackgroundingStill(cytoscape, added);
      },
      sliced: () => void shared.changes++,
    }).then(async (done) => {
      if (!done || cancelled) return;
      if (first && !bounds) cy.fit(undefined, 24);
      if (!bounds) {
        const bb = cy.elements().boundingBox();
        shared.extent = { x1: bb.x1, y1: bb.y1, x2: bb.x2, y2: bb.y2 };
        shared.extentChanged();
      }
      await nextFrame(); // the renderer has drawn the last slice
      if (cancelled) return;
      setDrawn(true);
      setVersion((v) => v + 1);
      // once the drawing has settled, one more frame: Cytoscape builds its layers from there, in
      // idle frames, so the first pan already draws from them
      settle = setTimeout(() => {
        if (!cy.destroyed()) cy.forceRender();
      }, LAYERS_SETTLE_MS);
    });
    return () => {
      cancelled = true;
      clearTimeout(settle);
    };
  }, [cy, elements, bounds, sharedRef]);
  return { drawn: drawn && !!cy, version };
}

export function useCytoscape({
  elements,
  bounds,
  big,
  style,
  colors,
  onNodeTap,
  onBackgroundTap,
  titleOf,
}: CytoscapeSetup): CytoscapeHandle {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const [cy, setCy] = useState<Core | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const tapNode = useEffectEvent((id: string) => onNodeTap?.(id));
  const tapBackground = useEffectEvent(() => onBackgroundTap?.());
  const title = useEffectEvent((id: string) => titleOf?.(id));
  const bigAtStart = useEffectEvent(() => big ?? elements.length > BIG_GRAPH);
  const sharedRef = useRef<Shared>({ lib: null, changes: 0, extent: null, extentChanged: () => {} });

  // the instance: created empty, the elements come in the effect below
  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    let instance: Core | null = null;
    let cancelled = false;
    let applied = '';
    const shared = sharedRef.current;
    setError(null);
    const restyle = () => {
      if (!instance) return;
      const theme = readTheme(el, colors);
      const key = JSON.stringify(theme);
      if (key === applied) return;
      applied = key;
      instance.style([...style(theme), ...INERT]);
      shared.changes++; // a border width may have changed: a new hit-test index
    };
    const big = bigAtStart();
    loadCytoscape()
      .then(async (cytoscape) => {
        // three tasks, not one (traced: 120 ms on a loaded machine): the module's evaluation,
        // the instance with its stylesheet, then its renderer on the container
        await nextFrame();
        if (cancelled) return;
        shared.lib = cytoscape;
        const theme = readTheme(el, colors);
        applied = JSON.stringify(theme);
        const c = cytoscape({
          ...graphOptions(null, [...style(theme), ...INERT], big),
          headless: true,
          styleEnabled: true,
        });
        instance = c;
        await nextFrame();
        if (cancelled) return;
        mountParsed(c, el);
        if (big) shared.extentChanged = hideEdgesWhenUnlayered(c, () => shared.extent);
        wirePointer(c, el, () => shared.changes, { tapNode, tapBackground, title });
        // for e2e and debugging only: the instance on its container
        if (import.meta.env.DEV || (window as TestWindow).__QUARRY_TEST__) (el as DebugContainer).__cy = c;
        setCy(c);
      })
      .catch((e: unknown) => {
        if (!cancelled) setError(e instanceof Error ? e.message : String(e));
      });
    // the theme: the system setting, or a class / data-theme / style change on <html> or <body>
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', restyle);
    const mutations = new MutationObserver(restyle);
    for (const target of [document.documentElement, document.body]) {
      mutations.observe(target, { attributes: true, attributeFilter: ['class', 'data-theme', 'style'] });
    }
    // the container's size (a resized pane, not only the window)
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => instance?.resize()) : null;
    resize?.observe(el);
    return () => {
      cancelled = true;
      media?.removeEventListener('change', restyle);
      mutations.disconnect();
      resize?.disconnect();
      el.removeAttribute('title');
      shared.extentChanged = () => {};
      shared.extent = null;
      if (instance) {
        delete (el as DebugContainer).__cy;
        instance.destroy();
      }
      setCy(null);
    };
  }, [style, colors, attempt]);

  const { drawn, version } = useElements(cy, elements, bounds, sharedRef);

  return { containerRef, cy, drawn, version, error, retry: () => setAttempt((a) => a + 1) };
}

/** Select-and-show: zoom in enough to read, then center on the node (no animation: instant and cheap). */
export function centerOn(cy: Core, id: string): boolean {
  if (cy.destroyed()) return false;
  const node = cy.getElementById(id);
  if (node.empty()) return false;
  const level = Math.max(cy.zoom(), 0.9);
  cy.zoom({ level, position: node.position() });
  cy.center(node);
  return true;
}

/** +, −, fit: buttons with names, for keyboards and for people without a wheel. */
export function ZoomControls({ cy, what }: { cy: Core | null; what: string }) {
  const zoomBy = (factor: number) => {
    if (!cy || cy.destroyed()) return;
    cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
  };
  return (
    <div className="graph-zoom" role="group" aria-label={`Zoom the ${what}`}>
      <button type="button" onClick={() => zoomBy(1.25)} disabled={!cy} aria-label="Zoom in" title="Zoom in">
        +
      </button>
      <button type="button" onClick={() => zoomBy(0.8)} disabled={!cy} aria-label="Zoom out" title="Zoom out">
        −
      </button>
      <button
        type="button"
        onClick={() => cy && !cy.destroyed() && cy.fit(undefined, 24)}
        disabled={!cy}
        aria-label="Fit the whole graph"
        title="Fit the whole graph"
      >
        Fit
      </button>
    </div>
  );
}

/** The canvas, with its loading and failure states over it. */
export function GraphCanvas({
  canvasRef,
  ready,
  drawn = ready,
  error,
  onRetry,
  label,
  height,
  what,
}: {
  canvasRef: RefObject<HTMLDivElement | null>;
  ready: boolean;
  /** Every element is in and drawn (the canvas fills in progressively between `ready` and this). */
  drawn?: boolean;
  error: string | null;
  onRetry: () => void;
  /** The accessible summary of the drawing (role="img"). */
  label: string;
  height: number;
  what: string;
}) {
  return (
    <div className="graph-stage" style={{ height }}>
      <div
        ref={canvasRef}
        className="graph-canvas"
        role="img"
        aria-label={label}
        data-testid="graph-canvas"
        data-ready={ready ? 'true' : 'false'}
        data-drawn={ready && drawn ? 'true' : 'false'}
      />
      {ready && !drawn && !error && (
        <span className="graph-drawing" role="status">
          <span className="spinner" aria-hidden="true" /> Drawing…
        </span>
      )}
      {!ready && !error && (
        <div className="graph-overlay" role="status">
          <span className="spinner" aria-hidden="true" /> Drawing the {what}…
        </div>
      )}
      {error && (
        <div className="graph-overlay" role="alert">
          <p>
            Could not draw the {what}: <VisibleText text={error} />
          </p>
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
    </div>
  );
}
