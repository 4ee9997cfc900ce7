/* ns_h5_seq.c - a heap game's Grundy sequence streamed to its file (see
 * ns_h5.h): part of the HDF5 layer, so it includes hdf5.h.
 *
 * The sequence engines keep the whole sequence in memory; this writer
 * takes its finished heap sizes a chunk of /grundy at a time: each whole
 * chunk (and its /pn chunk, unless all N, the fill value) is filled from
 * the table, filtered on the threads and written in order by direct chunk
 * writes (ns_h5_write_chunks), the same chunk shapes, filters and fill
 * values as ns_h5_write gives the table, so the finished file equals its
 * file. /grundy is stored in the smallest width that holds the values so
 * far (a sequence has no invalid cells: 1 byte up to 255); when a value
 * outgrows it, the chunks stored are rewritten wider into a new .part,
 * which is synced and renamed over the old one (twice at most).
 *
 * Checkpoints: the record holds how many heap sizes the .part's whole
 * chunks store, where those /grundy chunks lie in it (the ledger,
 * ns_h5_ledger.c: the .part's own metadata is never read back, a kill
 * during HDF5's flush may have damaged it) and the finished values after
 * them (less than a chunk). A resume reads both back into the table, each
 * chunk checked against its Fletcher-32 sum, and rewrites them into a
 * fresh file. A fresh file (a resume's, a widening's) is written as
 * <path>.part.new until a checkpoint records it; that checkpoint then
 * renames it over the .part, so the .part always goes with the last
 * checkpoint (a kill between the two: ns_h5_ledger_locate). */
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ns_omp.h"
#include "store/ns_chunkfilter.h"

/* P-positions gathered at a time at the close (a window of /p_positions) */
#define SEQ_PP_WINDOW ((uint64_t)4 << 20)

struct ns_h5_seq {
    char *path;             /* owned */
    char *part;             /* "<path>.part"; owned */
    char *pend;             /* "<path>.part.new"; owned */
    int pending;            /* the file is pend, not yet recorded by a
                               checkpoint: the next one renames it over part */
    ns_h5_ledger ledger;    /* the /grundy chunks of the file */
    int64_t n;              /* heap sizes in all */
    int threads;
    int elem;               /* bytes of a stored value: 1, 2 or 4 */
    hsize_t chunk;          /* cells of a /grundy (and /pn) chunk */
    int64_t stored;         /* G(0 .. stored - 1) are in whole chunks of the file */
    hid_t file, dg, dpn;
    int failed;             /* a write failed: no checkpoint, no close */
};

/* the stored width of values up to mx (no invalid cells) */
static int width_for(uint32_t mx)
{
    return mx <= 0xFFu ? 1 : mx <= 0xFFFFu ? 2 : 4;
}

static void close_ids(ns_h5_seq *s)
{
    if (s->dg >= 0)
        H5Dclose(s->dg);
    if (s->dpn >= 0)
        H5Dclose(s->dpn);
    if (s->file >= 0)
        H5Fclose(s->file);
    s->dg = s->dpn = s->file = H5I_INVALID_HID;
    H5Eclear2(H5E_DEFAULT);
}

static void free_seq(ns_h5_seq *s)
{
    if (!s)
        return;
    free(s->path);
    free(s->part);
    free(s->pend);
    ns_h5_ledger_free(&s->ledger);
    free(s);
}

/* the name of the file being written */
static const char *cur(const ns_h5_seq *s)
{
    return s->pending ? s->pend : s->part;
}

/* Create the file `create` with empty /grundy (s->elem) and /pn of s->n
 * cells; s->chunk gets their chunk. */
