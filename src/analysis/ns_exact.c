/* ns_exact.c - see ns_exact.h */
#include "analysis/ns_exact.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>

uint64_t ns_isqrt128(ns_u128 n)
{
    if (n == 0)
        return 0;
    /* Estimate in long double, then Newton steps and a final correction in
     * exact 128-bit arithmetic. */
    long double e = sqrtl((long double)n);
    uint64_t r;
    if (e >= 18446744073709551615.0L)
        r = UINT64_MAX;
    else
        r = (uint64_t)e;
    if (r == 0)
        r = 1;
    for (int it = 0; it < 8; it++) {
        ns_u128 q = n / r;
        ns_u128 nr = ((ns_u128)r + q) / 2;
        if (nr > UINT64_MAX)
            nr = UINT64_MAX;
        if ((uint64_t)nr == r)
            break;
        r = (uint64_t)nr;
    }
    while ((ns_u128)r * r > n)
        r--;
    while (r < UINT64_MAX && (ns_u128)(r + 1) * (r + 1) <= n)
        r++;
    return r;
}

int64_t ns_floor_phi(int64_t n)
{
    if (n < 0 || n > NS_EXACT_MAX)
        return -1;
    /* floor((n + sqrt(5 n^2)) / 2) = floor((n + isqrt(5 n^2)) / 2): for a
     * real y, floor(y / 2) = floor(floor(y) / 2). */
    ns_u128 five_n2 = (ns_u128)5 * (ns_u128)n * (ns_u128)n;
    uint64_t s = ns_isqrt128(five_n2);
    return (int64_t)(((uint64_t)n + s) / 2);
}

int64_t ns_floor_phi2(int64_t n)
{
    int64_t a = ns_floor_phi(n);
    return a < 0 ? -1 : a + n;
}

int64_t ns_floor_div_phi(int64_t n)
{
    int64_t a = ns_floor_phi(n);
    return a < 0 ? -1 : a - n;
}

int ns_wythoff_is_p(int64_t a, int64_t b)
{
    if (a < 0 || b < 0 || a > NS_EXACT_MAX || b > NS_EXACT_MAX)
        return 0;
    if (a > b) {
        int64_t t = a;
        a = b;
        b = t;
    }
    return ns_floor_phi(b - a) == a;
}

int ns_wythoff_index(int64_t v, int64_t *n)
{
    *n = 0;
    if (v < 0 || v > NS_EXACT_MAX)
        return -1;
    if (v == 0)
        return 0;
    /* v = a_j for j near v / phi, or v = b_j = a_j + j for j near v / phi^2.
     * floor(v / phi) is exact; try its neighbours. */
    int64_t j = ns_floor_div_phi(v);
    for (int64_t c = j - 1; c <= j + 1; c++)
        if (c >= 1 && ns_floor_phi(c) == v) {
            *n = c;
            return 1;
        }
    /* v / phi^2 = v - v / phi */
    int64_t k = v - j;
    for (int64_t c = k - 2; c <= k + 2; c++)
        if (c >= 1 && ns_floor_phi(c) + c == v) {
            *n = c;
            return 2;
        }
    return -1; /* not reached: the two sequences partition the integers >= 1 */
}

int64_t ns_wythoff_partner(int64_t v)
{
    int64_t n;
    int w = ns_wythoff_index(v, &n);
    if (w < 0)
        return -1;
    if (w == 0)
        return 0;
    return w == 1 ? v + n : v - n;
}

ns_err ns_awythoff_floor(int64_t a, int64_t n, int64_t *out, ns_error *err)
{
    if (a < 1 || n < 0)
        return ns_error_set(err, NS_ERANGE, "a-Wythoff floor: need a >= 1 and n >= 0 (got a=%" PRId64 ", n=%" PRId64 ")", a, n);
    if (n == 0) {
        *out = 0;
        return NS_OK;
    }
    /* n alpha = (n (2 - a) + sqrt(n^2 (a^2 + 4))) / 2; a^2 + 4 is not a
     * square for a >= 1, so floor(n alpha) = floor((n (2 - a) + isqrt(.)) / 2). */
    ns_u128 d = (ns_u128)a * (ns_u128)a + 4;
    ns_u128 n2 = (ns_u128)n * (ns_u128)n;
    if (n2 != 0 && d > (((ns_u128)1 << 127) - 1) / n2)
        return ns_error_set(err, NS_ERANGE, "a-Wythoff floor: n^2 (a^2 + 4) overflows 127 bits (a=%" PRId64 ", n=%" PRId64 ")", a, n);
    uint64_t s = ns_isqrt128(n2 * d);
    ns_i128 num = (ns_i128)n * (ns_i128)(2 - a) + (ns_i128)s;
    ns_i128 q = num / 2; /* num >= 0 since alpha > 0 */
    if (num < 0 || q > INT64_MAX)
        return ns_error_set(err, NS_ERANGE, "a-Wythoff floor: result does not fit 64 bits (a=%" PRId64 ", n=%" PRId64 ")", a, n);
    *out = (int64_t)q;
    return NS_OK;
}

