/* ns_h5_sweep.c - see ns_h5_sweep.h. Part of the HDF5 layer. */
#include "store/ns_h5_sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/ns_table.h"

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
    hid_t file, d, ft, mt, str, tables;
    uint64_t rows;           /* rows in /sweep */
    uint64_t unflushed;      /* rows since the last flush */
    double last_flush;       /* monotonic seconds */
};

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
    free(w->part);
    free(w->path);
    free(w);
}

static ns_err writer_new(const char *path, ns_h5_sweep_writer **out, ns_error *err)
{
    ns_h5_sweep_writer *w = calloc(1, sizeof *w);
    const size_t len = strlen(path);
    if (w) {
        w->file = w->d = w->ft = w->mt = w->str = w->tables = H5I_INVALID_HID;
        w->path = strdup(path);
        w->part = malloc(len + sizeof ".part");
    }
    if (!w || !w->path || !w->part) {
        writer_free(w);
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    }
    memcpy(w->part, path, len + 1);
    memcpy(w->part + len, ".part", sizeof ".part");
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
        (rc = ns_h5_attr_provenance(w->file, path, err)) || (rc = writer_flush(w, err)))
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
    writer_free(w);
    remove(part);
    free(part);
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

ns_err ns_h5_sweep_writer_reopen(const char *path, const ns_h5_sweep *s, int keep_tables, uint64_t *done,
                                 double *prior_seconds, ns_h5_sweep_writer **out, ns_error *err)
{
    ns_h5_quiet();
    *out = NULL;
    *done = 0;
    *prior_seconds = 0;
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
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot open (expected the .part of an interrupted nimsieve sweep); "
                        "--force starts over", w->part);
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

uint64_t ns_h5_sweep_writer_rows(const ns_h5_sweep_writer *w)
{
    return w->rows;
}

ns_err ns_h5_sweep_writer_groups(ns_h5_sweep_writer *w, int64_t *group, ns_error *err)
{
    if (!w->rows)
        return NS_OK;
    ns_h5_sweep_row *rows = malloc((size_t)w->rows * sizeof *rows);
    if (!rows)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory for %" PRIu64 " rows", w->part, w->rows);
    ns_err rc = NS_OK;
    if (H5Dread(w->d, w->mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot read /sweep", w->part);
    else
        for (uint64_t i = 0; i < w->rows; i++)
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
    w->unflushed++;
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
