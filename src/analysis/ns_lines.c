/* ns_lines.c - the lines a set of points lies along (see ns_lines.h). */
#include "analysis/ns_lines.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ns_lines_fit(const double *x, const double *y, size_t n, ns_fit *out)
{
    memset(out, 0, sizeof *out);
    out->npoints = n;
    if (n < 3)
        return;
    double c0, c1, cov00, cov01, cov11, sumsq;
    if (gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq))
        return;
    out->ok = 1;
    out->intercept = c0;
    out->slope = c1;
    out->slope_se = cov11 > 0 ? sqrt(cov11) : 0.0;
    out->sumsq = sumsq;
}

void ns_lines_fit_line(const double *x, const double *y, size_t n, ns_fit *fit, ns_recog *rec)
{
    ns_lines_fit(x, y, n, fit);
    if (!rec)
        return;
    memset(rec, 0, sizeof *rec);
    if (fit->ok)
        ns_constant_recognize_fit(fit->slope, fit->slope_se, rec);
}

int ns_lines_add(ns_lines_acc *a, double x, double y)
{
    uint64_t i = a->seen++;
    if (i % a->step != 0)
        return 1;
    if (!a->x) {
        a->x = malloc(NS_LINES_CAP * sizeof *a->x);
        a->y = malloc(NS_LINES_CAP * sizeof *a->y);
        if (!a->x || !a->y)
            return 0;
    }
    if (a->n == NS_LINES_CAP) {
        for (size_t j = 0; j < NS_LINES_CAP / 2; j++) {
            a->x[j] = a->x[2 * j];
            a->y[j] = a->y[2 * j];
        }
        a->n = NS_LINES_CAP / 2;
        a->step *= 2;
        if (i % a->step != 0)
            return 1;
    }
    a->x[a->n] = x;
    a->y[a->n] = y;
    a->n++;
    return 1;
}

/* Directions further apart than this (radians) are separate lines. */
#define SPLIT_GAP 0.03

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The line (ns_lines_fit_line, with an intercept) of the points of a
 * whose group is g (all points when group is NULL). Returns 0 with fewer
 * than 3 points. */
static int fit_group(const ns_lines_acc *a, const int *group, int g, double *tx, double *ty, ns_line *l)
{
    size_t m = 0;
    for (size_t i = 0; i < a->n; i++)
        if (!group || group[i] == g) {
            tx[m] = a->x[i];
            ty[m] = a->y[i];
            m++;
        }
    double ysum = 0;
    ns_fit fit;
    memset(l, 0, sizeof *l);
    l->n = (uint64_t)m * a->step;
    ns_lines_fit_line(tx, ty, m, &fit, &l->rec);
    if (!fit.ok || !isfinite(fit.slope) || !isfinite(fit.intercept))
        return 0;
    for (size_t i = 0; i < m; i++)
        ysum += ty[i];
    l->slope = fit.slope;
    l->intercept = fit.intercept;
    l->sd = fit.slope_se;
    l->scatter = ysum > 0 ? sqrt(fit.sumsq / (double)m) / (ysum / (double)m) : 0.0;
    return 1;
}

/* Split the branch into directions (see ns_lines); leaves f->nlines 0 when
 * it does not split or memory is short. */
static void split_branch(const ns_lines_acc *a, double far, ns_lines *f)
{
    double *th = malloc(a->n * sizeof *th), *tx = malloc(a->n * sizeof *tx), *ty = malloc(a->n * sizeof *ty);
    int *group = malloc(a->n * sizeof *group);
    size_t nfar = 0;
    if (!th || !tx || !ty || !group)
        goto done;
    for (size_t i = 0; i < a->n; i++)
        if (a->x[i] + a->y[i] > far)
            th[nfar++] = atan2(a->y[i], a->x[i]);
    if (nfar < 16)
        goto done;
    qsort(th, nfar, sizeof *th, cmp_double);
    /* groups [lo[g], lo[g+1]) of the sorted angles, cut at the wide gaps;
     * too small groups join the neighbour across the narrower gap */
    size_t lo[64], ng = 1;
    lo[0] = 0;
    for (size_t i = 1; i < nfar && ng < 63; i++)
        if (th[i] - th[i - 1] > SPLIT_GAP)
            lo[ng++] = i;
    lo[ng] = nfar;
    const size_t small = nfar / 10 > 8 ? nfar / 10 : 8;
    for (;;) {
        size_t worst = ng;
        for (size_t g = 0; g < ng; g++)
            if (lo[g + 1] - lo[g] < small && (worst == ng || lo[g + 1] - lo[g] < lo[worst + 1] - lo[worst]))
                worst = g;
        if (worst == ng || ng == 1)
            break;
        /* the cut to remove: left (lo[worst]) or right (lo[worst + 1]) */
        size_t cut;
        if (worst == 0)
            cut = 1;
        else if (worst == ng - 1)
            cut = worst;
        else
            cut = th[lo[worst]] - th[lo[worst] - 1] < th[lo[worst + 1]] - th[lo[worst + 1] - 1] ? worst : worst + 1;
        memmove(&lo[cut], &lo[cut + 1], (ng - cut) * sizeof lo[0]);
        ng--;
    }
    if (ng < 2 || ng > NS_LINES_MAX)
        goto done;
    double centre[NS_LINES_MAX];
    for (size_t g = 0; g < ng; g++)
        centre[g] = th[(lo[g] + lo[g + 1]) / 2];
    for (size_t i = 0; i < a->n; i++) {
        double t = atan2(a->y[i], a->x[i]);
        int best = 0;
        for (size_t g = 1; g < ng; g++)
            if (fabs(t - centre[g]) < fabs(t - centre[best]))
                best = (int)g;
        group[i] = best;
    }
    for (size_t g = 0; g < ng; g++)
        if (!fit_group(a, group, (int)g, tx, ty, &f->line[g]))
            goto done;
    f->nlines = (int)ng;   /* angles ascend, and so do the slopes */
done:
    free(th);
    free(tx);
    free(ty);
    free(group);
}

void ns_lines_finish(ns_lines_acc *a, double far, ns_lines *f)
{
    memset(f, 0, sizeof *f);
    f->n = a->seen;
    f->used = a->n;
    if (a->n >= 3) {
        double *tx = malloc(a->n * sizeof *tx), *ty = malloc(a->n * sizeof *ty);
        if (tx && ty && fit_group(a, NULL, 0, tx, ty, &f->all)) {
            f->ok = 1;
            split_branch(a, far, f);
        }
        free(tx);
        free(ty);
    }
    free(a->x);
    free(a->y);
    memset(a, 0, sizeof *a);
}

