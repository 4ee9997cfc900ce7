/* test_wythoff_slow.c - Wythoff's P-positions up to N = 65536: a P/N solve
 * of the full 65536 x 65536 box (4 GiB of cells) against the exact closed
 * form (a_n, b_n), a_n = (n + isqrt(5 n^2)) / 2, b_n = a_n + n. Label slow:
 * left out of the sanitizer run. */
#include "testutil.h"
#include "tsolve.h"
#include "wythoff_check.h"

int main(void)
{
    const int64_t size = 65536;
    int64_t b[2] = {size, size};
    ns_table *t = ns_tsolve("wythoff", "", 2, b, 0, 1, 0);
    CHECK(t != NULL);
    if (t) {
        uint64_t np = 0, expect = 1;
        CHECK(ns_wy_check_table(t, &np) == 0);
        for (int64_t n = 1; ns_wy_a(n) + n < size; n++)
            expect += 2;
        CHECKF(np == expect, "%llu P-positions, expected %llu", (unsigned long long)np, (unsigned long long)expect);
        ns_table_free(t);
    }
    return TEST_REPORT();
}
