import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// base './' so the built site works from any path on any static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
