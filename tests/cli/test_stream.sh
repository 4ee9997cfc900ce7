#!/usr/bin/env bash
# Streaming solves (--stream, or chosen by --memory, or by default for P/N
# tables of ray games): the file equals the
# in-memory solve's dataset by dataset (h5diff, value by value), with the
# same summary attributes; at 1, 2 and 3 threads; symmetric (Wythoff,
# two-pile Nim), non-symmetric (a rectangle; a rule file with a (-1,-2)
# ray) and misere; the same table checked against the naive mex at a
# seeded sample of cells (`verify`) and read by h5py. Bad uses fail with
# one line and leave no file.
NS=$1; SRC=$2; WORK=$3
rm -rf "$WORK"
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
# verify rebuilds every cell's options one by one (Wythoff 600^2: 18 s in
# Release, over a minute under ASan): it checks a seeded sample of 60000
# cells (20000 under ASan); each streamed file also equals the in-memory
# one value for value (above), whose engines the unit tests check against
# naive solvers cell by cell
VERIFY=(--samples 60000)
[ "$SANITIZED" = 1 ] && VERIFY=(--samples 20000)


same() { # name, in-memory file, streamed file[, datasets (default: all three)]
    local name=$1 mem=$2 str=$3
    shift 3
    for ds in ${@:-/grundy /pn /p_positions}; do
        CHECKS=$((CHECKS + 1))
        h5diff -q "$mem" "$str" "$ds" "$ds" >/dev/null 2>&1 || fail "$name: $ds of the streamed file differs"
    done
    set -- "$name" "$mem" "$str"
    for at in max_value n_p_positions kind game bounds play; do
        CHECKS=$((CHECKS + 1))
        a=$(h5dump -a "/$at" "$2" | grep -A1 DATA | tail -1)
        b=$(h5dump -a "/$at" "$3" | grep -A1 DATA | tail -1)
        [ "$a" = "$b" ] || fail "$1: attribute $at differs: '$a' vs '$b'"
    done
}

case_() { # name, solve arguments...
    local name=$1; shift
    expect_ok "$NS" solve "$@" --quiet -o "$WORK/$name.mem.h5"
    for t in 1 2 3; do
        expect_ok "$NS" solve "$@" --stream --threads "$t" -o "$WORK/$name.s$t.h5"
        expect_out "streaming"
        same "$name ($t threads)" "$WORK/$name.mem.h5" "$WORK/$name.s$t.h5"
    done
    expect_ok "$NS" verify "${VERIFY[@]}" "$WORK/$name.s2.h5"
    expect_out "OK"
}

case_ wythoff wythoff --size 600
case_ wythoff_small wythoff --size 100          # one tile, cut to the bounds
case_ nim2 nim -D piles=2 --size 300
case_ wythoff_rect wythoff --bounds 300,517
case_ wythoff_misere wythoff --size 400 --misere
case_ knight "$SRC/tests/cli/knight.rules" --bounds 400,400

# h5py reads the streamed file: Wythoff's P-positions by the golden ratio
# (exact integer floor(n*phi) = (n + isqrt(5 n^2)) // 2)
CHECKS=$((CHECKS + 1))
$PY - "$WORK/wythoff.s2.h5" <<'PYEOF' || fail "h5py check of the streamed file"
import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
g = f["grundy"][:]
want = set()
n = 0
while True:
    a = (n + math.isqrt(5 * n * n)) // 2
    b = a + n
    if a >= 600:
        break
    if b < 600:
        want.add((a, b)); want.add((b, a))
    n += 1
got = set(map(tuple, np.argwhere(g == 0).tolist()))
pp = set(map(tuple, f["p_positions"][:].tolist()))
assert got == want == pp, (len(got), len(want), len(pp))
assert (f["pn"][:] == (g != 0)).all()
PYEOF

# P/N tables of such games stream by default (blocks of 256 rows of P
# bitmaps; /pn chunks with no P-position are not stored); an explicit
# --checkpoint-every keeps the table in memory: the two files are equal.
# Bounds cut blocks (300 rows) and /pn chunks (1300 columns); 1-3 threads.
same_pn() { # name, in-memory file, streamed file: a P/N file has no /grundy
    same "$1" "$2" "$3" /pn /p_positions
    CHECKS=$((CHECKS + 1))
    h5dump -H "$3" | grep -q 'DATASET "grundy"' && fail "$1: a P/N file with /grundy"
}

