/* test_exact.c - exact arithmetic against independent sources:
 *   isqrt against its definition r^2 <= n < (r+1)^2 at the edges of 128 bits;
 *   floor(n phi) against the seed's mex definition of the unsafe positions
 *     (a_n = smallest unused, b_n = a_n + n), OEIS A000201 / A001950, the
 *     Zeckendorf-shift formula (a second exact route) and decimal digits of
 *     phi for n = 10^17, 10^18;
 *   a-Wythoff floors against the mex definition B_n = A_n + a n and OEIS
 *     A001951 (floor(n sqrt 2));
 *   Fibonacci numbers, Zeckendorf representations;
 *   the three-gap enumeration against a brute-force scan;
 *   the book's double formula: first failure at n = F_40 = 102334155, where
 *     floor(F_40 phi) = F_41 - 1 (F_k phi = F_{k+1} - psi^k, k even). */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_exact.h"
#include "testutil.h"

static void test_isqrt(void)
{
    CHECK(ns_isqrt128(0) == 0);
    CHECK(ns_isqrt128(1) == 1);
    CHECK(ns_isqrt128(3) == 1);
    CHECK(ns_isqrt128(4) == 2);
    ns_u128 max = ~(ns_u128)0;
    CHECK(ns_isqrt128(max) == UINT64_MAX);
    ns_u128 sq = (ns_u128)UINT64_MAX * UINT64_MAX;
    CHECK(ns_isqrt128(sq) == UINT64_MAX);
    CHECK(ns_isqrt128(sq - 1) == UINT64_MAX - 1);
    uint64_t x = 88172645463325252ull;
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t r = x >> (i % 64);
        ns_u128 n = (ns_u128)r * r;
        if (ns_isqrt128(n) != r || (r > 0 && ns_isqrt128(n - 1) != r - 1) ||
            (r < UINT64_MAX && ns_isqrt128(n + 2 * (ns_u128)r) != r))
            bad++;
    }
    CHECKF(bad == 0, "%d isqrt failures", bad);
}

static void test_phi(void)
{
    /* the seed's definition */
    const int64_t N = 200000;
    char *used = calloc((size_t)(3 * N), 1);
    int64_t *a = malloc((size_t)N * sizeof *a);
    CHECK(used && a);
    if (!used || !a)
        return;
    int64_t m = 1, bad = 0, badz = 0, badi = 0;
    for (int64_t n = 1; n < N; n++) {
        while (used[m])
            m++;
        a[n] = m;
        used[m] = used[m + n] = 1;
        if (ns_floor_phi(n) != m || ns_floor_phi2(n) != m + n)
            bad++;
        if (ns_floor_phi_zeckendorf(n) != m)
            badz++;
        int64_t idx;
        if (ns_wythoff_index(m, &idx) != 1 || idx != n || ns_wythoff_index(m + n, &idx) != 2 || idx != n ||
            ns_wythoff_partner(m) != m + n || ns_wythoff_partner(m + n) != m)
            badi++;
    }
    CHECKF(bad == 0, "floor(n phi) differs from the mex definition at %" PRId64 " n", bad);
    CHECKF(badz == 0, "Zeckendorf route differs at %" PRId64 " n", badz);
    CHECKF(badi == 0, "index/partner wrong at %" PRId64 " n", badi);
    /* P-positions against the mex pairs, including mirror images */
    int64_t badp = 0;
    for (int64_t x = 0; x < 400; x++)
        for (int64_t y = 0; y < 400; y++) {
            int p = (x == 0 && y == 0);
            for (int64_t n = 1; n < 400 && !p; n++)
                p = (x == a[n] && y == a[n] + n) || (y == a[n] && x == a[n] + n);
            if (ns_wythoff_is_p(x, y) != p)
                badp++;
        }
    CHECKF(badp == 0, "ns_wythoff_is_p wrong at %" PRId64 " cells", badp);
    free(used);
    free(a);

    static const int64_t A000201[] = {1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24, 25, 27, 29, 30, 32, 33, 35, 37, 38, 40};
    static const int64_t A001950[] = {2, 5, 7, 10, 13, 15, 18, 20, 23, 26, 28, 31, 34, 36, 39, 41, 44, 47, 49, 52, 54, 57, 60, 62, 65};
    for (int i = 0; i < 25; i++) {
        CHECK(ns_floor_phi(i + 1) == A000201[i]);
        CHECK(ns_floor_phi2(i + 1) == A001950[i]);
    }
    /* phi = 1.6180339887498948482045868343656... */
    CHECK(ns_floor_phi(100000000000000000) == 161803398874989484);
    CHECK(ns_floor_phi(1000000000000000000) == 1618033988749894848);
    CHECK(ns_floor_phi2(1000000000000000000) == 2618033988749894848);
    CHECK(ns_floor_div_phi(1000000000000000000) == 618033988749894848);
    CHECK(ns_floor_phi(-1) == -1);
    CHECK(ns_floor_phi(NS_EXACT_MAX + 1) == -1);
    CHECK(ns_wythoff_is_p(1618033988749894848, 2618033988749894848));
    CHECK(!ns_wythoff_is_p(1618033988749894848, 2618033988749894849));
    CHECK(ns_wythoff_partner(0) == 0);
    /* large n: two exact routes agree */
    uint64_t x = 0x9E3779B97F4A7C15ull;
    int64_t bad2 = 0;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t n = (int64_t)(x % 1000000000000000001ull);
        if (ns_floor_phi(n) != ns_floor_phi_zeckendorf(n))
            bad2++;
        int64_t v = ns_floor_phi(n), idx;
        if (n > 0 && (ns_wythoff_index(v, &idx) != 1 || idx != n || ns_wythoff_partner(v) != v + n))
            bad2++;
    }
    CHECKF(bad2 == 0, "%" PRId64 " large-n disagreements", bad2);
}

