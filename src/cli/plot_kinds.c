/* ns_plot_kinds.c - see plot_kinds.h.
 *
 * Every figure has the same frame: a title line and a caption line (which
 * says what one pixel stands for when the table was reduced), margins fixed
 * in pixels so that the plot area is known before the data are read, and
 * equal units on both axes for two-pile tables. Images are written as
 * float32 binary arrays (NaN where nothing is drawn), points and bars as
 * text. */
#include "cli/plot_kinds.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_patterns.h"
#include "cli/plot_data.h"
#include "store/ns_h5.h"
#include "store/ns_h5_census.h"

/* P-positions drawn one by one up to this many; beyond, one dot per pixel
 * that holds any. */
#define PPOS_POINT_LIMIT 200000
/* Sequences drawn value by value up to this many times the plot width. */
#define SEQ_POINTS_PER_PX 2
/* Default window of a sequence with a period: at least this many values. */
#define SEQ_MIN_VALUES 24

/* Append to the kind's report (cut at its end when full). */
static void rep(ns_plot_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rep(ns_plot_ctx *c, const char *fmt, ...)
{
    size_t used = strlen(c->report);
    if (used + 1 >= sizeof c->report)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->report + used, sizeof c->report - used, fmt, ap);
    va_end(ap);
}

/* Distinct colours for the g-values: ten well-separated hues, then evenly
 * spread hues of the colour wheel. */
