#!/usr/bin/env bash
# Fused RMSNorm + quantization (issue 29, item 6): the project's kernel
# beside its plain norm, the norm then a separate quantization pass, the
# decomposition path and PyTorch (int8). See quant.py.
#
#   bash bench/cpu/run-quant.sh [--out FILE] [--quick] [--target SECONDS]
#                               [--norm-run PATH] [--decomposition-run PATH]
#                               [--baseline-run PATH] [--no-torch]
#
#   --baseline-run PATH       another norm-run (e.g. main's head): the same
#                             fused kernels timed through it beside this
#                             tree's, cell by cell (an A/B of a change)
#   --decomposition-run PATH  a norm-run built from main before the row
#                             kernel quantized (its fused kernels go through
#                             the decomposition); the column is n/a without
#   PyTorch (Debian 12's python3-torch, 1.13) is used when /usr/bin/python3
#   imports it; nothing is installed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$HERE/build
OUT=$HERE/results/$(date +%Y-%m-%d)-quant-$(hostname -s).md
NORM_RUN=$ROOT/build/bin/norm-run
ARGS=()
CMDLINE="bash bench/cpu/run-quant.sh $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    --quick|--no-torch) ARGS+=("$1"); shift ;;
    --target|--decomposition-run|--baseline-run) ARGS+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "run-quant.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x "$NORM_RUN" ] || { echo "run-quant.sh: no norm-run at $NORM_RUN (build it first)" >&2; exit 1; }
if ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then ARGS+=(--no-torch); fi
mkdir -p "$BUILD" "$(dirname "$OUT")"
exec python3 "$HERE/quant.py" --build "$BUILD" --norm-run "$NORM_RUN" --out "$OUT" \
  --command "$CMDLINE" "${ARGS[@]}"
