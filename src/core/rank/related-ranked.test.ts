import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { Chunker } from '../chunk';
import type { Chunk } from '../chunk/types';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { ChunkIndex, chunkText, type IndexedChunk } from './bm25';
import { splitLinesForIndex } from './lines';
import { besideAnchor, chunkNorms, nameParts, relatedChunks } from './related-ranked';
import { CodeIndexService } from './service';
import { seedTokenizer } from './tokenize';

/**
 * The excalidraw complaint in miniature: related to actionZoomToFitSelectionInViewport, the
 * seed formula put the 13,000-line App class first and the sibling actionZoomToFitSelection
 * seventh. Here App is generated (thousands of lines whose methods use the seed's words), the
 * sibling is a small function in the same folder, among other actions and helpers.
 */
const ZOOM_BODY = (
  name: string,
  fit: boolean,
) => `export function ${name}(elements: readonly ExcalidrawElement[], appState: AppState, app: AppClassProperties) {
  const selectedElements = app.scene.getSelectedElements(appState);
  return zoomToFit({
    targetElements: selectedElements.length ? selectedElements : elements,
    appState: { ...appState, userToFollow: null },
    fitToViewport: ${fit},
    canvasOffsets: app.getEditorInterface().canvasOffsets,
  });
}
`;

