#!/bin/bash
# test_checkpoint.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Checkpoint and resume (issue 7). For one game per kernel (general engine,
# two-pile Grundy tiles, two-pile P/N rows): an uninterrupted solve gives the
# reference; then solves with frequent checkpoints are killed with SIGKILL at
# random moments (seeded, spread over the reference's run time) and resumed
# with --resume until one finishes; the finished file's datasets must equal
# the reference's. Also: SIGTERM writes a final checkpoint, says how to
# resume and exits 143; a checkpoint is never silently reused or ignored
# (mismatched game, no --resume, damaged file); --force starts over.
set -u
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"
RANDOM=20261122

# same_tables A B: every dataset of A equals B's (values, shape, type)
same_tables() {
    "$py" - "$1" "$2" <<'EOF'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
ok = sorted(a.keys()) == sorted(b.keys())
for k in a.keys():
    if k in b and not (a[k].dtype == b[k].dtype and a[k].shape == b[k].shape
                       and np.array_equal(a[k][...], b[k][...])):
        ok = False
        print("dataset %s differs" % k)
sys.exit(0 if ok else 1)
EOF
}

now_ms() { date +%s%3N; }

# kill_resume NAME ARGS...: reference, then killed runs resumed to the end
kill_resume() {
    local name=$1
    shift
    local t0 t1 ms
    t0=$(now_ms)
    if ! "$nimsieve" solve "$@" -q -o "$name-ref.h5"; then
        fail "$name: the reference solve failed"
        return
    fi
    t1=$(now_ms)
    ms=$((t1 - t0))
    [ "$ms" -lt 50 ] && ms=50
    local resumed=0 done=0 attempt
    for attempt in 1 2 3 4 5 6 7 8; do
        # kill at a random moment after the run has written a new checkpoint
        # (up to 60% of the reference's run time later), so each kill costs
        # some progress and each resume has something to resume from
        local before after at
        before=$(stat -c %i.%Y "$name.h5.ckpt" 2>/dev/null || echo none)
        "$nimsieve" solve "$@" -o "$name.h5" --checkpoint-every 0.001 --resume >"$name.out.$attempt" 2>&1 &
        local pid=$!
        for _ in $(seq 1 2000); do
            after=$(stat -c %i.%Y "$name.h5.ckpt" 2>/dev/null || echo none)
            [ "$after" != "$before" ] && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.005
        done
        at=$((ms * (RANDOM % 61) / 100))
        # the first kill lands as soon as the first checkpoint is seen, so
        # that a later attempt has one to resume from even when the solve
        # is fast enough to finish within a random delay
        [ "$attempt" -eq 1 ] && at=0
        sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
        kill -KILL "$pid" 2>/dev/null
        wait "$pid"
        local rc=$?
        grep -q '^resuming from' "$name.out.$attempt" && resumed=$((resumed + 1))
        if [ "$rc" -eq 0 ]; then
            done=1
            break
        fi
        if [ "$rc" -ne 137 ]; then
            fail "$name: attempt $attempt exited $rc, expected 0 or 137 (SIGKILL)"
            cat "$name.out.$attempt"
            return
        fi
        if [ -e "$name.h5" ]; then
            # killed after the rename: the table is complete (only the
            # checkpoint's removal was cut off)
            rm -f "$name.h5.ckpt"
            done=1
            break
        fi
    done
    if [ "$done" -eq 0 ]; then
        if ! "$nimsieve" solve "$@" -o "$name.h5" --resume >"$name.out.last" 2>&1; then
            fail "$name: the final --resume failed"
            cat "$name.out.last"
            return
        fi
        grep -q '^resuming from' "$name.out.last" && resumed=$((resumed + 1))
    fi
    if [ "$resumed" -eq 0 ] && [ "$name" != rows-pn ]; then
        fail "$name: no run resumed from a checkpoint (kills came before the first one?)"
    fi
    same_tables "$name-ref.h5" "$name.h5" || fail "$name: the resumed table differs from the uninterrupted one"
    [ -e "$name.h5.ckpt" ] && fail "$name: the checkpoint was not removed after the solve finished"
    echo "$name: killed and resumed ($resumed resumes), identical to the uninterrupted solve"
}

