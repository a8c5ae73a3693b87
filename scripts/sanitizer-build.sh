#!/usr/bin/env bash
# Configures (once) and builds the instrumented build in build-sanitizers/:
# clang-22 -O1 with AddressSanitizer, UndefinedBehaviorSanitizer and
# libFuzzer's coverage instrumentation on the whole project, the fuzz target
# norm-fuzz included. Used by scripts/test-sanitizers.sh and scripts/fuzz.sh.
#   scripts/sanitizer-build.sh [cmake targets...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
san_build=${NORM_SANITIZER_BUILD_DIR:-$root/build-sanitizers}

# setup.sh installs the packages (libclang-rt-22-dev holds the sanitizer
# and libFuzzer runtimes), configures the first time with these flags added,
# and builds.
sanitize="-fsanitize=address,undefined,fuzzer-no-link"
sanitize+=" -fno-sanitize-recover=all -fno-omit-frame-pointer"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(norm-opt norm-run norm-fuzz)
# -O1 in place of -O3: the sanitizers' usual level, and about half the
# compile time.
NORM_BUILD_DIR=$san_build "$root/scripts/setup.sh" \
  -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
  -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" \
  -DCMAKE_MODULE_LINKER_FLAGS="$sanitize" \
  -DNORM_ENABLE_FUZZER=ON \
  "${targets[@]}"
