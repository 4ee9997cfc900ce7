/* ns_plot_data.c - see plot_data.h */
#include "cli/plot_data.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_patterns.h"
#include "store/ns_h5.h"

/* Bytes of table data read at once (a band), at least one block row. */
#define BAND_BYTES ((uint64_t)64 << 20)
/* Points kept per branch for the least-squares fit. */
/* Rows of /p_positions read at once. */
#define PPOS_ROWS ((int64_t)1 << 16)
/* Longest sequence plotted. */
#define SEQ_MAX ((int64_t)1 << 27)
/* Most histogram bins. */
#define HIST_MAX ((uint32_t)1 << 24)

static uint32_t load(const void *data, int elem, size_t i)
{
    switch (elem) {
    case 1: return ((const uint8_t *)data)[i];
    case 2: return ((const uint16_t *)data)[i];
    default: return ((const uint32_t *)data)[i];
    }
}

ns_err ns_plot_max_value(const char *path, const char *dsname, uint32_t *max, ns_error *err)
{
    ns_h5_region *r = NULL;
    ns_err rc = ns_h5_region_open(path, dsname, &r, err);
    if (rc)
        return rc;
    *max = ns_h5_region_info(r)->max_value;
    ns_h5_region_close(r);
    return NS_OK;
}

/* Open dsname and check it is a table of the given rank. */
static ns_err open_table(const char *path, const char *dsname, int rank, ns_h5_region **r,
                         ns_error *err)
{
    ns_err rc = ns_h5_region_open(path, dsname, r, err);
    if (rc)
        return rc;
    const ns_h5_dsinfo *in = ns_h5_region_info(*r);
    if (in->is_signed || in->elem > 4 || (rank > 0 && in->rank != rank)) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: dataset /%s has rank %d and %d-byte %s values, expected a %s table",
                          path, dsname, in->rank, in->elem, in->is_signed ? "signed" : "unsigned",
                          rank == 1 ? "one-pile" : rank == 2 ? "two-pile" : "");
        ns_h5_region_close(*r);
        *r = NULL;
    }
    return rc;
}

/* ------------------------------------------------------------------ grid */

ns_err ns_plot_read_grid(const char *path, const char *dsname, ns_ds_kind kind, const int64_t lo[2],
                         const int64_t count[2], int64_t max_rows, int64_t max_cols, ns_ds_plan *plan,
                         uint32_t **grid, ns_error *err)
{
    *grid = NULL;
    ns_h5_region *r = NULL;
    ns_downsample *d = NULL;
    void *buf = NULL;
    ns_err rc = open_table(path, dsname, 2, &r, err);
    if (rc)
        return rc;
    const ns_h5_dsinfo *in = ns_h5_region_info(r);
    if (lo[0] < 0 || lo[1] < 0 || count[0] < 1 || count[1] < 1 || lo[0] + count[0] > in->dims[0] ||
        lo[1] + count[1] > in->dims[1]) {
        rc = ns_error_set(err, NS_ERANGE, "%s: the window %" PRId64 "..%" PRId64 " x %" PRId64 "..%" PRId64
                          " lies outside /%s of %" PRId64 " x %" PRId64, path, lo[0], lo[0] + count[0] - 1, lo[1],
                          lo[1] + count[1] - 1, dsname, in->dims[0], in->dims[1]);
        goto fail;
    }
    const int64_t rows = count[0], cols = count[1];
    if ((rc = ns_ds_plan_for(rows, cols, max_rows, max_cols, plan, err)))
        goto fail;
    d = ns_downsample_new(plan, kind, in->has_invalid, in->invalid, 0, err);
    if (!d) {
        rc = err && err->code ? err->code : NS_ENOMEM;
        goto fail;
    }
    /* bands of whole block rows, about one row of chunks high, so the
     * chunk cache decompresses each chunk once */
    const uint64_t row_bytes = (uint64_t)cols * (uint64_t)in->elem;
    int64_t per = in->chunk[0] > plan->fr ? in->chunk[0] / plan->fr : 1;
    while (per > 1 && (uint64_t)(per * plan->fr) * row_bytes > BAND_BYTES)
        per /= 2;
    const int64_t band = per * plan->fr < rows ? per * plan->fr : rows;
    if ((uint64_t)band * row_bytes > SIZE_MAX || !(buf = malloc((size_t)((uint64_t)band * row_bytes)))) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory for a band of %" PRId64 " rows of %s", band, path);
        goto fail;
    }
    for (int64_t r0 = 0; r0 < rows; r0 += band) {
        int64_t at[2] = {lo[0] + r0, lo[1]}, n[2] = {band < rows - r0 ? band : rows - r0, cols};
        if ((rc = ns_h5_region_read(r, at, n, NULL, buf, err)) ||
            (rc = ns_downsample_feed(d, r0, n[0], buf, in->elem, err)))
            goto fail;
    }
    size_t n = (size_t)plan->out_rows * (size_t)plan->out_cols;
    *grid = malloc(n * sizeof **grid);
    if (!*grid) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    memcpy(*grid, ns_downsample_grid(d), n * sizeof **grid);

