#!/usr/bin/env bash
# test_plot.sh - `nimsieve plot`: every kind renders a PNG of the requested
# size that is not blank (checked by a small PNG decoder written here, in
# Python with zlib only), SVG and PDF start with their magic, the numbers
# the command reports agree with values computed here (Wythoff's slopes and
# P-position count, the period of a subtraction game, Nim's histogram),
# --keep-script leaves a script that gnuplot reruns from anywhere, nothing
# temporary is left behind, and a failing gnuplot leaves no figure.
# usage: bash test_plot.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -rf "$WORK"/*
mkdir -p "$WORK/tmp" "$WORK/figs"
export TMPDIR="$WORK/tmp"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "FAIL: gnuplot is not installed (tools/deps.sh installs gnuplot-nox)" >&2
    exit 1
fi

# pngcheck.py FILE W H: a valid PNG (signature, chunk CRCs, IHDR) of W x H
# whose decoded pixels hold more than one colour and at least 0.5% of
# pixels that differ from the most common (background) colour.
cat >"$WORK/pngcheck.py" <<'EOF'
import struct, sys, zlib
path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG signature")
pos, chunks = 8, []
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
    if zlib.crc32(typ + body) & 0xFFFFFFFF != crc:
        sys.exit("bad CRC in chunk %r" % typ)
    chunks.append((typ, body))
    pos += 12 + n
    if typ == b"IEND":
        break
if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
    sys.exit("IHDR first and IEND last expected")
w, h, depth, ctype, comp, filt, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
if (w, h) != (want_w, want_h):
    sys.exit("size %dx%d, expected %dx%d" % (w, h, want_w, want_h))
if depth != 8 or ctype not in (0, 2, 3, 4, 6) or interlace != 0:
    sys.exit("unexpected format: depth %d colour type %d interlace %d" % (depth, ctype, interlace))
bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
raw = zlib.decompress(b"".join(b for t, b in chunks if t == b"IDAT"))
stride = w * bpp
if len(raw) != h * (stride + 1):
    sys.exit("decoded %d bytes, expected %d" % (len(raw), h * (stride + 1)))
prev = bytearray(stride)
counts = {}
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    if f == 1:
        for i in range(bpp, stride):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif f == 2:
        line = bytearray((u + v) & 255 for u, v in zip(line, prev))
    elif f == 3:
        for i in range(stride):
            line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
    elif f == 4:
        for i in range(stride):
            if i >= bpp:
                a, c = line[i - bpp], prev[i - bpp]
            else:
                a = c = 0
            b = prev[i]
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    elif f != 0:
        sys.exit("bad filter type %d in row %d" % (f, y))
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + bpp])
        counts[px] = counts.get(px, 0) + 1
    prev = line
background = max(counts.values())
ink = w * h - background
if len(counts) < 2 or ink < 0.005 * w * h:
    sys.exit("blank image: %d colours, %d pixels off the background" % (len(counts), ink))
print("ok %dx%d colours=%d ink=%.2f%%" % (w, h, len(counts), 100.0 * ink / (w * h)))
EOF

# png_ok FILE W H
png_ok() {
    CHECKS=$((CHECKS + 1))
    local msg
    if ! msg=$("$PY" "$WORK/pngcheck.py" "$1" "$2" "$3" 2>&1); then
        fail "$1: $msg"
    fi
}

# --- tables ------------------------------------------------------------------
solve() { expect_ok "$NS" solve "$@" --quiet --force; }
solve wythoff --size 200 -o "$WORK/w.h5"
solve wythoff --size 200 --pn-only -o "$WORK/wpn.h5"
solve subtraction -D set=1,3,4 --size 300 -o "$WORK/sub.h5"
solve nim -D piles=3 --size 16 -o "$WORK/nim3.h5"
solve nim -D piles=2 --size 64 -o "$WORK/nim2.h5"
solve a-wythoff -D a=2 --size 1200 -o "$WORK/aw.h5"

