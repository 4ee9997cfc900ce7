#!/bin/bash
# test_solve_sets_memory.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The memory budget of the general engine's sets (issue 19 item 1): the plan
# states the sets the solve starts with (2 words, 128 values, a set) and the
# most they can grow to, and --memory is checked against the start, then at
# each widening. Moore's Nim_2 on 3 piles at 128^3: the running sets are two
# levels of one bitset per cell of a level (128^2) and pile set (3), 16
# bytes each at the start: 1.50 MiB; the table 2 bytes a cell: 4.00 MiB.
#  - --memory 256M is accepted (the worst case, hundreds of MiB, was
#    refused) and gives the table of the solve without --memory, whose
#    P-positions follow Moore's theorem (checked here in Python);
#  - --memory 5M, below table + start, is refused before any work, one line;
#  - --memory 6M holds the start but not the first widening (3.00 MiB of
#    sets): the solve stops with one line naming the budget and the size it
#    needed, after a checkpoint; --resume with a larger --memory finishes it
#    and the table equals the reference.
NS=$1
SRC=$2
WORK=$3
rm -rf "$WORK"
. "$SRC/tests/cli/cli_lib.sh"
cd "$WORK" || exit 1
py=/usr/bin/python3
game=(moore -D piles=3 -D k=2 --size 128 --threads 2)

same_tables() {
    "$py" - "$1" "$2" <<'PY'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
ok = sorted(a.keys()) == sorted(b.keys())
for k in a.keys():
    if k in b and not (a[k].dtype == b[k].dtype and a[k].shape == b[k].shape
                       and np.array_equal(a[k][...], b[k][...])):
        ok = False
        print("dataset %s differs" % k)
sys.exit(0 if ok else 1)
PY
}

expect_ok "$NS" solve "${game[@]}" -o ref.h5
CHECKS=$((CHECKS + 1))
"$py" - ref.h5 <<'PY' || fail "ref.h5: P-positions differ from Moore's theorem"
import sys, h5py, numpy as np
g = h5py.File(sys.argv[1], "r")["grundy"][...]
x, y, z = np.indices(g.shape)
p = np.ones(g.shape, dtype=bool)
for bit in range(8):
    c = (x >> bit & 1) + (y >> bit & 1) + (z >> bit & 1)
    p &= c % 3 == 0
bad = int(np.count_nonzero((g == 0) != p))
print("cells against Moore's theorem:", bad)
sys.exit(1 if bad else 0)
PY

expect_ok "$NS" solve "${game[@]}" --memory 256M -o mem.h5
expect_out 'line sets 1\.50 MiB at first \(they widen with the values; at most [0-9.]+ MiB\)'
CHECKS=$((CHECKS + 1))
same_tables ref.h5 mem.h5 || fail "--memory 256M: the table differs from the solve without --memory"

expect_error 2 solve 'needs 5\.50 MiB of memory \(table 4\.00 MiB \+ line sets 1\.50 MiB\) but --memory allows 5\.00 MiB' \
    "$NS" solve "${game[@]}" --memory 5M -o tiny.h5
CHECKS=$((CHECKS + 1))
[ ! -e tiny.h5 ] && [ ! -e tiny.h5.ckpt ] || fail "--memory 5M: something was written"

expect_error 2 solve 'need 3\.00 MiB for values below 256 \(4 words a set\) but the memory limit leaves them 2\.00 MiB .*of 6\.00 MiB \(--memory\) less the table 4\.00 MiB; checkpoint grow\.h5\.ckpt holds [0-9]+ of 382 units: continue with --resume and a larger --memory' \
    "$NS" solve "${game[@]}" --memory 6M -q -o grow.h5
CHECKS=$((CHECKS + 1))
[ -e grow.h5.ckpt ] && [ ! -e grow.h5 ] || fail "--memory 6M: expected a checkpoint and no table"
expect_ok "$NS" solve "${game[@]}" --memory 256M --resume -q -o grow.h5
CHECKS=$((CHECKS + 1))
same_tables ref.h5 grow.h5 || fail "resumed after the budget stop: the table differs"

finish
