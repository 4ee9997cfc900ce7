/* ns_intmath.h - small integer helpers shared by the kernels and the rule
 * compiler. */
#ifndef NS_INTMATH_H
#define NS_INTMATH_H

#include <stdint.h>

/* gcd(|a|, |b|); gcd(0, 0) = 0. Any int64 arguments: the result 2^63
 * (both INT64_MIN or one INT64_MIN and the other 0), which int64 cannot
 * hold, comes back as 0. */
static inline int64_t ns_gcd64(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
    uint64_t y = b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x > (uint64_t)INT64_MAX ? 0 : (int64_t)x;
}

#endif
