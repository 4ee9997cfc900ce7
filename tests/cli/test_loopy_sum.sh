#!/bin/bash
# Sums of loopy games decided from two table files (issue 18, items 3 and
# 4): `query A.h5 X Y --plus B.h5 U V` prints the generalized
# Sprague-Grundy value of the sum and its outcome. Checked on every pair of
# positions against a naive solver written here in Python, which builds the
# sum game itself (a move is a move in one part; the moves of each game
# written out by hand, not read from the rule files) and labels it by
# Smith's algorithm (for m = 0, 1, ...: rescan until nothing changes,
# labelling m an unlabelled position with no option labelled m whose every
# unlabelled or infinite option has an option labelled m; then the
# unlabelled positions without an option labelled m are infinite), and
# against the naive P / N / draw solver of the sum game. Also `query` of
# one cell against the naive value of each part, `info`, and the errors.
# Usage: bash test_loopy_sum.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3

cat >"$WORK/check.py" <<'PYEOF'
import re, subprocess, sys
ns = sys.argv[1]
parts = [(sys.argv[2], sys.argv[3], int(sys.argv[4])), (sys.argv[5], sys.argv[6], int(sys.argv[7]))]
step = int(sys.argv[8])  # query every step-th sum (all of them are solved here)
own = sys.argv[9] if len(sys.argv) > 9 else "ab"  # the parts whose own queries are checked here
def options(game, n, x, y):
    o = []
    if game in ("wythoff-loopy", "wythoff"):
        o += [(x - t, y) for t in range(1, x + 1)]
        o += [(x, y - t) for t in range(1, y + 1)]
        o += [(x - t, y - t) for t in range(1, min(x, y) + 1)]
        if game == "wythoff-loopy":
            o += [(x + 1, y - 1)] if y >= 1 else []
            o += [(x - 1, y + 1)] if x >= 1 else []
    else:  # take_grow
        o += [(x - t, y) for t in (2, 3) if t <= x]
        o += [(x, y - 2)] if y >= 2 else []
        o += [(x + 1, y - 1)] if y >= 1 else []
        o += [(x, y + 1)] if x >= 2 else []
    return sorted(set(q for q in o if 0 <= q[0] < n and 0 <= q[1] < n))
def smith(cells, opts):
    """Smith's algorithm, literally: value m, or ('inf', frozenset K)."""
    lab = {}
    def has(u, m):
        return any(lab.get(v) == m for v in opts[u])
    m = 0
    while len(lab) < len(cells) and m <= len(cells):
        changed = True
        while changed:
            changed = False
            for u in cells:
                if u in lab or has(u, m):
                    continue
                if all(has(v, m) for v in opts[u] if v not in lab or lab[v] == "inf"):
                    lab[u] = m
                    changed = True
        for u in cells:
            if u not in lab and not has(u, m):
                lab[u] = "inf"
        m += 1
    sets = {u: ("inf", frozenset(lab[v] for v in opts[u] if lab.get(v, "inf") != "inf"))
            for u in cells if lab.get(u, "inf") == "inf"}
    lab.update(sets)
    return lab
def pnd(cells, opts):
    out = {}
    while True:
        new = {}
        for c in cells:
            if c in out:
                continue
            o = opts[c]
            if any(out.get(q) == "P" for q in o):
                new[c] = "N"
            elif all(out.get(q) == "N" for q in o):
                new[c] = "P"
        if not new:
            break
        out.update(new)
    return {c: out.get(c, "D") for c in cells}
def text(v):
    if isinstance(v, tuple):
        return "inf{" + ",".join(str(k) for k in sorted(v[1])) + "}"
    return str(v)
single = []
for game, h5, n in parts:
    cells = [(x, y) for x in range(n) for y in range(n)]
    single.append((cells, {c: options(game, n, *c) for c in cells}))
(ca, oa), (cb, ob) = single
cells = [(a, b) for a in ca for b in cb]
opts = {(a, b): [(a2, b) for a2 in oa[a]] + [(a, b2) for b2 in ob[b]] for a, b in cells}
lab, out = smith(cells, opts), pnd(cells, opts)
fails = checked = 0
seen = {"P": 0, "N": 0, "D": 0}
kinds = set()
def fail(msg):
    global fails
    fails += 1
    if fails <= 10:
        print("FAIL:", msg)
