#!/bin/bash
# `nimsieve sweep octal -D code=octal(D)` (issue 20, item 5: the census is a
# sweep over codes, one machinery):
# - the sweep's rows for D = 2 equal the census file's (period, preperiod,
#   proven, max_value, group, saltus), at 1 and 2 threads;
# - published periods (Guy and Smith 1956, Winning Ways ch. 16): Kayles 0.77
#   period 12, last exceptional value at n = 70 (preperiod 71); Dawson's
#   chess 0.137 period 34, last exception at n = 51 (preperiod 52); Dawson's
#   Kayles 0.07 is Dawson's chess moved up one heap size (G_0.07(n + 1) =
#   G_0.137(n)), so period 34, preperiod 53; all proven at N = 300;
# - octal(1..2): the 7 codes of one digit, then the 56 of two; the one-digit
#   rows and the closed forms 0.3 (G(n) = n mod 2) and 0.33 (G(n) = n mod 3)
#   against a naive mex solver written here;
# - bad octal ranges refused before any work.
# Usage: bash test_sweep_octal.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.csv "$WORK"/*.part
PY=/usr/bin/python3
N=300

expect_ok "$NS" census octal --digits 2 --size $N -o "$WORK/census.h5" --threads 2
for T in 1 2; do
    expect_ok "$NS" sweep octal -D 'code=octal(2)' --size $N -o "$WORK/sw$T.h5" --threads $T
    expect_out '^sweep: +octal -D code=octal\(2\), 56 variants'
    expect_out '^groups: +[0-9]+ distinct tables among 56 variants'
done
expect_ok "$NS" sweep --report "$WORK/sw1.h5" --csv
cp "$WORK/stdout" "$WORK/sw1.csv"
expect_eq "octal sweep CSV header" "$(head -1 "$WORK/sw1.csv")" \
    "code,p_positions,preperiod,period,proven,group,max_value,saltus,checks"

CHECKS=$((CHECKS + 1))
$PY - "$WORK/census.h5" "$WORK/sw1.h5" "$WORK/sw2.h5" <<'PYEOF' >&2 || fail "the octal sweep's rows differ from the census's"
import sys
import h5py
c = h5py.File(sys.argv[1], "r")["/census"][()]
bad = 0
for path in sys.argv[2:]:
    s = h5py.File(path, "r")["/sweep"][()]
    if len(s) != len(c):
        print(f"{path}: {len(s)} rows, census {len(c)}")
        sys.exit(1)
    for a, b in zip(c, s):
        code = a["code"].decode()
        if b["params"].decode() != "code=" + code:
            print(f"{path}: row params {b['params']}, census code {code}")
            bad += 1
        for col in ("period", "preperiod", "proven", "max_value", "group", "saltus"):
            if int(a[col]) != int(b[col]):
                print(f"{path}: {code}: {col} {int(b[col])}, census {int(a[col])}")
                bad += 1
sys.exit(1 if bad else 0)
PYEOF

# published periods
lit() {  # code period preperiod
    expect_ok "$NS" sweep octal -D "code=$1" --size $N -o "$WORK/lit.h5" --force
    expect_ok "$NS" sweep --report "$WORK/lit.h5" --csv
    expect_eq "code $1 (period, preperiod, proven)" "$(sed -n 2p "$WORK/stdout" | cut -d, -f3-5)" "$3,$2,1"
}
lit 0.77 12 71
lit 0.137 34 52
lit 0.07 34 53

# octal(1..2) against a naive mex solver
expect_ok "$NS" sweep octal -D 'code=octal(1..2)' --size 60 -o "$WORK/d12.h5"
expect_out ', 63 variants'
expect_ok "$NS" sweep --report "$WORK/d12.h5" --csv
cp "$WORK/stdout" "$WORK/d12.csv"
CHECKS=$((CHECKS + 1))
$PY - 60 "$WORK/d12.csv" <<'PYEOF' >&2 || fail "octal(1..2): rows off the naive solver"
import csv, sys
N = int(sys.argv[1])
rows = list(csv.DictReader(open(sys.argv[2])))
codes = ["0.%d" % a for a in range(1, 8)] + ["0.%d%d" % (a, b) for a in range(8) for b in range(1, 8)]
assert [r["code"] for r in rows] == codes, [r["code"] for r in rows][:10]

def grundy(code):
    d = [0] + [int(c) for c in code[2:]]
    g = []
    for n in range(N):
        opts = set()
        for t in range(1, len(d)):
            if d[t] & 1 and n == t:
                opts.add(0)
            if d[t] & 2 and n > t:
                opts.add(g[n - t])
            if d[t] & 4:
                for a in range(1, (n - t) // 2 + 1):
                    opts.add(g[a] ^ g[n - t - a])
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    return g

bad = 0
seqs = [grundy(c) for c in codes]
# closed forms: 0.3 is n mod 2, 0.33 is n mod 3
assert seqs[codes.index("0.3")] == [n % 2 for n in range(N)]
assert seqs[codes.index("0.33")] == [n % 3 for n in range(N)]
for i, (c, r) in enumerate(zip(codes, rows)):
    g = seqs[i]
    first = next(j for j in range(i + 1) if seqs[j] == g)
    want = (g.count(0), max(g), first)
    got = (int(r["p_positions"]), int(r["max_value"]), int(r["group"]))
    if got != want:
        print(f"{c}: p_positions, max_value, group = {got}, naive {want}")
        bad += 1
for c, p, n0 in (("0.3", 2, 0), ("0.33", 3, 0)):
    r = rows[codes.index(c)]
    got = (int(r["period"]), int(r["preperiod"]), int(r["saltus"]))
    if got != (p, n0, 0):
        print(f"{c}: period, preperiod, saltus = {got}, closed form {(p, n0, 0)}")
        bad += 1
sys.exit(1 if bad else 0)
PYEOF

B="$WORK/bad.h5"
expect_error 2 sweep "code digits 1 <= lo <= hi <= 4" "$NS" sweep octal -D 'code=octal(5)' --size 10 -o "$B"
expect_error 2 sweep "code digits 1 <= lo <= hi <= 4" "$NS" sweep octal -D 'code=octal(0)' --size 10 -o "$B"
expect_error 2 sweep "code digits 1 <= lo <= hi <= 4" "$NS" sweep octal -D 'code=octal(3..2)' --size 10 -o "$B"
expect_error 2 sweep "expected octal\(D\) or octal\(lo\.\.hi\)" "$NS" sweep octal -D 'code=octal(x)' --size 10 -o "$B"
expect_error 2 sweep "expected octal\(D\)" "$NS" sweep octal -D 'code=octal(2' --size 10 -o "$B"
expect_error 2 sweep "no parameter 'n'" "$NS" sweep octal -D 'n=octal(2)' --size 10 -o "$B"
CHECKS=$((CHECKS + 1))
[ ! -e "$B" ] || fail "a refused sweep left $B"
finish
