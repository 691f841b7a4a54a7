/** Loads the demo files emitted by the `quarry-demo` Vite plugin (a JSON asset, fetched on demand). */
import type { DemoFiles } from './demo';

export async function loadDemoFiles(): Promise<DemoFiles> {
  const mod = await import('virtual:quarry-demo');
  return mod.default();
}
