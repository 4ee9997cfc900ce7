#!/bin/bash
# test_rules_prefix.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The Fibonacci Nim rule file runs as a prefix family (one running set per
# line along the limit, as the preset): `nimsieve rules` names the family's
# kind, a lookalike whose move reads the limit stays general, and
# `nimsieve solve` on the file writes the preset's /grundy and /pn
# datasets value for value (h5diff), which `verify` then recomputes cell by
# cell from the file's own rules.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
rules=$src/data/rules/fibonacci-nim.rules
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

# ---- the listing ----
checks=$((checks + 1))
"$bin" rules "$rules" --size 40 >"$work/rules.out" 2>"$work/rules.err" || fail "rules $rules exited with $?: $(cat "$work/rules.err")"
expect_line "$work/rules.out" '^families: +1 \(0 rays, 0 finite, 0 general, 1 prefix\)$' "rules fibonacci-nim.rules"
expect_line "$work/rules.out" '^ +prefix +options of s - e2 plus those added at s; one running set per line along coordinate 2$' \
    "rules fibonacci-nim.rules"

cat >"$work/lookalike.rules" <<'EOF'
piles pile limit
rank pile
move (pile, limit) -> (pile - t, min(2*t, limit))    for t in 1..min(pile, limit)
EOF
checks=$((checks + 1))
"$bin" rules "$work/lookalike.rules" --size 40 >"$work/look.out" 2>"$work/look.err" || fail "rules lookalike.rules exited with $?: $(cat "$work/look.err")"
expect_line "$work/look.out" '^families: +1 \(0 rays, 0 finite, 1 general\)$' "rules lookalike.rules"
expect_line "$work/look.out" '^ +general +options enumerated per position' "rules lookalike.rules"

# ---- the file's tables are the preset's ----
for box in 300,300 120,257; do
    for mode in "" --misere; do
        tag=${box/,/x}${mode:+-misere}
        checks=$((checks + 1))
        # shellcheck disable=SC2086
        "$bin" solve fibonacci-nim --bounds "$box" $mode --threads 2 --quiet -o "$work/preset-$tag.h5" 2>"$work/err" ||
            fail "solve fibonacci-nim --bounds $box $mode: $(cat "$work/err")"
        # shellcheck disable=SC2086
        "$bin" solve "$rules" --bounds "$box" $mode --threads 3 --quiet -o "$work/rules-$tag.h5" 2>"$work/err" ||
            fail "solve fibonacci-nim.rules --bounds $box $mode: $(cat "$work/err")"
        for ds in /grundy /pn; do
            checks=$((checks + 1))
            h5diff -d 0 "$work/preset-$tag.h5" "$work/rules-$tag.h5" "$ds" "$ds" >"$work/diff" 2>&1 ||
                fail "$tag: $ds of the rule file differs from the preset's: $(head -c 600 "$work/diff")"
        done
        checks=$((checks + 1))
        "$bin" verify "$work/rules-$tag.h5" --all >"$work/verify" 2>&1 || fail "verify rules-$tag.h5: $(head -c 600 "$work/verify")"
        expect_line "$work/verify" '^verified [0-9]+ cells: OK$' "verify rules-$tag.h5"
    done
done

echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
