/* ns_h5_region.c - partial reads of a table file (see ns_h5.h): part of the
 * HDF5 layer, so it includes hdf5.h. It only moves data; it computes
 * nothing.
 *
 * HDF5 never prints: every entry point turns the automatic error printing
 * off, and a failing call's innermost HDF5 message is appended to ours. */
#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hdf5.h>

/* Bounds of the chunk cache we give an open dataset. */
#define CACHE_MIN ((size_t)1 << 20)
#define CACHE_MAX ((size_t)256 << 20)
#define SLOTS_MAX ((size_t)1 << 18)

struct ns_h5_region {
    char *path;          /* owned copy, for messages */
    char name[32];       /* "/grundy" ... */
    hid_t file;
    hid_t data;
    hid_t fspace;
    hid_t mtype;         /* native memory type of the stored values; not owned */
    ns_h5_dsinfo info;
};

static void close_id(hid_t *id, herr_t (*close_fn)(hid_t))
{
    if (*id >= 0)
        close_fn(*id);
    *id = H5I_INVALID_HID;
}

/* "/name" into buf; names are short fixed dataset names. */
static ns_err dataset_path(const char *name, char *buf, size_t len, ns_error *err)
{
    if (!name || !name[0])
        return ns_error_set(err, NS_EINVAL, "empty dataset name");
    int n = snprintf(buf, len, "%s%s", name[0] == '/' ? "" : "/", name);
    if (n < 0 || (size_t)n >= len)
        return ns_error_set(err, NS_EINVAL, "dataset name \"%s\" is too long", name);
    return NS_OK;
}

