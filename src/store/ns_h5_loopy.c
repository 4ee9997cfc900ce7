/* ns_h5_loopy.c - what a table file of a loopy game holds besides /pn
 * (issue 18): the dataset /remoteness and the attributes that say how to
 * read it. Part of the HDF5 layer (see ns_h5.h).
 *
 *   /remoteness   k-dim, uint16 when every remoteness is below 65535, else
 *                 uint32; draws and non-positions hold the dataset's
 *                 attribute none_value (the type's largest value)
 *   root attributes loopy = 1 and n_draws (the cells /pn marks 3), written
 *                 with the others by ns_h5_write (ns_h5.c) when m->loopy. */
#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* chunks of about 1 MiB, rows of the last dimensions first */
static void rem_chunk(int k, const hsize_t *dims, size_t elem, hsize_t *chunk)
{
    hsize_t left = ((hsize_t)1 << 20) / elem;
    for (int d = k - 1; d >= 0; d--) {
        chunk[d] = dims[d] < left ? dims[d] : (left ? left : 1);
        left = chunk[d] ? left / chunk[d] : 0;
        if (left < 1)
            left = 1;
    }
}

ns_err ns_h5_write_remoteness(hid_t file, const char *path, const ns_table *t, const uint32_t *rem, ns_error *err)
{
    const int k = t->k;
    uint32_t top = 0;
    for (uint64_t i = 0; i < t->ncells; i++)
        if (rem[i] != NS_H5_REMOTE_NONE && rem[i] > top)
            top = rem[i];
    const int wide = top >= 0xFFFFu;
    const size_t elem = wide ? 4 : 2;
    const uint32_t none = wide ? 0xFFFFFFFFu : 0xFFFFu;
    hsize_t dims[NS_MAX_DIM], chunk[NS_MAX_DIM];
    for (int d = 0; d < k; d++)
        dims[d] = (hsize_t)t->bounds[d];
    rem_chunk(k, dims, elem, chunk);
    void *buf = malloc((size_t)t->ncells * elem);
    if (!buf)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory for /remoteness", path);
    for (uint64_t i = 0; i < t->ncells; i++) {
        const uint32_t v = rem[i] == NS_H5_REMOTE_NONE ? none : rem[i];
        if (wide)
            ((uint32_t *)buf)[i] = v;
        else
            ((uint16_t *)buf)[i] = (uint16_t)v;
    }
    ns_err rc = NS_OK;
    hid_t space = H5I_INVALID_HID, a = H5I_INVALID_HID;
    const hid_t ftype = wide ? H5T_STD_U32LE : H5T_STD_U16LE, mtype = wide ? H5T_NATIVE_UINT32 : H5T_NATIVE_UINT16;
    hid_t d = ns_h5_create_chunked(file, path, "/remoteness", ftype, k, dims, NULL, chunk, NULL, err);
    if (d < 0) {
        free(buf);
        return err ? err->code : NS_EIO;
    }
    if (H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write dataset /remoteness", path);
        goto done;
    }
    if ((space = H5Screate(H5S_SCALAR)) < 0 ||
        (a = H5Acreate2(d, "none_value", ftype, space, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        H5Awrite(a, H5T_NATIVE_UINT32, &none) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write attribute none_value of /remoteness", path);
done:
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    if (H5Dclose(d) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close dataset /remoteness", path);
    free(buf);
    return rc;
}

/* The dataset /remoteness of path, open, and its none_value: *f and *d
 * open on success (the caller closes them with close_remoteness). */
static ns_err open_remoteness(const char *path, hid_t *f, hid_t *d, uint32_t *none, ns_error *err)
{
    ns_h5_quiet();
    *f = *d = H5I_INVALID_HID;
    hid_t a = H5I_INVALID_HID;
    ns_err rc = NS_OK;
    if ((*f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not an HDF5 file, or truncated or damaged", path);
    if (H5Lexists(*f, "remoteness", H5P_DEFAULT) <= 0 || (*d = H5Dopen2(*f, "/remoteness", H5P_DEFAULT)) < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: no dataset /remoteness (not the table of a loopy game)", path);
    else if ((a = H5Aopen(*d, "none_value", H5P_DEFAULT)) < 0 || H5Aread(a, H5T_NATIVE_UINT32, none) < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: /remoteness has no attribute none_value", path);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

static void close_remoteness(hid_t f, hid_t d)
{
    if (d >= 0)
        H5Dclose(d);
    if (f >= 0)
        H5Fclose(f);
    H5Eclear2(H5E_DEFAULT);
}

ns_err ns_h5_read_remoteness(const char *path, int k, const int64_t *s, uint32_t *out, ns_error *err)
{
    hid_t f, d, fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    uint32_t v = 0, none = 0;
    ns_err rc = open_remoteness(path, &f, &d, &none, err);
    if (rc)
        goto done;
    fs = H5Dget_space(d);
    hsize_t dims[NS_MAX_DIM], start[NS_MAX_DIM], one[NS_MAX_DIM];
    if (fs < 0 || H5Sget_simple_extent_ndims(fs) != k || H5Sget_simple_extent_dims(fs, dims, NULL) != k) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: /remoteness has %d dimensions, expected %d", path,
                        fs < 0 ? -1 : H5Sget_simple_extent_ndims(fs), k);
        goto done;
    }
    for (int i = 0; i < k; i++) {
        if (s[i] < 0 || (hsize_t)s[i] >= dims[i]) {
            rc = ns_error_set(err, NS_EINVAL, "%s: the cell lies outside /remoteness", path);
            goto done;
        }
        start[i] = (hsize_t)s[i];
        one[i] = 1;
    }
    if ((ms = H5Screate_simple(1, one, NULL)) < 0 ||
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, one, NULL) < 0 ||
        H5Dread(d, H5T_NATIVE_UINT32, ms, fs, H5P_DEFAULT, &v) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read /remoteness", path);
        goto done;
    }
    *out = v == none ? NS_H5_REMOTE_NONE : v;
done:
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    close_remoteness(f, d);
    return rc;
}

ns_err ns_h5_read_remoteness_all(const char *path, uint64_t ncells, uint32_t *out, ns_error *err)
{
    hid_t f, d, fs = H5I_INVALID_HID;
    uint32_t none = 0;
    ns_err rc = open_remoteness(path, &f, &d, &none, err);
    if (rc)
        goto done;
    fs = H5Dget_space(d);
    hssize_t n = fs < 0 ? -1 : H5Sget_simple_extent_npoints(fs);
    if (n < 0 || (uint64_t)n != ncells) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: /remoteness has %lld cells, expected %" PRIu64, path, (long long)n, ncells);
        goto done;
    }
    if (H5Dread(d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read /remoteness: checksum mismatch or corrupt data", path);
        goto done;
    }
    for (uint64_t i = 0; i < ncells; i++)
        if (out[i] == none)
            out[i] = NS_H5_REMOTE_NONE;
done:
    if (fs >= 0)
        H5Sclose(fs);
    close_remoteness(f, d);
    return rc;
}
