/* ns_constant.c - see ns_constant.h */
#include "analysis/ns_constant.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/ns_exact.h"

/* Interval ends must stay below this, so that the comparisons below fit
 * 127 bits: |v p - u r| < 2^62, (v q)^2 d < 2^124. */
#define END_LIMIT ((int64_t)1 << 46)

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* floor(a / b) for b != 0 */
static ns_i128 floordiv(ns_i128 a, ns_i128 b)
{
    ns_i128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* sign of x - u / v (v > 0), exactly */
static int cmp_frac(const ns_qnumber *x, int64_t u, int64_t v)
{
    ns_i128 X = (ns_i128)v * x->p - (ns_i128)u * x->r, Y = (ns_i128)v * x->q;
    if (Y == 0)
        return X > 0 ? 1 : X < 0 ? -1 : 0;
    if (X >= 0 && Y > 0)
        return 1;
    if (X <= 0 && Y < 0)
        return -1;
    /* opposite signs: compare X^2 with Y^2 d (never equal: sqrt(d) is irrational) */
    ns_i128 X2 = X * X, Y2d = Y * Y * x->d;
    if (X > 0)
        return X2 > Y2d ? 1 : -1;
    return Y2d > X2 ? 1 : -1;
}

int ns_qnumber_in(const ns_qnumber *x, const ns_qinterval *iv)
{
    int lo = cmp_frac(x, iv->lo_num, iv->lo_den), hi = cmp_frac(x, iv->hi_num, iv->hi_den);
    return (lo > 0 || (lo == 0 && !iv->lo_open)) && (hi < 0 || (hi == 0 && !iv->hi_open));
}

static void qnumber_text(ns_qnumber *x)
{
    char num[64];
    if (x->q == 0) {
        if (x->r == 1)
            snprintf(x->text, sizeof x->text, "%" PRId64, x->p);
        else
            snprintf(x->text, sizeof x->text, "%" PRId64 "/%" PRId64, x->p, x->r);
        return;
    }
    size_t u = 0;
    if (x->p != 0)
        u += (size_t)snprintf(num + u, sizeof num - u, "%" PRId64, x->p);
    if (x->q < 0)
        u += (size_t)snprintf(num + u, sizeof num - u, "-");
    else if (x->p != 0)
        u += (size_t)snprintf(num + u, sizeof num - u, "+");
    int64_t aq = x->q < 0 ? -x->q : x->q;
    if (aq != 1)
        u += (size_t)snprintf(num + u, sizeof num - u, "%" PRId64 "*", aq);
    snprintf(num + u, sizeof num - u, "sqrt(%" PRId64 ")", x->d);
    if (x->r == 1)
        snprintf(x->text, sizeof x->text, "%s", num);
    else if (x->p != 0)
        snprintf(x->text, sizeof x->text, "(%s)/%" PRId64, num, x->r);
    else
        snprintf(x->text, sizeof x->text, "%s/%" PRId64, num, x->r);
}

/* The root (-B + s sqrt(D)) / (2A) of A x^2 + B x + C (A > 0, D = B^2 - 4AC
 * > 0 not a square), or -C / B when A = 0 (B > 0). */
static void qnumber_make(int64_t A, int64_t B, int64_t C, int64_t D, int s, ns_qnumber *x)
{
    memset(x, 0, sizeof *x);
    x->poly[0] = A;
    x->poly[1] = B;
    x->poly[2] = C;
    int64_t h = A;
    h = (B < 0 ? -B : B) > h ? (B < 0 ? -B : B) : h;
    h = (C < 0 ? -C : C) > h ? (C < 0 ? -C : C) : h;
    x->height = h;
    if (A == 0) {
        x->p = -C;
        x->q = 0;
        x->d = 1;
        x->r = B;
    } else {
        int64_t f = 1, d = D;
        for (int64_t k = 2; k * k <= d; k++)
            while (d % (k * k) == 0) {
                d /= k * k;
                f *= k;
            }
        x->p = -B;
        x->q = s * f;
        x->d = d;
        x->r = 2 * A;
    }
    int64_t g = gcd64(gcd64(x->p, x->q), x->r);
    if (g > 1) {
        x->p /= g;
        x->q /= g;
        x->r /= g;
    }
    x->value = ((double)x->p + (double)x->q * sqrt((double)x->d)) / (double)x->r;
    qnumber_text(x);
}

/* a comes before b: rational first, then the smaller discriminant, then
 * the smaller value */
static int simpler(const ns_qnumber *a, const ns_qnumber *b)
{
    int da = a->poly[0] != 0, db = b->poly[0] != 0;
    if (da != db)
        return da < db;
    int64_t Da = a->poly[1] * a->poly[1] - 4 * a->poly[0] * a->poly[2];
    int64_t Db = b->poly[1] * b->poly[1] - 4 * b->poly[0] * b->poly[2];
    if (Da != Db)
        return Da < Db;
    return a->value < b->value;
}

static int cf_frac(int64_t u, int64_t v, int64_t *cf, int *more)
{
    int n = 0;
    *more = 0;
    ns_i128 U = u, V = v;
    while (V != 0) {
        if (n >= NS_CONSTANT_CF) {
            *more = 1;
            break;
        }
        ns_i128 a = floordiv(U, V);
        cf[n++] = (int64_t)a;
        ns_i128 t = U - a * V;
        U = V;
        V = t;
    }
    return n;
}

/* The continued fraction of x: finite for a rational, eventually periodic
 * for a quadratic irrational (the (P + sqrt(N)) / Q recurrence). */
static void constant_cf(const ns_qnumber *x, ns_recog *r)
{
    r->pre = r->per = 0;
    if (x->q == 0) {
        int more;
        r->ccf_n = cf_frac(x->p, x->r, r->ccf, &more);
        return;
    }
    ns_i128 N = (ns_i128)x->q * x->q * x->d, P = x->q > 0 ? x->p : -x->p, Q = x->q > 0 ? x->r : -x->r;
    if ((N - P * P) % Q != 0) {
        ns_i128 aq = Q < 0 ? -Q : Q;
        P *= aq;
        N *= Q * Q;
        Q *= aq;
    }
    ns_i128 s = (ns_i128)ns_isqrt128((ns_u128)N);
    ns_i128 seenP[NS_CONSTANT_CF], seenQ[NS_CONSTANT_CF];
    int n = 0;
    while (n < NS_CONSTANT_CF) {
        for (int j = 0; j < n; j++)
            if (seenP[j] == P && seenQ[j] == Q) {
                r->ccf_n = n;
                r->pre = j;
                r->per = n - j;
                return;
            }
        ns_i128 a = Q > 0 ? floordiv(P + s, Q) : -floordiv(P + s, -Q) - 1;
        seenP[n] = P;
        seenQ[n] = Q;
        r->ccf[n++] = (int64_t)a;
        P = a * Q - P;
        Q = (N - P * P) / Q;
    }
    r->ccf_n = n; /* no period within the terms kept (not reached for small heights) */
}

void ns_constant_recognize(const ns_qinterval *iv, ns_recog *r)
{
    memset(r, 0, sizeof *r);
    r->iv = *iv;
    if (iv->lo_den <= 0 || iv->hi_den <= 0 || iv->lo_den >= END_LIMIT || iv->hi_den >= END_LIMIT ||
        iv->lo_num >= END_LIMIT || iv->lo_num <= -END_LIMIT || iv->hi_num >= END_LIMIT || iv->hi_num <= -END_LIMIT)
        return;
    const double lo = (double)iv->lo_num / (double)iv->lo_den, hi = (double)iv->hi_num / (double)iv->hi_den;
    if (!(lo <= hi))
        return;
    r->width = hi - lo;
    r->ncf_lo = cf_frac(iv->lo_num, iv->lo_den, r->cf_lo, &r->cf_lo_more);
    r->ncf_hi = cf_frac(iv->hi_num, iv->hi_den, r->cf_hi, &r->cf_hi_more);
    /* shared terms: the last term of a finite fraction is ambiguous
     * ([..., a] = [..., a - 1, 1]), so it does not count */
    int m = r->ncf_lo - !r->cf_lo_more, mh = r->ncf_hi - !r->cf_hi_more;
    m = mh < m ? mh : m;
    while (r->nterms < m && r->cf_lo[r->nterms] == r->cf_hi[r->nterms]) {
        r->cf[r->nterms] = r->cf_lo[r->nterms];
        r->nterms++;
    }
    const double mid = (lo + hi) / 2, slack = 1e-9 * (1 + fabs(mid));
    uint64_t window = 0; /* numbers of height <= h within 1/2 of mid */
    for (int64_t h = 1; h <= NS_CONSTANT_HMAX; h++) {
        int nhits = 0;
        ns_qnumber best, x;
        memset(&best, 0, sizeof best);
        /* the shell max(|A|, |B|, |C|) = h: C runs over -h..h when A or B
         * reaches h, else it is -h or h */
        for (int64_t A = 0; A <= h; A++)
            for (int64_t B = -h; B <= h; B++) {
                int64_t aB = B < 0 ? -B : B, cstep = A == h || aB == h ? 1 : 2 * h;
                for (int64_t C = -h; C <= h; C += cstep) {
                    int64_t D = B * B - 4 * A * C;
                    int nroots;
                    double v[2];
                    if (A == 0) {
                        if (B <= 0)
                            continue;
                        nroots = 1;
                        v[0] = -(double)C / (double)B;
                    } else {
                        if (D <= 0)
                            continue;
                        nroots = 2;
                        v[0] = (-(double)B - sqrt((double)D)) / (2.0 * (double)A);
                        v[1] = (-(double)B + sqrt((double)D)) / (2.0 * (double)A);
                    }
                    /* cheap filter first: near the middle or the interval */
                    int near = 0;
                    for (int i = 0; i < nroots; i++)
                        near |= fabs(v[i] - mid) <= 0.5 || (v[i] >= lo - slack && v[i] <= hi + slack);
                    if (!near || gcd64(gcd64(A, B), C) != 1)
                        continue;
                    if (A > 0) {
                        int64_t sq = (int64_t)ns_isqrt128((ns_u128)D);
                        if (sq * sq == D)
                            continue; /* reducible: its roots are rationals */
                    }
                    for (int i = 0; i < nroots; i++) {
                        if (fabs(v[i] - mid) <= 0.5)
                            window++;
                        if (v[i] < lo - slack || v[i] > hi + slack)
                            continue;
                        qnumber_make(A, B, C, D, i == 0 ? -1 : 1, &x);
                        if (!ns_qnumber_in(&x, iv))
                            continue;
                        if (nhits == 0 || simpler(&x, &best)) {
                            if (nhits > 0)
                                r->rival = best;
                            best = x;
                        } else if (nhits == 1) {
                            r->rival = x;
                        }
                        nhits++;
                    }
                }
            }
        r->searched_to = h;
        r->chance = (double)window * r->width;
        if (nhits > 0) {
            r->rivals = nhits - 1;
            if (r->chance <= NS_CONSTANT_CHANCE) {
                r->kind = best.q == 0 ? NS_RECOG_RATIONAL : NS_RECOG_QUADRATIC;
                r->c = best;
                constant_cf(&best, r);
            } else {
                r->have_simplest = 1;
                r->simplest = best;
            }
            return;
        }
        if (r->chance > NS_CONSTANT_CHANCE)
            return; /* a hit at a greater height would mean nothing */
    }
}

void ns_constant_recognize_fit(double x, double se, ns_recog *r)
{
    memset(r, 0, sizeof *r);
    double tol = 3.0 * (se > 0 ? se : 0.0);
    double floor_tol = 1e-9 * (fabs(x) > 1 ? fabs(x) : 1.0);
    if (tol < floor_tol)
        tol = floor_tol;
    if (!isfinite(x) || !isfinite(tol) || fabs(x) + tol > 1e9)
        return;
    /* denominator 2^k with (|x| + tol + 1) 2^k < 2^44 */
    int k = 44 - (int)ceil(log2(fabs(x) + tol + 1));
    if (k > 40)
        k = 40;
    ns_qinterval iv = {(int64_t)floor(ldexp(x - tol, k)), (int64_t)1 << k, (int64_t)ceil(ldexp(x + tol, k)),
                       (int64_t)1 << k, 0, 0};
    ns_constant_recognize(&iv, r);
}
