#!/bin/bash
# test_valgrind_slow.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Small solves through every kernel (two-pile Grundy tiles, two-pile P/N
# rows, the general engine with rays, a prefix family from the preset and
# from a rule file, and a rule file's general family, in the checkpoint
# run), a checkpoint and a resume, and the reading subcommands,
# each under valgrind's memcheck: any invalid read or write, use of an
# uninitialised value or definite leak fails the test. "Possibly lost" and
# "still reachable" blocks are not errors: they are the OpenMP runtime's
# thread stacks and HDF5's library state, which live until the process
# ends. Label slow (valgrind runs ~30x slower).
set -u
nimsieve=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
if ! command -v valgrind >/dev/null 2>&1; then
    echo "FAIL: valgrind is not installed (tools/deps.sh installs it)"
    exit 1
fi
fails=0
vg() {
    local name=$1
    shift
    valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite -q --log-file="$name.vg" "$nimsieve" "$@" >"$name.out" 2>"$name.err"
    local rc=$?
    if [ "$rc" -eq 99 ] || [ -s "$name.vg" ]; then
        echo "FAIL: valgrind reports errors for: nimsieve $*"
        head -40 "$name.vg"
        fails=$((fails + 1))
    elif [ "$rc" -ne "${EXPECT_RC:-0}" ]; then
        echo "FAIL: exit $rc (expected ${EXPECT_RC:-0}) for: nimsieve $*"
        cat "$name.err"
        fails=$((fails + 1))
    else
        echo "ok: nimsieve $*"
    fi
}

for th in 1 2; do
    export OMP_NUM_THREADS=$th
    vg "tiles$th" solve wythoff --size 150 -o "w$th.h5" -q
    vg "rows$th" solve wythoff --size 600 --pn-only -o "p$th.h5" -q
    vg "nim$th" solve nim -D piles=3 --size 12 -o "n$th.h5" -q
    vg "fib$th" solve fibonacci-nim --size 60 -o "f$th.h5" -q
    vg "rules$th" solve "$src/data/rules/a-wythoff.rules" --size 40 -o "r$th.h5" -q
    vg "rulesfib$th" solve "$src/data/rules/fibonacci-nim.rules" --size 60 -o "rf$th.h5" -q
done
unset OMP_NUM_THREADS
# a checkpoint written on SIGTERM, then a resume (the checkpoint reader)
valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite -q \
    --log-file=term.vg "$nimsieve" solve "$src/tests/cli/fib-general.rules" --size 300 -o c.h5 \
    --checkpoint-every 0.001 -q >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    [ -e c.h5.ckpt ] && break
    sleep 0.1
done
sleep 0.5
kill -TERM "$pid" 2>/dev/null
wait "$pid"
if [ -s term.vg ]; then
    echo "FAIL: valgrind reports errors for the run stopped by SIGTERM"
    head -40 term.vg
    fails=$((fails + 1))
fi
if [ -e c.h5.ckpt ] && [ ! -e c.h5 ]; then
    vg resume solve "$src/tests/cli/fib-general.rules" --size 300 -o c.h5 --resume -q
    grep -q . resume.err && cat resume.err
else
    echo "note: the solve finished before SIGTERM; the resume was not run under valgrind"
fi
vg info info w1.h5
vg query query w1.h5 17 29
vg verify verify w2.h5 --samples 200
vg check check wythoff-golden p1.h5
vg patterns patterns w1.h5
vg move move w1.h5 40 70
EXPECT_RC=2 vg badpos query w1.h5 1000 3
printf 'not hdf5' >junk.h5
EXPECT_RC=2 vg junk info junk.h5

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "valgrind: all clean"
