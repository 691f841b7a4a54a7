import { describe, expect, it } from 'vitest';
import { QuarryError } from '../errors';
import {
  MAX_SEQUENCE,
  checkInputs,
  chooseOutput,
  clipForTokens,
  feedsFor,
  onnxFileCandidates,
  onnxModelId,
  openOnnxEmbedding,
  padBatch,
  parseLayoutJson,
  planBatches,
  poolInto,
  poolingConfigPath,
  readOnnxLayout,
  truncateIds,
  type OnnxLayout,
  type OnnxTokenizer,
} from './onnx-layout';
import type { OnnxInput, OnnxOutput, OnnxRunner } from './port';

const TOKENIZER = { model: { type: 'WordPiece', vocab: { '[PAD]': 0, '[UNK]': 1 } } };
const bytes = (s: string) => new TextEncoder().encode(s);

describe('reading the layout', () => {
  it('takes dims and model type from config.json, mean pooling and 512 by default', () => {
    const l = readOnnxLayout({ config: { model_type: 'bert', hidden_size: 384 }, tokenizer: TOKENIZER });
    expect(l).toEqual({
      modelType: 'bert',
      hiddenSize: 384,
      maxLength: 512,
      pooling: 'mean',
      padId: 0,
      nameOrPath: null,
    });
    expect(
      readOnnxLayout({ config: { model_type: 'distilbert', dim: 768 }, tokenizer: TOKENIZER }).hiddenSize,
    ).toBe(768);
  });

  it('the max length: the shortest the layout names, within the positions (RoBERTa: two fewer) and 512', () => {
    const at = (json: object, config: object = {}, maxLength?: number) =>
      readOnnxLayout({ config, tokenizer: TOKENIZER, ...json }, { maxLength }).maxLength;
    expect(at({}, { max_position_embeddings: 128 })).toBe(128);
    expect(at({}, { model_type: 'xlm-roberta', max_position_embeddings: 514 })).toBe(512);
    expect(at({}, { model_type: 'roberta', max_position_embeddings: 130 })).toBe(128);
    expect(at({}, { max_position_embeddings: 8192 })).toBe(MAX_SEQUENCE);
    expect(at({ sentenceBert: { max_seq_length: 256 }, tokenizerConfig: { model_max_length: 512 } })).toBe(
      256,
    );
    expect(at({ tokenizer: { ...TOKENIZER, truncation: { max_length: 128 } } })).toBe(128);
    expect(at({ tokenizerConfig: { model_max_length: 1e30 } })).toBe(512);
    expect(at({ sentenceBert: { max_seq_length: 256 } }, { max_position_embeddings: 512 }, 384)).toBe(384);
    expect(at({}, { max_position_embeddings: 64 }, 384)).toBe(64);
    expect(() => at({}, {}, 1)).toThrow(QuarryError);
  });

  it('the pooling: sentence-transformers Pooling config, where modules.json puts it; the caller overrides', () => {
    const pooled = (pooling: object, modules?: unknown) =>
      readOnnxLayout({ config: {}, tokenizer: TOKENIZER, pooling, modules }).pooling;
    expect(pooled({ pooling_mode_cls_token: true, pooling_mode_mean_tokens: false })).toBe('cls');
    expect(pooled({ pooling_mode_mean_tokens: true })).toBe('mean');
    expect(pooled({ pooling_mode_mean_sqrt_len_tokens: true })).toBe('mean');
    expect(pooled({ pooling_mode_max_tokens: true })).toBe('max');
    expect(pooled({ pooling_mode_lasttoken: true })).toBe('last');
    expect(() => pooled({ pooling_mode_cls_token: true, pooling_mode_max_tokens: true })).toThrow(/at once/);
    expect(() => pooled({ pooling_mode_weightedmean_tokens: true })).toThrow(/1_Pooling\/config\.json/);
    expect(
      readOnnxLayout(
        { config: {}, tokenizer: TOKENIZER, pooling: { pooling_mode_cls_token: true } },
        { pooling: 'max' },
      ).pooling,
    ).toBe('max');
    expect(poolingConfigPath([{ idx: 1, path: 'pool/', type: 'sentence_transformers.models.Pooling' }])).toBe(
      'pool/config.json',
    );
    expect(poolingConfigPath(undefined)).toBe('1_Pooling/config.json');
  });

  it('the pad id: tokenizer.json padding, else the pad token, else 0; the name from _name_or_path', () => {
    const padOf = (tokenizer: object, tokenizerConfig?: object) =>
      readOnnxLayout({ config: {}, tokenizer: { ...TOKENIZER, ...tokenizer }, tokenizerConfig }).padId;
    expect(padOf({ padding: { pad_id: 7 } })).toBe(7);
    expect(padOf({ added_tokens: [{ id: 1, content: '<pad>' }] })).toBe(1);
    expect(padOf({ added_tokens: [{ id: 4, content: '<my-pad>' }] }, { pad_token: '<my-pad>' })).toBe(4);
    expect(padOf({ added_tokens: [{ id: 5, content: '<p>' }] }, { pad_token: { content: '<p>' } })).toBe(5);
    expect(padOf({ model: { type: 'WordPiece', vocab: { a: 0, '[PAD]': 9 } } })).toBe(9);
    expect(readOnnxLayout({ config: { _name_or_path: 'org/m' }, tokenizer: TOKENIZER }).nameOrPath).toBe(
      'org/m',
    );
  });

  it('a tokenizer.json without a model, or JSON that is not JSON, fails naming the file', () => {
    expect(() => readOnnxLayout({ config: {}, tokenizer: {} })).toThrow(/^tokenizer\.json: /);
    expect(parseLayoutJson('config.json', bytes('\ufeff{"a":1}'))).toEqual({ a: 1 });
    expect(() => parseLayoutJson('config.json', bytes('{'))).toThrow(/^config\.json: not valid JSON/);
  });

  it('the ONNX files looked for', () => {
    expect(onnxFileCandidates()[0]).toBe('onnx/model.onnx');
    expect(onnxFileCandidates('quantized')[0]).toBe('onnx/model_quantized.onnx');
    expect(onnxFileCandidates('fp32', 'onnx/model_fp16.onnx')).toEqual(['onnx/model_fp16.onnx']);
  });
});

