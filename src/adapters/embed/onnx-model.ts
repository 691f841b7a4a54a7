/**
 * A sentence-embedding model the deployer or the user brings, as core's EmbeddingModel: an ONNX
 * export in the transformers.js layout (config.json, tokenizer.json, onnx/model.onnx or
 * onnx/model_quantized.onnx), read through the OnnxModelFiles port. The tokenizer is
 * @huggingface/tokenizers (plain JS, no Node built-ins: it runs in a worker as in Node); the graph
 * runs on an OnnxRuntime (core's ortRuntime over onnxruntime-node or onnxruntime-web: the two share
 * onnxruntime-common's API), so creating the session is the only runtime-specific step.
 * What the layout means (pooling, max length, id, batching) is core's (semantic/onnx-layout.ts).
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { QuarryError } from '../../core/errors';
import {
  onnxFileCandidates,
  onnxModelId,
  openOnnxEmbedding,
  parseLayoutJson,
  poolingConfigPath,
  readOnnxLayout,
  type OnnxPooling,
  type OnnxTokenizer,
} from '../../core/semantic/onnx-layout';
import type {
  EmbeddingModel,
  ModelLoadProgress,
  OnnxModelFiles,
  OnnxRunner,
  OnnxRuntime,
} from '../../core/semantic/port';

export interface OnnxModelOptions {
  /** The model's name in its id (else config.json's _name_or_path, else the files' name). */
  name?: string;
  /** Which export when both are there (default fp32: onnx/model.onnx before onnx/model_quantized.onnx). */
  prefer?: 'fp32' | 'quantized';
  /** One ONNX file by its path in the layout, instead of the usual names. */
  onnxFile?: string;
  /** Instead of what 1_Pooling/config.json says (mean when there is none). */
  pooling?: OnnxPooling;
  /** The longest sequence, special tokens included (never more than the model's positions, nor 512). */
  maxLength?: number;
  /** The output to read (default last_hidden_state, token_embeddings or sentence_embedding). */
  output?: string;
  /** At most this many texts in one run (default 32)... */
  maxBatch?: number;
  /** ...and this many ids, padding included (default 8192). */
  tokenBudget?: number;
  onProgress?: (p: ModelLoadProgress) => void;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** tokenizer.json through @huggingface/tokenizers (tokenizer_config.json gives its special tokens). */
export function hfTokenizer(tokenizerJson: unknown, tokenizerConfig: unknown = {}): OnnxTokenizer {
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(tokenizerJson as object, (tokenizerConfig ?? {}) as object);
  } catch (err) {
    throw new QuarryError(
      'Unreadable',
      `tokenizer.json: not a tokenizer Quarry can load (${describe(err)})`,
      {
        file: 'tokenizer.json',
      },
    );
  }
  return {
    encode: (text, specialTokens) => tokenizer.encode(text, { add_special_tokens: specialTokens }).ids,
  };
}

async function readRequired(files: OnnxModelFiles, file: string, what: string): Promise<Uint8Array> {
  const bytes = await files.read(file);
  if (!bytes)
    throw new QuarryError('NotFound', `The ONNX model ${files.name} has no ${file} (${what})`, { file });
  return bytes;
}

async function readJson(files: OnnxModelFiles, file: string): Promise<unknown> {
  const bytes = await files.read(file);
  return bytes ? parseLayoutJson(file, bytes) : undefined;
}

/** The first ONNX file of the candidates that the layout has, with its bytes. */
async function readOnnx(
  files: OnnxModelFiles,
  options: OnnxModelOptions,
): Promise<{ file: string; bytes: Uint8Array }> {
  const candidates = onnxFileCandidates(options.prefer, options.onnxFile);
  const onProgress = options.onProgress;
  for (const file of candidates) {
    const bytes = await files.read(
      file,
      onProgress ? (loaded, total) => onProgress({ phase: 'model', loaded, total }) : undefined,
    );
    if (bytes) return { file, bytes };
  }
  throw new QuarryError(
    'NotFound',
    `The ONNX model ${files.name} has no ONNX file (looked for ${candidates.join(', ')})`,
    { file: candidates[0] },
  );
}

async function createRunner(runtime: OnnxRuntime, file: string, bytes: Uint8Array): Promise<OnnxRunner> {
  try {
    return await runtime.createRunner(bytes);
  } catch (err) {
    throw new QuarryError('Unreadable', `${file}: the ONNX runtime could not load it (${describe(err)})`, {
      file,
    });
  }
}

/** The model in the layout, loaded and probed (one short text embedded) before it is given. */
export async function loadOnnxModel(
  files: OnnxModelFiles,
  runtime: OnnxRuntime,
  options: OnnxModelOptions = {},
): Promise<EmbeddingModel> {
  const [configBytes, tokenizerBytes, tokenizerConfig, modules, sentenceBert] = await Promise.all([
    readRequired(files, 'config.json', 'the model config'),
    readRequired(files, 'tokenizer.json', 'the tokenizer'),
    readJson(files, 'tokenizer_config.json'),
    readJson(files, 'modules.json'),
    readJson(files, 'sentence_bert_config.json'),
  ]);
  const config = parseLayoutJson('config.json', configBytes);
  const tokenizerJson = parseLayoutJson('tokenizer.json', tokenizerBytes);
  const pooling = await readJson(files, poolingConfigPath(modules));
  const layout = readOnnxLayout(
    { config, tokenizer: tokenizerJson, tokenizerConfig, modules, pooling, sentenceBert },
    { pooling: options.pooling, maxLength: options.maxLength },
  );
  const tokenizer = hfTokenizer(tokenizerJson, tokenizerConfig);
  const onnx = await readOnnx(files, options);
  const runner = await createRunner(runtime, onnx.file, onnx.bytes);
  const name = options.name ?? layout.nameOrPath ?? files.name;
  const settings = `pooling=${layout.pooling};max=${layout.maxLength};output=${options.output ?? ''}`;
  try {
    return await openOnnxEmbedding({
      id: onnxModelId(name, onnx.bytes, tokenizerBytes, settings),
      layout,
      tokenizer,
      runner,
      file: onnx.file,
      output: options.output,
      maxBatch: options.maxBatch,
      tokenBudget: options.tokenBudget,
    });
  } catch (err) {
    runner.dispose?.();
    throw err;
  }
}
