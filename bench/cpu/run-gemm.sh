#!/usr/bin/env bash
# CPU benchmark of the fused RMSNorm -> matmul (norm.rms_norm_matmul, issue 4)
# against the project's own matmul and unfused sequence, the upstream-MLIR
# path, OpenBLAS, oneDNN and PyTorch, next to the machine's FMA peak and read
# bandwidth. See the "Fused RMSNorm -> matmul" section of bench/cpu/README.md.
#
#   bash bench/cpu/run-gemm.sh [--out FILE] [--quick] [--only MxKxN]... [--no-install]
#                              [--norm-run PATH] [--target SECONDS] [--upstream-max SECONDS]
#                              [--no-openblas] [--no-dnnl] [--no-torch] [--openblas-coretype NAME]
#
#   --out FILE        report path (default bench/cpu/results/<date>-<host>-gemm.md)
#   --quick           smoke test: small shapes (1/16×2048×2048, 256×1024×1024), short cells
#   --only MxKxN      run only this shape (repeatable), e.g. --only 2048x2048x2048
#   --no-install      do not apt-get the optional peers when they are missing
#   --norm-run PATH   the project's runner (default build/bin/norm-run)
#   --target SECONDS  timed seconds per cell and implementation (default 0.5)
#   --upstream-max S  skip upstream-MLIR cells estimated to take more than S s (default 20)
#   --no-openblas / --no-dnnl / --no-torch   leave a peer out (its columns are n/a)
#   --openblas-coretype NAME  OPENBLAS_CORETYPE for OpenBLAS and PyTorch (default: the
#                     best kernel for this CPU's flags: Cooperlake with AVX512-BF16,
#                     SkylakeX with AVX-512F, else OpenBLAS's own detection; an
#                     OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE inherited from the
#                     environment is dropped)
#
# Packages:
#   required: clang-22 and libomp-22-dev (already needed by the project), python3
#   optional: libopenblas-dev  OpenBLAS peer (Debian 12: 0.3.21, pthreads build)
#             libdnnl-dev      oneDNN peer (Debian 12: oneDNN 2.6.3)
#             python3-torch    PyTorch peer (Debian 12: 1.13.1, ~150 MB download)
#   Missing optional packages are installed with apt-get when running as root
#   or with passwordless sudo, unless --no-install; otherwise their columns are n/a.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$HERE/build
OUT=""
INSTALL=1
NORM_RUN=$ROOT/build/bin/norm-run
USE_OPENBLAS=1
USE_DNNL=1
USE_TORCH=1
CORETYPE=""
DRIVER_ARGS=()
CMDLINE="bash bench/cpu/run-gemm.sh $*"