# Independent values: Wythoff's P-positions (floor(n phi), floor(n phi^2))
# and their mirror images below 200, in exact integers: floor(n phi) =
# (n + isqrt(5 n^2)) // 2. Prints the count and the count above the diagonal.
want=$("$PY" -c '
from math import isqrt
N = 200; pts = set()
for n in range(0, N):
    a = (n + isqrt(5 * n * n)) // 2; b = a + n
    if a < N and b < N:
        pts.add((a, b)); pts.add((b, a))
print(len(pts), sum(1 for x, y in pts if y > x))')
NP=${want% *} NUP=${want#* }

# --- every kind renders at the requested size, and reports true numbers ------
F=$WORK/figs
expect_ok "$NS" plot "$WORK/w.h5" --kind p-positions -o "$F/pp.png" --width 640 --height 480
png_ok "$F/pp.png" 640 480
expect_out "^$NP P-positions \\($NP drawn\\), 1 on the diagonal"
expect_out "^above the diagonal \\(y > x\\): $NUP points, least-squares slope 1\\.6[12][0-9]*"
expect_out "^below the diagonal \\(y < x\\): $NUP points, least-squares slope 0\\.61[0-9]*"

expect_ok "$NS" plot "$WORK/w.h5" --kind grundy -o "$F/gr.png" --width 500 --height 420
png_ok "$F/gr.png" 500 420

# g-values of a table drawn one square per cell: value 0 covers exactly the
# P-positions, in pixels
expect_ok "$NS" plot "$WORK/w.h5" --kind g-values --max-value 6 -o "$F/gv.png" --width 600 --height 600
png_ok "$F/gv.png" 600 600
expect_out "of 1 x 1 cells; pixels per value: 0:$NP "

# subtraction game S = {1, 3, 4}: G = 0 1 0 1 2 3 2, period 7 from n = 0
expect_ok "$NS" plot "$WORK/sub.h5" --kind sequence -o "$F/seq.png" --width 700 --height 400
png_ok "$F/seq.png" 700 400
expect_out '^300 values; period 7, preperiod 0$'

expect_ok "$NS" plot "$WORK/w.h5" --kind histogram -o "$F/hist.png" --width 640 --height 480
png_ok "$F/hist.png" 640 480
expect_out "^40000 positions; counts of 0\\.\\.[0-9]+: $NP "

expect_ok "$NS" plot "$WORK/wpn.h5" --kind grundy -o "$F/pn.png" --width 400 --height 400
png_ok "$F/pn.png" 400 400
expect_out '^P/N map'

# 3-pile Nim, 16^3, the default kind for three piles: each value v < 16 is
# x^y^z for 16 * 16 cells (Bouton)
expect_ok "$NS" plot "$WORK/nim3.h5" -o "$F/nim3.png" --width 400 --height 300
png_ok "$F/nim3.png" 400 300
expect_out '^4096 positions; counts of 0\.\.15: 256 256 256 256 256 256 256 256 256 256 \.\.\.$'

# defaults: 1000 x 800, p-positions for two piles. a-Wythoff, a = 2
# (Fraenkel): P-positions (floor(n alpha), floor(n beta)) with alpha =
# (2 - a + sqrt(a^2 + 4)) / 2 = sqrt(2), beta = alpha + a, so the slopes tend
# to beta / alpha = 1 + sqrt(2) = 2.4142 above the diagonal, sqrt(2) - 1 below
expect_ok "$NS" plot "$WORK/aw.h5" -o "$F/aw.png"
png_ok "$F/aw.png" 1000 800
expect_out '^p-positions: '
expect_out 'above the diagonal \(y > x\): [0-9]+ points, least-squares slope 2\.41[0-9]*'
expect_out 'below the diagonal \(y < x\): [0-9]+ points, least-squares slope 0\.41[0-9]*'

# a table larger than the plot: reduced, every reduction renders
for how in min max mode; do
    expect_ok "$NS" plot "$WORK/aw.h5" --kind grundy --downsample $how -o "$F/aw-$how.png" --width 400 --height 300
    png_ok "$F/aw-$how.png" 400 300
    expect_out "each the (minimum|maximum|most frequent value) of [0-9]+ x [0-9]+ cells"
done

# 2-pile Nim: P-positions on the diagonal only, no slope; G = x xor y <= 63
expect_ok "$NS" plot "$WORK/nim2.h5" -o "$F/nim2.png" --width 400 --height 300
expect_out '^64 P-positions \(64 drawn\), 64 on the diagonal$'
expect_out 'above the diagonal \(y > x\): 0 points, no slope fitted'
expect_ok "$NS" plot "$WORK/nim2.h5" --kind histogram --max-value 9 -o "$F/nim2h.png" --width 400 --height 300
expect_out '^4096 positions; counts of 0\.\.9: 64 64 64 64 64 64 64 64 64 64; 3456 above 9 not shown$'

# The slopes reported are least-squares fits y = c0 + c1 x of the
# P-positions (with an intercept, as `patterns` fits b_n against a_n: a fit
# through the origin is biased by the intercept), recomputed here with
# numpy from /p_positions read with h5py: one per branch, and one per
# direction when a branch splits (angles of the points with
# x + y > (N1 + N2) / 10 cut at gaps > 0.03 rad). A lopsided Wythoff
# variant (an extra move: t from the first pile with 2t from the second)
# has two lines above the diagonal (slopes near 1.47 and 2.23), one below.
cat >"$WORK/lopsided.rules" <<'RULES'
game wythoff-lopsided
piles x y
move x -> x - t                    for t in 1..x
move y -> y - t                    for t in 1..y
move (x, y) -> (x - t, y - t)      for t in 1..min(x, y)
move (x, y) -> (x - t, y - 2*t)    for t in 1..min(x, y/2)
RULES
solve "$WORK/lopsided.rules" --size 600 -o "$WORK/lop.h5"
cat >"$WORK/slopes.py" <<'PY'
import re, sys
import h5py, numpy as np
path, report = sys.argv[1], open(sys.argv[2]).read().splitlines()
with h5py.File(path, "r") as f:
    P = f["p_positions"][...].astype(float)
    far_from = float(sum(f.attrs["bounds"])) / 10
def ls(q):
    return np.polyfit(q[:, 0], q[:, 1], 1)[0]
want = []
for name, q in (("above", P[P[:, 1] > P[:, 0]]), ("below", P[P[:, 1] < P[:, 0]])):
    want.append((name, ls(q), len(q)))
    far = q[q.sum(axis=1) > far_from]
    th = np.sort(np.arctan2(far[:, 1], far[:, 0]))
    cuts = [0] + [i for i in range(1, len(th)) if th[i] - th[i - 1] > 0.03] + [len(th)]
    if len(cuts) > 2 and min(np.diff(cuts)) >= max(8, len(th) // 10):
        centres = np.array([th[(a + b) // 2] for a, b in zip(cuts, cuts[1:])])
        g = np.argmin(np.abs(np.arctan2(q[:, 1], q[:, 0])[:, None] - centres[None, :]), axis=1)
        for k in range(len(centres)):
            want.append(("line", ls(q[g == k]), int(np.sum(g == k))))
got = []
for line in report:
    m = re.match(r"^(above|below) the diagonal \(y [<>] x\): (\d+) points, least-squares slope ([0-9.]+)", line)
    if m:
        got.append((m.group(1), float(m.group(3)), int(m.group(2))))
    m = re.match(r"^  line \d+ of \d+: slope ([0-9.]+) .*, (\d+) points$", line)
    if m:
        got.append(("line", float(m.group(1)), int(m.group(2))))
print("reported:", got)
print("computed:", want)
ok = len(got) == len(want) and all(a[0] == b[0] and abs(a[1] - b[1]) < 1e-5 and a[2] == b[2]
                                   for a, b in zip(got, want))
sys.exit(0 if ok else 1)
PY
for t in w aw lop; do
    expect_ok "$NS" plot "$WORK/$t.h5" -o "$F/fit-$t.png" --width 400 --height 300
    CHECKS=$((CHECKS + 1))
    if ! "$PY" "$WORK/slopes.py" "$WORK/$t.h5" "$OUT" >"$WORK/slopes.out" 2>&1; then
        fail "$t.h5: the reported slopes differ from the least-squares fits computed here"
        cat "$WORK/slopes.out" >&2
    fi
done
expect_out '^  line 1 of 2: slope 1\.4[5-9][0-9]* '
expect_out '^  line 2 of 2: slope 2\.2[0-9]* '

# Many P-positions (more than are drawn one by one): the sum of two Bash
# games taking 1 or 2, P exactly when x = y (mod 3), a third of the cells:
# 267^2 + 267^2 + 266^2 = 213334 in 800 x 800, drawn as one dot per pixel.
cat >"$WORK/bash-sum.rules" <<'RULES'
game bash-sum
piles x y
move x -> x - t    for t in 1..min(2, x)
move y -> y - t    for t in 1..min(2, y)
RULES
solve "$WORK/bash-sum.rules" --size 800 --pn-only -o "$WORK/bsum.h5"
expect_ok "$NS" plot "$WORK/bsum.h5" -o "$F/bsum.png" --width 500 --height 400
png_ok "$F/bsum.png" 500 400
expect_out '^213334 P-positions \([0-9]+ drawn as pixels\), 800 on the diagonal$'
expect_out '^above the diagonal .* \(an area, not a line: not drawn\)$'

# --- vector formats ----------------------------------------------------------
expect_ok "$NS" plot "$WORK/w.h5" --kind p-positions -o "$F/pp.svg"
expect_eq "svg magic" "$(head -c 5 "$F/pp.svg")" "<?xml"
CHECKS=$((CHECKS + 1))
grep -q '<svg' "$F/pp.svg" || fail "$F/pp.svg has no <svg element"
expect_ok "$NS" plot "$WORK/nim2.h5" --kind grundy -o "$F/gr.pdf" --title "Nim, G(x, y) = x xor y"
expect_eq "pdf magic" "$(head -c 5 "$F/gr.pdf")" "%PDF-"
expect_out 'largest value drawn 63$'
CHECKS=$((CHECKS + 1))
tail -c 1024 "$F/gr.pdf" | grep -q '%%EOF' || fail "$F/gr.pdf does not end with %%EOF (truncated?)"
expect_ok "$NS" plot "$WORK/sub.h5" -o "$F/SEQ.PDF"
expect_eq "pdf magic (upper-case extension)" "$(head -c 5 "$F/SEQ.PDF")" "%PDF-"

# --- --keep-script: a script that reruns from anywhere ------------------------
# (kept files are named by the whole figure name, kept.png.gp, so that a
# PNG and a PDF of the same stem keep their own: test_plot_figures.sh)
expect_ok "$NS" plot "$WORK/w.h5" --kind grundy -o "$F/kept.png" --keep-script --width 480 --height 400
expect_out 'script: .*kept\.png\.gp'
CHECKS=$((CHECKS + 1))
[ -f "$F/kept.png.gp" ] && [ -f "$F/kept.png.bin" ] || fail "--keep-script left no kept.png.gp and kept.png.bin"
expect_ok "$NS" plot "$WORK/sub.h5" -o "$F/keptseq.svg" --keep-script
CHECKS=$((CHECKS + 1))
[ -f "$F/keptseq.svg.gp" ] && [ -f "$F/keptseq.svg.dat" ] || fail "--keep-script left no keptseq.svg.gp and keptseq.svg.dat"
rm -f "$F/kept.png"
mkdir -p "$WORK/elsewhere"
(cd "$WORK/elsewhere" && gnuplot "$F/kept.png.gp") >"$OUT" 2>"$ERR"
CHECKS=$((CHECKS + 1))
[ -f "$F/kept.png" ] || { fail "gnuplot $F/kept.png.gp (from another directory) did not write $F/kept.png"; cat "$ERR" >&2; }
png_ok "$F/kept.png" 480 400
(cd "$WORK/elsewhere" && gnuplot -e "outfile='again.png'" "$F/kept.png.gp") >"$OUT" 2>"$ERR"
png_ok "$WORK/elsewhere/again.png" 480 400

# --- nothing temporary is left behind ----------------------------------------
CHECKS=$((CHECKS + 1))
left=$(find "$WORK/tmp" -mindepth 1 | head -5)
[ -z "$left" ] || fail "temporary files left in TMPDIR: $left"
CHECKS=$((CHECKS + 1))
left=$(find "$F" -name '.*' -type f | head -5)
[ -z "$left" ] || fail "hidden temporary figures left: $left"
CHECKS=$((CHECKS + 1))
left=$(find "$F" \( -name 'pp.gp' -o -name 'gr.gp' -o -name '*.dat' ! -name 'keptseq.svg.dat' \) | head -5)
[ -z "$left" ] || fail "scripts or data left without --keep-script: $left"

# --- a failing gnuplot leaves no figure, and an old one untouched -------------
echo "old figure" >"$F/old.png"
NIMSIEVE_GNUPLOT=/bin/false expect_error 2 plot 'gnuplot failed' "$NS" plot "$WORK/w.h5" -o "$F/old.png"
expect_eq "old figure after a failed plot" "$(cat "$F/old.png")" "old figure"
NIMSIEVE_GNUPLOT=/nonexistent/gnuplot expect_error 2 plot 'gnuplot failed.*cannot run /nonexistent/gnuplot' \
    "$NS" plot "$WORK/w.h5" -o "$F/new.png"
CHECKS=$((CHECKS + 1))
[ ! -e "$F/new.png" ] || fail "a figure was left after gnuplot could not run"
CHECKS=$((CHECKS + 1))
left=$(find "$F" "$WORK/tmp" -name '.*' -type f | head -5; find "$WORK/tmp" -mindepth 1 | head -5)
[ -z "$left" ] || fail "temporary files left after a failure: $left"

# --- bad input ----------------------------------------------------------------
expect_error 2 plot "--kind 'contour'" "$NS" plot "$WORK/w.h5" --kind contour -o "$F/x.png"
expect_error 2 plot "expected \\.png, \\.svg or \\.pdf" "$NS" plot "$WORK/w.h5" -o "$F/x.jpg"
expect_error 2 plot "missing -o" "$NS" plot "$WORK/w.h5"
expect_error 2 plot "missing FILE" "$NS" plot -o "$F/x.png"
expect_error 2 plot "two-pile table; .*nim3.h5 has 3 piles" "$NS" plot "$WORK/nim3.h5" --kind grundy -o "$F/x.png"
expect_error 2 plot "one-pile table" "$NS" plot "$WORK/w.h5" --kind sequence -o "$F/x.png"
expect_error 2 plot "downsample 'median'|--downsample 'median'" "$NS" plot "$WORK/w.h5" --kind grundy --downsample median -o "$F/x.png"
expect_error 2 plot "--downsample applies to --kind grundy" "$NS" plot "$WORK/w.h5" --kind p-positions --downsample min -o "$F/x.png"
expect_error 2 plot "--width" "$NS" plot "$WORK/w.h5" --width 10 -o "$F/x.png"
expect_error 2 plot "at most 31" "$NS" plot "$WORK/w.h5" --kind g-values --max-value 40 -o "$F/x.png"
expect_error 2 plot "nothere.h5" "$NS" plot "$WORK/nothere.h5" -o "$F/x.png"
expect_error 2 plot "cannot write|No such file" "$NS" plot "$WORK/w.h5" -o "$WORK/no/such/dir/x.png" --keep-script
CHECKS=$((CHECKS + 1))
[ ! -e "$F/x.png" ] && [ ! -e "$F/x.jpg" ] || fail "a figure was written for bad input"
expect_ok "$NS" plot --help
expect_out '^usage: nimsieve plot'

finish
