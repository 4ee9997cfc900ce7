/* plot_sweep.c - the figures of a sweep file (`nimsieve sweep`, issue 20):
 *
 *   landscape   a summary field against an integer parameter, one point
 *               per variant, with the conjectured law (sweep_report.h:
 *               a closed form, a linear law or a constant that held for
 *               every variant) drawn over it and labelled with its formula
 *   thumbnails  a grid of small pictures of the P-positions, one per
 *               variant (the first NS_PLOT_SWEEP_THUMBS), labelled with the
 *               parameters: from the variant's kept table /tables/vNNNNNNN
 *               when the file has it, else the variant re-solved at the
 *               thumbnail size through the sweep driver (analysis/ns_sweep.h)
 *               from the file's game and the row's parameters
 *
 * Both write the data drawn beside the script (--keep-script keeps them). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "cli/plot_gp.h"
#include "cli/plot_kinds.h"
#include "cli/sweep_report.h"
#include "game/ns_build.h"
#include "store/ns_h5_sweep.h"
#include "store/ns_h5_sweep_tables.h"

/* a figure's files and its two open streams */
typedef struct sfig {
    ns_plot_ctx *c;
    ns_plot_frame fr;
    ns_plot_files pf;
    int have_files;
    FILE *data, *script;
} sfig;

static void rep_line(ns_plot_ctx *c, const char *line)
{
    const size_t used = strlen(c->report);
    snprintf(c->report + used, sizeof c->report - used, "%s\n", line);
}

static void sfig_free(sfig *f)
{
    if (f->data)
        fclose(f->data);
    if (f->script)
        fclose(f->script);
    if (f->have_files)
        ns_plot_files_free(&f->pf);
    memset(f, 0, sizeof *f);
}

static ns_err close_checked(FILE **fp, const char *path, ns_error *err)
{
    int bad = ferror(*fp);
    bad |= fclose(*fp) != 0;
    *fp = NULL;
    return bad ? ns_error_set(err, NS_EIO, "cannot write %s (disk full?)", path) : NS_OK;
}

static ns_err sfig_open(sfig *f, ns_plot_ctx *c, int title_lines, ns_error *err)
{
    memset(f, 0, sizeof *f);
    f->c = c;
    ns_plot_frame_init(&f->fr, c->fmt, c->width, c->height, title_lines, 0, 0.0);
    ns_err rc = ns_plot_files_init(&f->pf, c->out, c->keep_script, "dat", err);
    if (rc)
        return rc;
    f->have_files = 1;
    if (!(f->data = fopen(f->pf.data, "w")))
        return ns_error_set(err, NS_EIO, "cannot write %s: %s", f->pf.data, strerror(errno));
    return NS_OK;
}

/* the data written: the script's preamble and title lines */
static ns_err sfig_script(sfig *f, const char *title, const char *caption, ns_error *err)
{
    ns_err rc = close_checked(&f->data, f->pf.data, err);
    if (rc)
        return rc;
    if (!(f->script = fopen(f->pf.script, "w")))
        return ns_error_set(err, NS_EIO, "cannot write %s: %s", f->pf.script, strerror(errno));
    char what[200];
    snprintf(what, sizeof what, "nimsieve plot --kind %s", f->c->kind->name);
    ns_plot_gp_preamble(f->script, &f->fr, f->c->fmt, &f->pf, what, f->c->in);
    FILE *s = f->script;
    fprintf(s, "\n# title and caption\nset label 1001 ");
    ns_plot_gp_quote(s, f->c->title ? f->c->title : title);
    fprintf(s, " at screen 0.5, screen %.5f center font ',%.1f' noenhanced front\n",
            1.0 - 1.2 * f->fr.font_px / f->fr.height, f->fr.font_pt * 1.2);
    fprintf(s, "set label 1002 ");
    ns_plot_gp_quote(s, caption);
    fprintf(s, " at screen 0.5, screen %.5f center noenhanced front\n", 1.0 - 2.7 * f->fr.font_px / f->fr.height);
    return NS_OK;
}

