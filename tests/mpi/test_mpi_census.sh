#!/usr/bin/env bash
# test_mpi_census.sh - `mpirun -np R nimsieve census` (issue 21, item 2:
# "sweeps and censuses: a manager rank hands out variants"): the census
# runs on the sweep driver, so under MPI on its manager/worker version; the
# file under 1, 2, 3 and 4 ranks equals the single-process one (every
# dataset; every attribute but the run's own and mpi_ranks = R), and the
# CSV too; the periods of a few codes against a naive mex and period finder
# written here; one report on stdout.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.csv "$WORK"/*.part

ARGS=(octal --digits 2 --size 400)
expect_ok "$NS" census "${ARGS[@]}" -o "$WORK/ref.h5" --csv "$WORK/ref.csv"

# 0.07 (Dawson's Kayles), 0.33, 0.15, 0.51 and 0.64 from a
# naive solver: remove t tokens
# (digit d_t: bit 1 leaves 0 heaps, bit 2 one heap, bit 4 two heaps), mex,
# then the smallest period p and preperiod n0 that hold over the range
CHECKS=$((CHECKS + 1))
/usr/bin/python3 - "$WORK/ref.h5" <<'PYEOF' || fail "ref.h5: periods differ from a naive solver"
import sys, h5py
N = 400
t = h5py.File(sys.argv[1], "r")["census"][()]
rows = {r["code"].decode(): r for r in t}
def seq(code):
    digits = [int(c) for c in code.split(".")[1]]
    g = []
    for n in range(N):
        opts = set()
        for ti, d in enumerate(digits, 1):
            if ti > n:
                break
            rest = n - ti
            if d & 1 and rest == 0:
                opts.add(0)
            if d & 2 and rest > 0:
                opts.add(g[rest])
            if d & 4:
                for a in range(1, rest // 2 + 1):
                    opts.add(g[a] ^ g[rest - a])
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    return g
def period(g):
    for p in range(1, len(g) // 2):
        for n0 in range(len(g) - 2 * p):
            if all(g[n] == g[n + p] for n in range(n0, len(g) - p)):
                return n0, p
    return None
bad = 0
for code in ("0.07", "0.33", "0.15", "0.51", "0.64"):
    g = seq(code)
    n0, p = period(g) or (0, 0)   # none in the range: period 0
    r = rows[code]
    if (int(r["period"]), int(r["preperiod"]), int(r["max_value"])) != (p, n0, max(g)):
        print(code, "tool", r["period"], r["preperiod"], r["max_value"], "naive", p, n0, max(g))
        bad += 1
sys.exit(1 if bad else 0)
PYEOF

for r in 1 2 3 4; do
    mpi "$r" "$NS" census "${ARGS[@]}" -o "$WORK/np$r.h5" --csv "$WORK/np$r.csv"
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 0 ]; then
        fail "census under $r ranks: exit $RC"
        show
        continue
    fi
    [ "$(grep -c '^census:' "$OUT")" -eq 1 ] || { fail "census under $r ranks: expected one report"; show; }
    CHECKS=$((CHECKS + 1))
    /usr/bin/python3 "$SRC/tests/cli/h5same.py" "$WORK/ref.h5" "$WORK/np$r.h5" --skip mpi_ranks >"$WORK/cmp" ||
        fail "census under $r ranks differs from the single-process file: $(cat "$WORK/cmp")"
    CHECKS=$((CHECKS + 1))
    [ "$(/usr/bin/python3 -c 'import h5py,sys; print(int(h5py.File(sys.argv[1],"r").attrs["mpi_ranks"]))' "$WORK/np$r.h5")" = "$r" ] ||
        fail "census under $r ranks: mpi_ranks is not $r"
    CHECKS=$((CHECKS + 1))
    cmp -s "$WORK/ref.csv" "$WORK/np$r.csv" || fail "census under $r ranks: the CSV differs"
done
finish
