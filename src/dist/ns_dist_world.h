/* ns_dist_world.h - what the MPI drivers of dist/ (ns_dist_levels.c,
 * ns_dist_tiles.c) share as they start: a communicator of their own and
 * the test hook that kills a rank. Only with NS_MPI (it includes mpi.h:
 * dist/ alone includes this header). */
#ifndef NS_DIST_WORLD_H
#define NS_DIST_WORLD_H

#ifdef NS_MPI
#include <mpi.h>
#include <stdint.h>

#include "core/ns_error.h"

/* A duplicate of MPI_COMM_WORLD into *comm (its tags are the caller's
 * alone; the caller frees it with MPI_Comm_free), with this rank and the
 * number of ranks. NS_EINTERNAL ("rank R: MPI_Comm_dup failed") when MPI
 * fails; *comm is then not to be freed. */
ns_err ns_dist_world_dup(MPI_Comm *comm, int *rank, int *size, ns_error *err);

/* Test hook: the N of environment variable var (such as
 * NS_DIST_TEST_DIE_AFTER_TILES=N) when rank is NS_DIST_TEST_FAIL_RANK
 * (default 1), else 0. The caller raises SIGKILL after its N-th message. */
uint64_t ns_dist_test_die_after(const char *var, int rank);
#endif

#endif
