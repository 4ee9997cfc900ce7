# test_analysis_move.sh - `nimsieve move`: from a table and by closed forms;
# every printed move is legal and lands on a P-position by an independent
# check (Python: XOR for Nim, exact isqrt for Wythoff); piles near 10^18;
# exit 0 (winning move) / 1 (lost) / 2 (bad input).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
cd "$WORK" || exit 1
rm -f ./*.h5

"$NS" solve wythoff --size 64 --threads 1 --quiet --force -o w.h5 >/dev/null || fail "solve wythoff"
"$NS" solve nim -D piles=3 --size 16 --threads 1 --quiet --force -o n3.h5 >/dev/null || fail "solve nim"

# Nim, the seed's examples (acm博弈, 尼姆博奕 例1-3)
expect_ok "$NS" move --game nim 14 21 39
expect_out '^winning move: take 12 from pile 3 -> \(14, 21, 27\)$'
expect_ok "$NS" move --game nim 29 45 58 --all
expect_out '^  take 10 from pile 3 -> \(29, 45, 48\)$'
expect_ok "$NS" move --game nim 55 81 121 --all
expect_out '^winning moves: 3$'
expect_out '^  take 19 from pile 3 -> \(55, 81, 102\)$'
run "$NS" move --game nim 1 2 3
expect_eq "lost nim exit" "$RC" 1
expect_out '^\(1, 2, 3\): P-position'
# the same from the table
expect_ok "$NS" move n3.h5 14 5 9 --all
$PY -c '
import re, sys
for line in open(sys.argv[1]):
    m = re.search(r"-> \((\d+), (\d+), (\d+)\)", line)
    if m:
        a, b, c = map(int, m.groups())
        assert a ^ b ^ c == 0, line
        assert sum(x != y for x, y in zip((a, b, c), (14, 5, 9))) == 1, line
' "$OUT" || fail "table nim moves are not to XOR-0 positions"

# Wythoff: closed form and table agree (every cell: test_strategy)
bad=0
for x in 3 9 38; do
    for y in 5 7 13 62; do
        a=$("$NS" move w.h5 $x $y --all 2>&1 | grep -- '->' | sort)
        b=$("$NS" move --game wythoff $x $y --all 2>&1 | grep -- '->' | sort)
        [ "$a" = "$b" ] || { bad=$((bad + 1)); echo "($x,$y): table [$a] closed form [$b]" >&2; }
    done
done
expect_eq "table vs closed-form Wythoff moves" "$bad" 0
expect_ok "$NS" move w.h5 4 9
expect_out '^winning move: take 2 from pile 2 -> \(4, 7\)$'
expect_ok "$NS" move --game wythoff 5 5 --all
expect_out '^  take 5 from both piles -> \(0, 0\)$'
run "$NS" move w.h5 3 5
expect_eq "lost wythoff exit" "$RC" 1

# 10^18: every move lands on a P-position by exact integer arithmetic
check_wythoff_moves() {
    $PY -c '
import math, re, sys
x0, y0 = int(sys.argv[2]), int(sys.argv[3])
def p(a, b):
    a, b = min(a, b), max(a, b); n = b - a
    return a == (n + math.isqrt(5*n*n)) // 2
moves = 0
for line in open(sys.argv[1]):
    m = re.search(r"-> \((\d+), (\d+)\)", line)
    if not m: continue
    a, b = map(int, m.groups()); moves += 1
    legal = (a < x0 and b == y0) or (a == x0 and b < y0) or (x0 - a == y0 - b > 0)
    assert legal and p(a, b), line
assert (moves == 0) == p(x0, y0), "lost iff P"
' "$OUT" "$1" "$2" || fail "wythoff moves from ($1, $2)"
}
for pos in "1000000000000000000 1" "1000000000000000000 999999999999999999" \
           "701408733 1134903170" "433494437 701408733" "618033988749894848 1000000000000000000" \
           "618033988749894849 999999999999999999" "123456789012345678 987654321098765432"; do
    set -- $pos
    run "$NS" move --game wythoff "$1" "$2" --all
    [ "$RC" -le 1 ] || fail "exit $RC for ($1, $2)"
    check_wythoff_moves "$1" "$2"
done
# (F_86, F_87) is a P-position
run "$NS" move --game wythoff 420196140727489673 679891637638612258
expect_eq "(F_86, F_87) lost" "$RC" 1
expect_ok "$NS" move --game nim 1000000000000000000 999999999999999999 7 --all
$PY -c '
import re, sys
n = 0
for line in open(sys.argv[1]):
    m = re.search(r"-> \((\d+), (\d+), (\d+)\)", line)
    if m:
        a, b, c = map(int, m.groups()); n += 1
        assert a ^ b ^ c == 0
assert n >= 1
' "$OUT" || fail "nim moves at 10^18"

# Staircase closed form
expect_ok "$NS" move --game staircase 3 2 1
expect_out '-> \(1, 2, 1\)$'

# bad input
expect_error 2 move "is negative" "$NS" move --game wythoff -3 4
expect_error 2 move "pile 2 'x' is not an integer" "$NS" move --game wythoff 3 x
expect_error 2 move "pile 2 '10000000000000000000' is too large" "$NS" move --game wythoff 3 10000000000000000000
expect_error 2 move "pile 1 is 1000000000000000001" "$NS" move --game nim 1000000000000000001 2
expect_error 2 move "wythoff needs two piles, got 3" "$NS" move --game wythoff 1 2 3
expect_error 2 move "nim needs 1 to 8 piles, got 9" "$NS" move --game nim 1 2 3 4 5 6 7 8 9
expect_error 2 move "--game 'chess' has no closed form" "$NS" move --game chess 1 2
expect_error 2 move "outside the table" "$NS" move w.h5 4 64
expect_error 2 move "expected 2 coordinates" "$NS" move w.h5 4
expect_error 2 move "expected 'nimsieve move FILE.h5" "$NS" move
finish
