#!/bin/bash
# /rare and rare_mask: a heap game solved by the rare-common engine keeps its
# rare heap sizes. For Grundy's game, read back with h5py: the values of
# /grundy agree with a naive solver written here (split a heap into two
# unequal heaps), rare_mask is not 0, and /rare is exactly the heap sizes n
# with popcount(G(n) & rare_mask) even, computed here from /grundy, with
# n_rare their count, a small share of the heap sizes (the sparse space the
# method relies on). `info` prints the mask and the count. A game the plain
# sequence engine solves (a hexadecimal code) gets neither.
# Usage: bash test_seq_rare.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3
G="$WORK/grundy.h5"

expect_ok "$NS" solve grundys-game --size 30000 -o "$G"
expect_out '^engine: rare-common'
expect_out '^rare values: +mask [0-9]+ \(0x[0-9a-f]+\): [0-9]+ of the 30000 heap sizes have a rare value'

cat >"$WORK/rare.py" <<'PYEOF'
import sys
import h5py
import numpy as np

with h5py.File(sys.argv[1], "r") as f:
    g = f["grundy"][...].astype(np.int64)
    mask = int(f.attrs["rare_mask"])
    n_rare = int(f.attrs["n_rare"])
    rare = f["rare"][...]
    dtype = f["rare"].dtype
bad = []
# Grundy's game by the definition: the options of n are a ^ (n - a), a < n - a
M = 1500
naive = []
for n in range(M):
    opts = {naive[a] ^ naive[n - a] for a in range(1, (n + 1) // 2)}
    v = 0
    while v in opts:
        v += 1
    naive.append(v)
if list(g[:M]) != naive:
    i = next(i for i in range(M) if g[i] != naive[i])
    bad.append(f"/grundy[{i}] = {g[i]}, the naive solver says {naive[i]}")
if mask == 0:
    bad.append("rare_mask is 0")
if dtype != np.int64:
    bad.append(f"/rare has type {dtype}, expected int64")
want = [n for n in range(len(g)) if bin(int(g[n]) & mask).count("1") % 2 == 0]
if list(rare) != want:
    diff = sorted(set(map(int, rare)) ^ set(want))[:5]
    bad.append(f"/rare has {len(rare)} heap sizes, popcount(G(n) & {mask}) even holds for {len(want)} (differ at {diff})")
if n_rare != len(want):
    bad.append(f"attribute n_rare = {n_rare}, expected {len(want)}")
if not 0 < len(want) < len(g) // 10:
    bad.append(f"{len(want)} rare heap sizes of {len(g)}: expected a few, under a tenth")
for b in bad:
    print("FAIL:", b)
print(mask, len(want))
sys.exit(1 if bad else 0)
PYEOF
if out=$($PY "$WORK/rare.py" "$G" 2>&1); then
    read -r mask nrare <<<"$(tail -1 <<<"$out")"
    echo "ok: /rare holds the $nrare heap sizes with popcount(G(n) & $mask) even"
    expect_ok "$NS" info "$G"
    expect_out "^rare values: +mask $mask \(0x[0-9a-f]+\): $nrare of the 30000 heap sizes have a rare value"
else
    fail "$out"
fi

# the plain sequence engine (splits into three heaps: no sparse space)
H="$WORK/hex.h5"
expect_ok "$NS" solve octal -D code=0.f --size 2000 -o "$H"
expect_out '^engine: sequence'
expect_no_out '^rare values:'
if $PY -c 'import h5py, sys; f = h5py.File(sys.argv[1], "r"); sys.exit("rare" in f or "rare_mask" in f.attrs)' "$H"; then
    echo "ok: no /rare, no rare_mask without rare/common"
else
    fail "$H has /rare or rare_mask, but the sequence engine solved it"
fi
expect_ok "$NS" info "$H"
expect_no_out '^rare values:'
finish
