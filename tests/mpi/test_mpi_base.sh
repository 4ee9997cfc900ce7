#!/usr/bin/env bash
# test_mpi_base.sh - the MPI build (issue 21, item 1): --version says MPI and
# the rank count, only rank 0 prints, a subcommand not distributed runs on
# rank 0 alone, errors name the rank and the exit status comes through.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"

for r in 1 3; do
    mpi "$r" "$NS" --version
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 0 ] || { fail "--version under $r ranks: exit $RC"; show; }
    n=$(grep -c '^nimsieve ' "$OUT")
    [ "$n" -eq 1 ] || { fail "--version under $r ranks printed $n times: expected once (rank 0)"; show; }
    want="$r rank"
    grep -q "^MPI build (.*), $want" "$OUT" || { fail "--version: expected 'MPI build (...), $want'"; show; }
done

# a subcommand not distributed: rank 0 writes the table once, the others wait
rm -f "$WORK/nim.h5"
mpi 3 "$NS" solve nim -D piles=2 --size 16 -o "$WORK/nim.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] || { fail "solve under 3 ranks: exit $RC"; show; }
[ "$(grep -c '^output:' "$OUT")" -eq 1 ] || { fail "solve under 3 ranks: expected one report (rank 0)"; show; }
# two-pile Nim takes the tile kernel, which every rank shares (test_mpi_tiles.sh)
grep -q 'not distributed yet' "$ERR" && { fail "solve nim (tiles2d): expected no rank-0-only note"; show; }
# a take-and-break sequence (the sequence engines) is not distributed yet:
# rank 0 alone, with a note; its values: 0.3 gives G(n) = n mod 2
rm -f "$WORK/o3.h5"
mpi 3 "$NS" solve octal -D code=0.3 --size 100 -o "$WORK/o3.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] || { fail "solve octal under 3 ranks: exit $RC"; show; }
grep -Eq 'not distributed yet \(the [a-z-]+ engine\): runs on rank 0 of 3' "$ERR" ||
    { fail "solve octal: expected the rank-0-only note"; show; }
/usr/bin/python3 -c 'import sys,h5py; g=list(h5py.File(sys.argv[1],"r")["grundy"][...]); sys.exit(0 if g == [n % 2 for n in range(100)] else 1)' \
    "$WORK/o3.h5" || fail "o3.h5 written under 3 ranks is not n mod 2"
# the table: Bouton, G(a,b) = a xor b, read with h5py
/usr/bin/python3 - "$WORK/nim.h5" <<'PY' || fail "nim.h5 written under 3 ranks is not a xor b"
import sys, h5py, numpy as np
g = h5py.File(sys.argv[1], "r")["grundy"][...]
a, b = np.indices(g.shape)
sys.exit(0 if (g == (a ^ b)).all() else 1)
PY

# an error: exit 2 through mpirun, one message from rank 0 naming the rank
mpi 2 "$NS" solve nim --size 10
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 2 ] || { fail "a bad solve under 2 ranks: expected exit 2, got $RC"; show; }
grep -q '^nimsieve solve: rank 0 of 2: missing -o' "$ERR" || { fail "expected the error naming rank 0"; show; }
[ "$(grep -c '^nimsieve solve: rank' "$ERR")" -eq 1 ] || { fail "expected the error once"; show; }

# an output path only rank 0 refuses (rank 0 alone looks at -o): every rank
# stops, no hang. A finished file: again, with --resume (nothing left to
# resume), and a sweep's; the file stays as it was.
rm -f "$WORK/done.h5" "$WORK/done.h5.part"
mpi 2 "$NS" solve wythoff --size 200 -o "$WORK/done.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] || { fail "solve wythoff under 2 ranks: exit $RC"; show; }
sum0=$(cksum < "$WORK/done.h5")
for extra in "" --resume; do
    for sub in solve sweep; do
        if [ $sub = solve ]; then args=(wythoff --size 200); else args=(a-wythoff -D a=1..2 --size 32); fi
        mpi 2 "$NS" $sub "${args[@]}" -o "$WORK/done.h5" $extra
        CHECKS=$((CHECKS + 1))
        if [ "$RC" -ne 2 ] || ! grep -q "^nimsieve $sub: rank 0 of 2: .*done\.h5" "$ERR" ||
           [ "$(grep -c "^nimsieve $sub: rank" "$ERR")" -ne 1 ] || [ "$(cksum < "$WORK/done.h5")" != "$sum0" ]; then
            fail "$sub ${extra:-(new)} onto an existing file under 2 ranks: expected exit 2 and one message of rank 0, got $RC"
            show
        fi
    done
done
# a directory for -o, and a directory that does not exist
for o in "$WORK" "$WORK/no-such-dir/t.h5"; do
    mpi 3 "$NS" solve wythoff --size 100 -o "$o"
    CHECKS=$((CHECKS + 1))
    [ "$RC" -eq 2 ] && grep -q '^nimsieve solve: rank 0 of 3: ' "$ERR" ||
        { fail "solve -o $o under 3 ranks: expected exit 2 and rank 0's message, got $RC"; show; }
done

# an error of one rank alone before the ranks meet (MPMD: rank 1 is given a
# rule file that does not exist): that rank's message, no hang, exit 2, no
# table written; the same for a sweep
for sub in solve sweep; do
    if [ $sub = solve ]; then args=(--size 300 -o "$WORK/one.h5"); else args=(-D a=1..3 --size 64 -o "$WORK/one.h5"); fi
    g0=wythoff
    [ $sub = sweep ] && g0=a-wythoff
    rm -f "$WORK/one.h5" "$WORK/one.h5.part"
    run timeout -k 5 "$MPI_TIMEOUT" "$MPIEXEC" --oversubscribe -np 1 "$NS" $sub $g0 "${args[@]}" : \
        -np 1 "$NS" $sub "$WORK/no-such.rules" "${args[@]}"
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ne 2 ] || ! grep -q "^nimsieve $sub: rank 1 of 2: .*no-such\.rules" "$ERR" ||
       grep -q "^nimsieve $sub: rank 0" "$ERR" || [ -e "$WORK/one.h5" ] || [ -e "$WORK/one.h5.part" ]; then
        fail "$sub: an error of rank 1 alone: expected exit 2 and rank 1's message only, got $RC"
        show
    fi
done

finish
