#!/usr/bin/env bash
# Build (Release, -march=native) and run the take-and-break benchmark
# (nimsieve-bench-seq); extra arguments go to it (--quick, --match 0.1777,
# --size 443200000, --peer PATH, --plain: the plain mex kernels only).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NS_BENCH_BUILD:-$root/build-bench}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNS_NATIVE=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target nimsieve-bench-seq >/dev/null
# idle OpenMP threads sleep instead of spinning: on a shared machine a
# spinning thread takes the core the serial part of a block needs
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
echo "OMP_WAIT_POLICY=$OMP_WAIT_POLICY"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
"$build/tools/bench/nimsieve-bench-seq" "$@"
