#!/usr/bin/env bash
# CPU benchmark of norm.rms_norm / norm.layer_norm against the upstream-MLIR
# path, a plain C++ loop, oneDNN and PyTorch, next to the machine's copy
# bandwidth. See bench/cpu/README.md.
#
#   bash bench/cpu/run.sh [--out FILE] [--quick] [--no-install] [--norm-run PATH]
#                         [--target SECONDS] [--no-dnnl] [--no-torch]
#                         [--shapes RxH,...]
#
#   --out FILE        report path (default bench/cpu/results/<date>-<host>.md)
#   --quick           smoke test: small shapes only, short cells (~1 min)
#   --no-install      do not apt-get the optional peers when they are missing
#   --norm-run PATH   the project's runner (default build/bin/norm-run)
#   --target SECONDS  timed seconds per cell and implementation (default 0.5)
#   --no-dnnl / --no-torch   leave a peer out (its column is n/a)
#   --shapes RxH,...  only these rows x hidden cells (e.g. 256x4096,32768x1024),
#                     instead of the default (or --quick) shapes
#   --strided-only    only the strided-row cells (a norm on a column slice of
#                     wider rows) beside the contiguous rows of the same length
#
# Packages:
#   required: clang-22 and libomp-22-dev (already needed by the project),
#             python3 (the driver uses the standard library only)
#   optional: libdnnl-dev   oneDNN peer (Debian 12: oneDNN 2.6.3, ~1 MB + 5 small deps;
#                           2.6 has no RMSNorm, so oneDNN's RMSNorm column is n/a)
#             python3-torch PyTorch peer (Debian 12: 1.13.1, ~150 MB download,
#                           ~640 MB installed with its ~175 dependencies)
#   Missing optional packages are installed with apt-get when running as root
#   or with passwordless sudo, unless --no-install; if that is impossible
#   their columns are n/a and the run goes on.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$HERE/build
OUT=""
QUICK=""
INSTALL=1
NORM_RUN=$ROOT/build/bin/norm-run
TARGET=0.5
USE_DNNL=1
USE_TORCH=1
STRIDED_ONLY=""
SHAPES=()
CMDLINE="bash bench/cpu/run.sh $*"

while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --out=*) OUT=${1#--out=}; shift ;;
    --quick) QUICK=--quick; shift ;;
    --no-install) INSTALL=0; shift ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    --norm-run=*) NORM_RUN=${1#--norm-run=}; shift ;;
    --target) TARGET=$2; shift 2 ;;
    --target=*) TARGET=${1#--target=}; shift ;;
    --no-dnnl) USE_DNNL=0; shift ;;
    --no-torch) USE_TORCH=0; shift ;;
    --strided-only) STRIDED_ONLY=--strided-only; shift ;;
    --shapes) SHAPES=(--shapes "$2"); shift 2 ;;
    --shapes=*) SHAPES=(--shapes "${1#--shapes=}"); shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$OUT" ] || OUT=$HERE/results/$(date +%Y-%m-%d)-$(hostname -s).md

say() { echo "run.sh: $*" >&2; }

# ---- packages ---------------------------------------------------------------
have_pkg() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
APT=""
if [ "$(id -u)" = 0 ]; then APT="apt-get"
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then APT="sudo -n apt-get"; fi
install_pkgs() {  # install_pkgs PKG... ; returns non-zero if impossible
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
[ $USE_DNNL = 1 ] && ! have_pkg libdnnl-dev && OPTIONAL+=(libdnnl-dev)
[ $USE_TORCH = 1 ] && ! have_pkg python3-torch && OPTIONAL+=(python3-torch)
if [ ${#OPTIONAL[@]} -gt 0 ]; then
  if [ $INSTALL = 1 ]; then install_pkgs "${OPTIONAL[@]}" || say "optional peers not installed: ${OPTIONAL[*]} (columns n/a)"
  else say "optional peers missing: ${OPTIONAL[*]} (columns n/a; run without --no-install to apt-get them)"; fi
fi

# ---- build --------------------------------------------------------------------
mkdir -p "$BUILD"
CXXFLAGS=(-O3 -march=native -std=c++17 -Wall)
OMPFLAGS=(-fopenmp -L"$LLVM_LIB" -Wl,-rpath,"$LLVM_LIB")
say "compiling copy_bw, cxx_norm"
$CXX "${CXXFLAGS[@]}" "${OMPFLAGS[@]}" "$HERE/copy_bw.cpp" -o "$BUILD/copy_bw"
$CXX "${CXXFLAGS[@]}" "${OMPFLAGS[@]}" "$HERE/cxx_norm.cpp" -o "$BUILD/cxx_norm"

DRIVER_ARGS=()
if [ $USE_DNNL = 1 ] && [ -e /usr/include/oneapi/dnnl/dnnl.hpp ]; then
  DNNL_DEFS=()
  # normalization_flags::rms_norm appeared in oneDNN 3.x; probe for it.
  printf '#include <oneapi/dnnl/dnnl.hpp>\nint main(){return (int)dnnl::normalization_flags::rms_norm;}\n' > "$BUILD/probe_rms.cpp"
  if $CXX -std=c++17 -fsyntax-only "$BUILD/probe_rms.cpp" 2>/dev/null; then DNNL_DEFS+=(-DHAVE_DNNL_RMS); fi
  # No -fopenmp: libdnnl brings its own OpenMP runtime (libgomp on Debian).
  if $CXX "${CXXFLAGS[@]}" "${DNNL_DEFS[@]}" -pthread "$HERE/dnnl_norm.cpp" -ldnnl -o "$BUILD/dnnl_norm"; then
    DRIVER_ARGS+=(--have-dnnl)
    say "oneDNN peer built ${DNNL_DEFS[*]:-(no rms_norm flag: RMSNorm n/a)}"
  else
    say "oneDNN peer failed to build (column n/a)"
  fi
fi

TORCH_PY=""
if [ $USE_TORCH = 1 ]; then
  # Debian's python3-torch lives in /usr/bin/python3's dist-packages; a python3
  # earlier in PATH (pyenv, venv) may not see it.
  for py in /usr/bin/python3 python3; do
    if "$py" -c 'import torch, numpy' 2>/dev/null; then TORCH_PY=$py; break; fi
  done
  [ -n "$TORCH_PY" ] && DRIVER_ARGS+=(--torch-python "$TORCH_PY") || say "PyTorch not importable (column n/a)"
fi

[ -x "$NORM_RUN" ] || say "norm-run not found at $NORM_RUN: project and upstream columns are n/a"

exec python3 "$HERE/bench.py" --build "$BUILD" --out "$OUT" --norm-run "$NORM_RUN" \
  --kernels "$HERE/kernels" --cxx $CXX --target "$TARGET" --command "$CMDLINE" \
  $QUICK $STRIDED_ONLY "${SHAPES[@]}" "${DRIVER_ARGS[@]}"
