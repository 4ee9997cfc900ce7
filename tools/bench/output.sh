#!/usr/bin/env bash
# The output path of the largest two-pile tables (issue 19): per size, the
# tile kernel alone (nimsieve-bench-out: tiles into a sink that discards
# them), `nimsieve solve --stream` and `nimsieve solve --no-stream`, end to
# end, in the same run, and their ratios to the kernel; the load average
# before and after each size (on a shared machine the times are only as
# good as the load allows).
#
# usage: tools/bench/output.sh [--build DIR] [--prev NIMSIEVE] [--threads T] [--game G] [--pieces] [N ...]
#   default sizes 16384 32768; --build: a built tree (default: build the
#   Release tree build-bench); --prev: another nimsieve binary (say, the
#   previous release's) whose streamed solve runs beside ours, its ratio
#   printed too; --pieces: after each size, where the output path's CPU
#   time goes, piece by piece, on that size's tiles (nimsieve-bench-filter,
#   one thread, best of 3; it keeps every tile: 4 N^2 bytes of memory).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build="" prev="" threads=2 game=wythoff pieces=0 sizes=()
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --prev) prev=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --game) game=$2; shift 2 ;;
    --pieces) pieces=1; shift ;;
    *) sizes+=("$1"); shift ;;
    esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(16384 32768)
if [ -z "$build" ]; then
    build=${NS_BENCH_BUILD:-$root/build-bench}
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j"$(nproc)" --target nimsieve nimsieve-bench-out nimsieve-bench-filter >/dev/null
fi
ns=$build/nimsieve
kern=$build/tools/bench/nimsieve-bench-out
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
wall() { # command...: prints its wall seconds
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
echo "machine: $(nproc) cores, $game, $threads thread(s)"
printf "%-8s %9s %9s %9s %11s %11s %s\n" N kernel stream memory stream/kern mem/kern "${prev:+prev-stream prev/kern}"
for n in "${sizes[@]}"; do
    l0=$(load)
    k=$("$kern" "$game" "$n" "$threads" | awk '{print $2}')
    s=$(wall "$ns" solve "$game" --size "$n" --stream --quiet --force -t "$threads" -o "$work/s.h5")
    m=$(wall "$ns" solve "$game" --size "$n" --no-stream --quiet --force -t "$threads" -o "$work/m.h5")
    extra=""
    if [ -n "$prev" ]; then
        p=$(wall "$prev" solve "$game" --size "$n" --stream --quiet --force -t "$threads" -o "$work/p.h5")
        extra=$(awk -v p="$p" -v k="$k" 'BEGIN { printf "%11.3f %10.2f", p, p / k }')
    fi
    rm -f "$work"/*.h5
    awk -v n="$n" -v k="$k" -v s="$s" -v m="$m" -v e="$extra" \
        'BEGIN { printf "%-8s %9.3f %9.3f %9.3f %11.2f %11.2f %s\n", n, k, s, m, s / k, m / k, e }'
    echo "         load before $l0, after $(load)"
    if [ "$pieces" = 1 ]; then
        # the stored width of a square table: 16 bits while the bound 2(N-1) fits
        elem=2
        [ "$n" -le 32768 ] || elem=4
        "$build/tools/bench/nimsieve-bench-filter" "$game" "$n" 3 "$elem" | sed 's/^/         /'
    fi
done
