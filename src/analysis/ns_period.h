/* ns_period.h - periods of a Grundy sequence (take-and-break heap games,
 * game/ns_octal.h), proved where the octal periodicity theorem allows.
 *
 * The sequence is G(0..N-1), a 1-D table. For a p, n0(p) is the smallest
 * n0 with G(n + p) = G(n) for all n0 <= n < N - p. The period reported is
 * the smallest p that the octal periodicity theorem proves from n0(p)
 * (N >= ns_period_needed): then it holds for every n >= n0(p), p is the
 * sequence's smallest period and n0(p) its preperiod. Failing that, the
 * smallest p "observed": its periodic tail N - n0(p) spans at least two
 * periods and half the sequence; the report then says how many heap sizes
 * the proof needs.
 *
 * Arithmetic periods (saltus). Hexadecimal games (moves that leave three
 * heaps) can have sequences that grow: G(n + p) = G(n) + s for n >= n0,
 * s > 0 (Howse and Nowakowski, Periodicity and arithmetic-periodicity in
 * hexadecimal games, Theoret. Comput. Sci. 313 (2004)). The search takes
 * s = G(N-1) - G(N-1-p) for each p and finds n0(p) as above with
 * G(n + p) - G(n) = s; the smallest p whose tail spans two periods and half
 * the sequence is reported, with saltus s. Such a period is always
 * "observed, not proven": the arithmetic-periodicity theorem's hypotheses
 * are not checked here (nor is a saltus ever read as a proof of a pure
 * period). Finite octal codes are never arithmetic-periodic (Horrocks and
 * Nowakowski, INTEGERS 3 (2003)), so a saltus on an octal code is a
 * stretch of the computed range only. */
#ifndef NS_PERIOD_H
#define NS_PERIOD_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_octal.h"
#include "game/ns_table.h"

typedef struct ns_period {
    int64_t n;            /* heap sizes in the sequence (N) */
    uint32_t max_value;   /* largest G(n) ... */
    int64_t argmax;       /* ... and the first n where it occurs */
    int found;            /* 1 when a period was observed */
    int64_t preperiod;    /* n0 (found only) */
    int64_t period;       /* p (found only) */
    int64_t saltus;       /* s: 0 for a pure period, > 0 for G(n + p) = G(n) + s
                             (found only; then never proven) */
    int theorem;          /* 1 when the periodicity theorem applies to the game */
    int proven;           /* 1 when it proves the period for every n >= n0 */
    int64_t needed;       /* heap sizes the proof needs (theorem, found, saltus 0) */
} ns_period;

/* The heap sizes N a sequence of game o needs for the periodicity theorem
 * to prove a period p from n0 (-1 when it does not apply: Grundy's game,
 * or no game given). */
int64_t ns_period_needed(const ns_octal *o, int64_t n0, int64_t p);

/* Find the period of the sequence in t (k = 1, Grundy values) of game o
 * (NULL: no theorem). */
ns_err ns_period_find(const ns_table *t, const ns_octal *o, ns_period *out, ns_error *err);

#endif
