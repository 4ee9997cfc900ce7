/* ns_h5_census.c - see ns_h5_census.h. Part of the HDF5 layer. */
#include "store/ns_h5_census.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

typedef struct census_row {
    char code[NS_H5_CENSUS_CODE_LEN];
    int64_t period, preperiod;
    uint8_t proven;
    uint32_t max_value;
    int64_t group;
    int64_t saltus;
} census_row;

typedef struct cw {
    hid_t file;
    const char *path;
    ns_error *err;
} cw;

/* the compound type of a row: file (little-endian) or memory (native) */
static hid_t row_type(int file, hid_t str)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(census_row));
    if (t < 0)
        return t;
    const hid_t i64 = file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    if (H5Tinsert(t, "code", HOFFSET(census_row, code), str) < 0 ||
        H5Tinsert(t, "period", HOFFSET(census_row, period), i64) < 0 ||
        H5Tinsert(t, "preperiod", HOFFSET(census_row, preperiod), i64) < 0 ||
        H5Tinsert(t, "proven", HOFFSET(census_row, proven), file ? H5T_STD_U8LE : H5T_NATIVE_UINT8) < 0 ||
        H5Tinsert(t, "max_value", HOFFSET(census_row, max_value), file ? H5T_STD_U32LE : H5T_NATIVE_UINT32) < 0 ||
        H5Tinsert(t, "group", HOFFSET(census_row, group), i64) < 0 ||
        H5Tinsert(t, "saltus", HOFFSET(census_row, saltus), i64) < 0 || (file && H5Tpack(t) < 0)) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

