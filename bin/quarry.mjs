#!/usr/bin/env node
// `npx quarry` right after `npm install`, with no build step: the CLI's TypeScript is bundled
// with esbuild into node_modules/.cache/quarry/cli.mjs on first use (and again whenever a
// file under src/, this file or the installed packages are newer), which starts ~5x faster than
// transpiling through a loader each run.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..');
const out = join(root, 'node_modules', '.cache', 'quarry', 'cli.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** When the bundle was last due: the sources, the build below, and (for the packages bundled in) the last install. */
function sourcesMtime() {
  const lock = join(root, 'node_modules', '.package-lock.json');
  return Math.max(
    newestMtime(join(root, 'src')),
    statSync(self).mtimeMs,
    existsSync(lock) ? statSync(lock).mtimeMs : 0,
  );
}

/**
 * Packages bundled into cli.mjs instead of loaded from node_modules on every start: the MCP SDK
 * (with zod and ajv) and isomorphic-git are hundreds of small modules, ~0.25 s of CPU at each
 * start of any command (quarry call: ~0.7 s -> ~0.45 s). The rest stay external (the grammar
 * and model packages are read from node_modules by path).
 */
const BUNDLED = /^(@modelcontextprotocol\/sdk|isomorphic-git)(\/|$)/;

if (!existsSync(out) || statSync(out).mtimeMs < sourcesMtime()) {
  const esbuild = await import('esbuild');
  // the CLI, its parsing and search threads and its embedding thread (parse-pool.ts, search-pool.ts and embed-pool.ts start them beside cli.mjs)
  await esbuild.build({
    entryPoints: {
      cli: join(root, 'src', 'cli', 'index.ts'),
      'parse-thread': join(root, 'src', 'adapters', 'node', 'parse-thread.ts'),
      'search-thread': join(root, 'src', 'adapters', 'node', 'search-thread.ts'),
      'embed-thread': join(root, 'src', 'adapters', 'node', 'embed-thread.ts'),
    },
    outdir: dirname(out),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // the CommonJS inside a bundled package requires Node's own modules (buffer, crypto)
    banner: {
      js: "import { createRequire as __quarryCreateRequire } from 'node:module'; const require = __quarryCreateRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'external-packages',
        setup(build) {
          const sources = join(root, 'src') + sep;
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            if (isAbsolute(args.path)) return undefined;
            // a bundled package and what it imports go in; any other package the sources import stays in node_modules
            if (BUNDLED.test(args.path) || !args.importer.startsWith(sources)) return undefined;
            return { path: args.path, external: true };
          });
        },
      },
    ],
    logLevel: 'error',
    absWorkingDir: root,
  });
}
await import(pathToFileURL(out).href);
