/* ns_patterns.c - see ns_patterns.h */
#include "analysis/ns_patterns.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_exact.h"

/* ---- one pile ---- */

void ns_patterns_period_seq(const uint32_t *v, int64_t n, int64_t smax, int pn, int64_t pmax,
                            ns_period *out)
{
    memset(out, 0, sizeof *out);
    out->smax = smax;
    out->proof_needs = -1;
    out->table_to = n - 1;
    if (pmax <= 0 || pmax > n - 1)
        pmax = n - 1;
    for (int64_t p = 1; p <= pmax; p++) {
        int64_t last = n - 1 - p;
        if (last < 0)
            break;
        int64_t s = (int64_t)v[last + p] - (int64_t)v[last];
        if (pn && s != 0)
            continue;
        int64_t i = last;
        while (i >= 0 && (int64_t)v[i + p] - (int64_t)v[i] == s)
            i--;
        int64_t n0 = i + 1, verified = n - p - n0;
        int proven = s == 0 && smax > 0 && verified >= smax;
        if (!proven && !(verified >= 2 * p && verified >= n / 4))
            continue;
        out->found = 1;
        out->preperiod = n0;
        out->period = p;
        out->saltus = s;
        out->verified = verified;
        out->proven = proven;
        if (smax > 0)
            out->proof_needs = n0 + smax + p - 1;
        if (proven)
            snprintf(out->rule, sizeof out->rule,
                     "finite subtraction set with largest move %" PRId64 ": G(n+p) = G(n) for n0 <= n < n0+%" PRId64
                     " implies it for all n >= n0 (Winning Ways ch. 4)", smax, smax);
        else if (s != 0)
            snprintf(out->rule, sizeof out->rule, "saltus %" PRId64 " != 0: no proof rule for this game; observed only", s);
        else if (smax <= 0)
            snprintf(out->rule, sizeof out->rule,
                     "the moves are not a finite subtraction set (rays, callbacks or a domain): observed only");
        else
            snprintf(out->rule, sizeof out->rule,
                     "the proof rule needs the table up to n = %" PRId64 " but it ends at %" PRId64 ": observed only",
                     n0 + smax + p - 1, n - 1);
        return;
    }
}

/* Largest move of a one-pile game whose moves are finite subtractions only,
 * or -1. */
static int64_t subtraction_smax(const ns_game *g)
{
    if (!g || g->k != 1 || g->valid || g->nfam < 1)
        return -1;
    int64_t smax = 0;
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        if (fm->kind != NS_FAM_FINITE)
            return -1;
        for (size_t j = 0; j < fm->noffsets; j++) {
            if (fm->offsets[j] >= 0)
                return -1;
            if (-fm->offsets[j] > smax)
                smax = -fm->offsets[j];
        }
    }
    return smax > 0 ? smax : -1;
}

ns_err ns_patterns_period(const ns_game *g, const ns_table *t, int64_t pmax, ns_period *out,
                          ns_error *err)
{
    if (t->k != 1)
        return ns_error_set(err, NS_EINVAL, "periodicity needs a one-pile table; this one has %d dimensions", t->k);
    int64_t n = t->bounds[0];
    uint32_t *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    int64_t valid = n;
    for (int64_t i = 0; i < n; i++) {
        v[i] = ns_table_get(t, (uint64_t)i);
        if (v[i] == ns_table_invalid(t) && valid == n)
            valid = i;
    }
    if (t->pn_only)
        for (int64_t i = 0; i < valid; i++)
            v[i] = v[i] ? 1 : 0;
    ns_patterns_period_seq(v, valid, subtraction_smax(g), t->pn_only, pmax, out);
    free(v);
    return NS_OK;
}

/* ---- two piles: additive periodicity per row ---- */

ns_err ns_patterns_additive_rows(const ns_table *t, int64_t pmax, ns_row_period *rows,
                                 ns_error *err)
{
    if (t->k != 2)
        return ns_error_set(err, NS_EINVAL, "additive periodicity needs a two-pile table; this one has %d dimensions", t->k);
    if (t->pn_only)
        return ns_error_set(err, NS_EINVAL, "additive periodicity needs Grundy values; the table holds P/N flags only");
    const int64_t N1 = t->bounds[0], N2 = t->bounds[1];
    if (pmax <= 0 || pmax > N2 / 3)
        pmax = N2 / 3;
    const uint32_t inv = ns_table_invalid(t);
    for (int64_t x = 0; x < N1; x++) {
        ns_row_period *r = &rows[x];
        memset(r, 0, sizeof *r);
        r->x = x;
        uint64_t base = (uint64_t)x * (uint64_t)N2;
        for (int64_t p = 1; p <= pmax; p++) {
            int64_t last = N2 - 1 - p;
            if (last < 0)
                break;
            int64_t y = last;
            while (y >= 0) {
                uint32_t a = ns_table_get(t, base + (uint64_t)y), b = ns_table_get(t, base + (uint64_t)(y + p));
                if (a == inv || b == inv || (int64_t)b - (int64_t)a != p)
                    break;
                y--;
            }
            int64_t y0 = y + 1, verified = N2 - p - y0;
            if (verified >= 2 * p && verified >= N2 / 4) {
                r->found = 1;
                r->y0 = y0;
                r->p = p;
                r->verified = verified;
                break;
            }
        }
    }
    return NS_OK;
}

