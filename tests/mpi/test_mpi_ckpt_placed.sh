#!/usr/bin/env bash
# test_mpi_ckpt_placed.sh - the general engine's checkpoints written by
# every rank (issue 21, item 3: "checkpoints per rank into one checkpoint
# file"). After each level every rank holds the whole table; rank 0 decides
# when a checkpoint is due (or a stop), every rank hears it, and each
# writes its share of the chunks of /checkpoint_table into rank 0's
# OUT.h5.ckpt.tmp at the places rank 0 gives (chunk c to rank c mod R;
# ns_h5_ckpt_write_placed), which rank 0 then syncs and renames.
#
# Three-pile Nim 192^3 (its checkpoint table: 14 MB, four chunks, so that
# every rank of 2 and 3 has one), stopped at level 250 by SIGTERM (test hook
# NS_SOLVE_TEST_TERM_AT) with a checkpoint at every level:
#   - under 2 and 3 ranks the checkpoint is the single process's chunk for
#     chunk, byte for byte (h5py: h5same.py), and its finished levels hold
#     Bouton's a ^ b ^ c (levels a + b + c < 250), in exact integers;
#   - the summary of a finished run under 2 ranks says every rank wrote its
#     share, more than no bytes by rank 1, and the file is one process's;
#     with --mpi-write rank0 rank 0 writes the checkpoints alone (no such
#     words);
#   - a rank whose write fails in a checkpoint (NS_H5_PLACED_TEST_FAIL=1:1):
#     exit non-zero (not a hang), the failing rank's line naming it, rank 0's
#     line saying the previous checkpoint is intact, no .tmp left, the
#     checkpoint still at its level; resumed under 3 ranks it gives the
#     single process's file (h5same.py);
#   - rank 1 of 3 killed at its first chunk of a checkpoint
#     (NS_H5_PLACED_TEST_FAIL=1:0:die): the job ends, mpirun naming rank 1
#     and signal 9, the previous checkpoint holds its level, and resumed
#     under 2 ranks it gives the single process's file, no .tmp left;
#   - a rank that cannot open the .tmp (NS_TEST_PLACE_REFUSE=1): it says so
#     on stderr, rank 0 writes the checkpoints alone, the file is the same.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

game=(nim -D piles=3 --size 192)
stop=250
every=(--checkpoint-every 0.000001)
CKSKIP="checkpoint_seconds,git_revision"

bouton_ckpt() { # CKPT LEVELS: cells a + b + c < LEVELS of /checkpoint_table are a ^ b ^ c
    $PY - "$@" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
t = f["checkpoint_table"][...].astype(np.int64)
lv = int(sys.argv[2])
a, b, c = np.indices(t.shape)
done = a + b + c < lv
if int(f.attrs["checkpoint_units_done"]) != lv:
    sys.exit(f"checkpoint_units_done {f.attrs['checkpoint_units_done']}, expected {lv}")
if not np.array_equal(t[done], (a ^ b ^ c)[done]):
    sys.exit(f"{int((t[done] != (a ^ b ^ c)[done]).sum())} finished cells are not a ^ b ^ c")
PY
}

resumed_same() { # LABEL R FILE: resumed under R ranks to the end, the reference's file, no checkpoint or .tmp left
    mpi "$2" "$NS" solve "${game[@]}" -q -o "$3" "${every[@]}" --resume
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 0 ] || [ -e "$3.ckpt" ] || [ -e "$3.ckpt.tmp" ]; then
        fail "resumed $1 under $2 ranks: exit $RC, or a checkpoint or .tmp left"
        show
    elif ! $PY "$SAME" "$ref" "$3" --skip "$SKIP" >"$WORK/same.txt" 2>&1; then
        fail "resumed $1 under $2 ranks: the file differs"
        cat "$WORK/same.txt" >&2
    fi
}

units_done() { # CKPT: its checkpoint_units_done
    $PY -c 'import sys, h5py; print(int(h5py.File(sys.argv[1], "r").attrs["checkpoint_units_done"]))' "$1"
}

# the references: one process's checkpoint at the stop level and its file
ref="$WORK/ref.h5" one="$WORK/one.h5"
rm -f "$ref" "$one" "$one.ckpt"
run "$REF_NS" solve "${game[@]}" -q -o "$ref"
[ "$RC" -eq 0 ] || { fail "reference: exit $RC"; show; }
NS_SOLVE_TEST_TERM_AT=$stop run timeout 120 "$REF_NS" solve "${game[@]}" -q -o "$one" "${every[@]}"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 143 ] && [ -e "$one.ckpt" ] || { fail "one process stopped at level $stop: exit $RC"; show; }

for r in 2 3; do
    f="$WORK/r$r.h5"
    rm -f "$f" "$f.ckpt" "$f.ckpt.tmp"
    NS_SOLVE_TEST_TERM_AT=$stop mpi "$r" "$NS" solve "${game[@]}" -q -o "$f" "${every[@]}"
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 143 ] || [ ! -e "$f.ckpt" ] || [ -e "$f.ckpt.tmp" ]; then
        fail "$r ranks stopped at level $stop: expected exit 143, a checkpoint and no .tmp (exit $RC)"
        show
        continue
    fi
    CHECKS=$((CHECKS + 1))
    $PY "$SAME" "$one.ckpt" "$f.ckpt" --skip "$CKSKIP" >"$WORK/same.txt" 2>&1 ||
        { fail "$r ranks: the checkpoint differs from one process's"; cat "$WORK/same.txt" >&2; }
    CHECKS=$((CHECKS + 1))
    bouton_ckpt "$f.ckpt" "$stop" || fail "$r ranks: the checkpoint's finished levels are not Bouton's"
