/**
 * Where an ONNX embedding model runs in the browser: on the GPU through WebGPU, or on the CPU
 * (onnxruntime-web's wasm build). The person's choice is kept in this browser's private storage
 * (beside their own model, adapters/browser/opfs-model.ts) so the embedding workers read it too:
 *   auto    WebGPU when the browser offers a hardware adapter, else the CPU. A software adapter
 *           (SwiftShader, `isFallbackAdapter`) is slower than wasm, so automatic never takes one.
 *   webgpu  WebGPU whenever there is an adapter, a software one included.
 *   wasm    the CPU always.
 * onnxruntime-web's WebGPU build suspends wasm on GPU work through JSPI (WebAssembly.Suspending,
 * Chromium 137 on): without it, the CPU. A WebGPU that fails to start a session falls back to the
 * CPU too (embed-onnx.ts), and the results say which ran.
 */
import { opfsRoot } from './opfs-model';

export type EmbedDevice = 'auto' | 'webgpu' | 'wasm';

const EMBED_DEVICES: readonly EmbedDevice[] = ['auto', 'webgpu', 'wasm'];

/** The file in the origin-private root that holds the choice ('auto' when there is none). */
const EMBED_DEVICE_FILE = 'quarry-embed-device';

/** The part of WebGPU asked for here (TypeScript's DOM library has no WebGPU types). */
export interface GpuAdapterLike {
  readonly info?: {
    readonly isFallbackAdapter?: boolean;
    readonly vendor?: string;
    readonly architecture?: string;
  };
  readonly isFallbackAdapter?: boolean;
  readonly limits?: object;
  readonly features?: { has(name: string): boolean };
  requestDevice?(descriptor?: {
    requiredLimits?: Record<string, number>;
    requiredFeatures?: string[];
  }): Promise<unknown>;
}

/**
 * The adapter's limits a model's buffers and kernels may need: the device asks for the adapter's
 * own (a device's defaults are far lower, e.g. 128 MiB a storage binding), as onnxruntime-web
 * does for the devices it makes itself.
 */
const DEVICE_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupsPerDimension',
];

/** A device on `adapter` with its limits (and half-precision shaders where it has them). */
export async function gpuDeviceOf(adapter: GpuAdapterLike): Promise<unknown> {
  if (!adapter.requestDevice) throw new Error('the WebGPU adapter cannot make a device');
  const limits = (adapter.limits ?? {}) as Record<string, unknown>;
  const requiredLimits: Record<string, number> = {};
  for (const key of DEVICE_LIMITS) {
    const value = limits[key];
    if (typeof value === 'number') requiredLimits[key] = value;
  }
  const requiredFeatures = ['shader-f16'].filter((f) => adapter.features?.has(f));
  return adapter.requestDevice({ requiredLimits, requiredFeatures });
}

interface GpuLike {
  requestAdapter(options?: {
    powerPreference?: 'high-performance' | 'low-power';
  }): Promise<GpuAdapterLike | null>;
}

const isDevice = (v: unknown): v is EmbedDevice => EMBED_DEVICES.includes(v as EmbedDevice);

/** The person's choice ('auto' when none was made, or storage is not there). */
export async function embedDevicePreference(): Promise<EmbedDevice> {
  const root = await opfsRoot();
  if (!root) return 'auto';
  try {
    const text = (await (await (await root.getFileHandle(EMBED_DEVICE_FILE)).getFile()).text()).trim();
    return isDevice(text) ? text : 'auto';
  } catch {
    return 'auto';
  }
}

/** Keeps the choice; 'auto' removes it. */
export async function setEmbedDevicePreference(device: EmbedDevice): Promise<void> {
  const root = await opfsRoot();
  if (!root) throw new Error('This browser has no private storage to keep the choice in');
  if (device === 'auto') {
    await root.removeEntry(EMBED_DEVICE_FILE).catch(() => undefined);
    return;
  }
  const w = await (await root.getFileHandle(EMBED_DEVICE_FILE, { create: true })).createWritable();
  await w.write(device);
  await w.close();
}

/** Whether an adapter is a software one (a newer browser says so in `info`). */
export function isSoftwareAdapter(adapter: GpuAdapterLike): boolean {
  return !!(adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter);
}

/**
 * The WebGPU adapter to run on under `device`, or null for the CPU: no WebGPU or JSPI here, no
 * adapter, or (automatic) only a software one.
 */
export async function webGpuAdapterFor(
  device: EmbedDevice,
  scope: { navigator?: unknown; WebAssembly?: unknown } = globalThis,
): Promise<GpuAdapterLike | null> {
  if (device === 'wasm') return null;
  const gpu = (scope.navigator as { gpu?: GpuLike } | undefined)?.gpu;
  const jspi = typeof (scope.WebAssembly as { Suspending?: unknown } | undefined)?.Suspending === 'function';
  if (!gpu || !jspi) return null;
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
  if (!adapter) return null;
  return device === 'auto' && isSoftwareAdapter(adapter) ? null : adapter;
}
