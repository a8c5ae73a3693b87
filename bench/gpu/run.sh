#!/usr/bin/env bash
# GPU benchmark of norm.rms_norm / norm.layer_norm (bf16, f32) through
# --norm-lower-to-nvvm, next to the measured device-to-device copy
# bandwidth, and of the fused RMSNorm -> matmul (bf16, 4096^3 and
# 16x4096x4096) next to cuBLAS / PyTorch. See bench/gpu/README.md.
#
#   bash bench/gpu/run.sh [--out FILE] [--chip sm_90] [--repeat N] [--quick]
#                         [--no-build] [--no-tests]
#
#   --out FILE    report path (default bench/gpu/results/<date>-<host>.md)
#   --chip        GPU architecture for the kernels (default sm_90)
#   --repeat N    timed launches per case (default 50; the median is reported)
#   --quick       4096×4096 and 1×4096 only
#   --no-build    use the existing build/ as is
#   --no-tests    skip the GPU execution tests (test/Integration/GPU)
#   --no-fused    skip the fused norm -> matmul benchmark
#   --fused-only  only the fused norm -> matmul benchmark
#
# Needs an NVIDIA GPU with its driver, the CUDA toolkit (cuda.h, the driver
# stub for linking, ptxas/fatbinary for the fatbin) and the project's build
# in build/ (configured by CMake with the toolkit found, so that
# libnorm_cuda_runtime.so exists).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$ROOT/build
LLVM_BIN=$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)
LLVM_LIB=$(llvm-config-22 --libdir 2>/dev/null || echo /usr/lib/llvm-22/lib)
CUDA=${CUDA_PATH:-/usr/local/cuda}
OUT=""
CHIP=sm_90
REPEAT=50
QUICK=""
BUILD_IT=1
TESTS=1
NORMS=1
FUSED=1

while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --chip) CHIP=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --quick) QUICK=--quick; shift ;;
    --no-build) BUILD_IT=""; shift ;;
    --no-tests) TESTS=""; shift ;;
    --no-fused) FUSED=""; shift ;;
    --fused-only) NORMS=""; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$OUT" ] || OUT=$HERE/results/$(date +%Y-%m-%d)-$(hostname).md

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "run.sh: no NVIDIA GPU (nvidia-smi -L failed); nothing to benchmark" >&2
  exit 1
fi

if [ -n "$BUILD_IT" ]; then
  # Shared machines: builds go through the project's build lock.
  flock /tmp/norm-build.lock ninja -C "$BUILD" norm-test-depends
fi
RUNTIME=$BUILD/lib/libnorm_cuda_runtime.so
if [ ! -f "$RUNTIME" ]; then
  echo "run.sh: $RUNTIME is missing (was the CUDA toolkit found by CMake?)" >&2
  exit 1
fi

if [ -n "$TESTS" ]; then
  echo "== GPU execution tests"
  "$LLVM_BIN/lit" -sv "$BUILD/test/Integration/GPU"
fi

echo "== benchmark helpers"
mkdir -p "$HERE/build"
clang++-22 -std=c++17 -O2 -fPIC -shared -I"$CUDA/include" \
  "$HERE/bench_helpers.cpp" -o "$HERE/build/libbench_helpers.so" \
  -L"$CUDA/lib64/stubs" -lcuda -L"$BUILD/lib" -lnorm_cuda_runtime \
  -Wl,-rpath,"$BUILD/lib"

LIBS="$RUNTIME,$HERE/build/libbench_helpers.so,$LLVM_LIB/libmlir_c_runner_utils.so"
if [ -n "$NORMS" ]; then
  echo "== benchmark: norms"
  python3 "$HERE/bench.py" --norm-opt "$BUILD/bin/norm-opt" \
    --runner "$LLVM_BIN/mlir-runner" --libs "$LIBS" \
    --chip "$CHIP" --repeat "$REPEAT" --out "$OUT" $QUICK
fi
if [ -n "$FUSED" ]; then
  # cuBLAS and PyTorch's unfused norm + matmul through PyTorch when it is
  # importable (with CUDA); the table says so otherwise.
  echo "== benchmark: fused RMSNorm -> matmul"
  python3 "$HERE/bench_fused.py" --norm-opt "$BUILD/bin/norm-opt" \
    --runner "$LLVM_BIN/mlir-runner" --libs "$LIBS" \
    --chip "$CHIP" --repeat "$REPEAT" --out "${OUT%.md}-fused.md"
fi
