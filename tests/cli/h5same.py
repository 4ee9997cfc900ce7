#!/usr/bin/python3
"""h5same.py A B [--skip ATTR,...]: exit 0 when two nimsieve files hold the
same thing: the same datasets (also inside groups), each with the same type,
shape, chunking, compression, checksum filter and values, and the same root
attributes except the run's own (wall_seconds, created_utc, threads, and any
named with --skip). Prints what differs."""
import sys

import h5py
import numpy as np


def datasets(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return out


def main(argv):
    if len(argv) < 2:
        print("usage: h5same.py A B [--skip ATTR,...]")
        return 2
    skip = {"wall_seconds", "created_utc", "threads"}
    if len(argv) >= 4 and argv[2] == "--skip":
        skip |= set(argv[3].split(","))
    a, b = h5py.File(argv[0], "r"), h5py.File(argv[1], "r")
    da, db = datasets(a), datasets(b)
    ok = sorted(da) == sorted(db)
    if not ok:
        print("datasets differ:", sorted(set(da) ^ set(db)))
    for k in sorted(set(da) & set(db)):
        x, y = da[k], db[k]
        same = (x.dtype == y.dtype and x.shape == y.shape and x.chunks == y.chunks
                and x.compression == y.compression and x.fletcher32 == y.fletcher32
                and np.array_equal(x[...], y[...]))
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
