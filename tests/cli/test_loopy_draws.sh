#!/bin/bash
# Loopy games (issue 18, item 5): `plot` draws the draws of a P/N/draw table
# in a third colour, `patterns` runs on the P-positions of a loopy file and
# counts P, N and draws (on wythoff-grow.rules it finds Wythoff's pairs,
# checked against floor(n phi) in exact integers), `check` refuses a loopy
# file with a clear line. The
# figure's kept data file is compared cell by cell with /pn read by h5dump;
# the counts with /pn's own values.
# Usage: bash test_loopy_draws.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.png*
PY=/usr/bin/python3
WL="$SRC/data/rules/wythoff-loopy.rules"
TG="$SRC/tests/rules/loopy/take_grow.rules"

# the values of a dataset of an h5 file, on one line
dump() {
    h5dump -d "$2" -y -w 0 "$1" | sed -n '/DATA {/,/}/{p;/}/q}' | sed '1d;$d' | tr -d ' \n' | tr ',' ' '
    echo
}
count() { tr ' ' '\n' <<<"$1" | grep -c "^$2\$"; }

for game in wythoff-loopy:$WL:24 take_grow:$TG:12; do
    IFS=: read -r name file n <<<"$game"
    h5="$WORK/$name.h5"
    expect_ok "$NS" solve "$file" --size $n -o "$h5"
    pn=$(dump "$h5" /pn)
    np=$(count "$pn" 0) nn=$(count "$pn" 1) nd=$(count "$pn" 3)
    CHECKS=$((CHECKS + 1))
    [ "$nd" -gt 0 ] && [ "$np" -gt 0 ] || { fail "$name: expected P-positions and draws in /pn"; }

    # plot: one square per cell, the kept data holds 0 P, 1 N, 2 draw
    expect_ok "$NS" plot "$h5" --kind grundy -o "$WORK/$name.png" --keep-script
    expect_out "^P/N/draw map, $n x $n pixels"
    expect_out "^pixels: $np P, $nn N, $nd draw "
    CHECKS=$((CHECKS + 1))
    grep -q 'set cbtics ("P" 0, "N" 1, "draw" 2)' "$WORK/$name.png.gp" || fail "$name: expected a legend with P, N and draw"
    got=$($PY - "$WORK/$name.png.bin" "$n" <<'PYEOF'
import struct, sys
path, n = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
v = struct.unpack("<%df" % (len(data) // 4), data)
# the image is written column by column of the table: value (x, y) at y * n + x;
# print it in /pn's order (x outer, y inner) with 2 (draw) as /pn's 3
print(" ".join({0.0: "0", 1.0: "1", 2.0: "3"}.get(v[y * n + x], "?") for x in range(n) for y in range(n)))
PYEOF
)
    expect_eq "$name: plot data against /pn" "$got" "$pn"

    # patterns: runs, counts P / N / draws as /pn has them
    expect_ok "$NS" patterns "$h5"
    expect_out "^loopy game: +$np P-positions, $nn N-positions, $nd draws; the patterns below are those of the P-positions"
    expect_ok "$NS" patterns "$h5" --json
    expect_out "\"loopy\": \\{\"p_positions\": $np, \"n_positions\": $nn, \"draws\": $nd\\}"
done

# patterns at 64 x 64 on wythoff-loopy: one P-position, (0, 0), as /pn says
expect_ok "$NS" solve "$WL" --size 64 -o "$WORK/wl64.h5"
np=$(count "$(dump "$WORK/wl64.h5" /pn)" 0)
expect_eq "wythoff-loopy 64: P-positions in /pn" "$np" 1
expect_ok "$NS" patterns "$WORK/wl64.h5"
expect_out "^loopy game: +$np P-positions, "
expect_out 'no P-positions above the diagonal'

# patterns on the P-positions of a loopy game with structure: wythoff-grow's
# P-positions are Wythoff's pairs (a_n, b_n) = (floor(n phi), floor(n phi) + n),
# here in exact integers: floor(n phi) = (n + isqrt(5 n^2)) / 2
WG="$SRC/data/rules/wythoff-grow.rules"
expect_ok "$NS" solve "$WG" --size 64 -o "$WORK/wg64.h5"
want=$($PY - 64 <<'PYEOF'
import sys
from math import isqrt
n_box = int(sys.argv[1])
pairs = []
n = 1
while True:
    a = (n + isqrt(5 * n * n)) // 2
    if a + n >= n_box:
        break
    pairs.append((a, a + n))
    n += 1
print(len(pairs), " ".join(str(a) for a, _ in pairs[:16]), "|", " ".join(str(b) for _, b in pairs[:16]))
PYEOF
)
npairs=${want%% *} rest=${want#* }
a16=${rest%% |*} b16=${rest#*| }
expect_ok "$NS" patterns "$WORK/wg64.h5"
expect_out "^loopy game: +$((2 * npairs + 1)) P-positions, [0-9]+ N-positions, 0 draws"
expect_out "^  pairs: $npairs; \(0, 0\) is P; 0 P-positions \(x, x\), x > 0"
expect_out "^  a_n: $a16 \.\.\.\$"
expect_out "^  b_n: $b16 \.\.\.\$"
expect_out "^  differences: b_n - a_n = n for every n"
expect_out "^    constant: \(1\+sqrt\(5\)\)/2 = 1\.618"

# check: no theorem is about a loopy game; the line says so and names verify
expect_error 2 check "bouton does not apply to .*wl64.h5: the table is of a loopy game .*'nimsieve verify " "$NS" check bouton "$WORK/wl64.h5"
finish
