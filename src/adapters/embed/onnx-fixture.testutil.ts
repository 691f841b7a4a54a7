/**
 * A tiny ONNX embedding model the tests write themselves (never downloaded), in the transformers.js
 * layout: a graph made with onnx-proto (input_ids → Gather from an embedding table, plus a token-type
 * table gathered by token_type_ids, → last_hidden_state [batch, seq, hidden]; attention_mask is an
 * input, unused, as in BERT exports), tokenizer.json files for WordPiece, byte-level BPE and
 * Unigram with small vocabularies, and config.json. The tables are small integers, so the
 * expected vectors are plain arithmetic (handVector).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import type * as OnnxProto from 'onnx-proto';

// onnx-proto is CommonJS whose exports Node's ESM loader cannot name (module.exports = $root):
// required, so the fixture loads under tsx and Playwright as under vitest
const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof OnnxProto;

export const HIDDEN = 4;
export const VOCAB = 32;

/** The embedding table: row i, column j. */
export function embeddingValue(i: number, j: number): number {
  return ((i * (j + 1)) % 5) - 2;
}

/** The token-type table: type 0 adds nothing, type 1 adds 100 (a model fed ones would show it). */
export function typeValue(t: number): number {
  return t === 0 ? 0 : 100;
}

/** What the graph and mean pooling give for one text's ids (token type 0), l2-normalised. */
export function handVector(ids: number[], pooling: 'mean' | 'cls' | 'max' = 'mean'): number[] {
  const rows = ids.map((id) => Array.from({ length: HIDDEN }, (_, j) => embeddingValue(id, j)));
  const v = Array.from({ length: HIDDEN }, (_, j) => {
    const col = rows.map((r) => r[j]);
    if (pooling === 'cls') return col[0];
    if (pooling === 'max') return Math.max(...col);
    return col.reduce((a, b) => a + b, 0) / col.length;
  });
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

type Dim = number | string;

function valueInfo(name: string, elemType: number, dims: Dim[]): OnnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  };
}

function floatTensor(
  name: string,
  dims: number[],
  values: (k: number) => number,
): OnnxProto.onnx.ITensorProto {
  const data = Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, k) => values(k));
  return { name, dataType: onnx.TensorProto.DataType.FLOAT, dims, rawData: new Uint8Array(data.buffer) };
}

export interface GraphOptions {
  /** A token_type_ids input (BERT) or none (RoBERTa, DistilBERT). */
  tokenTypes?: boolean;
  /** Token vectors (last_hidden_state) or one pooled vector a text (sentence_embedding: the mean over all positions). */
  output?: 'tokens' | 'pooled';
  /** Added to every table value: another model's bytes. */
  shift?: number;
}

/** The tiny graph's bytes. */
export function tinyGraph(options: GraphOptions = {}): Uint8Array {
  const { tokenTypes = true, output = 'tokens', shift = 0 } = options;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const axis0 = [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }];
  const tokens = tokenTypes ? 'words' : 'last_hidden_state';
  const nodes: OnnxProto.onnx.INodeProto[] = [
    { opType: 'Gather', input: ['embeddings', 'input_ids'], output: [tokens], attribute: axis0 },
  ];
  const initializer = [
    floatTensor(
      'embeddings',
      [VOCAB, HIDDEN],
      (k) => embeddingValue(Math.floor(k / HIDDEN), k % HIDDEN) + shift,
    ),
  ];
  const inputs = [
    valueInfo('input_ids', INT64, ['batch', 'sequence']),
    valueInfo('attention_mask', INT64, ['batch', 'sequence']),
  ];
  if (tokenTypes) {
    initializer.push(floatTensor('token_types', [2, HIDDEN], (k) => typeValue(Math.floor(k / HIDDEN))));
    inputs.push(valueInfo('token_type_ids', INT64, ['batch', 'sequence']));
    nodes.push(
      { opType: 'Gather', input: ['token_types', 'token_type_ids'], output: ['types'], attribute: axis0 },
      { opType: 'Add', input: ['words', 'types'], output: ['last_hidden_state'] },
    );
  }
  const outputs = [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', HIDDEN])];
  if (output === 'pooled') {
    nodes.push({
      opType: 'ReduceMean',
      input: ['last_hidden_state'],
      output: ['sentence_embedding'],
      attribute: [
        { name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [1] },
        { name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 },
      ],
    });
    outputs.splice(0, 1, valueInfo('sentence_embedding', FLOAT, ['batch', HIDDEN]));
  }
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'quarry-test',
    graph: { name: 'tiny', node: nodes, initializer, input: inputs, output: outputs },
  });
  return onnx.ModelProto.encode(model).finish();
}

