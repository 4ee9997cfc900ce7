#!/usr/bin/env bash
# test_mpi_placed.sh - a table held in memory by every rank, written into
# one file by all of them with the single-process filters (solve
# --mpi-write placed: the default of the general engine across ranks; the
# tile kernel with replicated sets and the row kernel in memory when
# asked; issue 21, item 3). Each rank fills and filters a contiguous share
# of the chunks of /grundy and /pn and writes them into rank 0's .part at
# the places rank 0 gives (src/store/ns_h5_placed.c); chunk c is rank c
# mod R's.
#
# Checked, at 2 and 3 ranks (1 to 4 for three-pile Nim; 4 for a table of
# one chunk: ranks with no chunk take part) against the default
# build's single-process file: h5same.py (every stored chunk byte for byte,
# so the ranks' chunks are the single-process filters' own bytes, and
# every attribute but the run's own), h5dump's allocation time (the
# single-process writer's, incremental: not parallel HDF5), mpi_write =
# placed and mpi_ranks = R, the summary's line with the bytes the ranks but
# 0 wrote (more than none at 2 ranks and more: every table but the tiny
# one has two chunks or more); three-pile Nim's values
# against Bouton's a ^ b ^ c; `info` says the ranks and who wrote the
# file (nothing of MPI for a single process's). A rank that cannot open the .part
# (NS_TEST_PLACE_REFUSE=R): rank 0 writes every chunk, the same file,
# mpi_write = rank0, the summary says so and the rank says why on stderr. A rank whose write fails
# (NS_H5_PLACED_TEST_FAIL=R:N, its write after N chunks): every rank stops
# in the same meeting, exit non-zero (not a hang), one message naming the
# rank, no file and no .part left.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

alloc() { # FILE: each dataset's allocation time, one line "NAME TIME"
    h5dump -pH "$1" | awk '/DATASET "/ { name = $2 } /H5D_ALLOC_TIME_/ { gsub(/ /, ""); print name, $0 }'
}

games=("nim -D piles=3 --bounds 200,128,100"
    "nim -D piles=3 --size 128 --pn-only --mpi-write placed"
    "moore -D piles=3 -D k=2 --size 112 --mpi-write placed"
    "a-wythoff -D a=2 --size 1200"
    "wythoff --size 2500 --mpi-sets replicated --mpi-write placed"
    "wythoff --size 4500 --pn-only --no-stream --mpi-write placed"
    "nim -D piles=3 --size 9")
