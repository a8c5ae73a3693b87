#!/usr/bin/env bash
# What bounds the fp8 quantizing sweep on AVX2 (issue 29): builds replica.c's
# variants and the bench's 16x4096 kernels ahead of time (norm-opt, then
# opt/llc -O3 -mcpu=znver3, as norm-run's JIT compiles them for this host),
# then times them interleaved, ROUNDS rounds, each binary pinned to CPU 0.
# It does not take the build lock: wrap it (flock /tmp/norm-build.lock ...).
#
#   bash bench/cpu/quant-probe/probe.sh [ROUNDS] [--norm-opt PATH]
#
# Prints one line a run: round, binary, median/min us a call (16x4096 bf16).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT=$ROOT/bench/cpu/build/quant-probe
NORM_OPT=$ROOT/build/bin/norm-opt
ROUNDS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --norm-opt) NORM_OPT=$2; shift 2 ;;
    [0-9]*) ROUNDS=$1; shift ;;
    *) echo "probe.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
LLVM=/usr/lib/llvm-22/bin
CC="$LLVM/clang -O3 -march=znver3"
mkdir -p "$OUT"
cd "$OUT"

# The bench's kernels (quant.py), lowered as norm-run lowers them on AVX2.
python3 - "$HERE/.." <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import quant
open("plain.mlir", "w").write(quant.plain_kernel(16, 4096))
for qt in ("f8E4M3FN", "i8"):
    open(f"{qt}.mlir", "w").write(quant.fused_kernel(16, 4096, qt, "static"))
PY
for k in plain f8E4M3FN i8; do
  "$NORM_OPT" $k.mlir --norm-lower-to-cpu="target=avx2 num-threads=1" |
    "$LLVM/mlir-translate" --mlir-to-llvmir |
    "$LLVM/opt" -O3 -mcpu=znver3 -o $k.bc
  "$LLVM/llc" -O3 -mcpu=znver3 -filetype=obj $k.bc -o $k.o
  $CC -O2 "$HERE/aot-driver.c" $k.o -o aot_$k
done
"$LLVM/llc" -O3 -mcpu=znver3 -align-loops=64 -filetype=obj f8E4M3FN.bc -o f8E4M3FN_a64.o
$CC -O2 "$HERE/aot-driver.c" f8E4M3FN_a64.o -o aot_f8E4M3FN_align64

# replica.c's variants: name and flags.
VARIANTS=(
  "fp8:-DVARIANT=0" "fp8_nosign:-DNOSIGN" "fp8_noclamp:-DNOCLAMP" "fp8_noc:-DNOC"
  "fp8_noclamp_noc:-DNOCLAMP -DNOC" "fp8_nosign_noclamp_noc:-DNOSIGN -DNOCLAMP -DNOC"
  "fp8_deint:-DDEINT" "fp8_swp:-DSWP" "fp8_packsign:-DVARIANT=2" "fp8_pshufb:-DVARIANT=3"
  "fp8_madd:-DVARIANT=4" "fp8_madd_swp:-DVARIANT=4 -DSWP"
  "fp8_ftz:-DFTZ" "i8:-DVARIANT=1" "i8_extra4:-DVARIANT=1 -DEXTRA=4"
  "i8_extra8:-DVARIANT=1 -DEXTRA=8")
for v in "${VARIANTS[@]}"; do
  $CC ${v#*:} "$HERE/replica.c" -o rep_${v%%:*} -lm
done
$CC -DCOUNT "$HERE/replica.c" -o rep_count -lm
$CC "$HERE/exhaustive.c" -o exhaustive -lm

./rep_count 1 1 | head -1
./exhaustive
./exhaustive --variant7
run() { echo "$1 $2 $(taskset -c 0 "${@:3}" | grep -o 'median_us=.*')"; }
for r in $(seq 1 "$ROUNDS"); do
  for k in plain f8E4M3FN i8 f8E4M3FN_align64; do run "$r" aot_$k ./aot_$k 2000 7 0 0; done
  for off in 1024 2048 3072; do
    run "$r" aot_f8E4M3FN_x+$off ./aot_f8E4M3FN 2000 7 $off 0
    run "$r" aot_f8E4M3FN_g+$off ./aot_f8E4M3FN 2000 7 0 $off
  done
  for v in "${VARIANTS[@]}"; do run "$r" rep_${v%%:*} ./rep_${v%%:*} 2000 7; done
done