fail:
    free(buf);
    ns_downsample_free(d);
    ns_h5_region_close(r);
    return rc;
}

/* ----------------------------------------------------------- P-positions */

void ns_plot_ppos_free(ns_plot_ppos *pp)
{
    free(pp->pts);
    free(pp->occ);
    memset(pp, 0, sizeof *pp);
}

/* One P-position (x, y): into the window's points (at most cap) or pixels,
 * and into the fit of its side of the diagonal. 0 when out of memory. */
static int ppos_add(ns_plot_ppos *pp, ns_lines_acc *up, ns_lines_acc *lo, const int64_t win[4], uint64_t cap,
                    int64_t x, int64_t y)
{
    if (x >= win[0] && x <= win[1] && y >= win[2] && y <= win[3]) {
        if (pp->n_win < cap) {
            pp->pts[2 * pp->n_win] = x;
            pp->pts[2 * pp->n_win + 1] = y;
        }
        if (pp->occ)
            pp->occ[((x - win[0]) / pp->grid.fr) * pp->grid.out_cols + (y - win[2]) / pp->grid.fc] = 1;
        pp->n_win++;
    }
    if (y > x)
        return ns_lines_add(up, (double)x, (double)y);
    if (y < x)
        return ns_lines_add(lo, (double)x, (double)y);
    pp->n_diag++;
    return 1;
}

