#!/usr/bin/env bash
# test_bench_mpi_smoke.sh - tools/bench/mpi.sh keeps working (no timing is
# asserted): at N = 300, one row per ranks x threads, the 2-rank file the
# 1x1 file, also a 2x1:0 row (--mpi-keep 0); the same for the general
# engine (--general nim3:24); and it
# skips with one line when the build is not an MPI one.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
build=$(dirname "$NS")
NS_BENCH_REPS=1 run timeout 120 bash "$SRC/tools/bench/mpi.sh" --build "$build" 300
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] || { fail "mpi.sh: exit $RC"; show; }
[ "$(grep -c '^300 ' "$OUT")" -eq 3 ] || { fail "mpi.sh: expected 3 rows for N = 300"; show; }
grep -q '^300 *2x1 .* yes$' "$OUT" || { fail "mpi.sh: expected the 2x1 file equal to 1x1"; show; }
# RxT:SIZE passes --mpi-keep SIZE
NS_BENCH_REPS=1 NS_BENCH_RT="1x1 2x1:0" NS_BENCH_SETS=owned run timeout 120 bash "$SRC/tools/bench/mpi.sh" \
    --build "$build" 300
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] && grep -q '^300 *2x1:0 .* yes$' "$OUT" || { fail "mpi.sh: expected a 2x1:0 row equal to 1x1"; show; }
# the general engine's part
NS_BENCH_REPS=1 run timeout 120 bash "$SRC/tools/bench/mpi.sh" --build "$build" --general nim3:24
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] || { fail "mpi.sh --general: exit $RC"; show; }
[ "$(grep -c '^nim3:24 ' "$OUT")" -eq 3 ] && grep -q '^nim3:24 *2x1 .* yes$' "$OUT" ||
    { fail "mpi.sh --general: expected 3 rows for nim3:24, 2x1 equal to 1x1"; show; }
mkdir -p "$WORK/nompi"
printf '#!/bin/sh\necho "no MPI (single-process build)"\n' >"$WORK/nompi/nimsieve"
chmod +x "$WORK/nompi/nimsieve"
run bash "$SRC/tools/bench/mpi.sh" --build "$WORK/nompi" 300
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 0 ] && grep -q '^mpi.sh: skipped: .* is not an MPI build' "$OUT" || { fail "mpi.sh: expected the skip line"; show; }
finish
