# test_analysis_check.sh - `nimsieve check`: every theorem passes on a table
# of its game, the counts agree with independent computations (Python's exact
# math.isqrt), a corrupted cell is reported with exit 1, a theorem that does
# not apply exits 2 and says why, --json is valid JSON with the same numbers.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
cd "$WORK" || exit 1
rm -f ./*.h5

solve() { # solve OUT GAME ARGS...
    local out=$1
    shift
    "$NS" solve "$@" --threads 1 --quiet --force -o "$out" >/dev/null 2>"$WORK/solve.err" || {
        fail "solve $* failed: $(cat "$WORK/solve.err")"
    }
}

solve w.h5 wythoff --size 256
expect_ok "$NS" check wythoff-golden w.h5
expect_out '^checked: +65536 cells \(every cell of the table once\)$'
expect_out '^mismatches: +0$'
expect_out '^result: +PASS$'
# P-positions inside [0,256)^2 by exact integers, independently
np=$($PY -c '
import math
n, c = 1, 1
while True:
    a = (n + math.isqrt(5*n*n)) // 2
    if a + n >= 256: break
    c += 2; n += 1
print(c)')
expect_out "P-positions: $np in the table, $np by the closed form"
# the book's double formula: first wrong at F_40 = 102334155
expect_out 'in double \(53-bit mantissa\): first wrong at n = 102334155 \(= F_40\): floor\(n\*phi\) = 165580140, the formula gives 165580141'
f40=$($PY -c '
import math
n = 102334155
print((n + math.isqrt(5*n*n)) // 2, int(n * ((1 + math.sqrt(5.0)) / 2)))')
expect_eq "exact and double floor(F_40 phi) by Python" "$f40" "165580140 165580141"

run "$NS" check wythoff-golden w.h5 --json
expect_eq "json exit" "$RC" 0
got=$($PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
b = d["book_formula"][0]
print(d["checked"], d["mismatches"], d["pass"], b["n"], b["exact"], b["computed"], d["bounds"])' "$OUT")
expect_eq "json fields" "$got" "65536 0 True 102334155 165580140 165580141 [256, 256]"

# a corrupted cell: (3,5) is P, make it N in a copy
cp w.h5 bad.h5
$PY -c '
import h5py, sys
with h5py.File(sys.argv[1], "r+") as f:
    for name in ("grundy", "pn"):
        if name in f:
            d = f[name]; d[3, 5] = 1
' bad.h5
run "$NS" check wythoff-golden bad.h5
expect_eq "exit on a mismatch" "$RC" 1
expect_out '^mismatches: +1$'
expect_out '^  \(3, 5\): P/N \(0 = P, 1 = N\): table 1, theorem 0$'
expect_out '^result: +FAIL$'

# does not apply: exit 2 with the reason
expect_error 2 check "bouton does not apply to w.h5: .*preset 'nim'.*'wythoff'" "$NS" check bouton w.h5
expect_error 2 check "unknown theorem 'golden': expected one of wythoff-golden, bouton" "$NS" check golden w.h5
expect_error 2 check "expected 'nimsieve check THEOREM FILE.h5'" "$NS" check wythoff-golden
expect_error 2 check "no-such.h5" "$NS" check bouton no-such.h5
solve wm.h5 wythoff --size 32 --misere
expect_error 2 check "misere" "$NS" check wythoff-golden wm.h5

# every other theorem on its own game
solve nim3.h5 nim -D piles=3 --bounds 12,13,14
expect_ok "$NS" check bouton nim3.h5
expect_out '^checked: +2184 cells \(every cell of the table once\)$'
expect_ok "$NS" check sprague-grundy-sum nim3.h5
solve nimm.h5 nim -D piles=3 --size 9 --misere
expect_ok "$NS" check bouton nimm.h5
expect_out 'misere: P iff'
solve bash.h5 bash -D m=5 --size 200
expect_ok "$NS" check bash bash.h5
expect_out '^claim: +m = 5: P iff n mod 6 = 0; Grundy value = n mod \(m\+1\)$'
solve aw.h5 a-wythoff -D a=3 --size 200
expect_ok "$NS" check a-wythoff aw.h5
expect_out 'alpha = \(-1 \+ sqrt\(13\)\) / 2'
# every cell counted once (200 x 200); the sequence terms apart
expect_out '^checked: +40000 cells \(every cell of the table once\)$'
expect_out '^also: +[0-9]+ terms A_n = floor\(n alpha\)'
expect_ok "$NS" check a-wythoff w.h5
solve moore.h5 moore -D piles=3 -D k=2 --size 12 --pn-only
expect_ok "$NS" check moore moore.h5
solve eu.h5 euclid --size 120 --pn-only
expect_ok "$NS" check euclid eu.h5
solve fib.h5 fibonacci-nim --bounds 150,150
expect_ok "$NS" check fibonacci-nim fib.h5
expect_out 'losing starts \(n, n-1\) for 1 <= n < 150: 11 of 149: 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144$'
expect_out '^checked: +22500 cells \(every cell of the table once\)$'
solve st.h5 staircase -D piles=3 --size 12
expect_ok "$NS" check staircase st.h5
expect_out '^checked: +1728 cells \(every cell of the table once\)$'
expect_error 2 check "sprague-grundy-sum does not apply to st.h5: .*domain" "$NS" check sprague-grundy-sum st.h5
expect_error 2 check "sprague-grundy-sum does not apply to w.h5: .*more than one pile" "$NS" check sprague-grundy-sum w.h5

# explicit components: one-pile Nim (G = n) fits the 3-pile Nim table, Bash(3)
# (G = n mod 4) does not
solve heap.h5 nim -D piles=1 --size 20
solve b3.h5 bash -D m=3 --size 20
expect_ok "$NS" check sprague-grundy-sum nim3.h5 --component heap.h5
run "$NS" check sprague-grundy-sum nim3.h5 --component b3.h5
expect_eq "wrong components exit" "$RC" 1
expect_error 2 check "--component only goes with sprague-grundy-sum" "$NS" check bouton nim3.h5 --component heap.h5
expect_error 2 check "2 --component tables for a 3-pile table" "$NS" check sprague-grundy-sum nim3.h5 --component heap.h5 --component heap.h5

# rule files: one of data/rules/ that implements a preset, unchanged, is
# checked as that preset (tests/unit/test_rules_presets.c proves the tables
# equal); a variant, an edited copy, or a file that only calls itself
# 'game wythoff' is refused with the reason
R=$SRC/data/rules
solve wr.h5 "$R/wythoff.rules" --size 200
expect_ok "$NS" check wythoff-golden wr.h5
expect_out '^checked: +40000 cells'
expect_out '^note: +the table.s game: rule file data/rules/wythoff.rules \(unchanged\), which gives the table of the preset .wythoff. cell by cell \(tests/unit/test_rules_presets.c\)$'
expect_out '^result: +PASS$'
expect_ok "$NS" check a-wythoff wr.h5
solve awr.h5 "$R/a-wythoff.rules" -D a=2 --size 200
expect_ok "$NS" check a-wythoff awr.h5
expect_out '^claim: +a = 2: '
expect_out 'preset .a-wythoff. a=2 cell by cell'
expect_out '^result: +PASS$'
solve awr3.h5 "$R/a-wythoff.rules" -D a=3 --size 150 --pn-only
expect_ok "$NS" check a-wythoff awr3.h5
expect_out '^claim: +a = 3: '
solve nimr.h5 "$R/nim.rules" --bounds 9,10,11,12
expect_ok "$NS" check bouton nimr.h5
expect_out 'preset .nim. piles=4 cell by cell'
expect_error 2 check "wythoff-golden does not apply to nimr.h5: this theorem is about the preset 'wythoff'; the table is of the game 'nim'" "$NS" check wythoff-golden nimr.h5
solve twr.h5 "$R/wythoff-twice.rules" --size 50
expect_error 2 check "wythoff-golden does not apply to twr.h5: .*not one of data/rules/ implementing a preset.*data/rules/wythoff-twice.rules \(unchanged\), which is not a preset" "$NS" check wythoff-golden twr.h5
cp "$R/wythoff.rules" edited.rules
echo "# edited" >>edited.rules
solve ed.h5 edited.rules --size 50
expect_error 2 check "wythoff-golden does not apply to ed.h5: .*a variant or an edited copy" "$NS" check wythoff-golden ed.h5
sed 's/^game wythoff-twice$/game wythoff/' "$R/wythoff-twice.rules" >named.rules
grep -q '^game wythoff$' named.rules || fail "named.rules has no 'game wythoff' line"
solve nm.h5 named.rules --size 50
expect_error 2 check "wythoff-golden does not apply to nm.h5: .*a variant or an edited copy" "$NS" check wythoff-golden nm.h5

run "$NS" check --list
expect_out '^wythoff-golden '
expect_out '^sprague-grundy-sum '
finish