/* The alpha with v_i = floor(i alpha) for every i = 1..n form the interval
 * [max v_i / i, min (v_i + 1) / i); 1 when it is not empty. Exact
 * comparisons of the fractions in 128-bit integers. */
static int beatty_bracket(const int64_t *v, int64_t n, ns_qinterval *iv, double *lo, double *hi)
{
    int64_t ln = 0, ld = 1, hn = 0, hd = 0; /* lo = ln/ld, hi = hn/hd */
    for (int64_t i = 1; i <= n; i++) {
        int64_t a = v[i - 1];
        if ((ns_i128)a * ld > (ns_i128)ln * i) {
            ln = a;
            ld = i;
        }
        if (hd == 0 || (ns_i128)(a + 1) * hd < (ns_i128)hn * i) {
            hn = a + 1;
            hd = i;
        }
    }
    *iv = (ns_qinterval){ln, ld, hn, hd > 0 ? hd : 1, 0, 1};
    *lo = (double)ln / (double)ld;
    *hi = hd > 0 ? (double)hn / (double)hd : *lo;
    return hd > 0 && (ns_i128)ln * hd < (ns_i128)hn * ld;
}

/* ---- two piles: P-position sequences ---- */

void ns_pseq_free(ns_pseq *s)
{
    free(s->a);
    free(s->b);
    s->a = s->b = NULL;
    s->n = 0;
}

ns_err ns_patterns_pseq(const ns_table *t, ns_pseq *out, ns_error *err)
{
    memset(out, 0, sizeof *out);
    out->repeated = -1;
    if (t->k != 2)
        return ns_error_set(err, NS_EINVAL, "P-position sequences need a two-pile table; this one has %d dimensions", t->k);
    const int64_t N2 = t->bounds[1];
    const int64_t S = t->bounds[0] < t->bounds[1] ? t->bounds[0] : t->bounds[1];
    out->square = S;
    out->a = malloc((size_t)S * sizeof *out->a);
    out->b = malloc((size_t)S * sizeof *out->b);
    int *seen = calloc((size_t)S + 1, sizeof *seen);
    double *xs = malloc(((size_t)S + 1) * sizeof *xs), *ya = malloc(((size_t)S + 1) * sizeof *ya),
           *yb = malloc(((size_t)S + 1) * sizeof *yb);
    ns_err rc = NS_OK;
    if (!out->a || !out->b || !seen || !xs || !ya || !yb) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
#define PCELL(x, y) (ns_table_get(t, (uint64_t)(x) * (uint64_t)N2 + (uint64_t)(y)) == 0)
    out->origin_p = PCELL(0, 0);
    for (int64_t x = 0; x < S; x++) {
        if (x > 0 && PCELL(x, x))
            out->diagonal++;
        for (int64_t y = x + 1; y < S; y++) {
            if (!PCELL(x, y))
                continue;
            if (out->n > 0 && out->a[out->n - 1] == x) {
                out->ok = 0;
                snprintf(out->why_not, sizeof out->why_not,
                         "row %" PRId64 " holds two P-positions (%" PRId64 ", %" PRId64 ") and (%" PRId64 ", %" PRId64 ") above the diagonal: the P-positions are not one sequence",
                         x, x, out->b[out->n - 1], x, y);
                ns_pseq_free(out);
                goto fail;
            }
            out->a[out->n] = x;
            out->b[out->n] = y;
            out->n++;
        }
    }
#undef PCELL
    if (out->n < 1) {
        snprintf(out->why_not, sizeof out->why_not, "no P-positions above the diagonal in the square [0,%" PRId64 ")^2", S);
        ns_pseq_free(out);
        goto fail;
    }
    out->ok = 1;
    /* complementarity */
    for (int64_t i = 0; i < out->n; i++) {
        seen[out->a[i]]++;
        seen[out->b[i]]++;
    }
    for (int64_t v = 1; v < S; v++)
        if (seen[v] > 1) {
            out->repeated = v;
            break;
        }
    int64_t c = 0;
    while (c + 1 < S && seen[c + 1] >= 1)
        c++;
    out->cover_to = c;
    out->complementary = out->repeated < 0 && c >= 1;
    /* differences */
    out->diff_step = out->b[0] - out->a[0];
    out->diff_is_index = 1;
    out->diff_increasing = 1;
    for (int64_t i = 0; i < out->n; i++) {
        int64_t d = out->b[i] - out->a[i];
        if (d != out->diff_step * (i + 1))
            out->diff_is_index = 0;
        if (i > 0 && d <= out->b[i - 1] - out->a[i - 1])
            out->diff_increasing = 0;
    }
    /* slopes */
    for (int64_t i = 0; i < out->n; i++) {
        xs[i] = (double)(i + 1);
        ya[i] = (double)out->a[i];
        yb[i] = (double)out->b[i];
    }
    ns_lines_fit(xs, ya, (size_t)out->n, &out->fit_a);
    ns_lines_fit(xs, yb, (size_t)out->n, &out->fit_b);
    ns_lines_fit_line(ya, yb, (size_t)out->n, &out->fit_line, &out->rec_line);
    out->beatty_a = beatty_bracket(out->a, out->n, &out->exact_a, &out->bracket_a[0], &out->bracket_a[1]);
    out->beatty_b = beatty_bracket(out->b, out->n, &out->exact_b, &out->bracket_b[0], &out->bracket_b[1]);
    if (out->beatty_a)
        ns_constant_recognize(&out->exact_a, &out->rec_a);
    else if (out->fit_a.ok)
        ns_constant_recognize_fit(out->fit_a.slope, out->fit_a.slope_se, &out->rec_a);
    if (out->beatty_b)
        ns_constant_recognize(&out->exact_b, &out->rec_b);
    else if (out->fit_b.ok)
        ns_constant_recognize_fit(out->fit_b.slope, out->fit_b.slope_se, &out->rec_b);
    if (out->fit_a.ok && out->fit_b.ok && out->fit_a.slope > 0 && out->fit_b.slope > 0)
        out->beatty_sum = 1.0 / out->fit_a.slope + 1.0 / out->fit_b.slope;
    /* the lines the pairs lie along (one, or one per direction), and the
     * P-positions below the diagonal: the mirror images, or their own */
    {
        ns_lines_acc up = NS_LINES_ACC_INIT, low = NS_LINES_ACC_INIT;
        int ok = 1;
        for (int64_t i = 0; i < out->n && ok; i++)
            ok = ns_lines_add(&up, (double)out->a[i], (double)out->b[i]);
        out->p_symmetric = 1;
        for (int64_t x = 1; x < S && ok; x++)
            for (int64_t y = 0; y < x && ok; y++) {
                const int p = ns_table_get(t, (uint64_t)x * (uint64_t)N2 + (uint64_t)y) == 0;
                if (p != (ns_table_get(t, (uint64_t)y * (uint64_t)N2 + (uint64_t)x) == 0))
                    out->p_symmetric = 0;
                if (p) {
                    out->below++;
                    ok = ns_lines_add(&low, (double)x, (double)y);
                }
            }
        const double far = 2.0 * (double)S / 10.0;
        ns_lines_finish(&up, far, &out->lines);
        ns_lines_finish(&low, far, &out->lines_below);
        if (!ok) {
            ns_pseq_free(out);
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        }
    }
fail:
    free(seen);
    free(xs);
    free(ya);
    free(yb);
    return rc;
}

