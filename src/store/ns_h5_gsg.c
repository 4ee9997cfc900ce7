/* ns_h5_gsg.c - generalized Sprague-Grundy values of a loopy game in its
 * table file (issue 18): written beside /pn and /remoteness when the solve
 * computed them (ns_meta.gsg_value), read back one cell at a time or whole.
 * Part of the HDF5 layer (see ns_h5.h).
 *
 *   /grundy              k-dim, uint8 when every finite value is below 254,
 *                        uint16 below 65534, else uint32: the finite value;
 *                        its attributes infinity_value (the type's largest
 *                        value - 1: an infinite value) and invalid_value
 *                        (the largest: not a position)
 *   /grundy_inf_offsets  1-D uint64, n_infinite + 1 entries: the infinite
 *                        cells in row-major order, the j-th one's set K at
 *   /grundy_inf_values   1-D uint32 [offsets[j], offsets[j+1]), increasing
 *   root attributes      gsg_n_infinite, gsg_max_finite
 * The file's kind stays "pn" (/pn holds P / N / draw): readers that know
 * nothing of these datasets read the P/N/draw table as before. */
#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* chunks of about 1 MiB, rows of the last dimensions first */
static void chunk_of(int k, const hsize_t *dims, size_t elem, hsize_t *chunk)
{
    hsize_t left = ((hsize_t)1 << 20) / elem;
    for (int d = k - 1; d >= 0; d--) {
        chunk[d] = dims[d] < left ? dims[d] : (left ? left : 1);
        if (chunk[d] < 1)
            chunk[d] = 1;
        left = left / chunk[d];
        if (left < 1)
            left = 1;
    }
}

