/* ns_h5_stream.c - streaming writes of two-pile Grundy tables, tile by tile
 * (see ns_h5.h): part of the HDF5 layer, so it includes hdf5.h.
 *
 * /grundy is chunked as one tile per chunk (cut to the bounds), so a finished tile is a
 * finished chunk: the calling thread converts it to the stored width,
 * filters it (ns_chunkfilter: shuffle, deflate of the byte planes worth it,
 * Fletcher-32) into its own buffer, and writes it with H5Dwrite_chunk
 * inside a critical section (HDF5 is not thread-safe); the file's driver
 * (ns_h5_direct.c) gathers the chunks into blocks that its own thread
 * writes with O_DIRECT. /pn gets the tile's
 * P/N flags the same way, except that an all-N tile is not stored (the
 * dataset's fill value is N). The P-positions of each tile are kept
 * (2 x int64 each; Wythoff: ~1.5 N of them) and sorted at the end.
 *
 * P/N tables (elem 1) arrive as blocks of rows of P bitmaps instead
 * (ns_h5_stream_pn_rows): /pn only, chunked as the block's rows x
 * PN_COLS; a chunk with no P-position is not stored, the others are filled
 * and filtered in parallel, one chunk a thread.
 *
 * Checkpoints record where each chunk lies (ns_h5_ledger.c), and a resume
 * copies them from there into a fresh file, "<path>.part.new", which the
 * resumed run's first checkpoint renames over the .part (the .part always
 * goes with the last checkpoint). */
#define _GNU_SOURCE /* sync_file_range */
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/ns_chunkfilter.h"
#include "core/ns_omp.h"

enum { PN_COLS = NS_H5_PN_COLS };   /* columns of a streamed /pn chunk: rows x 4 KiB */

/* A thread's filter and buffers. Made the first time the thread stores
 * something (worker_get), not when the stream opens: a stream may be opened
 * for more threads than ever write to it (across MPI ranks rank 0's stream
 * has a slot for each thread of every rank, of which the usual path uses
 * its own threads' only), and an unused slot is a NULL pointer. */
typedef struct stream_worker {
    ns_chunkfilter *filter;
    uint8_t *out;            /* one filtered chunk of /grundy (the larger); owned */
    uint8_t *pnraw, *pnout;  /* a raw and a filtered chunk of /pn; owned */
} stream_worker;

struct ns_h5_stream {
    char *path;              /* owned */
    char *part;              /* "<path>.part"; owned */
    char *pend;              /* "<path>.part.new"; owned */
    int pending;             /* the file is pend, not yet recorded by a
                                checkpoint (a resume's fresh file): the
                                next checkpoint renames it over part */
    ns_h5_ledger ledger;     /* the chunks written, for checkpoints */
    int64_t bounds[2];
    int64_t tile;
    int64_t c0, c1;          /* chunk shape: the tile, cut to the bounds */
    int elem;                /* bytes of a stored value: 2 or 4; 1: P/N only */
    int threads;
    hid_t file, dg, dpn;
    size_t raw_bytes, bound;
    stream_worker **workers; /* a slot a thread, NULL until the thread first
                                stores; slot t is only ever read or made by
                                OpenMP thread t (worker_get); owned */
    /* under the critical section */
    int failed;
    uint64_t cells;          /* cells stored */
    uint64_t chunks;         /* chunks stored (/grundy and /pn) */
    ns_table_stats st;
    int64_t *pp;             /* P-positions, 2 per row; owned */
    uint64_t npp, cappp;
    /* the page cache (see cache_step), under the critical section */
    int cfd;                 /* the file, read-only, for write-back and
                                advice; -1: none (no advice given) */
    off_t cstart;            /* write-back started up to here */
    off_t cdrop;             /* dropped from the cache up to here */
    off_t cstep;             /* CACHE_STEP, or NS_STREAM_CACHE_STEP */
    uint64_t cdropped;       /* bytes advised out */
    uint8_t *dummy;          /* shared (ns_h5_stream_share): the bytes handed
                                to HDF5 for another process's chunk (never
                                written); owned */
};

/* ---- the page cache: written ranges leave it ----
 *
 * A streamed table is written once and not read back (but for a resume,
 * which reads its own chunks): its pages would fill the page cache and
 * push out everything else. The file's driver (ns_h5_direct.c) writes it
 * with O_DIRECT where the file system allows, and then there is nothing
 * to advise; where it does not, its blocks go through the page cache and
 * this advice applies. Every CACHE_STEP bytes the file grows, write-back of the new
 * range is started (sync_file_range, Linux; without it nothing is started
 * and the kernel writes back on its own), and the range before, started
 * one step earlier and so written back by now, is dropped
 * (posix_fadvise DONTNEED: it drops clean pages only and never waits).
 * Nothing here fails a solve: advice that is refused is advice not taken. */
enum { CACHE_STEP = 32 << 20 };

static void cache_open(ns_h5_stream *s, const char *file)
{
    s->cfd = open(file, O_RDONLY | O_CLOEXEC);
    s->cstart = s->cdrop = 0;
    /* NS_STREAM_CACHE_STEP=BYTES: another step (the tests take one of a
     * few tiles, so that small files go through every path here) */
    const char *e = getenv("NS_STREAM_CACHE_STEP");
    char *end;
    long long v = e && *e ? strtoll(e, &end, 10) : 0;
    s->cstep = e && *e && !*end && v > 0 ? (off_t)v : (off_t)CACHE_STEP;
}

