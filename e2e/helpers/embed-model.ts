/**
 * Tiny ONNX embedding models for the e2e specs, written by the unit tests' fixture writer
 * (src/adapters/embed/onnx-fixture.testutil.ts: a BERT-shaped graph, tokenizer.json and config.json,
 * never downloaded), and their ids as Node computes them (the same bytes and settings give the
 * browser the same id). Run as a script, it writes the model a build is given and prints its
 * folder:
 *   QUARRY_EMBED_MODEL=$(npx tsx e2e/helpers/embed-model.ts) npx vite build --outDir dist-embed
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bertConfig, tinyGraph, writeModelDir } from '../../src/adapters/embed/onnx-fixture.testutil';
import { loadNodeOnnxModel } from '../../src/adapters/node/onnx-files';

/** The model a user picks in e2e/embed-model.spec.ts. */
export const USER_MODEL = { name: 'e2e-user-model', shift: 1 };
/** The model an e2e build is given (QUARRY_EMBED_MODEL). */
export const DEPLOYED_MODEL = { name: 'e2e-deployed-model', shift: 3 };

/** A temp folder named `name` holding the model (config.json names it too: its id starts onnx:<name>:). */
export function writeTinyModel(model: { name: string; shift: number }): string {
  return writeModelDir(
    {
      'config.json': bertConfig({ _name_or_path: model.name }),
      'onnx/model.onnx': tinyGraph({ shift: model.shift }),
    },
    model.name,
  );
}

/** The model's id, as the app computes it from the same files. */
export async function tinyModelId(dir: string): Promise<string> {
  const model = await loadNodeOnnxModel(dir, { threads: 1 });
  model.dispose?.();
  return model.id;
}

/** Whether a build folder has a deployed model (QUARRY_EMBED_MODEL at build time). */
export function buildHasModel(dist: string): boolean {
  return fs.existsSync(path.join(dist, 'assets', 'embed-model'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(writeTinyModel(DEPLOYED_MODEL) + '\n');
}