/* ---- two piles: g-values ---- */

ns_err ns_patterns_gvalues(const ns_table *t, double l, uint32_t K, ns_gvalue *out, ns_error *err)
{
    if (t->k != 2)
        return ns_error_set(err, NS_EINVAL, "g-values need a two-pile table; this one has %d dimensions", t->k);
    if (t->pn_only)
        return ns_error_set(err, NS_EINVAL, "g-values need Grundy values; the table holds P/N flags only");
    if (!(l > 1.0) || !isfinite(l))
        return ns_error_set(err, NS_EINVAL, "the slope of the 0-lines must be > 1 (got %g)", l);
    const int64_t N2 = t->bounds[1];
    const int64_t S = t->bounds[0] < t->bounds[1] ? t->bounds[0] : t->bounds[1];
    const double norm = sqrt(1.0 + l * l);
    double *sum = calloc((size_t)K + 1, sizeof *sum);
    if (!sum)
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    for (uint32_t g = 0; g <= K; g++) {
        memset(&out[g], 0, sizeof out[g]);
        out[g].g = g;
    }
    for (int64_t x = 0; x < S; x++)
        for (int64_t y = 0; y < S; y++) {
            uint32_t v = ns_table_get(t, (uint64_t)x * (uint64_t)N2 + (uint64_t)y);
            if (v > K)
                continue;
            double d1 = fabs((double)y - l * (double)x), d2 = fabs((double)x - l * (double)y);
            double d = (d1 < d2 ? d1 : d2) / norm;
            ns_gvalue *o = &out[v];
            o->count++;
            sum[v] += d;
            if (d > o->max_dist || o->count == 1) {
                o->max_dist = d;
                o->farthest[0] = x;
                o->farthest[1] = y;
            }
            if (2 * (x + y) >= S && d > o->max_dist_far)
                o->max_dist_far = d;
        }
    for (uint32_t g = 0; g <= K; g++)
        out[g].mean_dist = out[g].count ? sum[g] / (double)out[g].count : 0.0;
    free(sum);
    return NS_OK;
}
