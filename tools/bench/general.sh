#!/usr/bin/env bash
# general.sh BASE NEW [REPEAT] - the general engine against a previous build,
# in one run (issue 19): 3-pile Nim 256^3, a-Wythoff a=2 2048^2 (Grundy: the
# general engine) and Moore's Nim_2 on 3 piles 48^3, on 1 and 2 threads.
# BASE and NEW are nimsieve binaries (e.g. the previous tag's build and
# build/nimsieve). The runs alternate BASE, NEW, BASE, NEW, ... REPEAT times
# (default 3) and each keeps its fastest solve time (the "time:" line: the
# solve without the file write; default options, so the checkpoint
# callback is called after every level as in a user's solve); prints both and NEW / BASE (below 1: NEW
# is faster). NS_BENCH_SCALE=small runs tiny sizes (the smoke test).
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: general.sh BASE NEW [REPEAT]" >&2
    exit 2
fi
base=$1 new=$2 rep=${3:-3}
for b in "$base" "$new"; do
    if [ ! -x "$b" ]; then
        echo "general.sh: $b: not an executable nimsieve" >&2
        exit 2
    fi
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ "${NS_BENCH_SCALE:-}" = small ]; then
    nim=24 aw=64 moore=8
else
    nim=256 aw=2048 moore=48
fi
cases=(
    "nim piles=3 $nim^3|nim -D piles=3 --bounds $nim,$nim,$nim"
    "a-wythoff a=2 $aw^2|a-wythoff -D a=2 --size $aw"
    "moore piles=3 k=2 $moore^3|moore -D piles=3 -D k=2 --bounds $moore,$moore,$moore"
)
solve_time() { # BIN THREADS ARGS...: prints the solve's seconds
    local bin=$1 th=$2
    shift 2
    local out
    # shellcheck disable=SC2068
    out=$("$bin" solve $@ --threads "$th" --force -o "$dir/o.h5") || {
        echo "general.sh: $bin solve $* failed" >&2
        exit 2
    }
    echo "$out" | sed -n 's/^time: *\([0-9.]*\) s.*/\1/p'
    if [ -z "$(echo "$out" | sed -n 's/^time: *\([0-9.]*\) s.*/\1/p')" ]; then
        echo "general.sh: no time line from $bin solve $*" >&2
        exit 2
    fi
}
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; best of $rep alternating runs"
printf '%-26s %7s %9s %9s %8s\n' case threads "base s" "new s" "new/base"
for c in "${cases[@]}"; do
    label=${c%%|*} args=${c#*|}
    for th in 1 2; do
        bb="" bn=""
        for ((i = 0; i < rep; i++)); do
            bb=$(min "$bb" "$(solve_time "$base" "$th" $args)")
            bn=$(min "$bn" "$(solve_time "$new" "$th" $args)")
        done
        if [ "$(echo "$bb > 0" | bc -l)" = 1 ]; then
            ratio=$(printf '%.2f' "$(echo "$bn / $bb" | bc -l)")
        else
            ratio=n/a   # below the time line's millisecond
        fi
        printf '%-26s %7d %9.3f %9.3f %8s\n' "$label" "$th" "$bb" "$bn" "$ratio"
    done
done
