#!/usr/bin/env bash
# test_mpi_write.sh - who writes the file of a solve across MPI ranks
# (issue 21, item 3; solve --mpi-write rank0|parallel; placed:
# test_mpi_placed.sh). With --mpi-write
# parallel every rank writes its bands of chunk rows with parallel HDF5:
# the row kernel's P/N tables (rows-pn, in memory), the general engine's
# Grundy and P/N tables on three piles and the tile kernel's Grundy
# tables, under 1, 2 and 3 ranks (3: an odd count), each file equal to the
# default build's single-process file: h5same.py (type, shape, chunks,
# filters, values, attributes but the run's own) and h5diff dataset by
# dataset (HDF5's own tool, when installed), with the root attributes
# mpi_ranks = R and mpi_write = parallel and every dataset allocated early
# (H5D_ALLOC_TIME_EARLY, the mark of a dataset created through MPI-IO: the
# single-process writer allocates incrementally, so this fails when the
# ranks do not write). Tables with more chunk rows than ranks and with
# fewer (one band: idle writers at 2 and 3 ranks) are both among them (the
# test checks which: every engine has a table of 4 or 5 bands).
# --mpi-write rank0 (and the default, but for the general engine) gives the same values written by
# rank 0 alone (mpi_write = rank0, incremental allocation). A streamed
# solve (tile kernel, row kernel; 1, 2, 3 ranks) asked for --mpi-write
# parallel is the single-process file; on 2 and 3 ranks it is written by
# every rank, its own tiles' (owned line sets) or blocks of rows' chunks
# (mpi_write = placed, the summary says so); on one rank by that rank,
# which says on stderr that the parallel write was not used. The values
# themselves against closed forms: Wythoff's P-positions (Wythoff 1907),
# Nim's a ^ b ^ c (Bouton 1901), Moore's Nim_2 P-positions (Moore 1910:
# every binary digit's sum over the piles is 0 mod 3).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120
H5DIFF=$(command -v h5diff || true)
[ -n "$H5DIFF" ] || echo "note: h5diff not installed; h5same.py alone compares the files"

# FILE: each dataset's allocation time, one line "NAME TIME"
alloc() {
    h5dump -pH "$1" | awk '/DATASET "/ { name = $2 } /H5D_ALLOC_TIME_/ { gsub(/ /, ""); print name, $0 }'
}

# FILE NAME: the root attribute NAME as text
attr() {
    $PY - "$@" <<'PY'
import sys, h5py
v = h5py.File(sys.argv[1], "r").attrs.get(sys.argv[2])
print("" if v is None else (v.decode() if isinstance(v, bytes) else str(v)))
PY
}

