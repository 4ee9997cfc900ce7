#!/usr/bin/env bash
# Smoke test of tools/bench/output.sh at a tiny size: one row per size
# with the kernel, streamed and in-memory times and their ratios (numbers
# > 0), and the load line; the ratios are the quotients of the times;
# --pieces adds the table of the output path's pieces.
NS=$1; SRC=$2; WORK=$3
rm -rf "$WORK"
. "$SRC/tests/cli/cli_lib.sh"
build=$(cd "$(dirname "$NS")" && pwd)
expect_ok bash "$SRC/tools/bench/output.sh" --build "$build" --prev "$NS" --threads 2 300 257
for n in 300 257; do
    expect_out "^$n +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$"
done
expect_out "load before .*, after "
# --pieces: the output path's pieces on the same tiles
expect_ok bash "$SRC/tools/bench/output.sh" --build "$build" --threads 2 --pieces 300
expect_out "^300 +[0-9.]+ +[0-9.]+"
expect_out "^ +ns_chunkfilter_run \(all\) +[0-9.]+ +[0-9.]+$"
expect_out "^ +ns_chunkfilter_run_cells +[0-9.]+ +[0-9.]+$"
CHECKS=$((CHECKS + 1))
awk '$1 == 300 || $1 == 257 { if ($2 <= 0 || $3 <= 0 || $4 <= 0) exit 1;
                 r = $3 / $2; if (r - $5 > 0.1 * r + 0.02 || $5 - r > 0.1 * r + 0.02) exit 1 }' "$OUT" ||
    fail "bad times or ratios"
finish