static ns_err create_file(ns_h5_seq *s, const char *create, ns_error *err)
{
    hid_t fapl = ns_h5_stream_fapl(s->path, err);
    if (fapl < 0)
        return err && err->code ? err->code : NS_EIO;
    errno = 0;
    s->file = H5Fcreate(create, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    if (s->file < 0)
        return errno ? ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", s->path, create, strerror(errno))
                     : ns_h5_fail(err, NS_EIO, "%s: cannot create %s", s->path, create);
    const hsize_t dims[1] = {(hsize_t)s->n};
    ns_h5_chunk_shape(1, dims, NS_H5_CHUNK_BYTES / (hsize_t)s->elem, &s->chunk);
    const hid_t gtype = s->elem == 1 ? H5T_STD_U8LE : s->elem == 2 ? H5T_STD_U16LE : H5T_STD_U32LE;
    const uint8_t pn_fill = NS_PN_N;
    if ((s->dg = ns_h5_create_chunked(s->file, s->path, "/grundy", gtype, 1, dims, NULL, &s->chunk, NULL, err)) < 0 ||
        (s->dpn = ns_h5_create_chunked(s->file, s->path, "/pn", H5T_STD_U8LE, 1, dims, NULL, &s->chunk, &pn_fill,
                                       err)) < 0)
        return err && err->code ? err->code : NS_EIO;
    s->stored = 0;
    return NS_OK;
}

static ns_h5_seq *seq_new(const char *path, int64_t n, int threads, int elem, ns_error *err)
{
    if (n < 1 || threads < 1 || !ns_h5_direct_ok()) {
        ns_error_set(err, NS_EINTERNAL, "%s: cannot stream a sequence of %lld heap sizes (this HDF5 library needs "
                     "direct chunk writes)", path, (long long)n);
        return NULL;
    }
    ns_h5_seq *s = calloc(1, sizeof *s);
    if (!s || !(s->path = ns_h5_path_plus(path, "")) || !(s->part = ns_h5_path_plus(path, ".part")) ||
        !(s->pend = ns_h5_path_plus(path, ".part.new"))) {
        free_seq(s);
        ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    s->file = s->dg = s->dpn = H5I_INVALID_HID;
    s->n = n;
    s->threads = threads;
    s->elem = elem;
    return s;
}

ns_h5_seq *ns_h5_seq_open(const char *path, int64_t n, int threads, int flags, ns_error *err)
{
    ns_h5_quiet();
    struct stat sb;
    if (!(flags & NS_H5_FORCE) && stat(path, &sb) == 0) {
        ns_error_set(err, NS_EINVAL, "%s exists; use --force to overwrite", path);
        return NULL;
    }
    ns_h5_seq *s = seq_new(path, n, threads, 1, err);
    if (!s)
        return NULL;
    if (create_file(s, s->part, err)) {
        close_ids(s);
        remove(s->part);
        free_seq(s);
        return NULL;
    }
    remove(s->pend);  /* a fresh file an earlier run left unrecorded */
    return s;
}

/* ---- writing chunks ---- */

typedef struct seq_fill {
    const ns_table *t;
    int64_t n;
    hsize_t chunk;
    int elem;               /* stored width */
} seq_fill;

/* ns_h5_fill_fn: the /grundy chunk (bufs[0]) and the /pn chunk (bufs[1])
 * at off, cells beyond the sequence 0 (HDF5 stores whole chunks) */
static void fill_chunk(void *user, const hsize_t *off, void *const *bufs)
{
    const seq_fill *f = user;
    const int64_t lo = (int64_t)off[0];
    const int64_t hi = lo + (int64_t)f->chunk < f->n ? lo + (int64_t)f->chunk : f->n;
    uint8_t *pn = bufs[1];
    if (hi - lo < (int64_t)f->chunk) {
        memset(bufs[0], 0, (size_t)f->chunk * (size_t)f->elem);
        memset(pn, 0, (size_t)f->chunk);
    }
    for (int64_t i = lo; i < hi; i++) {
        const uint32_t v = ns_table_get(f->t, (uint64_t)i);
        const size_t j = (size_t)(i - lo);
        switch (f->elem) {
        case 1: ((uint8_t *)bufs[0])[j] = (uint8_t)v; break;
        case 2: ((uint16_t *)bufs[0])[j] = (uint16_t)v; break;
        default: ((uint32_t *)bufs[0])[j] = v; break;
        }
        pn[j] = v == 0 ? NS_PN_P : NS_PN_N;
    }
}

/* Write the chunks holding G(s->stored .. upto - 1) (upto a multiple of
 * the chunk, or s->n). */
static ns_err write_upto(ns_h5_seq *s, const ns_table *t, int64_t upto, ns_error *err)
{
    if (upto <= s->stored)
        return NS_OK;
    seq_fill f = {.t = t, .n = s->n, .chunk = s->chunk, .elem = s->elem};
    ns_h5_chunk_job job = {.path = s->path, .n = 2, .dset = {s->dg, s->dpn}, .name = {"/grundy", "/pn"},
                           .elem = {(size_t)s->elem, 1}, .skip = {0, NS_PN_N}, .rank = 1,
                           .dims = {(hsize_t)s->n}, .chunk = {s->chunk}, .fill = fill_chunk, .user = &f,
                           .threads = s->threads};
    job.first = (uint64_t)s->stored / s->chunk;
    job.count = ((uint64_t)upto + s->chunk - 1) / s->chunk - job.first;
    ns_err rc = ns_h5_write_chunks(&job, err);
    for (uint64_t c = job.first; !rc && c < job.first + job.count; c++)
        if (ns_h5_ledger_add(&s->ledger, 0, c * s->chunk, 0))
            rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
    if (rc) {
        s->failed = 1;
        return rc;
    }
    s->stored = upto;
    return NS_OK;
}

/* A fresh file of width elem holding the chunks of G(0 .. done - 1) from
 * t, written as the pending .part.new (the open file, if any, is closed
 * first, and removed if it was the pending one: no checkpoint records it;
 * the caller closed its datasets). */
static ns_err rewrite(ns_h5_seq *s, const ns_table *t, int elem, int64_t done, ns_error *err)
{
    if (s->file >= 0 && H5Fclose(s->file) < 0)
        H5Eclear2(H5E_DEFAULT);
    s->file = H5I_INVALID_HID;
    if (s->pending)
        remove(s->pend);
    ns_h5_ledger_free(&s->ledger);
    s->elem = elem;
    s->pending = 1;
    ns_err rc = create_file(s, s->pend, err);
    if (!rc)
        rc = write_upto(s, t, done == s->n ? done : done / (int64_t)s->chunk * (int64_t)s->chunk, err);
    if (rc) {
        close_ids(s);
        remove(s->pend);
        s->pending = 0;
        s->failed = 1;
    }
    return rc;
}

ns_err ns_h5_seq_append(ns_h5_seq *s, const ns_table *t, int64_t done, ns_error *err)
{
    if (s->failed)
        return ns_error_set(err, NS_EIO, "%s: an earlier write failed", s->path);
    if (t->k != 1 || t->bounds[0] != s->n || done < 0 || done > s->n)
        return ns_error_set(err, NS_EINTERNAL, "%s: %lld heap sizes of a table of %lld, the stream has %lld",
                            s->path, (long long)done, (long long)t->bounds[0], (long long)s->n);
    if (done <= s->stored)
        return NS_OK;
    ns_table_stats st;
    ns_table_summarize_range(t, (uint64_t)s->stored, (uint64_t)done, &st);
    if (st.n_valid != (uint64_t)(done - s->stored))
        return ns_error_set(err, NS_EINTERNAL, "%s: a heap size below %lld holds the table's invalid marker", s->path,
                            (long long)done);
    const int need = width_for(st.max_value);
    if (need > s->elem) {
        /* a value outgrew the stored width: the chunks so far, wider */
        if (s->dg >= 0)
            H5Dclose(s->dg);
        if (s->dpn >= 0)
            H5Dclose(s->dpn);
        s->dg = s->dpn = H5I_INVALID_HID;
        return rewrite(s, t, need, done, err);
    }
    return write_upto(s, t, done == s->n ? done : done / (int64_t)s->chunk * (int64_t)s->chunk, err);
}

/* ---- checkpoints and resume ---- */

ns_err ns_h5_seq_checkpoint(ns_h5_seq *s, const ns_table *t, int64_t done, const char *ckpt_path, const ns_meta *m,
                            const ns_h5_ckpt *c, ns_error *err)
{
    ns_h5_quiet();
    if (s->failed)
        return ns_error_set(err, NS_EIO, "%s: an earlier write failed; no checkpoint", s->path);
    if (done < s->stored || done > s->n)
        return ns_error_set(err, NS_EINTERNAL, "%s: a checkpoint of %lld heap sizes, %lld stored", s->path,
                            (long long)done, (long long)s->stored);
    /* where the stored chunks lie, and the chunks themselves on disk first
     * (the file's metadata is not needed: ns_h5_ledger.c) */
    ns_err rc = ns_h5_ledger_resolve(&s->ledger, &s->dg, s->path, cur(s), err);
    if (!rc)
        rc = ns_h5_sync_path(cur(s), 0, err);
    if (rc)
        return rc;
    uint32_t *tail = malloc((size_t)(done - s->stored + 1) * sizeof *tail);
    if (!tail)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory for the checkpoint", s->path);
    for (int64_t i = s->stored; i < done; i++)
        tail[i - s->stored] = ns_table_get(t, (uint64_t)i);
    const ns_h5_seq_rec r = {.stored = s->stored, .elem = s->elem, .tail = tail, .ntail = done - s->stored,
                             .ledger = s->ledger.e, .nledger = s->ledger.n};
    rc = ns_h5_ckpt_write_seq(ckpt_path, s->n, m, c, &r, err);
    free(tail);
    if (rc || !s->pending)
        return rc;
    /* the record names the fresh file: it replaces the old .part */
    if ((rc = ns_h5_ledger_promote(s->pend, s->part, s->path, err)))
        return rc;
    s->pending = 0;
    return NS_OK;
}

void ns_h5_seq_suspend(ns_h5_seq *s)
{
    if (!s)
        return;
    if (s->dg >= 0)
        H5Dclose(s->dg);
    if (s->dpn >= 0)
        H5Dclose(s->dpn);
    s->dg = s->dpn = H5I_INVALID_HID;
    ns_h5_close_frozen(s->file, cur(s));
    s->file = H5I_INVALID_HID;
    free_seq(s);
}

void ns_h5_seq_abort(ns_h5_seq *s)
{
    if (!s)
        return;
    close_ids(s);
    remove(cur(s));   /* a fresh file only: a .part a checkpoint records stays */
    free_seq(s);
}

/* G(i) = v into t, widening t's cells first when v needs more (a
 * sequence's table starts at one byte a value, game/ns_table.h). */
static ns_err put_value(ns_table *t, uint64_t i, uint32_t v, ns_error *err)
{
    if (v >= ns_table_invalid(t) && ns_table_widen(t, ns_table_elem_for(v), i, err))
        return err->code ? err->code : NS_ENOMEM;
    ns_table_set(t, i, v);
    return NS_OK;
}

/* G(0 .. rec->stored - 1) into t from the /grundy chunks of the .part
 * that rec's ledger records, each checked against its sum. */
static ns_err read_stored(const ns_h5_seq *s, ns_table *t, const ns_h5_seq_rec *rec, const char *ckpt_path,
                          ns_error *err)
{
    const hsize_t dims[1] = {(hsize_t)s->n};
    hsize_t chunk = 0;
    ns_h5_chunk_shape(1, dims, NS_H5_CHUNK_BYTES / (hsize_t)rec->elem, &chunk);
    const uint64_t nch = ((uint64_t)rec->stored + chunk - 1) / chunk;
    if (rec->nledger != nch || (rec->stored % (int64_t)chunk && rec->stored != s->n))
        return ns_error_set(err, NS_EFORMAT, "%s: records %lld stored heap sizes in %llu chunks of %llu (damaged?)",
                            ckpt_path, (long long)rec->stored, (unsigned long long)rec->nledger,
                            (unsigned long long)chunk);
    int fd = open(s->part, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ns_error_set(err, NS_EIO, "%s: cannot open %s: %s", s->path, s->part, strerror(errno));
    ns_err rc = NS_OK;
    void *buf = NULL;
    size_t cap = 0;
    uint8_t *raw = malloc((size_t)chunk * (size_t)rec->elem);
    if (!raw)
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory", s->path);
    for (uint64_t c = 0; c < nch && !rc; c++) {
        const ns_h5_ledger_entry *e = &rec->ledger[c];
        if (e->ds != 0 || e->off[0] != c * chunk || e->off[1] != 0) {
            rc = ns_error_set(err, NS_EFORMAT, "%s: chunk record %llu is not the chunk of heap sizes from %llu "
                              "(damaged?)", ckpt_path, (unsigned long long)c, (unsigned long long)(c * chunk));
            break;
        }
        const size_t nbytes = (size_t)chunk * (size_t)rec->elem;
        if (!e->size) /* never stored: HDF5's fill value, 0 */
            memset(raw, 0, nbytes);
        else if ((rc = ns_h5_ledger_read(fd, e, &buf, &cap, s->part, err)) ||
                 (rc = ns_chunkfilter_undo(buf, (size_t)e->size, (size_t)rec->elem, raw, nbytes, err)))
            break;
        const uint64_t hi = (c + 1) * chunk < (uint64_t)rec->stored ? (c + 1) * chunk : (uint64_t)rec->stored;
        for (uint64_t i = c * chunk; i < hi && !rc; i++) {
            const size_t j = (size_t)(i - c * chunk);
            uint32_t v = rec->elem == 1 ? raw[j] : 0;
            if (rec->elem == 2) {
                uint16_t v16;
                memcpy(&v16, raw + 2 * j, 2);
                v = v16;
            } else if (rec->elem == 4) {
                memcpy(&v, raw + 4 * j, 4);
            }
            rc = put_value(t, i, v, err);
        }
    }
    free(raw);
    free(buf);
    close(fd);
    return rc;
}

ns_h5_seq *ns_h5_seq_resume(const char *path, const char *ckpt_path, ns_table *t, int threads, int64_t done,
                            ns_error *err)
{
    ns_h5_quiet();
    ns_h5_seq_rec rec;
    ns_h5_seq *s = NULL;
    if (ns_h5_ckpt_read_seq(ckpt_path, &rec, err))
        return NULL;
    if (t->k != 1 || rec.stored < 0 || rec.stored + rec.ntail != done || done > t->bounds[0] ||
        (rec.elem != 1 && rec.elem != 2 && rec.elem != 4)) {
        ns_error_set(err, NS_EFORMAT, "%s: records %lld stored and %lld more heap sizes, but %lld are done (of %lld)",
                     ckpt_path, (long long)rec.stored, (long long)rec.ntail, (long long)done,
                     (long long)t->bounds[0]);
        goto fail;
    }
    if (!(s = seq_new(path, t->bounds[0], threads, rec.elem, err)))
        goto fail;
    if (ns_h5_ledger_locate(rec.ledger, rec.nledger, s->part, s->pend, path, ckpt_path, err) ||
        read_stored(s, t, &rec, ckpt_path, err))
        goto fail;
    for (int64_t i = 0; i < rec.ntail; i++) {
        if (rec.tail[i] == 0xFFFFFFFFu) {
            ns_error_set(err, NS_EFORMAT, "%s: G(%lld) is not a value (damaged?)", ckpt_path,
                         (long long)(rec.stored + i));
            goto fail;
        }
        if (put_value(t, (uint64_t)(rec.stored + i), rec.tail[i], err))
            goto fail;
    }
    /* the finished heap sizes into a fresh .part, as wide as they need */
    ns_table_stats st;
    ns_table_summarize_range(t, 0, (uint64_t)done, &st);
    if (rewrite(s, t, width_for(st.max_value), done, err))
        goto fail;
    free((void *)rec.tail);
    free((void *)rec.ledger);
    return s;
fail:
    if (s) {
        close_ids(s);
        free_seq(s);
    }
    free((void *)rec.tail);
    free((void *)rec.ledger);
    return NULL;
}

/* ---- the close ---- */

/* The P-positions (heap sizes of value 0) from heap size *from on into
 * out (at most cap), *from moved past the last one taken; returns the
 * count. */
static uint64_t gather_p(const ns_table *t, int64_t *from, int64_t *out, uint64_t cap)
{
    uint64_t n = 0;
    int64_t i = *from;
    for (; i < t->bounds[0] && n < cap; i++)
        if (ns_table_get(t, (uint64_t)i) == 0)
            out[n++] = i;
    *from = i;
    return n;
}

typedef struct pp_fill {
    const int64_t *rows;    /* P-positions a .. b - 1; borrowed */
    uint64_t a, b;
    hsize_t prows;          /* rows of a chunk */
} pp_fill;

static void fill_pp(void *user, const hsize_t *off, void *const *bufs)
{
    const pp_fill *f = user;
    const uint64_t lo = off[0], hi = lo + f->prows < f->b ? lo + f->prows : f->b;
    memcpy(bufs[0], f->rows + (lo - f->a), (size_t)(hi - lo) * sizeof(int64_t));
    if (hi - lo < f->prows)
        memset((int64_t *)bufs[0] + (hi - lo), 0, (size_t)(f->prows - (hi - lo)) * sizeof(int64_t));
}

/* /p_positions: n_p x 1, as ns_h5_write shapes it */
static ns_err write_pp(ns_h5_seq *s, const ns_table *t, uint64_t n_p, ns_error *err)
{
    hsize_t pdims[2] = {n_p, 1}, pmax[2] = {n_p ? n_p : H5S_UNLIMITED, 1}, pshape[2] = {n_p ? n_p : 1, 1}, pchunk[2];
    ns_h5_chunk_shape(2, pshape, NS_H5_CHUNK_BYTES / sizeof(int64_t), pchunk);
    hid_t dp = ns_h5_create_chunked(s->file, s->path, "/p_positions", H5T_STD_I64LE, 2, pdims, pmax, pchunk, NULL,
                                    err);
    if (dp < 0)
        return err && err->code ? err->code : NS_EIO;
    ns_err rc = NS_OK;
    int64_t *rows = NULL;
    const uint64_t per = SEQ_PP_WINDOW / pchunk[0] ? SEQ_PP_WINDOW / pchunk[0] * pchunk[0] : pchunk[0];
    if (n_p && !(rows = malloc((size_t)(per < n_p ? per : n_p) * sizeof *rows)))
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for the P-positions", s->path);
    int64_t from = 0;
    for (uint64_t a = 0; a < n_p && !rc; a += per) {
        const uint64_t want = n_p - a < per ? n_p - a : per;
        if (gather_p(t, &from, rows, want) != want) {
            rc = ns_error_set(err, NS_EINTERNAL, "%s: fewer P-positions than counted", s->path);
            break;
        }
        pp_fill f = {.rows = rows, .a = a, .b = a + want, .prows = pchunk[0]};
        ns_h5_chunk_job job = {.path = s->path, .n = 1, .dset = {dp}, .name = {"/p_positions"},
                               .elem = {sizeof(int64_t)}, .skip = {-1}, .rank = 2, .dims = {n_p, 1},
                               .chunk = {pchunk[0], 1}, .first = a / pchunk[0],
                               .count = (want + pchunk[0] - 1) / pchunk[0], .fill = fill_pp, .user = &f,
                               .threads = s->threads};
        rc = ns_h5_write_chunks(&job, err);
    }
    free(rows);
    if (H5Dclose(dp) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close /p_positions", s->path);
    return rc;
}

ns_err ns_h5_seq_close(ns_h5_seq *s, const ns_table *t, const ns_meta *m, ns_table_stats *stats, ns_error *err)
{
    ns_h5_quiet();
    ns_err rc = ns_h5_seq_append(s, t, s->n, err);
    ns_table_stats st;
    if (rc)
        goto fail;
    ns_table_summarize(t, &st, NULL, 0);
    if (st.n_valid != (uint64_t)s->n || width_for(st.max_value) != s->elem) {
        rc = ns_error_set(err, NS_EINTERNAL, "%s: %llu of %lld values valid, largest %u in %d bytes", s->path,
                          (unsigned long long)st.n_valid, (long long)s->n, st.max_value, s->elem);
        goto fail;
    }
    if ((rc = write_pp(s, t, st.n_p, err)) ||
        (m->seq_code[0] && m->seq_rare_mask && (rc = ns_h5_write_rare(s->file, s->path, m, err))) ||
        (rc = ns_h5_root_attrs(s->file, s->path, 1, &s->n, 0, m, &st, 0, 0,
                               s->elem == 1 ? H5T_STD_U8LE : s->elem == 2 ? H5T_STD_U16LE : H5T_STD_U32LE, err)))
        goto fail;
    herr_t c1 = H5Dclose(s->dg), c2 = H5Dclose(s->dpn);
    s->dg = s->dpn = H5I_INVALID_HID;
    herr_t c3 = H5Fclose(s->file);
    s->file = H5I_INVALID_HID;
    if (c1 < 0 || c2 < 0 || c3 < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close (flush) %s", s->path, cur(s));
        goto fail;
    }
    if (rename(cur(s), s->path) != 0) {
        rc = ns_error_set(err, NS_EIO, "%s: cannot rename %s to it: %s", s->path, cur(s), strerror(errno));
        goto fail;
    }
    if (s->pending)
        remove(s->part);  /* the file a resume or widening replaced */
    if (stats)
        *stats = st;
    free_seq(s);
    return NS_OK;
fail:
    ns_h5_seq_abort(s);
    return rc;
}
