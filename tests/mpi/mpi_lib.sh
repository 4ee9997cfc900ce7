# mpi_lib.sh - helpers sourced by tests/mpi/test_*.sh (after cli_lib.sh).
# mpirun from NS_MPIEXEC (CMake's MPIEXEC_EXECUTABLE), every run bounded by
# `timeout` so that a hung job fails the test instead of the suite.
MPIEXEC=${NS_MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# one OpenMP thread a rank unless a test says otherwise: the ranks share 2 cores
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_WAIT_POLICY=PASSIVE
MPI_TIMEOUT=${MPI_TIMEOUT:-60}

# mpi R CMD...: run CMD under mpirun with R ranks (stdout $OUT, stderr $ERR, $RC)
mpi() {
    local r=$1
    shift
    run timeout -k 5 "$MPI_TIMEOUT" "$MPIEXEC" --oversubscribe -np "$r" "$@"
}
