"""notebook_numbers.py - the key numbers a notebook prints, checked against
values computed here by naive solvers and closed forms that share nothing
with nimsieve or with the notebook's own code.

usage: python3 notebook_numbers.py NOTEBOOK.ipynb ...
Each notebook is recognised by its file name (wythoff, nim-and-sums,
variants, heaps, loopy); the sizes (N, bounds) are read from the printed lines, so the
checks follow the notebook when its sizes change. Prints one line per check;
exits 1 with 'FAIL: file: what' lines when a number disagrees or a line is
missing.
"""

import itertools
import json
import os
import re
import sys
from functools import lru_cache
from math import isqrt

PHI = (1 + 5 ** 0.5) / 2
failures = []


def fail(nb, what):
    failures.append(f"FAIL: {nb}: {what}")


def text_of(path):
    """All stream text of the code cells, in order."""
    nb = json.load(open(path))
    out = []
    for c in nb["cells"]:
        if c["cell_type"] != "code":
            continue
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream":
                t = o.get("text", "")
                out.append("".join(t) if isinstance(t, list) else t)
    return "".join(out)


def find(nb, text, pattern, what):
    m = re.search(pattern, text, re.M)
    if not m:
        fail(nb, f"no line matching {pattern!r} ({what})")
    return m


def same(nb, what, got, want):
    if got == want:
        print(f"ok: {nb}: {what} = {want}")
    else:
        fail(nb, f"{what}: the notebook prints {got}, expected {want}")


# ---- naive solvers -------------------------------------------------------

def pn_box(bounds, options):
    """P/N flags of every position of the box (a dict), by the definition: P when
    no option is P. Moves only lower coordinates, so lexicographic order works."""
    P = {}
    for pos in itertools.product(*(range(b) for b in bounds)):
        P[pos] = not any(P[q] for q in options(pos))
    return P


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


@lru_cache(None)
def wythoff_small(n):
    """Wythoff Grundy values on [0,n)^2 by the definition."""
    G = [[0] * n for _ in range(n)]
    for x in range(n):
        for y in range(n):
            opts = {G[x - t][y] for t in range(1, x + 1)} | {G[x][y - t] for t in range(1, y + 1)}
            opts |= {G[x - t][y - t] for t in range(1, min(x, y) + 1)}
            G[x][y] = mex(opts)
    return G


@lru_cache(None)
def wythoff_low_counts(n, k):
    """How many cells of [0,n)^2 have Wythoff value g, for g <= k. The value of a cell
    is the mex of the values in its row, column and diagonal below it, so it is g <= k
    exactly when g is the lowest of 0..k missing there: bit masks of 0..k suffice."""
    full = (1 << (k + 1)) - 1
    col = [0] * n
    diag = [0] * (2 * n)
    counts = [0] * (k + 1)
    for x in range(n):
        row = 0
        for y in range(n):
            seen = row | col[y] | diag[y - x + n]
            if seen != full:
                bit = (~seen) & (seen + 1)      # lowest missing value
                counts[bit.bit_length() - 1] += 1
                row |= bit
                col[y] |= bit
                diag[y - x + n] |= bit
    return counts


def wythoff_closed_count(n):
    """P-positions of Wythoff's game in [0,n)^2: (floor(k phi), floor(k phi) + k) and mirror."""
    c, k = 0, 0
    while True:
        a = (k + isqrt(5 * k * k)) // 2
        if a >= n:
            return c
        if a + k < n:
            c += 1 if k == 0 else 2
        k += 1


@lru_cache(None)
def lopsided_p(n):
    """P-positions of lopsided Wythoff in [0,n)^2. A position is P when no P-position
    lies on one of its move rays: same x (lower y), same y (lower x), same y - x
    (lower x), same y - 2x (lower x); every such cell of the box is a legal option."""
    colP = [False] * n
    diagP = set()
    rayP = set()
    P = []
    for x in range(n):
        rowP = False
        for y in range(n):
            if rowP or colP[y] or (y - x) in diagP or (y - 2 * x) in rayP:
                continue
            P.append((x, y))
            rowP = True
            colP[y] = True
            diagP.add(y - x)
            rayP.add(y - 2 * x)
    return P


def subtraction(S, n, extra=None):
    g = []
    for i in range(n):
        opts = {g[i - s] for s in S if s <= i}
        if extra:
            opts |= {g[i - s] for s in extra(i) if s <= i}
        g.append(mex(opts))
    return g