static void test_awythoff(void)
{
    static const int64_t A001951[] = {1, 2, 4, 5, 7, 8, 9, 11, 12, 14, 15, 16, 18, 19, 21, 22, 24, 25, 26, 28};
    for (int i = 0; i < 20; i++) {
        int64_t f = -1;
        CHECK(ns_awythoff_floor(2, i + 1, &f, NULL) == NS_OK && f == A001951[i]);
    }
    for (int64_t a = 1; a <= 6; a++) {
        const int64_t N = 30000;
        char *used = calloc((size_t)(N * (a + 2) + 10), 1);
        int64_t m = 1, bad = 0;
        for (int64_t n = 1; n < N; n++) {
            while (used[m])
                m++;
            used[m] = used[m + a * n] = 1;
            int64_t f = -1;
            if (ns_awythoff_floor(a, n, &f, NULL) || f != m)
                bad++;
        }
        CHECKF(bad == 0, "a=%" PRId64 ": %" PRId64 " floors differ from the mex definition", a, bad);
        free(used);
    }
    int64_t f;
    ns_error e = {0};
    CHECK(ns_awythoff_floor(1, 1000000000000000000, &f, NULL) == NS_OK && f == 1618033988749894848);
    CHECK(ns_awythoff_floor(0, 5, &f, &e) == NS_ERANGE);
    CHECK(ns_awythoff_floor(1 << 20, (int64_t)1 << 50, &f, &e) == NS_ERANGE);
}

static void test_fib(void)
{
    CHECK(ns_fib(0) == 0 && ns_fib(1) == 1 && ns_fib(2) == 1 && ns_fib(10) == 55);
    CHECK(ns_fib(40) == 102334155 && ns_fib(41) == 165580141 && ns_fib(48) == 4807526976);
    CHECK(ns_fib(92) == 7540113804746346429);
    CHECK(ns_fib(93) == -1 && ns_fib(-1) == -1);
    CHECK(ns_is_fib(1) && ns_is_fib(2) && ns_is_fib(3) && !ns_is_fib(4) && ns_is_fib(5) && !ns_is_fib(0));
    CHECK(ns_is_fib(7540113804746346429) && !ns_is_fib(7540113804746346428));
    int idx[64];
    int m = ns_zeckendorf(100, idx, 64); /* 100 = 89 + 8 + 3 */
    CHECK(m == 3 && idx[0] == 11 && idx[1] == 6 && idx[2] == 4);
    CHECK(ns_zeckendorf(0, idx, 64) == 0);
    CHECK(ns_zeckendorf(-3, idx, 64) == -1);
    CHECK(ns_zeckendorf(100, idx, 2) == -1);
    CHECK(ns_zeckendorf_smallest(100) == 3);
    CHECK(ns_zeckendorf_smallest(20) == 2); /* 13 + 5 + 2 */
    CHECK(ns_zeckendorf_smallest(13) == 13);
    /* every n < 10^5: terms non-consecutive, sum n */
    int bad = 0;
    for (int64_t n = 1; n < 100000; n++) {
        m = ns_zeckendorf(n, idx, 64);
        int64_t s = 0;
        for (int i = 0; i < m; i++) {
            s += ns_fib(idx[i]);
            if (idx[i] < 2 || (i > 0 && idx[i - 1] - idx[i] < 2))
                bad++;
        }
        if (s != n)
            bad++;
    }
    CHECKF(bad == 0, "%d bad Zeckendorf representations", bad);
}

