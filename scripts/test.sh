#!/usr/bin/env bash
# Build Warpost and run its whole test suite; CI runs exactly this.
#
# Usage: ./scripts/test.sh [--slow]
#   (none)    every test but the slow ones, on the optimised build/: unit,
#             api, browser (e2e), fuzz (the corpus and seeded mutations),
#             operations and strength; within 6 minutes on 2 idle cores
#   --slow    the slow checks instead (CI runs them after the default run,
#             .ci/run): the unit, api and fuzz tests again on build-asan/
#             (clang, ASan+UBSan, libFuzzer); on build/ the tests labelled
#             image (the container image built with podman and run from
#             its own file system, pg_auto_failover's failover) and slow
#             (the browser sweep of every page with axe, e2e_polish, and
#             the board test on web/ unbundled; the api load test
#             api_stress runs under the sanitizers); the api tests again
#             on build/ with the thread-pool front (EVENT_LOOPS=0; every
#             other run uses the default, the event loops); then the api
#             tests on build-tsan/ (clang, ThreadSanitizer). A cold image build is
#             minutes of apt and compile. --image is the same.
#
# Stages of the default run:
#   1. Debian packages (scripts/deps.sh build test e2e)
#   2. build/      RelWithDebInfo, warnings are errors, with the npm
#                  packages of the test tools beside it (npm ci when
#                  node_modules is stale), then every ctest test but those
#                  labelled image or slow
# Stages of --slow:
#   1. Debian packages (deps.sh build test image ha e2e), npm packages
#   2. build-asan/ Debug at -O1 with ASan+UBSan and libFuzzer, warnings are
#                  errors, then its unit, api and fuzz tests: in the
#                  background (output in test-output/sanitizers.log),
#                  beside build/ and its image and slow tests
#   3. build-tsan/ RelWithDebInfo with ThreadSanitizer, then its api tests
#                  (output in test-output/tsan.log)
# The sanitizer runs were in the default run until its browser tests grew:
# with them it took 12 minutes on 2 cores (README, "Tests").
# Stage 2's ctest output is also kept in test-output/ctest-build.log.
# The last line printed is "test.sh: N passed, N failed" over all ctest runs.
#
# Environment:
#   WP_JOBS        parallel build jobs (default 2, the CI machine's cores)
#   WP_TEST_JOBS   parallel ctest jobs (default 2 * WP_JOBS + 1)
#   WP_SAN_JOBS    parallel ctest jobs of the sanitizer runs (default
#                  WP_JOBS + 2)
#   WP_SKIP_DEPS   set to 1 to skip the Debian package check
#   WP_FUZZ_SECONDS  libFuzzer time per fuzz target in the sanitizer run (2;
#                  scripts/fuzz.sh runs long campaigns)
#   WP_E2E_SHOTS   1: the browser tests keep a screenshot of every page
#                  they check in test-output/e2e/ (otherwise only of a
#                  failed test's pages)
#   WR_PLAYOUTS    seeded random playouts per ruleset configuration (the
#                  rulesets' tests default to 1000; here 400, and 50 in the
#                  sanitizer runs, to keep the default run within 6 minutes
#                  on 2 cores)
#   WR_STAT_SCALE  the share of their samples the dice statistics tests
#                  draw (default 1; 0.1 in the sanitizer runs, where their
#                  dice cost ten times as much: bounds in standard errors
#                  follow the count, exact enumerations are never scaled)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=${WP_JOBS:-2}
# Tests wait on servers, databases, browsers and their own polls more than
# they compute: measured, three tests at a time on 2 cores kept them busy
# about half the time (254 s of CPU in 250 s), so twice the cores plus one.
TEST_JOBS=${WP_TEST_JOBS:-$((JOBS * 2 + 1))}
# The sanitizer tests of --slow (see sanitizer_stage).
SAN_JOBS=${WP_SAN_JOBS:-$((JOBS + 2))}
SLOW=0

# One line per finished stage, repeated at the end as a summary.
SUMMARY=()
# Test counts added up over every ctest run, for the closing line.
TESTS_RUN=0
TESTS_FAILED=0
LOG_DIR=$ROOT/test-output

log() {
    echo "test.sh: $*" >&2
}

usage() {
    echo "usage: $0 [--slow]" >&2
}

parse_args() {
    local arg
    for arg in "$@"; do
        case "$arg" in
            --slow|--image) SLOW=1 ;;
            -h|--help) usage; exit 0 ;;
            *) echo "$0: unknown argument '$arg'" >&2; usage; exit 2 ;;
        esac
    done
}

