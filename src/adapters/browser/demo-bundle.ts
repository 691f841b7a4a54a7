/** Loads the demo files emitted by the `quarry-demo` Vite plugin (a JSON asset, fetched on demand) and the demo's index built with them. */
import type { DemoFiles } from './demo';

export async function loadDemoFiles(): Promise<DemoFiles> {
  const mod = await import('virtual:quarry-demo');
  return mod.default();
}

/** The demo's stored code index as the build made it (scripts/demo-index.ts); null in dev. */
export async function loadDemoIndex(): Promise<Uint8Array | null> {
  const mod = await import('virtual:quarry-demo');
  const bytes = await mod.loadIndex();
  return bytes && gunzipped(bytes);
}

/**
 * `bytes` unpacked when they are gzip (the build ships the index gzipped); as they are otherwise
 * (a host that sent the file with Content-Encoding: gzip has had the browser unpack it already).
 * Null when the gzip is damaged or the browser has no DecompressionStream: the caller builds.
 */
export async function gunzipped(bytes: Uint8Array): Promise<Uint8Array | null> {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  if (typeof DecompressionStream === 'undefined') return null;
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
      .stream()
      .pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return null;
  }
}
