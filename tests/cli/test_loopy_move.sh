#!/bin/bash
# Loopy games (issue 18, item 5): `move` and `query` give the move to play
# on a P / N / draw file: from an N-position the fastest win (a P option of
# the smallest remoteness), from a P-position the longest defence (an N
# option of the largest remoteness), from a draw a move that keeps the draw
# (a D option). Checked against a naive fixed-point solver written here in
# Python, the moves of each game written out by hand (not read from the
# rule file), on wythoff-loopy and tests/rules/loopy/take_grow.rules (draws
# and remoteness up to about 20).
# Usage: bash test_loopy_move.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3

cat >"$WORK/check.py" <<'PYEOF'
import re, subprocess, sys
ns, game, h5, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
third = len(sys.argv) > 5 and sys.argv[5] == "third"  # move on the cells x + y = 0 mod 3 only
def options(x, y):
    o = []
    if game == "wythoff-loopy":
        o += [(x - t, y) for t in range(1, x + 1)]
        o += [(x, y - t) for t in range(1, y + 1)]
        o += [(x - t, y - t) for t in range(1, min(x, y) + 1)]
        o += [(x + 1, y - 1)] if y >= 1 else []
        o += [(x - 1, y + 1)] if x >= 1 else []
    else:  # take_grow
        o += [(x - t, y) for t in (2, 3) if t <= x]
        o += [(x, y - 2)] if y >= 2 else []
        o += [(x + 1, y - 1)] if y >= 1 else []
        o += [(x, y + 1)] if x >= 2 else []
    return sorted(set(q for q in o if 0 <= q[0] < n and 0 <= q[1] < n))
cells = [(x, y) for x in range(n) for y in range(n)]
out, rem = {}, {}
for c in cells:
    if not options(*c):
        out[c], rem[c] = "P", 0
while True:  # rounds until nothing changes
    new = {}
    for c in cells:
        if c in out:
            continue
        o = options(*c)
        ps = [rem[q] for q in o if out.get(q) == "P"]
        if ps:
            new[c] = ("N", 1 + min(ps))
        elif all(out.get(q) == "N" for q in o):
            new[c] = ("P", 1 + max(rem[q] for q in o))
    if not new:
        break
    for c, (v, d) in new.items():
        out[c], rem[c] = v, d
for c in cells:
    out.setdefault(c, "D")
fails = checked = 0
kinds = {"P": 0, "N": 0, "D": 0}
choose = {"P": 0, "N": 0}  # positions whose best move is a real choice
maxrem = 0
def fail(msg):
    global fails
    fails += 1
    if fails <= 10:
        print("FAIL:", msg)
def tool(*args):
    p = subprocess.run([ns] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr
def targets(text):
    return [tuple(int(v) for v in m) for m in re.findall(r"-> \((\d+), (\d+)\)", text)]
for c in cells:
    if third and (c[0] + c[1]) % 3:
        continue
    o, v = options(*c), out[c]
    if v == "N":
        best = min(rem[q] for q in o if out[q] == "P")
        good = {q for q in o if out[q] == "P" and rem[q] == best}
        kind, every, word = "fastest win", {q for q in o if out[q] == "P"}, "N-position"
    elif v == "P":
        best = max([rem[q] for q in o] or [0])
        good = {q for q in o if rem[q] == best}
        kind, every, word = "longest defence", set(o), "P-position"
    else:
        good = {q for q in o if out[q] == "D"}
        kind, every, word = "move that keeps the draw", good, "D-position"
    kinds[v] += 1
    if v != "D":
        maxrem = max(maxrem, rem[c])
        choose[v] += good != every
    checked += 1
    rc, text = tool("move", h5, str(c[0]), str(c[1]))
    want_rc = 0 if v == "N" else 1
    if rc != want_rc or word not in text:
        fail(f"{c}: expected {word} and exit {want_rc}, got exit {rc}: {text!r}")
        continue
    if v != "D" and f"(remoteness {rem[c]})" not in text:
        fail(f"{c}: expected remoteness {rem[c]}: {text!r}")
    t = targets(text)
    if not o:
        if t or "no move" not in text:
            fail(f"{c}: a terminal position, got {text!r}")
        continue
    if len(t) != 1 or t[0] not in good or kind not in text:
        fail(f"{c}: expected the {kind} to one of {sorted(good)}, got {text!r}")
    rc, text = tool("move", h5, str(c[0]), str(c[1]), "--all")
    t = targets(text)
    starred, wrong = set(), []
    for line in text.splitlines():
        m = re.match(r"  ([* ]) remoteness (\d+): .*-> \((\d+), (\d+)\)$", line)
        if m:
            q = (int(m.group(3)), int(m.group(4)))
            if int(m.group(2)) != rem.get(q, -1):
                wrong.append(q)
            if m.group(1) == "*":
                starred.add(q)
    if set(t) != every or len(t) != len(every) or wrong or (v != "D" and starred != good):
        fail(f"{c} --all: expected {sorted(every)} with best {sorted(good)}, got {text!r}")
    if (c[0] + c[1]) % 5 == 0:  # query on a sample
        rc, text = tool("query", h5, str(c[0]), str(c[1]))
        m = re.search(r"move to play: +(.*)\n +move to \((\d+), (\d+)\)", text)
        want = {"N": "the fastest win", "P": "the longest defence", "D": "a move that keeps the draw"}[v]
        if rc != 0 or not m or not m.group(1).startswith(want) or (int(m.group(2)), int(m.group(3))) not in good:
            fail(f"{c} query: expected '{want}' to one of {sorted(good)}, got {text!r}")
print(f"checked {checked} positions: P {kinds['P']} N {kinds['N']} D {kinds['D']}, largest remoteness {maxrem}, choices P {choose['P']} N {choose['N']}, {fails} failures")
sys.exit(1 if fails else 0)
PYEOF

WL="$SRC/data/rules/wythoff-loopy.rules"
TG="$SRC/tests/rules/loopy/take_grow.rules"
# every position's move (a process each: most of this test's time; a
# sanitizer build, where a process takes about 0.16 s, the positions with x
# + y = 0 mod 3, a third of them, on every row and column)
cover=all
[ "$SANITIZED" = 1 ] && cover=third
for game in wythoff-loopy:$WL take_grow:$TG; do
    name=${game%%:*} file=${game#*:}
    h5="$WORK/$name.h5"
    expect_ok "$NS" solve "$file" --size 12 -o "$h5"
    expect_ok $PY "$WORK/check.py" "$NS" "$name" "$h5" 12 $cover
    expect_out ', 0 failures$'
done
# take_grow has all three kinds, long games, and P- and N-positions whose
# best move is a choice among moves of different remoteness (else the test
# proves little)
CHECKS=$((CHECKS + 1))
grep -qE 'P [1-9][0-9]* N [1-9][0-9]* D [1-9][0-9]*, largest remoteness ([5-9]|[1-9][0-9]), choices P [1-9][0-9]* N [1-9]' "$OUT" || { fail "take_grow: expected P, N and D positions, remoteness >= 5, choices"; show; }

finish
