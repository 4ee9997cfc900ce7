/* ns_h5_sweep_tables.h - what `nimsieve plot` reads of a sweep file beyond
 * its catalogue (ns_h5_sweep.h): whether a file is one, and a corner of a
 * variant's kept table, /tables/vNNNNNNN (v and the variant index in 7
 * digits; 1-D or 2-D Grundy values, as `sweep --keep-tables` writes them). */
#ifndef NS_H5_SWEEP_TABLES_H
#define NS_H5_SWEEP_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

/* 1 when path is an HDF5 file whose root attribute kind is "sweep". */
int ns_h5_sweep_probe(const char *path);

/* The corner [0, side) (1-D) or [0, side)^2 (2-D, clipped to the dataset)
 * of variant i's kept table as uint32 values, row-major: *vals malloc'ed,
 * owned by the caller, dims[0] x dims[1] (dims[1] = 1 for 1-D), *rank 1 or
 * 2. *found 0 (and no error) when the file keeps no table for i. */
ns_err ns_h5_sweep_read_corner(const char *path, uint64_t i, int64_t side, uint32_t **vals, int64_t dims[2],
                               int *rank, int *found, ns_error *err);

#endif
