import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './e2e/helpers/chromium-args';

/**
 * e2e in Debian Chromium (Playwright cannot download its own browsers here) against the
 * BUILT app (`npm run build` first), served by `vite preview` on 127.0.0.1.
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
/** The local git server (e2e/git-server: git http-backend with CORS, fixture repos built at start). Specs read GIT_PORT. */
process.env.GIT_PORT ??= String(PORT + 4001);
const GIT_PORT = Number(process.env.GIT_PORT);
/** The built app to serve: `dist` (E2E_DIST names another build folder, so two builds can be tested side by side). */
process.env.E2E_DIST ??= 'dist';

export default defineConfig({
  testDir: 'e2e',
  // only our specs: fixture repositories under e2e/fixtures-data contain their own *.test.* files
  testMatch: '*.spec.ts',
  testIgnore: ['**/fixtures-data/**', '**/git-server/**'],
  globalTeardown: './e2e/global-teardown.ts',
  outputDir: 'e2e/output/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two tests at a time (the suite's time on a 2-core machine), taken one by one from every file,
  // so a file of long tests never leaves the other worker idle at the end; the main-thread
  // long-task checks (tagged @timing) run after them, one at a time, in the `timing` project.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: 'e2e/output/report' }]]
    : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    viewport: { width: 1440, height: 900 },
    // Recording a trace doubles a test's time here (the recorder snapshots the DOM around every
    // action): E2E_TRACE=1 records one for each failing test. A failure always leaves its error
    // context (the page's accessibility tree) and a screenshot.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    // The service worker precaches every asset on a first visit, and every test is a first visit:
    // only the specs about offline use and the CSP allow it (test.use in those files).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, grepInvert: /@timing/ },
    {
      name: 'timing',
      use: { browserName: 'chromium' },
      grep: /@timing/,
      dependencies: ['chromium'],
      workers: 1,
    },
  ],
  webServer: [
    {
      command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort --outDir ${process.env.E2E_DIST}`,
      url: `http://127.0.0.1:${PORT}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `npx tsx e2e/git-server/main.ts --port ${GIT_PORT}`,
      url: `http://127.0.0.1:${GIT_PORT}/_control/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
