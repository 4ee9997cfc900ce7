/* plot_data.h - what `nimsieve plot` draws, read from a table file: only
 * the datasets drawn, read in bands through HDF5 hyperslabs and reduced to
 * the figure's resolution on the way, so a 16384 x 16384 table needs a few
 * bands of memory, not the table. */
#ifndef NS_PLOT_DATA_H
#define NS_PLOT_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ns_constant.h"
#include "analysis/ns_downsample.h"
#include "analysis/ns_lines.h"
#include "core/ns_error.h"

/* Reduce the window [lo[0], lo[0] + count[0]) x [lo[1], lo[1] + count[1])
 * of the 2-D dataset dsname to at most max_rows x max_cols cells by kind
 * (every cell of the window looked at). plan describes the window (rows =
 * count[0], ...). *grid: malloc'ed plan->out_rows x plan->out_cols, owned
 * by the caller; values NS_DS_EMPTY where a block holds no position. */
ns_err ns_plot_read_grid(const char *path, const char *dsname, ns_ds_kind kind, const int64_t lo[2],
                         const int64_t count[2], int64_t max_rows, int64_t max_cols, ns_ds_plan *plan,
                         uint32_t **grid, ns_error *err);

/* The fits of the P-positions, shared with `patterns` (analysis/ns_lines.h). */
#define NS_PLOT_MAX_LINES NS_LINES_MAX
#define NS_PLOT_LINE_SCATTER NS_LINES_SCATTER
typedef ns_line ns_plot_line;
typedef ns_lines ns_plot_fit;   /* one branch of the P-positions (y > x or y < x) */

/* The P-positions of a two-pile table of n1 x n2; those inside the window
 * win (x in [win[0], win[1]], y in [win[2], win[3]]) are drawn, all of them
 * are fitted. */
typedef struct ns_plot_ppos {
    uint64_t n;          /* rows of /p_positions */
    uint64_t n_diag;     /* with x == y */
    uint64_t n_win;      /* inside the window */
    int64_t *pts;        /* the n_win points (x, y) of the window, when n_win <= limit; owned */
    /* more than limit: which cells of a grid of gw x gh blocks (fx x fy
     * window cells each, as ns_ds_plan; block (0, 0) starts at (win[0],
     * win[2])) hold a P-position; owned */
    uint8_t *occ;
    ns_ds_plan grid;
    ns_plot_fit upper;      /* branch y > x */
    ns_plot_fit lower;      /* branch y < x */
} ns_plot_ppos;

ns_err ns_plot_read_ppos(const char *path, int64_t n1, int64_t n2, const int64_t win[4], int64_t gw_max,
                         int64_t gh_max, uint64_t limit, ns_plot_ppos *pp, ns_error *err);
void ns_plot_ppos_free(ns_plot_ppos *pp);

/* The whole 1-D dataset dsname as uint32 values (*seq malloc'ed, owned by
 * the caller; markers kept as stored, *invalid when *has_invalid). */
ns_err ns_plot_read_sequence(const char *path, const char *dsname, uint32_t **seq, int64_t *n,
                          int *has_invalid, uint32_t *invalid, ns_error *err);

/* Counts of the values 0..vmax over every position of dsname (any rank);
 * *above: positions with larger values. *counts: vmax + 1 entries,
 * malloc'ed, owned by the caller. */
ns_err ns_plot_read_histogram(const char *path, const char *dsname, uint32_t vmax, uint64_t **counts,
                           uint64_t *above, ns_error *err);

/* The dataset's largest value (root attribute max_value; 1 for /pn). */
ns_err ns_plot_max_value(const char *path, const char *dsname, uint32_t *max, ns_error *err);

#endif
