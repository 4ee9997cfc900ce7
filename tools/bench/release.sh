#!/usr/bin/env bash
# release.sh - the same solves by the previous release and by this tree, in
# one run, so that a regression shows as a ratio (issue 19, item 3).
#
# usage: tools/bench/release.sh [--prev REF | --prev-bin PATH] [--quick]
#                               [--repeat R] [--threads LIST] [--match TEXT]
#   --prev REF       the release to compare with: a git tag or commit
#                    (default: the newest tag v* that is an ancestor of
#                    HEAD's parent, i.e. the previous release; in a clone
#                    without tags, the newest such entry of
#                    tools/bench/releases, which also names a tag). Its sources
#                    come from `git archive` into build-release/REF-src and
#                    it is built there (Release), beside this tree's build.
#   --prev-bin PATH  use this nimsieve binary as the previous release
#                    instead of building one (e.g. a kept binary). Both
#                    trees are built the same way: Release, no -march=native
#   --cur-bin PATH   use this binary as the current tree instead of building
#                    build-release/current/nimsieve (the smoke test uses both)
#   --quick          small sizes (seconds in all; the smoke test uses it)
#   --repeat R       runs of each solve per binary, the best kept (default 3;
#                    --quick: 1)
#   --threads LIST   thread counts (default 1,2)
#   --match TEXT     only the cases whose name contains TEXT
#   --which          print the previous release (NAME COMMIT) and exit
#
# Each case is one `nimsieve solve` command line, run alternately by the
# previous and the current binary (so a load change hits both), timed end
# to end (file written included). A case the previous release cannot run
# (a game it does not know) prints "n/a" and the reason. The ratio is
# previous / current: above 1 the current tree is faster. The load average
# is printed before and after: on a shared machine compare ratios, not
# seconds.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
prev= prev_bin= cur_bin= quick=0 repeat= threads=1,2 match= which=0
while [ $# -gt 0 ]; do
    case $1 in
        --prev) prev=${2:?--prev needs a tag or commit}; shift 2 ;;
        --prev-bin) prev_bin=${2:?--prev-bin needs a path}; shift 2 ;;
        --cur-bin) cur_bin=${2:?--cur-bin needs a path}; shift 2 ;;
        --quick) quick=1; shift ;;
        --repeat) repeat=${2:?--repeat needs a count}; shift 2 ;;
        --threads) threads=${2:?--threads needs a list, e.g. 1,2}; shift 2 ;;
        --match) match=${2:?--match needs a text}; shift 2 ;;
        --which) which=1; shift ;;
        -h|--help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "release.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case $repeat in
    '') repeat=$((quick ? 1 : 3)) ;;
    *[!0-9]*|0) echo "release.sh: --repeat '$repeat': expected a whole number >= 1" >&2; exit 2 ;;
esac
case $threads in
    *[!0-9,]*|,*|*,|*,,*|'') echo "release.sh: --threads '$threads': expected a list like 1,2" >&2; exit 2 ;;
esac

# a release named in tools/bench/releases: NAME -> its commit ('' if none)
listed() {
    awk -v n="$1" '$1 == n { print $2 }' "$root/tools/bench/releases" 2>/dev/null | tail -1
}
# the newest release of tools/bench/releases that HEAD's parent contains
newest_listed() {
    local name sha found=
    while read -r name sha; do
        case $name in '#'*|'') continue ;; esac
        git -C "$root" merge-base --is-ancestor "$sha" HEAD^ 2>/dev/null && found=$name
    done <"$root/tools/bench/releases"
    echo "$found"
}
if [ -z "$prev_bin" ] || [ "$which" = 1 ]; then
    if [ -z "$prev" ]; then
        prev=$(git -C "$root" describe --tags --abbrev=0 --match 'v*' HEAD^ 2>/dev/null || true)
        [ -n "$prev" ] || prev=$(newest_listed)
        [ -n "$prev" ] || { echo "release.sh: no release tag v* before HEAD: give --prev REF or --prev-bin PATH" >&2; exit 2; }
    fi
    sha=$(git -C "$root" rev-parse --verify --quiet "$prev^{commit}") || sha=$(listed "$prev")
    sha=$(git -C "$root" rev-parse --verify --quiet "${sha:-none}^{commit}") ||
        { echo "release.sh: --prev '$prev': not a tag or commit of $root, nor a release of tools/bench/releases" >&2; exit 2; }
    if [ "$which" = 1 ]; then
        echo "$prev $sha"
        exit 0
    fi
fi

# the current tree
if [ -n "$cur_bin" ]; then
    [ -x "$cur_bin" ] || { echo "release.sh: --cur-bin $cur_bin: not an executable" >&2; exit 2; }
    cur=$cur_bin
else
    # the same flags as the previous release's build below (no -march=native:
    # a cache of build-bench may hold NS_NATIVE=ON from the other scripts)
    bdir=${NS_BENCH_BUILD:-$root/build-release/current}
    cmake -S "$root" -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DNS_NATIVE=OFF >/dev/null
    cmake --build "$bdir" -j"$(nproc)" --target nimsieve >/dev/null
    cur=$bdir/nimsieve
