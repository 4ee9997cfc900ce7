#!/usr/bin/env bash
# mpi.sh [--build DIR] [--mpiexec CMD] [N ...] - the two-pile tile kernel
# across MPI ranks (issue 21): Wythoff's Grundy table N x N (default 8192)
# solved in memory by DIR/nimsieve (default build-mpi/) at ranks x threads
# 1x1, 1x2, 2x1 (NS_BENCH_RT="1x1 1x2 2x1 2x2" to choose), each the best of
# NS_BENCH_REPS runs (default 2), with its ratio to 1x1 of the same run and
# the bytes rank 0 sent and received. Skips (exit 0, one line) without an
# MPI build. Every result is checked to be the file of 1x1. RxT:SIZE gives
# the run --mpi-keep SIZE (the blocks of owned sets a rank keeps between
# uses), e.g. NS_BENCH_RT="1x1 2x1:0 2x1" NS_BENCH_SETS=owned compares
# keeping none with the default (its ratio to the first column's run).
# NS_BENCH_SETS=owned|replicated: solve's --mpi-sets (default: solve's own
# default, owned line sets for Wythoff across ranks). NS_BENCH_STREAM=1:
# streamed (--stream) instead of in memory; NS_BENCH_WRITE=rank0|placed|parallel:
# solve's --mpi-write (streamed with owned sets: placed, the default, has
# every rank write its own tiles' chunks; rank0 has rank 0 take every tile
# and write them; the general engine's default is placed too).
# --general SPEC (repeatable; then no tile sizes unless given): the general
# engine (level sieve) across ranks instead, SPEC one of nim3:N (Nim on
# N x N x N), moore3:N (Moore's Nim_2 on N x N x N), awythoff:N (a-Wythoff
# a = 2 on N x N); the same columns, bytes of level values, and the write's
# seconds of the summary's mpi write: line (- at one rank: no such line).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-mpi
mpiexec=${NS_MPIEXEC:-mpirun}
sizes=()
general=()
while [ $# -gt 0 ]; do
    case $1 in
    --general) general+=("$2"); shift 2 ;;
    --build) build=$2; shift 2 ;;
    --mpiexec) mpiexec=$2; shift 2 ;;
    *) sizes+=("$1"); shift ;;
    esac
