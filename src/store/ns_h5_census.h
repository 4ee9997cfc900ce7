/* ns_h5_census.h - the file of `nimsieve census` (issue 17, item 6).
 *
 *   /census   1-D compound table, one row per code, in code order:
 *             code (string, 16 bytes, null-terminated), period (int64, 0:
 *             none observed), preperiod (int64), proven (uint8 0/1),
 *             max_value (uint32), group (int64: the row of the first code
 *             with the same sequence), saltus (int64: s > 0 when the
 *             period is arithmetic, G(n+p) = G(n) + s, observed only)
 *   root attributes: digits, size (heap sizes 0 .. size-1), codes, groups,
 *             proven, threads, wall_seconds, (MPI builds) mpi_ranks,
 *             nimsieve_version,
 *             git_revision, hdf5_version, created_utc, kind = "census" */
#ifndef NS_H5_CENSUS_H
#define NS_H5_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

enum { NS_H5_CENSUS_CODE_LEN = 16 };

/* The columns (borrowed), n rows each. */
typedef struct ns_h5_census_cols {
    int digits;
    int64_t size;
    size_t n, ngroups, nproven;
    const char (*code)[NS_H5_CENSUS_CODE_LEN];
    const int64_t *period, *preperiod, *group;
    const int64_t *saltus;  /* OPTIONAL: NULL writes zeros */
    const uint8_t *proven;
    const uint32_t *max_value;
    int threads;
    double wall_seconds;
    int mpi_ranks;          /* > 0: the attribute mpi_ranks (MPI builds) */
} ns_h5_census_cols;

/* Write the census to path (through path.part, renamed at the end, so a
 * failed write leaves no half file under path). */
ns_err ns_h5_census_write(const char *path, const ns_h5_census_cols *c, ns_error *err);

/* Is path a census file (an HDF5 file whose root attribute kind is
 * "census")? 0 for anything else, unreadable files included. */
int ns_h5_census_probe(const char *path);

/* A census file read back: the columns, owned (ns_h5_census_table_free). */
typedef struct ns_h5_census_table {
    int digits;
    int64_t size;
    size_t n;
    char (*code)[NS_H5_CENSUS_CODE_LEN];
    int64_t *period, *preperiod, *group, *saltus;
    uint8_t *proven;
    uint32_t *max_value;
} ns_h5_census_table;

/* Read /census and the attributes digits and size of path. */
ns_err ns_h5_census_read(const char *path, ns_h5_census_table **out, ns_error *err);
void ns_h5_census_table_free(ns_h5_census_table *t);

#endif
