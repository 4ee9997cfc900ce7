#!/bin/bash
# `nimsieve sweep`: variants with identical tables grouped (issue 20, item 2).
# - subtraction games S = every 3-subset of {1..8}: each row's group is the
#   first set whose naive mex sequence (written here) is the same, and
#   max_value its largest value; the summary line counts the groups;
# - a closed form: S = {1, 2, k} has G(n) = n mod 3 exactly when k is not a
#   multiple of 3 (G(n - k) is then one of the two residues n - 1 and n - 2
#   already give), so {1,2,4}, {1,2,5}, {1,2,7}, {1,2,8} share {1,2,4}'s
#   group and {1,2,3}, {1,2,6} open their own;
# - the groups at 1, 2 and 3 threads are the same.
# Usage: bash test_sweep_group.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.csv "$WORK"/*.part
PY=/usr/bin/python3
N=400

for T in 1 2 3; do
    expect_ok "$NS" sweep subtraction -D 'set=subsets(1..8,3)' --size $N -o "$WORK/g$T.h5" --threads $T
    expect_out '^groups: +[0-9]+ distinct tables among 56 variants$'
    sed -n 's/^groups: *//p' "$WORK/stdout" >"$WORK/summary$T"
    expect_ok "$NS" sweep --report "$WORK/g$T.h5" --csv
    cp "$WORK/stdout" "$WORK/g$T.csv"
done
expect_eq "CSV header" "$(head -1 "$WORK/g1.csv")" "set,p_positions,preperiod,period,proven,group,max_value,saltus,checks"
for T in 2 3; do
    CHECKS=$((CHECKS + 1))
    cmp -s "$WORK/g1.csv" "$WORK/g$T.csv" || fail "the groups differ between 1 and $T threads"
done

CHECKS=$((CHECKS + 1))
$PY - $N "$WORK/g1.csv" "$(cat "$WORK/summary1")" <<'PYEOF' >&2 || fail "groups off the naive sequences"
import csv, itertools, sys
N = int(sys.argv[1])
rows = list(csv.DictReader(open(sys.argv[2])))
sets = list(itertools.combinations(range(1, 9), 3))
assert [tuple(int(x) for x in r["set"].split(",")) for r in rows] == sets, "rows not in lexicographic order"
seqs = []
for S in sets:
    g = []
    for n in range(N):
        opts = {g[n - s] for s in S if s <= n}
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    seqs.append(g)
bad = 0
for i, (S, r) in enumerate(zip(sets, rows)):
    first = next(j for j in range(i + 1) if seqs[j] == seqs[i])
    want = (first, max(seqs[i]), 0)
    got = (int(r["group"]), int(r["max_value"]), int(r["saltus"]))
    if got != want:
        print(f"set {S}: group, max_value, saltus = {got}, expected {want}")
        bad += 1
# the closed form for {1, 2, k}
i124 = sets.index((1, 2, 4))
for k in range(3, 9):
    i = sets.index((1, 2, k))
    want = i124 if k % 3 else i
    if int(rows[i]["group"]) != want:
        print(f"set (1, 2, {k}): group {rows[i]['group']}, expected {want} (G(n) = n mod 3 iff 3 does not divide k)")
        bad += 1
ngroups = len(set(map(tuple, seqs)))
if sys.argv[3] != f"{ngroups} distinct tables among {len(sets)} variants":
    print(f"summary '{sys.argv[3]}', expected {ngroups} distinct tables")
    bad += 1
sys.exit(1 if bad else 0)
PYEOF

# the text report carries the columns too
expect_ok "$NS" sweep --report "$WORK/g1.h5"
expect_out '^set +p_positions +preperiod +period +proven +seconds +group +max_value +saltus +checks$'
# two piles: the groups and max_value columns follow the slopes
expect_ok "$NS" sweep a-wythoff -D a=1..3 --size 64 -o "$WORK/aw.h5"
expect_out '^groups: +3 distinct tables among 3 variants$'
expect_ok "$NS" sweep --report "$WORK/aw.h5" --csv
expect_eq "two-pile CSV header" "$(head -1 "$WORK/stdout")" "a,p_positions,slope_a,slope_b,group,max_value,complementary,beatty,const_a,const_b,cf_a,cf_b,rows_additive,additive_pmax,checks"
finish