static ns_err open_file(const char *path, hid_t *file, ns_error *err)
{
    *file = H5I_INVALID_HID;
    ns_h5_quiet();
    struct stat sb;
    if (stat(path, &sb) != 0)
        return ns_error_set(err, NS_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return ns_error_set(err, NS_EIO, "%s: not a regular file", path);
    *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (*file < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not an HDF5 file, or truncated or damaged", path);
    return NS_OK;
}

/* ---------------------------------------------------------------- lookup */

ns_err ns_h5_has_dataset(const char *path, const char *name, int *exists, ns_error *err)
{
    char dname[40];
    hid_t file;
    ns_err rc;
    *exists = 0;
    if ((rc = dataset_path(name, dname, sizeof dname, err)) || (rc = open_file(path, &file, err)))
        return rc;
    htri_t ex = H5Lexists(file, dname, H5P_DEFAULT);
    if (ex < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot look up dataset %s", path, dname);
    else
        *exists = ex > 0;
    close_id(&file, H5Fclose);
    return rc;
}

/* Optional numeric root attribute as uint32. *found: whether present. */
/* The one-value attribute attr of obj (the file's root or the open
 * dataset, named by where in messages) as uint32; *found 0 when absent. */
static ns_err attr_u32(ns_h5_region *r, hid_t obj, const char *where, const char *attr, uint32_t *out,
                       int *found, ns_error *err)
{
    *found = 0;
    htri_t ex = H5Aexists(obj, attr);
    if (ex < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot look up attribute %s%s", r->path, attr, where);
    if (ex == 0)
        return NS_OK;
    hid_t a = H5Aopen(obj, attr, H5P_DEFAULT);
    hid_t space = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    hssize_t np = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    ns_err rc = NS_OK;
    if (a < 0 || np < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot open attribute %s%s", r->path, attr, where);
    else if (np != 1)
        rc = ns_error_set(err, NS_EFORMAT, "%s: attribute %s%s holds %lld values, expected one", r->path,
                          attr, where, (long long)np);
    else if (H5Aread(a, H5T_NATIVE_UINT32, out) < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read attribute %s%s as a 32-bit unsigned number",
                     r->path, attr, where);
    else
        *found = 1;
    close_id(&space, H5Sclose);
    close_id(&a, H5Aclose);
    return rc;
}

static ns_err root_u32(ns_h5_region *r, const char *attr, uint32_t *out, int *found, ns_error *err)
{
    return attr_u32(r, r->file, "", attr, out, found, err);
}

/* Shape, type, chunking of the open dataset into r->info. */
static ns_err inspect(ns_h5_region *r, ns_error *err)
{
    ns_h5_dsinfo *in = &r->info;
    hid_t type = H5Dget_type(r->data), dcpl = H5Dget_create_plist(r->data);
    ns_err rc = NS_OK;
    hsize_t dims[H5S_MAX_RANK], chunk[H5S_MAX_RANK];
    int rank = r->fspace >= 0 ? H5Sget_simple_extent_ndims(r->fspace) : -1;
    if (type < 0 || dcpl < 0 || rank < 0 || rank > H5S_MAX_RANK ||
        H5Sget_simple_extent_dims(r->fspace, dims, NULL) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot inspect dataset %s", r->path, r->name);
        goto done;
    }
    if (rank < 1 || rank > NS_MAX_DIM) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: dataset %s has rank %d, expected 1 to %d", r->path,
                          r->name, rank, NS_MAX_DIM);
        goto done;
    }
    in->rank = rank;
    for (int d = 0; d < rank; d++) {
        if (dims[d] > (hsize_t)INT64_MAX) {
            rc = ns_error_set(err, NS_EFORMAT, "%s: dataset %s is too large", r->path, r->name);
            goto done;
        }
        in->dims[d] = (int64_t)dims[d];
        in->chunk[d] = 0;
    }
    H5D_layout_t layout = H5Pget_layout(dcpl);
    if (layout == H5D_LAYOUT_ERROR) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read the layout of dataset %s", r->path, r->name);
        goto done;
    }
    if (layout == H5D_CHUNKED) {
        if (H5Pget_chunk(dcpl, rank, chunk) != rank) {
            rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read the chunk shape of dataset %s", r->path,
                         r->name);
            goto done;
        }
        for (int d = 0; d < rank; d++)
            in->chunk[d] = (int64_t)chunk[d];
    }
    size_t size = H5Tget_size(type);
    H5T_sign_t sign = H5Tget_sign(type);
    if (H5Tget_class(type) != H5T_INTEGER || sign == H5T_SGN_ERROR ||
        (size != 1 && size != 2 && size != 4 && size != 8)) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: dataset %s does not hold integers of 1, 2, 4 or 8 bytes",
                          r->path, r->name);
        goto done;
    }
    in->elem = (int)size;
    in->is_signed = sign != H5T_SGN_NONE;
    if (in->is_signed)
        r->mtype = size == 1 ? H5T_NATIVE_INT8 : size == 2 ? H5T_NATIVE_INT16
                 : size == 4 ? H5T_NATIVE_INT32 : H5T_NATIVE_INT64;
    else
        r->mtype = size == 1 ? H5T_NATIVE_UINT8 : size == 2 ? H5T_NATIVE_UINT16
                 : size == 4 ? H5T_NATIVE_UINT32 : H5T_NATIVE_UINT64;
done:
    close_id(&type, H5Tclose);
    close_id(&dcpl, H5Pclose);
    return rc;
}

/* The optional root attribute symmetric of a table file (ns_h5.h, ns_meta):
 * 2..rank increasing axes of equal sizes, into info.nsym and info.sym. */
