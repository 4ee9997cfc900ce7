/* ns_sieve.h - fill a table with Grundy values or P/N flags by the sieve.
 *
 * Levels of equal rank are processed in increasing order; the cells of one
 * level are independent and run in parallel. Ray families are handled per
 * line: each line of the table keeps the set of values seen on it (a bitset
 * and its own mex), so a cell's ray options are never enumerated. A prefix
 * family keeps one running set per line along its axis and adds only the
 * options new at each cell. Finite and general families are enumerated per
 * cell. The result does not depend on
 * the number of threads. The kernel touches no files and prints nothing. */
#ifndef NS_SIEVE_H
#define NS_SIEVE_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

/* Progress callback: called from the calling thread between levels with the
 * fraction of cells done; return non-zero to stop (the solve then fails
 * with NS_EINTR). */
typedef int (*ns_progress_fn)(void *user, double fraction);

/* Checkpoints. Every kernel does its work in units taken in a fixed order
 * (general engine: rank levels; rows_pn: rows; tiles2d: tile wavefronts).
 * After each unit it calls checkpoint(user, units_done, units_total) from
 * one thread while no thread writes the table: the cells of units
 * 0..units_done-1 then hold their final values (cells of later units may hold
 * anything). The callback may copy the table (to a checkpoint file); a
 * non-zero return stops the kernel, which then fails with NS_EINTR.
 *
 * Resume. With resume_units = u > 0 the table handed to the kernel already
 * holds the final values of units 0..u-1 (from a checkpoint of the same game,
 * bounds, kernel and value kind); the kernel rebuilds its per-line state from
 * them without recomputing them, then computes units u.. as usual. The
 * result is bit-identical to an uninterrupted run. */
typedef int (*ns_checkpoint_fn)(void *user, uint64_t units_done, uint64_t units_total);

/* Streaming (tables larger than memory; the tiles2d kernel only, see
 * ns_sieve_can_stream). With tile_sink set, ns_sieve_run takes t == NULL,
 * keeps only the per-line sets, and hands every finished tile to
 * tile_sink(user, x0, y0, nx, ny, vals): the cells (x0 + i, y0 + j),
 * 0 <= i < nx, 0 <= j < ny, with vals[i * ny + j] (borrowed for the call).
 * It is called on the worker threads, several at once, each tile once, in
 * no fixed order. A non-zero return stops the kernel, which fails with
 * NS_EIO (the sink keeps its own message). No checkpoints, no resume. */
typedef int (*ns_tile_fn)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals);

/* Streaming P/N tables (the rows-pn kernel only, see ns_sieve_can_stream):
 * with rows_sink set, ns_sieve_run takes t == NULL and hands every finished
 * block of rows to rows_sink(user, x0, nrows, words, p): the P-positions of
 * rows x0 .. x0 + nrows - 1 as bitmaps, bit y of row x0 + i being
 * p[i * words + y / 64] >> (y % 64) & 1 (borrowed for the call). Called on
 * the calling thread, blocks in row order (the sink may run parallel
 * loops of its own); non-zero stops the kernel with NS_EIO. No
 * checkpoints, no resume. */
typedef int (*ns_rows_fn)(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p);

/* How the two-pile Grundy kernel (tiles2d) finds a cell's mex; the
 * tables are the same. */
typedef enum ns_mex_method {
    NS_MEX_SUMMARY = 0,     /* the default: only the words where no line's
                               word is full, from summaries of full words */
    NS_MEX_SCAN = 1,        /* the union scanned from the lines' first
                               non-full word, 32 words a step with AVX-512
                               where the processor has it */
    NS_MEX_SCAN_NARROW = 2  /* the same scan, four words a step */
} ns_mex_method;

typedef struct ns_sieve_opts {
    int threads;            /* <= 0: OpenMP's default */
    int pn_only;            /* P/N flags instead of Grundy values */
    ns_progress_fn progress;/* OPTIONAL */
    void *progress_user;
    ns_checkpoint_fn checkpoint; /* OPTIONAL */
    void *checkpoint_user;
    uint64_t resume_units;  /* 0: a fresh run */
    ns_tile_fn tile_sink;   /* OPTIONAL: streaming, see ns_tile_fn */
    void *tile_user;
    ns_mex_method mex_scan; /* tiles2d: how a cell's mex is found (the
                               benchmark's and the tests' comparisons) */
    ns_rows_fn rows_sink;   /* OPTIONAL: P/N streaming, see ns_rows_fn */
    void *rows_user;
} ns_sieve_opts;

/* Name of the kernel ns_sieve_run picks for g and opts ("general",
 * "rows-pn", "tiles2d"); a checkpoint records it, and a resume requires the
 * same one (units of different kernels do not correspond). */
const char *ns_sieve_kernel_name(const ns_game *g, const ns_sieve_opts *opts);

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

/* Fill t (from ns_sieve_table_new for the same g and pn_only); with
 * opts->tile_sink (Grundy) or opts->rows_sink (P/N), t is NULL and the
 * tiles or rows go to the sink. */
ns_err ns_sieve_run(const ns_game *g, ns_table *t, const ns_sieve_opts *opts, ns_error *err);

/* Can g be solved streaming (opts->tile_sink for Grundy tables,
 * opts->rows_sink for P/N ones, by opts->pn_only)? Then *tile gets the tile
 * side (the sink sees tiles of at most tile x tile cells, aligned to it),
 * or for P/N the rows of a block (blocks of that many rows, the last one
 * maybe shorter), and *line_bytes the memory the kernel keeps (line sets
 * or flags, row bitmaps). */
int ns_sieve_can_stream(const ns_game *g, const ns_sieve_opts *opts, int64_t *tile, uint64_t *line_bytes);

/* The general kernel alone (levels of equal rank), bypassing any faster
 * special-purpose kernel: for tests and benchmarks that compare them. */
ns_err ns_sieve_run_general(const ns_game *g, ns_table *t, const ns_sieve_opts *opts, ns_error *err);

/* Value of position s from the values of its options, computed by explicit
 * enumeration (ns_game_foreach_option) and a mex over t: the independent
 * reference used by `verify` and the tests. *out gets the value (0/1 for a
 * P/N table). */
ns_err ns_naive_cell(const ns_game *g, const ns_table *t, const int64_t *s, uint32_t *out, ns_error *err);

#endif
