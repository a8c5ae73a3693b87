#!/usr/bin/env bash
# Compile-time benchmark: a module of 1, 8 and 32 copies of a large example
# layer (a whole-model export repeats every layer) through the whole chain a
# user runs to get an object file, with the time of each stage, the sizes of
# what each writes, and one layer's run time. See bench/compile/README.md.
#
#   bash bench/compile/run.sh [--layers "1 8 32"] [--models "llama gpt2"]
#                             [--out FILE] [--no-run] [--norm-opt PATH]
#                             [--norm-run PATH] [--rounds N]
#                             [--baseline-pipeline TEXT]
#                             [--target cpu|cuda] [--nvvm-options TEXT]
#
# Stages, each timed on its own (wall clock, one run, after one untimed
# run of the chain on the first module):
#   norm-opt   --pass-pipeline='builtin.module(norm-raise,norm-fuse-matmul,
#              norm-lower-to-cpu)' -mlir-timing (the five slowest passes
#              are reported for the 1-layer module)
#   translate  mlir-translate-22 --mlir-to-llvmir
#   llc        llc-22 -O3 -filetype=obj -mcpu=native
# The ratio column is the whole chain's time over the 1-layer module's.
# With --target cuda (no run time: the GPU is not needed):
#   norm-opt   --pass-pipeline='builtin.module(norm-raise,norm-fuse-matmul,
#              norm-lower-to-nvvm{NVVM-OPTIONS})' -mlir-timing
#   translate  mlir-translate-22 --mlir-to-llvmir (the host code)
# and the number of gpu.binary ops (one kernel each) it wrote.
# The run time is norm-run's median over --repeat=5 calls of one layer
# through the same pipeline (the cost of calling kernels as functions must
# not show there), in --rounds (3) rounds, each paired with the same layer
# through --baseline-pipeline (default: the same pipeline with
# outline-kernels=false, every kernel inline; '' for none), run back to
# back so that both see the same machine.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LAYERS="1 8 32"
MODELS="llama gpt2"
OUT=""
RUN=1
NORM_OPT=$ROOT/build/bin/norm-opt
NORM_RUN=$ROOT/build/bin/norm-run
ROUNDS=3
BASELINE='builtin.module(norm-raise,norm-fuse-matmul,norm-lower-to-cpu{outline-kernels=false})'
TARGET=cpu
NVVM_OPTIONS=""
CMDLINE="bash bench/compile/run.sh $*"
while [ $# -gt 0 ]; do
  case $1 in
    --layers) LAYERS=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --no-run) RUN=0; shift ;;
    --norm-opt) NORM_OPT=$2; shift 2 ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --baseline-pipeline) BASELINE=$2; shift 2 ;;
    --target) TARGET=$2; shift 2 ;;
    --target=*) TARGET=${1#--target=}; shift ;;
    --nvvm-options) NVVM_OPTIONS=$2; shift 2 ;;
    -h|--help) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/compile/run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
case $TARGET in
  cpu) PIPELINE='builtin.module(norm-raise,norm-fuse-matmul,norm-lower-to-cpu)' ;;
  cuda)
    PIPELINE="builtin.module(norm-raise,norm-fuse-matmul,norm-lower-to-nvvm{$NVVM_OPTIONS})"
    RUN=0 ;;
  *) echo "bench/compile/run.sh: unknown target '$TARGET' (cpu, cuda)" >&2; exit 2 ;;
esac
[ "$RUN" = 1 ] || NORM_RUN=$NORM_OPT
for tool in "$NORM_OPT" "$NORM_RUN"; do
  [ -x "$tool" ] || { echo "bench/compile/run.sh: no $tool (build first: bash scripts/setup.sh norm-opt norm-run)" >&2; exit 2; }
done
TRANSLATE=$(command -v mlir-translate-22 || echo /usr/lib/llvm-22/bin/mlir-translate)
LLC=$(command -v llc-22 || echo /usr/lib/llvm-22/bin/llc)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
mib() { awk -v n="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", n / 1048576 }'; }

report=$tmp/report.md
{
  echo "# Compile time: $(date -u +%Y-%m-%d), $(hostname)"
  echo
  echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "Command: \`$CMDLINE\`"
  if [ "$NORM_OPT" = "$ROOT/build/bin/norm-opt" ]; then
    echo "Tree: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  else
    echo "Tree: that of $NORM_OPT (not this checkout's build)"
  fi
  if [ "$TARGET" = cuda ]; then
    echo "Target: cuda, \`$PIPELINE\`"
    echo "Tools: $NORM_OPT, $TRANSLATE"
    echo
    echo "| model | layers | norm-opt s | translate s | total s | × 1 layer | gpu.binary | MLIR MiB | LLVM IR MiB |"
    echo "|---|---|---|---|---|---|---|---|---|"
  else
    echo "Tools: $NORM_OPT, $TRANSLATE, $LLC"
    echo
    echo "| model | layers | norm-opt s | translate s | llc s | total s | × 1 layer | MLIR MiB | LLVM IR MiB | object MiB |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
  fi
} >"$report"
passes=$tmp/passes.md
: >"$passes"
runs=$tmp/runs.md
: >"$runs"
warm=0

