#!/usr/bin/env bash
# test_mpi_owned.sh - the two-pile tile kernel across MPI ranks with owned
# line sets (issue 21, item 2: each rank keeps only its share of the line
# sets; ns_dist_tiles_own): the default of symmetric games across ranks,
# --mpi-sets owned on one rank. Across ranks such a solve streams by
# default (each rank writes its tiles' chunks). Wythoff (1000 x 1000) and
# two-pile Nim (1500 x 1500), in memory (--no-stream) and streamed, at
# 1..4 ranks (Nim: 2..4; one thread a rank, several rows of tiles a
# rank; two threads a rank in the plain cases and the rows dealt below) write the single-process file
# value for value, with the attributes mpi_ranks and mpi_sets = owned;
# Nim's values are x XOR y (Bouton) and Wythoff's P-positions Wythoff's
# pairs (closed forms in exact integers). Fewer rows of tiles than ranks (200:
# 2 rows at 4 ranks; 100: 1 row at 3). The set memory a rank holds (the
# summary line "mpi sets:", counted by the hooks) at 4 ranks is below half
# the figure of one rank (Wythoff 4096 x 4096, streamed); at 2 ranks,
# --mpi-keep 0 (no blocks kept between uses) holds under 2/3 of the
# default's figure, the same file; --mpi-keep 12Q is refused. --mpi-sets
# replicated still gives the same file (mpi_sets = replicated); a job
# stopped at a known anti-diagonal resumes with owned sets under 1, 2 and
# 3 ranks to the same file (also stopped with tile rows dealt 3 at a time
# and resumed 2 at a time); rows dealt 1 to 4 at a time (--mpi-rows, and
# its default at 2 threads a rank) give the same file, and 4 at a time
# move less than 0.6 of the line windows 1 at a time moves, and a resume
# after 25 of 31 anti-diagonals less than half a whole run's. The plain
# case (no symmetry: Wythoff in rectangles both ways, also misere and with
# one row or one column of tiles, tests/mpi/rowdiag.rules without the
# column move, tests/mpi/rays.rules and tests/cli/knight.rules with rays of
# other slopes, a rule file with rays of steps 64 and 70): in memory and
# streamed (placed chunks, and rank 0 writing alone) at 1-3 ranks the
# single-process file, owned by default, resumed under another rank count,
# and 4 ranks hold less than half the set memory of one; --mpi-sets owned
# on another engine is refused with one line.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

