#!/bin/bash
# tools/fuzz.sh [--target rules|cli|h5] [SECONDS] [WORK_DIR]
#
# Fuzz one part of nimsieve with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer for SECONDS seconds (default 60):
#   rules  the rule-set parser and compiler (tools/fuzz/fuzz_rules.c); seed
#          corpus data/rules/*.rules, tests/rules/bad/*.rules
#   cli    the command-line and position parsers and the stdin readers of
#          poj1067, poj1704 and monks (tools/fuzz/fuzz_cli.c)
#   h5     the HDF5 reader path on files the input builds through the HDF5
#          API: any attributes, datasets, types, shapes, flipped chunk bytes
#          (tools/fuzz/fuzz_h5.c)
# plus tools/fuzz/regress/TARGET-* (inputs that once found a defect). The
# target is built here with clang from the sources it needs (no OpenMP).
# New inputs are kept in WORK_DIR/corpus (default build-fuzz-TARGET/ in the
# source tree), crashes are written to WORK_DIR as crash-* files. Exit
# status 0 when no defect was found, 1 otherwise, 2 when clang or
# libFuzzer is missing.
#
# Environment: FUZZ_SEED (random seed; default: libFuzzer picks one),
# FUZZ_RUNS (stop after this many inputs; with a fixed seed the run is
# reproducible, which is how the test suite calls it), FUZZ_TIMEOUT (seconds
# one input may take, default 30), FUZZ_LIB_DIR (where the cli and h5
# targets keep the library's objects, which they share: built once, under a
# lock, when a source is newer; default WORK_DIR/lib).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
target=rules
if [ "${1:-}" = "--target" ]; then
    target=${2:-}
    shift 2
fi
case "$target" in
    rules | cli | h5) ;;
    *) echo "fuzz.sh: --target must be rules, cli or h5, got '$target'" >&2; exit 2 ;;
esac
secs=${1:-60}
work=${2:-$here/build-fuzz-$target}
case "$secs" in
    '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a positive integer, got '$secs'" >&2; exit 2 ;;
