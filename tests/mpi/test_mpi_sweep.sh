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
rm -f "$WORK"/*.h5 "$WORK"/*.part


# one pile: every 3-subset of {1..7}, 300 heap sizes (35 variants)
ONE=(subtraction -D 'set=subsets(1..7,3)' --size 300)
# two piles: a-Wythoff a = 1..5 in the box [0,96)^2
TWO=(a-wythoff -D a=1..5 --size 96)
expect_ok "$NS" sweep "${ONE[@]}" -o "$WORK/one-ref.h5"
expect_ok "$NS" sweep "${TWO[@]}" -o "$WORK/two-ref.h5"

# the single-process catalogue's p_positions from a naive mex
/usr/bin/python3 - "$WORK/one-ref.h5" <<'PYEOF' || fail "one-ref.h5: p_positions differ from a naive mex"
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
elif ! grep -Eq '^nimsieve sweep: rank 0 of 3: (.*: )?rank 2: out of memory \(test hook.*fail\.h5\.part keeps the [0-9]+ variants done: --resume continues' "$ERR"; then
    fail "rank 2 failing: expected a message naming rank 2, the cause and the .part kept"
    show
fi
[ ! -e "$WORK/fail.h5" ] || fail "rank 2 failing: a catalogue was written"
# the rows done before the failure are kept: --resume under 2 ranks
# finishes the catalogue of the single-process run
mpi 2 "$NS" sweep "${ONE[@]}" -o "$WORK/fail.h5" --resume
CHECKS=$((CHECKS + 1))
if [ "$RC" -ne 0 ] || ! grep -q '^resuming from .*fail\.h5\.part' "$OUT"; then
    fail "resume after a failed rank: exit $RC"
    show
else
    CHECKS=$((CHECKS + 1))
    compare "$WORK/one-ref.h5" "$WORK/fail.h5" 2 >"$WORK/cmp" ||
        fail "the resumed catalogue differs from the single-process one: $(cat "$WORK/cmp")"
fi

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
