#!/usr/bin/env bash
# test_mpi_sweep.sh - `mpirun -np R nimsieve sweep` (issue 21, item 2): the
# catalogue under 1, 2, 3 and 4 ranks equals the single-process (OpenMP)
# one in every column but seconds and every attribute but the timing ones
# and mpi_ranks (= R); the one-pile catalogue's p_positions also against a
# naive mex in Python; a worker that fails ends the job with a message
# naming its rank and exit 2, a worker that dies ends it non-zero, never a
# hang (every run under `timeout`).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
PY=/usr/bin/python3
rm -f "$WORK"/*.h5

compare() { # compare REF.h5 GOT.h5 RANKS
    $PY - "$@" <<'PYEOF'
import sys, h5py, numpy as np
ref, got, ranks = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r"), int(sys.argv[3])
a, b = ref["sweep"][...], got["sweep"][...]
bad = []
if a.dtype.names != b.dtype.names or a.shape != b.shape:
    bad.append(f"rows {a.shape} {a.dtype.names} vs {b.shape} {b.dtype.names}")
else:
    for c in a.dtype.names:
        if c == "seconds":
            continue
        x, y = a[c], b[c]
        same = np.array_equal(x, y, equal_nan=True) if x.dtype.kind == "f" else np.array_equal(x, y)
        if not same:
            bad.append(f"column {c} differs")
skip = {"threads", "wall_seconds", "created_utc", "mpi_ranks"}
for k in set(ref.attrs) | set(got.attrs):
    if k in skip:
        continue
    if k not in ref.attrs or k not in got.attrs or ref.attrs[k] != got.attrs[k]:
        bad.append(f"attribute {k}: {ref.attrs.get(k)!r} vs {got.attrs.get(k)!r}")
if int(got.attrs.get("mpi_ranks", -1)) != ranks:
    bad.append(f"mpi_ranks {got.attrs.get('mpi_ranks')!r}, expected {ranks}")
for b_ in bad:
    print(b_)
sys.exit(1 if bad else 0)
PYEOF
}

# one pile: every 3-subset of {1..7}, 300 heap sizes (35 variants)
ONE=(subtraction -D 'set=subsets(1..7,3)' --size 300)
# two piles: a-Wythoff a = 1..5 in the box [0,96)^2
TWO=(a-wythoff -D a=1..5 --size 96)
expect_ok "$NS" sweep "${ONE[@]}" -o "$WORK/one-ref.h5"
expect_ok "$NS" sweep "${TWO[@]}" -o "$WORK/two-ref.h5"

# the single-process catalogue's p_positions from a naive mex
$PY - "$WORK/one-ref.h5" <<'PYEOF' || fail "one-ref.h5: p_positions differ from a naive mex"
import sys, h5py
rows = h5py.File(sys.argv[1], "r")["sweep"][...]
assert len(rows) == 35
for r in rows:
    s = [int(x) for x in r["params"].decode().split("=")[1].split(",")]
    g = []
    for n in range(300):
        seen = {g[n - m] for m in s if m <= n}
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    if g.count(0) != r["p_positions"]:
        sys.exit(f"{r['params']}: {r['p_positions']} P-positions, naive {g.count(0)}")
PYEOF

for r in 1 2 3 4; do
    for kind in one two; do
        if [ $kind = one ]; then args=("${ONE[@]}"); else args=("${TWO[@]}"); fi
        mpi "$r" "$NS" sweep "${args[@]}" -o "$WORK/$kind-np$r.h5"
        CHECKS=$((CHECKS + 1))
        if [ "$RC" -ne 0 ]; then
            fail "sweep $kind under $r ranks: exit $RC"
            show
            continue
        fi
        [ "$(grep -c '^sweep:' "$OUT")" -eq 1 ] || { fail "sweep $kind under $r ranks: expected one report"; show; }
        if [ "$r" -gt 1 ] && ! grep -q "^time: .* on $r ranks (1 manager, $((r - 1)) worker" "$OUT"; then
            fail "sweep $kind under $r ranks: expected the work shared by $((r - 1)) workers"
            show
        fi
        CHECKS=$((CHECKS + 1))
        compare "$WORK/$kind-ref.h5" "$WORK/$kind-np$r.h5" "$r" >"$WORK/cmp" ||
            { fail "sweep $kind under $r ranks differs from the single-process catalogue: $(cat "$WORK/cmp")"; }
    done
done

# more ranks than batches: 3 variants, 4 ranks (one worker idle)
mpi 4 "$NS" sweep a-wythoff -D a=1..3 --size 32 -o "$WORK/few.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] || { fail "3 variants on 4 ranks: exit $RC"; show; }

# a worker that fails (test hook: rank 2 out of memory on its first batch)
NS_DIST_TEST_FAIL_RANK=2 mpi 3 "$NS" sweep "${ONE[@]}" -o "$WORK/fail.h5"
CHECKS=$((CHECKS + 1))
if [ "$RC" -ne 2 ]; then
    fail "rank 2 failing: expected exit 2, got $RC (124: a hang)"
    show
elif ! grep -q '^nimsieve sweep: rank 0 of 3: subtraction: rank 2: out of memory (test hook' "$ERR"; then
    fail "rank 2 failing: expected a message naming rank 2 and the cause"
    show
fi
[ ! -e "$WORK/fail.h5" ] || fail "rank 2 failing: a catalogue was written"

# a worker that dies (SIGKILL): the job ends non-zero and mpirun names the rank
# (mpirun exits 137 itself after a SIGKILL: a hang is told by the time taken)
t0=$SECONDS
NS_DIST_TEST_FAIL_RANK=1 NS_DIST_TEST_FAIL_HOW=die mpi 3 "$NS" sweep "${ONE[@]}" -o "$WORK/die.h5"
CHECKS=$((CHECKS + 1))
if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ $((SECONDS - t0)) -ge "$MPI_TIMEOUT" ]; then
    fail "rank 1 dying: expected a non-zero exit without a hang, got $RC"
    show
elif ! grep -Eq 'rank 1|,1\]' "$ERR"; then
    fail "rank 1 dying: expected mpirun's message to name rank 1"
    show
fi

finish
