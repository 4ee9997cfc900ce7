/* ns_sweep_conj.h - conjectures from a sweep's catalogue (issue 20): what
 * held for every variant, or for a pattern of variants, ranked.
 *
 * Input: plain arrays, one entry per variant (the catalogue's columns; the
 * CLI reads the file). Output: statements, each TRUE OF THE DATA and worded
 * as such ("observed for all 10 variants at size 1024"): the catalogue is
 * finite, so a law in a parameter is never called proven. Three kinds:
 *
 *   constant   a field with one value: "period = 5 for all 50 variants",
 *              "every variant is periodic", "every period is proven"; or
 *              for most (>= half, >= 3) of them: "period = 5 for 40 of 50"
 *   linear     an integer field that is EXACTLY m x + c (m, c integers,
 *              m != 0) in an integer parameter x, checked in integers on
 *              every variant of each group (the variants that share the
 *              other parameters) with at least 3 distinct x; groups with
 *              the same law are one statement
 *   closed     two piles: slope_a (slope_b) = (p + q x + sqrt(r x^2 + s x
 *              + t)) / u, searched over |p|, |q| <= 4, 1 <= u <= 4,
 *              0 <= r <= 4, |s| <= 8, |t| <= 16 (r = s = t = 0: no root),
 *              the simplest form that matches every variant of a group
 *              (the variants sharing the other parameters, at least 4
 *              distinct x, one variant each) within
 *
 *                  tol(K) = 1.5 K / (K^2 - 1),   K = (p_positions - 1) / 2,
 *
 *              the largest error of a least-squares slope of K points
 *              a_i = alpha i - e_i whose e_i lie in an interval of width 1
 *              (a Beatty sequence floor(alpha i) has that): with
 *              d_i = i - mean(i), |sum d_i (e_i - c)| <= sum |d_i| / 2 <=
 *              K^2 / 8 and sum d_i^2 = K (K^2 - 1) / 12. K counts the pairs
 *              a_i < b_i when only (0, 0) lies on the diagonal; more
 *              diagonal P-positions make the true K smaller and this tol
 *              stricter (a law may be missed, not invented).
 *
 * Over the other parameters (groups): groups sharing one closed form are
 * one statement (groups > 1, forms 1); when every group has a form and
 * they differ, one statement "a closed form in x for each value of y"
 * (u = 0: no single form; forms = how many), then one per form. With
 * exactly one other integer parameter y, >= 3 groups, each with a form
 * (closed) or a linear law (linear, m != 0): `by` = y and bit j of
 * coef_linear set when coefficient j of (p, q, r, s, t, u) (linear: (m, c))
 * is exactly coef_m[j] y + coef_c[j] over every group; stated when one
 * such coefficient varies (closed) or both are linear (linear). These are
 * about the forms found, observed on the catalogue.
 *
 * Ranking: variants covered (more first), then simplicity (a constant
 * before a linear law before a closed form; fewer and smaller
 * coefficients first), then the field's order in the catalogue. */
#ifndef NS_SWEEP_CONJ_H
#define NS_SWEEP_CONJ_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_params.h"

/* The catalogue's columns (borrowed; n entries each; one-pile fields may
 * be NULL for two piles and the slopes NULL for one pile). */
typedef struct ns_conj_data {
    size_t n;
    int piles;                  /* 1 or 2 */
    int64_t size;               /* heap sizes 0 .. size-1 per pile */
    const ns_params *params;    /* each variant's parameters */
    const int64_t *p_positions;
    const int64_t *preperiod, *period;  /* one pile; period 0: none found */
    const uint8_t *proven;              /* one pile */
    const double *slope_a, *slope_b;    /* two piles; NaN: no fit */
} ns_conj_data;

typedef enum { NS_CONJ_CONSTANT = 0, NS_CONJ_LINEAR = 1, NS_CONJ_CLOSED = 2 } ns_conj_kind;

typedef struct ns_conj {
    ns_conj_kind kind;
    char field[16];              /* "period", "slope_a", "periodic", "proven", ... */
    char param[NS_PARAM_NAME_LEN];   /* linear, closed: the parameter x */
    int64_t value;               /* constant: the value (periodic, proven: 1) */
    int64_t m, c;                /* linear: field = m x + c */
    int p, q, r, s, t, u;        /* closed: (p + q x + sqrt(r x^2 + s x + t)) / u */
    int64_t x_lo, x_hi;          /* linear, closed: the x seen */
    size_t covered;              /* variants the statement is about */
    size_t groups;               /* linear: groups (values of the other parameters) */
    int all_proven;              /* period laws: every covered period proven */
    double max_dev, tol;         /* closed: largest |slope - form| and the tol there */
    size_t others;               /* closed: other forms of the search that also match */
    size_t forms;                /* closed over groups: different forms (0: one group) */
    char by[NS_PARAM_NAME_LEN];  /* coefficient law: the other parameter y ("" else) */
    unsigned coef_linear;        /* coefficient law: bit j set when coefficient j of (p, q, r,
                                  * s, t, u) is exactly coef_m[j] y + coef_c[j] over all groups */
    int64_t coef_m[6], coef_c[6];
    int64_t y_lo, y_hi;          /* coefficient law: the y seen */
    int complexity;              /* smaller is simpler */
    char text[1024];              /* the statement, one line */
} ns_conj;

/* Find the statements of d, ranked (best first). *out: malloc'ed array of
 * *n statements, owned by the caller (free()); *n may be 0. */
ns_err ns_sweep_conj_find(const ns_conj_data *d, ns_conj **out, size_t *n, ns_error *err);

/* The value of the closed form of c at x (NaN when the root is of a
 * negative number). */
double ns_conj_closed_eval(const ns_conj *c, double x);

/* The Beatty least-squares tolerance tol(K) above (K < 2: infinity). */
double ns_conj_slope_tol(int64_t K);

#endif