def least_squares(pts):
    """Slope of y = a x + b by least squares."""
    n = len(pts)
    sx = sum(x for x, _ in pts)
    sy = sum(y for _, y in pts)
    sxx = sum(x * x for x, _ in pts)
    sxy = sum(x * y for x, y in pts)
    return (n * sxy - sx * sy) / (n * sxx - sx * sx)


# ---- the notebooks -------------------------------------------------------

def check_wythoff(nb, t):
    m = find(nb, t, r"^P-positions in \[0,(\d+)\)\^2: (\d+)$", "P-position count")
    if m:
        n = int(m.group(1))
        same(nb, f"P-positions of Wythoff in [0,{n})^2 (closed form)", int(m.group(2)), wythoff_closed_count(n))
        counts = wythoff_low_counts(n, 5)
        for g, c in re.findall(r"^G = (\d+): +(\d+) positions", t, re.M):
            same(nb, f"cells with G = {g} in [0,{n})^2 (naive solver)", int(c), counts[int(g)])
        if not re.search(r"^G = 5: ", t, re.M):
            fail(nb, "no 'G = g: n positions' lines for g = 0..5")
    m = find(nb, t, r"G\(x, y\) for x, y < 8:\n((?:.*\n){8})", "the 8 x 8 corner")
    if m:
        got = [[int(v) for v in re.findall(r"\d+", line)] for line in m.group(1).splitlines()]
        same(nb, "G(x, y) for x, y < 8 (definition)", got, wythoff_small(8))
    m = find(nb, t, r"^upper branch: slope ([0-9.]+) ± ([0-9.e+-]+)", "fitted slope")
    if m:
        s = float(m.group(1))
        if abs(s - PHI) < 1e-3:
            print(f"ok: {nb}: slope {s} of the upper branch within 1e-3 of phi")
        else:
            fail(nb, f"slope of the upper branch {s} is not within 1e-3 of phi = {PHI:.6f}")


def check_nim(nb, t):
    m = find(nb, t, r"^P-positions of 3-pile Nim in \[0,(\d+)\)\^3: (\d+)$", "3-pile Nim")
    if m:
        n = int(m.group(1))
        same(nb, f"P-positions of 3-pile Nim in [0,{n})^3 (naive solver)", int(m.group(2)),
             sum(pn_box((n, n, n), nim_options).values()))
    m = find(nb, t, r"^P-positions of 4-pile Nim in ([\d x]+): (\d+)$", "4-pile Nim")
    if m:
        b = tuple(int(v) for v in m.group(1).split(" x "))
        same(nb, f"P-positions of 4-pile Nim in {b} (naive solver)", int(m.group(2)), sum(pn_box(b, nim_options).values()))
    m = find(nb, t, r"^P-positions of Moore's Nim_2 with 3 piles < (\d+): (\d+)", "Moore's Nim")
    if m:
        n = int(m.group(1))
        same(nb, f"P-positions of Moore's Nim_2, 3 piles < {n} (naive solver)", int(m.group(2)),
             sum(pn_box((n, n, n), moore2_options).values()))
    m = find(nb, t, r"^P-positions of the sum in (\d+) x (\d+): (\d+)$", "sum of subtraction games")
    if m:
        nx, ny = int(m.group(1)), int(m.group(2))
        S, T = (1, 3, 4), (2, 5, 6)
        P = pn_box((nx, ny), lambda p: [(p[0] - s, p[1]) for s in S if s <= p[0]] +
                                       [(p[0], p[1] - s) for s in T if s <= p[1]])
        same(nb, f"P-positions of the sum {{1,3,4}} + {{2,5,6}} in {nx} x {ny} (naive solver)", int(m.group(3)), sum(P.values()))
    m = find(nb, t, r"^P-positions of Wythoff plus a heap in (\d+) x (\d+) x (\d+): (\d+)$", "Wythoff plus a heap")
    if m:
        b = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        same(nb, f"P-positions of Wythoff plus a heap in {b} (naive solver)", int(m.group(4)),
             sum(pn_box(b, wythoff_heap_options).values()))


def nim_options(p):
    for i, v in enumerate(p):
        for t in range(1, v + 1):
            yield p[:i] + (v - t,) + p[i + 1:]


