#!/usr/bin/env bash
# Lint: ESLint, Prettier --check and both tsc projects, all four at once (each one's output
# printed whole, in that order, once all have ended; the exit code is non-zero when any failed).
# Run together, the system spreads them over the cores: of ~130 CPU seconds, ESLint takes ~50,
# tsc over the app ~40, Prettier ~30 and tsc over core ~10, so two fixed lanes (ESLint beside
# the other three in a row) left one core idle for the last ~30 s.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

names=(eslint prettier tsc tsc-core)
cmds=(
  'npx eslint --max-warnings 0 .'
  'npx prettier --check . --log-level warn'
  'npx tsc -p tsconfig.json'
  'npx tsc -p tsconfig.core.json'
)
pids=()
for i in "${!names[@]}"; do
  bash -c "${cmds[$i]}" >"$out/${names[$i]}" 2>&1 &
  pids+=($!)
done

status=0
for i in "${!names[@]}"; do
  wait "${pids[$i]}" || { status=1; echo "-- ${names[$i]} failed (${cmds[$i]})"; }
  cat "$out/${names[$i]}"
done
[ $status -eq 0 ] && echo "lint: eslint, prettier and both tsc projects pass"
exit $status
