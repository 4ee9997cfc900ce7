#!/bin/bash
# test_stream_resume.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Checkpoints and --resume of streamed solves (issue 16). For a streamed P/N
# solve (rows-pn) and a streamed Grundy solve (tiles2d, --stream): an
# uninterrupted solve gives the reference; runs with frequent checkpoints
# are killed with SIGKILL at seeded random moments after a checkpoint and
# resumed, alternating 1 and 2 threads; one kill lands inside a checkpoint
# write (NS_TEST_CKPT_DELAY holds it between its temporary file and the
# rename). The finished file must equal the reference in every dataset and
# every root attribute but the run's timing, date and thread count. Also:
# SIGTERM writes a final checkpoint and prints the command that continues;
# a .part without its record, or with the record of another solve, is
# refused and left as it was; a write failure (file size limit, EFBIG)
# leaves the last checkpoint usable.
set -u
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"


now_ms() { date +%s%3N; }
stamp() { stat -c %i.%Y.%s "$1" 2>/dev/null || echo none; }

# wait_change FILE BEFORE PID: until FILE differs from BEFORE or PID ends
wait_change() {
    for _ in $(seq 1 2000); do
        [ "$(stamp "$1")" != "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.005
    done
    return 1
}

# stop_early NAME ARGS...: a solve from the start, stopped after its
# second unit by the test hook NS_SOLVE_TEST_TERM_AT (SIGTERM, a final
# checkpoint, exit 143)
stop_early() {
    local name=$1 rc
    shift
    rm -f "$name.h5" "$name.h5.ckpt" "$name.h5.part"
    NS_SOLVE_TEST_TERM_AT=2 "$nimsieve" solve "$@" --threads 2 -o "$name.h5" --checkpoint-every 1000 \
        >"$name.out.early" 2>&1
    rc=$?
    [ "$rc" -eq 143 ] && [ -e "$name.h5.ckpt" ] && [ ! -e "$name.h5" ] && return 0
    fail "$name: stopped after its second unit: exit $rc, expected 143 and a checkpoint"
    cat "$name.out.early"
    return 1
}

# kill_in_write NAME ARGS...: resume, and kill the run inside its first
# checkpoint write (NS_TEST_CKPT_DELAY holds it between the temporary
# file and the rename); 1 if the run ended without writing one
kill_in_write() {
    local name=$1 pid seen=1
    shift
    NS_TEST_CKPT_DELAY=30 "$nimsieve" solve "$@" --threads 1 -o "$name.h5" --checkpoint-every 0.001 --resume \
        >"$name.out.mid" 2>&1 &
    pid=$!
    wait_change "$name.h5.ckpt.tmp" none "$pid" && seen=0
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    return "$seen"
}

# kill_resume NAME SEED ARGS...
kill_resume() {
    local name=$1 seed=$2
    shift 2
    RANDOM=$seed
    local t0 ms
    t0=$(now_ms)
    "$nimsieve" solve "$@" --threads 2 --checkpoint-every 0 -q -o "$name-ref.h5" || { fail "$name: reference failed"; return; }
    ms=$(($(now_ms) - t0))
    [ "$ms" -lt 50 ] && ms=50
    local resumed=0 done=0 attempt threads
    for attempt in 1 2 3 4; do
        threads=$((attempt % 2 + 1))
        local before at pid rc
        before=$(stamp "$name.h5.ckpt")
        "$nimsieve" solve "$@" --threads "$threads" -o "$name.h5" --checkpoint-every 0.001 --resume \
            >"$name.out.$attempt" 2>&1 &
        pid=$!
        wait_change "$name.h5.ckpt" "$before" "$pid"
        at=$((ms * (RANDOM % 25) / 100))
        sleep "$(printf '%d.%03d' $((at / 1000)) $((at % 1000)))"
        kill -KILL "$pid" 2>/dev/null
        wait "$pid"
        rc=$?
        grep -q '^resuming from' "$name.out.$attempt" && resumed=$((resumed + 1))
        if [ "$rc" -eq 0 ]; then
            done=1
            break
        fi
        [ "$rc" -eq 137 ] || { fail "$name: attempt $attempt exited $rc"; cat "$name.out.$attempt"; return; }
        [ -e "$name.h5" ] && { done=1; rm -f "$name.h5.ckpt"; break; }
        [ -e "$name.h5.part" ] || fail "$name: killed after a checkpoint, but no $name.h5.part"
    done
    # a busy machine may let the runs finish before their kills (a fast
    # P/N solve finished between its first checkpoint and the kill, seen
    # once): then start over and stop it after its second unit, so that
    # the kill inside a checkpoint write below and the final resume always
    # run
    if [ "$done" -eq 1 ] && [ "$resumed" -eq 0 ]; then
        stop_early "$name" "$@" && done=0
    fi
    # one kill inside a checkpoint write: the new record is written but not
    # renamed over the old one
    if [ "$done" -eq 0 ]; then
        if ! kill_in_write "$name" "$@"; then
            # the kills above left the solve at its last unit, with no
            # checkpoint to come: start over as above
            if [ -e "$name.h5" ] && stop_early "$name" "$@"; then
                echo "note: $name: the run after the kills had no checkpoint to write; stopped after unit 2 again"
                kill_in_write "$name" "$@" || fail "$name: no checkpoint write to kill"
            else
                fail "$name: no checkpoint write to kill"
            fi
        fi
        [ -e "$name.h5.ckpt.tmp" ] || fail "$name: the killed checkpoint write left no temporary file"
        grep -q '^resuming from' "$name.out.mid" && resumed=$((resumed + 1))
        if ! "$nimsieve" solve "$@" --threads 2 -o "$name.h5" --resume >"$name.out.last" 2>&1; then
            fail "$name: the final --resume failed"
            cat "$name.out.last"
            return
        fi
        grep -q '^resuming from' "$name.out.last" && resumed=$((resumed + 1))
    fi
    [ "$resumed" -ge 1 ] || fail "$name: no run resumed from a checkpoint"
    same_files "$name-ref.h5" "$name.h5" || fail "$name: the resumed file differs from the uninterrupted one"
    [ -e "$name.h5.ckpt" ] && fail "$name: the checkpoint was not removed after the solve finished"
    [ -e "$name.h5.ckpt.tmp" ] && fail "$name: the checkpoint's temporary file was not removed"
    [ -e "$name.h5.part" ] && fail "$name: $name.h5.part left behind"
    echo "$name: killed and resumed ($resumed resumes), identical to the uninterrupted solve"
}

pn=(wythoff --size 16384 --pn-only --stream)
gr=(wythoff --size 2048 --stream)
kill_resume pn1 11 "${pn[@]}"
kill_resume pn2 22 wythoff --size 32768 --pn-only --stream
kill_resume gr1 33 "${gr[@]}"
kill_resume gr2 44 "${gr[@]}"
# a rectangle and a non-symmetric rule file (blocks and tiles cut by the bounds)
kill_resume knpn 55 "$src/tests/cli/knight.rules" --bounds 40000,6000 --pn-only --stream
kill_resume kngr 66 "$src/tests/cli/knight.rules" --bounds 1500,1100 --stream

# a resumed tile solve checkpoints again from its first unit after the
# resume point: its ranges of anti-diagonals are sized anew, not from the
# fast replay (grown from it, one range ran to the end without a
# checkpoint, and the kill inside a checkpoint write above found none)
kn=("$src/tests/cli/knight.rules" --bounds 1500,1100 --stream)
if stop_early again "${kn[@]}"; then
    k=$(sed -n 's/.*holds \([0-9]*\) of \([0-9]*\) units.*/\1/p' again.out.early)
    total=$(sed -n 's/.*holds \([0-9]*\) of \([0-9]*\) units.*/\2/p' again.out.early)
fi
if [ -n "${k:-}" ] && [ "$k" -lt "$total" ]; then
    NS_SOLVE_TEST_TERM_AT=$((k + 1)) "$nimsieve" solve "${kn[@]}" --threads 1 -o again.h5 --checkpoint-every 0.001 \
        --resume >again2.out 2>&1
    rc=$?
    if grep -q "holds $((k + 1)) of $total units" again2.out && [ "$rc" -eq 143 ]; then
        "$nimsieve" solve "${kn[@]}" --threads 2 -o again.h5 --resume -q || fail "the last resume of again.h5 failed"
        same_files kngr-ref.h5 again.h5 || fail "again.h5 differs from the uninterrupted solve"
    else
        fail "a resume from unit $k did not checkpoint unit $((k + 1)): exit $rc"
        cat again2.out
    fi
else
    fail "the stop after unit 2 of again.h5 said no units held: $(cat again.out.early)"
fi

# SIGTERM: a final checkpoint, the command that continues, exit 143; with
# the default interval (a P/N table of a ray game streams by default)
game=(wythoff --size 65536 --pn-only)
"$nimsieve" solve "${game[@]}" --stream --threads 2 -q -o ref-term.h5 --checkpoint-every 0
"$nimsieve" solve "${game[@]}" --threads 2 -o term.h5 >term.out 2>&1 &
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
        { fail "SIGTERM: no command that continues"; cat term.out; }
    [ -e term.h5.ckpt ] && [ -e term.h5.part ] || fail "SIGTERM: no checkpoint and .part"
    [ -e term.h5 ] && fail "SIGTERM: term.h5 exists though the solve stopped"
    cp term.h5.part term.part.orig
    # without --resume: refused, the .part untouched
    "$nimsieve" solve "${game[@]}" -o term.h5 -q 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'checkpoint.*--resume' err.txt || { fail "no --resume: exit $rc"; cat err.txt; }
    # the record of another solve: other bounds, other kind
    "$nimsieve" solve wythoff --size 65000 --pn-only -o term.h5 --resume -q 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'checkpoint of another solve (the bounds differs)' err.txt ||
        { fail "record of other bounds: exit $rc"; cat err.txt; }
    "$nimsieve" solve wythoff --size 65536 --stream -o term.h5 --resume -q 2>err.txt
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'checkpoint of another solve (the kind' err.txt ||
        { fail "record of another kind: exit $rc"; cat err.txt; }
    cmp -s term.h5.part term.part.orig || fail "a refused resume changed term.h5.part"
    "$nimsieve" solve "${game[@]}" --threads 1 -o term.h5 --resume >term2.out 2>&1 || { fail "SIGTERM: resume failed"; cat term2.out; }
    grep -q '^resuming from' term2.out || fail "SIGTERM: the resume did not use the checkpoint"
    same_files ref-term.h5 term.h5 || fail "SIGTERM: resumed file differs"
fi

# a .part without its record: refused with the reason, with or without
# --resume, and left as it was; --force starts over
"$nimsieve" solve wythoff --size 2048 --stream -o orphan.h5 --checkpoint-every 0.001 -q &
pid=$!
wait_change orphan.h5.ckpt none "$pid"
kill -KILL "$pid" 2>/dev/null
wait "$pid"
if [ -e orphan.h5.part ]; then
    rm -f orphan.h5.ckpt
    cp orphan.h5.part orphan.orig
    for opt in --resume ""; do
        "$nimsieve" solve wythoff --size 2048 --stream -o orphan.h5 $opt -q 2>err.txt
        rc=$?
        [ "$rc" -eq 2 ] && grep -q "orphan.h5.part' is left from an unfinished solve and has no checkpoint" err.txt &&
            [ "$(wc -l <err.txt)" -eq 1 ] || { fail "orphan .part ($opt): exit $rc"; cat err.txt; }
    done
    cmp -s orphan.h5.part orphan.orig || fail "a refused solve changed orphan.h5.part"
    "$nimsieve" solve wythoff --size 2048 --stream -o orphan.h5 --force -q || fail "--force over an orphan .part"
    [ -e orphan.h5.part ] && fail "--force left orphan.h5.part"
    same_files gr1-ref.h5 orphan.h5 || fail "--force: the file differs"
else
    echo "note: the orphan solve finished before the kill; not checked"
fi

# a write failure (file size limit: EFBIG) in a streamed solve with
# checkpoints: one line, exit 2, the last checkpoint usable
(
    ulimit -f 80
    trap '' XFSZ
    "$nimsieve" solve wythoff --size 32768 --pn-only --stream --threads 2 -o full.h5 --checkpoint-every 0.001 -q
) 2>err.txt
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'File too large.*checkpoint is intact' err.txt ||
    { fail "EFBIG: exit $rc"; cat err.txt; }
[ -e full.h5 ] && fail "EFBIG: full.h5 exists"
if [ -e full.h5.ckpt ]; then
    "$nimsieve" solve wythoff --size 32768 --pn-only --threads 1 -o full.h5 --resume >full.out 2>&1 ||
        { fail "EFBIG: resume failed"; cat full.out; }
    grep -q '^resuming from' full.out || fail "EFBIG: the resume did not use the checkpoint"
    same_files pn2-ref.h5 full.h5 || fail "EFBIG: resumed file differs"
else
    fail "EFBIG: no checkpoint survived the write failure"
fi

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "all streamed checkpoint checks passed"