# (the general rule file is O(N^3): 600 takes 3.4 s, 12 s under ASan, 450
# 5 s there; the SIGTERM checks below solve the same table and compare with
# this reference)
gn=600
[ "$sanitized" = 1 ] && gn=450
kill_resume general "$src/tests/cli/fib-general.rules" --size $gn
kill_resume tiles2d wythoff --size 6000
# a heap game's sequence: its values pass 255 early, so the table is
# widened to 2 bytes a value and its checkpoints hold 2-byte cells
kill_resume sequence octal -D code=0.6666666666666666 --size 12000
# (the two-pile P/N kernel finishes Wythoff 8192^2 in milliseconds, so kills
# land in the final write; tests/unit/test_rows_pn_ckpt.c resumes it at every
# unit instead)
kill_resume rows-pn wythoff --size 8000 --pn-only

# SIGTERM: a final checkpoint, the command to resume, exit 143 (the general
# rule file above, whose uninterrupted table is general-ref.h5)
n=$gn
game=("$src/tests/cli/fib-general.rules" --size $n)
"$nimsieve" solve "${game[@]}" -o term.h5 --checkpoint-every 1000 >term.out 2>&1 &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 0 ]; then
    echo "note: the SIGTERM solve finished before the signal; SIGTERM not checked"
else
    [ "$rc" -eq 143 ] || fail "SIGTERM: exit $rc, expected 143"
    grep -q 'stopped by SIGTERM.*continue with: nimsieve solve .*--resume' term.out ||
        { fail "SIGTERM: no resume command in the message"; cat term.out; }
    [ -e term.h5.ckpt ] || fail "SIGTERM: no checkpoint term.h5.ckpt"
    [ -e term.h5 ] && fail "SIGTERM: term.h5 exists though the solve stopped"

    # a checkpoint is not ignored: without --resume the solve refuses
    "$nimsieve" solve "${game[@]}" -o term.h5 -q 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'checkpoint.*--resume' err.txt ||
        { fail "existing checkpoint without --resume: exit $rc"; cat err.txt; }
    # nor reused for another solve
    "$nimsieve" solve "$src/tests/cli/fib-general.rules" --size $((n + 1)) -o term.h5 --resume -q 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'checkpoint of another solve (the bounds differs)' err.txt ||
        { fail "checkpoint of other bounds: exit $rc"; cat err.txt; }
    "$nimsieve" solve "$src/tests/cli/fib-general.rules" --size $n --misere -o term.h5 --resume -q 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'another solve (the play convention' err.txt ||
        { fail "checkpoint of normal play resumed as misere: exit $rc"; cat err.txt; }
    # a checkpoint is not a table: info refuses it
    "$nimsieve" info term.h5.ckpt >/dev/null 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'a checkpoint of an unfinished solve; finish it with' err.txt || { fail "info on a checkpoint: exit $rc"; cat err.txt; }
    # resume finishes it, identical to an uninterrupted run
    "$nimsieve" solve "${game[@]}" -o term.h5 --resume -q || fail "SIGTERM: resume failed"
    same_tables general-ref.h5 term.h5 || fail "SIGTERM: resumed table differs"
fi

# a damaged checkpoint: a clear error, not a crash or a wrong table
"$nimsieve" solve "${game[@]}" -o dmg.h5 --checkpoint-every 1000 >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
if [ -e dmg.h5.ckpt ]; then
    size=$(stat -c %s dmg.h5.ckpt)
    head -c $((size / 2)) dmg.h5.ckpt >cut && mv cut dmg.h5.ckpt
    "$nimsieve" solve "${game[@]}" -o dmg.h5 --resume -q 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'dmg.h5.ckpt' err.txt && [ "$(wc -l <err.txt)" -eq 1 ] ||
        { fail "truncated checkpoint: exit $rc"; cat err.txt; }
    [ -e dmg.h5 ] && fail "truncated checkpoint: dmg.h5 was written"
    # --force starts over and removes it
    "$nimsieve" solve "${game[@]}" -o dmg.h5 --force -q || fail "--force over a damaged checkpoint failed"
    [ -e dmg.h5.ckpt ] && fail "--force left the damaged checkpoint"
    same_tables general-ref.h5 dmg.h5 || fail "--force: table differs"
fi

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "all checkpoint checks passed"
