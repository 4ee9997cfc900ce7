/* ns_h5_placed.c - a table held in memory by every rank of an MPI job,
 * written into one file by all of them with the single-process filters
 * (ns_h5_write_placed in ns_h5.h; issue 21, item 3): the MPI side. Part of
 * the HDF5 layer; includes mpi.h only in an MPI build (NS_MPI), else every
 * call fails with NS_EINTERNAL and nothing else is reached.
 *
 * Rank 0 creates the file ("<path>.part", through the direct-I/O driver
 * in its shared mode, ns_h5_direct_share) and its datasets; each rank
 * fills and filters its share of the chunks of /grundy and /pn (its
 * share of the chunk grid, chunk c to rank c mod R, ns_h5_write_chunks in
 * put mode) and
 * the ranks meet once a batch (ns_h5_placed_put):
 *   1. MPI_Gather of a header a rank (failed, chunks, first, last) and
 *      MPI_Gatherv of the chunks' filtered sizes to rank 0;
 *   2. rank 0 writes its own chunks (H5Dwrite_chunk) and places every
 *      other rank's (H5Dwrite_chunk with the driver told to skip the
 *      bytes, ns_h5_place_chunk: HDF5 allocates and indexes the chunk, the
 *      driver records where), then broadcasts the verdict (stop, by which
 *      rank; whether a rank has batches to come);
 *   3. MPI_Scatterv of the addresses; each rank writes its bytes there
 *      with pwrite into the same file, opened for writing (checked to be
 *      rank 0's file: device and inode).
 * A rank's failure (filter, memory, a write) is sent with its next
 * header, or with the closing meeting (ns_h5_placed_finish, after every
 * rank has closed its descriptor), and stops every rank in that meeting. */
#include "store/ns_h5_internal.h"
#include "store/ns_chunkfilter.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef NS_MPI
#include <mpi.h>
#endif

struct ns_h5_placer {
#ifdef NS_MPI
    MPI_Comm comm;
#endif
    int rank, size;
    const char *path, *part;      /* for messages; borrowed */
    int nds;                      /* datasets a chunk */
    /* rank 0 */
    hid_t file;                   /* the .part; borrowed */
    const ns_h5_chunk_job *job;   /* its datasets and grid; borrowed */
    uint8_t *dummy;               /* bytes handed to HDF5 when placing; owned */
    int64_t *hdrs;                /* 4 a rank; owned */
    int *counts, *displs;         /* a rank; owned */
    uint64_t *lens, *addrs;       /* every rank's chunks of a round; owned */
    size_t lcap, acap;
    /* every rank */
    int fd;                       /* ranks but 0: the .part, for writing; -1 */
    uint64_t *mine;               /* this rank's sizes, then addresses; owned */
    size_t mcap;
    int lfail;                    /* a write of this rank failed */
    ns_error lerr;                /* its message */
    uint64_t bytes;               /* filtered bytes this rank wrote */
    int fail_after;               /* test hook: fail the write after this many chunks; -1 */
    int die;                      /* test hook: die (SIGKILL) there instead */
    int echo;                     /* the failure returned is another rank's */
    int refused;                  /* this rank could not open the .part: its
                                     errno, or -1: not rank 0's file */
};

#ifdef NS_MPI

static ns_err oom(ns_h5_placer *p, ns_error *err)
{
    return ns_error_set(err, NS_ENOMEM, "%s: rank %d: out of memory for the placed chunks", p->path, p->rank);
}

ns_err ns_h5_placer_new(const void *comm, const char *path, const char *part, ns_h5_placer **out, ns_error *err)
{
    *out = NULL;
    ns_h5_placer *p = calloc(1, sizeof *p);
    if (!p)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    p->comm = *(const MPI_Comm *)comm;
    p->fd = -1;
    p->file = H5I_INVALID_HID;
    p->path = path;
    p->part = part;
    p->fail_after = -1;
    if (MPI_Comm_rank(p->comm, &p->rank) != MPI_SUCCESS || MPI_Comm_size(p->comm, &p->size) != MPI_SUCCESS) {
        free(p);
        return ns_error_set(err, NS_EINTERNAL, "%s: MPI cannot say this rank and the number of ranks", path);
    }
    /* test hook: NS_H5_PLACED_TEST_FAIL=R:N, rank R's write fails after
     * its N-th chunk (its message names the rank; every rank stops);
     * R:N:die, rank R kills itself there (SIGKILL: a rank that dies in
     * the middle of a write) */
    const char *hook = getenv("NS_H5_PLACED_TEST_FAIL");
    if (hook && *hook && atoi(hook) == p->rank && strchr(hook, ':')) {
        p->fail_after = atoi(strchr(hook, ':') + 1);
        p->die = strstr(hook, ":die") != NULL;
    }
    *out = p;
    return NS_OK;
}

