#!/bin/bash
# test_bench_smoke.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The benchmark keeps working (no timing is asserted): nimsieve-bench
# --quick runs the cases --match selects, each once per thread count, with
# the naive baseline before them where the case has one; --repeat runs
# them again and still prints one row each; --help exits 0, an unknown
# option 2. The binary is built with the project (NS_BINARY_DIR).
set -u
src=$2
work=$3
bench=${NS_BINARY_DIR:-$(dirname "$1")}/tools/bench/nimsieve-bench
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
[ -x "$bench" ] || { echo "FAIL: no $bench"; exit 1; }

out=$work/bench.out
"$bench" --source-dir "$src" --quick --threads 1,2 --repeat 2 --match fibonacci-nim >"$out" 2>&1 ||
    fail "nimsieve-bench exited $?: $(cat "$out")"
# the baseline and the preset at 1 and 2 threads; the rule file at 1 and 2
n=$(grep -cE '^fibonacci-nim +[0-9]+ +G +[12] +[0-9]+\.[0-9]{3} ' "$out")
[ "$n" -eq 3 ] || fail "expected 3 fibonacci-nim rows (baseline, 1 and 2 threads), got $n: $(cat "$out")"
n=$(grep -cE '^fibonacci-nim \(rule file\) +[0-9]+ +G +[12] +[0-9]+\.[0-9]{3} ' "$out")
[ "$n" -eq 2 ] || fail "expected 2 rule-file rows, got $n: $(cat "$out")"
grep -qE '^fibonacci-nim +[0-9]+ +G +1 .*\(naive baseline\)$' "$out" || fail "no baseline row: $(cat "$out")"
grep -qE '^fibonacci-nim \(rule file\) +512 +G +2 ' "$out" || fail "no rule-file row at 2 threads: $(cat "$out")"
grep -q '^wythoff' "$out" && fail "--match fibonacci-nim ran wythoff cases too"

"$bench" --source-dir "$src" --quick --threads 2 --match "wythoff (scan" >"$out" 2>&1 ||
    fail "nimsieve-bench --match 'wythoff (scan' exited $?"
n=$(grep -cE '^wythoff \(scan mex\) +[0-9]+ +G +2 ' "$out")
[ "$n" -eq 3 ] || fail "expected 3 scan-mex rows, got $n: $(cat "$out")"

"$bench" --help >/dev/null 2>&1 || fail "--help exited $?"
"$bench" --no-such-option >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown option should exit 2"

[ "$fails" -eq 0 ] && echo "bench smoke: OK"
exit $((fails > 0))