typedef struct list {
    int64_t n, v[100000];
} list;

static int collect(void *user, int64_t n)
{
    list *l = user;
    if (l->n < 100000)
        l->v[l->n] = n;
    l->n++;
    return 0;
}

static void test_three_gap(void)
{
    static list got;
    const double eps[] = {0.05, 1e-3, 2.5e-4, 3e-5};
    const int64_t hi = 300000;
    for (int e = 0; e < 4; e++)
        for (int s = -1; s <= 1; s += 2) {
            got.n = 0;
            ns_error err = {0};
            int64_t steps = ns_phi_small_frac(s, eps[e], hi, collect, &got, &err);
            CHECKF(steps >= 0, "enumeration failed: %s", err.msg);
            int64_t k = 0, bad = 0;
            for (int64_t n = 1; n < hi; n++)
                if (ns_phi_frac(s, n) < eps[e]) {
                    if (k >= got.n || got.v[k] != n)
                        bad++;
                    k++;
                }
            CHECKF(bad == 0 && k == got.n, "eps=%g s=%d: %" PRId64 " of brute %" PRId64 " vs %" PRId64, eps[e], s, bad, k, got.n);
        }
    /* ns_phi_frac against plain long double for small n */
    int bad = 0;
    for (int64_t n = 1; n < 1000; n++) {
        long double ph = (1.0L + sqrtl(5.0L)) / 2.0L, v = (long double)n * ph;
        long double down = v - floorl(v), up = ceill(v) - v;
        if (fabsl(ns_phi_frac(1, n) - down) > 1e-15L || fabsl(ns_phi_frac(-1, n) - up) > 1e-15L)
            bad++;
    }
    CHECKF(bad == 0, "%d fractional parts differ", bad);
}

static void test_probe(void)
{
    ns_phi_probe r;
    ns_error e = {0};
    CHECK(ns_phi_probe_run(NS_PROBE_DOUBLE, 1000000000000000, &r, &e) == NS_OK);
    CHECK(r.found && r.n == 102334155);
    CHECK(r.exact == ns_fib(41) - 1 && r.computed == ns_fib(41));
    CHECK(ns_floor_phi_double(102334155) == 165580141);
    CHECK(ns_floor_phi(102334155) == 165580140);
    /* no failure below it in a window brute-forced here (the full scan is
     * in test_exact_slow) */
    int bad = 0;
    for (int64_t n = 1; n < 2000000; n++)
        bad += ns_floor_phi_double(n) != ns_floor_phi(n);
    CHECK(bad == 0);
    if (LDBL_MANT_DIG == 64) {
        CHECK(ns_phi_probe_run(NS_PROBE_LONG_DOUBLE, 1000000000000000000, &r, &e) == NS_OK);
        CHECK(r.found && r.n == ns_fib(48) && r.exact == ns_fib(49) - 1);
    }
    CHECK(ns_phi_probe_run(NS_PROBE_DOUBLE, ((int64_t)1 << 53) + 1, &r, &e) == NS_ERANGE);
    /* a probe that stops before the first failure finds nothing */
    CHECK(ns_phi_probe_run(NS_PROBE_DOUBLE, 102334154, &r, &e) == NS_OK && !r.found && r.searched_to == 102334154);
}

int main(void)
{
    test_isqrt();
    test_phi();
    test_awythoff();
    test_fib();
    test_three_gap();
    test_probe();
    return TEST_REPORT();
}