static void value_colour(int v, char *buf, size_t len)
{
    static const char *const base[] = {"#1f3b73", "#e6550d", "#2ca02c", "#d62728", "#9467bd",
                                       "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
    if (v < 10) {
        snprintf(buf, len, "%s", base[v]);
        return;
    }
    double h = fmod((v - 10) * 0.61803398875, 1.0) * 6.0, x = 1.0 - fabs(fmod(h, 2.0) - 1.0);
    double r = 0, g = 0, b = 0, s = 0.75;
    switch ((int)h) {
    case 0: r = 1; g = x; break;
    case 1: r = x; g = 1; break;
    case 2: g = 1; b = x; break;
    case 3: g = x; b = 1; break;
    case 4: r = x; b = 1; break;
    default: r = 1; b = x; break;
    }
    snprintf(buf, len, "#%02x%02x%02x", (int)(255 * s * r), (int)(255 * s * g), (int)(255 * s * b));
}

/* ---------------------------------------------------------------- figure */

typedef struct figure {
    ns_plot_ctx *c;
    ns_plot_frame fr;
    ns_plot_files pf;
    int have_files;
    FILE *data;      /* owned while open */
    FILE *script;    /* owned while open */
} figure;

/* title_lines: 2 (title and caption), 3 with a key line below them */
static void fig_init(figure *f, ns_plot_ctx *c, int title_lines, int colorbox, double aspect)
{
    memset(f, 0, sizeof *f);
    f->c = c;
    ns_plot_frame_init(&f->fr, c->fmt, c->width, c->height, title_lines, colorbox, aspect);
}

static void fig_free(figure *f)
{
    if (f->data)
        fclose(f->data);
    if (f->script)
        fclose(f->script);
    if (f->have_files)
        ns_plot_files_free(&f->pf);
    f->data = f->script = NULL;
    f->have_files = 0;
}

static ns_err fig_open_data(figure *f, const char *ext, int binary, ns_error *err)
{
    ns_err rc = ns_plot_files_init(&f->pf, f->c->out, f->c->keep_script, ext, err);
    if (rc)
        return rc;
    f->have_files = 1;
    f->data = fopen(f->pf.data, binary ? "wb" : "w");
    if (!f->data)
        return ns_error_set(err, NS_EIO, "cannot write %s: %s", f->pf.data, strerror(errno));
    return NS_OK;
}

static ns_err close_checked(FILE **fp, const char *path, ns_error *err)
{
    int bad = ferror(*fp);
    bad |= fclose(*fp) != 0;
    *fp = NULL;
    if (bad)
        return ns_error_set(err, NS_EIO, "cannot write %s (disk full?)", path);
    return NS_OK;
}

/* Write the script's preamble and the two title lines; the kind writes
 * the rest to f->script. */
static ns_err fig_open_script(figure *f, const char *main_title, const char *caption, ns_error *err)
{
    ns_err rc = close_checked(&f->data, f->pf.data, err);
    if (rc)
        return rc;
    f->script = fopen(f->pf.script, "w");
    if (!f->script)
        return ns_error_set(err, NS_EIO, "cannot write %s: %s", f->pf.script, strerror(errno));
    char what[160];
    snprintf(what, sizeof what, "nimsieve plot --kind %s: %s", f->c->kind->name,
             f->c->title ? "(title given)" : main_title);
    ns_plot_gp_preamble(f->script, &f->fr, f->c->fmt, &f->pf, what, f->c->in);
    FILE *s = f->script;
    const ns_plot_frame *fr = &f->fr;
    fprintf(s, "\n# title and caption\nset label 1001 ");
    ns_plot_gp_quote(s, f->c->title ? f->c->title : main_title);
    fprintf(s, " at screen 0.5, screen %.5f center font ',%.1f' noenhanced front\n",
            1.0 - 1.2 * fr->font_px / fr->height, fr->font_pt * 1.2);
    fprintf(s, "set label 1002 ");
    ns_plot_gp_quote(s, caption);
    fprintf(s, " at screen 0.5, screen %.5f center noenhanced front\n",
            1.0 - 2.7 * fr->font_px / fr->height);
    return NS_OK;
}

static ns_err fig_run(figure *f, ns_error *err)
{
    ns_err rc = close_checked(&f->script, f->pf.script, err);
    if (rc)
        return rc;
    if ((rc = ns_plot_gp_run(f->pf.script, f->c->out, err)))
        return rc;
    if (f->c->keep_script) {
        snprintf(f->c->kept_script, sizeof f->c->kept_script, "%s", f->pf.script);
        snprintf(f->c->kept_data, sizeof f->c->kept_data, "%s", f->pf.data);
    }
    return NS_OK;
}

static void axis_labels(FILE *s, const ns_plot_ctx *c)
{
    fprintf(s, "set xlabel ");
    ns_plot_gp_quote(s, c->axis[0]);
    fprintf(s, " noenhanced\nset ylabel ");
    ns_plot_gp_quote(s, c->axis[1]);
    fprintf(s, " noenhanced\n");
}

/* The window of a 2-D kind, inclusive: x in [win[0], win[1]], y in
 * [win[2], win[3]]: --xrange and --yrange, else from 0 and at most the
 * kind's default window a side. A window smaller than the table is told
 * in the report, with how to see all of it. */
static void window_2d(ns_plot_ctx *c, int64_t win[4])
{
    const int64_t deflt = c->kind->defaults.window;
    int cut = 0, part = 0;
    for (int d = 0; d < 2; d++) {
        if (c->have_range[d]) {
            win[2 * d] = c->range[d][0];
            win[2 * d + 1] = c->range[d][1];
        } else {
            win[2 * d] = 0;
            win[2 * d + 1] = deflt > 0 && c->bounds[d] > deflt ? deflt - 1 : c->bounds[d] - 1;
            cut |= win[2 * d + 1] < c->bounds[d] - 1;
        }
        part |= win[2 * d] > 0 || win[2 * d + 1] < c->bounds[d] - 1;
    }
    if (!part)
        return;
    rep(c, "window: %s %" PRId64 "..%" PRId64 ", %s %" PRId64 "..%" PRId64 " of the %" PRId64 " x %" PRId64 " table",
        c->axis[0], win[0], win[1], c->axis[1], win[2], win[3], c->bounds[0], c->bounds[1]);
    if (cut)
        rep(c, " (by default at most %" PRId64 " cells a side; the whole table: --xrange 0:%" PRId64
            " --yrange 0:%" PRId64 ")", deflt, c->bounds[0] - 1, c->bounds[1] - 1);
    rep(c, "\n");
}

static int64_t win_len(const int64_t win[4], int d)
{
    return win[2 * d + 1] - win[2 * d] + 1;
}

static double win_aspect(const int64_t win[4])
{
    return (double)win_len(win, 1) / (double)win_len(win, 0);
}

/* "4096 × 4096 table", or "cells 0..255 × 0..255 of a 4096 × 4096 table" */
static void dims_text(const ns_plot_ctx *c, const int64_t *win, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    int part = win && c->k == 2 &&
               (win[0] > 0 || win[1] < c->bounds[0] - 1 || win[2] > 0 || win[3] < c->bounds[1] - 1);
    if (part)
        used = (size_t)snprintf(buf, len, "cells %" PRId64 "..%" PRId64 " × %" PRId64 "..%" PRId64 " of a ", win[0],
                                win[1], win[2], win[3]);
    for (int d = 0; d < c->k && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, "%s%" PRId64, d ? " × " : "", c->bounds[d]);
    if (used < len)
        snprintf(buf + used, len - used, " table");
}

/* ------------------------------------------------------------ p-positions */

/* Styles of the lines drawn over the P-positions (dark blue points,
 * luminance 0.05): told apart by dash type and by luminance (0.16, 0.56,
 * 0.26, 0.09) as well as by hue, so they survive greyscale print; each is
 * drawn over a white casing, above the points. */
static const struct { const char *rgb; int dt; } line_style[] = {
    {"#d62728", 1}, {"#fdb863", 2}, {"#2ca02c", 4}, {"#7b3294", 5},
    {"#a6611a", 3}, {"#80cdc1", 6},
};
#define NLINE_STYLES (sizeof line_style / sizeof line_style[0])

static void draw_line(FILE *s, int i, const char *expr, const char *title)
{
    const int st = i % (int)NLINE_STYLES;
    fprintf(s, ", \\\n     %s with lines lw 4 lc rgb '#ffffff' notitle", expr);
    fprintf(s, ", \\\n     %s with lines lw 2 dt %d lc rgb '%s' title ", expr, line_style[st].dt, line_style[st].rgb);
    ns_plot_gp_quote(s, title);
}

/* "  constant: ..." for a fitted line: the constant recognised within its
 * slope +- 3 standard errors and the gap to it, or that none is. */
static void report_constant(ns_plot_ctx *c, const char *indent, const ns_plot_line *l)
{
    const ns_recog *r = &l->rec;
    if (r->kind == NS_RECOG_NONE) {
        rep(c, "%sconstant: none singled out within slope ± 3 standard errors\n", indent);
        return;
    }
    const double gap = l->slope - r->c.value;
    rep(c, "%sconstant: %s%s = %.10f; slope - constant = %+.2g = %.2f standard errors\n", indent,
        r->kind == NS_RECOG_RATIONAL ? "observed: the rational " : "", r->c.text, r->c.value, gap,
        l->sd > 0 ? fabs(gap) / l->sd : 0.0);
}

static ns_err draw_p_positions(ns_plot_ctx *c, ns_error *err)
{
    figure f;
    ns_plot_ppos pp;
    int64_t win[4];
    memset(&pp, 0, sizeof pp);
    window_2d(c, win);
    fig_init(&f, c, 2, 0, win_aspect(win));
    const int64_t n1 = c->bounds[0], n2 = c->bounds[1];
    ns_err rc;
    if ((rc = ns_plot_read_ppos(c->in, n1, n2, win, f.fr.plot_w, f.fr.plot_h, PPOS_POINT_LIMIT, &pp, err)) ||
        (rc = fig_open_data(&f, "dat", 0, err)))
        goto done;

    /* the points, or one per pixel that holds any */
    uint64_t drawn = 0;
    if (pp.pts) {
        for (uint64_t i = 0; i < pp.n_win; i++)
            fprintf(f.data, "%" PRId64 " %" PRId64 "\n", pp.pts[2 * i], pp.pts[2 * i + 1]);
        drawn = pp.n_win;
    } else {
        const ns_ds_plan *g = &pp.grid;
        for (int64_t X = 0; X < g->out_rows; X++)
            for (int64_t Y = 0; Y < g->out_cols; Y++)
                if (pp.occ[X * g->out_cols + Y]) {
                    fprintf(f.data, "%.1f %.1f\n", win[0] + X * g->fr + (g->fr - 1) / 2.0,
                            win[2] + Y * g->fc + (g->fc - 1) / 2.0);
                    drawn++;
                }
    }

    char main_title[400], caption[400], dims[160];
    dims_text(c, win, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "P-positions of %s", c->game_label);
    int used = snprintf(caption, sizeof caption, "%s: %" PRIu64 " P-positions", dims, pp.n_win);
    if (!pp.pts && used > 0 && (size_t)used < sizeof caption)
        used += snprintf(caption + used, sizeof caption - (size_t)used, ", one dot per pixel (%" PRId64 " × %" PRId64
                         " cells) holding any", pp.grid.fr, pp.grid.fc);
    if (c->loopy && used > 0 && (size_t)used < sizeof caption)
        /* a draw is neither P nor N: say that the white space holds them */
        snprintf(caption + used, sizeof caption - (size_t)used, "; not drawn: the N-positions and the %" PRIu64
                 " draws of the whole table", c->n_draws);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;

    FILE *s = f.script;
    const uint64_t nd = pp.n_win;
    double ps = nd > 20000 ? 0.35 : nd > 2000 ? 0.5 : nd > 200 ? 0.8 : 1.2;
    fprintf(s, "\n# the plot: the points first, the lines over them\n");
    axis_labels(s, c);
    fprintf(s, "set xrange [%.1f:%.1f]\nset yrange [%.1f:%.1f]\n", win[0] - 0.5, win[1] + 0.5, win[2] - 0.5,
            win[3] + 0.5);
    /* bottom right: below the lowest line of P-positions of most games */
    fprintf(s, "set key bottom right opaque box lc rgb '#bbbbbb' samplen 3 spacing 1.2\n");
    fprintf(s, "set grid lc rgb '#e0e0e0' lw 0.5\nset samples 1000\n");
    if (c->is_wythoff)
        fprintf(s, "phi = (1 + sqrt(5)) / 2\n");
    fprintf(s, "plot datafile using 1:2 with points pt 7 ps %.2f*pscale lc rgb '#1f3b73' title \"P-positions\"", ps);
    int nl = 0;
    if (c->is_wythoff) {
        draw_line(s, nl++, "phi * x", "y = φx");
        draw_line(s, nl++, "x / phi", "y = x/φ");
    } else {
        /* the fitted lines: one per branch, or one per direction of a
         * branch that splits */
        for (int b = 0; b < 2; b++) {
            const ns_plot_fit *fit = b ? &pp.lower : &pp.upper;
            int m = fit->nlines ? fit->nlines : fit->ok ? 1 : 0;
            for (int j = 0; j < m; j++) {
                const ns_plot_line *l = fit->nlines ? &fit->line[j] : &fit->all;
                if (l->scatter >= NS_PLOT_LINE_SCATTER)
                    continue;   /* the points fill an area: no line */
                char expr[96], title[96];
                snprintf(expr, sizeof expr, "(%.10g + %.10g * x)", l->intercept, l->slope);
                snprintf(title, sizeof title, "fit y = %.4fx %c %.2f", l->slope, l->intercept < 0 ? '-' : '+',
                         fabs(l->intercept));
                draw_line(s, nl++, expr, title);
            }
        }
    }
    fprintf(s, "\n");
    if (pp.n == 0)
        rc = ns_error_set(err, NS_EINVAL, "%s has no P-positions to draw", c->in);
    else
        rc = fig_run(&f, err);
    if (rc)
        goto done;

    rep(c, "%" PRIu64 " P-positions (%" PRIu64 " drawn%s), %" PRIu64 " on the diagonal\n", pp.n, drawn,
        pp.pts ? "" : " as pixels", pp.n_diag);
    if (c->loopy)
        rep(c, "loopy game: P-positions only; the %" PRIu64 " draws and the N-positions are not drawn "
            "(--kind grundy shows P, N and draws)\n", c->n_draws);
    if (pp.n_win == 0)
        rep(c, "the figure shows no point: the window holds no P-position\n");
    for (int b = 0; b < 2; b++) {
        const ns_plot_fit *fit = b ? &pp.lower : &pp.upper;
        const char *name = b ? "below the diagonal (y < x)" : "above the diagonal (y > x)";
        if (!fit->ok) {
            rep(c, "%s: %" PRIu64 " points, no slope fitted\n", name, fit->n);
            continue;
        }
        const ns_plot_line *l = &fit->all;
        const int area = l->scatter >= NS_PLOT_LINE_SCATTER;
        rep(c, "%s: %" PRIu64 " points, least-squares slope %.6f ± %.2g (intercept %.3g), scatter %.2g%%%s%s\n", name,
            fit->n, l->slope, l->sd, l->intercept, 100 * l->scatter,
            fit->used < fit->n ? " (fitted on an even sample)" : "",
            fit->nlines ? "" : area ? " (an area, not a line: not drawn)" : "");
        if (!area && !fit->nlines)
            report_constant(c, "  ", l);
        for (int j = 0; j < fit->nlines; j++) {
            const ns_plot_line *lj = &fit->line[j];
            rep(c, "  line %d of %d: slope %.6f ± %.2g (intercept %.3g), scatter %.2g%%%s, %s%" PRIu64 " points\n",
                j + 1, fit->nlines, lj->slope, lj->sd, lj->intercept, 100 * lj->scatter,
                lj->scatter >= NS_PLOT_LINE_SCATTER ? " (not drawn)" : "", fit->used < fit->n ? "about " : "", lj->n);
            if (lj->scatter < NS_PLOT_LINE_SCATTER)
                report_constant(c, "    ", lj);
        }
    }
done:
    fig_free(&f);
    ns_plot_ppos_free(&pp);
    return rc;
}

/* ---------------------------------------------------------------- images */

/* Write grid (rows = x = first coordinate) as gnuplot's binary array,
 * x fastest; value(v) < 0 means nothing drawn (NaN). */
static void write_image(FILE *fp, const ns_ds_plan *g, const uint32_t *grid,
                        float (*value)(uint32_t v, const void *user), const void *user)
{
    float *row = malloc((size_t)g->out_rows * sizeof *row);
    if (!row) {
        fputc(0, fp);   /* leaves a short file: gnuplot fails, and says so */
        return;
    }
    for (int64_t Y = 0; Y < g->out_cols; Y++) {
        for (int64_t X = 0; X < g->out_rows; X++) {
            float v = value(grid[X * g->out_cols + Y], user);
            row[X] = v < 0 ? NAN : v;
        }
        fwrite(row, sizeof *row, (size_t)g->out_rows, fp);
    }
    free(row);
}

static void image_plot_line(FILE *s, const ns_ds_plan *g, const int64_t win[4])
{
    fprintf(s, "set xrange [%.1f:%.1f]\nset yrange [%.1f:%.1f]\n", win[0] - 0.5, win[1] + 0.5, win[2] - 0.5,
            win[3] + 0.5);
    fprintf(s, "plot datafile binary array=(%" PRId64 ",%" PRId64 ") format='%%float32' dx=%" PRId64 " dy=%" PRId64
               " origin=(%.1f,%.1f) with image notitle\n",
            g->out_rows, g->out_cols, g->fr, g->fc, win[0] + (g->fr - 1) / 2.0, win[2] + (g->fc - 1) / 2.0);
}

static void colorbox_at(FILE *s, const ns_plot_frame *fr)
{
    double x = 1.0 - (double)(fr->right - fr->font_px) / fr->width;
    fprintf(s, "set colorbox user origin screen %.5f, screen %.5f size screen %.5f, screen %.5f\n", x,
            (double)fr->bottom / fr->height, (double)fr->font_px / fr->width, (double)fr->plot_h / fr->height);
}

static float value_or_empty(uint32_t v, const void *user)
{
    const uint32_t *cap = user;
    if (v == NS_DS_EMPTY)
        return -1.0f;
    return (float)(v > *cap ? *cap : v);
}

/* a loopy game's P/N/D map: P 0, N 1, a draw (code 3) 2 */
static float pnd_or_empty(uint32_t v, const void *user)
{
    (void)user;
    if (v == NS_DS_EMPTY)
        return -1.0f;
    return v == NS_PN_DRAW ? 2.0f : v == 0 ? 0.0f : 1.0f;
}

/* The values the pixels of grid show (v_of), counted: 0 when none is
 * drawn, 1 for a single colour (*only: its value), 2 for more. */
static int colours_used(const uint32_t *grid, int64_t n, float (*v_of)(uint32_t, const void *), const void *user,
                        float *only)
{
    int seen = 0;
    for (int64_t i = 0; i < n; i++) {
        float v = v_of(grid[i], user);
        if (v < 0)
            continue;
        if (!seen) {
            *only = v;
            seen = 1;
        } else if (v != *only)
            return 2;
    }
    return seen;
}

/* The colour bar's label: WHAT, and in brackets what the colours mean when
 * values from cap on share the top colour (cap < vmax), else the per-pixel
 * reduction how (non-NULL when reduced), else plain (or nothing: NULL). */
static void cb_label(FILE *s, const char *what, uint32_t cap, uint32_t vmax, const char *how, const char *plain)
{
    char cbl[200];
    if (cap < vmax)
        snprintf(cbl, sizeof cbl, "%s (%" PRIu32 " and above: top colour)", what, cap);
    else if (how)
        snprintf(cbl, sizeof cbl, "%s (%s per pixel)", what, how);
    else if (plain)
        snprintf(cbl, sizeof cbl, "%s (%s)", what, plain);
    else
        snprintf(cbl, sizeof cbl, "%s", what);
    fprintf(s, "set cblabel ");
    ns_plot_gp_quote(s, cbl);
    fprintf(s, "\n");
}

static ns_err draw_grundy(ns_plot_ctx *c, ns_error *err)
{
    figure f;
    uint32_t *grid = NULL;
    ns_ds_plan g;
    int64_t win[4];
    window_2d(c, win);
    fig_init(&f, c, 2, 1, win_aspect(win));
    /* P/N maps keep P visible: a pixel is P when any cell of its block is
     * (the minimum; the maximum would show N wherever one cell is N, which
     * in most games is every block) */
    const ns_ds_kind ds = c->ds_given ? c->ds : c->is_pn ? NS_DS_MIN : NS_DS_MAX;
    const int64_t lo[2] = {win[0], win[2]}, count[2] = {win_len(win, 0), win_len(win, 1)};
    ns_err rc = ns_plot_read_grid(c->in, c->dsname, ds, lo, count, f.fr.plot_w, f.fr.plot_h, &g, &grid, err);
    if (rc)
        goto done;
    uint32_t vmax = 0;
    int any = 0, empty = 0;
    for (int64_t i = 0; i < g.out_rows * g.out_cols; i++)
        if (grid[i] != NS_DS_EMPTY) {
            any = 1;
            vmax = grid[i] > vmax ? grid[i] : vmax;
        } else
            empty = 1;
    uint32_t cap = c->is_pn ? 1 : c->max_value >= 0 && (uint64_t)c->max_value < vmax ? (uint32_t)c->max_value : vmax;
    if (!any) {
        rc = ns_error_set(err, NS_EINVAL, "%s holds no position to draw in the window %" PRId64 "..%" PRId64
                          " x %" PRId64 "..%" PRId64, c->in, win[0], win[1], win[2], win[3]);
        goto done;
    }
    if ((rc = fig_open_data(&f, "bin", 1, err)))
        goto done;
    float (*const v_of)(uint32_t, const void *) = c->loopy ? pnd_or_empty : value_or_empty;
    write_image(f.data, &g, grid, v_of, &cap);

    const int reduced = g.fr > 1 || g.fc > 1;
    const char *how = ds == NS_DS_MIN ? "minimum" : ds == NS_DS_MAX ? "maximum" : "most frequent value";
    if (c->loopy)
        how = ds == NS_DS_MIN ? "P when any of them is P, else N when any is N, else draw"
              : ds == NS_DS_MAX ? "draw when any of them is a draw, else N when any is N, else P"
                                : "the most frequent of P, N and draw";
    else if (c->is_pn)
        how = ds == NS_DS_MIN ? "P when any of them is P" : ds == NS_DS_MAX ? "N when any of them is N"
                                                                            : "the more frequent of P and N";
    char main_title[400], caption[400], dims[160];
    dims_text(c, win, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "%s of %s", c->loopy ? "P/N/draw table" : c->is_pn ? "P/N table" : "Grundy values",
             c->game_label);
    int used;
    if (reduced)
        used = snprintf(caption, sizeof caption, "%s; each pixel: %" PRId64 " × %" PRId64 " cells, %s%s", dims, g.fr,
                        g.fc, c->is_pn ? "" : "the ", how);
    else
        used = snprintf(caption, sizeof caption, "%s; one square per cell", dims);
    if (empty && used > 0 && (size_t)used < sizeof caption)
        snprintf(caption + used, sizeof caption - (size_t)used, "; white: not a position");
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot; the colour bar is the legend\n");
    axis_labels(s, c);
    colorbox_at(s, &f.fr);
    if (c->loopy) {
        /* a third colour for the draws of a loopy game */
        fprintf(s, "set palette defined (0 '#1f3b73', 1 '#1f3b73', 1 '#f2e8cf', 2 '#f2e8cf', 2 '#d1495b', 3 '#d1495b')\n"
                   "set cbrange [-0.5:2.5]\nset cbtics (\"P\" 0, \"N\" 1, \"draw\" 2) scale 0\n");
    } else if (c->is_pn) {
        fprintf(s, "set palette defined (0 '#1f3b73', 1 '#1f3b73', 1 '#f2e8cf', 2 '#f2e8cf')\n"
                   "set cbrange [-0.5:1.5]\nset cbtics (\"P\" 0, \"N\" 1) scale 0\n");
    } else {
        fprintf(s, "set palette defined (0 '#440154', 1 '#482878', 2 '#3e4989', 3 '#31688e', 4 '#26828e', "
                   "5 '#1f9e89', 6 '#35b779', 7 '#6ece58', 8 '#b5de2b', 9 '#fde725')\n");
        fprintf(s, "set cbrange [0:%" PRIu32 "]\n", cap > 0 ? cap : 1);
        cb_label(s, "Grundy value", cap, vmax,
                 reduced ? ds == NS_DS_MIN ? "min" : ds == NS_DS_MAX ? "max" : "mode" : NULL, NULL);
    }
    image_plot_line(s, &g, win);
    if ((rc = fig_run(&f, err)))
        goto done;
    rep(c, "%s%" PRId64 " x %" PRId64 " pixels, each the %s of %" PRId64 " x %" PRId64 " cells; largest value drawn %" PRIu32
        "\n", c->loopy ? "P/N/draw map, " : c->is_pn ? "P/N map, " : "", g.out_rows, g.out_cols, reduced ? ds == NS_DS_MIN ? "minimum" : ds == NS_DS_MAX ? "maximum" : "most frequent value" : "value",
        g.fr, g.fc, vmax);
    if (c->loopy) {
        uint64_t np = 0, nn = 0, nd = 0;
        for (int64_t i = 0; i < g.out_rows * g.out_cols; i++) {
            np += grid[i] == 0;
            nd += grid[i] == NS_PN_DRAW;
            nn += grid[i] != 0 && grid[i] != NS_PN_DRAW && grid[i] != NS_DS_EMPTY;
        }
        rep(c, "pixels: %" PRIu64 " P, %" PRIu64 " N, %" PRIu64 " draw (a third colour; code 3 in /pn)\n", np, nn, nd);
    }
    float only = 0;
    if (colours_used(grid, g.out_rows * g.out_cols, v_of, &cap, &only) == 1) {
        if (c->loopy)
            rep(c, "single colour: every pixel drawn is %s\n", only == 0 ? "P" : only == 1 ? "N" : "a draw");
        else if (c->is_pn)
            rep(c, "single colour: every pixel drawn is %s%s\n", only == 0 ? "P" : "N",
                only != 0 && ds != NS_DS_MIN ? " (--downsample min shows a pixel as P when any of its cells is)" : "");
        else
            rep(c, "single colour: every pixel drawn shows the value %s%.0f\n", only >= (float)cap && cap < vmax ? ">= " : "",
                (double)only);
    }
done:
    fig_free(&f);
    free(grid);
    return rc;
}

/* ---------------------------------------------------------------- g-values */

static float lowest_bit(uint32_t mask, const void *user)
{
    const uint32_t *k = user;
    for (uint32_t v = 0; v <= *k; v++)
        if (mask & ((uint32_t)1 << v))
            return (float)v;
    return -1.0f;
}

static ns_err draw_g_values(ns_plot_ctx *c, ns_error *err)
{
    if (c->max_value > NS_DS_PRESENCE_MAX)
        return ns_error_set(err, NS_ERANGE, "--max-value %" PRId64 " with --kind g-values: at most %d values get colours",
                            c->max_value, NS_DS_PRESENCE_MAX);
    uint32_t K = c->max_value >= 0 ? (uint32_t)c->max_value : 4;
    if (c->is_pn)
        K = 0;   /* a P/N file knows only which cells have value 0 */
    figure f;
    uint32_t *grid = NULL;
    ns_ds_plan g;
    int64_t win[4];
    window_2d(c, win);
    fig_init(&f, c, 2, 1, win_aspect(win));
    const int64_t lo[2] = {win[0], win[2]}, count[2] = {win_len(win, 0), win_len(win, 1)};
    ns_err rc;
    if ((rc = ns_plot_read_grid(c->in, c->dsname, NS_DS_PRESENCE, lo, count, f.fr.plot_w, f.fr.plot_h, &g, &grid,
                                err)) ||
        (rc = fig_open_data(&f, "bin", 1, err)))
        goto done;
    write_image(f.data, &g, grid, lowest_bit, &K);
    uint64_t shown[NS_DS_PRESENCE_MAX + 1] = {0};
    for (int64_t i = 0; i < g.out_rows * g.out_cols; i++) {
        float v = lowest_bit(grid[i], &K);
        if (v >= 0)
            shown[(int)v]++;
    }

    const int reduced = g.fr > 1 || g.fc > 1;
    char main_title[400], caption[400], dims[160];
    dims_text(c, win, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "Positions of the values 0..%" PRIu32 " in %s", K, c->game_label);
    if (c->loopy) {
        /* /pn holds outcomes: value 0 is P; N and draws have no value here */
        snprintf(main_title, sizeof main_title, "P-positions (value 0) of %s", c->game_label);
        if (reduced)
            snprintf(caption, sizeof caption, "%s; each pixel: value 0 when any of its %" PRId64 " × %" PRId64
                     " cells is P, white: N-positions and draws only", dims, g.fr, g.fc);
        else
            snprintf(caption, sizeof caption, "%s; one square per cell, white: N-positions and draws (the file "
                     "holds outcomes, no Grundy values)", dims);
    } else if (reduced)
        snprintf(caption, sizeof caption, "%s; each pixel: the smallest of these values among its %" PRId64
                 " × %" PRId64 " cells, white: none of them", dims, g.fr, g.fc);
    else
        snprintf(caption, sizeof caption, "%s; one square per cell, white: value above %" PRIu32, dims, K);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot: one colour per value, as steps of the palette; the colour bar is the legend\n");
    axis_labels(s, c);
    colorbox_at(s, &f.fr);
    fprintf(s, "set palette defined (");
    for (uint32_t v = 0; v <= K; v++) {
        char col[16];
        value_colour((int)v, col, sizeof col);
        fprintf(s, "%s%u '%s', %u '%s'", v ? ", " : "", v, col, v + 1, col);
    }
    fprintf(s, ")\nset cbrange [-0.5:%u.5]\nset cbtics 0, 1, %u scale 0\nset cblabel \"Grundy value\"\n", K, K);
    image_plot_line(s, &g, win);
    if ((rc = fig_run(&f, err)))
        goto done;
    rep(c, "%" PRId64 " x %" PRId64 " pixels of %" PRId64 " x %" PRId64 " cells; pixels per value:", g.out_rows,
        g.out_cols, g.fr, g.fc);
    int nvalues = 0;
    for (uint32_t v = 0; v <= K; v++) {
        rep(c, " %u:%" PRIu64, v, shown[v]);
        nvalues += shown[v] > 0;
    }
    rep(c, "\n");
    if (c->loopy) {
        uint64_t with_draw = 0, white = 0;
        for (int64_t i = 0; i < g.out_rows * g.out_cols; i++) {
            with_draw += (grid[i] >> NS_PN_DRAW) & 1;
            white += grid[i] && !(grid[i] & 1);
        }
        rep(c, "loopy game: value 0 is P; %" PRIu64 " white pixels hold N-positions and draws only, %" PRIu64
            " pixels hold a draw (--kind grundy shows P, N and draws)\n", white, with_draw);
    }
    if (nvalues == 0)
        rep(c, "single colour: the figure is blank, no cell of the window has a value 0..%u\n", K);
    else if (nvalues == 1 && K > 0)
        for (uint32_t v = 0; v <= K; v++)
            if (shown[v])
                rep(c, "single colour: of the values 0..%u only %u occurs in the window\n", K, v);
done:
    fig_free(&f);
    free(grid);
    return rc;
}

/* -------------------------------------------------------------- remoteness */

static ns_err draw_remoteness(ns_plot_ctx *c, ns_error *err)
{
    figure f;
    uint32_t *rem = NULL, *pnd = NULL;
    ns_ds_plan g, g2;
    int64_t win[4];
    window_2d(c, win);
    fig_init(&f, c, 2, 1, win_aspect(win));
    /* the remoteness of the decided cells (draws and non-positions hold
     * none_value, which the reduction skips); /pn, reduced by its maximum,
     * says which of the other pixels hold a draw (3) */
    const ns_ds_kind ds = c->ds_given ? c->ds : NS_DS_MAX;
    const int64_t lo[2] = {win[0], win[2]}, count[2] = {win_len(win, 0), win_len(win, 1)};
    ns_err rc;
    if ((rc = ns_plot_read_grid(c->in, "remoteness", ds, lo, count, f.fr.plot_w, f.fr.plot_h, &g, &rem, err)) ||
        (rc = ns_plot_read_grid(c->in, "pn", NS_DS_MAX, lo, count, f.fr.plot_w, f.fr.plot_h, &g2, &pnd, err)))
        goto done;
    const int64_t n = g.out_rows * g.out_cols;
    if (g2.out_rows != g.out_rows || g2.out_cols != g.out_cols) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: /remoteness and /pn have different shapes", c->in);
        goto done;
    }
    uint32_t rmax = 0;
    uint64_t n_rem = 0, n_draw = 0, n_none = 0;
    for (int64_t i = 0; i < n; i++) {
        if (rem[i] != NS_DS_EMPTY) {
            n_rem++;
            rmax = rem[i] > rmax ? rem[i] : rmax;
        } else if (pnd[i] == NS_PN_DRAW)
            n_draw++;
        else
            n_none++;
    }
    if (n_rem + n_draw == 0) {
        rc = ns_error_set(err, NS_EINVAL, "%s holds no position to draw in the window %" PRId64 "..%" PRId64
                          " x %" PRId64 "..%" PRId64, c->in, win[0], win[1], win[2], win[3]);
        goto done;
    }
    const uint32_t cap = c->max_value >= 0 && (uint64_t)c->max_value < rmax ? (uint32_t)c->max_value : rmax;
    const uint32_t top = cap > 0 ? cap : 1;   /* the palette needs a range */
    if ((rc = fig_open_data(&f, "bin", 1, err)))
        goto done;
    /* the image: the remoteness (capped), draw pixels top + 1, NaN where
     * nothing is drawn */
    for (int64_t i = 0; i < n; i++)
        rem[i] = rem[i] != NS_DS_EMPTY ? (rem[i] > cap ? cap : rem[i]) : pnd[i] == NS_PN_DRAW ? top + 1 : NS_DS_EMPTY;
    const uint32_t draw_value = top + 1;
    write_image(f.data, &g, rem, value_or_empty, &draw_value);

    const int reduced = g.fr > 1 || g.fc > 1;
    const char *how = ds == NS_DS_MIN ? "smallest" : ds == NS_DS_MAX ? "largest" : "most frequent";
    char main_title[400], caption[400], dims[160];
    dims_text(c, win, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "Remoteness of %s", c->game_label);
    int used;
    if (reduced)
        used = snprintf(caption, sizeof caption, "%s; each pixel: the %s remoteness of its %" PRId64 " × %" PRId64
                        " cells' decided positions, red: only draws", dims, how, g.fr, g.fc);
    else
        used = snprintf(caption, sizeof caption, "%s; one square per cell, red: a draw (no remoteness)", dims);
    if (n_none && used > 0 && (size_t)used < sizeof caption)
        snprintf(caption + used, sizeof caption - (size_t)used, "; white: not a position");
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot: the remoteness 0..%u in a sequential palette, the draws (value %u) in red;\n"
               "# the colour bar is the legend\n", top, top + 1);
    axis_labels(s, c);
    colorbox_at(s, &f.fr);
    fprintf(s, "set palette defined (0 '#440154', %.4f '#3e4989', %.4f '#26828e', %.4f '#35b779', %u '#fde725', "
               "%.1f '#fde725', %.1f '#d1495b', %.1f '#d1495b')\n",
            top * 0.25, top * 0.5, top * 0.75, top, top + 0.5, top + 0.5, top + 1.5);
    fprintf(s, "set cbrange [0:%.1f]\n", top + 1.5);
    if (top <= 20)
        fprintf(s, "set cbtics 0, %u, %u scale 0\n", top <= 10 ? 1 : 2, top);
    else
        fprintf(s, "set cbtics 0, %u, %u scale 0\n", (top + 9) / 10, top);
    fprintf(s, "set cbtics add (\"draw\" %u) scale 0\n", top + 1);
    cb_label(s, "remoteness", cap, rmax, reduced ? how : NULL, "moves to the end under optimal play");
    image_plot_line(s, &g, win);
    if ((rc = fig_run(&f, err)))
        goto done;
    rep(c, "remoteness map, %" PRId64 " x %" PRId64 " pixels, each the %s of %" PRId64 " x %" PRId64
        " cells; largest remoteness drawn %" PRIu32 "%s\n", g.out_rows, g.out_cols,
        reduced ? how : "value", g.fr, g.fc, rmax, cap < rmax ? " (capped by --max-value)" : "");
    rep(c, "pixels: %" PRIu64 " with a remoteness, %" PRIu64 " draw (red, value %" PRIu32 " in the data), %" PRIu64
        " no position\n", n_rem, n_draw, top + 1, n_none);
