# The command lines shared by pack.sh (record, here), on-device.sh (device)
# and replay.sh (here): a key is a hash of norm-opt's arguments and input, so
# each phase must run the same ones. Sourced; $AOT_DIR is the bundle.
BENCH_REPEAT=50
# The example layers: name, file, extra norm-opt passes, chip; a chip with
# "+async" has norm-lower-to-nvvm's async-launches and device-intermediates
# on (layer_nvvm_options), to compare with the same layer without.
LAYERS=(
  "llama examples/llama-decoder-layer.mlir - sm_90"
  "llama examples/llama-decoder-layer.mlir raise sm_90"
  "llama examples/llama-decoder-layer.mlir raise sm_90a"
  "gpt2 examples/gpt2-block.mlir - sm_90"
  "gpt2 examples/gpt2-block.mlir raise sm_90"
  "gpt2 examples/gpt2-block.mlir raise sm_90a"
  "qwen3 examples/qwen3-decoder-layer.mlir raise sm_90"
  "gemma3 examples/gemma3-decoder-layer.mlir raise sm_90"
  "llama examples/llama-decoder-layer.mlir - sm_90+async"
  "llama examples/llama-decoder-layer.mlir raise sm_90+async"
  "llama examples/llama-decoder-layer.mlir raise sm_90a+async"
  "gpt2 examples/gpt2-block.mlir raise sm_90+async"
  "qwen3 examples/qwen3-decoder-layer.mlir raise sm_90+async"
  "gemma3 examples/gemma3-decoder-layer.mlir raise sm_90+async"
)
# Timed layers (large size): name, file, passes, chip.
TIMED_LAYERS=(
  "llama examples/llama-decoder-layer-large.mlir - sm_90"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90a"
  "gpt2 examples/gpt2-block-large.mlir raise sm_90"
  "llama examples/llama-decoder-layer-large.mlir - sm_90+async"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90+async"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90a+async"
  "gpt2 examples/gpt2-block-large.mlir raise sm_90+async"
)

# wrappers MODE: $AOT_DIR/bin-MODE/{norm-opt,mlir-runner}, calling the copy
# of aot.py in $AOT_DIR (which travels with the bundle).
wrappers() {
  local mode=$1 bin=$AOT_DIR/bin-$1 tool
  mkdir -p "$bin"
  for tool in norm-opt mlir-runner; do
    cat > "$bin/$tool" <<WRAP
#!/bin/sh
here=\$(cd "\$(dirname "\$0")/.." && pwd)
${AOT_WRAPPER_ENV:-}
exec python3 "\$here/aot.py" $mode "\$here" $tool "\$@"
WRAP
    chmod +x "$bin/$tool"
  done
}

# layer_nvvm_options CHIP: norm-lower-to-nvvm's options for a layer's chip
# field ("sm_90", or "sm_90+async" with the host-code options on).
layer_nvvm_options() {
  case $1 in
    *+async) echo "chip=${1%+async} async-launches=1 device-intermediates=1" ;;
    *) echo "chip=$1" ;;
  esac
}
layer_passes() { [ "$1" = raise ] && echo "--norm-raise --norm-fuse-matmul"; }
