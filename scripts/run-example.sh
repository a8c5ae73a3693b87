#!/usr/bin/env bash
# The main job: build norm-opt, compile the example model IR in examples/
# through the CPU pipeline, run it with mlir-runner on random inputs and
# verify every result against a float64 reference computed on the host;
# then (without an argument) the Llama decoder layer as torch-mlir emits it:
# raised, fused, run and compared with upstream MLIR
# (scripts/run-example-model.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NORM_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" norm-opt norm-run norm_test_runtime

model=${1:-}
example=${1:-$root/examples/rmsnorm-block.mlir}
llvm_lib=$(llvm-config-22 --libdir)
echo "norm-opt $example --norm-lower-to-cpu | mlir-runner -e main"
output=$("$build/bin/norm-opt" "$example" --norm-lower-to-cpu \
  | "$(llvm-config-22 --bindir)/mlir-runner" -e main -entry-point-result=void \
      -shared-libs="$llvm_lib/libmlir_c_runner_utils.so,$llvm_lib/libmlir_runner_utils.so,$build/lib/libnorm_test_runtime.so,$llvm_lib/libomp.so")
echo "$output"
if grep -q "FAIL" <<<"$output" || ! grep -q "PASS" <<<"$output"; then
  echo "example: FAILED"
  exit 1
fi
echo "example: every result verified against a float64 reference"
if [ -z "$model" ]; then
  echo
  NORM_NO_BUILD=1 exec "$root/scripts/run-example-model.sh"
fi
