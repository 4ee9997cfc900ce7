#!/bin/bash
# tools/fuzz.sh [SECONDS] [WORK_DIR]
#
# Fuzz the rule-set parser and compiler (tools/fuzz/fuzz_rules.c) with
# libFuzzer under AddressSanitizer and UndefinedBehaviorSanitizer for
# SECONDS seconds (default 60). The target is built here with clang from the
# library sources it needs (no HDF5, no OpenMP). The seed corpus is
# data/rules/*.rules, tests/rules/bad/*.rules and tools/fuzz/regress/* (inputs
# that once found a defect); new inputs are kept in
# WORK_DIR/corpus (default build-fuzz/ in the source tree), crashes are
# written to WORK_DIR as crash-* files. Exit status 0 when no defect was
# found, 1 otherwise, 2 when clang or libFuzzer is missing.
#
# Environment: FUZZ_SEED (random seed; default: libFuzzer picks one),
# FUZZ_RUNS (stop after this many inputs; with a fixed seed the run is
# reproducible, which is how the test suite calls it), FUZZ_TIMEOUT (seconds
# one input may take, default 30).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
work=${2:-$here/build-fuzz}
case "$secs" in
    '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a positive integer, got '$secs'" >&2; exit 2 ;;
esac
cc=${CLANG:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz.sh: clang not found (install clang; libFuzzer ships with it)" >&2
    exit 2
fi
mkdir -p "$work/corpus" || exit 2
bin="$work/fuzz_rules"
srcs=("$here"/src/ns_rules*.c "$here/src/ns_game.c" "$here/src/ns_params.c" "$here/src/ns_error.c")
# rebuild only when a source is newer than the target
newer=yes
if [ -x "$bin" ] && [ -z "$(find "${srcs[@]}" "$here/tools/fuzz/fuzz_rules.c" "$here"/src/*.h -newer "$bin" 2>/dev/null)" ]; then
    newer=no
fi
if [ "$newer" = yes ]; then
    # compile the sources in parallel, then link
    flags=(-std=c17 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
        -fno-sanitize-recover=undefined -D_POSIX_C_SOURCE=200809L -I"$here/src")
    rm -rf "$work/obj"
    mkdir -p "$work/obj"
    pids=()
    for f in "${srcs[@]}" "$here/tools/fuzz/fuzz_rules.c"; do
        "$cc" "${flags[@]}" -c "$f" -o "$work/obj/$(basename "$f" .c).o" &
        pids+=($!)
    done
    ok=1
    for p in "${pids[@]}"; do
        wait "$p" || ok=0
    done
    if [ "$ok" -ne 1 ] || ! "$cc" "${flags[@]}" "$work"/obj/*.o -o "$bin"; then
        echo "fuzz.sh: building the fuzz target with $cc failed" >&2
        exit 2
    fi
fi
seeds="$work/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
cp "$here"/data/rules/*.rules "$here"/tests/rules/bad/*.rules "$here"/tools/fuzz/regress/* "$seeds"/ 2>/dev/null
echo "fuzz.sh: fuzzing the rule compiler for $secs s (corpus $work/corpus)"
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    "$bin" -max_total_time="$secs" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout="${FUZZ_TIMEOUT:-30}" -max_len=4096 -rss_limit_mb=2048 \
    -dict="$here/tools/fuzz/rules.dict" -artifact_prefix="$work/" -print_final_stats=1 \
    "$work/corpus" "$seeds" 2>"$work/fuzz.log"
rc=$?
tail -n 15 "$work/fuzz.log"
if [ "$rc" -ne 0 ]; then
    echo "fuzz.sh: the fuzzer found a defect (exit $rc); see $work/fuzz.log and $work/crash-*" >&2
    exit 1
fi
echo "fuzz.sh: no defect found (at most $secs s${FUZZ_RUNS:+, at most $FUZZ_RUNS inputs})"