void ns_h5_placer_free(ns_h5_placer *p)
{
    if (!p)
        return;
    if (p->fd >= 0)
        close(p->fd);
    free(p->dummy);
    free(p->hdrs);
    free(p->counts);
    free(p->displs);
    free(p->lens);
    free(p->addrs);
    free(p->mine);
    free(p);
}

int ns_h5_placer_rank(const ns_h5_placer *p)
{
    return p->rank;
}

int ns_h5_placer_echo(const ns_h5_placer *p)
{
    return p->echo;
}

int ns_h5_placer_refused(const ns_h5_placer *p)
{
    return p->refused;
}

int ns_h5_placer_size(const ns_h5_placer *p)
{
    return p->size;
}

void ns_h5_placer_bcast(const ns_h5_placer *p, void *buf, size_t n)
{
    MPI_Bcast(buf, (int)n, MPI_BYTE, 0, p->comm);
}

ns_err ns_h5_placer_share(ns_h5_placer *p, hid_t file, const ns_h5_chunk_job *job, int *shared, ns_error *err)
{
    /* rank 0 says where the file is (device, inode), or that it cannot share it */
    int64_t id[3] = {0, 0, 0};
    ns_err rc = NS_OK;
    *shared = 0;
    p->nds = job->n;
    if (p->rank == 0) {
        struct stat sb;
        size_t most = 0;
        for (int j = 0; j < job->n; j++) {
            uint64_t cells = job->elem[j];
            for (int d = 0; d < job->rank; d++)
                cells *= job->chunk[d];
            const size_t b = ns_chunkfilter_bound((size_t)cells);
            most = b > most ? b : most;
        }
        p->file = file;
        p->job = job;
        if (!(p->dummy = calloc(most ? most : 1, 1)) || !(p->hdrs = calloc(4 * (size_t)p->size, sizeof *p->hdrs)) ||
            !(p->counts = calloc((size_t)p->size, sizeof *p->counts)) ||
            !(p->displs = calloc((size_t)p->size, sizeof *p->displs)))
            rc = oom(p, err);
        else if (stat(p->part, &sb) != 0)
            rc = ns_error_set(err, NS_EIO, "%s: cannot look at %s: %s", p->path, p->part, strerror(errno));
        else if (!(rc = ns_h5_direct_share(file, p->path, err)))
            id[0] = 1, id[1] = (int64_t)sb.st_dev, id[2] = (int64_t)sb.st_ino;
    }
    MPI_Bcast(id, 3, MPI_INT64_T, 0, p->comm);
    if (!id[0]) {
        if (p->rank == 0)
            return rc;
        p->echo = 1;
        return ns_error_set(err, NS_EIO, "%s: rank 0 could not share the file (its message says why)", p->path);
    }
    /* the others open it; test hook NS_TEST_PLACE_REFUSE=R: rank R does not */
    int ok = 1;
    if (p->rank != 0) {
        const char *refuse = getenv("NS_TEST_PLACE_REFUSE");
        struct stat sb;
        p->fd = refuse && *refuse && atoi(refuse) == p->rank ? (errno = ENOENT, -1)
                                                              : open(p->part, O_WRONLY | O_CLOEXEC);
        if (p->fd < 0)
            p->refused = errno ? errno : -1;
        ok = p->fd >= 0 && fstat(p->fd, &sb) == 0 && (int64_t)sb.st_dev == id[1] && (int64_t)sb.st_ino == id[2];
        if (!ok && !p->refused)
            p->refused = -1;
        if (!ok && p->fd >= 0) {
            close(p->fd);
            p->fd = -1;
        }
    }
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, p->comm);
    *shared = all;
    if (!all && p->fd >= 0) {
        close(p->fd);
        p->fd = -1;
    }
    return NS_OK;
}

/* Grow *buf to n uint64 words. */
static int grow(uint64_t **buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 1;
    size_t c = *cap ? *cap : 64;
    while (c < n)
        c *= 2;
    uint64_t *b = realloc(*buf, c * sizeof *b);
    if (!b)
        return 0;
    *buf = b;
    *cap = c;
    return 1;
}

