#!/usr/bin/env bash
# Runs the whole lit suite with norm-opt and norm-run from the instrumented
# build (ASan + UBSan, scripts/sanitizer-build.sh) in place of the release
# ones, so every test that drives them runs them instrumented. Any report
# fails the test that triggered it: ASan and UBSan abort on their first
# error (so a tool run under `not` fails too) and leaks count.
#   scripts/test-sanitizers.sh [lit arguments, e.g. a test folder]
# The release build (build/) supplies everything else the tests use.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NORM_BUILD_DIR:-$root/build}
san_build=${NORM_SANITIZER_BUILD_DIR:-$root/build-sanitizers}

"$root/scripts/setup.sh" norm-test-depends
"$root/scripts/sanitizer-build.sh" norm-opt norm-run
# norm-run --target=cuda loads libnorm_cuda_runtime.so from beside itself;
# the release build's (built where CMake found the CUDA toolkit) serves.
if [ -f "$build/lib/libnorm_cuda_runtime.so" ]; then
  ln -sf "$build/lib/libnorm_cuda_runtime.so" "$san_build/lib/"
fi

llvm_prefix=$(llvm-config-22 --prefix)
# allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into our
# instrumented code, poisons the slabs it allocates, and the uninstrumented
# libMLIR.so, which hands out memory from the same allocators (the storage
# uniquer's), never unpoisons it: every later access would be a false
# "use-after-poison".
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1}
export ASAN_SYMBOLIZER_PATH=$llvm_prefix/bin/llvm-symbolizer
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("$build/test")
exec "$llvm_prefix/bin/lit" -sv --param norm_tools_dir="$san_build/bin" \
  "${tests[@]}"