static ns_err sfig_run(sfig *f, ns_error *err)
{
    ns_err rc = close_checked(&f->script, f->pf.script, err);
    if (rc || (rc = ns_plot_gp_run(f->pf.script, f->c->out, err)))
        return rc;
    if (f->c->keep_script) {
        snprintf(f->c->kept_script, sizeof f->c->kept_script, "%s", f->pf.script);
        snprintf(f->c->kept_data, sizeof f->c->kept_data, "%s", f->pf.data);
    }
    return NS_OK;
}

/* ------------------------------------------------------------- landscape */

static const char *const fields[] = {"p_positions", "preperiod", "period", "proven", "slope_a", "slope_b",
                                     "seconds"};

/* the field's value in row r, NaN where it does not apply */
static double field_value(const ns_h5_sweep *s, const ns_h5_sweep_row *r, int k)
{
    switch (k) {
    case 0: return (double)r->p_positions;
    case 1: return s->piles == 1 && r->period > 0 ? (double)r->preperiod : NAN;
    case 2: return s->piles == 1 && r->period > 0 ? (double)r->period : NAN;
    case 3: return s->piles == 1 ? (double)r->proven : NAN;
    case 4: return s->piles == 2 ? r->slope_a : NAN;
    case 5: return s->piles == 2 ? r->slope_b : NAN;
    default: return r->seconds;
    }
}

/* the integer parameter x of every row (the first one with --param unset) */
static ns_err pick_param(const ns_plot_ctx *c, const ns_params *ps, size_t n, char *x, size_t len, ns_error *err)
{
    for (int j = 0; n && j < ps[0].n; j++) {
        const char *name = ps[0].p[j].name;
        if (c->param && strcmp(c->param, name) != 0)
            continue;
        size_t i = 0;
        while (i < n && ns_params_get(&ps[i], name) && ns_params_get(&ps[i], name)->n == 1)
            i++;
        if (i == n) {
            snprintf(x, len, "%s", name);
            return NS_OK;
        }
        if (c->param)
            return ns_error_set(err, NS_EINVAL, "--param %s: not one integer in every variant of %s (expected an "
                                "integer parameter such as a=1..10)", c->param, c->in);
    }
    if (c->param)
        return ns_error_set(err, NS_EINVAL, "--param %s: %s has no such parameter", c->param, c->in);
    return ns_error_set(err, NS_EINVAL, "%s: no integer parameter to draw against (expected a sweep over a "
                        "range such as -D a=1..10; try --kind thumbnails)", c->in);
}

/* the law to draw: the best-ranked closed form, linear law or constant of
 * the field in x that covers every variant; NULL when none */
static const ns_conj *pick_law(const ns_conj *cj, size_t nc, const char *field, const char *x, size_t n, size_t *rank)
{
    for (size_t i = 0; i < nc; i++) {
        const ns_conj *q = &cj[i];
        if (q->covered != n || strcmp(q->field, field) != 0)
            continue;
        if (((q->kind == NS_CONJ_CLOSED && q->u != 0 && !q->by[0]) ||
             (q->kind == NS_CONJ_LINEAR && q->m != 0 && q->groups == 1)) &&
            strcmp(q->param, x) == 0) {
            *rank = i + 1;
            return q;
        }
        if (q->kind == NS_CONJ_CONSTANT) {
            *rank = i + 1;
            return q;
        }
    }
    return NULL;
}

static double law_value(const ns_conj *q, double x)
{
    if (q->kind == NS_CONJ_CLOSED)
        return ns_conj_closed_eval(q, x);
    if (q->kind == NS_CONJ_LINEAR)
        return (double)q->m * x + (double)q->c;
    return (double)q->value;
}

/* the law as a gnuplot expression of x and as its formula */
static void law_expr(const ns_conj *q, char *gp, size_t len, char *formula, size_t flen)
{
    if (q->kind == NS_CONJ_CLOSED) {
        snprintf(gp, len, "(%d.0 + %d.0*x + sqrt(%d.0*x**2 + %d.0*x + %d.0))/%d.0", q->p, q->q, q->r, q->s, q->t,
                 q->u);
    } else if (q->kind == NS_CONJ_LINEAR) {
        snprintf(gp, len, "%" PRId64 ".0*x + %" PRId64 ".0", q->m, q->c);
    } else {
        snprintf(gp, len, "%" PRId64 ".0", q->value);
    }
    /* the formula: the statement's text up to " for " */
    const char *e = strstr(q->text, " for ");
    snprintf(formula, flen, "%.*s", e ? (int)(e - q->text) : (int)strlen(q->text), q->text);
}

