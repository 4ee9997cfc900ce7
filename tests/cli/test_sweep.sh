#!/bin/bash
# `nimsieve sweep` (issue 20, first slice):
# - a-Wythoff, a = 1..6: slope_a and slope_b against Fraenkel's closed form
#   (a_n = floor(n alpha), alpha = (2 - a + sqrt(a^2 + 4)) / 2, b_n = a_n + a n:
#   slopes alpha and alpha + a) within 2 / M, M the pairs in the box (the
#   least-squares slope of n alpha + e_n, 0 <= e_n < 1, against n = 1..M is
#   off by at most sum |n - mean| / (2 sum (n - mean)^2), about 1.5 / M),
#   and p_positions = 2 M + 1 with M counted from the closed form, at two
#   sizes;
# - subtraction games, set = every 3-subset of {1..9}: period, preperiod,
#   proven and p_positions against a naive mex solver and period finder
#   written here in Python;
# - the same catalogue at 1 and 2 threads; bad ranges refused before any work.
# Usage: bash test_sweep.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.csv "$WORK"/*.part
PY=/usr/bin/python3

cat >"$WORK/fraenkel.py" <<'PYEOF'
import csv, math, sys
N = int(sys.argv[1])
rows = list(csv.DictReader(open(sys.argv[2])))
bad = 0
assert [int(r["a"]) for r in rows] == list(range(1, len(rows) + 1)) and len(rows) in (2, 6), rows
for r in rows:
    a = int(r["a"])
    # alpha = (2 - a + sqrt(a^2 + 4)) / 2; a_n = floor(n alpha) in exact
    # integer arithmetic: floor(n alpha) = floor((n (2 - a) + sqrt(n^2 (a^2 + 4))) / 2)
    alpha = (2 - a + math.sqrt(a * a + 4)) / 2
    M = 0
    n = 1
    while True:
        an = (n * (2 - a) + math.isqrt(n * n * (a * a + 4))) // 2
        bn = an + a * n
        if bn >= N:
            break
        M += 1
        n += 1
    tol = 2.0 / M
    sa, sb, p = float(r["slope_a"]), float(r["slope_b"]), int(r["p_positions"])
    if abs(sa - alpha) > tol or abs(sb - (alpha + a)) > tol or p != 2 * M + 1:
        print(f"a={a}: slope_a {sa} slope_b {sb} p_positions {p}; expected {alpha} {alpha + a} "
              f"(tolerance {tol}), {2 * M + 1}")
        bad += 1
sys.exit(1 if bad else 0)
PYEOF

# (N = 2048 under ASan: a = 1..2, a third of the 31 s that 1..6 takes)
for N in 512 2048; do
    A=6
    [ "$SANITIZED" = 1 ] && [ $N = 2048 ] && A=2
    expect_ok "$NS" sweep a-wythoff -D a=1..$A --size $N -o "$WORK/aw$N.h5" --threads 2
    expect_out "^sweep: +a-wythoff -D a=1\\.\\.$A, $A variants"
    if [ $N = 512 ]; then expect_out 'side by side'; else expect_out 'one at a time, each with all threads'; fi
    expect_out "^slopes: +$A of $A variants fitted"
    expect_ok "$NS" sweep --report "$WORK/aw$N.h5" --csv
    cp "$WORK/stdout" "$WORK/aw$N.csv"
    expect_eq "a-wythoff CSV header" "$(head -1 "$WORK/aw$N.csv")" "a,p_positions,slope_a,slope_b,group,max_value,complementary,beatty,const_a,const_b,cf_a,cf_b,rows_additive,additive_pmax,checks"
    CHECKS=$((CHECKS + 1))
    $PY "$WORK/fraenkel.py" $N "$WORK/aw$N.csv" >&2 || fail "a-wythoff at N=$N: slopes or counts off Fraenkel's closed form"
done
CHECKS=$((CHECKS + 1))
[ ! -e "$WORK/aw512.h5.part" ] || fail "the .part file was left behind"

