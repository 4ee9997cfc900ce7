#!/usr/bin/env bash
# ckpt_stream.sh [NIMSIEVE] - what checkpoints cost a streamed solve (issue 16):
# Wythoff P/N 2^18 x 2^18 streamed, the baseline without checkpoints
# (--checkpoint-every 0) and, in the same run, with checkpoints every 1 s
# and every 10 s; prints each wall time, its ratio to the baseline, and the
# checkpoints' own time as the solve's summary reports it.
set -euo pipefail
ns=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build/nimsieve}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=${NS_BENCH_N:-262144}
run() { # every: prints "wall checkpoints-line"
    rm -f "$dir"/o.h5*
    local t0 t1
    t0=$(date +%s.%N)
    "$ns" solve wythoff --size "$n" --pn-only --stream --checkpoint-every "$1" -o "$dir/o.h5" >"$dir/out"
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc -l) $(grep '^checkpoints:' "$dir/out" | sed 's/^checkpoints: *//' || true)"
}
base=$(run 0)
bw=${base%% *}
printf '%-28s %9s %8s  %s\n' "streamed P/N wythoff $n^2" "wall s" "x base" "checkpoints"
printf '%-28s %9.3f %8.3f  %s\n' "no checkpoints (baseline)" "$bw" 1 "-"
for every in 1 10; do
    r=$(run "$every")
    w=${r%% *}
    printf '%-28s %9.3f %8.3f  %s\n' "--checkpoint-every $every" "$w" "$(echo "$w / $bw" | bc -l)" "${r#* }"
done
