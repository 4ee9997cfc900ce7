#!/bin/bash
# `nimsieve sweep --report` conjectures and `--json` (issue 20):
# - a-Wythoff, a = 1..10 in [0,512)^2: conjecture 1 is Fraenkel's
#   slope_a = (2 - a + sqrt(a^2 + 4))/2, 2 is slope_b = alpha + a; the JSON
#   parses (python3 json), holds the CSV's rows, and its first conjecture's
#   coefficients, evaluated here, are within the printed tolerance of
#   every slope, and the tolerance is 1.5K/(K^2-1) with K the pairs
#   a_n < b_n < 512 counted here from alpha in exact integers;
# - Bash's game, m = 1..12: 'period = m + 1' (Bash's closed form), each
#   period proven; JSON m = 1, c = 1 and the periods m + 1 from a naive mex
#   written here;
# - NaN slopes come out as null; --json and --csv refused together, and
#   --json without --report.
# Usage: bash test_sweep_conj.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.json "$WORK"/*.csv
PY=/usr/bin/python3

expect_ok "$NS" sweep a-wythoff -D a=1..10 --size 512 -o "$WORK/aw.h5"
expect_ok "$NS" sweep --report "$WORK/aw.h5"
expect_out '^conjectures'
expect_out '^  1\. slope_a = \(2 - a \+ sqrt\(a\^2 \+ 4\)\)/2 for a = 1\.\.10: observed for all 10 variants'
expect_out '^  2\. slope_b = \(2 \+ a \+ sqrt\(a\^2 \+ 4\)\)/2 for a = 1\.\.10: observed for all 10 variants'
expect_no_out '^  [0-9]+\..*proven'
expect_ok "$NS" sweep --report "$WORK/aw.h5" --csv
cp "$OUT" "$WORK/aw.csv"
expect_no_out 'conjectures'
expect_ok "$NS" sweep --report "$WORK/aw.h5" --json
cp "$OUT" "$WORK/aw.json"
CHECKS=$((CHECKS + 1))
if ! $PY - "$WORK/aw.json" "$WORK/aw.csv" <<'PYEOF'; then
import csv, json, math, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert d["kind"] == "sweep" and d["piles"] == 2 and d["size"] == 512, d
assert d["parameters"] == ["a"], d["parameters"]
v = d["variants"]
assert [x["params"]["a"] for x in v] == list(range(1, 11)), v
for x, r in zip(v, rows):
    assert x["p_positions"] == int(r["p_positions"]), (x, r)
    assert abs(x["slope_a"] - float(r["slope_a"])) < 1e-6 * x["slope_a"], (x, r)
    assert x["group"] == int(r["group"]) and x["max_value"] == int(r["max_value"]), (x, r)
c = d["conjectures"]
assert c[0]["rank"] == 1 and c[0]["kind"] == "closed" and c[0]["field"] == "slope_a", c[0]
assert (c[0]["p"], c[0]["q"], c[0]["r"], c[0]["s"], c[0]["t"], c[0]["u"]) == (2, -1, 1, 0, 4, 2), c[0]
assert c[1]["field"] == "slope_b" and (c[1]["p"], c[1]["q"], c[1]["u"]) == (2, 1, 2), c[1]
mind = 1e9
for x in v:
    a = x["params"]["a"]
    # K: pairs a_n < b_n < 512, a_n = floor(n alpha) in exact integers
    K, n = 0, 1
    while True:
        an = (n * (2 - a) + math.isqrt(n * n * (a * a + 4))) // 2
        if an + a * n >= 512:
            break
        K, n = K + 1, n + 1
    assert x["p_positions"] == 2 * K + 1, (x, K)
    tol = 1.5 * K / (K * K - 1)
    mind = min(mind, tol)
    for q, s in ((c[0], x["slope_a"]), (c[1], x["slope_b"])):
        f = (q["p"] + q["q"] * a + math.sqrt(q["r"] * a * a + q["s"] * a + q["t"])) / q["u"]
        assert abs(f - s) <= tol, (a, f, s, tol)
        assert abs(f - s) <= q["max_dev"] + 1e-12, (a, f, s, q["max_dev"])
assert abs(c[0]["tol"] - mind) < 1e-9, (c[0]["tol"], mind)
PYEOF
    fail "a-Wythoff JSON against Fraenkel's form"
