/* ns_sweep_conj.c - see ns_sweep_conj.h. */
#include "analysis/ns_sweep_conj.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 3, MAX_LAWS_PER_PAIR = 5, MIN_LINEAR_X = 3, MIN_CLOSED_X = 4 };

/* The closed forms searched (ns_sweep_conj.h). */
enum { P_MAX = 4, Q_MAX = 4, U_MAX = 4, R_MAX = 4, S_MAX = 8, T_MAX = 8 };

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
    if (rad < 0)
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

static ns_err linear_for(const ns_conj_data *d, const char *xname, const ifield *f, const keyed *k, list *l,
                         ns_error *err)
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

static ns_err closed_for(const ns_conj_data *d, const char *x, const char *field, const double *slope, list *l,
                         ns_error *err)
{
    const size_t n = d->n;
    ns_err rc = NS_OK;
    double *xs = malloc(n * sizeof *xs), *tol = malloc(n * sizeof *tol), *root = malloc(n * sizeof *root);
    cand *m = NULL;
    size_t nm = 0, capm = 0;
    if (!xs || !tol || !root) {
        rc = ns_error_set(err, NS_ENOMEM, "conjectures: out of memory");
        goto done;
    }
    int64_t x_lo = INT64_MAX, x_hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        const int64_t xv = ns_params_get(&d->params[i], x)->v[0];
        if (!isfinite(slope[i]))
            goto done;
        xs[i] = (double)xv;
        tol[i] = ns_conj_slope_tol((d->p_positions[i] - 1) / 2) + 1e-12;
        if (!isfinite(tol[i]))
            goto done;
        x_lo = xv < x_lo ? xv : x_lo;
        x_hi = xv > x_hi ? xv : x_hi;
    }
    for (int r = 0; r <= R_MAX; r++)
        for (int s = r ? -S_MAX : 0; s <= (r ? S_MAX : 0); s++)
            for (int t = r ? -T_MAX : 0; t <= (r ? T_MAX : 0); t++) {
                int neg = 0;
                for (size_t i = 0; i < n && !neg; i++) {
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
                            while (i < n && fabs(((double)p + (double)q * xs[i] + root[i]) / (double)u - slope[i]) <= tol[i])
                                i++;
                            if (i < n)
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
    ns_conj *c = push(l, err);
    if (!c) {
        rc = err->code;
        goto done;
    }
    *c = (ns_conj){.kind = NS_CONJ_CLOSED, .p = m[best].p, .q = m[best].q, .r = m[best].r, .s = m[best].s,
                   .t = m[best].t, .u = m[best].u, .x_lo = x_lo, .x_hi = x_hi, .covered = n,
                   .complexity = m[best].cx, .tol = INFINITY};
    snprintf(c->field, sizeof c->field, "%s", field);
    snprintf(c->param, sizeof c->param, "%.*s", NS_PARAM_NAME_LEN - 1, x);
    for (size_t i = 0; i < n; i++) {
        const double dev = fabs(ns_conj_closed_eval(c, xs[i]) - slope[i]);
        c->max_dev = dev > c->max_dev ? dev : c->max_dev;
        c->tol = tol[i] < c->tol ? tol[i] : c->tol;
    }
    /* other matching forms that are other functions on these x */
    for (size_t j = 0; j < nm; j++) {
        if (j == best)
            continue;
        const ns_conj o = {.p = m[j].p, .q = m[j].q, .r = m[j].r, .s = m[j].s, .t = m[j].t, .u = m[j].u};
        int same = 1;
        for (size_t i = 0; i < n && same; i++)
            same = fabs(ns_conj_closed_eval(&o, xs[i]) - ns_conj_closed_eval(c, xs[i])) < 1e-9;
        c->others += !same;
    }
    char ft[240], at[80], oth[120] = "";
    closed_text(c, ft, sizeof ft);
    size_label(d, at, sizeof at);
    if (c->others)
        snprintf(oth, sizeof oth, "; %zu other form%s of the search also match%s", c->others,
                 c->others == 1 ? "" : "s", c->others == 1 ? "es" : "");
    snprintf(c->text, sizeof c->text,
             "%s = %s for %s = %" PRId64 "..%" PRId64 ": observed for all %zu variants %s, max |deviation| %.2g "
             "(each within its tolerance 1.5K/(K^2-1), K its P-pairs; the smallest %.2g)%s",
             field, ft, x, x_lo, x_hi, n, at, c->max_dev, c->tol, oth);
done:
    free(m);
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
            if ((rc = linear_for(d, names[j], &f[t], k, &l, err)))
                goto fail;
        /* closed forms: x the only parameter that varies (one group) */
        size_t distinct = 1;
        for (size_t i = 1; i < d->n; i++)
            distinct += k[i].x != k[i - 1].x;
        if (d->piles == 2 && d->p_positions && strcmp(k[0].key, k[d->n - 1].key) == 0 && distinct == d->n &&
            distinct >= MIN_CLOSED_X) {
            if (d->slope_a && (rc = closed_for(d, names[j], "slope_a", d->slope_a, &l, err)))
                goto fail;
            if (d->slope_b && (rc = closed_for(d, names[j], "slope_b", d->slope_b, &l, err)))
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
