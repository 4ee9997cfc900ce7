#!/bin/bash
# Loopy games (issue 18, item 5): every plot kind that reads a P / N / draw
# file shows the draws as what they are. The kept gnuplot data (--keep-script)
# is compared with a naive fixed-point solver written here in Python, the
# moves of each game written out by hand (not read from the rule file):
#   grundy      0 P, 1 N, 2 draw in every cell
#   p-positions exactly the P-positions, the draws said to be left out
#   histogram   three bars P, N, draw (a draw is a category, not a value)
#   g-values    value 0 exactly on the P-cells; draws counted as not drawn
#   remoteness  the remoteness of every decided cell, draws one value above
#               the largest; reduced maps: the largest remoteness of each
#               block's decided cells, a draw only where all are draws;
#               --max-value caps; refused for a file that is not loopy
# Games: tests/rules/loopy/take_grow.rules (draws, remoteness up to 15 at
# 12 x 12) and data/rules/wythoff-grow.rules (no draws, Wythoff's pairs).
# Usage: bash test_plot_loopy.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.png*
PY=/usr/bin/python3

cat >"$WORK/naive.py" <<'PYEOF'
"""naive.py GAME N KIND DATA [args]: checks a plot's kept data against a
naive fixed-point solution of GAME on [0,N)^2; prints 'ok ...' or 'FAIL ...'
lines and the counts 'P np N nn D nd R rmax' (the last line)."""
import math, re, struct, sys

game, n, kind, data = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
extra = sys.argv[5:]

def options(x, y):
    o = []
    if game == "take_grow":
        o += [(x - t, y) for t in (2, 3) if t <= x]
        o += [(x, y - 2)] if y >= 2 else []
        o += [(x + 1, y - 1)] if y >= 1 else []
        o += [(x, y + 1)] if x >= 2 else []
    else:  # wythoff-grow: Wythoff's moves, and one token onto the smaller pile
        o += [(x - t, y) for t in range(1, x + 1)]
        o += [(x, y - t) for t in range(1, y + 1)]
        o += [(x - t, y - t) for t in range(1, min(x, y) + 1)]
        o += [(x + 1, y)] if x < y else []
        o += [(x, y + 1)] if y < x else []
    return [q for q in set(o) if 0 <= q[0] < n and 0 <= q[1] < n]

cells = [(x, y) for x in range(n) for y in range(n)]
opts = {c: options(*c) for c in cells}
out, rem = {}, {}
for c in cells:
    if not opts[c]:
        out[c], rem[c] = "P", 0
while True:  # rounds until nothing changes: the definitions of P, N, remoteness
    new = {}
    for c in cells:
        if c in out:
            continue
        ps = [rem[q] for q in opts[c] if out.get(q) == "P"]
        if ps:
            new[c] = ("N", 1 + min(ps))
        elif all(out.get(q) == "N" for q in opts[c]):
            new[c] = ("P", 1 + max(rem[q] for q in opts[c]))
    if not new:
        break
    for c, (v, d) in new.items():
        out[c], rem[c] = v, d
for c in cells:
    out.setdefault(c, "D")
count = {k: sum(1 for c in cells if out[c] == k) for k in "PND"}
rmax = max(rem.values())
fails = 0
def fail(msg):
    global fails
    fails += 1
    print("FAIL", msg)

def image(path, w, h):
    """the float32 image, x fastest (gnuplot's binary array): v[X][Y]"""
    raw = open(path, "rb").read()
    if len(raw) != 4 * w * h:
        fail(f"{path}: {len(raw)} bytes, expected {4 * w * h}")
        return None
    v = struct.unpack("<%df" % (w * h), raw)
    return [[v[Y * w + X] for Y in range(h)] for X in range(w)]

def same(what, got, want):
    if got != want and not (isinstance(got, float) and math.isnan(got) and want is None):
        fail(f"{what}: plotted {got}, expected {want}")
        return False
    return True

if kind == "grundy":
    img = image(data, n, n)
    code = {"P": 0.0, "N": 1.0, "D": 2.0}
    for (x, y) in cells:
        if img and not same(f"grundy ({x}, {y})", img[x][y], code[out[(x, y)]]):
            break
elif kind == "p-positions":
    pts = set()
    for line in open(data):
        a, b = line.split()
        pts.add((int(a), int(b)))
    want = {c for c in cells if out[c] == "P"}
    if pts != want:
        fail(f"p-positions: plotted {sorted(pts - want)[:5]} not P, left out {sorted(want - pts)[:5]}")
elif kind == "histogram":
    rows = [l.split() for l in open(data) if not l.startswith("#")]
    got = [(int(r[0]), int(r[1]), r[3]) for r in rows]
    want = [(0, count["P"], "P"), (1, count["N"], "N"), (2, count["D"], "draw")]
    if got != want:
        fail(f"histogram: bars {got}, expected {want}")
elif kind == "g-values":
    img = image(data, n, n)
    for (x, y) in cells:
        if img and not same(f"g-values ({x}, {y})", img[x][y], 0.0 if out[(x, y)] == "P" else None):
            break
elif kind == "remoteness":
    # extra: W H FR FC CAP (the grid, the blocks, --max-value or -1)
    w, h, fr, fc, cap = (int(a) for a in extra)
    top = min(rmax, cap) if cap >= 0 else rmax
    top = max(top, 1)
    img = image(data, w, h)
    for X in range(w):
        for Y in range(h):
            block = [(x, y) for x in range(X * fr, min(n, (X + 1) * fr)) for y in range(Y * fc, min(n, (Y + 1) * fc))]
            dec = [rem[c] for c in block if out[c] != "D"]
            if dec:
                want = float(min(max(dec), top))
            elif any(out[c] == "D" for c in block):
                want = float(top + 1)
            else:
                want = None
            if img and not same(f"remoteness pixel ({X}, {Y})", img[X][Y], want):
                break