# large variants (2^22 cells: N = 2048) one at a time with all threads,
# small ones side by side; the catalogue the same either way (a sanitizer
# build, where N = 2048 takes 25 s, asks the other mode at N = 512 instead)
if [ "$SANITIZED" = 1 ]; then
    expect_ok "$NS" sweep a-wythoff -D a=1..6 --size 512 -o "$WORK/aw-side.h5" --threads 2 --one-at-a-time
    expect_out 'variants one at a time, each with all threads'
    expect_ok "$NS" sweep --report "$WORK/aw-side.h5" --csv
    expect_eq "a-wythoff N=512 one at a time = side by side" "$(cat "$WORK/stdout")" "$(cat "$WORK/aw512.csv")"
else
    expect_ok "$NS" sweep a-wythoff -D a=1..6 --size 2048 -o "$WORK/aw-side.h5" --threads 2 --side-by-side
    expect_out 'variants side by side, one per thread'
    expect_ok "$NS" sweep --report "$WORK/aw-side.h5" --csv
    expect_eq "a-wythoff N=2048 side by side = one at a time" "$(cat "$WORK/stdout")" "$(cat "$WORK/aw2048.csv")"
fi
expect_ok "$NS" sweep a-wythoff -D a=1..3 --size 512 -o "$WORK/aw-one.h5" --threads 2 --one-at-a-time
expect_out 'variants one at a time, each with all threads'
expect_ok "$NS" sweep --report "$WORK/aw-one.h5" --csv
expect_eq "a-wythoff N=512 one at a time = side by side" "$(cat "$WORK/stdout")" "$(head -4 "$WORK/aw512.csv")"
expect_error 2 sweep 'one of them' "$NS" sweep a-wythoff -D a=1..3 --size 512 -o "$WORK/x.h5" --one-at-a-time --side-by-side

# subtraction games: every 3-subset of {1..9}
N=300
expect_ok "$NS" sweep subtraction -D 'set=subsets(1..9,3)' --size $N -o "$WORK/s1.h5" --threads 1
expect_out '^sweep: +subtraction -D set=subsets\(1\.\.9,3\), 84 variants'
expect_ok "$NS" sweep subtraction -D 'set=subsets(1..9,3)' --size $N -o "$WORK/s2.h5" --threads 2
# an existing catalogue is kept unless --force
cp "$WORK/s2.h5" "$WORK/s2.keep"
expect_error 2 sweep "s2\.h5' exists: use --force" "$NS" sweep subtraction -D 'set=subsets(1..4,2)' --size $N -o "$WORK/s2.h5"
CHECKS=$((CHECKS + 1))
cmp -s "$WORK/s2.h5" "$WORK/s2.keep" || fail "a refused sweep changed $WORK/s2.h5"
expect_ok "$NS" sweep subtraction -D 'set=subsets(1..9,3)' --size $N -o "$WORK/s2.h5" --threads 2 --force
expect_ok "$NS" sweep --report "$WORK/s1.h5" --csv
cp "$WORK/stdout" "$WORK/s1.csv"
expect_ok "$NS" sweep --report "$WORK/s2.h5" --csv
cp "$WORK/stdout" "$WORK/s2.csv"
CHECKS=$((CHECKS + 1))
cmp -s "$WORK/s1.csv" "$WORK/s2.csv" || fail "the catalogue differs between 1 and 2 threads"
expect_eq "subtraction CSV header" "$(head -1 "$WORK/s1.csv")" "set,p_positions,preperiod,period,proven,group,max_value,saltus,checks"
# the HDF5 rows too, every column but seconds
CHECKS=$((CHECKS + 1))
$PY - "$WORK/s1.h5" "$WORK/s2.h5" <<'PYEOF' >&2 || fail "/sweep differs between 1 and 2 threads"
import sys
import h5py
t = [h5py.File(p, "r")["/sweep"][()] for p in sys.argv[1:3]]
names = [n for n in t[0].dtype.names if n != "seconds"]
assert len(t[0]) == 84 and "params" in names and "period" in names, names
sys.exit(0 if all(t[0][n].tobytes() == t[1][n].tobytes() for n in names) else 1)
PYEOF

