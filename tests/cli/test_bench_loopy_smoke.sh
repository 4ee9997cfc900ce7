#!/bin/bash
# test_bench_loopy_smoke.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The loopy-game benchmark keeps working (no timing is asserted):
# nimsieve-bench-loopy --size 96 --base 40 prints the naive baseline row,
# "agree ... yes" (the retro engine's table and remoteness equal the
# naive fixed point's at 40^2), the retro rows at 1 and 2 threads with a
# ratio and the counts of loopy Wythoff (one P position, 3(n - 1) N, the
# rest draws: the closed form of the rule file's comment), the speed-up
# line and the load average before and after; --help exits 0, a bad
# --size 2.
set -u
work=$3
bench=${NS_BINARY_DIR:-$(dirname "$1")}/tools/bench/nimsieve-bench-loopy
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
[ -x "$bench" ] || { echo "FAIL: no $bench"; exit 1; }
out=$work/bench.out
"$bench" --size 96 --base 40 >"$out" 2>&1 || fail "exited $?: $(cat "$out")"
grep -qE '^wythoff-loopy +40\^2 naive fixed-point +1 +[0-9]+\.[0-9]{3} .*\(baseline\)$' "$out" || fail "no baseline row: $(cat "$out")"
grep -qE '^agree at 40\^2: yes ' "$out" || fail "no agreement line: $(cat "$out")"
n=$(grep -cE '^wythoff-loopy +96\^2 retro +[12] +[0-9]+\.[0-9]{3} +[0-9.e+]+ +[0-9.]+x  P 1, N 285, D 8930$' "$out")
[ "$n" -eq 2 ] || fail "expected 2 retro rows (1 and 2 threads) with P 1, N 285, D 8930, got $n: $(cat "$out")"
grep -qE '^speed-up 1 -> 2 threads at 96\^2: [0-9.]+x$' "$out" || fail "no speed-up line: $(cat "$out")"
[ "$(grep -c '^load average' "$out")" -eq 2 ] || fail "expected the load average before and after"
"$bench" --help >/dev/null 2>&1 || fail "--help exited $?"
"$bench" --size x >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad --size should exit 2"
[ "$fails" -eq 0 ] && echo "bench loopy smoke: OK"
exit $((fails > 0))
