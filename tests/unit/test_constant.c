/* test_constant.c - constants recognised from the exact interval the data
 * imply (ns_constant.h), against sources independent of the recogniser:
 *   a-Wythoff a = 1..5 (Fraenkel): the constant of a_n is exactly
 *     (2 - a + sqrt(a^2 + 4)) / 2, compared as (p, q, d, r) with the
 *     reduced form computed here; Wythoff's b_n: (3 + sqrt(5)) / 2;
 *   whatever constant c is named, a_n = floor(n c) holds for every n of the
 *     data, evaluated here in exact integers (floor((n p + isqrt(n^2 q^2 d))
 *     / r)), so c lies in the interval the data imply;
 *   random intervals: a named constant lies in the interval, by an exact
 *     comparison written here;
 *   the old failure: a = 3's interval [142/109, 43/33) does not give the
 *     excluded end 43/33 but (-1 + sqrt(13)) / 2;
 *   Beatty sequences of cube roots (floor(n 2^(1/3)) = icbrt(2 n^3), exact)
 *     and pi: no simple constant found;
 *   a rational slope 3/2 is reported as the rational it is. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_constant.h"
#include "analysis/ns_patterns.h"
#include "testutil.h"
#include "tsolve.h"

__extension__ typedef __int128 i128;

static int64_t isqrt_t(i128 n) /* floor(sqrt(n)), by bisection */
{
    int64_t lo = 0, hi = (int64_t)3037000499;
    while ((i128)hi * hi <= n)
        hi *= 2;
    while (lo < hi) {
        int64_t m = lo + (hi - lo + 1) / 2;
        if ((i128)m * m <= n)
            lo = m;
        else
            hi = m - 1;
    }
    return lo;
}

