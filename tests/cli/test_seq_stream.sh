#!/bin/bash
# test_seq_stream.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Streamed take-and-break sequences (issue 17 item 4): a --stream solve
# writes /grundy a chunk at a time into OUT.part; the finished file must
# equal the in-memory solve's in every dataset (values, type, shape,
# chunks) and every root attribute but timing, date and threads. A
# streamed run killed (SIGKILL) after a checkpoint and resumed with another
# thread count must give the same file. Grundy's game to 1,200,000 heap
# sizes spans two /grundy chunks (1 MiB of uint8 each), so a chunk is
# written before the end and a checkpoint holds a stored chunk plus a tail.
set -u
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"


# streamed = in memory: one chunk (0.137, Kayles with its /rare) and two
# chunks (Grundy's game)
check_same() {
    local name=$1
    shift
    "$nimsieve" solve "$@" --threads 2 -q -o "$name-mem.h5" || { fail "$name: in-memory solve failed"; return; }
    "$nimsieve" solve "$@" --threads 2 --stream -o "$name-st.h5" >"$name.out" 2>&1 ||
        { fail "$name: streamed solve failed"; cat "$name.out"; return; }
    grep -q '^streaming: the sequence goes to' "$name.out" || { fail "$name: no streaming plan line"; cat "$name.out"; }
    same_files "$name-mem.h5" "$name-st.h5" || fail "$name: the streamed file differs from the in-memory one"
    [ -e "$name-st.h5.part" ] && fail "$name: .part left behind"
    echo "$name: streamed file identical to the in-memory one"
}
check_same o137 octal -D code=0.137 --size 20000
check_same kayles octal -D code=0.77 --size 50000
big=(grundys-game --size 1200000)
# under ASan Grundy's game takes 17 s a solve here: the octal game 0.333
# (take 1 to 3) to 2,000,000 spans two chunks too, in 4.4 s, the second
# chunk half of the run, long enough for a kill there (the Release run
# keeps Grundy's game)
[ "$sanitized" = 1 ] && big=(octal -D code=0.333 --size 2000000)
check_same grundy "${big[@]}"

# killed (SIGKILL: no final checkpoint) after a checkpoint with only a
# tail of values, then after one with a stored chunk (seq_stored > 0), and
# resumed on 1 thread, then on 2: the file equals the uninterrupted one
stamp() { stat -c %i.%Y.%s "$1" 2>/dev/null || echo none; }
# (h5dump: 30 ms a look, where Python with h5py took 0.5 s and missed the
# short window of a fast run)
stored_of() {
    local v
    v=$(h5dump -a /seq_stored "$1" 2>/dev/null | sed -n 's/^ *(0): *\([0-9]*\).*/\1/p' | head -1)
    echo "${v:-0}"
}
resumed=0
stored_seen=0
rm -f k.h5 k.h5.ckpt k.h5.part
for attempt in 1 2; do
    threads=$attempt
    before=$(stamp k.h5.ckpt)
    "$nimsieve" solve "${big[@]}" --stream --threads "$threads" -o k.h5 --checkpoint-every 0.001 --resume \
        >"k.out.$attempt" 2>&1 &
    pid=$!
    for _ in $(seq 1 4000); do
        now=$(stamp k.h5.ckpt)
        if [ "$now" != "$before" ] && [ "$now" != none ]; then
            [ "$attempt" -eq 1 ] && break
            st=$(stored_of k.h5.ckpt)
            [ "$st" -gt 0 ] && { stored_seen=$st; break; }
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.01
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    grep -q '^resuming from' "k.out.$attempt" && resumed=$((resumed + 1))
    [ "$rc" -eq 0 ] && break
    [ "$rc" -eq 137 ] || { fail "kill: attempt $attempt exited $rc"; cat "k.out.$attempt"; break; }
    # the kill may land after the finished file's rename, while the run
    # is still exiting (slow under ASan): the file is then whole
    [ -e k.h5 ] && { rm -f k.h5.ckpt; break; }
    [ -e k.h5.part ] || fail "kill: no k.h5.part after a checkpoint"
done
[ "$stored_seen" -gt 0 ] || echo "note: no checkpoint with a stored chunk was killed (the run finished first)"
if [ ! -e k.h5 ]; then
    "$nimsieve" solve "${big[@]}" --stream --threads 2 -o k.h5 --resume >k.out.last 2>&1 ||
        { fail "kill: the final --resume failed"; cat k.out.last; }
    grep -q '^resuming from' k.out.last && resumed=$((resumed + 1))
fi
[ "$resumed" -ge 1 ] || fail "kill: no run resumed from a checkpoint"
same_files grundy-mem.h5 k.h5 || fail "kill: the resumed file differs from the uninterrupted one"
for f in k.h5.ckpt k.h5.part; do
    [ -e "$f" ] && fail "kill: $f left behind"
done
echo "kill: $resumed resumes, identical to the uninterrupted solve"

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "all streamed-sequence checks passed"
