#!/usr/bin/env bash
# test_mpi_resume.sh - checkpoints and --resume of the two-pile tile kernel
# across MPI ranks (issue 21, items 3 and 4): Wythoff's Grundy table, in
# memory and --stream, stopped after a checkpoint in three ways:
#   - SIGTERM to every rank (as SLURM's scancel does): rank 0 writes a final
#     checkpoint, says so and ends every rank (no hang: every run is under
#     `timeout`);
#   - SIGTERM to mpirun: OpenMPI 4.1 sends SIGTERM to the ranks a second
#     later and SIGKILL a second after that (odls_base_sigkill_timeout = 1),
#     so rank 0 may or may not reach its final checkpoint: the job ends
#     non-zero and a checkpoint (the final or an earlier one) is intact;
#   - a rank that dies (test hook NS_DIST_TEST_DIE_AFTER_TILES: rank 1
#     raises SIGKILL after sending N tiles): the job ends non-zero, mpirun
#     naming the rank, and the last checkpoint is intact;
# then resumed under 1 (no mpirun), 2, 3 and 4 ranks: each result is the
# uninterrupted single-process file, value for value (h5py via h5same.py),
# and Wythoff's P-positions are Wythoff's pairs (closed form, exact integers).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

wythoff_p() { # FILE: the P-positions of FILE's /grundy are Wythoff's pairs
    $PY - "$1" <<'PY'
import sys, math, h5py, numpy as np
g = h5py.File(sys.argv[1], "r")["grundy"][...]
n = g.shape[0]
want = np.zeros((n, n), bool)
for k in range(n):
    a = (k + math.isqrt(5 * k * k)) // 2  # floor(k phi)
    if a + k < n:
        want[a, a + k] = want[a + k, a] = True
sys.exit(0 if np.array_equal(g == 0, want) else 1)
PY
}

# stop_term HOW R SIZE OUTFILE ARGS...: R ranks, SIGTERM once the first
# checkpoint exists, to mpirun (HOW = mpirun) or to every rank (ranks)
stop_term() {
    local how=$1 r=$2 n=$3 f=$4
    shift 4
    LAST="mpirun -np $r solve wythoff --size $n -o $f $* (SIGTERM to $how after the first checkpoint)"
    timeout -k 5 "$MPI_TIMEOUT" "$MPIEXEC" --oversubscribe -np "$r" "$NS" solve wythoff --size "$n" -q -o "$f" \
        --checkpoint-every 0.01 "$@" >"$OUT" 2>"$ERR" &
    local t=$! i mp
    for i in $(seq 600); do
        [ -e "$f.ckpt" ] && break
        kill -0 "$t" 2>/dev/null || break
        sleep 0.02
    done
    mp=$(pgrep -P "$t" | head -1)
    if [ -n "$mp" ] && [ "$how" = mpirun ]; then
        kill -TERM "$mp"
    elif [ -n "$mp" ]; then
        kill -TERM $(pgrep -P "$mp")
    fi
    wait "$t"
    RC=$?
}

for mode in memory stream; do
    extra=(--no-stream)  # across ranks owned sets stream by default
    [ "$mode" = stream ] && extra=(--stream)
    for n in 4096 8192; do
        ref="$WORK/ref.$mode.$n.h5"
        rm -f "$ref"
        run "$REF_NS" solve wythoff --size "$n" "${extra[@]}" -q -o "$ref"
        [ "$RC" -eq 0 ] || { fail "reference $mode $n: exit $RC"; show; }
    done
    CHECKS=$((CHECKS + 1))
    wythoff_p "$WORK/ref.$mode.4096.h5" || fail "$mode: the reference's P-positions are not Wythoff's pairs"

    # SIGTERM (3 ranks in memory, to the ranks; 2 streamed, to mpirun)
    r=3 how=ranks
    [ "$mode" = stream ] && r=2 how=mpirun
    f="$WORK/term.$mode.h5"
    rm -f "$f" "$f.ckpt" "$f.part"
    stop_term "$how" "$r" 8192 "$f" "${extra[@]}"
    CHECKS=$((CHECKS + 1))
    if [ "$how" = mpirun ] && [ "$RC" -ne 124 ] && [ -e "$f" ] && $PY "$SAME" "$WORK/ref.$mode.8192.h5" "$f" --skip "$SKIP" >/dev/null 2>&1; then
        # mpirun passes SIGTERM on only after about a second: on a busy
        # machine the job may finish first; its file must then be the
        # reference (checked), and there is nothing to resume
        echo "note: $mode: the job finished before mpirun passed SIGTERM on (exit $RC); its file is the reference"
    elif [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
        fail "$mode: SIGTERM to $how at $r ranks: expected a non-zero exit (not a timeout), no $f and a checkpoint (exit $RC)"
        show
    elif [ "$how" = ranks ] && ! grep -q "rank 0 of $r: stopped by SIGTERM.*checkpoint .* holds [0-9]* of [0-9]* units" "$ERR"; then
        fail "$mode: SIGTERM to the ranks at $r ranks: expected rank 0's message about its final checkpoint"
        show
    else
        if [ "$mode" = memory ]; then
            resume_all "$mode" "$f" "$WORK/ref.$mode.8192.h5" "1 2 4" -- wythoff --size 8192 "${extra[@]}"
        else
            resume_all "$mode" "$f" "$WORK/ref.$mode.8192.h5" "3" -- wythoff --size 8192 "${extra[@]}"
        fi
    fi

    # rank 1 dies (SIGKILL) mid-run: the job ends, the last checkpoint resumes
    r=2
    [ "$mode" = stream ] && r=3
    f="$WORK/die.$mode.h5"
    rm -f "$f" "$f.ckpt" "$f.part"
    NS_DIST_TEST_DIE_AFTER_TILES=120 mpi "$r" "$NS" solve wythoff --size 4096 "${extra[@]}" -q -o "$f" \
        --checkpoint-every 0.01
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
        fail "$mode: rank 1 killed at $r ranks: expected a non-zero exit (not a timeout), no $f and a checkpoint (exit $RC)"
        show
    elif ! grep -q "rank 1 .*signal 9" "$ERR"; then
        fail "$mode: rank 1 killed at $r ranks: expected a message naming rank 1 and its signal"
        show
    else
        if [ "$mode" = memory ]; then
            resume_all "$mode" "$f" "$WORK/ref.$mode.4096.h5" "3" -- wythoff --size 4096 "${extra[@]}"
        else
            resume_all "$mode" "$f" "$WORK/ref.$mode.4096.h5" "1 2 4" -- wythoff --size 4096 "${extra[@]}"
            CHECKS=$((CHECKS + 1))
            wythoff_p "$f" || fail "$mode: resumed at 4 ranks: the P-positions are not Wythoff's pairs"
        fi
    fi
done
finish