static int64_t gcd_t(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* floor(n (p + q sqrt(d)) / r), r > 0, exactly */
static int64_t floor_nc(int64_t n, int64_t p, int64_t q, int64_t d, int64_t r)
{
    i128 m = (i128)n * p, s = (i128)n * q;
    i128 root = isqrt_t(s * s * d); /* floor(|n q| sqrt(d)) */
    i128 num;
    if (s >= 0)
        num = m + root;
    else /* -|s| sqrt(d): floor is -root - 1 unless |s| sqrt(d) is an integer */
        num = m - root - (root * root == s * s * d ? 0 : 1);
    i128 f = num / r;
    if (num % r != 0 && num < 0)
        f--;
    return (int64_t)f;
}

/* the constant of v_n (n = 1..len) is c: v_n = floor(n c) for every n */
static int64_t beatty_failures(const int64_t *v, int64_t len, const ns_qnumber *c)
{
    int64_t bad = 0;
    for (int64_t n = 1; n <= len; n++)
        bad += floor_nc(n, c->p, c->q, c->d, c->r) != v[n - 1];
    return bad;
}

/* (P + Q sqrt(D)) / R reduced: D squarefree, gcd 1 */
static void reduce(int64_t P, int64_t Q, int64_t D, int64_t R, int64_t out[4])
{
    for (int64_t k = 2; k * k <= D; k++)
        while (D % (k * k) == 0) {
            D /= k * k;
            Q *= k;
        }
    int64_t g = gcd_t(gcd_t(P, Q), R);
    out[0] = P / g;
    out[1] = Q / g;
    out[2] = D;
    out[3] = R / g;
}

static void test_awythoff(void)
{
    const int64_t b[2] = {2048, 2048};
    for (int64_t a = 1; a <= 5; a++) {
        char params[32];
        snprintf(params, sizeof params, "a=%" PRId64, a);
        ns_table *t = ns_tsolve("a-wythoff", params, 2, b, 0, 1, 0);
        ns_pseq s;
        CHECK(t && ns_patterns_pseq(t, &s, NULL) == NS_OK && s.ok && s.beatty_a);
        if (!t || !s.ok) {
            ns_table_free(t);
            continue;
        }
        int64_t want[4];
        reduce(2 - a, 1, a * a + 4, 2, want);
        const ns_qnumber *c = &s.rec_a.c;
        CHECKF(s.rec_a.kind == NS_RECOG_QUADRATIC && c->p == want[0] && c->q == want[1] && c->d == want[2] &&
                   c->r == want[3],
               "a = %" PRId64 ": got '%s' (%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "), want (%" PRId64 " + %" PRId64
               " sqrt(%" PRId64 ")) / %" PRId64,
               a, c->text, c->p, c->q, c->d, c->r, want[0], want[1], want[2], want[3]);
        /* the named constants agree with every pair of the data */
        if (s.rec_a.kind)
            CHECKF(beatty_failures(s.a, s.n, c) == 0, "a = %" PRId64 ": %s is not the constant of a_n", a, c->text);
        if (s.rec_b.kind)
            CHECKF(beatty_failures(s.b, s.n, &s.rec_b.c) == 0, "a = %" PRId64 ": %s is not the constant of b_n", a,
                   s.rec_b.c.text);
        ns_pseq_free(&s);
        ns_table_free(t);
    }
    /* Wythoff: phi and phi^2 = (3 + sqrt(5)) / 2 */
    ns_table *t = ns_tsolve("wythoff", "", 2, b, 0, 1, 0);
    ns_pseq s;
    CHECK(t && ns_patterns_pseq(t, &s, NULL) == NS_OK && s.ok);
    if (t && s.ok) {
        const ns_qnumber *ca = &s.rec_a.c, *cb = &s.rec_b.c;
        CHECK(s.rec_a.kind == NS_RECOG_QUADRATIC && ca->p == 1 && ca->q == 1 && ca->d == 5 && ca->r == 2);
        CHECK(s.rec_b.kind == NS_RECOG_QUADRATIC && cb->p == 3 && cb->q == 1 && cb->d == 5 && cb->r == 2);
        CHECK(ca->height == 1 && ca->poly[0] == 1 && ca->poly[1] == -1 && ca->poly[2] == -1);
        CHECK(beatty_failures(s.a, s.n, ca) == 0 && beatty_failures(s.b, s.n, cb) == 0);
        /* the line's slope comes from a fit, not an interval; phi is named */
        CHECKF(s.rec_line.kind == NS_RECOG_QUADRATIC && strcmp(s.rec_line.c.text, "(1+sqrt(5))/2") == 0, "line: '%s'",
               s.rec_line.c.text);
        ns_pseq_free(&s);
    }
    ns_table_free(t);
}

/* sign of (p + q sqrt(d)) / r - u / v, by the test's own route: compare
 * floor-free with squares of exact integers */
static int sign_diff(const ns_qnumber *c, int64_t u, int64_t v)
{
    /* (v p - u r) + v q sqrt(d) */
    i128 x = (i128)v * c->p - (i128)u * c->r, y = (i128)v * c->q;
    if (y == 0)
        return (x > 0) - (x < 0);
    i128 y2d = y * y * c->d, x2 = x * x;
    if (y > 0)
        return x >= 0 ? 1 : (y2d > x2 ? 1 : -1);
    return x <= 0 ? -1 : (x2 > y2d ? 1 : -1);
}

static void test_random_intervals(void)
{
    int named = 0;
    for (int i = 0; i < 300; i++) {
        int64_t v1 = 1 + (int64_t)(ns_test_rng() % 5000), v2 = 1 + (int64_t)(ns_test_rng() % 5000);
        int64_t u1 = (int64_t)(ns_test_rng() % (uint64_t)(8 * v1)) - v1;
        int64_t width = 1 + (int64_t)(ns_test_rng() % 40);
        /* hi = u1/v1 + width / (v1 v2 ... ) kept as a fraction u2/v2' */
        int64_t u2 = u1 * v2 + width, d2 = v1 * v2;
        ns_qinterval iv = {u1, v1, u2, d2, (int)(ns_test_rng() & 1), (int)(ns_test_rng() & 1)};
        ns_recog r;
        ns_constant_recognize(&iv, &r);
        if (r.kind == NS_RECOG_NONE)
            continue;
        named++;
        int lo = sign_diff(&r.c, iv.lo_num, iv.lo_den), hi = sign_diff(&r.c, iv.hi_num, iv.hi_den);
        CHECKF((lo > 0 || (lo == 0 && !iv.lo_open)) && (hi < 0 || (hi == 0 && !iv.hi_open)),
               "%s named for [%" PRId64 "/%" PRId64 ", %" PRId64 "/%" PRId64 "] (open %d %d) lies outside", r.c.text,
               iv.lo_num, iv.lo_den, iv.hi_num, iv.hi_den, iv.lo_open, iv.hi_open);
        CHECK(r.chance <= NS_CONSTANT_CHANCE);
    }
    CHECKF(named >= 10, "only %d of 300 random intervals named a constant", named);
}

static void test_excluded_end(void)
{
    /* a-Wythoff a = 3 at 512^2: a_n = floor(n c) exactly for c in
     * [142/109, 43/33); 43/33 itself gives a_33 = 43, the data say 42 */
    ns_qinterval iv = {142, 109, 43, 33, 0, 1};
    ns_recog r;
    ns_constant_recognize(&iv, &r);
    CHECKF(r.kind == NS_RECOG_QUADRATIC && r.c.p == -1 && r.c.q == 1 && r.c.d == 13 && r.c.r == 2, "got '%s'", r.c.text);
    CHECK(r.pre == 1 && r.per == 1 && r.ccf[0] == 1 && r.ccf[1] == 3);
    /* the ends' continued fractions: 142/109 = [1; 3, 3, 3, 3], 43/33 = [1; 3, 3, 3] */
    CHECK(r.ncf_lo == 5 && r.cf_lo[4] == 3 && r.ncf_hi == 4 && r.cf_hi[3] == 3);
    /* closed at 43/33 and narrow around it: the rational is what the data hold */
    ns_qinterval at = {(int64_t)43 * 1000000000 - 1, (int64_t)33 * 1000000000, 43, 33, 0, 0};
    ns_constant_recognize(&at, &r);
    CHECKF(r.kind == NS_RECOG_RATIONAL && r.c.p == 43 && r.c.r == 33, "got '%s'", r.c.text);
}

static int64_t icbrt(i128 n) /* floor(cbrt(n)), n >= 0 */
{
    int64_t lo = 0, hi = 1;
    while ((i128)hi * hi * hi <= n)
        hi *= 2;
    while (lo < hi) {
        int64_t m = lo + (hi - lo + 1) / 2;
        if ((i128)m * m * m <= n)
            lo = m;
        else
            hi = m - 1;
    }
    return lo;
}

static void test_no_constant(void)
{
    const int64_t lens[] = {50, 300, 3000, 100000};
    for (int k = 2; k <= 3; k++)
        for (size_t j = 0; j < sizeof lens / sizeof lens[0]; j++) {
            int64_t len = lens[j];
            int64_t ln = 0, ld = 1, hn = 0, hd = 0;
            for (int64_t n = 1; n <= len; n++) {
                int64_t a = icbrt((i128)k * n * n * n); /* floor(n k^(1/3)) */
                if ((i128)a * ld > (i128)ln * n) {
                    ln = a;
                    ld = n;
                }
                if (hd == 0 || (i128)(a + 1) * hd < (i128)hn * n) {
                    hn = a + 1;
                    hd = n;
                }
            }
            ns_qinterval iv = {ln, ld, hn, hd, 0, 1};
            ns_recog r;
            ns_constant_recognize(&iv, &r);
            CHECKF(r.kind == NS_RECOG_NONE, "cbrt(%d), %" PRId64 " terms: named '%s'", k, len, r.c.text);
        }
    ns_recog r;
    ns_constant_recognize_fit(3.14159265358979, 1e-12, &r);
    CHECKF(r.kind == NS_RECOG_NONE && r.nterms >= 4 && r.cf[0] == 3 && r.cf[1] == 7 && r.cf[2] == 15, "pi: '%s'",
           r.c.text);
}

static void test_rational(void)
{
    /* a_n = floor(3n/2), n = 1..2000: c in [3/2, 3/2 + 1/2000) */
    static int64_t v[2000];
    for (int64_t n = 1; n <= 2000; n++)
        v[n - 1] = 3 * n / 2;
    ns_qinterval iv = {3, 2, 3 * 2000 + 2, 2 * 2000, 0, 1};
    ns_recog r;
    ns_constant_recognize(&iv, &r);
    CHECKF(r.kind == NS_RECOG_RATIONAL && r.c.p == 3 && r.c.q == 0 && r.c.r == 2, "got '%s'", r.c.text);
    if (r.kind)
        CHECK(beatty_failures(v, 2000, &r.c) == 0);
    /* with 200 terms, [3/2, 3/2 + 1/200) is too wide to single 3/2 out */
    ns_qinterval wide = {3, 2, 3 * 200 + 2, 2 * 200, 0, 1};
    ns_constant_recognize(&wide, &r);
    CHECKF(r.kind == NS_RECOG_NONE && r.have_simplest && strcmp(r.simplest.text, "3/2") == 0, "wide: '%s' '%s'", r.c.text,
           r.simplest.text);
    ns_constant_recognize_fit(2.0, 0, &r);
    CHECK(r.kind == NS_RECOG_RATIONAL && strcmp(r.c.text, "2") == 0);
    ns_constant_recognize_fit(1 + sqrt(2.0), 1e-9, &r);
    CHECKF(r.kind == NS_RECOG_QUADRATIC && strcmp(r.c.text, "1+sqrt(2)") == 0, "1+sqrt2 -> '%s'", r.c.text);
    ns_constant_recognize_fit(sqrt(3.0), 1e-9, &r); /* [1; (1, 2)] */
    CHECKF(r.kind == NS_RECOG_QUADRATIC && strcmp(r.c.text, "sqrt(3)") == 0 && r.pre == 1 && r.per == 2, "sqrt3 -> '%s'",
           r.c.text);
}

int main(void)
{
    test_awythoff();
    test_random_intervals();
    test_excluded_end();
    test_no_constant();
    test_rational();
    return TEST_REPORT();
}