done:
    fig_free(&f);
    free(rem);
    free(pnd);
    return rc;
}

/* ---------------------------------------------------------------- sequence */

/* A heap game's file (root attribute code) records its period and whether
 * the octal periodicity theorem proved it: " (proven)" or " (observed, not
 * proven)" when the period found here is the file's, else "". */
static const char *seq_status(const ns_plot_ctx *c, int found, int64_t period, int64_t pre)
{
    ns_meta m;
    ns_error e = {0};
    int k = 0;
    int64_t b[NS_MAX_DIM];
    const char *r = "";
    memset(&m, 0, sizeof m);
    if (!found || c->is_pn || ns_h5_read_meta(c->in, &m, &k, b, &e))
        return r;
    if (m.seq_code[0] && m.seq_has_period && m.seq_period == period && m.seq_preperiod == pre)
        r = m.seq_proven ? " (proven by the octal periodicity theorem)" : " (observed, not proven)";
    ns_meta_free(&m);
    return r;
}

static ns_err draw_sequence(ns_plot_ctx *c, ns_error *err)
{
    figure f;
    uint32_t *seq = NULL;
    uint8_t *occ = NULL;
    int64_t n = 0, period = 0, pre = 0;
    int has_inv = 0;
    uint32_t inv = 0;
    fig_init(&f, c, 3, 0, 0.0);
    ns_err rc = ns_plot_read_sequence(c->in, c->dsname, &seq, &n, &has_inv, &inv, err);
    if (rc)
        goto done;
    /* the same detection as `nimsieve patterns` (observed, not proven:
     * the plot does not look at the moves), over the whole sequence */
    ns_period per;
    ns_patterns_period_seq(seq, n, -1, c->is_pn, 0, &per);
    const int found = per.found;
    period = per.period;
    pre = per.preperiod;

    /* the window [lo, hi]: --range, else the preperiod and a few periods */
    int64_t lo = 0, hi = n - 1;
    int cut = 0;
    if (c->have_range[0]) {
        lo = c->range[0][0];
        hi = c->range[0][1];
    } else if (found && c->kind->defaults.periods > 0) {
        int64_t want = pre + c->kind->defaults.periods * period;
        if (want < SEQ_MIN_VALUES)
            want = SEQ_MIN_VALUES;
        if (want < n) {
            hi = want - 1;
            cut = 1;
        }
    }
    const int64_t len = hi - lo + 1;
    uint32_t vmax = 0;
    for (int64_t i = lo; i <= hi; i++)
        if (!(has_inv && seq[i] == inv) && seq[i] > vmax)
            vmax = seq[i];
    uint32_t ytop = c->max_value >= 0 && (uint64_t)c->max_value < vmax ? (uint32_t)c->max_value : vmax;

    if ((rc = fig_open_data(&f, "dat", 0, err)))
        goto done;
    const int all_points = len <= (int64_t)SEQ_POINTS_PER_PX * f.fr.plot_w;
    ns_ds_plan g;
    memset(&g, 0, sizeof g);
    uint64_t drawn = 0;
    if (all_points) {
        for (int64_t i = lo; i <= hi; i++)
            if (!(has_inv && seq[i] == inv) && seq[i] <= ytop) {
                fprintf(f.data, "%" PRId64 " %" PRIu32 "\n", i, seq[i]);
                drawn++;
            }
    } else {
        /* one dot per pixel of the (n, value) plane that holds a value */
        if ((rc = ns_ds_plan_for(len, (int64_t)ytop + 1, f.fr.plot_w, f.fr.plot_h, &g, err)))
            goto done;
        occ = calloc((size_t)(g.out_rows * g.out_cols), 1);
        if (!occ) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto done;
        }
        for (int64_t i = lo; i <= hi; i++)
            if (!(has_inv && seq[i] == inv) && seq[i] <= ytop)
                occ[((i - lo) / g.fr) * g.out_cols + seq[i] / g.fc] = 1;
        for (int64_t X = 0; X < g.out_rows; X++)
            for (int64_t Y = 0; Y < g.out_cols; Y++)
                if (occ[X * g.out_cols + Y]) {
                    fprintf(f.data, "%.1f %.1f\n", lo + X * g.fr + (g.fr - 1) / 2.0, Y * g.fc + (g.fc - 1) / 2.0);
                    drawn++;
                }
    }

    char main_title[400], caption[400];
    snprintf(main_title, sizeof main_title, "Grundy sequence of %s", c->game_label);
    int used;
    char saltus[64] = "", shown[96] = "";
    if (found && per.saltus)
        snprintf(saltus, sizeof saltus, " and saltus %" PRId64, per.saltus);
    if (lo > 0 || hi < n - 1)
        snprintf(shown, sizeof shown, ", n = %" PRId64 "..%" PRId64 " shown", lo, hi);
    const char *status = seq_status(c, found, period, pre);
    if (found)
        used = snprintf(caption, sizeof caption, "n < %" PRId64 ": period %" PRId64 "%s from n = %" PRId64 "%s%s", n,
                        period, saltus, pre, status, shown);
    else
        used = snprintf(caption, sizeof caption, "n < %" PRId64 ": no period p <= %" PRId64 " found%s", n, n / 2, shown);
    if (!all_points && used > 0 && (size_t)used < sizeof caption)
        snprintf(caption + used, sizeof caption - (size_t)used, "; one dot per pixel (%" PRId64 " values of n)", g.fr);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    const ns_plot_frame *fr = &f.fr;
    fprintf(s, "\n# the plot; the key (a line below the caption) names every mark and shade\n");
    fprintf(s, "set key at screen 0.5, screen %.5f center top horizontal samplen 2 spacing 1 width 2 noopaque\n",
            1.0 - 3.6 * fr->font_px / fr->height);
    fprintf(s, "set xlabel \"n\"\nset ylabel ");
    ns_plot_gp_quote(s, c->is_pn ? "P (0) or N (1)" : "Grundy value G(n)");
    fprintf(s, "\nset xrange [%.1f:%.1f]\nset yrange [-0.5:%u.5]\n", lo - 0.5, hi + 0.5, ytop);
    if (ytop <= 12)
        fprintf(s, "set ytics 0, 1, %u\nset mytics 1\n", ytop);
    if (len <= 40)
        fprintf(s, "set xtics %" PRId64 ", %d\nset mxtics 1\n", lo, len <= 20 ? 1 : 2);
    fprintf(s, "set grid ytics lc rgb '#e8e8e8' lw 0.5\n");
    /* shades, clipped to the window */
    const double w0 = lo - 0.5, w1 = hi + 0.5;
    const double p0 = pre - 0.5 > w0 ? pre - 0.5 : w0, p1 = pre + period - 0.5 < w1 ? pre + period - 0.5 : w1;
    const int first_shown = found && p0 < p1;
    const double t0 = pre + period - 0.5 > w0 ? pre + period - 0.5 : w0;
    const int rest_shown = found && t0 < w1;
    const int bounds_shown = found && (double)period * fr->plot_w / (double)len >= 6.0;
    if (found) {
        fprintf(s, "# the detected period: the first one shaded, the periodic part after it tinted\n");
        if (rest_shown)
            fprintf(s, "set object 1 rect from %.1f, graph 0 to %.1f, graph 1 fc rgb '#dce6f5' fs solid 1.0 noborder behind\n",
                    t0, w1);
        if (first_shown)
            fprintf(s, "set object 2 rect from %.1f, graph 0 to %.1f, graph 1 fc rgb '#fdd49e' fs solid 1.0 noborder behind\n",
                    p0, p1);
        /* the period boundaries, when they are far enough apart to be seen */
        if (bounds_shown) {
            int64_t b0 = pre;
            if (b0 < lo)
                b0 = pre + (lo - pre + period - 1) / period * period;
            fprintf(s, "do for [b = %" PRId64 ":%" PRId64 ":%" PRId64 "] {\n"
                       "    set arrow from b - 0.5, graph 0 to b - 0.5, graph 1 nohead dt 3 lw 0.8 lc rgb '#c07000' back\n"
                       "}\n", b0, hi, period);
        }
    }
    fprintf(s, "plot datafile using 1:2 with points pt 7 ps %.2f*pscale lc rgb '#1f3b73' title ",
            len <= 100 ? 1.0 : len <= 1000 ? 0.6 : 0.4);
    ns_plot_gp_quote(s, c->is_pn ? "P (0) / N (1) of n" : "G(n)");
    if (first_shown) {
        char t[96];
        snprintf(t, sizeof t, "first period, n = %" PRId64 "..%" PRId64, pre, pre + period - 1);
        fprintf(s, ", \\\n     keyentry with boxes fs solid 1.0 fc rgb '#fdd49e' title ");
        ns_plot_gp_quote(s, t);
    }
    if (rest_shown)
        fprintf(s, ", \\\n     keyentry with boxes fs solid 1.0 fc rgb '#dce6f5' title \"periodic part\"");
    if (bounds_shown)
        fprintf(s, ", \\\n     keyentry with lines dt 3 lw 0.8 lc rgb '#c07000' title \"period boundaries\"");
    fprintf(s, "\n");
    if ((rc = fig_run(&f, err)))
        goto done;
    if (found)
        /* "%.0d" of 0 prints nothing: the saltus only when there is one */
        rep(c, "%" PRId64 " values; period %" PRId64 ", preperiod %" PRId64 "%s%.0" PRId64 "%s\n", n, period, pre,
            per.saltus ? ", saltus " : "", per.saltus, status);
    else
        rep(c, "%" PRId64 " values; no period p <= %" PRId64 " found\n", n, n / 2);
    if (lo > 0 || hi < n - 1) {
        rep(c, "window: n = %" PRId64 "..%" PRId64 " of 0..%" PRId64, lo, hi, n - 1);
        if (cut)
            rep(c, " (by default the preperiod and %d periods, at least %d values; all: --range 0:%" PRId64 ")",
                c->kind->defaults.periods, SEQ_MIN_VALUES, n - 1);
        rep(c, "\n");
    }
    if (drawn == 0)
        rep(c, "the figure shows no point: no value of the window is drawn\n");
