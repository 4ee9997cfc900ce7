#!/usr/bin/env bash
# test.sh - install missing packages, build and run every test:
#   1. build/      Release build, ctest with all labels (unit, cli, seeds,
#                  rules, notebooks, slow);
#   2. build-asan/ AddressSanitizer + UndefinedBehaviorSanitizer build
#                  (-DNS_SANITIZE=ON), ctest without the labels slow, fuzz,
#                  notebooks and bench (the fuzz tests build their own
#                  sanitized target with clang and ran in step 1 already;
#                  the notebooks run Python over small tables that the cli
#                  tests solve under ASan too; the benchmark scripts' smoke
#                  tests solve what other tests solve);
#   3. build-mpi/  the MPI build (-DNS_MPI=ON, packages from
#                  tools/deps.sh --mpi): nimsieve and the MPI test programs
#                  only, ctest -L mpi -j2 (about four minutes; two tests at a
#                  time, each job's ranks oversubscribed and each mpirun
#                  bounded by timeout). NS_NO_MPI=1 skips it.
# Every stage always runs; the last line says PASSED or FAILED, and the exit
# status is non-zero when a build or any test failed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)
START=$SECONDS
# ctest -j2 runs two tests at once, each with OpenMP's default thread count:
# with more threads than cores, threads that spin at the sieve's per-level
# barriers steal the cores from the working ones (measured: a test 5-10x
# slower). Waiting threads sleep instead; the results do not depend on it.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}

step() { printf '\n==> %s\n' "$*"; }
failed=()

bash tools/deps.sh

step "Release build in build/"
if cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j"$JOBS"; then
    step "ctest build/ (all labels)"
    ctest --test-dir build --output-on-failure -j2 --timeout 900 </dev/null || failed+=("tests in build/")
else
    failed+=("Release build")
fi

step "ASan+UBSan build in build-asan/"
# -O1 -g without NDEBUG: assertions stay on, the sanitizers stay fast enough.
if cmake -S . -B build-asan -DNS_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" &&
   cmake --build build-asan -j"$JOBS"; then
    step "ctest build-asan/ (all labels but slow, fuzz, notebooks and bench)"
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        ctest --test-dir build-asan --output-on-failure -j2 -LE 'slow|fuzz|notebooks|bench' --timeout 900 </dev/null ||
        failed+=("tests in build-asan/")
else
    failed+=("ASan+UBSan build")
fi

if [ "${NS_NO_MPI:-0}" = 1 ]; then
    step "MPI build skipped (NS_NO_MPI=1)"
else
    step "MPI build in build-mpi/ (tools/deps.sh --mpi, -DNS_MPI=ON)"
    if bash tools/deps.sh --mpi &&
       cmake -S . -B build-mpi -DNS_MPI=ON -DCMAKE_BUILD_TYPE=Release &&
       cmake --build build-mpi -j"$JOBS" --target nimsieve test_dist_sweep_driver; then
        step "ctest build-mpi/ (label mpi)"
        ctest --test-dir build-mpi --output-on-failure -L mpi -j2 --timeout 300 </dev/null ||
            failed+=("tests in build-mpi/")
    else
        failed+=("MPI build")
    fi
fi

elapsed=$((SECONDS - START))
echo
if [ ${#failed[@]} -eq 0 ]; then
    mpi="+ MPI"
    [ "${NS_NO_MPI:-0}" = 1 ] && mpi="; MPI skipped"
    echo "test.sh: ALL TESTS PASSED (Release + ASan/UBSan $mpi) in ${elapsed}s"
    exit 0
fi
what=${failed[0]}
for f in "${failed[@]:1}"; do what="$what; $f"; done
echo "test.sh: FAILED: $what (after ${elapsed}s)"
exit 1