done
[ ${#sizes[@]} -gt 0 ] || [ ${#general[@]} -gt 0 ] || sizes=(8192)
ns=$build/nimsieve
if [ ! -x "$ns" ] || ! "$ns" --version 2>/dev/null | grep -q '^MPI build'; then
    echo "mpi.sh: skipped: $ns is not an MPI build (cmake -S . -B build-mpi -DNS_MPI=ON)"
    exit 0
fi
if ! command -v "$mpiexec" >/dev/null; then
    echo "mpi.sh: skipped: no $mpiexec"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_WAIT_POLICY=PASSIVE
reps=${NS_BENCH_REPS:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=--no-stream
[ "${NS_BENCH_STREAM:-0}" = 1 ] && store=--stream
echo "# $("$ns" --version | head -1); $(nproc) cores; best of $reps; $store${NS_BENCH_SETS:+, --mpi-sets $NS_BENCH_SETS}${NS_BENCH_WRITE:+, --mpi-write $NS_BENCH_WRITE}"
printf '%-8s %-8s %9s %8s %10s %10s  %s\n' N RxT "wall s" "x 1x1" "sent MB" "recv MB" "same file"
for n in ${sizes[@]+"${sizes[@]}"}; do
    base=
    for rt in ${NS_BENCH_RT:-1x1 1x2 2x1}; do
        keep=
        case $rt in *:*) keep=${rt#*:} ;; esac
        rxt=${rt%%:*}
        r=${rxt%x*} t=${rxt#*x}
        best=
        for _ in $(seq "$reps"); do
            rm -f "$dir/o.h5"
            t0=$(date +%s.%N)
            OMP_NUM_THREADS=$t timeout 600 "$mpiexec" --oversubscribe -np "$r" "$ns" solve wythoff --size "$n" \
                "$store" ${NS_BENCH_SETS:+--mpi-sets "$NS_BENCH_SETS"} \
                ${NS_BENCH_WRITE:+--mpi-write "$NS_BENCH_WRITE"} ${keep:+--mpi-keep "$keep"} -o "$dir/o.h5" \
                >"$dir/out" 2>"$dir/err" ||
                { echo "mpi.sh: $rt failed: $(head -1 "$dir/err")"; exit 1; }
            t1=$(date +%s.%N)
            w=$(echo "$t1 - $t0" | bc -l)
            if [ -z "$best" ] || [ "$(echo "$w < $best" | bc -l)" = 1 ]; then best=$w; fi
        done
        same=-
        if [ "$rt" = 1x1 ]; then
            cp "$dir/o.h5" "$dir/ref.h5"
        elif [ -e "$dir/ref.h5" ]; then
            same=no
            /usr/bin/python3 "$root/tests/cli/h5same.py" "$dir/ref.h5" "$dir/o.h5" --skip mpi_ranks,mpi_sets,mpi_write >/dev/null 2>&1 && same=yes
        fi
        [ -n "$base" ] || base=$best
        line=$(grep '^mpi:' "$dir/out" || true)
        sent=$(echo "$line" | sed -n 's/.*sent \([0-9.]*\) MB.*/\1/p')
        recv=$(echo "$line" | sed -n 's/.*received \([0-9.]*\) MB.*/\1/p')
        printf '%-8s %-8s %9.3f %8.3f %10s %10s  %s\n' "$n" "$rt" "$best" "$(echo "$best / $base" | bc -l)" \
            "${sent:-0}" "${recv:-0}" "$same"
    done
done

# the general engine: one spec at a time, the same columns and the write's
[ ${#general[@]} -gt 0 ] &&
    printf '%-8s %-6s %9s %8s %10s %10s %8s  %s\n' spec RxT "wall s" "x 1x1" "sent MB" "recv MB" "write s" "same file"
for spec in ${general[@]+"${general[@]}"}; do
    n=${spec#*:}
    case ${spec%%:*} in
    nim3) game=(nim -D piles=3 --bounds "$n,$n,$n") ;;
    moore3) game=(moore -D piles=3 -D k=2 --bounds "$n,$n,$n") ;;
    awythoff) game=(a-wythoff -D a=2 --size "$n") ;;
    *) echo "mpi.sh: unknown --general $spec (nim3:N, moore3:N, awythoff:N)"; exit 2 ;;
    esac
    base=
    for rt in ${NS_BENCH_RT:-1x1 1x2 2x1}; do
        r=${rt%x*} t=${rt#*x}
        best=
        for _ in $(seq "$reps"); do
            rm -f "$dir/o.h5"
            t0=$(date +%s.%N)
            OMP_NUM_THREADS=$t timeout 600 "$mpiexec" --oversubscribe -np "$r" "$ns" solve "${game[@]}" \
                ${NS_BENCH_WRITE:+--mpi-write "$NS_BENCH_WRITE"} -o "$dir/o.h5" >"$dir/out" 2>"$dir/err" ||
                { echo "mpi.sh: $spec $rt failed: $(head -1 "$dir/err")"; exit 1; }
            t1=$(date +%s.%N)
            w=$(echo "$t1 - $t0" | bc -l)
            if [ -z "$best" ] || [ "$(echo "$w < $best" | bc -l)" = 1 ]; then best=$w; fi
        done
        grep -q '^engine: general' "$dir/out" || { echo "mpi.sh: $spec: not the general engine"; exit 1; }
        same=-
        if [ "$rt" = 1x1 ]; then
            cp "$dir/o.h5" "$dir/ref.h5"
        elif [ -e "$dir/ref.h5" ]; then
            same=no
            /usr/bin/python3 "$root/tests/cli/h5same.py" "$dir/ref.h5" "$dir/o.h5" --skip mpi_ranks,mpi_write >/dev/null 2>&1 && same=yes
        fi
        [ -n "$base" ] || base=$best
        line=$(grep '^mpi:' "$dir/out" || true)
        sent=$(echo "$line" | sed -n 's/.*sent \([0-9.]*\) MB.*/\1/p')
        recv=$(echo "$line" | sed -n 's/.*received \([0-9.]*\) MB.*/\1/p')
        ws=$(sed -n 's/^mpi write:.* in \([0-9.]*\) s .*/\1/p' "$dir/out")
        printf '%-8s %-6s %9.3f %8.3f %10s %10s %8s  %s\n' "$spec" "$rt" "$best" "$(echo "$best / $base" | bc -l)" \
            "${sent:-0}" "${recv:-0}" "${ws:--}" "$same"
    done
done
