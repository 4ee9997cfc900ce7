# test_analysis_poj1067.sh - `nimsieve poj1067`: the POJ sample, agreement with
# a solved 1024 x 1024 Wythoff table on every position, exact answers up to
# 10^18 (Fibonacci pairs, Python's math.isqrt), the case where the usual
# double formula fails, blank lines and CRLF, and bad lines (exit 2, the
# answers before the bad line printed, the line named).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/cli/poj1067_lib.sh"
PY=/usr/bin/python3
cd "$WORK" || exit 1
rm -f ./*.h5

# the sample of POJ 1067
printf '2 1\n8 4\n4 7\n' >sample.in
run sh -c "'$NS' poj1067 <sample.in"
expect_eq "sample exit" "$RC" 0
expect_eq "sample output" "$(tr '\n' ' ' <"$OUT")" "0 1 0 "

poj1067_vs_table 1024

# large values: exact answers by Python's integers
$PY -c '
import math, random
def lost(a, b):
    a, b = min(a, b), max(a, b); n = b - a
    return a == (n + math.isqrt(5*n*n)) // 2
F = [0, 1]
while len(F) < 90: F.append(F[-1] + F[-2])
rnd = random.Random(1067)
cases = [(F[86], F[87]), (F[87], F[86]), (F[86], F[87] + 1), (F[86] + 1, F[87] + 1),
         (10**18, 10**18), (0, 0), (0, 10**18), (10**18, 0),
         (165580140, 267914295), (165580141, 267914296),   # F_40: the double formula fails here
         (7778742048, 12586269024)]                          # F_48: long double fails here
for _ in range(2000):
    n = rnd.randrange(1, 10**18 // 3)
    a = (n + math.isqrt(5*n*n)) // 2
    d = rnd.choice([0, 0, 1, -1, rnd.randrange(-5, 6)])
    cases.append((a + max(d, 0), a + n + min(d, 0) if d < 0 else a + n))
    cases.append((rnd.randrange(0, 10**18 + 1), rnd.randrange(0, 10**18 + 1)))
with open("big.in", "w") as f, open("big.want", "w") as w:
    for a, b in cases:
        f.write("%d %d\n" % (a, b)); w.write("0\n" if lost(a, b) else "1\n")
'
"$NS" poj1067 <big.in >big.got 2>big.err
expect_eq "large values exit" "$?" 0
expect_eq "large values" "$(cmp big.got big.want 2>&1)" ""
expect_eq "F_40 case" "$(sed -n 9,10p big.got | tr '\n' ' ')" "0 1 "

# blank lines, spaces, tabs and CRLF
printf '\n  3   5 \r\n\t1\t1\n\n' >blank.in
run sh -c "'$NS' poj1067 <blank.in"
expect_eq "blank lines" "$(tr '\n' ' ' <"$OUT")" "0 1 "
expect_eq "blank lines exit" "$RC" 0

# bad lines: earlier answers printed, message names the line, exit 2
bad_case() { # INPUT REGEX ANSWERS_BEFORE
    printf "$1" >bad.in
    run sh -c "'$NS' poj1067 <bad.in"
    expect_eq "exit for '$1'" "$RC" 2
    expect_eq "answers before the bad line of '$1'" "$(tr '\n' ' ' <"$OUT")" "$3"
    CHECKS=$((CHECKS + 1))
    grep -Eq -- "^nimsieve poj1067: $2" "$ERR" && [ "$(wc -l <"$ERR")" -eq 1 ] || { fail "message for '$1'"; show; }
}
bad_case '2 1\n8 4\nfoo bar\n4 7\n' "line 3: 'foo bar': not a non-negative integer" "0 1 "
bad_case '2 1\n-1 4\n' "line 2: '-1 4': not a non-negative integer" "0 "
bad_case '5\n' "line 1: '5': only one number" ""
bad_case '1 2 3\n' "line 1: '1 2 3': more than two numbers" ""
bad_case '1 1000000000000000001\n' "line 1: .*larger than 10\\^18" ""
bad_case '1 99999999999999999999999\n' "line 1: .*larger than 10\\^18" ""
bad_case '1 2x\n' "line 1: '1 2x': not a non-negative integer" ""
bad_case '0 0\n1.5 2\n' "line 2: " "0 "
expect_error 2 poj1067 "unexpected argument 'x'" "$NS" poj1067 x
finish
