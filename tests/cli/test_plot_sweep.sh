#!/bin/bash
# The figures of a sweep file (issue 20): `nimsieve plot SWEEP.h5`.
# - landscape (the default): the data file kept with --keep-script holds
#   each variant's parameter and field as /sweep (read with h5py) has them,
#   and the curve of the conjecture: for a-Wythoff a = 1..10 Fraenkel's
#   alpha = (2 - a + sqrt(a^2 + 4))/2 (slope_a) and alpha + a (slope_b)
#   computed here; for Bash's game m = 1..12 the period m + 1;
# - thumbnails: each variant's block holds exactly its P-positions in the
#   corner, against Fraenkel's pairs (floor(n alpha), floor(n alpha) + a n)
#   in exact integers and Bash's multiples of m + 1; a kept table
#   /tables/v0000002 written here with h5py is drawn from the file;
# - the PNGs are non-blank (the checker of test_plot.sh); kinds and
#   options that do not apply are refused with one line.
# Usage: bash test_plot_sweep.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -rf "$WORK"/*.h5 "$WORK"/fig
mkdir -p "$WORK/fig"
PY=/usr/bin/python3
if ! command -v gnuplot >/dev/null; then
    echo "gnuplot not installed" >&2
    exit 1
fi
sed -n "/^cat >\"\$WORK\/pngcheck.py\" <<'EOF'\$/,/^EOF\$/p" "$SRC/tests/cli/test_plot.sh" | sed '1d;$d' >"$WORK/pngcheck.py"
[ -s "$WORK/pngcheck.py" ] || { echo "no pngcheck.py in test_plot.sh" >&2; exit 1; }
F=$WORK/fig
png_ok() {
    CHECKS=$((CHECKS + 1))
    msg=$("$PY" "$WORK/pngcheck.py" "$1" 1000 800 2>&1) || fail "$1: $msg"
}

cat >"$WORK/check.py" <<'PYEOF'
import math, sys
import h5py
what, h5, dat = sys.argv[1], sys.argv[2], sys.argv[3]
rows = h5py.File(h5, "r")["/sweep"][...]
def alpha(a):
    return (2 - a + math.sqrt(a * a + 4)) / 2
def blocks(path):
    out, cur = [], None
    for l in open(path):
        if l.startswith("# variant"):
            cur = set()
            out.append(cur)
        elif l.strip() and not l.startswith("#"):
            x, y = map(int, l.split())
            if (x, y) != (-10, -10):
                cur.add((x, y))
    return out
def fraenkel_p(a, side):
    pts = {(0, 0)}
    n = 1
    while True:
        an = (n * (2 - a) + math.isqrt(n * n * (a * a + 4))) // 2
        bn = an + a * n
        if an >= side:
            break
        for p in ((an, bn), (bn, an)):
            if p[0] < side and p[1] < side:
                pts.add(p)
        n += 1
    return pts
if what in ("slope_a", "slope_b", "period"):
    d = [l.split() for l in open(dat) if not l.startswith("#")]
    assert len(d) == len(rows), (len(d), len(rows))
    for r, l in zip(rows, d):
        x = int(l[0])
        assert r["params"].decode().split("=")[1] == l[0], (r["params"], l)
        assert float(l[1]) == float(r[what]), (l, r[what])
        want = alpha(x) if what == "slope_a" else alpha(x) + x if what == "slope_b" else x + 1
        assert abs(float(l[2]) - want) < 1e-12, (l, want)
        if what == "period":
            assert int(r["period"]) == x + 1, r
elif what == "thumbs-aw":
    b = blocks(dat)
    assert len(b) == 10, len(b)
    for i, pts in enumerate(b):
        if i == 2 and len(sys.argv) > 4:
            assert pts == {(0, 0), (5, 7), (7, 5)}, pts
        else:
            assert pts == fraenkel_p(i + 1, 64), (i, sorted(pts ^ fraenkel_p(i + 1, 64)))
elif what == "thumbs-bash":
    b = blocks(dat)
    assert len(b) == 12, len(b)
    for i, pts in enumerate(b):
        m = i + 1
        assert pts == {(n, 1) for n in range(100) if n % (m + 1) == 0}, (m, pts)
PYEOF
check() {
    CHECKS=$((CHECKS + 1))
    "$PY" "$WORK/check.py" "$@" || fail "check.py $*"
}

