#!/bin/bash
# test_bench_sweep_smoke.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The sweep benchmark keeps working (no timing is asserted):
# tools/bench/sweep.sh --quick --reps 1 on the binaries under test prints,
# for each of its two workloads, the variant count (20 subtraction sets,
# 30 a-Wythoff variants), the bare, driver, sweep and sweep --keep-tables
# rows with a ratio and the milliseconds per variant, and the load average
# before and after; --help exits 0, an unknown argument 2.
set -u
src=$2 work=$3
build=${NS_BINARY_DIR:-$(dirname "$1")}
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
out=$work/bench.out
bash "$src/tools/bench/sweep.sh" --build "$build" --quick --reps 1 >"$out" 2>&1 || fail "exited $?: $(cat "$out")"
grep -qE '^variants 20, threads 2, best of 1$' "$out" || fail "no 20-variant subtraction workload: $(cat "$out")"
grep -qE '^variants 30, threads 2, best of 1$' "$out" || fail "no 30-variant a-Wythoff workload: $(cat "$out")"
for row in bare driver sweep 'sweep keep'; do
    n=$(grep -cE "^$row +[0-9]+\.[0-9]{4} s +[0-9]+\.[0-9]{2}x +[-+][0-9]+\.[0-9]{3} ms/variant" "$out")
    [ "$n" -eq 2 ] || fail "expected 2 '$row' rows, got $n: $(cat "$out")"
done
[ "$(grep -c '^load average' "$out")" -eq 2 ] || fail "expected the load average before and after"
bash "$src/tools/bench/sweep.sh" --help >/dev/null 2>&1 || fail "--help exited $?"
bash "$src/tools/bench/sweep.sh" --bogus >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown argument: expected exit 2"
[ "$fails" -eq 0 ] && echo "bench sweep smoke: OK"
[ "$fails" -eq 0 ]
