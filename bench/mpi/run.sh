#!/usr/bin/env bash
# Issue 31 item 4: the large Llama-like layer (seq 128, hidden 1024, 16
# heads of 64, ffn 2816, f32; examples/gen_sharded_layer.py) on 1 process
# against 2 MPI processes (MPICH), tensor-parallel (tp) and tensor +
# sequence-parallel (sp): time per layer and bytes communicated per layer
# per process.
#   bench/mpi/run.sh [--reps N] [--no-lock] [--keep DIR]
# Steps: (1) checks the tp and sp layers at this size against the
# one-process layer on 2 processes (both print [1]: max relative difference
# ≤ 1e-6); (2) generates each layer with its shards as arguments and a
# driver that times N calls with rtclock (after MPI_Init, process 0
# prints each call), partitions and lowers it, and counts the bytes from
# the partitioned collectives (ideal algorithms) and from the lowered mpi
# calls (what runs); (3) runs, holding /tmp/norm-build.lock (the shared
# 2-core VM; --no-lock when the caller holds it): 1 process with 1 and 2
# threads, tp and sp on 2 processes of 1 thread, and tp and sp on 1
# process (one shard's work with no peer: what a 2-process call computes,
# so the difference is the communication and waiting). Prints a Markdown
# table: median of the N calls; ratios against 1 process, 1 thread.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NORM_BUILD_DIR:-$root/build}
reps=9 lock=1 keep=
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --no-lock) lock=; shift ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: $0 [--reps N] [--no-lock] [--keep DIR]" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh" norm-opt >/dev/null
gen="python3 $root/examples/gen_sharded_layer.py"
tool="python3 $root/bench/mpi/layer.py"
opt=$build/bin/norm-opt
lib=$(llvm-config-22 --libdir)
runner=$(llvm-config-22 --bindir)/mlir-runner
shared=$lib/libmlir_runner_utils.so,$lib/libmlir_c_runner_utils.so,$lib/libomp.so,/usr/lib/x86_64-linux-gnu/libmpich.so.12
if [ -n "$keep" ]; then work=$keep; mkdir -p "$work"; else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

# A lowered module for mlir-runner: it does not register DLTI.
lower() { # FILE THREADS OUT
  "$opt" "$1" --norm-lower-to-cpu=num-threads="$2" \
    | sed -e 's/^module attributes {mpi.dlti = .*} {$/module {/' >"$3"
}
# mpirun.mpich with its stdin closed (it forwards stdin to process 0) and
# a time limit, so that a hung run never holds the lock.
mpi() { # NP FILE
  timeout 300 mpirun.mpich -np "$1" "$runner" "$2" -e main \
    -entry-point-result=void -shared-libs="$shared" </dev/null
}

echo "== 1. large tp and sp layers against one process (2 processes)" >&2
for mode in tp sp; do
  $gen emit $mode check --size large >"$work/$mode-check.mlir"
  lower "$work/$mode-check.mlir" 1 "$work/$mode-check.ll.mlir"
  out=$(mpi 2 "$work/$mode-check.ll.mlir")
  if [ "$(grep -c '^\[1\]' <<<"$out")" -ne 2 ]; then
    echo "$out" >&2
    echo "bench/mpi: the large $mode layer does not match one process" >&2
    exit 1
  fi
done

echo "== 2. bench modules and bytes" >&2
declare -A bytes
for mode in none tp sp; do
  func=llama_layer_$mode; [ $mode = none ] && func=llama_layer
  $gen emit $mode bench --size large >"$work/$mode.mlir"
  $gen emit $mode driver --size large --reps "$reps" >"$work/$mode-driver.mlir"
  "$opt" "$work/$mode.mlir" --norm-partition-shards -o "$work/$mode-partitioned.mlir"
  "$opt" "$work/$mode-partitioned.mlir" --norm-lower-shard-to-mpi -o "$work/$mode-mpi.mlir"
  bytes[$mode]=$($tool bytes "$work/$mode-partitioned.mlir" "$work/$mode-mpi.mlir" $func)
  echo "$mode: ${bytes[$mode]}" >&2
  $tool merge "$work/$mode-mpi.mlir" "$work/$mode-driver.mlir" >"$work/$mode-main.mlir"
  for t in 1 2; do
    [ $mode != none ] && [ $t = 2 ] && continue
    lower "$work/$mode-main.mlir" $t "$work/$mode-t$t.ll.mlir"
  done
done

echo "== 3. timing ($reps calls each)" >&2
time_all() {
  # sp on one process is left out: its all-gather and reduce-scatter are
  # send/recv rings to the next rank, which a 1-process world lacks (MPI
  # aborts); tp's all-reduce runs on one process and moves nothing.
  for run in none-t1:1 none-t2:1 tp-t1:2 sp-t1:2 tp-t1:1; do
    echo "$run $(mpi "${run#*:}" "$work/${run%:*}.ll.mlir" | $tool median)"
  done
}
if [ -n "$lock" ]; then
  times=$(flock /tmp/norm-build.lock bash -c "$(declare -f mpi time_all); \
    runner='$runner' shared='$shared' work='$work' tool='$tool' time_all")
else
  times=$(time_all)
fi

field() { sed -n "s/.*\b$2=\([0-9]*\).*/\1/p" <<<"${bytes[$1]}"; }
base=$(awk '$1 == "none-t1:1" {print $2}' <<<"$times")
echo
echo "| layer | processes × threads | median ms | vs 1 × 1 | collectives per layer | KiB sent per process: as lowered (MPI calls) | ideal |"
echo "|---|---|---|---|---|---|---|"
while read -r run median n; do
  cfg=${run%:*} np=${run#*:} mode=${cfg%-t*} threads=${cfg#*-t}
  low=$(field $mode lowered_sent) ideal=$(field $mode ideal_sent)
  case $mode:$np in
    none:*) what="—" ;;
    *:1) what="one process's shard alone (no peer: its collectives move nothing)"
      low=0 ideal=0 ;;
    *) what="$(field $mode all_reduce) all-reduce, $(field $mode reduce_scatter) reduce-scatter, $(field $mode all_gather) all-gather → $(field $mode mpi_allreduce) MPI_Allreduce" ;;
  esac
  awk -v m="$mode" -v np="$np" -v t="$threads" -v med="$median" -v b="$base" \
    -v what="$what" -v low="$low" -v ideal="$ideal" 'BEGIN {
      printf "| %s | %d × %d | %.1f | %.2f× | %s | %.0f | %.0f |\n",
        m, np, t, med * 1e3, b / med, what, low / 1024, ideal / 1024 }'
done <<<"$times"
echo
echo "(median of $reps calls, process 0's clock; vs 1 × 1: the 1-process, 1-thread time / this time)"
