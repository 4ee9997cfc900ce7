#!/usr/bin/env bash
# Sweep overhead per variant against bare solves (issue 20, "Speed").
# For each workload, in one run on the same threads: nimsieve-bench-sweep
# times the bare solves of the variants (engine door only, the baseline)
# and the sweep driver (solves + summaries, no file); then `nimsieve sweep`
# of the same variants is timed as a whole command (process start, every
# variant's game built up front, solves, summaries, the catalogue written
# row by row to FILE.part and renamed), without and with --keep-tables.
# Each row: best wall seconds of --reps, the ratio to bare and the extra
# milliseconds per variant. The load average is printed before and after.
#
# usage: sweep.sh [--build DIR] [--threads T] [--reps R] [--quick]
#   --build DIR  use the binaries of an existing build (default: build
#                Release -march=native in build-bench)
#   --quick      small workloads (the smoke test)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build="" threads=2 reps=3 quick=0
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sweep.sh: unknown argument '$1' (expected --build DIR, --threads T, --reps R, --quick)" >&2; exit 2 ;;
    esac
done
case $threads$reps in *[!0-9]*) echo "sweep.sh: --threads and --reps take positive integers" >&2; exit 2 ;; esac
if [ -z "$build" ]; then
    build=${NS_BENCH_BUILD:-$root/build-bench}
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNS_NATIVE=ON >/dev/null
    cmake --build "$build" -j"$(nproc)" --target nimsieve nimsieve-bench-sweep >/dev/null
fi
ns=$build/nimsieve
bench=$build/tools/bench/nimsieve-bench-sweep
[ -x "$ns" ] && [ -x "$bench" ] || { echo "sweep.sh: no $ns or $bench" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# workload GAME SIZE RANGE...
workload() {
    local game=$1 size=$2
    shift 2
    local d=() x
    for x in "$@"; do d+=(-D "$x"); done
    echo
    echo "workload: $game ${d[*]} --size $size"
    "$bench" "$game" --size "$size" --threads "$threads" --reps "$reps" "${d[@]}" | tee "$tmp/bench.out"
    local n tb
    n=$(awk '/^variants/ {print $2 + 0}' "$tmp/bench.out")
    tb=$(awk '$1 == "bare" {print $2}' "$tmp/bench.out")
    local keep label best t0 t1 dt
    for keep in "" --keep-tables; do
        label="sweep${keep:+ keep}"
        best=""
        for _ in $(seq "$reps"); do
            t0=$(date +%s.%N)
            "$ns" sweep "$game" "${d[@]}" --size "$size" --threads "$threads" -o "$tmp/s.h5" --force $keep >/dev/null
            t1=$(date +%s.%N)
            dt=$(echo "$t1 - $t0" | bc -l)
            if [ -z "$best" ] || [ "$(echo "$dt < $best" | bc -l)" = 1 ]; then best=$dt; fi
        done
        awk -v l="$label" -v t="$best" -v b="$tb" -v n="$n" -v k="$keep" -v s="$(stat -c %s "$tmp/s.h5")" 'BEGIN {
            printf "%-10s %9.4f s  %6.2fx  %+8.3f ms/variant  (nimsieve sweep%s, the whole command; file %d bytes)\n",
                   l, t, t / b, 1e3 * (t - b) / n, k ? " " k : "", s }'
    done
}

if [ "$quick" = 1 ]; then
    workload subtraction 300 'set=subsets(1..6,3)'
    workload a-wythoff 32 'a=1..30'
else
    workload subtraction 1000 'set=subsets(1..12,3)'
    workload a-wythoff 24 'a=1..780'
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