# Run one stage, print how long it took, and stop the script if it failed.
# Usage: stage NAME COMMAND [ARGS...]
stage() {
    local name=$1
    shift
    local start=$SECONDS status=0
    log "=== $name"
    "$@" || status=$?
    local line
    if (( status == 0 )); then
        line=$(printf '%-22s ok      %4ds' "$name" $((SECONDS - start)))
    else
        line=$(printf '%-22s FAILED  %4ds (exit %d)' "$name" $((SECONDS - start)) "$status")
    fi
    SUMMARY+=("$line")
    log "$line"
    if (( status != 0 )); then
        stop_sanitizers
        print_summary
        exit "$status"
    fi
}

# The last line is the plain "N passed, N failed" that CI reads, so it must
# stay last even though ctest prints its own closing line per run.
print_summary() {
    local line
    log "summary:"
    for line in "${SUMMARY[@]}"; do
        log "  $line"
    done
    if (( TESTS_RUN > 0 )); then
        echo "test.sh: $((TESTS_RUN - TESTS_FAILED)) passed, $TESTS_FAILED failed"
    fi
}

install_deps() {
    if [[ "${WP_SKIP_DEPS:-0}" == "1" ]]; then
        log "WP_SKIP_DEPS=1: not checking Debian packages"
    elif (( SLOW )); then
        bash "$ROOT/scripts/deps.sh" build test image ha e2e || return
    else
        bash "$ROOT/scripts/deps.sh" build test e2e || return
    fi
}

# Usage: build_and_npm: build/ (RelWithDebInfo) with the npm packages of
# the test tools installed beside it (npm ci in a fresh clone is mostly
# waiting on the registry: 20 s before the build, measured).
build_and_npm() {
    install_npm_packages "${NPM_DIRS[@]}" > "$LOG_DIR/npm.log" 2>&1 &
    local npm_pid=$! status=0
    configure_and_build "$ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo || status=$?
    if ! wait "$npm_pid"; then
        cat "$LOG_DIR/npm.log" >&2
        log "npm ci of ${NPM_DIRS[*]} failed"
        return 1
    fi
    cat "$LOG_DIR/npm.log" >&2
    return "$status"
}

# The npm packages of the test tools, each directory from its committed
# package-lock.json: `npm ci` when node_modules is missing or older than
# the lock file. Directories with a package.json of their own join the list.
# scripts/webbuild: esbuild, for the board's bundle the e2e tests run
# against (the CMake target web, fixture e2e_web_build).
# tests/openapi: Redocly's CLI for the openapi_lint test (label slow: its
# npm ci was 18 core-seconds of a fresh clone's default run, the lint 5).
NPM_DIRS=(tests/e2e scripts/webbuild)
SLOW_NPM_DIRS=("${NPM_DIRS[@]}" tests/openapi)

# Usage: install_npm_packages DIR...
install_npm_packages() {
    local dir
    for dir in "$@"; do
        npm_ci_if_stale "$ROOT/$dir" || return
    done
}

# Usage: npm_ci_if_stale DIR
npm_ci_if_stale() {
    local dir=$1
    if [[ ! -f "$dir/package.json" ]]; then
        return 0
    fi
    if [[ -d "$dir/node_modules" && ! "$dir/package-lock.json" -nt "$dir/node_modules" ]]; then
        return 0
    fi
    log "npm ci in ${dir#"$ROOT"/}"
    npm ci --prefix "$dir" --no-audit --no-fund
}

# Usage: configure_and_build DIR [CMAKE OPTIONS...]
# stage() calls this under `||`, where set -e does not apply: a failed
# configure must not go on to build with the previous configuration.
configure_and_build() {
    local dir=$1
    shift
    # The tests' interpreter is Debian's python3 (scripts/deps.sh), not
    # whatever comes first in PATH: a pyenv shim there is a bash script on
    # every start and a slower interpreter (measured: 10-25% more CPU on an
    # api test).
    local py=()
    [ -x /usr/bin/python3 ] && py=(-DPython3_EXECUTABLE=/usr/bin/python3)
    # Ninja where there is one (scripts/deps.sh installs it): a fresh
    # build of everything took 41 to 49 s with it, 68 to 79 s with make,
    # whose recursive Makefiles cost as much CPU again in processes of
    # their own (measured here, 2 cores). A build directory keeps the
    # generator it was made with: CMAKE_GENERATOR is read for new ones.
    local gen=${CMAKE_GENERATOR:-}
    [[ -z $gen ]] && command -v ninja >/dev/null && gen=Ninja
    CMAKE_GENERATOR=$gen cmake -S "$ROOT" -B "$dir" -DWP_WERROR=ON "${py[@]}" "$@" || return
    cmake --build "$dir" -j "$JOBS"
}

