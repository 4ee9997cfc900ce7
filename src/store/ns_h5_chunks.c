/* ns_h5_chunks.c - chunked datasets written by direct chunk writes (see
 * ns_h5_internal.h): part of the HDF5 layer, so it includes hdf5.h.
 *
 * Threads: one OpenMP team for the whole job. Round b: thread 0 first
 * writes batch b-1 (H5Dwrite_chunk, in chunk order; HDF5 is not
 * thread-safe, only this thread calls it), then joins the others, which
 * meanwhile fill and filter batch b into the other set of slots (dynamic
 * schedule, one chunk at a time). The loop's barrier ends the round. A
 * failure on any thread sets a flag that makes the rest of the work a
 * no-op; the first message wins. */
#include "store/ns_h5_internal.h"

#include <stdlib.h>
#include <string.h>

#include "store/ns_chunkfilter.h"
#include "core/ns_omp.h"

/* bytes of filtered chunks held per set of slots (two sets), unless the
 * threads need more: one chunk each */
#define SLOT_BUDGET ((size_t)32 << 20)

#if H5_VERSION_GE(1, 10, 3)
#define HAVE_DIRECT 1
#else
#define HAVE_DIRECT 0
#endif

#ifdef _OPENMP
#define PRAGMA(x) _Pragma(#x)
#else
#define PRAGMA(x)
#endif

int ns_h5_direct_ok(void)
{
    const uint16_t one = 1;
    uint8_t low;
    memcpy(&low, &one, 1);
    return HAVE_DIRECT && low == 1;
}

hid_t ns_h5_create_chunked(hid_t loc, const char *path, const char *name, hid_t ftype, int rank,
                           const hsize_t *dims, const hsize_t *maxdims, const hsize_t *chunk,
                           const void *fill, ns_error *err)
{
    hid_t d = H5I_INVALID_HID;
    hid_t space = H5Screate_simple(rank, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (space < 0 || dcpl < 0 || H5Pset_chunk(dcpl, rank, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
        H5Pset_deflate(dcpl, NS_H5_DEFLATE_LEVEL) < 0 || H5Pset_fletcher32(dcpl) < 0 ||
        (fill && H5Pset_fill_value(dcpl, ftype, fill) < 0)) {
        ns_h5_fail(err, NS_EIO, "%s: cannot set up the layout of dataset %s (chunked, shuffle, deflate, fletcher32)",
                   path, name);
        goto done;
    }
    d = H5Dcreate2(loc, name, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0)
        ns_h5_fail(err, NS_EIO, "%s: cannot create dataset %s", path, name);
done:
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return d;
}

uint64_t ns_h5_chunk_count(const ns_h5_chunk_job *job)
{
    uint64_t n = 1;
    for (int d = 0; d < job->rank; d++)
        n *= job->chunk[d] ? (job->dims[d] + job->chunk[d] - 1) / job->chunk[d] : 0;
    return n;
}

void ns_h5_chunk_offset(const ns_h5_chunk_job *job, uint64_t c, hsize_t *off)
{
    for (int d = job->rank - 1; d >= 0; d--) {
        const uint64_t per = (job->dims[d] + job->chunk[d] - 1) / job->chunk[d];
        off[d] = (hsize_t)(c % per) * job->chunk[d];
        c /= per;
    }
}

/* One filtered chunk of every dataset of the job. */
typedef struct slot {
    uint8_t *buf[NS_H5_GROUP_MAX];   /* bound[j] bytes each; owned */
    size_t len[NS_H5_GROUP_MAX];     /* 0: the chunk is all fill, not written */
} slot;

/* What a thread owns. */
typedef struct worker {
    ns_chunkfilter *filter;
    void *raw[NS_H5_GROUP_MAX];      /* one raw chunk per dataset; owned */
} worker;

typedef struct run {
    const ns_h5_chunk_job *job;
    size_t bytes[NS_H5_GROUP_MAX];   /* raw bytes of a chunk */
    size_t bound[NS_H5_GROUP_MAX];   /* room for a filtered one */
    uint64_t batch;                  /* chunks per batch */
    slot *slots;                     /* 2 * batch; owned */
    worker *workers;                 /* threads; owned */
    int failed;                      /* read and set atomically */
    ns_error first;                  /* the first failure's message */
    /* put mode (job->put), thread 0 only */
    size_t *plen;                    /* batch x datasets; owned */
    const uint8_t **pbuf;            /* batch x datasets; owned */
    int more;                        /* some rank has batches to come */
    int stopped;                     /* a round stopped every rank */
} run;

static void fail_once(run *r, const ns_error *e)
{
    PRAGMA(omp critical(ns_h5_chunks_fail))
    {
        if (!r->failed)
            r->first = *e;
        PRAGMA(omp atomic write)
        r->failed = 1;
    }
}

static int has_failed(run *r)
{
    int f;
    PRAGMA(omp atomic read)
    f = r->failed;
    return f;
}

/* Are all n bytes of p equal to b? Eight bytes a step. */
static int all_bytes(const void *p, size_t n, uint8_t b)
{
    const uint8_t *c = p;
    const uint64_t pat = (uint64_t)b * 0x0101010101010101u;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, c + i, sizeof w);
        if ((w[0] ^ pat) | (w[1] ^ pat) | (w[2] ^ pat) | (w[3] ^ pat))
            return 0;
    }
    for (; i < n; i++)
        if (c[i] != b)
            return 0;
    return 1;
}

