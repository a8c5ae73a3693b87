#!/usr/bin/env bash
# A dynamic-length softmax (bench/cpu/kernels/softmax_dynamic_f32.mlir)
# through the project pipeline beside the upstream-MLIR path (the same IR
# through convert-linalg-to-loops: scalar loops, libm exp), in one norm-run
# per shape (--compare-pipeline=upstream, which also checks the outputs
# agree to 1e-5). The rows are read three times and fit in L2 at the
# smaller shapes, so DRAM bandwidth is no bound here; GB/s is x read once
# and y written once per call.
#
#   bash bench/cpu/run-softmax.sh [--threads T] [--repeat N] [--norm-run PATH]
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
NORM_RUN=$ROOT/build/bin/norm-run
THREADS=1
REPEAT=50
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) THREADS=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "run-softmax.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x "$NORM_RUN" ] || { echo "run-softmax.sh: no $NORM_RUN (build norm-run first)" >&2; exit 1; }

echo "| rows × row | project ms | upstream ms | project / upstream | project GB/s | rel. diff ‖·‖ |"
echo "|---|---|---|---|---|---|"
for shape in 8x32000 64x2048 512x77 1x128000 4096x64; do
  rows=${shape%x*}
  cols=${shape#*x}
  line=$("$NORM_RUN" "$HERE/kernels/softmax_dynamic_f32.mlir" --entry=softmax_dyn \
    --dims="$rows,$cols" --threads="$THREADS" --warmup=5 --repeat="$REPEAT" \
    --compare-pipeline=upstream --compare-tol=1e-5 | tail -1)
  field() { echo "$line" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
  project=$(field median_ms)
  upstream=$(field cmp_median_ms)
  ratio=$(awk -v p="$project" -v u="$upstream" 'BEGIN { printf "%.3f", p / u }')
  echo "| $rows × $cols | $project | $upstream | $ratio | $(field gbps) | $(field cmp_rel_err) |"
done
