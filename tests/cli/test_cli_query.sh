#!/bin/bash
# nimsieve query: values, P/N and the complete lists of winning moves and of
# moves to each smaller value, against a naive Wythoff solver written here;
# bad positions fail with one line and exit 2.
# Usage: bash test_cli_query.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3
W="$WORK/w.h5"
WP="$WORK/wpn.h5"
N=12
expect_ok "$NS" solve wythoff --size $N --quiet -o "$W"
expect_ok "$NS" solve wythoff --size $N --pn-only --quiet -o "$WP"

# Naive Wythoff Grundy values; for position (x, y) print the expected lines:
#   "G <value>", then "<g> <x'> <y'> <description>" for every option of value < G
cat >"$WORK/naive.py" <<'EOF'
import sys
N = int(sys.argv[1]); x0 = int(sys.argv[2]); y0 = int(sys.argv[3])
g = {}
def options(x, y):
    for t in range(1, x + 1):
        yield (x - t, y), "take %d from pile 1" % t
    for t in range(1, y + 1):
        yield (x, y - t), "take %d from pile 2" % t
    for t in range(1, min(x, y) + 1):
        yield (x - t, y - t), "take %d from pile 1 and %d from pile 2" % (t, t)
for x in range(N):
    for y in range(N):
        s = {g[o] for o, _ in options(x, y)}
        m = 0
        while m in s:
            m += 1
        g[(x, y)] = m
G = g[(x0, y0)]
print("G", G)
for (o, d) in sorted(options(x0, y0)):
    if g[o] < G:
        print(g[o], "move to (%d, %d): %s" % (o[0], o[1], d))
EOF

# the moves printed under "winning moves" / under "value g:" in $OUT
section() { # section VALUE  (0 = winning moves)
    if [ "$1" = 0 ]; then
        awk '/^winning moves:/{on=1; next} /^moves to each smaller value:/{on=0} on && /^  move to/{sub(/^ +/, ""); print}' "$OUT"
    else
        awk -v v="$1" '/^  value [0-9]+:/{on = ($2 == v ":")} on && /^    move to/{sub(/^ +/, ""); print}' "$OUT"
    fi | sort
}

check_position() { # x y
    local x=$1 y=$2
    $PY "$WORK/naive.py" $N "$x" "$y" >"$WORK/want"
    local G
    G=$(awk '$1 == "G" {print $2}' "$WORK/want")
    expect_ok "$NS" query "$W" "$x" "$y"
    expect_out "^position: +\($x, $y\)$"
    expect_out "^grundy value: +$G$"
    if [ "$G" = 0 ]; then
        expect_out '^outcome: +P '
        expect_out '^winning moves: none'
    else
        expect_out '^outcome: +N '
    fi
    for g in $(seq 0 $((G > 0 ? G - 1 : 0))); do
        [ "$G" = 0 ] && break
        expect_eq "query ($x, $y): moves to value $g" "$(section "$g")" \
            "$(awk -v g="$g" '$1 == g {sub(/^[0-9]+ /, ""); print}' "$WORK/want" | sort)"
    done
    # the P/N table gives the same outcome and the same winning moves
    expect_ok "$NS" query "$WP" "$x" "$y"
    expect_no_out '^grundy value'
    expect_eq "query P/N ($x, $y): winning moves" "$(section 0)" \
        "$(awk '$1 == 0 {sub(/^[0-9]+ /, ""); print}' "$WORK/want" | sort)"
    expect_no_out '^moves to each smaller value'
}

# (3, 5) is P: (floor(2 phi), floor(2 phi^2)) = (3, 5)
check_position 3 5
expect_out '^outcome: +P \(the player to move loses\)$'
# (4, 5) is N; taking 1 from pile 1 gives (3, 5), which is P; so does taking
# 3 from both, to (1, 2)
check_position 4 5
expect_ok "$NS" query "$W" 4 5
expect_out '^outcome: +N \(the player to move wins\)$'
expect_out '^  move to \(3, 5\): take 1 from pile 1$'
expect_out '^  move to \(1, 2\): take 3 from pile 1 and 3 from pile 2$'
expect_out '^winning moves: 2 '
# G(4, 5) = G(5, 4) = 6 (OEIS A317205, row 5: 5,3,4,0,6,8)
expect_out '^grundy value: +6$'
check_position 0 0
expect_out '^winning moves: none \(no move at all'
check_position 11 7
check_position 9 9
check_position 0 11

# ---- other games: named coordinates and a domain ----
expect_ok "$NS" solve staircase -D piles=2 --size 8 --quiet -o "$WORK/st.h5"
# staircase with 2 steps: (a, b) means a coins on step 1, b on step 2; moving
# from step 2 to step 1 is the only move from (0, 3): to (1, 2), (2, 1), (3, 0)
expect_ok "$NS" query "$WORK/st.h5" 0 3
expect_out '^moves: +3 distinct options$'
# G = the Nim value of the odd steps (here step 1 only): (0, 3) is P
expect_out '^outcome: +P '
expect_out '^winning moves: none \(every move leads to an N-position\)$'
expect_ok "$NS" query "$WORK/st.h5" 3 1
expect_out '^grundy value: +3$'
expect_out '^  move to \(0, 1\): take 3 from step 1$'
expect_error 2 query "\(5, 5\) is not a position of staircase" "$NS" query "$WORK/st.h5" 5 5

# ---- bad positions ----
expect_error 2 query "position \(5, 70000\) is outside the table \[0,$N\) x \[0,$N\)$" "$NS" query "$W" 5 70000
expect_error 2 query "position \($N, 0\) is outside the table" "$NS" query "$W" $N 0
expect_error 2 query "position \(-1, 3\) is outside the table" "$NS" query "$W" -1 3
expect_error 2 query "expected 2 coordinates for wythoff, got 1" "$NS" query "$W" 3
expect_error 2 query "expected 2 coordinates for wythoff, got 3" "$NS" query "$W" 3 5 1
expect_error 2 query "missing position" "$NS" query "$W"
expect_error 2 query "missing FILE" "$NS" query
expect_error 2 query "coordinate 1 'abc' is not an integer" "$NS" query "$W" abc 3
expect_error 2 query "coordinate 2 '3.5' is not an integer" "$NS" query "$W" 3 3.5
expect_error 2 query "coordinate 2 '' is not an integer" "$NS" query "$W" 3 ""
expect_error 2 query "coordinate 1 '99999999999999999999' is too large" "$NS" query "$W" 99999999999999999999 1
expect_error 2 query "position \(9223372036854775807, 1\) is outside" "$NS" query "$W" 9223372036854775807 1
expect_error 2 query "no-such\.h5" "$NS" query "$WORK/no-such.h5" 1 2
expect_error 2 query "unknown option '--frob'" "$NS" query --frob "$W" 1 2

finish
