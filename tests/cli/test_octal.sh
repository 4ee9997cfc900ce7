#!/bin/bash
# Take-and-break heap games from the command line: `solve octal -D code=...`
# and `solve grundys-game` write a 1-D sequence with the root attributes
# code, argmax, preperiod, period, saltus and period_proven; `info` shows the
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

# `patterns` on a heap game's sequence: the octal periodicity theorem
# proves Kayles' period (it said "observed only" before: the subtraction-set
# rule of one-pile tables was used)
run "$NS" patterns "$K"
expect_eq "patterns exit status" "$RC" 0
expect_out '^period: +12, preperiod 71: G\(n\+12\) = G\(n\)'
expect_out '^status: +proven for every n >= n0$'

# an arithmetic period (saltus) of a hexadecimal code: 0.8b, whose moves
# take 1 and leave 3 heaps, or take 2 and leave 0, 1 or 3 heaps. The
# expected period, preperiod and saltus come from a naive solver written
# here (every partition into three parts spelled out) and the smallest p,
# then n0, with G(n+p) = G(n) + s, s > 0, over a tail of two periods and
# half the sequence; never reported as proven.
H="$WORK/hex.h5"
expect_ok "$NS" solve octal -D code=0.8b --size 200 -o "$H"
read -r HP HN0 HS <<<"$($PY - <<'PYEOF'
N = 200
d = {1: 0x8, 2: 0xb}
G = []
for n in range(N):
    seen = set()
    for t, dt in d.items():
        m = n - t
        if m < 0:
            continue
        if dt & 1 and m == 0:
            seen.add(0)
        if dt & 2 and m >= 1:
            seen.add(G[m])
        if dt & 4:
            for a in range(1, m // 2 + 1):
                seen.add(G[a] ^ G[m - a])
        if dt & 8:
            for a in range(1, m):
                for b in range(a, m - a):
                    c = m - a - b
                    if c >= b:
                        seen.add(G[a] ^ G[b] ^ G[c])
    v = 0
    while v in seen:
        v += 1
    G.append(v)
def find():
    for p in range(1, N // 2 + 1):
        for n0 in range(0, N - p + 1):
            if N - n0 < 2 * p or 2 * (N - n0) < N:
                break
            s = G[n0 + p] - G[n0]
            if s > 0 and all(G[i + p] - G[i] == s for i in range(n0, N - p)):
                return p, n0, s
print(*find())
PYEOF
)"
[ -n "$HS" ] || fail "the naive finder found no saltus for 0.8b"
expect_out "^period: +arithmetic: G\\(n\\+$HP\\) = G\\(n\\) \\+ $HS from n = $HN0 .*observed, not proven"
expect_eq "attribute saltus" "$(h5dump -a /saltus "$H" 2>/dev/null | sed -n 's/.*(0): *//p' | head -1)" "$HS"
expect_eq "attribute period (0.8b)" "$(h5dump -a /period "$H" 2>/dev/null | sed -n 's/.*(0): *//p' | head -1)" "$HP"
expect_eq "attribute period_proven (0.8b)" "$(h5dump -a /period_proven "$H" 2>/dev/null | sed -n 's/.*(0): *//p' | head -1)" "0"
run "$NS" info "$H"
expect_out "^period: +arithmetic: G\\(n\\+$HP\\) = G\\(n\\) \\+ $HS from n = $HN0 .*observed, not proven"
run "$NS" patterns "$H"
expect_out "^period: +arithmetic: period $HP, saltus $HS, preperiod $HN0:"
expect_out '^status: +observed, not proven$'
run "$NS" patterns --json "$H"
expect_out "\"saltus\": $HS, \"proven\": false"
expect_eq "attribute saltus of Kayles" "$(attr saltus)" "0"

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