def tool(*args):
    p = subprocess.run([ns] + [str(x) for x in args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr
# the outcome of the naive value is the naive P / N / draw outcome (the
# theorem the tool relies on, on this sum)
for c in cells:
    v = lab[c]
    o = "P" if v == 0 else "N" if not isinstance(v, tuple) or 0 in v[1] else "D"
    if o != out[c]:
        fail(f"naive solvers disagree at {c}: {text(v)} but {out[c]}")
# each part's query against its own naive value
for (game, h5, n), (pc, po), which in zip(parts, single, "ab"):
    if which not in own:  # checked with another pair
        continue
    plab = smith(pc, po)
    for c in pc:
        rc, t = tool("query", h5, *c)
        if game == "wythoff":
            m = re.search(r"grundy value: +(\d+)", t)
        else:
            m = re.search(r"gsg value: +(\S+)", t)
        if rc != 0 or not m or m.group(1) != text(plab[c]):
            fail(f"query {h5} {c}: expected {text(plab[c])}, got {t!r}")
for a, b in cells[::step]:
    v = lab[(a, b)]
    checked += 1
    seen[out[(a, b)]] += 1
    kinds.add("inf" if isinstance(v, tuple) and v[1] else "inf{}" if isinstance(v, tuple) else "0" if v == 0 else "g")
    rc, t = tool("query", parts[0][1], *a, "--plus", parts[1][1], *b)
    m = re.search(r"sum value: +(\S+)", t)
    o = re.search(r"outcome: +([PND]) ", t)
    if rc != 0 or not m or not o or m.group(1) != text(v) or o.group(1) != out[(a, b)]:
        fail(f"{a} + {b}: expected {text(v)} and {out[(a, b)]}, got {t!r}")
print(f"checked {checked} sums: P {seen['P']} N {seen['N']} D {seen['D']}, kinds {' '.join(sorted(kinds))}, {fails} failures")
sys.exit(1 if fails else 0)
PYEOF

WL="$SRC/data/rules/wythoff-loopy.rules"
TG="$SRC/tests/rules/loopy/take_grow.rules"
# take_grow has infinite values from size 8 on (with draws), wythoff-loopy
# from size 3 (inf{} among them)
expect_ok "$NS" solve "$TG" --size 8 -o "$WORK/tg8.h5"
expect_out 'gsg values: +[0-9]+ finite \(largest [1-9][0-9]*\), [1-9][0-9]* infinite'
expect_ok "$NS" solve "$TG" --size 4 -o "$WORK/tg4.h5"
expect_ok "$NS" solve "$WL" --size 3 -o "$WORK/wl3.h5"
expect_ok "$NS" solve wythoff --size 4 -o "$WORK/w4.h5"
expect_ok "$NS" info "$WORK/tg8.h5"
expect_out '^gsg values: +[0-9]+ finite \(largest [1-9][0-9]*\), [1-9][0-9]* infinite'

# a loopy game with another, with itself, and with an ordinary Grundy table
# (every step-th of the sums queried, step prime to the second part's
# size: a fifth, a thirteenth and a fifth of them; a sanitizer build,
# where each query takes about 0.16 s, 52, 61 and 60 sums, every 11th,
# 67th and 17th); P, N and D sums and the kinds of value named must occur, else
# the test proves little. Each part's own queries are checked once, with
# the first pair it is in (a query is a process: the launches are most of
# this test's time)
steps=(5 13 5)
[ "$SANITIZED" = 1 ] && steps=(11 67 17)
for pair in "take_grow tg8.h5 8 wythoff-loopy wl3.h5 3 ${steps[0]} ab:0 g inf inf[{][}]" \
    "take_grow tg8.h5 8 take_grow tg8.h5 8 ${steps[1]} -:0 g inf inf[{][}]" "take_grow tg8.h5 8 wythoff w4.h5 4 ${steps[2]} b:0 g inf"; do
    kinds=${pair#*:} pair=${pair%%:*}
    set -- $pair
    expect_ok $PY "$WORK/check.py" "$NS" "$1" "$WORK/$2" "$3" "$4" "$WORK/$5" "$6" "$7" "$8"
    expect_out ', 0 failures$'
    CHECKS=$((CHECKS + 1))
    grep -qE "P [1-9][0-9]* N [1-9][0-9]* D [1-9][0-9]*, kinds $kinds" "$OUT" ||
        { fail "$pair: expected P, N and D sums and values of the kinds $kinds"; show; }
done

# errors: one line each
expect_ok "$NS" solve "$TG" --size 4 --pn-only -o "$WORK/tg4pn.h5"
expect_error 2 query 'tg4pn.h5: no Grundy values to add.*without --pn-only' \
    "$NS" query "$WORK/tg4.h5" 1 1 --plus "$WORK/tg4pn.h5" 1 1
expect_error 2 query 'missing position after --plus' "$NS" query "$WORK/tg4.h5" 1 1 --plus "$WORK/tg4.h5"
expect_error 2 query '--plus comes once' \
    "$NS" query "$WORK/tg4.h5" 1 1 --plus "$WORK/tg4.h5" 1 1 --plus "$WORK/tg4.h5" 1 1
expect_error 2 query 'missing position' "$NS" query "$WORK/tg4.h5" --plus "$WORK/tg4.h5" 1 1
expect_error 2 query 'tg4.h5: position \(1, 9\) is outside' "$NS" query "$WORK/tg4.h5" 1 1 --plus "$WORK/tg4.h5" 1 9

finish
