#!/usr/bin/env bash
# Installs what is missing, builds everything the tests need and runs the
# whole lit suite (lit's summary is the last line printed), after checking
# that the C++ lines changed since .clang-format came are formatted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NORM_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" norm-test-depends
"$root/scripts/check-format.sh"
exec "$(llvm-config-22 --bindir)/lit" -sv "$build/test"
