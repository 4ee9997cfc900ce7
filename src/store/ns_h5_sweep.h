/* ns_h5_sweep.h - the file of `nimsieve sweep` (issue 20).
 *
 *   /sweep    1-D compound table, one row per variant, in variant order:
 *             params (string, 128 bytes: "a=3;set=1,3,4", the variant's
 *             parameters as ns_params_format writes them), size (int64:
 *             heap sizes 0 .. size-1 per pile), p_positions (int64),
 *             preperiod, period (int64; one pile, period 0: none found),
 *             proven (uint8), slope_a, slope_b (double; two piles, NaN:
 *             no fit), seconds (double: solve and summary), group
 *             (int64: the first variant, from 0, with an identical table
 *             or sequence; its own row when none), max_value (int64: the
 *             largest value), saltus (int64; one pile: s > 0 when the
 *             period is arithmetic, G(n+p) = G(n) + s); two piles (0 or
 *             "" for one pile): complementary, beatty (uint8), const_a,
 *             const_b, cf_a, cf_b (strings, 96 bytes: the constants
 *             `patterns` names for the slopes and their continued
 *             fractions), rows_additive, additive_pmax (int64: rows of
 *             the first 64 with an additive period, the largest period);
 *             checks (string, 128 bytes: "a-wythoff:ok", the closed-form
 *             theorems that apply; one and two piles). The fields as
 *             ns_sweep_row (analysis/ns_sweep.h) defines them.
 *   root attributes: kind = "sweep", game, ranges (the -D's as given,
 *             separated by spaces), parameters (their names, comma
 *             separated), piles, size, variants, threads, wall_seconds,
 *             nimsieve_version, git_revision, hdf5_version, created_utc;
 *             variants_done (rows in /sweep), keep_tables (0 or 1), and in
 *             an MPI build mpi_ranks (the ranks of the job)
 *   /tables/v0000012  with --keep-tables: variant 12's Grundy values, 1-D
 *             (size) or 2-D (size x size), uint8, uint16 or uint32, the
 *             narrowest that holds its largest value; chunked, shuffle +
 *             deflate + fletcher32; attributes params (as in /sweep) and
 *             variant (its index)
 *
 * The writer (ns_h5_sweep_writer_*) makes the file as the variants finish,
 * in variant order: FILE.part holds the rows done so far (flushed at least
 * every NS_H5_SWEEP_FLUSH_ROWS rows or NS_H5_SWEEP_FLUSH_SECONDS seconds;
 * the metadata reaches the disk only at a flush and freed space is never
 * reused, so a killed writer leaves the .part of its last flush), and the
 * finish renames it to FILE. A sweep stopped early is continued by
 * reopening its .part. Each flush also appends its rows to the journal
 * FILE.part.rows (outside HDF5, append only), from which a resume makes
 * the .part again when a kill during a flush left it unreadable; the
 * journal is removed with the finish. */
#ifndef NS_H5_SWEEP_H
#define NS_H5_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

enum { NS_H5_SWEEP_PARAMS_LEN = 128, NS_H5_SWEEP_TEXT_LEN = 1024, NS_H5_SWEEP_CONST_LEN = 96,
       NS_H5_SWEEP_CHECKS_LEN = 128 };

typedef struct ns_h5_sweep_row {
    char params[NS_H5_SWEEP_PARAMS_LEN];
    int64_t size, p_positions, preperiod, period;
    uint8_t proven;
    double slope_a, slope_b, seconds;
    int64_t group, max_value, saltus;
    uint8_t complementary, beatty;
    char const_a[NS_H5_SWEEP_CONST_LEN], const_b[NS_H5_SWEEP_CONST_LEN];
    char cf_a[NS_H5_SWEEP_CONST_LEN], cf_b[NS_H5_SWEEP_CONST_LEN];
    int64_t rows_additive, additive_pmax;
    char checks[NS_H5_SWEEP_CHECKS_LEN];
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
    int analysed;            /* on read: 1 when /sweep has the columns complementary ..
                                checks (a catalogue written before them: 0, and
                                those fields of the rows are 0 and "", not known) */
    size_t n;
    ns_h5_sweep_row *rows;   /* n rows (borrowed on write, owned on read) */
} ns_h5_sweep;

/* ---- the catalogue written row by row ---- */

enum { NS_H5_SWEEP_FLUSH_ROWS = 64 };
#define NS_H5_SWEEP_FLUSH_SECONDS 2.0

struct ns_table;
typedef struct ns_h5_sweep_writer ns_h5_sweep_writer;

/* Create path.part (replacing one that exists) with an empty /sweep and
 * the root attributes of s (s->n: the variants in all; s->rows unused);
 * keep_tables makes /tables. *out owned: ends with _finish or _close. */
ns_err ns_h5_sweep_writer_create(const char *path, const ns_h5_sweep *s, int keep_tables,
                                 ns_h5_sweep_writer **out, ns_error *err);

/* Reopen path.part, left by an interrupted sweep, to continue it: refused
 * (NS_EINVAL, one line naming what differs) unless its game, ranges,
 * parameters, piles, size, variants (s->n) and keep_tables equal s's and
 * keep_tables. *done: the rows it holds (the next variant to run);
 * *prior_seconds: the wall time of the runs before. A table of variant
 * *done (written, its row not) is removed. A .part that HDF5 cannot open
 * (a kill during a flush) is made again from its journal,
 * path.part.rows (the rows of every flush; not with keep_tables: the
 * tables were only in the .part): *rebuilt 1, *done the journal's rows,
 * *prior_seconds 0 (not recorded there). */
ns_err ns_h5_sweep_writer_reopen(const char *path, const ns_h5_sweep *s, int keep_tables, uint64_t *done,
                                 double *prior_seconds, int *rebuilt, ns_h5_sweep_writer **out, ns_error *err);

/* Append the row of the next variant; flushes when due. */
ns_err ns_h5_sweep_writer_append(ns_h5_sweep_writer *w, const ns_h5_sweep_row *row, ns_error *err);

/* Write variant i's table t (Grundy values, 1 or 2 piles, every cell
 * valid) as /tables/vNNNNNNN (keep_tables only); before its row. */
ns_err ns_h5_sweep_writer_table(ns_h5_sweep_writer *w, uint64_t i, const char *params, const struct ns_table *t,
                                ns_error *err);

/* Rows written so far. */
uint64_t ns_h5_sweep_writer_rows(const ns_h5_sweep_writer *w);

/* The group column of the rows written so far (ns_h5_sweep_writer_rows of
 * them) into group: a resume rebuilds the groups from it. */
ns_err ns_h5_sweep_writer_groups(ns_h5_sweep_writer *w, int64_t *group, ns_error *err);

/* All rows are in: write wall_seconds (all runs), variants_done and
 * threads, close, rename path.part to path. Frees w (also on failure,
 * when the .part is kept). */
ns_err ns_h5_sweep_writer_finish(ns_h5_sweep_writer *w, double wall_seconds, int threads, ns_error *err);

/* Stop early: flush wall_seconds (all runs so far) and variants_done and
 * close, keeping path.part for a resume. Frees w (NULL: nothing). */
ns_err ns_h5_sweep_writer_close(ns_h5_sweep_writer *w, double wall_seconds, ns_error *err);

/* Read path back (kind must be "sweep"): *out owned, free with
 * ns_h5_sweep_free. */
ns_err ns_h5_sweep_read(const char *path, ns_h5_sweep **out, ns_error *err);
void ns_h5_sweep_free(ns_h5_sweep *s);

#endif
