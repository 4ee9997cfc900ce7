#!/bin/bash
# test_bench_general_smoke.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# tools/bench/general.sh keeps working (no timing is asserted): at
# NS_BENCH_SCALE=small, with NIMSIEVE as both builds, it prints the load
# line and one row per case and thread count (3-pile Nim, a-Wythoff,
# Moore; 1 and 2 threads) with both times and a ratio; no arguments, or a
# build that is not an executable, exit 2.
set -u
ns=$1 src=$2 work=$3
script=$src/tools/bench/general.sh
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
out=$work/bench.out
NS_BENCH_SCALE=small "$script" "$ns" "$ns" 1 >"$out" 2>&1 || fail "exited $?: $(cat "$out")"
grep -qE '^load average: [0-9.]+ [0-9.]+ [0-9.]+, [0-9]+ cores; best of 1 alternating runs$' "$out" ||
    fail "no load line: $(cat "$out")"
for c in 'nim piles=3 24\^3' 'a-wythoff a=2 64\^2' 'moore piles=3 k=2 8\^3'; do
    for th in 1 2; do
        grep -qE "^$c +$th +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +([0-9]+\.[0-9]{2}|n/a)\$" "$out" ||
            fail "no row for $c on $th threads: $(cat "$out")"
    done
done
[ "$(grep -cE ' [12] +[0-9]+\.[0-9]{3} ' "$out")" -eq 6 ] || fail "expected 6 rows: $(cat "$out")"
"$script" >/dev/null 2>&1
[ $? -eq 2 ] || fail "no arguments should exit 2"
"$script" "$work/no-such-nimsieve" "$ns" 1 >/dev/null 2>&1
[ $? -eq 2 ] || fail "a missing build should exit 2"
[ "$fails" -eq 0 ] && echo "bench general smoke: OK"
exit $((fails > 0))
