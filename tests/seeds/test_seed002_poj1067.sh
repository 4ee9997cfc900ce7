# test_seed002_poj1067.sh - seed 002 (POJ 1067 取石子游戏): the sample input
# "2 1 / 8 4 / 4 7" gives "0 / 1 / 0"; the seed's bottom-up definition
# (a_n = smallest unused, b_n = a_n + n) agrees with the answers on every
# pair up to 300; its O(1) double formula is exact only below 102334155.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
cd "$WORK" || exit 1

printf '2 1\n8 4\n4 7\n' >sample.in
"$NS" poj1067 <sample.in >sample.out 2>sample.err
expect_eq "sample exit" "$?" 0
expect_eq "sample output" "$(cat sample.out)" "$(printf '0\n1\n0')"

$PY -c '
used, lost, n = set(), {(0, 0)}, 0
while True:
    n += 1
    a = 1
    while a in used: a += 1
    if a >= 300: break
    used |= {a, a + n}; lost |= {(a, a + n), (a + n, a)}
with open("all.in", "w") as f, open("all.want", "w") as w:
    for x in range(300):
        for y in range(300):
            f.write("%d %d\n" % (x, y)); w.write("0\n" if (x, y) in lost else "1\n")
'
"$NS" poj1067 <all.in >all.got
expect_eq "bottom-up definition vs poj1067 on [0,300)^2" "$(cmp all.got all.want 2>&1)" ""

# where the seed's double formula breaks: n = 102334155
printf '165580140 267914295\n165580141 267914296\n' >f40.in
"$NS" poj1067 <f40.in >f40.out
expect_eq "exact answers at n = F_40" "$(tr '\n' ' ' <f40.out)" "0 1 "
book=$($PY -c '
import math
a = (1 + math.sqrt(5)) / 2
for x, y in ((165580140, 267914295), (165580141, 267914296)):
    print(1 if x != math.floor((y - x) * a) else 0, end=" ")')
expect_eq "the double formula gets both wrong" "$book" "1 0 "
finish