fi

# the previous release
if [ -n "$prev_bin" ]; then
    [ -x "$prev_bin" ] || { echo "release.sh: --prev-bin $prev_bin: not an executable" >&2; exit 2; }
    prev_label=$("$prev_bin" --version 2>/dev/null | head -1 || true)
else
    rdir=$root/build-release/${prev//\//_}
    if [ ! -x "$rdir/build/nimsieve" ] || [ "$(cat "$rdir/sha" 2>/dev/null)" != "$sha" ]; then
        rm -rf "$rdir"
        mkdir -p "$rdir/src"
        git -C "$root" archive "$sha" | tar -x -C "$rdir/src"
        # a tree from git archive has no .git: its version line names the commit
        cmake -S "$rdir/src" -B "$rdir/build" -DCMAKE_BUILD_TYPE=Release -DNS_NATIVE=OFF -DNS_GIT_REVISION="${sha:0:12}" >/dev/null
        cmake --build "$rdir/build" -j"$(nproc)" --target nimsieve >/dev/null
        echo "$sha" >"$rdir/sha"
    fi
    prev_bin=$rdir/build/nimsieve
    prev_label="$prev ($(git -C "$root" rev-parse --short "$sha"))"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the cases: name | cells | arguments of `nimsieve solve` (OUT and threads added)
if [ "$quick" = 1 ]; then
    cases=(
        "wythoff grundy 512^2|262144|wythoff --size 512"
        "wythoff p/n 2048^2|4194304|wythoff --size 2048 --pn-only"
        "nim 3 piles 32^3|32768|nim -D piles=3 --size 32"
        "a-wythoff a=2 256^2|65536|a-wythoff -D a=2 --size 256"
        "moore k=2 3 piles 12^3|1728|moore -D piles=3 -D k=2 --size 12"
        "octal 0.1777 2^16|65536|octal -D code=0.1777 --size 65536"
        "loopy wythoff 128^2 p/n/d|16384|$root/data/rules/wythoff-loopy.rules --size 128 --pn-only"
    )
else
    cases=(
        "wythoff grundy 8192^2|67108864|wythoff --size 8192"
        "wythoff p/n 32768^2|1073741824|wythoff --size 32768 --pn-only"
        "nim 3 piles 256^3|16777216|nim -D piles=3 --size 256"
        "a-wythoff a=2 2048^2|4194304|a-wythoff -D a=2 --size 2048"
        "moore k=2 3 piles 48^3|110592|moore -D piles=3 -D k=2 --size 48"
        "octal 0.1777 2^24|16777216|octal -D code=0.1777 --size 16777216"
        "loopy wythoff 2048^2 p/n/d|4194304|$root/data/rules/wythoff-loopy.rules --size 2048 --pn-only"
    )
fi

load() { echo "load average $1: $(cut -d' ' -f1-3 /proc/loadavg)"; }

# best SECONDS of $repeat runs of: BIN ARGS..., or "n/a: REASON"
best_of() {
    local bin=$1 out=$2 best= t0 t1 t i
    shift 2
    for ((i = 0; i < repeat; i++)); do
        rm -f "$out"
        t0=$(date +%s.%N)
        if ! "$bin" solve "$@" -o "$out" --force --quiet >"$work/log" 2>&1; then
            echo "n/a: $(tail -1 "$work/log" | cut -c1-90)"
            return
        fi
        t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
        if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    done
    printf '%.3f\n' "$best"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
echo "previous: $prev_label"
echo "current:  $("$cur" --version | head -1)"
echo "best of $repeat run(s) each, end to end (solve and file); ratio = previous / current (> 1: faster now)"
load before
printf '%-30s %12s %7s %10s %10s %8s\n' case cells threads previous current ratio
IFS=, read -r -a tlist <<<"$threads"
for c in "${cases[@]}"; do
    IFS='|' read -r name cells args <<<"$c"
    [ -n "$match" ] && [[ $name != *"$match"* ]] && continue
    read -r -a argv <<<"$args"
    for t in "${tlist[@]}"; do
        p=$(best_of "$prev_bin" "$work/p.h5" "${argv[@]}" --threads "$t")
        q=$(best_of "$cur" "$work/c.h5" "${argv[@]}" --threads "$t")
        if [[ $q == n/a* ]]; then
            printf '%-30s %12s %7s %10s %10s %8s  current failed: %s\n' "$name" "$cells" "$t" "-" "-" "-" "${q#n/a: }"
            exit 1
        elif [[ $p == n/a* ]]; then
            printf '%-30s %12s %7s %10s %10s %8s  previous: %s\n' "$name" "$cells" "$t" "n/a" "$q" "-" "${p#n/a: }"
        else
            printf '%-30s %12s %7s %10s %10s %7.2fx\n' "$name" "$cells" "$t" "$p" "$q" "$(awk -v p="$p" -v q="$q" 'BEGIN { print (q > 0 ? p / q : 0) }')"
        fi
    done
done
load after
