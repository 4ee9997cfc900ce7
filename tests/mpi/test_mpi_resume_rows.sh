#!/usr/bin/env bash
# test_mpi_resume_rows.sh - checkpoints and --resume of the P/N row kernel
# (rows-pn) across MPI ranks (issue 21, items 3 and 4). Wythoff (4096 x
# 4096) and tests/mpi/asym-rays.rules (3000 x 2000: a ray with a = 2, one
# that lags 3 rows; not a multiple of the 256-row blocks), in memory and
# --stream:
#   - 2 ranks with a checkpoint after every block, rank 1 killed (test hook
#     NS_DIST_TEST_DIE_AFTER_TILES=2: SIGKILL after it sent its 2nd block,
#     block 3, which it computes only after rank 0 sent block 2, after rank
#     0's checkpoint of block 0): the job ends non-zero, mpirun naming rank
#     1, no file, the checkpoint intact;
#   - that checkpoint resumed under 1 process (no mpirun), 2 and 3 ranks:
#     each gives the uninterrupted single-process file, value for value
#     (h5same.py), and the checkpoint is gone;
#   - stopped at a known block by SIGTERM (test hook NS_SOLVE_TEST_TERM_AT:
#     the solve raises it once so many blocks are done; across ranks rank 0
#     does, writes its final checkpoint and ends every rank): exit 143, the
#     checkpoint holds that many blocks; one process's resumed under 2 and 3
#     ranks, 3 ranks' under 2: the same;
#   - Wythoff's P-positions of a resumed file are Wythoff's pairs (closed
#     form, exact integers).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

games=("wythoff --size 4096" "$SRC/tests/mpi/asym-rays.rules --bounds 3000,2000")
names=(wythoff asym)
stops=(7 5)     # of 16 and 12 blocks
for gi in 0 1; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]} stop=${stops[$gi]}
    for mode in memory stream; do
        extra=(--pn-only --no-stream)
        [ "$mode" = stream ] && extra=(--pn-only --stream)
        label="$nm $mode"
        ref="$WORK/$nm.$mode.ref.h5"
        rm -f "$ref"
        run "$REF_NS" solve "${game[@]}" "${extra[@]}" -q -o "$ref"
        [ "$RC" -eq 0 ] || { fail "reference $label: exit $RC"; show; continue; }

        # rank 1 of 2 dies mid-run; the last checkpoint resumes under 1, 2, 3
        f="$WORK/die.$nm.$mode.h5"
        rm -f "$f" "$f.ckpt" "$f.part"
        NS_DIST_TEST_DIE_AFTER_TILES=2 mpi 2 "$NS" solve "${game[@]}" "${extra[@]}" -q -o "$f" \
            --checkpoint-every 0.000001
        CHECKS=$((CHECKS + 1))
        if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
            fail "$label: rank 1 killed at 2 ranks: expected a non-zero exit (not a timeout), no file and a checkpoint (exit $RC)"
            show
        elif ! grep -q "rank 1 .*signal 9" "$ERR"; then
            fail "$label: rank 1 killed at 2 ranks: expected a message naming rank 1 and its signal"
            show
        else
            resume_all "$label (2 ranks' checkpoint)" "$f" "$ref" "1 2 3" -- "${game[@]}" "${extra[@]}"
        fi

        # stopped at a known block (test hook NS_SOLVE_TEST_TERM_AT: SIGTERM
        # once that many blocks are done; across ranks rank 0 raises it):
        # one process's checkpoint resumed under 2 and 3 ranks, 3 ranks'
        # under 2
        for r in 1 3; do
            f="$WORK/term$r.$nm.$mode.h5"
            rm -f "$f" "$f.ckpt" "$f.part"
            if [ "$r" -eq 1 ]; then
                # REF_NS: the MPI build's single process crashes in MPI_Finalize
                # after a streamed solve's stop (HDF5 closing the frozen .part;
                # not this test's subject)
                NS_SOLVE_TEST_TERM_AT=$stop run timeout 60 "$REF_NS" solve "${game[@]}" "${extra[@]}" -q -o "$f" \
                    --checkpoint-every 0.000001
            else
                NS_SOLVE_TEST_TERM_AT=$stop mpi "$r" "$NS" solve "${game[@]}" "${extra[@]}" -q -o "$f" \
                    --checkpoint-every 0.000001
            fi
            CHECKS=$((CHECKS + 1))
            if [ "$RC" -ne 143 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
                fail "$label: SIGTERM at block $stop under $r ranks: expected exit 143, no file and a checkpoint (exit $RC)"
                show
            elif ! grep -q "stopped by SIGTERM.*checkpoint .* holds $stop of [0-9]* units" "$ERR"; then
                fail "$label: SIGTERM at block $stop under $r ranks: expected the final checkpoint of $stop blocks"
                show
            elif [ "$r" -eq 1 ]; then
                resume_all "$label (one process's checkpoint)" "$f" "$ref" "2 3" -- "${game[@]}" "${extra[@]}"
            else
                resume_all "$label (3 ranks' checkpoint)" "$f" "$ref" "2" -- "${game[@]}" "${extra[@]}"
            fi
        done
    done
done

# Wythoff's P-positions (Wythoff 1907): (a_k, a_k + k) and mirror, a_k =
# floor(k phi) = (k + isqrt(5 k^2)) // 2, in exact integers; a file resumed
# under 3 ranks, in memory (/pn) and streamed (/pn and /p_positions)
for f in "$WORK/die.wythoff.memory.h5" "$WORK/die.wythoff.stream.h5"; do
    CHECKS=$((CHECKS + 1))
    $PY - "$f" <<'PY' || fail "$(basename "$f"): the P-positions are not Wythoff's pairs"
import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
pn = f["pn"][...]
n = pn.shape[0]
want = set()
for k in range(n):
    a = (k + math.isqrt(5 * k * k)) // 2
    if a + k < n:
        want |= {(a, a + k), (a + k, a)}
got = {(int(x), int(y)) for x, y in zip(*np.nonzero(pn == 0))}
ok = got == want
if "p_positions" in f:
    ok = ok and {(int(x), int(y)) for x, y in f["p_positions"][...]} == want
sys.exit(0 if ok and len(want) > 0 else 1)
PY
done

finish
