#!/usr/bin/env bash
# Lint in two lanes, one per core: ESLint beside Prettier --check and both tsc projects (each
# lane's output printed whole when it ends; the exit code is non-zero when any check failed).
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

( npx eslint --max-warnings 0 . ) >"$out/eslint" 2>&1 &
a=$!
( npx prettier --check . --log-level warn && npx tsc -p tsconfig.json && npx tsc -p tsconfig.core.json ) >"$out/types" 2>&1 &
b=$!

status=0
wait $a || { status=1; echo "-- eslint failed"; }
cat "$out/eslint"
wait $b || { status=1; echo "-- prettier or tsc failed"; }
cat "$out/types"
[ $status -eq 0 ] && echo "lint: eslint, prettier and both tsc projects pass"
exit $status
