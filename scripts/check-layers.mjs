#!/usr/bin/env node
/**
 * The layer rule (like VS Code's layer check): imports point one way.
 *   core <- adapters <- worker <- ui;  cli uses core + adapters.
 * core may not import node:* modules, DOM/worker-only packages, or any other layer.
 * Test files (*.test.ts) are exempt: they are not shipped.
 * Prints every violation with file and line, exits 1 if there is any.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { builtinModules } from 'node:module';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');
const ALLOWED = {
  core: ['core'],
  adapters: ['core', 'adapters'],
  worker: ['core', 'adapters', 'worker'],
  ui: ['core', 'adapters', 'worker', 'ui'],
  cli: ['core', 'adapters', 'cli'],
};
/** Packages core may use: pure JS that runs unchanged in a worker, Node and the main thread. */
const CORE_PACKAGES = new Set(['ignore', 'picomatch', 're2js', 'web-tree-sitter']);
const BROWSER_ONLY_LAYERS = new Set(['worker', 'ui']);
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|tsx|mts)$/.test(name)) yield p;
  }
}

const layerOf = (abs) => relative(src, abs).split(sep)[0];
const importRe = /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
const violations = [];

for (const file of files(src)) {
  const layer = layerOf(file);
  if (!ALLOWED[layer]) continue;
  // comments are not imports: blank them out (keeping line numbers) before matching
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/[^\n]*/g, (m) => m.replace(/[^\n]/g, ' '));
  // Tests are not shipped: they may reach across layers (e.g. a core test over the Node fs adapter).
  const isTest = /\.(test|testutil)\.tsx?$/.test(file);
  if (isTest) continue;
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const line = text.slice(0, m.index).split('\n').length + (m[0].startsWith('\n') ? 1 : 0);
    const where = `${relative(root, file)}:${line}`;
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(src + sep)) continue;
      const targetLayer = layerOf(target);
      if (!ALLOWED[layer].includes(targetLayer)) violations.push(`${where}: ${layer} may not import ${targetLayer} ('${spec}')`);
    } else if (layer === 'core' && !isTest) {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (builtins.has(spec) || builtins.has(pkg)) violations.push(`${where}: core may not import Node module '${spec}'`);
      else if (!CORE_PACKAGES.has(pkg)) violations.push(`${where}: core may not import '${spec}' (allowed: ${[...CORE_PACKAGES].join(', ')})`);
    } else if (BROWSER_ONLY_LAYERS.has(layer) && !isTest && (builtins.has(spec) || spec.startsWith('node:'))) {
      violations.push(`${where}: ${layer} runs in the browser and may not import '${spec}'`);
    }
  }
}

if (violations.length) {
  console.error(`Layer rule violations (core <- adapters <- worker <- ui; cli uses core + adapters):\n${violations.join('\n')}`);
  process.exit(1);
}
console.log('layers ok');
