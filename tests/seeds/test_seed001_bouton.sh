# test_seed001_bouton.sh - seed 001 (Nim, Bouton's theorem): (a1,...,an) is a
# P-position iff a1 ^ ... ^ an = 0. Its three claims: the terminal position is
# P; from XOR != 0 some move reaches XOR = 0 (ai -> ai ^ k for a pile with the
# top bit of k); from XOR = 0 no move does. Two piles: P iff N1 = N2.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
cd "$WORK" || exit 1
rm -f ./*.h5

for spec in "2 40,40" "3 16,16,16" "4 8,8,8,8"; do
    set -- $spec
    "$NS" solve nim -D piles=$1 --bounds $2 --quiet --force -o nim$1.h5 >/dev/null || fail "solve nim $1"
    expect_ok "$NS" check bouton nim$1.h5
    expect_out '^result: +PASS$'
done
# two piles: the P-positions are exactly the equal piles
got=$($PY -c '
import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    print(all(int(a) == int(b) for a, b in f["p_positions"][...]), len(f["p_positions"]))' nim2.h5)
expect_eq "two piles: P iff equal" "$got" "True 40"

# claim 2: a move to XOR 0, by the proof's rule; claim 3: none from XOR 0
for pos in "3 5 6" "1 2 4" "7 7 7" "12 9 4 2"; do
    run "$NS" move --game nim $pos --all
    x=$($PY -c 'import sys, functools; print(functools.reduce(lambda a, b: a ^ b, map(int, sys.argv[1:])))' $pos)
    if [ "$x" = 0 ]; then
        expect_eq "($pos) XOR 0 is lost" "$RC" 1
    else
        expect_eq "($pos) XOR $x is won" "$RC" 0
        $PY -c '
import re, sys
pos = list(map(int, sys.argv[2:])); k = 0
for p in pos: k ^= p
want = sorted(tuple(p ^ k if j == i else q for j, q in enumerate(pos))
              for i, p in enumerate(pos) if p ^ k < p)
got = sorted(tuple(map(int, m.group(1).split(", "))) for m in
             (re.search(r"-> \((.*)\)", l) for l in open(sys.argv[1])) if m)
assert got == want, (got, want)' "$OUT" $pos || fail "moves from ($pos)"
    fi
done
run "$NS" move --game nim 0 0 0
expect_eq "terminal position lost" "$RC" 1
finish
