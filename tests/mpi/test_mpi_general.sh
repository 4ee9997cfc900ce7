#!/usr/bin/env bash
# test_mpi_general.sh - the general engine (the level sieve) across MPI
# ranks (issue 21, item 2, second bullet): `mpirun -np R nimsieve solve ...`
# of a game the general engine takes writes, at R = 1..4 ranks and 1 or 2
# threads a rank, the file a single process writes, value for value (with
# the attribute mpi_ranks = R when R > 1). Games: Nim on 3 piles (Grundy
# and P/N), Moore's Nim_2 on 3 piles (the running sets of subsets),
# a-Wythoff a = 2 (lagged and early line sets) and a rule file that lowers
# exactly two of three piles (strict boxes), boxes not of equal sides.
# The values against independent sources: Nim's a ^ b ^ c (Bouton), Moore's
# theorem (P iff every binary column sums to 0 mod k + 1) and a naive mex
# of a-Wythoff written here. The values of a level travel at 1 byte a cell
# where they fit (Nim), at 2 past 255 (a-Wythoff). Also --resume and
# --checkpoint-every taken
# across ranks, and a failure mid-run (a widening past --memory) ends the
# job with its cause, not a hang.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
MPI_TIMEOUT=120

# lower exactly two of three piles: the running sets of strict boxes
printf 'game two\npiles p[1..3]\nmove p -> (p[i] - t[i] for i in 1..3) for (t[i] in 0..p[i] for i in 1..3) where count(t[i] > 0 for i in 1..3) == 2\n' >"$WORK/two.rules"
games=("nim -D piles=3 --bounds 40,36,30" "nim -D piles=3 --bounds 40,36,30 --pn-only"
       "moore -D piles=3 -D k=2 --bounds 28,24,20" "a-wythoff -D a=2 --bounds 160,150"
       "$WORK/two.rules --bounds 24,22,20")
names=(nim nimpn moore awythoff two)
for gi in 0 1 2 3 4; do
    read -r -a game <<<"${games[$gi]}"
    nm=${names[$gi]}
    ref="$WORK/$nm.ref.h5"
    rm -f "$ref"
    run "$REF_NS" solve "${game[@]}" -q -o "$ref"
    [ "$RC" -eq 0 ] || { fail "reference $nm: exit $RC"; show; continue; }
    for rt in 1x1 2x1 2x2 3x1 3x2 4x1 4x2; do
        r=${rt%x*} t=${rt#*x}
        f="$WORK/$nm.$rt.h5"
        rm -f "$f"
        OMP_NUM_THREADS=$t mpi "$r" "$NS" solve "${game[@]}" -o "$f"
        CHECKS=$((CHECKS + 1))
        if [ "$RC" -ne 0 ]; then
            fail "$nm at $r ranks x $t threads: exit $RC"
            show
            continue
        fi
        $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
            fail "$nm at $r ranks x $t threads: not the single-process file: $(head -3 "$WORK/diff")"
        if [ "$r" -gt 1 ]; then
            CHECKS=$((CHECKS + 1))
            attr_is "$f" mpi_ranks "$r" || fail "$nm at $r ranks: expected the root attribute mpi_ranks = $r"
            grep -q "^mpi: .*$r ranks, a block of each of" "$OUT" || { fail "$nm at $r ranks: expected the mpi: line"; show; }
            grep -q "^engine: general" "$OUT" || { fail "$nm at $r ranks: expected the general engine"; show; }
            [ "$(grep -c '^output:' "$OUT")" -eq 1 ] || { fail "$nm at $r ranks: expected one report"; show; }
            # the values travel at the narrowest width that holds each
            # level's largest: Nim 40 x 36 x 30 (values below 64) at one
            # byte, a-Wythoff 160 x 150 (values to 308) at two past 255
            widths=$(sed -n 's/^mpi: .* a block of each of \([0-9]*\) shared levels.*bytes a value: \([0-9]*\), \([0-9]*\), \([0-9]*\))$/\1 \2 \3 \4/p' "$OUT")
            read -r lv w1 w2 w4 <<<"${widths:-x x x x}"
            CHECKS=$((CHECKS + 1))
            case $nm in
            nim | nimpn) [ "$w1" = "$lv" ] && [ "$w2" = 0 ] && [ "$w4" = 0 ] ;;
            awythoff) [ "$w1" != x ] && [ "$w2" -gt 0 ] && [ "$w4" = 0 ] && [ $((w1 + w2)) -eq "$lv" ] ;;
            *) [ "$w1" != x ] && [ $((w1 + w2 + w4)) -eq "$lv" ] ;;
            esac || { fail "$nm at $r ranks: levels by width '$widths' not as expected"; show; }
        fi
    done
done

# the values, from independent sources, in the files of 3 ranks x 2 threads
CHECKS=$((CHECKS + 1))
$PY - "$WORK" <<'PY' || fail "the values across 3 ranks are not Bouton's, Moore's or a-Wythoff's"
import sys, h5py, numpy as np
w = sys.argv[1]
bad = []
g = h5py.File(f"{w}/nim.3x2.h5", "r")["grundy"][...]
a, b, c = np.indices(g.shape)
if not np.array_equal(g, a ^ b ^ c):
    bad.append("nim: not a ^ b ^ c")
