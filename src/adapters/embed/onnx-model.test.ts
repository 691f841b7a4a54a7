/**
 * ONNX models in the transformers.js layout on onnxruntime-node, with a tiny model the tests
 * write (onnx-fixture.testutil.ts): tokenizing, pooling, normalising, ids, truncation, errors.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { QuarryError } from '../../core/errors';
import type { EmbeddingModel, OnnxRuntime } from '../../core/semantic/port';
import { loadNodeOnnxModel, nodeOnnxFiles, nodeOnnxRuntime } from '../node/onnx-files';
import { hfTokenizer, loadOnnxModel, type OnnxModelOptions } from './onnx-model';
import {
  HIDDEN,
  bertConfig,
  bpeTokenizer,
  handVector,
  removeModelDir,
  tinyGraph,
  unigramTokenizer,
  wordPieceTokenizer,
  writeModelDir,
  type ModelDirFiles,
} from './onnx-fixture.testutil';

const dirs: string[] = [];
let runtime: OnnxRuntime | null = null;

async function load(
  files: ModelDirFiles = {},
  options: OnnxModelOptions = {},
  name?: string,
): Promise<EmbeddingModel> {
  const dir = writeModelDir(files, name);
  dirs.push(dir);
  runtime ??= await nodeOnnxRuntime({ threads: 1 });
  return loadOnnxModel(nodeOnnxFiles(dir), runtime, options);
}

function rows(v: Float32Array, dims: number): number[][] {
  return Array.from({ length: v.length / dims }, (_, i) => Array.from(v.subarray(i * dims, (i + 1) * dims)));
}

function expectClose(got: number[], want: number[]): void {
  expect(got.length).toBe(want.length);
  got.forEach((x, j) => expect(x).toBeCloseTo(want[j], 6));
}

async function failure(p: Promise<unknown>): Promise<QuarryError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(QuarryError);
  return err as QuarryError;
}

afterAll(() => dirs.forEach(removeModelDir));

describe('tokenizer.json through @huggingface/tokenizers', () => {
  it('WordPiece: lowercases, splits punctuation and subwords, strips accents, adds [CLS] and [SEP]', () => {
    const t = hfTokenizer(wordPieceTokenizer());
    // [CLS] hello , world ! un ##aff ##able [SEP]
    expect(t.encode('Hello, world! unaffable', true)).toEqual([2, 5, 10, 6, 11, 7, 8, 9, 3]);
    // find ##er ##s search; "ünknown" -> "unknown", which has no pieces: [UNK]
    expect(t.encode('Finders search Ünknown', true)).toEqual([2, 12, 13, 18, 15, 1, 3]);
    expect(t.encode('Finders search Ünknown', false)).toEqual([12, 13, 18, 15, 1]);
  });

  it('byte-level BPE: merges by rank, Ġ for the space, <s> and </s>', () => {
    const t = hfTokenizer(bpeTokenizer());
    expect(t.encode('code search', true)).toEqual([0, 15, 18, 19, 12, 2]);
    expect(t.encode('code search', false)).toEqual([15, 18, 19, 12]);
  });

  it('Unigram: the best-scoring pieces after Metaspace, then </s>', () => {
    const t = hfTokenizer(unigramTokenizer());
    expect(t.encode('code search', true)).toEqual([3, 9, 10, 1]);
  });

  it('a tokenizer.json it cannot read fails naming the file', () => {
    expect(() => hfTokenizer({ model: { type: 'Nonsense' } })).toThrow(/tokenizer\.json/);
  });
});

describe('an ONNX model in the transformers.js layout, on onnxruntime-node', () => {
  it('loads: dims from the output (as config.json says), an id naming the model', async () => {
    const m = await load();
    expect(m.dims).toBe(HIDDEN);
    expect(m.id).toMatch(/^onnx:tiny-bert:[0-9a-f]{16}$/);
    m.dispose?.();
  });

  it('gives the vectors the graph and mean pooling give by hand, unit length', async () => {
    const m = await load();
    const v = rows(await m.embed(['hello', 'world', 'Hello, world! unaffable', 'code', '']), HIDDEN);
    // [CLS] hello [SEP] = rows 2, 5, 3 of the table: [0,2,-1,1] + [-2,-2,-2,-2] + [1,-1,2,0] = -1 each
    expectClose(v[0], [-0.5, -0.5, -0.5, -0.5]);
    // [CLS] world [SEP]: [0,2,-1,1] + [-1,0,1,2] + [1,-1,2,0] = [0,1,2,3]
    expectClose(
      v[1],
      [0, 1, 2, 3].map((x) => x / Math.sqrt(14)),
    );
    expectClose(v[2], handVector([2, 5, 10, 6, 11, 7, 8, 9, 3]));
    expectClose(v[3], handVector([2, 14, 3]));
    expectClose(v[4], handVector([2, 3]));
    for (const r of v) expect(Math.hypot(...r)).toBeCloseTo(1, 6);
  });

  it('padding does not change a vector: a text alone, or batched with a longer one', async () => {
    const m = await load();
    const alone = await m.embed(['hello']);
    const batched = await m.embed(['hello', 'hello world unaffable finders search the code', 'a']);
    expect(Array.from(batched.subarray(0, HIDDEN))).toEqual(Array.from(alone));
    const oneByOne = await load({}, { maxBatch: 1 });
    expect(
      Array.from(await oneByOne.embed(['hello', 'hello world unaffable finders search the code', 'a'])),
    ).toEqual(Array.from(batched));
  });

  it('pools as 1_Pooling/config.json (or the caller) says', async () => {
    const cls = await load({
      '1_Pooling/config.json': { pooling_mode_cls_token: true, pooling_mode_mean_tokens: false },
    });
    expectClose(
      Array.from(await cls.embed(['world'])),
      [0, 2, -1, 1].map((x) => x / Math.sqrt(6)),
    );
    const max = await load({}, { pooling: 'max' });
    expectClose(Array.from(await max.embed(['world'])), handVector([2, 6, 3], 'max'));
    expect(cls.id).not.toBe(max.id);
  });

  it('truncates to the max length, keeping [SEP]', async () => {
    const text = 'hello world unaffable';
    const byOption = await load({}, { maxLength: 5 });
    expectClose(Array.from(await byOption.embed([text])), handVector([2, 5, 6, 7, 3]));
    const byLayout = await load({ 'sentence_bert_config.json': { max_seq_length: 5 } });
    expectClose(Array.from(await byLayout.embed([text])), handVector([2, 5, 6, 7, 3]));
    const byPositions = await load({ 'config.json': bertConfig({ max_position_embeddings: 4 }) });
    expectClose(Array.from(await byPositions.embed([text])), handVector([2, 5, 6, 3]));
  });

  it('names the model by its bytes: another ONNX file, another id', async () => {
    const a = await load({}, {}, 'one');
    const b = await load({}, {}, 'two');
    const c = await load({ 'onnx/model.onnx': tinyGraph({ shift: 0.5 }) });
    expect(a.id).toBe(b.id);
    expect(c.id).not.toBe(a.id);
    expect(c.id.startsWith('onnx:tiny-bert:')).toBe(true);
    const named = await load({ 'config.json': bertConfig({ _name_or_path: undefined }) }, {}, 'My Model');
    expect(named.id).toMatch(/^onnx:my-model:/);
  });

  it('finds onnx/model_quantized.onnx, and prefers it when asked', async () => {
    const only = await load({ 'onnx/model.onnx': null, 'onnx/model_quantized.onnx': tinyGraph() });
    expectClose(Array.from(await only.embed(['hello'])), [-0.5, -0.5, -0.5, -0.5]);
    const both = { 'onnx/model_quantized.onnx': tinyGraph({ shift: 1 }) };
    const fp32 = await load(both);
    const int8 = await load(both, { prefer: 'quantized' });
    expect(fp32.id).not.toBe(int8.id);
    expect(Array.from(await int8.embed(['hello']))).not.toEqual(Array.from(await fp32.embed(['hello'])));
  });

  it('feeds only the inputs the graph has (no token_type_ids), and reads a pooled output', async () => {
    const roberta = await load({
      'config.json': bertConfig({ model_type: 'roberta', max_position_embeddings: 514 }),
      'tokenizer.json': bpeTokenizer(),
      'onnx/model.onnx': tinyGraph({ tokenTypes: false }),
    });
    expectClose(Array.from(await roberta.embed(['code search'])), handVector([0, 15, 18, 19, 12, 2]));
    const pooled = await load({ 'onnx/model.onnx': tinyGraph({ output: 'pooled' }) });
    expectClose(
      Array.from(await pooled.embed(['world'])),
      [0, 1, 2, 3].map((x) => x / Math.sqrt(14)),
    );
  });

  it('fails with a QuarryError naming the file: no tokenizer.json, no ONNX file, a corrupt one, bad JSON', async () => {
    const noTokenizer = await failure(load({ 'tokenizer.json': null }));
    expect(noTokenizer.code).toBe('NotFound');
    expect(noTokenizer.message).toMatch(/has no tokenizer\.json/);
    const noOnnx = await failure(load({ 'onnx/model.onnx': null }));
    expect(noOnnx.code).toBe('NotFound');
    expect(noOnnx.message).toMatch(
      /no ONNX file \(looked for onnx\/model\.onnx, model\.onnx, onnx\/model_quantized\.onnx/,
    );
    const corrupt = await failure(load({ 'onnx/model.onnx': new Uint8Array([8, 7, 1, 2, 3, 250, 251]) }));
    expect(corrupt.code).toBe('Unreadable');
    expect(corrupt.message).toMatch(
      /^onnx\/model\.onnx: the ONNX runtime could not load it \(.*protobuf parsing failed/,
    );
    expect(corrupt.data.file).toBe('onnx/model.onnx');
    const badJson = await failure(load({ 'config.json': '{"hidden_size": 4,' }));
    expect(badJson.message).toMatch(/^config\.json: not valid JSON/);
    const wrongDims = await failure(load({ 'config.json': bertConfig({ hidden_size: 8 }) }));
    expect(wrongDims.message).toMatch(/4 values a token but config\.json says 8/);
    const dir = writeModelDir();
    dirs.push(dir);
    const outside = await failure(nodeOnnxFiles(dir).read('../../etc/passwd'));
    expect(outside.code).toBe('PathOutsideRoot');
  });

  it('runs (a throughput figure for the tiny model, meaningless but for showing it runs)', async () => {
    const dir = writeModelDir();
    dirs.push(dir);
    const m = await loadNodeOnnxModel(dir, { threads: 1 });
    const words = ['hello', 'world', 'code', 'search', 'the', 'a', 'finders', 'unaffable'];
    const texts = Array.from({ length: 2000 }, (_, i) =>
      Array.from({ length: 5 + (i % 40) }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' '),
    );
    const t0 = performance.now();
    const v = await m.embed(texts);
    const ms = performance.now() - t0;
    expect(v.length).toBe(texts.length * HIDDEN);
    console.log(
      `tiny ONNX model: ${texts.length} texts in ${ms.toFixed(0)} ms (${Math.round((texts.length / ms) * 1000)} texts/s)`,
    );
  });
});
