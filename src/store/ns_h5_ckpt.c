/* ns_h5_ckpt.c - checkpoint files of a solve in progress (see ns_h5.h).
 *
 * A checkpoint is an HDF5 file with the root attributes of a table file
 * (game, rules, params, bounds, play, kind) marked complete = 0, the
 * checkpoint attributes (kernel, units done and in all, seconds spent), and
 * the working table as it is in memory: /checkpoint_table, the table's own
 * cell width, chunked and filtered like a table file's datasets (shuffle,
 * deflate, fletcher32; in parallel, ns_h5_write_chunks), so a damaged
 * checkpoint is refused instead of resumed. Cells of unfinished units are stored as they are;
 * resume uses only the finished ones. A loopy game's checkpoint (the retro
 * engine; m->loopy with m->remoteness) holds beside it the remoteness as
 * it is in memory, /checkpoint_remoteness (uint32, NS_H5_REMOTE_NONE for
 * cells not decided yet), written the same way, and the root attribute
 * checkpoint_loopy = 1: its /checkpoint_table marks the cells not decided
 * yet with the engine's own code.
 *
 * Atomicity: the file is written to "<path>.tmp", flushed to disk (fsync),
 * and renamed over path; the directory is synced too. A failure (disk full,
 * a kill) at any moment leaves the previous checkpoint at path intact. */
#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "core/ns_version.h"

#define CKPT_DATASET "/checkpoint_table"
#define CKPT_REMOTENESS "/checkpoint_remoteness"
#define CKPT_CHUNK_BYTES ((hsize_t)1 << 22)

typedef struct ckw {
    const char *path;   /* for messages; borrowed */
    ns_error *err;
    hid_t file, vstr, scalar;
} ckw;

static void close_id(hid_t *id, herr_t (*close_fn)(hid_t))
{
    if (*id >= 0)
        close_fn(*id);
    *id = H5I_INVALID_HID;
}

