/* wythoff_check.h - Wythoff's P-positions by exact integer arithmetic, and a
 * check of a P/N table against them (shared by test_wythoff and
 * test_wythoff_slow). */
#ifndef NS_TEST_WYTHOFF_CHECK_H
#define NS_TEST_WYTHOFF_CHECK_H

#include <stdint.h>

#include "game/ns_table.h"

/* floor(sqrt(x)), exact. */
uint64_t ns_wy_isqrt(uint64_t x);

/* a_n = floor(n * phi) = (n + isqrt(5 n^2)) / 2, computed with 128-bit
 * intermediates; b_n = a_n + n = floor(n * phi^2). */
int64_t ns_wy_a(int64_t n);

/* Check that the P-cells of a 2-D P/N or Grundy table of Wythoff's game are
 * exactly {(a_n, b_n), (b_n, a_n)} inside the box. Prints up to 5
 * mismatches to stderr; returns the number of wrong cells (or 1 when out
 * of memory). *np receives the number of P-positions found. */
uint64_t ns_wy_check_table(const ns_table *t, uint64_t *np);

#endif
