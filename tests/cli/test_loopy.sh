#!/bin/bash
# Loopy games (issue 18): `nimsieve rules` says loopy and why, `solve` writes
# /pn with draws (code 3) and /remoteness, `info` counts the draws, `query`
# prints P / N / D and the remoteness, `verify` accepts them. The tables are checked against a
# naive fixed-point solver written here in Python (the moves written out by
# hand, not read from the rule file) and against the closed forms of
# tests/rules/loopy/*.rules, worked out by hand in their comments.
# Usage: bash test_loopy.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3
L="$SRC/tests/rules/loopy"
WL="$SRC/data/rules/wythoff-loopy.rules"

# `rules`: loopy, the line and the move of each file's header, the engine
for f in tokens zero_move swap_general; do
    want=$(sed -n '1s/^# loopy: //p' "$L/$f.rules")
    expect_ok "$NS" rules "$L/$f.rules"
    CHECKS=$((CHECKS + 1))
    grep -qF -- "loopy:     $want" "$OUT" || { fail "$f: expected 'loopy:     $want'"; show; }
    expect_out '^ +P/N tables: retro '
    expect_out 'not general: the game is loopy'
done
expect_ok "$NS" rules "$WL" --size 16
expect_out '^loopy: +line 16: the move \(0, 1\) -> \(1, 0\) changes the rank x \+ y by \+0'
expect_out '^checked: .*all inside the box'

# the naive solver: rounds of decisions from the positions without moves
cat >"$WORK/naive.py" <<'EOF'
import sys
game, n = sys.argv[1], int(sys.argv[2])
def options(x, y):
    o = []
    if game in ("wythoff-loopy",):
        o += [(x - t, y) for t in range(1, x + 1)]
        o += [(x, y - t) for t in range(1, y + 1)]
        o += [(x - t, y - t) for t in range(1, min(x, y) + 1)]
    if game in ("wythoff-loopy", "tokens"):
        o += [(x + 1, y - 1)] if y >= 1 and x + 1 < n else []
        o += [(x - 1, y + 1)] if x >= 1 and y + 1 < n else []
    return o
cells = [(x, y) for x in range(n) for y in range(n)]
out = {c: None for c in cells}
rem = {}
for c in cells:
    if not options(*c):
        out[c], rem[c] = 0, 0
r = 0
while True:
    new = {}
    for c in cells:
        if out[c] is not None:
            continue
        o = options(*c)
        ps = [rem[q] for q in o if out[q] == 0]
        if ps:
            new[c] = (1, 1 + min(ps))
        elif all(out[q] == 1 for q in o):
            new[c] = (0, 1 + max(rem[q] for q in o))
    if not new:
        break
    for c, (v, d) in new.items():
        out[c], rem[c] = v, d
print(" ".join(str(3 if out[c] is None else out[c]) for c in cells))
print(" ".join(str(65535 if out[c] is None else rem[c]) for c in cells))
EOF
# the values of a dataset of an h5 file, on one line
dump() {
    h5dump -d "$2" -y -w 0 "$1" | sed -n '/DATA {/,/}/{p;/}/q}' | sed '1d;$d' | tr -d ' \n' | tr ',' ' '
    echo
}