static ns_err put_attr(ckw *w, const char *name, hid_t ftype, hid_t mtype, hid_t space, const void *buf)
{
    hid_t a = H5Acreate2(w->file, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot create attribute %s", w->path, name);
    herr_t st = H5Awrite(a, mtype, buf);
    herr_t cl = H5Aclose(a);
    if (st < 0 || cl < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot write attribute %s", w->path, name);
    return NS_OK;
}

static ns_err put_str(ckw *w, const char *name, const char *v)
{
    return put_attr(w, name, w->vstr, w->vstr, w->scalar, &v);
}

static ns_err put_i32(ckw *w, const char *name, int v)
{
    return put_attr(w, name, H5T_STD_I32LE, H5T_NATIVE_INT, w->scalar, &v);
}

static ns_err put_u64(ckw *w, const char *name, uint64_t v)
{
    return put_attr(w, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, w->scalar, &v);
}

static ns_err put_f64(ckw *w, const char *name, double v)
{
    return put_attr(w, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, w->scalar, &v);
}

static ns_err put_bounds(ckw *w, int k, const int64_t *bounds)
{
    hsize_t dim = (hsize_t)k;
    hid_t space = H5Screate_simple(1, &dim, NULL);
    if (space < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot create the dataspace of attribute bounds", w->path);
    ns_err rc = put_attr(w, "bounds", H5T_STD_I64LE, H5T_NATIVE_INT64, space, bounds);
    H5Sclose(space);
    return rc;
}

static hid_t native_uint(int elem)
{
    return elem == 1 ? H5T_NATIVE_UINT8 : elem == 2 ? H5T_NATIVE_UINT16 : H5T_NATIVE_UINT32;
}

static hid_t file_uint(int elem)
{
    return elem == 1 ? H5T_STD_U8LE : elem == 2 ? H5T_STD_U16LE : H5T_STD_U32LE;
}

/* Chunks: whole rows of the last dimensions, about CKPT_CHUNK_BYTES each. */
static void ckpt_chunk(const ns_table *t, hsize_t *chunk)
{
    hsize_t cells = CKPT_CHUNK_BYTES / (hsize_t)t->elem;
    for (int d = t->k - 1; d >= 0; d--) {
        hsize_t n = (hsize_t)t->bounds[d];
        if (n <= cells) {
            chunk[d] = n;
            cells /= n;
        } else {
            chunk[d] = cells ? cells : 1;
            cells = 1;
        }
        if (chunk[d] < 1)
            chunk[d] = 1;
    }
}

typedef struct ckfill {
    const ns_table *t;
    hsize_t chunk[NS_MAX_DIM];
} ckfill;

/* One chunk of the table as stored (the cells as in memory, zero-padded at
 * the table's edge): runs on the chunk writer's threads. */
static void fill_chunk(void *user, const hsize_t *off, void *const *bufs)
{
    const ckfill *f = user;
    const ns_table *t = f->t;
    const int k = t->k;
    const size_t el = (size_t)t->elem;
    hsize_t e[NS_MAX_DIM], cstride[NS_MAX_DIM];
    uint64_t cells = 1;
    int partial = 0;
    for (int d = k - 1; d >= 0; d--) {
        hsize_t left = (hsize_t)t->bounds[d] - off[d];
        e[d] = left < f->chunk[d] ? left : f->chunk[d];
        partial |= e[d] < f->chunk[d];
        cstride[d] = cells;
        cells *= f->chunk[d];
    }
    if (partial)
        memset(bufs[0], 0, (size_t)cells * el);
    hsize_t idx[NS_MAX_DIM] = {0};
    for (;;) {
        uint64_t src = off[k - 1], dst = 0;
        for (int d = 0; d < k - 1; d++) {
            src += (off[d] + idx[d]) * (uint64_t)t->stride[d];
            dst += idx[d] * cstride[d];
        }
        memcpy((char *)bufs[0] + dst * el, (const char *)t->data + src * el, (size_t)e[k - 1] * el);
        int d = k - 2;
        while (d >= 0 && ++idx[d] == e[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
}

/* What a checkpoint's table payload writes. */
typedef struct table_job {
    const ns_table *t;
    const uint32_t *rem;    /* a loopy game's remoteness, or NULL */
    int threads;
    ns_h5_placer *pl;       /* rank 0 of a placed checkpoint, else NULL */
    ns_h5_placed_report *rep;   /* with pl */
    int *started;           /* with pl: set once the others have the header */
} table_job;

/* The chunk job of the table t as dataset name (ds: rank 0's dataset, or
 * H5I_INVALID_HID on the other ranks of a placed checkpoint). */
static void table_chunks(ns_h5_chunk_job *job, ckfill *f, const char *path, hid_t ds, const char *name,
                         const ns_table *t, int threads)
{
    memset(job, 0, sizeof *job);
    f->t = t;
    ckpt_chunk(t, f->chunk);
    job->path = path;
    job->n = 1;
    job->dset[0] = ds;
    job->name[0] = name;
    job->elem[0] = (size_t)t->elem;
    job->rank = t->k;
    for (int d = 0; d < t->k; d++)
        job->dims[d] = (hsize_t)t->bounds[d];
    memcpy(job->chunk, f->chunk, sizeof(hsize_t) * (size_t)t->k);
    job->first = 0;
    job->count = ns_h5_chunk_count(job);
    job->fill = fill_chunk;
    job->user = f;
    job->threads = threads > 0 ? threads : 1;
}

/* The table as dataset name (/checkpoint_table): chunked, shuffle + deflate
 * + fletcher32, filtered in parallel (ns_h5_write_chunks) when HDF5 allows
 * direct chunk writes, else through HDF5's pipeline in slabs along
 * dimension 0. On a placed checkpoint's rank 0 (pj->pl) every rank writes
 * its share of the chunks (ns_h5_placed_chunks). */
static ns_err write_table(ckw *w, const char *name, const ns_table *t, int threads, const table_job *pj)
{
    hsize_t dims[NS_MAX_DIM];
    ckfill f = {.t = t};
    for (int d = 0; d < t->k; d++)
        dims[d] = (hsize_t)t->bounds[d];
    ckpt_chunk(t, f.chunk);
    ns_err rc = NS_OK;
    hid_t ds = ns_h5_create_chunked(w->file, w->path, name, file_uint(t->elem), t->k, dims, NULL, f.chunk, NULL,
                                    w->err);
    hid_t space = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
    if (ds < 0)
        return w->err->code ? w->err->code : NS_EIO;
    if (ns_h5_direct_ok()) {
        ns_h5_chunk_job job;
        table_chunks(&job, &f, w->path, ds, name, t, threads);
        if (pj && pj->pl) {
            /* a placed checkpoint: the others' header, then every rank its chunks */
            int64_t hdr[3] = {1, t->elem, t->k};
            ns_h5_placer_bcast(pj->pl, hdr, sizeof hdr);
            *pj->started = 1;
            rc = ns_h5_placed_chunks(pj->pl, w->file, &job, &pj->rep->shared, &pj->rep->bytes,
                                     &pj->rep->bytes_others, w->err);
        } else {
            rc = ns_h5_write_chunks(&job, w->err);
        }
        goto out;
    }
    space = H5Dget_space(ds);
    if (space < 0) {
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot get the dataspace of %s", w->path, name);
        goto out;
    }
    const uint64_t row = t->ncells / (uint64_t)t->bounds[0]; /* cells per index of dimension 0 */
    for (hsize_t x = 0; x < dims[0]; x += f.chunk[0]) {
        hsize_t start[NS_MAX_DIM] = {0}, count[NS_MAX_DIM];
        memcpy(count, dims, sizeof(hsize_t) * (size_t)t->k);
        start[0] = x;
        count[0] = dims[0] - x < f.chunk[0] ? dims[0] - x : f.chunk[0];
        mspace = H5Screate_simple(t->k, count, NULL);
        const char *buf = (const char *)t->data + (size_t)(x * row * (uint64_t)t->elem);
        if (mspace < 0 || H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
            H5Dwrite(ds, native_uint(t->elem), mspace, space, H5P_DEFAULT, buf) < 0) {
            rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot write the checkpoint table (rows from %llu)", w->path,
                            (unsigned long long)x);
            goto out;
        }
        close_id(&mspace, H5Sclose);
    }
out:
    close_id(&mspace, H5Sclose);
    close_id(&space, H5Sclose);
    close_id(&ds, H5Dclose);
    return rc;
}

ns_err ns_h5_sync_path(const char *path, int dir, ns_error *err)
{
    int fd = open(path, dir ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0)
        return ns_error_set(err, NS_EIO, "%s: cannot open it to sync: %s", path, strerror(errno));
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc != 0 && !(dir && (e == EINVAL || e == EBADF)))
        return ns_error_set(err, NS_EIO, "%s: cannot sync it to disk: %s", path, strerror(e));
    return NS_OK;
}

/* What a checkpoint holds besides the common attributes: the working
 * table (ns_h5_ckpt_write), or a streamed solve's record (stream_payload). */
typedef ns_err (*payload_fn)(ckw *w, const void *user);


/* A table of 4-byte cells of t's shape over data (borrowed, not owned). */
static ns_table rem_view(const ns_table *t, const uint32_t *data)
{
    ns_table v = *t;
    v.elem = 4;
    v.pn_only = 0;
    v.data = (void *)data;
    v.mapped = 0;
    return v;
}

static ns_err table_payload(ckw *w, const void *user)
{
    const table_job *j = user;
    ns_err rc = write_table(w, CKPT_DATASET, j->t, j->threads, j);
    if (rc || !j->rem)
        return rc;
    const ns_table v = rem_view(j->t, j->rem);
    if ((rc = put_i32(w, "checkpoint_loopy", 1)))
        return rc;
    return write_table(w, CKPT_REMOTENESS, &v, j->threads, NULL);
}

/* Test hook (NS_TEST_CKPT_DELAY=S: the new checkpoint written to
 * "<path>.tmp" but not yet renamed, so that a kill lands inside a
 * checkpoint write, reproducibly). */
void ns_h5_test_delay(const char *var)
{
    const char *d = getenv(var);
    double secs = d ? atof(d) : 0;
    if (secs > 0) {
        struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

ns_err ns_h5_sync_dir_of(const char *path, ns_error *err)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return ns_h5_sync_path(dir, 1, err);
}

static ns_err write_ckpt(const char *path, int k, const int64_t *bounds, int pn_only, int elem, const ns_meta *m,
                         const ns_h5_ckpt *c, payload_fn payload, const void *user, ns_h5_placer *pl, ns_error *err)
{
    ns_h5_quiet();
    if (k < 1 || k > NS_MAX_DIM || (elem != 1 && elem != 2 && elem != 4))
        return ns_error_set(err, NS_EINTERNAL, "%s: cannot checkpoint a table of rank %d with %d-byte cells",
                            path, k, elem);
    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof ".tmp");
    if (!tmp)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", sizeof ".tmp");
    ckw w = {path, err, H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    ns_err rc = NS_OK;
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot set up the file access properties", path);
        goto fail;
    }
    /* a placed checkpoint: the driver that places a chunk without writing it */
    if (pl && (rc = ns_h5_direct_fapl(fapl, tmp, err)))
        goto fail;
    errno = 0;
    w.file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (w.file < 0) {
        int e = errno;
        rc = e ? ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", path, tmp, strerror(e))
               : ns_h5_fail(err, NS_EIO, "%s: cannot create %s", path, tmp);
        goto fail;
    }
    w.scalar = H5Screate(H5S_SCALAR);
    w.vstr = H5Tcopy(H5T_C_S1);
    if (w.scalar < 0 || w.vstr < 0 || H5Tset_size(w.vstr, H5T_VARIABLE) < 0 ||
        H5Tset_cset(w.vstr, H5T_CSET_UTF8) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot create the string type and scalar dataspace", path);
        goto fail;
    }
    char game[sizeof m->game], params[sizeof m->params];
    snprintf(game, sizeof game, "%.*s", (int)sizeof m->game - 1, m->game);
    snprintf(params, sizeof params, "%.*s", (int)sizeof m->params - 1, m->params);
    if ((rc = put_str(&w, "game", game)) || (m->rules_text && (rc = put_str(&w, "rules", m->rules_text))) ||
        (rc = put_str(&w, "params", params)) || (rc = put_bounds(&w, k, bounds)) ||
        (rc = put_str(&w, "play", m->play == NS_PLAY_MISERE ? "misere" : "normal")) ||
        (rc = put_str(&w, "kind", pn_only ? "pn" : "grundy")) ||
        (rc = put_str(&w, "nimsieve_version", NS_VERSION)) ||
        (rc = put_str(&w, "git_revision", NS_GIT_REVISION)) || (rc = put_i32(&w, "complete", 0)) ||
        (rc = put_str(&w, "checkpoint_kernel", c->kernel)) ||
        (rc = put_u64(&w, "checkpoint_units_done", c->units_done)) ||
        (rc = put_u64(&w, "checkpoint_units_total", c->units_total)) ||
        (rc = put_f64(&w, "checkpoint_seconds", c->seconds)) || (rc = put_i32(&w, "checkpoint_elem", elem)) ||
        (rc = payload(&w, user)))
        goto fail;
    close_id(&w.scalar, H5Sclose);
    close_id(&w.vstr, H5Tclose);
    herr_t cl = H5Fclose(w.file);
    w.file = H5I_INVALID_HID;
    if (cl < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close (flush) %s", path, tmp);
        goto fail;
    }
    if ((rc = ns_h5_sync_path(tmp, 0, err)))
        goto fail;
    ns_h5_test_delay("NS_TEST_CKPT_DELAY");
    if (rename(tmp, path) != 0) {
        rc = ns_error_set(err, NS_EIO, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
        goto fail;
    }
    rc = ns_h5_sync_dir_of(path, err); /* the rename itself must reach the disk */
    goto out;
fail:
    close_id(&w.scalar, H5Sclose);
    close_id(&w.vstr, H5Tclose);
    close_id(&w.file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    remove(tmp);
out:
    close_id(&fapl, H5Pclose);
    free(tmp);
    return rc;
}

ns_err ns_h5_ckpt_write(const char *path, const ns_table *t, const ns_meta *m, const ns_h5_ckpt *c,
                        ns_error *err)
{
    const table_job j = {t, m->loopy ? m->remoteness : NULL, m->threads, NULL, NULL, NULL};
    return write_ckpt(path, t->k, t->bounds, t->pn_only, t->elem, m, c, table_payload, &j, NULL, err);
}

/* ns_h5_ckpt_write_placed on a rank but 0: rank 0's header, then its share
 * of the chunks of /checkpoint_table (the same grid as rank 0's). */
static ns_err ckpt_follow(const char *path, const ns_table *t, int threads, ns_h5_placer *pl,
                          ns_h5_placed_report *rep, ns_error *err)
{
    int64_t hdr[3];
    ns_err rc = ns_h5_placed_header(pl, hdr, "checkpoint", rep, err);
    if (rc)
        return rc;
    ns_h5_chunk_job job;
    ckfill f;
    table_chunks(&job, &f, path, H5I_INVALID_HID, CKPT_DATASET, t, threads);
    if (hdr[1] == t->elem && hdr[2] == t->k)
        return ns_h5_placed_chunks(pl, H5I_INVALID_HID, &job, &rep->shared, &rep->bytes, &rep->bytes_others, err);
    /* not rank 0's table: share the file as the others do (a collective),
     * then stop every rank in the first round (not shared: rank 0 writes
     * every chunk of its own table) */
    int shared = 0, more = 0;
    rc = ns_h5_placer_share(pl, H5I_INVALID_HID, &job, &shared, err);
    if (rc || !shared)
        return rc;
    ns_error ignored;
    (void)ns_h5_placed_put(pl, 0, 0, NULL, NULL, 1, 1, &more, &ignored);
    ns_error_set(err, NS_EINTERNAL, "%s: rank %d holds a table of %d-byte cells and rank %d, rank 0 one of %lld and "
                 "%lld", path, ns_h5_placer_rank(pl), t->elem, t->k, (long long)hdr[1], (long long)hdr[2]);
    return ns_h5_placed_finish(pl, NS_EINTERNAL, NULL, NULL, err);
}

ns_err ns_h5_ckpt_write_placed(const char *path, const ns_table *t, const ns_meta *m, const ns_h5_ckpt *c,
                               const void *comm, ns_h5_placed_report *rep, ns_error *err)
{
    ns_h5_quiet();
    ns_h5_placed_report r0;
    if (!rep)
        rep = &r0;
    memset(rep, 0, sizeof *rep);
    if (m->loopy)
        return ns_error_set(err, NS_EINTERNAL, "%s: a loopy game's checkpoint is not written by every rank", path);
    char *tmp;
    ns_h5_placer *pl;
    ns_err rc = ns_h5_placer_begin(comm, path, ".tmp", &pl, &tmp, err);
    if (rc)
        return rc;   /* the same on every rank: no MPI, no memory */
    /* HDF5 without direct chunk writes (the same library on every rank):
     * rank 0 writes the checkpoint alone */
    const int placed = ns_h5_direct_ok();
    if (ns_h5_placer_rank(pl) == 0) {
        int started = 0;
        const table_job j = {t, NULL, m->threads, placed ? pl : NULL, rep, &started};
        rc = write_ckpt(path, t->k, t->bounds, t->pn_only, t->elem, m, c, table_payload, &j, placed ? pl : NULL,
                        err);
        if (placed && !started) {   /* it failed before the others had its header */
            int64_t hdr[3] = {0, 0, 0};
            ns_h5_placer_bcast(pl, hdr, sizeof hdr);
        }
    } else if (placed) {
        rc = ckpt_follow(path, t, m->threads, pl, rep, err);
    }
    /* rank 0's result, the checkpoint renamed or not, on every rank */
    rc = ns_h5_placed_end(pl, rc, "checkpoint", rep, err);
    free(tmp);
    return rc;
}

/* ---- the chunk ledger of a streamed .part (both streamed records) ---- */

#define CKPT_LEDGER "/checkpoint_ledger"

/* n entries as an n x NS_H5_LEDGER_COLS uint64 dataset (unlimited rows:
 * an empty ledger can be chunked too) */
static ns_err put_ledger(ckw *w, const ns_h5_ledger_entry *e, uint64_t n)
{
    _Static_assert(sizeof(ns_h5_ledger_entry) == NS_H5_LEDGER_COLS * sizeof(uint64_t), "ledger entry layout");
    hsize_t dims[2] = {n, NS_H5_LEDGER_COLS}, maxd[2] = {H5S_UNLIMITED, NS_H5_LEDGER_COLS};
    hsize_t chunk[2] = {n < 16384 ? (n ? n : 1) : 16384, NS_H5_LEDGER_COLS};
    hid_t ds = ns_h5_create_chunked(w->file, w->path, CKPT_LEDGER, H5T_STD_U64LE, 2, dims, maxd, chunk, NULL, w->err);
    if (ds < 0)
        return w->err && w->err->code ? w->err->code : NS_EIO;
    ns_err rc = NS_OK;
    if (n && H5Dwrite(ds, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, e) < 0)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot write %s", w->path, CKPT_LEDGER);
    if (H5Dclose(ds) < 0 && !rc)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot close %s", w->path, CKPT_LEDGER);
    return rc;
}

/* The ledger back (*e malloc'ed: the caller frees it). A record without
 * one was written by an older nimsieve, whose resume read the .part's own
 * chunk index. */
static ns_err get_ledger(hid_t file, const char *path, ns_h5_ledger_entry **e, uint64_t *n, ns_error *err)
{
    *e = NULL;
    *n = 0;
    if (H5Lexists(file, CKPT_LEDGER, H5P_DEFAULT) <= 0)
        return ns_error_set(err, NS_EFORMAT, "%s: has no %s (a checkpoint of an older nimsieve: resume with the "
                            "version its attribute nimsieve_version names, or start over with --force)", path,
                            CKPT_LEDGER);
    hid_t ds = H5Dopen2(file, CKPT_LEDGER, H5P_DEFAULT);
    hid_t sp = ds >= 0 ? H5Dget_space(ds) : H5I_INVALID_HID;
    hsize_t dims[2];
    ns_err rc = NS_OK;
    if (sp < 0 || H5Sget_simple_extent_ndims(sp) != 2 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0 ||
        dims[1] != NS_H5_LEDGER_COLS || dims[0] > ((hsize_t)1 << 32)) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: dataset %s is missing or has the wrong shape", path, CKPT_LEDGER);
        goto out;
    }
    if (dims[0]) {
        if (!(*e = malloc((size_t)dims[0] * sizeof **e))) {
            rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for %llu chunk records", path,
                              (unsigned long long)dims[0]);
            goto out;
        }
        if (H5Dread(ds, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, *e) < 0) {
            rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read %s (damaged? checksum)", path, CKPT_LEDGER);
            goto out;
        }
    }
    *n = dims[0];
out:
    close_id(&sp, H5Sclose);
    close_id(&ds, H5Dclose);
    if (rc) {
        free(*e);
        *e = NULL;
    }
    return rc;
}

/* ---- the record of a streamed solve (ns_h5_stream.c) ---- */

#define STREAM_PP "/checkpoint_p_positions"

static ns_err stream_payload(ckw *w, const void *user)
{
    const ns_h5_stream_rec *r = user;
    ns_err rc;
    if ((rc = put_i32(w, "checkpoint_streamed", 1)) || (rc = put_u64(w, "stream_tile", (uint64_t)r->tile)) ||
        (rc = put_u64(w, "stream_cells", r->cells)) || (rc = put_u64(w, "stream_chunks", r->chunks)) ||
        (rc = put_u64(w, "stream_max_value", r->max_value)) || (rc = put_ledger(w, r->ledger, r->nledger)))
        return rc;
    /* the P-positions of the finished units, n x 2 (unlimited rows: an
     * empty list can be chunked too) */
    hsize_t dims[2] = {r->npp, 2}, maxd[2] = {H5S_UNLIMITED, 2};
    hsize_t chunk[2] = {r->npp < 65536 ? (r->npp ? r->npp : 1) : 65536, 2};
    hid_t ds = ns_h5_create_chunked(w->file, w->path, STREAM_PP, H5T_STD_I64LE, 2, dims, maxd, chunk, NULL, w->err);
    if (ds < 0)
        return w->err && w->err->code ? w->err->code : NS_EIO;
    rc = NS_OK;
    if (r->npp && H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, r->pp) < 0)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot write %s", w->path, STREAM_PP);
    if (H5Dclose(ds) < 0 && !rc)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot close %s", w->path, STREAM_PP);
    return rc;
}

ns_err ns_h5_ckpt_write_stream(const char *path, const int64_t *bounds, int elem, const ns_meta *m,
                               const ns_h5_ckpt *c, const ns_h5_stream_rec *r, ns_error *err)
{
    return write_ckpt(path, 2, bounds, elem == 1, elem, m, c, stream_payload, r, NULL, err);
}

/* ---------------------------------------------------------------- reading */

typedef struct ckr {
    const char *path;
    ns_error *err;
    hid_t file;
} ckr;

static ns_err get_num(ckr *r, const char *name, hid_t mtype, void *out)
{
    hid_t a = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    htri_t ex = H5Aexists(r->file, name);
    if (ex <= 0) {
        rc = ns_error_set(r->err, NS_EFORMAT, "%s: missing attribute %s (not a nimsieve checkpoint)", r->path, name);
        goto out;
    }
    a = H5Aopen(r->file, name, H5P_DEFAULT);
    sp = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    if (sp < 0 || H5Sget_simple_extent_npoints(sp) != 1 || H5Aread(a, mtype, out) < 0)
        rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: attribute %s should be a single number", r->path, name);
out:
    close_id(&sp, H5Sclose);
    close_id(&a, H5Aclose);
    return rc;
}

/* The same for an attribute that may be absent: *out untouched then. */
static ns_err get_num_opt(ckr *r, const char *name, hid_t mtype, void *out)
{
    if (H5Aexists(r->file, name) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return NS_OK;
    }
    return get_num(r, name, mtype, out);
}

/* A variable-length string attribute into a new malloc'ed string (*out). */
static ns_err get_str(ckr *r, const char *name, int required, char **out)
{
    *out = NULL;
    hid_t a = H5I_INVALID_HID, ft = H5I_INVALID_HID, mt = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    htri_t ex = H5Aexists(r->file, name);
    if (ex <= 0) {
        if (required)
            rc = ns_error_set(r->err, NS_EFORMAT, "%s: missing attribute %s (not a nimsieve checkpoint)", r->path,
                              name);
        goto out;
    }
    a = H5Aopen(r->file, name, H5P_DEFAULT);
    ft = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
    sp = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    if (ft < 0 || sp < 0 || H5Tget_class(ft) != H5T_STRING || H5Tis_variable_str(ft) <= 0 ||
        H5Sget_simple_extent_npoints(sp) != 1) {
        rc = ns_error_set(r->err, NS_EFORMAT, "%s: attribute %s should be a string", r->path, name);
        goto out;
    }
    mt = H5Tcopy(H5T_C_S1);
    char *s = NULL;
    if (mt < 0 || H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Tset_cset(mt, H5Tget_cset(ft)) < 0 ||
        H5Aread(a, mt, &s) < 0 || !s) {
        rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot read attribute %s", r->path, name);
        goto out;
    }
    *out = strdup(s);
    H5free_memory(s);
    if (!*out)
        rc = ns_error_set(r->err, NS_ENOMEM, "%s: out of memory", r->path);
out:
    close_id(&mt, H5Tclose);
    close_id(&sp, H5Sclose);
    close_id(&ft, H5Tclose);
    close_id(&a, H5Aclose);
    return rc;
}

static ns_err get_str_into(ckr *r, const char *name, char *dst, size_t len)
{
    char *s;
    ns_err rc = get_str(r, name, 1, &s);
    if (rc)
        return rc;
    if (strlen(s) >= len)
        rc = ns_error_set(r->err, NS_EFORMAT, "%s: attribute %s is too long", r->path, name);
    else
        memcpy(dst, s, strlen(s) + 1);
    free(s);
    return rc;
}

static ns_err read_bounds(ckr *r, int *k, int64_t *bounds)
{
    hid_t a = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    if (H5Aexists(r->file, "bounds") <= 0)
        return ns_error_set(r->err, NS_EFORMAT, "%s: missing attribute bounds (not a nimsieve checkpoint)", r->path);
    a = H5Aopen(r->file, "bounds", H5P_DEFAULT);
    sp = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (n < 1 || n > NS_MAX_DIM || H5Aread(a, H5T_NATIVE_INT64, bounds) < 0) {
        rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: attribute bounds should hold 1 to %d sizes", r->path, NS_MAX_DIM);
        goto out;
    }
    *k = (int)n;
    for (int d = 0; d < *k; d++)
        if (bounds[d] < 1) {
            rc = ns_error_set(r->err, NS_EFORMAT, "%s: attribute bounds holds %lld, expected sizes >= 1", r->path,
                              (long long)bounds[d]);
            goto out;
        }
out:
    close_id(&sp, H5Sclose);
    close_id(&a, H5Aclose);
    return rc;
}

/* Dataset name of the open checkpoint into t (its shape and cell width). */
static ns_err read_table(ckr *r, const char *name, ns_table *t)
{
    hid_t ds = H5I_INVALID_HID, sp = H5I_INVALID_HID, ty = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    ds = H5Dopen2(r->file, name, H5P_DEFAULT);
    sp = ds >= 0 ? H5Dget_space(ds) : H5I_INVALID_HID;
    ty = ds >= 0 ? H5Dget_type(ds) : H5I_INVALID_HID;
    hsize_t dims[NS_MAX_DIM];
    if (sp < 0 || ty < 0 || H5Sget_simple_extent_ndims(sp) != t->k || H5Sget_simple_extent_dims(sp, dims, NULL) < 0 ||
        H5Tget_class(ty) != H5T_INTEGER || H5Tget_size(ty) != (size_t)t->elem) {
        rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: dataset %s is missing or has the wrong shape or type", r->path,
                        name);
        goto out;
    }
    for (int d = 0; d < t->k; d++)
        if (dims[d] != (hsize_t)t->bounds[d]) {
            rc = ns_error_set(r->err, NS_EFORMAT, "%s: dataset %s has the wrong shape", r->path, name);
            goto out;
        }
    /* in slabs along dimension 0: one H5Dread of more than 2 GiB is not
     * safe on every HDF5 1.10 */
    const uint64_t row = t->ncells / (uint64_t)t->bounds[0];
    hsize_t step = ((hsize_t)1 << 28) / ((hsize_t)row * (hsize_t)t->elem);
    if (step < 1)
        step = 1;
    for (hsize_t x = 0; x < dims[0]; x += step) {
        hsize_t start[NS_MAX_DIM] = {0}, count[NS_MAX_DIM];
        memcpy(count, dims, sizeof(hsize_t) * (size_t)t->k);
        start[0] = x;
        count[0] = dims[0] - x < step ? dims[0] - x : step;
        hid_t ms = H5Screate_simple(t->k, count, NULL);
        char *buf = (char *)t->data + (size_t)(x * row * (uint64_t)t->elem);
        herr_t st = ms < 0 ? -1 : H5Sselect_hyperslab(sp, H5S_SELECT_SET, start, NULL, count, NULL);
        if (st >= 0)
            st = H5Dread(ds, native_uint(t->elem), ms, sp, H5P_DEFAULT, buf);
        close_id(&ms, H5Sclose);
        if (st < 0) {
            rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot read dataset %s of the checkpoint (damaged? checksum)", r->path, name);
            goto out;
        }
    }
out:
    close_id(&ty, H5Tclose);
    close_id(&sp, H5Sclose);
    close_id(&ds, H5Dclose);
    return rc;
}

ns_err ns_h5_ckpt_read(const char *path, ns_h5_ckpt_info *info, ns_table *t, ns_error *err)
{
    ns_h5_quiet();
    ckr r = {path, err, H5I_INVALID_HID};
    ns_err rc = NS_OK;
    memset(info, 0, sizeof *info);
    if (H5Fis_hdf5(path) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        FILE *f = fopen(path, "rb");
        if (!f)
            return ns_error_set(err, NS_EIO, "%s: cannot open: %s", path, strerror(errno));
        fclose(f);
        return ns_error_set(err, NS_EFORMAT, "%s: not an HDF5 file (a damaged checkpoint?)", path);
    }
    r.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (r.file < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot open the checkpoint", path);
    char kind[16], play[16];
    int complete = 1;
    if ((rc = get_str_into(&r, "game", info->meta.game, sizeof info->meta.game)) ||
        (rc = get_str(&r, "rules", 0, &info->meta.rules_text)) ||
        (rc = get_str_into(&r, "params", info->meta.params, sizeof info->meta.params)) ||
        (rc = get_str_into(&r, "kind", kind, sizeof kind)) || (rc = get_str_into(&r, "play", play, sizeof play)) ||
        (rc = get_num(&r, "complete", H5T_NATIVE_INT, &complete)) ||
        (rc = get_str_into(&r, "checkpoint_kernel", info->ckpt.kernel, sizeof info->ckpt.kernel)) ||
        (rc = get_num(&r, "checkpoint_units_done", H5T_NATIVE_UINT64, &info->ckpt.units_done)) ||
        (rc = get_num(&r, "checkpoint_units_total", H5T_NATIVE_UINT64, &info->ckpt.units_total)) ||
        (rc = get_num(&r, "checkpoint_seconds", H5T_NATIVE_DOUBLE, &info->ckpt.seconds)) ||
        (rc = get_num(&r, "checkpoint_elem", H5T_NATIVE_INT, &info->elem)) ||
        (rc = read_bounds(&r, &info->k, info->bounds)) ||
        (rc = get_num_opt(&r, "checkpoint_streamed", H5T_NATIVE_INT, &info->streamed)) ||
        (rc = get_num_opt(&r, "checkpoint_loopy", H5T_NATIVE_INT, &info->loopy)) ||
        (rc = get_num_opt(&r, "checkpoint_seq_streamed", H5T_NATIVE_INT, &info->seq_streamed)))
        goto out;
    if (info->seq_streamed && (info->k != 1 || info->streamed || t)) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: inconsistent record of a streamed sequence (rank %d)%s", path,
                          info->k, t ? "; it holds no table" : "");
        goto out;
    }
    if (info->streamed) {
        uint64_t tile = 0;
        if ((rc = get_num(&r, "stream_tile", H5T_NATIVE_UINT64, &tile)))
            goto out;
        info->stream_tile = (int64_t)tile;
        if (info->k != 2 || tile < 1 || tile > 1024 || t) {
            rc = ns_error_set(err, NS_EFORMAT, "%s: inconsistent record of a streamed solve (rank %d, tile %llu)%s",
                              path, info->k, (unsigned long long)tile, t ? "; it holds no table" : "");
            goto out;
        }
    }
    info->meta.pn_only = strcmp(kind, "pn") == 0;
    info->meta.play = strcmp(play, "misere") == 0 ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    if (complete != 0 || info->ckpt.units_done > info->ckpt.units_total ||
        (info->elem != 1 && info->elem != 2 && info->elem != 4)) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: inconsistent checkpoint attributes (complete %d, units %llu of %llu, "
                          "cells of %d bytes)", path, complete, (unsigned long long)info->ckpt.units_done,
                          (unsigned long long)info->ckpt.units_total, info->elem);
        goto out;
    }
    if (!t)
        goto out;
    if (t->k != info->k || t->elem != info->elem || t->pn_only != info->meta.pn_only ||
        memcmp(t->bounds, info->bounds, sizeof(int64_t) * (size_t)t->k) != 0) {
        rc = ns_error_set(err, NS_EINVAL, "%s: the checkpoint's table does not match this solve's table", path);
        goto out;
    }
    rc = read_table(&r, CKPT_DATASET, t);
out:
    close_id(&r.file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    if (rc)
        ns_meta_free(&info->meta);
    return rc;
}

ns_err ns_h5_ckpt_read_remoteness(const char *path, const ns_table *t, uint32_t *rem, ns_error *err)
{
    ns_h5_quiet();
    ckr r = {path, err, H5I_INVALID_HID};
    int loopy = 0;
    r.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (r.file < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot open the checkpoint", path);
    ns_err rc = get_num_opt(&r, "checkpoint_loopy", H5T_NATIVE_INT, &loopy);
    if (!rc && loopy != 1)
        rc = ns_error_set(err, NS_EFORMAT, "%s: not the checkpoint of a loopy game (no remoteness in it)", path);
    if (!rc) {
        ns_table v = rem_view(t, rem);
        rc = read_table(&r, CKPT_REMOTENESS, &v);
    }
    close_id(&r.file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

ns_err ns_h5_ckpt_read_stream(const char *path, ns_h5_stream_rec *rec, ns_error *err)
{
    ns_h5_quiet();
    ckr r = {path, err, H5I_INVALID_HID};
    hid_t ds = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    uint64_t tile = 0, mx = 0;
    memset(rec, 0, sizeof *rec);
    r.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (r.file < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot open the checkpoint", path);
    if ((rc = get_num(&r, "stream_tile", H5T_NATIVE_UINT64, &tile)) ||
        (rc = get_num(&r, "stream_cells", H5T_NATIVE_UINT64, &rec->cells)) ||
        (rc = get_num(&r, "stream_chunks", H5T_NATIVE_UINT64, &rec->chunks)) ||
        (rc = get_num(&r, "stream_max_value", H5T_NATIVE_UINT64, &mx)))
        goto out;
    rec->tile = (int64_t)tile;
    rec->max_value = (uint32_t)mx;
    {
        ns_h5_ledger_entry *e = NULL;
        if ((rc = get_ledger(r.file, path, &e, &rec->nledger, err)))
            goto out;
        rec->ledger = e;
    }
    ds = H5Dopen2(r.file, STREAM_PP, H5P_DEFAULT);
    sp = ds >= 0 ? H5Dget_space(ds) : H5I_INVALID_HID;
    hsize_t dims[2];
    if (sp < 0 || H5Sget_simple_extent_ndims(sp) != 2 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0 ||
        dims[1] != 2 || mx > 0xFFFFFFFFu) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: dataset %s is missing or has the wrong shape", path, STREAM_PP);
        goto out;
    }
    rec->npp = dims[0];
    if (rec->npp) {
        int64_t *pp = malloc((size_t)rec->npp * 2 * sizeof *pp);
        if (!pp) {
            rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for %llu P-positions", path,
                              (unsigned long long)rec->npp);
            goto out;
        }
        rec->pp = pp;
        if (H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, pp) < 0) {
            rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read %s (damaged? checksum)", path, STREAM_PP);
            goto out;
        }
    }
out:
    close_id(&sp, H5Sclose);
    close_id(&ds, H5Dclose);
    close_id(&r.file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    if (rc) {
        free((void *)rec->pp);
        free((void *)rec->ledger);
        memset(rec, 0, sizeof *rec);
    }
    return rc;
}

/* ---- the record of a streamed sequence (ns_h5_seq.c) ---- */

#define SEQ_TAIL "/checkpoint_seq_tail"

static ns_err seq_payload(ckw *w, const void *user)
{
    const ns_h5_seq_rec *r = user;
    ns_err rc;
    if ((rc = put_i32(w, "checkpoint_seq_streamed", 1)) || (rc = put_u64(w, "seq_stored", (uint64_t)r->stored)) ||
        (rc = put_ledger(w, r->ledger, r->nledger)))
        return rc;
    /* the finished values after the stored chunks (unlimited: an empty
     * tail can be chunked too) */
    hsize_t dims[1] = {(hsize_t)r->ntail}, maxd[1] = {H5S_UNLIMITED};
    hsize_t chunk[1] = {r->ntail < 65536 ? (r->ntail ? (hsize_t)r->ntail : 1) : 65536};
    hid_t ds = ns_h5_create_chunked(w->file, w->path, SEQ_TAIL, H5T_STD_U32LE, 1, dims, maxd, chunk, NULL, w->err);
    if (ds < 0)
        return w->err && w->err->code ? w->err->code : NS_EIO;
    rc = NS_OK;
    if (r->ntail && H5Dwrite(ds, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, r->tail) < 0)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot write %s", w->path, SEQ_TAIL);
    if (H5Dclose(ds) < 0 && !rc)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot close %s", w->path, SEQ_TAIL);
    return rc;
}

ns_err ns_h5_ckpt_write_seq(const char *path, int64_t n, const ns_meta *m, const ns_h5_ckpt *c,
                            const ns_h5_seq_rec *r, ns_error *err)
{
    return write_ckpt(path, 1, &n, 0, r->elem, m, c, seq_payload, r, NULL, err);
}

ns_err ns_h5_ckpt_read_seq(const char *path, ns_h5_seq_rec *rec, ns_error *err)
{
    ns_h5_quiet();
    ckr r = {path, err, H5I_INVALID_HID};
    hid_t ds = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    uint64_t stored = 0;
    memset(rec, 0, sizeof *rec);
    r.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (r.file < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot open the checkpoint", path);
    if ((rc = get_num(&r, "seq_stored", H5T_NATIVE_UINT64, &stored)) ||
        (rc = get_num(&r, "checkpoint_elem", H5T_NATIVE_INT, &rec->elem)))
        goto out;
    rec->stored = (int64_t)stored;
    {
        ns_h5_ledger_entry *e = NULL;
        if ((rc = get_ledger(r.file, path, &e, &rec->nledger, err)))
            goto out;
        rec->ledger = e;
    }
    ds = H5Dopen2(r.file, SEQ_TAIL, H5P_DEFAULT);
    sp = ds >= 0 ? H5Dget_space(ds) : H5I_INVALID_HID;
    hsize_t dims[1];
    if (sp < 0 || H5Sget_simple_extent_ndims(sp) != 1 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0 ||
        stored > (uint64_t)INT64_MAX || dims[0] > ((hsize_t)1 << 24)) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: dataset %s is missing or has the wrong shape", path, SEQ_TAIL);
        goto out;
    }
    rec->ntail = (int64_t)dims[0];
    if (rec->ntail) {
        uint32_t *tail = malloc((size_t)rec->ntail * sizeof *tail);
        if (!tail) {
            rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for %lld values", path, (long long)rec->ntail);
            goto out;
        }
        rec->tail = tail;
        if (H5Dread(ds, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, tail) < 0) {
            rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read %s (damaged? checksum)", path, SEQ_TAIL);
            goto out;
        }
    }
out:
    close_id(&sp, H5Sclose);
    close_id(&ds, H5Dclose);
    close_id(&r.file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    if (rc) {
        free((void *)rec->tail);
        free((void *)rec->ledger);
        memset(rec, 0, sizeof *rec);
    }
    return rc;
}
