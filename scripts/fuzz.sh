#!/usr/bin/env bash
# Fuzzes the norm passes with libFuzzer: tools/norm-fuzz, built with ASan,
# UBSan and coverage by scripts/sanitizer-build.sh, parses each input and runs
# every pipeline on it (see docs/testing.md).
#   scripts/fuzz.sh [MINUTES]   fuzz for MINUTES (default 10) on every core
#                               (NORM_FUZZ_JOBS workers, when set), then
#                               replay and triage whatever crashed
#   scripts/fuzz.sh --replay    run each input of test/Fuzz/regressions once
# Exits 1 when an input crashes, hangs or trips a sanitizer with a frame of
# the project's own code on its stack. Crashes wholly inside upstream MLIR
# are listed (docs/testing.md keeps those found so far in test/Fuzz/upstream),
# marked by whether Debian's mlir-opt-22 crashes on them too, but do not fail
# the run. NORM_FUZZ_SEED fixes libFuzzer's seed (CI).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
san_build=${NORM_SANITIZER_BUILD_DIR:-$root/build-sanitizers}
"$root/scripts/sanitizer-build.sh" norm-fuzz >/dev/null
fuzzer=$san_build/bin/norm-fuzz
llvm_prefix=$(llvm-config-22 --prefix)
# allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into our
# instrumented code, poisons the slabs it allocates, and the uninstrumented
# libMLIR.so, which hands out memory from the same allocators (the storage
# uniquer's), never unpoisons it: every later access would be a false
# "use-after-poison".
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1}
export ASAN_SYMBOLIZER_PATH=$llvm_prefix/bin/llvm-symbolizer

# Replays one input; prints "project" or "upstream" and the top frames.
triage() {
  local input=$1 log
  log=$(timeout 120 "$fuzzer" -timeout=60 -rss_limit_mb=4096 "$input" 2>&1) &&
    { echo "fixed"; return; }
  # A frame in the project's libraries (not the fuzz driver itself).
  if grep -E '^ +#[0-9]+ ' <<<"$log" | grep -v 'tools/norm-fuzz' |
      grep -qE "mlir::norm::|$root/(lib|include)/"; then
    echo "project"
  elif timeout 60 mlir-opt-22 "$input" >/dev/null 2>&1; [ $? -ge 128 ]; then
    echo "upstream (Debian's mlir-opt-22 crashes on it too)"
  else
    # No frame of ours, but plain MLIR does not crash (the input may need
    # the norm dialect or a norm pipeline to get there): look at it.
    echo "upstream? (no frame of the project's, mlir-opt-22 does not crash: review)"
  fi
  # sed reads to the end (head would close the pipe early, and grep's
  # SIGPIPE then fails the pipeline under pipefail, and with it the caller's
  # set -e); no matching line is not an error.
  { grep -E '^ +#[0-9]+ |ERROR: |runtime error|Assertion|deadly signal' \
      <<<"$log" || true; } | sed -n '1,12s/^/    /p'
}

if [ "${1:-}" = --replay ]; then
  shopt -s nullglob
  inputs=("$root"/test/Fuzz/regressions/*.mlir)
  echo "norm-fuzz: replaying ${#inputs[@]} regression input(s)"
  [ ${#inputs[@]} -gt 0 ] || exit 0
  exec "$fuzzer" -timeout=60 -rss_limit_mb=4096 "${inputs[@]}"
fi

minutes=${1:-10}
work=$san_build/fuzz
corpus=$work/corpus
artifacts=$work/artifacts-$(date +%Y%m%d-%H%M%S)
mkdir -p "$corpus" "$artifacts" "$work/seeds"
# Seeds: every .mlir file of the test suite and the regression corpus.
# (named by their path: several folders hold a file of the same name).
while IFS= read -r -d '' seed; do
  relative=${seed#"$root/test/"}
  cp "$seed" "$work/seeds/${relative//\//_}"
done < <(find "$root/test" -name '*.mlir' -size -64k -print0)
echo "norm-fuzz: $minutes minute(s), corpus $corpus, artifacts $artifacts"
seed=()
[ -z "${NORM_FUZZ_SEED:-}" ] || seed=(-seed="$NORM_FUZZ_SEED")
"$fuzzer" "${seed[@]}" -fork="${NORM_FUZZ_JOBS:-$(nproc)}" -ignore_crashes=1 -ignore_timeouts=1 \
  -ignore_ooms=1 -timeout=60 -rss_limit_mb=4096 -max_len=65536 \
  -max_total_time=$((minutes * 60)) -dict="$root/test/Fuzz/norm.dict" \
  -artifact_prefix="$artifacts/" "$corpus" "$work/seeds" \
  >"$artifacts/fuzz.log" 2>&1 || true
grep -E '^#[0-9]+: cov' "$artifacts/fuzz.log" | tail -1 || true

shopt -s nullglob
found=("$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* \
       "$artifacts"/leak-*)
project=0
for input in "${found[@]}"; do
  verdict=$(triage "$input")
  echo "$(basename "$input"): $verdict"
  [[ $verdict != project* ]] || project=$((project + 1))
done
echo "norm-fuzz: ${#found[@]} finding(s), $project in the project's code"
[ "$project" -eq 0 ]
