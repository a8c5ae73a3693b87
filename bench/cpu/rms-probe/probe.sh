#!/usr/bin/env bash
# Where the large f32 RMSNorm's time goes on an AVX-512 host (issue 32):
# builds the project's RMSNorm f32 kernel ahead of time in three forms
# (default; pipeline-rows=false; both pipelining and prefetch off, also
# with opt's full unrolling capped) with norm-opt, then opt/llc -O3
# -mcpu=$CPU as norm-run's JIT compiles them, links each with driver.c,
# and times them interleaved with the hand-written kernels, ROUNDS rounds,
# pinned to CPU 0. It does not take the build lock: wrap it
# (flock /tmp/norm-build.lock ...). The assembly is left in
# bench/cpu/build/rms-probe/*.s.
#
#   bash bench/cpu/rms-probe/probe.sh [ROUNDS] [--norm-opt PATH] [--cpu NAME]
#       [--shape R,H]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT=$ROOT/bench/cpu/build/rms-probe
NORM_OPT=$ROOT/build/bin/norm-opt
ROUNDS=3
CPU=znver4
R=8192 H=8192
while [ $# -gt 0 ]; do
  case "$1" in
    --norm-opt) NORM_OPT=$2; shift 2 ;;
    --cpu) CPU=$2; shift 2 ;;
    --shape) R=${2%,*}; H=${2#*,}; shift 2 ;;
    [0-9]*) ROUNDS=$1; shift ;;
    *) echo "probe.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
LLVM=/usr/lib/llvm-22/bin
mkdir -p "$OUT"
cd "$OUT"
build() { # name vector-options [opt flags]
  local name=$1 vopts=$2
  shift 2
  "$NORM_OPT" "$ROOT/bench/cpu/kernels/rms_norm_f32.mlir" \
    --norm-lower-to-cpu="target=host num-threads=1 vector-options={$vopts}" |
    "$LLVM/mlir-translate" --mlir-to-llvmir |
    "$LLVM/opt" -O3 -mcpu="$CPU" "$@" -o "$name.bc"
  "$LLVM/llc" -O3 -mcpu="$CPU" "$name.bc" -o "$name.s"
  "$LLVM/llc" -O3 -mcpu="$CPU" -filetype=obj "$name.bc" -o "$name.o"
  "$LLVM/clang" -O2 -march="$CPU" "$HERE/driver.c" "$name.o" -o "aot_$name" -lm
}
build default ""
build nopipe "pipeline-rows=false"
build twophase "pipeline-rows=false prefetch=false"
build twophase_nounroll "pipeline-rows=false prefetch=false" -unroll-full-max-count=2
for r in $(seq "$ROUNDS"); do
  for run in "default jit" "default pipe" "default hand" "default hand1" \
             "nopipe jit" "twophase jit" "twophase_nounroll jit"; do
    set -- $run
    echo "round $r $1: $(taskset -c 0 "./aot_$1" "$2" "$R" "$H" 0 0 0 11)"
  done
done
