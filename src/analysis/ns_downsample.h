/* ns_downsample.h - reduce a 2-D block of values to an image-sized grid.
 *
 * A source of rows x cols unsigned values is cut into blocks of fr x fc
 * cells (the blocks at the far edges may be smaller); each block becomes
 * one cell of a grid of out_rows x out_cols. The reduction is faithful:
 * every source cell is looked at, none is skipped by striding.
 *
 *   NS_DS_MIN       the smallest value of the block
 *   NS_DS_MAX       the largest value
 *   NS_DS_MODE      the most frequent value (ties: the smallest of them)
 *   NS_DS_PRESENCE  a bit mask: bit v set when value v (v < 32) occurs
 *
 * Cells equal to the invalid marker are not looked at; a grid cell whose
 * block holds no other value is NS_DS_EMPTY (0 for PRESENCE). The data come
 * in bands of whole block rows, so a table larger than memory can be fed
 * band by band. Pure computation: no files, no printing; OpenMP inside a
 * band, with results independent of the thread count. */
#ifndef NS_DOWNSAMPLE_H
#define NS_DOWNSAMPLE_H

#include <stdint.h>

#include "core/ns_error.h"

typedef enum {
    NS_DS_MIN = 0,
    NS_DS_MAX = 1,
    NS_DS_MODE = 2,
    NS_DS_PRESENCE = 3
} ns_ds_kind;

#define NS_DS_EMPTY UINT32_MAX
#define NS_DS_PRESENCE_MAX 31   /* largest value PRESENCE can record */

typedef struct ns_ds_plan {
    int64_t rows, cols;         /* source */
    int64_t fr, fc;             /* block size */
    int64_t out_rows, out_cols; /* grid: ceil(rows / fr) x ceil(cols / fc) */
} ns_ds_plan;

/* The smallest blocks (fr, fc >= 1) whose grid fits max_rows x max_cols. */
ns_err ns_ds_plan_for(int64_t rows, int64_t cols, int64_t max_rows, int64_t max_cols,
                      ns_ds_plan *plan, ns_error *err);

/* "min", "max", "mode", "presence"; and back (NS_EINVAL on other names). */
const char *ns_ds_kind_name(ns_ds_kind kind);
ns_err ns_ds_kind_parse(const char *name, ns_ds_kind *kind, ns_error *err);

typedef struct ns_downsample ns_downsample;   /* opaque */

/* A reducer for plan with an empty grid. has_invalid: whether the source
 * marks non-positions with invalid. threads <= 0: OpenMP's default. Returns
 * NULL and fills err when memory is short. Free with ns_downsample_free. */
ns_downsample *ns_downsample_new(const ns_ds_plan *plan, ns_ds_kind kind, int has_invalid,
                                 uint32_t invalid, int threads, ns_error *err);
void ns_downsample_free(ns_downsample *d);

/* Feed source rows [row0, row0 + nrows), full width (cols values each of
 * elem bytes, 1, 2 or 4, native order, row-major; data is borrowed). row0
 * must be a multiple of fr, and nrows too unless the band ends the source.
 * Each row is fed once; bands may come in any order. */
ns_err ns_downsample_feed(ns_downsample *d, int64_t row0, int64_t nrows, const void *data,
                          int elem, ns_error *err);

/* The grid, out_rows x out_cols row-major; owned by d, valid until it is
 * freed. Complete once every row was fed. */
const uint32_t *ns_downsample_grid(const ns_downsample *d);

/* One call for a whole source in memory: *out gets a malloc'ed grid of
 * plan->out_rows x plan->out_cols (owned by the caller, free()). */
ns_err ns_downsample_all(const ns_ds_plan *plan, ns_ds_kind kind, int has_invalid,
                         uint32_t invalid, const void *data, int elem, int threads,
                         uint32_t **out, ns_error *err);

#endif
