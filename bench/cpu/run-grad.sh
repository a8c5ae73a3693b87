#!/usr/bin/env bash
# CPU benchmark of the norm gradients (norm.rms_norm_grad /
# norm.layer_norm_grad, issue 30) against a plain C++ loop, PyTorch's
# backward and the machine's streaming copy (grad.py says what each
# column is).
#
#   bash bench/cpu/run-grad.sh [--quick] [--no-install] [--no-torch]
#                              [--norm-run PATH] [--target SECONDS] [--out FILE]
#                              [--shapes RxH,...] [--ops rms,ln] [--dtypes f32,bf16]
#                              [--norm-run-before PATH]
#
# Needs clang-22 and libomp-22-dev (the C++ tools); python3-torch is the
# optional PyTorch peer (about 640 MB installed), apt-get installed when
# missing unless --no-install. Writes bench/cpu/results/<date>-grad-<host>.md
# (or --out) and prints the table. Exit status 1 if the project's check fails.
# --norm-run-before: an A/B, that norm-run (another build) timed in every
# cell right before the project's.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$HERE/build
OUT=""
QUICK=""
INSTALL=1
USE_TORCH=1
NORM_RUN=$ROOT/build/bin/norm-run
TARGET=0.5
SHAPES=()
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --quick) QUICK=--quick; shift ;;
    --no-install) INSTALL=0; shift ;;
    --no-torch) USE_TORCH=0; shift ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    --target) TARGET=$2; shift 2 ;;
    --shapes) SHAPES=(--shapes "$2"); shift 2 ;;
    --ops|--dtypes|--norm-run-before) EXTRA+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "run-grad.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$OUT" ] || OUT=$HERE/results/$(date +%Y-%m-%d)-grad-$(hostname -s).md
say() { echo "run-grad.sh: $*" >&2; }

have_pkg() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
install_pkgs() {
  [ "$(id -u)" = 0 ] || { say "cannot install $* (not root)"; return 1; }
  say "installing $* (apt-get, --no-install-recommends)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >&2 && return 0
  DEBIAN_FRONTEND=noninteractive apt-get update >&2 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >&2
}
CXX=clang++-22
LLVM_LIB=/usr/lib/llvm-22/lib
if ! command -v $CXX >/dev/null || [ ! -e $LLVM_LIB/libomp.so ]; then
  [ $INSTALL = 1 ] && install_pkgs clang-22 libomp-22-dev || true
fi
command -v $CXX >/dev/null || { say "$CXX not found (Debian package clang-22)"; exit 1; }
TORCH_ARGS=()
if [ $USE_TORCH = 1 ] && ! have_pkg python3-torch; then
  if [ $INSTALL = 1 ]; then install_pkgs python3-torch || say "python3-torch not installed (column n/a)"
  else say "python3-torch missing (column n/a)"; fi
fi
if [ $USE_TORCH = 0 ] || ! /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null; then
  TORCH_ARGS+=(--no-torch)
fi
[ -x "$NORM_RUN" ] || { say "no norm-run at $NORM_RUN (build it first)"; exit 1; }

mkdir -p "$BUILD" "$(dirname "$OUT")"
CXXFLAGS=(-O3 -march=native -std=c++17 -Wall -fopenmp -L"$LLVM_LIB" -Wl,-rpath,"$LLVM_LIB")
say "compiling copy_bw, cxx_norm_grad"
$CXX "${CXXFLAGS[@]}" "$HERE/copy_bw.cpp" -o "$BUILD/copy_bw"
$CXX "${CXXFLAGS[@]}" "$HERE/cxx_norm_grad.cpp" -o "$BUILD/cxx_norm_grad"
exec /usr/bin/python3 "$HERE/grad.py" --build "$BUILD" --norm-run "$NORM_RUN" \
  --target "$TARGET" --out "$OUT" $QUICK "${TORCH_ARGS[@]}" "${SHAPES[@]}" "${EXTRA[@]}"