static int cmp_point(const void *a, const void *b)
{
    const int64_t *p = a, *q = b;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

/* The P-positions of a symmetric two-pile file with their mirror images,
 * row-major: *out (owned by the caller) holds *m points. */
static ns_err read_ppos_mirrored(ns_h5_region *r, const char *path, int64_t n1, int64_t n2, int64_t **out,
                                 uint64_t *m, ns_error *err)
{
    const ns_h5_dsinfo *in = ns_h5_region_info(r);
    const uint64_t stored = (uint64_t)in->dims[0];
    int64_t *all = malloc((stored ? 2 * stored : 1) * 2 * sizeof *all);
    if (!all)
        return ns_error_set(err, NS_ENOMEM, "out of memory reading the P-positions of %s", path);
    uint64_t n = 0;
    if (stored) {
        int64_t start[2] = {0, 0}, count[2] = {in->dims[0], 2};
        ns_err rc = ns_h5_region_read(r, start, count, NULL, all, err);
        if (rc) {
            free(all);
            return rc;
        }
    }
    n = stored;
    for (uint64_t i = 0; i < stored; i++) {
        int64_t x = all[2 * i], y = all[2 * i + 1];
        if (x < 0 || x >= n1 || y < 0 || y >= n2 || x > y) {
            free(all);
            return ns_error_set(err, NS_EFORMAT, "%s: /p_positions row %" PRIu64 " is (%" PRId64 ", %" PRId64
                                "), expected a sorted cell (x <= y) of the table of %" PRId64 " x %" PRId64
                                " (attribute symmetric)", path, i, x, y, n1, n2);
        }
        if (x != y) {
            all[2 * n] = y;
            all[2 * n + 1] = x;
            n++;
        }
    }
    qsort(all, (size_t)n, 2 * sizeof *all, cmp_point);
    *out = all;
    *m = n;
    return NS_OK;
}

ns_err ns_plot_read_ppos(const char *path, int64_t n1, int64_t n2, const int64_t win[4], int64_t gw_max,
                         int64_t gh_max, uint64_t limit, ns_plot_ppos *pp, ns_error *err)
{
    memset(pp, 0, sizeof *pp);
    ns_lines_acc up = NS_LINES_ACC_INIT, lo = NS_LINES_ACC_INIT;
    int64_t *buf = NULL;
    ns_h5_region *r = NULL;
    ns_err rc = ns_h5_region_open(path, "p_positions", &r, err);
    if (rc)
        return rc;
    const ns_h5_dsinfo *in = ns_h5_region_info(r);
    if (in->rank != 2 || in->dims[1] != 2 || !in->is_signed || in->elem != 8) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: /p_positions is not an n x 2 table of int64", path);
        goto fail;
    }
    pp->n = (uint64_t)in->dims[0];
    if ((rc = ns_ds_plan_for(win[1] - win[0] + 1, win[3] - win[2] + 1, gw_max, gh_max, &pp->grid, err)))
        goto fail;
    /* the points of the window one by one while there are at most limit,
     * and (when the table holds more) the pixels that hold any */
    const uint64_t cap = pp->n < limit ? pp->n : limit;
    pp->pts = malloc((cap ? cap : 1) * 2 * sizeof *pp->pts);
    if (!pp->pts)
        goto nomem;
    if (pp->n > limit) {
        pp->occ = calloc((size_t)(pp->grid.out_rows * pp->grid.out_cols), 1);
        if (!pp->occ)
            goto nomem;
    }
    buf = malloc((size_t)PPOS_ROWS * 2 * sizeof *buf);
    if (!buf)
        goto nomem;
    if (in->nsym == 2) {
        /* a symmetric game's file lists the sorted P-positions (x <= y):
         * the figure shows the whole game, so each comes with its mirror
         * image, all in the order of an unsymmetric file (row-major) */
        int64_t *all = NULL;
        uint64_t m = 0;
        if ((rc = read_ppos_mirrored(r, path, n1, n2, &all, &m, err)))
            goto fail;
        pp->n = m;
        if (m > limit) {
            if (!pp->occ && !(pp->occ = calloc((size_t)(pp->grid.out_rows * pp->grid.out_cols), 1))) {
                free(all);
                goto nomem;
            }
        } else if (m > cap) {
            int64_t *grown = realloc(pp->pts, (size_t)m * 2 * sizeof *grown);
            if (!grown) {
                free(all);
                goto nomem;
            }
            pp->pts = grown;
        }
        const uint64_t cap2 = m < limit ? m : limit;
        for (uint64_t i = 0; i < m; i++)
            if (!ppos_add(pp, &up, &lo, win, cap2, all[2 * i], all[2 * i + 1])) {
                free(all);
                goto nomem;
            }
        free(all);
        if (pp->n_win > cap2) {
            free(pp->pts);
            pp->pts = NULL;
        } else {
            free(pp->occ);
            pp->occ = NULL;
        }
        goto fitted;
    }
    for (int64_t r0 = 0; r0 < in->dims[0]; r0 += PPOS_ROWS) {
        int64_t start[2] = {r0, 0}, count[2] = {in->dims[0] - r0 < PPOS_ROWS ? in->dims[0] - r0 : PPOS_ROWS, 2};
        if ((rc = ns_h5_region_read(r, start, count, NULL, buf, err)))
            goto fail;
        for (int64_t i = 0; i < count[0]; i++) {
            int64_t x = buf[2 * i], y = buf[2 * i + 1];
            if (x < 0 || x >= n1 || y < 0 || y >= n2) {
                rc = ns_error_set(err, NS_EFORMAT, "%s: /p_positions row %" PRId64 " is (%" PRId64 ", %" PRId64
                                  "), outside the table of %" PRId64 " x %" PRId64, path, r0 + i, x, y, n1, n2);
                goto fail;
            }
            if (!ppos_add(pp, &up, &lo, win, cap, x, y))
                goto nomem;
        }
    }
    if (pp->n_win > cap) {
        free(pp->pts);
        pp->pts = NULL;
    } else {
        free(pp->occ);
        pp->occ = NULL;
    }
fitted:
    ns_lines_finish(&up, (double)(n1 + n2) / 10.0, &pp->upper);
    ns_lines_finish(&lo, (double)(n1 + n2) / 10.0, &pp->lower);
    free(buf);
    ns_h5_region_close(r);
    return NS_OK;

nomem:
    rc = ns_error_set(err, NS_ENOMEM, "out of memory reading the P-positions of %s", path);
fail:
    free(up.x);
    free(up.y);
    free(lo.x);
    free(lo.y);
    free(buf);
    ns_plot_ppos_free(pp);
    ns_h5_region_close(r);
    return rc;
}