static ns_err draw_landscape(ns_plot_ctx *c, ns_error *err)
{
    ns_h5_sweep *s = NULL;
    ns_params *ps = NULL;
    ns_conj *cj = NULL;
    size_t nc = 0;
    sfig f;
    memset(&f, 0, sizeof f);
    ns_err rc = ns_h5_sweep_read(c->in, &s, err);
    if (rc || (rc = ns_sweep_conjectures(s, &ps, &cj, &nc, err)))
        goto done;
    if (s->n == 0) {
        rc = ns_error_set(err, NS_EINVAL, "%s: the sweep holds no variants", c->in);
        goto done;
    }
    const char *field = c->field ? c->field : s->piles == 2 ? "slope_a" : "period";
    int k = -1;
    for (int j = 0; j < (int)(sizeof fields / sizeof fields[0]); j++)
        if (strcmp(fields[j], field) == 0)
            k = j;
    if (k < 0 || (s->piles == 2 && (k >= 1 && k <= 3)) || (s->piles == 1 && (k == 4 || k == 5))) {
        rc = ns_error_set(err, NS_EINVAL, "--field %s: expected one of p_positions, %s, seconds (a %s sweep)", field,
                          s->piles == 2 ? "slope_a, slope_b" : "period, preperiod, proven",
                          s->piles == 2 ? "two-pile" : "one-pile");
        goto done;
    }
    char x[NS_PARAM_NAME_LEN];
    if ((rc = pick_param(c, ps, s->n, x, sizeof x, err)))
        goto done;
    size_t rank = 0;
    const ns_conj *law = k == 6 ? NULL : pick_law(cj, nc, field, x, s->n, &rank);
    if ((rc = sfig_open(&f, c, 3, err)))
        goto done;
    fprintf(f.data, "# %s against %s, one row per variant with a value; column 3: the law drawn (%s)\n", field, x,
            law ? "conjecture" : "none: nan");
    fprintf(f.data, "# %s %s law params\n", x, field);
    size_t drawn = 0;
    int64_t xlo = INT64_MAX, xhi = INT64_MIN;
    for (size_t i = 0; i < s->n; i++) {
        const double y = field_value(s, &s->rows[i], k);
        if (!isfinite(y))
            continue;
        const int64_t xv = ns_params_get(&ps[i], x)->v[0];
        xlo = xv < xlo ? xv : xlo;
        xhi = xv > xhi ? xv : xhi;
        fprintf(f.data, "%" PRId64 " %.17g %.17g \"%s\"\n", xv, y, law ? law_value(law, (double)xv) : NAN,
                s->rows[i].params);
        drawn++;
    }
    if (drawn == 0) {
        rc = ns_error_set(err, NS_EINVAL, "%s: no variant has a value of %s (%s)", c->in, field,
                          k == 4 || k == 5 ? "no slope was fitted" : "no period was found");
        goto done;
    }
    char title[300], caption[700], gp[300], formula[300] = "";
    snprintf(title, sizeof title, "%.200s: %s against %s", s->game, field, x);
    if (law)
        law_expr(law, gp, sizeof gp, formula, sizeof formula);
    snprintf(caption, sizeof caption, "%zu of %zu variants, %s %" PRId64 "%s%s", drawn, s->n,
             s->piles == 2 ? "box N =" : "heap sizes < ", s->size, law ? "; line: conjecture " : "",
             law ? formula : "");
    if ((rc = sfig_script(&f, title, caption, err)))
        goto done;
    FILE *o = f.script;
    const double pad = xhi > xlo ? 0.04 * (double)(xhi - xlo) : 1.0;
    fprintf(o, "\n# the plot\nset xlabel ");
    ns_plot_gp_quote(o, x);
    fprintf(o, " noenhanced\nset ylabel ");
    ns_plot_gp_quote(o, field);
    fprintf(o, " noenhanced\nset xrange [%.6g:%.6g]\nset grid lc rgb '#e8e8e8' lw 0.5\n", (double)xlo - pad,
            (double)xhi + pad);
    fprintf(o, "set key top left noenhanced\nset offsets 0, 0, graph 0.2, graph 0.05\nset samples 400\n");
    fprintf(o, "plot datafile using 1:2 with points pt 7 ps 1.2*pscale lc rgb '#1f3b73' title ");
    ns_plot_gp_quote(o, field);
    if (law) {
        fprintf(o, ", \\\n     (x >= %" PRId64 " && x <= %" PRId64 " ? %s : 1/0) with lines lw 1.5 lc rgb '#e6550d' "
                   "title ", xlo, xhi, gp);
        char t[360];
        snprintf(t, sizeof t, "%s (conjecture %zu, observed)", formula, rank);
        ns_plot_gp_quote(o, t);
    }
    fprintf(o, "\n");
    if ((rc = sfig_run(&f, err)))
        goto done;
    char line[1200];
    snprintf(line, sizeof line, "%s against %s: %zu of %zu variants (%zu without a value)", field, x, drawn, s->n,
             s->n - drawn);
    rep_line(c, line);
    if (law) {
        snprintf(line, sizeof line, "curve: conjecture %zu: %s", rank, law->text);
        rep_line(c, line);
    } else
        rep_line(c, "curve: none (no conjecture of this field in this parameter held for every variant)");
done:
    sfig_free(&f);
    free(cj);
    free(ps);
    ns_h5_sweep_free(s);
    return rc;
}