static void cache_step(ns_h5_stream *s, int last)
{
    struct stat st;
    if (s->cfd < 0 || fstat(s->cfd, &st) != 0)
        return;
    const off_t end = st.st_size;
    if (!last && end - s->cstart < s->cstep)
        return;
    if (s->cstart > s->cdrop && posix_fadvise(s->cfd, s->cdrop, s->cstart - s->cdrop, POSIX_FADV_DONTNEED) == 0) {
        s->cdropped += (uint64_t)(s->cstart - s->cdrop);
        s->cdrop = s->cstart;
    }
#ifdef SYNC_FILE_RANGE_WRITE
    if (end > s->cstart && !last)
        (void)sync_file_range(s->cfd, s->cstart, end - s->cstart, SYNC_FILE_RANGE_WRITE);
#endif
    s->cstart = end > s->cstart ? end : s->cstart;
}

static void cache_close(ns_h5_stream *s)
{
    if (s->cfd >= 0)
        close(s->cfd);
    s->cfd = -1;
}

static void free_worker(stream_worker *w)
{
    if (!w)
        return;
    ns_chunkfilter_free(w->filter);
    free(w->out);
    free(w->pnraw);
    free(w->pnout);
    free(w);
}

/* The worker of OpenMP thread tid (0 <= tid < s->threads), made on its
 * first use: its chunk filter and buffers. No lock: slot tid is only ever
 * read or written by thread tid (ns_h5_stream_tile and
 * ns_h5_stream_pn_rows take the slot of the calling thread's number, which
 * is below s->threads), so no two threads touch the same slot. Should two
 * threads with the same number ever store at once (two OpenMP teams
 * writing to one stream), they would share the slot's buffers too, made
 * lazily or not: the callers must not do that. On failure nothing is kept
 * (the next call tries again) and err names the file. */
static ns_err worker_get(ns_h5_stream *s, int tid, stream_worker **out, ns_error *err)
{
    *out = NULL;
    if (tid < 0 || tid >= s->threads)
        return ns_error_set(err, NS_EINTERNAL, "%s: thread %d of a stream for %d threads", s->path, tid, s->threads);
    *out = s->workers[tid];
    if (*out)
        return NS_OK;
    stream_worker *w = calloc(1, sizeof *w);
    const size_t pn_bytes = (size_t)s->c0 * (size_t)s->c1;
    ns_error fe = {0};
    if (w && !(w->filter = ns_chunkfilter_new(s->raw_bytes, NS_H5_DEFLATE_LEVEL, NS_DEFLATE_PLANES, &fe))) {
        free_worker(w);
        return ns_error_set(err, fe.code ? fe.code : NS_ENOMEM, "%s: thread %d: %s", s->path, tid, fe.msg);
    }
    if (!w || !(w->pnraw = malloc(pn_bytes)) || !(w->pnout = malloc(ns_chunkfilter_bound(pn_bytes))) ||
        (s->elem > 1 && !(w->out = malloc(s->bound)))) {
        free_worker(w);
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory for the stream buffers of thread %d", s->path, tid);
    }
    s->workers[tid] = *out = w;
    return NS_OK;
}

int ns_h5_stream_workers_made(const ns_h5_stream *s)
{
    int n = 0;
    for (int t = 0; s && s->workers && t < s->threads; t++)
        n += s->workers[t] != NULL;
    return n;
}

static void free_stream(ns_h5_stream *s)
{
    if (!s)
        return;
    cache_close(s);
    for (int t = 0; s->workers && t < s->threads; t++)
        free_worker(s->workers[t]);   /* NULL: a slot never used */
    free(s->workers);
    free(s->pp);
    free(s->dummy);
    free(s->path);
    free(s->part);
    free(s->pend);
    ns_h5_ledger_free(&s->ledger);
    free(s);
}

/* the name of the file being written */
static const char *cur(const ns_h5_stream *s)
{
    return s->pending ? s->pend : s->part;
}

static void close_all(ns_h5_stream *s)
{
    cache_close(s);
    if (s->dg >= 0)
        H5Dclose(s->dg);
    if (s->dpn >= 0)
        H5Dclose(s->dpn);
    if (s->file >= 0)
        H5Fclose(s->file);
    s->dg = s->dpn = s->file = H5I_INVALID_HID;
    H5Eclear2(H5E_DEFAULT);
}

void ns_h5_stream_abort(ns_h5_stream *s)
{
    if (!s)
        return;
    close_all(s);
    remove(cur(s));   /* a resume's fresh file: its .part and checkpoint stay */
    free_stream(s);
}

/* The stream of ns_h5_stream_open, its file created under the name
 * create (the .part file, or a new one that a resume renames over it). */
hid_t ns_h5_stream_fapl(const char *path, ns_error *err)
{
    /* Metadata (the chunk index, the superblock) reaches the file only
     * when flushed (the close; a sweep's flushes), never evicted in
     * between. The streams' resumes do not read it back (their
     * checkpoints' ledgers locate the chunks); the sweep's reopen does. */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5AC_cache_config_t mdc;
    memset(&mdc, 0, sizeof mdc);
    mdc.version = H5AC__CURR_CACHE_CONFIG_VERSION;
    if (fapl < 0 || H5Pget_mdc_config(fapl, &mdc) < 0) {
        ns_h5_fail(err, NS_EIO, "%s: cannot set up the file access properties", path);
        if (fapl >= 0)
            H5Pclose(fapl);
        return H5I_INVALID_HID;
    }
    mdc.evictions_enabled = 0;
    mdc.incr_mode = H5C_incr__off;
    mdc.flash_incr_mode = H5C_flash_incr__off;
    mdc.decr_mode = H5C_decr__off;
    if (H5Pset_mdc_config(fapl, &mdc) < 0) {
        ns_h5_fail(err, NS_EIO, "%s: cannot configure the metadata cache", path);
        H5Pclose(fapl);
        return H5I_INVALID_HID;
    }
    return fapl;
}

