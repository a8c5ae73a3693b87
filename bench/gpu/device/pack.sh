#!/usr/bin/env bash
# Record phase (on this machine, which has LLVM/MLIR 22 but no GPU): compiles
# ahead of time, into build-device/aot, every program the GPU execution
# tests (test/Integration/GPU/CUDA), the GPU benchmarks (bench/gpu/bench.py,
# bench_fused.py for sm_90 and sm_90a) and the example layers (checked and
# timed) will run on the GPU machine, and packs it as
# build-device/bundle.tar.xz. See README.md beside this file.
#
#   bash bench/gpu/device/pack.sh [--quick]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BUILD=${NORM_BUILD_DIR:-$ROOT/build}
CUDA=${CUDA_PATH:-/usr/local/cuda}
AOT_DIR=$ROOT/build-device/aot
QUICK=""
[ "${1:-}" = --quick ] && QUICK=--quick
source "$HERE/common.sh"

rm -rf "$AOT_DIR" && mkdir -p "$AOT_DIR/lib" "$AOT_DIR/layers"
cp "$HERE/aot.py" "$HERE/aot_shim.c" "$AOT_DIR/"
echo "$QUICK" > "$AOT_DIR/quick"
# lit passes no environment through: the wrapper names the real norm-opt.
AOT_WRAPPER_ENV="export NORM_AOT_NORM_OPT=$BUILD/bin/norm-opt" wrappers record
REC=$AOT_DIR/bin-record

echo "== benchmark helpers"
clang++-22 -std=c++17 -O2 -fPIC -shared -I"$CUDA/include" \
  "$ROOT/bench/gpu/bench_helpers.cpp" -o "$AOT_DIR/lib/libbench_helpers.so" \
  -L"$CUDA/lib64/stubs" -lcuda -L"$BUILD/lib" -lnorm_cuda_runtime \
  -Wl,-rpath,'$ORIGIN'

echo "== GPU execution tests (recorded)"
python3 "$HERE/record_lit.py" "$REC" "$BUILD" "$ROOT"/test/Integration/GPU/CUDA/*.mlir

echo "== example layers"
: > "$AOT_DIR/layers/list.txt"
record_layer() { # record_layer KIND NAME FILE PASSES CHIP [DRIVER-FILTER...]
  local kind=$1 name=$2 file=$3 passes=$4 chip=$5 ir key
  shift 5
  ir=$AOT_DIR/layers/input.mlir
  { cat "$ROOT/$file"; "$@"; } | "$REC/norm-opt" $(layer_passes "$passes") \
    --norm-lower-to-nvvm="$(layer_nvvm_options "$chip")" > "$ir"
  key=$(head -n 1 "$ir" | sed 's|^// AOT-KEY ||')
  "$REC/mlir-runner" -e main -entry-point-result=void \
    -shared-libs="$BUILD/lib/libnorm_test_runtime.so,$BUILD/lib/libnorm_cuda_runtime.so" < "$ir"
  echo "$kind $name $file $passes $chip $key" >> "$AOT_DIR/layers/list.txt"
}
for entry in "${LAYERS[@]}"; do
  set -- $entry
  record_layer check "$@" python3 "$ROOT/examples/gen_examples.py" driver "$1"
done
timed_driver() {
  python3 "$ROOT/examples/gen_examples.py" driver "$1" --size large |
    python3 "$HERE/layer_timing.py" 10
}
for entry in "${TIMED_LAYERS[@]}"; do
  set -- $entry
  record_layer time "$@" timed_driver "$1"
done
cp "$AOT_DIR/recorded.txt" "$AOT_DIR/run-list.txt"

echo "== benchmarks"
before=$(sort -u "$AOT_DIR/recorded.txt" | wc -l)
LIBS=$BUILD/lib/libnorm_cuda_runtime.so,$AOT_DIR/lib/libbench_helpers.so
python3 "$ROOT/bench/gpu/bench.py" --norm-opt "$REC/norm-opt" \
  --runner "$REC/mlir-runner" --libs "$LIBS" --chip sm_90 \
  --repeat $BENCH_REPEAT --out /dev/null $QUICK > /dev/null
for chip in sm_90 sm_90a; do
  python3 "$ROOT/bench/gpu/bench_fused.py" --norm-opt "$REC/norm-opt" \
    --runner "$REC/mlir-runner" --libs "$LIBS" --chip $chip \
    --repeat $BENCH_REPEAT --out /dev/null > /dev/null
done

# bench*.py only report a failed case in their table: count what was made.
if [ "$(sort -u "$AOT_DIR/recorded.txt" | wc -l)" -le "$before" ]; then
  echo "pack: no benchmark program was recorded" >&2
  exit 1
fi
cp "$BUILD/lib/libnorm_cuda_runtime.so" "$BUILD/lib/libnorm_test_runtime.so" \
  "$AOT_DIR/lib/"
rm -f "$AOT_DIR/layers/input.mlir"
tar -C "$ROOT/build-device" -cJf "$ROOT/build-device/bundle.tar.xz" aot
echo "pack: $(sort -u "$AOT_DIR/recorded.txt" | wc -l) programs," \
  "$(du -h "$ROOT/build-device/bundle.tar.xz" | cut -f1) packed"