describe('the model id', () => {
  it('is the name and a fingerprint of the bytes, the tokenizer and the settings', () => {
    const id = onnxModelId('sentence-transformers/all-MiniLM-L6-v2', bytes('abc'), bytes('tok'), 'mean');
    expect(id).toMatch(/^onnx:sentence-transformers-all-minilm-l6-v2:[0-9a-f]{16}$/);
    expect(onnxModelId('sentence-transformers/all-MiniLM-L6-v2', bytes('abc'), bytes('tok'), 'mean')).toBe(
      id,
    );
    expect(
      onnxModelId('sentence-transformers/all-MiniLM-L6-v2', bytes('abd'), bytes('tok'), 'mean'),
    ).not.toBe(id);
    expect(onnxModelId('sentence-transformers/all-MiniLM-L6-v2', bytes('abc'), bytes('tok'), 'cls')).not.toBe(
      id,
    );
    expect(onnxModelId('', bytes(''))).toMatch(/^onnx:model:/);
  });
});

describe('tokens, batches and pooling', () => {
  it('truncation keeps what the template adds before and after the content', () => {
    expect(truncateIds([101, 5, 6, 7, 8, 102], () => [5, 6, 7, 8], 4)).toEqual([101, 5, 6, 102]);
    expect(truncateIds([5, 6, 7, 8, 1], () => [5, 6, 7, 8], 3)).toEqual([5, 6, 1]);
    expect(truncateIds([0, 0, 5, 6, 7, 2, 2], () => [5, 6, 7], 5)).toEqual([0, 0, 5, 2, 2]);
    expect(truncateIds([101, 5, 102], () => [5], 8)).toEqual([101, 5, 102]);
    expect(truncateIds([101, 5, 6, 102], () => [5, 6], 2)).toEqual([101, 5]);
    expect(clipForTokens('a '.repeat(100), 2)).toBe('a '.repeat(31) + 'a');
    expect(clipForTokens('short', 2)).toBe('short');
  });

  it('pads on the right, masks the padding, and gives an empty text one token', () => {
    const b = padBatch([[2, 5, 3], [2, 3], []], 9);
    expect([b.batch, b.seqLen]).toEqual([3, 3]);
    expect(Array.from(b.inputIds, Number)).toEqual([2, 5, 3, 2, 3, 9, 9, 9, 9]);
    expect(Array.from(b.attentionMask, Number)).toEqual([1, 1, 1, 1, 1, 0, 1, 0, 0]);
    expect(Array.from(b.tokenTypeIds, Number)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(b.positionIds, Number)).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2]);
    const feeds = feedsFor(['input_ids', 'attention_mask'], b);
    expect(Object.keys(feeds)).toEqual(['input_ids', 'attention_mask']);
    expect(feeds.input_ids.dims).toEqual([3, 3]);
  });

  it('batches longest first, within the batch size and the token budget', () => {
    expect(planBatches([3, 10, 5, 10, 1], 2)).toEqual([[1, 3], [2, 0], [4]]);
    expect(planBatches([10, 10, 10, 2], 32, 25)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(planBatches([600], 32, 100)).toEqual([[0]]);
    expect(planBatches([])).toEqual([]);
  });

  it('pools over the mask (mean, cls, max, last) and normalises; a pooled output is taken as it is', () => {
    // two texts of width 3: rows [1,0] [3,0] [100,100 (padding)] and [0,1] [0,2] [0,4]
    const output: OnnxOutput = {
      data: Float32Array.from([1, 0, 3, 0, 100, 100, 0, 1, 0, 2, 0, 4]),
      dims: [2, 3, 2],
    };
    const mask = BigInt64Array.from([1n, 1n, 0n, 1n, 1n, 1n]);
    const pooled = (pooling: 'mean' | 'cls' | 'max' | 'last', b: number) => {
      const out = new Float32Array(2);
      poolInto(output, mask, 3, pooling, out, 0, b);
      return Array.from(out);
    };
    expect(pooled('mean', 0)).toEqual([1, 0]);
    expect(pooled('cls', 1)).toEqual([0, 1]);
    expect(pooled('max', 0)).toEqual([1, 0]);
    expect(pooled('last', 0)).toEqual([1, 0]);
    const v = new Float32Array(4);
    poolInto({ data: Float32Array.from([3, 4, 0, 0]), dims: [2, 2] }, mask, 3, 'mean', v, 2, 0);
    expect(Array.from(v)).toEqual([0, 0, 0.6000000238418579, 0.800000011920929]);
    poolInto({ data: Float32Array.from([3, 4, 0, 0]), dims: [2, 2] }, mask, 3, 'mean', v, 0, 1);
    expect(Array.from(v.subarray(0, 2))).toEqual([0, 0]);
  });

  it('chooses the output and checks the inputs', () => {
    expect(chooseOutput(['pooler_output', 'last_hidden_state'])).toBe('last_hidden_state');
    expect(chooseOutput(['sentence_embedding', 'token_embeddings'])).toBe('token_embeddings');
    expect(chooseOutput(['logits'])).toBe('logits');
    expect(() => chooseOutput(['a'], 'b')).toThrow(/no output "b"/);
    expect(() => checkInputs(['attention_mask'], 'm.onnx')).toThrow(/^m\.onnx: the model has no input_ids/);
    expect(() => checkInputs(['input_ids', 'pixel_values'], 'm.onnx')).toThrow(/needs pixel_values/);
    expect(() =>
      checkInputs(['input_ids', 'attention_mask', 'token_type_ids', 'position_ids'], 'm'),
    ).not.toThrow();
  });
});

