/* ns_sweep_conj.c - see ns_sweep_conj.h. */
#include "analysis/ns_sweep_conj.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 3, MAX_LAWS_PER_PAIR = 5, MIN_LINEAR_X = 3, MIN_CLOSED_X = 4 };

/* The closed forms searched (ns_sweep_conj.h). */
enum { P_MAX = 4, Q_MAX = 4, U_MAX = 4, R_MAX = 4, S_MAX = 8, T_MAX = 16 };

/* the statements found so far (a growing array) */
typedef struct list {
    ns_conj *v;
    size_t n, cap;
} list;

static ns_conj *push(list *l, ns_error *err)
{
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 16;
        ns_conj *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
            return NULL;
        }
        l->v = v;
        l->cap = cap;
    }
    ns_conj *c = &l->v[l->n++];
    memset(c, 0, sizeof *c);
    return c;
}

double ns_conj_slope_tol(int64_t K)
{
    if (K < 2)
        return INFINITY;
    const double k = (double)K;
    return 1.5 * k / (k * k - 1.0);
}

double ns_conj_closed_eval(const ns_conj *c, double x)
{
    const double rad = (double)c->r * x * x + (double)c->s * x + (double)c->t;
    if (rad < 0 || c->u == 0)
        return NAN;
    return ((double)c->p + (double)c->q * x + sqrt(rad)) / (double)c->u;
}

/* "at size 1024" for the labels */
static void size_label(const ns_conj_data *d, char *buf, size_t len)
{
    if (d->piles == 2)
        snprintf(buf, len, "in the box [0,%" PRId64 ")^2", d->size);
    else
        snprintf(buf, len, "at heap sizes < %" PRId64, d->size);
}

/* ---- integer fields ---- */

typedef struct ifield {
    const char *name;
    const int64_t *v;
    int needs_period;    /* only where a period was found */
} ifield;

static int fields_of(const ns_conj_data *d, ifield f[MAX_FIELDS])
{
    int n = 0;
    if (d->p_positions)
        f[n++] = (ifield){"p_positions", d->p_positions, 0};
    if (d->piles == 1 && d->period && d->preperiod) {
        f[n++] = (ifield){"period", d->period, 1};
        f[n++] = (ifield){"preperiod", d->preperiod, 1};
    }
    return n;
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the proofs of the covered periods: 1 when every covered row is proven */
static int proofs_all(const ns_conj_data *d, const ifield *f, int64_t value, const size_t *rows, size_t nrows)
{
    if (!d->proven || strcmp(f->name, "p_positions") == 0)
        return 0;
    for (size_t k = 0; k < nrows; k++) {
        const size_t i = rows ? rows[k] : k;
        if (rows == NULL && f->v[i] != value)
            continue;
        if (f->needs_period && d->period[i] <= 0)
            continue;
        if (!d->proven[i])
            return 0;
    }
    return 1;
}

static ns_err constants(const ns_conj_data *d, list *l, ns_error *err)
{
    char at[80];
    size_label(d, at, sizeof at);
    const size_t n = d->n;
    if (d->piles == 1 && d->period) {
        size_t periodic = 0, proven = 0;
        for (size_t i = 0; i < n; i++) {
            periodic += d->period[i] > 0;
            proven += d->proven && d->proven[i];
        }
        if (periodic == n) {
            ns_conj *c = push(l, err);
            if (!c)
                return err->code;
            *c = (ns_conj){.kind = NS_CONJ_CONSTANT, .value = 1, .covered = n, .complexity = 0};
            snprintf(c->field, sizeof c->field, "periodic");
            snprintf(c->text, sizeof c->text, "every variant is periodic: a period found for all %zu variants %s", n, at);
        }
        if (proven == n) {
            ns_conj *c = push(l, err);
            if (!c)
                return err->code;
            *c = (ns_conj){.kind = NS_CONJ_CONSTANT, .value = 1, .covered = n, .complexity = 0, .all_proven = 1};
            snprintf(c->field, sizeof c->field, "proven");
            snprintf(c->text, sizeof c->text,
                     "every variant's period is proven (subtraction proof rule), all %zu variants %s", n, at);
        }
    }
    ifield f[MAX_FIELDS];
    const int nf = fields_of(d, f);
    int64_t *vals = malloc((n ? n : 1) * sizeof *vals);
    if (!vals)
        return ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
    for (int k = 0; k < nf; k++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!f[k].needs_period || d->period[i] > 0)
                vals[m++] = f[k].v[i];
        if (m == 0)
            continue;
        qsort(vals, m, sizeof *vals, cmp_i64);
        int64_t best = vals[0];
        size_t best_n = 0;
        for (size_t i = 0; i < m;) {
            size_t j = i;
            while (j < m && vals[j] == vals[i])
                j++;
            if (j - i > best_n) {
                best_n = j - i;
                best = vals[i];
            }
            i = j;
        }
        /* all of them, or most (at least half of all variants, at least 3) */
        if (!(best_n == n || (2 * best_n >= n && best_n >= 3)))
            continue;
        ns_conj *c = push(l, err);
        if (!c) {
            free(vals);
            return err->code;
        }
        *c = (ns_conj){.kind = NS_CONJ_CONSTANT, .value = best, .covered = best_n, .complexity = 1};
        snprintf(c->field, sizeof c->field, "%s", f[k].name);
        c->all_proven = f[k].needs_period && proofs_all(d, &f[k], best, NULL, n);
        const char *proof = c->all_proven ? "; each period proven" : "";
        if (best_n == n)
            snprintf(c->text, sizeof c->text, "%s = %" PRId64 " for all %zu variants: observed %s%s", f[k].name, best, n,
                     at, proof);
        else
            snprintf(c->text, sizeof c->text, "%s = %" PRId64 " for %zu of %zu variants: observed %s%s", f[k].name,
                     best, best_n, n, at, proof);
    }
    free(vals);
    return NS_OK;
}