static ns_h5_stream *open_as(const char *path, int pending, const int64_t *bounds, int elem, int64_t tile,
                             int threads, ns_error *err)
{
    if ((elem != 1 && elem != 2 && elem != 4) || tile < 1 || tile > 1024 || threads < 1 || bounds[0] < 1 ||
        bounds[1] < 1 ||
        !ns_h5_direct_ok()) {
        ns_error_set(err, NS_EINTERNAL, "%s: cannot stream a table of %d-byte values in tiles of %lld (this "
                     "HDF5 library needs direct chunk writes)", path, elem, (long long)tile);
        return NULL;
    }
    ns_h5_stream *s = calloc(1, sizeof *s);
    if (!s) {
        ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    s->file = s->dg = s->dpn = H5I_INVALID_HID;
    s->cfd = -1;
    s->bounds[0] = bounds[0];
    s->bounds[1] = bounds[1];
    s->tile = tile;
    s->elem = elem;
    s->threads = threads;
    s->c0 = tile < bounds[0] ? tile : bounds[0];
    s->c1 = elem == 1 ? PN_COLS : tile;
    s->c1 = s->c1 < bounds[1] ? s->c1 : bounds[1];
    s->raw_bytes = (size_t)s->c0 * (size_t)s->c1 * (size_t)elem;
    s->bound = ns_chunkfilter_bound(s->raw_bytes);
    s->path = ns_h5_path_plus(path, "");
    s->part = ns_h5_path_plus(path, ".part");
    s->pend = ns_h5_path_plus(path, ".part.new");
    s->pending = pending;
    /* the slots only: each thread's worker is made when it first stores
     * something (worker_get) */
    s->workers = calloc((size_t)threads, sizeof *s->workers);
    if (!s->path || !s->part || !s->pend || !s->workers)
        goto nomem;
    const char *create = cur(s);
    hid_t fapl = ns_h5_stream_fapl(path, err);
    if (fapl < 0)
        goto fail;
    if (ns_h5_direct_fapl(fapl, path, err)) {
        H5Pclose(fapl);
        goto fail;
    }
    errno = 0;
    s->file = H5Fcreate(create, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    if (s->file < 0) {
        if (errno)
            ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", path, create, strerror(errno));
        else
            ns_h5_fail(err, NS_EIO, "%s: cannot create %s", path, create);
        goto fail;
    }
    const hsize_t dims[2] = {(hsize_t)bounds[0], (hsize_t)bounds[1]};
    const hsize_t chunk[2] = {(hsize_t)s->c0, (hsize_t)s->c1};
    const uint8_t pn_fill = NS_PN_N;
    if (elem > 1) {
        s->dg = ns_h5_create_chunked(s->file, path, "/grundy", elem == 2 ? H5T_STD_U16LE : H5T_STD_U32LE, 2, dims,
                                     NULL, chunk, NULL, err);
        if (s->dg < 0)
            goto fail;
    }
    s->dpn = ns_h5_create_chunked(s->file, path, "/pn", H5T_STD_U8LE, 2, dims, NULL, chunk, &pn_fill, err);
    if (s->dpn < 0)
        goto fail;
    /* written with O_DIRECT: no page of it to advise out */
    if (ns_h5_direct_active(s->file) != 2)
        cache_open(s, create);
    return s;
nomem:
    ns_error_set(err, NS_ENOMEM, "%s: out of memory for the stream buffers", path);
fail:
    close_all(s);
    if (s->part && s->pend)
        remove(cur(s));
    free_stream(s);
    return NULL;
}

ns_h5_stream *ns_h5_stream_open(const char *path, const int64_t *bounds, int elem, int64_t tile, int threads,
                                int flags, ns_error *err)
{
    ns_h5_quiet();
    struct stat sb;
    if (!(flags & NS_H5_FORCE) && stat(path, &sb) == 0) {
        ns_error_set(err, NS_EINVAL, "%s exists; use --force to overwrite", path);
        return NULL;
    }
    ns_h5_stream *s = open_as(path, 0, bounds, elem, tile, threads, err);
    if (s)
        remove(s->pend);  /* a fresh file an earlier run left unrecorded */
    return s;
}

/* Append the P-position (x, y) (under the critical section, or on the
 * one thread that calls ns_h5_stream_pn_rows). */
static int add_p(ns_h5_stream *s, int64_t x, int64_t y)
{
    if (s->npp == s->cappp) {
        uint64_t nc = s->cappp ? 2 * s->cappp : 4096;
        int64_t *p = realloc(s->pp, (size_t)nc * 2 * sizeof *p);
        if (!p)
            return -1;
        s->pp = p;
        s->cappp = nc;
    }
    s->pp[2 * s->npp] = x;
    s->pp[2 * s->npp + 1] = y;
    s->npp++;
    return 0;
}

/* Append the P-positions of the tile (under the critical section). */
static int keep_p(ns_h5_stream *s, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++)
            if (vals[i * ny + j] == 0 && add_p(s, x0 + i, y0 + j))
                return -1;
    return 0;
}

ns_err ns_h5_stream_tile(ns_h5_stream *s, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals,
                         ns_error *err)
{
    return ns_h5_stream_tile_slot(s, ns_omp_thread_num(), x0, y0, nx, ny, vals, err);
}

ns_err ns_h5_stream_tile_slot(ns_h5_stream *s, int tid, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                              const uint32_t *vals, ns_error *err)
{
    if (tid < 0 || s->elem == 1 || tid >= s->threads || x0 % s->tile || y0 % s->tile || nx < 1 || ny < 1 || nx > s->tile || ny > s->tile ||
        x0 + nx > s->bounds[0] || y0 + ny > s->bounds[1])
        return ns_error_set(err, NS_EINTERNAL, "%s: bad tile %lld,%lld of %lld x %lld on thread %d", s->path,
                            (long long)x0, (long long)y0, (long long)nx, (long long)ny, tid);
    stream_worker *w;
    ns_err rc = worker_get(s, tid, &w, err);
    if (rc) {
        NS_PRAGMA(omp critical(ns_h5_stream))
        s->failed = 1;
        return rc;
    }
    ns_h5_tile_chunks ch;
    const size_t pn_bytes = (size_t)s->c0 * (size_t)s->c1;
    rc = ns_h5_tile_pack(w->filter, w->pnraw, w->out, s->bound, w->pnout, ns_chunkfilter_bound(pn_bytes), s->c0,
                         s->c1, s->elem, nx, ny, vals, &ch, s->path, err);
    const size_t glen = ch.glen, plen = ch.plen;
    const uint32_t mx = ch.max_value;
    const uint64_t np = ch.zeros;
    if (!rc) {
        const hsize_t off[2] = {(hsize_t)x0, (hsize_t)y0};
        NS_PRAGMA(omp critical(ns_h5_stream))
        {
            ns_h5_quiet();   /* HDF5 keeps its error settings per thread */
            if (s->failed) {
                rc = ns_error_set(err, NS_EIO, "%s: an earlier tile failed", s->path);
            } else if (H5Dwrite_chunk(s->dg, H5P_DEFAULT, 0, off, glen, w->out) < 0 ||
                       (np && H5Dwrite_chunk(s->dpn, H5P_DEFAULT, 0, off, plen, w->pnout) < 0)) {
                rc = ns_h5_fail(err, NS_EIO, "%s: cannot write the tile at %lld,%lld", s->path, (long long)x0,
                                (long long)y0);
            } else if ((np && keep_p(s, x0, y0, nx, ny, vals)) ||
                       ns_h5_ledger_add(&s->ledger, 0, (uint64_t)x0, (uint64_t)y0) ||
                       (np && ns_h5_ledger_add(&s->ledger, 1, (uint64_t)x0, (uint64_t)y0))) {
                rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for the P-positions", s->path);
            } else {
                s->chunks += 1 + (np != 0);
                s->cells += (uint64_t)(nx * ny);
                s->st.n_valid += (uint64_t)(nx * ny);
                s->st.n_p += np;
                s->st.max_value = mx > s->st.max_value ? mx : s->st.max_value;
                cache_step(s, 0);
            }
            if (rc)
                s->failed = 1;
        }
    }
    return rc;
}

/* ---- chunks that other processes write (ns_h5_place.c) ---- */

ns_err ns_h5_stream_share(ns_h5_stream *s, ns_error *err)
{
    if (s->dummy)
        return ns_error_set(err, NS_EINTERNAL, "%s: this stream cannot take other processes' chunks", s->path);
    const size_t pn_bytes = (size_t)s->c0 * (size_t)s->c1, pb = ns_chunkfilter_bound(pn_bytes);
    if (!(s->dummy = calloc(s->bound > pb ? s->bound : pb, 1)))
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
    ns_err rc;
    NS_PRAGMA(omp critical(ns_h5_stream))
    {
        ns_h5_quiet();
        rc = ns_h5_direct_share(s->file, s->path, err);
    }
    if (rc) {
        free(s->dummy);
        s->dummy = NULL;
        return rc;
    }
    /* no window: nothing of it to advise out of the page cache */
    cache_close(s);
    return NS_OK;
}

const char *ns_h5_stream_file(const ns_h5_stream *s)
{
    return cur(s);
}

/* A placing's reply: the n pairs of addresses a (with their count first),
 * handed over, or freed when the placing failed (rc) */
static ns_err place_reply(ns_err rc, uint64_t *a, size_t n, void **reply, size_t *reply_bytes)
{
    if (rc) {
        free(a);
        return rc;
    }
    *reply = a;
    *reply_bytes = (1 + 2 * n) * sizeof *a;
    return NS_OK;
}

/* A P/N table: another process's block of rows (ns_h5_packer_pn_rows),
 * placed as ns_h5_stream_pn_rows stores its own */
static ns_err place_rows(ns_h5_stream *s, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes,
                         ns_error *err)
{
    ns_h5_place_rows b;
    const size_t pbound = ns_chunkfilter_bound((size_t)s->c0 * (size_t)s->c1);
    ns_err rc = ns_h5_place_parse_rows(req, req_bytes, s->bounds[0], s->bounds[1], s->c0, s->c1, pbound, &b,
                                       s->path, err);
    if (rc)
        return rc;
    uint64_t *a = malloc((1 + 2 * (size_t)b.nch) * sizeof *a);
    if (!a)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
    a[0] = (uint64_t)b.nch;
    NS_PRAGMA(omp critical(ns_h5_stream))
    {
        ns_h5_quiet();   /* HDF5 keeps its error settings per thread */
        if (s->failed)
            rc = ns_error_set(err, NS_EIO, "%s: an earlier block failed", s->path);
        for (int64_t i = 0; i < b.nch && !rc; i++) {
            const hsize_t off[2] = {(hsize_t)b.x0, (hsize_t)b.ch[2 * i]};
            a[1 + 2 * i] = UINT64_MAX;   /* no /grundy */
            rc = ns_h5_place_chunk(s->file, s->dpn, off, (uint64_t)b.ch[2 * i + 1], s->dummy, &a[2 + 2 * i],
                                   s->path, err);
            if (!rc && ns_h5_ledger_add(&s->ledger, 1, (uint64_t)b.x0, (uint64_t)b.ch[2 * i]))
                rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
            if (!rc)
                s->chunks++;
        }
        for (uint64_t k = 0; !rc && k < b.npp; k++)
            if (add_p(s, b.pp[2 * k], b.pp[2 * k + 1]))
                rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for the P-positions", s->path);
        if (!rc) {
            const uint64_t cells = (uint64_t)b.nrows * (uint64_t)s->bounds[1];
            s->cells += cells;
            s->st.n_valid += cells;
            s->st.n_p = s->npp;
            s->st.max_value = s->st.n_p < s->st.n_valid;   /* as ns_h5_stream_pn_rows */
        }
        if (rc)
            s->failed = 1;
    }
    return place_reply(rc, a, (size_t)b.nch, reply, reply_bytes);
}

ns_err ns_h5_stream_place(ns_h5_stream *s, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes,
                          ns_error *err)
{
    *reply = NULL;
    *reply_bytes = 0;
    ns_h5_place_tile tl[2];
    int n = 0;
    if (!s->dummy)
        return ns_error_set(err, NS_EINTERNAL, "%s: the stream is not shared", s->path);
    if (s->elem == 1)
        return place_rows(s, req, req_bytes, reply, reply_bytes, err);
    ns_err rc = ns_h5_place_parse(req, req_bytes, s->bounds[0], s->bounds[1], s->tile, tl, &n, s->path, err);
    if (rc)
        return rc;
    const size_t bound = s->bound, pbound = ns_chunkfilter_bound((size_t)s->c0 * (size_t)s->c1);
    for (int i = 0; i < n; i++)
        if (tl[i].glen > bound || tl[i].plen > pbound || (s->elem == 2 && tl[i].max_value > 0xFFFFu))
            return ns_error_set(err, NS_EINTERNAL, "%s: the tile at %lld,%lld does not fit the stream's chunks",
                                s->path, (long long)tl[i].x0, (long long)tl[i].y0);
    uint64_t *a = malloc((1 + 2 * (size_t)n) * sizeof *a);
    if (!a)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
    a[0] = (uint64_t)n;
    NS_PRAGMA(omp critical(ns_h5_stream))
    {
        ns_h5_quiet();   /* HDF5 keeps its error settings per thread */
        if (s->failed)
            rc = ns_error_set(err, NS_EIO, "%s: an earlier tile failed", s->path);
        for (int i = 0; i < n && !rc; i++) {
            const ns_h5_place_tile *t = &tl[i];
            const hsize_t off[2] = {(hsize_t)t->x0, (hsize_t)t->y0};
            a[2 + 2 * i] = UINT64_MAX;
            rc = ns_h5_place_chunk(s->file, s->dg, off, t->glen, s->dummy, &a[1 + 2 * i], s->path, err);
            if (!rc && t->plen)
                rc = ns_h5_place_chunk(s->file, s->dpn, off, t->plen, s->dummy, &a[2 + 2 * i], s->path, err);
            for (uint64_t k = 0; !rc && k < t->zeros; k++)
                if (add_p(s, t->pp[2 * k], t->pp[2 * k + 1]))
                    rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for the P-positions", s->path);
            if (!rc && (ns_h5_ledger_add(&s->ledger, 0, (uint64_t)t->x0, (uint64_t)t->y0) ||
                        (t->plen && ns_h5_ledger_add(&s->ledger, 1, (uint64_t)t->x0, (uint64_t)t->y0))))
                rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
            if (!rc) {
                s->chunks += 1 + (t->plen != 0);
                s->cells += (uint64_t)(t->nx * t->ny);
                s->st.n_valid += (uint64_t)(t->nx * t->ny);
                s->st.n_p += t->zeros;
                s->st.max_value = t->max_value > s->st.max_value ? (uint32_t)t->max_value : s->st.max_value;
            }
        }
        if (rc)
            s->failed = 1;
    }
    return place_reply(rc, a, (size_t)n, reply, reply_bytes);
}

/* The /pn chunk of columns [y0, y0 + s->c1) of the rows at p (nrows of
 * words words) into w->pnraw, filtered into w->pnout; *len gets its size,
 * 0 when the chunk has no P-position (not stored). */
static ns_err pn_chunk(ns_h5_stream *s, stream_worker *w, int64_t nrows, int64_t words, const uint64_t *p,
                       int64_t y0, size_t *len, ns_error *err)
{
    const int64_t w0 = y0 / 64, w1 = (y0 + s->c1 + 63) / 64 < words ? (y0 + s->c1 + 63) / 64 : words;
    uint64_t any = 0;
    for (int64_t i = 0; i < nrows; i++)
        for (int64_t k = w0; k < w1; k++)
            any |= p[i * words + k];
    *len = 0;
    if (!any)
        return NS_OK;
    const size_t bytes = (size_t)s->c0 * (size_t)s->c1;
    memset(w->pnraw, NS_PN_N, bytes);
    for (int64_t i = 0; i < nrows; i++)
        for (int64_t k = w0; k < w1; k++)
            for (uint64_t b = p[i * words + k]; b; b &= b - 1)
                w->pnraw[i * s->c1 + (k * 64 + __builtin_ctzll(b) - y0)] = NS_PN_P;
    return ns_chunkfilter_run(w->filter, w->pnraw, bytes, 1, w->pnout, ns_chunkfilter_bound(bytes), len, err);
}

ns_err ns_h5_stream_pn_rows(ns_h5_stream *s, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p,
                            ns_error *err)
{
    if (s->elem != 1 || s->failed || x0 % s->c0 || nrows < 1 || nrows > s->c0 || x0 + nrows > s->bounds[0] ||
        words != (s->bounds[1] + 63) / 64)
        return ns_error_set(err, NS_EINTERNAL, "%s: bad block of %lld rows at row %lld (%lld words a row)", s->path,
                            (long long)nrows, (long long)x0, (long long)words);
    /* the P-positions, in order (rows, then columns), and the summary */
    for (int64_t i = 0; i < nrows; i++)
        for (int64_t k = 0; k < words; k++)
            for (uint64_t b = p[i * words + k]; b; b &= b - 1)
                if (add_p(s, x0 + i, k * 64 + __builtin_ctzll(b))) {
                    s->failed = 1;
                    return ns_error_set(err, NS_ENOMEM, "%s: out of memory for the P-positions", s->path);
                }
    const int64_t nch = (s->bounds[1] + s->c1 - 1) / s->c1;
    ns_err rc = NS_OK;
    NS_PRAGMA(omp parallel for schedule(dynamic, 1) num_threads(s->threads))
    for (int64_t j = 0; j < nch; j++) {
        stream_worker *w = NULL;
        ns_error e = {0};
        size_t len = 0;
        int failed;
        NS_PRAGMA(omp atomic read)
        failed = s->failed;
        if (failed)
            continue;
        /* the team has s->threads threads at most: the number is a slot */
        ns_err r = worker_get(s, ns_omp_thread_num(), &w, &e);
        if (!r)
            r = pn_chunk(s, w, nrows, words, p, j * s->c1, &len, &e);
        NS_PRAGMA(omp critical(ns_h5_stream))
        {
            ns_h5_quiet();   /* HDF5 keeps its error settings per thread */
            const hsize_t off[2] = {(hsize_t)x0, (hsize_t)(j * s->c1)};
            if (!r && len && H5Dwrite_chunk(s->dpn, H5P_DEFAULT, 0, off, len, w->pnout) < 0)
                r = ns_h5_fail(&e, NS_EIO, "%s: cannot write the /pn chunk at %lld,%lld", s->path, (long long)x0,
                               (long long)(j * s->c1));
            else if (!r && len && ns_h5_ledger_add(&s->ledger, 1, (uint64_t)x0, (uint64_t)(j * s->c1)))
                r = ns_error_set(&e, NS_ENOMEM, "%s: out of memory", s->path);
            else if (!r && len)
                s->chunks++;
            if (r && !s->failed) {
                NS_PRAGMA(omp atomic write)
                s->failed = 1;
                rc = r;
                if (err)
                    *err = e;
            }
        }
    }
    if (rc)
        return rc;
    const uint64_t cells = (uint64_t)nrows * (uint64_t)s->bounds[1];
    s->cells += cells;
    s->st.n_valid += cells;
    s->st.n_p = s->npp;
    s->st.max_value = s->st.n_p < s->st.n_valid;   /* 1 when some cell is N */
    return NS_OK;
}

static int cmp_pp(const void *a, const void *b)
{
    const int64_t *p = a, *q = b;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

ns_err ns_h5_stream_close(ns_h5_stream *s, const ns_meta *m, ns_table_stats *stats, ns_error *err)
{
    ns_err rc = NS_OK;
    hid_t dp = H5I_INVALID_HID;
    const uint64_t total = (uint64_t)s->bounds[0] * (uint64_t)s->bounds[1];
    if (s->failed || s->cells != total) {
        rc = ns_error_set(err, NS_EINTERNAL, "%s: %llu of %llu cells were stored", s->path,
                          (unsigned long long)s->cells, (unsigned long long)total);
        goto fail;
    }
    qsort(s->pp, (size_t)s->npp, 2 * sizeof *s->pp, cmp_pp);
    /* /p_positions: n x 2 (an empty one: unlimited rows, so it can be chunked) */
    hsize_t pdims[2] = {s->npp, 2}, pmax[2] = {s->npp ? s->npp : H5S_UNLIMITED, 2};
    hsize_t pchunk[2] = {s->npp ? (s->npp < 65536 ? s->npp : 65536) : 1, 2};
    dp = ns_h5_create_chunked(s->file, s->path, "/p_positions", H5T_STD_I64LE, 2, pdims, pmax, pchunk, NULL, err);
    if (dp < 0) {
        rc = err && err->code ? err->code : NS_EIO;
        goto fail;
    }
    if (s->npp && H5Dwrite(dp, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, s->pp) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write /p_positions", s->path);
        goto fail;
    }
    if ((rc = ns_h5_root_attrs(s->file, s->path, 2, s->bounds, s->elem == 1, m, &s->st, 0, 0,
                               s->elem == 4 ? H5T_STD_U32LE : H5T_STD_U16LE, err)))
        goto fail;
    H5Dclose(dp);
    dp = H5I_INVALID_HID;
    herr_t c1 = s->dg >= 0 ? H5Dclose(s->dg) : 0, c2 = H5Dclose(s->dpn);
    s->dg = s->dpn = H5I_INVALID_HID;
    herr_t c3 = H5Fclose(s->file);
    s->file = H5I_INVALID_HID;
    if (c1 < 0 || c2 < 0 || c3 < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close (flush) %s", s->path, s->part);
        goto fail;
    }
    cache_step(s, 1);
    if (rename(cur(s), s->path) != 0) {
        rc = ns_error_set(err, NS_EIO, "%s: cannot rename %s to it: %s", s->path, cur(s), strerror(errno));
        goto fail;
    }
    if (s->pending)
        remove(s->part);  /* the file a resume copied from */
    if (stats)
        *stats = s->st;
    free_stream(s);
    return NS_OK;
fail:
    if (dp >= 0)
        H5Dclose(dp);
    ns_h5_stream_abort(s);
    return rc;
}

ns_err ns_h5_stream_flush(ns_h5_stream *s, ns_error *err)
{
    ns_h5_quiet();
    if (s->failed)
        return ns_error_set(err, NS_EIO, "%s: an earlier write failed", s->path);
    ns_err rc = ns_h5_direct_sync(s->file, cur(s), err);
    if (rc)
        s->failed = 1;
    return rc;
}

int ns_h5_stream_io(const ns_h5_stream *s)
{
    return s && s->file >= 0 ? ns_h5_direct_active(s->file) : 0;
}

/* ---- checkpoints and resume of a streamed solve ---- */

void ns_h5_stream_suspend(ns_h5_stream *s)
{
    if (!s)
        return;
    /* HDF5's close would flush the metadata of the chunks written since
     * the last checkpoint, and after a failed write (a full disk) only part
     * of it: the index could then point past the file's recorded end. The
     * .part must stay as the checkpoint left it, so the file descriptor
     * under HDF5 is swapped for a read-only one first: every write of the
     * close fails, none reaches the file. */
    if (s->dg >= 0)
        H5Dclose(s->dg);
    if (s->dpn >= 0)
        H5Dclose(s->dpn);
    s->dg = s->dpn = H5I_INVALID_HID;
    ns_h5_close_frozen(s->file, cur(s));
    s->file = H5I_INVALID_HID;
    free_stream(s);
}

/* files whose frozen close failed: HDF5 keeps them half closed */
static int frozen_left_open = 0;

void ns_h5_close_frozen(hid_t file, const char *part)
{
    void *handle = NULL;
    if (ns_h5_direct_freeze(file))
        ;   /* the direct-write driver refuses the close's writes itself */
    else if (file >= 0 && H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) >= 0 && handle) {
        int ro = open(part, O_RDONLY);
        if (ro >= 0) {
            dup2(ro, *(int *)handle);
            close(ro);
        }
    }
    if (file >= 0 && H5Fclose(file) < 0)
        frozen_left_open++;
    H5Eclear2(H5E_DEFAULT);
}

int ns_h5_files_left_open(void)
{
    return frozen_left_open;
}

ns_err ns_h5_stream_checkpoint(ns_h5_stream *s, const char *ckpt_path, const ns_meta *m, const ns_h5_ckpt *c,
                               ns_error *err)
{
    ns_h5_quiet();
    if (s->failed)
        return ns_error_set(err, NS_EIO, "%s: an earlier write failed; no checkpoint", s->path);
    /* where the finished chunks lie, and the chunks themselves on disk
     * first (the file's metadata is not needed: ns_h5_ledger.c) */
    const hid_t ds[2] = {s->dg, s->dpn};
    ns_err rc = ns_h5_direct_sync(s->file, cur(s), err);
    if (!rc)
        rc = ns_h5_ledger_resolve(&s->ledger, ds, s->path, cur(s), err);
    if (!rc)
        rc = ns_h5_sync_path(cur(s), 0, err);
    if (rc)
        return rc;
    const ns_h5_stream_rec r = {.tile = s->tile, .cells = s->cells, .chunks = s->chunks,
                                .max_value = s->st.max_value, .pp = s->pp, .npp = s->npp,
                                .ledger = s->ledger.e, .nledger = s->ledger.n};
    if ((rc = ns_h5_ckpt_write_stream(ckpt_path, s->bounds, s->elem, m, c, &r, err)) || !s->pending)
        return rc;
    /* the record names a resume's fresh file: it replaces the old .part */
    if ((rc = ns_h5_ledger_promote(s->pend, s->part, s->path, err)))
        return rc;
    s->pending = 0;
    return NS_OK;
}

/* Is the chunk at (x0, y0) part of the first `units` units (P/N: blocks of
 * rows; Grundy: tile anti-diagonals)? */
static int chunk_done(const ns_h5_stream *s, uint64_t units, int64_t x0, int64_t y0)
{
    if (s->elem == 1)
        return (uint64_t)(x0 / s->tile) < units;
    return (uint64_t)(x0 / s->tile + y0 / s->tile) < units;
}

/* Copy the chunks of rec's ledger from the .part into s's fresh file
 * (each checked against its sum, ns_h5_ledger_read), noting them in s's
 * ledger; every one must belong to the first `units` units. */
static ns_err copy_done(ns_h5_stream *s, const ns_h5_stream_rec *rec, uint64_t units, ns_error *err)
{
    ns_err rc = NS_OK;
    void *buf = NULL;
    size_t cap = 0;
    const hid_t ds[2] = {s->dg, s->dpn};
    int fd = open(s->part, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ns_error_set(err, NS_EIO, "%s: cannot open %s: %s", s->path, s->part, strerror(errno));
    for (uint64_t i = 0; i < rec->nledger && !rc; i++) {
        const ns_h5_ledger_entry *e = &rec->ledger[i];
        const hsize_t off[2] = {(hsize_t)e->off[0], (hsize_t)e->off[1]};
        if (e->ds > 1 || (e->ds == 0 && s->dg < 0) || e->off[0] % (uint64_t)s->c0 || e->off[1] % (uint64_t)s->c1 ||
            e->off[0] >= (uint64_t)s->bounds[0] || e->off[1] >= (uint64_t)s->bounds[1] || !e->size ||
            !chunk_done(s, units, (int64_t)e->off[0], (int64_t)e->off[1])) {
            rc = ns_error_set(err, NS_EFORMAT, "%s: its checkpoint records a chunk (dataset %llu at %llu,%llu, %llu "
                              "bytes) outside the %llu units it finished (damaged?)", s->part,
                              (unsigned long long)e->ds, (unsigned long long)off[0], (unsigned long long)off[1],
                              (unsigned long long)e->size, (unsigned long long)units);
        } else if (!(rc = ns_h5_ledger_read(fd, e, &buf, &cap, s->part, err))) {
            if (H5Dwrite_chunk(ds[e->ds], H5P_DEFAULT, 0, off, (size_t)e->size, buf) < 0)
                rc = ns_h5_fail(err, NS_EIO, "%s: cannot write the chunk at %llu,%llu of %s", s->path,
                                (unsigned long long)off[0], (unsigned long long)off[1], s->pend);
            else if (ns_h5_ledger_add(&s->ledger, (int)e->ds, e->off[0], e->off[1]))
                rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
        }
    }
    close(fd);
    free(buf);
    return rc;
}

ns_h5_stream *ns_h5_stream_resume(const char *path, const char *ckpt_path, const int64_t *bounds, int elem,
                                  int64_t tile, int threads, uint64_t units_done, ns_error *err)
{
    ns_h5_quiet();
    ns_h5_stream_rec rec;
    ns_h5_stream *s = NULL;
    if (ns_h5_ckpt_read_stream(ckpt_path, &rec, err))
        return NULL;
    if (rec.tile != tile) {
        ns_error_set(err, NS_EINVAL, "%s: the checkpoint's tile is %lld, this solve's %lld", ckpt_path,
                     (long long)rec.tile, (long long)tile);
        goto fail;
    }
    if (rec.nledger != rec.chunks) {
        ns_error_set(err, NS_EFORMAT, "%s: records %llu chunks but where %llu lie (damaged?)", ckpt_path,
                     (unsigned long long)rec.chunks, (unsigned long long)rec.nledger);
        goto fail;
    }
    {
        char *part = ns_h5_path_plus(path, ".part"), *pend = ns_h5_path_plus(path, ".part.new");
        ns_err rc = part && pend ? ns_h5_ledger_locate(rec.ledger, rec.nledger, part, pend, path, ckpt_path, err)
                                 : ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
        free(part);
        free(pend);
        if (rc)
            goto fail;
    }
    /* the finished units' chunks, as stored, into a fresh file: whatever
     * the killed run wrote after its checkpoint is left behind with the
     * old one, which the next checkpoint replaces */
    if (!(s = open_as(path, 1, bounds, elem, tile, threads, err)))
        goto fail;
    if (copy_done(s, &rec, units_done, err))
        goto fail;
    s->chunks = rec.chunks;
    s->cells = rec.cells;
    s->st.n_valid = rec.cells;
    s->st.n_p = rec.npp;
    s->st.max_value = rec.max_value;
    s->pp = (int64_t *)rec.pp;
    s->npp = s->cappp = rec.npp;
    rec.pp = NULL;
    free((void *)rec.ledger);
    return s;
fail:
    if (s) {
        close_all(s);
        remove(s->pend);
        free_stream(s);
    }
    free((void *)rec.pp);
    free((void *)rec.ledger);
    return NULL;
}

ns_err ns_h5_stream_read_tile(ns_h5_stream *s, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals,
                              ns_error *err)
{
    if (s->elem == 1 || nx < 1 || ny < 1 || x0 < 0 || y0 < 0 || x0 + nx > s->bounds[0] || y0 + ny > s->bounds[1])
        return ns_error_set(err, NS_EINTERNAL, "%s: bad tile %lld,%lld of %lld x %lld to read back", s->path,
                            (long long)x0, (long long)y0, (long long)nx, (long long)ny);
    ns_err rc = NS_OK;
    NS_PRAGMA(omp critical(ns_h5_stream))
    {
        ns_h5_quiet();   /* HDF5 keeps its error settings per thread */
        const hsize_t start[2] = {(hsize_t)x0, (hsize_t)y0}, count[2] = {(hsize_t)nx, (hsize_t)ny};
        hid_t fs = H5Dget_space(s->dg), ms = H5Screate_simple(2, count, NULL);
        if (fs < 0 || ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
            H5Dread(s->dg, H5T_NATIVE_UINT32, ms, fs, H5P_DEFAULT, vals) < 0)
            rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read back the tile at %lld,%lld of %s (damaged? checksum)",
                            s->path, (long long)x0, (long long)y0, s->part);
        if (ms >= 0)
            H5Sclose(ms);
        if (fs >= 0)
            H5Sclose(fs);
    }
    return rc;
}

const int64_t *ns_h5_stream_p_positions(const ns_h5_stream *s, uint64_t *n)
{
    *n = s->npp;
    return s->pp;
}
