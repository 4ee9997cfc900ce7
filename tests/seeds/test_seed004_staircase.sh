# test_seed004_staircase.sh - seed 004 (Staircase Nim):
#   POJ 1704 sample: "2 / 3 / 1 2 3 / 8 / 1 5 6 7 9 12 14 17" gives
#   "Bob will win" / "Georgia will win";
#   高僧斗法 samples: "1 5 9" gives "1 4", "1 5 8 10" gives "1 3";
# each solved through the staircase preset and its table (the subcommands
# solve it by the sieve; here also by `solve staircase` + `move` on the gaps),
# and both reductions checked against brute-force solvers of the original
# games (Python, memoised, on small random instances).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
cd "$WORK" || exit 1
rm -f ./*.h5

# ---- POJ 1704 ----
printf '2\n3\n1 2 3\n8\n1 5 6 7 9 12 14 17\n' >poj.in
run sh -c "'$NS' poj1704 --method table --verbose <poj.in"
expect_eq "POJ 1704 sample exit" "$RC" 0
expect_eq "POJ 1704 sample" "$(cat "$OUT")" "$(printf 'Bob will win\nGeorgia will win')"
CHECKS=$((CHECKS + 1))
[ "$(grep -c 'solved by the sieve; answer read from its P/N table' "$ERR")" -eq 2 ] || { fail "not solved by the table"; show; }
run sh -c "'$NS' poj1704 --method formula <poj.in"
expect_eq "POJ 1704 closed form" "$(cat "$OUT")" "$(printf 'Bob will win\nGeorgia will win')"
# by hand: the gaps from the right, 17|14|12|9|7|6|5|1, are the steps
# (2, 1, 2, 1, 0, 0, 3); box N_i = c_i + ... + c_7 + 1
"$NS" solve staircase -D piles=7 --bounds 10,8,7,5,4,4,4 --pn-only --quiet --force -o poj.h5 >/dev/null || fail "solve poj"
run "$NS" move poj.h5 2 1 2 1 0 0 3
expect_eq "case 2 is a first-player win (Georgia)" "$RC" 0
expect_ok "$NS" check staircase poj.h5

# ---- 高僧斗法 ----
run sh -c "echo 1 5 9 | '$NS' monks --method table"
expect_eq "monks 1 5 9" "$(cat "$OUT")" "1 4"
run sh -c "echo 1 5 8 10 | '$NS' monks --method table"
expect_eq "monks 1 5 8 10" "$(cat "$OUT")" "1 3"
run sh -c "echo 1 5 8 10 | '$NS' monks --method formula"
expect_eq "monks closed form" "$(cat "$OUT")" "1 3"
run sh -c "echo 1 2 3 | '$NS' monks"
expect_eq "monks lost" "$(cat "$OUT")" "-1"
# by hand: free steps between the monks, from the bottom, are the staircase
"$NS" solve staircase -D piles=2 --bounds 7,4 --quiet --force -o m1.h5 >/dev/null || fail "solve m1"
expect_ok "$NS" move m1.h5 3 3          # 1 5 9: gaps (3, 3)
expect_out '^winning move: .* -> \(0, 3\)$' # monk on 1 climbs 3: "1 4"
"$NS" solve staircase -D piles=3 --bounds 7,4,2 --quiet --force -o m2.h5 >/dev/null || fail "solve m2"
expect_ok "$NS" move m2.h5 3 2 1        # 1 5 8 10: gaps (3, 2, 1)
expect_out '^winning move: .* -> \(1, 2, 1\)$' # monk on 1 climbs 2: "1 3"

# ---- the reductions against brute force on the original games ----
$PY -c '
import random, functools
rnd = random.Random(1704)
@functools.lru_cache(None)
def win_chess(ps):            # POJ 1704: move a chessman left, no jumping, cells >= 1
    for i, p in enumerate(ps):
        lo = ps[i - 1] + 1 if i else 1
        for q in range(lo, p):
            if not win_chess(ps[:i] + (q,) + ps[i + 1:]): return True
    return False
@functools.lru_cache(None)
def monks_moves(ps):          # monks climb, not past the next one; top one fixed
    out = []
    for i in range(len(ps) - 1):
        for q in range(ps[i] + 1, ps[i + 1]):
            out.append((ps[i], q, ps[:i] + (q,) + ps[i + 1:]))
    return out
@functools.lru_cache(None)
def win_monks(ps):
    return any(not win_monks(n) for _, _, n in monks_moves(ps))
with open("poj_rand.in", "w") as f, open("poj_rand.want", "w") as w:
    f.write("40\n")
    for _ in range(40):
        n = rnd.randint(1, 4)
        ps = tuple(sorted(rnd.sample(range(1, 11), n)))
        sh = list(ps); rnd.shuffle(sh)
        f.write("%d\n%s\n" % (n, " ".join(map(str, sh))))
        w.write("Georgia will win\n" if win_chess(ps) else "Bob will win\n")
with open("monks_rand.txt", "w") as f:
    for _ in range(12):
        n = rnd.randint(2, 4)
        ps = tuple(sorted(rnd.sample(range(1, 12), n)))
        wins = sorted((a, b) for a, b, nxt in monks_moves(ps) if not win_monks(nxt))
        f.write("%s|%s\n" % (" ".join(map(str, ps)), "%d %d" % wins[0] if wins else "-1"))
'
"$NS" poj1704 --method table <poj_rand.in >poj_rand.got
expect_eq "POJ 1704 vs brute force (40 cases)" "$(cmp poj_rand.got poj_rand.want 2>&1)" ""
bad=0
while IFS='|' read -r ps want; do
    got=$(echo "$ps" | "$NS" monks --method table)
    [ "$got" = "$want" ] || { bad=$((bad + 1)); echo "monks $ps: got '$got', brute force '$want'" >&2; }
done <monks_rand.txt
expect_eq "monks vs brute force (12 cases)" "$bad" 0

# bad input
expect_error 2 poj1704 "case 1: N = 3 but 2 numbers follow" sh -c "printf '1\n3\n1 2\n' | '$NS' poj1704"
expect_error 2 poj1704 "'x' is not an integer" sh -c "printf '1\n2\n1 x\n' | '$NS' poj1704"
expect_error 2 monks "holds two monks" sh -c "echo 1 4 4 | '$NS' monks"
expect_error 2 monks "empty input" sh -c "printf '' | '$NS' monks"
expect_error 2 monks "--method 'fast'" "$NS" monks --method fast
finish
