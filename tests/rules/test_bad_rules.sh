#!/bin/bash
# test_bad_rules.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Every file in tests/rules/bad/ is a small rule file with one defect, named
# after it. Its first line says the message expected after "FILE:":
#   # expect: 3:19: unknown name 'z'
# optional lines:
#   # args: -D b=3          extra arguments
#   # run: solve --size 8   the defect shows only while solving (run time)
# For each file this checks that `nimsieve rules FILE` (with the run line's
# --size for run-time defects) exits with status 2 and exactly one line on
# stderr holding "FILE:<expected message>"; for run-time defects and a sample
# of the others, `nimsieve solve FILE ... -o OUT` must fail the same way and
# leave no output file (nor its .part) behind.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cd "$src/tests/rules/bad" || exit 1
fails=0
checked=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# expect_error NAME EXPECTED_SUBSTRING OUTFILE_OR_EMPTY COMMAND...
expect_error() {
    local name=$1 want=$2 out=$3
    shift 3
    "$@" >"$work/stdout" 2>"$work/stderr"
    local rc=$?
    checked=$((checked + 1))
    if [ "$rc" -ne 2 ]; then
        fail "$name: '$*' exited with $rc, expected 2 (stderr: $(head -c 300 "$work/stderr"))"
        return
    fi
    if ! grep -qF -- "$want" "$work/stderr"; then
        fail "$name: '$*': expected '$want' on stderr, got: $(head -c 400 "$work/stderr")"
    fi
    if [ "$(wc -l <"$work/stderr")" -ne 1 ]; then
        fail "$name: '$*': expected one line on stderr, got $(wc -l <"$work/stderr")"
    fi
    if [ -n "$out" ] && { [ -e "$out" ] || [ -e "$out.part" ]; }; then
        fail "$name: '$*' left an output file behind"
        rm -f "$out" "$out.part"
    fi
}

n=0
for f in *.rules; do
    n=$((n + 1))
    name=${f%.rules}
    expect=$(sed -n '1s/^# expect: //p' "$f")
    run=$(sed -n 's/^# run: //p' "$f" | head -n 1)
    args=$(sed -n 's/^# args: //p' "$f" | head -n 1)
    if [ -z "$expect" ]; then
        fail "$f: the first line must be '# expect: LINE:COL: message'"
        continue
    fi
    want="$f:$expect"
    case "$expect" in
        -D*) want="$f: $expect" ;; # parameter overrides have no position
    esac
    out="$work/$name.h5"
    # shellcheck disable=SC2086
    if [ -n "$run" ]; then
        # run-time defects: the rules are fine, the solve (and the check of
        # `rules --size`) finds the bad move
        sub=${run%% *}
        rest=${run#* }
        expect_error "$name" "$want" "$out" "$bin" "$sub" "$f" $rest $args --threads 2 -o "$out"
        expect_error "$name" "$want" "" "$bin" rules "$f" $rest $args
    else
        expect_error "$name" "$want" "" "$bin" rules "$f" $args
        # solve stops at the same message and writes nothing (a sample of
        # the compile-time defects: syntax, names, values, overrides)
        case "$name" in
            syntax_missing_arrow | unterminated_comment | unknown_name | division_by_zero | cycle_rank_not_decreasing | \
                unknown_parameter_override | too_many_piles | bounds_mismatch)
                box="--size 4"
                case "$args" in *--bounds*) box="" ;; esac
                expect_error "$name" "$want" "$out" "$bin" solve "$f" $box $args -o "$out"
                ;;
        esac
    fi
done
[ "$n" -ge 40 ] || fail "only $n files in tests/rules/bad"

# defects that cannot live in the corpus as text
printf 'piles x\nmove x -> x - t for t in 1..x\0 where t > 1\n' >"$work/nul_byte.rules"
expect_error nul_byte "$work/nul_byte.rules:2:30: unexpected NUL byte" "$work/nul.h5" \
    "$bin" solve "$work/nul_byte.rules" --size 4 -o "$work/nul.h5"
expect_error missing_file "cannot open rule file '$work/none.rules'" "" "$bin" rules "$work/none.rules"
head -c 1100000 /dev/zero | tr '\0' ' ' >"$work/huge.rules"
expect_error huge_file "larger than 1 MiB" "" "$bin" rules "$work/huge.rules"
# a parameter override on a file that is fine otherwise
expect_error override_unknown "$src/data/rules/wythoff.rules: -D a: the rules declare no parameter 'a'" "" \
    "$bin" rules "$src/data/rules/wythoff.rules" -D a=2
line=$(grep -n '^require' "$src/data/rules/bash.rules" | cut -d: -f1)
expect_error require_via_override "$src/data/rules/bash.rules:$line:9: requirement 'm >= 1' does not hold (parameters: m=0)" "$work/b.h5" \
    "$bin" solve "$src/data/rules/bash.rules" -D m=0 --size 8 -o "$work/b.h5"
line=$(grep -n '^piles' "$src/data/rules/nim.rules" | cut -d: -f1)
expect_error piles_via_override "$src/data/rules/nim.rules:$line:7: too many piles: 'p[1..9]' makes 9 (at most 8)" "" \
    "$bin" rules "$src/data/rules/nim.rules" -D k=9

if [ "$fails" -ne 0 ]; then
    echo "$fails of $checked checks failed"
    exit 1
fi
echo "all $checked checks passed ($n bad rule files)"
