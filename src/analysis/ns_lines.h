/* ns_lines.h - the lines a set of points lies along: one least-squares line
 * (ns_lines_fit_line: with an intercept, and the simplest constant
 * within slope +- 3 standard errors), and, when the points far from the
 * origin fall into separate directions, one line per direction. Shared by
 * `patterns` (the P-positions (a_n, b_n)) and `plot --kind p-positions`
 * (each side of the diagonal), so both state the same fits. */
#ifndef NS_LINES_H
#define NS_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ns_constant.h"

typedef struct ns_fit {
    int ok;               /* 0 when there were fewer than 3 points */
    double slope, intercept;
    double slope_se;      /* standard error of the slope */
    double sumsq;         /* residual sum of squares */
    size_t npoints;
} ns_fit;

/* Least squares y = c0 + c1 x with gsl_fit_linear. */
void ns_lines_fit(const double *x, const double *y, size_t n, ns_fit *out);

/* The line the points (x_i, y_i) lie along, as `patterns` states it for b_n
 * against a_n and `plot --kind p-positions` for each line it draws: the
 * fit with an intercept (ns_lines_fit; a fit through the origin is
 * biased by the intercept, which for Wythoff's b_n = a_n phi + {n phi}/phi
 * is about 0.3 and puts phi dozens of standard errors away), and the
 * simplest constant within slope +- 3 standard errors
 * (ns_constant_recognize_fit), or none. rec may be NULL. */
void ns_lines_fit_line(const double *x, const double *y, size_t n, ns_fit *fit, ns_recog *rec);

#define NS_LINES_MAX 4

/* Points kept for the fits: at most this many, evenly spread. */
#define NS_LINES_CAP ((size_t)1 << 20)

/* Points whose scatter about their line is below this lie on it; above,
 * they fill an area (no line is drawn or named). */
#define NS_LINES_SCATTER 0.05

/* One line y = intercept + slope x. */
typedef struct ns_line {
    double slope, intercept;
    double sd;       /* standard error of the slope */
    double scatter;  /* rms of the residuals over the mean y */
    uint64_t n;      /* points given to it */
    ns_recog rec;    /* the simplest constant within slope +- 3 sd, or none */
} ns_line;

/* The line of all the points and, when the points with x + y > far fall
 * into separate directions (a gap of more than 0.03 rad between
 * neighbouring angles, each group at least a tenth of them), one line per
 * direction: every point goes to the group nearest in angle. */
typedef struct ns_lines {
    uint64_t n;      /* points given */
    size_t used;     /* points the fits used (every step-th when there are many) */
    int ok;          /* fitted: at least 3 points */
    ns_line all;     /* all the points */
    int nlines;      /* 0, or 2..NS_LINES_MAX when the points split */
    ns_line line[NS_LINES_MAX];   /* by increasing slope */
} ns_lines;

/* The points as they come: every step-th one, at most NS_LINES_CAP; when
 * full, every other one is dropped and the step doubles, so the kept points
 * stay evenly spread over all of them. Start from NS_LINES_ACC_INIT. */
typedef struct ns_lines_acc {
    double *x, *y;
    size_t n;
    uint64_t seen, step;
} ns_lines_acc;
#define NS_LINES_ACC_INIT {NULL, NULL, 0, 0, 1}

/* Add a point; 0 when out of memory. */
int ns_lines_add(ns_lines_acc *a, double x, double y);

/* Fit the points added (see ns_lines) into *out and free the accumulator
 * (it may be added to again from NS_LINES_ACC_INIT). */
void ns_lines_finish(ns_lines_acc *a, double far, ns_lines *out);

#endif
