#!/bin/bash
# The solve's plan line says, before the run, what it will take: "expected
# about N s (or under a second / about N min), file up to about X MB"
# (issue 15). The file-size estimate is checked against the size of the file
# the solve then writes: within a factor of 4 for tables whose values
# compress little (every engine: tiles2d, general, rows-pn). The time
# estimate depends on the machine's load, so only its form is checked, and
# that a solve the general engine needs seconds for (O(N^3) moves) is not
# announced as "under a second".
# Usage: bash test_solve_estimate.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5

# bytes "950 MB" -> 950000000
to_bytes() {
    echo "$1" | awk '{m = 1; if ($2 == "kB") m = 1e3; else if ($2 == "MB") m = 1e6; else if ($2 == "GB") m = 1e9;
                      printf "%.0f\n", $1 * m}'
}

i=0
while IFS= read -r spec; do
    i=$((i + 1))
    F="$WORK/t$i.h5"
    # shellcheck disable=SC2086
    expect_ok "$NS" solve $spec -o "$F"
    plan=$(head -1 "$OUT")
    CHECKS=$((CHECKS + 1))
    if ! echo "$plan" | grep -Eq '^solving .*; expected (under a second|about [0-9]+ (s|min|h|days)), file up to about [0-9.]+ (bytes|kB|MB|GB|TB)$'; then
        fail "$spec: plan line without 'expected ..., file up to about ...': $plan"
        continue
    fi
    est=$(to_bytes "$(echo "$plan" | sed 's/.*file up to about //')")
    got=$(stat -c %s "$F")
    CHECKS=$((CHECKS + 1))
    if [ "$est" -gt $((4 * got)) ] || [ "$got" -gt $((4 * est)) ]; then
        fail "$spec: file estimate $est bytes, the file has $got (more than a factor 4 apart)"
    else
        echo "ok: $spec: estimate $est bytes, file $got bytes"
    fi
done <<'EOF'
wythoff --size 1024
nim -D piles=3 --size 64
bash -D m=5 --bounds 200000
a-wythoff -D a=3 --size 512
nim -D piles=3 --size 64 --pn-only
EOF

# the general engine on O(N^3) moves: seconds (5 s here, 33 s under ASan),
# said so before the run; the estimate is all this checks, so the run is
# stopped after a second (SIGTERM: a final checkpoint, exit 143)
rm -f "$WORK/fg.h5" "$WORK/fg.h5.ckpt"
run timeout --preserve-status -s TERM 1 "$NS" solve "$SRC/tests/cli/fib-general.rules" --size 700 -o "$WORK/fg.h5"
CHECKS=$((CHECKS + 1))
[ "$RC" -eq 143 ] || [ "$RC" -eq 0 ] || { fail "the O(N^3) solve: exit $RC, expected 143 (stopped) or 0"; show; }
expect_out '^solving .*; expected about [0-9]+ (s|min)'
expect_no_out 'under a second'
finish