/** A runner in plain JS: token vector = [id, 1]; records the batches it ran. */
function fakeRunner(runs: number[][], fail = false): OnnxRunner {
  return {
    inputNames: ['input_ids', 'attention_mask'],
    outputNames: ['last_hidden_state'],
    async run(feeds: Readonly<Record<string, OnnxInput>>): Promise<OnnxOutput> {
      if (fail) throw new Error('kaboom');
      const ids = feeds.input_ids;
      runs.push(Array.from(ids.data, Number));
      const data = new Float32Array(ids.data.length * 2);
      ids.data.forEach((id, k) => {
        data[2 * k] = Number(id);
        data[2 * k + 1] = 1;
      });
      return { data, dims: [...ids.dims, 2] };
    },
  };
}

const LAYOUT: OnnxLayout = {
  modelType: 'bert',
  hiddenSize: 2,
  maxLength: 4,
  pooling: 'mean',
  padId: 0,
  nameOrPath: null,
};
/** Words are ids (their length), between 100 and 102. */
const TOK: OnnxTokenizer = {
  encode: (text, special) => {
    const ids = text
      .split(' ')
      .filter(Boolean)
      .map((w) => w.length);
    return special ? [100, ...ids, 102] : ids;
  },
};

describe('openOnnxEmbedding', () => {
  it('probes, batches by length, truncates, pools, and gives the vectors in the texts order', async () => {
    const runs: number[][] = [];
    const m = await openOnnxEmbedding({
      id: 'x',
      layout: { ...LAYOUT, hiddenSize: 2 },
      tokenizer: TOK,
      runner: fakeRunner(runs),
      file: 'm.onnx',
      maxBatch: 2,
    });
    expect(m.dims).toBe(2);
    expect(runs).toEqual([[100, 6, 102]]); // the probe, 'quarry'
    runs.length = 0;
    const v = await m.embed(['aa', 'aaa bbb ccccc dd', 'a']);
    // longest first: [100 3 3 102] and [100 2 102 pad]; then [100 1 102]
    expect(runs).toEqual([
      [100, 3, 3, 102, 100, 2, 102, 0],
      [100, 1, 102],
    ]);
    const unit = (a: number, b: number) => [a / Math.hypot(a, b), b / Math.hypot(a, b)];
    const got = Array.from(v);
    [unit(204 / 3, 1), unit(208 / 4, 1), unit(203 / 3, 1)]
      .flat()
      .forEach((x, k) => expect(got[k]).toBeCloseTo(x, 6));
    expect((await m.embed([])).length).toBe(0);
  });

  it('a config that disagrees with the output, or a run that fails, is a QuarryError naming the file', async () => {
    await expect(
      openOnnxEmbedding({
        id: 'x',
        layout: { ...LAYOUT, hiddenSize: 3 },
        tokenizer: TOK,
        runner: fakeRunner([]),
        file: 'm.onnx',
      }),
    ).rejects.toThrow(/^m\.onnx: output last_hidden_state has 2 values a token but config\.json says 3/);
    const err = await openOnnxEmbedding({
      id: 'x',
      layout: LAYOUT,
      tokenizer: TOK,
      runner: fakeRunner([], true),
      file: 'm.onnx',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).code).toBe('EngineError');
    expect((err as QuarryError).message).toBe('m.onnx: the model failed to run (kaboom)');
  });
});