int64_t ns_fib(int i)
{
    if (i < 0 || i > NS_FIB_MAX)
        return -1;
    uint64_t a = 0, b = 1; /* b runs one ahead: F_93 still fits 64 unsigned bits */
    for (int k = 0; k < i; k++) {
        uint64_t c = a + b;
        a = b;
        b = c;
    }
    return (int64_t)a;
}

int ns_is_fib(int64_t n)
{
    if (n < 1)
        return 0;
    for (int i = 1; i <= NS_FIB_MAX; i++) {
        int64_t f = ns_fib(i);
        if (f == n)
            return 1;
        if (f > n)
            return 0;
    }
    return 0;
}

int ns_zeckendorf(int64_t n, int *idx, int max)
{
    if (n < 0)
        return -1;
    int64_t fib[NS_FIB_MAX + 1];
    for (int i = 0; i <= NS_FIB_MAX; i++)
        fib[i] = ns_fib(i);
    int m = 0;
    int k = NS_FIB_MAX;
    while (n > 0) {
        while (fib[k] > n)
            k--;
        if (m >= max)
            return -1;
        idx[m++] = k;
        n -= fib[k];
        k -= 2; /* greedy: the next term is at most F_{k-2} */
    }
    return m;
}

int64_t ns_zeckendorf_smallest(int64_t n)
{
    int idx[64];
    int m = ns_zeckendorf(n, idx, 64);
    return m <= 0 ? 0 : ns_fib(idx[m - 1]);
}

int64_t ns_floor_phi_zeckendorf(int64_t n)
{
    if (n < 0 || n > (int64_t)1000000000000000000)
        return -1;
    if (n == 0)
        return 0;
    /* n phi = sum F_{k+1} - sum psi^k with psi = -1/phi (from F_k phi =
     * F_{k+1} - psi^k); the error term has the sign of its first (smallest
     * k) term and modulus below 1. */
    int idx[64];
    int m = ns_zeckendorf(n, idx, 64);
    int64_t s = 0;
    for (int i = 0; i < m; i++)
        s += ns_fib(idx[i] + 1);
    return s - (idx[m - 1] % 2 == 0 ? 1 : 0);
}

/* ---- the floating-point probe ---- */

static double phi_double(void)
{
    return (1.0 + sqrt(5.0)) / 2.0;
}

static long double phi_long_double(void)
{
    return (1.0L + sqrtl(5.0L)) / 2.0L;
}

int64_t ns_floor_phi_double(int64_t n)
{
    volatile double p = (double)n * phi_double();
    return (int64_t)floor(p);
}

int64_t ns_floor_phi_long_double(int64_t n)
{
    volatile long double p = (long double)n * phi_long_double();
    return (int64_t)floorl(p);
}

long double ns_phi_frac(int s, int64_t n)
{
    if (n <= 0)
        return 0.0L;
    int64_t m = ns_floor_phi(n);
    ns_i128 five_n2 = (ns_i128)5 * n * n;
    if (s > 0) {
        /* n phi - m = (n sqrt5 - A) / 2 = (5 n^2 - A^2) / (2 (n sqrt5 + A)), A = 2m - n */
        ns_i128 A = (ns_i128)2 * m - n;
        ns_i128 num = five_n2 - A * A;
        long double den = 2.0L * ((long double)n * sqrtl(5.0L) + (long double)A);
        return (long double)num / den;
    }
    /* (m + 1) - n phi = (B^2 - 5 n^2) / (2 (B + n sqrt5)), B = 2(m+1) - n */
    ns_i128 B = (ns_i128)2 * (m + 1) - n;
    ns_i128 num = B * B - five_n2;
    long double den = 2.0L * ((long double)B + (long double)n * sqrtl(5.0L));
    return (long double)num / den;
}

/* Smallest q >= 1 with frac(s q phi) < eps: a Fibonacci number (the best
 * one-sided approximations of phi have Fibonacci denominators), or -1 when
 * none is <= NS_EXACT_MAX. */
static int64_t first_return(int s, long double eps)
{
    for (int k = 1; k <= NS_FIB_MAX; k++) {
        int64_t f = ns_fib(k);
        if (f > NS_EXACT_MAX)
            break;
        if (ns_phi_frac(s, f) < eps)
            return f;
    }
    return -1;
}

