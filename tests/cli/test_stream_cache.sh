#!/usr/bin/env bash
# Streamed files written through the page cache with the advice at every
# few tiles (NS_H5_DIRECT=0, NS_STREAM_CACHE_STEP: write-back started,
# written ranges dropped while the file is still being written), and
# written with O_DIRECT in blocks of two pages (NS_H5_DIRECT_BLOCK), equal
# the in-memory solve's, every
# dataset and attribute but the run's time (h5diff per dataset, h5dump per
# root attribute), at 1 and 2 threads, square and rectangle.
NS=$1; SRC=$2; WORK=$3
rm -rf "$WORK"
. "$SRC/tests/cli/cli_lib.sh"

same() { # name, file a, file b
    for ds in /grundy /pn /p_positions; do
        CHECKS=$((CHECKS + 1))
        h5diff -q "$2" "$3" "$ds" "$ds" >/dev/null 2>&1 || fail "$1: $ds differs"
    done
    for at in max_value n_p_positions kind game bounds play engine; do
        CHECKS=$((CHECKS + 1))
        a=$(h5dump -a "/$at" "$2" | grep -A1 DATA | tail -1)
        b=$(h5dump -a "/$at" "$3" | grep -A1 DATA | tail -1)
        [ "$a" = "$b" ] || fail "$1: attribute $at differs: '$a' vs '$b'"
    done
}

for box in "--size 900" "--bounds 700,1100"; do
    name=$(echo "$box" | tr -dc '0-9')
    expect_ok "$NS" solve wythoff $box --no-stream --quiet -o "$WORK/m$name.h5"
    for t in 1 2; do
        # the blocks through the page cache (as where O_DIRECT is refused),
        # the advice every page
        NS_H5_DIRECT=0 NS_STREAM_CACHE_STEP=4096 expect_ok "$NS" solve wythoff $box --stream -t $t \
            -o "$WORK/s$name.$t.h5"
        same "wythoff $box, $t threads, page cache" "$WORK/m$name.h5" "$WORK/s$name.$t.h5"
        expect_out "^output: .*s$name.$t.h5 \(written in 8 MiB blocks through the page cache.*NS_H5_DIRECT=0\)"
        # O_DIRECT where this file system allows it, in blocks of two pages
        NS_H5_DIRECT_BLOCK=8192 expect_ok "$NS" solve wythoff $box --stream -t $t -o "$WORK/d$name.$t.h5"
        same "wythoff $box, $t threads, direct blocks" "$WORK/m$name.h5" "$WORK/d$name.$t.h5"
        # the summary says how the file went out
        expect_out "^output: .*d$name.$t.h5 \(written (with O_DIRECT|in 8 MiB blocks through the page cache)"
    done
done
finish
