#!/usr/bin/env bash
# test_plot_figures.sh - what issue 15 asked of `nimsieve plot`, each against
# values computed here, not by the tool:
#   - p-positions: the slope printed for Wythoff's game is within 3 of its
#     own standard errors of phi = (1 + sqrt(5)) / 2 (and 1/phi below the
#     diagonal), phi computed here with awk; a fit through the origin was
#     45 standard errors off;
#   - a P/N map that is reduced keeps its P-positions: the pixels the data
#     file marks P are exactly the blocks that hold a P-position of
#     Wythoff's game (floor(n phi), floor(n phi^2)) in exact integers;
#   - zoomed windows (--xrange/--yrange, --range) hold the values of a naive
#     solver written here; the default windows are at most 256 cells a side
#     (g-values, grundy) and the preperiod plus 4 periods (sequences);
#   - a figure of a single colour says so;
#   - --keep-script of fig.png and fig.pdf keeps two scripts;
#   - a PDF marker is as large, relative to the figure, as a PNG one;
#   - malformed and out-of-table ranges fail with one clear line.
# usage: bash test_plot_figures.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -rf "$WORK"/*
mkdir -p "$WORK/tmp" "$WORK/figs"
export TMPDIR="$WORK/tmp"
F=$WORK/figs
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "FAIL: gnuplot is not installed (tools/deps.sh installs gnuplot-nox)" >&2
    exit 1
fi

solve() { expect_ok "$NS" solve "$@" --quiet --force; }
solve wythoff --size 1024 -o "$WORK/w1k.h5"
solve wythoff --size 256 -o "$WORK/w.h5"
solve wythoff --size 256 --pn-only -o "$WORK/wpn.h5"
solve subtraction -D set=1,3,4 --size 1000 -o "$WORK/sub.h5"
solve nim -D piles=2 --size 4 -o "$WORK/nim4.h5"

# py SCRIPT ARGS...: run a check written here; its output goes to stderr on failure
py() {
    local name=$1
    shift
    CHECKS=$((CHECKS + 1))
    if ! "$PY" "$WORK/$name" "$@" >"$WORK/py.out" 2>&1; then
        fail "$name $*"
        cat "$WORK/py.out" >&2
    fi
}

# kept_data: the data file named by "script: ... (data: FILE)" in $OUT
kept_data() { sed -n 's/^script: .* (data: \(.*\)); rerun with: .*/\1/p' "$OUT"; }

# --- defect 1: the slope of Wythoff's P-positions within its error of phi ----
expect_ok "$NS" plot "$WORK/w1k.h5" --kind p-positions -o "$F/w1k.png" --width 400 --height 300
# slope_ok SIDE WANT: the "SIDE the diagonal ...: ... slope S ± E" line has |S - WANT| <= 3 E
slope_ok() {
    CHECKS=$((CHECKS + 1))
    local line
    line=$(grep -E "^$1 the diagonal .* least-squares slope " "$OUT")
    if ! awk -v want="$2" -v side="$1" '{
            for (i = 1; i < NF; i++) if ($i == "slope") { s = $(i + 1); e = $(i + 3); break }
            d = s - want; if (d < 0) d = -d
            if (e == "" || e + 0 <= 0 || d > 3 * e) {
                printf "%s: slope %s +- %s is %.3g standard errors from %.10f\n", side, s, e, (e > 0 ? d / e : -1), want
                exit 1
            }
        }' <<<"$line" >&2; then
        fail "the slope $1 the diagonal is not within 3 standard errors of $2: $line"
    fi
}
PHI=$(awk 'BEGIN { printf "%.15f", (1 + sqrt(5)) / 2 }')
IPHI=$(awk 'BEGIN { printf "%.15f", (sqrt(5) - 1) / 2 }')
slope_ok above "$PHI"
slope_ok below "$IPHI"
# the constant named is phi, and its value is printed right
expect_out "^  constant: \\(1\\+sqrt\\(5\\)\\)/2 = ${PHI:0:12}"
expect_out "^  constant: \\(-1\\+sqrt\\(5\\)\\)/2 = ${IPHI:0:12}"