# Usage: with_cc COMPILER COMMAND [ARGS...]: runs a command (a function too)
# with CC set for it alone.
with_cc() {
    local cc=$1
    shift
    CC=$cc "$@"
}

# A fresh build tree has no timings of its own: ctest then starts its
# tests by their COST properties, the rest in an order of its own, and a
# mid-length test started late ran alone at the end of the run. The
# timings of a default run on 2 cores (tests/ctest-costs.txt, without its
# comment lines) start the longest first instead; ctest refines them in
# the tree from its first run on. Only build/: the sanitizer builds' tests
# take other times.
seed_costs() {
    local data=$1/Testing/Temporary/CTestCostData.txt
    [[ -f $data || ! -f $ROOT/tests/ctest-costs.txt ]] && return 0
    mkdir -p "$(dirname "$data")"
    grep -v '^#' "$ROOT/tests/ctest-costs.txt" > "$data"
}

# Usage: run_ctest DIR [CTEST OPTIONS...]
# --no-tests=error: a suite that silently lost its tests must not pass.
# The output is kept in test-output/ and its closing line counted.
run_ctest() {
    local dir=$1
    shift
    local log_file
    log_file="$LOG_DIR/ctest-$(basename "$dir").log"
    mkdir -p "$LOG_DIR"
    [[ $dir == "$ROOT/build" ]] && seed_costs "$dir"
    local status=0
    ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$TEST_JOBS" "$@" \
        | tee "$log_file" || status=$?
    count_tests "$log_file"
    return "$status"
}

# Add the counts from ctest's closing line, e.g.
#   "95% tests passed, 1 tests failed out of 20"
count_tests() {
    local line failed total
    line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -n 1) || true
    if [[ -z "$line" ]]; then
        return 0
    fi
    failed=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/')
    total=$(echo "$line" | sed -E 's/.* failed out of ([0-9]+).*/\1/')
    TESTS_RUN=$((TESTS_RUN + total))
    TESTS_FAILED=$((TESTS_FAILED + failed))
}

# The sanitizer stage of --slow runs in the background, beside the image
# test (which mostly waits on apt and podman): the ASan+UBSan build, then
# its unit, api and fuzz tests. Debug
# keeps the sanitizer stack traces exact (the optimised build already
# covers the warnings that only appear with -O2); clang, so that the same
# build also links the fuzz targets with libFuzzer (short runs here;
# WP_FUZZ_SECONDS for longer ones). Its output goes to
# test-output/sanitizers.log and is printed when the stage is waited for.
SAN_PID=
SAN_LOG=$LOG_DIR/sanitizers.log

# A sanitizer build is 3 to 15 times slower, and a busy machine (the
# browsers beside the api tests) slower still: in every run the servers'
# database deadlines are generous, so that a late
# health check or a slow connect (a fresh backend after a restart) is
# never taken for an outage (the tests about those deadlines set their
# own). Under ASan on a busy machine one connect after a restart took
# over the default 2 s and opened the breaker (a 503 in api_health). The
# statements' own limits too (PostgreSQL's statement_timeout, 5 s, and
# lock_timeout, 2 s, which a request answers with 503): no test is about
# their defaults, and one 503 "the database did not answer as expected"
# in api_first_requests (32 requests at once, 8 of them turns, on the
# thread pool while the sanitizer stages ran) can only have been one of
# them or a broken connection (stop 50; not reproduced since).
generous_db_deadlines() {
    export DB_CHECK_TIMEOUT_MS=${DB_CHECK_TIMEOUT_MS:-15000}
    export DB_CONNECT_TIMEOUT_MS=${DB_CONNECT_TIMEOUT_MS:-15000}
    export DB_POOL_WAIT_MS=${DB_POOL_WAIT_MS:-15000}
    export DB_STATEMENT_TIMEOUT_MS=${DB_STATEMENT_TIMEOUT_MS:-15000}
    export DB_LOCK_TIMEOUT_MS=${DB_LOCK_TIMEOUT_MS:-15000}
}

sanitizer_stage() {
    # Sanitizer reports must fail the test that triggers them: UBSan
    # only prints and carries on unless told to halt. Values already in
    # the environment win, so a developer can tune them.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
    # The same playout code runs under the sanitizers, with fewer
    # seeds: every configuration and rule path is still played, 8x
    # less often.
    generous_db_deadlines
    export WR_PLAYOUTS=${WR_PLAYOUTS:-50}
    export WR_STAT_SCALE=${WR_STAT_SCALE:-0.1}
    # -O1, as the sanitizers' own documentation advises: at -O0 the
    # computer player's tests took 29 s alone (18 s at -O1) and 200 to
    # 280 s beside the other stage's browsers. Debug keeps the asserts.
    with_cc clang configure_and_build "$ROOT/build-asan" \
        -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DWP_SANITIZE=ON -DWP_FUZZ=ON \
        -DWP_FUZZ_SECONDS="${WP_FUZZ_SECONDS:-2}" || exit 90
    ctest --test-dir "$ROOT/build-asan" --output-on-failure --no-tests=error \
        -j "$SAN_JOBS" -L 'unit|api|fuzz'
}

