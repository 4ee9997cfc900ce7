#!/usr/bin/env bash
# moore.sh [--quick] [--threads T] [--sizes "N ..."] [--new-only "N ..."] [NIMSIEVE]
#
# Moore's Nim_2 on 3 piles (issue 19): the general engine's running sets
# (moore, the default) against the per-option path (moore -D sets=0, every
# option listed per cell, as before the running sets), in the same run on
# the same binary; the tables must be identical (h5diff when present, else
# the P-position counts). One row a size: wall seconds of the solves as
# `solve` reports them, and the ratio new / old. --new-only sizes run the
# running sets alone. The load average is printed before and after: the
# machine may be shared. Defaults: sizes 64, new-only 256, 1 thread;
# --quick: size 16, new-only 24 (for the smoke test).
set -euo pipefail
sizes="64"
newonly="256"
threads=1
ns=""
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) sizes="16"; newonly="24" ;;
    --threads) threads=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --new-only) newonly=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "moore.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) ns=$1 ;;
    esac
    shift
done
ns=${ns:-$(cd "$(dirname "$0")/../.." && pwd)/build/nimsieve}
[ -x "$ns" ] || { echo "moore.sh: no nimsieve at $ns" >&2; exit 2; }
for n in $sizes $newonly; do
    case "$n" in ''|*[!0-9]*) echo "moore.sh: a size must be a positive integer, not '$n'" >&2; exit 2 ;; esac
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
solve() { # sets n out: prints the solve's time in seconds
    "$ns" solve moore -D piles=3 -D k=2 -D "sets=$1" --bounds "$2,$2,$2" -t "$threads" -o "$3" --force >"$dir/out"
    sed -n 's/^time: *\([0-9.]*\) s.*/\1/p' "$dir/out"
}
pcount() { sed -n 's/^P-positions: *//p' "$dir/out"; }
echo "load average (before): $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-24s %8s %12s %12s %10s\n' "case" "threads" "old s" "new s" "new/old"
for n in $sizes; do
    tn=$(solve 1 "$n" "$dir/new.h5"); pn=$(pcount)
    to=$(solve 0 "$n" "$dir/old.h5"); po=$(pcount)
    if command -v h5diff >/dev/null; then
        h5diff -q "$dir/new.h5" "$dir/old.h5" /grundy /grundy || { echo "moore.sh: tables differ at $n^3" >&2; exit 1; }
    elif [ "$pn" != "$po" ]; then
        echo "moore.sh: P-positions differ at $n^3 ($pn, $po)" >&2; exit 1
    fi
    printf '%-24s %8s %12.3f %12.3f %10.5f\n' "moore k=2 $n^3" "$threads" "$to" "$tn" "$(echo "$tn / $to" | bc -l)"
done
for n in $newonly; do
    tn=$(solve 1 "$n" "$dir/new.h5")
    printf '%-24s %8s %12s %12.3f %10s\n' "moore k=2 $n^3" "$threads" "-" "$tn" "-"
done
echo "load average (after): $(cut -d' ' -f1-3 /proc/loadavg)"
