/* ns_dist.h - the ranks of an MPI job (issue 21), and the same calls as
 * no-ops in a single process, so that callers need no #ifdef.
 *
 * Built with -DNS_MPI=ON (NS_MPI=1): ns_dist_init starts MPI
 * (MPI_Init_thread, MPI_THREAD_SERIALIZED: any thread may talk MPI, one at
 * a time; the tile exchange, ns_dist_tiles.h, calls it from OpenMP worker
 * threads under a lock); rank and size are
 * MPI_COMM_WORLD's. Otherwise: one process, rank 0 of 1, and every call
 * below succeeds at once.
 *
 * This header is the room's stable interface: the distributed drivers
 * (ns_dist_sweep.h, later the two-pile tile kernel) build on it. Only
 * src/dist/ (and src/store/ under NS_MPI, for parallel HDF5 file access)
 * includes mpi.h. */
#ifndef NS_DIST_H
#define NS_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

/* Start the job (once, before any other call; argc/argv may be NULL).
 * Asks for MPI_THREAD_SERIALIZED; fails (NS_EINTERNAL) when MPI cannot give
 * MPI_THREAD_FUNNELED (the tile exchange checks for SERIALIZED itself). */
ns_err ns_dist_init(int *argc, char ***argv, ns_error *err);

/* End the job (once, after the last call). Without ns_dist_init: nothing. */
void ns_dist_finalize(void);

/* 1 in an MPI build (NS_MPI), 0 otherwise. */
int ns_dist_is_mpi_build(void);

/* This process's rank (0 .. size-1) and the number of ranks (1 without MPI
 * or before ns_dist_init). */
int ns_dist_rank(void);
int ns_dist_size(void);

/* Wait for every rank. NS_EINTERNAL if MPI reports a failure. */
ns_err ns_dist_barrier(ns_error *err);

/* Rank 0's v on every rank (every rank must call it); v in a single
 * process. */
uint64_t ns_dist_bcast_u64(uint64_t v);

/* Rank 0's n bytes at buf into every other rank's buf (every rank must
 * call it, with the same n; in pieces of 1 GiB, MPI counts being ints).
 * NS_EINTERNAL if MPI reports a failure; a no-op in a single process. */
ns_err ns_dist_bcast_bytes(void *buf, uint64_t n, ns_error *err);

/* The largest of every rank's code (an exit status): every rank must call
 * it; returns code itself in a single process. */
int ns_dist_max_code(int code);

/* The job's communicator for code outside dist/ that talks MPI itself
 * (store/'s parallel HDF5, ns_h5_write_par): a pointer to an MPI_Comm
 * (MPI_COMM_WORLD), NULL before ns_dist_init and in a single process. */
const void *ns_dist_comm(void);

/* End every rank of the job now with exit status code (MPI_Abort); in a
 * single process: returns, the caller exits. The caller prints the cause,
 * naming the rank, before (only cli/ prints). */
void ns_dist_abort(int code);

/* A failure that every rank may share (a widening of the general engine's
 * sets past --memory: the same budget and sizes on every rank). Each rank
 * that failed calls it. Rank 0 says so and goes on at once (seconds = 0),
 * writes its checkpoint and ends the job (ns_dist_abort). A rank other
 * than 0 waits up to `seconds` for every rank to have called it: 1 when
 * they all did (the failure is shared: rank 0's end will come, so wait for
 * it, ns_dist_wait_end, rather than cut its checkpoint short), 0 when not
 * (this rank's failure alone: the others may wait for it in a collective,
 * so end the job now). 0 in a single process. */
int ns_dist_fail_meet(double seconds);

/* Wait for the job's end from another rank (its ns_dist_abort); never
 * returns in an MPI job; returns at once in a single process. */
void ns_dist_wait_end(void);

/* "Open MPI v4.1.4, 3 ranks" / "no MPI (single process)" into buf. */
void ns_dist_describe(char *buf, size_t len);

#endif
