#!/usr/bin/env bash
# Every test Quarry has, from a fresh clone: installs what is missing, then
# lint (ESLint with the layer rules, Prettier --check, both tsc projects), unit/integration
# tests (vitest), the production build, and the Playwright e2e suite in Debian Chromium; lint and
# the build run beside the unit tests at a lower priority.
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

# Lint (ESLint with the layer rules, Prettier --check, both tsc projects: scripts/lint.sh) and the
# production build run beside the unit tests, at a lower CPU priority: the tests keep the cores
# they use, and these take what the tests leave idle (vitest's tail, the e2e timing project's one
# worker, waits on git and child processes). The build (nice 10) comes before lint (nice 19), since
# the e2e suite waits for it. Lint's verdict is printed once it has ended, and fails the run.
logs=$(mktemp -d)
set -m # each background job in a process group of its own, so an early exit stops all of it
nice -n 19 npm run --silent lint >"$logs/lint" 2>&1 &
lint_pid=$!
nice -n 10 npm run --silent build >"$logs/build" 2>&1 &
build_pid=$!
set +m
trap 'kill -- -$lint_pid -$build_pid 2>/dev/null; rm -rf "$logs"' EXIT
lint_done=""
# Print lint's output and stop the run when it failed (once it has ended, or waiting for it with --wait).
lint_verdict() {
  [ -n "$lint_done" ] && return 0
  if [ "${1:-}" != "--wait" ] && kill -0 "$lint_pid" 2>/dev/null; then return 0; fi
  lint_done=1
  echo "== lint (eslint + prettier + types)"
  if wait "$lint_pid"; then cat "$logs/lint"; else cat "$logs/lint"; echo "lint failed"; exit 1; fi
}
echo "== lint and build: started beside the unit tests (lower priority; lint's verdict follows when it ends)"

echo "== unit and integration tests"
npx vitest run
lint_verdict

echo "== build"
wait "$build_pid" || { cat "$logs/build"; echo "build failed"; exit 1; }
grep -v '^\s*$' "$logs/build" | tail -n 3
lint_verdict

# Free ports for the app's preview server and the local git server, so two runs on one machine never collide.
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
export E2E_PORT="${E2E_PORT:-$(free_port)}"
export GIT_PORT="${GIT_PORT:-$(free_port)}"
echo "== e2e (Playwright, Chromium; app on 127.0.0.1:$E2E_PORT, git server on 127.0.0.1:$GIT_PORT)"
npx playwright test
lint_verdict --wait
