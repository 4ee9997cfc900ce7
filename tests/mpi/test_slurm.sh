#!/usr/bin/env bash
# test_slurm.sh - tools/slurm/nimsieve.sbatch under a real one-node SLURM
# started here (issue 21, item 5): tools/slurm/local-slurm.sh starts munged,
# slurmctld and slurmd from a slurm.conf in the work folder (ports on
# localhost) and stops them at the end, also on failure. A small sweep,
# submitted with `sbatch --wait` on 2 tasks, launched by srun --mpi=pmix and
# by mpirun, gives the single-process catalogue; a job whose worker fails
# ends non-zero with the rank named in its output. Skipped (exit 77, with
# the reason) when not root or slurm-wlm is not installed.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
export PATH=$PATH:/usr/sbin
for b in slurmctld slurmd sbatch munged mungekey; do
    command -v "$b" >/dev/null 2>&1 || { echo "SKIP: $b not installed (tools/deps.sh --mpi installs slurm-wlm and munge)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: starting slurmd needs root"; exit 77; }

S="$WORK/slurm"
"$SRC/tools/slurm/local-slurm.sh" stop "$S" 2>/dev/null
rm -rf "$S" "$WORK"/*.h5 "$WORK"/*.part "$WORK"/job-*.txt
# the jobs left (a timeout) cancelled, the daemons stopped, whatever happens
# (scancel only on this test's own cluster, never a system SLURM's jobs)
trap '[ "${SLURM_CONF:-}" = "$S/slurm.conf" ] && scancel --quiet -u "$(id -un)" 2>/dev/null
      "$SRC/tools/slurm/local-slurm.sh" stop "$S"' EXIT
if ! conf=$(timeout 60 "$SRC/tools/slurm/local-slurm.sh" start "$S"); then
    fail "could not start a one-node SLURM (logs in $S)"
    finish
fi
export "${conf?}"

ARGS=(sweep subtraction -D 'set=subsets(1..7,3)' --size 300)
expect_ok "$NS" "${ARGS[@]}" -o "$WORK/ref.h5"
for launch in srun mpirun; do
    CHECKS=$((CHECKS + 1))
    NS_LAUNCH=$launch NIMSIEVE=$NS timeout -k 5 40 sbatch --wait -o "$WORK/job-$launch.txt" --ntasks=2 \
        --cpus-per-task=1 "$SRC/tools/slurm/nimsieve.sbatch" "${ARGS[@]}" -o "$WORK/$launch.h5" >/dev/null
    rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "sbatch with NS_LAUNCH=$launch: exit $rc"
        sed 's/^/  job: /' "$WORK/job-$launch.txt" >&2
        continue
    fi
    CHECKS=$((CHECKS + 1))
    grep -q '^time: .* on 2 ranks (1 manager, 1 worker)' "$WORK/job-$launch.txt" ||
        fail "NS_LAUNCH=$launch: expected the sweep on 2 ranks in the job's output"
    compare "$WORK/ref.h5" "$WORK/$launch.h5" 2 >"$WORK/cmp" ||
        fail "NS_LAUNCH=$launch: the catalogue differs from the single-process one: $(cat "$WORK/cmp")"
done

# a job whose worker fails: non-zero, the rank named in the job's output
CHECKS=$((CHECKS + 1))
NS_DIST_TEST_FAIL_RANK=1 NIMSIEVE=$NS timeout -k 5 40 sbatch --wait -o "$WORK/job-fail.txt" --ntasks=2 \
    --cpus-per-task=1 "$SRC/tools/slurm/nimsieve.sbatch" "${ARGS[@]}" -o "$WORK/fail.h5" >/dev/null
rc=$?
if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
    fail "a failing worker under SLURM: expected a non-zero exit without a hang, got $rc"
elif ! grep -q 'rank 1: out of memory (test hook' "$WORK/job-fail.txt"; then
    fail "a failing worker under SLURM: expected its rank and cause in the job's output"
    sed 's/^/  job: /' "$WORK/job-fail.txt" >&2
fi

finish