function added(content: string, id: number) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}

const WORDPIECE_VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  '[MASK]',
  'hello',
  'world',
  'un',
  '##aff',
  '##able',
  ',',
  '!',
  'find',
  '##er',
  'code',
  'search',
  'the',
  'a',
  '##s',
];

/** BERT's tokenizer.json, lowercasing, with the vocabulary above ([CLS] 2, [SEP] 3, hello 5, world 6...). */
export function wordPieceTokenizer(): object {
  const vocab = Object.fromEntries(WORDPIECE_VOCAB.map((t, i) => [t, i]));
  const special = (name: string) => ({ id: name, ids: [vocab[name]], tokens: [name] });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => added(t, vocab[t])),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': special('[CLS]'), '[SEP]': special('[SEP]') },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

const BPE_VOCAB = [
  '<s>',
  '<pad>',
  '</s>',
  '<unk>',
  'c',
  'o',
  'd',
  'e',
  'Ġ',
  's',
  'a',
  'r',
  'h',
  'co',
  'de',
  'code',
  'Ġs',
  'ea',
  'Ġsea',
  'rc',
];

/** RoBERTa-style byte-level BPE: "code search" is <s> code Ġsea rc h </s> = 0 15 18 19 12 2. */
export function bpeTokenizer(): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['<s>', '<pad>', '</s>', '<unk>'].map((t) => added(t, BPE_VOCAB.indexOf(t))),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: {
      type: 'RobertaProcessing',
      sep: ['</s>', 2],
      cls: ['<s>', 0],
      trim_offsets: true,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      vocab: Object.fromEntries(BPE_VOCAB.map((t, i) => [t, i])),
      merges: ['c o', 'd e', 'co de', 'Ġ s', 'e a', 'Ġs ea', 'r c'],
    },
  };
}

/** T5-style Unigram with Metaspace: "code search" is ▁code ▁sea rch </s> = 3 9 10 1. */
export function unigramTokenizer(): object {
  const vocab: Array<[string, number]> = [
    ['<pad>', 0],
    ['</s>', 0],
    ['<unk>', 0],
    ['▁code', -2],
    ['▁', -3],
    ['c', -5],
    ['o', -5],
    ['d', -5],
    ['e', -5],
    ['▁sea', -3],
    ['rch', -3],
  ];
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [added('<pad>', 0), added('</s>', 1), added('<unk>', 2)],
    normalizer: null,
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      pair: [
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
      ],
      special_tokens: { '</s>': { id: '</s>', ids: [1], tokens: ['</s>'] } },
    },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 2, vocab, byte_fallback: false },
  };
}

export function bertConfig(extra: Record<string, unknown> = {}): object {
  return {
    _name_or_path: 'tiny-bert',
    model_type: 'bert',
    hidden_size: HIDDEN,
    max_position_embeddings: 64,
    vocab_size: VOCAB,
    ...extra,
  };
}

/** The files of a model folder: a path to JSON (an object), bytes, or null to leave it out. */
export type ModelDirFiles = Record<string, object | Uint8Array | string | null>;

/** A temp folder with config.json, tokenizer.json and onnx/model.onnx (the BERT-like defaults), changed by `files`. */
export function writeModelDir(files: ModelDirFiles = {}, name = 'tiny'): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-onnx-')), name);
  const all: ModelDirFiles = {
    'config.json': bertConfig(),
    'tokenizer.json': wordPieceTokenizer(),
    'onnx/model.onnx': tinyGraph(),
    ...files,
  };
  for (const [rel, content] of Object.entries(all)) {
    if (content === null) continue;
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      content instanceof Uint8Array || typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return dir;
}

/** Removes a folder writeModelDir made (its temp parent too). */
export function removeModelDir(dir: string): void {
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
}
