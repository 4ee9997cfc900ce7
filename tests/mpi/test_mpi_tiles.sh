#!/usr/bin/env bash
# test_mpi_tiles.sh - the two-pile tile kernel across MPI ranks (issue 21,
# item 2): `mpirun -np R nimsieve solve ...` of a game the tiles2d engine
# takes writes, in memory and streamed, at R = 1..4 ranks and 1 or 2
# threads a rank, the file a single process writes, value for value (with
# the attribute mpi_ranks = R when R > 1). Games: Wythoff (the symmetric
# path, 1000 x 1000) and wythoff-twice.rules (five rays: the general path,
# 700 x 700, with replicated line sets: owned ones are test_mpi_owned.sh's);
# sizes not multiples of the 128-cell tiles. Also: more ranks
# than rows of tiles (idle ranks), and Wythoff's P-positions against
# Wythoff's closed form. Checkpoints and --resume: test_mpi_resume.sh.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=90

games=("wythoff --size 1000" "$SRC/data/rules/wythoff-twice.rules --size 700 --mpi-sets replicated")
names=(wythoff twice)
for gi in 0 1; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]}
    for mode in memory stream; do
        extra=(--no-stream)  # across ranks owned sets stream by default
        [ "$mode" = stream ] && extra=(--stream)
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
            if [ "$r" -gt 1 ]; then
                CHECKS=$((CHECKS + 1))
                attr_is "$f" mpi_ranks "$r" || fail "$nm $mode at $r ranks: expected the root attribute mpi_ranks = $r"
                grep -q "^mpi: .*$r ranks" "$OUT" || { fail "$nm $mode at $r ranks: expected the mpi: line"; show; }
                [ "$(grep -c '^output:' "$OUT")" -eq 1 ] || { fail "$nm $mode at $r ranks: expected one report"; show; }
            fi
        done
    done
done

# Wythoff's P-positions from the closed form (Wythoff 1907): (a_k, a_k + k)
# and mirror, a_k = floor(k phi) = (k + isqrt(5 k^2)) // 2, in exact integers
CHECKS=$((CHECKS + 1))
$PY - "$WORK/wythoff.memory.3x1.h5" <<'PY' || fail "wythoff at 3 ranks: the P-positions are not Wythoff's pairs"
import sys, math, h5py, numpy as np
g = h5py.File(sys.argv[1], "r")["grundy"][...]
n = g.shape[0]
want = np.zeros((n, n), bool)
for k in range(n):
    a = (k + math.isqrt(5 * k * k)) // 2
    if a + k < n:
        want[a, a + k] = want[a + k, a] = True
sys.exit(0 if np.array_equal(g == 0, want) else 1)
PY

# more ranks than rows of tiles (200: 2 rows): the idle ranks only replay
for mode in memory stream; do
    extra=(--no-stream)  # across ranks owned sets stream by default
    [ "$mode" = stream ] && extra=(--stream)
    ref="$WORK/small.$mode.ref.h5" f="$WORK/small.$mode.h5"
    rm -f "$ref" "$f"
    run "$REF_NS" solve wythoff --size 200 "${extra[@]}" -q -o "$ref"
    mpi 4 "$NS" solve wythoff --size 200 "${extra[@]}" -q -o "$f"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] || { fail "4 ranks, 2 rows of tiles, $mode: exit $RC"; show; }
    $PY "$SAME" "$ref" "$f" --skip "$SKIP" >/dev/null 2>&1 || fail "4 ranks, 2 rows of tiles, $mode: not the single-process file"
done

finish