def moore2_options(p):
    """Moore's Nim_2: take from one pile or from two piles at once."""
    yield from nim_options(p)
    for i, j in itertools.combinations(range(len(p)), 2):
        for a in range(p[i]):
            for b in range(p[j]):
                q = list(p)
                q[i], q[j] = a, b
                yield tuple(q)


def wythoff_heap_options(p):
    x, y, z = p
    yield from ((x - t, y, z) for t in range(1, x + 1))
    yield from ((x, y - t, z) for t in range(1, y + 1))
    yield from ((x - t, y - t, z) for t in range(1, min(x, y) + 1))
    yield from ((x, y, z - t) for t in range(1, z + 1))


def check_variants(nb, t):
    m = find(nb, t, r"^P-positions in \[0,(\d+)\)\^2: (\d+)$", "lopsided P-position count")
    if m:
        n = int(m.group(1))
        P = lopsided_p(n)
        same(nb, f"P-positions of lopsided Wythoff in [0,{n})^2 (naive solver)", int(m.group(2)), len(P))
        above = [(x, y) for x, y in P if y > x]
        below = [(x, y) for x, y in P if y < x]
        m2 = find(nb, t, r"^above the diagonal: (\d+), below: (\d+), on it: (\d+)$", "sides")
        if m2:
            same(nb, "P-positions above, below, on the diagonal (naive solver)",
                 tuple(map(int, m2.groups())), (len(above), len(below), len(P) - len(above) - len(below)))
        # the lines the notebook fits: every far P-position above the diagonal lies near
        # one of the two upper lines, and each line has its share of them
        lines = [(float(s), float(c), int(k), side) for s, c, k, side in re.findall(
            r"^line y = ([0-9.]+) x ([+-][0-9.]+) .*?; (\d+) P-positions (above|below) the diagonal", t, re.M)]
        up = [(s, c) for s, c, _, side in lines if side == "above"]
        same(nb, "lines above the diagonal", len(up), 2)
        same(nb, "P-positions on the fitted lines (all but (0, 0))", sum(k for *_, k, _ in lines), len(P) - 1)
        if len(up) == 2:
            far = [(x, y) for x, y in above if x + y > n / 5]
            near = [min(range(2), key=lambda i: abs(y - (up[i][0] * x + up[i][1]))) for x, y in far]
            off = [(x, y) for (x, y), i in zip(far, near) if abs(y - (up[i][0] * x + up[i][1])) > 0.02 * y]
            shares = [near.count(i) for i in range(2)]
            if off or min(shares) < len(far) // 10:
                fail(nb, f"the two upper lines do not carry the P-positions: {len(off)} far from both, "
                         f"shares {shares}, e.g. {off[:3]}")
            else:
                print(f"ok: {nb}: all {len(far)} P-positions above the diagonal with x + y > {n // 5} lie within 2% "
                      f"of one of the two fitted lines (shares {shares})")
        m3 = find(nb, t, r"^patterns: (\d+) pairs \(a_n, b_n\)", "pairs read by patterns")
        if m3:
            same(nb, "pairs read by patterns (above the diagonal)", int(m3.group(1)), len(above))
        m3 = find(nb, t, r"^one line through all (\d+) pairs above the diagonal: slope ([0-9.]+)", "the single line")
        if m3:
            s = least_squares(above)
            if int(m3.group(1)) != len(above) or abs(float(m3.group(2)) - s) > 1e-3:
                fail(nb, f"single line through {m3.group(1)} pairs, slope {m3.group(2)}: a least-squares fit "
                         f"of all {len(above)} pairs gives {s:.4f}")
            else:
                print(f"ok: {nb}: the single line is the least-squares line of all {len(above)} pairs ({s:.4f})")
    m = find(nb, t, r"^our detection: period (\d+), preperiod (\d+)$", "parity subtraction period")
    if m:
        L = 600
        g = subtraction((2, 4, 7), L, extra=lambda i: (3,) if i % 2 == 1 else ())
        p = next(p for p in range(1, L // 4) if all(g[i + p] == g[i] for i in range(L // 2, L - p)))
        pre = min(i0 for i0 in range(L) if all(g[i + p] == g[i] for i in range(i0, L - p)))
        same(nb, "period, preperiod of parity subtraction (naive mex)", (int(m.group(1)), int(m.group(2))), (p, pre))
        m2 = find(nb, t, r"^patterns: \{.*'period': (\d+), 'preperiod': (\d+)", "patterns' period")
        if m2:
            same(nb, "period, preperiod reported by patterns (naive mex)", (int(m2.group(1)), int(m2.group(2))), (p, pre))


# ---- heap games (heaps.ipynb) ----------------------------------------------

def take_break(moves, n):
    """Grundy values 0..n-1 of a heap game by the definition. moves: (take, leaves)
    pairs, leaves the set of how many heaps (0, 1, 2) may remain after taking."""
    g = []
    for h in range(n):
        opts = set()
        for t, leaves in moves:
            r = h - t
            if r < 0:
                continue
            if 0 in leaves and r == 0:
                opts.add(0)
            if 1 in leaves and r >= 1:
                opts.add(g[r])
            if 2 in leaves:
                opts |= {g[a] ^ g[r - a] for a in range(1, r // 2 + 1)}
        g.append(mex(opts))
    return g


KAYLES = [(1, {0, 1, 2}), (2, {0, 1, 2})]                      # 0.77
DAWSON = [(2, {0, 1, 2})]                                      # 0.07
DAWSON_CHESS = [(1, {0}), (2, {0, 1}), (3, {0, 1, 2})]          # 0.137
# published (Guy and Smith 1956; Berlekamp, Conway and Guy, Winning Ways):
# period, preperiod (the first n of the periodic part)
PUBLISHED = {"0.77": (12, 71), "0.07": (34, 53), "0.137": (34, 52)}


def period_naive(g):
    """Smallest p with g periodic over the second half, and the first n from which it holds."""
    L = len(g)
    p = next(p for p in range(1, L // 4) if all(g[i + p] == g[i] for i in range(L // 2, L - p)))
    pre = min(i0 for i0 in range(L) if all(g[i + p] == g[i] for i in range(i0, L - p)))
    return p, pre


@lru_cache(None)
def grundys_game(n):
    """Grundy's game by the definition: split a heap into two unequal heaps."""
    g = []
    for h in range(n):
        g.append(mex({g[a] ^ g[h - a] for a in range(1, (h + 1) // 2)}))
    return tuple(g)


def check_heaps(nb, t):
    L = 800
    kay = take_break(KAYLES, L)
    games = {"0.77": kay, "0.07": take_break(DAWSON, L), "0.137": take_break(DAWSON_CHESS, L)}
    for code, g in games.items():
        got = period_naive(g)
        if got != PUBLISHED[code]:
            fail(nb, f"the naive solver of {code} gives period, preperiod {got}, published {PUBLISHED[code]}")
    m = find(nb, t, r"^Kayles, (\d+) heap sizes in the file: period (\d+) from n = (\d+); "
                    r"last exceptional value at n = (\d+)$", "Kayles' period")
    if m:
        p, n0 = period_naive(kay)
        same(nb, "Kayles: period, preperiod, last exception (naive mex, published)",
             tuple(map(int, m.groups()[1:])), (p, n0, n0 - 1))
    m = find(nb, t, r"^one period: ([\d ]+)$", "Kayles' period values")
    if m:
        p, n0 = period_naive(kay)
        same(nb, "Kayles: the values of one period (naive mex)", [int(v) for v in m.group(1).split()], kay[n0:n0 + p])
    for code in ("0.07", "0.137"):
        m = find(nb, t, r"^%s, numpy on (\d+) heap sizes: period (\d+) from n = (\d+) "
                        r"\(last exceptional value at n = (\d+)\)$" % re.escape(code), f"the period of {code}")
        if m:
            p, n0 = period_naive(games[code])
            same(nb, f"{code}: period, preperiod, last exception (naive mex, published)",
                 tuple(map(int, m.groups()[1:])), (p, n0, n0 - 1))
    # the winning move in a sum of Kayles heaps
    m = find(nb, t, r"^([\d ]+): N-position: the player to move wins \(value (\d+)\)\n"
                    r"winning move: take (\d+) from the heap of (\d+), leaving ([\d +]+|nothing) -> ([\d ]+)$",
             "the winning move")
    if m:
        heaps = [int(v) for v in m.group(1).split()]
        x = 0
        for h in heaps:
            x ^= kay[h]
        same(nb, f"value of Kayles heaps {heaps} (naive mex, XOR)", int(m.group(2)), x)
        take, frm = int(m.group(3)), int(m.group(4))
        parts = [] if m.group(5) == "nothing" else [int(v) for v in m.group(5).split("+")]
        after = [int(v) for v in m.group(6).split()]
        rest = list(heaps)
        legal = frm in rest and take in (1, 2) and len(parts) <= 2 and all(v > 0 for v in parts) \
            and sum(parts) == frm - take
        if legal:
            rest.remove(frm)
            legal = sorted(rest + parts) == sorted(after)
        y = 0
        for h in after:
            y ^= kay[h]
        if legal and y == 0:
            print(f"ok: {nb}: the move to {after} is a legal Kayles move to XOR 0 (naive mex)")
        else:
            fail(nb, f"the move 'take {take} from {frm}, leaving {parts}' -> {after}: legal {legal}, XOR {y}")
    m = find(nb, t, r"^([\d ]+): P-position: the player to move loses", "the lost position")
    if m:
        x = 0
        for h in map(int, m.group(1).split()):
            x ^= kay[h]
        same(nb, f"XOR of Kayles values over {m.group(1)} (naive mex)", x, 0)
    # Grundy's game: the first rare heap sizes under the printed mask
    g = grundys_game(3000)
    m = find(nb, t, r"^mask (\d+) = 0b[01]+: (\d+) of (\d+) heap sizes are rare", "the rare count")
    m2 = find(nb, t, r"^the first rare heap sizes: ([\d ]+) \.\.\.\ntheir values: ([\d ]+) \.\.\.$",
              "the first rare heap sizes")
    if m and m2:
        mask = int(m.group(1))
        rare = [n for n in range(len(g)) if bin(g[n] & mask).count("1") % 2 == 0]
        shown = [int(v) for v in m2.group(1).split()]
        same(nb, f"the first rare heap sizes of Grundy's game under mask {mask} (naive solver)", shown,
             rare[:len(shown)])
        same(nb, "their values (naive solver)", [int(v) for v in m2.group(2).split()], [g[n] for n in rare[:len(shown)]])
        k, n = int(m.group(2)), int(m.group(3))
        if not len([r for r in rare if r < len(g)]) <= k < n // 10:
            fail(nb, f"{k} rare of {n}: expected at least the {len(rare)} below {len(g)}, and under a tenth")
        else:
            print(f"ok: {nb}: {k} rare heap sizes of {n}: at least the {len(rare)} below {len(g)}, under a tenth")
    m = find(nb, t, r"^\d+ values; mask [01]+ \((\d+)\): \d+ rare .*\nrare n: ([\d ]+) \.\.\.$", "plot's rare list")
    if m:
        mask = int(m.group(1))
        shown = [int(v) for v in m.group(2).split()]
        rare = [n for n in range(len(g)) if bin(g[n] & mask).count("1") % 2 == 0]
        same(nb, f"plot --kind rare: the first rare heap sizes under mask {mask} (naive solver)", shown,
             rare[:len(shown)])

# ---- loopy games (loopy.ipynb) ---------------------------------------------

def wythoff_moves(x, y):
    return [(x - t, y) for t in range(1, x + 1)] + [(x, y - t) for t in range(1, y + 1)] + \
           [(x - t, y - t) for t in range(1, min(x, y) + 1)]


def loopy_options(game, n):
    """The options of every cell of [0,n)^2 in wythoff-loopy (a token passed between
    the piles), wythoff-grow (a token added to the smaller pile) or plain Wythoff
    (game "wythoff"); none leaves the box."""
    opts = {}
    for x in range(n):
        for y in range(n):
            o = wythoff_moves(x, y)
            if game == "wythoff-loopy":
                o += [(x + 1, y - 1)] if y >= 1 and x + 1 < n else []
                o += [(x - 1, y + 1)] if x >= 1 and y + 1 < n else []
            elif game == "wythoff-grow":
                o += [(x + 1, y)] if x < y else [(x, y + 1)] if y < x else []
            opts[(x, y)] = o
    return opts


def loopy_by_rounds(opts):
    """P / N / D and remoteness by the definitions, in rounds until nothing changes:
    N with remoteness 1 + r when some option is P with the least r; P with remoteness
    1 + the largest of its options' when every option is N (0 with no option)."""
    out, rem = {}, {}
    while True:
        new = {}
        for c, o in opts.items():
            if c in out:
                continue
            ps = [rem[q] for q in o if out.get(q) == "P"]
            if ps:
                new[c] = ("N", 1 + min(ps))
            elif all(out.get(q) == "N" for q in o):
                new[c] = ("P", 1 + max((rem[q] for q in o), default=-1))
        if not new:
            return {c: out.get(c, "D") for c in opts}, rem
        for c, (v, r) in new.items():
            out[c], rem[c] = v, r


def loopy_by_levels(opts):
    """The same values, faster: positions decided level by level of remoteness from
    the terminal ones backwards (an N-position at the first P-option found, a
    P-position when its last option is found N); never decided: a draw."""
    preds = {c: [] for c in opts}
    for c, o in opts.items():
        for q in set(o):
            preds[q].append(c)
    left = {c: len(set(o)) for c, o in opts.items()}
    out, rem = {}, {}
    level = [c for c, k in left.items() if k == 0]
    for c in level:
        out[c], rem[c] = "P", 0
    r = 0
    while level:
        nxt = []
        for q in level:
            for c in preds[q]:
                if c in out:
                    continue
                if out[q] == "P":
                    out[c], rem[c] = "N", r + 1
                    nxt.append(c)
                else:
                    left[c] -= 1
                    if left[c] == 0:
                        out[c], rem[c] = "P", r + 1
                        nxt.append(c)
        level, r = nxt, r + 1
    return {c: out.get(c, "D") for c in opts}, rem


def loopy_solve(game, n):
    """loopy_by_levels, checked once against loopy_by_rounds on a small box."""
    small = loopy_options(game, 10)
    if loopy_by_rounds(small) != loopy_by_levels(small):
        failures.append(f"FAIL: {game}: the two naive loopy solvers disagree on [0,10)^2")
    return loopy_by_levels(loopy_options(game, n))


def check_loopy(nb, t):
    solved = {}
    for game in ("wythoff-loopy", "wythoff-grow"):
        m = find(nb, t, r"^%s in \[0,(\d+)\)\^2: P (\d+), N (\d+), draws (\d+)$" % game, f"{game} counts")
        if m:
            n = int(m.group(1))
            out, rem = loopy_solve(game, n)
            solved[game] = n, out, rem
            want = tuple(sum(1 for v in out.values() if v == k) for k in "PND")
            same(nb, f"P, N, draws of {game} in [0,{n})^2 (naive fixed-point solver)",
                 tuple(map(int, m.groups()[1:])), want)
    if "wythoff-loopy" in solved:
        n, out, _ = solved["wythoff-loopy"]
        on = [c for c in out if c != (0, 0) and (c[0] == 0 or c[1] == 0 or c[0] == c[1])]
        m = find(nb, t, r"^N-positions on the axes and the diagonal: (\d+) of (\d+) ", "N on the lines")
        if m:
            same(nb, "wythoff-loopy: N-positions on the axes and the diagonal (naive solver)",
                 tuple(map(int, m.groups())), (sum(out[c] == "N" for c in on), len(on)))
    if "wythoff-grow" in solved:
        n, out, rem = solved["wythoff-grow"]
        wout, wrem = loopy_by_levels(loopy_options("wythoff", n))
        P = {c for c, v in out.items() if v == "P"}
        WP = {c for c, v in wout.items() if v == "P"}
        pairs = {c for k in range(n) for a in [(k + isqrt(5 * k * k)) // 2] if a + k < n
                 for c in ((a, a + k), (a + k, a))}
        m = find(nb, t, r"^P-positions: wythoff-grow (\d+), Wythoff (\d+); the same cells: (\w+); "
                        r"the pairs .* and mirrors: (\w+)$", "P-positions against Wythoff's")
        if m:
            same(nb, f"P-positions of wythoff-grow and Wythoff in [0,{n})^2 (naive solvers, closed form)",
                 tuple(m.groups()), (str(len(P)), str(wythoff_closed_count(n)), str(P == WP), str(P == pairs)))
        m = find(nb, t, r"^largest remoteness in \[0,(\d+)\)\^2: wythoff-grow (\d+), Wythoff (\d+)$", "largest remoteness")
        if m:
            same(nb, f"largest remoteness of wythoff-grow and Wythoff in [0,{n})^2 (naive solvers)",
                 (int(m.group(2)), int(m.group(3))), (max(rem.values()), max(wrem.values())))
        m = find(nb, t, r"^remoteness against Wythoff's: (\d+) longer, (\d+) equal, (\d+) shorter$", "remoteness compared")
        if m:
            cells = list(out)
            same(nb, f"cells where wythoff-grow's remoteness is longer, equal, shorter than Wythoff's (naive solvers)",
                 tuple(map(int, m.groups())), (sum(rem[c] > wrem[c] for c in cells), sum(rem[c] == wrem[c] for c in cells),
                                              sum(rem[c] < wrem[c] for c in cells)))
        m = find(nb, t, r"^patterns: (\d+) pairs \(a_n, b_n\); a_n: ([\d ]+) \.\.\.$", "pairs read by patterns")
        if m:
            a = sorted(c[0] for c, v in out.items() if v == "P" and c[0] < c[1])
            got = [int(v) for v in m.group(2).split()]
            same(nb, "wythoff-grow: pairs and first a_n read by patterns (naive solver)",
                 (int(m.group(1)), got), (len(a), a[:len(got)]))
    # section 4: generalized Sprague-Grundy values (Smith's algorithm, literally) and sums
    m = find(nb, t, r"^wythoff-grow in \[0,(\d+)\)\^2: (\d+) finite values \[([\d, ]*)\], (\d+) infinite$",
             "gsg counts")
    if m:
        n = int(m.group(1))
        opts = loopy_options("wythoff-grow", n)
        lab = smith(opts)
        fin = [v for v in lab.values() if not isinstance(v, tuple)]
        same(nb, f"wythoff-grow in [0,{n})^2: finite values, their set, infinite values (naive Smith)",
             (int(m.group(2)), m.group(3), int(m.group(4))),
             (len(fin), ", ".join(map(str, sorted(set(fin)))), len(lab) - len(fin)))
        out, _ = loopy_by_levels(opts)
        m2 = find(nb, t, r"^finite exactly at the P-positions: (\w+)$", "finite at P")
        if m2:
            same(nb, "finite values exactly at the P-positions (naive Smith, naive P/N/D)", m2.group(1),
                 str(all((not isinstance(lab[c], tuple)) == (out[c] == "P") for c in opts)))
        wopts = loopy_options("wythoff", n)
        for mm in re.finditer(r"^sum \((\d+), (\d+)\) \+ \((\d+), (\d+)\): wythoff-grow (\w) .*, Wythoff (\w) ",
                              t, re.M):
            u, v = (int(mm.group(1)), int(mm.group(2))), (int(mm.group(3)), int(mm.group(4)))
            want = (sum_outcome(opts, u, v), sum_outcome(wopts, u, v))
            same(nb, f"outcome of {u} + {v} in wythoff-grow and in Wythoff (naive P/N/D of the sum game)",
                 (mm.group(5), mm.group(6)), want)


def smith(opts):
    """Smith's algorithm as stated: for m = 0, 1, ..., label m (repeatedly) each unlabelled
    position with no option labelled m whose every unlabelled or infinite option has one;
    then the unlabelled positions with no option labelled m are infinite. An infinite
    value is ('inf', K), K the finite values of its options."""
    lab = {}
    has = lambda u, m: any(lab.get(v) == m for v in opts[u])
    m = 0
    while len(lab) < len(opts):
        changed = True
        while changed:
            changed = False
            for u in opts:
                if u not in lab and not has(u, m) and \
                        all(has(v, m) for v in opts[u] if v not in lab or lab[v] == "inf"):
                    lab[u], changed = m, True
        for u in opts:
            if u not in lab and not has(u, m):
                lab[u] = "inf"
        m += 1
    return {u: ("inf", frozenset(lab[v] for v in opts[u] if lab[v] != "inf")) if lab[u] == "inf" else lab[u]
            for u in opts}


def sum_outcome(opts, u, v):
    """P, N or D of the position (u, v) of the sum of the game with itself (a move is a
    move in one part), by the naive level solver on the product graph."""
    prod = {(a, b): [(a2, b) for a2 in opts[a]] + [(a, b2) for b2 in opts[b]] for a in opts for b in opts}
    out, _ = loopy_by_levels(prod)
    return out[(u, v)]


CHECKS = {"wythoff": check_wythoff, "nim-and-sums": check_nim, "variants": check_variants, "heaps": check_heaps,
          "loopy": check_loopy}

for path in sys.argv[1:]:
    name = os.path.basename(path).split(".")[0]
    if name not in CHECKS:
        fail(path, f"no number checks for a notebook named {name!r} (add them to {sys.argv[0]})")
        continue
    CHECKS[name](path, text_of(path))

for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