# owned_runs NAME "R1xT1 R2xT2 ..." GAME...: in memory and streamed, the
# single-process reference ($WORK/NAME.MODE.ref.h5), then the job at each
# ranks x threads (owned sets: the default across ranks, asked on one):
# the reference's file, mpi_sets = owned, the 'mpi sets:' line, one report
owned_runs() {
    local nm=$1 rts=$2 mode rt r t f ref
    shift 2
    for mode in memory stream; do
        local extra=(--no-stream)  # across ranks owned sets stream by default
        [ "$mode" = stream ] && extra=(--stream)
        ref="$WORK/$nm.$mode.ref.h5"
        rm -f "$ref"
        run "$REF_NS" solve "$@" "${extra[@]}" -q -o "$ref"
        [ "$RC" -eq 0 ] || { fail "reference $nm $mode: exit $RC"; show; continue; }
        for rt in $rts; do
            r=${rt%x*} t=${rt#*x}
            f="$WORK/$nm.$mode.$rt.h5"
            rm -f "$f" "$f.part"
            local own=()
            [ "$r" -eq 1 ] && own=(--mpi-sets owned)   # across ranks: the default
            OMP_NUM_THREADS=$t mpi "$r" "$NS" solve "$@" "${extra[@]}" "${own[@]}" -o "$f"
            CHECKS=$((CHECKS + 1))
            if [ "$RC" -ne 0 ]; then
                fail "$nm $mode owned at $r ranks x $t threads: exit $RC"
                show
                continue
            fi
            $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
                fail "$nm $mode owned at $r ranks x $t threads: not the single-process file: $(head -3 "$WORK/diff")"
            CHECKS=$((CHECKS + 2))
            text_attr_is "$f" mpi_sets owned || fail "$nm $mode at $r ranks: expected the root attribute mpi_sets = owned"
            grep -q "^mpi sets: *owned" "$OUT" || { fail "$nm $mode at $r ranks: expected the 'mpi sets: owned' line"; show; }
            [ "$(grep -c '^output:' "$OUT")" -eq 1 ] || { fail "$nm $mode at $r ranks: expected one report"; show; }
        done
    done
}

owned_runs wythoff "1x1 2x1 3x1 4x1" wythoff --size 1000
owned_runs nim "2x1 3x1 4x1" nim -D piles=2 --size 1500
for nm in wythoff nim; do
    for mode in memory stream; do
        CHECKS=$((CHECKS + 1))
        closed_form "$nm" "$WORK/$nm.$mode.3x1.h5" || fail "$nm $mode at 3 ranks: not the closed form's values"
    done
done

# fewer rows of tiles than ranks: ranks without a row of their own serve
# their blocks of lines all the same
for case in "200 4" "100 3"; do
    read -r n r <<<"$case"
    for mode in memory stream; do
        extra=(--no-stream)  # across ranks owned sets stream by default
        [ "$mode" = stream ] && extra=(--stream)
        ref="$WORK/small$n.$mode.ref.h5" f="$WORK/small$n.$mode.h5"
        rm -f "$ref" "$f"
        run "$REF_NS" solve wythoff --size "$n" "${extra[@]}" -q -o "$ref"
        mpi "$r" "$NS" solve wythoff --size "$n" "${extra[@]}" -o "$f"
        CHECKS=$((CHECKS + 1))
        [ "$RC" -eq 0 ] || { fail "$r ranks, size $n, $mode: exit $RC"; show; continue; }
        $PY "$SAME" "$ref" "$f" --skip "$SKIP" >/dev/null 2>&1 || fail "$r ranks, size $n, $mode: not the single-process file"
    done
done

# --mpi-sets replicated: every rank all the sets, the same file
f="$WORK/wythoff.replicated.h5"
rm -f "$f"
mpi 3 "$NS" solve wythoff --size 1000 --mpi-sets replicated -o "$f"
CHECKS=$((CHECKS + 3))
[ "$RC" -eq 0 ] || { fail "--mpi-sets replicated: exit $RC"; show; }
$PY "$SAME" "$WORK/wythoff.memory.ref.h5" "$f" --skip "$SKIP" >/dev/null 2>&1 || fail "--mpi-sets replicated: not the single-process file"
text_attr_is "$f" mpi_sets replicated || fail "--mpi-sets replicated: expected mpi_sets = replicated"

# across ranks, owned sets stream by default (every rank writes its own
# tiles' chunks): the streamed single-process file, placed, with the reason
# on the plan line; --no-stream keeps the table (the memory runs above)
f="$WORK/wythoff.default.h5"
rm -f "$f"
mpi 2 "$NS" solve wythoff --size 1000 -o "$f"
CHECKS=$((CHECKS + 4))
[ "$RC" -eq 0 ] || { fail "owned by default at 2 ranks: exit $RC"; show; }
grep -q "^solving .* streaming: .*(the default across ranks with owned line sets" "$OUT" ||
    { fail "owned by default at 2 ranks: expected the plan line to say it streams by default"; show; }
$PY "$SAME" "$WORK/wythoff.stream.ref.h5" "$f" --skip "$SKIP" >/dev/null 2>&1 ||
    fail "owned by default at 2 ranks: not the streamed single-process file"
text_attr_is "$f" mpi_write placed || fail "owned by default at 2 ranks: expected mpi_write = placed"

# set memory per rank: 4 ranks hold less than half of what one holds
peak() { sed -n 's/^mpi sets: *owned.* at most \([0-9]*\) bytes of line sets on a rank.*/\1/p' "$OUT"; }
rm -f "$WORK/big1.h5" "$WORK/big4.h5"
mpi 1 "$NS" solve wythoff --size 4096 --stream --mpi-sets owned -o "$WORK/big1.h5"
p1=$(peak)
mpi 4 "$NS" solve wythoff --size 4096 --stream -o "$WORK/big4.h5"
p4=$(peak)
CHECKS=$((CHECKS + 1))
if [ -z "$p1" ] || [ -z "$p4" ]; then
    fail "expected the set memory on the 'mpi sets:' line (1 rank: '$p1', 4 ranks: '$p4')"
    show
elif [ $((2 * p4)) -ge "$p1" ]; then
    fail "set memory per rank at 4 ranks $p4 bytes, not below half of one rank's $p1"
fi
CHECKS=$((CHECKS + 1))
$PY "$SAME" "$WORK/big1.h5" "$WORK/big4.h5" --skip "$SKIP" >/dev/null 2>&1 || fail "4096 at 4 ranks: not the file of 1 rank"

# --mpi-keep: the blocks a rank keeps between uses count in its memory
# (by default its share of the single process's sets, here 2 ranks);
# none kept (0): under 2/3 of the memory (measured: 4.2 against 9.4 MB),
# the same file; a bad size refused
rm -f "$WORK/keep0.h5" "$WORK/keepd.h5"
mpi 2 "$NS" solve wythoff --size 4096 --stream --mpi-keep 0 -o "$WORK/keep0.h5"
k0=$(peak)
grep -q "of which up to 0.0 MB of blocks kept between uses" "$OUT" || { fail "--mpi-keep 0: expected no blocks kept"; show; }
mpi 2 "$NS" solve wythoff --size 4096 --stream -o "$WORK/keepd.h5"
kd=$(peak)
CHECKS=$((CHECKS + 4))
if [ -z "$k0" ] || [ -z "$kd" ] || [ $((2 * kd)) -le $((3 * k0)) ]; then
    fail "--mpi-keep 0 at 2 ranks: expected under 2/3 of the set memory the default keeps ('$k0' against '$kd' bytes)"
    show
fi
for f in keep0 keepd; do
    $PY "$SAME" "$WORK/big1.h5" "$WORK/$f.h5" --skip "$SKIP" >/dev/null 2>&1 || fail "$f at 2 ranks: not the file of 1 rank"
done
run "$REF_NS" solve wythoff --size 300 --mpi-keep 12Q -o "$WORK/never.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 2 ] && grep -q "mpi-keep '12Q': expected a size" "$ERR" && [ ! -e "$WORK/never.h5" ] ||
    { fail "--mpi-keep 12Q: expected exit 2 and the error line"; show; }
echo "set memory of Wythoff 4096 streamed at 2 ranks: $k0 bytes with --mpi-keep 0, $kd by default"

# tile rows dealt K at a time (--mpi-rows; the default with owned sets:
# the threads a rank): the same file, and the line windows exchanged fall
# (a block passes between a rank's consecutive rows in place): at 2 ranks,
# 4 rows at a time move less than 0.6 of what 1 row at a time moves
windows() { sed -n 's/^mpi sets: .*line windows exchanged: \([0-9]*\) bytes by all ranks.*/\1/p' "$OUT"; }
ref="$WORK/deal.ref.h5"
rm -f "$ref"
run "$REF_NS" solve wythoff --size 2048 --stream -q -o "$ref"
declare -A moved
for case in "2 1 1" "2 4 1" "3 2 1" "4 3 1" "3 0 2"; do
    read -r r k t <<<"$case"
    rows=()
    [ "$k" -gt 0 ] && rows=(--mpi-rows "$k")
    f="$WORK/deal.$r.$k.h5"
    rm -f "$f"
    OMP_NUM_THREADS=$t mpi "$r" "$NS" solve wythoff --size 2048 --stream "${rows[@]}" -o "$f"
    CHECKS=$((CHECKS + 3))
    [ "$RC" -eq 0 ] || { fail "$r ranks, rows $k at a time: exit $RC"; show; continue; }
    $PY "$SAME" "$ref" "$f" --skip "$SKIP" >/dev/null 2>&1 || fail "$r ranks, rows $k at a time: not the single-process file"
    want=$k
    [ "$k" -eq 0 ] && want=$t   # the default: the threads a rank
    grep -q "^mpi: .*$r ranks, tile rows dealt cyclically, $want at a time" "$OUT" ||
        { fail "$r ranks, --mpi-rows $k, $t threads: expected $want rows at a time"; show; }
    moved[$r.$k]=$(windows)
done
CHECKS=$((CHECKS + 1))
if [ -z "${moved[2.1]}" ] || [ -z "${moved[2.4]}" ] || [ $((10 * ${moved[2.4]})) -ge $((6 * ${moved[2.1]})) ]; then
    fail "line windows at 2 ranks: ${moved[2.4]:-?} bytes 4 rows at a time, ${moved[2.1]:-?} one at a time"
fi
echo "line windows exchanged at 2 ranks: ${moved[2.1]} bytes one row at a time, ${moved[2.4]} four at a time"
# a resume late in the run moves only what crosses ranks after it: rank 0
# replays the finished tiles with their blocks kept in place (stopped at
# anti-diagonal 25 of 31 under 2 ranks: less than half the windows of the
# whole run above)
f="$WORK/late.h5"
rm -f "$f" "$f.ckpt" "$f.part" "$f.part.new"
NS_SOLVE_TEST_TERM_AT=25 mpi 2 "$NS" solve wythoff --size 2048 --stream --mpi-rows 1 -q -o "$f" --checkpoint-every 0.000001
CHECKS=$((CHECKS + 1))
if [ "$RC" -ne 143 ] || [ ! -e "$f.ckpt" ]; then
    fail "late resume: the stop at anti-diagonal 25 exited $RC, expected 143 and a checkpoint"
    show
else
    mpi 2 "$NS" solve wythoff --size 2048 --stream --mpi-rows 1 -o "$f" --resume
    late=$(windows)
    CHECKS=$((CHECKS + 2))
    [ "$RC" -eq 0 ] && $PY "$SAME" "$ref" "$f" --skip "$SKIP" >/dev/null 2>&1 ||
        { fail "late resume: exit $RC or not the single-process file"; show; }
    if [ -z "$late" ] || [ -z "${moved[2.1]}" ] || [ $((2 * late)) -ge "${moved[2.1]}" ]; then
        fail "late resume: ${late:-?} bytes of line windows, not below half of a whole run's ${moved[2.1]:-?}"
    fi
    echo "line windows of a resume after 25 of 31 anti-diagonals: $late bytes (a whole run: ${moved[2.1]})"
fi
mpi 2 "$NS" solve wythoff --size 100 --mpi-rows 0 -o "$WORK/rows0.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 2 ] && grep -q "mpi-rows '0': expected a number of tile rows from 1 to 1000000" "$ERR" ||
    { fail "--mpi-rows 0: expected exit 2 and one line"; show; }

# a resume with owned line sets: stopped at anti-diagonal 5 of 15 (test
# hook NS_SOLVE_TEST_TERM_AT) under 3 ranks, resumed under 1, 2 and 3:
# rank 0 replays the finished tiles into the sets at their homes, the
# others skip them; the file is the single-process one, and the resumed
# job across ranks keeps owned sets (mpi_sets = owned)
MIN_UNITS=5
for mode in memory stream; do
    extra=(--no-stream)  # across ranks owned sets stream by default
    [ "$mode" = stream ] && extra=(--stream)
    f="$WORK/own_resume.$mode.h5"
    rm -f "$f" "$f.ckpt" "$f.part" "$f.part.new"
    NS_SOLVE_TEST_TERM_AT=5 mpi 3 "$NS" solve wythoff --size 1000 "${extra[@]}" -q -o "$f" --checkpoint-every 0.000001
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 143 ] || [ -e "$f" ] || [ ! -e "$f.ckpt" ]; then
        fail "owned resume, $mode: the stop at anti-diagonal 5 under 3 ranks: exit $RC, expected 143 and a checkpoint"
        show
        continue
    fi
    resume_all "owned resume, $mode" "$f" "$WORK/wythoff.$mode.ref.h5" "1 2 3" -- wythoff --size 1000 "${extra[@]}"
    # stopped with rows dealt 3 at a time, resumed 2 at a time
    rm -f "$f" "$f.ckpt" "$f.part" "$f.part.new"
    NS_SOLVE_TEST_TERM_AT=5 mpi 3 "$NS" solve wythoff --size 1000 "${extra[@]}" --mpi-rows 3 -q -o "$f" \
        --checkpoint-every 0.000001
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 143 ] || [ ! -e "$f.ckpt" ]; then
        fail "owned resume, $mode, 3 rows at a time: exit $RC, expected 143 and a checkpoint"
        show
    else
        resume_all "owned resume, $mode, 3 rows at a time then 2" "$f" "$WORK/wythoff.$mode.ref.h5" "2 3" -- \
            wythoff --size 1000 "${extra[@]}" --mpi-rows 2
    fi
    CHECKS=$((CHECKS + 2))
    text_attr_is "$f" mpi_sets owned || fail "owned resume, $mode: resumed under 3 ranks, expected mpi_sets = owned"
    grep -q "^mpi sets: *owned" "$OUT" || { fail "owned resume, $mode: expected the 'mpi sets: owned' line"; show; }