print("ok" if not fails else f"{fails} failures")
print(f"P {count['P']} N {count['N']} D {count['D']} R {rmax}")
sys.exit(1 if fails else 0)
PYEOF

# check KIND GAME N [args]: the last plot's kept data against the naive solver
check() {
    local kind=$1 game=$2 n=$3 ext=bin
    shift 3
    [ "$kind" = p-positions ] || [ "$kind" = histogram ] && ext=dat
    CHECKS=$((CHECKS + 1))
    local data="$WORK/$game-$kind.png.$ext"
    if ! $PY "$WORK/naive.py" "$game" "$n" "$kind" "$data" "$@" >"$WORK/naive.out" 2>&1; then
        fail "$game $kind: the plotted data disagree with the naive solver"
        head -5 "$WORK/naive.out" >&2
    fi
}

for game in take_grow:$SRC/tests/rules/loopy/take_grow.rules:12 wythoff-grow:$SRC/data/rules/wythoff-grow.rules:14; do
    IFS=: read -r name file n <<<"$game"
    h5="$WORK/$name.h5"
    expect_ok "$NS" solve "$file" --size $n -o "$h5"
    # the naive counts, for the printed lines
    $PY "$WORK/naive.py" "$name" "$n" none /dev/null >"$WORK/counts.out"
    read -r _ np _ nn _ nd _ rmax < <(tail -1 "$WORK/counts.out")
    echo "$name $n x $n: naive P $np N $nn D $nd, largest remoteness $rmax"

    expect_ok "$NS" plot "$h5" --kind grundy -o "$WORK/$name-grundy.png" --keep-script
    expect_out "^pixels: $np P, $nn N, $nd draw "
    check grundy "$name" "$n"

    expect_ok "$NS" plot "$h5" --kind p-positions -o "$WORK/$name-p-positions.png" --keep-script
    expect_out "^$np P-positions \\($np drawn\\)"
    expect_out "^loopy game: P-positions only; the $nd draws and the N-positions are not drawn"
    CHECKS=$((CHECKS + 1))
    grep -q "not drawn: the N-positions and the $nd draws" "$WORK/$name-p-positions.png.gp" ||
        fail "$name p-positions: expected the caption to say that the $nd draws are not drawn"
    check p-positions "$name" "$n"

    expect_ok "$NS" plot "$h5" --kind histogram -o "$WORK/$name-histogram.png" --keep-script
    expect_out "^$((np + nn + nd)) positions: $np P, $nn N, $nd draws "
    expect_no_out "above . not shown"
    CHECKS=$((CHECKS + 1))
    grep -q 'set xtics ("P" 0, "N" 1, "draw" 2)' "$WORK/$name-histogram.png.gp" ||
        fail "$name histogram: expected the bars P, N, draw"
    check histogram "$name" "$n"

    expect_ok "$NS" plot "$h5" --kind g-values -o "$WORK/$name-g-values.png" --keep-script
    expect_out "pixels per value: 0:$np\$"
    expect_out "^loopy game: value 0 is P; $((nn + nd)) white pixels hold N-positions and draws only, $nd pixels hold a draw"
    CHECKS=$((CHECKS + 1))
    grep -q 'white: N-positions and draws' "$WORK/$name-g-values.png.gp" ||
        fail "$name g-values: expected the caption to say what white is"
    check g-values "$name" "$n"

    expect_ok "$NS" plot "$h5" --kind remoteness -o "$WORK/$name-remoteness.png" --keep-script
    expect_out "^remoteness map, $n x $n pixels, each the value of 1 x 1 cells; largest remoteness drawn $rmax\$"
    expect_out "^pixels: $((np + nn)) with a remoteness, $nd draw "
    check remoteness "$name" "$n" "$n" "$n" 1 1 -1
done

# take_grow: a reduced remoteness map (2 x 2 cells a pixel at 60 x 60 in a
# 200-pixel figure) and a capped one
h5="$WORK/take_grow60.h5"
expect_ok "$NS" solve "$SRC/tests/rules/loopy/take_grow.rules" --size 60 -o "$h5"
expect_ok "$NS" plot "$h5" --kind remoteness -o "$WORK/take_grow-remoteness.png" --keep-script --width 200 --height 200
m=$(grep -oE '^remoteness map, [0-9]+ x [0-9]+ pixels, each the largest of [0-9]+ x [0-9]+ cells' "$OUT" | grep -oE '[0-9]+' | tr '\n' ' ')
read -r w h fr fc <<<"$m"
CHECKS=$((CHECKS + 1))
[ -n "${fc:-}" ] && [ "$fr" -gt 1 ] || { fail "take_grow 60: expected a reduced remoteness map"; show; }
check remoteness take_grow 60 "$w" "$h" "$fr" "$fc" -1
expect_ok "$NS" plot "$h5" --kind remoteness -o "$WORK/take_grow-remoteness.png" --keep-script --width 200 --height 200 --max-value 5
expect_out "largest remoteness drawn [0-9]+ \\(capped by --max-value\\)"
check remoteness take_grow 60 "$w" "$h" "$fr" "$fc" 5

# a file that is not a loopy game's has no remoteness
expect_ok "$NS" solve wythoff --size 16 -o "$WORK/wythoff.h5"
expect_error 2 plot "--kind remoteness needs a loopy game's table \\(with /remoteness\\); .*wythoff.h5 is not one" \
    "$NS" plot "$WORK/wythoff.h5" --kind remoteness -o "$WORK/w.png"
finish
