#!/usr/bin/env bash
# Build (Release) and run the benchmark; prints the table. Extra arguments go
# to nimsieve-bench (e.g. --quick, --threads 1,2,4,8,16).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NS_BENCH_BUILD:-$root/build-bench}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNS_NATIVE=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target nimsieve-bench >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
"$build/tools/bench/nimsieve-bench" --source-dir "$root" "$@"
