#!/usr/bin/env bash
# The end-to-end model example: a decoder layer as torch-mlir emits it
# (examples/{llama,qwen3,gemma3}-decoder-layer*.mlir, gpt2-block*.mlir: no
# norm ops) is
#   1. raised: --norm-raise finds the decomposed norms (counted),
#   2. fused: --norm-fuse-matmul fuses them with the matmuls next to them
#      (counted),
#   3. checked against float64: the small size of the same model, raised,
#      fused and compiled the same way, run on the fixed inputs of
#      `gen_examples.py driver` and compared by `gen_examples.py check`
#      (the Python reference is too slow for the large sizes),
#   4. compiled through the project pipeline and run by norm-run, against
#      the same file compiled without raising through upstream MLIR
#      (norm-run --compare-pipeline=upstream: identical random inputs),
# and prints the norms found, the norms fused, the float64 check, the
# relative error between the two outputs and both times.
#
#   scripts/run-example-model.sh [FILE.mlir] [--entry=F] [--repeat=N] [--warmup=N] [--threads=N]
#
# FILE defaults to examples/llama-decoder-layer-large.mlir (seq 128, hidden
# 1024, ffn 2816: about 2 s per call through upstream on one core);
# examples/llama-decoder-layer.mlir is the small size the tests use. The
# entry defaults to the file's first function. The float64 check runs for
# the files gen_examples.py writes (not for -tosa and -const).
# It builds norm-opt and norm-run first (scripts/setup.sh) unless
# NORM_NO_BUILD=1. With a norm-opt that has no --norm-raise it says
# "norm-raise: not available" and compares project against upstream on the
# unraised file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NORM_BUILD_DIR:-$root/build}

file=$root/examples/llama-decoder-layer-large.mlir
entry=
repeat=3
warmup=1
threads=0
for arg in "$@"; do
  case $arg in
    --entry=*) entry=${arg#--entry=} ;;
    --repeat=*) repeat=${arg#--repeat=} ;;
    --warmup=*) warmup=${arg#--warmup=} ;;
    --threads=*) threads=${arg#--threads=} ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-example-model: unknown option '$arg'" >&2; exit 2 ;;
    *) file=$arg ;;
  esac
done
[ -f "$file" ] || { echo "run-example-model: no such file '$file'" >&2; exit 2; }
if [ -z "$entry" ]; then
  entry=$(sed -nE 's/^func\.func @([A-Za-z0-9_]+)\(.*/\1/p' "$file" | head -n 1)
  [ -n "$entry" ] || { echo "run-example-model: no func.func in '$file'" >&2; exit 2; }
fi

if [ "${NORM_NO_BUILD:-0}" != 1 ]; then
  "$root/scripts/setup.sh" norm-opt norm-run
