#!/usr/bin/env bash
# Replay phase (here): the GPU's results, from on-device.sh's
# device-results.tar.gz, checked the way they are without a device machine:
# lit runs test/Integration/GPU/CUDA with aot.py's replay wrappers (the
# device's output goes to FileCheck), the example layers' output goes to
# `gen_examples.py check` against float64, and the timings and benchmark
# tables are printed.
#
#   bash bench/gpu/device/replay.sh PATH/TO/device-results.tar.gz
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BUILD=${NORM_BUILD_DIR:-$ROOT/build}
AOT_DIR=$ROOT/build-device/aot
source "$HERE/common.sh"
[ -f "${1:-}" ] || { echo "replay.sh: give the device-results.tar.gz" >&2; exit 2; }
rm -rf "$AOT_DIR/out" "$AOT_DIR/res"
tar -C "$AOT_DIR" -xzf "$1"
wrappers replay
# lit enables the cuda-gpu tests from nvidia-smi: say what the device was.
mkdir -p "$AOT_DIR/fake"
cat > "$AOT_DIR/fake/nvidia-smi" <<'SMI'
#!/bin/sh
case "$*" in
  *compute_cap*) echo 9.0 ;;
  *) echo "GPU 0: replayed (bench/gpu/device/replay.sh)" ;;
esac
SMI
chmod +x "$AOT_DIR/fake/nvidia-smi"

echo "== device"
sed -n '/^name,/,$p' "$AOT_DIR/res/nvidia-smi.txt"
echo "== GPU execution tests (device output, checked here)"
PATH=$AOT_DIR/fake:$PATH /usr/lib/llvm-22/bin/lit -sv \
  --param norm_tools_dir="$AOT_DIR/bin-replay" \
  "$BUILD/test/Integration/GPU/CUDA" || true
echo "== example layers"
while read -r kind name file passes chip key; do
  out=$AOT_DIR/out/$key
  label="$name $(basename "$file" .mlir) ${passes/-/as emitted} $chip"
  if [ ! -f "$out.txt" ]; then
    echo "$label: not run on the device"
  elif [ "$(cat "$out.rc")" != 0 ]; then
    echo "$label: exit $(cat "$out.rc"): $(tail -n 2 "$out.txt" | tr '\n' ' ')"
  elif [ "$kind" = check ]; then
    echo "$label: $(python3 "$ROOT/examples/gen_examples.py" check "$name" < "$out.txt" 2>&1 | tail -n 1)"
  else
    echo "$label: $(grep -o 'layer_ms=[0-9.]*' "$out.txt" | cut -d= -f2 |
      sort -g | awk '{ v[NR] = $1 } END { printf "median %.3f ms, min %.3f ms of %d calls", v[int((NR + 1) / 2)], v[1], NR }')"
  fi
done < "$AOT_DIR/layers/list.txt"
for table in norms fused-sm_90 fused-sm_90a; do
  echo "== $table"
  cat "$AOT_DIR/res/$table.md" 2>/dev/null || tail -n 5 "$AOT_DIR/res/$table.log"
done
