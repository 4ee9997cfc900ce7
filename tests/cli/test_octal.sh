#!/bin/bash
# Take-and-break heap games from the command line: `solve octal -D code=...`
# and `solve grundys-game` write a 1-D sequence with the root attributes
# code, argmax, preperiod, period and period_proven; `info` shows the
# period as proven (Kayles: period 12 from n = 71, published); `query F N`
# gives G(N), checked against a naive Kayles solver written here; bad codes
# fail with one line and exit 2.
# Usage: bash test_octal.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3
K="$WORK/kayles.h5"

expect_ok "$NS" solve octal -D code=0.77 --size 1000 -o "$K"
expect_out '^engine: rare-common'
expect_out '^period: +12 from n = 71 \(preperiod 71\), proven by the octal periodicity theorem'

run "$NS" info "$K"
expect_eq "info exit status" "$RC" 0
expect_out '^code: +0\.77$'
expect_out '^period: +12 from n = 71 .*proven by the octal periodicity theorem'
expect_out '^bounds: +1000 '

# the root attributes (h5dump prints "(0): value")
attr() { h5dump -a "/$1" "$K" 2>/dev/null | sed -n 's/.*(0): *//p' | tr -d '"' | head -1; }
expect_eq "attribute code" "$(attr code)" "0.77"
expect_eq "attribute period" "$(attr period)" "12"
expect_eq "attribute preperiod" "$(attr preperiod)" "71"
expect_eq "attribute period_proven" "$(attr period_proven)" "1"
expect_eq "attribute max_value" "$(attr max_value)" "8"

# naive Kayles: take 1 or 2 adjacent pins from a row, leaving 0, 1 or 2 rows
cat >"$WORK/kayles.py" <<'EOF'
import sys
N = int(sys.argv[1])
g = []
for n in range(N):
    s = set()
    for t in (1, 2):
        m = n - t
        for a in range(0, m + 1):
            if m >= 0:
                s.add(g[a] ^ g[m - a])
    v = 0
    while v in s:
        v += 1
    g.append(v)
print(" ".join(map(str, g)))
EOF
read -r -a G < <($PY "$WORK/kayles.py" 1000)
expect_eq "largest value (naive)" "$(printf '%s\n' "${G[@]}" | sort -n | tail -1)" "8"
for n in 0 1 5 27 70 71 500 998 999; do
    run "$NS" query "$K" $n
    expect_eq "query $n exit status" "$RC" 0
    expect_out "^grundy value: +${G[$n]}$"
done
expect_error 2 query "outside|not in|range|\\[0" "$NS" query "$K" 1000

# Grundy's game: A002188 n = 0..20
GR="$WORK/grundy.h5"
expect_ok "$NS" solve grundys-game --size 200 -o "$GR"
expect_out "^code: +Grundy's game"
A002188=(0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0)
for n in 3 13 18 20; do
    run "$NS" query "$GR" $n
    expect_out "^grundy value: +${A002188[$n]}$"
done

# a period observed but not yet proven: Kayles to 150 (the proof needs 168)
expect_ok "$NS" solve octal -D code=0.77 --size 150 -o "$WORK/k150.h5"
expect_out '^period: +12 from n = 71 .*observed, not proven: .*needs 168 heap sizes, 18 more'

# bad codes: one line, exit 2
X="$WORK/x.h5"
expect_error 2 solve "'x' at position 4" "$NS" solve octal -D code=0.7x --size 10 -o "$X"
expect_error 2 solve "empty" "$NS" solve octal -D code= --size 10 -o "$X"
expect_error 2 solve "no '\\.'" "$NS" solve octal -D code=77 --size 10 -o "$X"
expect_error 2 solve "repeating digits are not supported" "$NS" solve octal -D "code=0.(7)" --size 10 -o "$X"
expect_error 2 solve "d0 = 1" "$NS" solve octal -D code=1.7 --size 10 -o "$X"
expect_error 2 solve "needs its code" "$NS" solve octal --size 10 -o "$X"
expect_error 2 solve "no engine can solve octal.*sequence: needs normal play" "$NS" solve octal -D code=0.77 --misere --size 10 -o "$X"
expect_error 2 solve "one heap" "$NS" solve octal -D code=0.77 --bounds 10,10 -o "$X"
expect_error 2 solve "parameter 'piles' = '1\\.5': expected one integer" "$NS" solve nim -D piles=1.5 --size 5 -o "$X"
[ -e "$X" ] && fail "a refused solve wrote $X"
finish
