/* test_fibnim.c - Fibonacci Nim: the starting positions (n, n - 1),
 * 1 <= n <= 2000, that are P are exactly the Fibonacci numbers (the
 * preset's prefix family makes the solve O(N^2); it was O(N^3) and labelled
 * slow). test_closed_forms checks the same up to 600. */
#include <inttypes.h>

#include "testutil.h"
#include "tsolve.h"

enum { NMAX = 2000 };

int main(void)
{
    int64_t b[2] = {NMAX + 1, NMAX + 1};
    ns_table *t = ns_tsolve("fibonacci-nim", "", 2, b, 0, 1, 0);
    CHECK(t != NULL);
    if (!t)
        return TEST_REPORT();
    static uint8_t fib[NMAX + 1];
    for (int64_t x = 1, y = 2; x <= NMAX; y = x + y, x = y - x)
        fib[x] = 1;
    int bad = 0, count = 0;
    for (int64_t n = 1; n <= NMAX; n++) {
        int64_t s[NS_MAX_DIM] = {n, n - 1};
        int isp = ns_table_pn(t, ns_table_index(t, s)) == NS_PN_P;
        count += isp;
        if (isp != fib[n] && bad++ < 5)
            fprintf(stderr, "fibonacci-nim start %" PRId64 ": %s, expected %s\n", n, isp ? "P" : "N",
                    fib[n] ? "P" : "N");
    }
    CHECK(bad == 0);
    CHECK(count == 16); /* 1 2 3 5 ... 987 1597 */
    ns_table_free(t);
    return TEST_REPORT();
}
