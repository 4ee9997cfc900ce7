#!/bin/bash
# `nimsieve census octal`: every octal code 0.d1d2 (56 codes, last digit
# non-zero) solved to N = 300; each row's period, preperiod, proven flag
# and max_value checked against a naive mex solver and period finder
# written here in Python (the periodicity theorem as stated by Guy and
# Smith: G(n + p) = G(n) for n0 <= n < j*n0 + (j-1)*p + k proves it for all
# n >= n0); groups against the naive sequences; the HDF5 table against the
# CSV; identical output at 1 and 2 threads; bad arguments refused. Some
# codes take an earlier code's sequence (ns_census.c: moves that leave one
# heap or none added, none of them ever the mex): the CLI says how many,
# and the naive check covers them as every other row.
# Usage: bash test_census.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.csv
PY=/usr/bin/python3
N=300

expect_ok "$NS" census octal --digits 2 --size $N -o "$WORK/c1.h5" --csv "$WORK/c1.csv" --threads 1
expect_out '^census: +octal codes of 2 digits \(56 codes'
expect_out '^groups: +[0-9]+ distinct sequences'
# codes whose sequence follows from a code with fewer one-heap moves take
# it (checked heap by heap, not solved): the naive check below covers them
expect_out '^derived: +[1-9][0-9]* codes took an earlier code'\''s sequence'
expect_ok "$NS" census octal --digits 2 --size $N -o "$WORK/c2.h5" --csv "$WORK/c2.csv" --threads 2
CHECKS=$((CHECKS + 1))
cmp -s "$WORK/c1.csv" "$WORK/c2.csv" || fail "CSV differs between 1 and 2 threads"
CHECKS=$((CHECKS + 1))
# (h5dump's first line names the file)
[ "$(h5dump -d /census "$WORK/c1.h5" | tail -n +2)" = "$(h5dump -d /census "$WORK/c2.h5" | tail -n +2)" ] ||
    fail "/census differs between 1 and 2 threads"
expect_eq "CSV header" "$(head -1 "$WORK/c1.csv")" "code,period,preperiod,proven,max_value,group,saltus"
expect_eq "CSV rows" "$(($(wc -l <"$WORK/c1.csv") - 1))" 56

cat >"$WORK/naive.py" <<'PYEOF'
import csv, sys
import h5py

digits, N, path_csv, path_h5 = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]

