#!/bin/bash
# nimsieve verify: passes on fresh tables, fails (exit 1, mismatch listed)
# on a copy changed with h5py, samples large tables deterministically.
# Usage: bash test_cli_verify.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
PY=/usr/bin/python3

W="$WORK/w.h5"
WP="$WORK/wpn.h5"
expect_ok "$NS" solve wythoff --size 12 --quiet -o "$W"
expect_ok "$NS" solve wythoff --size 12 --pn-only --quiet -o "$WP"

expect_ok "$NS" verify "$W"
expect_out '^checking all 144 cells of '
expect_out '^verified 144 cells: OK$'
expect_ok "$NS" verify "$WP" --threads 1
expect_out '^verified 144 cells: OK$'
expect_ok "$NS" verify "$W" --samples 20 --seed 3
expect_out '^verified 20 cells: OK$'
expect_ok "$NS" verify "$W" --samples 0
expect_out '^verified 144 cells: OK$'

# A forger with h5py: change cells of /grundy (when present) and /pn, then
# make the derived data agree (attributes n_p_positions and max_value, the
# /p_positions list), so that the file is consistent and its checksums are
# valid (h5py recomputes them) and only a recomputation can tell.
cat >"$WORK/tamper.py" <<'EOF'
import sys
import h5py
import numpy as np
# tamper.py FILE  "x,y,..=grundy,pn"  ...
path = sys.argv[1]
with h5py.File(path, "r+") as f:
    for change in sys.argv[2:]:
        pos, vals = change.split("=")
        pos = tuple(int(c) for c in pos.split(","))
        gv, pv = (int(v) for v in vals.split(","))
        if "grundy" in f:
            f["grundy"][pos] = gv
        f["pn"][pos] = pv
    pn = f["pn"][...]
    pp = np.argwhere(pn == 0).astype(np.int64)       # row-major = lexicographic
    old = f["p_positions"]
    kw = dict(compression=old.compression, compression_opts=old.compression_opts,
              shuffle=old.shuffle, fletcher32=old.fletcher32)
    if len(pp):
        kw["chunks"] = (min(len(pp), old.chunks[0]), pp.shape[1])
    else:
        kw["chunks"] = True
        kw["maxshape"] = (None, pp.shape[1])
    del f["p_positions"]
    f.create_dataset("p_positions", data=pp, **kw)
    a = f.attrs
    a.modify("n_p_positions", np.array(len(pp), dtype=a["n_p_positions"].dtype))
    if "grundy" in f:
        a.modify("max_value", np.array(int(f["grundy"][...].max()), dtype=a["max_value"].dtype))
with h5py.File(path, "r") as f:  # everything reads back: checksums are valid
    for name in f:
        f[name][...]
EOF
tamper() { # tamper SRC DST CHANGE...
    local src=$1 dst=$2
    shift 2
    cp "$src" "$dst" && $PY "$WORK/tamper.py" "$dst" "$@"
}

# (3, 5) is a P-position (value 0); store 1 there (N)
T="$WORK/tampered.h5"
tamper "$W" "$T" 3,5=1,1 || fail "h5py could not change the copy"
expect_ok "$NS" info "$T"    # the forged file is consistent: it reads fine
expect_out '^P-positions: +[0-9]+ '
run "$NS" verify "$T"
expect_eq "verify exit status on a changed table" "$RC" 1
expect_out '^mismatch at \(3, 5\): stored 1, recomputed 0$'
expect_out '^verified 144 cells: [0-9]+ mismatch(es)?'
expect_no_out ': OK$'
CHECKS=$((CHECKS + 1))
[ -s "$ERR" ] && { fail "a mismatch is an answer, not an error: nothing on stderr"; show; }

# a non-zero value changed: (4, 5) has value 6 (OEIS A317205); store 2
T2="$WORK/tampered2.h5"
tamper "$W" "$T2" 4,5=2,1 || fail "h5py could not change the copy"
run "$NS" verify "$T2"
expect_eq "verify exit status on a changed value" "$RC" 1
expect_out '^mismatch at \(4, 5\): stored 2, recomputed 6$'

# the P/N table: (4, 7) is P; store N
T3="$WORK/tampered3.h5"
tamper "$WP" "$T3" 4,7=0,1 || fail "h5py could not change the copy"
run "$NS" verify "$T3"
expect_eq "verify exit status on a changed P/N table" "$RC" 1
expect_out '^mismatch at \(4, 7\): stored 1, recomputed 0$'

# a large table (more than 10^6 cells) is sampled; the same seed gives the
# same cells. Euclid's game: few options a cell, so --all stays quick.
BIG="$WORK/euclid.h5"
expect_ok "$NS" solve euclid --size 1001 --quiet -o "$BIG"
expect_ok "$NS" verify "$BIG" --samples 300 --seed 11
expect_out '^checking 300 cells of '
expect_out '^random cells, seed 11$'
expect_out '^verified 300 cells: OK$'
expect_ok "$NS" verify "$BIG"
expect_out '^checking 10000 cells'
expect_out '^verified 10000 cells: OK$'
# (1, 1) -> (1, 0), (0, 1), both terminal: value 1. Store 0 there; --all
# finds it (and the cells that have (1, 1) as an option).
tamper "$BIG" "$WORK/bad_euclid.h5" 1,1=0,0 || fail "h5py could not change the copy"
run "$NS" verify "$WORK/bad_euclid.h5" --all --threads 2
expect_eq "verify --all on a changed large table" "$RC" 1
expect_out '^checking all 1002001 cells'
expect_out '^mismatch at \(1, 1\): stored 0, recomputed 1$'
expect_out '^verified 1002001 cells: [0-9]+ mismatch'
run "$NS" verify "$WORK/bad_euclid.h5" --samples 200 --seed 5
RC1=$RC
cp "$OUT" "$WORK/s1"
run "$NS" verify "$WORK/bad_euclid.h5" --samples 200 --seed 5
expect_eq "same seed, same answer" "$(cat "$OUT"; echo "$RC")" "$(cat "$WORK/s1"; echo "$RC1")"

# ---- bad input ----
expect_error 2 verify "missing FILE" "$NS" verify
expect_error 2 verify "no-such\.h5" "$NS" verify "$WORK/no-such.h5"
expect_error 2 verify "--samples is -1" "$NS" verify "$W" --samples -1
expect_error 2 verify "--seed 'x' is not an integer" "$NS" verify "$W" --seed x
expect_error 2 verify "--threads is 0" "$NS" verify "$W" --threads 0
expect_error 2 verify "unknown option '--frob'" "$NS" verify "$W" --frob
echo "not hdf5" >"$WORK/bad.h5"
expect_error 2 verify "bad\.h5" "$NS" verify "$WORK/bad.h5"

finish