done

# the plain case: every tile computed and sent as it is, the diagonal
# blocks below zero
owned_runs plain0 "1x1 2x1 3x2" wythoff --bounds 700,1100
owned_runs plain1 "2x1 3x2" wythoff --bounds 1100,700
owned_runs plain2 "2x1 3x2" "$SRC/tests/mpi/rowdiag.rules" --bounds 900,500
# misere play; one row of tiles at 3 ranks, and one column
owned_runs plain3 "2x1" wythoff --bounds 700,1100 --misere
owned_runs plain4 "3x1" wythoff --bounds 100,1000
owned_runs plain5 "3x1" nim -D piles=2 --bounds 1000,100
# other rays: a tile takes several blocks of their lines
owned_runs plain6 "1x1 2x1 3x2" "$SRC/tests/mpi/rays.rules" --bounds 700,500
owned_runs plain7 "2x1 3x1" "$SRC/tests/cli/knight.rules" --bounds 600,900
# streamed with rank 0 writing the file alone (--mpi-write rank0, and a
# rank that cannot open it): rank 0's exchange stores the others' tiles as
# they are (no mirror)
for how in "--mpi-write rank0" "refuse"; do
    f="$WORK/plain6.rank0.h5"
    rm -f "$f" "$f.part"
    if [ "$how" = refuse ]; then
        NS_TEST_PLACE_REFUSE=2 mpi 3 "$NS" solve "$SRC/tests/mpi/rays.rules" --bounds 700,500 --stream -o "$f"
    else
        mpi 3 "$NS" solve "$SRC/tests/mpi/rays.rules" --bounds 700,500 --stream $how -o "$f"
    fi
    CHECKS=$((CHECKS + 3))
    [ "$RC" -eq 0 ] || { fail "rays.rules streamed, rank 0 alone ($how): exit $RC"; show; continue; }
    $PY "$SAME" "$WORK/plain6.stream.ref.h5" "$f" --skip "$SKIP" >/dev/null 2>&1 ||
        fail "rays.rules streamed, rank 0 alone ($how): not the single-process file"
    text_attr_is "$f" mpi_write rank0 || fail "rays.rules streamed ($how): expected mpi_write = rank0"
    grep -q "rank 0 computed on" "$OUT" || { fail "rays.rules streamed ($how): expected rank 0's threads on the mpi: line"; show; }
