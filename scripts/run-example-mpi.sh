#!/usr/bin/env bash
# The sharded examples: compile examples/llama-layer-tp.mlir (or FILE, a
# module with a shard.grid and a @main that calls mpi.init, e.g. the
# sequence-parallel examples/llama-layer-sp.mlir) through
# --norm-lower-to-cpu, which partitions it and lowers its collectives to
# MPICH calls, and run it with mpirun.mpich on as many processes as its
# grid has (NP, default 2) under mlir-runner. The examples print [1] on
# every process when the sharded layer equals the one-process layer
# within DESIGN.md §4's tolerance; the script fails otherwise.
#   scripts/run-example-mpi.sh [FILE.mlir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NORM_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" norm-opt

example=${1:-$root/examples/llama-layer-tp.mlir}
np=${NP:-2}
llvm_lib=$(llvm-config-22 --libdir)
lowered=$(mktemp --suffix=.mlir)
trap 'rm -f "$lowered"' EXIT
echo "norm-opt $example --norm-lower-to-cpu | mpirun.mpich -np $np mlir-runner -e main"
# mlir-runner does not register the DLTI dialect of the module's
# "MPI:Implementation" entry, which the lowering no longer needs.
"$build/bin/norm-opt" "$example" --norm-lower-to-cpu=num-threads=1 \
  | sed -e 's/^module attributes {mpi.dlti = .*} {$/module {/' >"$lowered"
# The module is a file, not stdin: mpirun gives stdin to one process only.
output=$(mpirun.mpich -np "$np" "$(llvm-config-22 --bindir)/mlir-runner" \
  "$lowered" -e main -entry-point-result=void \
  -shared-libs="$llvm_lib/libmlir_runner_utils.so,$llvm_lib/libmlir_c_runner_utils.so,$llvm_lib/libomp.so,/usr/lib/x86_64-linux-gnu/libmpich.so.12" \
  </dev/null)
echo "$output"
if grep -q '^\[0\]' <<<"$output" || [ "$(grep -c '^\[1\]' <<<"$output")" -ne "$np" ]; then
  echo "example: FAILED"
  exit 1
fi
echo "example: $np processes agree with the one-process layer"
