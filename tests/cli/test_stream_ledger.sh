#!/bin/bash
# test_stream_ledger.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# A streamed solve's checkpoint records where each finished chunk lies in
# the .part (/checkpoint_ledger: dataset, offset, address, size,
# Fletcher-32), and a resume reads the chunks there: it never needs the
# .part's own HDF5 metadata, which a kill during HDF5's flush can leave
# pointing past the file's end (seen: "cannot open gr1.h5.part (damaged?)
# (HDF5: addr overflow ...)"). Deterministic, for a streamed Grundy table,
# a streamed P/N table and a streamed sequence:
#   - stopped at a known unit (test hook NS_SOLVE_TEST_TERM_AT), the .part's
#     superblock overwritten with zeros: --resume still finishes, and the
#     file equals the uninterrupted solve's (before the ledger: refused);
#   - killed between a resumed run's checkpoint that records its fresh file
#     (.part.new) and the rename of that file over the .part (test hook
#     NS_TEST_PROMOTE_DELAY): the next --resume takes .part.new;
#   - a byte of the first recorded chunk changed in both files: --resume
#     refused in one line, exit 2, nothing changed; with the byte restored
#     in .part.new only, the resume takes .part.new and finishes, identical.
set -u
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"

stamp() { stat -c %i.%Y.%s "$1" 2>/dev/null || echo none; }

# ledger_field CKPT ROW COL: an entry of the checkpoint's ledger
# (COL 3: address, 4: size)
ledger_field() {
    "$py" -c 'import sys, h5py
d = h5py.File(sys.argv[1], "r")["checkpoint_ledger"]
print(int(d[int(sys.argv[2]), int(sys.argv[3])]))' "$1" "$2" "$3"
}

# check NAME STOP ARGS...: the three cases above for the solve ARGS
check() {
    local name=$1 stop=$2
    shift 2
    "$nimsieve" solve "$@" --threads 2 -q -o "$name-ref.h5" --checkpoint-every 0 || { fail "$name: reference failed"; return; }
    local f=$name.h5 rc
    # 1. stopped at unit STOP; the superblock destroyed
    NS_SOLVE_TEST_TERM_AT=$stop "$nimsieve" solve "$@" --threads 2 -o "$f" --checkpoint-every 1000 \
        >"$name.out1" 2>&1
    rc=$?
    [ "$rc" -eq 143 ] && [ -e "$f.ckpt" ] && [ -e "$f.part" ] ||
        { fail "$name: the stop at unit $stop: exit $rc, no checkpoint or .part"; cat "$name.out1"; return; }
    [ "$(ledger_field "$f.ckpt" 0 4)" -gt 0 ] || { fail "$name: the checkpoint records no stored chunk"; return; }
    dd if=/dev/zero of="$f.part" bs=512 count=1 conv=notrunc status=none
    "$py" -c 'import sys, h5py; h5py.File(sys.argv[1], "r")' "$f.part" 2>/dev/null &&
        fail "$name: the .part still opens with its superblock zeroed"
    # 2. resumed with the promotion of its fresh file held; killed there
    NS_TEST_PROMOTE_DELAY=60 "$nimsieve" solve "$@" --threads 1 -o "$f" --checkpoint-every 0.001 --resume \
        >"$name.out2" 2>&1 &
    local pid=$! before
    before=$(stamp "$f.ckpt")
    for _ in $(seq 1 3000); do
        [ "$(stamp "$f.ckpt")" != "$before" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.01
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rc=$?
    grep -q '^resuming from' "$name.out2" || { fail "$name: the damaged .part was not resumed"; cat "$name.out2"; return; }
    [ "$rc" -eq 137 ] && [ -e "$f.part.new" ] && [ -e "$f.part" ] ||
        { fail "$name: no kill between a checkpoint and its rename (exit $rc)"; cat "$name.out2"; return; }
    # 3. the first recorded chunk damaged in both files: refused, nothing
    # changed; then repaired in the fresh file only, which the resume must
    # take (the .part keeps the damage)
    local addr
    addr=$(ledger_field "$f.ckpt" 0 3)
    cp "$f.part.new" "$name.new.orig"
    cp "$f.ckpt" "$name.ckpt.orig"
    for x in "$f.part" "$f.part.new"; do
        printf '\x5a' | dd of="$x" bs=1 seek=$((addr + 7)) count=1 conv=notrunc status=none
    done
    cp "$f.part" "$name.part.bad"
    cp "$f.part.new" "$name.new.bad"
    "$nimsieve" solve "$@" -o "$f" --resume -q 2>"$name.err"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$name.err")" -eq 1 ] &&
        grep -q "does not hold the chunks its checkpoint $f.ckpt records" "$name.err" ||
        { fail "$name: a damaged chunk: exit $rc"; cat "$name.err"; }
    cmp -s "$f.part" "$name.part.bad" && cmp -s "$f.part.new" "$name.new.bad" && cmp -s "$f.ckpt" "$name.ckpt.orig" ||
        fail "$name: a refused resume changed the .part, the .part.new or the checkpoint"
    cp "$name.new.orig" "$f.part.new"
    "$nimsieve" solve "$@" --threads 2 -o "$f" --resume >"$name.out3" 2>&1 ||
        { fail "$name: the last --resume failed"; cat "$name.out3"; return; }
    grep -q '^resuming from' "$name.out3" || fail "$name: the last run did not resume"
    same_files "$name-ref.h5" "$f" || fail "$name: the resumed file differs from the uninterrupted one"
    for x in "$f.ckpt" "$f.part" "$f.part.new"; do
        [ -e "$x" ] && fail "$name: $x left behind"
    done
    echo "$name: resumed past a zeroed superblock and a kill before the rename, identical"
}

check gr 5 wythoff --size 2048 --stream
check pn 6 wythoff --size 16384 --pn-only --stream
# a sequence past its first /grundy chunk (1 MiB of uint8 values) by unit
# 270: the octal game 0.333 (take 1 to 3), 2.6 s under ASan where Grundy's
# game took 22 s; the ledger and the streamed chunks do not depend on the
# game
check seq 270 octal -D code=0.333 --size 1200000 --stream
if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "all ledger checks passed"
