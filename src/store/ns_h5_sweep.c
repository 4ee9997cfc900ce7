/* ns_h5_sweep.c - see ns_h5_sweep.h. Part of the HDF5 layer. */
#include "store/ns_h5_sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game/ns_table.h"
#include "store/ns_chunkfilter.h"

#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

/* The row's columns described as data: name, offset, file and memory type. */
typedef struct col {
    const char *name;
    size_t off;
    int type;   /* 0: the params string, 1: int64, 2: uint8, 3: double, 4: a string of len bytes */
    size_t len;
} col;

static const col cols[] = {
    {"params", offsetof(ns_h5_sweep_row, params), 0, 0},
    {"size", offsetof(ns_h5_sweep_row, size), 1, 0},
    {"p_positions", offsetof(ns_h5_sweep_row, p_positions), 1, 0},
    {"preperiod", offsetof(ns_h5_sweep_row, preperiod), 1, 0},
    {"period", offsetof(ns_h5_sweep_row, period), 1, 0},
    {"proven", offsetof(ns_h5_sweep_row, proven), 2, 0},
    {"slope_a", offsetof(ns_h5_sweep_row, slope_a), 3, 0},
    {"slope_b", offsetof(ns_h5_sweep_row, slope_b), 3, 0},
    {"seconds", offsetof(ns_h5_sweep_row, seconds), 3, 0},
    {"group", offsetof(ns_h5_sweep_row, group), 1, 0},
    {"max_value", offsetof(ns_h5_sweep_row, max_value), 1, 0},
    {"saltus", offsetof(ns_h5_sweep_row, saltus), 1, 0},
    {"complementary", offsetof(ns_h5_sweep_row, complementary), 2, 0},
    {"beatty", offsetof(ns_h5_sweep_row, beatty), 2, 0},
    {"const_a", offsetof(ns_h5_sweep_row, const_a), 4, NS_H5_SWEEP_CONST_LEN},
    {"const_b", offsetof(ns_h5_sweep_row, const_b), 4, NS_H5_SWEEP_CONST_LEN},
    {"cf_a", offsetof(ns_h5_sweep_row, cf_a), 4, NS_H5_SWEEP_CONST_LEN},
    {"cf_b", offsetof(ns_h5_sweep_row, cf_b), 4, NS_H5_SWEEP_CONST_LEN},
    {"rows_additive", offsetof(ns_h5_sweep_row, rows_additive), 1, 0},
    {"additive_pmax", offsetof(ns_h5_sweep_row, additive_pmax), 1, 0},
    {"checks", offsetof(ns_h5_sweep_row, checks), 4, NS_H5_SWEEP_CHECKS_LEN},
};

static hid_t fixed_str(size_t len)
{
    hid_t s = H5Tcopy(H5T_C_S1);
    if (s >= 0 && (H5Tset_size(s, len) < 0 || H5Tset_strpad(s, H5T_STR_NULLTERM) < 0)) {
        H5Tclose(s);
        return H5I_INVALID_HID;
    }
    return s;
}

