#!/bin/bash
# Checkpoints and --resume of loopy games (issue 18, item 6; engine retro).
# A loopy rule file with draws (tests/rules/loopy/take_grow.rules, 2000+
# frontiers of remoteness at this size) is solved once without interruption
# (the reference). Then a solve with checkpoints is stopped by SIGTERM
# after its first checkpoint: exit 143, a final checkpoint between two
# frontiers, the command that continues. The checkpoint is resumed at 1
# and at 3 threads; both files must equal the reference in every dataset
# (/pn, /remoteness, /p_positions: type, shape, values) and every root
# attribute but timing, date and thread count (h5py). A kill inside a
# checkpoint write (NS_TEST_CKPT_DELAY holds it between the temporary file
# and the rename) leaves the previous checkpoint byte for byte, and that
# resumes to the same table. A checkpoint is never resumed for another
# solve (bounds, rule text, play), nor ignored (no --resume), nor trusted
# when damaged. The independent check of the tables themselves (a naive
# fixed-point solver, every stop point) is tests/unit/test_retro_ckpt.c.
# Usage: bash test_loopy_resume.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5 "$WORK"/*.ckpt* "$WORK"/*.rules
cd "$WORK" || exit 1
PY=/usr/bin/python3
TG="$SRC/tests/rules/loopy/take_grow.rules"
# (remoteness reaches N + 3; under ASan N = 1024, a third of the time)
N=1536
[ "$SANITIZED" = 1 ] && N=1024
game=("$TG" --size $N)

# same_files A B: every dataset and every root attribute but wall_seconds,
# created_utc and threads equal
same_files() {
    CHECKS=$((CHECKS + 1))
    "$PY" "$SRC/tests/cli/h5same.py" "$1" "$2" || fail "$2 differs from $1"
}

# wait_for FILE PID: until FILE exists or PID ends (at most 20 s)
wait_for() {
    for _ in $(seq 1 4000); do
        [ -e "$1" ] && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.005
    done
    return 1
}

# the reference, uninterrupted; draws, P and N in it and a long game
expect_ok "$NS" solve "${game[@]}" --threads 2 -q -o ref.h5
CHECKS=$((CHECKS + 1))
"$PY" - ref.h5 <<'PYEOF' || fail "ref.h5: expected P, N and draws and remoteness above 1000"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
pn, r = f["pn"][...], f["remoteness"][...]
none = f["remoteness"].attrs["none_value"]
sys.exit(0 if (pn == 0).any() and (pn == 1).any() and (pn == 3).any() and r[r != none].max() > 1000 else 1)
PYEOF

# the plan line promises nothing about checkpoints it does not keep
expect_ok "$NS" solve "$TG" --size 16 -o small.h5
expect_no_out "no checkpoints|cannot resume"
expect_out "^solving .* on 16 x 16 \(256 cells\): table .*, 2 threads$"

# SIGTERM after the first checkpoint: a final one, the command, exit 143
"$NS" solve "${game[@]}" --threads 2 --checkpoint-every 0.001 -o run.h5 >term.out 2>term.err &
pid=$!
wait_for run.h5.ckpt "$pid"
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$rc" -eq 0 ]; then
    # the frontiers ran out before the signal came (a busy machine: one
    # checkpoint, the signal in the values after the last frontier): stop
    # again, after frontier 5 by the test hook NS_SOLVE_TEST_TERM_AT (the
    # same SIGTERM, raised by the solve itself)
    echo "note: the solve finished before SIGTERM came; stopping it after frontier 5 instead"
    rm -f run.h5
    NS_SOLVE_TEST_TERM_AT=5 "$NS" solve "${game[@]}" --threads 2 --checkpoint-every 0.001 -o run.h5 >term.out 2>term.err
    rc=$?
fi
CHECKS=$((CHECKS + 1))
if [ "$rc" -ne 143 ]; then
    fail "SIGTERM: exit $rc, expected 143 (the solve should stop between frontiers)"
    cat term.out term.err
fi
CHECKS=$((CHECKS + 1))
grep -Eq '^nimsieve solve: stopped by SIGTERM after [0-9.]+ s; checkpoint run.h5.ckpt holds [0-9]+ frontiers? \(every position of remoteness <= [0-9]+ decided\); continue with: nimsieve solve .*take_grow.rules .*--resume$' term.err ||
    { fail "SIGTERM: expected the frontiers held and the command that continues"; cat term.err; }
