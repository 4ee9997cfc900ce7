#!/usr/bin/env bash
# test_mpi_rows.sh - the P/N row kernel (rows-pn) across MPI ranks (issue
# 21, item 2): `mpirun -np R nimsieve solve ... --pn-only` of a two-pile
# game of rays writes, in memory and streamed, at R = 1..4 ranks and 1 or 2
# threads a rank, the file a single process writes, value for value (with
# the attribute mpi_ranks = R when R > 1). Games: Wythoff (1000 x 1000) and
# tests/mpi/asym-rays.rules (not symmetric, a ray with a = 2 and one that
# lags 3 rows; 700 x 500); sizes not multiples of the 256-row blocks.
# Streamed across ranks each rank writes its own blocks' chunks (placed:
# mpi_write = placed, one request for each block not rank 0's); with
# --mpi-write rank0, or a rank that cannot open the file, rank 0 writes
# alone, the same file. Also:
# more ranks than blocks (idle ranks), --resume without a checkpoint, and
# Wythoff's P-positions against Wythoff's closed form.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=90

games=("wythoff --size 1000" "$SRC/tests/mpi/asym-rays.rules --bounds 700,500")
names=(wythoff asym)
for gi in 0 1; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]}
    for mode in memory stream; do
        extra=(--pn-only --no-stream) # P/N tables stream by default
        [ "$mode" = stream ] && extra=(--pn-only --stream)
        ref="$WORK/$nm.$mode.ref.h5"
        rm -f "$ref"
        run "$REF_NS" solve "${game[@]}" "${extra[@]}" -q -o "$ref"
        [ "$RC" -eq 0 ] || { fail "reference $nm $mode: exit $RC"; show; continue; }
        for rt in 1x1 2x1 2x2 3x1 3x2 4x1 4x2; do
            r=${rt%x*} t=${rt#*x}
            f="$WORK/$nm.$mode.$rt.h5"
            rm -f "$f" "$f.part"
            OMP_NUM_THREADS=$t mpi "$r" "$NS" solve "${game[@]}" "${extra[@]}" -o "$f"
            CHECKS=$((CHECKS + 1))
            if [ "$RC" -ne 0 ]; then
                fail "$nm $mode at $r ranks x $t threads: exit $RC"
                show
                continue
            fi
            $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
                { fail "$nm $mode at $r ranks x $t threads: not the single-process file: $(head -3 "$WORK/diff")"; }
            grep -q '^engine: *rows-pn' "$OUT" || { fail "$nm $mode at $r ranks: expected the rows-pn engine"; show; }
            if [ "$r" -gt 1 ]; then
                CHECKS=$((CHECKS + 1))
                attr_is "$f" mpi_ranks "$r" || fail "$nm $mode at $r ranks: expected the root attribute mpi_ranks = $r"
                grep -q "^mpi: .*$r ranks, blocks of rows dealt cyclically" "$OUT" ||
                    { fail "$nm $mode at $r ranks: expected the mpi: line"; show; }
                [ "$(grep -c '^output:' "$OUT")" -eq 1 ] || { fail "$nm $mode at $r ranks: expected one report"; show; }
                ! grep -q 'not distributed yet' "$ERR" || { fail "$nm $mode at $r ranks: ran on rank 0 alone"; show; }
                if [ "$mode" = stream ]; then
                    # every rank wrote its own blocks' chunks: one request
                    # for each block not rank 0's (blocks b, b mod r != 0)
                    n0=$(sed -n 's/^bounds: *\([0-9]*\) x.*/\1/p' "$OUT")
                    nb=$(((n0 + 255) / 256)) want=0
                    for ((b = 0; b < nb; b++)); do [ $((b % r)) -ne 0 ] && want=$((want + 1)); done
                    CHECKS=$((CHECKS + 2))
                    text_attr_is "$f" mpi_write placed || fail "$nm $mode at $r ranks: expected mpi_write = placed"
                    grep -q "^mpi write: *each of $r ranks wrote the chunks of its own blocks of rows .*($want requests" \
                        "$OUT" || { fail "$nm $mode at $r ranks: expected $want placing requests on the mpi write: line"; show; }
                fi
            fi
        done
    done
done

# The blocks travel as the (index, value) pairs of their non-zero 32-bit
# words when that is shorter (ns_dist_tiles.c): Wythoff 20000 on 2 ranks,
# whose P bitmaps would be 25 MB from rank 0 (10240 rows of 2504 bytes),
# sends under 1 MB, and the file is still the single-process one
ref="$WORK/w20000.ref.h5" f="$WORK/w20000.2x1.h5"
rm -f "$ref" "$f"
run "$REF_NS" solve wythoff --size 20000 --pn-only --stream -q -o "$ref"
OMP_NUM_THREADS=1 mpi 2 "$NS" solve wythoff --size 20000 --pn-only --stream -o "$f"
CHECKS=$((CHECKS + 1))
if [ "$RC" -ne 0 ]; then
    fail "wythoff 20000 at 2 ranks: exit $RC"
    show
else
    $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
        fail "wythoff 20000 at 2 ranks: not the single-process file: $(head -3 "$WORK/diff")"
    sent=$(sed -n 's/^mpi: .*rank 0 sent \([0-9.]*\) MB.*/\1/p' "$OUT")
    CHECKS=$((CHECKS + 1))
    awk -v s="$sent" 'BEGIN { exit !(s != "" && s < 1.0) }' ||
        { fail "wythoff 20000 at 2 ranks: rank 0 sent '$sent' MB, expected the sparse blocks (< 1 MB)"; show; }
fi

# placed rows off: --mpi-write rank0, or a rank that cannot open rank 0's
# file (NS_TEST_PLACE_REFUSE): rank 0 writes alone, the same file
for how in rank0 refuse; do
    f="$WORK/asym.$how.h5"
    rm -f "$f"
    if [ "$how" = rank0 ]; then
        mpi 3 "$NS" solve "$SRC/tests/mpi/asym-rays.rules" --bounds 700,500 --pn-only --stream --mpi-write rank0 -o "$f"
    else
        NS_TEST_PLACE_REFUSE=2 mpi 3 "$NS" solve "$SRC/tests/mpi/asym-rays.rules" --bounds 700,500 --pn-only --stream -o "$f"
    fi
    CHECKS=$((CHECKS + 3))
    [ "$RC" -eq 0 ] || { fail "placed rows off ($how): exit $RC"; show; }
    $PY "$SAME" "$WORK/asym.stream.ref.h5" "$f" --skip "$SKIP" >/dev/null 2>&1 ||
        fail "placed rows off ($how): not the single-process file"
    text_attr_is "$f" mpi_write rank0 || fail "placed rows off ($how): expected mpi_write = rank0"
    if [ "$how" = refuse ]; then
        CHECKS=$((CHECKS + 1))
        grep -q "rank 2: .*rank 0 writes the file alone" "$ERR" || { fail "placed rows off: expected rank 2's note"; show; }
    fi
done

# Wythoff's P-positions from the closed form (Wythoff 1907): (a_k, a_k + k)
# and mirror, a_k = floor(k phi) = (k + isqrt(5 k^2)) // 2, in exact
# integers; in memory (/pn) and streamed (/pn and /p_positions)
for f in "$WORK/wythoff.memory.3x1.h5" "$WORK/wythoff.stream.4x2.h5"; do
    CHECKS=$((CHECKS + 1))
    $PY - "$f" <<'PY' || fail "$(basename "$f"): the P-positions are not Wythoff's pairs"
import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
pn = f["pn"][...]
n = pn.shape[0]
want = set()
for k in range(n):
    a = (k + math.isqrt(5 * k * k)) // 2
    if a + k < n:
        want |= {(a, a + k), (a + k, a)}
got = {(int(x), int(y)) for x, y in zip(*np.nonzero(pn == 0))}
ok = got == want
if "p_positions" in f:
    ok = ok and {(int(x), int(y)) for x, y in f["p_positions"][...]} == want
sys.exit(0 if ok and len(want) > 0 else 1)
PY
done

# more ranks than blocks of rows (300 rows: 2 blocks): the idle ranks only follow
for mode in memory stream; do
    extra=(--pn-only --no-stream)
    [ "$mode" = stream ] && extra=(--pn-only --stream)
    ref="$WORK/small.$mode.ref.h5" f="$WORK/small.$mode.h5"
    rm -f "$ref" "$f"
    run "$REF_NS" solve wythoff --size 300 "${extra[@]}" -q -o "$ref"
    mpi 4 "$NS" solve wythoff --size 300 "${extra[@]}" -q -o "$f"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] || { fail "4 ranks, 2 blocks of rows, $mode: exit $RC"; show; }
    $PY "$SAME" "$ref" "$f" --skip "$SKIP" >/dev/null 2>&1 || fail "4 ranks, 2 blocks of rows, $mode: not the single-process file"