/* ---- parameters ---- */

/* The integer parameters: a single value in every variant. */
static int int_params(const ns_conj_data *d, char names[NS_PARAMS_MAX][NS_PARAM_NAME_LEN])
{
    int k = 0;
    if (d->n == 0)
        return 0;
    for (int j = 0; j < d->params[0].n; j++) {
        const char *name = d->params[0].p[j].name;
        int ok = 1;
        for (size_t i = 0; i < d->n && ok; i++) {
            const ns_param *p = ns_params_get(&d->params[i], name);
            ok = p && p->n == 1;
        }
        if (ok)
            snprintf(names[k++], NS_PARAM_NAME_LEN, "%s", name);
    }
    return k;
}

/* The parameters of variant i without x, as text (the group's key). */
static void key_without(const ns_params *ps, const char *x, char *buf, size_t len)
{
    ns_params q;
    q.n = 0;
    for (int j = 0; j < ps->n; j++)
        if (strcmp(ps->p[j].name, x) != 0)
            q.p[q.n++] = ps->p[j];
    ns_params_format(&q, buf, len);
}

enum { KEY_LEN = 256 };

typedef struct keyed {
    char key[KEY_LEN];
    int64_t x;
    size_t i;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *p = a, *q = b;
    const int c = strcmp(p->key, q->key);
    if (c)
        return c;
    return (p->x > q->x) - (p->x < q->x);
}

/* The variants sorted by (other parameters, x): *out owned (n entries). */
static ns_err sort_by_groups(const ns_conj_data *d, const char *x, keyed **out, ns_error *err)
{
    keyed *k = malloc((d->n ? d->n : 1) * sizeof *k);
    if (!k)
        return ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
    for (size_t i = 0; i < d->n; i++) {
        key_without(&d->params[i], x, k[i].key, sizeof k[i].key);
        k[i].x = ns_params_get(&d->params[i], x)->v[0];
        k[i].i = i;
    }
    qsort(k, d->n, sizeof *k, cmp_keyed);
    *out = k;
    return NS_OK;
}

/* ---- linear laws ---- */

/* m x + c as text: "2a + 3", "-a", "3a - 1" */
static void linear_text(int64_t m, int64_t c, const char *x, char *buf, size_t len)
{
    int u;
    if (m == 1)
        u = snprintf(buf, len, "%s", x);
    else if (m == -1)
        u = snprintf(buf, len, "-%s", x);
    else
        u = snprintf(buf, len, "%" PRId64 "%s", m, x);
    if (c && u > 0 && (size_t)u < len)
        snprintf(buf + u, len - (size_t)u, " %c %" PRId64, c < 0 ? '-' : '+', c < 0 ? -c : c);
}

/* Does y = m x + c hold exactly for the group's rows? The first two
 * distinct x give m, c (an integer m, else no law); *ok 0 when not. */
static void fit_group(const keyed *k, size_t nk, const ifield *f, const ns_conj_data *d, int64_t *m, int64_t *c,
                      size_t *distinct, int *ok)
{
    *ok = 0;
    *distinct = 0;
    for (size_t j = 0; j < nk; j++) {
        if (f->needs_period && d->period[k[j].i] <= 0)
            return;
        if (j == 0 || k[j].x != k[j - 1].x)
            (*distinct)++;
        else if (f->v[k[j].i] != f->v[k[j - 1].i])
            return;   /* one x, two values */
    }
    if (*distinct < MIN_LINEAR_X)
        return;
    size_t j2 = 1;
    while (k[j2].x == k[0].x)
        j2++;
    const int64_t dx = k[j2].x - k[0].x, dy = f->v[k[j2].i] - f->v[k[0].i];
    if (dx == 0 || dy % dx)
        return;
    *m = dy / dx;
    int64_t mx;
    if (__builtin_mul_overflow(*m, k[0].x, &mx) || __builtin_sub_overflow(f->v[k[0].i], mx, c))
        return;
    for (size_t j = 0; j < nk; j++) {
        int64_t y;
        if (__builtin_mul_overflow(*m, k[j].x, &y) || __builtin_add_overflow(y, *c, &y) || y != f->v[k[j].i])
            return;
    }
    *ok = 1;
}

typedef struct law {
    int64_t m, c, x_lo, x_hi;
    size_t covered, groups;
    int all_proven;
} law;

static int cmp_law(const void *a, const void *b)
{
    const law *p = a, *q = b;
    return (p->covered < q->covered) - (p->covered > q->covered);
}

static void other_param(const ns_conj_data *d, const char *x, char names[][NS_PARAM_NAME_LEN], int np, char *y);
static int exact_line(const int64_t *y, const int64_t *v, size_t ng, int64_t *m, int64_t *c);
static void coef_text(int64_t m, int64_t c, const char *y, char *buf, size_t len);

