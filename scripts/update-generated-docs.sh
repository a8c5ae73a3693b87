#!/usr/bin/env bash
# Copies the docs generated from ODS and Passes.td (build target mlir-doc)
# into docs/generated/, where they are committed. test/Docs/generated-docs.test
# fails when the two drift apart; run this after changing a .td file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target mlir-doc
for f in Dialects/NormDialect.md Dialects/NormOps.md Dialects/NormGradOps.md Dialects/NormAttrs.md NormPasses.md NormConversionPasses.md NormUpstreamPasses.md; do
  cp "$build/docs/$f" "$root/docs/generated/$(basename "$f")"
done
echo "docs/generated updated from $build/docs"
