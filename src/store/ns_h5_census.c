/* ns_h5_census.c - see ns_h5_census.h. Part of the HDF5 layer. */
#include "store/ns_h5_census.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ns_version.h"
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
    hid_t file, scalar, vstr;
    const char *path;
    ns_error *err;
} cw;

static ns_err attr(cw *w, const char *name, hid_t ftype, hid_t mtype, const void *v)
{
    hid_t a = H5Acreate2(w->file, name, ftype, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot create attribute %s", w->path, name);
    const herr_t s = H5Awrite(a, mtype, v);
    if (H5Aclose(a) < 0 || s < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot write attribute %s", w->path, name);
    return NS_OK;
}

static ns_err attr_str(cw *w, const char *name, const char *v)
{
    return attr(w, name, w->vstr, w->vstr, &v);
}

static ns_err attr_i64(cw *w, const char *name, int64_t v)
{
    return attr(w, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v);
}

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
    cw w = {.file = H5I_INVALID_HID, .scalar = H5I_INVALID_HID, .vstr = H5I_INVALID_HID, .path = path, .err = err};
    const size_t len = strlen(path);
    char *part = malloc(len + sizeof ".part");
    if (!part)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);
    memcpy(part, path, len);
    memcpy(part + len, ".part", sizeof ".part");
    errno = 0;
    if ((w.file = H5Fcreate(part, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        rc = errno ? ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", path, part, strerror(errno))
                   : ns_h5_fail(err, NS_EIO, "%s: cannot create %s", path, part);
        goto fail;
    }
    if ((w.scalar = H5Screate(H5S_SCALAR)) < 0 || (w.vstr = H5Tcopy(H5T_C_S1)) < 0 ||
        H5Tset_size(w.vstr, H5T_VARIABLE) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot make the attribute types", path);
        goto fail;
    }
    char created[32];
    const time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(created, sizeof created, "unknown");
    if ((rc = write_table(&w, c)) || (rc = attr_str(&w, "kind", "census")) ||
        (rc = attr_i64(&w, "digits", c->digits)) || (rc = attr_i64(&w, "size", c->size)) ||
        (rc = attr_i64(&w, "codes", (int64_t)c->n)) || (rc = attr_i64(&w, "groups", (int64_t)c->ngroups)) ||
        (rc = attr_i64(&w, "proven", (int64_t)c->nproven)) || (rc = attr_i64(&w, "threads", c->threads)) ||
        (rc = attr(&w, "wall_seconds", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &c->wall_seconds)) ||
        (rc = attr_str(&w, "nimsieve_version", NS_VERSION)) ||
        (rc = attr_str(&w, "git_revision", NS_GIT_REVISION)) ||
        (rc = attr_str(&w, "hdf5_version", ns_h5_library_version())) ||
        (rc = attr_str(&w, "created_utc", created)))
        goto fail;
    H5Tclose(w.vstr);
    H5Sclose(w.scalar);
    w.vstr = w.scalar = H5I_INVALID_HID;
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
    if (w.vstr >= 0)
        H5Tclose(w.vstr);
    if (w.scalar >= 0)
        H5Sclose(w.scalar);
    if (w.file >= 0)
        H5Fclose(w.file);
    remove(part);
    free(part);
    return rc;
}
