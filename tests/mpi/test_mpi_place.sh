#!/usr/bin/env bash
# test_mpi_place.sh - a streamed two-pile Grundy table across MPI ranks is
# written by every rank (issue 21, item 3: "each rank writes its chunks"):
# with owned line sets, the ranks but 0 filter their own tiles into
# chunks and write them into rank 0's file at the places rank 0 gives
# (placed chunks: store/ns_h5_place.c, dist/ns_dist_tiles.h). Checked:
#  - Wythoff 1500 at 2, 3 and 4 ranks, and two-pile Nim 1500 at 3 ranks x
#    2 threads: the single-process file value for value (h5same.py, and
#    h5diff on every dataset when installed), the values against the
#    closed forms (Wythoff's pairs; Nim's x XOR y), mpi_write = placed,
#    the summary's "mpi write:" line, and rank 0's received bytes below a
#    twentieth of what rank 0 receives when it writes alone
#    (--mpi-write rank0: every other rank's tiles, 4 bytes a cell); in
#    both ways rank 0's engine runs its own threads (the summary's "rank 0
#    computed on T threads"): when it writes alone its exchange's thread
#    stores the others' tiles;
#  - a rank that cannot open rank 0's file (test hook
#    NS_TEST_PLACE_REFUSE=R): one line on stderr naming the rank, rank 0
#    writes the file alone (mpi_write = rank0) on 2 threads, not 2 x 3,
#    the same file.
# Checkpoints and resumes of placed files (SIGTERM, a killed rank, under
# other rank counts) are test_mpi_resume.sh's streamed cases, which run
# placed by default.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=150
H5DIFF=$(command -v h5diff || true)

# the MB rank 0 received, from the summary's "mpi:" line
received() {
    sed -n 's/^mpi: .* received \([0-9.]*\) MB of .*/\1/p' "$OUT" | head -1
}

same_as() { # LABEL REF FILE
    CHECKS=$((CHECKS + 1))
    $PY "$SAME" "$2" "$3" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
        fail "$1: not the single-process file: $(head -3 "$WORK/diff")"
    if [ -n "$H5DIFF" ]; then
        CHECKS=$((CHECKS + 1))
        for ds in grundy pn p_positions; do
            h5diff "$2" "$3" "/$ds" "/$ds" >"$WORK/diff" 2>&1 || fail "$1: h5diff /$ds: $(head -3 "$WORK/diff")"
        done
    fi
}

for case in "wythoff 2 1" "wythoff 3 1" "wythoff 4 1" "nim 3 2"; do
    read -r nm r t <<<"$case"
    game=(wythoff --size 1500)
    [ "$nm" = nim ] && game=(nim -D piles=2 --size 1500)
    ref="$WORK/$nm.ref.h5"
    if [ ! -e "$ref" ]; then
        run "$REF_NS" solve "${game[@]}" --stream -q -o "$ref"
        [ "$RC" -eq 0 ] || { fail "reference $nm: exit $RC"; show; continue; }
    fi
    label="$nm at $r ranks x $t threads"
    f="$WORK/$nm.$r.h5"
    rm -f "$f"
    OMP_NUM_THREADS=$t mpi "$r" "$NS" solve "${game[@]}" --stream -o "$f"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] || { fail "$label: exit $RC"; show; continue; }
    same_as "$label" "$ref" "$f"
    CHECKS=$((CHECKS + 3))
    closed_form "$nm" "$f" || fail "$label: not the closed form's values"
    text_attr_is "$f" mpi_write placed || fail "$label: expected mpi_write = placed"
    grep -q "^mpi write:     each of $r ranks wrote the chunks of its own tiles into the file; rank 0 placed them" \
        "$OUT" && grep -q "^output: .*(shared: every rank wrote its own tiles' chunks" "$OUT" ||
        { fail "$label: expected the summary to say every rank wrote its chunks"; show; }
    CHECKS=$((CHECKS + 1))
    grep -q "^mpi: .*; rank 0 computed on $t thread" "$OUT" ||
        { fail "$label: expected rank 0 to compute on its own $t thread(s)"; show; }
    placed=$(received)
    # the same solve with rank 0 writing alone
    g="$WORK/$nm.$r.rank0.h5"
    rm -f "$g"
    OMP_NUM_THREADS=$t mpi "$r" "$NS" solve "${game[@]}" --stream --mpi-write rank0 -o "$g"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] || { fail "$label, rank0: exit $RC"; show; continue; }
    same_as "$label, rank0" "$ref" "$g"
    alone=$(received)
    CHECKS=$((CHECKS + 2))
    text_attr_is "$g" mpi_write rank0 || fail "$label, rank0: expected mpi_write = rank0"
    # rank 0 takes the others' tiles on its exchange's thread, not on
    # threads x ranks threads of its engine
    grep -q "^mpi: .*; rank 0 computed on $t thread" "$OUT" ||
        { fail "$label, rank0: expected rank 0 to compute on its own $t thread(s)"; show; }
    $PY -c "import sys; p, a = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if a > 1 and p * 20 < a else 1)" \
        "${placed:-x}" "${alone:-0}" 2>/dev/null ||
        fail "$label: rank 0 received ${placed:-?} MB with placed chunks, ${alone:-?} MB writing alone"
    echo "$label: rank 0 received $placed MB (placed chunks) against $alone MB (writing alone)"
done

# a rank that cannot reach the file: rank 0 writes it alone
f="$WORK/refuse.h5"
rm -f "$f"
NS_TEST_PLACE_REFUSE=1 OMP_NUM_THREADS=2 mpi 3 "$NS" solve wythoff --size 1500 --stream -o "$f"
CHECKS=$((CHECKS + 5))
grep -q "^mpi: .*; rank 0 computed on 2 threads" "$OUT" ||
    { fail "a rank refused: expected rank 0 to compute on its own 2 threads (not 2 x 3)"; show; }
[ "$RC" -eq 0 ] || { fail "a rank refused: exit $RC"; show; }
grep -q "^nimsieve solve: rank 1: .*refuse.h5.part: No such file or directory; rank 0 writes the file alone" "$ERR" ||
    { fail "a rank refused: expected the line naming rank 1"; show; }
text_attr_is "$f" mpi_write rank0 || fail "a rank refused: expected mpi_write = rank0"
! grep -q "^mpi write:" "$OUT" || { fail "a rank refused: the summary says the ranks wrote"; show; }
same_as "a rank refused" "$WORK/wythoff.ref.h5" "$f"

finish
