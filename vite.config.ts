import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const ROOT = resolve(import.meta.dirname);

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
  return {
    name: 'quarry-demo',
    resolveId: (source) => (source === id ? resolved : null),
    load(loadId) {
      if (loadId !== resolved) return null;
      // JSON.parse of a string literal: far cheaper for V8 than parsing a large object literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(collect()))});`;
    },
  };
}

// base './' so the built site works from any path on any static host.
export default defineConfig({
  base: './',
  plugins: [
    react(),
    quarryDemo(),
    // An installable PWA: the service worker precaches the whole build (app, worker, demo,
    // tree-sitter grammars), so after one visit Quarry and the repositories cloned into
    // IndexedDB work with the network off. Grammars exceed workbox's 2 MiB default.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: {
        name: 'Quarry — explore code in your browser',
        short_name: 'Quarry',
        description: 'Search and explore any code repository entirely in the browser. Nothing leaves the machine.',
        theme_color: '#3451d1',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: './',
        scope: './',
        icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,wasm,svg,json,webmanifest}'],
        maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
        // Never answer the app's own navigations from the network first: offline is the point.
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  worker: { format: 'es', plugins: () => [quarryDemo()] },
  build: { target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
