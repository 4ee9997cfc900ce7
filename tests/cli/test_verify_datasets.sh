#!/bin/bash
# nimsieve verify cross-checks the datasets of a table file: /pn against
# /grundy, /p_positions against /pn, the attributes max_value and
# n_p_positions against the data (issue 14). Files changed with h5py in one
# place only (so that the recomputation of cells alone would not notice)
# must fail with exit 1 and one line "inconsistent: FILE: ..." naming the
# dataset and the first differing position; untouched files (Grundy, P/N,
# streamed, with cells that are not positions, of several bands) pass.
# Usage: bash test_verify_datasets.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3

# edit.py FILE OP ARGS: one change, checksums recomputed by h5py
cat >"$WORK/edit.py" <<'EOF'
import sys
import h5py
import numpy as np
path, op = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
with h5py.File(path, "r+") as f:
    if op == "cell":            # cell DATASET x,y,.. VALUE
        pos = tuple(int(c) for c in args[1].split(","))
        f[args[0]][pos] = int(args[2])
    elif op == "pprow":         # pprow ROW x,y,..
        f["p_positions"][int(args[0])] = [int(c) for c in args[1].split(",")]
    elif op == "ppswap":        # ppswap ROW1 ROW2
        pp = f["p_positions"]
        a, b = int(args[0]), int(args[1])
        ra, rb = pp[a].copy(), pp[b].copy()
        pp[a], pp[b] = rb, ra
    elif op == "ppdrop":        # ppdrop ROW: /p_positions and n_p_positions lose that row
        old = f["p_positions"]
        data = np.delete(old[...], int(args[0]), axis=0)
        kw = dict(compression=old.compression, compression_opts=old.compression_opts,
                  shuffle=old.shuffle, fletcher32=old.fletcher32,
                  chunks=(max(1, min(len(data), old.chunks[0])), data.shape[1]))
        del f["p_positions"]
        f.create_dataset("p_positions", data=data, **kw)
        f.attrs.modify("n_p_positions", np.array(len(data), dtype=f.attrs["n_p_positions"].dtype))
    elif op == "attr":          # attr NAME VALUE (same type)
        f.attrs.modify(args[0], np.array(int(args[1]), dtype=f.attrs[args[0]].dtype))
    else:
        sys.exit("unknown op " + op)
EOF
edit() { # edit SRC DST OP ARGS...
    local src=$1 dst=$2
    shift 2
    cp "$src" "$dst" && $PY "$WORK/edit.py" "$dst" "$@" || fail "h5py could not change $dst ($*)"
}

# expect_inconsistent REGEX FILE [ARGS]: exit 1, stdout ends with one line
# "inconsistent: FILE: ..." matching REGEX, nothing on stderr
expect_inconsistent() {
    local re=$1
    shift
    run "$NS" verify "$@"
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 1 ]; then
        fail "verify $*: exit status $RC, expected 1"
        show
    elif [ -s "$ERR" ]; then
        fail "verify $*: an inconsistency is an answer: nothing on stderr"
        show
    elif [ "$(grep -c '^inconsistent: ' "$OUT")" -ne 1 ] || ! tail -n 1 "$OUT" | grep -Eq -- "^inconsistent: $1: $re\$"; then
        fail "verify $*: expected a last line 'inconsistent: $1: $re'"
        show
    fi
    expect_no_out ': OK$'
}

# Wythoff's P-positions in exact integers: (a_n, a_n + n), a_n = floor(n phi)
# = (n + isqrt(5 n^2)) / 2, and mirrors. (3, 5), (4, 7): n = 2, 3.
wythoff_p() { $PY -c "import math,sys; n=int(sys.argv[1]); a=(n+math.isqrt(5*n*n))//2; print(a, a+n)" "$1"; }
expect_eq "Wythoff pair n=2" "$(wythoff_p 2)" "3 5"
expect_eq "Wythoff pair n=764" "$(wythoff_p 764)" "1236 2000"