cat >"$WORK/naive.py" <<'PYEOF'
import csv, itertools, sys
N = int(sys.argv[1])
rows = list(csv.DictReader(open(sys.argv[2])))
sets = list(itertools.combinations(range(1, 10), 3))
assert [tuple(int(x) for x in r["set"].split(",")) for r in rows] == sets, "rows not in lexicographic order"
bad = 0
for S, r in zip(sets, rows):
    g = []
    for n in range(N):
        opts = {g[n - s] for s in S if s <= n}
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    # the smallest p whose tail holds over the last half, then the smallest n0
    for p in range(1, N // 2):
        if all(g[n + p] == g[n] for n in range(N // 2, N - p)):
            break
    n0 = N - p
    while n0 > 0 and g[n0 - 1 + p] == g[n0 - 1]:
        n0 -= 1
    want = (g.count(0), n0, p, 1)
    got = (int(r["p_positions"]), int(r["preperiod"]), int(r["period"]), int(r["proven"]))
    if got != want:
        print(f"set {S}: got p_positions, preperiod, period, proven = {got}, expected {want}")
        bad += 1
sys.exit(1 if bad else 0)
PYEOF
CHECKS=$((CHECKS + 1))
$PY "$WORK/naive.py" $N "$WORK/s1.csv" >&2 || fail "subtraction games: periods off the naive finder"

# the text report
expect_ok "$NS" sweep --report "$WORK/s1.h5"
expect_out '^game: +subtraction$'
expect_out '^variants: +84$'
expect_out '^set +p_positions +preperiod +period +proven +seconds +group +max_value +saltus +checks$'

# bad ranges and arguments: refused with one line, exit 2, no file
B="$WORK/bad.h5"
expect_error 2 sweep "a=5\.\.1: empty range" "$NS" sweep a-wythoff -D a=5..1 --size 10 -o "$B"
expect_error 2 sweep "no parameter 'b'" "$NS" sweep a-wythoff -D b=1..3 --size 10 -o "$B"
expect_error 2 sweep "variant a=0" "$NS" sweep a-wythoff -D a=0..3 --size 10 -o "$B"
expect_error 2 sweep "too large" "$NS" sweep subtraction -D 'set=subsets(1..50,2)' --size 10 -o "$B"
expect_error 2 sweep "too many" "$NS" sweep subtraction -D 'set=subsets(1..30)' --size 10 -o "$B"
expect_error 2 sweep "variants" "$NS" sweep a-wythoff -D a=1..2000 -D b=1..1000 --size 10 -o "$B"
expect_error 2 sweep "given twice" "$NS" sweep a-wythoff -D a=1..2 -D a=3 --size 10 -o "$B"
expect_error 2 sweep "missing --size" "$NS" sweep a-wythoff -D a=1..2 -o "$B"
expect_error 2 sweep "missing -o" "$NS" sweep a-wythoff -D a=1..2 --size 10
expect_error 2 sweep "missing game" "$NS" sweep -D a=1..2 --size 10 -o "$B"
expect_error 2 sweep "two-pile variants take at most" "$NS" sweep a-wythoff -D a=1..2 --size 100000 -o "$B"
expect_error 2 sweep "has 3 piles" "$NS" sweep nim -D piles=3 --size 10 -o "$B"
expect_error 2 sweep "--csv goes with --report" "$NS" sweep a-wythoff --csv --size 10 -o "$B"
expect_error 2 sweep "cannot open" "$NS" sweep --report "$WORK/no-such.h5"
expect_error 2 sweep "cannot create" "$NS" sweep bash -D m=2,3 --size 10 -o "$WORK/no/such/dir/x.h5"
CHECKS=$((CHECKS + 1))
[ ! -e "$B" ] || fail "a refused sweep left $B"
expect_ok "$NS" sweep --help
expect_out 'subsets\(1\.\.12,3\)'
expect_out '--resume +continue the interrupted sweep'
finish
