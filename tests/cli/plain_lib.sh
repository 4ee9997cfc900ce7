# plain_lib.sh - the preamble of the tests that count their own failures
# (sourced, not a test itself). Usage, after nimsieve=$1 src=$2 work=$3:
#   . "$src/tests/cli/plain_lib.sh"
# empties $work and enters it; sets py (Debian's python3), sanitized (1 in a
# sanitizer build), fails and checks
# (0) and fail MESSAGE (prints FAIL: MESSAGE, counts it), and same_files A B
# (every dataset and root attribute equal but timing, date and threads:
# tests/cli/h5same.py). Tests with richer checks use cli_lib.sh instead.
set -u
py=/usr/bin/python3
# 1 in a sanitizer build (tests/CMakeLists.txt): smaller sizes where a
# script's solves would take minutes under ASan
sanitized=${NS_TEST_SANITIZED:-0}
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
fails=0
checks=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
same_files() {
    "$py" "$src/tests/cli/h5same.py" "$1" "$2"
}
