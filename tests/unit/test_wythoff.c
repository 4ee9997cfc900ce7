/* test_wythoff.c - Wythoff's game against exact closed forms and OEIS.
 *
 * (1) The P-positions of a P/N solve are exactly (a_n, b_n) and (b_n, a_n)
 *     with a_n = floor(n phi) = (n + isqrt(5 n^2)) / 2 and b_n = a_n + n,
 *     in exact integer arithmetic. This test uses a 16384 x 16384 box (8192
 *     x 8192 under the sanitizers); test_wythoff_slow does 65536 x 65536.
 * (2) The lower triangle G(n, k), k <= n, read by rows is OEIS A317205, and
 *     the whole 64 x 64 Grundy table equals the naive solver's. */
#include <stdlib.h>

#include "naive.h"
#include "testutil.h"
#include "tsolve.h"
#include "wythoff_check.h"

#if defined(__SANITIZE_ADDRESS__)
#define PN_SIZE 8192
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PN_SIZE 8192
#endif
#endif
#ifndef PN_SIZE
#define PN_SIZE 16384
#endif

/* A317205: Wythoff's Grundy values G(n, k), 0 <= k <= n, by rows. */
static const uint32_t a317205[36] = {
    0,
    1, 2,
    2, 0, 1,
    3, 4, 5, 6,
    4, 5, 3, 2, 7,
    5, 3, 4, 0, 6, 8,
    6, 7, 8, 1, 9, 10, 3,
    7, 8, 6, 9, 0, 1, 4, 5,
};

/* The closed form itself: exact isqrt, a_n against A000201, and against
 * the greedy definition a_n = mex {a_i, b_i : i < n} up to n = 65536. */
static void check_formula(void)
{
    static const int64_t a000201[20] = {0, 1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24, 25, 27, 29, 30};
    for (int n = 0; n < 20; n++)
        CHECKF(ns_wy_a(n) == a000201[n], "a_%d = %lld", n, (long long)ns_wy_a(n));
    for (uint64_t r = 0; r < 5000; r++) {
        CHECK(ns_wy_isqrt(r * r) == r);
        if (r)
            CHECK(ns_wy_isqrt(r * r - 1) == r - 1);
    }
    const uint64_t big = 4294967295u; /* 2^32 - 1 */
    CHECK(ns_wy_isqrt(big * big) == big);
    CHECK(ns_wy_isqrt(big * big - 1) == big - 1);
    CHECK(ns_wy_isqrt(UINT64_MAX) == big);

    const int64_t nmax = 65536;
    uint8_t *used = calloc((size_t)(3 * nmax), 1);
    CHECK(used != NULL);
    if (!used)
        return;
    int64_t mex = 0, bad = 0;
    for (int64_t n = 0; n <= nmax; n++) {
        while (used[mex])
            mex++;
        int64_t a = ns_wy_a(n), b = a + n;
        if ((a != mex || b != mex + n) && bad++ < 3)
            fprintf(stderr, "a_%lld = %lld, greedy mex %lld\n", (long long)n, (long long)a, (long long)mex);
        used[mex] = 1;
        used[mex + n] = 1;
    }
    CHECKF(bad == 0, "%lld values of a_n differ from the greedy definition", (long long)bad);
    free(used);
}

static void check_pn_box(int64_t size)
{
    int64_t b[2] = {size, size};
    ns_table *t = ns_tsolve("wythoff", "", 2, b, 0, 1, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    uint64_t np = 0;
    CHECKF(ns_wy_check_table(t, &np) == 0, "P-positions of %lld x %lld", (long long)size, (long long)size);
    /* (0,0) and two cells per n >= 1 with b_n < size */
    uint64_t expect = 1;
    for (int64_t n = 1; ns_wy_a(n) + n < size; n++)
        expect += 2;
    CHECKF(np == expect, "%llu P-positions, expected %llu", (unsigned long long)np, (unsigned long long)expect);
    ns_table_free(t);
}

static void check_grundy_small(void)
{
    int64_t b[2] = {64, 64};
    ns_table *t = ns_tsolve("wythoff", "", 2, b, 0, 0, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    int i = 0;
    for (int64_t n = 0; n < 8; n++)
        for (int64_t k = 0; k <= n; k++, i++) {
            uint32_t v = ns_table_get(t, (uint64_t)(n * 64 + k));
            CHECKF(v == a317205[i], "G(%lld, %lld) = %u, A317205 says %u", (long long)n, (long long)k, v, a317205[i]);
        }
    ns_ref_game ref = {.kind = NS_REF_WYTHOFF, .k = 2};
    uint32_t *r = ns_ref_solve(&ref, b, 0);
    CHECK(r != NULL);
    if (r)
        CHECK(ns_ref_compare("wythoff 64x64", t, r) == 0);
    /* the Grundy table's zeros are the same P-positions */
    CHECK(ns_wy_check_table(t, NULL) == 0);
    free(r);
    ns_table_free(t);
}

int main(void)
{
    check_formula();
    check_grundy_small();
    check_pn_box(1);
    check_pn_box(2);
    check_pn_box(100);
    check_pn_box(PN_SIZE);
    return TEST_REPORT();
}