expect_ok "$NS" sweep a-wythoff -D a=1..10 --size 512 -o "$WORK/aw.h5"
expect_ok "$NS" plot "$WORK/aw.h5" -o "$F/aw.png" --keep-script
expect_out '^landscape: '
expect_out '^slope_a against a: 10 of 10 variants \(0 without a value\)$'
expect_out '^curve: conjecture 1: slope_a = \(2 - a \+ sqrt\(a\^2 \+ 4\)\)/2 for a = 1\.\.10: observed'
png_ok "$F/aw.png"
check slope_a "$WORK/aw.h5" "$F/aw.png.dat"
expect_ok "$NS" plot "$WORK/aw.h5" --kind landscape --field slope_b --param a -o "$F/awb.png" --keep-script
expect_out '^curve: conjecture 2: slope_b = \(2 \+ a \+ sqrt\(a\^2 \+ 4\)\)/2'
check slope_b "$WORK/aw.h5" "$F/awb.png.dat"
expect_ok "$NS" plot "$WORK/aw.h5" --kind landscape --field p_positions -o "$F/awp.png"
expect_out '^curve: none'

expect_ok "$NS" plot "$WORK/aw.h5" --kind thumbnails -o "$F/awt.png" --keep-script
expect_out '^10 thumbnails of 10 variants in \[0,64\)\^2: 0 from kept tables, 10 solved here$'
png_ok "$F/awt.png"
check thumbs-aw "$WORK/aw.h5" "$F/awt.png.dat"

# a kept table (the layout of sweep --keep-tables) is drawn from the file
cp "$WORK/aw.h5" "$WORK/awk.h5"
CHECKS=$((CHECKS + 1))
"$PY" - "$WORK/awk.h5" <<'PYEOF' || fail "writing /tables/v0000002"
import sys
import h5py, numpy as np
g = np.ones((512, 512), dtype=np.uint8)
g[0, 0] = g[5, 7] = g[7, 5] = 0
g[100, 200] = 0    # outside the corner
with h5py.File(sys.argv[1], "a") as f:
    d = f.create_dataset("/tables/v0000002", data=g)
    d.attrs["params"] = "a=3"
PYEOF
expect_ok "$NS" plot "$WORK/awk.h5" --kind thumbnails -o "$F/awk.png" --keep-script
expect_out '^10 thumbnails of 10 variants in \[0,64\)\^2: 1 from kept tables, 9 solved here$'
check thumbs-aw "$WORK/awk.h5" "$F/awk.png.dat" kept

expect_ok "$NS" sweep bash -D m=1..12 --size 300 -o "$WORK/bash.h5"
expect_ok "$NS" plot "$WORK/bash.h5" -o "$F/bash.png" --keep-script
expect_out '^period against m: 12 of 12 variants'
expect_out '^curve: conjecture [0-9]+: period = m \+ 1 for m = 1\.\.12'
png_ok "$F/bash.png"
check period "$WORK/bash.h5" "$F/bash.png.dat"
expect_ok "$NS" plot "$WORK/bash.h5" --kind thumbnails -o "$F/basht.png" --keep-script
png_ok "$F/basht.png"
check thumbs-bash "$WORK/bash.h5" "$F/basht.png.dat"

# refused
expect_error 2 plot 'sweep file.*landscape and thumbnails' "$NS" plot "$WORK/aw.h5" --kind grundy -o "$F/x.png"
expect_error 2 plot '--field period: expected one of p_positions, slope_a, slope_b' "$NS" plot "$WORK/aw.h5" --field period -o "$F/x.png"
expect_error 2 plot '--param b: .* has no such parameter' "$NS" plot "$WORK/aw.h5" --param b -o "$F/x.png"
expect_error 2 plot '--field and --param go with --kind landscape' "$NS" plot "$WORK/aw.h5" --kind thumbnails --field slope_a -o "$F/x.png"
expect_error 2 plot '--xrange' "$NS" plot "$WORK/aw.h5" --xrange 0:10 -o "$F/x.png"
expect_ok "$NS" solve wythoff --size 32 -o "$WORK/w.h5"
expect_error 2 plot '--field and --param apply to sweep files' "$NS" plot "$WORK/w.h5" --field slope_a -o "$F/x.png"
expect_error 2 plot 'draw a file written by .nimsieve sweep' "$NS" plot "$WORK/w.h5" --kind landscape -o "$F/x.png"
[ -e "$F/x.png" ] && fail "a refused plot left $F/x.png"
finish