done:
    fig_free(&f);
    free(seq);
    free(occ);
    return rc;
}

/* --------------------------------------------------------------- histogram */

/* A loopy game's outcomes as three bars: P, N and draw (code 3 of /pn) are
 * categories, not values; each bar in its colour of the P/N/draw map. */
static ns_err draw_histogram_pnd(ns_plot_ctx *c, ns_error *err)
{
    static const struct { const char *name; uint32_t code; unsigned rgb; } bar[] = {
        {"P", NS_PN_P, 0x1f3b73}, {"N", NS_PN_N, 0xe0cfa0}, {"draw", NS_PN_DRAW, 0xd1495b},
    };
    figure f;
    uint64_t *counts = NULL, above = 0;
    fig_init(&f, c, 2, 0, 0.0);
    ns_err rc = ns_plot_read_histogram(c->in, c->dsname, NS_PN_DRAW, &counts, &above, err);
    if (rc)
        goto done;
    if (above) {
        rc = ns_error_set(err, NS_EFORMAT, "%s: /pn holds %" PRIu64 " cells above %d, expected 0 (P), 1 (N), "
                          "2 (not a position) or 3 (draw)", c->in, above, NS_PN_DRAW);
        goto done;
    }
    if ((rc = fig_open_data(&f, "dat", 0, err)))
        goto done;
    uint64_t total = 0, cmax = 0;
    fprintf(f.data, "# bar, positions, colour (0xRRGGBB), outcome\n");
    for (int i = 0; i < 3; i++) {
        const uint64_t n = counts[bar[i].code];
        fprintf(f.data, "%d %" PRIu64 " %u %s\n", i, n, bar[i].rgb, bar[i].name);
        total += n;
        cmax = n > cmax ? n : cmax;
    }
    char main_title[400], caption[400], dims[128];
    dims_text(c, NULL, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "P-, N-positions and draws of %s", c->game_label);
    snprintf(caption, sizeof caption, "%s: %" PRIu64 " positions; a draw is neither P nor N", dims, total);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot: one bar per outcome, coloured as in --kind grundy (column 3)\n");
    fprintf(s, "set xlabel \"outcome\"\nset ylabel \"positions\"\n");
    fprintf(s, "set xrange [-0.5:2.5]\nset yrange [0:%g]\n", cmax ? cmax * 1.05 : 1.0);
    fprintf(s, "set grid ytics lc rgb '#e0e0e0' lw 0.5\n");
    fprintf(s, "set xtics (\"P\" 0, \"N\" 1, \"draw\" 2) scale 0\n");
    fprintf(s, "set boxwidth 0.8\nset style fill solid 0.85 border lc rgb '#1f3b73'\n");
    fprintf(s, "plot datafile using 1:2:3 with boxes lc rgb variable notitle\n");
    if ((rc = fig_run(&f, err)))
        goto done;
    rep(c, "%" PRIu64 " positions: %" PRIu64 " P, %" PRIu64 " N, %" PRIu64 " draws (loopy game: P, N and draw "
        "are three bars)\n", total, counts[NS_PN_P], counts[NS_PN_N], counts[NS_PN_DRAW]);
done:
    fig_free(&f);
    free(counts);
    return rc;
}

