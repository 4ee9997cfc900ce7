# test_seed000_book_wythoff.sh - seed 000 (编程之美 1.13, NIM(3), two piles):
#   the sieve's P-positions ("unsafe positions") up to (10,10) and the table of
#   unsafe positions (1,2),(3,5),(4,7),(6,10),(8,13),(9,15),(11,18),(12,20),
#   from the book's own definition (a_n = smallest unused, b_n = a_n + n);
#   the closed form (floor(n a), floor(n b)) and how far the book's double
#   formula holds; extension 1 (the winning move); extension 2 (NIM(4): the
#   losing starts are the Fibonacci numbers, the winning first move takes the
#   smallest Zeckendorf term), against the solved fibonacci-nim table.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
cd "$WORK" || exit 1
rm -f ./*.h5

"$NS" solve wythoff --size 11 --threads 1 --quiet --force -o w11.h5 >/dev/null || fail "solve 11"
"$NS" solve wythoff --size 21 --threads 1 --quiet --force -o w21.h5 >/dev/null || fail "solve 21"

# the book's definition, independently
book=$($PY -c '
used, pairs, a, n = {0}, [(0, 0)], 0, 0
while True:
    n += 1
    a = min(v for v in range(1, 100) if v not in used)
    b = a + n
    if a > 10: break
    used |= {a, b}
    if b <= 10: pairs += [(a, b), (b, a)]
print(sorted(pairs))')
got=$($PY -c '
import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    print(sorted(tuple(int(v) for v in r) for r in f["p_positions"][...]))' w11.h5)
expect_eq "P-positions up to (10,10)" "$got" "$book"
expect_eq "the book's unsafe positions in 10 x 10" "$book" "[(0, 0), (1, 2), (2, 1), (3, 5), (4, 7), (5, 3), (6, 10), (7, 4), (10, 6)]"

# table 1-8
expect_ok "$NS" patterns w21.h5
expect_out '^  a_n: 1 3 4 6 8 9 11 12$'
expect_out '^  b_n: 2 5 7 10 13 15 18 20$'
expect_out '^  differences: b_n - a_n = n for every n$'
expect_out '^  complementary: yes'
printf '1 2\n3 5\n4 7\n6 10\n8 13\n9 15\n11 18\n12 20\n' >unsafe.in
run sh -c "'$NS' poj1067 <unsafe.in"
expect_eq "table 1-8 positions are lost" "$(tr -d '\n' <"$OUT")" "00000000"

# solution 2: a_n = [a n], b_n = [b n], checked exactly; the double formula
"$NS" solve wythoff --size 2048 --pn-only --quiet --force -o w2048.h5 >/dev/null || fail "solve 2048"
expect_ok "$NS" check wythoff-golden w2048.h5
expect_out '^result: +PASS$'
expect_out 'first wrong at n = 102334155 \(= F_40\)'

# extension 1: the winning move
expect_ok "$NS" move w21.h5 4 9
expect_out '-> \(4, 7\)$'
expect_ok "$NS" move w21.h5 10 10 --all
expect_out 'take 10 from both piles -> \(0, 0\)$'
expect_ok "$NS" move w21.h5 1 3
expect_out 'take 1 from pile 2 -> \(1, 2\)$'
run "$NS" move w21.h5 12 20
expect_eq "(12, 20) is lost" "$RC" 1
expect_ok "$NS" move --game wythoff 1000000 1000000000
expect_out '-> \(1000000, 1618034\)$'

# extension 2: NIM(4), Fibonacci Nim; state (pile, limit), start (n, n-1)
"$NS" solve fibonacci-nim --bounds 150,150 --quiet --force -o fib.h5 >/dev/null || fail "solve fib"
expect_ok "$NS" check fibonacci-nim fib.h5
expect_out 'losing starts \(n, n-1\) for 1 <= n < 150: 11 of 149: 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144$'
expect_out 'smallest winning first move = z\(n\) checked at 138 winning starts'
# z(n), the smallest Zeckendorf term, by the greedy algorithm in Python
for n in 20 100 12 54 143 77 4 149; do
    z=$($PY -c '
import sys
n = int(sys.argv[1]); F = [1, 2]
while F[-1] <= n: F.append(F[-1] + F[-2])
last = 0
for f in reversed(F):
    if f <= n: n -= f; last = f
print(last)' "$n")
    expect_ok "$NS" move fib.h5 "$n" "$((n - 1))"
    expect_out "^winning move: take $z \\("
done
run "$NS" move fib.h5 144 143
expect_eq "144 is a losing start" "$RC" 1
finish