/* ------------------------------------------------------------ thumbnails */

/* the P-positions (G = 0) of one variant in the thumbnail's corner */
typedef struct thumb {
    int64_t *pts;    /* n points (x, y); one pile: (n, 1); owned */
    size_t n;
    int from_file;   /* 1: the kept table, 0: solved here */
} thumb;

typedef struct resolve {
    const ns_h5_sweep *s;
    const ns_params *ps;
    const size_t *which;   /* the variants to solve */
    int64_t side;
    thumb *th;
    ns_err rc;
    ns_error err;
} resolve;

static ns_err resolve_build(void *user, uint64_t j, ns_game **g, ns_error *err)
{
    const resolve *r = user;
    ns_err rc = ns_game_build(r->s->game, &r->ps[r->which[j]], 0, g, err);
    if (rc)
        return rc;
    const int64_t b[2] = {r->side, r->side};
    if ((rc = ns_game_set_bounds(*g, b, err))) {
        ns_game_free(*g);
        *g = NULL;
    }
    return rc;
}

static int add_points(thumb *t, const uint32_t *v, int64_t d0, int64_t d1, int rank)
{
    size_t n = 0;
    for (int64_t i = 0; i < d0 * d1; i++)
        n += v[i] == 0;
    if (!(t->pts = malloc((n ? n : 1) * 2 * sizeof *t->pts)))
        return 1;
    for (int64_t i = 0; i < d0 * d1; i++)
        if (v[i] == 0) {
            t->pts[2 * t->n] = rank == 2 ? i / d1 : i;
            t->pts[2 * t->n + 1] = rank == 2 ? i % d1 : 1;   /* one pile: a bar of height 1 */
            t->n++;
        }
    return 0;
}

static int resolve_each(void *user, uint64_t j, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    resolve *r = user;
    (void)row;
    const int64_t d0 = r->side, d1 = g->k == 2 ? r->side : 1;
    uint32_t *v = malloc((size_t)(d0 * d1) * sizeof *v);
    if (!v) {
        r->rc = ns_error_set(&r->err, NS_ENOMEM, "thumbnails: out of memory");
        return 1;
    }
    for (int64_t i = 0; i < d0 * d1; i++) {
        const int64_t at[2] = {g->k == 2 ? i / d1 : i, g->k == 2 ? i % d1 : 0};
        v[i] = ns_table_get(t, ns_table_index(t, at));
    }
    const int bad = add_points(&r->th[r->which[j]], v, d0, d1, g->k);
    free(v);
    if (bad) {
        r->rc = ns_error_set(&r->err, NS_ENOMEM, "thumbnails: out of memory");
        return 1;
    }
    return 0;
}