static ns_err draw_histogram(ns_plot_ctx *c, ns_error *err)
{
    if (c->loopy)
        return draw_histogram_pnd(c, err);
    figure f;
    uint64_t *counts = NULL, above = 0;
    uint32_t vmax = 0;
    fig_init(&f, c, 2, 0, 0.0);
    ns_err rc = ns_plot_max_value(c->in, c->dsname, &vmax, err);
    if (rc)
        goto done;
    if (c->max_value >= 0 && (uint64_t)c->max_value < vmax)
        vmax = (uint32_t)c->max_value;
    if ((rc = ns_plot_read_histogram(c->in, c->dsname, vmax, &counts, &above, err)) ||
        (rc = fig_open_data(&f, "dat", 0, err)))
        goto done;
    uint64_t total = above, cmax = 0;
    for (uint32_t v = 0; v <= vmax; v++) {
        fprintf(f.data, "%u %" PRIu64 "\n", v, counts[v]);
        total += counts[v];
        cmax = counts[v] > cmax ? counts[v] : cmax;
    }

    char main_title[400], caption[400], dims[128];
    dims_text(c, NULL, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "%s of %s", c->is_pn ? "P- and N-positions" : "Grundy value histogram",
             c->game_label);
    int used = snprintf(caption, sizeof caption, "%s: %" PRIu64 " positions", dims, total);
    if (above && used > 0 && (size_t)used < sizeof caption)
        snprintf(caption + used, sizeof caption - (size_t)used, ", %" PRIu64 " with values above %u not shown", above,
                 vmax);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot\n");
    fprintf(s, "set xlabel \"%s\"\nset ylabel \"positions\"\n", c->is_pn ? "outcome" : "Grundy value");
    fprintf(s, "set xrange [-0.5:%u.5]\nset yrange [0:%g]\n", vmax, cmax ? cmax * 1.05 : 1.0);
    fprintf(s, "set grid ytics lc rgb '#e0e0e0' lw 0.5\nset mxtics 1\n");
    if (c->is_pn)
        fprintf(s, "set xtics (\"P\" 0, \"N\" 1) scale 0\n");
    else if (vmax <= 20)
        fprintf(s, "set xtics 0, 1, %u\n", vmax);
    if (vmax <= 200)
        fprintf(s, "set boxwidth 0.8\nset style fill solid 0.85 border lc rgb '#1f3b73'\n");
    else
        fprintf(s, "set boxwidth 1.0\nset style fill solid 1.0 noborder\n");
    fprintf(s, "plot datafile using 1:2 with boxes lc rgb '#4c78a8' notitle\n");
    if ((rc = fig_run(&f, err)))
        goto done;
    rep(c, "%" PRIu64 " positions; counts of 0..%u:", total, vmax);
    for (uint32_t v = 0; v <= vmax && v < 10; v++)
        rep(c, " %" PRIu64, counts[v]);
    if (vmax >= 10)
        rep(c, " ...");
    if (above)
        rep(c, "; %" PRIu64 " above %u not shown", above, vmax);
    rep(c, "\n");
done:
    fig_free(&f);
    free(counts);
    return rc;
}

