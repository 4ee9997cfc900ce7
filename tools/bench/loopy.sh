#!/usr/bin/env bash
# Build (Release, -march=native) and run the loopy-game benchmark
# (nimsieve-bench-loopy: loopy Wythoff to P / N / draw with remoteness, the
# naive fixed point as the baseline, the retro engine on 1 and 2 threads);
# extra arguments go to it (--quick, --size N, --base N).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NS_BENCH_BUILD:-$root/build-bench}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNS_NATIVE=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target nimsieve-bench-loopy >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
"$build/tools/bench/nimsieve-bench-loopy" "$@"
