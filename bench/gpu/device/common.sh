# The command lines shared by pack.sh (record, here), on-device.sh (device)
# and replay.sh (here): a key is a hash of norm-opt's arguments and input, so
# each phase must run the same ones. Sourced; $AOT_DIR is the bundle.
BENCH_REPEAT=50
# The example layers: name, file, extra norm-opt passes, chip; a chip with
# "+sync" has norm-lower-to-nvvm's async-launches and device-intermediates
# off (layer_nvvm_options; both default on), to compare with the same layer
# with them.
LAYERS=(
  "llama examples/llama-decoder-layer.mlir - sm_90"
  "llama examples/llama-decoder-layer.mlir raise sm_90"
  "llama examples/llama-decoder-layer.mlir raise sm_90a"
  "gpt2 examples/gpt2-block.mlir - sm_90"
  "gpt2 examples/gpt2-block.mlir raise sm_90"
  "gpt2 examples/gpt2-block.mlir raise sm_90a"
  "qwen3 examples/qwen3-decoder-layer.mlir raise sm_90"
  "gemma3 examples/gemma3-decoder-layer.mlir raise sm_90"
  "llama examples/llama-decoder-layer.mlir - sm_90+sync"
  "llama examples/llama-decoder-layer.mlir raise sm_90+sync"
  "llama examples/llama-decoder-layer.mlir raise sm_90a+sync"
  "gpt2 examples/gpt2-block.mlir raise sm_90+sync"
  "qwen3 examples/qwen3-decoder-layer.mlir raise sm_90+sync"
  "gemma3 examples/gemma3-decoder-layer.mlir raise sm_90+sync"
)
# Timed layers (large size): name, file, passes, chip.
TIMED_LAYERS=(
  "llama examples/llama-decoder-layer-large.mlir - sm_90"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90a"
  "gpt2 examples/gpt2-block-large.mlir raise sm_90"
  "llama examples/llama-decoder-layer-large.mlir - sm_90+sync"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90+sync"
  "llama examples/llama-decoder-layer-large.mlir raise sm_90a+sync"
  "gpt2 examples/gpt2-block-large.mlir raise sm_90+sync"
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
# field ("sm_90", or "sm_90+sync" with the host-code options on).
layer_nvvm_options() {
  case $1 in
    *+sync) echo "chip=${1%+sync} async-launches=0 device-intermediates=0" ;;
    *) echo "chip=$1" ;;
  esac
}
layer_passes() { [ "$1" = raise ] && echo "--norm-raise --norm-fuse-matmul"; }
