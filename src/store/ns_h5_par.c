/* ns_h5_par.c - MPI-IO access for a table file written by every rank of
 * an MPI job (ns_h5_write_par in ns_h5.h; issue 21): the file access and
 * transfer properties and the few collective calls the writer needs. Part
 * of the HDF5 layer; the only file of it that includes mpi.h, and only in
 * an MPI build (NS_MPI) against a parallel HDF5 (H5_HAVE_PARALLEL).
 * Elsewhere ns_h5_par_open fails and nothing else is reached. */
#include "store/ns_h5_internal.h"

#include <string.h>

#if defined(NS_MPI) && defined(H5_HAVE_PARALLEL)
#include <mpi.h>
#define PAR 1
#else
#define PAR 0
#endif

ns_err ns_h5_par_open(const void *comm, const char *path, ns_h5_par *p, ns_error *err)
{
    memset(p, 0, sizeof *p);
    p->fapl = p->dxpl = H5I_INVALID_HID;
#if PAR
    if (!comm)
        return ns_error_set(err, NS_EINTERNAL, "%s: parallel write without a communicator", path);
    MPI_Comm c = *(const MPI_Comm *)comm;
    p->comm = comm;
    if (MPI_Comm_rank(c, &p->rank) != MPI_SUCCESS || MPI_Comm_size(c, &p->size) != MPI_SUCCESS)
        return ns_error_set(err, NS_EINTERNAL, "%s: MPI cannot say this rank and the number of ranks", path);
    p->fapl = H5Pcreate(H5P_FILE_ACCESS);
    p->dxpl = H5Pcreate(H5P_DATASET_XFER);
    /* strong close, as the single-process writer; filtered datasets take
     * collective writes only (HDF5 >= 1.10.2) */
    if (p->fapl < 0 || p->dxpl < 0 || H5Pset_fapl_mpio(p->fapl, c, MPI_INFO_NULL) < 0 ||
        H5Pset_fclose_degree(p->fapl, H5F_CLOSE_STRONG) < 0 ||
        H5Pset_dxpl_mpio(p->dxpl, H5FD_MPIO_COLLECTIVE) < 0) {
        ns_err rc = ns_h5_fail(err, NS_EIO, "%s: cannot set up MPI-IO file access (parallel HDF5)", path);
        ns_h5_par_close(p);
        return rc;
    }
    return NS_OK;
#else
    (void)comm;
    return ns_error_set(err, NS_EINTERNAL, "%s: this build has no parallel HDF5 (build with -DNS_MPI=ON)", path);
#endif
}

void ns_h5_par_close(ns_h5_par *p)
{
    if (p->fapl >= 0)
        H5Pclose(p->fapl);
    if (p->dxpl >= 0)
        H5Pclose(p->dxpl);
    p->fapl = p->dxpl = H5I_INVALID_HID;
}

void ns_h5_par_bcast(const ns_h5_par *p, void *buf, size_t n)
{
#if PAR
    MPI_Bcast(buf, (int)n, MPI_BYTE, 0, *(const MPI_Comm *)p->comm);
#else
    (void)p;
    (void)buf;
    (void)n;
#endif
}

int ns_h5_par_max(const ns_h5_par *p, int v)
{
#if PAR
    int out = v;
    if (MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, *(const MPI_Comm *)p->comm) != MPI_SUCCESS)
        return v ? v : NS_EINTERNAL;
    return out;
#else
    (void)p;
    return v;
#endif
}