static ns_err put_attr(hid_t loc, const char *path, const char *owner, const char *name, hid_t ftype, hid_t mtype,
                       const void *v, ns_error *err)
{
    hid_t space = H5Screate(H5S_SCALAR), a = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    if (space < 0 || (a = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        H5Awrite(a, mtype, v) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write attribute %s of %s", path, name, owner);
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* A 1-D dataset of n values (n may be 0). */
static ns_err put_1d(hid_t file, const char *path, const char *name, hid_t ftype, hid_t mtype, size_t elem,
                     uint64_t n, const void *data, ns_error *err)
{
    hsize_t dims[1] = {n}, maxd[1] = {n ? n : H5S_UNLIMITED};
    hsize_t chunk[1] = {n == 0 ? 1024 : n < ((hsize_t)1 << 20) / elem ? n : ((hsize_t)1 << 20) / elem};
    hid_t d = ns_h5_create_chunked(file, path, name, ftype, 1, dims, maxd, chunk, NULL, err);
    if (d < 0)
        return err ? err->code : NS_EIO;
    ns_err rc = NS_OK;
    if (n && H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write dataset %s", path, name);
    if (H5Dclose(d) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close dataset %s", path, name);
    return rc;
}

ns_err ns_h5_write_gsg(hid_t file, const char *path, const ns_table *t, const ns_meta *m, ns_error *err)
{
    const int k = t->k;
    const uint32_t top = m->gsg_max_finite;
    const size_t elem = top < 0xFEu ? 1 : top < 0xFFFEu ? 2 : 4;
    const uint32_t none = elem == 1 ? 0xFFu : elem == 2 ? 0xFFFFu : 0xFFFFFFFFu, inf = none - 1;
    const hid_t ftype = elem == 1 ? H5T_STD_U8LE : elem == 2 ? H5T_STD_U16LE : H5T_STD_U32LE;
    const hid_t mtype = elem == 1 ? H5T_NATIVE_UINT8 : elem == 2 ? H5T_NATIVE_UINT16 : H5T_NATIVE_UINT32;
    hsize_t dims[NS_MAX_DIM], chunk[NS_MAX_DIM];
    for (int d = 0; d < k; d++)
        dims[d] = (hsize_t)t->bounds[d];
    chunk_of(k, dims, elem, chunk);
    void *buf = malloc((size_t)t->ncells * elem);
    if (!buf)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory for /grundy", path);
    uint64_t ninf = 0;
    for (uint64_t i = 0; i < t->ncells; i++) {
        const uint32_t g = m->gsg_value[i];
        const uint32_t v = g == NS_H5_GSG_NONE ? none : g == NS_H5_GSG_INF ? inf : g;
        ninf += g == NS_H5_GSG_INF;
        if (elem == 1)
            ((uint8_t *)buf)[i] = (uint8_t)v;
        else if (elem == 2)
            ((uint16_t *)buf)[i] = (uint16_t)v;
        else
            ((uint32_t *)buf)[i] = v;
    }
    if (ninf != m->gsg_ninf) {
        free(buf);
        return ns_error_set(err, NS_EINTERNAL, "%s: %" PRIu64 " infinite values, but %" PRIu64 " sets", path, ninf,
                            m->gsg_ninf);
    }
    ns_err rc = NS_OK;
    hid_t d = ns_h5_create_chunked(file, path, "/grundy", ftype, k, dims, NULL, chunk, NULL, err);
    if (d < 0) {
        free(buf);
        return err ? err->code : NS_EIO;
    }
    if (H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write dataset /grundy", path);
    if (!rc && !(rc = put_attr(d, path, "/grundy", "infinity_value", ftype, H5T_NATIVE_UINT32, &inf, err)))
        rc = put_attr(d, path, "/grundy", "invalid_value", ftype, H5T_NATIVE_UINT32, &none, err);
    if (H5Dclose(d) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close dataset /grundy", path);
    free(buf);
    if (rc ||
        (rc = put_1d(file, path, "/grundy_inf_offsets", H5T_STD_U64LE, H5T_NATIVE_UINT64, 8, ninf + 1,
                     m->gsg_inf_off, err)) ||
        (rc = put_1d(file, path, "/grundy_inf_values", H5T_STD_U32LE, H5T_NATIVE_UINT32, 4, m->gsg_inf_off[ninf],
                     m->gsg_inf_val, err)) ||
        (rc = put_attr(file, path, "the file", "gsg_n_infinite", H5T_STD_U64LE, H5T_NATIVE_UINT64, &ninf, err)))
        return rc;
    return put_attr(file, path, "the file", "gsg_max_finite", H5T_STD_U32LE, H5T_NATIVE_UINT32, &top, err);
}

/* ---------------------------------------------------------------- reading */

typedef struct gsg_file {
    const char *path;
    hid_t f, d;             /* the file, /grundy */
    uint32_t inf, none;     /* the codes as stored */
    int k;
    hsize_t dims[NS_MAX_DIM];
    uint64_t ncells;
} gsg_file;

static void gsg_close(gsg_file *x)
{
    if (x->d >= 0)
        H5Dclose(x->d);
    if (x->f >= 0)
        H5Fclose(x->f);
    H5Eclear2(H5E_DEFAULT);
}

static ns_err get_attr(gsg_file *x, const char *name, uint32_t *v, ns_error *err)
{
    hid_t a = H5Aopen(x->d, name, H5P_DEFAULT);
    ns_err rc = NS_OK;
    if (a < 0 || H5Aread(a, H5T_NATIVE_UINT32, v) < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: /grundy has no attribute %s (not the table of a loopy game?)", x->path,
                        name);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

static ns_err gsg_open(const char *path, gsg_file *x, ns_error *err)
{
    ns_h5_quiet();
    memset(x, 0, sizeof *x);
    x->path = path;
    x->f = x->d = H5I_INVALID_HID;
    if ((x->f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not an HDF5 file, or truncated or damaged", path);
    ns_err rc = NS_OK;
    hid_t fs = H5I_INVALID_HID;
    if (H5Aexists(x->f, "gsg_n_infinite") <= 0 || H5Lexists(x->f, "grundy", H5P_DEFAULT) <= 0 ||
        (x->d = H5Dopen2(x->f, "/grundy", H5P_DEFAULT)) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT,
                        "%s: no generalized Sprague-Grundy values (/grundy of a loopy game; solve it without "
                        "--pn-only, in normal play)",
                        path);
        goto done;
    }
    if ((rc = get_attr(x, "infinity_value", &x->inf, err)) || (rc = get_attr(x, "invalid_value", &x->none, err)))
        goto done;
    fs = H5Dget_space(x->d);
    x->k = fs < 0 ? -1 : H5Sget_simple_extent_ndims(fs);
    if (x->k < 1 || x->k > NS_MAX_DIM || H5Sget_simple_extent_dims(fs, x->dims, NULL) != x->k) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: /grundy has no usable shape", path);
        goto done;
    }
    x->ncells = 1;
    for (int d = 0; d < x->k; d++)
        x->ncells *= x->dims[d];
done:
    if (fs >= 0)
        H5Sclose(fs);
    return rc;
}

/* count values of the 1-D dataset name from start into out (uint64 or uint32 by mtype) */
static ns_err read_1d(gsg_file *x, const char *name, hid_t mtype, uint64_t start, uint64_t count, void *out,
                      ns_error *err)
{
    hid_t d = H5Dopen2(x->f, name, H5P_DEFAULT), fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    hsize_t dims[1] = {0}, st[1] = {start}, cn[1] = {count};
    if (d < 0 || (fs = H5Dget_space(d)) < 0 || H5Sget_simple_extent_ndims(fs) != 1 ||
        H5Sget_simple_extent_dims(fs, dims, NULL) != 1 || start + count > dims[0]) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: %s is missing or shorter than %" PRIu64 " values", x->path, name,
                        start + count);
        goto done;
    }
    if (count && ((ms = H5Screate_simple(1, cn, NULL)) < 0 ||
                  H5Sselect_hyperslab(fs, H5S_SELECT_SET, st, NULL, cn, NULL) < 0 ||
                  H5Dread(d, mtype, ms, fs, H5P_DEFAULT, out) < 0))
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read %s: checksum mismatch or corrupt data", x->path, name);
done:
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    if (d >= 0)
        H5Dclose(d);
    return rc;
}

/* the set of the j-th infinite cell into *set (malloc'ed), *n values */
static ns_err read_set(gsg_file *x, uint64_t j, uint32_t **set, uint64_t *n, ns_error *err)
{
    uint64_t off[2];
    ns_err rc = read_1d(x, "/grundy_inf_offsets", H5T_NATIVE_UINT64, j, 2, off, err);
    if (rc)
        return rc;
    if (off[1] < off[0])
        return ns_error_set(err, NS_EFORMAT, "%s: /grundy_inf_offsets decreases at %" PRIu64, x->path, j);
    *n = off[1] - off[0];
    *set = malloc((*n ? *n : 1) * sizeof **set);
    if (!*set)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory for a set of %" PRIu64 " values", x->path, *n);
    if ((rc = read_1d(x, "/grundy_inf_values", H5T_NATIVE_UINT32, off[0], *n, *set, err))) {
        free(*set);
        *set = NULL;
    }
    return rc;
}

ns_err ns_h5_read_gsg_cell(const char *path, int k, const int64_t *s, uint32_t *value, uint32_t **set,
                           uint64_t *nset, ns_error *err)
{
    *set = NULL;
    *nset = 0;
    gsg_file x;
    hid_t fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    uint32_t *rows = NULL;
    ns_err rc = gsg_open(path, &x, err);
    if (rc)
        goto done;
    if (x.k != k) {
        rc = ns_error_set(err, NS_EINVAL, "%s: /grundy has %d dimensions, the position %d", path, x.k, k);
        goto done;
    }
    uint64_t idx = 0;
    for (int d = 0; d < k; d++) {
        if (s[d] < 0 || (hsize_t)s[d] >= x.dims[d]) {
            rc = ns_error_set(err, NS_EINVAL, "%s: the cell lies outside /grundy", path);
            goto done;
        }
        idx = idx * x.dims[d] + (uint64_t)s[d];
    }
    /* the rows 0 .. s[0] (along dimension 0), to count the infinite cells
     * before s when s is infinite */
    hsize_t start[NS_MAX_DIM] = {0}, count[NS_MAX_DIM];
    uint64_t cells = 1;
    for (int d = 0; d < k; d++) {
        count[d] = d == 0 ? (hsize_t)s[0] + 1 : x.dims[d];
        cells *= count[d];
    }
    rows = malloc((size_t)cells * sizeof *rows);
    if (!rows) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for %" PRIu64 " cells of /grundy", path, cells);
        goto done;
    }
    hsize_t one[1] = {cells};
    if ((fs = H5Dget_space(x.d)) < 0 || (ms = H5Screate_simple(1, one, NULL)) < 0 ||
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
        H5Dread(x.d, H5T_NATIVE_UINT32, ms, fs, H5P_DEFAULT, rows) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read /grundy: checksum mismatch or corrupt data", path);
        goto done;
    }
    const uint32_t v = rows[idx];
    *value = v == x.none ? NS_H5_GSG_NONE : v == x.inf ? NS_H5_GSG_INF : v;
    if (v == x.inf) {
        uint64_t j = 0;
        for (uint64_t i = 0; i < idx; i++)
            j += rows[i] == x.inf;
        rc = read_set(&x, j, set, nset, err);
    }
done:
    free(rows);
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    gsg_close(&x);
    return rc;
}

ns_err ns_h5_read_gsg_all(const char *path, uint64_t ncells, uint32_t *value, uint64_t *ninf, uint64_t **off,
                          uint32_t **val, ns_error *err)
{
    *off = NULL;
    *val = NULL;
    *ninf = 0;
    gsg_file x;
    ns_err rc = gsg_open(path, &x, err);
    if (rc)
        goto done;
    if (x.ncells != ncells) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: /grundy has %" PRIu64 " cells, expected %" PRIu64, path, x.ncells,
                          ncells);
        goto done;
    }
    if (H5Dread(x.d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, value) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read /grundy: checksum mismatch or corrupt data", path);
        goto done;
    }
    uint64_t n = 0;
    for (uint64_t i = 0; i < ncells; i++) {
        n += value[i] == x.inf;
        value[i] = value[i] == x.none ? NS_H5_GSG_NONE : value[i] == x.inf ? NS_H5_GSG_INF : value[i];
    }
    *off = malloc((n + 1) * sizeof **off);
    if (!*off) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for the sets", path);
        goto done;
    }
    if ((rc = read_1d(&x, "/grundy_inf_offsets", H5T_NATIVE_UINT64, 0, n + 1, *off, err)))
        goto done;
    for (uint64_t j = 0; j < n; j++)
        if ((*off)[j + 1] < (*off)[j] || (*off)[0] != 0) {
            rc = ns_error_set(err, NS_EFORMAT, "%s: /grundy_inf_offsets decreases at %" PRIu64, path, j);
            goto done;
        }
    *val = malloc(((*off)[n] ? (*off)[n] : 1) * sizeof **val);
    if (!*val) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for the sets", path);
        goto done;
    }
    rc = read_1d(&x, "/grundy_inf_values", H5T_NATIVE_UINT32, 0, (*off)[n], *val, err);
    *ninf = n;
done:
    if (rc) {
        free(*off);
        free(*val);
        *off = NULL;
        *val = NULL;
    }
    gsg_close(&x);
    return rc;
}
