#!/usr/bin/env bash
# test_mpi_h5.sh - one table file written by every rank with parallel HDF5
# (issue 21, item 3): an in-memory tile-kernel solve across R = 2..4 ranks
# (1..2 threads a rank) with --mpi-write parallel (not the default; the
# other engines: test_mpi_write.sh) writes the file with MPI-IO, each rank its bands of
# chunk rows, and that file equals the single-process file of the default
# build value for value: every dataset's type, shape, chunk shape, filters
# and values and every attribute but the run's own (h5same.py), the
# declared filters of h5dump -pH dataset by dataset, and H5D_ALLOC_TIME_EARLY,
# the mark of a dataset created through MPI-IO (a file that rank 0 alone
# writes has H5D_ALLOC_TIME_INCR, so this fails when the ranks do not
# write). The default build's `verify` (Wythoff) and `info` read the file; Wythoff's
# P-positions are checked against the closed form. Games: Wythoff 2500 x
# 2500 (symmetric, 5 bands of 512 rows: more bands than ranks) and
# wythoff-twice.rules 700 x 700 (2 bands: idle writers at 3 and 4 ranks).
# Also: a failure inside the parallel writer (the .part cannot be created;
# a rank out of memory for its band, by a test hook) is a line naming the
# rank, exit 2, no hang, and no file is left behind.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

# FILE: for each dataset, its name, filters (with their parameters) and
# allocation time, one line each, from h5dump -pH (HDF5's own tool)
layout() {
    h5dump -pH "$1" | awk '
        /DATASET "/ { name = $2 }
        /FILTERS \{/ { inf = 1; f = ""; next }
        inf && /^ *\}$/ { inf = 0; next }
        inf { gsub(/^ +| +$/, ""); f = f " " $0 }
        /H5D_ALLOC_TIME_/ { gsub(/ /, ""); print name, f, $0 }'
}

# (--mpi-sets replicated: with owned line sets, the default of the tile
# kernel's games, rank 0 alone holds the table and writes it)
games=("wythoff --size 2500 --mpi-sets replicated" "$SRC/data/rules/wythoff-twice.rules --size 700 --mpi-sets replicated")
names=(wythoff twice)
for gi in 0 1; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]}
    ref="$WORK/$nm.ref.h5"
    rm -f "$ref"
    run "$REF_NS" solve "${game[@]}" -q -o "$ref"
    [ "$RC" -eq 0 ] || { fail "reference $nm: exit $RC"; show; continue; }
    layout "$ref" >"$WORK/$nm.ref.layout"
    grep -q 'H5D_ALLOC_TIME_INCR' "$WORK/$nm.ref.layout" ||
        fail "reference $nm: expected incremental allocation: $(cat "$WORK/$nm.ref.layout")"
    for rt in 2x1 2x2 3x1 4x1; do
        r=${rt%x*} t=${rt#*x}
        f="$WORK/$nm.$rt.h5"
        rm -f "$f" "$f.part"
        OMP_NUM_THREADS=$t mpi "$r" "$NS" solve "${game[@]}" --mpi-write parallel -o "$f"
        CHECKS=$((CHECKS + 1))
        if [ "$RC" -ne 0 ]; then
            fail "$nm at $r ranks x $t threads: exit $RC"
            show
            continue
        fi
        CHECKS=$((CHECKS + 1))
        $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
            fail "$nm at $r ranks x $t threads: not the single-process file: $(head -3 "$WORK/diff")"
        CHECKS=$((CHECKS + 1))
        grep -q "^mpi write: *$r ranks wrote $f at once with parallel HDF5" "$OUT" ||
            { fail "$nm at $r ranks: expected the 'mpi write:' line"; show; }
        # the same declared filters, dataset by dataset; allocated early: written through MPI-IO
        CHECKS=$((CHECKS + 1))
        layout "$f" >"$WORK/$nm.$rt.layout"
        sed 's/H5D_ALLOC_TIME_INCR/H5D_ALLOC_TIME_EARLY/' "$WORK/$nm.ref.layout" |
            diff - "$WORK/$nm.$rt.layout" >"$WORK/diff" ||
            fail "$nm at $r ranks: filters or allocation differ from the expected (parallel) layout: $(cat "$WORK/diff")"
        # the default build reads it: verify (the datasets against each other,
        # and cells against the game's rules; wythoff-twice's rule-file
        # options are too slow to recompute on every run, its values are
        # the reference's above) and info
        if [ "$nm" = wythoff ]; then
            CHECKS=$((CHECKS + 1))
            run "$REF_NS" verify "$f"
            [ "$RC" -eq 0 ] && grep -q "^verified .*: OK" "$OUT" || { fail "$nm at $r ranks: verify failed"; show; }
        fi
        CHECKS=$((CHECKS + 1))
        run "$REF_NS" info "$f"
        [ "$RC" -eq 0 ] && grep -q "^complete: *yes" "$OUT" || { fail "$nm at $r ranks: info failed"; show; }
    done
done

# Wythoff's P-positions from the closed form (Wythoff 1907): (a_k, a_k + k)
# and mirror, a_k = floor(k phi) = (k + isqrt(5 k^2)) // 2, exact integers;
# /grundy == 0 and /p_positions (row-major) both
CHECKS=$((CHECKS + 1))
$PY - "$WORK/wythoff.3x1.h5" <<'PY' || fail "wythoff at 3 ranks: the P-positions are not Wythoff's pairs"
import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
g = f["grundy"][...]
n = g.shape[0]
want = np.zeros((n, n), bool)
for k in range(n):
    a = (k + math.isqrt(5 * k * k)) // 2
    if a + k < n:
        want[a, a + k] = want[a + k, a] = True
pp = f["p_positions"][...]
ok = np.array_equal(g == 0, want) and np.array_equal(pp, np.argwhere(want))
sys.exit(0 if ok else 1)
PY

# a failure inside the parallel writer (the .part cannot be created: its
# name is a folder): one line per failing rank naming it, exit 2, nothing left
mkdir -p "$WORK/blocked.h5.part"
rm -f "$WORK/blocked.h5"
mpi 2 "$NS" solve wythoff --size 600 --mpi-sets replicated --mpi-write parallel -q -o "$WORK/blocked.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 2 ] || { fail "a failing parallel write: expected exit 2, got $RC"; show; }
grep -q '^nimsieve solve: rank [01] of 2: .*blocked.h5: cannot create .*blocked.h5.part' "$ERR" || { fail "a failing parallel write: expected the rank's message"; show; }
[ ! -e "$WORK/blocked.h5" ] || fail "a failing parallel write left blocked.h5"
rm -rf "$WORK/blocked.h5.part"

# a rank out of memory for its band (test hook NS_H5_PAR_TEST_NOMEM_RANK):
# the other ranks stop at the meeting before the collective writes, not hang
# in them; exit 2, the rank named, nothing left
for bad in 0 1; do
    rm -f "$WORK/nomem.h5"
    NS_H5_PAR_TEST_NOMEM_RANK=$bad mpi 2 "$NS" solve wythoff --size 600 --mpi-sets replicated --mpi-write parallel -q -o "$WORK/nomem.h5"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 2 ] || { fail "rank $bad out of memory in the parallel write: expected exit 2, got $RC"; show; }
    grep -q "^nimsieve solve: rank $bad of 2: .*nomem.h5: rank $bad: out of memory for a band of chunks" "$ERR" ||
        { fail "rank $bad out of memory in the parallel write: expected its message"; show; }
    [ ! -e "$WORK/nomem.h5" ] && [ ! -e "$WORK/nomem.h5.part" ] || fail "rank $bad out of memory: a file was left"
done

finish