# --- defect 2: a reduced P/N map keeps its P-positions -----------------------
# pngrid.py DATA W H FR FC X0 Y0 N1 N2 MODE: the float32 image (x fastest)
# against the closed form: MODE p: a pixel is 0 (P) exactly when its block
# holds a Wythoff P-position; MODE n: every pixel is 1 (N)
cat >"$WORK/pngrid.py" <<'EOF'
import math, struct, sys
from math import isqrt
path, W, H, FR, FC, X0, Y0, N1, N2 = sys.argv[1], *map(int, sys.argv[2:10])
mode = sys.argv[10]
data = open(path, "rb").read()
if len(data) != 4 * W * H:
    sys.exit("data file holds %d bytes, expected %d x %d float32" % (len(data), W, H))
v = struct.unpack("<%df" % (W * H), data)
P = set()
for n in range(0, max(N1, N2) + 1):
    a = (n + isqrt(5 * n * n)) // 2; b = a + n
    P.add((a, b)); P.add((b, a))
want_p = set()
for (x, y) in P:
    if X0 <= x < X0 + W * FR and Y0 <= y < Y0 + H * FC and x < N1 and y < N2:
        want_p.add(((x - X0) // FR, (y - Y0) // FC))
got_p = {(X, Y) for Y in range(H) for X in range(W) if v[Y * W + X] == 0}
bad = [(X, Y, v[Y * W + X]) for Y in range(H) for X in range(W) if not (v[Y * W + X] in (0.0, 1.0))]
if bad:
    sys.exit("pixels neither P nor N: %r" % bad[:5])
if mode == "p":
    if got_p != want_p:
        sys.exit("P pixels: %d, expected %d; missing %r, extra %r" % (len(got_p), len(want_p),
                 sorted(want_p - got_p)[:5], sorted(got_p - want_p)[:5]))
else:
    if got_p:
        sys.exit("%d P pixels, expected none" % len(got_p))
print("ok: %d P pixels of %d" % (len(got_p), W * H))
EOF
# the P/N table of 256 x 256 in a plot area of about 130 pixels: reduced
expect_ok "$NS" plot "$WORK/wpn.h5" --kind grundy -o "$F/pn.png" --width 240 --height 240 --keep-script
expect_out '^P/N map, '
read -r W H FR FC <<<"$(sed -n 's/^P\/N map, \([0-9]*\) x \([0-9]*\) pixels, each the [a-z ]* of \([0-9]*\) x \([0-9]*\) cells.*/\1 \2 \3 \4/p' "$OUT")"
CHECKS=$((CHECKS + 1))
[ -n "${FR:-}" ] && [ "$FR" -gt 1 ] || fail "the P/N map of 256 x 256 at 240 x 240 was not reduced (blocks: ${FR:-?})"
py pngrid.py "$(kept_data)" "${W:-0}" "${H:-0}" "${FR:-1}" "${FC:-1}" 0 0 256 256 p
expect_no_out '^single colour'
# --downsample max hides P (every 2 x 2 block holds an N): the figure says so
expect_ok "$NS" plot "$WORK/wpn.h5" --kind grundy --downsample max -o "$F/pnmax.png" --width 240 --height 240 --keep-script
read -r W H FR FC <<<"$(sed -n 's/^P\/N map, \([0-9]*\) x \([0-9]*\) pixels, each the [a-z ]* of \([0-9]*\) x \([0-9]*\) cells.*/\1 \2 \3 \4/p' "$OUT")"
py pngrid.py "$(kept_data)" "${W:-0}" "${H:-0}" "${FR:-1}" "${FC:-1}" 0 0 256 256 n
expect_out '^single colour: every pixel drawn is N'
# a zoomed P/N window, one cell a pixel: P exactly at the P-positions
expect_ok "$NS" plot "$WORK/wpn.h5" --kind grundy --xrange 100:179 --yrange 30:89 -o "$F/pnzoom.png" --keep-script
py pngrid.py "$(kept_data)" 80 60 1 1 100 30 256 256 p

# --- zoomed Grundy windows against a naive solver -----------------------------
# gridcheck.py DATA X0 X1 Y0 Y1 KIND K: the image of the window (one cell a
# pixel) against Wythoff's Grundy values by mex: KIND grundy: the value (at
# most K); g-values: the value when <= K, else NaN
cat >"$WORK/gridcheck.py" <<'EOF'
import math, struct, sys
path, X0, X1, Y0, Y1 = sys.argv[1], *map(int, sys.argv[2:6])
kind, K = sys.argv[6], int(sys.argv[7])
W, H = X1 - X0 + 1, Y1 - Y0 + 1
data = open(path, "rb").read()
if len(data) != 4 * W * H:
    sys.exit("data file holds %d bytes, expected %d x %d float32" % (len(data), W, H))
v = struct.unpack("<%df" % (W * H), data)
G = [[0] * (Y1 + 1) for _ in range(X1 + 1)]
for x in range(X1 + 1):
    for y in range(Y1 + 1):
        opts = {G[x - t][y] for t in range(1, x + 1)} | {G[x][y - t] for t in range(1, y + 1)} | \
               {G[x - t][y - t] for t in range(1, min(x, y) + 1)}
        g = 0
        while g in opts:
            g += 1
        G[x][y] = g
bad, ink = [], 0
for Y in range(H):
    for X in range(W):
        g, got = G[X0 + X][Y0 + Y], v[Y * W + X]
        if kind == "grundy":
            want = min(g, K)
        else:
            want = g if g <= K else None
        if want is None:
            ok = math.isnan(got)
        else:
            ok = got == want
            ink += 1
        if not ok:
            bad.append((X0 + X, Y0 + Y, g, got))
if bad:
    sys.exit("%d cells differ, e.g. (x, y, G, drawn) %r" % (len(bad), bad[:5]))
if ink == 0:
    sys.exit("blank window")
print("ok: %d cells, %d drawn" % (W * H, ink))
EOF
expect_ok "$NS" plot "$WORK/w.h5" --kind g-values --max-value 3 --xrange 20:59 --yrange 10:49 -o "$F/gvz.png" --keep-script
expect_out '^window: pile 1 20\.\.59, pile 2 10\.\.49 of the 256 x 256 table$'
py gridcheck.py "$(kept_data)" 20 59 10 49 g-values 3
expect_ok "$NS" plot "$WORK/w.h5" --kind grundy --xrange 30:60 --yrange 0:40 -o "$F/grz.pdf" --keep-script
py gridcheck.py "$(kept_data)" 30 60 0 40 grundy 100000
# a window without the values 0..K: blank, and the report says so
expect_ok "$NS" plot "$WORK/w.h5" --kind g-values --max-value 0 --xrange 3:4 --yrange 0:1 -o "$F/blank.png"
expect_out '^single colour: the figure is blank'

# --- default windows ----------------------------------------------------------
# 1024 x 1024: 256 x 256 cells by default, one a pixel in 1000 x 800
for kind in g-values grundy; do
    expect_ok "$NS" plot "$WORK/w1k.h5" --kind $kind -o "$F/def-$kind.png" --keep-script
    expect_out '^window: pile 1 0\.\.255, pile 2 0\.\.255 of the 1024 x 1024 table .*--xrange 0:1023 --yrange 0:1023'
    CHECKS=$((CHECKS + 1))
    size=$(stat -c %s "$(kept_data)" 2>/dev/null || echo 0)
    [ "$size" -eq $((256 * 256 * 4)) ] || fail "--kind $kind of 1024^2: data file of $size bytes, expected 256 x 256 float32"
done
# the whole table on request: no window line
expect_ok "$NS" plot "$WORK/w1k.h5" --kind grundy --xrange 0:1023 --yrange 0:1023 -o "$F/all.png"
expect_no_out '^window:'
# a table of at most 256 a side is drawn whole
expect_ok "$NS" plot "$WORK/w.h5" --kind grundy -o "$F/whole.png"
expect_no_out '^window:'

# sequences: subtraction {1, 3, 4}, G by mex here; period 7 from 0, so the
# default window is n = 0..27 (4 periods); --range shows n = A..B exactly
cat >"$WORK/seqcheck.py" <<'EOF'
import sys
path, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
G = []
for n in range(hi + 1):
    opts = {G[n - s] for s in (1, 3, 4) if s <= n}
    g = 0
    while g in opts:
        g += 1
    G.append(g)
pts = [tuple(int(float(t)) for t in l.split()) for l in open(path) if l.strip()]
want = [(n, G[n]) for n in range(lo, hi + 1)]
if pts != want:
    sys.exit("drawn %r..., expected %r..." % (pts[:6], want[:6]))
print("ok: %d values" % len(pts))
EOF
expect_ok "$NS" plot "$WORK/sub.h5" -o "$F/seq.png" --keep-script
expect_out '^1000 values; period 7, preperiod 0$'
expect_out '^window: n = 0\.\.27 of 0\.\.999 .*--range 0:999'
py seqcheck.py "$(kept_data)" 0 27
expect_ok "$NS" plot "$WORK/sub.h5" --range 500:540 -o "$F/seqz.svg" --keep-script
py seqcheck.py "$(kept_data)" 500 540
# the legend names the shades (the script's key entries)
CHECKS=$((CHECKS + 1))
grep -q 'keyentry .*title "first period, n = 0\.\.6"' "$F/seq.png.gp" && grep -q 'title "periodic part"' "$F/seq.png.gp" ||
    fail "the sequence figure's key does not name the first period and the periodic part"

# --- --keep-script: fig.png and fig.pdf keep their own scripts ----------------
expect_ok "$NS" plot "$WORK/w.h5" --kind grundy -o "$F/fig.png" --keep-script --width 300 --height 300
expect_ok "$NS" plot "$WORK/w.h5" --kind grundy -o "$F/fig.pdf" --keep-script --width 300 --height 300
expect_out 'script: .*fig\.pdf\.gp \(data: .*fig\.pdf\.bin\)'
for ext in png pdf; do
    CHECKS=$((CHECKS + 1))
    [ -f "$F/fig.$ext.gp" ] && [ -f "$F/fig.$ext.bin" ] || fail "--keep-script of fig.$ext left no fig.$ext.gp and fig.$ext.bin"
    rm -f "$F/fig.$ext"
    mkdir -p "$WORK/elsewhere"
    (cd "$WORK/elsewhere" && gnuplot "$F/fig.$ext.gp") >/dev/null 2>"$ERR"
    CHECKS=$((CHECKS + 1))
    [ -s "$F/fig.$ext" ] || { fail "gnuplot $F/fig.$ext.gp did not write $F/fig.$ext"; cat "$ERR" >&2; }
done
expect_eq "the rerun PDF" "$(head -c 5 "$F/fig.pdf")" "%PDF-"

# --- markers: the same share of the figure in PDF as in PNG -------------------
# Four P-positions of 2-pile Nim of 4 (the diagonal) and the key's sample:
# the PNG's dots measured in pixels (ink of the point colour #1f3b73), the
# PDF's circles read from its page (diameter plus stroke, in points, at 150
# "pixels" per inch as --width counts them).
cat >"$WORK/marks.py" <<'EOF'
import math, re, struct, sys, zlib
png, pdf = sys.argv[1], sys.argv[2]
data = open(png, "rb").read()
pos, chunks = 8, []
while pos < len(data):
    n, t = struct.unpack(">I4s", data[pos:pos + 8]); chunks.append((t, data[pos + 8:pos + 8 + n])); pos += 12 + n
w, h, depth, ctype = struct.unpack(">IIBB", chunks[0][1][:10])
bpp = {2: 3, 6: 4}[ctype]
raw = zlib.decompress(b"".join(b for t, b in chunks if t == b"IDAT"))
stride, prev, ink = w * bpp, bytearray(w * bpp), 0.0
for y in range(h):
    f = raw[y * (stride + 1)]; line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    if f == 1:
        for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
    elif f == 2: line = bytearray((u + v) & 255 for u, v in zip(line, prev))
    elif f == 3:
        for i in range(stride): line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
    elif f == 4:
        for i in range(stride):
            a, c = (line[i - bpp], prev[i - bpp]) if i >= bpp else (0, 0); b = prev[i]
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(w):
        r, g, b = line[x * bpp:x * bpp + 3]
        # the point colour (31, 59, 115) over white: blue well above red
        if b > r + 20:
            ink += min(1.0, (b - r) / (115 - 31))
    prev = line
png_d = 2 * math.sqrt(ink / 5 / math.pi)
d = open(pdf, "rb").read()
circles = []
for m in re.finditer(rb"stream\r?\n(.*?)endstream", d, re.S):
    try:
        s = zlib.decompress(m.group(1)).decode("latin1")
    except Exception:
        continue
    lw = 0.0
    for t in re.finditer(r"([\d.]+) w\b|([\d.]+) [\d.]+ m\s+[\d.]+ [\d.]+ [\d.]+ [\d.]+ ([\d.]+) [\d.]+ c", s):
        if t.group(1):
            lw = float(t.group(1))
        else:
            circles.append(float(t.group(2)) - float(t.group(3)) + lw)
if len(circles) < 5:
    sys.exit("found %d circles in the PDF, expected 5" % len(circles))
pdf_d = sorted(circles)[len(circles) // 2] * 150 / 72
print("PNG dot %.2f px, PDF dot %.2f px (of %d x %d)" % (png_d, pdf_d, w, h))
if not 0.75 < pdf_d / png_d < 1.33:
    sys.exit("PDF markers are %.2f times the PNG ones" % (pdf_d / png_d))
EOF
expect_ok "$NS" plot "$WORK/nim4.h5" -o "$F/marks.png"
expect_ok "$NS" plot "$WORK/nim4.h5" -o "$F/marks.pdf"
py marks.py "$F/marks.png" "$F/marks.pdf"

# --- bad ranges: one clear line each -------------------------------------------
expect_error 2 plot "--xrange '5': expected A:B" "$NS" plot "$WORK/w.h5" --kind grundy --xrange 5 -o "$F/x.png"
expect_error 2 plot "--yrange '-1:3': expected A:B" "$NS" plot "$WORK/w.h5" --kind grundy --yrange -1:3 -o "$F/x.png"
expect_error 2 plot "--xrange '1:2x': expected A:B" "$NS" plot "$WORK/w.h5" --kind grundy --xrange 1:2x -o "$F/x.png"
expect_error 2 plot "--xrange '9:3': the start 9 is after the end 3" "$NS" plot "$WORK/w.h5" --kind g-values --xrange 9:3 -o "$F/x.png"
expect_error 2 plot "--xrange 0:256: outside the table: pile 1 runs 0\\.\\.255 in .*w\\.h5" \
    "$NS" plot "$WORK/w.h5" --kind g-values --xrange 0:256 -o "$F/x.png"
expect_error 2 plot "--yrange 10:999: outside the table: pile 2 runs 0\\.\\.255" \
    "$NS" plot "$WORK/w.h5" --kind p-positions --yrange 10:999 -o "$F/x.png"
expect_error 2 plot "--range 0:1000: outside the table: n runs 0\\.\\.999" "$NS" plot "$WORK/sub.h5" --range 0:1000 -o "$F/x.png"
expect_error 2 plot "--range applies to --kind sequence, not --kind grundy \\(use --xrange" \
    "$NS" plot "$WORK/w.h5" --kind grundy --range 0:9 -o "$F/x.png"
expect_error 2 plot "--xrange and --yrange apply to two-pile figures.*not --kind sequence \\(use --range" \
    "$NS" plot "$WORK/sub.h5" --xrange 0:9 -o "$F/x.png"
expect_error 2 plot "--xrange and --yrange apply .*not --kind histogram" \
    "$NS" plot "$WORK/w.h5" --kind histogram --xrange 0:9 -o "$F/x.png"
CHECKS=$((CHECKS + 1))
[ ! -e "$F/x.png" ] || fail "a figure was written for a bad range"

# --- --help lists every kind of the table ---------------------------------------
expect_ok "$NS" plot --help
for k in p-positions grundy g-values sequence histogram; do
    expect_out "^  $k "
done
expect_out '--xrange A:B'

finish
