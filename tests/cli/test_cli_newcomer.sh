#!/bin/bash
# The small things a newcomer met (issue 15), each as one clear line:
# swapped arguments of query and move, a misspelt preset, a parameter the
# preset does not take, the prefix family in `rules --help`, the staircase's
# steps named in words like every other pile, and `nimsieve` alone.
# Usage: bash test_cli_newcomer.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
W="$WORK/wythoff.h5"
expect_ok "$NS" solve wythoff --size 16 --quiet -o "$W"

# no subcommand: one line, usage and where to look, exit 2
run "$NS"
expect_eq "exit status of 'nimsieve' alone" "$RC" 2
expect_eq "stdout of 'nimsieve' alone" "$(cat "$OUT")" ""
expect_eq "stderr of 'nimsieve' alone" "$(cat "$ERR")" "usage: nimsieve SUBCOMMAND [OPTIONS] ... (try 'nimsieve --help')"

# the position typed before the file
expect_error 2 query "the file comes first: expected 'nimsieve query .*wythoff.h5 X1 X2 \.\.\.'" "$NS" query 4 5 "$W"
expect_error 2 move "the file comes first: expected 'nimsieve move .*wythoff.h5 X1 X2 \.\.\.'" "$NS" move 4 5 "$W"
# and a number that is not a file is still "cannot open" when no .h5 follows
expect_error 2 query "^nimsieve query: 4: " "$NS" query 4 5 6

# did you mean: the preset names within 2 edits
expect_error 2 solve "unknown game 'wythof': did you mean 'wythoff'\?" "$NS" solve wythof --size 8 -o "$WORK/x.h5"
expect_error 2 solve "unknown game 'bahs': did you mean 'bash'\?" "$NS" solve bahs --size 8 -o "$WORK/x.h5"
expect_error 2 solve "unknown game 'chess': expected a preset name" "$NS" solve chess --size 8 -o "$WORK/x.h5"
# a parameter the preset does not take: its own list, and who takes it
expect_error 2 solve "wythoff has no parameter 'a' \(its parameters: none\); it is a parameter of a-wythoff$" \
    "$NS" solve wythoff -D a=3 --size 8 -o "$WORK/x.h5"
expect_error 2 solve "nim has no parameter 'pile' \(its parameters: piles\); did you mean 'piles'\?$" \
    "$NS" solve nim -D pile=3 --size 8 -o "$WORK/x.h5"
expect_error 2 solve "bash has no parameter 'piles' \(its parameters: m\); it is a parameter of nim, moore, staircase$" \
    "$NS" solve bash -D piles=3 --size 8 -o "$WORK/x.h5"

# rules --help lists the four family classes, prefix among them
expect_ok "$NS" rules --help
for cls in ray finite prefix general; do
    expect_out "^  $cls  "
done

# staircase: "step 3" in words, as the families say ("move coins from step 3
# to step 2") and as the other games say "pile 3". The winning moves of
# Staircase Nim (3, 4, 5): the odd steps 1 and 3 hold 3 xor 5 = 6; moving
# c coins from step 2 to step 1 or from step 3 to step 2 must make it 0:
# 2 from step 2 (3 + 2 = 5 = 5) and 2 from step 3 (3 = 5 - 2).
expect_ok "$NS" move --game staircase 3 4 5 --all
expect_out '^  take 2 from step 2, add 2 to step 1 -> \(5, 2, 5\)$'
expect_out '^  take 2 from step 3, add 2 to step 2 -> \(3, 6, 3\)$'
expect_no_out 'step[0-9]'
S="$WORK/stair.h5"
expect_ok "$NS" solve staircase --size 8 --quiet -o "$S"
expect_ok "$NS" query "$S" 1 2 2
expect_out 'take 1 from step 3, add 1 to step 2'
expect_no_out 'step[0-9]'
finish
