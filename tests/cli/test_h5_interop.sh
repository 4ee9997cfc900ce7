#!/usr/bin/env bash
# test_h5_interop.sh - a table written by `nimsieve solve` is readable by
# the standard tools: h5dump shows the datasets and attributes, h5py reads
# them, /pn and /p_positions agree with /grundy (numpy), and the Wythoff
# P-positions match the golden-ratio formula in exact integer arithmetic.
# usage: bash test_h5_interop.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
set -u
bin=$1
work=$3
mkdir -p "$work"
rm -f "$work/w.h5"
fail=0

say_fail() {
    echo "FAIL: $*"
    fail=1
}

if ! "$bin" solve wythoff --size 64 -o "$work/w.h5" >"$work/solve.out" 2>&1; then
    cat "$work/solve.out"
    echo "FAIL: nimsieve solve wythoff --size 64 -o $work/w.h5"
    exit 1
fi
[ -f "$work/w.h5" ] || { echo "FAIL: solve wrote no $work/w.h5"; exit 1; }
[ -e "$work/w.h5.part" ] && say_fail "the partial file $work/w.h5.part was left behind"

# h5dump: the header lists the three datasets and the root attributes
if ! h5dump -H "$work/w.h5" >"$work/h5dump.out" 2>&1; then
    cat "$work/h5dump.out"
    say_fail "h5dump -H $work/w.h5 failed"
fi
for ds in grundy pn p_positions; do
    grep -q "DATASET \"$ds\"" "$work/h5dump.out" || say_fail "h5dump -H shows no dataset $ds"
done
for at in game params bounds play kind nimsieve_version git_revision created_utc threads \
          wall_seconds hdf5_version gsl_version compiler build_flags complete max_value \
          n_p_positions; do
    grep -q "ATTRIBUTE \"$at\"" "$work/h5dump.out" || say_fail "h5dump -H shows no attribute $at"
done
# h5dump -p: every dataset chunked with shuffle, deflate and fletcher32
for ds in grundy pn p_positions; do
    h5dump -p -H -d "/$ds" "$work/w.h5" >"$work/h5dump.$ds" 2>&1 || say_fail "h5dump -p -d /$ds failed"
    for f in "CHUNKED" "PREPROCESSING SHUFFLE" "COMPRESSION DEFLATE" "CHECKSUM FLETCHER32"; do
        grep -q "$f" "$work/h5dump.$ds" || say_fail "h5dump -p shows no $f for /$ds"
    done
done

# h5py + numpy
if ! /usr/bin/python3 - "$work/w.h5" <<'EOF'
import math
import sys

import h5py
import numpy as np

path = sys.argv[1]
bad = []
with h5py.File(path, "r") as f:
    g = f["grundy"][...]
    pn = f["pn"][...]
    pp = f["p_positions"][...]
    a = f.attrs
    if g.shape != (64, 64) or pn.shape != (64, 64):
        bad.append(f"shapes: grundy {g.shape}, pn {pn.shape}, expected (64, 64)")
    if g.dtype != np.uint8:
        bad.append(f"grundy dtype {g.dtype}, expected uint8 (values < 256)")
    if pn.dtype != np.uint8:
        bad.append(f"pn dtype {pn.dtype}, expected uint8")
    if not np.array_equal(pn, (g != 0).astype(np.uint8)):
        bad.append("pn != (grundy != 0)")
    if pp.dtype != np.int64 or pp.ndim != 2 or pp.shape[1] != 2:
        bad.append(f"p_positions dtype {pp.dtype} shape {pp.shape}, expected int64 (n, 2)")
    if not np.array_equal(pp, np.argwhere(g == 0)):
        bad.append("p_positions != np.argwhere(grundy == 0)")
    for name in ("game", "params", "play", "kind", "created_utc", "hdf5_version", "gsl_version"):
        if not isinstance(a[name], str):
            bad.append(f"attribute {name} is {type(a[name]).__name__}, expected str")
    if a["game"] != "wythoff" or a["play"] != "normal" or a["kind"] != "grundy":
        bad.append(f"game/play/kind = {a['game']!r}/{a['play']!r}/{a['kind']!r}")
    if list(a["bounds"]) != [64, 64]:
        bad.append(f"bounds = {a['bounds']!r}")
    if int(a["complete"]) != 1:
        bad.append(f"complete = {a['complete']!r}")
    if int(a["max_value"]) != int(g.max()):
        bad.append(f"max_value = {a['max_value']} but grundy.max() = {g.max()}")
    if int(a["n_p_positions"]) != len(pp):
        bad.append(f"n_p_positions = {a['n_p_positions']} but {len(pp)} rows")
    if "invalid_value" in a:
        bad.append("invalid_value present although every cell of Wythoff is a position")

    # Wythoff: P-positions (a_n, b_n), (b_n, a_n) with a_n = floor(n phi)
    # = (n + isqrt(5 n^2)) // 2 and b_n = a_n + n
    want = set()
    n = 0
    while True:
        an = (n + math.isqrt(5 * n * n)) // 2
        bn = an + n
        if an >= 64:
            break
        if bn < 64:
            want.add((an, bn))
            want.add((bn, an))
        n += 1
    got = {tuple(int(c) for c in row) for row in pp}
    if got != want:
        bad.append(f"Wythoff P-positions: missing {sorted(want - got)[:5]}, extra {sorted(got - want)[:5]}")
    if len(want) != 49:
        bad.append(f"formula gives {len(want)} P-positions in 64x64, expected 49")

for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF
then
    fail=1
fi

# refusing to overwrite, then --force
if "$bin" solve wythoff --size 64 -o "$work/w.h5" >"$work/again.out" 2>&1; then
    say_fail "a second solve over an existing file succeeded without --force"
fi
grep -q -- "--force" "$work/again.out" || say_fail "the refusal does not mention --force: $(cat "$work/again.out")"
"$bin" solve wythoff --size 32 --force -o "$work/w.h5" >/dev/null 2>&1 || say_fail "solve --force failed"
h5dump -A "$work/w.h5" 2>/dev/null | grep -A4 'ATTRIBUTE "bounds"' | grep -q "(0): 32, 32" ||
    say_fail "after --force the file does not hold the 32x32 table"

[ $fail -eq 0 ] && echo "test_h5_interop: all checks passed"
exit $fail