static ns_err draw_thumbnails(ns_plot_ctx *c, ns_error *err)
{
    ns_h5_sweep *s = NULL;
    ns_params *ps = NULL;
    ns_conj *cj = NULL;
    thumb *th = NULL;
    size_t *which = NULL, nc = 0, nth = 0;
    sfig f;
    memset(&f, 0, sizeof f);
    ns_err rc = ns_h5_sweep_read(c->in, &s, err);
    if (rc || (rc = ns_sweep_conjectures(s, &ps, &cj, &nc, err)))
        goto done;
    if (s->n == 0) {
        rc = ns_error_set(err, NS_EINVAL, "%s: the sweep holds no variants", c->in);
        goto done;
    }
    nth = s->n < NS_PLOT_SWEEP_THUMBS ? s->n : NS_PLOT_SWEEP_THUMBS;
    const int64_t side = s->size < (s->piles == 2 ? NS_PLOT_THUMB_SIDE2 : NS_PLOT_THUMB_SIDE1)
                             ? s->size
                             : (s->piles == 2 ? NS_PLOT_THUMB_SIDE2 : NS_PLOT_THUMB_SIDE1);
    if (!(th = calloc(nth, sizeof *th)) || !(which = malloc(nth * sizeof *which))) {
        rc = ns_error_set(err, NS_ENOMEM, "thumbnails: out of memory");
        goto done;
    }
    size_t nsolve = 0, nfile = 0;
    for (size_t i = 0; i < nth; i++) {
        uint32_t *v = NULL;
        int64_t dims[2];
        int rank = 0, found = 0;
        if ((rc = ns_h5_sweep_read_corner(c->in, i, side, &v, dims, &rank, &found, err)))
            goto done;
        if (found && rank == s->piles) {
            th[i].from_file = 1;
            nfile++;
            const int bad = add_points(&th[i], v, dims[0], dims[1], rank);
            free(v);
            if (bad) {
                rc = ns_error_set(err, NS_ENOMEM, "thumbnails: out of memory");
                goto done;
            }
        } else {
            free(v);
            which[nsolve++] = i;
        }
    }
    if (nsolve) {
        resolve r = {.s = s, .ps = ps, .which = which, .side = side, .th = th};
        const ns_sweep_job job = {.n = nsolve, .build = resolve_build, .user = &r, .each = resolve_each,
                                  .each_user = &r};
        if ((rc = ns_sweep_run(&job, NULL, err))) {
            if (r.rc) {
                rc = r.rc;
                *err = r.err;
            }
            goto done;
        }
    }
    if ((rc = sfig_open(&f, c, 2, err)))
        goto done;
    fprintf(f.data, "# the P-positions of the first %zu variants in [0,%" PRId64 ")%s, one block per variant "
                    "(gnuplot index = variant; one pile: n 1); a point (-10, -10) keeps a block non-empty\n",
            nth, side, s->piles == 2 ? "^2" : "");
    for (size_t i = 0; i < nth; i++) {
        fprintf(f.data, "%s# variant %zu: %s (%s)\n", i ? "\n\n" : "", i, s->rows[i].params,
                th[i].from_file ? "kept table" : "solved for the thumbnail");
        for (size_t j = 0; j < th[i].n; j++)
            fprintf(f.data, "%" PRId64 " %" PRId64 "\n", th[i].pts[2 * j], th[i].pts[2 * j + 1]);
        fprintf(f.data, "-10 -10\n");
    }
    char title[300], caption[400];
    snprintf(title, sizeof title, "%.200s: P-positions of each variant", s->game);
    snprintf(caption, sizeof caption, "%s%zu of %zu variants, %s [0,%" PRId64 ")%s", nth < s->n ? "the first " : "",
             nth, s->n, s->piles == 2 ? "cells" : "heap sizes", side, s->piles == 2 ? "^2" : "");
    if ((rc = sfig_script(&f, title, caption, err)))
        goto done;
    FILE *o = f.script;
    int cols = 1;
    while ((size_t)cols * (size_t)cols < nth)
        cols++;
    if (s->piles == 1)
        cols = nth < 4 ? (int)nth : 4;
    const int rows = (int)((nth + (size_t)cols - 1) / (size_t)cols);
    const double top = 1.0 - 3.8 * f.fr.font_px / f.fr.height, bottom = 0.02, left = 0.02, right = 0.98;
    const double cw = (right - left) / cols, ch = (top - bottom) / rows;
    const double lab = 1.3 * f.fr.font_px / f.fr.height;   /* a label line above each panel */
    fprintf(o, "\n# the panels\nunset xtics\nunset ytics\nunset key\nunset xlabel\nunset ylabel\n");
    if (s->piles == 2)
        fprintf(o, "set xrange [-0.5:%" PRId64 ".5]\nset yrange [-0.5:%" PRId64 ".5]\n", side - 1, side - 1);
    else
        fprintf(o, "set xrange [-0.5:%" PRId64 ".5]\nset yrange [0:1]\n", side - 1);
    fprintf(o, "set multiplot\n");
    for (size_t i = 0; i < nth; i++) {
        const int r = (int)(i / (size_t)cols), cc = (int)(i % (size_t)cols);
        const double l = left + cc * cw + 0.06 * cw, rr = left + (cc + 1) * cw - 0.06 * cw;
        const double t = top - r * ch - lab, b = top - (r + 1) * ch + 0.04 * ch;
        fprintf(o, "set lmargin at screen %.5f\nset rmargin at screen %.5f\n", l, rr);
        fprintf(o, "set tmargin at screen %.5f\nset bmargin at screen %.5f\n", t, b > t - 0.01 ? t - 0.01 : b);
        fprintf(o, "set label 1 ");
        ns_plot_gp_quote(o, s->rows[i].params);
        fprintf(o, " at screen %.5f, screen %.5f center font ',%.1f' noenhanced\n", (l + rr) / 2, t + lab / 2,
                f.fr.font_pt * (nth > 16 ? 0.7 : 0.9));
        if (s->piles == 2)
            fprintf(o, "plot datafile index %zu using 1:2 with points pt 5 ps %.2f*pscale lc rgb '#1f3b73'\n", i,
                    nth > 16 ? 0.15 : 0.3);
        else
            fprintf(o, "plot datafile index %zu using 1:2 with impulses lc rgb '#1f3b73'\n", i);
        if (i == 0)   /* the title and caption drawn once, with the first panel */
            fprintf(o, "unset label 1001\nunset label 1002\n");
    }
    fprintf(o, "unset multiplot\n");
    if ((rc = sfig_run(&f, err)))
        goto done;
    char line[400];
    snprintf(line, sizeof line, "%zu thumbnail%s of %zu variants in [0,%" PRId64 ")%s: %zu from kept tables, %zu "
             "solved here", nth, nth == 1 ? "" : "s", s->n, side, s->piles == 2 ? "^2" : "", nfile, nsolve);
    rep_line(c, line);
done:
    sfig_free(&f);
    for (size_t i = 0; th && i < nth; i++)
        free(th[i].pts);
    free(th);
    free(which);
    free(cj);
    free(ps);
    ns_h5_sweep_free(s);
    return rc;
}