done
# stopped at anti-diagonal 6 under 3 ranks, resumed under 2 (rows rank 0
# replayed in part go on elsewhere with their row and diagonal blocks)
for mode in memory stream; do
    extra=(--no-stream)  # across ranks owned sets stream by default
    [ "$mode" = stream ] && extra=(--stream)
    f="$WORK/plain_resume.$mode.h5"
    rm -f "$f" "$f.ckpt" "$f.part" "$f.part.new"
    NS_SOLVE_TEST_TERM_AT=6 mpi 3 "$NS" solve wythoff --bounds 1100,700 "${extra[@]}" -q -o "$f" \
        --checkpoint-every 0.000001
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 143 ] || [ ! -e "$f.ckpt" ]; then
        fail "plain resume, $mode: the stop at anti-diagonal 6: exit $RC, expected 143 and a checkpoint"
        show
        continue
    fi
    mpi 2 "$NS" solve wythoff --bounds 1100,700 "${extra[@]}" -o "$f" --resume
    CHECKS=$((CHECKS + 2))
    [ "$RC" -eq 0 ] && grep -q '^resuming from' "$OUT" && $PY "$SAME" "$WORK/plain1.$mode.ref.h5" "$f" --skip "$SKIP" \
        >/dev/null 2>&1 || { fail "plain resume, $mode, under 2 ranks: exit $RC or not the single-process file"; show; }
    text_attr_is "$f" mpi_sets owned || fail "plain resume, $mode: expected mpi_sets = owned"
