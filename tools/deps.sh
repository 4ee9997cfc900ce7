#!/usr/bin/env bash
# deps.sh - install the Debian packages nimsieve needs (Debian 12).
#
# Checks every package with dpkg-query first and calls apt-get only when
# something is missing (then `apt-get update` once and one `apt-get install`).
# Non-interactive; uses sudo only when not root and sudo exists.
#   tools/deps.sh            install what is missing
#   tools/deps.sh --check    only report; exit 1 when something is missing
#   tools/deps.sh --mpi      also the MPI build's packages (OpenMPI, parallel
#                            HDF5, SLURM for tools/slurm/): -DNS_MPI=ON
set -euo pipefail

PACKAGES=(
    build-essential cmake pkg-config       # compiler, CMake >= 3.25
    libhdf5-dev hdf5-tools                 # HDF5 C API 1.10, h5dump
    libgsl-dev                             # GSL
    zlib1g-dev                             # deflate of the table chunks
    gnuplot-nox                            # figures
    python3-h5py python3-numpy python3-matplotlib   # analysis, notebooks
    jupyter-nbconvert python3-ipykernel    # notebook tests
    hdf5-filter-plugin                     # extra HDF5 filters for readers
    clang valgrind                         # libFuzzer, memory checks
    bc                                     # arithmetic in the test and bench scripts
)

# -DNS_MPI=ON (issue 21): MPI, the HDF5 built on it, and a one-node SLURM
# for the job script's test (tests/mpi/test_slurm.sh). Installing
# libhdf5-openmpi-dev switches the hdf5.pc alternative to the parallel
# library; the default build finds the serial one through CMake's FindHDF5
# all the same (it stays MPI-free).
MPI_PACKAGES=(
    openmpi-bin libopenmpi-dev             # mpirun, mpicc, MPI C headers
    libhdf5-openmpi-dev                    # parallel HDF5 (H5_HAVE_PARALLEL)
    slurm-wlm munge                        # slurmctld, slurmd, srun, sbatch
)

check_only=0
for arg in "$@"; do
    case "$arg" in
        --check) check_only=1 ;;
        --mpi) PACKAGES+=("${MPI_PACKAGES[@]}") ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "deps.sh: unknown argument '$arg' (expected --check, --mpi or nothing)" >&2; exit 2 ;;
    esac
done

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps.sh: dpkg-query not found: this script expects Debian 12 (or a derivative)" >&2
    exit 1
fi

missing=()
for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "deps.sh: all ${#PACKAGES[@]} packages present, apt-get skipped"
    exit 0
fi
echo "deps.sh: missing: ${missing[*]}"
[ "$check_only" -eq 0 ] || exit 1

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)
    sudo -n true 2>/dev/null || SUDO=(sudo)
else
    echo "deps.sh: not root and no sudo: install these packages as root: ${missing[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
echo "deps.sh: installed ${missing[*]}"