done

# a whole run with checkpoints: the summary says who wrote them
for r in 2; do
    f="$WORK/full$r.h5"
    rm -f "$f" "$f.ckpt"
    mpi "$r" "$NS" solve "${game[@]}" -o "$f" "${every[@]}"
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 0 ] || [ -e "$f.ckpt" ]; then
        fail "$r ranks with checkpoints: exit $RC, or the checkpoint left"
        show
        continue
    fi
    line=$(grep '^checkpoints:' "$OUT")
    others=$(sed -n 's/.* bytes of chunks, \([0-9]*\) by the ranks but 0.*/\1/p' <<<"$line")
    CHECKS=$((CHECKS + 1))
    if [ -z "$others" ] || [ "$others" -eq 0 ]; then
        fail "$r ranks: expected the checkpoints line to say the ranks but 0 wrote chunks: '$line'"
        show
    fi
    CHECKS=$((CHECKS + 1))
    $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/same.txt" 2>&1 ||
        { fail "$r ranks with checkpoints: the file differs"; cat "$WORK/same.txt" >&2; }
done
f="$WORK/rank0.h5"
rm -f "$f" "$f.ckpt"
mpi 2 "$NS" solve "${game[@]}" -o "$f" "${every[@]}" --mpi-write rank0
CHECKS=$((CHECKS + 1))
if [ "$RC" -ne 0 ] || ! grep -q '^checkpoints:   [1-9]' "$OUT" || grep -q 'every rank wrote' "$OUT"; then
    fail "--mpi-write rank0: expected checkpoints written by rank 0 alone"
    show
fi

# a rank whose write fails in a checkpoint: the previous one stays
f="$WORK/fail.h5"
rm -f "$f" "$f.ckpt" "$f.ckpt.tmp"
NS_SOLVE_TEST_TERM_AT=100 mpi 2 "$NS" solve "${game[@]}" -q -o "$f" "${every[@]}"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 143 ] && [ -e "$f.ckpt" ] || { fail "stop at level 100: exit $RC"; show; }
NS_H5_PLACED_TEST_FAIL=1:1 mpi 2 "$NS" solve "${game[@]}" -q -o "$f" "${every[@]}" --resume
CHECKS=$((CHECKS + 1))
if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ -e "$f" ] || [ -e "$f.ckpt.tmp" ] || [ ! -e "$f.ckpt" ]; then
    fail "a failing rank in a checkpoint: expected a non-zero exit (no timeout), no file, no .tmp, the checkpoint (exit $RC)"
    show
elif ! grep -q "rank 1 of 2: .*cannot write a chunk" "$ERR" ||
     ! grep -q "rank 0 of 2: .*rank 1 failed to write its chunks.*previous checkpoint is intact" "$ERR"; then
    fail "a failing rank in a checkpoint: expected its line and rank 0's"
    show
fi
CHECKS=$((CHECKS + 1))
[ "$(units_done "$f.ckpt")" = 100 ] || fail "a failing rank in a checkpoint: the previous one no longer holds 100 levels"
resumed_same "after the failed checkpoint" 3 "$f"

# a rank killed in the middle of a checkpoint's write (at its first
# chunk): the job ends, mpirun naming it; the previous checkpoint holds
f="$WORK/die.h5"
rm -f "$f" "$f.ckpt" "$f.ckpt.tmp"
NS_SOLVE_TEST_TERM_AT=120 mpi 3 "$NS" solve "${game[@]}" -q -o "$f" "${every[@]}"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 143 ] && [ -e "$f.ckpt" ] || { fail "stop at level 120: exit $RC"; show; }
NS_H5_PLACED_TEST_FAIL=1:0:die mpi 3 "$NS" solve "${game[@]}" -q -o "$f" "${every[@]}" --resume
CHECKS=$((CHECKS + 1))
if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
    fail "a rank killed in a checkpoint: expected a non-zero exit (no timeout), no file, the checkpoint (exit $RC)"
    show
elif ! grep -q "rank 1 .*signal 9" "$ERR"; then
    fail "a rank killed in a checkpoint: expected mpirun's message naming rank 1 and its signal"
    show
fi
CHECKS=$((CHECKS + 1))
[ "$(units_done "$f.ckpt")" = 120 ] || fail "a rank killed in a checkpoint: the previous one no longer holds 120 levels"
resumed_same "after the killed rank" 2 "$f"

# a rank that cannot open the .tmp: rank 0 writes the checkpoints alone
f="$WORK/refuse.h5"
rm -f "$f" "$f.ckpt"
NS_TEST_PLACE_REFUSE=1 mpi 2 "$NS" solve "${game[@]}" -o "$f" "${every[@]}"
CHECKS=$((CHECKS + 1))
if [ "$RC" -ne 0 ] || ! grep -q "rank 1: .*ckpt.tmp: .*rank 0 writes the checkpoints alone" "$ERR" ||
   ! grep -q "^checkpoints: .*rank 0 wrote them alone" "$OUT"; then
    fail "a rank that cannot open the checkpoint's .tmp: expected its line and rank 0 writing alone"
    show
elif ! $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/same.txt" 2>&1; then
    fail "a rank that cannot open the checkpoint's .tmp: the file differs"
    cat "$WORK/same.txt" >&2
fi

finish
