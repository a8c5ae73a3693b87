#!/usr/bin/env bash
# Installs what norm-mlir needs on Debian 12 (when missing), configures the
# build in build/ (once) and builds the given targets.
#   scripts/setup.sh [-DVAR=VALUE...] [cmake targets...]
#   scripts/setup.sh --install-only        (the packages, nothing else)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NORM_BUILD_DIR:-$root/build}

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
          lld-22 libomp-22-dev clang-format-22 libclang-rt-22-dev cmake ninja-build
          python3 ccache
          # MPICH for the sharded (MPI) tests: the ABI MLIR 22's mpi lowering
          # targets by default (docs/design.md, Sharding).
          mpich libmpich-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "norm-mlir: installing ${missing[*]}"
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "${1:-}" != --install-only ] || exit 0

# Leading -DVAR=VALUE arguments are added to the first configure (the
# sanitizer build's flags, scripts/sanitizer-build.sh); the rest are targets.
cmake_args=()
while [ $# -gt 0 ] && [[ $1 == -D* ]]; do
  cmake_args+=("$1")
  shift
done
llvm_prefix=$(llvm-config-22 --prefix)
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" \
    "${launcher[@]}" "${cmake_args[@]}" >/dev/null
fi
cmake --build "$build" --target "${@:-all}"