/* -------------------------------------------------------------------- rare */

/* Most bits of the values a rare/common mask may use (4096 masks). */
#define RARE_MASK_BITS 12

static int parity_even(uint32_t v)
{
    return (__builtin_popcount(v) & 1) == 0;
}

static ns_err draw_rare(ns_plot_ctx *c, ns_error *err)
{
    figure f;
    uint32_t *seq = NULL;
    uint64_t *counts = NULL;
    int64_t n = 0;
    int has_inv = 0;
    uint32_t inv = 0;
    fig_init(&f, c, 2, 0, 0.0);
    ns_err rc = ns_plot_read_sequence(c->in, c->dsname, &seq, &n, &has_inv, &inv, err);
    if (rc)
        goto done;
    /* the mask: the one with the fewest rare heap sizes over the whole
     * sequence (values reduced to their low RARE_MASK_BITS bits), the
     * smallest such mask on a tie */
    uint32_t vmax = 0;
    for (int64_t i = 0; i < n; i++)
        if (!(has_inv && seq[i] == inv) && seq[i] > vmax)
            vmax = seq[i];
    int bits = 0;
    while (bits < RARE_MASK_BITS && (vmax >> bits))
        bits++;
    if (bits == 0) {
        rc = ns_error_set(err, NS_EINVAL, "%s: every value is 0: no mask splits the values into rare and common",
                          c->in);
        goto done;
    }
    const uint32_t nv = (uint32_t)1 << bits;
    counts = calloc(nv, sizeof *counts);
    if (!counts) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i < n; i++)
        if (!(has_inv && seq[i] == inv))
            counts[seq[i] & (nv - 1)]++;
    uint32_t mask = 1;
    uint64_t best = UINT64_MAX;
    for (uint32_t m = 1; m < nv; m++) {
        uint64_t r = 0;
        for (uint32_t v = 0; v < nv; v++)
            if (parity_even(v & m))
                r += counts[v];
        if (r < best) {
            best = r;
            mask = m;
        }
    }
    int64_t lo = 0, hi = n - 1;
    if (c->have_range[0]) {
        lo = c->range[0][0];
        hi = c->range[0][1];
    }
    if ((rc = fig_open_data(&f, "dat", 0, err)))
        goto done;
    uint64_t shown = 0;
    uint32_t ytop = 0;
    for (int64_t i = lo; i <= hi; i++)
        if (!(has_inv && seq[i] == inv) && parity_even(seq[i] & mask)) {
            fprintf(f.data, "%" PRId64 " %" PRIu32 "\n", i, seq[i]);
            shown++;
            ytop = seq[i] > ytop ? seq[i] : ytop;
        }
    char main_title[400], caption[400], mbin[40];
    int w = 0;
    for (int b = bits - 1; b >= 0; b--)
        mbin[w++] = (char)('0' + ((mask >> b) & 1));
    mbin[w] = '\0';
    snprintf(main_title, sizeof main_title, "Rare values of %s", c->game_label);
    snprintf(caption, sizeof caption, "n < %" PRId64 ": %" PRIu64 " rare (popcount(G(n) & %s) even, the mask with the "
             "fewest)%s", n, best, mbin, lo > 0 || hi < n - 1 ? ", a window shown" : "");
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot\nset xlabel \"n\"\nset ylabel \"Grundy value G(n) of the rare n\"\n");
    fprintf(s, "set xrange [%.1f:%.1f]\nset yrange [-0.5:%u.5]\n", lo - 0.5, hi + 0.5, ytop);
    if (ytop <= 12)
        fprintf(s, "set ytics 0, 1, %u\nset mytics 1\n", ytop);
    fprintf(s, "set grid ytics lc rgb '#e8e8e8' lw 0.5\n");
    fprintf(s, "plot datafile using 1:2 with points pt 7 ps %.2f*pscale lc rgb '#b2182b' notitle\n",
            shown <= 100 ? 1.0 : shown <= 1000 ? 0.6 : 0.4);
    if ((rc = fig_run(&f, err)))
        goto done;
    rep(c, "%" PRId64 " values; mask %s (%" PRIu32 "): %" PRIu64 " rare (popcount(G(n) & mask) even), %" PRIu64
        " common\n", n, mbin, mask, best, (uint64_t)n - best);
    rep(c, "rare n:");
    uint64_t listed = 0;
    for (int64_t i = lo; i <= hi && listed < 12; i++)
        if (!(has_inv && seq[i] == inv) && parity_even(seq[i] & mask)) {
            rep(c, " %" PRId64, i);
            listed++;
        }
    rep(c, "%s\n", shown > listed ? " ..." : "");