int64_t ns_phi_small_frac(int s, double eps, int64_t hi, ns_frac_fn fn, void *user,
                          ns_error *err)
{
    s = s >= 0 ? 1 : -1;
    if (!(eps > 0 && eps < 0.5) || hi < 1 || hi > NS_EXACT_MAX) {
        ns_error_set(err, NS_ERANGE, "three-gap enumeration: need 0 < eps < 1/2 and 1 <= hi <= 3e18");
        return -1;
    }
    long double e = eps;
    /* q1: first return from the left (frac(s q phi) small), q2: first return
     * from the right (frac(s q phi) close to 1, i.e. frac(-s q phi) small). */
    int64_t q1 = first_return(s, e), q2 = first_return(-s, e);
    int64_t steps[3];
    int nst = 0;
    if (q1 > 0 && q2 > 0) {
        steps[nst++] = q1 < q2 ? q1 : q2;
        steps[nst++] = q1 < q2 ? q2 : q1;
        steps[nst++] = q1 + q2;
    } else if (q1 > 0 || q2 > 0) {
        steps[nst++] = q1 > 0 ? q1 : q2;
    }
    int64_t n = 0, count = 0;
    while (nst > 0) {
        int64_t next = -1;
        for (int i = 0; i < nst; i++) {
            int64_t c = n + steps[i];
            if (c >= hi || c > NS_EXACT_MAX) {
                next = -2; /* every later step is beyond hi too */
                break;
            }
            if (ns_phi_frac(s, c) < e) {
                next = c;
                break;
            }
        }
        if (next == -2)
            break;
        if (next < 0) {
            ns_error_set(err, NS_EINTERNAL, "three-gap enumeration: no return from n=%" PRId64 " with steps %" PRId64 ", %" PRId64 " (eps=%g)", n, q1, q2, eps);
            return -1;
        }
        n = next;
        count++;
        if (fn && fn(user, n))
            break;
    }
    return count;
}

typedef struct probe_ctx {
    ns_probe_kind kind;
    int64_t lo;
    int64_t best;      /* smallest differing n found in this block, or -1 */
    uint64_t evaluated;
} probe_ctx;

static int probe_visit(void *user, int64_t n)
{
    probe_ctx *c = user;
    if (n < c->lo)
        return 0;
    if (c->best >= 0 && n >= c->best)
        return 1;
    c->evaluated++;
    int64_t f = c->kind == NS_PROBE_DOUBLE ? ns_floor_phi_double(n) : ns_floor_phi_long_double(n);
    if (f != ns_floor_phi(n)) {
        c->best = n;
        return 1;
    }
    return 0;
}

ns_err ns_phi_probe_run(ns_probe_kind kind, int64_t nmax, ns_phi_probe *out, ns_error *err)
{
    int mant = kind == NS_PROBE_DOUBLE ? DBL_MANT_DIG : LDBL_MANT_DIG;
    long double eps_type = kind == NS_PROBE_DOUBLE ? (long double)DBL_EPSILON : LDBL_EPSILON;
    int64_t limit = mant >= 63 ? NS_EXACT_MAX : ((int64_t)1 << mant);
    if (limit > NS_EXACT_MAX)
        limit = NS_EXACT_MAX;
    if (nmax < 1 || nmax > limit)
        return ns_error_set(err, NS_ERANGE, "phi probe: n up to %" PRId64 " is outside 1..%" PRId64 " for this floating type", nmax, limit);
    out->kind = kind;
    out->found = 0;
    out->n = out->exact = out->computed = 0;
    out->searched_to = 0;
    out->candidates = 0;
    out->mantissa_bits = mant;
    /* Worst case |fl(n * fl(phi)) - n phi| <= n * C: fl(phi) is within one
     * unit of the type's epsilon of phi (relative), the product adds half an
     * ulp. C = 2 eps (1 + phi) leaves a margin of 4. A differing n must have
     * n phi within n C of an integer. */
    long double C = 2.0L * eps_type * (1.0L + phi_long_double());
    const uint64_t budget = 400000000u; /* steps of the enumeration */
    uint64_t used = 0;
    for (int64_t lo = 1; lo <= nmax; lo *= 2) {
        int64_t hi = lo > nmax / 2 ? nmax + 1 : 2 * lo;
        long double e = C * (long double)hi;
        if (e >= 0.25L) {
            /* the error may reach a quarter unit: every n is a candidate;
             * fall back to a scan (only for tiny mantissas, never here) */
            return ns_error_set(err, NS_EINTERNAL, "phi probe: rounding bound %Lg too large at n=%" PRId64, e, hi);
        }
        probe_ctx c = {kind, lo, -1, 0};
        for (int s = -1; s <= 1; s += 2) {
            int64_t st = ns_phi_small_frac(s, (double)e, hi, probe_visit, &c, err);
            if (st < 0)
                return err ? err->code : NS_EINTERNAL;
            used += (uint64_t)st;
        }
        out->candidates += c.evaluated;
        if (c.best >= 0) {
            out->found = 1;
            out->n = c.best;
            out->exact = ns_floor_phi(c.best);
            out->computed = kind == NS_PROBE_DOUBLE ? ns_floor_phi_double(c.best) : ns_floor_phi_long_double(c.best);
            out->searched_to = c.best;
            return NS_OK;
        }
        out->searched_to = hi - 1;
        if (used > budget)
            break;
        if (lo > nmax / 2)
            break;
    }
    return NS_OK;
}