done
# the set memory of a rectangle: 4 ranks hold less than half of one's
rm -f "$WORK/rect1.h5" "$WORK/rect4.h5"
mpi 1 "$NS" solve wythoff --bounds 2048,4096 --stream --mpi-sets owned -o "$WORK/rect1.h5"
p1=$(peak)
mpi 4 "$NS" solve wythoff --bounds 2048,4096 --stream -o "$WORK/rect4.h5"
p4=$(peak)
CHECKS=$((CHECKS + 2))
if [ -z "$p1" ] || [ -z "$p4" ] || [ $((2 * p4)) -ge "$p1" ]; then
    fail "a 2048 x 4096 rectangle: set memory per rank at 4 ranks ${p4:-?} bytes, not below half of one rank's ${p1:-?}"
    show
fi
$PY "$SAME" "$WORK/rect1.h5" "$WORK/rect4.h5" --skip "$SKIP" >/dev/null 2>&1 || fail "2048 x 4096 at 4 ranks: not 1 rank's file"
echo "set memory of Wythoff 2048 x 4096 streamed: $p1 bytes on 1 rank, at most $p4 on a rank of 4"

# rays of long steps, (x - 64t, y - t) and (x - t, y - 70t) (a step of 64
# once ended the exchange's kinds): a tile takes 65 and 71 blocks
cat >"$WORK/long.rules" <<'RULES'
game long
piles x y
move x -> x - t                    for t in 1..x
move y -> y - t                    for t in 1..y
move (x, y) -> (x - 64*t, y - t)   for t in 1..min(x / 64, y)
move (x, y) -> (x - t, y - 70*t)   for t in 1..min(x, y / 70)
RULES
owned_runs plain8 "2x1" "$WORK/long.rules" --bounds 600,500

# a game of another engine (three-pile Nim: the general engine) cannot own
# its sets
mpi 2 "$NS" solve nim -D piles=3 --size 20 --mpi-sets owned -o "$WORK/refused.h5"
CHECKS=$((CHECKS + 2))
[ "$RC" -eq 2 ] || fail "--mpi-sets owned on three-pile Nim: expected exit 2, got $RC"
grep -q "mpi-sets owned: only for the tile kernel's games.*general engine" "$ERR" ||
    { fail "--mpi-sets owned on three-pile Nim: expected the reason"; show; }

finish
