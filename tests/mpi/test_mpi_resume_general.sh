#!/usr/bin/env bash
# test_mpi_resume_general.sh - checkpoints and --resume of the general engine
# (level sieve) across MPI ranks (issue 21, items 3 and 4). Three-pile Nim
# (60 x 50 x 40), Moore's Nim_2 on three piles (running sets of two levels;
# 30 x 28 x 26) and 2-Wythoff (400 x 400), Grundy values:
#   - 2 ranks with a checkpoint whenever one is due, resumed from a
#     checkpoint part of the way, rank 1 killed (test hook
#     NS_DIST_TEST_DIE_AFTER_LEVELS=N: SIGKILL after its N-th level
#     exchange): the job ends non-zero, mpirun naming rank 1, no file, a
#     later checkpoint intact; resumed under 1 process (no mpirun), 2 and 3
#     ranks: each gives the uninterrupted single-process file, value for
#     value (h5same.py), and the checkpoint is gone;
#   - stopped at a known level by SIGTERM (test hook NS_SOLVE_TEST_TERM_AT:
#     the solve raises it once so many levels are done; across ranks rank 0
#     does, writes its final checkpoint and ends every rank): exit 143, the
#     checkpoint holds that many levels; one process's resumed under 2 and
#     3 ranks, 3 ranks' under 2: the same;
#   - SIGTERM to every rank (as SLURM's scancel does) once the first
#     checkpoint exists: rank 0 writes a final checkpoint at the next level,
#     says so, every rank ends; resumed under 2 ranks: the same;
#   - three-pile Nim's resumed values are a ^ b ^ c (Bouton).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

games=("nim -D piles=3 --bounds 60,50,40" "moore -D piles=3 -D k=2 --bounds 30,28,26" "a-wythoff -D a=2 --size 400")
names=(nim moore awythoff)
dies=(10 8 60)      # level exchanges after the resume before rank 1 dies
stops=(70 50 500)   # levels done at the SIGTERM (of 148, 82 and 799)
for gi in 0 1 2; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]} stop=${stops[$gi]}
    label=$nm
    ref="$WORK/$nm.ref.h5"
    rm -f "$ref"
    run "$REF_NS" solve "${game[@]}" -q -o "$ref"
    [ "$RC" -eq 0 ] || { fail "reference $label: exit $RC"; show; continue; }

    # rank 1 of 2 dies mid-run, in a run resumed from a checkpoint of half
    # the stop level (checkpoints are written at most every 20 times the
    # time one takes: the first after the resume is due at once, so the
    # last one holds more); it resumes under 1, 2, 3
    f="$WORK/die.$nm.h5" half=$((stop / 2))
    rm -f "$f" "$f.ckpt"
    NS_SOLVE_TEST_TERM_AT=$half mpi 2 "$NS" solve "${game[@]}" -q -o "$f" --checkpoint-every 0.000001
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 143 ] && [ -e "$f.ckpt" ] || { fail "$label: SIGTERM at level $half under 2 ranks: exit $RC"; show; }
    NS_DIST_TEST_DIE_AFTER_LEVELS=${dies[$gi]} mpi 2 "$NS" solve "${game[@]}" -q -o "$f" --checkpoint-every 0.000001 \
        --resume
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
        fail "$label: rank 1 killed at 2 ranks: expected a non-zero exit (not a timeout), no file and a checkpoint (exit $RC)"
        show
    elif ! grep -q "rank 1 .*signal 9" "$ERR"; then
        fail "$label: rank 1 killed at 2 ranks: expected a message naming rank 1 and its signal"
        show
    else
        MIN_UNITS=$((half + 1))
        resume_all "$label (2 ranks' checkpoint)" "$f" "$ref" "1 2 3" -- "${game[@]}"
        MIN_UNITS=1
    fi

    # stopped at a known level: one process's checkpoint resumed under 2
    # and 3 ranks, 3 ranks' under 2
    for r in 1 3; do
        f="$WORK/term$r.$nm.h5"
        rm -f "$f" "$f.ckpt"
        if [ "$r" -eq 1 ]; then
            NS_SOLVE_TEST_TERM_AT=$stop run timeout 60 "$NS" solve "${game[@]}" -q -o "$f" --checkpoint-every 0.000001
        else
            NS_SOLVE_TEST_TERM_AT=$stop mpi "$r" "$NS" solve "${game[@]}" -q -o "$f" --checkpoint-every 0.000001
        fi
        CHECKS=$((CHECKS + 1))
        if [ "$RC" -ne 143 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
            fail "$label: SIGTERM at level $stop under $r ranks: expected exit 143, no file and a checkpoint (exit $RC)"
            show
        elif ! grep -q "stopped by SIGTERM.*checkpoint .* holds $stop of [0-9]* units" "$ERR"; then
            fail "$label: SIGTERM at level $stop under $r ranks: expected the final checkpoint of $stop levels"
            show
        elif [ "$r" -eq 1 ]; then
            resume_all "$label (one process's checkpoint)" "$f" "$ref" "2 3" -- "${game[@]}"
        else
            resume_all "$label (3 ranks' checkpoint)" "$f" "$ref" "2" -- "${game[@]}"
        fi
    done
done

# SIGTERM to every rank once the first checkpoint exists (a solve of a few
# seconds: 2-Wythoff 1500 x 1500 at 3 ranks)
game=(a-wythoff -D a=2 --size 1500)
ref="$WORK/big.ref.h5" f="$WORK/big.h5"
rm -f "$ref" "$f" "$f.ckpt"
run "$REF_NS" solve "${game[@]}" -q -o "$ref"
[ "$RC" -eq 0 ] || { fail "reference 2-Wythoff 1500: exit $RC"; show; }
LAST="mpirun -np 3 solve ${game[*]} -o $f (SIGTERM to the ranks after the first checkpoint)"
timeout -k 5 "$MPI_TIMEOUT" "$MPIEXEC" --oversubscribe -np 3 "$NS" solve "${game[@]}" -q -o "$f" \
    --checkpoint-every 0.000001 >"$OUT" 2>"$ERR" &
t=$!
for i in $(seq 1000); do
    [ -e "$f.ckpt" ] && break
    kill -0 "$t" 2>/dev/null || break
    sleep 0.01
done
mp=$(pgrep -P "$t" | head -1)
[ -n "$mp" ] && kill -TERM $(pgrep -P "$mp")
wait "$t"
RC=$?
CHECKS=$((CHECKS + 1))
if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
    fail "SIGTERM to the ranks at 3 ranks: expected a non-zero exit (not a timeout), no $f and a checkpoint (exit $RC)"
    show
elif ! grep -q "rank 0 of 3: stopped by SIGTERM.*checkpoint .* holds [0-9]* of [0-9]* units" "$ERR"; then
    fail "SIGTERM to the ranks at 3 ranks: expected rank 0's message about its final checkpoint"
    show
else
    resume_all "2-Wythoff 1500 (SIGTERM to 3 ranks)" "$f" "$ref" "2" -- "${game[@]}"
fi

# Bouton: three-pile Nim's Grundy value is a ^ b ^ c, on a file resumed
# under 3 ranks
CHECKS=$((CHECKS + 1))
$PY - "$WORK/die.nim.h5" <<'PY' || fail "die.nim.h5 (resumed under 3 ranks): the values are not a ^ b ^ c"
import sys, h5py, numpy as np
g = h5py.File(sys.argv[1], "r")["grundy"][...]
a, b, c = np.indices(g.shape)
sys.exit(0 if g.shape == (60, 50, 40) and np.array_equal(g, a ^ b ^ c) else 1)
PY

finish