static hid_t row_type(int file, hid_t str)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(ns_h5_sweep_row));
    if (t < 0)
        return t;
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        const hid_t own = cols[i].type == 4 ? fixed_str(cols[i].len) : H5I_INVALID_HID;
        hid_t ty = cols[i].type == 0   ? str
                   : cols[i].type == 4 ? own
                   : cols[i].type == 1 ? (file ? H5T_STD_I64LE : H5T_NATIVE_INT64)
                   : cols[i].type == 2 ? (file ? H5T_STD_U8LE : H5T_NATIVE_UINT8)
                                       : (file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE);
        const herr_t in = ty < 0 ? -1 : H5Tinsert(t, cols[i].name, cols[i].off, ty);
        if (own >= 0)
            H5Tclose(own);
        if (in < 0) {
            H5Tclose(t);
            return H5I_INVALID_HID;
        }
    }
    if (file && H5Tpack(t) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

static hid_t params_str(void)
{
    return fixed_str(NS_H5_SWEEP_PARAMS_LEN);
}


void ns_h5_sweep_free(ns_h5_sweep *s)
{
    if (!s)
        return;
    free(s->rows);
    free(s);
}

static ns_err read_attr_str(hid_t f, const char *path, const char *name, char *buf, size_t len, ns_error *err)
{
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    if (a < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not a sweep file: no attribute %s", path, name);
    hid_t mt = H5Tcopy(H5T_C_S1);
    char *v = NULL;
    ns_err rc = NS_OK;
    if (mt < 0 || H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Aread(a, mt, &v) < 0 || !v)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read attribute %s (expected a string)", path, name);
    else
        snprintf(buf, len, "%s", v);
    if (v)
        H5free_memory(v);
    if (mt >= 0)
        H5Tclose(mt);
    H5Aclose(a);
    return rc;
}

/* a numeric root attribute read as mtype; what names the type expected */
static ns_err read_attr_num(hid_t f, const char *path, const char *name, hid_t mtype, void *v, const char *what,
                            ns_error *err)
{
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    if (a < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not a sweep file: no attribute %s", path, name);
    const herr_t s = H5Aread(a, mtype, v);
    if (H5Aclose(a) < 0 || s < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot read attribute %s (expected %s)", path, name, what);
    return NS_OK;
}

static ns_err read_attr_i64(hid_t f, const char *path, const char *name, int64_t *v, ns_error *err)
{
    return read_attr_num(f, path, name, H5T_NATIVE_INT64, v, "an integer", err);
}

ns_err ns_h5_sweep_read(const char *path, ns_h5_sweep **out, ns_error *err)
{
    ns_h5_quiet();
    *out = NULL;
    ns_err rc = NS_OK;
    ns_h5_sweep *s = calloc(1, sizeof *s);
    hid_t f = H5I_INVALID_HID, d = H5I_INVALID_HID, sp = H5I_INVALID_HID, str = H5I_INVALID_HID,
          mt = H5I_INVALID_HID;
    char kind[32] = "";
    int64_t piles = 0, size = 0, threads = 0;
    if (!s)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    if ((f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot open (expected an HDF5 file written by nimsieve sweep)", path);
        goto done;
    }
    if ((rc = read_attr_str(f, path, "kind", kind, sizeof kind, err)))
        goto done;
    if (strcmp(kind, "sweep") != 0) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: not a sweep file: kind is '%s' (expected 'sweep')", path, kind);
        goto done;
    }
    if ((rc = read_attr_str(f, path, "game", s->game, sizeof s->game, err)) ||
        (rc = read_attr_str(f, path, "ranges", s->ranges, sizeof s->ranges, err)) ||
        (rc = read_attr_str(f, path, "parameters", s->parameters, sizeof s->parameters, err)) ||
        (rc = read_attr_i64(f, path, "piles", &piles, err)) || (rc = read_attr_i64(f, path, "size", &size, err)) ||
        (rc = read_attr_i64(f, path, "threads", &threads, err)))
        goto done;
    s->piles = (int)piles;
    s->size = size;
    s->threads = (int)threads;
    if ((d = H5Dopen2(f, "/sweep", H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: not a sweep file: no dataset /sweep", path);
        goto done;
    }
    hsize_t dim = 0;
    if ((sp = H5Dget_space(d)) < 0 || H5Sget_simple_extent_ndims(sp) != 1 ||
        H5Sget_simple_extent_dims(sp, &dim, NULL) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: /sweep is not a 1-D table", path);
        goto done;
    }
    if ((str = params_str()) < 0 || (mt = row_type(0, str)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot make the row type of /sweep", path);
        goto done;
    }
    {
        /* a catalogue written before the analysis columns lacks them */
        const hid_t ft = H5Dget_type(d);
        s->analysed = ft >= 0 && H5Tget_member_index(ft, "checks") >= 0;
        if (ft >= 0)
            H5Tclose(ft);
    }
    s->n = (size_t)dim;
    if (!(s->rows = calloc(s->n ? s->n : 1, sizeof *s->rows))) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for /sweep (%zu rows)", path, s->n);
        goto done;
    }
    if (s->n && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, s->rows) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read /sweep (expected the columns params, size, p_positions, "
                        "preperiod, period, proven, slope_a, slope_b, seconds, group, max_value, saltus, complementary, beatty, "
                        "const_a, const_b, cf_a, cf_b, rows_additive, additive_pmax, checks)", path);
        goto done;
    }
    for (size_t i = 0; i < s->n; i++) {
        ns_h5_sweep_row *r = &s->rows[i];
        r->params[NS_H5_SWEEP_PARAMS_LEN - 1] = r->checks[NS_H5_SWEEP_CHECKS_LEN - 1] = '\0';
        r->const_a[NS_H5_SWEEP_CONST_LEN - 1] = r->const_b[NS_H5_SWEEP_CONST_LEN - 1] = '\0';
        r->cf_a[NS_H5_SWEEP_CONST_LEN - 1] = r->cf_b[NS_H5_SWEEP_CONST_LEN - 1] = '\0';
    }
    *out = s;
    s = NULL;
done:
    if (mt >= 0)
        H5Tclose(mt);
    if (str >= 0)
        H5Tclose(str);
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    if (f >= 0 && H5Fclose(f) < 0 && !rc) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close", path);
        ns_h5_sweep_free(*out);
        *out = NULL;
    }
    ns_h5_sweep_free(s);
    return rc;
}

/* ---- the catalogue written row by row ---- */

struct ns_h5_sweep_writer {
    char *path, *part;       /* owned */
    char *jpath;             /* the journal, path.part.rows; owned */
    int jfd;                 /* the journal, open for appending; -1: none */
    hid_t file, d, ft, mt, str, tables;
    uint64_t rows;           /* rows in /sweep */
    uint64_t unflushed;      /* rows since the last flush */
    ns_h5_sweep_row pend[NS_H5_SWEEP_FLUSH_ROWS]; /* those rows, for the journal */
    double last_flush;       /* monotonic seconds */
};

/* ---- the journal: the rows again, outside HDF5 ----
 *
 * A flush writes the .part's metadata (chunk index, dataset extent,
 * superblock) in place, so a kill in the middle of one can leave a .part
 * that HDF5 cannot open. Every flush therefore also appends the rows it
 * recorded to path.part.rows: a header naming the sweep (game, ranges,
 * parameters, piles, size, variants, keep_tables, the row's size in
 * bytes) and then one record a row (its bytes in this build's layout and
 * their Fletcher-32 sum). Appending never rewrites what is there: a kill
 * during an append leaves the rows before it and a torn last record,
 * which the reader drops. A resume whose .part opens rewrites the journal
 * from the .part's rows (it may lag a flush behind); one whose .part does
 * not open makes a new .part from the journal's rows (not for kept
 * tables: those were only in the .part). The journal goes with the
 * finished file's rename. */
enum { JOURNAL_VERSION = 1 };
static const char journal_magic[8] = {'N', 'S', 'S', 'W', 'E', 'E', 'P', 'J'};

typedef struct journal_head {
    char magic[8];
    uint32_t version, row_bytes;
    int64_t piles, size, variants, keep_tables;
    char game[NS_H5_SWEEP_TEXT_LEN], ranges[NS_H5_SWEEP_TEXT_LEN], parameters[NS_H5_SWEEP_TEXT_LEN];
} journal_head;

static void journal_head_of(const ns_h5_sweep *s, int keep_tables, journal_head *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, journal_magic, sizeof h->magic);
    h->version = JOURNAL_VERSION;
    h->row_bytes = (uint32_t)sizeof(ns_h5_sweep_row);
    h->piles = s->piles;
    h->size = s->size;
    h->variants = (int64_t)s->n;
    h->keep_tables = keep_tables != 0;
    snprintf(h->game, sizeof h->game, "%s", s->game);
    snprintf(h->ranges, sizeof h->ranges, "%s", s->ranges);
    snprintf(h->parameters, sizeof h->parameters, "%s", s->parameters);
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        const ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Append n rows (each with its sum) to the open journal. */
static ns_err journal_append(ns_h5_sweep_writer *w, const ns_h5_sweep_row *rows, uint64_t n, ns_error *err)
{
    for (uint64_t i = 0; i < n; i++) {
        unsigned char rec[sizeof(ns_h5_sweep_row) + 4];
        memcpy(rec, &rows[i], sizeof rows[i]);
        const uint32_t sum = ns_fletcher32(rec, sizeof rows[i]);
        memcpy(rec + sizeof rows[i], &sum, 4);
        if (write_all(w->jfd, rec, sizeof rec))
            return ns_error_set(err, NS_EIO, "%s: cannot write the journal %s: %s", w->path, w->jpath,
                                strerror(errno));
    }
    return NS_OK;
}

/* Write a new journal: its header and rows (n) into jpath.new, renamed
 * over jpath; it stays open for appending. */
static ns_err journal_start(ns_h5_sweep_writer *w, const ns_h5_sweep *s, int keep_tables, const ns_h5_sweep_row *rows,
                            uint64_t n, ns_error *err)
{
    if (w->jfd >= 0)
        close(w->jfd);
    char *tmp = ns_h5_path_plus(w->jpath, ".new");
    if (!tmp)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", w->path);
    journal_head h;
    journal_head_of(s, keep_tables, &h);
    const uint32_t sum = ns_fletcher32(&h, sizeof h);
    ns_err rc = NS_OK;
    w->jfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->jfd < 0 || write_all(w->jfd, &h, sizeof h) || write_all(w->jfd, &sum, 4))
        rc = ns_error_set(err, NS_EIO, "%s: cannot write the journal %s: %s", w->path, tmp, strerror(errno));
    if (!rc)
        rc = journal_append(w, rows, n, err);
    if (!rc && rename(tmp, w->jpath) != 0)
        rc = ns_error_set(err, NS_EIO, "%s: cannot rename %s to %s: %s", w->path, tmp, w->jpath, strerror(errno));
    if (rc) {
        if (w->jfd >= 0)
            close(w->jfd);
        w->jfd = -1;
        remove(tmp);
    }
    free(tmp);
    return rc;
}

/* Read the journal at jpath: its header into *h and its whole, intact
 * rows (*n; *rows owned, NULL when none). NS_EFORMAT when it is missing,
 * not a journal, or of another build's row layout. */
static ns_err journal_read(const char *jpath, journal_head *h, ns_h5_sweep_row **rows, uint64_t *n, ns_error *err)
{
    *rows = NULL;
    *n = 0;
    FILE *f = fopen(jpath, "rb");
    if (!f)
        return ns_error_set(err, NS_EFORMAT, "no journal %s: %s", jpath, strerror(errno));
    uint32_t sum = 0;
    ns_err rc = NS_OK;
    if (fread(h, sizeof *h, 1, f) != 1 || fread(&sum, 4, 1, f) != 1 || memcmp(h->magic, journal_magic, 8) != 0 ||
        sum != ns_fletcher32(h, sizeof *h))
        rc = ns_error_set(err, NS_EFORMAT, "%s: not a sweep journal (or its header is damaged)", jpath);
    else if (h->version != JOURNAL_VERSION || h->row_bytes != sizeof(ns_h5_sweep_row))
        rc = ns_error_set(err, NS_EFORMAT, "%s: a journal of version %u with rows of %u bytes (this build: %d and "
                          "%zu)", jpath, h->version, h->row_bytes, JOURNAL_VERSION, sizeof(ns_h5_sweep_row));
    uint64_t cap = 0;
    unsigned char rec[sizeof(ns_h5_sweep_row) + 4];
    while (!rc && fread(rec, sizeof rec, 1, f) == 1) {
        memcpy(&sum, rec + sizeof(ns_h5_sweep_row), 4);
        if (sum != ns_fletcher32(rec, sizeof(ns_h5_sweep_row)))
            break;  /* a torn last record: the rows before it stand */
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            ns_h5_sweep_row *r = realloc(*rows, (size_t)cap * sizeof *r);
            if (!r) {
                rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for %" PRIu64 " rows", jpath, cap);
                break;
            }
            *rows = r;
        }
        memcpy(&(*rows)[(*n)++], rec, sizeof(ns_h5_sweep_row));
    }
    fclose(f);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return rc;
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Write attribute name (created, or rewritten when it exists). */
static ns_err attr_set(hid_t obj, const char *path, const char *name, hid_t ftype, hid_t mtype, const void *v,
                       ns_error *err)
{
    const htri_t ex = H5Aexists(obj, name);
    if (ex < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot look up attribute %s", path, name);
    if (!ex)
        return ns_h5_attr_scalar(obj, path, name, ftype, mtype, v, err);
    const hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    const herr_t s = a >= 0 ? H5Awrite(a, mtype, v) : -1;
    if ((a >= 0 && H5Aclose(a) < 0) || s < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot rewrite attribute %s", path, name);
    return NS_OK;
}

static ns_err read_attr_f64(hid_t f, const char *path, const char *name, double *v, ns_error *err)
{
    return read_attr_num(f, path, name, H5T_NATIVE_DOUBLE, v, "a number", err);
}

static void writer_free(ns_h5_sweep_writer *w)
{
    if (!w)
        return;
    if (w->tables >= 0)
        H5Gclose(w->tables);
    if (w->d >= 0)
        H5Dclose(w->d);
    if (w->mt >= 0)
        H5Tclose(w->mt);
    if (w->ft >= 0)
        H5Tclose(w->ft);
    if (w->str >= 0)
        H5Tclose(w->str);
    if (w->file >= 0)
        H5Fclose(w->file);
    if (w->jfd >= 0)
        close(w->jfd);
    free(w->jpath);
    free(w->part);
    free(w->path);
    free(w);
}

static ns_err writer_new(const char *path, ns_h5_sweep_writer **out, ns_error *err)
{
    ns_h5_sweep_writer *w = calloc(1, sizeof *w);
    if (w) {
        w->file = w->d = w->ft = w->mt = w->str = w->tables = H5I_INVALID_HID;
        w->jfd = -1;
        w->path = ns_h5_path_plus(path, "");
        w->part = ns_h5_path_plus(path, ".part");
        w->jpath = ns_h5_path_plus(path, ".part.rows");
    }
    if (!w || !w->path || !w->part || !w->jpath) {
        writer_free(w);
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    }
    w->str = params_str();
    if (w->str < 0 || (w->ft = row_type(1, w->str)) < 0 || (w->mt = row_type(0, w->str)) < 0) {
        writer_free(w);
        return ns_h5_fail(err, NS_EIO, "%s: cannot make the row type of /sweep", path);
    }
    w->last_flush = mono_now();
    *out = w;
    return NS_OK;
}

static ns_err writer_flush(ns_h5_sweep_writer *w, ns_error *err)
{
    const int64_t done = (int64_t)w->rows;
    ns_err rc = attr_set(w->file, w->path, "variants_done", H5T_STD_I64LE, H5T_NATIVE_INT64, &done, err);
    if (rc)
        return rc;
    if (H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot flush %s", w->path, w->part);
    /* the rows this flush recorded, into the journal (none open: the
     * create's first flush, before the journal) */
    if (w->jfd >= 0 && (rc = journal_append(w, w->pend, w->unflushed, err)))
        return rc;
    w->unflushed = 0;
    w->last_flush = mono_now();
    return NS_OK;
}

/* The .part's file access: metadata only at a flush (ns_h5_stream_fapl);
 * its creation: freed space never reused, so what a flush recorded is
 * never overwritten before the next one. */
ns_err ns_h5_sweep_writer_create(const char *path, const ns_h5_sweep *s, int keep_tables,
                                 ns_h5_sweep_writer **out, ns_error *err)
{
    ns_h5_quiet();
    *out = NULL;
    ns_h5_sweep_writer *w = NULL;
    hid_t fapl = H5I_INVALID_HID, fcpl = H5I_INVALID_HID, sp = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;
    ns_err rc = writer_new(path, &w, err);
    if (rc)
        return rc;
    if ((fapl = ns_h5_stream_fapl(path, err)) < 0) {
        rc = err->code;
        goto fail;
    }
    if ((fcpl = H5Pcreate(H5P_FILE_CREATE)) < 0 ||
        H5Pset_file_space_strategy(fcpl, H5F_FSPACE_STRATEGY_NONE, 0, (hsize_t)1) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot set up the file creation properties", path);
        goto fail;
    }
    errno = 0;
    if ((w->file = H5Fcreate(w->part, H5F_ACC_TRUNC, fcpl, fapl)) < 0) {
        rc = errno ? ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", path, w->part, strerror(errno))
                   : ns_h5_fail(err, NS_EIO, "%s: cannot create %s", path, w->part);
        goto fail;
    }
    /* /sweep: extendible, chunked, no filters (a chunk is rewritten in
     * place as rows are added, never moved) */
    const hsize_t dim = 0, maxdim = H5S_UNLIMITED, chunk = 256;
    if ((sp = H5Screate_simple(1, &dim, &maxdim)) < 0 || (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_chunk(dcpl, 1, &chunk) < 0 ||
        (w->d = H5Dcreate2(w->file, "/sweep", w->ft, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot create dataset /sweep in %s", path, w->part);
        goto fail;
    }
    if (keep_tables && (w->tables = H5Gcreate2(w->file, "/tables", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot create group /tables in %s", path, w->part);
        goto fail;
    }
    const double zero = 0;
    if ((rc = ns_h5_attr_text(w->file, path, "kind", "sweep", err)) ||
        (rc = ns_h5_attr_text(w->file, path, "game", s->game, err)) ||
        (rc = ns_h5_attr_text(w->file, path, "ranges", s->ranges, err)) ||
        (rc = ns_h5_attr_text(w->file, path, "parameters", s->parameters, err)) ||
        (rc = ns_h5_attr_i64(w->file, path, "piles", s->piles, err)) ||
        (rc = ns_h5_attr_i64(w->file, path, "size", s->size, err)) ||
        (rc = ns_h5_attr_i64(w->file, path, "variants", (int64_t)s->n, err)) ||
        (rc = ns_h5_attr_i64(w->file, path, "threads", s->threads, err)) ||
        (rc = ns_h5_attr_i64(w->file, path, "keep_tables", keep_tables != 0, err)) ||
        (s->mpi_ranks > 0 && (rc = ns_h5_attr_i64(w->file, path, "mpi_ranks", s->mpi_ranks, err))) ||
        (rc = attr_set(w->file, path, "wall_seconds", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &zero, err)) ||
        (rc = ns_h5_attr_provenance(w->file, path, err)) || (rc = writer_flush(w, err)) ||
        (rc = journal_start(w, s, keep_tables, NULL, 0, err)))
        goto fail;
    H5Pclose(dcpl);
    H5Sclose(sp);
    H5Pclose(fcpl);
    H5Pclose(fapl);
    *out = w;
    return NS_OK;
fail:
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
    char *part = w->part;
    w->part = NULL;
    remove(part);
    free(part);
    if (w->jfd >= 0)
        remove(w->jpath);
    writer_free(w);
    return rc;
}

/* NS_OK when the .part's attribute name equals want, else NS_EINVAL with
 * a line naming both */
static ns_err same_text(hid_t f, const char *part, const char *name, const char *want, ns_error *err)
{
    char have[NS_H5_SWEEP_TEXT_LEN];
    ns_err rc = read_attr_str(f, part, name, have, sizeof have, err);
    if (rc)
        return rc;
    if (strcmp(have, want) != 0)
        return ns_error_set(err, NS_EINVAL, "%s: the interrupted sweep there has %s '%s', this command "
                            "'%s': give the same, or --force to start over", part, name, have, want);
    return NS_OK;
}

static ns_err same_i64(hid_t f, const char *part, const char *name, int64_t want, ns_error *err)
{
    int64_t have = 0;
    ns_err rc = read_attr_i64(f, part, name, &have, err);
    if (rc)
        return rc;
    if (have != want)
        return ns_error_set(err, NS_EINVAL, "%s: the interrupted sweep there has %s %" PRId64 ", this command %"
                            PRId64 ": give the same, or --force to start over", part, name, have, want);
    return NS_OK;
}

/* The rows of /sweep (w->rows of them) into *out (owned; NULL when none). */
static ns_err part_rows(ns_h5_sweep_writer *w, ns_h5_sweep_row **out, ns_error *err)
{
    *out = NULL;
    if (!w->rows)
        return NS_OK;
    ns_h5_sweep_row *rows = malloc((size_t)w->rows * sizeof *rows);
    if (!rows)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory for %" PRIu64 " rows", w->part, w->rows);
    if (H5Dread(w->d, w->mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0) {
        free(rows);
        return ns_h5_fail(err, NS_EIO, "%s: cannot read /sweep", w->part);
    }
    *out = rows;
    return NS_OK;
}

/* The reopen of a .part HDF5 opens (*unopenable 0), or not (1, err says
 * so): ns_h5_sweep_writer_reopen's first way. */
static ns_err reopen_part(const char *path, const ns_h5_sweep *s, int keep_tables, uint64_t *done,
                          double *prior_seconds, int *unopenable, ns_h5_sweep_writer **out, ns_error *err)
{
    *unopenable = 0;
    ns_h5_sweep_writer *w = NULL;
    hid_t fapl = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    char kind[32] = "";
    ns_err rc = writer_new(path, &w, err);
    if (rc)
        return rc;
    if ((fapl = ns_h5_stream_fapl(path, err)) < 0) {
        rc = err->code;
        goto fail;
    }
    if ((w->file = H5Fopen(w->part, H5F_ACC_RDWR, fapl)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot open (expected the .part of an interrupted nimsieve sweep)",
                        w->part);
        *unopenable = 1;
        goto fail;
    }
    if ((rc = read_attr_str(w->file, w->part, "kind", kind, sizeof kind, err)))
        goto fail;
    if (strcmp(kind, "sweep") != 0) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: not a sweep file: kind is '%s' (expected 'sweep')", w->part, kind);
        goto fail;
    }
    if ((rc = same_text(w->file, w->part, "game", s->game, err)) ||
        (rc = same_text(w->file, w->part, "ranges", s->ranges, err)) ||
        (rc = same_text(w->file, w->part, "parameters", s->parameters, err)) ||
        (rc = same_i64(w->file, w->part, "piles", s->piles, err)) ||
        (rc = same_i64(w->file, w->part, "size", s->size, err)) ||
        (rc = same_i64(w->file, w->part, "variants", (int64_t)s->n, err)))
        goto fail;
    int64_t kept = 0;
    if ((rc = read_attr_i64(w->file, w->part, "keep_tables", &kept, err)) ||
        (rc = read_attr_f64(w->file, w->part, "wall_seconds", prior_seconds, err)))
        goto fail;
    if ((kept != 0) != (keep_tables != 0)) {
        rc = ns_error_set(err, NS_EINVAL, "%s: an interrupted sweep %s --keep-tables: %s it, or --force to start over",
                          w->part, kept ? "with" : "without", kept ? "add" : "drop");
        goto fail;
    }
    hsize_t dim = 0;
    if ((w->d = H5Dopen2(w->file, "/sweep", H5P_DEFAULT)) < 0 || (sp = H5Dget_space(w->d)) < 0 ||
        H5Sget_simple_extent_ndims(sp) != 1 || H5Sget_simple_extent_dims(sp, &dim, NULL) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: no 1-D table /sweep; --force starts over", w->part);
        goto fail;
    }
    if (dim > (hsize_t)s->n) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: /sweep holds %llu rows, more than the %zu variants", w->part,
                          (unsigned long long)dim, s->n);
        goto fail;
    }
    w->rows = dim;
    /* mpi_ranks: the ranks of the run that finishes the file (none in a
     * single-process build) */
    if (s->mpi_ranks > 0) {
        const int64_t r = s->mpi_ranks;
        if ((rc = attr_set(w->file, w->part, "mpi_ranks", H5T_STD_I64LE, H5T_NATIVE_INT64, &r, err)))
            goto fail;
    } else {
        const htri_t ex = H5Aexists(w->file, "mpi_ranks");
        if (ex < 0 || (ex > 0 && H5Adelete(w->file, "mpi_ranks") < 0)) {
            rc = ns_h5_fail(err, NS_EIO, "%s: cannot remove the attribute mpi_ranks", w->part);
            goto fail;
        }
    }
    if (keep_tables) {
        char name[32];
        snprintf(name, sizeof name, "v%07llu", (unsigned long long)w->rows);
        htri_t ex = -1;
        if ((w->tables = H5Gopen2(w->file, "/tables", H5P_DEFAULT)) < 0 || (ex = H5Lexists(w->tables, name, H5P_DEFAULT)) < 0 ||
            (ex > 0 && H5Ldelete(w->tables, name, H5P_DEFAULT) < 0)) {
            rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot open /tables or remove a table without its row", w->part);
            goto fail;
        }
    }
    /* the journal again, from the .part's rows (it may lag a flush) */
    ns_h5_sweep_row *rows = NULL;
    if ((rc = part_rows(w, &rows, err)) || (rc = journal_start(w, s, keep_tables, rows, w->rows, err))) {
        free(rows);
        goto fail;
    }
    free(rows);
    H5Sclose(sp);
    H5Pclose(fapl);
    *done = w->rows;
    *out = w;
    return NS_OK;
fail:
    if (sp >= 0)
        H5Sclose(sp);
    if (fapl >= 0)
        H5Pclose(fapl);
    writer_free(w);
    return rc;
}

/* NS_OK when the journal's sweep is s (and keep_tables), else NS_EINVAL
 * with a line naming what differs, as the .part's attributes would. */
static ns_err journal_same(const char *jpath, const journal_head *h, const ns_h5_sweep *s, int keep_tables,
                           ns_error *err)
{
    const struct {
        const char *name, *have, *want;
    } t[] = {{"game", h->game, s->game}, {"ranges", h->ranges, s->ranges}, {"parameters", h->parameters, s->parameters}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strncmp(t[i].have, t[i].want, NS_H5_SWEEP_TEXT_LEN) != 0)
            return ns_error_set(err, NS_EINVAL, "%s: the interrupted sweep there has %s '%.*s', this command '%s': "
                                "give the same, or --force to start over", jpath, t[i].name,
                                (int)NS_H5_SWEEP_TEXT_LEN, t[i].have, t[i].want);
    const struct {
        const char *name;
        int64_t have, want;
    } v[] = {{"piles", h->piles, s->piles}, {"size", h->size, s->size}, {"variants", h->variants, (int64_t)s->n}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (v[i].have != v[i].want)
            return ns_error_set(err, NS_EINVAL, "%s: the interrupted sweep there has %s %" PRId64 ", this command %"
                                PRId64 ": give the same, or --force to start over", jpath, v[i].name, v[i].have,
                                v[i].want);
    if ((h->keep_tables != 0) != (keep_tables != 0))
        return ns_error_set(err, NS_EINVAL, "%s: an interrupted sweep %s --keep-tables: %s it, or --force to start "
                            "over", jpath, h->keep_tables ? "with" : "without", h->keep_tables ? "add" : "drop");
    return NS_OK;
}

ns_err ns_h5_sweep_writer_reopen(const char *path, const ns_h5_sweep *s, int keep_tables, uint64_t *done,
                                 double *prior_seconds, int *rebuilt, ns_h5_sweep_writer **out, ns_error *err)
{
    ns_h5_quiet();
    *out = NULL;
    *done = 0;
    *prior_seconds = 0;
    *rebuilt = 0;
    int unopenable = 0;
    ns_err rc = reopen_part(path, s, keep_tables, done, prior_seconds, &unopenable, out, err);
    if (!rc || !unopenable)
        return rc;
    /* the .part does not open: its rows from the journal, into a new one */
    char *jpath = ns_h5_path_plus(path, ".part.rows");
    if (!jpath)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    journal_head h;
    ns_h5_sweep_row *rows = NULL;
    uint64_t n = 0;
    ns_error jerr = {0};
    if (journal_read(jpath, &h, &rows, &n, &jerr)) {
        /* err keeps the .part's error; the journal's is added */
        char first[sizeof err->msg];
        snprintf(first, sizeof first, "%s", err->msg);
        rc = ns_error_set(err, NS_EIO, "%s, and %s: --force starts over", first, jerr.msg);
    } else if ((rc = journal_same(jpath, &h, s, keep_tables, err))) {
        /* err says what differs */
    } else if (keep_tables) {
        rc = ns_error_set(err, NS_EIO, "%s.part: cannot open (damaged?); its journal %s keeps the %" PRIu64 " rows "
                          "done but not their kept tables: --force starts over", path, jpath, n);
    } else if (n > (uint64_t)s->n) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: %" PRIu64 " rows, more than the %zu variants", jpath, n, s->n);
    } else {
        ns_h5_sweep_writer *w = NULL;
        rc = ns_h5_sweep_writer_create(path, s, keep_tables, &w, err);
        for (uint64_t i = 0; !rc && i < n; i++)
            rc = ns_h5_sweep_writer_append(w, &rows[i], err);
        if (!rc)
            rc = writer_flush(w, err);
        if (rc) {
            writer_free(w);
        } else {
            *done = n;
            *rebuilt = 1;
            *out = w;
        }
    }
    free(rows);
    free(jpath);
    return rc;
}

uint64_t ns_h5_sweep_writer_rows(const ns_h5_sweep_writer *w)
{
    return w->rows;
}

ns_err ns_h5_sweep_writer_groups(ns_h5_sweep_writer *w, int64_t *group, ns_error *err)
{
    ns_h5_sweep_row *rows = NULL;
    ns_err rc = part_rows(w, &rows, err);
    for (uint64_t i = 0; !rc && i < w->rows; i++)
        group[i] = rows[i].group;
    free(rows);
    return rc;
}

ns_err ns_h5_sweep_writer_append(ns_h5_sweep_writer *w, const ns_h5_sweep_row *row, ns_error *err)
{
    const hsize_t start = w->rows, one = 1, dim = w->rows + 1;
    hid_t fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    if (H5Dset_extent(w->d, &dim) < 0 || (fs = H5Dget_space(w->d)) < 0 || (ms = H5Screate_simple(1, &one, NULL)) < 0 ||
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &one, NULL) < 0 ||
        H5Dwrite(w->d, w->mt, ms, fs, H5P_DEFAULT, row) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot append row %llu to /sweep in %s", w->path, (unsigned long long)start,
                        w->part);
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    if (rc)
        return rc;
    w->rows++;
    w->pend[w->unflushed++] = *row;
    if (w->unflushed >= NS_H5_SWEEP_FLUSH_ROWS || mono_now() - w->last_flush >= NS_H5_SWEEP_FLUSH_SECONDS)
        return writer_flush(w, err);
    return NS_OK;
}

ns_err ns_h5_sweep_writer_table(ns_h5_sweep_writer *w, uint64_t i, const char *params, const ns_table *t,
                                ns_error *err)
{
    if (w->tables < 0)
        return ns_error_set(err, NS_EINVAL, "%s: tables are kept only with --keep-tables", w->path);
    if (t->k != 1 && t->k != 2)
        return ns_error_set(err, NS_EINVAL, "%s: variant %" PRIu64 ": a table of %d piles (expected 1 or 2)", w->path,
                            i, t->k);
    uint32_t mx = 0;
    for (uint64_t c = 0; c < t->ncells; c++) {
        const uint32_t v = ns_table_get(t, c);
        mx = v > mx ? v : mx;
    }
    const hid_t ftype = mx <= 0xFFu ? H5T_STD_U8LE : mx <= 0xFFFFu ? H5T_STD_U16LE : H5T_STD_U32LE;
    const hid_t mtype = t->elem == 1 ? H5T_NATIVE_UINT8 : t->elem == 2 ? H5T_NATIVE_UINT16 : H5T_NATIVE_UINT32;
    hsize_t dims[2], chunk[2];
    for (int d = 0; d < t->k; d++)
        dims[d] = (hsize_t)t->bounds[d];
    ns_h5_chunk_shape(t->k, dims, NS_H5_CHUNK_BYTES / (hsize_t)H5Tget_size(ftype), chunk);
    char name[32];
    snprintf(name, sizeof name, "v%07" PRIu64, i);
    const hid_t d = ns_h5_create_chunked(w->tables, w->path, name, ftype, t->k, dims, NULL, chunk, NULL, err);
    if (d < 0)
        return err->code ? err->code : NS_EIO;
    ns_err rc = NS_OK;
    if (t->ncells && H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, t->data) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write /tables/%s", w->path, name);
    if (!rc)
        rc = ns_h5_attr_text(d, w->path, "params", params, err);
    if (!rc)
        rc = ns_h5_attr_i64(d, w->path, "variant", (int64_t)i, err);
    if (H5Dclose(d) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close /tables/%s", w->path, name);
    return rc;
}

static ns_err writer_end(ns_h5_sweep_writer *w, double wall_seconds, ns_error *err)
{
    ns_err rc = attr_set(w->file, w->path, "wall_seconds", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &wall_seconds, err);
    if (!rc)
        rc = writer_flush(w, err);
    return rc;
}

ns_err ns_h5_sweep_writer_finish(ns_h5_sweep_writer *w, double wall_seconds, int threads, ns_error *err)
{
    const int64_t th = threads;
    ns_err rc = attr_set(w->file, w->path, "threads", H5T_STD_I64LE, H5T_NATIVE_INT64, &th, err);
    if (!rc)
        rc = writer_end(w, wall_seconds, err);
    const hid_t f = w->file;
    w->file = H5I_INVALID_HID;
    if (w->tables >= 0)
        H5Gclose(w->tables);
    if (w->d >= 0)
        H5Dclose(w->d);
    w->tables = w->d = H5I_INVALID_HID;
    if (H5Fclose(f) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close %s", w->path, w->part);
    if (!rc && rename(w->part, w->path) != 0)
        rc = ns_error_set(err, NS_EIO, "%s: cannot rename %s to it: %s", w->path, w->part, strerror(errno));
    if (!rc)
        remove(w->jpath);
    writer_free(w);
    return rc;
}

ns_err ns_h5_sweep_writer_close(ns_h5_sweep_writer *w, double wall_seconds, ns_error *err)
{
    if (!w)
        return NS_OK;
    ns_err rc = writer_end(w, wall_seconds, err);
    writer_free(w);
    return rc;
}
