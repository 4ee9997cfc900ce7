/* ns_census.h - a census of octal games (issue 17, item 6): every code
 * 0.d1..dD with digits 0-7 and dD != 0 (7 * 8^(D-1) codes), each solved
 * to N heap sizes through the sweep driver (ns_sweep.h: one game per
 * thread, through the engine door), its period found by ns_period as the
 * sweep's one-pile summary finds it, and the codes grouped by identical
 * sequences (ns_group.h).
 *
 * Grouping: a sequence's 64-bit hash picks the candidates, which are then
 * compared value by value, so two codes share a group exactly when their
 * sequences G(0..N-1) are equal. Codes are grouped in code order (the
 * driver's ordered callback), and only one sequence per group is kept, so
 * the result does not depend on the number of threads and memory is about
 * (groups + codes held by the driver) x N values. The census is the sweep
 * `nimsieve sweep octal -D code=octal(D)` with these columns. */
#ifndef NS_CENSUS_H
#define NS_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ns_sweep.h"
#include "core/ns_error.h"

enum { NS_CENSUS_MAX_DIGITS = 4, NS_CENSUS_CODE_LEN = 16 };

/* The census's columns, one entry per code, codes in increasing order
 * (0.01, 0.02, .., 0.07, 0.11, ..); all arrays ncodes long, owned. */
typedef struct ns_census {
    int digits;
    int64_t size;                           /* N: heap sizes 0 .. N-1 */
    size_t ncodes;
    char (*code)[NS_CENSUS_CODE_LEN];       /* "0.137" */
    int64_t *period;                        /* 0: none observed */
    int64_t *preperiod;                     /* 0 when no period */
    int64_t *saltus;                        /* s > 0: G(n+p) = G(n) + s observed in the
                                               range (never proven; 0: a pure period
                                               or none) */
    uint8_t *proven;                        /* 1: by the periodicity theorem */
    uint32_t *max_value;                    /* largest G(n), n < N */
    int64_t *group;                         /* index of the first code with the
                                               same sequence (itself if none) */
    size_t ngroups;                         /* distinct sequences */
    size_t nproven;
    size_t nderived;                        /* codes whose sequence followed from
                                               their parent's (ns_census.c) */
} ns_census;

/* Progress: called after each code is solved (one call at a time) with
 * the codes done and the total. Return non-zero to stop (the census then
 * fails with NS_EINTR). */
typedef int (*ns_census_progress_fn)(void *user, size_t done, size_t total);

/* Number of codes of a census of digits digits (1..NS_CENSUS_MAX_DIGITS). */
size_t ns_census_count(int digits);

/* The i-th code (0 <= i < ns_census_count(digits)) into buf. */
void ns_census_code(int digits, size_t i, char buf[NS_CENSUS_CODE_LEN]);

/* The driver that runs the codes: ns_sweep_run (analysis/ns_sweep.h) or
 * one with its contract (dist/ns_dist_sweep.h: across MPI ranks, where only
 * rank 0 gets the columns; on the other ranks the census returned is
 * empty but for its code list). */
typedef ns_err (*ns_census_driver_fn)(const ns_sweep_job *job, ns_sweep_row *rows, ns_error *err);

/* Run the census: digits 1..NS_CENSUS_MAX_DIGITS, size >= 1, threads
 * games at once (<= 0: OpenMP's default), driver OPTIONAL (NULL:
 * ns_sweep_run), progress OPTIONAL. Returns a new census (caller frees
 * with ns_census_free) or NULL with err set. */
ns_census *ns_census_run(int digits, int64_t size, int threads, ns_census_driver_fn driver,
                         ns_census_progress_fn progress, void *user, ns_error *err);
void ns_census_free(ns_census *c);

#endif
