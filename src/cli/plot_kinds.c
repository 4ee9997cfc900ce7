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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_patterns.h"
#include "cli/plot_data.h"

/* P-positions drawn one by one up to this many; beyond, one dot per pixel
 * that holds any. */
#define PPOS_POINT_LIMIT 200000
/* Sequences drawn value by value up to this many times the plot width. */
#define SEQ_POINTS_PER_PX 2

static const char *const kind_names[NS_PLOT_NKINDS] = {"p-positions", "grundy", "g-values", "sequence",
                                                    "histogram"};

const char *ns_plot_kind_name(ns_plot_kind kind)
{
    return (unsigned)kind < NS_PLOT_NKINDS ? kind_names[kind] : "?";
}

int ns_plot_kind_parse(const char *name)
{
    for (int i = 0; i < NS_PLOT_NKINDS; i++)
        if (strcmp(name, kind_names[i]) == 0)
            return i;
    return -1;
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

static void fig_init(figure *f, ns_plot_ctx *c, int colorbox, double aspect)
{
    memset(f, 0, sizeof *f);
    f->c = c;
    ns_plot_frame_init(&f->fr, c->fmt, c->width, c->height, 2, colorbox, aspect);
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
    snprintf(what, sizeof what, "nimsieve plot --kind %s: %s", ns_plot_kind_name(f->c->kind),
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
    return ns_plot_gp_run(f->pf.script, f->c->out, err);
}

static void axis_labels(FILE *s, const ns_plot_ctx *c)
{
    fprintf(s, "set xlabel ");
    ns_plot_gp_quote(s, c->axis[0]);
    fprintf(s, " noenhanced\nset ylabel ");
    ns_plot_gp_quote(s, c->axis[1]);
    fprintf(s, " noenhanced\n");
}

static double table_aspect(const ns_plot_ctx *c)
{
    return (double)c->bounds[1] / (double)c->bounds[0];
}

static void dims_text(const ns_plot_ctx *c, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < c->k && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, "%s%" PRId64, d ? " × " : "", c->bounds[d]);
}

static ns_err need_k(const ns_plot_ctx *c, int k, const char *hint, ns_error *err)
{
    if (c->k == k)
        return NS_OK;
    return ns_error_set(err, NS_EINVAL, "--kind %s draws a %s table; %s has %d pile%s%s",
                        ns_plot_kind_name(c->kind), k == 1 ? "one-pile" : "two-pile", c->in, c->k,
                        c->k == 1 ? "" : "s", hint);
}

/* ------------------------------------------------------------ p-positions */

ns_err ns_plot_p_positions(ns_plot_ctx *c, ns_error *err)
{
    ns_err rc = need_k(c, 2, c->k == 1 ? " (try --kind sequence)" : " (try --kind histogram)", err);
    if (rc)
        return rc;
    figure f;
    ns_plot_ppos pp;
    memset(&pp, 0, sizeof pp);
    fig_init(&f, c, 0, table_aspect(c));
    const int64_t n1 = c->bounds[0], n2 = c->bounds[1];
    if ((rc = ns_plot_read_ppos(c->in, n1, n2, f.fr.plot_w, f.fr.plot_h, PPOS_POINT_LIMIT, &pp, err)) ||
        (rc = fig_open_data(&f, "dat", 0, err)))
        goto done;

    /* the points, or one per pixel that holds any */
    uint64_t drawn = 0;
    if (pp.pts) {
        for (uint64_t i = 0; i < pp.n; i++)
            fprintf(f.data, "%" PRId64 " %" PRId64 "\n", pp.pts[2 * i], pp.pts[2 * i + 1]);
        drawn = pp.n;
    } else {
        const ns_ds_plan *g = &pp.grid;
        for (int64_t X = 0; X < g->out_rows; X++)
            for (int64_t Y = 0; Y < g->out_cols; Y++)
                if (pp.occ[X * g->out_cols + Y]) {
                    fprintf(f.data, "%.1f %.1f\n", X * g->fr + (g->fr - 1) / 2.0, Y * g->fc + (g->fc - 1) / 2.0);
                    drawn++;
                }
    }

    char main_title[400], caption[400], dims[128];
    dims_text(c, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "P-positions of %s", c->game_label);
    int used = snprintf(caption, sizeof caption, "%s table: %" PRIu64 " P-positions", dims, pp.n);
    if (!pp.pts && used > 0 && (size_t)used < sizeof caption)
        snprintf(caption + used, sizeof caption - (size_t)used, ", one dot per pixel (%" PRId64 " × %" PRId64 " cells) holding any",
                 pp.grid.fr, pp.grid.fc);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;

    FILE *s = f.script;
    double ps = pp.n > 20000 ? 0.35 : pp.n > 2000 ? 0.5 : pp.n > 200 ? 0.8 : 1.2;
    fprintf(s, "\n# the plot\n");
    axis_labels(s, c);
    fprintf(s, "set xrange [-0.5:%" PRId64 ".5]\nset yrange [-0.5:%" PRId64 ".5]\n", n1 - 1, n2 - 1);
    /* bottom right: below the lowest line of P-positions of most games */
    fprintf(s, "set key bottom right opaque box lc rgb '#bbbbbb' samplen 2 spacing 1.2\n");
    fprintf(s, "set grid lc rgb '#e0e0e0' lw 0.5\nset samples 1000\n");
    if (c->is_wythoff)
        fprintf(s, "phi = (1 + sqrt(5)) / 2\n");
    fprintf(s, "plot datafile using 1:2 with points pt 7 ps %.2f lc rgb '#1f3b73' title \"P-positions\"", ps);
    if (c->is_wythoff) {
        fprintf(s, ", \\\n     phi * x with lines lw 1.5 dt 2 lc rgb '#d62728' title \"y = φx\""
                   ", \\\n     x / phi with lines lw 1.5 dt 2 lc rgb '#e6550d' title \"y = x/φ\"");
    } else {
        /* the fitted lines: one per branch, or one per direction of a
         * branch that splits */
        static const char *const colours[] = {"#d62728", "#2ca02c", "#9467bd", "#e6550d", "#8c564b", "#17becf"};
        int nl = 0;
        for (int b = 0; b < 2; b++) {
            const ns_plot_fit *fit = b ? &pp.lower : &pp.upper;
            int m = fit->nlines ? fit->nlines : fit->ok ? 1 : 0;
            for (int j = 0; j < m; j++) {
                double c = fit->nlines ? fit->line[j].slope : fit->slope;
                if ((fit->nlines ? fit->line[j].scatter : fit->scatter) >= NS_PLOT_LINE_SCATTER)
                    continue;   /* the points fill an area: no line */
                nl++;
                fprintf(s, ", \\\n     %.10g * x with lines lw 1.5 dt 2 lc rgb '%s' title \"fit y = %.4fx\"", c,
                        colours[(nl - 1) % 6], c);
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

    used = snprintf(c->report, sizeof c->report, "%" PRIu64 " P-positions (%" PRIu64 " drawn%s), %" PRIu64
                    " on the diagonal\n", pp.n, drawn, pp.pts ? "" : " as pixels", pp.n_diag);
    for (int b = 0; b < 2 && used > 0 && (size_t)used < sizeof c->report; b++) {
        const ns_plot_fit *fit = b ? &pp.lower : &pp.upper;
        const char *name = b ? "below the diagonal (y < x)" : "above the diagonal (y > x)";
        if (fit->ok) {
            used += snprintf(c->report + used, sizeof c->report - (size_t)used,
                             "%s: %" PRIu64 " points, least-squares slope %.6f ± %.2g, scatter %.2g%%%s%s\n", name,
                             fit->n, fit->slope, fit->sd, 100 * fit->scatter,
                             fit->used < fit->n ? " (fitted on an even sample)" : "",
                             fit->nlines ? "" : fit->scatter >= NS_PLOT_LINE_SCATTER ? " (an area, not a line: not drawn)" : "");
            for (int j = 0; j < fit->nlines && used > 0 && (size_t)used < sizeof c->report; j++)
                used += snprintf(c->report + used, sizeof c->report - (size_t)used,
                                 "  line %d of %d: slope %.6f ± %.2g, scatter %.2g%%%s, %s%" PRIu64 " points\n", j + 1,
                                 fit->nlines, fit->line[j].slope, fit->line[j].sd, 100 * fit->line[j].scatter,
                                 fit->line[j].scatter >= NS_PLOT_LINE_SCATTER ? " (not drawn)" : "",
                                 fit->used < fit->n ? "about " : "", fit->line[j].n);
        } else
            used += snprintf(c->report + used, sizeof c->report - (size_t)used, "%s: %" PRIu64 " points, no slope fitted\n",
                             name, fit->n);
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

static void image_plot_line(FILE *s, const ns_ds_plan *g)
{
    fprintf(s, "set xrange [-0.5:%" PRId64 ".5]\nset yrange [-0.5:%" PRId64 ".5]\n", g->rows - 1, g->cols - 1);
    fprintf(s, "plot datafile binary array=(%" PRId64 ",%" PRId64 ") format='%%float32' dx=%" PRId64 " dy=%" PRId64
               " origin=(%.1f,%.1f) with image notitle\n",
            g->out_rows, g->out_cols, g->fr, g->fc, (g->fr - 1) / 2.0, (g->fc - 1) / 2.0);
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

ns_err ns_plot_grundy(ns_plot_ctx *c, ns_error *err)
{
    ns_err rc = need_k(c, 2, c->k == 1 ? " (try --kind sequence)" : " (try --kind histogram)", err);
    if (rc)
        return rc;
    figure f;
    uint32_t *grid = NULL;
    ns_ds_plan g;
    fig_init(&f, c, 1, table_aspect(c));
    const ns_ds_kind ds = c->ds_given ? c->ds : NS_DS_MAX;
    if ((rc = ns_plot_read_grid(c->in, c->dsname, ds, f.fr.plot_w, f.fr.plot_h, &g, &grid, err)))
        goto done;
    uint32_t vmax = 0;
    int any = 0;
    for (int64_t i = 0; i < g.out_rows * g.out_cols; i++)
        if (grid[i] != NS_DS_EMPTY) {
            any = 1;
            vmax = grid[i] > vmax ? grid[i] : vmax;
        }
    uint32_t cap = c->is_pn ? 1 : c->max_value >= 0 && (uint64_t)c->max_value < vmax ? (uint32_t)c->max_value : vmax;
    if (!any) {
        rc = ns_error_set(err, NS_EINVAL, "%s holds no position to draw", c->in);
        goto done;
    }
    if ((rc = fig_open_data(&f, "bin", 1, err)))
        goto done;
    write_image(f.data, &g, grid, value_or_empty, &cap);

    const int reduced = g.fr > 1 || g.fc > 1;
    const char *how = ds == NS_DS_MIN ? "minimum" : ds == NS_DS_MAX ? "maximum" : "most frequent value";
    char main_title[400], caption[400], dims[128];
    dims_text(c, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "%s of %s", c->is_pn ? "P/N table" : "Grundy values", c->game_label);
    if (reduced)
        snprintf(caption, sizeof caption, "%s table; each pixel: the %s of %" PRId64 " × %" PRId64 " cells",
                 dims, how, g.fr, g.fc);
    else
        snprintf(caption, sizeof caption, "%s table; one square per cell%s", dims,
                 c->is_pn ? "" : ", largest value shown in the colour bar");
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot\n");
    axis_labels(s, c);
    colorbox_at(s, &f.fr);
    if (c->is_pn) {
        fprintf(s, "set palette defined (0 '#1f3b73', 1 '#1f3b73', 1 '#f2e8cf', 2 '#f2e8cf')\n"
                   "set cbrange [-0.5:1.5]\nset cbtics (\"P\" 0, \"N\" 1) scale 0\n");
    } else {
        fprintf(s, "set palette defined (0 '#440154', 1 '#482878', 2 '#3e4989', 3 '#31688e', 4 '#26828e', "
                   "5 '#1f9e89', 6 '#35b779', 7 '#6ece58', 8 '#b5de2b', 9 '#fde725')\n");
        fprintf(s, "set cbrange [0:%" PRIu32 "]\n", cap > 0 ? cap : 1);
        char cbl[200];
        if (cap < vmax)
            snprintf(cbl, sizeof cbl, "Grundy value (%" PRIu32 " and above: top colour)", cap);
        else if (reduced)
            snprintf(cbl, sizeof cbl, "Grundy value (%s per pixel)", ds == NS_DS_MIN ? "min" : ds == NS_DS_MAX ? "max" : "mode");
        else
            snprintf(cbl, sizeof cbl, "Grundy value");
        fprintf(s, "set cblabel ");
        ns_plot_gp_quote(s, cbl);
        fprintf(s, "\n");
    }
    image_plot_line(s, &g);
    if ((rc = fig_run(&f, err)))
        goto done;
    snprintf(c->report, sizeof c->report, "%s%" PRId64 " x %" PRId64 " pixels, each the %s of %" PRId64 " x %" PRId64
             " cells; largest value drawn %" PRIu32 "\n", c->is_pn ? "P/N map, " : "", g.out_rows, g.out_cols,
             reduced ? how : "value", g.fr, g.fc, vmax);
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

ns_err ns_plot_g_values(ns_plot_ctx *c, ns_error *err)
{
    ns_err rc = need_k(c, 2, c->k == 1 ? " (try --kind sequence)" : " (try --kind histogram)", err);
    if (rc)
        return rc;
    if (c->max_value > NS_DS_PRESENCE_MAX)
        return ns_error_set(err, NS_ERANGE, "--max-value %" PRId64 " with --kind g-values: at most %d values get colours",
                            c->max_value, NS_DS_PRESENCE_MAX);
    uint32_t K = c->max_value >= 0 ? (uint32_t)c->max_value : 4;
    if (c->is_pn)
        K = 0;   /* a P/N file knows only which cells have value 0 */
    figure f;
    uint32_t *grid = NULL;
    ns_ds_plan g;
    fig_init(&f, c, 1, table_aspect(c));
    if ((rc = ns_plot_read_grid(c->in, c->dsname, NS_DS_PRESENCE, f.fr.plot_w, f.fr.plot_h, &g, &grid, err)) ||
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
    char main_title[400], caption[400], dims[128];
    dims_text(c, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "Positions of the values 0..%" PRIu32 " in %s", K, c->game_label);
    if (reduced)
        snprintf(caption, sizeof caption, "%s table; each pixel: the smallest of these values among its %" PRId64
                 " × %" PRId64 " cells", dims, g.fr, g.fc);
    else
        snprintf(caption, sizeof caption, "%s table; one square per cell, blank: value above %" PRIu32, dims, K);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot: one colour per value, as steps of the palette\n");
    axis_labels(s, c);
    colorbox_at(s, &f.fr);
    fprintf(s, "set palette defined (");
    for (uint32_t v = 0; v <= K; v++) {
        char col[16];
        value_colour((int)v, col, sizeof col);
        fprintf(s, "%s%u '%s', %u '%s'", v ? ", " : "", v, col, v + 1, col);
    }
    fprintf(s, ")\nset cbrange [-0.5:%u.5]\nset cbtics 0, 1, %u scale 0\nset cblabel \"Grundy value\"\n", K, K);
    image_plot_line(s, &g);
    if ((rc = fig_run(&f, err)))
        goto done;
    int used = snprintf(c->report, sizeof c->report, "%" PRId64 " x %" PRId64 " pixels of %" PRId64 " x %" PRId64
                        " cells; pixels per value:", g.out_rows, g.out_cols, g.fr, g.fc);
    for (uint32_t v = 0; v <= K && used > 0 && (size_t)used < sizeof c->report; v++)
        used += snprintf(c->report + used, sizeof c->report - (size_t)used, " %u:%" PRIu64, v, shown[v]);
    if (used > 0 && (size_t)used < sizeof c->report - 1)
        strcat(c->report, "\n");
done:
    fig_free(&f);
    free(grid);
    return rc;
}

/* ---------------------------------------------------------------- sequence */

ns_err ns_plot_sequence(ns_plot_ctx *c, ns_error *err)
{
    ns_err rc = need_k(c, 1, " (try --kind grundy or p-positions)", err);
    if (rc)
        return rc;
    figure f;
    uint32_t *seq = NULL;
    uint8_t *occ = NULL;
    int64_t n = 0, period = 0, pre = 0;
    int has_inv = 0;
    uint32_t inv = 0;
    fig_init(&f, c, 0, 0.0);
    if ((rc = ns_plot_read_sequence(c->in, c->dsname, &seq, &n, &has_inv, &inv, err)))
        goto done;
    /* the same detection as `nimsieve patterns` (observed, not proven:
     * the plot does not look at the moves) */
    ns_period per;
    ns_patterns_period_seq(seq, n, -1, c->is_pn, 0, &per);
    const int found = per.found;
    period = per.period;
    pre = per.preperiod;
    uint32_t vmax = 0;
    for (int64_t i = 0; i < n; i++)
        if (!(has_inv && seq[i] == inv) && seq[i] > vmax)
            vmax = seq[i];
    uint32_t ytop = c->max_value >= 0 && (uint64_t)c->max_value < vmax ? (uint32_t)c->max_value : vmax;

    if ((rc = fig_open_data(&f, "dat", 0, err)))
        goto done;
    const int all_points = n <= (int64_t)SEQ_POINTS_PER_PX * f.fr.plot_w;
    ns_ds_plan g;
    memset(&g, 0, sizeof g);
    if (all_points) {
        for (int64_t i = 0; i < n; i++)
            if (!(has_inv && seq[i] == inv))
                fprintf(f.data, "%" PRId64 " %" PRIu32 "\n", i, seq[i]);
    } else {
        /* one dot per pixel of the (n, value) plane that holds a value */
        if ((rc = ns_ds_plan_for(n, (int64_t)ytop + 1, f.fr.plot_w, f.fr.plot_h, &g, err)))
            goto done;
        occ = calloc((size_t)(g.out_rows * g.out_cols), 1);
        if (!occ) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto done;
        }
        for (int64_t i = 0; i < n; i++)
            if (!(has_inv && seq[i] == inv) && seq[i] <= ytop)
                occ[(i / g.fr) * g.out_cols + seq[i] / g.fc] = 1;
        for (int64_t X = 0; X < g.out_rows; X++)
            for (int64_t Y = 0; Y < g.out_cols; Y++)
                if (occ[X * g.out_cols + Y])
                    fprintf(f.data, "%.1f %.1f\n", X * g.fr + (g.fr - 1) / 2.0, Y * g.fc + (g.fc - 1) / 2.0);
    }

    char main_title[400], caption[400];
    snprintf(main_title, sizeof main_title, "Grundy sequence of %s", c->game_label);
    int used;
    char saltus[64] = "";
    if (found && per.saltus)
        snprintf(saltus, sizeof saltus, " and saltus %" PRId64, per.saltus);
    if (found)
        used = snprintf(caption, sizeof caption, "n < %" PRId64 ": period %" PRId64 "%s from n = %" PRId64
                        " (shaded: the first period)", n, period, saltus, pre);
    else
        used = snprintf(caption, sizeof caption, "n < %" PRId64 ": no period p <= %" PRId64 " found", n, n / 2);
    if (!all_points && used > 0 && (size_t)used < sizeof caption)
        snprintf(caption + used, sizeof caption - (size_t)used, "; one dot per pixel (%" PRId64 " values of n)", g.fr);
    if ((rc = fig_open_script(&f, main_title, caption, err)))
        goto done;
    FILE *s = f.script;
    fprintf(s, "\n# the plot\n");
    fprintf(s, "set xlabel \"n\"\nset ylabel ");
    ns_plot_gp_quote(s, c->is_pn ? "P (0) or N (1)" : "Grundy value G(n)");
    fprintf(s, "\nset xrange [-0.5:%" PRId64 ".5]\nset yrange [-0.5:%u.5]\n", n - 1, ytop);
    if (ytop <= 12)
        fprintf(s, "set ytics 0, 1, %u\nset mytics 1\n", ytop);
    fprintf(s, "set grid ytics lc rgb '#e8e8e8' lw 0.5\n");
    if (found) {
        fprintf(s, "# the detected period: the first one shaded, the periodic part tinted\n");
        fprintf(s, "set object 1 rect from %.1f, graph 0 to %.1f, graph 1 fc rgb '#eef3fb' fs solid 1.0 noborder behind\n",
                (double)(pre + period) - 0.5, (double)n - 0.5);
        fprintf(s, "set object 2 rect from %.1f, graph 0 to %.1f, graph 1 fc rgb '#fdd49e' fs solid 1.0 noborder behind\n",
                (double)pre - 0.5, (double)(pre + period) - 0.5);
        /* the period boundaries, when they are far enough apart to be seen */
        if ((double)period * f.fr.plot_w / (double)n >= 6.0)
            fprintf(s, "do for [b = %" PRId64 ":%" PRId64 ":%" PRId64 "] {\n"
                       "    set arrow from b - 0.5, graph 0 to b - 0.5, graph 1 nohead dt 3 lw 0.8 lc rgb '#c07000' back\n"
                       "}\n", pre, n - 1, period);
    }
    fprintf(s, "plot datafile using 1:2 with points pt 7 ps %.2f lc rgb '#1f3b73' notitle\n",
            n <= 100 ? 1.0 : n <= 1000 ? 0.6 : 0.4);
    if ((rc = fig_run(&f, err)))
        goto done;
    if (found)
        /* "%.0d" of 0 prints nothing: the saltus only when there is one */
        snprintf(c->report, sizeof c->report, "%" PRId64 " values; period %" PRId64 ", preperiod %" PRId64 "%s%.0" PRId64
                 "\n", n, period, pre, per.saltus ? ", saltus " : "", per.saltus);
    else
        snprintf(c->report, sizeof c->report, "%" PRId64 " values; no period p <= %" PRId64 " found\n", n, n / 2);
done:
    fig_free(&f);
    free(seq);
    free(occ);
    return rc;
}

/* --------------------------------------------------------------- histogram */

ns_err ns_plot_histogram(ns_plot_ctx *c, ns_error *err)
{
    figure f;
    uint64_t *counts = NULL, above = 0;
    uint32_t vmax = 0;
    fig_init(&f, c, 0, 0.0);
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
    dims_text(c, dims, sizeof dims);
    snprintf(main_title, sizeof main_title, "%s of %s", c->is_pn ? "P- and N-positions" : "Grundy value histogram",
             c->game_label);
    int used = snprintf(caption, sizeof caption, "%s table: %" PRIu64 " positions", dims, total);
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
    used = snprintf(c->report, sizeof c->report, "%" PRIu64 " positions; counts of 0..%u:", total, vmax);
    for (uint32_t v = 0; v <= vmax && v < 10 && used > 0 && (size_t)used < sizeof c->report; v++)
        used += snprintf(c->report + used, sizeof c->report - (size_t)used, " %" PRIu64, counts[v]);
    if (vmax >= 10 && used > 0 && (size_t)used < sizeof c->report)
        used += snprintf(c->report + used, sizeof c->report - (size_t)used, " ...");
    if (above && used > 0 && (size_t)used < sizeof c->report)
        used += snprintf(c->report + used, sizeof c->report - (size_t)used, "; %" PRIu64 " above %u not shown",
                         above, vmax);
    if (used > 0 && (size_t)used < sizeof c->report - 1)
        strcat(c->report, "\n");
done:
    fig_free(&f);
    free(counts);
    return rc;
}
