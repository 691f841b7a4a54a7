/** Loads the demo files emitted by the `quarry-demo` Vite plugin (a JSON asset, fetched on demand) and the demo's index built with them. */
import type { DemoFiles } from './demo';

export async function loadDemoFiles(): Promise<DemoFiles> {
  const mod = await import('virtual:quarry-demo');
  return mod.default();
}

/** The demo's stored code index as the build made it (scripts/demo-index.ts); null in dev. */
export async function loadDemoIndex(): Promise<Uint8Array | null> {
  const mod = await import('virtual:quarry-demo');
  return mod.loadIndex();
}
