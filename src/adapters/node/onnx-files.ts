/**
 * An ONNX embedding model in Node: its files read from a folder in the transformers.js layout
 * (never fetched), run on onnxruntime-node. onnxruntime-node is a native module and is imported
 * only when a model is loaded, so hosts that never load one do not need it; when it is missing
 * the load fails with a message that says so.
 */
import * as fs from 'node:fs/promises';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { QuarryError } from '../../core/errors';
import type { EmbeddingModel, OnnxModelFiles, OnnxRuntime } from '../../core/semantic/port';
import type * as OrtNode from 'onnxruntime-node';
import { ortRuntime } from '../../core/semantic/ort-session';
import { loadOnnxModel, type OnnxModelOptions } from '../embed/onnx-model';
import { pickLayoutFiles } from '../../core/semantic/onnx-pick';

/** Files are read in pieces of this size, with progress after each. */
const PIECE = 4 << 20;

async function readWithProgress(
  file: string,
  onProgress?: (loaded: number, total: number) => void,
): Promise<Uint8Array> {
  if (!onProgress) return new Uint8Array(await fs.readFile(file));
  const handle = await fs.open(file, 'r');
  try {
    const total = (await handle.stat()).size;
    const out = new Uint8Array(total);
    let at = 0;
    while (at < total) {
      const { bytesRead } = await handle.read(out, at, Math.min(PIECE, total - at), at);
      if (!bytesRead) break;
      at += bytesRead;
      onProgress(at, total);
    }
    return at === total ? out : out.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/** The layout's files in a folder; a path that leaves the folder is refused. */
export function nodeOnnxFiles(dir: string): OnnxModelFiles {
  const root = path.resolve(dir);
  return {
    name: path.basename(root),
    async read(rel, onProgress) {
      const file = path.resolve(root, rel);
      if (path.isAbsolute(rel) || (file !== root && !file.startsWith(root + path.sep)))
        throw new QuarryError('PathOutsideRoot', `${rel} is not a path inside the model's folder ${root}`, {
          field: 'path',
          value: rel,
        });
      try {
        return await readWithProgress(file, onProgress);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw new QuarryError('Unreadable', `${rel} in ${root} could not be read (${code ?? String(err)})`, {
          file: rel,
        });
      }
    },
  };
}

export interface NodeOnnxOptions {
  /** onnxruntime's threads for one run (default: onnxruntime's own choice, the machine's cores). */
  threads?: number;
}

/** onnxruntime-node as an OnnxRuntime (imported on the first call). */
export async function nodeOnnxRuntime(options: NodeOnnxOptions = {}): Promise<OnnxRuntime> {
  let loaded: typeof OrtNode & { default?: typeof OrtNode };
  try {
    loaded = await import('onnxruntime-node');
  } catch (err) {
    throw new QuarryError(
      'Internal',
      `ONNX models need onnxruntime-node, which could not be loaded (${err instanceof Error ? err.message : String(err)})`,
      { reason: 'semanticUnavailable' },
    );
  }
  // a CommonJS module: its exports are the namespace's or its default's, by the loader
  const ort = loaded.InferenceSession ? loaded : loaded.default!;
  return ortRuntime<OrtNode.InferenceSession.SessionOptions>(ort, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    ...(options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {}),
  });
}

/** The model in a folder, on onnxruntime-node. */
export async function loadNodeOnnxModel(
  dir: string,
  options: OnnxModelOptions & NodeOnnxOptions = {},
): Promise<EmbeddingModel> {
  return loadOnnxModel(nodeOnnxFiles(dir), await nodeOnnxRuntime(options), options);
}

/**
 * The absolute folder of a model given on the command line (--embed-model, QUARRY_EMBED_MODEL),
 * checked before anything runs: a directory with config.json, tokenizer.json and an ONNX export,
 * else an InvalidArgument saying what is missing (the CLI exits 2). What the files hold is read
 * when the model loads.
 */
export function checkNodeOnnxDir(dir: string, flag = '--embed-model'): string {
  const bad = (why: string) =>
    new QuarryError('InvalidArgument', `${flag} ${dir}: ${why}`, { field: 'embed-model', value: dir });
  if (!dir.trim()) throw bad('empty: pass the folder of an ONNX model in the transformers.js layout');
  const root = path.resolve(dir);
  let isDir: boolean;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    throw bad('no such directory');
  }
  if (!isDir) throw bad('not a directory');
  const has = (rel: string) => {
    try {
      return statSync(path.join(root, rel)).isFile();
    } catch {
      return false;
    }
  };
  let modules: unknown;
  if (has('modules.json')) {
    try {
      modules = JSON.parse(readFileSync(path.join(root, 'modules.json'), 'utf8'));
    } catch {
      throw bad('modules.json is not valid JSON');
    }
  }
  try {
    pickLayoutFiles(has, modules, { what: 'the folder' });
  } catch (err) {
    throw bad(err instanceof Error ? err.message.replace(/^the folder /, '') : String(err));
  }
  return root;
}