static ns_err symmetric_axes(ns_h5_region *r, ns_error *err)
{
    ns_h5_dsinfo *in = &r->info;
    htri_t ex = H5Aexists(r->file, "symmetric");
    if (ex < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: cannot look up attribute symmetric", r->path);
    if (ex == 0)
        return NS_OK;
    hid_t a = H5Aopen(r->file, "symmetric", H5P_DEFAULT);
    hid_t space = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    hssize_t np = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    int64_t axes[NS_MAX_DIM];
    /* the table's rank: /p_positions lists one position a row */
    const int lists = strcmp(r->name, "/p_positions") == 0;
    const int k = lists ? (in->rank == 2 && in->dims[1] <= NS_MAX_DIM ? (int)in->dims[1] : 0) : in->rank;
    ns_err rc = NS_OK;
    if (a < 0 || np < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot open attribute symmetric", r->path);
    else if (np < 2 || np > k)
        rc = ns_error_set(err, NS_EFORMAT, "%s: attribute symmetric holds %lld axes, expected 2 to %d",
                          r->path, (long long)np, k);
    else if (H5Aread(a, H5T_NATIVE_INT64, axes) < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read attribute symmetric", r->path);
    close_id(&space, H5Sclose);
    close_id(&a, H5Aclose);
    if (rc)
        return rc;
    for (int i = 0; i < (int)np; i++) {
        if (axes[i] < 0 || axes[i] >= k || (i && axes[i] <= axes[i - 1]) ||
            (!lists && in->dims[axes[i]] != in->dims[axes[0]]))
            return ns_error_set(err, NS_EFORMAT, "%s: attribute symmetric should list increasing axes "
                                "of equal sizes in 0..%d", r->path, k - 1);
        in->sym[i] = (int)axes[i];
    }
    in->nsym = (int)np;
    return NS_OK;
}

/* The markers: /pn marks non-positions with 2; /grundy with the root
 * attribute invalid_value when the file has one; /remoteness draws and
 * non-positions alike with its attribute none_value. */
static ns_err markers(ns_h5_region *r, ns_error *err)
{
    ns_h5_dsinfo *in = &r->info;
    uint32_t v = 0;
    int found = 0;
    ns_err rc;
    if (strcmp(r->name, "/pn") == 0 || strcmp(r->name, "/grundy") == 0 ||
        strcmp(r->name, "/p_positions") == 0) {
        if ((rc = symmetric_axes(r, err)))
            return rc;
    }
    if (strcmp(r->name, "/pn") == 0) {
        in->has_invalid = 1;
        in->invalid = NS_PN_INVALID;
        in->max_value = 1;
        return NS_OK;
    }
    if (strcmp(r->name, "/remoteness") == 0) {
        /* a loopy game's remoteness: draws and non-positions hold the
         * dataset's attribute none_value (ns_h5_loopy.c) */
        if ((rc = attr_u32(r, r->data, " of /remoteness", "none_value", &v, &found, err)))
            return rc;
        if (!found)
            return ns_error_set(err, NS_EFORMAT, "%s: /remoteness has no attribute none_value", r->path);
        in->has_invalid = 1;
        in->invalid = v;
        in->max_value = v ? v - 1 : 0;
        return NS_OK;
    }
    if (strcmp(r->name, "/grundy") != 0)
        return NS_OK;
    if ((rc = root_u32(r, "invalid_value", &v, &found, err)))
        return rc;
    in->has_invalid = found;
    in->invalid = v;
    if ((rc = root_u32(r, "max_value", &v, &found, err)))
        return rc;
    in->max_value = found ? v : (in->elem >= 4 ? UINT32_MAX : (uint32_t)((1u << (8 * in->elem)) - 1));
    return NS_OK;
}

/* ------------------------------------------------------------------ open */

ns_err ns_h5_region_open(const char *path, const char *name, ns_h5_region **out, ns_error *err)
{
    *out = NULL;
    ns_err rc;
    hid_t dapl = H5I_INVALID_HID;
    ns_h5_region *r = calloc(1, sizeof *r);
    if (!r)
        return ns_error_set(err, NS_ENOMEM, "out of memory opening %s", path);
    r->file = r->data = r->fspace = H5I_INVALID_HID;
    r->path = strdup(path);
    if (!r->path) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory opening %s", path);
        goto fail;
    }
    if ((rc = dataset_path(name, r->name, sizeof r->name, err)) ||
        (rc = open_file(path, &r->file, err)))
        goto fail;
    htri_t ex = H5Lexists(r->file, r->name, H5P_DEFAULT);
    if (ex < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot look up dataset %s", path, r->name);
        goto fail;
    }
    if (ex == 0) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: missing dataset %s", path, r->name);
        goto fail;
    }
    /* first open: learn the shape and the chunking */
    r->data = H5Dopen2(r->file, r->name, H5P_DEFAULT);
    r->fspace = r->data >= 0 ? H5Dget_space(r->data) : H5I_INVALID_HID;
    if (r->data < 0 || r->fspace < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot open dataset %s", path, r->name);
        goto fail;
    }
    if ((rc = inspect(r, err)) || (rc = markers(r, err)))
        goto fail;

    /* reopen with a chunk cache that holds two rows of chunks along
     * dimension 0 (within bounds), so banded reads decompress each chunk
     * once even when bands and chunks do not line up */
    if (r->info.chunk[0] > 0) {
        uint64_t chunk_bytes = (uint64_t)r->info.elem, per_row = 1;
        for (int d = 0; d < r->info.rank; d++) {
            chunk_bytes *= (uint64_t)r->info.chunk[d];
            if (d > 0)
                per_row *= (uint64_t)((r->info.dims[d] + r->info.chunk[d] - 1) / r->info.chunk[d]);
        }
        uint64_t want = 2 * per_row * chunk_bytes + chunk_bytes;
        size_t nbytes = want < CACHE_MIN ? CACHE_MIN : want > CACHE_MAX ? CACHE_MAX : (size_t)want;
        uint64_t nchunks = nbytes / (chunk_bytes ? chunk_bytes : 1) + 1, total = 1;
        for (int d = 0; d < r->info.rank; d++)
            total *= (uint64_t)((r->info.dims[d] + r->info.chunk[d] - 1) / r->info.chunk[d]);
        if (nchunks > total)
            nchunks = total;
        /* ~100x the chunks, as advised, but a file of tiny chunks must not
         * make HDF5 allocate a huge slot table (1 MiB of 1-byte chunks
         * asked for 10^8 slots, 800 MB) */
        size_t nslots = (size_t)(nchunks * 100 + 1);
        if (nslots > SLOTS_MAX)
            nslots = SLOTS_MAX;
        close_id(&r->fspace, H5Sclose);
        close_id(&r->data, H5Dclose);
        dapl = H5Pcreate(H5P_DATASET_ACCESS);
        if (dapl < 0 || H5Pset_chunk_cache(dapl, nslots, nbytes, 1.0) < 0) {
            rc = ns_h5_fail(err, NS_EIO, "%s: cannot set up the chunk cache for dataset %s", path, r->name);
            goto fail;
        }
        r->data = H5Dopen2(r->file, r->name, dapl);
        r->fspace = r->data >= 0 ? H5Dget_space(r->data) : H5I_INVALID_HID;
        if (r->data < 0 || r->fspace < 0) {
            rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot open dataset %s", path, r->name);
            goto fail;
        }
    }
    close_id(&dapl, H5Pclose);
    *out = r;
    return NS_OK;

fail:
    close_id(&dapl, H5Pclose);
    ns_h5_region_close(r);
    return rc;
}

const ns_h5_dsinfo *ns_h5_region_info(const ns_h5_region *r)
{
    return &r->info;
}

void ns_h5_region_close(ns_h5_region *r)
{
    if (!r)
        return;
    close_id(&r->fspace, H5Sclose);
    close_id(&r->data, H5Dclose);
    close_id(&r->file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    free(r->path);
    free(r);
}

/* ------------------------------------------------------------------ read */

ns_err ns_h5_region_read_stored(ns_h5_region *r, const int64_t *lo, const int64_t *count,
                                const int64_t *stride, void *buf, ns_error *err)
{
    const ns_h5_dsinfo *in = &r->info;
    hsize_t start[NS_MAX_DIM], cnt[NS_MAX_DIM], str[NS_MAX_DIM], n = 1;
    for (int d = 0; d < in->rank; d++) {
        int64_t s = stride ? stride[d] : 1;
        if (lo[d] < 0 || count[d] < 1 || s < 1 || lo[d] >= in->dims[d] ||
            (count[d] - 1) > (in->dims[d] - 1 - lo[d]) / s)
            return ns_error_set(err, NS_ERANGE,
                                "%s: region of dataset %s outside its shape: dimension %d from %" PRId64
                                " count %" PRId64 " stride %" PRId64 ", size %" PRId64,
                                r->path, r->name, d, lo[d], count[d], s, in->dims[d]);
        start[d] = (hsize_t)lo[d];
        cnt[d] = (hsize_t)count[d];
        str[d] = (hsize_t)s;
        if (n > ((hsize_t)1 << 62) / cnt[d])
            return ns_error_set(err, NS_ERANGE, "%s: region of dataset %s is too large", r->path, r->name);
        n *= cnt[d];
    }
    /* the memory space has the region's shape: with a flat one HDF5 maps
     * chunks to memory element by element, several times slower */
    hid_t mspace = H5Screate_simple(in->rank, cnt, NULL);
    ns_err rc = NS_OK;
    if (mspace < 0 || H5Sselect_hyperslab(r->fspace, H5S_SELECT_SET, start, str, cnt, NULL) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot select a region of dataset %s", r->path, r->name);
    else if (H5Dread(r->data, r->mtype, mspace, r->fspace, H5P_DEFAULT, buf) < 0)
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read rows %" PRId64 "..%" PRId64
                     " of dataset %s: checksum mismatch or corrupt data", r->path, lo[0],
                     lo[0] + (count[0] - 1) * (stride ? stride[0] : 1), r->name);
    close_id(&mspace, H5Sclose);
    return rc;
}

/* The permutation that sorts the symmetric coordinates of cell c (stable:
 * equal values keep their order): the sorted cell has, on axis sym[j], the
 * coordinate c[sym[p[j]]]. Returns 1 when c is already sorted. */
static int sorting_perm(const ns_h5_dsinfo *in, const int64_t *c, int *p)
{
    int sorted = 1;
    for (int i = 0; i < in->nsym; i++) {
        int j = i;
        for (; j > 0 && c[in->sym[p[j - 1]]] > c[in->sym[i]]; j--) {
            p[j] = p[j - 1];
            sorted = 0;
        }
        p[j] = i;
    }
    return sorted;
}

static int64_t perm_code(const int *p, int n)
{
    int64_t code = 0;
    for (int i = 0; i < n; i++)
        code = code * NS_MAX_DIM + p[i];
    return code;
}

/* Fill the mirrored cells of a region read from a symmetric table: a cell
 * whose symmetric coordinates are not sorted takes the value of its sorted
 * image. The images of the cells that one permutation p sorts form a box
 * (the region with its symmetric axes permuted by p), read in one go; the
 * boxes are read one permutation at a time, so the work is the region's
 * size times the number of orderings it meets (one for two symmetric
 * axes) and the memory one box. */
static ns_err fill_mirrored(ns_h5_region *r, const int64_t *lo, const int64_t *count,
                            const int64_t *stride, void *buf, uint64_t n, ns_error *err)
{
    const ns_h5_dsinfo *in = &r->info;
    const int k = in->rank, es = in->elem;
    int64_t *code = malloc(n * sizeof *code);
    uint8_t *box = malloc(n * (uint64_t)es);
    ns_err rc = NS_OK;
    if (!code || !box) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory filling the mirrored cells of %s", r->path,
                          r->name);
        goto done;
    }
    /* the ordering each cell needs (-1: sorted, stored as it is) */
    int64_t idx[NS_MAX_DIM] = {0}, c[NS_MAX_DIM];
    for (uint64_t i = 0; i < n; i++) {
        for (int d = 0; d < k; d++)
            c[d] = lo[d] + idx[d] * (stride ? stride[d] : 1);
        int p[NS_MAX_DIM];
        code[i] = sorting_perm(in, c, p) ? -1 : perm_code(p, in->nsym);
        for (int d = k - 1; d >= 0 && ++idx[d] == count[d]; d--)
            idx[d] = 0;
    }
    for (uint64_t first = 0; first < n; first++) {
        if (code[first] < 0)
            continue;
        const int64_t want = code[first];
        int p[NS_MAX_DIM];
        for (int j = in->nsym - 1, v = (int)want; j >= 0; j--, v /= NS_MAX_DIM)
            p[j] = v % NS_MAX_DIM;
        /* the box of the images: axis sym[j] takes axis sym[p[j]]'s range */
        int64_t blo[NS_MAX_DIM], bcount[NS_MAX_DIM], bstride[NS_MAX_DIM], src[NS_MAX_DIM];
        for (int d = 0; d < k; d++) {
            src[d] = d;
            blo[d] = lo[d];
            bcount[d] = count[d];
            bstride[d] = stride ? stride[d] : 1;
        }
        for (int j = 0; j < in->nsym; j++)
            src[in->sym[j]] = in->sym[p[j]];
        for (int d = 0; d < k; d++) {
            blo[d] = lo[src[d]];
            bcount[d] = count[src[d]];
            bstride[d] = stride ? stride[src[d]] : 1;
        }
        if ((rc = ns_h5_region_read_stored(r, blo, bcount, bstride, box, err)))
            goto done;
        /* every cell of that ordering, from the first on */
        memset(idx, 0, sizeof idx);
        for (uint64_t i = 0; i < n; i++) {
            if (i >= first && code[i] == want) {
                uint64_t b = 0;
                for (int d = 0; d < k; d++)
                    b = b * (uint64_t)bcount[d] + (uint64_t)idx[src[d]];
                memcpy((uint8_t *)buf + i * (uint64_t)es, box + b * (uint64_t)es, (size_t)es);
                code[i] = -1;
            }
            for (int d = k - 1; d >= 0 && ++idx[d] == count[d]; d--)
                idx[d] = 0;
        }
    }
done:
    free(code);
    free(box);
    return rc;
}