/* Fill and filter chunk number c into s on worker w. */
static void filter_chunk(run *r, worker *w, uint64_t c, slot *s)
{
    const ns_h5_chunk_job *job = r->job;
    hsize_t off[H5S_MAX_RANK];
    ns_h5_chunk_offset(job, c, off);
    job->fill(job->user, off, w->raw);
    for (int j = 0; j < job->n; j++) {
        ns_error e = {0};
        if (job->skip[j] >= 0 && job->elem[j] == 1 && all_bytes(w->raw[j], r->bytes[j], (uint8_t)job->skip[j])) {
            s->len[j] = 0;
            continue;
        }
        if (ns_chunkfilter_run(w->filter, w->raw[j], r->bytes[j], job->elem[j], s->buf[j], r->bound[j],
                               &s->len[j], &e)) {
            fail_once(r, &e);
            return;
        }
    }
}

/* Write the filtered chunks first..first+n-1 held in slots s[0..n). */
static void write_batch(run *r, uint64_t first, uint64_t n, slot *s)
{
    const ns_h5_chunk_job *job = r->job;
    for (uint64_t i = 0; i < n && !has_failed(r); i++) {
        hsize_t off[H5S_MAX_RANK];
        ns_h5_chunk_offset(job, first + i, off);
        for (int j = 0; j < job->n; j++) {
            if (s[i].len[j] == 0)
                continue;
#if HAVE_DIRECT
            herr_t st = H5Dwrite_chunk(job->dset[j], H5P_DEFAULT, 0, off, s[i].len[j], s[i].buf[j]);
#else
            herr_t st = -1;
#endif
            if (st < 0) {
                ns_error e = {0};
                ns_h5_fail(&e, NS_EIO, "%s: cannot write chunk %llu of dataset %s", job->path,
                           (unsigned long long)(first + i), job->name[j]);
                fail_once(r, &e);
                return;
            }
        }
    }
}

/* The step between the job's chunks (1: contiguous). */
static uint64_t stride_of(const ns_h5_chunk_job *job)
{
    return job->stride ? job->stride : 1;
}

/* Put mode: hand the job's chunks first..first+n-1 (ordinals) in slots s[0..n) to
 * the job's put (a collective round; see ns_h5_put_fn). Thread 0 only. */
static void put_batch(run *r, uint64_t first, uint64_t n, const slot *s, int last)
{
    const ns_h5_chunk_job *job = r->job;
    if (r->stopped)
        return;
    const int failed = has_failed(r);
    if (failed)
        n = 0;
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < job->n; j++) {
            r->plen[i * (uint64_t)job->n + (uint64_t)j] = s[i].len[j];
            r->pbuf[i * (uint64_t)job->n + (uint64_t)j] = s[i].buf[j];
        }
    ns_error e = {0};
    int more = 0;
    if (job->put(job->put_user, first, n, r->plen, r->pbuf, failed, last, &more, &e)) {
        r->stopped = 1;
        if (!failed)
            fail_once(r, &e);
        return;
    }
    r->more = more;
}

static void free_run(run *r, int nthreads)
{
    if (r->slots)
        for (uint64_t i = 0; i < 2 * r->batch; i++)
            for (int j = 0; j < NS_H5_GROUP_MAX; j++)
                free(r->slots[i].buf[j]);
    if (r->workers)
        for (int t = 0; t < nthreads; t++) {
            ns_chunkfilter_free(r->workers[t].filter);
            for (int j = 0; j < NS_H5_GROUP_MAX; j++)
                free(r->workers[t].raw[j]);
        }
    free(r->slots);
    free(r->workers);
    free(r->plen);
    free(r->pbuf);
}

