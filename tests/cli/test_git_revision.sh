#!/bin/bash
# test_git_revision.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# The revision every file records (git_revision, nimsieve --version) comes
# from tools/cmake/git_revision.cmake, which the build runs each time (a
# revision found at configure time went stale after a commit). Run here on
# a repository made for the test: HEAD's 12 digits (git's own answer);
# "-dirty" once a tracked file changes, not for an untracked one; the new
# HEAD after a commit; the given revision (-DNS_GIT_REVISION) wins; a
# directory inside a repository but not its top: "unknown"; the header is
# not rewritten when its text stays (no rebuild). And this build's own
# answer is its source tree's HEAD (with -dirty when the tree differs),
# from the header the script wrote into the build directory.
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"
script=$src/tools/cmake/git_revision.cmake
if ! command -v git >/dev/null; then
    echo "test_git_revision: skipped: no git"
    exit 0
fi
g() { git -C repo -c user.name=t -c user.email=t@example.org "$@"; }
rev() { # SRC [GIVEN]: the revision the script writes
    rm -f out.h
    cmake -DSRC="$1" -DGIVEN="${2:-}" -DOUT="$work/out.h" -P "$script" >/dev/null 2>err.txt ||
        { fail "cmake -P $script: $(head -1 err.txt)"; return; }
    sed -n 's/^#define NS_GIT_REVISION "\(.*\)"$/\1/p' out.h
}
mkdir -p repo/sub
echo one >repo/a.txt
echo x >repo/sub/b.txt
g init -q && g add a.txt sub/b.txt && g commit -q -m one || fail "git init and commit"
head1=$(g rev-parse --short=12 HEAD)
checks=$((checks + 6))
[ "$(rev "$work/repo")" = "$head1" ] || fail "a clean tree: expected $head1, got '$(rev "$work/repo")'"
echo new >repo/untracked.txt
[ "$(rev "$work/repo")" = "$head1" ] || fail "an untracked file: expected $head1, got '$(rev "$work/repo")'"
echo two >repo/a.txt
[ "$(rev "$work/repo")" = "$head1-dirty" ] || fail "a changed file: expected $head1-dirty, got '$(rev "$work/repo")'"
g commit -q -am two || fail "git commit"
head2=$(g rev-parse --short=12 HEAD)
[ "$head2" != "$head1" ] && [ "$(rev "$work/repo")" = "$head2" ] ||
    fail "after a commit: expected $head2, got '$(rev "$work/repo")'"
[ "$(rev "$work/repo" 0123456789ab)" = 0123456789ab ] || fail "a given revision: expected 0123456789ab"
[ "$(rev "$work/repo/sub")" = unknown ] || fail "a directory below a repository's top: expected unknown"
# the same text: the header keeps its time
checks=$((checks + 1))
rev "$work/repo" >/dev/null
touch -d '2001-01-01' out.h
cmake -DSRC="$work/repo" -DOUT="$work/out.h" -P "$script" >/dev/null 2>&1
[ "$(stat -c %Y out.h)" = "$(date -d 2001-01-01 +%s)" ] || fail "the header was rewritten with the same text"
# this build: its source tree's HEAD (a tree from git archive: not a
# repository of its own, or its top elsewhere: skipped)
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$src" && pwd -P)" ]; then
    checks=$((checks + 1))
    want=$(git -C "$src" rev-parse --short=12 HEAD)
    [ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] || want=$want-dirty
    got=$("$nimsieve" --version | sed -n '1s/.*(git \(.*\))$/\1/p')
    [ "$got" = "$want" ] || fail "nimsieve --version says git '$got', the source tree is at $want (a stale build?)"
fi
# the build writes it with the script (target ns_git_revision)
checks=$((checks + 1))
hdr=$(dirname "$nimsieve")/generated/core/ns_git.h
grep -q "written at every build by tools/cmake/git_revision.cmake" "$hdr" 2>/dev/null ||
    fail "$hdr: not written by tools/cmake/git_revision.cmake"
echo "test_git_revision: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
