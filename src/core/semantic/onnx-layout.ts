/**
 * A sentence-embedding model in the transformers.js layout, with no runtime in core: reading the
 * layout's JSON (config.json, tokenizer.json, tokenizer_config.json, and sentence-transformers'
 * modules.json, 1_Pooling/config.json and sentence_bert_config.json), choosing the ONNX file,
 * the pooling and the longest sequence, naming the model by its bytes, and the embedding itself:
 * texts tokenized (through a tokenizer port), truncated, batched by length with padding, run
 * (through core's OnnxRunner port), pooled over the attention mask and l2-normalised.
 */
import { QuarryError } from '../errors';
import { FNV_OFFSET, FNV_PRIME } from '../hash';
import type { EmbeddingModel, OnnxInput, OnnxOutput, OnnxRunner } from './port';

// which files of the layout are read: onnx-pick.ts (small, for the app's bundle too)
import { poolingConfigPath } from './onnx-pick';
export { onnxFileCandidates, poolingConfigPath } from './onnx-pick';

/** How token vectors become one vector: the mean over the mask, the first token, the max, the last real token. */
export type OnnxPooling = 'mean' | 'cls' | 'max' | 'last';

/** No sequence is longer than this (BERT-style position tables; and the cost grows with its square). */
export const MAX_SEQUENCE = 512;

/** The layout's JSON files, parsed (null when the layout has none). */
export interface OnnxLayoutJson {
  config: unknown;
  tokenizer: unknown;
  tokenizerConfig?: unknown;
  modules?: unknown;
  /** The pooling module's config.json (1_Pooling/config.json unless modules.json says otherwise). */
  pooling?: unknown;
  sentenceBert?: unknown;
}

export interface OnnxLayoutOptions {
  pooling?: OnnxPooling;
  maxLength?: number;
}