for model in $MODELS; do
  case $model in
    llama) file=$ROOT/examples/llama-decoder-layer-large.mlir; entry=llama_decoder_layer ;;
    gpt2) file=$ROOT/examples/gpt2-block-large.mlir; entry=gpt2_block ;;
    *) echo "bench/compile/run.sh: unknown model '$model' (llama, gpt2)" >&2; exit 2 ;;
  esac
  base=""
  for n in $LAYERS; do
    python3 "$HERE/replicate.py" "$file" "$entry" "$n" >"$tmp/in.mlir"
    if [ "$warm" = 0 ]; then
      # Untimed: the first run of each tool loads it (libMLIR, libLLVM)
      # from disk, which would count against the first module only.
      "$NORM_OPT" "$tmp/in.mlir" --pass-pipeline="$PIPELINE" -o "$tmp/out.mlir"
      "$TRANSLATE" --mlir-to-llvmir "$tmp/out.mlir" -o "$tmp/out.ll"
      [ "$TARGET" = cuda ] ||
        "$LLC" -O3 -filetype=obj -mcpu=native "$tmp/out.ll" -o "$tmp/out.o"
      warm=1
    fi
    t0=$(now)
    "$NORM_OPT" "$tmp/in.mlir" --pass-pipeline="$PIPELINE" -mlir-timing \
      -mlir-timing-display=list -o "$tmp/out.mlir" 2>"$tmp/timing.txt"
    t1=$(now)
    "$TRANSLATE" --mlir-to-llvmir "$tmp/out.mlir" -o "$tmp/out.ll"
    t2=$(now)
    [ "$TARGET" = cuda ] ||
      "$LLC" -O3 -filetype=obj -mcpu=native "$tmp/out.ll" -o "$tmp/out.o"
    t3=$(now)
    total=$(seconds "$t0" "$t3")
    [ -n "$base" ] || base=$total
    ratio=$(awk -v t="$total" -v b="$base" 'BEGIN { printf "%.1f", t / b }')
    if [ "$TARGET" = cuda ]; then
      binaries=$(grep -c '^ *gpu\.binary @' "$tmp/out.mlir" || true)
      echo "| $model | $n | $(seconds "$t0" "$t1") | $(seconds "$t1" "$t2") | $total | $ratio | $binaries | $(mib "$tmp/out.mlir") | $(mib "$tmp/out.ll") |" >>"$report"
    else
      echo "| $model | $n | $(seconds "$t0" "$t1") | $(seconds "$t1" "$t2") | $(seconds "$t2" "$t3") | $total | $ratio | $(mib "$tmp/out.mlir") | $(mib "$tmp/out.ll") | $(mib "$tmp/out.o") |" >>"$report"
    fi
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
    # Rounds of back-to-back runs: this pipeline, then the baseline.
    : >"$tmp/ms.txt"
    : >"$tmp/base-ms.txt"
    for ((r = 0; r < ROUNDS; r++)); do
      line=$("$NORM_RUN" "$file" --entry="$entry" --pipeline="$PIPELINE" --warmup=1 --repeat=5)
      sed -nE 's/.* median_ms=([^ ]+).*/\1/p' <<<"$line" >>"$tmp/ms.txt"
      if [ -n "$BASELINE" ]; then
        "$NORM_RUN" "$file" --entry="$entry" --pipeline="$BASELINE" --warmup=1 --repeat=5 |
          sed -nE 's/.* median_ms=([^ ]+).*/\1/p' >>"$tmp/base-ms.txt"
      fi
    done
    median=$(sort -g "$tmp/ms.txt" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    echo "- $model, one layer through the pipeline: $median ms (median over $ROUNDS rounds of norm-run's median of 5; rounds: $(paste -sd' ' "$tmp/ms.txt"))" >>"$runs"
    if [ -n "$BASELINE" ]; then
      base_ms=$(sort -g "$tmp/base-ms.txt" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
      echo "  - baseline \`$BASELINE\`, paired: $base_ms ms (rounds: $(paste -sd' ' "$tmp/base-ms.txt")); pipeline / baseline $(awk -v a="$median" -v b="$base_ms" 'BEGIN { printf "%.3f", a / b }')" >>"$runs"
    fi
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