ns_err ns_h5_region_read(ns_h5_region *r, const int64_t *lo, const int64_t *count,
                         const int64_t *stride, void *buf, ns_error *err)
{
    ns_err rc = ns_h5_region_read_stored(r, lo, count, stride, buf, err);
    if (rc || r->info.nsym < 2 || strcmp(r->name, "/p_positions") == 0)
        return rc;
    uint64_t n = 1;
    for (int d = 0; d < r->info.rank; d++)
        n *= (uint64_t)count[d];
    return fill_mirrored(r, lo, count, stride, buf, n, err);
}

ns_err ns_h5_read_region(const char *path, const char *name, const int64_t *lo,
                         const int64_t *count, const int64_t *stride, ns_table **out,
                         ns_error *err)
{
    *out = NULL;
    ns_h5_region *r = NULL;
    ns_table *t = NULL;
    void *raw = NULL;
    ns_err rc = ns_h5_region_open(path, name, &r, err);
    if (rc)
        return rc;
    const ns_h5_dsinfo *in = &r->info;
    const int is_pn = strcmp(r->name, "/pn") == 0;
    if (in->is_signed || in->elem > 4 || (!is_pn && strcmp(r->name, "/grundy") != 0)) {
        rc = ns_error_set(err, NS_EINVAL, "%s: dataset %s is not a table (/grundy or /pn expected)",
                          path, r->name);
        goto fail;
    }
    /* wide enough for every value and the table's own marker */
    int elem = is_pn ? 1 : ns_table_elem_for(in->max_value);
    if (elem == 0) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: max_value %" PRIu32 " is too large for a table", path,
                          in->max_value);
        goto fail;
    }
    if (elem < in->elem)
        elem = in->elem;
    t = ns_table_new(in->rank, count, elem, is_pn, err);
    if (!t) {
        rc = err && err->code ? err->code : NS_ENOMEM;
        goto fail;
    }
    raw = malloc(t->ncells * (uint64_t)in->elem);
    if (!raw) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory reading a region of %s", path);
        goto fail;
    }
    if ((rc = ns_h5_region_read(r, lo, count, stride, raw, err)))
        goto fail;
    const uint32_t tinv = ns_table_invalid(t);
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t v = in->elem == 1 ? ((const uint8_t *)raw)[i]
                   : in->elem == 2 ? ((const uint16_t *)raw)[i] : ((const uint32_t *)raw)[i];
        if (in->has_invalid && v == in->invalid)
            v = tinv;
        else if (v > in->max_value) {
            rc = ns_error_set(err, NS_EFORMAT, "%s: dataset %s holds %" PRIu32
                              " above attribute max_value %" PRIu32 " (corrupt file)",
                              path, r->name, v, in->max_value);
            goto fail;
        }
        ns_table_set(t, i, v);
    }
    free(raw);
    ns_h5_region_close(r);
    *out = t;
    return NS_OK;

fail:
    free(raw);
    ns_table_free(t);
    ns_h5_region_close(r);
    return rc;
}