/** What the layout says about the model. */
export interface OnnxLayout {
  modelType: string;
  /** The config's hidden size (hidden_size, d_model, dim or n_embd), when it has one. */
  hiddenSize: number | null;
  maxLength: number;
  pooling: OnnxPooling;
  padId: number;
  /** The config's _name_or_path, when it has one. */
  nameOrPath: string | null;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function posInt(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
}

function invalid(file: string, message: string): QuarryError {
  return new QuarryError('Unreadable', `${file}: ${message}`, { file });
}

/** A JSON file of the layout, parsed; one that is not JSON fails naming the file. */
export function parseLayoutJson(file: string, bytes: Uint8Array): unknown {
  const text = new TextDecoder('utf-8').decode(bytes);
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw invalid(file, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Model types whose position table starts at padding_idx + 1 (two rows are not positions). */
const OFFSET_POSITIONS = new Set(['roberta', 'xlm-roberta', 'camembert', 'mpnet', 'longformer', 'bart']);

function positionLimit(config: Json, modelType: string): number {
  const positions = posInt(config.max_position_embeddings) ?? posInt(config.n_positions);
  if (positions === null) return MAX_SEQUENCE;
  return Math.min(MAX_SEQUENCE, OFFSET_POSITIONS.has(modelType) ? positions - 2 : positions);
}

/**
 * The longest sequence, special tokens included: the caller's, else the shortest the layout
 * names (sentence_bert_config's max_seq_length, tokenizer.json's truncation, tokenizer_config's
 * model_max_length), never more than the position table nor MAX_SEQUENCE.
 */
function maxLengthOf(json: OnnxLayoutJson, config: Json, modelType: string, asked?: number): number {
  const limit = positionLimit(config, modelType);
  if (asked !== undefined && (posInt(asked) === null || asked < 2))
    throw new QuarryError('InvalidArgument', `maxLength must be an integer of at least 2, not ${asked}`, {
      field: 'maxLength',
      value: asked,
    });
  const named = [
    posInt(obj(json.sentenceBert).max_seq_length),
    posInt(obj(obj(json.tokenizer).truncation).max_length),
    posInt(obj(json.tokenizerConfig).model_max_length),
  ].filter((n): n is number => n !== null && n >= 2);
  const wanted = asked ?? (named.length ? Math.min(...named) : limit);
  return Math.max(2, Math.min(wanted, limit));
}

/** The pooling sentence-transformers' Pooling config names (mean when there is none). */
function poolingOf(pooling: unknown, file: string): OnnxPooling {
  const p = obj(pooling);
  const modes: Array<[string, OnnxPooling]> = [
    ['pooling_mode_cls_token', 'cls'],
    ['pooling_mode_mean_tokens', 'mean'],
    // the mean times sqrt(n): the same direction, so the same vector once normalised
    ['pooling_mode_mean_sqrt_len_tokens', 'mean'],
    ['pooling_mode_max_tokens', 'max'],
    ['pooling_mode_lasttoken', 'last'],
  ];
  if (p.pooling_mode_weightedmean_tokens === true)
    throw invalid(file, 'pooling_mode_weightedmean_tokens is not a pooling Quarry supports');
  const on = modes.filter(([key]) => p[key] === true);
  const kinds = new Set(on.map(([, kind]) => kind));
  if (kinds.size > 1)
    throw invalid(file, `it asks for ${on.map(([key]) => key).join(' and ')} at once; Quarry pools one way`);
  return kinds.size ? [...kinds][0] : 'mean';
}

const PAD_TOKENS = ['[PAD]', '<pad>', '<|padding|>', '<|endoftext|>'];

/** The padding id: tokenizer.json's padding, else the pad token's id, else 0 (the mask hides it anyway). */
function padIdOf(tokenizer: Json, tokenizerConfig: Json): number {
  const padding = obj(tokenizer.padding);
  if (typeof padding.pad_id === 'number') return padding.pad_id;
  const added = Array.isArray(tokenizer.added_tokens) ? (tokenizer.added_tokens as Json[]) : [];
  // tokenizer_config.json names it, or gives it as an added token ({ content })
  const named = tokenizerConfig.pad_token;
  const pad =
    typeof named === 'string'
      ? named
      : typeof obj(named).content === 'string'
        ? (obj(named).content as string)
        : null;
  const names = pad ? [pad] : PAD_TOKENS;
  for (const name of names) {
    const hit = added.find((t) => obj(t).content === name);
    if (hit && typeof hit.id === 'number') return hit.id;
  }
  const vocab = obj(tokenizer.model).vocab;
  for (const name of Array.isArray(vocab) ? [] : names)
    if (typeof obj(vocab)[name] === 'number') return obj(vocab)[name] as number;
  return 0;
}

/** What config.json, tokenizer.json and the sentence-transformers files say. */
export function readOnnxLayout(json: OnnxLayoutJson, options: OnnxLayoutOptions = {}): OnnxLayout {
  const config = obj(json.config);
  const tokenizer = obj(json.tokenizer);
  if (!tokenizer.model || typeof tokenizer.model !== 'object')
    throw invalid('tokenizer.json', 'it has no "model" (is it a Hugging Face tokenizers file?)');
  const modelType = typeof config.model_type === 'string' ? config.model_type : 'unknown';
  const hiddenSize =
    posInt(config.hidden_size) ?? posInt(config.d_model) ?? posInt(config.dim) ?? posInt(config.n_embd);
  return {
    modelType,
    hiddenSize,
    maxLength: maxLengthOf(json, config, modelType, options.maxLength),
    pooling: options.pooling ?? poolingOf(json.pooling, poolingConfigPath(json.modules)),
    padId: padIdOf(tokenizer, obj(json.tokenizerConfig)),
    nameOrPath:
      typeof config._name_or_path === 'string' && config._name_or_path ? config._name_or_path : null,
  };
}

/**
 * 64 bits of FNV-1a over bytes (two lanes, the standard offset basis and another), continuing
 * from a previous state: the model id's fingerprint. Not cryptographic; it tells models apart.
 */
export function fingerprint(
  bytes: Uint8Array,
  state: [number, number] = [FNV_OFFSET, 0x050c5d1f],
): [number, number] {
  let a = state[0] | 0;
  let b = state[1] | 0;
  for (let i = 0; i < bytes.length; i++) {
    a = Math.imul(a ^ bytes[i], FNV_PRIME);
    b = Math.imul(b ^ bytes[i], 0x01000197);
  }
  return [a >>> 0, b >>> 0];
}

/**
 * The model's id: `onnx:<name>:<16 hex>`, the hex a fingerprint of the ONNX bytes, then the
 * tokenizer's and the settings that change the vectors (pooling, max length), so vectors stored
 * for one model (or one way of running it) are never read as another's.
 */
export function onnxModelId(
  name: string,
  onnx: Uint8Array,
  tokenizer: Uint8Array = new Uint8Array(0),
  settings = '',
): string {
  let state = fingerprint(onnx);
  state = fingerprint(tokenizer, state);
  state = fingerprint(new TextEncoder().encode(settings), state);
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64) || 'model';
  return `onnx:${slug}:${state.map((h) => h.toString(16).padStart(8, '0')).join('')}`;
}

/** Port: the tokenizer (tokenizer.json through a library): ids with or without the special tokens. */
export interface OnnxTokenizer {
  encode(text: string, specialTokens: boolean): number[];
}

/** Text beyond this many code units per allowed token is not tokenized: it could not fit anyway. */
const CHARS_PER_TOKEN = 32;

/** The text cut before tokenizing (at the last space before the bound, when there is one). */
export function clipForTokens(text: string, maxTokens: number): string {
  const bound = maxTokens * CHARS_PER_TOKEN;
  if (text.length <= bound) return text;
  const space = text.lastIndexOf(' ', bound);
  return text.slice(0, space > bound / 2 ? space : bound);
}

/**
 * Ids no longer than max, the special tokens kept: `full` is the text with them, `content()`
 * without; what the template adds before and after the content stays, the content is cut.
 */
export function truncateIds(full: number[], content: () => number[], max: number): number[] {
  if (full.length <= max) return full;
  const inner = content();
  const added = full.length - inner.length;
  let start = 0;
  // the content's place in full: where its first ids follow the template's prefix
  for (; start <= added; start++) {
    let same = true;
    for (let k = 0; k < Math.min(inner.length, 8) && same; k++) same = full[start + k] === inner[k];
    if (same) break;
  }
  if (added < 0 || start > added || max <= added) return full.slice(0, max);
  return [...full.slice(0, start), ...inner.slice(0, max - added), ...full.slice(start + inner.length)];
}

/** One batch's inputs, padded on the right to its longest text. */
export interface OnnxBatch {
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
  positionIds: BigInt64Array;
  batch: number;
  seqLen: number;
}

export function padBatch(rows: readonly number[][], padId: number): OnnxBatch {
  const batch = rows.length;
  const seqLen = Math.max(1, ...rows.map((r) => r.length));
  const n = batch * seqLen;
  const inputIds = new BigInt64Array(n).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(n);
  const positionIds = new BigInt64Array(n);
  rows.forEach((row, b) => {
    for (let t = 0; t < seqLen; t++) positionIds[b * seqLen + t] = BigInt(t);
    // a text without ids is one pad token, unmasked, so that it still has a vector
    const ids = row.length ? row : [padId];
    ids.forEach((id, t) => {
      inputIds[b * seqLen + t] = BigInt(id);
      attentionMask[b * seqLen + t] = 1n;
    });
  });
  return { inputIds, attentionMask, tokenTypeIds: new BigInt64Array(n), positionIds, batch, seqLen };
}

/**
 * The texts' indices in batches: longest first, so texts of a like length share their padding;
 * at most maxBatch texts, and at most tokenBudget ids (padding included), in each.
 */
export function planBatches(lengths: readonly number[], maxBatch = 32, tokenBudget = 8192): number[][] {
  const order = lengths.map((_, i) => i).sort((x, y) => lengths[y] - lengths[x] || x - y);
  const batches: number[][] = [];
  let current: number[] = [];
  let width = 1;
  for (const i of order) {
    // the first text is the longest: the batch's width
    if (current.length && (current.length >= maxBatch || (current.length + 1) * width > tokenBudget)) {
      batches.push(current);
      current = [];
    }
    if (!current.length) width = Math.max(1, lengths[i]);
    current.push(i);
  }
  if (current.length) batches.push(current);
  return batches;
}

/**
 * Text b's vector from the output, pooled and l2-normalised into out at b * hidden: [batch, seq,
 * hidden] pooled over the mask, or [batch, hidden] (already pooled) as it is.
 */
export function poolInto(
  output: OnnxOutput,
  mask: BigInt64Array,
  seqLen: number,
  pooling: OnnxPooling,
  out: Float32Array,
  at: number,
  b: number,
): void {
  const { data, dims } = output;
  const hidden = dims[dims.length - 1];
  const v = new Float64Array(hidden);
  if (dims.length === 2) {
    for (let j = 0; j < hidden; j++) v[j] = data[b * hidden + j];
  } else {
    const base = b * seqLen;
    let count = 0;
    let last = 0;
    if (pooling === 'max') v.fill(-Infinity);
    for (let t = 0; t < seqLen; t++) {
      if (mask[base + t] === 0n) continue;
      const row = (base + t) * hidden;
      if (pooling === 'cls' && count > 0) break;
      count++;
      last = t;
      for (let j = 0; j < hidden; j++)
        v[j] = pooling === 'max' ? Math.max(v[j], data[row + j]) : v[j] + data[row + j];
    }
    if (pooling === 'last') {
      const row = (base + last) * hidden;
      for (let j = 0; j < hidden; j++) v[j] = data[row + j];
    } else if (pooling === 'mean' && count > 0) {
      for (let j = 0; j < hidden; j++) v[j] /= count;
    } else if (count === 0) v.fill(0);
  }
  let norm = 0;
  for (let j = 0; j < hidden; j++) norm += v[j] * v[j];
  norm = Math.sqrt(norm);
  for (let j = 0; j < hidden; j++) out[at + j] = norm > 0 ? v[j] / norm : 0;
}

/** The output read: token vectors by their usual names, else the pooled sentence vector, else the first. */
export function chooseOutput(names: readonly string[], asked?: string): string {
  if (asked) {
    if (!names.includes(asked))
      throw new QuarryError(
        'InvalidArgument',
        `The model has no output "${asked}" (it has ${names.join(', ')})`,
        {
          field: 'output',
          value: asked,
        },
      );
    return asked;
  }
  for (const name of ['last_hidden_state', 'token_embeddings', 'sentence_embedding'])
    if (names.includes(name)) return name;
  if (!names.length) throw new QuarryError('Unreadable', 'The ONNX model has no outputs', {});
  return names[0];
}

const FILLED = new Set(['input_ids', 'attention_mask', 'token_type_ids', 'position_ids']);

/** The feeds for the graph's inputs (input_ids, attention_mask, token_type_ids, position_ids). */
export function feedsFor(inputNames: readonly string[], batch: OnnxBatch): Record<string, OnnxInput> {
  const dims = [batch.batch, batch.seqLen];
  const all: Record<string, BigInt64Array> = {
    input_ids: batch.inputIds,
    attention_mask: batch.attentionMask,
    token_type_ids: batch.tokenTypeIds,
    position_ids: batch.positionIds,
  };
  const feeds: Record<string, OnnxInput> = {};
  for (const name of inputNames) feeds[name] = { data: all[name], dims };
  return feeds;
}

/** The graph's inputs checked: input_ids is needed, and nothing Quarry cannot fill. */
export function checkInputs(inputNames: readonly string[], file: string): void {
  if (!inputNames.includes('input_ids'))
    throw invalid(file, `the model has no input_ids input (its inputs: ${inputNames.join(', ') || 'none'})`);
  const unknown = inputNames.filter((n) => !FILLED.has(n));
  if (unknown.length)
    throw invalid(
      file,
      `the model needs ${unknown.join(', ')}, which Quarry cannot fill (it fills ${[...FILLED].join(', ')})`,
    );
}

export interface OnnxEmbeddingParts {
  id: string;
  layout: OnnxLayout;
  tokenizer: OnnxTokenizer;
  runner: OnnxRunner;
  /** The ONNX file's path, for messages. */
  file: string;
  output?: string;
  maxBatch?: number;
  tokenBudget?: number;
}

function outputError(file: string, output: string, out: OnnxOutput, batch: OnnxBatch): QuarryError | null {
  const d = out.dims;
  const ok =
    (d.length === 3 && d[0] === batch.batch && d[1] === batch.seqLen && d[2] > 0) ||
    (d.length === 2 && d[0] === batch.batch && d[1] > 0);
  if (ok && out.data.length === d.reduce((a, x) => a * x, 1)) return null;
  return invalid(
    file,
    `output ${output} has shape [${d.join(', ')}] for a batch of ${batch.batch} × ${batch.seqLen}; ` +
      'Quarry reads [batch, sequence, hidden] or [batch, hidden]',
  );
}

/**
 * The model as core's EmbeddingModel. A probe text is embedded first: it checks the graph runs
 * with these inputs and gives the dims (which must agree with config.json's hidden size when the
 * output is per token). Runs go one at a time (onnxruntime-web refuses overlapping runs).
 */
export async function openOnnxEmbedding(parts: OnnxEmbeddingParts): Promise<EmbeddingModel> {
  const { layout, tokenizer, runner, file } = parts;
  checkInputs(runner.inputNames, file);
  const output = chooseOutput(runner.outputNames, parts.output);
  let queue: Promise<unknown> = Promise.resolve();
  let dims = 0;

  const idsOf = (text: string): number[] => {
    const clipped = clipForTokens(text, layout.maxLength);
    return truncateIds(
      tokenizer.encode(clipped, true),
      () => tokenizer.encode(clipped, false),
      layout.maxLength,
    );
  };

  const runBatch = async (rows: number[][]): Promise<{ out: OnnxOutput; batch: OnnxBatch }> => {
    const batch = padBatch(rows, layout.padId);
    let out: OnnxOutput;
    try {
      out = await runner.run(feedsFor(runner.inputNames, batch), output);
    } catch (err) {
      if (err instanceof QuarryError) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw new QuarryError('EngineError', `${file}: the model failed to run (${why})`, { file });
    }
    const bad = outputError(file, output, out, batch);
    if (bad) throw bad;
    return { out, batch };
  };

  const embedNow = async (texts: readonly string[]): Promise<Float32Array> => {
    const ids = texts.map(idsOf);
    const vectors = new Float32Array(texts.length * dims);
    for (const group of planBatches(
      ids.map((r) => r.length),
      parts.maxBatch,
      parts.tokenBudget,
    )) {
      const { out, batch } = await runBatch(group.map((i) => ids[i]));
      const hidden = out.dims[out.dims.length - 1];
      if (hidden !== dims)
        throw invalid(
          file,
          `output ${output} gave ${hidden} values a vector, not the ${dims} it gave before`,
        );
      group.forEach((i, b) =>
        poolInto(out, batch.attentionMask, batch.seqLen, layout.pooling, vectors, i * dims, b),
      );
    }
    return vectors;
  };

  const probe = await runBatch([idsOf('quarry')]);
  dims = probe.out.dims[probe.out.dims.length - 1];
  if (probe.out.dims.length === 3 && layout.hiddenSize !== null && layout.hiddenSize !== dims)
    throw invalid(
      file,
      `output ${output} has ${dims} values a token but config.json says ${layout.hiddenSize}`,
    );

  return {
    id: parts.id,
    dims,
    embed(texts: readonly string[]): Promise<Float32Array> {
      if (!texts.length) return Promise.resolve(new Float32Array(0));
      const run = queue.then(() => embedNow(texts));
      queue = run.catch(() => undefined);
      return run;
    },
    dispose() {
      runner.dispose?.();
    },
  };
}
