#!/bin/bash
# `query` and `move` on positions of several heaps of a take-and-break game
# (octal codes, Grundy's game): the value is the XOR of the heaps' values
# and the winning moves are exactly those a naive solver written here finds
# (every option of every heap, spelled out as the tokens taken and the heaps
# left, values by memoised recursion; no code of nimsieve). Checked on
# random positions of 1 to 5 heaps for Kayles 0.77, Dawson's chess 0.137,
# the hexadecimal 0.8f (leaves up to 3 heaps), Grundy's game, and the rule
# files data/rules/{grundys-game,kayles,split-close}.rules (the last: split
# a heap into two whose sizes differ by at most 2).
# Usage: bash test_heapmove.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3
N=120

cat >"$WORK/naive.py" <<'PYEOF'
import sys, random, subprocess, re
ns, h5, code, N, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
count = int(sys.argv[6])  # random positions

def options(n):
    """(take, sorted parts) for every move from a heap of n"""
    out = []
    if code == "grundy":
        for a in range(1, n):
            if a < n - a:
                out.append((0, (a, n - a)))
        return out
    if code == "close2":  # split into two heaps whose sizes differ by at most 2
        for a in range(1, n):
            if a <= n - a and n - 2 * a <= 2:
                out.append((0, (a, n - a)))
        return out
    d0, rest = code.split(".")
    d = [int(d0 or "0", 16)] + [int(c, 16) for c in rest]
    for t in range(len(d)):
        m = n - t
        if m < 0 or d[t] == 0:
            continue
        if d[t] & 1 and m == 0 and t >= 1:
            out.append((t, ()))
        if d[t] & 2 and m >= 1 and t >= 1:
            out.append((t, (m,)))
        if d[t] & 4:
            for a in range(1, m // 2 + 1):
                out.append((t, (a, m - a)))
        if d[t] & 8:
            for a in range(1, m + 1):
                for b in range(a, m + 1):
                    c = m - a - b
                    if c >= b:
                        out.append((t, (a, b, c)))
    return out

G = []
for n in range(N):
    s = set()
    for t, p in options(n):
        x = 0
        for q in p:
            x ^= G[q]
        s.add(x)
    v = 0
    while v in s:
        v += 1
    G.append(v)

rng = random.Random(seed)
bad = 0
positions = [[0], [1, 1], [N - 1]] + [[rng.randrange(N) for _ in range(rng.randint(1, 5))] for _ in range(count)]
for pos in positions:
    X = 0
    for h in pos:
        X ^= G[h]
    want = []
    for i, h in enumerate(pos):
        for t, p in options(h):
            x = 0
            for q in p:
                x ^= G[q]
            if X != 0 and x == G[h] ^ X:
                want.append((h, t, p))
    args = [str(h) for h in pos]
    q = subprocess.run([ns, "query", h5] + args, capture_output=True, text=True)
    if q.returncode != 0 or not re.search(r"^grundy value: +%d\b" % X, q.stdout, re.M):
        print("query %s: expected value %d, got rc %d:\n%s%s" % (args, X, q.returncode, q.stdout, q.stderr)); bad += 1
    m = subprocess.run([ns, "move", h5] + args + ["--all"], capture_output=True, text=True)
    if X == 0:
        if m.returncode != 1 or "P-position" not in m.stdout:
            print("move %s: expected a P-position (exit 1), got %d:\n%s" % (args, m.returncode, m.stdout)); bad += 1
        continue
    got = []
    for line in m.stdout.splitlines():
        r = re.match(r"^  take (\d+) from the heap of (\d+), leaving (.*) -> (.*)$", line) or \
            re.match(r"^  split the heap of (\d+) into ()(.*) -> (.*)$", line)
        if not r:
            continue
        if line.startswith("  take"):
            t, h, parts = int(r.group(1)), int(r.group(2)), r.group(3)
        else:
            t, h, parts = 0, int(r.group(1)), r.group(3)
        p = () if parts == "nothing" else tuple(int(v) for v in parts.split(" + "))
        got.append((h, t, p))
    if m.returncode != 0 or sorted(got) != sorted(want):
        print("move %s --all: expected %s, got rc %d %s" % (args, sorted(want), m.returncode, sorted(got))); bad += 1
    one = subprocess.run([ns, "move", h5] + args, capture_output=True, text=True)
    lines = [l for l in one.stdout.splitlines() if l.startswith("winning move: ")]
    if one.returncode != 0 or len(lines) != 1 or ("  " + lines[0][len("winning move: "):]) not in m.stdout.splitlines():
        print("move %s: expected one of the winning moves, got:\n%s" % (args, one.stdout)); bad += 1
print("checked %d positions, %d bad" % (len(positions), bad))
sys.exit(1 if bad else 0)
PYEOF

# random positions a game (each a query and a move, two processes: most of
# this test's time; a sanitizer build, where a process starts in about 70
# ms, takes 10)
COUNT=25
[ "$SANITIZED" = 1 ] && COUNT=10
check() { # name preset-args... ; code for the naive solver in $CODE
    local f="$WORK/$1.h5"
    shift
    expect_ok "$NS" solve "$@" --size $N -o "$f"
    CHECKS=$((CHECKS + 1))
    if ! $PY "$WORK/naive.py" "$NS" "$f" "$CODE" $N 17 $COUNT >"$WORK/naive.out" 2>&1; then
        fail "query/move against the naive solver ($CODE)"
        sed 's/^/  /' "$WORK/naive.out" >&2
    fi
}
CODE=0.77 check kayles octal -D code=0.77
CODE=0.137 check dawson octal -D code=0.137
CODE=0.8f check hex octal -D code=0.8f
CODE=grundy check grundy grundys-game
CODE=grundy check grundy-rules "$SRC/data/rules/grundys-game.rules"
CODE=0.77 check kayles-rules "$SRC/data/rules/kayles.rules"
CODE=close2 check close "$SRC/data/rules/split-close.rules"

# a fixed case by hand: Kayles G(3) = 3, G(7) = 2, G(12) = 4 (A002186), so
# X = 5; the only move to 0 takes 2 from the 12, leaving 3 + 7
K="$WORK/kayles.h5"
run "$NS" move "$K" 3 7 12
expect_eq "move 3 7 12 exit" "$RC" 0
expect_out '^winning move: take 2 from the heap of 12, leaving 3 \+ 7 -> 3 7 3 7$'
run "$NS" query "$K" 3 7 12
expect_out '^heap values: +G\(3\) = 3, G\(7\) = 2, G\(12\) = 4$'
expect_out '^grundy value: +5 '

# errors: a heap outside the sequence, a negative heap, no heap
expect_error 2 move "heap 2 is $N: expected an integer in \\[0, $((N - 1))\\]" "$NS" move "$K" 3 $N
expect_error 2 query "heap 1 .*expected an integer" "$NS" query "$K" x
expect_error 2 move "heap 1 is -3: expected an integer in \\[0," "$NS" move "$K" -3
finish
