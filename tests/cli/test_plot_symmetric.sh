#!/bin/bash
# test_plot_symmetric.sh NIMSIEVE SOURCE_DIR WORK_DIR
# A symmetric game's file stores the sorted cells only ('symmetric x y' in a
# rule file); its figures must show the whole game. Wythoff written with
# 'symmetric x y' against data/rules/wythoff.rules (no symmetry, every cell
# stored): every plot kind draws the same figure (byte for byte, same title)
# and reports the same facts.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
cd "$WORK" || exit 1
command -v gnuplot >/dev/null || { echo "gnuplot missing"; exit 1; }

cat >sym.rules <<'RULES'
game wythoff-sym
piles x y
symmetric x y
move x -> x - t                    for t in 1..x
move y -> y - t                    for t in 1..y
move (x, y) -> (x - t, y - t)      for t in 1..min(x, y)
RULES
expect_ok "$NS" solve sym.rules --size 96 --force -o sym.h5
expect_ok "$NS" solve "$SRC/data/rules/wythoff.rules" --size 96 --force -o plain.h5
expect_ok "$NS" solve sym.rules --size 96 --pn-only --force -o sympn.h5
expect_ok "$NS" solve "$SRC/data/rules/wythoff.rules" --size 96 --pn-only --force -o plainpn.h5

# the report without the figure's name and the timing
facts() { sed -E -e 's/^[a-z-]+: [^ ]+ \(([a-z]+), ([0-9]+ x [0-9]+)\) in [0-9.]+ s/figure \1 \2/' "$1"; }

for pair in "sym plain" "sympn plainpn"; do
    set -- $pair
    for kind in grundy g-values p-positions histogram; do
        expect_ok "$NS" plot "$1.h5" --kind "$kind" --title T -o "$1-$kind.png"
        cp "$OUT" "$1-$kind.txt"
        expect_ok "$NS" plot "$2.h5" --kind "$kind" --title T -o "$2-$kind.png"
        cp "$OUT" "$2-$kind.txt"
        CHECKS=$((CHECKS + 1))
        cmp -s "$1-$kind.png" "$2-$kind.png" || fail "$kind of $1.h5: the figure differs from $2.h5's"
        CHECKS=$((CHECKS + 1))
        if ! diff <(facts "$1-$kind.txt") <(facts "$2-$kind.txt") >diff.txt; then
            fail "$kind of $1.h5: the report differs from $2.h5's"
            sed 's/^/  /' diff.txt >&2
        fi
    done
done
finish
