# test_seed003_acm_games.sh - seed 003 (acm博弈知識學習):
#   Bash: n = (m+1) r + s -> take s; counting to 100 by 1..10 -> say 1 first;
#   Wythoff: the singular positions (0,0),(1,2),(3,5),(4,7),(6,10),(8,13),
#     (9,15),(11,18),(12,20); every natural number in exactly one; the seed's
#     rules for moving from a non-singular position;
#   Nim: (14,21,39) -> take 12 from 39; (55,81,121) -> 19 from 121;
#     (29,45,58) -> 10 from 58; the game (7,8,9) played out: each of 甲's
#     moves is a winning move to a P-position, each of 乙's moves is legal.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
cd "$WORK" || exit 1
rm -f ./*.h5

# ---- Bash ----
"$NS" solve bash -D m=10 --size 101 --threads 1 --quiet --force -o bash10.h5 >/dev/null || fail "solve bash"
expect_ok "$NS" check bash bash10.h5
expect_ok "$NS" move bash10.h5 100
expect_out '^winning move: take 1 from pile 1 -> \(99\)$'
for n in 11 22 99; do
    run "$NS" move bash10.h5 $n
    expect_eq "$n = 11 r is lost" "$RC" 1
done
expect_ok "$NS" move bash10.h5 57   # 57 = 11*5 + 2
expect_out 'take 2 from pile 1 -> \(55\)$'
expect_ok "$NS" patterns bash10.h5
expect_out '^period: +11, preperiod 0'
expect_out '^status: +proven'

# ---- Wythoff ----
"$NS" solve wythoff --size 40 --threads 1 --quiet --force -o w40.h5 >/dev/null || fail "solve wythoff"
expect_ok "$NS" patterns w40.h5
expect_out '^  a_n: 1 3 4 6 8 9 11 12 14 16 17 19 21 22 24$'
expect_out '^  b_n: 2 5 7 10 13 15 18 20 23 26 28 31 34 36 39$'
expect_out '^  complementary: yes'
printf '0 0\n1 2\n3 5\n4 7\n6 10\n8 13\n9 15\n11 18\n12 20\n' >singular.in
run sh -c "'$NS' poj1067 <singular.in"
expect_eq "singular positions are lost" "$(tr -d '\n' <"$OUT")" "000000000"
# the seed's rules: a = a_k, b > b_k: take b - b_k; a = a_k, b < b_k: both
# piles to (a_j, b_j) with j = b - a; a > a_k with b = b_k: take a - a_k;
# a = b_j: take b - a_j; a = b: take both
for case in "3 9|take 4 from pile 2 -> (3, 5)" "4 6|take 1 from both piles -> (3, 5)" \
            "5 7|take 1 from pile 1 -> (4, 7)" "5 9|take 6 from pile 2 -> (5, 3)" \
            "8 8|take 8 from both piles -> (0, 0)" "12 30|take 10 from pile 2 -> (12, 20)"; do
    pos=${case%%|*} want=${case#*|}
    run "$NS" move w40.h5 $pos --all
    CHECKS=$((CHECKS + 1))
    grep -Fq -- "$want" "$OUT" || { fail "($pos): expected '$want'"; show; }
    run "$NS" move --game wythoff $pos --all
    CHECKS=$((CHECKS + 1))
    grep -Fq -- "$want" "$OUT" || { fail "closed form ($pos): expected '$want'"; show; }
done

# ---- Nim ----
for case in "14 21 39|take 12 from pile 3 -> (14, 21, 27)" "55 81 121|take 19 from pile 3 -> (55, 81, 102)" \
            "29 45 58|take 10 from pile 3 -> (29, 45, 48)"; do
    pos=${case%%|*} want=${case#*|}
    run "$NS" move --game nim $pos --all
    CHECKS=$((CHECKS + 1))
    grep -Fq -- "$want" "$OUT" || { fail "($pos): expected '$want'"; show; }
done
"$NS" solve nim -D piles=3 --size 10 --threads 1 --quiet --force -o nim3.h5 >/dev/null || fail "solve nim"
# the game of the seed: 甲 moves, then 乙, ...
game="7 8 9|1 8 9|1 8 4|1 5 4|1 4 4|0 4 4|0 4 2|0 2 2|0 2 1|0 1 1|0 1 0|0 0 0"
IFS='|' read -r -a states <<<"$game"
for ((i = 0; i + 1 < ${#states[@]}; i++)); do
    from=${states[i]} to=${states[i + 1]}
    # legal: exactly one pile decreases
    set -- $from
    f=("$@")
    set -- $to
    t=("$@")
    changed=0 ok=1
    for j in 0 1 2; do
        [ "${t[j]}" -lt "${f[j]}" ] && changed=$((changed + 1))
        [ "${t[j]}" -gt "${f[j]}" ] && ok=0
    done
    expect_eq "move $((i + 1)) ($from) -> ($to) legal" "$ok$changed" "11"
    if [ $((i % 2)) -eq 0 ]; then
        # 甲: a winning move, from the table and the closed form, to a P-position
        run "$NS" move nim3.h5 $from --all
        CHECKS=$((CHECKS + 1))
        grep -q -- "-> ($(echo "$to" | sed 's/ /, /g'))$" "$OUT" || { fail "甲's move ($from) -> ($to) is not winning"; show; }
        run "$NS" move nim3.h5 $to
        expect_eq "($to) after 甲 is a P-position" "$RC" 1
    else
        run "$NS" move --game nim $to
        expect_eq "($to) after 乙 is an N-position" "$RC" 0
    fi
done
finish
