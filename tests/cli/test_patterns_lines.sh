#!/bin/bash
# test_patterns_lines.sh NIMSIEVE SOURCE_DIR WORK_DIR
# `patterns` must not describe P-positions that lie on two lines by one
# line, nor measure g-values against lines that are not there (issue 15:
# variants.ipynb). Wythoff with a lopsided extra move (t from x with 2t from
# y): its P-positions, computed here by a naive solver in Python, lie above
# the diagonal on two lines and below it on a third that is not the mirror
# image. patterns must say two lines, with slopes that a least-squares fit
# of the naive solver's points on each side of the angle gap confirms, give
# the count below the diagonal, and give no g-value distances. Wythoff itself
# keeps its one line, its mirror image and its distances.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
cd "$WORK" || exit 1
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

cat >lop.rules <<'RULES'
game wythoff-lopsided
piles x y
move x -> x - t                    for t in 1..x
move y -> y - t                    for t in 1..y
move (x, y) -> (x - t, y - t)      for t in 1..min(x, y)
move (x, y) -> (x - t, y - 2*t)    for t in 1..min(x, y/2)
RULES
N=1000
expect_ok "$NS" solve lop.rules --size $N --force -o lop.h5
expect_ok "$NS" patterns lop.h5
cp "$OUT" lop.txt
expect_out "b_n against a_n: the points lie on 2 lines, not one"
expect_out "^g-values: no distances: the P-positions above the diagonal lie on several lines"
expect_no_out "max distance"
expect_ok "$NS" patterns lop.h5 --json
cp "$OUT" lop.json

CHECKS=$((CHECKS + 1))
if ! "$PY" - "$N" lop.json >py.txt 2>&1 <<'PY'
import json, sys
n = int(sys.argv[1])
# naive P/N: a cell is N when an earlier P-position lies on one of its
# lines (column, row, diagonal, the line 2x - y = const with smaller x)
col, row, diag, lop = set(), set(), set(), set()
P = []
for x in range(n):
    rowp = False
    for y in range(n):
        if rowp or y in col or (x - y) in diag or (2 * x - y) in lop:
            continue
        P.append((x, y))
        rowp = True
        col.add(y); diag.add(x - y); lop.add(2 * x - y)
above = [(x, y) for x, y in P if y > x]
below = [(x, y) for x, y in P if y < x]
def lsq(pts):
    m = len(pts); sx = sum(p[0] for p in pts); sy = sum(p[1] for p in pts)
    sxx = sum(p[0] * p[0] for p in pts); sxy = sum(p[0] * p[1] for p in pts)
    return (m * sxy - sx * sy) / (m * sxx - sx * sx)
# the widest gap in angle among the points far from the origin
far = sorted(y / x for x, y in above if x + y > 2 * n / 10)
gaps = sorted(((far[i + 1] - far[i], i) for i in range(len(far) - 1)), reverse=True)
cut = (far[gaps[0][1]] + far[gaps[0][1] + 1]) / 2
lo = [p for p in above if p[1] / p[0] < cut and p[0] + p[1] > 2 * n / 10]
hi = [p for p in above if p[1] / p[0] >= cut and p[0] + p[1] > 2 * n / 10]
want = sorted([lsq(lo), lsq(hi)])
d = json.load(open(sys.argv[2]))["p_positions"]
got = [l["slope"] for l in d["lines"]]
bad = []
if len(got) != 2:
    bad.append(f"lines: {len(got)}, expected 2")
else:
    for g, w, l in zip(got, want, d["lines"]):
        if abs(g - w) > 0.003 * w:
            bad.append(f"slope {g:.6f}, the naive points' {w:.6f}")
if d["p_symmetric"]:
    bad.append("p_symmetric true")
if d["below"] != len(below):
    bad.append(f"below {d['below']}, naive {len(below)}")
lb = d["lines_below"]
if len(lb) != 1 or abs(lb[0]["slope"] - lsq(below)) > 3 * lb[0]["slope_se"] + 1e-9:
    bad.append(f"below the diagonal: {lb}, naive slope {lsq(below):.6f}")
print("naive:", len(P), "P-positions,", len(above), "above,", len(below), "below; slopes", want, "patterns", got)
if bad:
    print("; ".join(bad))
    sys.exit(1)
PY
then
    fail "the lines of patterns --json disagree with the naive solver"
    sed 's/^/  /' py.txt >&2
fi

# Wythoff: one line, phi, the mirror image, distances
expect_ok "$NS" solve wythoff --size 512 --force -o w.h5
expect_ok "$NS" patterns w.h5
expect_out "b_n against a_n \(the 0-lines y = l x and y = x / l\): slope 1\.618"
expect_out "below the diagonal: the mirror images"
expect_out "g = 0: [0-9]+ cells, max distance"
finish