done

# checkpoints across ranks (test_mpi_resume_rows.sh stops and resumes
# them): --resume without a checkpoint starts from the beginning (not
# refused as it was: the single-process file, no checkpoint left); across
# ranks it streams, as --checkpoint-every does (where one process keeps
# the table): every rank writes its blocks and its part of each checkpoint
rm -f "$WORK/r.h5" "$WORK/r.h5.ckpt"
mpi 2 "$NS" solve wythoff --size 300 --pn-only --resume -o "$WORK/r.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] || { fail "--resume without a checkpoint across 2 ranks: exit $RC"; show; }
grep -q '^no checkpoint .*r.h5.ckpt: starting from the beginning' "$OUT" ||
    { fail "--resume without a checkpoint across 2 ranks: expected the line saying it starts from the beginning"; show; }
$PY "$SAME" "$WORK/small.stream.ref.h5" "$WORK/r.h5" --skip "$SKIP" >/dev/null 2>&1 ||
    fail "--resume without a checkpoint across 2 ranks: not the streamed single-process file"
[ ! -e "$WORK/r.h5.ckpt" ] || fail "--resume across 2 ranks: a checkpoint is left behind"
rm -f "$WORK/c.h5" "$WORK/c.h5.ckpt"
mpi 2 "$NS" solve "$SRC/tests/mpi/asym-rays.rules" --bounds 700,500 --pn-only --checkpoint-every 0.000001 -o "$WORK/c.h5"
CHECKS=$((CHECKS + 4))
[ "$RC" -eq 0 ] || { fail "--checkpoint-every across 2 ranks: exit $RC"; show; }
grep -q "^solving .* streaming: .*(the default for P/N tables" "$OUT" ||
    { fail "--checkpoint-every across 2 ranks: expected the plan line to say it streams by default"; show; }
$PY "$SAME" "$WORK/asym.stream.ref.h5" "$WORK/c.h5" --skip "$SKIP" >/dev/null 2>&1 ||
    fail "--checkpoint-every across 2 ranks: not the streamed single-process file"
text_attr_is "$WORK/c.h5" mpi_write placed || fail "--checkpoint-every across 2 ranks: expected mpi_write = placed"

finish
