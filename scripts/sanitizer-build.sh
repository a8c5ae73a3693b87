#!/usr/bin/env bash
# Configures (once) and builds the instrumented build in build-sanitizers/:
# clang-22 -O1 with AddressSanitizer, UndefinedBehaviorSanitizer and
# libFuzzer's coverage instrumentation on the whole project, the fuzz target
# norm-fuzz included. Used by scripts/test-sanitizers.sh and scripts/fuzz.sh.
#   scripts/sanitizer-build.sh [cmake targets...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
san_build=${NORM_SANITIZER_BUILD_DIR:-$root/build-sanitizers}

# The packages (libclang-rt-22-dev holds the sanitizer and libFuzzer
# runtimes).
"$root/scripts/setup.sh" --install-only

llvm_prefix=$(llvm-config-22 --prefix)
if [ ! -f "$san_build/build.ninja" ]; then
  sanitize="-fsanitize=address,undefined,fuzzer-no-link"
  sanitize+=" -fno-sanitize-recover=all -fno-omit-frame-pointer"
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # -O1 in place of -O3: the sanitizers' usual level, and about half the
  # compile time.
  cmake -G Ninja -S "$root" -B "$san_build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
    -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
    -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" \
    -DCMAKE_MODULE_LINKER_FLAGS="$sanitize" \
    -DNORM_ENABLE_FUZZER=ON \
    -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" \
    "${launcher[@]}" >/dev/null
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(norm-opt norm-run norm-fuzz)
cmake --build "$san_build" --target "${targets[@]}"
