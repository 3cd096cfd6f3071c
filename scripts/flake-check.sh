#!/usr/bin/env bash
# scripts/flake-check.sh N [--busy] [--all]: N fresh clones of this repository's HEAD in a
# row, each `npm ci` and then the tier asked for, as a newcomer (and CI) would run them:
# `npm test` (the quick tier) by default, `npm run test:all` (the quick tier and test/all/,
# what .ci/run runs) with --all; --busy keeps one CPU busy with a loop pinned to it for the
# whole of each run (taskset -c 0). Prints one line per clone (pass or FAIL, tests, time)
# and a total; logs stay in the folder it names. Exit 1 when any run failed.
#
# It measures nothing but whether the suite is green: run it alone (no benchmark beside it).
set -uo pipefail
usage() { echo "usage: scripts/flake-check.sh N [--busy] [--all]" >&2; exit 2; }
n=${1:-10}
case "$n" in '' | *[!0-9]*) usage ;; esac
[ $# -gt 0 ] && shift
busy=
tier=test
for arg in "$@"; do
  case "$arg" in
    --busy) busy=--busy ;;
    --all) tier=test:all ;;
    *) usage ;;
  esac
done
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse HEAD)
logs=$(mktemp -d /tmp/ctxbench-flake-XXXXXX)
# mktemp's folder is private (0700); the embedded PostgreSQL runs as the user postgres and
# must reach its binaries inside each clone, as it can in an ordinary checkout.
chmod 755 "$logs"
# The seeds the reference tests quote, as CI lays them beside its clone (../shared/seeds).
seeds="$repo/../shared/seeds"
[ -d "$seeds" ] && export CTXBENCH_SEEDS="$seeds"
loop_pid=
stop_loop() { [ -n "$loop_pid" ] && kill "$loop_pid" 2>/dev/null; loop_pid=; }
trap 'stop_loop; exit 130' INT TERM
echo "flake-check: $n fresh clones of ${commit:0:7}, npm run $tier${busy:+, CPU 0 kept busy}; logs in $logs"
# How fast the machine is today (bench/processes/fingerprint.js on the servers' Node), so that tier
# durations from different days can be told apart from the suite's own growth.
( cd "$repo" && node -e "
  const { resolveNode, DEFAULT_MAJOR } = require('./lib/node-versions');
  const { fingerprint } = require('./bench/processes/fingerprint');
  resolveNode(DEFAULT_MAJOR)
    .then((n) => fingerprint({ launch: { nodePath: n.path } }))
    .then((f) => console.log('machine: ' + f.cpuUsPerRequest.toFixed(0) + ' µs of server CPU a request ('
      + f.what + ')'))
    .catch((e) => console.log('machine: no fingerprint (' + e.message.split('\\n')[0] + ')'));
" ) || true
failed=0
for i in $(seq 1 "$n"); do
  dir="$logs/clone-$i"
  git clone -q "$repo" "$dir" && git -C "$dir" checkout -q "$commit"
  [ -n "$busy" ] && { taskset -c 0 sh -c 'while :; do :; done' & loop_pid=$!; }
  start=$(date +%s)
  ( cd "$dir" && npm ci --no-audit --no-fund >"$logs/npm-ci-$i.log" 2>&1 )
  rc=$?
  tests_start=$(date +%s)
  [ $rc -eq 0 ] && { ( cd "$dir" && npm run "$tier" >"$logs/test-$i.log" 2>&1 ); rc=$?; }
  secs=$(( $(date +%s) - start ))
  test_secs=$(( $(date +%s) - tests_start ))
  stop_loop
  counts=$(grep -E '^# (pass|fail|skipped) ' "$logs/test-$i.log" 2>/dev/null | awk '{printf "%s %s ", $3, $2}')
  if [ $rc -eq 0 ]; then verdict=pass; else verdict=FAIL; failed=$((failed + 1)); fi
  echo "run $i: $verdict in ${secs}s, npm run $tier ${test_secs}s of it (${counts% }) log $logs/test-$i.log"
  rm -rf "$dir"
done
echo "flake-check: $((n - failed))/$n green (npm run $tier)${busy:+ with CPU 0 busy}"
[ $failed -eq 0 ]
