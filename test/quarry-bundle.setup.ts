/**
 * Vitest global setup: bundle the `quarry` bin once, before any test file runs. bin/quarry.mjs
 * bundles src/ with esbuild on its first run (and again whenever a file under src/ is newer than
 * the bundle); on a fresh clone every test file that spawns the bin would otherwise find the
 * bundle missing at the same moment, build it side by side, and could import a half-written one.
 * A bundle that does not build fails the tests that spawn the bin (with esbuild's message), not
 * the whole run: this only warns.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const DONE = Symbol.for('quarry.bundle-setup');

export default function setup(): void {
  // Vitest runs a global setup for the root config and again for each project: once is enough
  const g = globalThis as { [DONE]?: boolean };
  if (g[DONE]) return;
  g[DONE] = true;
  const bin = fileURLToPath(new URL('../bin/quarry.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) console.warn(`bundling the quarry bin failed (${r.status ?? r.signal}):\n${r.stderr}`);
}
