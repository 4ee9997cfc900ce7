/* ns_dist.c - the ranks of an MPI job, or one process (ns_dist.h). */
#include "dist/ns_dist.h"

#include <stdio.h>

#ifdef NS_MPI
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "dist/ns_dist_world.h"

static int started; /* ns_dist_init ran and MPI was not already up */
static MPI_Comm fail_comm = MPI_COMM_NULL; /* ns_dist_fail_meet's meeting only */

ns_err ns_dist_init(int *argc, char ***argv, ns_error *err)
{
    int up = 0, provided = 0;
    MPI_Initialized(&up);
    if (up)
        return NS_OK;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return ns_error_set(err, NS_EINTERNAL, "MPI_Init_thread failed");
    started = 1;
    if (provided < MPI_THREAD_FUNNELED)
        return ns_error_set(err, NS_EINTERNAL,
                            "MPI gives thread level %d: expected MPI_THREAD_FUNNELED or more (OpenMP inside ranks)",
                            provided);
    if (MPI_Comm_dup(MPI_COMM_WORLD, &fail_comm) != MPI_SUCCESS)
        fail_comm = MPI_COMM_NULL;   /* then failures end the job at once, as before */
    return NS_OK;
}

void ns_dist_finalize(void)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (started && up && !down) {
        if (fail_comm != MPI_COMM_NULL)
            MPI_Comm_free(&fail_comm);
        MPI_Finalize();
    }
}

int ns_dist_is_mpi_build(void)
{
    return 1;
}

static int world_up(void)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    return up && !down;
}

int ns_dist_rank(void)
{
    int r = 0;
    if (world_up())
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int ns_dist_size(void)
{
    int n = 1;
    if (world_up())
        MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

ns_err ns_dist_barrier(ns_error *err)
{
    if (world_up() && MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: MPI_Barrier failed", ns_dist_rank());
    return NS_OK;
}

int ns_dist_max_code(int code)
{
    int out = code;
    if (world_up() && ns_dist_size() > 1)
        MPI_Allreduce(&code, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

uint64_t ns_dist_bcast_u64(uint64_t v)
{
    if (world_up() && ns_dist_size() > 1)
        MPI_Bcast(&v, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return v;
}

ns_err ns_dist_bcast_bytes(void *buf, uint64_t n, ns_error *err)
{
    if (!world_up() || ns_dist_size() == 1)
        return NS_OK;
    /* MPI counts are ints: pieces of at most 1 GiB */
    const uint64_t piece = (uint64_t)1 << 30;
    for (uint64_t at = 0; at < n; at += piece) {
        const int len = (int)(n - at < piece ? n - at : piece);
        if (MPI_Bcast((unsigned char *)buf + at, len, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            return ns_error_set(err, NS_EINTERNAL, "rank %d: MPI_Bcast of %llu bytes from rank 0 failed",
                                ns_dist_rank(), (unsigned long long)n);
    }
    return NS_OK;
}

const void *ns_dist_comm(void)
{
    static const MPI_Comm world = MPI_COMM_WORLD;
    return world_up() ? &world : NULL;
}

void ns_dist_abort(int code)
{
    if (world_up())
        MPI_Abort(MPI_COMM_WORLD, code);
}

int ns_dist_fail_meet(double seconds)
{
    static MPI_Request req = MPI_REQUEST_NULL;
    static int entered = 0;
    if (!world_up() || fail_comm == MPI_COMM_NULL || ns_dist_size() == 1)
        return 0;
    if (!entered) {
        if (MPI_Ibarrier(fail_comm, &req) != MPI_SUCCESS)
            return 0;
        entered = 1;
    }
    const double end = MPI_Wtime() + seconds;
    for (;;) {
        int done = 0;
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return 0;
        if (done)
            return 1;
        if (MPI_Wtime() >= end)
            return 0;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
}

void ns_dist_wait_end(void)
{
    if (!world_up() || ns_dist_size() == 1)
        return;
    for (;;)
        nanosleep(&(struct timespec){1, 0}, NULL);
}

ns_err ns_dist_world_dup(MPI_Comm *comm, int *rank, int *size, ns_error *err)
{
    if (MPI_Comm_dup(MPI_COMM_WORLD, comm) != MPI_SUCCESS)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: MPI_Comm_dup failed", ns_dist_rank());
    MPI_Comm_rank(*comm, rank);
    MPI_Comm_size(*comm, size);
    return NS_OK;
}

uint64_t ns_dist_test_die_after(const char *var, int rank)
{
    const char *die = getenv(var), *who = getenv("NS_DIST_TEST_FAIL_RANK");
    return die && rank == (who ? atoi(who) : 1) ? strtoull(die, NULL, 10) : 0;
}

void ns_dist_describe(char *buf, size_t len)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int l = 0;
    MPI_Get_library_version(lib, &l);
    /* the first line's first words: "Open MPI v4.1.4, package: ..." */
    size_t cut = 0;
    while (lib[cut] && lib[cut] != ',' && lib[cut] != '\n')
        cut++;
    const int n = ns_dist_size();
    snprintf(buf, len, "MPI build (%.*s), %d rank%s", (int)cut, lib, n, n == 1 ? "" : "s");
}

#else /* one process */

ns_err ns_dist_init(int *argc, char ***argv, ns_error *err)
{
    (void)argc;
    (void)argv;
    (void)err;
    return NS_OK;
}

void ns_dist_finalize(void) {}

int ns_dist_is_mpi_build(void)
{
    return 0;
}

int ns_dist_rank(void)
{
    return 0;
}

int ns_dist_size(void)
{
    return 1;
}

ns_err ns_dist_barrier(ns_error *err)
{
    (void)err;
    return NS_OK;
}

int ns_dist_max_code(int code)
{
    return code;
}

uint64_t ns_dist_bcast_u64(uint64_t v)
{
    return v;
}

ns_err ns_dist_bcast_bytes(void *buf, uint64_t n, ns_error *err)
{
    (void)buf;
    (void)n;
    (void)err;
    return NS_OK;
}

const void *ns_dist_comm(void)
{
    return NULL;
}

void ns_dist_abort(int code)
{
    (void)code;
}

int ns_dist_fail_meet(double seconds)
{
    (void)seconds;
    return 0;
}

void ns_dist_wait_end(void)
{
}

void ns_dist_describe(char *buf, size_t len)
{
    snprintf(buf, len, "no MPI (single-process build)");
}

#endif
