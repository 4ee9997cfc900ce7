#!/bin/bash
# test_rules_subst.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# a-Wythoff written from its definition (tests/rules/a-wythoff-def.rules,
# 'for k in 1..x, l in 1..y where abs(k - l) < a') compiles to rays:
# `nimsieve rules` lists 2a - 1 rays for the last move and the substitution
# l = k + d that made them, and `nimsieve solve` on it writes the /grundy and
# /pn datasets of the a-wythoff preset value for value (h5diff).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
rules=$src/tests/rules/a-wythoff-def.rules
fails=0
checks=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# expect_line FILE REGEX WHAT
expect_line() {
    checks=$((checks + 1))
    grep -qE -- "$2" "$1" || fail "$3: no line matching '$2' in: $(head -c 1500 "$1")"
}

for a in 1 2 3 4; do
    checks=$((checks + 1))
    "$bin" rules "$rules" -D a=$a >"$work/rules-$a.out" 2>"$work/err" || fail "rules -D a=$a exited with $?: $(cat "$work/err")"
    n=$((2 * a + 1))
    expect_line "$work/rules-$a.out" "^families: +$n \\($n rays, 0 finite, 0 general\\)\$" "rules -D a=$a"
    expect_line "$work/rules-$a.out" "^ +rays by substitution: l = k \\+ d for each d in $((1 - a))\\.\\.$((a - 1)) " "rules -D a=$a"
done

for a in 1 3; do
    for mode in "" --misere; do
        tag=$a${mode:+-misere}
        checks=$((checks + 1))
        # shellcheck disable=SC2086
        "$bin" solve a-wythoff -D a=$a --bounds 97,130 $mode --threads 2 --quiet -o "$work/preset-$tag.h5" 2>"$work/err" ||
            fail "solve a-wythoff -D a=$a $mode: $(cat "$work/err")"
        # shellcheck disable=SC2086
        "$bin" solve "$rules" -D a=$a --bounds 97,130 $mode --threads 2 --quiet -o "$work/rules-$tag.h5" 2>"$work/err" ||
            fail "solve a-wythoff-def.rules -D a=$a $mode: $(cat "$work/err")"
        for ds in /grundy /pn; do
            checks=$((checks + 1))
            h5diff -d 0 "$work/preset-$tag.h5" "$work/rules-$tag.h5" "$ds" "$ds" >"$work/diff" 2>&1 ||
                fail "a=$tag: $ds of the definition form differs from the preset's: $(head -c 600 "$work/diff")"
        done
    done
done

echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
