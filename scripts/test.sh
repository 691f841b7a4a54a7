#!/usr/bin/env bash
# Every test Quarry has, from a fresh clone: installs what is missing, then
# lint (ESLint with the layer rules, Prettier --check, both tsc projects), unit/integration
# tests (vitest), the production build, and the Playwright e2e suite in Debian Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing npm dependencies"
  npm ci --no-audit --no-fund
fi

# glibc's malloc hands freed memory back at once; on this kind of VM (a Firecracker guest that
# returns freed pages to the host) a process that allocates and frees by turns pays a fault per
# page: git above all (fast-import of 3,000 commits 4.7 s -> 0.2 s with a 16 MiB pad kept on top of
# the heap). Every process of the run inherits it: git in the tests and in the e2e git server.
export MALLOC_TOP_PAD_="${MALLOC_TOP_PAD_:-16777216}"

# Playwright cannot download its own browsers here: use Debian's chromium, installing it when absent.
find_chromium() {
  for c in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}
if ! CHROMIUM_PATH=$(find_chromium); then
  echo "== installing Debian chromium (apt)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
  CHROMIUM_PATH=$(find_chromium)
fi
export CHROMIUM_PATH
echo "== chromium: $CHROMIUM_PATH"

# ESLint (typescript-eslint, react-hooks, the layer rules in eslint-rules/boundaries.js) beside
# prettier --check and tsc over the app and over core alone (no DOM, no Node types): scripts/lint.sh.
echo "== lint (eslint + prettier + types)"
npm run --silent lint

echo "== unit and integration tests"
npx vitest run

echo "== build"
npm run --silent build

# Free ports for the app's preview server and the local git server, so two runs on one machine never collide.
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
export E2E_PORT="${E2E_PORT:-$(free_port)}"
export GIT_PORT="${GIT_PORT:-$(free_port)}"
echo "== e2e (Playwright, Chromium; app on 127.0.0.1:$E2E_PORT, git server on 127.0.0.1:$GIT_PORT)"
npx playwright test
