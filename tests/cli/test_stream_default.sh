#!/usr/bin/env bash
# Grundy tables of two-pile ray games stream by default from a size on
# (2^28 cells; NS_STREAM_MIN_CELLS lowers it here): the plan line says
# streaming and why, --no-stream keeps the table in memory, and the two
# files are identical, every dataset (values, type, shape) and every
# attribute of the root and of the datasets but the run's time
# (wall_seconds, created_utc), read with h5py. Below the size, and by
# default for small tables, the table stays in memory. --stream with
# --no-stream is refused in one line.
NS=$1; SRC=$2; WORK=$3
rm -rf "$WORK"
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3

identical() { # name, file a, file b
    CHECKS=$((CHECKS + 1))
    $PY - "$2" "$3" <<'PYEOF' || fail "$1: the files differ"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
skip = {"wall_seconds", "created_utc"}
def attrs(x, y, where):
    assert set(x.attrs) == set(y.attrs), (where, sorted(x.attrs), sorted(y.attrs))
    for k in x.attrs:
        if k not in skip:
            assert np.array_equal(np.asarray(x.attrs[k]), np.asarray(y.attrs[k])), (where, k)
attrs(a, b, "/")
assert sorted(a) == sorted(b), (sorted(a), sorted(b))
for d in a:
    x, y = a[d], b[d]
    assert x.dtype == y.dtype and x.shape == y.shape, (d, x.dtype, y.dtype, x.shape, y.shape)
    assert np.array_equal(x[()], y[()]), d
    attrs(x, y, d)
PYEOF
}

case_() { # name, solve arguments...
    local name=$1; shift
    NS_STREAM_MIN_CELLS=20000 expect_ok "$NS" solve "$@" -o "$WORK/$name.d.h5"
    expect_out "streaming: tiles of 128 x 128 .*the default for Grundy tables of 20000 cells or more"
    NS_STREAM_MIN_CELLS=20000 expect_ok "$NS" solve "$@" --no-stream -o "$WORK/$name.m.h5"
    expect_no_out "streaming"
    identical "$name" "$WORK/$name.m.h5" "$WORK/$name.d.h5"
}

case_ wythoff wythoff --size 300
case_ wythoff_rect wythoff --bounds 150,517
case_ wythoff_misere wythoff --size 260 --misere
case_ nim2 nim -D piles=2 --size 300

# below the threshold, and small tables without NS_STREAM_MIN_CELLS: in memory
NS_STREAM_MIN_CELLS=20000 expect_ok "$NS" solve wythoff --size 141 -o "$WORK/small.h5"
expect_no_out "streaming"
expect_ok "$NS" solve wythoff --size 1000 -o "$WORK/plain.h5"
expect_no_out "streaming"
# a game that cannot stream (a-Wythoff: not plain rays) stays in memory
NS_STREAM_MIN_CELLS=20000 expect_ok "$NS" solve a-wythoff -D a=2 --size 200 -o "$WORK/aw.h5"
expect_no_out "streaming"

expect_error 2 solve "--stream and --no-stream" "$NS" solve wythoff --size 100 --stream --no-stream -o "$WORK/x.h5"
CHECKS=$((CHECKS + 1))
[ -e "$WORK/x.h5" ] && fail "a refused solve left a file"
finish
