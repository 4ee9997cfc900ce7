/* wythoff_check.c - see wythoff_check.h. */
#include "wythoff_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

__extension__ typedef unsigned __int128 u128;

uint64_t ns_wy_isqrt(uint64_t x)
{
    /* binary search for the largest r with r*r <= x */
    uint64_t lo = 0, hi = (uint64_t)1 << 32;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((u128)mid * mid <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int64_t ns_wy_a(int64_t n)
{
    /* floor((n + n sqrt5) / 2) = floor((n + floor(sqrt(5 n^2))) / 2) */
    u128 sq = (u128)5 * (u128)n * (u128)n;
    return (int64_t)(((uint64_t)n + ns_wy_isqrt((uint64_t)sq)) / 2);
}

uint64_t ns_wy_check_table(const ns_table *t, uint64_t *np)
{
    int64_t n0 = t->bounds[0], n1 = t->bounds[1];
    /* partner[x] = the y with (x, y) a P-position, or -1 when it lies
     * outside the box (each x has exactly one partner). */
    int64_t *partner = malloc((size_t)n0 * sizeof *partner);
    if (!partner)
        return 1;
    for (int64_t x = 0; x < n0; x++)
        partner[x] = -1;
    for (int64_t n = 0;; n++) {
        int64_t a = ns_wy_a(n), b = a + n;
        if (a >= n0 && a >= n1)
            break;
        if (a < n0 && b < n1)
            partner[a] = b;
        if (b < n0 && a < n1)
            partner[b] = a;
    }
    uint64_t bad = 0, count = 0;
    for (int64_t x = 0; x < n0; x++) {
        uint64_t row = (uint64_t)x * (uint64_t)n1;
        for (int64_t y = 0; y < n1; y++) {
            int isp = ns_table_pn(t, row + (uint64_t)y) == NS_PN_P;
            count += (uint64_t)isp;
            if (isp != (partner[x] == y) && bad++ < 5)
                fprintf(stderr, "wythoff (%" PRId64 ", %" PRId64 "): table says %s, formula says %s\n",
                        x, y, isp ? "P" : "N", isp ? "N" : "P");
        }
    }
    free(partner);
    if (np)
        *np = count;
    return bad;
}
