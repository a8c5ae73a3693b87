#!/usr/bin/env bash
# Compile-time benchmark: a module of 1, 8 and 32 copies of a large example
# layer (a whole-model export repeats every layer) through the whole chain a
# user runs to get an object file, with the time of each stage, the sizes of
# what each writes, and one layer's run time. See bench/compile/README.md.
#
#   bash bench/compile/run.sh [--layers "1 8 32"] [--models "llama gpt2"]
#                             [--out FILE] [--no-run] [--norm-opt PATH]
#                             [--norm-run PATH]
#
# Stages, each timed on its own (wall clock, one run):
#   norm-opt   --pass-pipeline='builtin.module(norm-raise,norm-fuse-matmul,
#              norm-lower-to-cpu)' -mlir-timing (the five slowest passes
#              are reported for the 1-layer module)
#   translate  mlir-translate-22 --mlir-to-llvmir
#   llc        llc-22 -O3 -filetype=obj -mcpu=native
# The ratio column is the whole chain's time over the 1-layer module's.
# The run time is norm-run's median over --repeat=5 calls of one layer
# through the same pipeline (the cost of calling kernels as functions must
# not show there).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LAYERS="1 8 32"
MODELS="llama gpt2"
OUT=""
RUN=1
NORM_OPT=$ROOT/build/bin/norm-opt
NORM_RUN=$ROOT/build/bin/norm-run
CMDLINE="bash bench/compile/run.sh $*"
while [ $# -gt 0 ]; do
  case $1 in
    --layers) LAYERS=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --no-run) RUN=0; shift ;;
    --norm-opt) NORM_OPT=$2; shift 2 ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/compile/run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
for tool in "$NORM_OPT" "$NORM_RUN"; do
  [ -x "$tool" ] || { echo "bench/compile/run.sh: no $tool (build first: bash scripts/setup.sh norm-opt norm-run)" >&2; exit 2; }
done
TRANSLATE=$(command -v mlir-translate-22 || echo /usr/lib/llvm-22/bin/mlir-translate)
LLC=$(command -v llc-22 || echo /usr/lib/llvm-22/bin/llc)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PIPELINE='builtin.module(norm-raise,norm-fuse-matmul,norm-lower-to-cpu)'

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
mib() { awk -v n="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", n / 1048576 }'; }

report=$tmp/report.md
{
  echo "# Compile time: $(date -u +%Y-%m-%d), $(hostname)"
  echo
  echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "Command: \`$CMDLINE\`"
  echo "Tools: $NORM_OPT, $TRANSLATE, $LLC"
  echo
  echo "| model | layers | norm-opt s | translate s | llc s | total s | × 1 layer | MLIR MiB | LLVM IR MiB | object MiB |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$report"
passes=$tmp/passes.md
: >"$passes"
runs=$tmp/runs.md
: >"$runs"

for model in $MODELS; do
  case $model in
    llama) file=$ROOT/examples/llama-decoder-layer-large.mlir; entry=llama_decoder_layer ;;
    gpt2) file=$ROOT/examples/gpt2-block-large.mlir; entry=gpt2_block ;;
    *) echo "bench/compile/run.sh: unknown model '$model' (llama, gpt2)" >&2; exit 2 ;;
  esac
  base=""
  for n in $LAYERS; do
    python3 "$HERE/replicate.py" "$file" "$entry" "$n" >"$tmp/in.mlir"
    t0=$(now)
    "$NORM_OPT" "$tmp/in.mlir" --pass-pipeline="$PIPELINE" -mlir-timing \
      -mlir-timing-display=list -o "$tmp/out.mlir" 2>"$tmp/timing.txt"
    t1=$(now)
    "$TRANSLATE" --mlir-to-llvmir "$tmp/out.mlir" -o "$tmp/out.ll"
    t2=$(now)
    "$LLC" -O3 -filetype=obj -mcpu=native "$tmp/out.ll" -o "$tmp/out.o"
    t3=$(now)
    total=$(seconds "$t0" "$t3")
    [ -n "$base" ] || base=$total
    ratio=$(awk -v t="$total" -v b="$base" 'BEGIN { printf "%.1f", t / b }')
    echo "| $model | $n | $(seconds "$t0" "$t1") | $(seconds "$t1" "$t2") | $(seconds "$t2" "$t3") | $total | $ratio | $(mib "$tmp/out.mlir") | $(mib "$tmp/out.ll") | $(mib "$tmp/out.o") |" >>"$report"
    echo "$model × $n: $total s" >&2
    if [ "$n" = "$(awk '{print $1}' <<<"$LAYERS")" ]; then
      {
        echo "$model × $n layer(s), the slowest passes (-mlir-timing, wall):"
        echo
        echo '```'
        python3 "$HERE/slowest_passes.py" "$tmp/timing.txt" 5
        echo '```'
        echo
      } >>"$passes"
    fi
  done
  if [ "$RUN" = 1 ]; then
    line=$("$NORM_RUN" "$file" --entry="$entry" --pipeline="$PIPELINE" --warmup=1 --repeat=5)
    echo "- $model, one layer through the pipeline: $(sed -nE 's/.* median_ms=([^ ]+).*/\1/p' <<<"$line") ms (median of 5; \`$(sed -E 's/ +$//' <<<"$line")\`)" >>"$runs"
  fi
done
{
  echo
  cat "$passes"
  [ "$RUN" = 0 ] || { echo "Run time:"; echo; cat "$runs"; }
} >>"$report"
if [ -n "$OUT" ]; then
  mkdir -p "$(dirname "$OUT")"
  cp "$report" "$OUT"
fi
cat "$report"
