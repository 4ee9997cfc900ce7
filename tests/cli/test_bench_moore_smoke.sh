#!/bin/bash
# test_bench_moore_smoke.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The Moore's Nim benchmark keeps working (no timing is asserted):
# tools/bench/moore.sh --quick prints a row with the old and new times and
# their ratio at 16^3 (it exits non-zero when the two tables differ), a
# new-only row at 24^3, the load average before and after; --help exits 0,
# a bad size and an unknown option exit 2.
set -u
ns=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
bench=$src/tools/bench/moore.sh
out=$work/bench.out
bash "$bench" --quick "$ns" >"$out" 2>&1 || fail "exited $?: $(cat "$out")"
grep -qE '^moore k=2 16\^3 +1 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]*\.[0-9]{5}$' "$out" ||
    fail "no old/new row at 16^3: $(cat "$out")"
grep -qE '^moore k=2 24\^3 +1 +- +[0-9]+\.[0-9]{3} +-$' "$out" || fail "no new-only row at 24^3: $(cat "$out")"
[ "$(grep -c '^load average' "$out")" -eq 2 ] || fail "expected the load average before and after"
bash "$bench" --help >/dev/null 2>&1 || fail "--help exited $?"
bash "$bench" --sizes x "$ns" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad size should exit 2"
bash "$bench" --bogus "$ns" >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown option should exit 2"
[ "$fails" -eq 0 ] && echo "bench moore smoke: OK"
exit $((fails > 0))
