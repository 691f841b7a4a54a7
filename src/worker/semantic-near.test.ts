/**
 * A semantic search that names the open file (`near`, a workspace path): within its budget the
 * service embeds that file's chunks and its folder's first (blocks too, ahead of the other files'
 * definitions), in the open file's root only, and the background continuation keeps that order.
 * The app's semantic_search carries it (`near`) to the engine's service.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { Foreground } from '../core/jobs/yielder';
import { splitLinesForIndex } from '../core/rank/lines';
import { FakeModel } from '../core/semantic/fake-model.testutil';
import { chunkView } from '../core/semantic/views';
import type { Roots } from './roots';
import {
  blockAndFunctionFiles,
  rootsOver,
  SlowModel,
  until,
  type FixtureRoot,
} from './semantic-roots.testutil';
import { nearIn, SemanticService } from './semantic';
import { createEngineApi } from './engine';

const word = (i: number) =>
  String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26)) + 'near';

/** Files of a block and a function each, at `paths`; `from` keeps each root's words its own. */
const root = (paths: readonly string[], from: number) => blockAndFunctionFiles(paths, (f) => word(from + f));

/** The view texts of `paths`' chunks. */
function viewsOf(r: FixtureRoot, paths: readonly string[]): string[] {
  return paths.flatMap((p) => r.index.chunksOf(p).map((c) => chunkView(c, splitLinesForIndex(r.files[p]))));
}

/** Two roots as SemanticService reads them, under the prefixes one/ and two/. */
const twoRoots = (a: FixtureRoot, b: FixtureRoot): Roots => rootsOver({ one: a, two: b });

describe('the open file in a root', () => {
  it.each([
    { near: undefined, prefix: '', want: undefined },
    { near: 'src/a.ts', prefix: '', want: 'src/a.ts' },
    { near: 'two/src/a.ts', prefix: 'two/', want: 'src/a.ts' },
    { near: 'two/src/a.ts', prefix: 'one/', want: undefined },
  ])('$near under "$prefix": $want', ({ near, prefix, want }) => {
    expect(nearIn(near, prefix)).toBe(want);
  });
});

describe('semantic search near the open file', () => {
  it("embeds the open file's chunks and its folder's first, in its root only, and keeps that order in the background", async () => {
    const many = Array.from({ length: 60 }, (_, i) => `lib/m${i}/part.ts`);
    // more than a batch near the open file: the background continuation embeds the rest of them first too
    const open = [
      'app/open/Panel.ts',
      ...Array.from({ length: 10 }, (_, i) => `app/open/Menu${i}.ts`),
      'app/open/deep/Item.ts',
    ];
    const one = root(many, 0);
    const two = root([...many, ...open], 100);
    const model = new SlowModel();
    const service = new SemanticService({ loadModel: async () => model, foreground: new Foreground() });
    const roots = twoRoots(one, two);
    const first = await service.sync(roots, { budgetMs: 20, near: 'two/app/open/Panel.ts' });
    expect(first.coverage.searched).toBeLessThan(first.coverage.of);
    // root one (nothing open there) as before: its definitions first
    const oneDefs = new Set(viewsOf(one, many).filter((_, i) => i % 2 === 1));
    expect(model.embedded.slice(0, 16).every((t) => oneDefs.has(t))).toBe(true);
    // root two: the open file's two chunks, then its folder's, blocks too, before any other file's
    const twoViews = new Set(viewsOf(two, [...many, ...open]));
    const [panelDef, panelBlock] = viewsOf(two, ['app/open/Panel.ts']).reverse();
    const firstOfTwo = model.embedded.filter((t) => twoViews.has(t));
    expect(firstOfTwo.slice(0, 2)).toEqual([panelDef, panelBlock]);
    expect(first.roots[1].vectors.coverage(two.index).searched).toBe(16);

    await until(() => !service.embeddingInBackground);
    const allOfTwo = model.embedded.filter((t) => twoViews.has(t));
    expect(new Set(allOfTwo.slice(0, 2 * open.length))).toEqual(new Set(viewsOf(two, open)));
    const later = await service.sync(roots, { budgetMs: 20 });
    const all = 4 * 60 + 2 * open.length;
    expect(later.coverage).toEqual({ searched: all, of: all });
    expect(new Set(model.embedded).size).toBe(model.texts);
  }, 30_000);
});

describe('semantic_search with near, through the engine', () => {
  it('hands the open file to the embedding: its chunks are embedded first; a near that is not a string is refused', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++)
      files[`src/m${i}/part.ts`] = `export function ${word(i)}Run() {\n  return ${i};\n}\n`;
    // the longest definition: without near it would be embedded last (shortest first)
    files['web/ui/Open.tsx'] =
      'export function OpenPanel(props: PanelProps, settings: PanelSettings) {\n  return renderThePanelWithEveryOption(props, settings);\n}\n';
    const model = new FakeModel();
    const api = createEngineApi({ grammarLoader: nodeGrammarLoader, semanticModel: async () => model });
    expect((await api.openRepo('open', () => {}, { kind: 'memory', name: 'app', files })).ok).toBe(true);
    expect((await api.indexRepo('index', () => {}, {})).ok).toBe(true);
    const out = await api.callTool('semantic_search', { query: 'open the panel', near: 'web/ui/Open.tsx' });
    expect(out.ok).toBe(true);
    expect(model.embedded[0]).toMatch(/open ?panel/i);
    const bad = await api.callTool('semantic_search', { query: 'open the panel', near: 3 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
  }, 30_000);
});
