#!/usr/bin/env bash
# Measures the two constants of the derived parallel-threshold on this host
# (docs/design.md, "Threads for small problems") and prints the threshold
# they imply:
#   rate  = bytes / serial time of RMSNorm f32 16×4096 on one thread
#           (x read + y written, 512 KiB: the bytes the threshold counts);
#   F     = split time − serial time / T of RMSNorm f32 2×4096 on T threads
#           (one row per thread at T = 2: almost all fork/join);
#   bytes = T / (T − 1) · F · rate.
# Each time is the best median of ROUNDS interleaved norm-run runs; hold
# /tmp/norm-build.lock around it on a shared machine (it does not take it).
#
#   bash bench/cpu/calibrate-threads.sh [--threads T] [--rounds N]
#       [--target host|avx512|avx2|generic] [--norm-run PATH]
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
NORM_RUN=$ROOT/build/bin/norm-run
THREADS=2
ROUNDS=3
TARGET=host
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) THREADS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --target) TARGET=$2; shift 2 ;;
    --norm-run) NORM_RUN=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "calibrate-threads.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x "$NORM_RUN" ] || { echo "calibrate-threads.sh: no $NORM_RUN (build norm-run first)" >&2; exit 1; }
[ "$THREADS" -ge 2 ] || { echo "calibrate-threads.sh: --threads must be at least 2" >&2; exit 2; }

H=4096
# Median ms of one norm-run of RMSNorm f32 R×4096.
run() { # rows threads parallel-threshold
  local R=$1 T=$2 P=$3
  OMP_NUM_THREADS=$T "$NORM_RUN" "$HERE/kernels/rms_norm_f32.mlir" --entry=rms_norm \
    --dims="$R,$H,$H,$R,$H" --warmup=200 --repeat=$((200000 / R)) \
    --pipeline="builtin.module(norm-lower-to-cpu{target=$TARGET num-threads=$T vector-options={parallel-threshold=$P}})" |
    tail -1 | sed -n 's/.* median_ms=\([^ ]*\).*/\1/p'
}
best() { sort -g | head -1; }
serial16=() serial2=() split2=()
for _ in $(seq "$ROUNDS"); do
  serial16+=("$(run 16 1 -1)")
  serial2+=("$(run 2 "$THREADS" -1)")
  split2+=("$(run 2 "$THREADS" 0)")
done
s16=$(printf '%s\n' "${serial16[@]}" | best)
s2=$(printf '%s\n' "${serial2[@]}" | best)
p2=$(printf '%s\n' "${split2[@]}" | best)
echo "RMSNorm f32 16x4096, 1 thread, serial: ${serial16[*]} ms (best $s16)"
echo "RMSNorm f32 2x4096, $THREADS threads, serial: ${serial2[*]} ms (best $s2)"
echo "RMSNorm f32 2x4096, $THREADS threads, split: ${split2[*]} ms (best $p2)"
# The CPU name target=host keys its default constants on (LLVM's name for
# the host, as llc prints it): compare with its row in
# lib/Target/ParallelThreshold.cpp.
LLC=$(command -v llc-22 || echo /usr/lib/llvm-22/bin/llc)
echo "host-cpu = $("$LLC" --version 2>/dev/null | sed -n 's/.*Host CPU: *//p')"
awk -v s16="$s16" -v s2="$s2" -v p2="$p2" -v T="$THREADS" -v H="$H" 'BEGIN {
  rate = 16 * H * 4 * 2 / (s16 * 1e6)          # bytes per ns
  fj = (p2 - s2 / T) * 1e6                      # ns
  if (fj < 0) fj = 0
  printf "core-bytes-per-ns = %.0f\nfork-join-ns = %.0f\n", rate, fj
  printf "threshold = %d/(%d-1) * %.0f * %.0f = %.0f bytes\n", T, T, fj, rate, T / (T - 1) * fj * rate
  printf "vector-options={fork-join-ns=%.0f core-bytes-per-ns=%.0f}\n", fj, rate
}'
