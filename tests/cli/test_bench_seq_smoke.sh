#!/bin/bash
# test_bench_seq_smoke.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The take-and-break benchmark keeps working (no timing is asserted):
# nimsieve-bench-seq --quick --match 0.1777 prints the plain-mex baseline
# row, the rows of its other kernels (bits, scalar) with their ratio to
# it, the rare-common rows at 1 and 2 threads (heap by heap, then the
# pipeline with its ratio to heap by heap) with a ratio, and, with the
# peer program absent (--peer pointing nowhere), a line saying it was
# skipped; the load average before and after; --plain prints the plain
# mex rows only; --help exits 0, a bad --size 2.
set -u
work=$3
bench=${NS_BINARY_DIR:-$(dirname "$1")}/tools/bench/nimsieve-bench-seq
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
[ -x "$bench" ] || { echo "FAIL: no $bench"; exit 1; }
out=$work/bench.out
"$bench" --quick --match 0.1777 --peer "$work/no-such-peer" >"$out" 2>&1 || fail "exited $?: $(cat "$out")"
grep -qE '^0\.1777 +16384 plain mex +1 +[0-9]+\.[0-9]{3} .*\(baseline\)$' "$out" || fail "no baseline row: $(cat "$out")"
for k in bits scalar; do
    grep -qE "^0\.1777 +16384 plain $k +1 +[0-9]+\.[0-9]{3} .*x  \(the baseline's kernel is [0-9]+\.[0-9]{2}x as fast\)$" "$out" ||
        fail "no plain $k row: $(cat "$out")"
done
n=$(grep -cE '^0\.1777 +2097152 rare-common +[12] +[0-9]+\.[0-9]{3} +[0-9.e+]+ +[0-9]+ +[0-9.]+x  heap by heap: mask [0-9]+' "$out")
[ "$n" -eq 2 ] || fail "expected 2 rare-common heap-by-heap rows (1 and 2 threads), got $n: $(cat "$out")"
n=$(grep -cE '^0\.1777 +2097152 rare-common +[12] +[0-9]+\.[0-9]{3} +[0-9.e+]+ +[0-9]+ +[0-9.]+x  pipeline: mask [0-9]+.*by the pipeline, [0-9]+ rare heaps met; [0-9]+\.[0-9]{2}x as fast as heap by heap$' "$out")
[ "$n" -eq 2 ] || fail "expected 2 rare-common pipeline rows (1 and 2 threads) with their ratio, got $n: $(cat "$out")"
grep -qE '^0\.1777 +2097152 ogs-bench +skipped: .*no-such-peer not found' "$out" || fail "no skip note: $(cat "$out")"
grep -q '^grundys-game' "$out" && fail "--match 0.1777 ran Grundy's game too"
[ "$(grep -c '^load average' "$out")" -eq 2 ] || fail "expected the load average before and after"
"$bench" --quick --match 0.1777 --plain >"$out" 2>&1 || fail "--plain exited $?: $(cat "$out")"
[ "$(grep -cE '^0\.1777 +16384 plain (mex|bits|scalar) ' "$out")" -eq 3 ] || fail "--plain: expected 3 plain rows: $(cat "$out")"
grep -q 'rare-common\|ogs-bench' "$out" && fail "--plain ran more than the plain mex: $(cat "$out")"
"$bench" --help >/dev/null 2>&1 || fail "--help exited $?"
"$bench" --size x >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad --size should exit 2"
[ "$fails" -eq 0 ] && echo "bench seq smoke: OK"
exit $((fails > 0))