fi
opt=$build/bin/norm-opt
run=$build/bin/norm-run

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Norm ops in a file: the standalone ones (norm.rms_norm / norm.layer_norm,
# not the fused names that start with them) and the fused ones.
count() { { grep -oE "$1" "$2" || true; } | wc -l | tr -d ' '; }
standalone='norm\.(rms_norm|layer_norm)([^_a-z]|$)'
fusedops='norm\.(rms_norm_matmul|layer_norm_matmul|matmul_rms_norm|matmul_layer_norm)([^_a-z]|$)'

echo "model: $file (@$entry)"
# (The help text is read whole first: grep -q closing the pipe early would
# fail the pipeline under pipefail.)
help=$("$opt" --help)
if grep -qE -- '--norm-raise([^-a-z]|$)' <<<"$help"; then
  "$opt" "$file" --norm-raise -o "$tmp/raised.mlir"
  found=$(count "$standalone" "$tmp/raised.mlir")
  rms=$(count 'norm\.rms_norm([^_a-z]|$)' "$tmp/raised.mlir")
  ln=$(count 'norm\.layer_norm([^_a-z]|$)' "$tmp/raised.mlir")
  "$opt" "$tmp/raised.mlir" --norm-fuse-matmul -o "$tmp/fused.mlir"
  left=$(count "$standalone" "$tmp/fused.mlir")
  nfused=$(count "$fusedops" "$tmp/fused.mlir")
  echo "norms found: $found (rms_norm: $rms, layer_norm: $ln) after --norm-raise"
  echo "norms fused: $((found - left)) of $found after --norm-fuse-matmul ($nfused fused ops, $left left standalone)"
  pipeline='builtin.module(norm-raise,norm-fuse-matmul,norm-lower-to-cpu)'
  checkflags=(--norm-raise --norm-fuse-matmul --norm-lower-to-cpu)
  label="raised+fused, project pipeline"
  if [ "$threads" != 0 ]; then
    pipeline="builtin.module(norm-raise,norm-fuse-matmul,norm-lower-to-cpu{num-threads=$threads})"
  fi
else
  echo "norm-raise: not available (this build has no --norm-raise pass)"
  echo "norms found: n/a"
  echo "norms fused: n/a"
  pipeline=project
  label="project pipeline, nothing raised"
  checkflags=(--norm-lower-to-cpu)
fi

# The float64 check, on the small size of the model this file is.
case $(basename "$file") in
  llama-decoder-layer.mlir|llama-decoder-layer-large.mlir) kind=llama small=llama-decoder-layer.mlir ;;
  gpt2-block.mlir|gpt2-block-large.mlir) kind=gpt2 small=gpt2-block.mlir ;;
  qwen3-decoder-layer.mlir|qwen3-decoder-layer-large.mlir) kind=qwen3 small=qwen3-decoder-layer.mlir ;;
  gemma3-decoder-layer.mlir|gemma3-decoder-layer-large.mlir) kind=gemma3 small=gemma3-decoder-layer.mlir ;;
  *) kind= ;;
esac
if [ -n "$kind" ]; then
  gen=$root/examples/gen_examples.py
  llvm_lib=$(llvm-config-22 --libdir)
  python3 "$gen" driver "$kind" >"$tmp/main.mlir"
  verdict64=$(cat "$(dirname "$file")/$small" "$tmp/main.mlir" | "$opt" "${checkflags[@]}" |
    "$(llvm-config-22 --bindir)/mlir-runner" -e main -entry-point-result=void \
      -shared-libs="$llvm_lib/libmlir_c_runner_utils.so,$llvm_lib/libmlir_runner_utils.so,$llvm_lib/libomp.so" |
    python3 "$gen" check "$kind") || {
    echo "float64 check ($small, ${checkflags[*]}): $verdict64"
    echo "run-example-model: FAILED (float64 check)"
    exit 1
  }
  echo "float64 check ($small, ${checkflags[*]}): $verdict64"
else
  echo "float64 check: n/a (not a file gen_examples.py writes)"
fi

# One norm-run: the main pipeline and upstream on identical inputs.
line=$("$run" "$file" --entry="$entry" --pipeline="$pipeline" \
  --compare-pipeline=upstream --threads="$threads" --warmup="$warmup" \
  --repeat="$repeat" 2>"$tmp/stderr") || {
  cat "$tmp/stderr" >&2
  echo "$line"
  echo "run-example-model: FAILED (norm-run)"
  exit 1
}
grep -v "ignored with a custom pipeline" "$tmp/stderr" >&2 || true
field() { sed -nE "s/.* $1=([^ ]+).*/\1/p" <<<"$line"; }
t_main=$(field median_ms)
t_up=$(field cmp_median_ms)
err=$(field cmp_rel_err)
verdict=$(awk '{print $NF}' <<<"$line")
echo "max relative error vs upstream: $err (‖out − out_upstream‖₂ / ‖out_upstream‖₂, tol $(field cmp_tol)) $verdict"
echo "time ($label): $t_main ms (median of $repeat)"
echo "time (upstream, not raised):  $t_up ms (median of $repeat)"
echo "ratio upstream / project: $(field speedup)"
[ "$verdict" = PASS ] || { echo "run-example-model: FAILED"; exit 1; }
