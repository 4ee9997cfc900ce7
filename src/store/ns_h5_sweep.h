/* ns_h5_sweep.h - the file of `nimsieve sweep` (issue 20).
 *
 *   /sweep    1-D compound table, one row per variant, in variant order:
 *             params (string, 128 bytes: "a=3;set=1,3,4", the variant's
 *             parameters as ns_params_format writes them), size (int64:
 *             heap sizes 0 .. size-1 per pile), p_positions (int64),
 *             preperiod, period (int64; one pile, period 0: none found),
 *             proven (uint8), slope_a, slope_b (double; two piles, NaN:
 *             no fit), seconds (double: solve and summary)
 *   root attributes: kind = "sweep", game, ranges (the -D's as given,
 *             separated by spaces), parameters (their names, comma
 *             separated), piles, size, variants, threads, wall_seconds,
 *             nimsieve_version, git_revision, hdf5_version, created_utc,
 *             and in an MPI build mpi_ranks (the ranks of the job) */
#ifndef NS_H5_SWEEP_H
#define NS_H5_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

enum { NS_H5_SWEEP_PARAMS_LEN = 128, NS_H5_SWEEP_TEXT_LEN = 1024 };

typedef struct ns_h5_sweep_row {
    char params[NS_H5_SWEEP_PARAMS_LEN];
    int64_t size, p_positions, preperiod, period;
    uint8_t proven;
    double slope_a, slope_b, seconds;
} ns_h5_sweep_row;

typedef struct ns_h5_sweep {
    char game[NS_H5_SWEEP_TEXT_LEN];
    char ranges[NS_H5_SWEEP_TEXT_LEN];
    char parameters[NS_H5_SWEEP_TEXT_LEN];
    int piles;
    int64_t size;
    int threads;
    double wall_seconds;
    int mpi_ranks;           /* > 0: written as the attribute mpi_ranks (MPI builds) */
    size_t n;
    ns_h5_sweep_row *rows;   /* n rows (borrowed on write, owned on read) */
} ns_h5_sweep;

/* Write to path through path.part, renamed at the end (a failed write
 * leaves no half file under path). */
ns_err ns_h5_sweep_write(const char *path, const ns_h5_sweep *s, ns_error *err);

/* Read path back (kind must be "sweep"): *out owned, free with
 * ns_h5_sweep_free. */
ns_err ns_h5_sweep_read(const char *path, ns_h5_sweep **out, ns_error *err);
void ns_h5_sweep_free(ns_h5_sweep *s);

#endif
