#!/usr/bin/env bash
# Renders the report from the committed results twice — with the code of BASE (default:
# c7da556, where issue 59's refactoring started) and with the working tree — and diffs
# results.md, every page and index.html. Run once at a change that must not alter what a
# user reads; it is not a test (it reads the committed results). Exit 0: identical.
set -euo pipefail
top=$(git rev-parse --show-toplevel)
base=${1:-c7da556}
tmp=$(mktemp -d)
trap 'git -C "$top" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$top" worktree add --detach "$tmp/base" "$base" >/dev/null 2>&1
ln -s "$top/node_modules" "$tmp/base/node_modules"
# Both render the same inputs: the committed results of the base.
cp -r "$tmp/base/results" "$tmp/in"
(cd "$tmp/base" && node bin/ctxbench.js report --results "$tmp/in" --out "$tmp/a/results.md" 2>/dev/null) &
(cd "$top" && node bin/ctxbench.js report --results "$tmp/in" --out "$tmp/b/results.md" 2>/dev/null) &
wait
if diff -r "$tmp/a" "$tmp/b" >"$tmp/diff"; then
  echo "report-identical: results.md, $(ls "$tmp/a/results" | grep -c '\.md$') pages and index.html identical to $base's"
else
  echo "report-identical: differs from $base's ($(grep -c '^[<>]' "$tmp/diff") lines):"
  head -n 60 "$tmp/diff"
  exit 1
fi
