/**
 * Switching the embedding model in the engine (the app's "Use my own model…" and "Use the
 * built-in model"): resetSemanticModel drops the loaded model, the next enable loads the host's
 * model again and brings the vectors level for it: a model's own stored vectors are reused, another
 * model's never are. The ONNX models are tiny ones the test writes (onnx-fixture.testutil.ts), run
 * on onnxruntime-node; the built-in model is the fake bag of words.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { loadNodeOnnxModel } from '../adapters/node/onnx-files';
import { removeModelDir, tinyGraph, writeModelDir } from '../adapters/embed/onnx-fixture.testutil';
import { MemoryIndexStore } from '../core/rank/persist';
import { FakeModel } from '../core/semantic/fake-model.testutil';
import type { EmbeddingModel } from '../core/semantic/port';
import { createEngineApi } from './engine';
import type { SemanticResult, SemanticStats, SemanticStatus } from './protocol';
import { modelVectorsKey, vectorStoreKey } from './semantic';

const FILES: Record<string, string> = {
  'src/finder.ts':
    '// the code search finder\nexport function findCode(query: string) {\n  return search(query);\n}\n',
  'src/greet.ts': '/** Says hello, world! */\nexport function helloWorld() {\n  return "hello";\n}\n',
};

const dirA = writeModelDir({}, 'tiny-a');
const dirB = writeModelDir({ 'onnx/model.onnx': tinyGraph({ shift: 1 }) }, 'tiny-b');
afterAll(() => [dirA, dirB].forEach(removeModelDir));

type Value<T> = { ok: true; value: T } | { ok: false; error: unknown };
const value = <T>(o: unknown): T => {
  const r = o as Value<T>;
  if (!r.ok) throw new Error(`engine call failed: ${JSON.stringify(r.error)}`);
  return r.value;
};

describe('switching the embedding model', () => {
  it('re-embeds for a new model, reuses a model’s own stored vectors, and names the model that answered', async () => {
    const [a, b] = [
      await loadNodeOnnxModel(dirA, { threads: 1 }),
      await loadNodeOnnxModel(dirB, { threads: 1 }),
    ];
    const builtIn = new FakeModel();
    const disposed: string[] = [];
    let host: EmbeddingModel = a;
    const embedded = new Map<string, number>();
    const store = new MemoryIndexStore();
    const api = createEngineApi({
      grammarLoader: nodeGrammarLoader,
      indexStore: store,
      semanticModel: async () => {
        const m = host;
        return {
          id: m.id,
          dims: m.dims,
          embed: (texts) => (embedded.set(m.id, (embedded.get(m.id) ?? 0) + texts.length), m.embed(texts)),
          dispose: () => disposed.push(m.id),
        };
      },
    });
    value(await api.openRepo('open', () => {}, { kind: 'memory', name: 'app', files: FILES }));
    value(await api.indexRepo('index', () => {}, {}));
    const key = value<Array<{ key: string }>>(await api.roots())[0].key;

    const enable = async () => value<{ stats: SemanticStats }>(await api.enableSemantic('e', () => {})).stats;
    const ask = async () =>
      value<SemanticResult>(
        await api.callTool('semantic_search', { query: 'hello world', type: 'semantic' }),
      );
    const switchTo = async (m: EmbeddingModel) => {
      host = m;
      const status = value<SemanticStatus>(await api.resetSemanticModel());
      expect(status.state).toBe('off');
      expect(status.model).toBeUndefined();
    };

    expect((await enable()).embedded).toBe(2);
    expect(value<SemanticStatus>(await api.semanticStatus()).model).toBe(a.id);
    const first = await ask();
    expect(first.model).toBe(a.id);
    expect(first.hits.length).toBeGreaterThan(0);
    const contract = value<Array<{ model: string }>>(
      await api.callTool('semantic_code_search', { query: 'find the code search', limit: 1 }),
    );
    expect(contract).toEqual([expect.objectContaining({ path: 'src/finder.ts', model: a.id })]);

    await switchTo(b);
    expect(disposed).toEqual([a.id]);
    expect((await enable()).embedded).toBe(2);
    expect((await ask()).model).toBe(b.id);

    await switchTo(builtIn);
    expect((await enable()).embedded).toBe(2);
    expect((await ask()).model).toBe(builtIn.id);
    // each family of models under its own key: the built-in model's and the ONNX model's
    expect(modelVectorsKey(key, builtIn.id)).toBe(vectorStoreKey(key));
    expect(modelVectorsKey(key, b.id)).toBe(`${vectorStoreKey(key)}@onnx`);
    expect(await store.load(vectorStoreKey(key))).not.toBeNull();
    expect(await store.load(`${vectorStoreKey(key)}@onnx`)).not.toBeNull();

    // back to B: its stored vectors, nothing embedded
    await switchTo(b);
    expect((await enable()).embedded).toBe(0);
    expect((await ask()).model).toBe(b.id);
    // and to the built-in one: its own, kept apart from the ONNX model's
    await switchTo(builtIn);
    expect((await enable()).embedded).toBe(0);
    // A's were replaced by B's (the ONNX models share one key, checked by the model's id)
    await switchTo(a);
    expect((await enable()).embedded).toBe(2);
    expect(embedded.get(a.id)).toBeGreaterThanOrEqual(4);
    a.dispose?.();
    b.dispose?.();
  }, 60_000);
});