done:
    fig_free(&f);
    free(seq);
    free(counts);
    return rc;
}

/* ----------------------------------------------------------------- census */

static int census_applies(const ns_plot_ctx *c, char *why, size_t len)
{
    if (c->census)
        return 1;
    snprintf(why, len, "--kind census draws a file written by 'nimsieve census'; %s is a table", c->in);
    return 0;
}

/* the categories of a census row, in the order of the key */
enum { CEN_PROVEN, CEN_OBSERVED, CEN_SALTUS, CEN_NONE, CEN_NCAT };

static int census_cat(const ns_h5_census_table *t, size_t i)
{
    if (t->period[i] <= 0)
        return CEN_NONE;
    if (t->saltus[i] > 0)
        return CEN_SALTUS;
    return t->proven[i] ? CEN_PROVEN : CEN_OBSERVED;
}

static ns_err draw_census(ns_plot_ctx *c, ns_error *err)
{
    figure f;
    ns_h5_census_table *t = NULL;
    fig_init(&f, c, 3, 0, 0.0);
    ns_err rc = ns_h5_census_read(c->in, &t, err);
    if (rc)
        goto done;
    if (t->n == 0) {
        rc = ns_error_set(err, NS_EINVAL, "%s: the census holds no codes", c->in);
        goto done;
    }
    size_t count[CEN_NCAT] = {0};
    int64_t pmax = 1;
    size_t imax = 0;
    for (size_t i = 0; i < t->n; i++) {
        count[census_cat(t, i)]++;
        if (t->period[i] > pmax) {
            pmax = t->period[i];
            imax = i;
        }
    }
    /* codes without a period sit on a band above the largest period */
    const double band = (double)pmax * 2.5;
    if ((rc = fig_open_data(&f, "dat", 0, err)))
        goto done;
    fprintf(f.data, "# index code period preperiod proven saltus max_value category(0 proven, 1 observed, "
                    "2 arithmetic, 3 none)\n");
    for (size_t i = 0; i < t->n; i++)
        fprintf(f.data, "%zu %s %" PRId64 " %" PRId64 " %u %" PRId64 " %" PRIu32 " %d\n", i, t->code[i], t->period[i],
                t->preperiod[i], (unsigned)t->proven[i], t->saltus[i], t->max_value[i], census_cat(t, i));
    char main_title[200], caption[400];
    snprintf(main_title, sizeof main_title, "Periods of the octal games of %d digit%s", t->digits,
             t->digits == 1 ? "" : "s");
    snprintf(caption, sizeof caption, "%zu codes, n < %" PRId64 ": %zu proven, %zu observed, %zu arithmetic, %zu "
             "none found", t->n, t->size, count[CEN_PROVEN], count[CEN_OBSERVED], count[CEN_SALTUS],
             count[CEN_NONE]);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot\nset xlabel \"code (in code order)\"\nset ylabel \"period p\"\n");
    fprintf(s, "set logscale y\nset xrange [-1:%zu]\nset yrange [0.8:%.1f]\n", t->n, band * 8.0);
    fprintf(s, "set arrow 1 from graph 0, first %.1f to graph 1, first %.1f nohead lc rgb '#d0d0d0' lw 0.5 back\n",
            band / 1.6, band / 1.6);
    fprintf(s, "set ytics (");
    for (int64_t v = 1; v <= pmax; v *= 10)
        fprintf(s, "\"%" PRId64 "\" %" PRId64 ", ", v, v);
    fprintf(s, "\"none\" %.1f)\n", band);
    fprintf(s, "set grid ytics lc rgb '#e8e8e8' lw 0.5\n");
    /* tics: every code when few, else the first code of each first digit */
    fprintf(s, "set xtics %s (", t->n <= 64 ? "rotate by 90 right" : "");
    int first = 1;
    for (size_t i = 0; i < t->n; i++) {
        if (t->n > 64 && i > 0 && strncmp(t->code[i], t->code[i - 1], 3) == 0)
            continue;
        char lab[NS_H5_CENSUS_CODE_LEN + 8];
        if (t->n <= 64)
            snprintf(lab, sizeof lab, "%s", t->code[i]);
        else
            snprintf(lab, sizeof lab, "%.3s..", t->code[i]);
        fprintf(s, "%s\"%s\" %zu", first ? "" : ", ", lab, i);
        first = 0;
    }
    fprintf(s, ") font ',%.1f'\n", f.fr.font_pt * (t->n <= 64 ? 0.7 : 0.9));
    fprintf(s, "set key top center horizontal maxrows 2 width -2 samplen 1\n");
    const double ps = t->n <= 100 ? 1.0 : t->n <= 1000 ? 0.6 : 0.4;
    fprintf(s, "plot datafile using 1:($8==0?$3:1/0) with points pt 7 ps %.2f*pscale lc rgb '#1f3b73' "
               "title 'proven (periodicity theorem)', \\\n", ps);
    fprintf(s, "     datafile using 1:($8==1?$3:1/0) with points pt 6 ps %.2f*pscale lc rgb '#e6550d' "
               "title 'observed, not proven', \\\n", ps);
    fprintf(s, "     datafile using 1:($8==2?$3:1/0) with points pt 9 ps %.2f*pscale lc rgb '#2ca02c' "
               "title 'arithmetic (saltus), observed', \\\n", ps);
    fprintf(s, "     datafile using 1:($8==3?%.1f:1/0) with points pt 2 ps %.2f*pscale lc rgb '#7f7f7f' "
               "title 'no period in range'\n", band, ps);
    if ((rc = fig_run(&f, err)))
        goto done;
    rep(c, "%zu codes of %d digit%s, heap sizes n < %" PRId64 "\n", t->n, t->digits, t->digits == 1 ? "" : "s",
        t->size);
    rep(c, "proven: %zu; observed, not proven: %zu; arithmetic (observed): %zu; no period found: %zu\n",
        count[CEN_PROVEN], count[CEN_OBSERVED], count[CEN_SALTUS], count[CEN_NONE]);
    if (count[CEN_NONE] < t->n)
        rep(c, "longest period: %" PRId64 " (%s, %s)\n", pmax, t->code[imax],
            census_cat(t, imax) == CEN_PROVEN ? "proven" : "observed only");
