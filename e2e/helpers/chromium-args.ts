/**
 * The command line Chromium runs with in the e2e suite (playwright.config.ts) and in the benches
 * that drive the app: Debian's chromium, no sandbox (a container), no GPU, features off, and no
 * way off the machine.
 *
 * Each new browser context opens a window whose omnibox popup is a WebUI page preloaded in a
 * renderer of its own: 1.5-2 s of CPU per context on this machine, more than the app's own first
 * open, in every test (measured from /proc: 2.2 -> 0.4 CPU s per context with them off). The last
 * `--disable-features` on a command line replaces the others, so Playwright's own list
 * (playwright-core's chromiumSwitches) is repeated first.
 */
const DISABLED_FEATURES = [
  // Playwright's defaults
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  // the omnibox popup's WebUI renderer, preloaded for each window
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  'PreloadTopChromeWebUI',
];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  // Nothing leaves the machine: every request goes to a proxy on a port nobody listens on
  // (connection refused at once), except loopback's, which Chromium never sends to a proxy.
  '--proxy-server=http://127.0.0.1:9',
];
