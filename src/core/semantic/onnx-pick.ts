/**
 * Which files of a model folder in the transformers.js layout Quarry copies or reads: the JSON
 * files the loader reads (config.json, tokenizer.json, and when present tokenizer_config.json,
 * the sentence-transformers files) and ONE ONNX export. Shared by the three places a model comes
 * from: a build (QUARRY_EMBED_MODEL copies these into the deployment), a folder picked in the app
 * (copied into the browser's private storage) and the CLI's --embed-model (checked before use).
 */
import { QuarryError } from '../errors';

/** The ONNX files looked for, in order: the full-precision export first, the int8 one when preferred. */
export function onnxFileCandidates(prefer: 'fp32' | 'quantized' = 'fp32', explicit?: string): string[] {
  if (explicit) return [explicit];
  const fp32 = ['onnx/model.onnx', 'model.onnx'];
  const int8 = ['onnx/model_quantized.onnx', 'model_quantized.onnx'];
  return prefer === 'quantized' ? [...int8, ...fp32] : [...fp32, ...int8];
}

/** The pooling module's folder: modules.json's Pooling entry, else sentence-transformers' default. */
export function poolingConfigPath(modules: unknown): string {
  if (Array.isArray(modules)) {
    for (const m of modules as Array<Record<string, unknown>>) {
      if (
        m &&
        typeof m.type === 'string' &&
        /\.Pooling$/.test(m.type) &&
        typeof m.path === 'string' &&
        m.path
      )
        return `${m.path.replace(/\/+$/, '')}/config.json`;
    }
  }
  return '1_Pooling/config.json';
}

/** The layout's JSON files the loader reads (config.json and tokenizer.json are required). */
export const LAYOUT_JSON_FILES: readonly string[] = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'modules.json',
  'sentence_bert_config.json',
];

export interface LayoutChoice {
  /** The ONNX export the model runs (its path in the layout). */
  onnx: string;
  /** Every file to copy, the ONNX one included (paths relative to the model's folder). */
  files: string[];
}

export interface LayoutPickOptions {
  /** Which export when both are there: int8 is ~4x smaller (the browser's default), fp32 a little closer to the original. */
  prefer?: 'fp32' | 'quantized';
  /** One ONNX file by its path in the layout (QUARRY_EMBED_MODEL_ONNX). */
  onnxFile?: string;
  /** What the folder is called in messages. */
  what?: string;
}

/** A path of the layout: relative, '/'-separated, never leaving the folder. */
export function isLayoutPath(p: string): boolean {
  return (
    p.length > 0 &&
    p.length <= 512 &&
    !p.startsWith('/') &&
    !/\\|\0/.test(p) &&
    p.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

/**
 * The files to copy from a folder that `has` them, or an InvalidArgument naming what is missing
 * (no config.json, no tokenizer.json, no ONNX export). `modules` is modules.json's content when
 * the folder has one (it may put the pooling config elsewhere than 1_Pooling/).
 */
export function pickLayoutFiles(
  has: (path: string) => boolean,
  modules: unknown,
  options: LayoutPickOptions = {},
): LayoutChoice {
  const what = options.what ?? 'The model folder';
  const missing = (file: string, why: string) =>
    new QuarryError(
      'InvalidArgument',
      `${what} has no ${file} (${why}): it is not a model in the transformers.js layout`,
      {
        field: 'model',
        value: file,
      },
    );
  if (options.onnxFile !== undefined && !isLayoutPath(options.onnxFile))
    throw new QuarryError('InvalidArgument', `${options.onnxFile} is not a path inside the model's folder`, {
      field: 'model',
      value: options.onnxFile,
    });
  if (!has('config.json')) throw missing('config.json', 'the model config');
  if (!has('tokenizer.json')) throw missing('tokenizer.json', 'the tokenizer');
  const candidates = onnxFileCandidates(options.prefer, options.onnxFile);
  const onnx = candidates.find(has);
  if (!onnx) throw missing(candidates.join(' or '), 'the ONNX export');
  const files = LAYOUT_JSON_FILES.filter(has);
  const pooling = poolingConfigPath(modules);
  if (isLayoutPath(pooling) && has(pooling)) files.push(pooling);
  files.push(onnx);
  return { onnx, files };
}
