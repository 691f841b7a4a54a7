/**
 * The built-in demo repository: Quarry's own `src/`, bundled at build time by the
 * `quarry-demo` Vite plugin (vite.config.ts) as a lazily loaded chunk, so a first visit
 * shows every view working on real code without any folder being opened.
 */
import { MemorySource } from '../../core/source/memory';

export const DEMO_NAME = 'quarry';

/** path -> text, as the build plugin emits it. */
export type DemoFiles = Record<string, string>;

export function demoSource(files: DemoFiles): MemorySource {
  return new MemorySource(files, { name: DEMO_NAME, absoluteRoot: `/${DEMO_NAME}` });
}
