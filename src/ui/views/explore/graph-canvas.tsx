/**
 * What the drawn import graph and the drawn route tree share: a hook that owns one Cytoscape
 * instance (loaded lazily, built from positioned elements with the `preset` layout, destroyed
 * on unmount and rebuilt when the elements change), the theme's colors read from the CSS
 * variables (again when the theme changes), the zoom buttons, and a find box that selects a
 * node by name without the canvas (keyboard users; e2e types a name and presses Enter).
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
import type { Core, CytoscapeOptions, ElementDefinition, EventObject, StylesheetJson } from 'cytoscape';
import { useEffect, useEffectEvent, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { plural } from '../../format';
import { visibleText } from '../../visible-text';
import { VisibleText } from '../../VisibleText';
import { loadCytoscape, type Cytoscape } from './cytoscape-loader';

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
function keepBackgroundingStill(cytoscape: Cytoscape, cy: Core): void {
  const [major, minor] = String((cytoscape as unknown as { version?: string }).version ?? '')
    .split('.')
    .map(Number);
  if (!(major === 3 && minor < 35)) return;
  cy.nodes().forEach((n) => {
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
function hideEdgesWhenUnlayered(cy: Core): void {
  const renderer = (
    cy as unknown as { renderer?: () => { hideEdgesOnViewport?: boolean } | undefined }
  ).renderer?.();
  if (!renderer || !('hideEdgesOnViewport' in renderer)) return;
  const bb = cy.elements().boundingBox();
  // the pixel ratio is 1 on big graphs; a layer is drawn at up to twice the current scale
  const update = () => {
    renderer.hideEdgesOnViewport = bb.w * bb.h * cy.zoom() ** 2 > LAYER_MAX_AREA / 4;
  };
  update();
  cy.on('zoom', update);
}

/** The boxes of the drawn nodes, for the hook's own hit test. */
interface NodeIndex {
  ids: string[];
  /** x1, y1, x2, y2 per node, in model coordinates. */
  boxes: Float64Array;
  /** 1 for a compound parent (a folder box). */
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
    parent[i] = n.isParent() ? 1 : 0;
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
  /** Positioned elements (memoize them: a new array rebuilds the graph). */
  elements: ElementDefinition[];
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
  /** The live instance, null while loading (and after a failure). */
  cy: Core | null;
  error: string | null;
  retry: () => void;
}

/** The window under e2e tests, and a container that carries its instance for them. */
type TestWindow = Window & { __QUARRY_TEST__?: unknown };
type DebugContainer = HTMLElement & { __cy?: Core };