fi

# Bash's game: period m + 1
expect_ok "$NS" sweep bash -D m=1..12 --size 300 -o "$WORK/bash.h5"
expect_ok "$NS" sweep --report "$WORK/bash.h5"
expect_out '^  [0-9]+\. period = m \+ 1 for m = 1\.\.12: observed for all 12 variants at heap sizes < 300; each period proven'
expect_out '^  [0-9]+\. every variant is periodic'
expect_ok "$NS" sweep --report "$WORK/bash.h5" --json
cp "$OUT" "$WORK/bash.json"
CHECKS=$((CHECKS + 1))
if ! $PY - "$WORK/bash.json" <<'PYEOF'; then
import json, sys
d = json.load(open(sys.argv[1]))
def period(m, N=300):
    g = []
    for h in range(N):
        s = {g[h - k] for k in range(1, m + 1) if h - k >= 0}
        x = 0
        while x in s:
            x += 1
        g.append(x)
    for p in range(1, N // 3):
        if all(g[i] == g[i + p] for i in range(N - p)):
            return p
    return 0
for x in d["variants"]:
    m = x["params"]["m"]
    assert x["period"] == period(m) == m + 1 and x["preperiod"] == 0 and x["proven"] is True, x
lin = [c for c in d["conjectures"] if c["kind"] == "linear" and c["field"] == "period"]
assert len(lin) == 1 and lin[0]["m"] == 1 and lin[0]["c"] == 1 and lin[0]["covered"] == 12 and lin[0]["all_proven"], lin
PYEOF
    fail "Bash JSON against a naive period finder"
fi

# Two parameters, two piles: a-Wythoff with a = b + c - 1 (diagonal
# offsets |d| <= b + c - 2). Fraenkel: alpha(a) = (2 - a + sqrt(a^2+4))/2;
# with a = b + (c-1): a^2 + 4 = b^2 + 2(c-1) b + (c-1)^2 + 4, so in b for
# each c: p = 3 - c, q = -1, r = 1, s = 2c - 2, t = (c-1)^2 + 4, u = 2
# (t not linear in c), and beta = alpha + a: p = c + 1, q = 1.
cat > "$WORK/bc.rules" <<'EOF'
game bc-wythoff
param b = 1
param c = 1
require b >= 1
require c >= 1
piles x y
move x -> x - t                       for t in 1..x
move y -> y - t                       for t in 1..y
move (x, y) -> (x - k, y - k - d)     for d in 2-b-c..b+c-2, k in max(1, 1-d)..min(x, y-d)
EOF
expect_ok "$NS" sweep "$WORK/bc.rules" -D b=1..5 -D c=1..3 --size 1024 -o "$WORK/bc.h5"
expect_ok "$NS" sweep --report "$WORK/bc.h5"
expect_out 'slope_a is a closed form in b for each value of c, the forms differ \(3 groups, 3 different forms; c=1: \(2 - b \+ sqrt\(b\^2 \+ 4\)\)/2; c=2: \(1 - b \+ sqrt\(b\^2 \+ 2b \+ 5\)\)/2; c=3: \(-b \+ sqrt\(b\^2 \+ 4b \+ 8\)\)/2\): observed'
expect_out "slope_a's closed forms in b .*: p = -c \+ 3, q = -1, r = 1, s = 2c - 2, u = 2; not linear in c: t \(4, 5, 8\)"
expect_ok "$NS" sweep --report "$WORK/bc.h5" --json
cp "$OUT" "$WORK/bc.json"
CHECKS=$((CHECKS + 1))
if ! $PY - "$WORK/bc.json" <<'PYEOF'; then
import json, math, sys
d = json.load(open(sys.argv[1]))
cj = d["conjectures"]
def K_of(a, N=1024):   # pairs a_n < b_n < N, a_n = floor(n alpha) in exact integers
    K, n = 0, 1
    while (n * (2 - a) + math.isqrt(n * n * (a * a + 4))) // 2 + a * n < N:
        K, n = K + 1, n + 1
    return K
for field, p_of in (("slope_a", lambda c: 3 - c), ("slope_b", lambda c: c + 1)):
    q1 = 1 if field == "slope_b" else -1
    for c in (1, 2, 3):
        want = (p_of(c), q1, 1, 2 * c - 2, (c - 1) ** 2 + 4, 2)
        f = [x for x in cj if x["kind"] == "closed" and x["field"] == field and x["param"] == "b"
             and x.get("forms") == 1 and "by" not in x
             and (x["p"], x["q"], x["r"], x["s"], x["t"], x["u"]) == want]
        assert len(f) == 1 and f[0]["covered"] == 5, (field, c, f)
        for v in d["variants"]:
            if v["params"]["c"] != c:
                continue
            b = v["params"]["b"]; a = b + c - 1
            K = K_of(a)
            assert v["p_positions"] == 2 * K + 1, (v, K)
            val = (want[0] + want[1] * b + math.sqrt(b * b + want[3] * b + want[4])) / 2
            assert abs(val - v[field]) <= 1.5 * K / (K * K - 1), (field, v, val)
    co = [x for x in cj if x["field"] == field and x.get("by") == "c" and x["param"] == "b"]
    assert len(co) == 1, co
    assert co[0]["coef"] == {"p": [1 if field == "slope_b" else -1, 1 if field == "slope_b" else 3],
                             "q": [0, q1], "r": [0, 1], "s": [2, -2], "u": [0, 2]}, co[0]
PYEOF
    fail "two-parameter a-Wythoff (a = b + c - 1) against Fraenkel's form"
fi

# Two parameters, one pile: take t with a <= t <= b. P-positions are the
# n with n mod (a+b) < a (from r < a every move lands in [a, a+b) mod a+b;
# from r >= a the move t = max(a, r-a+1) <= min(b, r) lands in [0, a)), so
# the period is a + b, preperiod 0: in b for each a, m = 1 and c = a.
cat > "$WORK/ab.rules" <<'EOF'
game take-a-to-b
param a = 1
param b = 2
require a >= 1
require b >= a
piles n
move n -> n - t    for t in a..min(b, n)
EOF
expect_ok "$NS" sweep "$WORK/ab.rules" -D a=1..4 -D b=4..9 --size 400 -o "$WORK/ab.h5"
expect_ok "$NS" sweep --report "$WORK/ab.h5"
expect_out '^  [0-9]+\. period = m b \+ c with m = 1, c = a for b = 4\.\.9 and every a = 1\.\.4 .*: observed for all 24 variants'
expect_ok "$NS" sweep --report "$WORK/ab.h5" --json
cp "$OUT" "$WORK/ab.json"
CHECKS=$((CHECKS + 1))
if ! $PY - "$WORK/ab.json" <<'PYEOF'; then
import json, sys
d = json.load(open(sys.argv[1]))
def period(a, b, N=400):
    g = []
    for h in range(N):
        s = {g[h - t] for t in range(a, b + 1) if h - t >= 0}
        x = 0
        while x in s:
            x += 1
        g.append(x)
    for p in range(1, N // 3):
        if all(g[i] == g[i + p] for i in range(N - p)):
            return p
    return 0
for v in d["variants"]:
    a, b = v["params"]["a"], v["params"]["b"]
    assert v["period"] == period(a, b) == a + b and v["preperiod"] == 0, v
law = [c for c in d["conjectures"] if c["kind"] == "linear" and c.get("by") == "a" and c["param"] == "b"]
assert len(law) == 1 and law[0]["coef"] == {"m": [0, 1], "c": [1, 0]} and law[0]["covered"] == 24, law
PYEOF
    fail "take a..b against a naive mex: period a + b"
fi

# NaN slopes: null in JSON
expect_ok "$NS" sweep moore -D piles=2 -D k=1..2 --size 40 -o "$WORK/moore.h5"
expect_ok "$NS" sweep --report "$WORK/moore.h5" --json
cp "$OUT" "$WORK/moore.json"
CHECKS=$((CHECKS + 1))
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); assert all(v["slope_a"] is None for v in d["variants"]), d' \
    "$WORK/moore.json" || fail "NaN slopes as null"
expect_ok "$NS" sweep --report "$WORK/moore.h5"
expect_out '^  none'

expect_error 2 sweep 'one of them' "$NS" sweep --report "$WORK/aw.h5" --json --csv
expect_error 2 sweep '--json goes with --report' "$NS" sweep a-wythoff -D a=1..2 --size 64 -o "$WORK/x.h5" --json
finish
