/**
 * The browser's ONNX runtime (onnxruntime-web, wasm) runs in Node too: the tiny model gives the
 * same vectors on it as on onnxruntime-node, from the same adapter code.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOnnxModel } from '../embed/onnx-model';
import { nodeOnnxFiles, nodeOnnxRuntime } from '../node/onnx-files';
import { HIDDEN, removeModelDir, writeModelDir } from '../embed/onnx-fixture.testutil';
import { browserOnnxRuntime } from './onnx-runner';

const require = createRequire(import.meta.url);
const dir = writeModelDir();
afterAll(() => removeModelDir(dir));

describe('onnxruntime-web as the OnnxRuntime', () => {
  it('gives the vectors onnxruntime-node gives, with the wasm binary it is given', async () => {
    const wasm = path.join(
      path.dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm')),
      'ort-wasm-simd-threaded.wasm',
    );
    const web = await loadOnnxModel(
      nodeOnnxFiles(dir),
      browserOnnxRuntime({ wasmBinary: fs.readFileSync(wasm) }),
    );
    const node = await loadOnnxModel(nodeOnnxFiles(dir), await nodeOnnxRuntime({ threads: 1 }));
    const texts = ['hello', 'Hello, world! unaffable', 'code search the finders', ''];
    const [a, b] = [await web.embed(texts), await node.embed(texts)];
    expect(web.id).toBe(node.id);
    expect(a.length).toBe(texts.length * HIDDEN);
    a.forEach((x, k) => expect(x).toBeCloseTo(b[k], 6));
    const [x, y] = await Promise.all([web.embed(['hello']), web.embed(['world'])]);
    expect(Array.from(x)).toEqual(Array.from(a.subarray(0, HIDDEN)));
    expect(y.length).toBe(HIDDEN);
    web.dispose?.();
    node.dispose?.();
  });
});