ns_err ns_h5_write_chunks(const ns_h5_chunk_job *job, ns_error *err)
{
    if (!ns_h5_direct_ok())
        return ns_error_set(err, NS_EINTERNAL, "%s: direct chunk writes need HDF5 >= 1.10.3 on a "
                            "little-endian host", job->path);
    const uint64_t total = ns_h5_chunk_count(job);
    if (job->n < 1 || job->n > NS_H5_GROUP_MAX || job->rank < 1 || job->rank > H5S_MAX_RANK ||
        job->threads < 1 || !job->fill || job->first > total ||
        (job->count && (job->first + (job->count - 1) * stride_of(job) >= total)))
        return ns_error_set(err, NS_EINTERNAL, "%s: bad chunk job: %d datasets, rank %d, %d threads, chunks "
                            "%llu+%llu of %llu", job->path, job->n, job->rank, job->threads,
                            (unsigned long long)job->first, (unsigned long long)job->count,
                            (unsigned long long)total);
    run r;
    memset(&r, 0, sizeof r);
    r.job = job;
    r.more = 1;
    if (job->count == 0) {
        /* put mode: the rounds of the other ranks' batches, with none */
        while (job->put && r.more && !r.stopped)
            put_batch(&r, 0, 0, NULL, 1);
        if (r.stopped) {
            if (err)
                *err = r.first;
            return r.first.code ? r.first.code : NS_EIO;
        }
        return NS_OK;
    }

    const int nt = (uint64_t)job->threads < job->count ? job->threads : (int)job->count;
    ns_err rc = NS_OK;
    uint64_t cells = 1;
    for (int d = 0; d < job->rank; d++)
        cells *= job->chunk[d];
    size_t max_bytes = 0, slot_bytes = 0;
    uint64_t batch = 0;
    for (int j = 0; j < job->n; j++) {
        if (job->elem[j] == 0 || cells > (uint64_t)UINT32_MAX / job->elem[j]) {
            rc = ns_error_set(err, NS_EINTERNAL, "%s: chunks of dataset %s are too large (%llu cells)",
                              job->path, job->name[j], (unsigned long long)cells);
            goto setup_failed;
        }
        r.bytes[j] = (size_t)cells * job->elem[j];
        r.bound[j] = ns_chunkfilter_bound(r.bytes[j]);
        max_bytes = r.bytes[j] > max_bytes ? r.bytes[j] : max_bytes;
        slot_bytes += r.bound[j];
    }
    /* a few chunks per thread, within the budget, at least one per thread */
    batch = 4 * (uint64_t)nt;
    if (batch * slot_bytes > SLOT_BUDGET)
        batch = SLOT_BUDGET / slot_bytes;
    if (batch < (uint64_t)nt)
        batch = (uint64_t)nt;
    if (batch > job->count)
        batch = job->count;
    r.batch = batch;

    r.slots = calloc(2 * batch, sizeof *r.slots);
    r.workers = calloc((size_t)nt, sizeof *r.workers);
    if (!r.slots || !r.workers)
        goto nomem;
    if (job->put && (!(r.plen = calloc(batch * (uint64_t)job->n, sizeof *r.plen)) ||
                     !(r.pbuf = calloc(batch * (uint64_t)job->n, sizeof *r.pbuf))))
        goto nomem;
    for (uint64_t i = 0; i < 2 * batch; i++)
        for (int j = 0; j < job->n; j++)
            if (!(r.slots[i].buf[j] = malloc(r.bound[j])))
                goto nomem;
    for (int t = 0; t < nt; t++) {
        if (!(r.workers[t].filter = ns_chunkfilter_new(max_bytes, NS_H5_DEFLATE_LEVEL, NS_DEFLATE_PLANES, err))) {
            rc = err && err->code ? err->code : NS_ENOMEM;
            goto setup_failed;
        }
        for (int j = 0; j < job->n; j++)
            if (!(r.workers[t].raw[j] = malloc(r.bytes[j])))
                goto nomem;
    }

    const uint64_t nbatch = (job->count + batch - 1) / batch;
    PRAGMA(omp parallel num_threads(nt))
    {
        const int tid = ns_omp_thread_num();
        for (uint64_t b = 0; b <= nbatch; b++) {
            if (tid == 0 && b > 0) {
                const uint64_t first = (b - 1) * batch;
                const uint64_t n = job->count - first < batch ? job->count - first : batch;
                if (job->put)
                    put_batch(&r, first, n, r.slots + ((b - 1) & 1) * batch, b == nbatch);
                else
                    write_batch(&r, job->first + first, n, r.slots + ((b - 1) & 1) * batch);
            }
            if (b < nbatch) {
                const uint64_t first = b * batch;
                const int64_t n = (int64_t)(job->count - first < batch ? job->count - first : batch);
                slot *set = r.slots + (b & 1) * batch;
                PRAGMA(omp for schedule(dynamic, 1))
                for (int64_t i = 0; i < n; i++)
                    if (!has_failed(&r))
                        filter_chunk(&r, &r.workers[tid], job->first + (first + (uint64_t)i) * stride_of(job),
                                     &set[i]);
            }
        }
    }
    /* put mode: the rounds of the ranks that still have batches */
    while (job->put && r.more && !r.stopped)
        put_batch(&r, job->count, 0, NULL, 1);
    if (r.failed) {
        if (err)
            *err = r.first;
        rc = r.first.code ? r.first.code : NS_EIO;
    }
    goto fail;

nomem:
    rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for the chunk buffers", job->path);
setup_failed:
    if (job->put) {
        /* this rank's failure stops every rank in the next round */
        ns_error keep = err ? *err : (ns_error){0};
        PRAGMA(omp atomic write)
        r.failed = 1;
        r.first = keep;
        while (r.more && !r.stopped)
            put_batch(&r, 0, 0, NULL, 1);
    }
fail:
    free_run(&r, nt);
    return rc;
}
