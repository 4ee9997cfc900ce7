#!/bin/bash
# The analysis columns of a sweep catalogue (issue 20 item 1):
# - a-Wythoff, a = 1..6, N = 2048 (1024 in a sanitizer build): complementary = 1, beatty = 1, checks
#   "a-wythoff:ok"; const_a and const_b are Fraenkel's alpha =
#   (2 - a + sqrt(a^2 + 4)) / 2 and alpha + a, checked in exact arithmetic
#   in Q(sqrt d) (the text parsed, the quadratic x^2 + (a-2) x - a = 0
#   satisfied by x and by x - a, x > 0); cf_a and cf_b expand to the
#   continued fractions of alpha and alpha + a computed here by the exact
#   integer algorithm for (P + sqrt D) / Q; and const_*, cf_* equal what
#   `nimsieve patterns` prints for the solved file of the same variant;
# - Nim, two piles, N = 40 and 256: rows_additive and additive_pmax as the
#   definition (G(x, y+p) = G(x, y) + p for y >= y0, p <= N/3, seen over
#   two periods and a quarter of the row, rows x < min(N, 64)) gives on
#   G = x xor y computed here, and as the closed form implies: p = the
#   smallest power of 2 > x, y0 = 0; checks bouton and
#   sprague-grundy-sum, both ok;
# - bash, m = 1..4 (one pile): checks "bash:ok"; subtraction, the 3-subsets
#   of {1..4}: "bash:ok" for {1,2,3} (= bash m = 3) only; the shipped
#   data/rules/a-wythoff.rules: "a-wythoff:ok" as for `check`;
# - rule files no theorem is about (a renamed copy of a-wythoff.rules, a
#   one-pile "take 1 or m"): checks empty, the other columns still there;
# - the same columns in --json, and the text report.
# Usage: bash test_sweep_cols.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.csv "$WORK"/*.part "$WORK"/*.txt "$WORK"/*.json
PY=/usr/bin/python3

# ---- a-Wythoff ---- (N = 1024 in a sanitizer build: 2048 takes a minute there)
N=2048
[ "$SANITIZED" = 1 ] && N=1024
expect_ok "$NS" sweep a-wythoff -D a=1..6 --size $N -o "$WORK/aw.h5" --threads 2
expect_ok "$NS" sweep --report "$WORK/aw.h5" --csv
cp "$WORK/stdout" "$WORK/aw.csv"
expect_eq "a-wythoff CSV header" "$(head -1 "$WORK/aw.csv")" \
    "a,p_positions,slope_a,slope_b,group,max_value,complementary,beatty,const_a,const_b,cf_a,cf_b,rows_additive,additive_pmax,checks"
for a in 1 2 3 4 5 6; do
    expect_ok "$NS" solve a-wythoff -D a=$a --size $N -o "$WORK/aw$a.h5" --quiet
    expect_ok "$NS" patterns "$WORK/aw$a.h5"
    cp "$WORK/stdout" "$WORK/pat$a.txt"
done

cat >"$WORK/fraenkel.py" <<'PYEOF'
import csv, math, re, sys
work = sys.argv[1]
rows = list(csv.DictReader(open(f"{work}/aw.csv")))
bad = []
assert [int(r["a"]) for r in rows] == list(range(1, 7)), rows

def parse(text):
    """(p, q, d, r) of "(p+q sqrt(d))/r" as the tool writes it"""
    m = re.fullmatch(r"\(?(-?\d+)?([+-])?(\d*)\*?sqrt\((\d+)\)\)?(?:/(\d+))?", text)
    if not m:
        raise ValueError(f"not a quadratic irrational: {text!r}")
    p = int(m.group(1) or 0)
    q = int(m.group(3) or 1) * (-1 if m.group(2) == "-" else 1)
    return p, q, int(m.group(4)), int(m.group(5) or 1)

def is_root(p, q, d, r, a):
    """x = (p + q sqrt d)/r satisfies x^2 + (a-2) x - a = 0 and x > 0, exactly
    (d not a square: rational and sqrt parts vanish apart)"""
    assert math.isqrt(d) ** 2 != d
    rat = p * p + q * q * d + (a - 2) * p * r - a * r * r
    irr = 2 * p * q + (a - 2) * q * r
    # x > 0: p + q sqrt d > 0 (r > 0)
    pos = (p >= 0 and q > 0) or (q > 0 and q * q * d > p * p) or (p > 0 and q < 0 and p * p > q * q * d)
    return rat == 0 and irr == 0 and pos

def cf_of(P, D, Q, n):
    """the first n terms of (P + sqrt D) / Q, exactly (Q | D - P^2)"""
    out = []
    s = math.isqrt(D)
    for _ in range(n):
        t = (P + s) // Q if Q > 0 else (P + s + 1) // Q
        out.append(t)
        P = t * Q - P
        Q = (D - P * P) // Q
    return out

