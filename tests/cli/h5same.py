#!/usr/bin/python3
"""h5same.py A B [--skip ATTR,...]: exit 0 when two nimsieve files hold the
same thing: the same datasets (also inside groups), each with the same type,
shape, chunking, filters (compression, shuffle, checksum) and values, and the
same root attributes except the run's own (wall_seconds, created_utc,
threads, and any named with --skip). Prints what differs.

Values of a chunked dataset are compared chunk by chunk: a chunk stored in
both files with the same filter pipeline and the same stored bytes holds the
same values (the filters are deterministic decoders); any other chunk (stored
bytes that differ, a chunk stored in one file only, a type with references
such as variable-length strings) is read and compared value by value. A
table of 2^32 cells, mostly unwritten chunks, compares in a fraction of a
second instead of reading 4 GiB twice. --full compares every value by
reading the whole datasets (the old way; for checking this script)."""
import sys

import h5py
import numpy as np


def datasets(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return out


def filters(d):
    pl = d.id.get_create_plist()
    return [pl.get_filter(i)[:3] for i in range(pl.get_nfilters())]


def stored_chunks(d):
    """chunk offset -> (filter mask, file address, stored size)"""
    out = {}
    for i in range(d.id.get_num_chunks()):
        c = d.id.get_chunk_info(i)
        out[tuple(c.chunk_offset)] = (c.filter_mask, c.byte_offset, c.size)
    return out


def raw(fh, where):
    fh.seek(where[1])
    return fh.read(where[2])


def same_values(x, y, fx, fy):
    if x.shape != y.shape:
        return False
    if x.chunks is None or x.dtype.hasobject or filters(x) != filters(y) or x.size == 0:
        return np.array_equal(x[...], y[...])
    if not np.array_equal(np.asarray(x.fillvalue), np.asarray(y.fillvalue)):
        return np.array_equal(x[...], y[...])
    cx, cy = stored_chunks(x), stored_chunks(y)
    for off in set(cx) | set(cy):
        a, b = cx.get(off), cy.get(off)
        if a is not None and b is not None and a[0] == b[0] and a[2] == b[2] and raw(fx, a) == raw(fy, b):
            continue
        sl = tuple(slice(o, min(o + c, n)) for o, c, n in zip(off, x.chunks, x.shape))
        if not np.array_equal(x[sl], y[sl]):
            return False
    return True


def main(argv):
    full = "--full" in argv
    argv = [a for a in argv if a != "--full"]
    if len(argv) < 2:
        print("usage: h5same.py A B [--skip ATTR,...] [--full]")
        return 2
    skip = {"wall_seconds", "created_utc", "threads"}
    if len(argv) >= 4 and argv[2] == "--skip":
        skip |= set(argv[3].split(","))
    a, b = h5py.File(argv[0], "r"), h5py.File(argv[1], "r")
    fa, fb = open(argv[0], "rb"), open(argv[1], "rb")
    da, db = datasets(a), datasets(b)
    ok = sorted(da) == sorted(db)
    if not ok:
        print("datasets differ:", sorted(set(da) ^ set(db)))
    for k in sorted(set(da) & set(db)):
        x, y = da[k], db[k]
        same = (x.dtype == y.dtype and x.shape == y.shape and x.chunks == y.chunks
                and x.compression == y.compression and x.compression_opts == y.compression_opts
                and x.shuffle == y.shuffle and x.fletcher32 == y.fletcher32
                and (np.array_equal(x[...], y[...]) if full else same_values(x, y, fa, fb)))
        if not same:
            ok = False
            print("dataset %s differs" % k)
    ka, kb = set(a.attrs) - skip, set(b.attrs) - skip
    if ka != kb:
        ok = False
        print("attributes differ:", sorted(ka ^ kb))
    for k in sorted(ka & kb):
        if not np.array_equal(np.asarray(a.attrs[k]), np.asarray(b.attrs[k])):
            ok = False
            print("attribute %s differs: %r vs %r" % (k, a.attrs[k], b.attrs[k]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
