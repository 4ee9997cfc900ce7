#!/bin/bash
# test_h5same.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The judge of many tests, tests/cli/h5same.py, itself: it compares stored
# chunks byte for byte and reads only the chunks whose bytes differ, so it
# must still see every changed value. Files from a real solve (Grundy tiles,
# streamed P/N with unwritten chunks), then copies changed with h5py: one
# value in a stored chunk, a value written into an unwritten chunk, the fill
# value written into an unwritten chunk (a chunk stored in one file only,
# the same values: "same"), an attribute; and a value changed in a file of
# random bytes, whose chunks keep their stored size; each also with --full
# (every value read).
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"

"$nimsieve" solve wythoff --size 700 -q -o g.h5 || fail "grundy solve"
"$nimsieve" solve wythoff --size 20000 --pn-only --stream -q -o p.h5 || fail "P/N solve"
"$nimsieve" solve wythoff --size 20000 --pn-only --stream --threads 1 -q -o p1.h5 || fail "P/N solve, 1 thread"

# expect WANT A B: h5same.py, with and without --full, exits WANT
expect() {
    local want=$1 a=$2 b=$3 rc mode
    for mode in "" --full; do
        checks=$((checks + 1))
        "$py" "$src/tests/cli/h5same.py" "$a" "$b" $mode >out.txt
        rc=$?
        [ "$rc" -eq "$want" ] || { fail "h5same.py $a $b $mode: exit $rc, expected $want"; cat out.txt; }
    done
}

expect 0 g.h5 g.h5
expect 0 p.h5 p1.h5
"$py" - <<'PYEOF' || fail "making the changed copies"
import shutil
import h5py
import numpy as np

def copy(src, dst, change):
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        change(f)

def one_value(f):
    d = f["grundy"]
    d[350, 123] = d[350, 123] + 1

def stored_offsets(d):
    return {tuple(d.id.get_chunk_info(i).chunk_offset) for i in range(d.id.get_num_chunks())}

def first_unwritten(d):
    stored = stored_offsets(d)
    r, c = d.chunks
    for i in range(0, d.shape[0], r):
        for j in range(0, d.shape[1], c):
            if (i, j) not in stored:
                return (i, j)
    raise SystemExit("every chunk is stored")

def unwritten(f):
    d = f["pn"]
    off = first_unwritten(d)
    d[off[0] + 1, off[1] + 2] = 1 - d.fillvalue

def fill_written(f):
    # an unwritten chunk of the P/N table written with its fill value: a
    # chunk stored in one file only, the same values
    d = f["pn"]
    off = first_unwritten(d)
    d[off[0] + 1, off[1] + 2] = d.fillvalue
    if d.id.get_num_chunks() != len(stored_offsets(d)) or off not in stored_offsets(d):
        raise SystemExit("the chunk was not stored")

def random_file(name):
    # random bytes do not deflate: each chunk is stored at a size that does
    # not depend on its values
    with h5py.File(name, "w") as f:
        vals = np.random.default_rng(5).integers(0, 256, size=(512, 2048), dtype=np.uint8)
        f.create_dataset("t", data=vals, chunks=(256, 1024), compression="gzip", fletcher32=True)

def same_size(f):
    # one value changed, the chunk's stored size kept: only the stored
    # bytes tell the chunks apart
    d = f["t"]
    before = d.id.get_chunk_info(0).size
    d[3, 5] = (int(d[3, 5]) + 1) % 256
    if d.id.get_chunk_info(0).size != before:
        raise SystemExit("the chunk's stored size changed")

def attribute(f):
    f.attrs["max_value"] = f.attrs["max_value"] + 1

copy("g.h5", "g-value.h5", one_value)
copy("p.h5", "p-unwritten.h5", unwritten)
copy("p.h5", "p-fill.h5", fill_written)
random_file("r.h5")
copy("r.h5", "r-size.h5", same_size)
copy("g.h5", "g-attr.h5", attribute)
PYEOF
expect 1 g.h5 g-value.h5
expect 1 p.h5 p-unwritten.h5
expect 0 p.h5 p-fill.h5
expect 1 r.h5 r-size.h5
expect 1 g.h5 g-attr.h5
expect 1 g.h5 p.h5
echo "test_h5same: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
