#!/bin/bash
# test_disk_full.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Write failures (issue 7): the table file or a checkpoint cannot be written.
# Injected with a file-size limit (ulimit -f; SIGXFSZ ignored, so write()
# fails with EFBIG), which needs no privileges, and, where this user may
# mount one, a real full disk: a 3 MiB tmpfs (ENOSPC). Each time: one line
# naming the file and the cause, exit 2, no OUT.h5 or OUT.h5.part left, an
# existing OUT.h5 untouched, and the last checkpoint still resumable to a
# table identical to an uninterrupted solve.
set -u
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"
# (an O(N^3) rule file: 600 takes 19 s a solve under ASan, 400 a third)
fib=("$src/tests/cli/fib-general.rules" --size 600)
[ "$sanitized" = 1 ] && fib=("$src/tests/cli/fib-general.rules" --size 400)

same_tables() {
    "$py" - "$1" "$2" <<'EOF'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
ok = sorted(a.keys()) == sorted(b.keys())
for k in a.keys():
    if k in b and not np.array_equal(a[k][...], b[k][...]):
        ok = False
sys.exit(0 if ok else 1)
EOF
}

# one_line_error FILE PATTERN: FILE holds exactly one line matching PATTERN
one_line_error() {
    [ "$(wc -l <"$1")" -eq 1 ] && grep -Eq "$2" "$1"
}

"$nimsieve" solve "${fib[@]}" -o ref.h5 -q || fail "reference solve failed"

# limited KIB ERRFILE ARGS...: nimsieve ARGS under a file-size limit of
# KIB KiB (SIGXFSZ ignored, so write() fails with EFBIG); sets rc
limited() {
    local kib=$1 errfile=$2
    shift 2
    (
        ulimit -f "$kib"
        trap '' XFSZ
        "$nimsieve" "$@"
    ) 2>"$errfile"
    rc=$?
}

# 1. the table file cannot be written (EFBIG from a 100 KiB file-size
# limit): in memory, and streamed (whose blocks the file driver's own
# thread writes: the failure still ends the solve in one line)
"$nimsieve" solve wythoff --size 32 -o keep.h5 -q || fail "small solve failed"
cp keep.h5 keep.orig
for c in "big 1024" "sbig 2048 --stream"; do
    read -r name size how <<<"$c"
    limited 100 "err-$name.txt" solve wythoff --size "$size" $how -o "$name.h5" -q
    [ "$rc" -eq 2 ] || fail "write failure ($name): exit $rc, expected 2"
    one_line_error "err-$name.txt" "^nimsieve solve: .*$name.h5(.part)?: cannot (write|close).*File too large" ||
        { fail "write failure ($name): message"; cat "err-$name.txt"; }
    [ -e "$name.h5" ] && fail "write failure: $name.h5 exists"
    [ -e "$name.h5.part" ] && fail "write failure: $name.h5.part left behind"
done
# over an existing file with --force: the old file stays as it was
limited 100 err2.txt solve wythoff --size 1024 -o keep.h5 --force -q
[ "$rc" -eq 2 ] || fail "write failure over an existing file: exit $rc"
cmp -s keep.h5 keep.orig || fail "write failure: the existing keep.h5 was changed"
[ -e keep.h5.part ] && fail "write failure: keep.h5.part left behind"
"$nimsieve" info keep.h5 >/dev/null || fail "keep.h5 unreadable after the failed overwrite"

# 2. a checkpoint cannot be written: the run stops with a clear message, the
# previous checkpoint stays and resumes (checkpoints grow from ~10 KB to
# ~16 KB as the table fills; a 13 KiB limit lets the first ones through)
limited 13 err3.txt solve "${fib[@]}" -o ck.h5 --checkpoint-every 0.001 -q
[ "$rc" -eq 2 ] || fail "checkpoint write failure: exit $rc, expected 2"
one_line_error err3.txt "ck.h5.ckpt.*File too large.*the previous checkpoint is intact: resume with --resume|ck.h5.*File too large.*the last checkpoint is intact" ||
    { fail "checkpoint write failure: message"; cat err3.txt; }
[ -e ck.h5 ] && fail "checkpoint write failure: ck.h5 exists"
if [ -e ck.h5.ckpt ]; then
    "$nimsieve" solve "${fib[@]}" -o ck.h5 --resume >resume.txt 2>&1 || { fail "resume after the failure"; cat resume.txt; }
    grep -q '^resuming from' resume.txt || fail "the resume did not use the checkpoint"
    same_tables ref.h5 ck.h5 || fail "resumed table differs from the uninterrupted one"
else
    fail "no checkpoint survived the write failure"
fi

# 3. a real full disk, where a small tmpfs can be mounted (root in CI)
mnt=$work/small
mkdir -p "$mnt"
if mount -t tmpfs -o size=3m tmpfs "$mnt" 2>/dev/null; then
    "$nimsieve" solve wythoff --size 2048 -o "$mnt/w.h5" -q 2>err4.txt
    rc=$?
    [ "$rc" -eq 2 ] || fail "disk full: exit $rc, expected 2"
    one_line_error err4.txt "w.h5: cannot write .*No space left on device" || { fail "disk full: message"; cat err4.txt; }
    [ -e "$mnt/w.h5" ] && fail "disk full: w.h5 exists"
    [ -e "$mnt/w.h5.part" ] && fail "disk full: w.h5.part left behind"
    [ "$(ls -A "$mnt")" = "" ] || fail "disk full: files left on the full disk: $(ls -A "$mnt")"
    # streamed (O_DIRECT where this tmpfs takes it, else the page cache)
    "$nimsieve" solve wythoff --size 2048 --stream -o "$mnt/s.h5" -q 2>err5.txt
    rc=$?
    [ "$rc" -eq 2 ] || fail "disk full, streamed: exit $rc, expected 2"
    one_line_error err5.txt "s.h5(.part)?: cannot (write|close).*No space left on device" ||
        { fail "disk full, streamed: message"; cat err5.txt; }
    [ "$(ls -A "$mnt")" = "" ] || fail "disk full, streamed: files left on the full disk: $(ls -A "$mnt")"
    umount "$mnt"
    echo "tmpfs: full disk checked"
else
    echo "note: cannot mount a tmpfs here (not root?); ENOSPC not checked, EFBIG was"
fi

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "all disk-full checks passed"