static ns_err write_table(cw *w, const ns_h5_census_cols *c)
{
    ns_err rc = NS_OK;
    census_row *rows = calloc(c->n ? c->n : 1, sizeof *rows);
    hid_t str = H5I_INVALID_HID, ft = H5I_INVALID_HID, mt = H5I_INVALID_HID, space = H5I_INVALID_HID,
          d = H5I_INVALID_HID;
    if (!rows)
        return ns_error_set(w->err, NS_ENOMEM, "%s: out of memory for /census", w->path);
    for (size_t i = 0; i < c->n; i++) {
        memcpy(rows[i].code, c->code[i], NS_H5_CENSUS_CODE_LEN);
        rows[i].code[NS_H5_CENSUS_CODE_LEN - 1] = '\0';
        rows[i].period = c->period[i];
        rows[i].preperiod = c->preperiod[i];
        rows[i].proven = c->proven[i];
        rows[i].max_value = c->max_value[i];
        rows[i].group = c->group[i];
        rows[i].saltus = c->saltus ? c->saltus[i] : 0;
    }
    const hsize_t dim = (hsize_t)c->n;
    if ((str = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(str, NS_H5_CENSUS_CODE_LEN) < 0 ||
        H5Tset_strpad(str, H5T_STR_NULLTERM) < 0 || (ft = row_type(1, str)) < 0 || (mt = row_type(0, str)) < 0 ||
        (space = H5Screate_simple(1, &dim, NULL)) < 0) {
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot make the row type of /census", w->path);
        goto done;
    }
    if ((d = H5Dcreate2(w->file, "/census", ft, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot create dataset /census", w->path);
        goto done;
    }
    if (c->n && H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot write dataset /census", w->path);
done:
    if (d >= 0 && H5Dclose(d) < 0 && !rc)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot close dataset /census", w->path);
    if (space >= 0)
        H5Sclose(space);
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (str >= 0)
        H5Tclose(str);
    free(rows);
    return rc;
}

ns_err ns_h5_census_write(const char *path, const ns_h5_census_cols *c, ns_error *err)
{
    ns_h5_quiet();
    ns_err rc = NS_OK;
    cw w = {.file = H5I_INVALID_HID, .path = path, .err = err};
    char *part = ns_h5_path_plus(path, ".part");
    if (!part)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    errno = 0;
    if ((w.file = H5Fcreate(part, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        rc = errno ? ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", path, part, strerror(errno))
                   : ns_h5_fail(err, NS_EIO, "%s: cannot create %s", path, part);
        goto fail;
    }
    const hid_t fa = w.file;
    if ((rc = write_table(&w, c)) || (rc = ns_h5_attr_text(fa, path, "kind", "census", err)) ||
        (rc = ns_h5_attr_i64(fa, path, "digits", c->digits, err)) ||
        (rc = ns_h5_attr_i64(fa, path, "size", c->size, err)) ||
        (rc = ns_h5_attr_i64(fa, path, "codes", (int64_t)c->n, err)) ||
        (rc = ns_h5_attr_i64(fa, path, "groups", (int64_t)c->ngroups, err)) ||
        (rc = ns_h5_attr_i64(fa, path, "proven", (int64_t)c->nproven, err)) ||
        (rc = ns_h5_attr_i64(fa, path, "threads", c->threads, err)) ||
        (rc = ns_h5_attr_scalar(fa, path, "wall_seconds", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &c->wall_seconds, err)) ||
        (c->mpi_ranks > 0 && (rc = ns_h5_attr_i64(fa, path, "mpi_ranks", c->mpi_ranks, err))) ||
        (rc = ns_h5_attr_provenance(fa, path, err)))
        goto fail;
    const hid_t f = w.file;
    w.file = H5I_INVALID_HID;
    if (H5Fclose(f) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close %s", path, part);
        goto fail;
    }
    if (rename(part, path) != 0) {
        rc = ns_error_set(err, NS_EIO, "%s: cannot rename %s to it: %s", path, part, strerror(errno));
        goto fail;
    }
    free(part);
    return NS_OK;
fail:
    if (w.file >= 0)
        H5Fclose(w.file);
    remove(part);
    free(part);
    return rc;
}

int ns_h5_census_probe(const char *path)
{
    ns_h5_quiet();
    int yes = 0;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return 0;
    if (H5Aexists(f, "kind") > 0) {
        hid_t a = H5Aopen(f, "kind", H5P_DEFAULT);
        hid_t t = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
        if (t >= 0 && H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) > 0) {
            char *v = NULL;
            hid_t mt = H5Tcopy(H5T_C_S1);
            if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(a, mt, &v) >= 0 && v) {
                yes = strcmp(v, "census") == 0;
                H5free_memory(v);
            }
            if (mt >= 0)
                H5Tclose(mt);
        }
        if (t >= 0)
            H5Tclose(t);
        if (a >= 0)
            H5Aclose(a);
    }
    H5Fclose(f);
    return yes;
}

void ns_h5_census_table_free(ns_h5_census_table *t)
{
    if (!t)
        return;
    free(t->code);
    free(t->period);
    free(t->preperiod);
    free(t->group);
    free(t->saltus);
    free(t->proven);
    free(t->max_value);
    free(t);
}

static ns_err read_i64_attr(hid_t f, const char *path, const char *name, int64_t *v, ns_error *err)
{
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    if (a < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not a census file: no attribute %s", path, name);
    const herr_t s = H5Aread(a, H5T_NATIVE_INT64, v);
    if (H5Aclose(a) < 0 || s < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot read attribute %s (expected an integer)", path, name);
    return NS_OK;
}

ns_err ns_h5_census_read(const char *path, ns_h5_census_table **out, ns_error *err)
{
    ns_h5_quiet();
    *out = NULL;
    ns_err rc = NS_OK;
    census_row *rows = NULL;
    ns_h5_census_table *t = NULL;
    hid_t f = H5I_INVALID_HID, d = H5I_INVALID_HID, space = H5I_INVALID_HID, str = H5I_INVALID_HID,
          mt = H5I_INVALID_HID;
    int64_t digits = 0, size = 0;
    if ((f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot open (expected an HDF5 file written by nimsieve census)", path);
        goto done;
    }
    if ((rc = read_i64_attr(f, path, "digits", &digits, err)) || (rc = read_i64_attr(f, path, "size", &size, err)))
        goto done;
    if ((d = H5Dopen2(f, "/census", H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: not a census file: no dataset /census", path);
        goto done;
    }
    hsize_t dim = 0;
    if ((space = H5Dget_space(d)) < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
        H5Sget_simple_extent_dims(space, &dim, NULL) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: /census is not a 1-D table", path);
        goto done;
    }
    if ((str = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(str, NS_H5_CENSUS_CODE_LEN) < 0 ||
        H5Tset_strpad(str, H5T_STR_NULLTERM) < 0 || (mt = row_type(0, str)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot make the row type of /census", path);
        goto done;
    }
    const size_t n = (size_t)dim;
    t = calloc(1, sizeof *t);
    rows = calloc(n ? n : 1, sizeof *rows);
    if (!t || !rows || !(t->code = calloc(n ? n : 1, sizeof *t->code)) ||
        !(t->period = calloc(n ? n : 1, sizeof *t->period)) ||
        !(t->preperiod = calloc(n ? n : 1, sizeof *t->preperiod)) ||
        !(t->group = calloc(n ? n : 1, sizeof *t->group)) || !(t->saltus = calloc(n ? n : 1, sizeof *t->saltus)) ||
        !(t->proven = calloc(n ? n : 1, sizeof *t->proven)) ||
        !(t->max_value = calloc(n ? n : 1, sizeof *t->max_value))) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for /census (%zu rows)", path, n);
        goto done;
    }
    if (n && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read /census (expected the columns code, period, preperiod, "
                        "proven, max_value, group, saltus)", path);
        goto done;
    }
    t->digits = (int)digits;
    t->size = size;
    t->n = n;
    for (size_t i = 0; i < n; i++) {
        memcpy(t->code[i], rows[i].code, NS_H5_CENSUS_CODE_LEN);
        t->code[i][NS_H5_CENSUS_CODE_LEN - 1] = '\0';
        t->period[i] = rows[i].period;
        t->preperiod[i] = rows[i].preperiod;
        t->proven[i] = rows[i].proven;
        t->max_value[i] = rows[i].max_value;
        t->group[i] = rows[i].group;
        t->saltus[i] = rows[i].saltus;
    }
    *out = t;
    t = NULL;
done:
    if (mt >= 0)
        H5Tclose(mt);
    if (str >= 0)
        H5Tclose(str);
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    if (f >= 0 && H5Fclose(f) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close", path);
    if (rc && *out) {
        ns_h5_census_table_free(*out);
        *out = NULL;
    }
    ns_h5_census_table_free(t);
    free(rows);
    return rc;
}
