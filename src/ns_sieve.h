/* ns_sieve.h - fill a table with Grundy values or P/N flags by the sieve.
 *
 * Levels of equal rank are processed in increasing order; the cells of one
 * level are independent and run in parallel. Ray families are handled per
 * line: each line of the table keeps the set of values seen on it (a bitset
 * and its own mex), so a cell's ray options are never enumerated. Finite and
 * general families are enumerated per cell. The result does not depend on
 * the number of threads. The kernel touches no files and prints nothing. */
#ifndef NS_SIEVE_H
#define NS_SIEVE_H

#include <stdint.h>

#include "ns_error.h"
#include "ns_game.h"
#include "ns_table.h"

/* Progress callback: called from the calling thread between levels with the
 * fraction of cells done; return non-zero to stop (the solve then fails
 * with NS_EINTR). */
typedef int (*ns_progress_fn)(void *user, double fraction);

typedef struct ns_sieve_opts {
    int threads;            /* <= 0: OpenMP's default */
    int pn_only;            /* P/N flags instead of Grundy values */
    ns_progress_fn progress;/* OPTIONAL */
    void *progress_user;
} ns_sieve_opts;

/* Plan of a solve: sizes the caller may show or check against a budget. */
typedef struct ns_sieve_plan {
    uint64_t cells;
    uint64_t max_value;     /* bound on any value (1 for P/N) */
    int elem;               /* table cell width in bytes */
    uint64_t table_bytes;
    uint64_t line_bytes;    /* per-line sets */
    int nlinesets;          /* distinct (direction, lag) line-set groups */
    int64_t levels;         /* number of rank levels */
} ns_sieve_plan;

/* Work out the plan for g (bounds set) without allocating anything. */
ns_err ns_sieve_plan_for(const ns_game *g, int pn_only, ns_sieve_plan *plan, ns_error *err);

/* Allocate the table for g as planned (caller frees with ns_table_free). */
ns_table *ns_sieve_table_new(const ns_game *g, int pn_only, ns_error *err);

/* Fill t (from ns_sieve_table_new for the same g and pn_only). */
ns_err ns_sieve_run(const ns_game *g, ns_table *t, const ns_sieve_opts *opts, ns_error *err);

/* The general kernel alone (levels of equal rank), bypassing any faster
 * special-purpose kernel: for tests and benchmarks that compare them. */
ns_err ns_sieve_run_general(const ns_game *g, ns_table *t, const ns_sieve_opts *opts, ns_error *err);

/* Value of position s from the values of its options, computed by explicit
 * enumeration (ns_game_foreach_option) and a mex over t: the independent
 * reference used by `verify` and the tests. *out gets the value (0/1 for a
 * P/N table). */
ns_err ns_naive_cell(const ns_game *g, const ns_table *t, const int64_t *s, uint32_t *out, ns_error *err);

#endif