# Usage: start_background VAR LOG FUNCTION: FUNCTION in a subshell in the
# background, in a process group of its own (job control for this one
# fork), which stop_sanitizers ends whole; its output to LOG, its pid to
# the variable VAR. FUNCTION exits 90 when its build fails.
start_background() {
    mkdir -p "$LOG_DIR"
    set -m
    "$3" >"$2" 2>&1 &
    printf -v "$1" '%s' "$!"
    set +m
}

# A failed stage ends the script: the background stage goes with it.
# The whole tree: ctest, its tests, and the servers and clusters they
# started, children first so that none is left to finish on its own.
kill_tree() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do
        kill_tree "$child"
    done
    kill -TERM "$1" 2>/dev/null || true
}

# Its process group first (everything it started that stayed in it), then
# what left the group (pg_ctl's postmaster starts a session of its own)
# by walking the tree.
stop_sanitizers() {
    local pid
    for pid in "$SAN_PID" "$TSAN_PID"; do
        if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
            kill_tree "$pid"
            kill -TERM -- "-$pid" 2>/dev/null || true
        fi
    done
}

# Usage: finish_background PID LOG WHAT: waits for a background stage,
# prints its output and counts its tests.
finish_background() {
    local status=0
    wait "$1" || status=$?
    cat "$2"
    if (( status == 90 )); then
        log "the $3 build failed"
        return 1
    fi
    count_tests "$2"
    return "$status"
}

# --slow: the api tests again, under ThreadSanitizer, after the ASan+UBSan
# run, not beside it (fewer servers at once on 2 cores). A report fails the test that
# triggers it: warpostd then exits non-zero, which every api test checks.
# setarch -R: TSan's shadow memory needs the usual address layout on
# kernels with more mmap randomisation than clang 14's runtime expects.
TSAN_PID=
TSAN_LOG=$LOG_DIR/tsan.log
tsan_stage() {
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:exitcode=66}
    generous_db_deadlines
    export WR_PLAYOUTS=${WR_PLAYOUTS:-50}
    export WR_STAT_SCALE=${WR_STAT_SCALE:-0.1}
    with_cc clang configure_and_build "$ROOT/build-tsan" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWP_TSAN=ON || exit 90
    local run=()
    if setarch "$(uname -m)" -R true 2>/dev/null; then
        run=(setarch "$(uname -m)" -R)
    fi
    "${run[@]}" ctest --test-dir "$ROOT/build-tsan" --output-on-failure --no-tests=error \
        -j "$SAN_JOBS" -L '^api$'
}

main() {
    parse_args "$@"
    cd "$ROOT"
    local total_start=$SECONDS

    stage "deps" install_deps
    if (( SLOW )); then
        # The image test mostly waits on apt and podman: the ASan+UBSan
        # build and tests go on beside it; ThreadSanitizer's after them.
        mkdir -p "$LOG_DIR"
        stage "npm" install_npm_packages "${SLOW_NPM_DIRS[@]}"
        start_background SAN_PID "$SAN_LOG" sanitizer_stage
        stage "build" configure_and_build "$ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
        stage "ctest (image|slow)" run_ctest "$ROOT/build" -L '^(image|slow)$' -LE '^api$'
        # The thread-pool front (EVENT_LOOPS=0), the default until issue
        # 32's event loops: every api test on it too.
        EVENT_LOOPS=0 stage "ctest (api, EVENT_LOOPS=0)" run_ctest "$ROOT/build" -L '^api$' -LE '^slow$'
        stage "asan+ubsan (unit|api|fuzz)" finish_background "$SAN_PID" "$SAN_LOG" ASan+UBSan
        start_background TSAN_PID "$TSAN_LOG" tsan_stage
        stage "tsan (api)" finish_background "$TSAN_PID" "$TSAN_LOG" ThreadSanitizer
    else
        generous_db_deadlines
        mkdir -p "$LOG_DIR"
        stage "build" build_and_npm
        WR_PLAYOUTS=${WR_PLAYOUTS:-400} stage "ctest (all)" run_ctest "$ROOT/build" -LE '^(image|slow)$'
    fi

    SUMMARY+=("$(printf '%-22s ok      %4ds' "total" $((SECONDS - total_start)))")
    print_summary
}

main "$@"
