/* ns_h5_sweep.c - see ns_h5_sweep.h. Part of the HDF5 layer. */
#include "store/ns_h5_sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

/* The row's columns described as data: name, offset, file and memory type. */
typedef struct col {
    const char *name;
    size_t off;
    int type;   /* 0: the params string, 1: int64, 2: uint8, 3: double */
} col;

static const col cols[] = {
    {"params", offsetof(ns_h5_sweep_row, params), 0},
    {"size", offsetof(ns_h5_sweep_row, size), 1},
    {"p_positions", offsetof(ns_h5_sweep_row, p_positions), 1},
    {"preperiod", offsetof(ns_h5_sweep_row, preperiod), 1},
    {"period", offsetof(ns_h5_sweep_row, period), 1},
    {"proven", offsetof(ns_h5_sweep_row, proven), 2},
    {"slope_a", offsetof(ns_h5_sweep_row, slope_a), 3},
    {"slope_b", offsetof(ns_h5_sweep_row, slope_b), 3},
    {"seconds", offsetof(ns_h5_sweep_row, seconds), 3},
};

static hid_t row_type(int file, hid_t str)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(ns_h5_sweep_row));
    if (t < 0)
        return t;
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        hid_t ty = cols[i].type == 0   ? str
                   : cols[i].type == 1 ? (file ? H5T_STD_I64LE : H5T_NATIVE_INT64)
                   : cols[i].type == 2 ? (file ? H5T_STD_U8LE : H5T_NATIVE_UINT8)
                                       : (file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE);
        if (H5Tinsert(t, cols[i].name, cols[i].off, ty) < 0) {
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
    hid_t s = H5Tcopy(H5T_C_S1);
    if (s >= 0 && (H5Tset_size(s, NS_H5_SWEEP_PARAMS_LEN) < 0 || H5Tset_strpad(s, H5T_STR_NULLTERM) < 0)) {
        H5Tclose(s);
        return H5I_INVALID_HID;
    }
    return s;
}

static ns_err write_rows(hid_t f, const char *path, const ns_h5_sweep *s, ns_error *err)
{
    ns_err rc = NS_OK;
    hid_t str = params_str(), ft = H5I_INVALID_HID, mt = H5I_INVALID_HID, sp = H5I_INVALID_HID,
          d = H5I_INVALID_HID;
    const hsize_t dim = (hsize_t)s->n;
    if (str < 0 || (ft = row_type(1, str)) < 0 || (mt = row_type(0, str)) < 0 ||
        (sp = H5Screate_simple(1, &dim, NULL)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot make the row type of /sweep", path);
        goto done;
    }
    if ((d = H5Dcreate2(f, "/sweep", ft, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot create dataset /sweep", path);
        goto done;
    }
    if (s->n && H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, s->rows) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write dataset /sweep", path);
done:
    if (d >= 0 && H5Dclose(d) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close dataset /sweep", path);
    if (sp >= 0)
        H5Sclose(sp);
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (str >= 0)
        H5Tclose(str);
    return rc;
}

ns_err ns_h5_sweep_write(const char *path, const ns_h5_sweep *s, ns_error *err)
{
    ns_h5_quiet();
    ns_err rc = NS_OK;
    hid_t f = H5I_INVALID_HID;
    const size_t len = strlen(path);
    char *part = malloc(len + sizeof ".part");
    if (!part)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    memcpy(part, path, len);
    memcpy(part + len, ".part", sizeof ".part");
    errno = 0;
    if ((f = H5Fcreate(part, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        rc = errno ? ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", path, part, strerror(errno))
                   : ns_h5_fail(err, NS_EIO, "%s: cannot create %s", path, part);
        goto fail;
    }
    if ((rc = write_rows(f, path, s, err)) || (rc = ns_h5_attr_text(f, path, "kind", "sweep", err)) ||
        (rc = ns_h5_attr_text(f, path, "game", s->game, err)) || (rc = ns_h5_attr_text(f, path, "ranges", s->ranges, err)) ||
        (rc = ns_h5_attr_text(f, path, "parameters", s->parameters, err)) ||
        (rc = ns_h5_attr_i64(f, path, "piles", s->piles, err)) || (rc = ns_h5_attr_i64(f, path, "size", s->size, err)) ||
        (rc = ns_h5_attr_i64(f, path, "variants", (int64_t)s->n, err)) ||
        (rc = ns_h5_attr_i64(f, path, "threads", s->threads, err)) ||
        (rc = ns_h5_attr_scalar(f, path, "wall_seconds", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &s->wall_seconds, err)) ||
        (s->mpi_ranks > 0 && (rc = ns_h5_attr_i64(f, path, "mpi_ranks", s->mpi_ranks, err))) ||
        (rc = ns_h5_attr_provenance(f, path, err)))
        goto fail;
    const hid_t ff = f;
    f = H5I_INVALID_HID;
    if (H5Fclose(ff) < 0) {
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
    if (f >= 0)
        H5Fclose(f);
    remove(part);
    free(part);
    return rc;
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

static ns_err read_attr_i64(hid_t f, const char *path, const char *name, int64_t *v, ns_error *err)
{
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    if (a < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not a sweep file: no attribute %s", path, name);
    const herr_t s = H5Aread(a, H5T_NATIVE_INT64, v);
    if (H5Aclose(a) < 0 || s < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot read attribute %s (expected an integer)", path, name);
    return NS_OK;
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
    s->n = (size_t)dim;
    if (!(s->rows = calloc(s->n ? s->n : 1, sizeof *s->rows))) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for /sweep (%zu rows)", path, s->n);
        goto done;
    }
    if (s->n && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, s->rows) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read /sweep (expected the columns params, size, p_positions, "
                        "preperiod, period, proven, slope_a, slope_b, seconds)", path);
        goto done;
    }
    for (size_t i = 0; i < s->n; i++)
        s->rows[i].params[NS_H5_SWEEP_PARAMS_LEN - 1] = '\0';
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