def grundy(d, N):
    """naive mex: d[t] bits 1 (take the whole heap), 2 (leave one heap),
    4 (leave two non-empty heaps)"""
    g = []
    for n in range(N):
        opts = set()
        for t in range(1, len(d)):
            if d[t] & 1 and n == t:
                opts.add(0)
            if d[t] & 2 and n > t:
                opts.add(g[n - t])
            if d[t] & 4:
                r = n - t
                for a in range(1, r // 2 + 1):
                    opts.add(g[a] ^ g[r - a])
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    return g

def n0_of(g, p):
    n0 = 0
    for i in range(len(g) - p):
        if g[i] != g[i + p]:
            n0 = i + 1
    return n0

def period(d, g):
    """the smallest p proved by the periodicity theorem; else the smallest
    p whose periodic tail spans two periods and half the sequence"""
    N = len(g)
    k = max(t for t in range(len(d)) if d[t])
    j = 2 if any(x & 4 for x in d) else 1
    for p in range(1, N // 2 + 1):
        if g[N - 1] != g[N - 1 - p]:
            continue
        n0 = n0_of(g, p)
        if N >= j * max(n0, 1) + j * p + k:
            return p, n0, 1, 0
    for p in range(1, N // 2 + 1):
        s = g[N - 1] - g[N - 1 - p]  # s > 0: an arithmetic period G(n+p) = G(n) + s
        if s < 0:
            continue
        n0 = max([i + 1 for i in range(N - p) if g[i + p] - g[i] != s], default=0)
        if N - n0 >= 2 * p and 2 * (N - n0) >= N:
            return p, n0, 0, s
    return 0, 0, 0, 0

codes = []
for v in range(8 ** digits):
    ds = [(v // 8 ** (digits - 1 - i)) % 8 for i in range(digits)]
    if ds[-1]:
        codes.append("0." + "".join(map(str, ds)))
rows = list(csv.DictReader(open(path_csv)))
bad = 0
def fail(msg):
    global bad
    bad += 1
    print("FAIL:", msg)
if [r["code"] for r in rows] != codes:
    fail("codes %s, expected %s" % ([r["code"] for r in rows][:8], codes[:8]))
seqs = []
for i, r in enumerate(rows):
    d = [0] + [int(c) for c in codes[i][2:]]
    g = grundy(d, N)
    seqs.append(g)
    p, n0, pr, s = period(d, g)
    want = (p, n0, pr, max(g), s)
    got = (int(r["period"]), int(r["preperiod"]), int(r["proven"]), int(r["max_value"]), int(r["saltus"]))
    if got != want:
        fail("%s: (period, preperiod, proven, max_value, saltus) = %s, naive %s" % (codes[i], got, want))
    first = next(j for j in range(i + 1) if seqs[j] == g)
    if int(r["group"]) != first:
        fail("%s: group %s, expected %d (first code with the same sequence)" % (codes[i], r["group"], first))
ngroups = len(set(tuple(s) for s in seqs))
with h5py.File(path_h5, "r") as f:
    t = f["census"][()]
    if len(t) != len(rows):
        fail("/census has %d rows, CSV %d" % (len(t), len(rows)))
    for a, r in zip(t, rows):
        h = (a["code"].decode(), int(a["period"]), int(a["preperiod"]), int(a["proven"]), int(a["max_value"]), int(a["group"]), int(a["saltus"]))
        c = (r["code"], int(r["period"]), int(r["preperiod"]), int(r["proven"]), int(r["max_value"]), int(r["group"]), int(r["saltus"]))
        if h != c:
            fail("/census row %s, CSV row %s" % (h, c))
    for name, want in (("digits", digits), ("size", N), ("codes", len(codes)), ("groups", ngroups),
                       ("proven", sum(int(r["proven"]) for r in rows))):
        if int(f.attrs[name]) != want:
            fail("attribute %s = %s, expected %s" % (name, f.attrs[name], want))
    for name in ("nimsieve_version", "created_utc"):
        if name not in f.attrs:
            fail("attribute %s missing" % name)
print("groups", ngroups)
sys.exit(1 if bad else 0)
PYEOF
run $PY "$WORK/naive.py" 2 $N "$WORK/c1.csv" "$WORK/c1.h5"
expect_eq "naive check of the D = 2 census" "$RC" 0
[ "$RC" -eq 0 ] || show
NG=$(sed -n 's/^groups //p' "$OUT")
run "$NS" census octal --digits 2 --size $N -o "$WORK/c1.h5"
expect_out "^groups: +$NG distinct sequences"

# one digit, a short run: 7 codes, also against the naive solver
expect_ok "$NS" census octal -d 1 -n 40 -o "$WORK/d1.h5" --csv "$WORK/d1.csv"
expect_eq "D = 1 rows" "$(($(wc -l <"$WORK/d1.csv") - 1))" 7
run $PY "$WORK/naive.py" 1 40 "$WORK/d1.csv" "$WORK/d1.h5"
expect_eq "naive check of the D = 1 census" "$RC" 0
[ "$RC" -eq 0 ] || show

# bad arguments: one line, exit 2, no file left
B="$WORK/bad.h5"
expect_error 2 census "--digits" "$NS" census octal --digits 0 --size 10 -o "$B"
expect_error 2 census "--digits" "$NS" census octal --digits 5 --size 10 -o "$B"
expect_error 2 census "--digits" "$NS" census octal --digits two --size 10 -o "$B"
expect_error 2 census "--size" "$NS" census octal --digits 2 --size 0 -o "$B"
expect_error 2 census "--size" "$NS" census octal --digits 2 --size -3 -o "$B"
expect_error 2 census "--size" "$NS" census octal --digits 2 --size 99999999999 -o "$B"
expect_error 2 census "--threads" "$NS" census octal --digits 2 --size 10 -o "$B" --threads 0
expect_error 2 census "missing --digits" "$NS" census octal --size 10 -o "$B"
expect_error 2 census "missing --size" "$NS" census octal --digits 2 -o "$B"
expect_error 2 census "missing -o" "$NS" census octal --digits 2 --size 10
expect_error 2 census "unknown family 'hexadecimal'" "$NS" census hexadecimal --digits 2 --size 10 -o "$B"
expect_error 2 census "missing family" "$NS" census --digits 2 --size 10 -o "$B"
expect_error 2 census "unknown option '--bogus'" "$NS" census octal --bogus -d 2 -n 10 -o "$B"
expect_error 2 census "cannot create" "$NS" census octal -d 1 -n 10 -o "$WORK/no/such/dir/x.h5"
CHECKS=$((CHECKS + 1))
[ ! -e "$B" ] || fail "a refused census left $B"
expect_ok "$NS" census --help
expect_out '7 x 8\^\(D-1\) codes'
finish