pn_case() { # name, solve arguments...
    local name=$1; shift
    expect_ok "$NS" solve "$@" --pn-only --checkpoint-every 300 -o "$WORK/$name.mem.h5"
    CHECKS=$((CHECKS + 1))
    grep -q streaming "$OUT" && fail "$name: --checkpoint-every should keep the P/N table in memory"
    for t in 1 2 3; do
        expect_ok "$NS" solve "$@" --pn-only --threads "$t" -o "$WORK/$name.s$t.h5"
        expect_out "streaming: P/N in blocks of 256 rows"
        same_pn "$name ($t threads)" "$WORK/$name.mem.h5" "$WORK/$name.s$t.h5"
    done
    expect_ok "$NS" verify "${VERIFY[@]}" "$WORK/$name.s2.h5"
    expect_out "OK"
}

pn_case wythoff_pn wythoff --size 700
pn_case wythoff_pn_rect wythoff --bounds 300,1300
pn_case nim2_pn nim -D piles=2 --size 1100
pn_case knight_pn "$SRC/tests/cli/knight.rules" --bounds 600,700
# misere P/N has no rows kernel: in memory, and --stream is refused
expect_ok "$NS" solve wythoff --size 300 --pn-only --misere -o "$WORK/pn_misere.h5"
CHECKS=$((CHECKS + 1))
grep -q streaming "$OUT" && fail "a misere P/N solve should not stream"

# h5py reads the streamed P/N file (absent chunks read as the fill value N)
CHECKS=$((CHECKS + 1))
$PY - "$WORK/wythoff_pn_rect.s2.h5" <<'PYEOF' || fail "h5py check of the streamed P/N file"
import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
pn = f["pn"][:]
assert pn.shape == (300, 1300)
want = set()
n = 0
while True:
    a = (n + math.isqrt(5 * n * n)) // 2
    b = a + n
    if a >= 1300:
        break
    for x, y in ((a, b), (b, a)):
        if x < 300 and y < 1300:
            want.add((x, y))
    n += 1
got = set(map(tuple, np.argwhere(pn == 0).tolist()))
pp = set(map(tuple, f["p_positions"][:].tolist()))
assert got == want == pp, (len(got), len(want), len(pp))
assert set(np.unique(pn).tolist()) == {0, 1}
PYEOF

# --memory too small for the table: streaming is chosen by itself
# (3000^2: table 17 MiB, line sets 6.6 MiB)
expect_ok "$NS" solve wythoff --size 3000 --quiet -o "$WORK/big.mem.h5"
expect_ok "$NS" solve wythoff --size 3000 --threads 2 --memory 12M -o "$WORK/auto.h5"
expect_out "streaming"
same auto "$WORK/big.mem.h5" "$WORK/auto.h5"
# ... and when even streaming does not fit, a clear error
expect_error 2 solve "streaming still needs .* of memory" "$NS" solve wythoff --size 3000 --memory 4M -o "$WORK/no.h5"
[ -e "$WORK/no.h5" ] && fail "a refused solve left $WORK/no.h5"
# a game that cannot stream
expect_error 2 solve "--stream: .* cannot be solved streaming" "$NS" solve a-wythoff -D a=2 --size 200 --stream -o "$WORK/no.h5"
expect_error 2 solve "--stream: .* cannot be solved streaming" "$NS" solve wythoff --size 200 --pn-only --misere --stream -o "$WORK/no.h5"
# --resume without a checkpoint starts from the beginning, streaming too
# (streamed checkpoints: tests/cli/test_stream_resume.sh)
expect_ok "$NS" solve wythoff --size 200 --stream --resume -q -o "$WORK/resumed.h5"
[ -e "$WORK/no.h5" ] && fail "a refused solve left $WORK/no.h5"
ls "$WORK"/*.part >/dev/null 2>&1 && fail "a .part file was left behind"
finish