p = h5py.File(f"{w}/nimpn.3x2.h5", "r")["pn"][...]
if not np.array_equal(p == 0, (a ^ b ^ c) == 0):
    bad.append("nim P/N: P not where a ^ b ^ c = 0")
m = h5py.File(f"{w}/moore.3x2.h5", "r")["grundy"][...]
x = np.indices(m.shape)
ok = np.ones(m.shape, bool)
for bit in range(8):
    ok &= ((x >> bit) & 1).sum(axis=0) % 3 == 0
if not np.array_equal(m == 0, ok):
    bad.append("moore: P-positions not Moore's")
aw = h5py.File(f"{w}/awythoff.3x2.h5", "r")["grundy"][...]
n0, n1 = aw.shape
G = np.zeros((n0, n1), np.int64)
for i in range(n0):
    for j in range(n1):
        seen = set(G[:i, j].tolist()) | set(G[i, :j].tolist())
        for x_ in range(1, i + 1):  # both piles: x and y >= 1, |x - y| < 2
            for y_ in (x_ - 1, x_, x_ + 1):
                if 1 <= y_ <= j:
                    seen.add(int(G[i - x_, j - y_]))
        v = 0
        while v in seen:
            v += 1
        G[i, j] = v
if not np.array_equal(aw, G):
    bad.append("a-wythoff: not the naive mex")
for s in bad:
    print(s)
sys.exit(1 if bad else 0)
PY

# checkpoints across ranks (test_mpi_resume_general.sh stops and resumes
# them), no longer refused: --resume without a checkpoint starts from the
# beginning, --checkpoint-every is taken; each gives the single-process
# file and leaves no checkpoint
for gi in 0 1; do
    if [ "$gi" -eq 0 ]; then
        game=(nim -D piles=3 --bounds 30,30,30) opt=--resume
    else
        game=(moore -D piles=3 -D k=2 --bounds 20,20,20) opt="--checkpoint-every 5"
    fi
    ref="$WORK/ck$gi.ref.h5" f="$WORK/ck$gi.h5"
    rm -f "$ref" "$f" "$f.ckpt"
    run "$REF_NS" solve "${game[@]}" -q -o "$ref"
    [ "$RC" -eq 0 ] || { fail "reference ${game[*]}: exit $RC"; show; continue; }
    # shellcheck disable=SC2086
    mpi 2 "$NS" solve "${game[@]}" $opt -o "$f"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] || { fail "$opt across 2 ranks (general): exit $RC"; show; continue; }
    $PY "$SAME" "$ref" "$f" --skip "$SKIP" >/dev/null 2>&1 || fail "$opt across 2 ranks (general): not the single-process file"
    [ ! -e "$f.ckpt" ] || fail "$opt across 2 ranks (general): a checkpoint is left behind"
done

# a failure on every rank mid-run (the sets must widen past --memory at
# level 128): the job ends with exit 2 and the cause, no hang, no file, and
# rank 0's checkpoint of the levels before it (the other ranks wait for it,
# ns_dist_fail_meet, instead of ending the job first), which a resume with
# a larger --memory under 2 ranks takes to the single-process file; three
# times, for the ranks' order varies (each checkpoint write held 4 s,
# NS_TEST_CKPT_DELAY: the other ranks ending the job first would cut it)
ref="$WORK/m.ref.h5"
rm -f "$ref"
run "$REF_NS" solve nim -D piles=3 --bounds 400,20,20 -q -o "$ref"
for attempt in 1 2 3; do
    rm -f "$WORK/m.h5" "$WORK/m.h5.ckpt" "$WORK/m.h5.part"
    OMP_NUM_THREADS=1 NS_TEST_CKPT_DELAY=4 mpi 3 "$NS" solve nim -D piles=3 --bounds 400,20,20 --memory 800K -o "$WORK/m.h5"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 2 ] && grep -q 'rank [0-2] of 3: the line sets and running sets need .* (at level 128 of 438' "$ERR" ||
        { fail "a widening past --memory across 3 ranks ($attempt): expected exit 2 and the cause"; show; }
    [ ! -e "$WORK/m.h5" ] || fail "a failed solve across ranks wrote m.h5"
    CHECKS=$((CHECKS + 1))
    grep -q 'rank 0 of 3: .*checkpoint .*m.h5.ckpt holds [0-9]* of 438 units: continue with --resume and a larger --memory' "$ERR" &&
        [ -e "$WORK/m.h5.ckpt" ] ||
        { fail "a widening past --memory across 3 ranks ($attempt): expected rank 0's checkpoint"; show; continue; }
    OMP_NUM_THREADS=1 mpi 2 "$NS" solve nim -D piles=3 --bounds 400,20,20 --memory 64M --resume -o "$WORK/m.h5"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] && grep -q '^resuming from' "$OUT" && $PY "$SAME" "$ref" "$WORK/m.h5" --skip "$SKIP" >/dev/null 2>&1 ||
        { fail "resumed after the widening past --memory ($attempt): not the single-process file"; show; }
done

finish
