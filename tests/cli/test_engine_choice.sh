#!/usr/bin/env bash
# test_engine_choice.sh - one door to the engines, as the user sees it:
# `solve` and `rules` say which engine runs and why each faster one does
# not; the table file records it (attribute engine), `info` shows it.
# Expected engines follow from the games' moves: Wythoff's Grundy table is
# two-pile plain rays (tiles2d), its P/N table rays in normal play (rows-pn);
# misere P/N and three-pile games go to the general level sieve.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3

attr() { # FILE NAME: the root attribute NAME as text
    "$PY" -c 'import sys, h5py
v = h5py.File(sys.argv[1], "r").attrs.get(sys.argv[2])
print(v.decode() if isinstance(v, bytes) else v)' "$1" "$2"
}

# solve GAME ARGS... : expect ENGINE (in the plan and the file) and REASON (or "")
check_solve() {
    local engine=$1 reason=$2 out=$WORK/$3.h5
    shift 3
    expect_ok "$NS" solve "$@" --force -o "$out"
    CHECKS=$((CHECKS + 1))
    grep -q "^engine: *$engine (" "$OUT" || { fail "solve $*: expected the engine line for $engine"; show; }
    if [ -n "$reason" ]; then
        CHECKS=$((CHECKS + 1))
        grep -q "not .*: .*$reason" "$OUT" || { fail "solve $*: expected a reason '$reason'"; show; }
    fi
    CHECKS=$((CHECKS + 1))
    got=$(attr "$out" engine)
    [ "$got" = "$engine" ] || fail "solve $*: attribute engine = '$got', expected $engine"
    expect_ok "$NS" info "$out"
    CHECKS=$((CHECKS + 1))
    grep -q "^engine: *$engine$" "$OUT" || { fail "info $out: expected engine $engine"; show; }
}

check_solve tiles2d "" wy-g wythoff --size 300
check_solve rows-pn "" wy-pn wythoff --size 300 --pn-only
check_solve rows-pn "" wy-pn-mem wythoff --size 300 --pn-only --checkpoint-every 100
check_solve general "needs normal play" wy-pn-mis wythoff --size 200 --pn-only --misere
check_solve tiles2d "" wy-stream wythoff --size 300 --stream
check_solve general "needs 2 piles" moore moore -D piles=3 -D k=2 --size 12
check_solve general "is not a plain ray" euclid euclid --size 100
check_solve tiles2d "" wy-rules "$SRC/data/rules/wythoff.rules" --size 200

expect_ok "$NS" rules "$SRC/data/rules/wythoff.rules"
CHECKS=$((CHECKS + 1))
grep -q "^engine: *Grundy tables: tiles2d" "$OUT" && grep -q "P/N tables: rows-pn" "$OUT" ||
    { fail "rules wythoff.rules: expected tiles2d and rows-pn"; show; }
expect_ok "$NS" rules "$SRC/data/rules/moore.rules"
CHECKS=$((CHECKS + 1))
grep -q "Grundy tables: general" "$OUT" && grep -q "not tiles2d: needs 2 piles (the game has 3)" "$OUT" &&
    grep -q "not rows-pn: needs 2 piles (the game has 3)" "$OUT" ||
    { fail "rules moore.rules: expected general, with tiles2d and rows-pn passed over for 3 piles"; show; }
# a family that lowers exactly two of three piles: running sets of strict boxes
printf 'game two\npiles p[1..3]\nmove p -> (p[i] - t[i] for i in 1..3) for (t[i] in 0..p[i] for i in 1..3) where count(t[i] > 0 for i in 1..3) == 2\n' > "$WORK/two.rules"
expect_ok "$NS" rules "$WORK/two.rules"
CHECKS=$((CHECKS + 1))
grep -q "patterns lowers exactly the piles of one of {p\[1\],p\[2\]}, {p\[1\],p\[3\]}, {p\[2\],p\[3\]}, each by a positive amount: the general engine keeps running sets" "$OUT" &&
    grep -q "recognised as a patterns family" "$OUT" ||
    { fail "rules two.rules: expected a patterns family run as running sets"; show; }
expect_ok "$NS" rules "$SRC/data/rules/a-wythoff.rules"
CHECKS=$((CHECKS + 1))
grep -q "Grundy tables: general" "$OUT" && grep -q "not tiles2d: .*line [0-9]*: (x, y) -> (x - k, y - k - d).* is not a plain ray" "$OUT" ||
    { fail "rules a-wythoff.rules: expected general with the family that is not a plain ray"; show; }

finish
