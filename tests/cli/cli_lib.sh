# cli_lib.sh - helpers sourced by tests/cli/test_cli_*.sh (not a test itself).
# Usage in a test: NS=$1 SRC=$2 WORK=$3; . "$SRC/tests/cli/cli_lib.sh"; ...; finish

set -u
FAILS=0
CHECKS=0
# 1 in a sanitizer build (tests/CMakeLists.txt): smaller sizes where a
# script's solves would take minutes under ASan
SANITIZED=${NS_TEST_SANITIZED:-0}
mkdir -p "$WORK"
OUT="$WORK/stdout"
ERR="$WORK/stderr"

fail() {
    echo "FAIL: $*" >&2
    FAILS=$((FAILS + 1))
}

# run CMD...: stdout in $OUT, stderr in $ERR, exit status in $RC
run() {
    LAST="$*"
    "$@" >"$OUT" 2>"$ERR"
    RC=$?
}

show() {
    echo "  command: $LAST" >&2
    echo "  exit status: $RC" >&2
    sed 's/^/  stdout: /' "$OUT" | head -40 >&2
    sed 's/^/  stderr: /' "$ERR" | head -20 >&2
}

# expect_ok CMD...: exit 0 and nothing on stderr
expect_ok() {
    LAST="$*"
    CHECKS=$((CHECKS + 1))
    run "$@"
    if [ "$RC" -ne 0 ]; then
        fail "expected success"
        show
    elif [ -s "$ERR" ]; then
        fail "expected an empty stderr"
        show
    fi
}

# expect_error CODE SUBCMD REGEX CMD...: exit CODE, stdout empty, stderr one
# line "nimsieve SUBCMD: ..." ("nimsieve: ..." for SUBCMD "") matching the
# extended regex REGEX.
expect_error() {
    local code=$1 sub=$2 re=$3 prefix="nimsieve: "
    [ -n "$sub" ] && prefix="nimsieve $sub: "
    shift 3
    LAST="$*"
    CHECKS=$((CHECKS + 1))
    run "$@"
    local lines
    lines=$(wc -l <"$ERR")
    if [ "$RC" -ne "$code" ]; then
        fail "expected exit status $code"
        show
    elif [ "$lines" -ne 1 ]; then
        fail "expected exactly one line on stderr, got $lines"
        show
    elif [ "$(head -c ${#prefix} "$ERR")" != "$prefix" ]; then
        fail "expected the message to start with '$prefix'"
        show
    elif ! grep -Eq -- "$re" "$ERR"; then
        fail "expected the message to match /$re/"
        show
    elif [ -s "$OUT" ]; then
        fail "expected nothing on stdout"
        show
    fi
}

# expect_out REGEX: the last command's stdout has a line matching REGEX
expect_out() {
    CHECKS=$((CHECKS + 1))
    if ! grep -Eq -- "$1" "$OUT"; then
        fail "expected stdout to match /$1/"
        show
    fi
}

# expect_no_out REGEX: no stdout line matches REGEX
expect_no_out() {
    CHECKS=$((CHECKS + 1))
    if grep -Eq -- "$1" "$OUT"; then
        fail "expected stdout not to match /$1/"
        show
    fi
}

# expect_eq WHAT GOT WANT
expect_eq() {
    CHECKS=$((CHECKS + 1))
    if [ "$2" != "$3" ]; then
        fail "$1: got '$2', expected '$3'"
    fi
}

finish() {
    if [ "$FAILS" -ne 0 ]; then
        echo "$FAILS of $CHECKS checks failed" >&2
        exit 1
    fi
    echo "all $CHECKS checks passed"
    exit 0
}
