#!/usr/bin/env bash
# Checks that the C/C++ lines changed since BASE are formatted as
# .clang-format (LLVM style) says, with clang-format-22. Only changed lines
# are checked, so older code is reformatted when it is next edited, not in
# one sweeping commit.
#   scripts/check-format.sh [BASE]
# BASE defaults to the commit that added .clang-format; committed and
# uncommitted changes since then are checked. Exits 1 and prints the diff
# that clang-format wants when a changed line is not formatted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
formatter=clang-format-22
if ! command -v "$formatter" >/dev/null || ! command -v git >/dev/null ||
   ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "check-format: skipped (needs git, a checkout and $formatter)"
  exit 0
fi
base=${1:-$(git log --diff-filter=A --format=%H -- .clang-format | tail -n 1)}
if [ -z "$base" ] || ! git rev-parse --verify -q "$base^{commit}" >/dev/null; then
  echo "check-format: skipped (no base commit: a shallow clone?)"
  exit 0
fi
# clang-format-diff exits 1 when it wants changes; its diff is what counts.
wanted=$(git diff -U0 --no-color "$base" -- '*.cpp' '*.h' '*.c' |
         "clang-format-diff-${formatter#clang-format-}" -p1 \
           -binary "$(command -v "$formatter")") || true
if [ -n "$wanted" ]; then
  echo "check-format: lines changed since ${base:0:7} are not clang-formatted:"
  echo "$wanted"
  exit 1
fi
echo "check-format: the C++ lines changed since ${base:0:7} are formatted"
