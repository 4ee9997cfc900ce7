/* test_exact_slow.c - the book's double-precision formula floor(n * a),
 * a = (1 + sqrt(5.0)) / 2, scanned for every n up to F_40 = 102334155:
 * it agrees with the exact floor(n phi) = (n + isqrt(5 n^2)) / 2 for every
 * n < F_40 and fails at F_40 (what `nimsieve check wythoff-golden` reports
 * from its three-gap search). */
#include <inttypes.h>

#include "analysis/ns_exact.h"
#include "testutil.h"

int main(void)
{
    int64_t first = -1;
    for (int64_t n = 1; n <= 102334155; n++)
        if (ns_floor_phi_double(n) != ns_floor_phi(n)) {
            first = n;
            break;
        }
    CHECKF(first == 102334155, "first failure at %" PRId64, first);
    return TEST_REPORT();
}