/* ------------------------------------------------------------------ kinds */

static int sweep_applies(const ns_plot_ctx *c, char *why, size_t len)
{
    if (c->sweep)
        return 1;
    snprintf(why, len, "--kind landscape and thumbnails draw a file written by 'nimsieve sweep'; %s is not one",
             c->in);
    return 0;
}

const ns_plot_kind_def ns_plot_kind_landscape = {
    .name = "landscape",
    .what = "a sweep file: a summary field (--field, default slope_a\n"
            "for two piles, period for one) against an integer\n"
            "parameter (--param, default the first), one point per\n"
            "variant, with the conjectured law of 'sweep --report'\n"
            "drawn over it when one held for every variant (default\n"
            "for sweep files)",
    .piles = 0,
    .takes = 0,
    .defaults = {-1, -1, 0, 0},
    .applies = sweep_applies,
    .draw = draw_landscape,
};

const ns_plot_kind_def ns_plot_kind_thumbnails = {
    .name = "thumbnails",
    .what = "a sweep file: the P-positions of each variant (the first\n"
            "64) in a small corner, one panel each, labelled with its\n"
            "parameters; from the kept tables, else solved again",
    .piles = 0,
    .takes = 0,
    .defaults = {-1, -1, 0, 0},
    .applies = sweep_applies,
    .draw = draw_thumbnails,
};
