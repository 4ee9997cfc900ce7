/* ns_h5_attr.c - scalar root attributes and the provenance attributes of
 * the files written in one go (census, sweep). Part of the HDF5 layer. */
#include <stdio.h>
#include <time.h>

#include "core/ns_version.h"
#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

ns_err ns_h5_attr_scalar(hid_t obj, const char *path, const char *name, hid_t ftype, hid_t mtype, const void *v,
                         ns_error *err)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = sp >= 0 ? H5Acreate2(obj, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT) : H5I_INVALID_HID;
    if (sp >= 0)
        H5Sclose(sp);
    if (a < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot create attribute %s", path, name);
    const herr_t s = H5Awrite(a, mtype, v);
    if (H5Aclose(a) < 0 || s < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot write attribute %s", path, name);
    return NS_OK;
}

ns_err ns_h5_attr_text(hid_t obj, const char *path, const char *name, const char *v, ns_error *err)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0 || H5Tset_size(t, H5T_VARIABLE) < 0) {
        if (t >= 0)
            H5Tclose(t);
        return ns_h5_fail(err, NS_EIO, "%s: cannot make a string type for %s", path, name);
    }
    const ns_err rc = ns_h5_attr_scalar(obj, path, name, t, t, &v, err);
    H5Tclose(t);
    return rc;
}

ns_err ns_h5_attr_i64(hid_t obj, const char *path, const char *name, int64_t v, ns_error *err)
{
    return ns_h5_attr_scalar(obj, path, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v, err);
}

ns_err ns_h5_attr_provenance(hid_t obj, const char *path, ns_error *err)
{
    char created[32];
    const time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(created, sizeof created, "unknown");
    ns_err rc;
    if ((rc = ns_h5_attr_text(obj, path, "nimsieve_version", NS_VERSION, err)) ||
        (rc = ns_h5_attr_text(obj, path, "git_revision", NS_GIT_REVISION, err)) ||
        (rc = ns_h5_attr_text(obj, path, "hdf5_version", ns_h5_library_version(), err)) ||
        (rc = ns_h5_attr_text(obj, path, "created_utc", created, err)))
        return rc;
    return NS_OK;
}
