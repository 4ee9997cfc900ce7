#!/usr/bin/env bash
# test_mpi_stop_alone.sh - the MPI build run as one process, without mpirun
# (a user's first try, or a job script's single task): a streamed solve
# stopped by SIGTERM exits 143 with its checkpoint, and does not crash on
# the way out (HDF5's shutdown at MPI_Finalize used to meet the file whose
# close the stop left failed: SIGSEGV, exit 139); the checkpoint resumes to
# the uninterrupted file, whose values are checked against Wythoff's
# P-positions. Tile kernel (Grundy) and row kernel (P/N).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"

for kind in grundy pn; do
    args=(wythoff --size 3000 --stream --checkpoint-every 1)
    [ "$kind" = pn ] && args=(wythoff --size 6000 --pn-only --stream --checkpoint-every 1)
    ref="$WORK/ref-$kind.h5" f="$WORK/stop-$kind.h5"
    rm -f "$ref" "$f" "$f.ckpt" "$f.part"
    expect_ok "$REF_NS" solve "${args[@]}" -q -o "$ref"
    # the solve raises SIGTERM on itself after 2 units (cmd_solve.c's hook)
    NS_SOLVE_TEST_TERM_AT=2 run timeout -k 5 60 "$NS" solve "${args[@]}" -o "$f"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 143 ] || { fail "$kind: a stopped solve of the MPI build alone: expected exit 143, got $RC"; show; }
    grep -q 'Segmentation\|signal 11' "$ERR" && { fail "$kind: a crash on the way out"; show; }
    [ -e "$f.ckpt" ] && [ -e "$f.part" ] || { fail "$kind: expected the checkpoint and the .part"; show; }
    run timeout -k 5 60 "$NS" solve "${args[@]}" -q -o "$f" --resume
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] || { fail "$kind: the resume: exit $RC"; show; continue; }
    $PY "$SAME" "$ref" "$f" --skip "$SKIP" >/dev/null 2>&1 || fail "$kind: the resumed file is not the uninterrupted one"
done

# Wythoff's P-positions (floor(k phi), floor(k phi^2)) in exact integers:
# a_k = floor(k (1 + sqrt 5) / 2) = (k + isqrt(5 k^2)) // 2
CHECKS=$((CHECKS + 1))
$PY - "$WORK/stop-grundy.h5" "$WORK/stop-pn.h5" <<'PY' || fail "values: not Wythoff's P-positions"
import sys, h5py, numpy as np
from math import isqrt
for path in sys.argv[1:]:
    f = h5py.File(path, "r")
    n = int(f["grundy" if "grundy" in f else "pn"].shape[0])
    want = set()
    for k in range(n):
        a = (k + isqrt(5 * k * k)) // 2
        b = a + k
        for x, y in ((a, b), (b, a)):
            if x < n and y < n:
                want.add((x, y))
    if "grundy" in f:
        g = f["grundy"]
        got = set()
        for x0 in range(0, n, 500):
            blk = g[x0:x0 + 500, :]
            xs, ys = np.nonzero(blk == 0)
            got |= {(int(x) + x0, int(y)) for x, y in zip(xs, ys)}
    else:
        pp = f["p_positions"][...]
        got = {(int(x), int(y)) for x, y in pp}
    if got != want:
        print(path, len(got), len(want))
        sys.exit(1)
PY
finish
