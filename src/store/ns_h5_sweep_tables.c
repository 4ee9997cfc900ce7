/* ns_h5_sweep_tables.c - see ns_h5_sweep_tables.h. Part of the HDF5 layer. */
#include "store/ns_h5_sweep_tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

int ns_h5_sweep_probe(const char *path)
{
    ns_h5_quiet();
    int yes = 0;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return 0;
    hid_t a = H5Aexists(f, "kind") > 0 ? H5Aopen(f, "kind", H5P_DEFAULT) : H5I_INVALID_HID;
    hid_t mt = H5Tcopy(H5T_C_S1);
    char *v = NULL;
    if (a >= 0 && mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(a, mt, &v) >= 0 && v)
        yes = strcmp(v, "sweep") == 0;
    if (v)
        H5free_memory(v);
    if (mt >= 0)
        H5Tclose(mt);
    if (a >= 0)
        H5Aclose(a);
    H5Fclose(f);
    return yes;
}

ns_err ns_h5_sweep_read_corner(const char *path, uint64_t i, int64_t side, uint32_t **vals, int64_t dims[2],
                               int *rank, int *found, ns_error *err)
{
    ns_h5_quiet();
    *vals = NULL;
    *found = 0;
    *rank = 0;
    dims[0] = dims[1] = 0;
    ns_err rc = NS_OK;
    char name[48];
    snprintf(name, sizeof name, "/tables/v%07llu", (unsigned long long)i);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5I_INVALID_HID, fs = H5I_INVALID_HID,
          ms = H5I_INVALID_HID;
    if (f < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot open (expected an HDF5 file written by nimsieve sweep)", path);
    if (H5Lexists(f, "/tables", H5P_DEFAULT) <= 0 || H5Lexists(f, name, H5P_DEFAULT) <= 0)
        goto done;
    hsize_t full[2] = {0, 0}, start[2] = {0, 0}, count[2] = {1, 1};
    int nd;
    if ((d = H5Dopen2(f, name, H5P_DEFAULT)) < 0 || (fs = H5Dget_space(d)) < 0 ||
        (nd = H5Sget_simple_extent_ndims(fs)) < 1 || nd > 2 || H5Sget_simple_extent_dims(fs, full, NULL) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: %s is not a 1-D or 2-D table", path, name);
        goto done;
    }
    for (int k = 0; k < nd; k++)
        count[k] = full[k] < (hsize_t)side ? full[k] : (hsize_t)side;
    const size_t cells = (size_t)count[0] * (size_t)count[1];
    if (!(*vals = malloc(cells ? cells * sizeof **vals : 1))) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for %s", path, name);
        goto done;
    }
    if (cells && (H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
                  (ms = H5Screate_simple(nd, count, NULL)) < 0 ||
                  H5Dread(d, H5T_NATIVE_UINT32, ms, fs, H5P_DEFAULT, *vals) < 0)) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read %s (expected Grundy values)", path, name);
        goto done;
    }
    dims[0] = (int64_t)count[0];
    dims[1] = (int64_t)count[1];
    *rank = nd;
    *found = 1;
done:
    if (rc) {
        free(*vals);
        *vals = NULL;
    }
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    if (d >= 0)
        H5Dclose(d);
    H5Fclose(f);
    return rc;
}