def expand(text, n):
    """the tool's "[a0; a1, (p1, p2)]" expanded to n terms"""
    m = re.fullmatch(r"\[(.*)\]", text)
    body = m.group(1).replace(";", ",")
    pre, per = body, ""
    if "(" in body:
        pre, per = body.split("(")
        per = per.rstrip(")")
    pre = [int(x) for x in pre.split(",") if x.strip()]
    per = [int(x) for x in per.split(",") if x.strip()]
    out = list(pre)
    while per and len(out) < n:
        out += per
    return out[:n]

for r in rows:
    a = int(r["a"])
    if r["complementary"] != "1" or r["beatty"] != "1":
        bad.append(f"a={a}: complementary {r['complementary']}, beatty {r['beatty']} (expected 1, 1)")
    if r["checks"] != "a-wythoff:ok":
        bad.append(f"a={a}: checks {r['checks']!r} (expected 'a-wythoff:ok')")
    # alpha = (2 - a + sqrt(a^2 + 4)) / 2: a root of x^2 + (a - 2) x - a
    pa = parse(r["const_a"])
    if not is_root(*pa, a):
        bad.append(f"a={a}: const_a {r['const_a']} is not (2 - a + sqrt(a^2 + 4))/2")
    p, q, d, rr = parse(r["const_b"])
    if not is_root(p - a * rr, q, d, rr, a):
        bad.append(f"a={a}: const_b {r['const_b']} is not alpha + a")
    # continued fractions: alpha = (2 - a + sqrt(a^2 + 4)) / 2, alpha + a = (2 + a + sqrt(..)) / 2
    want_a = cf_of(2 - a, a * a + 4, 2, 12)
    want_b = cf_of(2 + a, a * a + 4, 2, 12)
    if expand(r["cf_a"], 12) != want_a or expand(r["cf_b"], 12) != want_b:
        bad.append(f"a={a}: cf_a {r['cf_a']}, cf_b {r['cf_b']}; expected the terms {want_a}, {want_b}")
    # what `patterns` prints for the same variant: "constant: TEXT = VALUE = CF, in the interval"
    cons = re.findall(r"^    constant: (\S+) = [0-9.]+ = (\[[^\]]*\]),", open(f"{work}/pat{a}.txt").read(), re.M)
    if cons[:2] != [(r["const_a"], r["cf_a"]), (r["const_b"], r["cf_b"])]:
        bad.append(f"a={a}: sweep {r['const_a']} {r['cf_a']} {r['const_b']} {r['cf_b']}; patterns prints {cons[:2]}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PYEOF
CHECKS=$((CHECKS + 1))
$PY "$WORK/fraenkel.py" "$WORK" >&2 || fail "a-wythoff: the analysis columns disagree with Fraenkel's closed form or with patterns"

# ---- Nim, two piles: additive periods of the rows ----
cat >"$WORK/nim.py" <<'PYEOF'
import csv, sys
N = int(sys.argv[1])
r = list(csv.DictReader(open(sys.argv[2])))
assert len(r) == 1, r
r = r[0]
R = min(N, 64)
pmax_search = N // 3
found, pmax = 0, 0
for x in range(R):
    G = [x ^ y for y in range(N)]
    for p in range(1, pmax_search + 1):
        # the smallest y0 with G(x, y+p) = G(x, y) + p for y0 <= y < N - p
        y = N - 1 - p
        while y >= 0 and G[y + p] - G[y] == p:
            y -= 1
        y0 = y + 1
        verified = N - p - y0
        if verified >= 2 * p and verified >= N // 4:
            # the closed form: p is the smallest power of 2 above x, from y0 = 0
            q = 1
            while q <= x:
                q *= 2
            assert (p, y0) == (q, 0), (x, p, y0, q)
            found += 1
            pmax = max(pmax, p)
            break
got = (int(r["rows_additive"]), int(r["additive_pmax"]))
checks = set(r["checks"].split(","))
ok = got == (found, pmax) and checks == {"bouton:ok", "sprague-grundy-sum:ok"}
if not ok:
    print(f"N={N}: rows_additive, additive_pmax = {got}, checks {r['checks']!r}; expected {(found, pmax)}, "
          "bouton:ok and sprague-grundy-sum:ok")
sys.exit(0 if ok else 1)
PYEOF
for N in 40 256; do
    expect_ok "$NS" sweep nim -D piles=2 --size $N -o "$WORK/nim$N.h5"
    expect_ok "$NS" sweep --report "$WORK/nim$N.h5" --csv
    cp "$WORK/stdout" "$WORK/nim$N.csv"
    CHECKS=$((CHECKS + 1))
    $PY "$WORK/nim.py" $N "$WORK/nim$N.csv" >&2 || fail "nim at N=$N: additive rows or checks off a xor b"
done

# ---- one pile: bash ----
expect_ok "$NS" sweep bash -D m=1..4 --size 100 -o "$WORK/bash.h5"
expect_ok "$NS" sweep --report "$WORK/bash.h5" --csv
expect_eq "bash CSV" "$(cut -d, -f1,9 "$WORK/stdout")" "$(printf 'm,checks\n1,bash:ok\n2,bash:ok\n3,bash:ok\n4,bash:ok')"

# subtraction with S = {1..m} is bash (check's bash theorem applies), no
# other 3-subset of {1..4} is
expect_ok "$NS" sweep subtraction -D 'set=subsets(1..4,3)' --size 100 -o "$WORK/sub.h5"
expect_ok "$NS" sweep --report "$WORK/sub.h5" --csv
expect_eq "subtraction checks" \
    "$($PY -c 'import csv, sys; print(" ".join(r["set"] + ":" + r["checks"] for r in csv.DictReader(open(sys.argv[1]))))' "$WORK/stdout")" \
    "1,2,3:bash:ok 1,2,4: 1,3,4: 2,3,4:"

# a data/rules file byte for byte: the preset it implements, as for check
expect_ok "$NS" sweep "$SRC/data/rules/a-wythoff.rules" -D a=1..2 --size 128 -o "$WORK/shipped.h5"
expect_ok "$NS" sweep --report "$WORK/shipped.h5" --csv
expect_eq "shipped a-wythoff.rules: checks" "$(cut -d, -f1,15 "$WORK/stdout")" "$(printf 'a,checks\n1,a-wythoff:ok\n2,a-wythoff:ok')"

# ---- rule files no theorem is about: checks empty ----
sed 's/^game a-wythoff$/game my-a-wythoff/' "$SRC/data/rules/a-wythoff.rules" >"$WORK/myaw.rules"
expect_ok "$NS" sweep "$WORK/myaw.rules" -D a=1..3 --size 256 -o "$WORK/myaw.h5"
expect_ok "$NS" sweep --report "$WORK/myaw.h5" --csv
CHECKS=$((CHECKS + 1))
$PY - "$WORK/stdout" <<'PYEOF' >&2 || fail "a rule-file variant: checks not empty, or the other columns missing"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 3, rows
for r in rows:
    assert r["checks"] == "", r
    assert r["complementary"] == "1" and r["beatty"] == "1" and r["const_a"], r
PYEOF
cat >"$WORK/one.rules" <<'EOF'
# one pile: take 1 or m
game take-one-or-m
param m = 3
require m >= 2
piles n
move n -> n - 1      for t in 1..min(n, 1)
move n -> n - m      for t in 1..min(n / m, 1)
EOF
expect_ok "$NS" sweep "$WORK/one.rules" -D m=2..4 --size 60 -o "$WORK/one.h5"
expect_ok "$NS" sweep --report "$WORK/one.h5" --csv
expect_eq "one-pile rule file: checks empty" "$(cut -d, -f1,9 "$WORK/stdout")" "$(printf 'm,checks\n2,\n3,\n4,')"

# ---- --json and the text report carry the same columns ----
expect_ok "$NS" sweep --report "$WORK/aw.h5" --json
cp "$WORK/stdout" "$WORK/aw.json"
CHECKS=$((CHECKS + 1))
$PY - "$WORK/aw.json" "$WORK/aw.csv" "$WORK/nim40.h5" <<'PYEOF' >&2 || fail "--json columns differ from the CSV"
import csv, json, sys
j = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
for v, r in zip(j["variants"], rows):
    for k in ("const_a", "const_b", "cf_a", "cf_b", "checks"):
        assert v[k] == r[k], (k, v[k], r[k])
    for k in ("rows_additive", "additive_pmax"):
        assert v[k] == int(r[k]), (k, v[k], r[k])
    assert v["complementary"] is True and v["beatty"] is True, v
PYEOF
# a catalogue written before these columns (its /sweep rewritten here
# without them): the report leaves them out and says so, never 0 or ""
CHECKS=$((CHECKS + 1))
$PY - "$WORK/aw.h5" "$WORK/old.h5" <<'PYEOF' >&2 || fail "could not write the old-style catalogue"
import shutil, sys, h5py, numpy as np
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    rows = f["/sweep"][()]
    keep = [n for n in rows.dtype.names if n not in ("complementary", "beatty", "const_a", "const_b", "cf_a", "cf_b",
                                                      "rows_additive", "additive_pmax", "checks")]
    old = np.zeros(rows.shape, dtype=[(n, rows.dtype[n]) for n in keep])
    for n in keep:
        old[n] = rows[n]
    del f["/sweep"]
    f.create_dataset("/sweep", data=old, maxshape=(None,), chunks=True)
PYEOF
expect_ok "$NS" sweep --report "$WORK/old.h5" --csv
expect_eq "old catalogue CSV header" "$(head -1 "$WORK/stdout")" "a,p_positions,slope_a,slope_b,group,max_value"
expect_ok "$NS" sweep --report "$WORK/old.h5"
expect_out '^note: +written before the analysis columns'
expect_out '^a  p_positions  slope_a  slope_b  seconds  group  max_value$'
expect_ok "$NS" sweep --report "$WORK/old.h5" --json
expect_no_out '"checks"|"const_a"'

expect_ok "$NS" sweep --report "$WORK/nim256.h5"
expect_out '^piles  p_positions  slope_a  slope_b  seconds  group  max_value  complementary  beatty  const_a  const_b  cf_a  cf_b  rows_additive  additive_pmax  checks$'
expect_out '^2  256  nan  nan  [0-9.]+  0  255  0  0  -  -  -  -  64  64  bouton:ok,sprague-grundy-sum:ok$'

finish