/* -------------------------------------------------------------- sequence */

ns_err ns_plot_read_sequence(const char *path, const char *dsname, uint32_t **seq, int64_t *n,
                          int *has_invalid, uint32_t *invalid, ns_error *err)
{
    *seq = NULL;
    ns_h5_region *r = NULL;
    void *buf = NULL;
    ns_err rc = open_table(path, dsname, 1, &r, err);
    if (rc)
        return rc;
    const ns_h5_dsinfo *in = ns_h5_region_info(r);
    *n = in->dims[0];
    *has_invalid = in->has_invalid;
    *invalid = in->invalid;
    if (*n > SEQ_MAX) {
        rc = ns_error_set(err, NS_ERANGE, "%s: a sequence of %" PRId64 " values is longer than the %" PRId64
                          " a sequence plot reads", path, *n, SEQ_MAX);
        goto fail;
    }
    const int64_t band = (int64_t)1 << 20;
    *seq = malloc((size_t)*n * sizeof **seq);
    buf = malloc((size_t)band * (size_t)in->elem);
    if (!*seq || !buf) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory reading the sequence of %s", path);
        goto fail;
    }
    for (int64_t i0 = 0; i0 < *n; i0 += band) {
        int64_t count = *n - i0 < band ? *n - i0 : band;
        if ((rc = ns_h5_region_read(r, &i0, &count, NULL, buf, err)))
            goto fail;
        for (int64_t i = 0; i < count; i++)
            (*seq)[i0 + i] = load(buf, in->elem, (size_t)i);
    }
    free(buf);
    ns_h5_region_close(r);
    return NS_OK;

fail:
    free(buf);
    free(*seq);
    *seq = NULL;
    ns_h5_region_close(r);
    return rc;
}

/* ------------------------------------------------------------- histogram */

ns_err ns_plot_read_histogram(const char *path, const char *dsname, uint32_t vmax, uint64_t **counts,
                           uint64_t *above, ns_error *err)
{
    *counts = NULL;
    *above = 0;
    ns_h5_region *r = NULL;
    void *buf = NULL;
    ns_err rc = open_table(path, dsname, 0, &r, err);
    if (rc)
        return rc;
    const ns_h5_dsinfo *in = ns_h5_region_info(r);
    if (vmax >= HIST_MAX) {
        rc = ns_error_set(err, NS_ERANGE, "%s: values up to %" PRIu32 " make too many bars: at most %" PRIu32
                          " (use --max-value)", path, vmax, HIST_MAX - 1);
        goto fail;
    }
    *counts = calloc((size_t)vmax + 1, sizeof **counts);
    /* bands along dimension 0 of about BAND_BYTES */
    uint64_t row_cells = 1;
    for (int d = 1; d < in->rank; d++)
        row_cells *= (uint64_t)in->dims[d];
    int64_t band = (int64_t)(BAND_BYTES / (row_cells * (uint64_t)in->elem));
    if (band < 1)
        band = 1;
    if (band > in->dims[0])
        band = in->dims[0];
    if (!*counts || (uint64_t)band * row_cells * (uint64_t)in->elem > SIZE_MAX ||
        !(buf = malloc((size_t)((uint64_t)band * row_cells * (uint64_t)in->elem)))) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory counting the values of %s", path);
        goto fail;
    }
    for (int64_t r0 = 0; r0 < in->dims[0]; r0 += band) {
        int64_t lo[NS_MAX_DIM] = {0}, count[NS_MAX_DIM];
        lo[0] = r0;
        count[0] = in->dims[0] - r0 < band ? in->dims[0] - r0 : band;
        for (int d = 1; d < in->rank; d++)
            count[d] = in->dims[d];
        if ((rc = ns_h5_region_read(r, lo, count, NULL, buf, err)))
            goto fail;
        const uint64_t cells = (uint64_t)count[0] * row_cells;
        for (uint64_t i = 0; i < cells; i++) {
            uint32_t v = load(buf, in->elem, (size_t)i);
            if (in->has_invalid && v == in->invalid)
                continue;
            if (v <= vmax)
                (*counts)[v]++;
            else
                (*above)++;
        }
    }
    free(buf);
    ns_h5_region_close(r);
    return NS_OK;

fail:
    free(buf);
    free(*counts);
    *counts = NULL;
    ns_h5_region_close(r);
    return rc;
}