# FILE: bands of chunk rows of the table dataset (/grundy, else /pn)
bands() {
    $PY - "$1" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
d = f["grundy"] if "grundy" in f else f["pn"]
print(-(-d.shape[0] // d.chunks[0]))
PY
}

# REF GOT: h5diff on every dataset of REF (exit 0: the same values)
h5diff_all() {
    local ds
    for ds in $($PY -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
f.visititems(lambda n, o: print("/" + n) if isinstance(o, h5py.Dataset) else None)' "$1"); do
        "$H5DIFF" -q "$1" "$2" "$ds" "$ds" || { echo "h5diff: $ds differs"; return 1; }
    done
}

games=("wythoff --size 4500 --pn-only --no-stream"
    "$SRC/tests/mpi/asym-rays.rules --bounds 700,500 --pn-only --no-stream"
    "nim -D piles=3 --bounds 200,128,100"
    "nim -D piles=3 --size 48 --pn-only"
    "moore -D piles=3 -D k=2 --size 24"
    "wythoff --size 2500 --mpi-sets replicated")
names=(wythoff-pn asym-pn nim3 nim3-pn moore wythoff)
engines=(rows-pn rows-pn general general general tiles2d)
few=0 many=""
for gi in "${!games[@]}"; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]}
    ref="$WORK/$nm.ref.h5"
    rm -f "$ref"
    run "$REF_NS" solve "${game[@]}" -q -o "$ref"
    [ "$RC" -eq 0 ] || { fail "reference $nm: exit $RC"; show; continue; }
    nb=$(bands "$ref")
    [ "$nb" -lt 3 ] && few=$((few + 1))
    [ "$nb" -gt 3 ] && many="$many ${engines[$gi]}"
    for r in 1 2 3; do
        f="$WORK/$nm.$r.h5"
        rm -f "$f" "$f.part"
        mpi "$r" "$NS" solve "${game[@]}" --mpi-write parallel -o "$f"
        CHECKS=$((CHECKS + 1))
        if [ "$RC" -ne 0 ]; then
            fail "$nm at $r ranks: exit $RC"
            show
            continue
        fi
        CHECKS=$((CHECKS + 1))
        grep -q "^engine: *${engines[$gi]}" "$OUT" || { fail "$nm at $r ranks: expected the ${engines[$gi]} engine"; show; }
        CHECKS=$((CHECKS + 1))
        $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
            fail "$nm at $r ranks ($nb bands): not the single-process file: $(head -3 "$WORK/diff")"
        if [ -n "$H5DIFF" ]; then
            CHECKS=$((CHECKS + 1))
            h5diff_all "$ref" "$f" >"$WORK/diff" 2>&1 ||
                fail "$nm at $r ranks ($nb bands): h5diff: $(head -3 "$WORK/diff")"
        fi
        CHECKS=$((CHECKS + 1))
        [ "$(attr "$f" mpi_ranks)" = "$r" ] && [ "$(attr "$f" mpi_write)" = parallel ] ||
            fail "$nm at $r ranks: expected mpi_ranks = $r and mpi_write = parallel, got '$(attr "$f" mpi_ranks)' and '$(attr "$f" mpi_write)'"
        CHECKS=$((CHECKS + 1))
        alloc "$f" >"$WORK/alloc"
        [ -s "$WORK/alloc" ] && ! grep -qv 'H5D_ALLOC_TIME_EARLY' "$WORK/alloc" ||
            fail "$nm at $r ranks: a dataset not written through MPI-IO: $(cat "$WORK/alloc")"
        CHECKS=$((CHECKS + 1))
        grep -q "^mpi write: *$r ranks\? wrote $f at once with parallel HDF5" "$OUT" ||
            { fail "$nm at $r ranks: expected the 'mpi write:' line"; show; }
    done
done
CHECKS=$((CHECKS + 1))
for e in rows-pn general tiles2d; do
    [[ " $many " == *" $e "* ]] || fail "expected a table of the $e engine with more chunk rows than 3 ranks"
done
[ "$few" -ge 2 ] || fail "expected tables with fewer chunk rows than 3 ranks (got $few)"

# rank 0 alone: --mpi-write rank0, and the default (the general engine's
# default is placed: test_mpi_placed.sh)
for how in "--mpi-write rank0" ""; do
    read -r -a opt <<<"$how"
    nms="wythoff-pn nim3"
    [ -z "$how" ] && nms=wythoff-pn
    for nm in $nms; do
        [ "$nm" = nim3 ] && game=(nim -D piles=3 --bounds 200,128,100) || game=(wythoff --size 4500 --pn-only --no-stream)
        f="$WORK/$nm.rank0.h5"
        rm -f "$f"
        mpi 3 "$NS" solve "${game[@]}" "${opt[@]}" -o "$f"
        CHECKS=$((CHECKS + 1))
        [ "$RC" -eq 0 ] || { fail "$nm rank0 ($how): exit $RC"; show; continue; }
        CHECKS=$((CHECKS + 1))
        $PY "$SAME" "$WORK/$nm.ref.h5" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
            fail "$nm rank0 ($how): not the single-process file: $(head -3 "$WORK/diff")"
        CHECKS=$((CHECKS + 1))
        [ "$(attr "$f" mpi_write)" = rank0 ] && [ "$(attr "$f" mpi_ranks)" = 3 ] ||
            fail "$nm rank0 ($how): expected mpi_write = rank0, got '$(attr "$f" mpi_write)'"
        CHECKS=$((CHECKS + 1))
        alloc "$f" | grep -q H5D_ALLOC_TIME_INCR || fail "$nm rank0 ($how): expected the single-process writer's allocation"
        CHECKS=$((CHECKS + 1))
        grep -q "^mpi write: *rank 0 of 3 wrote $f alone" "$OUT" || { fail "$nm rank0 ($how): expected its 'mpi write:' line"; show; }
    done
done

# streamed solves (the tile kernel's Grundy table, the row kernel's P/N
# table) at 1, 2 and 3 ranks: placed (every rank its own chunks) on 2 or
# more, whatever --mpi-write parallel asked
for nm in stream stream-pn; do
    game=(wythoff --size 1000 --stream)
    [ "$nm" = stream-pn ] && game=(wythoff --size 4500 --pn-only --stream)
    ref="$WORK/$nm.ref.h5"
    rm -f "$ref"
    run "$REF_NS" solve "${game[@]}" -q -o "$ref"
    [ "$RC" -eq 0 ] || { fail "reference $nm: exit $RC"; show; continue; }
    for r in 1 2 3; do
        f="$WORK/$nm.$r.h5"
        rm -f "$f"
        mpi "$r" "$NS" solve "${game[@]}" --mpi-write parallel -o "$f"
        CHECKS=$((CHECKS + 1))
        [ "$RC" -eq 0 ] || { fail "$nm at $r ranks: exit $RC"; show; continue; }
        CHECKS=$((CHECKS + 1))
        $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
            fail "$nm at $r ranks: not the single-process file: $(head -3 "$WORK/diff")"
        if [ -n "$H5DIFF" ]; then
            CHECKS=$((CHECKS + 1))
            h5diff_all "$ref" "$f" >"$WORK/diff" 2>&1 || fail "$nm at $r ranks: h5diff: $(head -3 "$WORK/diff")"
        fi
        # a Grundy table (owned line sets) or a P/N table on 2 or more
        # ranks: every rank writes its own tiles' or blocks' chunks
        want=rank0
        placed=0
        [ "$r" -gt 1 ] && { want=placed; placed=1; }
        what="tiles"
        [ "$nm" = stream-pn ] && what="blocks of rows"
        [ "$r" -eq 1 ] && want="" # one rank: a single process's file
        CHECKS=$((CHECKS + 1))
        [ "$(attr "$f" mpi_write)" = "$want" ] || fail "$nm at $r ranks: expected mpi_write = '$want', got '$(attr "$f" mpi_write)'"
        CHECKS=$((CHECKS + 1))
        if [ "$placed" -eq 1 ]; then
            grep -q "^mpi write:     each of $r ranks wrote the chunks of its own $what into the file" "$OUT" &&
                ! grep -q "written by rank 0 alone" "$ERR" ||
                { fail "$nm at $r ranks: expected every rank to write its chunks"; show; }
        else
            grep -q "^nimsieve solve: --mpi-write parallel: this streamed solve's file is written by rank 0 alone" "$ERR" ||
                { fail "$nm at $r ranks: expected the note on stderr"; show; }
        fi
    done
done

# a bad value: one line, exit 2
mpi 2 "$NS" solve wythoff --size 100 --mpi-write everyone -o "$WORK/bad.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 2 ] && grep -Eq "^nimsieve solve: (rank [01] of 2: )?--mpi-write 'everyone': expected rank0, placed or parallel" "$ERR" ||
    { fail "--mpi-write everyone: expected exit 2 and the message"; show; }

# the values against closed forms (3 ranks, parallel)
CHECKS=$((CHECKS + 1))
$PY - "$WORK" <<'PY' || fail "the values of the parallel files are not the closed forms"
import sys, math, h5py, numpy as np
w = sys.argv[1]
bad = []
# Wythoff P-positions: (a_k, a_k + k) and mirror, a_k = (k + isqrt(5 k^2)) // 2
f = h5py.File(w + "/wythoff-pn.3.h5", "r")
pn = f["pn"][...]
n = pn.shape[0]
want = np.zeros((n, n), bool)
for k in range(n):
    a = (k + math.isqrt(5 * k * k)) // 2
    if a + k < n:
        want[a, a + k] = want[a + k, a] = True
if not np.array_equal(pn == 0, want):
    bad.append("wythoff-pn")
g = h5py.File(w + "/wythoff.3.h5", "r")["grundy"][...]
want = np.zeros(g.shape, bool)
for k in range(g.shape[0]):
    a = (k + math.isqrt(5 * k * k)) // 2
    if a + k < g.shape[0]:
        want[a, a + k] = want[a + k, a] = True
if not np.array_equal(g == 0, want):
    bad.append("wythoff")
# Nim: a ^ b ^ c (sorted cells a <= b <= c are stored; the others hold the invalid marker)
f = h5py.File(w + "/nim3.3.h5", "r")
g = f["grundy"][...].astype(np.int64)
a, b, c = np.indices(g.shape)
srt = (a <= b) & (b <= c)
if not np.array_equal(g[srt], (a ^ b ^ c)[srt]):
    bad.append("nim3")
f = h5py.File(w + "/nim3-pn.3.h5", "r")
pn = f["pn"][...]
a, b, c = np.indices(pn.shape)
srt = (a <= b) & (b <= c)
if not np.array_equal((pn == 0)[srt], ((a ^ b ^ c) == 0)[srt]):
    bad.append("nim3-pn")
# Moore's Nim_2: P iff each binary digit's count over the piles is 0 mod 3
f = h5py.File(w + "/moore.3.h5", "r")
g = f["grundy"][...]
a, b, c = np.indices(g.shape)
srt = (a <= b) & (b <= c)
p = np.ones(g.shape, bool)
for bit in range(6):
    p &= (((a >> bit) & 1) + ((b >> bit) & 1) + ((c >> bit) & 1)) % 3 == 0
if not np.array_equal((g == 0)[srt], p[srt]):
    bad.append("moore")
print(" ".join(bad))
sys.exit(1 if bad else 0)
PY

finish