while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --out=*) OUT=${1#--out=}; shift ;;
    --quick) DRIVER_ARGS+=(--quick); shift ;;
    --only) DRIVER_ARGS+=(--only "$2"); shift 2 ;;
    --only=*) DRIVER_ARGS+=(--only "${1#--only=}"); shift ;;
    --no-install) INSTALL=0; shift ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    --norm-run=*) NORM_RUN=${1#--norm-run=}; shift ;;
    --target) DRIVER_ARGS+=(--target "$2"); shift 2 ;;
    --target=*) DRIVER_ARGS+=(--target "${1#--target=}"); shift ;;
    --upstream-max) DRIVER_ARGS+=(--upstream-max "$2"); shift 2 ;;
    --upstream-max=*) DRIVER_ARGS+=(--upstream-max "${1#--upstream-max=}"); shift ;;
    --no-openblas) USE_OPENBLAS=0; shift ;;
    --no-dnnl) USE_DNNL=0; shift ;;
    --no-torch) USE_TORCH=0; shift ;;
    --openblas-coretype) CORETYPE=$2; shift 2 ;;
    --openblas-coretype=*) CORETYPE=${1#--openblas-coretype=}; shift ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "run-gemm.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$OUT" ] || OUT=$HERE/results/$(date +%Y-%m-%d)-$(hostname -s)-gemm.md

say() { echo "run-gemm.sh: $*" >&2; }

# ---- packages (as run.sh) -------------------------------------------------------
have_pkg() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
APT=""
if [ "$(id -u)" = 0 ]; then APT="apt-get"
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then APT="sudo -n apt-get"; fi
install_pkgs() {
  [ -n "$APT" ] || { say "cannot install $* (not root, no passwordless sudo)"; return 1; }
  say "installing $* (apt-get, --no-install-recommends)"
  DEBIAN_FRONTEND=noninteractive $APT install -y --no-install-recommends "$@" >&2 && return 0
  DEBIAN_FRONTEND=noninteractive $APT update >&2 || true
  DEBIAN_FRONTEND=noninteractive $APT install -y --no-install-recommends "$@" >&2
}

CXX=clang++-22
LLVM_LIB=/usr/lib/llvm-22/lib
if ! command -v $CXX >/dev/null || [ ! -e $LLVM_LIB/libomp.so ]; then
  [ $INSTALL = 1 ] && install_pkgs clang-22 libomp-22-dev || true
fi
command -v $CXX >/dev/null || { say "$CXX not found (Debian package clang-22)"; exit 1; }
command -v python3 >/dev/null || { say "python3 not found"; exit 1; }

OPTIONAL=()
[ $USE_OPENBLAS = 1 ] && ! have_pkg libopenblas-dev && OPTIONAL+=(libopenblas-dev)
[ $USE_DNNL = 1 ] && ! have_pkg libdnnl-dev && OPTIONAL+=(libdnnl-dev)
[ $USE_TORCH = 1 ] && ! have_pkg python3-torch && OPTIONAL+=(python3-torch)
if [ ${#OPTIONAL[@]} -gt 0 ]; then
  if [ $INSTALL = 1 ]; then install_pkgs "${OPTIONAL[@]}" || say "optional peers not installed: ${OPTIONAL[*]} (columns n/a)"
  else say "optional peers missing: ${OPTIONAL[*]} (columns n/a; run without --no-install to apt-get them)"; fi
fi

# ---- build ----------------------------------------------------------------------
mkdir -p "$BUILD"
CXXFLAGS=(-O3 -march=native -std=c++17 -Wall)
say "compiling gemm_limits"
$CXX "${CXXFLAGS[@]}" -fopenmp -L"$LLVM_LIB" -Wl,-rpath,"$LLVM_LIB" "$HERE/gemm_limits.cpp" -o "$BUILD/gemm_limits"

if [ $USE_OPENBLAS = 1 ] && [ -e /usr/include/x86_64-linux-gnu/cblas.h -o -e /usr/include/cblas.h ]; then
  if $CXX "${CXXFLAGS[@]}" -DUSE_OPENBLAS -pthread "$HERE/gemm_peers.cpp" -lopenblas -o "$BUILD/gemm_openblas"; then
    DRIVER_ARGS+=(--have-openblas)
  else say "OpenBLAS peer failed to build (columns n/a)"; fi
fi
if [ $USE_DNNL = 1 ] && [ -e /usr/include/oneapi/dnnl/dnnl.hpp ]; then
  # No -fopenmp: libdnnl brings its own OpenMP runtime (libgomp on Debian).
  if $CXX "${CXXFLAGS[@]}" -DUSE_DNNL -pthread "$HERE/gemm_peers.cpp" -ldnnl -o "$BUILD/gemm_dnnl"; then
    DRIVER_ARGS+=(--have-dnnl)
  else say "oneDNN peer failed to build (columns n/a)"; fi
fi

if [ $USE_TORCH = 1 ]; then
  TORCH_PY=""
  for py in /usr/bin/python3 python3; do
    if "$py" -c 'import torch, numpy' 2>/dev/null; then TORCH_PY=$py; break; fi
  done
  [ -n "$TORCH_PY" ] && DRIVER_ARGS+=(--torch-python "$TORCH_PY") || say "PyTorch not importable (columns n/a)"
fi

# OpenBLAS kernel choice: Debian's 0.3.21 may not know this CPU (and the
# environment may pin another core type): pick the AVX-512 kernels by flags.
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
if [ -z "$CORETYPE" ]; then
  if grep -qw avx512_bf16 /proc/cpuinfo; then CORETYPE=Cooperlake
  elif grep -qw avx512f /proc/cpuinfo; then CORETYPE=SkylakeX; fi
fi
[ -n "$CORETYPE" ] && DRIVER_ARGS+=(--openblas-coretype "$CORETYPE")

[ -x "$NORM_RUN" ] || say "norm-run not found at $NORM_RUN: project and upstream columns are n/a"

exec python3 "$HERE/gemm.py" --build "$BUILD" --out "$OUT" --norm-run "$NORM_RUN" \
  --kernels "$HERE/kernels" --cxx $CXX --command "$CMDLINE" "${DRIVER_ARGS[@]}"