G="$WORK/w.h5"
P="$WORK/wpn.h5"
expect_ok "$NS" solve wythoff --size 12 --quiet -o "$G"
expect_ok "$NS" solve wythoff --size 12 --pn-only --quiet -o "$P"
for f in "$G" "$P"; do
    expect_ok "$NS" verify "$f"
    expect_out '^datasets agree: .*\(144 cells, 9 P-positions, largest value [0-9]+\)$'
    expect_out '^verified 144 cells: OK$'
done
expect_out '^datasets agree: /pn, /p_positions, max_value, n_p_positions \(144 cells, 9 P-positions, largest value 1\)$'

# ---- a Grundy file: /pn against /grundy ----
# (3, 5) is P (value 0): /pn says N
edit "$G" "$WORK/g1.h5" cell pn 3,5 1
expect_inconsistent 'dataset /pn holds 1 \(N\) at \(3, 5\), but /grundy holds 0 \(P\) there: expected /pn 0 \(P\)' "$WORK/g1.h5"
# (4, 5) has value 6 (OEIS A317205): /pn says P
edit "$G" "$WORK/g2.h5" cell pn 4,5 0
expect_inconsistent 'dataset /pn holds 0 \(P\) at \(4, 5\), but /grundy holds [1-9][0-9]* \(N\) there: expected /pn 1 \(N\)' "$WORK/g2.h5"
# /pn says "not a position" in a game without such cells
edit "$G" "$WORK/g3.h5" cell pn 0,1 2
expect_inconsistent 'dataset /pn holds 2 \(not a position\) at \(0, 1\), but /grundy holds 1 \(N\) there: expected /pn 1 \(N\)' "$WORK/g3.h5"

# ---- /p_positions against /pn (Grundy and P/N files) ----
for f in "$G" "$P"; do
    b=$(basename "$f" .h5)
    # rows in order: (0,0) (1,2) (2,1) (3,5) (4,7) (5,3) (6,10) (7,4) (10,6); row 3 says (3, 6)
    edit "$f" "$WORK/$b-pp1.h5" pprow 3 3,6
    expect_inconsistent 'dataset /p_positions lacks \(3, 5\), a P-position of /pn \(row 3 is \(3, 6\)\)' "$WORK/$b-pp1.h5"
    # rows 3 (3, 5) and 4 (4, 7) swapped: the order matters
    edit "$f" "$WORK/$b-pp2.h5" ppswap 3 4
    expect_inconsistent 'dataset /p_positions (lacks \(3, 5\), a P-position of /pn \(row 3 is \(4, 7\)\))' "$WORK/$b-pp2.h5"
    # a row that is not a P-position at all: (0, 1)
    edit "$f" "$WORK/$b-pp3.h5" pprow 1 0,1
    expect_inconsistent 'dataset /p_positions row 1 is \(0, 1\), not a P-position of /pn \(the next one there is \(1, 2\)\)' "$WORK/$b-pp3.h5"
    # the last P-position (10, 6) dropped from /p_positions and n_p_positions
    edit "$f" "$WORK/$b-pp4.h5" ppdrop 8
    expect_inconsistent 'dataset /p_positions lacks \(10, 6\), a P-position of /pn: its 8 rows \(attribute n_p_positions\) end before it' "$WORK/$b-pp4.h5"
done
# the P/N file: a P cell of /pn turned N, /p_positions left as it was
edit "$P" "$WORK/pn1.h5" cell pn 4,7 1
expect_inconsistent 'dataset /p_positions row 4 is \(4, 7\), not a P-position of /pn \(the next one there is \(5, 3\)\)' "$WORK/pn1.h5"