esac
cc=${CLANG:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz.sh: clang not found (install clang; libFuzzer ships with it)" >&2
    exit 2
fi
mkdir -p "$work/corpus" || exit 2
bin="$work/fuzz_$target"
flags=(-std=c17 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=undefined -D_GNU_SOURCE -I"$here/src")
libs=()
extra=()
if [ "$target" = rules ]; then
    srcs=("$here"/src/game/ns_rules*.c "$here/src/game/ns_game.c" "$here"/src/game/ns_octal*.c "$here/src/game/ns_params.c" "$here/src/core/ns_error.c")
    extra=(-dict="$here/tools/fuzz/rules.dict")
else
    # the whole library and the subcommands (not main.c), with HDF5 and GSL
    srcs=("$here"/src/{core,game,engine,store,analysis,dist}/*.c)
    for f in "$here"/src/cli/*.c; do
        [ "$(basename "$f")" = main.c ] || srcs+=("$f")
    done
    # the library's objects: the same for cli and h5 (FUZZ_LIB_DIR)
    lib=${FUZZ_LIB_DIR:-$work/lib}
    mkdir -p "$lib/gen/core" "$lib/gen/game" || exit 2
    cat >"$lib/gen/core/ns_version.h.new" <<'EOF'
#define NS_VERSION "fuzz"
#define NS_GIT_REVISION "fuzz"
#define NS_COMPILER "clang"
#define NS_BUILD_FLAGS "fuzz"
EOF
    # the built-in copies of data/rules/ (CMakeLists.txt generates them; `check`
    # recognises a table of one by its text): none here, so no rule-file table
    # is taken for a preset
    cat >"$lib/gen/game/ns_shipped_rules_text.c.new" <<'EOF'
#include "game/ns_shipped_rules.h"
const ns_shipped_rules_text ns_shipped_rules_texts[] = {{NULL, NULL}};
EOF
    # written only when they change (their times decide the rebuild)
    for g in core/ns_version.h game/ns_shipped_rules_text.c; do
        if cmp -s "$lib/gen/$g.new" "$lib/gen/$g"; then rm -f "$lib/gen/$g.new"; else mv "$lib/gen/$g.new" "$lib/gen/$g"; fi
    done
    srcs+=("$lib/gen/game/ns_shipped_rules_text.c")
    flags+=(-I"$lib/gen")
    if command -v pkg-config >/dev/null && pkg-config --exists hdf5 gsl zlib 2>/dev/null; then
        read -r -a pc <<<"$(pkg-config --cflags hdf5 gsl zlib)"
        flags+=("${pc[@]}")
        read -r -a libs <<<"$(pkg-config --libs hdf5 gsl zlib)"
    else
        flags+=(-I/usr/include/hdf5/serial)
        libs=(-L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5 -lgsl -lgslcblas -lz -lm)
    fi
    # the subcommands print: keep their stdout and stderr out of the log
    [ "$target" = cli ] && extra=(-close_fd_mask=3)
fi
me="$here/tools/fuzz/fuzz_$target.c"
# compile_all DIR SOURCES...: each source into DIR/NAME.o, as many at once
# as there are cores; 0 when every one compiled
compile_all() {
    local dir=$1 ok=1 pids=() f p
    shift
    rm -rf "$dir"
    mkdir -p "$dir"
    for f in "$@"; do
        "$cc" "${flags[@]}" -c "$f" -o "$dir/$(basename "$f" .c).o" &
        pids+=($!)
        if [ "${#pids[@]}" -ge "$(nproc)" ]; then
            wait "${pids[0]}" || ok=0
            pids=("${pids[@]:1}")
        fi
    done
    for p in "${pids[@]}"; do
        wait "$p" || ok=0
    done
    [ "$ok" -eq 1 ]
}
# stale STAMP SOURCES...: STAMP is missing or older than a source or header
stale() {
    [ ! -e "$1" ] || [ -n "$(find "${@:2}" "$here"/src/*/*.h -newer "$1" 2>/dev/null)" ]
}
if [ "$target" = rules ]; then
    if stale "$bin" "${srcs[@]}" "$me"; then
        if ! compile_all "$work/obj" "${srcs[@]}" "$me" ||
           ! "$cc" "${flags[@]}" "$work"/obj/*.o "${libs[@]}" -o "$bin"; then
            echo "fuzz.sh: building the fuzz target with $cc failed" >&2
            exit 2
        fi
    fi
else
    # the library once for both targets (another fuzz.sh may be building
    # it: the lock), then this target's own file and the link
    (
        flock 9 || exit 2
        if stale "$lib/stamp" "${srcs[@]}" "$here/tools/fuzz.sh"; then
            rm -f "$lib/stamp"
            compile_all "$lib/obj" "${srcs[@]}" || exit 2
            touch "$lib/stamp"
        fi
    ) 9>"$lib/lock"
    if [ ! -e "$lib/stamp" ]; then
        echo "fuzz.sh: building the library for the fuzz targets with $cc failed" >&2
        exit 2
    fi
    if stale "$bin" "$me" "$lib/stamp"; then
        if ! "$cc" "${flags[@]}" -c "$me" -o "$work/fuzz_$target.o" ||
           ! "$cc" "${flags[@]}" "$lib"/obj/*.o "$work/fuzz_$target.o" "${libs[@]}" -o "$bin"; then
            echo "fuzz.sh: building the fuzz target with $cc failed" >&2
            exit 2
        fi
    fi
fi
seeds="$work/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
if [ "$target" = rules ]; then
    cp "$here"/data/rules/*.rules "$here"/tests/rules/bad/*.rules "$seeds"/ 2>/dev/null
    cp "$here"/tools/fuzz/regress/rules-* "$seeds"/ 2>/dev/null
else
    cp "$here"/tools/fuzz/regress/"$target"-* "$seeds"/ 2>/dev/null
fi
echo "fuzz.sh: fuzzing target $target for at most $secs s (corpus $work/corpus)"
(cd "$work" && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    "$bin" -max_total_time="$secs" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} \
    -timeout="${FUZZ_TIMEOUT:-30}" -max_len=4096 -rss_limit_mb=2048 "${extra[@]}" \
    -artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" "$seeds" 2>"$work/fuzz.log")
rc=$?
tail -n 15 "$work/fuzz.log"
if [ "$rc" -ne 0 ]; then
    echo "fuzz.sh: the fuzzer found a defect (exit $rc); see $work/fuzz.log and $work/crash-*" >&2
    exit 1
fi
echo "fuzz.sh: no defect found (at most $secs s${FUZZ_RUNS:+, at most $FUZZ_RUNS inputs})"
