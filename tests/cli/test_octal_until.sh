#!/bin/bash
# solve --until-periodic: Kayles (0.77; published period 12 from n = 71,
# which the octal periodicity theorem proves with 2*71 + 2*12 + 2 = 168
# heap sizes) stops at a size >= 168 and far below the --size asked for;
# the file holds that prefix, says the period is proven, and its values
# equal a naive Kayles solver written here. A game that is not a heap
# game, and --stream, are refused with exit 2. A sequence whose period is
# not proven within --size (0.1777: period 60,620,715) runs to --size.
# Usage: bash test_octal_until.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3
K="$WORK/kayles.h5"
attr() { h5dump -a "/$2" "$1" 2>/dev/null | sed -n 's/.*(0): *//p' | tr -d '"' | head -1; }

expect_ok "$NS" solve octal -D code=0.77 --size 50000000 --until-periodic -o "$K"
expect_out '^until periodic: a period is proven with [0-9]+ of the 50000000 heap sizes asked for'
expect_out '^period: +12 from n = 71 \(preperiod 71\), proven by the octal periodicity theorem \(it needs 168 heap sizes'
n=$(h5dump -H -d /grundy "$K" 2>/dev/null | sed -n 's/.*DATASPACE *SIMPLE *{ *( *\([0-9]*\) *).*/\1/p' | head -1)
[ -n "$n" ] && [ "$n" -ge 168 ] && [ "$n" -le 1000000 ] || fail "the file holds $n heap sizes: expected >= 168, far below 50000000"
expect_eq "attribute period" "$(attr "$K" period)" "12"
expect_eq "attribute preperiod" "$(attr "$K" preperiod)" "71"
expect_eq "attribute period_proven" "$(attr "$K" period_proven)" "1"

# the prefix's values against a naive Kayles solver
cat >"$WORK/kayles.py" <<'PYEOF'
import sys
N = int(sys.argv[1])
g = []
for n in range(N):
    s = set()
    for t in (1, 2):
        m = n - t
        for a in range(0, m + 1):
            s.add(g[a] ^ g[m - a])
    v = 0
    while v in s:
        v += 1
    g.append(v)
print(" ".join(map(str, g)))
PYEOF
read -r -a G < <($PY "$WORK/kayles.py" 400)
for q in 0 27 70 71 167 399; do
    run "$NS" query "$K" $q
    expect_out "^grundy value: +${G[$q]}$"
done
last=$((n - 1))
run "$NS" query "$K" $last
expect_out "^grundy value: +${G[$((71 + (last - 71) % 12))]}$"

# not proven within --size: the whole size is computed
expect_ok "$NS" solve octal -D code=0.1777 --size 20000 --until-periodic -o "$WORK/s.h5"
expect_out '^bounds: +20000 '

X="$WORK/x.h5"
expect_error 2 solve "until-periodic: expected a take-and-break heap game" "$NS" solve nim -D piles=2 --size 10 --until-periodic -o "$X"
expect_error 2 solve "drop --stream" "$NS" solve octal -D code=0.77 --size 100 --stream --until-periodic -o "$X"
[ -e "$X" ] && fail "a refused solve wrote $X"
finish
