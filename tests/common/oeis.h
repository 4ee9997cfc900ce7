/* oeis.h - terms of OEIS sequences the tests compare with, from n = 0
 * (data from oeis.org): Kayles 0.77 (A002186), Dawson's chess 0.137
 * (A002187; Dawson's Kayles 0.07 has the values a(n-1)), Grundy's game
 * (A002188). */
#ifndef NS_TEST_OEIS_H
#define NS_TEST_OEIS_H

#include <stdint.h>

extern const int ns_oeis_a002186[], ns_oeis_a002187[], ns_oeis_a002188[];
extern const int64_t ns_oeis_a002186_n, ns_oeis_a002187_n, ns_oeis_a002188_n;

#endif