/** The instance's options: the preset layout over positioned elements, inert to drags and selection. */
function graphOptions(
  container: HTMLElement,
  elements: ElementDefinition[],
  style: CytoscapeOptions['style'],
  big: boolean,
): CytoscapeOptions {
  return {
    container,
    elements,
    style,
    layout: { name: 'preset', fit: true, padding: 24 },
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

export function useCytoscape({
  elements,
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

  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    let instance: Core | null = null;
    let cancelled = false;
    let applied = '';
    let nodes: NodeIndex | null = null;
    let settle: ReturnType<typeof setTimeout> | undefined;
    setError(null);
    const restyle = () => {
      if (!instance) return;
      const theme = readTheme(el, colors);
      const key = JSON.stringify(theme);
      if (key === applied) return;
      applied = key;
      instance.style([...style(theme), ...INERT]);
      nodes = null; // a border width may have changed
    };
    const big = elements.length > BIG_GRAPH;
    loadCytoscape().then(
      (cytoscape) => {
        if (cancelled) return;
        const theme = readTheme(el, colors);
        applied = JSON.stringify(theme);
        const c = cytoscape(graphOptions(el, elements, [...style(theme), ...INERT], big));
        instance = c;
        keepBackgroundingStill(cytoscape, c);
        if (big) hideEdgesWhenUnlayered(c);
        // the node under the pointer: a tap or a touch (larger slack) from Cytoscape, which reports it on the core
        const hit = (e: EventObject, touch = false) => {
          nodes ??= indexNodes(c);
          return nodeAt(nodes, e.position, (touch ? 8 : 2) / c.zoom());
        };
        c.on('tap', (e: EventObject) => {
          if (e.target !== c) return;
          const at = hit(e, typeof TouchEvent !== 'undefined' && e.originalEvent instanceof TouchEvent);
          if (at === undefined) tapBackground();
          else if (!at.parent) tapNode(at.id); // a folder box's own space: neither (as before)
        });
        let hovered: string | undefined;
        c.on('mousemove', (e: EventObject) => {
          if (e.target !== c) return;
          const at = hit(e);
          const id = at && !at.parent ? at.id : undefined;
          if (id === hovered) return;
          hovered = id;
          const t = id === undefined ? undefined : title(id);
          if (t?.length) el.title = t.map(visibleText).join('\n');
          else el.removeAttribute('title');
        });
        // once the first drawing has settled, one more frame: Cytoscape builds its layers from
        // there, in idle frames, so the first pan already draws from them
        c.one('render', () => {
          settle = setTimeout(() => {
            if (!c.destroyed()) c.forceRender();
          }, LAYERS_SETTLE_MS);
        });
        // for e2e and debugging only: the instance on its container
        if (import.meta.env.DEV || (window as TestWindow).__QUARRY_TEST__) (el as DebugContainer).__cy = c;
        setCy(c);
      },
      (e: unknown) => {
        if (!cancelled) setError(e instanceof Error ? e.message : String(e));
      },
    );
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
      clearTimeout(settle);
      media?.removeEventListener('change', restyle);
      mutations.disconnect();
      resize?.disconnect();
      el.removeAttribute('title');
      if (instance) {
        delete (el as DebugContainer).__cy;
        instance.destroy();
      }
      setCy(null);
    };
  }, [elements, style, colors, attempt]);

  return { containerRef, cy, error, retry: () => setAttempt((a) => a + 1) };
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

export interface FinderItem {
  /** What onPick receives. */
  id: string;
  /** The short name matched first (a file's base name, a URL segment). */
  name: string;
  /** The full text matched and shown (a path, a URL). */
  full: string;
}

const SHOWN_MATCHES = 8;

/** Items matching `query`: an exact name first, then names that start with it, contain it, then full texts that contain it. */
export function rankMatches(items: readonly FinderItem[], query: string): FinderItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const scored: Array<[number, FinderItem]> = [];
  for (const it of items) {
    const name = it.name.toLowerCase();
    const full = it.full.toLowerCase();
    const score =
      name === q || full === q
        ? 0
        : name.startsWith(q)
          ? 1
          : name.includes(q)
            ? 2
            : full.includes(q)
              ? 3
              : -1;
    if (score >= 0) scored.push([score, it]);
  }
  scored.sort(
    ([a, x], [b, y]) =>
      a - b || x.full.length - y.full.length || (x.full < y.full ? -1 : x.full > y.full ? 1 : 0),
  );
  return scored.map(([, it]) => it);
}

/** A search box over the nodes: Enter picks the best match; the matches are buttons too. */
export function NodeFinder({
  items,
  onPick,
  label,
  placeholder,
}: {
  items: readonly FinderItem[];
  onPick: (id: string) => void;
  label: string;
  placeholder: string;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const matches = useMemo(() => rankMatches(items, query), [items, query]);
  const pick = (it: FinderItem) => {
    setOpen(false);
    onPick(it.id);
  };
  const shown = open && query.trim() !== '';
  return (
    <div className="graph-find" role="search" aria-label={label}>
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={query}
        spellCheck={false}
        autoComplete="off"
        aria-controls={shown ? listId : undefined}
        aria-expanded={shown}
        data-testid="graph-find"
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && matches.length) {
            e.preventDefault();
            pick(matches[0]);
          } else if (e.key === 'Escape' && shown) {
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      {shown && (
        <ul id={listId} className="graph-find-list" aria-label="Matches">
          {matches.slice(0, SHOWN_MATCHES).map((it) => (
            <li key={it.id}>
              <button type="button" data-testid="graph-find-match" onClick={() => pick(it)}>
                <VisibleText text={it.full} />
              </button>
            </li>
          ))}
          {matches.length === 0 && <li className="muted">No match</li>}
          {matches.length > SHOWN_MATCHES && (
            <li className="muted">
              {plural(matches.length - SHOWN_MATCHES, 'more match', 'more matches')}; type more of the name
            </li>
          )}
        </ul>
      )}
      <span className="visually-hidden" aria-live="polite">
        {shown
          ? matches.length
            ? `${plural(matches.length, 'match', 'matches')}; Enter selects the first`
            : 'No match'
          : ''}
      </span>
    </div>
  );
}

/** The canvas, with its loading and failure states over it. */
export function GraphCanvas({
  canvasRef,
  ready,
  error,
  onRetry,
  label,
  height,
  what,
}: {
  canvasRef: RefObject<HTMLDivElement | null>;
  ready: boolean;
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
      />
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
