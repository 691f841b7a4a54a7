/** Where an ONNX model runs: the adapter chosen under each preference, over fake browser scopes. */
import { describe, expect, it } from 'vitest';
import {
  gpuDeviceOf,
  isSoftwareAdapter,
  webGpuAdapterFor,
  type EmbedDevice,
  type GpuAdapterLike,
} from './embed-device';

const hardware: GpuAdapterLike = { info: { isFallbackAdapter: false, vendor: 'acme' } };
const software: GpuAdapterLike = { info: { isFallbackAdapter: true, architecture: 'swiftshader' } };

/** A browser scope: its WebGPU (an adapter, none, or a failing request) and whether it has JSPI. */
function scope(adapter: GpuAdapterLike | null | 'throws' | 'no-gpu', jspi = true) {
  const asked: unknown[] = [];
  const gpu = {
    requestAdapter(options?: unknown) {
      asked.push(options);
      return adapter === 'throws' ? Promise.reject(new Error('lost')) : Promise.resolve(adapter);
    },
  };
  return {
    asked,
    navigator: adapter === 'no-gpu' ? {} : { gpu },
    WebAssembly: jspi ? { Suspending: function Suspending() {} } : {},
  };
}

describe('webGpuAdapterFor', () => {
  it.each<[string, EmbedDevice, ReturnType<typeof scope>, GpuAdapterLike | null]>([
    ['automatic takes a hardware adapter', 'auto', scope(hardware), hardware],
    ['automatic leaves a software adapter (slower than wasm)', 'auto', scope(software), null],
    ['WebGPU chosen takes a software adapter too', 'webgpu', scope(software), software],
    ['WebGPU chosen takes a hardware adapter', 'webgpu', scope(hardware), hardware],
    ['the CPU chosen asks for no adapter', 'wasm', scope(hardware), null],
    ['no WebGPU in the browser', 'webgpu', scope('no-gpu'), null],
    ['no adapter offered', 'auto', scope(null), null],
    ['an adapter request that fails', 'webgpu', scope('throws'), null],
    ['no JSPI (the WebGPU build needs it)', 'webgpu', scope(hardware, false), null],
  ])('%s', async (_name, device, s, want) => {
    expect(await webGpuAdapterFor(device, s)).toBe(want);
    // the CPU never asks; the others ask once, for the fast adapter
    expect(s.asked).toEqual(
      device === 'wasm' || s.navigator.gpu === undefined || !('Suspending' in s.WebAssembly)
        ? []
        : [{ powerPreference: 'high-performance' }],
    );
  });

  it('reads a software adapter from info, or from the older attribute', () => {
    expect(isSoftwareAdapter(software)).toBe(true);
    expect(isSoftwareAdapter(hardware)).toBe(false);
    expect(isSoftwareAdapter({ isFallbackAdapter: true })).toBe(true);
    expect(isSoftwareAdapter({})).toBe(false);
  });
});

describe('gpuDeviceOf', () => {
  it("asks the adapter for a device with the adapter's own limits, and half precision where it has it", async () => {
    const asked: unknown[] = [];
    const adapter: GpuAdapterLike = {
      limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30, maxTextureDimension2D: 8192 },
      features: { has: (f) => f === 'shader-f16' },
      requestDevice: async (d) => {
        asked.push(d);
        return 'device';
      },
    };
    expect(await gpuDeviceOf(adapter)).toBe('device');
    expect(asked).toEqual([
      {
        requiredLimits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 },
        requiredFeatures: ['shader-f16'],
      },
    ]);
    await expect(gpuDeviceOf({})).rejects.toThrow('cannot make a device');
  });
});