done:
    fig_free(&f);
    ns_h5_census_table_free(t);
    return rc;
}

/* ------------------------------------------------------------------ kinds */

static const ns_plot_kind_def kind_p_positions = {
    .name = "p-positions",
    .what = "the P-positions of a two-pile table as points, with the\n"
            "lines y = phi x and y = x/phi for Wythoff's game, else the\n"
            "lines y = c0 + c1 x fitted by least squares to the points\n"
            "above and below the diagonal (one per direction when a side\n"
            "holds several, none when its points fill an area), each\n"
            "slope with its standard error and the constant it is\n"
            "recognised as (default for two piles; whole table)",
    .piles = 2,
    .takes = NS_PLOT_TAKES_XYRANGE,
    .defaults = {.piles_from = 2, .piles_to = 2},
    .draw = draw_p_positions,
};

static const ns_plot_kind_def kind_grundy = {
    .name = "grundy",
    .what = "heat map of the Grundy values with a colour bar (P/N map\n"
            "for a P/N file; a loopy game's draws in a third colour); a window larger than the plot is reduced\n"
            "faithfully: each pixel is the min, max or mode of its block\n"
            "(default max; P/N maps: min, so a pixel is P when any of\n"
            "its cells is); at most 256 cells a side unless --xrange,\n"
            "--yrange say otherwise",
    .piles = 2,
    .takes = NS_PLOT_TAKES_XYRANGE | NS_PLOT_TAKES_DOWNSAMPLE,
    .defaults = {.window = 256},
    .draw = draw_grundy,
};

static const ns_plot_kind_def kind_g_values = {
    .name = "g-values",
    .what = "where the values 0..K lie, one colour each (K: --max-value,\n"
            "default 4, at most 31); at most 256 cells a side unless\n"
            "--xrange, --yrange say otherwise",
    .piles = 2,
    .takes = NS_PLOT_TAKES_XYRANGE,
    .defaults = {.window = 256},
    .draw = draw_g_values,
};

static const ns_plot_kind_def kind_sequence = {
    .name = "sequence",
    .what = "a one-pile Grundy sequence with its period marked (as found\n"
            "by 'nimsieve patterns'); by default the preperiod and 4\n"
            "periods (at least 24 values), or --range (default for one\n"
            "pile)",
    .piles = 1,
    .takes = NS_PLOT_TAKES_RANGE,
    .defaults = {.piles_from = 1, .piles_to = 1, .periods = 4},
    .draw = draw_sequence,
};

static const ns_plot_kind_def kind_histogram = {
    .name = "histogram",
    .what = "how many positions have each Grundy value (any number of\n"
            "piles; default for more than two)",
    .piles = 0,
    .takes = 0,
    .defaults = {.piles_from = 3, .piles_to = NS_MAX_DIM},
    .draw = draw_histogram,
};

static int remoteness_applies(const ns_plot_ctx *c, char *why, size_t len)
{
    if (!c->loopy) {
        snprintf(why, len, "--kind remoteness needs a loopy game's table (with /remoteness); %s is not one "
                 "(try --kind %s)", c->in, c->is_pn ? "grundy" : "g-values");
        return 0;
    }
    return 1;
}

static const ns_plot_kind_def kind_remoteness = {
    .name = "remoteness",
    .what = "a loopy game's remoteness (the moves to the end under\n"
            "optimal play: the winner hurries, the loser delays) as a\n"
            "heat map, draws in red; a pixel shows the max (--downsample:\n"
            "min, mode) of its decided cells, red when all are draws; at\n"
            "most 256 cells a side unless --xrange, --yrange say otherwise",
    .piles = 2,
    .takes = NS_PLOT_TAKES_XYRANGE | NS_PLOT_TAKES_DOWNSAMPLE,
    .defaults = {.window = 256},
    .applies = remoteness_applies,
    .draw = draw_remoteness,
};

static int rare_applies(const ns_plot_ctx *c, char *why, size_t len)
{
    if (c->is_pn) {
        snprintf(why, len, "--kind rare needs Grundy values; %s holds P/N only", c->in);
        return 0;
    }
    return 1;
}

static const ns_plot_kind_def kind_rare = {
    .name = "rare",
    .what = "the rare heap sizes n of a one-pile Grundy sequence (a\n"
            "heap game's): popcount(G(n) & mask) even, for the mask of\n"
            "the values' low 12 bits that makes the fewest n rare (the\n"
            "smallest such mask); whole sequence, or --range",
    .piles = 1,
    .takes = NS_PLOT_TAKES_RANGE,
    .defaults = {0},
    .applies = rare_applies,
    .draw = draw_rare,
};

static const ns_plot_kind_def kind_census = {
    .name = "census",
    .what = "a census file of 'nimsieve census': each code's period\n"
            "(log scale) against the code, marked proven, observed only,\n"
            "arithmetic (saltus) or none found (default for census files)",
    .piles = 0,
    .takes = 0,
    .defaults = {-1, -1, 0, 0},
    .applies = census_applies,
    .draw = draw_census,
};

const ns_plot_kind_def *const ns_plot_kinds[] = {
    &kind_p_positions, &kind_grundy, &kind_g_values, &kind_sequence, &kind_histogram, &kind_rare,
    &kind_remoteness, &kind_census, &ns_plot_kind_landscape, &ns_plot_kind_thumbnails, NULL,
};

const ns_plot_kind_def *ns_plot_kind_find(const char *name)
{
    for (int i = 0; ns_plot_kinds[i]; i++)
        if (strcmp(ns_plot_kinds[i]->name, name) == 0)
            return ns_plot_kinds[i];
    return NULL;
}

const ns_plot_kind_def *ns_plot_kind_default(int k)
{
    for (int i = 0; ns_plot_kinds[i]; i++)
        if (k >= ns_plot_kinds[i]->defaults.piles_from && k <= ns_plot_kinds[i]->defaults.piles_to)
            return ns_plot_kinds[i];
    return &kind_histogram;
}

int ns_plot_kind_applies(const ns_plot_kind_def *kind, const ns_plot_ctx *c, char *why, size_t len)
{
    if (c->census && kind != &kind_census) {
        snprintf(why, len, "%s is a census file (nimsieve census): the only kind for it is census", c->in);
        return 0;
    }
    if (c->sweep && kind != &ns_plot_kind_landscape && kind != &ns_plot_kind_thumbnails) {
        snprintf(why, len, "%s is a sweep file (nimsieve sweep): its kinds are landscape and thumbnails", c->in);
        return 0;
    }
    if (kind->piles && kind->piles != c->k) {
        const ns_plot_kind_def *d = ns_plot_kind_default(c->k);
        snprintf(why, len, "--kind %s draws a %s table; %s has %d pile%s (try --kind %s)", kind->name,
                 kind->piles == 1 ? "one-pile" : "two-pile", c->in, c->k, c->k == 1 ? "" : "s", d->name);
        return 0;
    }
    return kind->applies ? kind->applies(c, why, len) : 1;
}