CHECKS=$((CHECKS + 1))
[ -e run.h5 ] && fail "SIGTERM: run.h5 exists though the solve stopped"
# what the checkpoint holds: the cells decided so far (remoteness <= the
# frontiers done, and all of them), the rest marked undecided
CHECKS=$((CHECKS + 1))
"$PY" - run.h5.ckpt ref.h5 <<'PYEOF' || fail "run.h5.ckpt does not hold the state after its frontiers"
import sys, h5py, numpy as np
c, f = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
u = int(c.attrs["checkpoint_units_done"])
assert c.attrs["checkpoint_kernel"] in ("retro", b"retro") and int(c.attrs["checkpoint_loopy"]) == 1
t, r = c["checkpoint_table"][...], c["checkpoint_remoteness"][...].astype(np.int64)
pn, rr = f["pn"][...], f["remoteness"][...].astype(np.int64)
none = int(f["remoteness"].attrs["none_value"])
decided = (pn != 3) & (rr != none) & (rr <= u)
ok = 0 < u < rr[rr != none].max()
ok = ok and np.array_equal(t[decided], pn[decided]) and np.array_equal(r[decided], rr[decided])
ok = ok and (t[~decided] == 2).all() and (r[~decided] == 2**32 - 1).all()
print("checkpoint after %d frontiers, %d cells decided" % (u, decided.sum()))
sys.exit(0 if ok else 1)
PYEOF
cp run.h5.ckpt saved.ckpt

# a checkpoint is not ignored, nor resumed for another solve (-q: the refusal
# is the only output)
expect_error 2 solve "checkpoint 'run.h5.ckpt' of an unfinished solve exists: add --resume" \
    "$NS" solve "${game[@]}" -o run.h5
expect_error 2 solve "run.h5.ckpt is a checkpoint of another solve \(the bounds differs\)" \
    "$NS" solve "$TG" --size $((N - 1)) --resume -q -o run.h5
expect_error 2 solve "run.h5.ckpt is a checkpoint of another solve \(the play convention \(--misere\) differs\)" \
    "$NS" solve "${game[@]}" --misere --resume -q -o run.h5
cp "$TG" other.rules
echo 'move x -> x - 1                    where x == 1' >>other.rules
expect_error 2 solve "run.h5.ckpt is a checkpoint of another solve \(the rule file's text differs\)" \
    "$NS" solve ./other.rules --size $N --resume -q -o run.h5
CHECKS=$((CHECKS + 1))
cmp -s run.h5.ckpt saved.ckpt || fail "a refused resume changed the checkpoint"

# resumed at 1 thread (it was stopped at 2): the uninterrupted table
expect_ok "$NS" solve "${game[@]}" --threads 1 --resume -o run.h5
expect_out "^resuming from run.h5.ckpt: [0-9]+ frontiers? done, every position of remoteness <= [0-9]+ decided"
same_files ref.h5 run.h5
CHECKS=$((CHECKS + 1))
[ -e run.h5.ckpt ] && fail "the checkpoint was not removed after the solve finished"

# the same checkpoint resumed at 3 threads
cp saved.ckpt run3.h5.ckpt
expect_ok "$NS" solve "${game[@]}" --threads 3 --resume -q -o run3.h5
same_files ref.h5 run3.h5

# a kill inside a checkpoint write leaves the previous checkpoint as it was
cp saved.ckpt mid.h5.ckpt
NS_TEST_CKPT_DELAY=30 "$NS" solve "${game[@]}" --threads 2 --checkpoint-every 0.001 --resume -o mid.h5 \
    >mid.out 2>&1 &
pid=$!
CHECKS=$((CHECKS + 1))
wait_for mid.h5.ckpt.tmp "$pid" || { fail "no checkpoint write to kill"; cat mid.out; }
kill -KILL "$pid" 2>/dev/null
wait "$pid"
CHECKS=$((CHECKS + 1))
cmp -s mid.h5.ckpt saved.ckpt || fail "the kill inside a checkpoint write changed the previous checkpoint"
expect_ok "$NS" solve "${game[@]}" --threads 2 --resume -q -o mid.h5
same_files ref.h5 mid.h5
CHECKS=$((CHECKS + 1))
[ -e mid.h5.ckpt.tmp ] && fail "the killed write's temporary file was not removed"

# a damaged checkpoint: one line, exit 2, nothing written
size=$(stat -c %s saved.ckpt)
head -c $((size / 2)) saved.ckpt >dmg.h5.ckpt
expect_error 2 solve "dmg.h5.ckpt" "$NS" solve "${game[@]}" --resume -q -o dmg.h5
CHECKS=$((CHECKS + 1))
[ -e dmg.h5 ] && fail "a damaged checkpoint gave dmg.h5"
finish
