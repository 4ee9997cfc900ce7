#!/bin/bash
# Figures of heap games' sequences: --kind sequence (values against n, the
# period and whether the file says it is proven), --kind histogram and
# --kind rare (the heap sizes with popcount(G(n) & mask) even, for the mask
# that makes the fewest rare). The data files kept with --keep-script are
# checked against a naive solver written here (Kayles 0.77, Grundy's game),
# the masks against a brute-force choice over every mask, and the figures
# are non-blank PNGs (decoded by the checker of test_plot.sh).
# Usage: bash test_plot_seq.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -rf "$WORK"/*.h5 "$WORK"/fig
mkdir -p "$WORK/fig"
PY=/usr/bin/python3
if ! command -v gnuplot >/dev/null; then
    echo "gnuplot not installed" >&2
    exit 1
fi
# the PNG checker of test_plot.sh (one copy of it in the tree)
sed -n "/^cat >\"\$WORK\/pngcheck.py\" <<'EOF'\$/,/^EOF\$/p" "$SRC/tests/cli/test_plot.sh" | sed '1d;$d' >"$WORK/pngcheck.py"
[ -s "$WORK/pngcheck.py" ] || { echo "no pngcheck.py in test_plot.sh" >&2; exit 1; }
png_ok() {
    CHECKS=$((CHECKS + 1))
    local msg
    msg=$("$PY" "$WORK/pngcheck.py" "$1" "$2" "$3" 2>&1) || fail "$1: $msg"
}

cat >"$WORK/ref.py" <<'PYEOF'
import sys
what, game, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
def opts(n):
    if game == "grundy":
        return [(a, n - a) for a in range(1, n) if a < n - a]
    # Kayles: take 1 or 2, leave 0, 1 or 2 heaps
    out = []
    for t in (1, 2):
        m = n - t
        for a in range(0, m // 2 + 1):
            if m >= 0:
                out.append((a, m - a))
    return out
G = []
for n in range(N):
    s = {G[a] ^ G[b] for a, b in opts(n)}
    v = 0
    while v in s:
        v += 1
    G.append(v)
if what == "seq":
    lo, hi = int(sys.argv[4]), int(sys.argv[5])
    for n in range(lo, hi + 1):
        print(n, G[n])
elif what == "hist":
    for v in range(max(G) + 1):
        print(v, G.count(v))
elif what == "rare":
    bits = max(G).bit_length()
    best = None
    for m in range(1, 1 << bits):
        r = [n for n in range(N) if bin(G[n] & m).count("1") % 2 == 0]
        if best is None or len(r) < len(best[1]):
            best = (m, r)
    print("mask", best[0], len(best[1]))
    for n in best[1]:
        print(n, G[n])
PYEOF

K="$WORK/kayles.h5"
GR="$WORK/grundy.h5"
expect_ok "$NS" solve octal -D code=0.77 --size 300 -o "$K" --quiet
expect_ok "$NS" solve grundys-game --size 400 -o "$GR" --quiet
F="$WORK/fig"

# values against n, the period proven (the proof needs 168 heap sizes)
expect_ok "$NS" plot "$K" --kind sequence -o "$F/seq.png" --keep-script
expect_out '^300 values; period 12, preperiod 71 \(proven by the octal periodicity theorem\)$'
png_ok "$F/seq.png" 1000 800
expect_eq "sequence data (n = 0..118) against the naive solver" "$(cat "$F/seq.png.dat")" "$($PY "$WORK/ref.py" seq kayles 300 0 118)"
expect_ok "$NS" plot "$K" --kind sequence --range 100:299 -o "$F/seqr.png" --keep-script
expect_eq "sequence data (--range 100:299)" "$(cat "$F/seqr.png.dat")" "$($PY "$WORK/ref.py" seq kayles 300 100 299)"
# the same period observed, not proven, at 150 heap sizes
expect_ok "$NS" solve octal -D code=0.77 --size 150 -o "$WORK/k150.h5" --quiet
expect_ok "$NS" plot "$WORK/k150.h5" -o "$F/seq150.png"
expect_out '^150 values; period 12, preperiod 71 \(observed, not proven\)$'

# value histograms
for g in kayles grundy; do
    f="$WORK/$g.h5"
    n=300
    [ $g = grundy ] && n=400
    expect_ok "$NS" plot "$f" --kind histogram -o "$F/h-$g.png" --keep-script
    png_ok "$F/h-$g.png" 1000 800
    expect_eq "$g histogram data" "$(cat "$F/h-$g.png.dat")" "$($PY "$WORK/ref.py" hist $g $n)"
done

# rare heap sizes: the mask and the rare n against a brute-force choice
for g in kayles grundy; do
    f="$WORK/$g.h5"
    n=300
    [ $g = grundy ] && n=400
    $PY "$WORK/ref.py" rare $g $n >"$WORK/rare-$g.ref"
    read -r _ mask count <"$WORK/rare-$g.ref"
    expect_ok "$NS" plot "$f" --kind rare -o "$F/r-$g.png" --keep-script
    expect_out "^$n values; mask [01]+ \\($mask\\): $count rare "
    png_ok "$F/r-$g.png" 1000 800
    expect_eq "$g rare data" "$(cat "$F/r-$g.png.dat")" "$(tail -n +2 "$WORK/rare-$g.ref")"
done

# refused: a P/N file, a two-pile table
expect_ok "$NS" solve subtraction -D set=1,2 --size 50 --pn-only -o "$WORK/pn.h5" --quiet
expect_error 2 plot "rare needs Grundy values" "$NS" plot "$WORK/pn.h5" --kind rare -o "$F/x.png"
expect_ok "$NS" solve wythoff --size 20 -o "$WORK/w.h5" --quiet
expect_error 2 plot "one-pile" "$NS" plot "$WORK/w.h5" --kind rare -o "$F/x.png"
finish