/** a deterministic App class: `methods` methods of ~12 lines drawing on the seed's words and many others */
function giantApp(methods: number): string {
  const seedWords = [
    'selectedElements',
    'appState',
    'elements',
    'scene',
    'getSelectedElements',
    'zoomToFit',
    'targetElements',
    'canvasOffsets',
    'fitToViewport',
    'userToFollow',
    'getEditorInterface',
    'length',
  ];
  const otherWords = Array.from(
    { length: 600 },
    (_, i) =>
      `${['handle', 'update', 'render', 'set', 'get', 'on', 'sync', 'toggle'][i % 8]}${['Pointer', 'Canvas', 'Element', 'Collab', 'Library', 'History', 'Frame', 'Text', 'Image', 'Laser', 'Eraser', 'Grid', 'Theme', 'Font', 'Arrow', 'Binding'][(i * 7) % 16]}${i}`,
  );
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const pick = (xs: string[]) => xs[next() % xs.length];
  const lines = ['export class App extends React.Component<AppProps, AppState> {'];
  for (let m = 0; m < methods; m++) {
    lines.push(`  ${pick(otherWords)}Method${m}(event: PointerEvent) {`);
    for (let l = 0; l < 10; l++) {
      const words = [
        pick(otherWords),
        pick(seedWords),
        pick(otherWords),
        l % 3 === 0 ? pick(seedWords) : pick(otherWords),
      ];
      lines.push(`    const ${words[0]}_${l} = this.${words[1]}(${words[2]}, this.state.${words[3]});`);
    }
    lines.push('  }', '');
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

const FILES: Record<string, string> = {
  'packages/excalidraw/actions/actionZoomToFitSelectionInViewport.ts': ZOOM_BODY(
    'actionZoomToFitSelectionInViewport',
    true,
  ),
  'packages/excalidraw/actions/actionZoomToFitSelection.ts': ZOOM_BODY('actionZoomToFitSelection', false),
  'packages/excalidraw/actions/actionResetZoom.ts': `export function actionResetZoom(elements: readonly ExcalidrawElement[], appState: AppState, app: AppClassProperties) {
  return { appState: { ...appState, ...getStateForZoom({ viewportX: appState.width / 2, viewportY: appState.height / 2, nextZoom: getNormalizedZoom(1) }, appState) }, captureUpdate: CaptureUpdateAction.EVENTUALLY };
}
`,
  'packages/excalidraw/actions/actionToggleGridMode.ts': `export function actionToggleGridMode(elements: readonly ExcalidrawElement[], appState: AppState) {
  return { appState: { ...appState, gridModeEnabled: !this.checked(appState), objectsSnapModeEnabled: false }, captureUpdate: CaptureUpdateAction.EVENTUALLY };
}
`,
  'packages/excalidraw/scene/zoom.ts': `export function zoomToFitBounds({ bounds, appState, canvasOffsets, fitToViewport, viewportZoomFactor }: ZoomArgs) {
  const [x1, y1, x2, y2] = bounds;
  const centerX = (x1 + x2) / 2;
  const centerY = (y1 + y2) / 2;
  return { appState: { ...appState, scrollX: centerX, scrollY: centerY, zoom: { value: getNormalizedZoom(viewportZoomFactor) } } };
}
`,
  'packages/excalidraw/components/App.tsx': giantApp(330),
};

describe('related for people: the excalidraw complaint in miniature', () => {
  it('ranks the small sibling in the same folder above the giant class that holds every word', async () => {
    expect(splitLinesForIndex(FILES['packages/excalidraw/components/App.tsx']).length).toBeGreaterThan(4000);
    const chunker = await Chunker.create(nodeGrammarLoader);
    const svc = new CodeIndexService(new Workspace([new MemorySource({ ...FILES })]), async () => chunker);
    await svc.refresh();
    const index = svc.index!;
    const seedPath = 'packages/excalidraw/actions/actionZoomToFitSelectionInViewport.ts';
    const seed = index.chunksOf(seedPath)[0];
    const text = chunkText(splitLinesForIndex(FILES[seedPath]), seed.startLine, seed.endLine);
    const rankOf = (hits: Array<{ chunk: IndexedChunk }>, symbol: string) =>
      hits.findIndex((h) => h.chunk.symbolName === symbol) + 1;

    // the complaint, reproduced: the seed formula puts App above the sibling
    const old = index.related(seed, text, 50);
    expect(rankOf(old, 'App')).toBeLessThan(rankOf(old, 'actionZoomToFitSelection'));

    const hits = relatedChunks(index, seed, text, 50);
    console.log(
      `excalidraw in miniature: seed formula: App #${rankOf(old, 'App')}, actionZoomToFitSelection #${rankOf(old, 'actionZoomToFitSelection')}; ` +
        `panel: actionZoomToFitSelection #${rankOf(hits, 'actionZoomToFitSelection')}, App #${rankOf(hits, 'App') || '(not in the top 50)'}`,
    );
    expect(hits[0].chunk.symbolName).toBe('actionZoomToFitSelection');
    expect(hits[0].reasons).toEqual(['same folder', 'same kind', 'similar name']);
    const app = hits.find((h) => h.chunk.symbolName === 'App');
    // App, if listed at all, is far down: shares many words, but is huge and holds other chunks
    if (app) {
      expect(rankOf(hits, 'App')).toBeGreaterThan(10);
      expect(app.reasons).toContain('contains others');
      expect(app.factors.size).toBeLessThan(0.5);
    }
  }, 60_000);
});

/** one chunk per `fn NAME` line (to the next, or to a `}` line closing a `class NAME` line) */
function build(files: Record<string, string>): ChunkIndex {
  const index = new ChunkIndex();
  for (const [path, text] of Object.entries(files)) {
    const lines = splitLinesForIndex(text);
    const chunks: Chunk[] = [];
    let open: Chunk | null = null;
    let last: Chunk | null = null;
    lines.forEach((l, i) => {
      const cls = /^class (\w+)/.exec(l);
      const fn = /^\s*fn (\w+)/.exec(l);
      if (cls)
        chunks.push(
          (open = { path, startLine: i + 1, endLine: lines.length, symbolName: cls[1], chunkType: 'class' }),
        );
      if (fn) {
        if (last) last.endLine = i;
        chunks.push(
          (last = {
            path,
            startLine: i + 1,
            endLine: lines.length,
            symbolName: open ? `${open.symbolName}.${fn[1]}` : fn[1],
            chunkType: open ? 'method' : 'function',
          }),
        );
      }
      if (l === '}' && open) {
        open.endLine = i + 1;
        if (last) last.endLine = i;
        open = null;
        last = null;
      }
    });
    index.setFile(path, { size: 0, mtimeMs: 0 }, chunks, lines);
  }
  return index;
}

describe('related for people', () => {
  const FILES2 = {
    'src/cart/cart.ts':
      'class Cart\n  fn addItem\n    items.push(item) total price notify(cartChanged)\n  fn removeItem\n    items.splice(item) total price notify(cartChanged)\n}\nfn cartTotal\n  sum price items total\n',
    'src/cart/wishlist.ts': 'fn addWish\n  wishes.push(item) price\n',
    'src/other/report.ts': 'fn yearlyReport\n  sum price total revenue items\n',
  };
  const textOf = (files: Record<string, string>, c: IndexedChunk) =>
    chunkText(splitLinesForIndex(files[c.path as keyof typeof files]), c.startLine, c.endLine);

  it('leaves out the seed, its container and its members, and says why each hit is related', () => {
    const index = build(FILES2);
    const seed = index.chunksOf('src/cart/cart.ts').find((c) => c.symbolName === 'Cart.addItem')!;
    const hits = relatedChunks(index, seed, textOf(FILES2, seed), 10);
    const names = hits.map((h) => h.chunk.symbolName);
    expect(names).not.toContain('Cart');
    expect(names).not.toContain('Cart.addItem');
    expect(names[0]).toBe('Cart.removeItem');
    expect(hits[0].reasons).toEqual(['same class', 'same kind', 'similar name']);
    expect(hits.find((h) => h.chunk.symbolName === 'cartTotal')!.reasons).toContain('same file');
    expect(hits.find((h) => h.chunk.symbolName === 'addWish')!.reasons).toEqual([
      'same folder',
      'similar name',
    ]);
    expect(hits.find((h) => h.chunk.symbolName === 'yearlyReport')!.reasons).toEqual([]);
    for (const h of hits) expect(h.sharedTerms).toEqual([...h.sharedTerms].sort());
    expect(hits[0].sharedTerms).toEqual(['cartchanged', 'fn', 'item', 'items', 'notify', 'price', 'total']);
  });

  it('penalises a container only for a seed that is not one', () => {
    const index = build(FILES2);
    const fn = index.chunksOf('src/other/report.ts')[0];
    const cart = relatedChunks(index, fn, textOf(FILES2, fn), 10).find((h) => h.chunk.symbolName === 'Cart')!;
    expect(cart.factors.container).toBe(0.5);
    expect(cart.reasons).toContain('contains others');
    const cls = index.chunksOf('src/cart/cart.ts')[0];
    expect(relatedChunks(index, cls, textOf(FILES2, cls), 10).every((h) => h.factors.container === 1)).toBe(
      true,
    );
  });

  it('keeps the vector lengths until the index changes, and answers as an index loaded from its state', () => {
    const index = build(FILES2);
    const norms = chunkNorms(index);
    expect(chunkNorms(index)).toBe(norms);
    const seed = index.chunksOf('src/cart/cart.ts')[1];
    const before = relatedChunks(index, seed, textOf(FILES2, seed), 10);
    expect(relatedChunks(ChunkIndex.fromState(index.toState()), seed, textOf(FILES2, seed), 10)).toEqual(
      before,
    );
    index.setFile(
      'src/cart/gift.ts',
      { size: 0, mtimeMs: 0 },
      [{ path: 'src/cart/gift.ts', startLine: 1, endLine: 1, symbolName: 'addGift', chunkType: 'function' }],
      ['addItem gift'],
    );
    expect(chunkNorms(index)).not.toBe(norms);
    expect(relatedChunks(index, seed, textOf(FILES2, seed), 10).map((h) => h.chunk.symbolName)).toContain(
      'addGift',
    );
  });

  it('splits names into identifier parts (last dotted segment, digits dropped)', () => {
    expect([...nameParts('Vector3.addScaledVector', seedTokenizer)]).toEqual(['add', 'scaled', 'vector']);
    expect([...nameParts('Box2', seedTokenizer)]).toEqual(['box']);
    expect([...nameParts('fetch_user_record', seedTokenizer)]).toEqual(['fetch', 'user', 'record']);
  });

  it('returns nothing for a seed without indexed words, and at least one hit for a limit below 1', () => {
    const index = build(FILES2);
    const seed = index.chunksOf('src/cart/wishlist.ts')[0];
    expect(relatedChunks(index, seed, '... a', 5)).toEqual([]);
    expect(relatedChunks(index, seed, textOf(FILES2, seed), 0)).toHaveLength(1);
  });
});

/**
 * Issue 31, vue core in miniature: related to ShallowReactiveBrandClass (whose member is
 * `private [ShallowReactiveBrand]?: true`), 6 of the first 10 were package.json `"private": true`
 * keys. Here: the class, a sibling that uses it, a translation that shares its words, and the
 * packages' package.json files.
 */
const VUE: Record<string, string> = {
  'packages/reactivity/src/reactive.ts': [
    'export declare const ShallowReactiveBrand: unique symbol',
    '',
    'export declare class ShallowReactiveBrandClass {',
    '  private [ShallowReactiveBrand]?: true',
    '}',
    '',
    'export type ShallowReactive<T> = T & ShallowReactiveBrandClass',
    '',
  ].join('\n'),
  'packages/reactivity/src/shallow.ts': [
    "import type { ShallowReactiveBrandClass } from './reactive'",
    '',
    'export function isShallowBrand(value: unknown): value is ShallowReactiveBrandClass {',
    '  return !!value && (value as Record<symbol, true>)[ShallowReactiveBrand] === true',
    '}',
    '',
  ].join('\n'),
  'packages/runtime-core/src/locales/en.ts':
    "export const en = { private: 'private', brand: 'shallow reactive brand', true: 'true' }\n",
  ...Object.fromEntries(
    [
      'reactivity',
      'runtime-core',
      'runtime-dom',
      'shared',
      'compiler-core',
      'compiler-dom',
      'server-renderer',
      'vue-compat',
    ].map((pkg) => [
      `packages/${pkg}/package.json`,
      JSON.stringify(
        {
          name: `@vue/${pkg}`,
          version: '3.5.0',
          private: true,
          main: 'index.js',
          sideEffects: false,
          buildOptions: { formats: ['esm-bundler', 'cjs'] },
        },
        null,
        2,
      ) + '\n',
    ]),
  ),
};

describe('related for people: kinds beside the anchor (issue 31)', () => {
  let index: ChunkIndex;
  const seedOf = (path: string, symbol: string) => index.chunksOf(path).find((c) => c.symbolName === symbol)!;
  const textOf = (c: IndexedChunk) => chunkText(splitLinesForIndex(VUE[c.path]), c.startLine, c.endLine);
  const row = (h: { chunk: IndexedChunk }) => `${h.chunk.chunkType} ${h.chunk.path} ${h.chunk.symbolName}`;

  it('lists no package.json key (nor a translation) beside a class in a source file', async () => {
    const chunker = await Chunker.create(nodeGrammarLoader);
    const svc = new CodeIndexService(new Workspace([new MemorySource({ ...VUE })]), async () => chunker);
    await svc.refresh();
    index = svc.index!;
    const seed = seedOf('packages/reactivity/src/reactive.ts', 'ShallowReactiveBrandClass');
    expect(seed.chunkType).toBe('class');
    expect(
      index.chunksOf('packages/shared/package.json').map((c) => `${c.chunkType} ${c.symbolName}`),
    ).toContain('key private');

    // the complaint, reproduced with every kind allowed: "private" keys crowd the first ten
    const unfiltered = relatedChunks(index, seed, textOf(seed), 10, null);
    expect(unfiltered.filter((h) => h.chunk.chunkType === 'key').length).toBeGreaterThanOrEqual(6);
    expect(unfiltered.map(row)).not.toContain('function packages/reactivity/src/shallow.ts isShallowBrand');

    const hits = relatedChunks(index, seed, textOf(seed), 10);
    console.log(
      `vue in miniature: every kind: ${unfiltered.map(row).join(' | ')}\nbeside the class: ${hits.map(row).join(' | ')}`,
    );
    expect(hits.map(row)).toContain('function packages/reactivity/src/shallow.ts isShallowBrand');
    expect(hits.filter((h) => h.chunk.chunkType === 'key').map(row)).toEqual([]);
    // the translation shares words too: listed only when every role is
    expect(relatedChunks(index, seed, textOf(seed), 50, null).map(row)).toContain(
      'const packages/runtime-core/src/locales/en.ts en',
    );
    expect(relatedChunks(index, seed, textOf(seed), 50).map(row)).not.toContain(
      'const packages/runtime-core/src/locales/en.ts en',
    );
  }, 60_000);

  it('lists keys beside a key', () => {
    const seed = seedOf('packages/reactivity/package.json', 'private');
    expect(seed.chunkType).toBe('key');
    const hits = relatedChunks(index, seed, textOf(seed), 10);
    expect(hits.length).toBeGreaterThanOrEqual(6);
    expect(
      hits.slice(0, 6).every((h) => h.chunk.chunkType === 'key' && h.chunk.symbolName === 'private'),
    ).toBe(true);
  });

  it('says which chunks an anchor lists, by kind and by file role', () => {
    const c = (path: string, chunkType: IndexedChunk['chunkType']) => ({ path, chunkType });
    const code = besideAnchor(c('src/a.ts', 'class'))!;
    expect(code(c('src/b.ts', 'function'))).toBe(true);
    expect(code(c('package.json', 'key'))).toBe(false);
    expect(code(c('src/a.css', 'rule'))).toBe(false);
    expect(code(c('tools/run.pl', 'block'))).toBe(false);
    expect(code(c('docs/guide.md', 'section'))).toBe(true);
    expect(code(c('src/__snapshots__/a.test.ts.snap', 'const'))).toBe(false);
    expect(code(c('src/i18n/fr.json', 'const'))).toBe(false);
    expect(code(c('src/a.test.ts', 'function'))).toBe(true);
    // a test's related snapshots stay; a rule lists rules
    expect(
      besideAnchor(c('src/a.test.ts', 'function'))!(c('src/__snapshots__/a.test.ts.snap', 'block')),
    ).toBe(false);
    expect(
      besideAnchor(c('src/a.test.ts', 'function'))!(c('src/__snapshots__/a.test.ts.snap', 'const')),
    ).toBe(true);
    expect(besideAnchor(c('src/a.css', 'rule'))!(c('src/b.css', 'rule'))).toBe(true);
    expect(besideAnchor(c('package.json', 'key'))).toBeNull();
  });
});
