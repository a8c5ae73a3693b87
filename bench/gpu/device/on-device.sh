#!/usr/bin/env bash
# Device phase (on the GPU machine, which has the driver and Python but no
# LLVM/MLIR): unpacks build-device/bundle.tar.xz (pack.sh), runs every
# recorded test and layer program, then the GPU benchmarks for real through
# aot.py's device wrappers, and writes $OUT/device-results.tar.gz for
# replay.sh. Each step has a time limit, so that a hang costs one step.
#
#   bash bench/gpu/device/on-device.sh            (OUT=<folder> on the device)
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
AOT_DIR=$ROOT/build-device/aot
OUT=${OUT:-$ROOT/build-device/out}
source "$HERE/common.sh"

tar -C "$ROOT/build-device" -xJf "$ROOT/build-device/bundle.tar.xz" || exit 1
wrappers device
DEV=$AOT_DIR/bin-device
RES=$AOT_DIR/res
mkdir -p "$RES" "$OUT"
QUICK=$(cat "$AOT_DIR/quick")
save() { tar -C "$AOT_DIR" -czf "$OUT/device-results.tar.gz" out res; }

{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.max.mem --format=csv; } \
  > "$RES/nvidia-smi.txt" 2>&1
head -n 12 "$RES/nvidia-smi.txt"
echo "== tests and layers"
timeout 240 python3 "$AOT_DIR/aot.py" run-all "$AOT_DIR" \
  "$AOT_DIR/run-list.txt" 60 > "$RES/run-all.txt" 2>&1
tail -n 3 "$RES/run-all.txt"
save
echo "== benchmark: norms"
timeout 120 python3 "$ROOT/bench/gpu/bench.py" --norm-opt "$DEV/norm-opt" \
  --runner "$DEV/mlir-runner" --libs unused --chip sm_90 \
  --repeat $BENCH_REPEAT --out "$RES/norms.md" $QUICK > "$RES/norms.log" 2>&1
tail -n 20 "$RES/norms.log"
save
for chip in sm_90 sm_90a; do
  echo "== benchmark: fused, $chip"
  timeout 150 python3 "$ROOT/bench/gpu/bench_fused.py" \
    --norm-opt "$DEV/norm-opt" --runner "$DEV/mlir-runner" --libs unused \
    --chip $chip --repeat $BENCH_REPEAT --out "$RES/fused-$chip.md" \
    > "$RES/fused-$chip.log" 2>&1
  tail -n 12 "$RES/fused-$chip.log"
  save
done