# ---- the summary attributes ----
# the largest value of Wythoff 12x12: the naive mex in Python
maxg=$($PY - <<'EOF'
N = 12
g = {}
for x in range(N):
    for y in range(N):
        opts = {g[(x - t, y)] for t in range(1, x + 1)} | {g[(x, y - t)] for t in range(1, y + 1)} \
             | {g[(x - t, y - t)] for t in range(1, min(x, y) + 1)}
        v = 0
        while v in opts:
            v += 1
        g[(x, y)] = v
print(max(g.values()))
EOF
)
edit "$G" "$WORK/a1.h5" attr max_value $((maxg + 1))
expect_inconsistent "attribute max_value = $((maxg + 1)), but the largest value in /grundy is $maxg" "$WORK/a1.h5"
edit "$P" "$WORK/a2.h5" attr max_value 0
expect_inconsistent 'attribute max_value = 0, but the largest value in /pn .*is 1' "$WORK/a2.h5"
# a value above max_value (the reader of whole tables also refuses it, so
# lower max_value below a value: the bands report the first such cell)
edit "$G" "$WORK/a3.h5" attr max_value $((maxg - 1))
expect_inconsistent "dataset /grundy holds $maxg at \([0-9]+, [0-9]+\), above attribute max_value $((maxg - 1))" "$WORK/a3.h5"

# ---- cells that are not positions: staircase Nim, 3 steps ----
S="$WORK/stair.h5"
SP="$WORK/stairpn.h5"
expect_ok "$NS" solve staircase -D piles=3 --size 6 --quiet -o "$S"
expect_ok "$NS" solve staircase -D piles=3 --size 6 --pn-only --quiet -o "$SP"
expect_ok "$NS" verify "$S"
expect_out '^datasets agree: /grundy, /pn'
expect_ok "$NS" verify "$SP"
expect_out '^datasets agree: /pn'
# (5, 5, 5): 15 coins on a staircase that holds 5 on the top step is not a
# position (the domain: c1 + c2 + c3 < 6); /pn says N
edit "$S" "$WORK/s1.h5" cell pn 5,5,5 1
expect_inconsistent 'dataset /pn holds 1 \(N\) at \(5, 5, 5\), but /grundy holds invalid_value [0-9]+ \(not a position\) there: expected /pn 2 \(not a position\)' "$WORK/s1.h5"
edit "$SP" "$WORK/s2.h5" cell pn 5,5,5 7
expect_inconsistent 'dataset /pn holds 7 at \(5, 5, 5\), expected 0 \(P\), 1 \(N\) or 2 \(not a position\)' "$WORK/s2.h5"

# ---- streamed files and tables of several bands (4.2e6 cells a band) ----
BG="$WORK/big.h5"
BP="$WORK/bigpn.h5"
expect_ok "$NS" solve wythoff --size 2100 --stream --quiet -o "$BG"
expect_ok "$NS" solve wythoff --size 2100 --pn-only --quiet -o "$BP"   # streamed by default
for f in "$BG" "$BP"; do
    expect_ok "$NS" verify "$f" --samples 500
    expect_out '^datasets agree: .*\(4410000 cells, [0-9]+ P-positions'
    expect_out '^verified 500 cells: OK$'
done
# (2000, 1236) is P (n = 764, mirrored), in the second band
edit "$BG" "$WORK/big1.h5" cell pn 2000,1236 1
expect_inconsistent 'dataset /pn holds 1 \(N\) at \(2000, 1236\), but /grundy holds 0 \(P\) there: expected /pn 0 \(P\)' "$WORK/big1.h5" --samples 10
edit "$BP" "$WORK/big2.h5" cell pn 2000,1236 1
expect_inconsistent 'dataset /p_positions row [0-9]+ is \(2000, 1236\), not a P-position of /pn .*' "$WORK/big2.h5" --samples 10
# a P cell added where the table is all N (an unstored chunk of /pn)
edit "$BP" "$WORK/big3.h5" cell pn 2099,2099 0
expect_inconsistent 'dataset /p_positions lacks \(2099, 2099\), a P-position of /pn: its [0-9]+ rows \(attribute n_p_positions\) end before it' "$WORK/big3.h5" --samples 10

finish
