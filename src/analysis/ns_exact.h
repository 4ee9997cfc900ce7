/* ns_exact.h - exact integer arithmetic for the closed forms.
 *
 * Everything here is exact: 128-bit integer square roots, floor(n*phi) as
 * (n + isqrt(5 n^2)) / 2, the Wythoff (Beatty) pairs, Fibonacci numbers and
 * Zeckendorf representations, and Fraenkel's a-Wythoff floors floor(n*alpha)
 * with alpha = (2 - a + sqrt(a^2 + 4)) / 2. No floating point is involved,
 * except in the probe of the book's double-precision formula, which compares
 * a floating-point evaluation against the exact value.
 *
 * Range: arguments n with 0 <= n <= NS_EXACT_MAX (3 * 10^18), so that
 * floor(n*phi^2) still fits an int64_t. Functions that take a range-checked
 * argument say what they do outside it. */
#ifndef NS_EXACT_H
#define NS_EXACT_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

__extension__ typedef unsigned __int128 ns_u128;
__extension__ typedef __int128 ns_i128;

#define NS_EXACT_MAX ((int64_t)3000000000000000000)

/* floor(sqrt(n)) for any 128-bit n. */
uint64_t ns_isqrt128(ns_u128 n);

/* floor(n * phi), floor(n * phi^2) = floor(n*phi) + n and floor(n / phi) =
 * floor(n*phi) - n, phi = (1 + sqrt 5) / 2, for 0 <= n <= NS_EXACT_MAX
 * (returns -1 outside). */
int64_t ns_floor_phi(int64_t n);
int64_t ns_floor_phi2(int64_t n);
int64_t ns_floor_div_phi(int64_t n);

/* Wythoff's game. The P-positions are (0,0) and, for n >= 1, the pairs
 * (a_n, b_n) = (floor(n phi), floor(n phi^2)) and their mirror images.
 * ns_wythoff_is_p: 1 when (a, b) is a P-position, for 0 <= a, b <=
 * NS_EXACT_MAX (0 outside). */
int ns_wythoff_is_p(int64_t a, int64_t b);

/* Where v >= 1 lies in the Beatty partition of the positive integers:
 * returns 1 with *n such that v = a_n (lower sequence), 2 with v = b_n
 * (upper sequence); 0 for v = 0 (*n = 0); -1 when v is out of range. */
int ns_wythoff_index(int64_t v, int64_t *n);

/* The unique w with (v, w) a P-position: b_n for v = a_n, a_n for v = b_n,
 * 0 for v = 0; -1 when v is out of range. */
int64_t ns_wythoff_partner(int64_t v);

/* Fraenkel's a-Wythoff game (a >= 1): P-positions (A_n, B_n) with
 * A_n = floor(n alpha), B_n = A_n + a n = floor(n (alpha + a)),
 * alpha = (2 - a + sqrt(a^2 + 4)) / 2. Exact; fails with NS_ERANGE when
 * n^2 (a^2 + 4) does not fit 127 bits or the result does not fit int64. */
ns_err ns_awythoff_floor(int64_t a, int64_t n, int64_t *out, ns_error *err);

/* Fibonacci numbers F_0 = 0, F_1 = 1, ..., F_92 (the largest in int64);
 * -1 for i outside [0, NS_FIB_MAX]. */
#define NS_FIB_MAX 92
int64_t ns_fib(int i);

/* 1 when n >= 1 is a Fibonacci number. */
int ns_is_fib(int64_t n);

/* Zeckendorf representation of n >= 0: n = F_{k_1} + ... + F_{k_m} with
 * k_1 > k_2 + 1 > ... and k_m >= 2. Writes the indices (largest first) to
 * idx (room for max entries; 45 is always enough) and returns m, or -1 when
 * n < 0 or max is too small. */
int ns_zeckendorf(int64_t n, int *idx, int max);

/* The smallest term F_{k_m} of the Zeckendorf representation of n >= 1
 * (0 for n <= 0). In Fibonacci Nim this is the winning first move. */
int64_t ns_zeckendorf_smallest(int64_t n);

/* floor(n phi) by a second, independent route: the Zeckendorf shift
 * sum F_{k_i + 1} minus 1 when the smallest index k_m is even. For
 * 0 <= n <= 10^18 (-1 outside). Used as a second opinion on ns_floor_phi. */
int64_t ns_floor_phi_zeckendorf(int64_t n);

/* Where does floor(n * phi) evaluated in floating point first differ from
 * the exact value?  The probe searches 1 <= n <= nmax efficiently: only n
 * whose n*phi lies within the worst-case rounding error of an integer can
 * go wrong, and those are enumerated with the three-gap theorem (the gaps
 * between successive n with {n theta} < eps take at most three values),
 * block by block (n in [2^j, 2^(j+1)) with eps for that block). */
typedef enum { NS_PROBE_DOUBLE = 0, NS_PROBE_LONG_DOUBLE = 1 } ns_probe_kind;

typedef struct ns_phi_probe {
    ns_probe_kind kind;
    int found;               /* 1 when a differing n was found */
    int64_t n;               /* the first such n */
    int64_t exact;           /* floor(n phi), exact */
    int64_t computed;        /* floor(n * phi_float) in the floating type */
    int64_t searched_to;     /* every n <= searched_to was covered */
    uint64_t candidates;     /* n evaluated in floating point */
    int mantissa_bits;       /* of the floating type */
} ns_phi_probe;

/* Run the probe up to nmax (1 <= nmax <= 2^53 for double, <= NS_EXACT_MAX
 * and < 2^(mantissa bits) for long double). Fails with NS_EINTERNAL if the
 * enumeration breaks an invariant (a bug). */
ns_err ns_phi_probe_run(ns_probe_kind kind, int64_t nmax, ns_phi_probe *out, ns_error *err);

/* floor(n * phi) as the book computes it: (long)floor(n * a) with
 * a = (1 + sqrt(5.0)) / 2 in double (or long double). */
int64_t ns_floor_phi_double(int64_t n);
int64_t ns_floor_phi_long_double(int64_t n);

/* The n in [1, hi) with frac(s * n * phi) < eps, s = +1 ("down": n phi just
 * above an integer) or -1 ("up": just below), in increasing order, by the
 * three-gap stepping; fn is called for each and may return non-zero to
 * stop. Exposed for the tests. Returns the number of steps, or -1 when the
 * stepping failed (a bug) and *err says why. */
typedef int (*ns_frac_fn)(void *user, int64_t n);
int64_t ns_phi_small_frac(int s, double eps, int64_t hi, ns_frac_fn fn, void *user,
                          ns_error *err);

/* frac(s * n * phi) for 0 <= n <= NS_EXACT_MAX, to long double precision
 * (computed from an exact integer identity, no cancellation). */
long double ns_phi_frac(int s, int64_t n);

#endif
