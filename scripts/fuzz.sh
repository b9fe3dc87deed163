#!/usr/bin/env bash
# A long fuzzing campaign over every fuzz target (tests/fuzz/): the JSON
# parser, the whole request core, and each ruleset's action decoder and
# load(). CI runs each target for seconds (scripts/test.sh); this runs them
# for as long as you like and keeps what they find.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  default 600
#   TARGET              fuzz target names without "fuzz_" (default: all)
#
# Builds build-fuzz/ (clang, ASan+UBSan, libFuzzer), then runs each target
# with the committed corpus tests/fuzz/corpus/<target>/ plus a working
# corpus in build-fuzz/. New inputs that add coverage are merged back into
# the committed corpus (libFuzzer -merge=1: only inputs with new coverage),
# so commit tests/fuzz/corpus/ after a campaign. A crash stops the campaign
# with the reproducer's path; reproduce it with
#   build-fuzz/tests/fuzz/fuzz_<target> <file>
# Prints per target: executions, coverage (libFuzzer's cov: and ft:) and
# corpus size.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECS=${1:-600}
shift || true
BUILD=$ROOT/build-fuzz

if [[ "${WP_SKIP_DEPS:-0}" != "1" ]]; then
    bash "$ROOT/scripts/deps.sh" build test
fi
CC=clang cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWP_SANITIZE=ON -DWP_FUZZ=ON >/dev/null
cmake --build "$BUILD" -j "${WP_JOBS:-2}" >/dev/null

targets=("$@")
if (( ${#targets[@]} == 0 )); then
    for exe in "$BUILD"/tests/fuzz/fuzz_*; do
        [[ -x $exe && ! -d $exe ]] && targets+=("${exe##*/fuzz_}")
    done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
for t in "${targets[@]}"; do
    exe=$BUILD/tests/fuzz/fuzz_$t
    [[ -x $exe ]] || { echo "fuzz.sh: no target fuzz_$t" >&2; exit 2; }
    work=$BUILD/campaign/$t
    keep=$ROOT/tests/fuzz/corpus/$t
    mkdir -p "$work" "$keep" "$BUILD/crashes"
    log=$BUILD/campaign/$t.log
    echo "fuzz.sh: fuzz_$t for ${SECS}s"
    status=0
    "$exe" -max_total_time="$SECS" -max_len=4096 -timeout=10 \
        -artifact_prefix="$BUILD/crashes/$t-" "$work" "$keep" >"$log" 2>&1 || status=$?
    line=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -n 1 || true)
    echo "fuzz.sh: fuzz_$t: ${line:-no progress line} (exit $status)"
    if (( status != 0 )); then
        grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -n 5 >&2
        echo "fuzz.sh: fuzz_$t failed; log $log" >&2
        exit "$status"
    fi
    before=$(find "$keep" -type f | wc -l)
    "$exe" -merge=1 "$keep" "$work" >/dev/null 2>&1
    after=$(find "$keep" -type f | wc -l)
    echo "fuzz.sh: fuzz_$t: corpus $before -> $after inputs"
done