/* This rank's bytes at the addresses rank 0 gave (ranks but 0). */
static void write_mine(ns_h5_placer *p, uint64_t n, const size_t *len, const uint8_t *const *buf)
{
    for (uint64_t i = 0; i < n * (uint64_t)p->nds && !p->lfail; i++) {
        if (!len[i])
            continue;
        if (p->mine[i] == UINT64_MAX) {
            p->lfail = 1;
            ns_error_set(&p->lerr, NS_EINTERNAL, "%s: rank %d: a chunk got no place in the file", p->path, p->rank);
            break;
        }
        if (p->fail_after == 0 && p->die)
            raise(SIGKILL);
        if (p->fail_after == 0) {
            p->lfail = 1;
            ns_error_set(&p->lerr, NS_EIO, "%s: cannot write a chunk of %zu bytes into %s: %s (test hook)", p->path,
                         len[i], p->part, strerror(ENOSPC));
            break;
        }
        if (p->fail_after > 0)
            p->fail_after--;
        size_t done = 0;
        while (done < len[i]) {
            const ssize_t w = pwrite(p->fd, buf[i] + done, len[i] - done, (off_t)(p->mine[i] + done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                p->lfail = 1;
                ns_error_set(&p->lerr, NS_EIO, "%s: cannot write a chunk of %zu bytes into %s: %s", p->path, len[i],
                             p->part, w < 0 ? strerror(errno) : "nothing written");
                break;
            }
            done += (size_t)w;
        }
        p->bytes += len[i];
    }
}

/* Rank 0: write its own chunks and place the others' (addrs); a failure
 * is rank 0's, in err. */
static ns_err place_round(ns_h5_placer *p, const size_t *len, const uint8_t *const *buf, ns_error *err)
{
    const ns_h5_chunk_job *job = p->job;
    const int nds = p->nds;
    for (int q = 0; q < p->size; q++) {
        /* rank q's ordinal k is chunk q + k R (ns_h5.c, placed_share) */
        const uint64_t first = (uint64_t)p->hdrs[4 * q + 2], n = (uint64_t)p->hdrs[4 * q + 1];
        for (uint64_t i = 0; i < n; i++) {
            hsize_t off[H5S_MAX_RANK] = {0};
            const uint64_t chunk = (uint64_t)q + (first + i) * (uint64_t)p->size;
            ns_h5_chunk_offset(job, chunk, off);
            for (int j = 0; j < nds; j++) {
                const size_t k = (size_t)p->displs[q] + i * (uint64_t)nds + (uint64_t)j;
                p->addrs[k] = UINT64_MAX;
                const uint64_t l = p->lens[k];
                if (!l)
                    continue;
                if (q == 0) {
                    if (H5Dwrite_chunk(job->dset[j], H5P_DEFAULT, 0, off, len[i * (uint64_t)nds + (uint64_t)j],
                                       buf[i * (uint64_t)nds + (uint64_t)j]) < 0)
                        return ns_h5_fail(err, NS_EIO, "%s: cannot write chunk %llu of dataset %s", p->path,
                                          (unsigned long long)chunk, job->name[j]);
                    p->bytes += l;
                    continue;
                }
                ns_err rc = ns_h5_place_chunk(p->file, job->dset[j], off, l, p->dummy, &p->addrs[k], p->path, err);
                if (rc)
                    return rc;
            }
        }
    }
    return NS_OK;
}

ns_err ns_h5_placed_put(void *user, uint64_t first, uint64_t nchunks, const size_t *len, const uint8_t *const *buf,
                        int failed, int last, int *more, ns_error *err)
{
    ns_h5_placer *p = user;
    const size_t mine = (size_t)nchunks * (size_t)p->nds;
    int64_t h[4] = {failed || p->lfail, (int64_t)nchunks, (int64_t)first, last};
    if (!failed && !p->lfail && !grow(&p->mine, &p->mcap, mine ? mine : 1)) {
        p->lfail = 1;
        oom(p, &p->lerr);
        h[0] = 1;
    }
    if (h[0])
        h[1] = 0;
    MPI_Gather(h, 4, MPI_INT64_T, p->hdrs, 4, MPI_INT64_T, 0, p->comm);
    int64_t verdict[3] = {0, -1, 0};   /* stop, the rank that failed, more to come */
    ns_error own = {0};
    if (p->rank == 0) {
        size_t total = 0;
        for (int q = 0; q < p->size; q++) {
            p->counts[q] = (int)(p->hdrs[4 * q + 1] * p->nds);
            p->displs[q] = (int)total;
            total += (size_t)p->counts[q];
            if (p->hdrs[4 * q] && !verdict[0])
                verdict[0] = 1, verdict[1] = q;
            if (!p->hdrs[4 * q + 3])
                verdict[2] = 1;
        }
        if (!grow(&p->lens, &p->lcap, total ? total : 1) || !grow(&p->addrs, &p->acap, total ? total : 1)) {
            oom(p, &own);
            verdict[0] = 1, verdict[1] = 0;
        }
    }
    for (size_t i = 0; i < mine && !h[0]; i++)
        p->mine[i] = len[i];
    MPI_Gatherv(h[0] ? NULL : p->mine, (int)(h[0] ? 0 : mine), MPI_UINT64_T, p->lens, p->counts, p->displs,
                MPI_UINT64_T, 0, p->comm);
    if (p->rank == 0 && !verdict[0] && place_round(p, len, buf, &own))
        verdict[0] = 1, verdict[1] = 0;
    MPI_Bcast(verdict, 3, MPI_INT64_T, 0, p->comm);
    if (verdict[0]) {
        if (failed)
            return NS_EIO;   /* this rank's own message stands */
        if (p->lfail) {
            *err = p->lerr;
            return p->lerr.code ? p->lerr.code : NS_EIO;
        }
        if (p->rank == 0 && verdict[1] == 0) {
            *err = own;
            return own.code ? own.code : NS_EIO;
        }
        p->echo = 1;
        return ns_error_set(err, NS_EIO, "%s: rank %d failed to write its chunks (its message says why)", p->path,
                            (int)verdict[1]);
    }
    MPI_Scatterv(p->addrs, p->counts, p->displs, MPI_UINT64_T, p->mine, (int)mine, MPI_UINT64_T, 0, p->comm);
    if (p->rank != 0)
        write_mine(p, nchunks, len, buf);
    *more = (int)verdict[2];
    return NS_OK;
}

ns_err ns_h5_placed_finish(ns_h5_placer *p, ns_err rc, uint64_t *bytes, uint64_t *others, ns_error *err)
{
    /* a rank's writes reach rank 0's file by its close (the page cache of
     * one node; close-to-open on a network file system), as durable as the
     * single-process writer's, which does not sync either */
    if (p->rank != 0 && p->fd >= 0) {
        if (close(p->fd) != 0 && !rc && !p->lfail) {
            p->lfail = 1;
            ns_error_set(&p->lerr, NS_EIO, "%s: cannot close %s: %s", p->path, p->part, strerror(errno));
        }
        p->fd = -1;
    }
    if (!rc && p->lfail) {
        *err = p->lerr;
        rc = p->lerr.code ? p->lerr.code : NS_EIO;
    }
    /* every rank says whether it failed: the lowest rank that did */
    int v = rc ? p->rank : p->size, low = v;
    MPI_Allreduce(&v, &low, 1, MPI_INT, MPI_MIN, p->comm);
    uint64_t b = p->bytes, all = b;
    MPI_Reduce(&b, &all, 1, MPI_UINT64_T, MPI_SUM, 0, p->comm);
    if (bytes)
        *bytes = all;
    if (others)
        *others = all - p->bytes;
    if (!rc && low < p->size && (p->echo = 1))
        rc = ns_error_set(err, NS_EIO, "%s: rank %d failed to write its chunks (its message says why)", p->path, low);
    return rc;
}

#else /* no MPI */

ns_err ns_h5_placer_new(const void *comm, const char *path, const char *part, ns_h5_placer **out, ns_error *err)
{
    (void)comm;
    (void)part;
    *out = NULL;
    return ns_error_set(err, NS_EINTERNAL, "%s: this build has no MPI (build with -DNS_MPI=ON)", path);
}

void ns_h5_placer_free(ns_h5_placer *p)
{
    free(p);
}

int ns_h5_placer_rank(const ns_h5_placer *p)
{
    (void)p;
    return 0;
}

int ns_h5_placer_echo(const ns_h5_placer *p)
{
    (void)p;
    return 0;
}

int ns_h5_placer_refused(const ns_h5_placer *p)
{
    (void)p;
    return 0;
}

int ns_h5_placer_size(const ns_h5_placer *p)
{
    (void)p;
    return 1;
}

void ns_h5_placer_bcast(const ns_h5_placer *p, void *buf, size_t n)
{
    (void)p;
    (void)buf;
    (void)n;
}

ns_err ns_h5_placer_share(ns_h5_placer *p, hid_t file, const ns_h5_chunk_job *job, int *shared, ns_error *err)
{
    (void)p;
    (void)file;
    (void)job;
    *shared = 0;
    return ns_error_set(err, NS_EINTERNAL, "placed chunks need an MPI build");
}

ns_err ns_h5_placed_put(void *user, uint64_t first, uint64_t nchunks, const size_t *len, const uint8_t *const *buf,
                        int failed, int last, int *more, ns_error *err)
{
    (void)user;
    (void)first;
    (void)nchunks;
    (void)len;
    (void)buf;
    (void)failed;
    (void)last;
    *more = 0;
    return ns_error_set(err, NS_EINTERNAL, "placed chunks need an MPI build");
}

ns_err ns_h5_placed_finish(ns_h5_placer *p, ns_err rc, uint64_t *bytes, uint64_t *others, ns_error *err)
{
    (void)p;
    (void)err;
    if (bytes)
        *bytes = 0;
    if (others)
        *others = 0;
    return rc;
}

#endif

/* This rank's share of job's chunks, dealt cyclically (chunk c to rank c
 * mod R: the costly parts of a table, its valid cells, spread over the
 * ranks). */
static void deal(const ns_h5_placer *pl, ns_h5_chunk_job *job)
{
    const uint64_t c = job->count, q = (uint64_t)ns_h5_placer_rank(pl), r = (uint64_t)ns_h5_placer_size(pl);
    job->first = q < c ? q : c;
    job->count = q < c ? (c - q + r - 1) / r : 0;
    job->stride = r;
    job->put = ns_h5_placed_put;
    job->put_user = (void *)pl;
}

ns_err ns_h5_placed_chunks(ns_h5_placer *pl, hid_t file, ns_h5_chunk_job *job, int *shared, uint64_t *bytes,
                           uint64_t *others, ns_error *err)
{
    int all = 0;
    ns_err rc = ns_h5_placer_share(pl, file, job, &all, err);
    if (rc)
        return rc;
    if (shared)
        *shared = all;
    if (!all)
        return ns_h5_placer_rank(pl) == 0 ? ns_h5_write_chunks(job, err) : NS_OK;
    deal(pl, job);
    rc = ns_h5_write_chunks(job, err);
    return ns_h5_placed_finish(pl, rc, bytes, others, err);
}

ns_err ns_h5_placed_end(ns_h5_placer *pl, ns_err rc, const char *what, ns_h5_placed_report *rep, ns_error *err)
{
    const char *path = pl->path;
    int32_t fin = (int32_t)rc;
    ns_h5_placer_bcast(pl, &fin, sizeof fin);
    if (ns_h5_placer_rank(pl) != 0 && !rc && fin) {
        rep->echo = 1;
        rc = ns_error_set(err, (ns_err)fin, "%s: rank 0 could not write the %s (its message says why)", path, what);
    }
    if (rc && ns_h5_placer_echo(pl))
        rep->echo = 1;
    rep->refused = ns_h5_placer_refused(pl);
    ns_h5_placer_free(pl);
    return rc;
}

ns_err ns_h5_placed_header(ns_h5_placer *pl, int64_t hdr[3], const char *what, ns_h5_placed_report *rep,
                           ns_error *err)
{
    hdr[0] = hdr[1] = hdr[2] = 0;
    ns_h5_placer_bcast(pl, hdr, 3 * sizeof *hdr);
    if (hdr[0])
        return NS_OK;
    rep->echo = 1;
    return ns_error_set(err, NS_EIO, "%s: rank 0 could not write the %s (its message says why)", pl->path, what);
}

ns_err ns_h5_placer_begin(const void *comm, const char *path, const char *suffix, ns_h5_placer **out, char **name,
                          ns_error *err)
{
    *out = NULL;
    *name = ns_h5_path_plus(path, suffix);
    if (!*name)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    const ns_err rc = ns_h5_placer_new(comm, path, *name, out, err);
    if (rc) {
        free(*name);
        *name = NULL;
    }
    return rc;
}