names=(nim3 nim3-pn moore awythoff wythoff wythoff-pn tiny)
engines=(general general general general tiles2d rows-pn general)
for gi in "${!games[@]}"; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]}
    ref="$WORK/$nm.ref.h5"
    rm -f "$ref"
    # the reference: one process of the default build, no MPI option
    ref_game=()
    for x in "${game[@]}"; do
        case "$x" in --mpi-*|placed|replicated) ;; *) ref_game+=("$x") ;; esac
    done
    run "$REF_NS" solve "${ref_game[@]}" -q -o "$ref"
    [ "$RC" -eq 0 ] || { fail "reference $nm: exit $RC"; show; continue; }
    # chunks of the table dataset: chunk c is rank c mod R's, so with two or
    # more the ranks but 0 write some
    nchunks=$($PY -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
d = f["grundy"] if "grundy" in f else f["pn"]
n = 1
for s, c in zip(d.shape, d.chunks):
    n *= -(-s // c)
print(n)' "$ref")
    [ "$nm" = tiny ] || [ "$nchunks" -ge 2 ] || fail "$nm: expected a table of two chunks or more (got $nchunks)"
    ranks="2 3"   # one rank (placed when asked) and four: three-pile Nim's
    [ "$nm" = nim3 ] && ranks="1 2 3 4"
    [ "$nm" = tiny ] && ranks="4"   # one chunk: three ranks without any
    for r in $ranks; do
        f="$WORK/$nm.$r.h5"
        rm -f "$f" "$f.part"
        # one rank: placed only when asked (the general engine's default
        # is for jobs of 2 ranks or more)
        opt=()
        [ "$r" -eq 1 ] && [[ " ${game[*]} " != *" --mpi-write "* ]] && opt=(--mpi-write placed)
        mpi "$r" "$NS" solve "${game[@]}" "${opt[@]}" -o "$f"
        CHECKS=$((CHECKS + 1))
        [ "$RC" -eq 0 ] || { fail "$nm at $r ranks: exit $RC"; show; continue; }
        CHECKS=$((CHECKS + 1))
        grep -q "^engine: *${engines[$gi]}" "$OUT" || { fail "$nm at $r ranks: expected the ${engines[$gi]} engine"; show; }
        CHECKS=$((CHECKS + 1))
        $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
            fail "$nm at $r ranks: not the single-process file: $(head -3 "$WORK/diff")"
        CHECKS=$((CHECKS + 1))
        text_attr_is "$f" mpi_write placed && [ "$($PY -c 'import sys, h5py; print(int(h5py.File(sys.argv[1], "r").attrs["mpi_ranks"]))' "$f")" = "$r" ] ||
            fail "$nm at $r ranks: expected mpi_write = placed and mpi_ranks = $r"
        CHECKS=$((CHECKS + 1))
        alloc "$f" >"$WORK/alloc"
        grep -q H5D_ALLOC_TIME_INCR "$WORK/alloc" && ! grep -q H5D_ALLOC_TIME_EARLY "$WORK/alloc" ||
            fail "$nm at $r ranks: expected the single-process writer's allocation: $(cat "$WORK/alloc")"
        CHECKS=$((CHECKS + 1))
        line=$(grep "^mpi write: *$r ranks\? wrote $f at once, each its share of the chunks" "$OUT")
        others=$(sed -n 's/.* bytes of chunks, \([0-9]*\) by the ranks but 0.*/\1/p' <<<"$line")
        if [ -z "$line" ] || [ -z "$others" ]; then
            fail "$nm at $r ranks: expected the 'mpi write:' line"
            show
        elif [ "$r" -gt 1 ] && [ "$others" -eq 0 ] && [ "$nchunks" -ge 2 ]; then
            fail "$nm at $r ranks: the ranks but 0 wrote no chunk ($line)"
        elif [ "$r" -eq 1 ] && [ "$others" != 0 ]; then
            fail "$nm at one rank: expected no bytes from other ranks ($line)"
        fi
    done
done

# info says how the file was made (the ranks and who wrote it); a
# single-process file has no such line
CHECKS=$((CHECKS + 1))
run "$NS" info "$WORK/nim3.3.h5"
grep -q "^mpi: *3 ranks; file written by every rank, its chunks at the places rank 0 gave (placed)$" "$OUT" ||
    { fail "info nim3.3.h5: expected its mpi: line"; show; }
CHECKS=$((CHECKS + 1))
run "$NS" info "$WORK/wythoff.2.h5"
grep -q "^mpi: *2 ranks; file written by every rank, .*(placed); line sets replicated$" "$OUT" ||
    { fail "info wythoff.2.h5: expected its mpi: line with the line sets"; show; }
CHECKS=$((CHECKS + 1))
run "$NS" info "$WORK/nim3.ref.h5"
[ "$RC" -eq 0 ] && ! grep -q "^mpi:" "$OUT" || { fail "info of a single-process file: expected no mpi: line"; show; }

# the values against a closed form: Bouton's a ^ b ^ c, the sorted cells
CHECKS=$((CHECKS + 1))
$PY - "$WORK/nim3.3.h5" <<'PY' || fail "nim3 at 3 ranks: the values are not a ^ b ^ c"
import sys, h5py, numpy as np
g = h5py.File(sys.argv[1], "r")["grundy"][...].astype(np.int64)
a, b, c = np.indices(g.shape)
srt = (a <= b) & (b <= c)
sys.exit(0 if np.array_equal(g[srt], (a ^ b ^ c)[srt]) else 1)
PY

# a rank that cannot open the .part: rank 0 writes every chunk
f="$WORK/refuse.h5"
rm -f "$f"
NS_TEST_PLACE_REFUSE=1 mpi 2 "$NS" solve nim -D piles=3 --bounds 200,128,100 -o "$f"
CHECKS=$((CHECKS + 1))
if [ "$RC" -ne 0 ]; then
    fail "a rank refused: exit $RC"
    show
else
    CHECKS=$((CHECKS + 1))
    $PY "$SAME" "$WORK/nim3.ref.h5" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
        fail "a rank refused: not the single-process file: $(head -3 "$WORK/diff")"
    CHECKS=$((CHECKS + 1))
    text_attr_is "$f" mpi_write rank0 || fail "a rank refused: expected mpi_write = rank0"
    CHECKS=$((CHECKS + 1))
    "$NS" info "$f" | grep -q "^mpi: *2 ranks; file written by rank 0 alone (rank0)$" ||
        fail "a rank refused: info should say rank 0 wrote the file"
    CHECKS=$((CHECKS + 1))
    grep -q "^mpi write: *rank 0 of 2 wrote $f alone .*fell back to rank 0" "$OUT" ||
        { fail "a rank refused: expected the fallback in the 'mpi write:' line"; show; }
    CHECKS=$((CHECKS + 1))
    grep -q "^nimsieve solve: rank 1: $f.part: No such file or directory; rank 0 writes the file alone" "$ERR" &&
        [ "$(grep -c '^nimsieve solve:' "$ERR")" -eq 1 ] ||
        { fail "a rank refused: expected one line naming it on stderr"; show; }
fi

# a rank whose write fails: every rank stops, one message, nothing left
for how in 2:1:1 3:2:0; do
    IFS=: read -r r bad after <<<"$how"
    f="$WORK/fail.$r.h5"
    rm -f "$f" "$f.part"
    NS_H5_PLACED_TEST_FAIL="$bad:$after" mpi "$r" "$NS" solve nim -D piles=3 --bounds 200,128,100 -o "$f"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ] && [ "$RC" -ne 137 ] || { fail "rank $bad of $r failing: expected a failure, not exit $RC"; show; }
    CHECKS=$((CHECKS + 1))
    grep -q "^nimsieve solve: rank $bad of $r: .*: cannot write a chunk of [0-9]* bytes into .*fail.$r.h5.part: No space left on device (test hook)" "$ERR" ||
        { fail "rank $bad of $r failing: expected its message"; show; }
    CHECKS=$((CHECKS + 1))
    [ "$(grep -c '^nimsieve solve:' "$ERR")" -eq 1 ] || { fail "rank $bad of $r failing: expected one message"; show; }
    CHECKS=$((CHECKS + 1))
    [ ! -e "$f" ] && [ ! -e "$f.part" ] || fail "rank $bad of $r failing: a file was left: $(ls "$WORK" | grep fail)"
done

finish