static ns_err linear_for(const ns_conj_data *d, const char *xname, const ifield *f, const keyed *k,
                         char names[][NS_PARAM_NAME_LEN], int np, list *l, ns_error *err)
{
    char x[NS_PARAM_NAME_LEN];
    snprintf(x, sizeof x, "%.*s", NS_PARAM_NAME_LEN - 1, xname);
    char at[80];
    size_label(d, at, sizeof at);
    law *laws = NULL;
    size_t nlaws = 0, ngroups = 0, fitted_groups = 0;
    ns_err rc = NS_OK;
    for (size_t g0 = 0; g0 < d->n;) {
        size_t g1 = g0;
        while (g1 < d->n && strcmp(k[g1].key, k[g0].key) == 0)
            g1++;
        ngroups++;
        int64_t m = 0, c = 0;
        size_t distinct;
        int ok;
        fit_group(k + g0, g1 - g0, f, d, &m, &c, &distinct, &ok);
        if (ok && m != 0) {
            fitted_groups++;
            size_t j = 0;
            while (j < nlaws && !(laws[j].m == m && laws[j].c == c))
                j++;
            if (j == nlaws) {
                law *nl = realloc(laws, (nlaws + 1) * sizeof *nl);
                if (!nl) {
                    rc = ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
                    goto done;
                }
                laws = nl;
                laws[nlaws++] = (law){.m = m, .c = c, .x_lo = k[g0].x, .x_hi = k[g1 - 1].x, .all_proven = 1};
            }
            law *w = &laws[j];
            w->covered += g1 - g0;
            w->groups++;
            w->x_lo = k[g0].x < w->x_lo ? k[g0].x : w->x_lo;
            w->x_hi = k[g1 - 1].x > w->x_hi ? k[g1 - 1].x : w->x_hi;
            for (size_t t = g0; t < g1; t++)
                w->all_proven &= d->proven && d->proven[k[t].i] && f->needs_period;
        }
        g0 = g1;
    }
    if (nlaws == 0)
        goto done;
    qsort(laws, nlaws, sizeof *laws, cmp_law);
    const char *others = k[0].key[0] ? "the other parameters" : "";
    /* every group linear, the laws differ: one statement for all */
    if (nlaws > 1 && fitted_groups == ngroups) {
        ns_conj *c = push(l, err);
        if (!c) {
            rc = err->code;
            goto done;
        }
        int allp = 1;
        for (size_t j = 0; j < nlaws; j++)
            allp &= laws[j].all_proven;
        *c = (ns_conj){.kind = NS_CONJ_LINEAR, .covered = d->n, .groups = ngroups, .all_proven = allp,
                       .complexity = 20, .m = 0, .c = 0, .x_lo = k[0].x, .x_hi = k[d->n - 1].x};
        snprintf(c->field, sizeof c->field, "%s", f->name);
        snprintf(c->param, sizeof c->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
        snprintf(c->text, sizeof c->text,
                 "%s is an exact linear function of %s for each value of %s (%zu groups, %zu different laws, "
                 "each group >= %d values of %s): observed for all %zu variants %s%s",
                 f->name, x, others, ngroups, nlaws, MIN_LINEAR_X, x, d->n, at, allp ? "; each period proven" : "");
        /* the laws' m and c exactly linear in the one other integer
         * parameter y over every group (>= 3 groups): one law in x and y */
        char y[NS_PARAM_NAME_LEN];
        other_param(d, x, names, np, y);
        if (y[0] && ngroups >= MIN_LINEAR_X) {
            int64_t *ys = malloc(3 * ngroups * sizeof *ys);
            if (!ys) {
                rc = ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
                goto done;
            }
            int64_t *ms = ys + ngroups, *cs = ms + ngroups, mm, mc, cm, cc;
            size_t g = 0;
            int ok = 1;
            for (size_t g0 = 0; g0 < d->n && ok; g++) {
                size_t g1 = g0;
                while (g1 < d->n && strcmp(k[g1].key, k[g0].key) == 0)
                    g1++;
                size_t dist;
                fit_group(k + g0, g1 - g0, f, d, &ms[g], &cs[g], &dist, &ok);
                ys[g] = ns_params_get(&d->params[k[g0].i], y)->v[0];
                g0 = g1;
            }
            if (ok && exact_line(ys, ms, ngroups, &mm, &mc) && exact_line(ys, cs, ngroups, &cm, &cc)) {
                int64_t y_lo = ys[0], y_hi = ys[0];
                for (g = 1; g < ngroups; g++) {
                    y_lo = ys[g] < y_lo ? ys[g] : y_lo;
                    y_hi = ys[g] > y_hi ? ys[g] : y_hi;
                }
                ns_conj *e = push(l, err);
                if (!e) {
                    free(ys);
                    rc = err->code;
                    goto done;
                }
                *e = (ns_conj){.kind = NS_CONJ_LINEAR, .covered = d->n, .groups = ngroups, .all_proven = allp,
                               .complexity = 10, .x_lo = k[0].x, .x_hi = k[d->n - 1].x, .coef_linear = 3u,
                               .y_lo = y_lo, .y_hi = y_hi};
                e->coef_m[0] = mm;
                e->coef_c[0] = mc;
                e->coef_m[1] = cm;
                e->coef_c[1] = cc;
                for (size_t t = 0; t < d->n; t++) {
                    e->x_lo = k[t].x < e->x_lo ? k[t].x : e->x_lo;
                    e->x_hi = k[t].x > e->x_hi ? k[t].x : e->x_hi;
                }
                snprintf(e->field, sizeof e->field, "%s", f->name);
                snprintf(e->param, sizeof e->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
                snprintf(e->by, sizeof e->by, "%s", y);
                char mt[80], ct[80];
                coef_text(mm, mc, y, mt, sizeof mt);
                coef_text(cm, cc, y, ct, sizeof ct);
                snprintf(e->text, sizeof e->text,
                         "%s = m %s + c with m = %s, c = %s for %s = %" PRId64 "..%" PRId64 " and every %s = %" PRId64
                         "..%" PRId64 " (the law in %s of each of the %zu groups; m and c exactly linear in %s): "
                         "observed for all %zu variants %s%s",
                         f->name, x, mt, ct, x, e->x_lo, e->x_hi, y, y_lo, y_hi, x, ngroups, y, d->n, at,
                         allp ? "; each period proven" : "");
            }
            free(ys);
        }
    }
    for (size_t j = 0; j < nlaws && j < MAX_LAWS_PER_PAIR; j++) {
        const law *w = &laws[j];
        ns_conj *c = push(l, err);
        if (!c) {
            rc = err->code;
            goto done;
        }
        const int64_t am = w->m < 0 ? -w->m : w->m, ac = w->c < 0 ? -w->c : w->c;
        *c = (ns_conj){.kind = NS_CONJ_LINEAR, .m = w->m, .c = w->c, .x_lo = w->x_lo, .x_hi = w->x_hi,
                       .covered = w->covered, .groups = w->groups, .all_proven = w->all_proven,
                       .complexity = 2 + (int)(am < 100 ? am : 100) + (int)(ac < 100 ? ac : 100)};
        snprintf(c->field, sizeof c->field, "%s", f->name);
        snprintf(c->param, sizeof c->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
        char lt[80];
        linear_text(w->m, w->c, x, lt, sizeof lt);
        char scope[160] = "";
        if (ngroups > 1)
            snprintf(scope, sizeof scope, " in %zu of %zu groups of %s", w->groups, ngroups, others);
        snprintf(c->text, sizeof c->text, "%s = %s for %s = %" PRId64 "..%" PRId64 "%s: observed for %s%zu variants %s%s",
                 f->name, lt, x, w->x_lo, w->x_hi, scope, w->covered == d->n ? "all " : "", w->covered, at,
                 w->all_proven ? "; each period proven" : "");
    }
done:
    free(laws);
    return rc;
}

/* ---- closed forms of slopes ---- */

static int closed_complexity(int p, int q, int r, int s, int t, int u)
{
    return 30 + abs(p) + abs(q) + (u - 1) + (r ? 2 + r + abs(s) + abs(t) : 0);
}

/* (p + q x + sqrt(r x^2 + s x + t))/u as text */
static void closed_text(const ns_conj *c, char *buf, size_t len)
{
    char num[200];
    size_t u = 0;
    const char *x = c->param;
    num[0] = '\0';
    if (c->p)
        u += (size_t)snprintf(num + u, sizeof num - u, "%d", c->p);
    if (c->q) {
        const int aq = abs(c->q);
        const char *sign = c->q < 0 ? (u ? " - " : "-") : (u ? " + " : "");
        if (aq == 1)
            u += (size_t)snprintf(num + u, sizeof num - u, "%s%s", sign, x);
        else
            u += (size_t)snprintf(num + u, sizeof num - u, "%s%d%s", sign, aq, x);
    }
    if (c->r) {
        char rad[100];
        size_t v = 0;
        v += (size_t)(c->r == 1 ? snprintf(rad, sizeof rad, "%s^2", x) : snprintf(rad, sizeof rad, "%d%s^2", c->r, x));
        if (c->s)
            v += (size_t)(abs(c->s) == 1 ? snprintf(rad + v, sizeof rad - v, " %c %s", c->s < 0 ? '-' : '+', x)
                                         : snprintf(rad + v, sizeof rad - v, " %c %d%s", c->s < 0 ? '-' : '+',
                                                    abs(c->s), x));
        if (c->t)
            snprintf(rad + v, sizeof rad - v, " %c %d", c->t < 0 ? '-' : '+', abs(c->t));
        u += (size_t)snprintf(num + u, sizeof num - u, "%ssqrt(%s)", u ? " + " : "", rad);
    }
    if (!u)
        snprintf(num, sizeof num, "0");
    if (c->u == 1)
        snprintf(buf, len, "%s", num);
    else if (!c->r && (c->p == 0) != (c->q == 0))
        snprintf(buf, len, "%s/%d", num, c->u);
    else
        snprintf(buf, len, "(%s)/%d", num, c->u);
}

typedef struct cand {
    int p, q, r, s, t, u, cx;
} cand;

/* the best closed form of one group of variants (keyed rows), or none */
typedef struct fit {
    int found;
    cand best;
    double max_dev, tol;    /* largest |slope - form|, the smallest tol */
    size_t others;          /* other matching forms, other functions on these x */
    int64_t x_lo, x_hi;
} fit;

static void cand_conj(const cand *m, ns_conj *c)
{
    c->p = m->p;
    c->q = m->q;
    c->r = m->r;
    c->s = m->s;
    c->t = m->t;
    c->u = m->u;
}

/* Search the forms that match every row of k[0..nk) (scratch xs, tol,
 * root: nk entries each). f->found 0 when a slope is not finite, a row has
 * too few P-pairs, or no form matches. */
static ns_err closed_fit(const ns_conj_data *d, const double *slope, const keyed *k, size_t nk, double *xs,
                         double *tol, double *root, fit *f, ns_error *err)
{
    ns_err rc = NS_OK;
    cand *m = NULL;
    size_t nm = 0, capm = 0;
    memset(f, 0, sizeof *f);
    f->x_lo = INT64_MAX;
    f->x_hi = INT64_MIN;
    for (size_t i = 0; i < nk; i++) {
        const size_t v = k[i].i;
        if (!isfinite(slope[v]))
            return NS_OK;
        xs[i] = (double)k[i].x;
        tol[i] = ns_conj_slope_tol((d->p_positions[v] - 1) / 2) + 1e-12;
        if (!isfinite(tol[i]))
            return NS_OK;
        f->x_lo = k[i].x < f->x_lo ? k[i].x : f->x_lo;
        f->x_hi = k[i].x > f->x_hi ? k[i].x : f->x_hi;
    }
    for (int r = 0; r <= R_MAX; r++)
        for (int s = r ? -S_MAX : 0; s <= (r ? S_MAX : 0); s++)
            for (int t = r ? -T_MAX : 0; t <= (r ? T_MAX : 0); t++) {
                int neg = 0;
                for (size_t i = 0; i < nk && !neg; i++) {
                    const double rad = (double)r * xs[i] * xs[i] + (double)s * xs[i] + (double)t;
                    neg = rad < 0;
                    root[i] = neg ? 0 : sqrt(rad);
                }
                if (neg)
                    continue;
                for (int u = 1; u <= U_MAX; u++)
                    for (int q = -Q_MAX; q <= Q_MAX; q++)
                        for (int p = -P_MAX; p <= P_MAX; p++) {
                            size_t i = 0;
                            while (i < nk &&
                                   fabs(((double)p + (double)q * xs[i] + root[i]) / (double)u - slope[k[i].i]) <= tol[i])
                                i++;
                            if (i < nk)
                                continue;
                            if (nm == capm) {
                                capm = capm ? 2 * capm : 64;
                                cand *nmv = realloc(m, capm * sizeof *nmv);
                                if (!nmv) {
                                    rc = ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
                                    goto done;
                                }
                                m = nmv;
                            }
                            m[nm++] = (cand){p, q, r, s, t, u, closed_complexity(p, q, r, s, t, u)};
                        }
            }
    if (nm == 0)
        goto done;
    size_t best = 0;
    for (size_t j = 1; j < nm; j++)
        if (m[j].cx < m[best].cx)
            best = j;
    f->found = 1;
    f->best = m[best];
    f->tol = INFINITY;
    ns_conj c = {0};
    cand_conj(&m[best], &c);
    for (size_t i = 0; i < nk; i++) {
        const double dev = fabs(ns_conj_closed_eval(&c, xs[i]) - slope[k[i].i]);
        f->max_dev = dev > f->max_dev ? dev : f->max_dev;
        f->tol = tol[i] < f->tol ? tol[i] : f->tol;
    }
    /* other matching forms that are other functions on these x */
    for (size_t j = 0; j < nm; j++) {
        if (j == best)
            continue;
        ns_conj o = {0};
        cand_conj(&m[j], &o);
        int same = 1;
        for (size_t i = 0; i < nk && same; i++)
            same = fabs(ns_conj_closed_eval(&o, xs[i]) - ns_conj_closed_eval(&c, xs[i])) < 1e-9;
        f->others += !same;
    }
done:
    free(m);
    return rc;
}

static int same_cand(const cand *a, const cand *b)
{
    return a->p == b->p && a->q == b->q && a->r == b->r && a->s == b->s && a->t == b->t && a->u == b->u;
}

/* one form shared by some groups */
typedef struct form {
    cand c;
    size_t covered, groups, others;
    int64_t x_lo, x_hi;
    double max_dev, tol;
    size_t first_group;     /* the first group (in key order) that has it */
} form;

static int cmp_form(const void *a, const void *b)
{
    const form *p = a, *q = b;
    if (p->covered != q->covered)
        return (p->covered < q->covered) - (p->covered > q->covered);
    return (p->first_group > q->first_group) - (p->first_group < q->first_group);
}

/* The name of the one other parameter of the groups, when there is exactly
 * one and it is an integer parameter (names: np of them); else "". */
static void other_param(const ns_conj_data *d, const char *x, char names[][NS_PARAM_NAME_LEN], int np, char *y)
{
    y[0] = '\0';
    if (d->params[0].n != 2)
        return;
    const char *o = strcmp(d->params[0].p[0].name, x) == 0 ? d->params[0].p[1].name : d->params[0].p[0].name;
    for (int j = 0; j < np; j++)
        if (strcmp(names[j], o) == 0 && strcmp(o, x) != 0) {
            snprintf(y, NS_PARAM_NAME_LEN, "%s", o);
            return;
        }
}

/* Is v[g] = m y[g] + c exactly for every g (integer m, c)? ng >= 3 */
static int exact_line(const int64_t *y, const int64_t *v, size_t ng, int64_t *m, int64_t *c)
{
    size_t j = 1;
    while (j < ng && y[j] == y[0])
        j++;
    if (j == ng)
        return 0;
    const int64_t dy = y[j] - y[0], dv = v[j] - v[0];
    if (dv % dy)
        return 0;
    *m = dv / dy;
    int64_t my;
    if (__builtin_mul_overflow(*m, y[0], &my) || __builtin_sub_overflow(v[0], my, c))
        return 0;
    for (size_t g = 0; g < ng; g++) {
        int64_t w;
        if (__builtin_mul_overflow(*m, y[g], &w) || __builtin_add_overflow(w, *c, &w) || w != v[g])
            return 0;
    }
    return 1;
}

/* "2 - c", "2c", "-1", "c + 3" */
static void coef_text(int64_t m, int64_t c, const char *y, char *buf, size_t len)
{
    if (m == 0)
        snprintf(buf, len, "%" PRId64, c);
    else
        linear_text(m, c, y, buf, len);
}

static const char coef_names[6] = {'p', 'q', 'r', 's', 't', 'u'};

static int64_t cand_coef(const cand *c, int j)
{
    const int v[6] = {c->p, c->q, c->r, c->s, c->t, c->u};
    return v[j];
}

static ns_err closed_for(const ns_conj_data *d, const char *x, const char *field, const double *slope,
                         const keyed *k, char names[][NS_PARAM_NAME_LEN], int np, list *l, ns_error *err)
{
    const size_t n = d->n;
    ns_err rc = NS_OK;
    double *xs = malloc(n * sizeof *xs), *tol = malloc(n * sizeof *tol), *root = malloc(n * sizeof *root);
    fit *fits = malloc(n * sizeof *fits);
    size_t *g0s = malloc((n + 1) * sizeof *g0s);
    form *forms = NULL;
    int64_t *ys = malloc(n * sizeof *ys), *vs = malloc(n * sizeof *vs);
    size_t nforms = 0, ngroups = 0, fitted = 0;
    if (!xs || !tol || !root || !fits || !g0s || !ys || !vs) {
        rc = ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
        goto done;
    }
    char at[80];
    size_label(d, at, sizeof at);
    /* the groups: each needs >= MIN_CLOSED_X variants, one per value of x */
    for (size_t g0 = 0; g0 < n;) {
        size_t g1 = g0 + 1, dup = 0;
        while (g1 < n && strcmp(k[g1].key, k[g0].key) == 0) {
            dup += k[g1].x == k[g1 - 1].x;
            g1++;
        }
        g0s[ngroups] = g0;
        fits[ngroups].found = 0;
        if (!dup && g1 - g0 >= MIN_CLOSED_X &&
            (rc = closed_fit(d, slope, k + g0, g1 - g0, xs, tol, root, &fits[ngroups], err)))
            goto done;
        fitted += fits[ngroups].found;
        ngroups++;
        g0 = g1;
    }
    g0s[ngroups] = n;
    if (fitted == 0)
        goto done;
    if (ngroups == 1) {
        const fit *f = &fits[0];
        ns_conj *c = push(l, err);
        if (!c) {
            rc = err->code;
            goto done;
        }
        *c = (ns_conj){.kind = NS_CONJ_CLOSED, .x_lo = f->x_lo, .x_hi = f->x_hi, .covered = n, .groups = 1,
                       .complexity = f->best.cx, .max_dev = f->max_dev, .tol = f->tol, .others = f->others};
        cand_conj(&f->best, c);
        snprintf(c->field, sizeof c->field, "%s", field);
        snprintf(c->param, sizeof c->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
        char ft[240], oth[120] = "";
        closed_text(c, ft, sizeof ft);
        if (c->others)
            snprintf(oth, sizeof oth, "; %zu other form%s of the search also match%s", c->others,
                     c->others == 1 ? "" : "s", c->others == 1 ? "es" : "");
        snprintf(c->text, sizeof c->text,
                 "%s = %s for %s = %" PRId64 "..%" PRId64 ": observed for all %zu variants %s, max |deviation| %.2g "
                 "(each within its tolerance 1.5K/(K^2-1), K its P-pairs; the smallest %.2g)%s",
                 field, ft, x, c->x_lo, c->x_hi, n, at, c->max_dev, c->tol, oth);
        goto done;
    }
    /* several groups: the distinct forms, with the groups that have them */
    forms = malloc(ngroups * sizeof *forms);
    if (!forms) {
        rc = ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
        goto done;
    }
    for (size_t g = 0; g < ngroups; g++) {
        const fit *f = &fits[g];
        if (!f->found)
            continue;
        size_t j = 0;
        while (j < nforms && !same_cand(&forms[j].c, &f->best))
            j++;
        if (j == nforms)
            forms[nforms++] = (form){.c = f->best, .x_lo = f->x_lo, .x_hi = f->x_hi, .tol = INFINITY,
                                     .first_group = g};
        form *w = &forms[j];
        w->covered += g0s[g + 1] - g0s[g];
        w->groups++;
        w->others = f->others > w->others ? f->others : w->others;
        w->x_lo = f->x_lo < w->x_lo ? f->x_lo : w->x_lo;
        w->x_hi = f->x_hi > w->x_hi ? f->x_hi : w->x_hi;
        w->max_dev = f->max_dev > w->max_dev ? f->max_dev : w->max_dev;
        w->tol = f->tol < w->tol ? f->tol : w->tol;
    }
    qsort(forms, nforms, sizeof *forms, cmp_form);
    const char *others = "the other parameters";
    char y[NS_PARAM_NAME_LEN];
    other_param(d, x, names, np, y);
    if (y[0])
        others = y;
    /* every group has a form and the forms differ: one statement for all,
     * the first groups' forms listed */
    if (fitted == ngroups && nforms > 1) {
        ns_conj *c = push(l, err);
        if (!c) {
            rc = err->code;
            goto done;
        }
        *c = (ns_conj){.kind = NS_CONJ_CLOSED, .covered = n, .groups = ngroups, .forms = nforms, .complexity = 60,
                       .x_lo = k[0].x, .x_hi = k[0].x, .tol = INFINITY};
        for (size_t g = 0; g < ngroups; g++) {
            c->x_lo = fits[g].x_lo < c->x_lo ? fits[g].x_lo : c->x_lo;
            c->x_hi = fits[g].x_hi > c->x_hi ? fits[g].x_hi : c->x_hi;
            c->max_dev = fits[g].max_dev > c->max_dev ? fits[g].max_dev : c->max_dev;
            c->tol = fits[g].tol < c->tol ? fits[g].tol : c->tol;
        }
        snprintf(c->field, sizeof c->field, "%s", field);
        snprintf(c->param, sizeof c->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
        char list_txt[640] = "";
        size_t u = 0;
        enum { LISTED = 4 };
        for (size_t g = 0; g < ngroups && g < LISTED && u < sizeof list_txt; g++) {
            ns_conj o = {.u = 1};
            cand_conj(&fits[g].best, &o);
            snprintf(o.param, sizeof o.param, "%s", c->param);
            char ft[240];
            closed_text(&o, ft, sizeof ft);
            const int w = snprintf(list_txt + u, sizeof list_txt - u, "%s%s: %s", g ? "; " : "", k[g0s[g]].key, ft);
            u += w > 0 ? (size_t)w : 0;
        }
        if (ngroups > LISTED && u < sizeof list_txt)
            snprintf(list_txt + u, sizeof list_txt - u, "; ... (%zu more groups)", ngroups - LISTED);
        snprintf(c->text, sizeof c->text,
                 "%s is a closed form in %s for each value of %s, the forms differ (%zu groups, %zu different "
                 "forms; %s): observed for all %zu variants %s, max |deviation| %.2g (the smallest tolerance %.2g)",
                 field, x, others, ngroups, nforms, list_txt, n, at, c->max_dev, c->tol);
    }
    /* each form with the groups that share it */
    for (size_t j = 0; j < nforms && j < MAX_LAWS_PER_PAIR; j++) {
        const form *w = &forms[j];
        ns_conj *c = push(l, err);
        if (!c) {
            rc = err->code;
            goto done;
        }
        *c = (ns_conj){.kind = NS_CONJ_CLOSED, .x_lo = w->x_lo, .x_hi = w->x_hi, .covered = w->covered,
                       .groups = w->groups, .forms = 1, .complexity = w->c.cx, .max_dev = w->max_dev,
                       .tol = w->tol, .others = w->others};
        cand_conj(&w->c, c);
        snprintf(c->field, sizeof c->field, "%s", field);
        snprintf(c->param, sizeof c->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
        char ft[240], oth[160] = "", scope[160];
        closed_text(c, ft, sizeof ft);
        if (w->groups == ngroups)
            snprintf(scope, sizeof scope, ", the same form for each value of %s (%zu groups)", others, ngroups);
        else
            snprintf(scope, sizeof scope, " in %zu of %zu groups of %s", w->groups, ngroups, others);
        if (c->others)
            snprintf(oth, sizeof oth, "; in some group %zu other form%s of the search also match%s", c->others,
                     c->others == 1 ? "" : "s", c->others == 1 ? "es" : "");
        snprintf(c->text, sizeof c->text,
                 "%s = %s for %s = %" PRId64 "..%" PRId64 "%s: observed for %s%zu variants %s, max |deviation| %.2g "
                 "(each within its tolerance 1.5K/(K^2-1), K its P-pairs; the smallest %.2g)%s",
                 field, ft, x, c->x_lo, c->x_hi, scope, c->covered == n ? "all " : "", c->covered, at, c->max_dev,
                 c->tol, oth);
    }
    /* the coefficients of the groups' forms as exact linear functions of
     * the one other integer parameter y (every group has a form, >= 3 groups) */
    if (y[0] && fitted == ngroups && nforms > 1 && ngroups >= MIN_LINEAR_X) {
        for (size_t g = 0; g < ngroups; g++)
            ys[g] = ns_params_get(&d->params[k[g0s[g]].i], y)->v[0];
        int64_t cm[6] = {0}, cc[6] = {0};
        unsigned mask = 0;
        int varies = 0;
        for (int j = 0; j < 6; j++) {
            for (size_t g = 0; g < ngroups; g++)
                vs[g] = cand_coef(&fits[g].best, j);
            if (exact_line(ys, vs, ngroups, &cm[j], &cc[j])) {
                mask |= 1u << j;
                varies |= cm[j] != 0;
            }
        }
        if (varies) {
            ns_conj *c = push(l, err);
            if (!c) {
                rc = err->code;
                goto done;
            }
            int64_t y_lo = ys[0], y_hi = ys[0];
            for (size_t g = 1; g < ngroups; g++) {
                y_lo = ys[g] < y_lo ? ys[g] : y_lo;
                y_hi = ys[g] > y_hi ? ys[g] : y_hi;
            }
            *c = (ns_conj){.kind = NS_CONJ_CLOSED, .covered = n, .groups = ngroups, .forms = nforms,
                           .coef_linear = mask, .complexity = mask == 0x3fu ? 50 : 70,
                           .y_lo = y_lo, .y_hi = y_hi};
            memcpy(c->coef_m, cm, sizeof cm);
            memcpy(c->coef_c, cc, sizeof cc);
            c->x_lo = forms[0].x_lo;
            c->x_hi = forms[0].x_hi;
            for (size_t j = 0; j < nforms; j++) {
                c->x_lo = forms[j].x_lo < c->x_lo ? forms[j].x_lo : c->x_lo;
                c->x_hi = forms[j].x_hi > c->x_hi ? forms[j].x_hi : c->x_hi;
            }
            snprintf(c->field, sizeof c->field, "%s", field);
            snprintf(c->param, sizeof c->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
            snprintf(c->by, sizeof c->by, "%s", y);
            char lin[200] = "", non[200] = "";
            size_t ul = 0, un = 0;
            for (int j = 0; j < 6; j++) {
                char ct[80];
                if (mask >> j & 1u) {
                    coef_text(cm[j], cc[j], y, ct, sizeof ct);
                    const int w = snprintf(lin + ul, sizeof lin - ul, "%s%c = %s", ul ? ", " : "", coef_names[j], ct);
                    ul += w > 0 && (size_t)w < sizeof lin - ul ? (size_t)w : 0;
                } else {
                    size_t uv = 0;
                    for (size_t g = 0; g < ngroups && g < 6 && uv < sizeof ct; g++) {
                        const int w = snprintf(ct + uv, sizeof ct - uv, "%s%d", g ? ", " : "",
                                               (int)cand_coef(&fits[g].best, j));
                        uv += w > 0 ? (size_t)w : 0;
                    }
                    const int w = snprintf(non + un, sizeof non - un, "%s%c (%s%s)", un ? ", " : "", coef_names[j],
                                           ct, ngroups > 6 ? ", ..." : "");
                    un += w > 0 && (size_t)w < sizeof non - un ? (size_t)w : 0;
                }
            }
            if (mask == 0x3fu)
                snprintf(c->text, sizeof c->text,
                         "%s = (p + q %s + sqrt(r %s^2 + s %s + t))/u with %s for every %s = %" PRId64 "..%" PRId64
                         " (the form found in %s in each of the %zu groups; each coefficient exactly linear in %s): "
                         "observed for all %zu variants %s",
                         field, x, x, x, lin, y, y_lo, y_hi, x, ngroups, y, n, at);
            else
                snprintf(c->text, sizeof c->text,
                         "%s's closed forms in %s (one per %s = %" PRId64 "..%" PRId64 ", %zu groups): coefficients "
                         "exactly linear in %s over all groups: %s; not linear in %s: %s (in group order): observed "
                         "for all %zu variants %s",
                         field, x, y, y_lo, y_hi, ngroups, y, lin, y, non, n, at);
        }
    }
done:
    free(vs);
    free(ys);
    free(forms);
    free(g0s);
    free(fits);
    free(root);
    free(tol);
    free(xs);
    return rc;
}

/* ---- ranking ---- */

static int field_rank(const char *f)
{
    static const char *const order[] = {"periodic", "proven", "p_positions", "preperiod", "period",
                                        "slope_a", "slope_b"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (strcmp(order[i], f) == 0)
            return (int)i;
    return 99;
}

static int cmp_conj(const void *a, const void *b)
{
    const ns_conj *p = a, *q = b;
    if (p->covered != q->covered)
        return p->covered < q->covered ? 1 : -1;
    if (p->kind != q->kind)
        return (int)p->kind - (int)q->kind;
    if (p->complexity != q->complexity)
        return p->complexity - q->complexity;
    return field_rank(p->field) - field_rank(q->field);
}

ns_err ns_sweep_conj_find(const ns_conj_data *d, ns_conj **out, size_t *n, ns_error *err)
{
    list l = {0};
    keyed *k = NULL;
    ns_err rc;
    *out = NULL;
    *n = 0;
    if (d->n == 0)
        return NS_OK;
    if (d->piles != 1 && d->piles != 2)
        return ns_error_set(err, NS_EINVAL, "conjectures: %d piles: expected 1 or 2", d->piles);
    if ((rc = constants(d, &l, err)))
        goto fail;
    char names[NS_PARAMS_MAX][NS_PARAM_NAME_LEN];
    const int np = int_params(d, names);
    ifield f[MAX_FIELDS];
    const int nf = fields_of(d, f);
    for (int j = 0; j < np; j++) {
        if ((rc = sort_by_groups(d, names[j], &k, err)))
            goto fail;
        for (int t = 0; t < nf; t++)
            if ((rc = linear_for(d, names[j], &f[t], k, names, np, &l, err)))
                goto fail;
        /* closed forms of the slopes in x, within each group of the other parameters */
        if (d->piles == 2 && d->p_positions) {
            if (d->slope_a && (rc = closed_for(d, names[j], "slope_a", d->slope_a, k, names, np, &l, err)))
                goto fail;
            if (d->slope_b && (rc = closed_for(d, names[j], "slope_b", d->slope_b, k, names, np, &l, err)))
                goto fail;
        }
        free(k);
        k = NULL;
    }
    if (l.n)
        qsort(l.v, l.n, sizeof *l.v, cmp_conj);
    *out = l.v;
    *n = l.n;
    return NS_OK;
fail:
    free(k);
    free(l.v);
    return rc;
}
