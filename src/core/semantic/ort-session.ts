/**
 * An onnxruntime module (onnxruntime-node or onnxruntime-web: both have onnxruntime-common's API)
 * as core's OnnxRuntime port. Core imports no runtime: the module is passed in by the adapter
 * (adapters/node/onnx-files.ts, adapters/browser/onnx-runner.ts), whose only runtime-specific
 * step is that, with its session options. These interfaces are the part of the API used here.
 */
import type { OnnxRunner, OnnxRuntime } from './port';

/** What ortRuntime needs of an onnxruntime module (onnxruntime-node's and onnxruntime-web's both fit). */
export interface OrtTensorLike {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}

export interface OrtSessionLike {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensorLike>, fetches: string[]): Promise<Record<string, OrtTensorLike>>;
  release(): Promise<void>;
}

export interface OrtModule<SessionOptions> {
  Tensor: new (type: 'int64', data: BigInt64Array, dims: readonly number[]) => OrtTensorLike;
  InferenceSession: { create(model: Uint8Array, options?: SessionOptions): Promise<OrtSessionLike> };
}

/** An OnnxRuntime on an onnxruntime module: its sessions as core's OnnxRunner. */
export function ortRuntime<SessionOptions>(
  ort: OrtModule<SessionOptions>,
  options?: SessionOptions,
): OnnxRuntime {
  return {
    async createRunner(model: Uint8Array): Promise<OnnxRunner> {
      const session = await ort.InferenceSession.create(model, options);
      return {
        inputNames: session.inputNames,
        outputNames: session.outputNames,
        async run(feeds, output) {
          const tensors: Record<string, OrtTensorLike> = {};
          for (const [name, input] of Object.entries(feeds))
            tensors[name] = new ort.Tensor('int64', input.data, input.dims);
          const result = (await session.run(tensors, [output]))[output];
          if (!result) throw new Error(`the run gave no ${output}`);
          if (result.type !== 'float32' || !(result.data instanceof Float32Array))
            throw new Error(`output ${output} is ${result.type}; Quarry reads float32 outputs`);
          return { data: result.data, dims: result.dims };
        },
        dispose() {
          void session.release().catch(() => undefined);
        },
      };
    },
  };
}