for game in wythoff-loopy:$WL tokens:$L/tokens.rules; do
    name=${game%%:*} file=${game#*:}
    for n in 7 16; do
        for th in 1 3; do
            h5="$WORK/$name-$n-$th.h5"
            expect_ok "$NS" solve "$file" --size $n --threads $th -o "$h5"
            expect_out '^loopy game: solved to P / N / draw with remoteness'
            expect_out '^engine: retro '
            $PY "$WORK/naive.py" "$name" $n >"$WORK/naive.txt"
            expect_eq "$name $n x $n /pn, $th threads" "$(dump "$h5" /pn)" "$(sed -n 1p "$WORK/naive.txt")"
            expect_eq "$name $n x $n /remoteness, $th threads" "$(dump "$h5" /remoteness)" "$(sed -n 2p "$WORK/naive.txt")"
        done
    done
done

# the closed forms: wythoff-loopy n x n has one P-position (0, 0), 3(n - 1)
# N-positions (one Wythoff move from it), the rest draws; tokens n x n has
# two P-positions (the corners without moves), the rest draws
expect_ok "$NS" info "$WORK/wythoff-loopy-16-1.h5"
expect_out '^P-positions: +1 '
expect_out '^N-positions: +45 '
expect_out '^draws: +210 '
expect_out '^engine: +retro$'
expect_ok "$NS" info "$WORK/tokens-16-3.h5"
expect_out '^P-positions: +2 '
expect_out '^draws: +254 '
expect_eq "loopy attribute" "$(h5dump -a /loopy "$WORK/tokens-16-3.h5" | grep -A1 'DATA {' | tail -1 | tr -d ' ')" "(0):1"
expect_eq "n_draws attribute" "$(h5dump -a /n_draws "$WORK/tokens-16-3.h5" | grep -A1 'DATA {' | tail -1 | tr -d ' ')" "(0):254"

# query: P / N / D and the remoteness
W="$WORK/wythoff-loopy-7-1.h5"
expect_ok "$NS" query "$W" 0 0
expect_out '^outcome: +P '
expect_out '^remoteness: +0 '
expect_ok "$NS" query "$W" 3 3
expect_out '^outcome: +N '
expect_out '^remoteness: +1 '
expect_out '^  move to \(0, 0\)'
expect_ok "$NS" query "$W" 1 2
expect_out '^outcome: +D \(a draw'
expect_out '^remoteness: +none'
expect_out '^winning moves: none \(no move leads to a P-position\)'

# verify: the file check accepts draws, every cell against the definitions
expect_ok "$NS" verify "$WORK/wythoff-loopy-16-1.h5"
expect_out '^datasets agree: .*largest value 3\)'
expect_out '^loopy game: each cell against the definitions'
expect_out '^verified 256 cells: OK'
expect_ok "$NS" verify "$WORK/tokens-16-3.h5" --samples 50
expect_out '^verified 50 cells: OK'

# the swap general family: (3, 1) is N (to (1, 3), which has no move), the
# rest P without moves; a pass everywhere: every position a draw
expect_ok "$NS" solve "$L/swap_general.rules" --size 8 -o "$WORK/swap.h5"
expect_ok "$NS" info "$WORK/swap.h5"
expect_out '^P-positions: +63 '
expect_out '^N-positions: +1 '
expect_out '^draws: +0 '
expect_ok "$NS" query "$WORK/swap.h5" 3 1
expect_out '^remoteness: +1 '
expect_ok "$NS" solve "$L/zero_move.rules" --size 5 -o "$WORK/zero.h5"
expect_ok "$NS" info "$WORK/zero.h5"
expect_out '^draws: +25 '
# the retro engine checkpoints (tests/cli/test_loopy_resume.sh): the options
# are taken, and --resume without a checkpoint starts from the beginning
expect_ok "$NS" solve "$WL" --size 16 --checkpoint-every 5 --force -o "$WORK/ck.h5"
expect_no_out "no checkpoints"
rm -f "$WORK/ck.h5"
expect_ok "$NS" solve "$WL" --size 16 --resume -o "$WORK/ck.h5"
expect_out "^no checkpoint .*ck.h5.ckpt: starting from the beginning"
# the generalized Sprague-Grundy values list every option: their memory is
# estimated before any work (printed in the plan) and refused over the
# budget with one line (exit 2, nothing written); --pn-only then works
expect_ok "$NS" solve "$WL" --size 16 --force -o "$WORK/g16.h5"
expect_out '^then generalized Sprague-Grundy values: about [0-9.]+ GiB .*about [0-9]+ options, counted at [0-9]+ cells'
rm -f "$WORK/big.h5" "$WORK/big.h5.ckpt"
expect_error 2 solve '^nimsieve solve: 600 x 600 \(360000 cells\): generalized Sprague-Grundy values would need about [0-9.]+ GiB \([0-9]+ options listed\) but --memory allows 0\.[0-9]+ GiB; add --pn-only for P / N / draw with remoteness only, or give --memory$' \
    "$NS" solve "$WL" --size 600 --memory 64M -o "$WORK/big.h5"
CHECKS=$((CHECKS + 1))
ls "$WORK"/big.h5* >/dev/null 2>&1 && fail "the refused solve wrote $(ls "$WORK"/big.h5*)"
expect_ok "$NS" solve "$WL" --size 600 --memory 64M --pn-only -o "$WORK/big.h5"
expect_out '^draws: +'
finish
