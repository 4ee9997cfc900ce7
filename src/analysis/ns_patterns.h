/* ns_patterns.h - structure in a table: periods, additive periods, the
 * P-positions as sequences, slopes and the constants behind them.
 *
 * All functions read a table (and, where a proof rule needs the moves, its
 * game), fill caller-owned structs and print nothing.
 *
 * One-pile tables: eventual (arithmetic) periodicity G(n + p) = G(n) + s for
 * n >= n0, smallest p first. Proof rule (Berlekamp-Conway-Guy, Winning Ways
 * ch. 4): for a game whose moves are a finite subtraction set with largest
 * element smax (finite offset families only, no rays, no callbacks, no
 * domain), G(n + p) = G(n) for n0 <= n < n0 + smax implies it for every
 * n >= n0, because G(n) is the mex of G(n - s), s <= smax (also in misere
 * play, where every n >= smax has options, and for P/N flags). So a pure
 * period is "proven" when the table holds n0 + smax + p - 1; anything else
 * (a saltus s != 0, rays, callbacks) is "observed only".
 *
 * Two-pile Grundy tables: per row x, additive periodicity G(x, y + p) =
 * G(x, y) + p for y >= y0 (Dress, Flammenkamp, Pink 1999 for Wythoff), as
 * observed in the table. The P-positions off the diagonal, x < y, read as a
 * sequence (a_n, b_n) sorted by a; their differences, complementarity (a
 * Beatty pair), least-squares slopes (GSL) with standard errors, the
 * exact interval of each constant c with a_n = floor(n c), and the
 * simplest constant inside it (ns_constant.h), or none. The positions of each value
 * g <= K and their distance from the two lines the P-positions lie on. */
#ifndef NS_PATTERNS_H
#define NS_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ns_constant.h"
#include "analysis/ns_lines.h"
#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

/* ---- one pile ---- */

typedef struct ns_period {
    int found;            /* 1 when a period was found within the table */
    int64_t preperiod;    /* n0 */
    int64_t period;       /* p */
    int64_t saltus;       /* s: 0 for pure periodicity */
    int64_t verified;     /* n with G(n+p) = G(n)+s checked: n0 .. n0+verified-1 */
    int proven;           /* 1 when the proof rule applies and the table covers it */
    int64_t smax;         /* largest move of a finite subtraction set, or -1 */
    int64_t proof_needs;  /* the largest n the proof rule reads: n0+smax+p-1 (or -1) */
    int64_t table_to;     /* the largest n in the table */
    char rule[200];       /* which rule was used, or why it is only observed */
} ns_period;

/* Smallest period p <= pmax (pmax <= 0: half the table) of the one-pile
 * table t of game g (g may be NULL: then nothing is proven). A period is
 * accepted when it is proven, or when it was seen over at least two
 * periods and a quarter of the table. */
ns_err ns_patterns_period(const ns_game *g, const ns_table *t, int64_t pmax, ns_period *out,
                          ns_error *err);

/* The same on a plain sequence v[0..n-1] (smax < 0: no proof rule; pn != 0:
 * the values are P/N flags, saltus 0 only). */
void ns_patterns_period_seq(const uint32_t *v, int64_t n, int64_t smax, int pn, int64_t pmax,
                            ns_period *out);

/* ---- two piles: additive periodicity per row ---- */

typedef struct ns_row_period {
    int64_t x;
    int found;
    int64_t y0, p;
    int64_t verified;     /* y checked: y0 .. y0 + verified - 1 */
} ns_row_period;

/* For every row x < t->bounds[0] of a two-pile Grundy table: the smallest
 * p <= pmax (pmax <= 0: a third of the row) with G(x, y+p) = G(x, y) + p for
 * y >= y0, seen over at least two periods and a quarter of the row.
 * rows must have room for t->bounds[0] entries. */
ns_err ns_patterns_additive_rows(const ns_table *t, int64_t pmax, ns_row_period *rows,
                                 ns_error *err);

/* ---- constants ---- */

/* ns_fit, ns_lines_fit, ns_lines_fit_line: analysis/ns_lines.h */

/* ---- two piles: the P-positions as sequences ---- */

typedef struct ns_pseq {
    int ok;                      /* 1 when the P-positions form a sequence */
    char why_not[200];
    int64_t square;              /* S = min(N1, N2): pairs inside [0,S)^2 */
    int origin_p;                /* (0, 0) is a P-position */
    int64_t diagonal;            /* P-positions (x, x), x > 0, in the square */
    int64_t n;                   /* pairs (a_i, b_i), a_i < b_i, i = 1..n */
    int64_t *a, *b;              /* owned, n entries each */
    int complementary;           /* {a_i} and {b_i} disjoint, no repeats */
    int64_t cover_to;            /* every v in 1..cover_to is some a_i or b_i */
    int64_t repeated;            /* a value found twice, or -1 */
    int diff_is_index;           /* b_i - a_i = c * i for every i (c = diff_step) */
    int64_t diff_step;
    int diff_increasing;         /* b_i - a_i strictly increasing */
    ns_fit fit_a, fit_b, fit_line; /* a_i ~ i, b_i ~ i, b_i ~ a_i */
    /* Beatty brackets: a_i = floor(i alpha) for every i = 1..n exactly when
     * alpha lies in [bracket_a[0], bracket_a[1]) (beatty_a = 1 when that
     * interval is not empty); the same for b. */
    int beatty_a, beatty_b;
    double bracket_a[2], bracket_b[2];
    ns_qinterval exact_a, exact_b;  /* the brackets with their exact ends */
    /* the constants (ns_constant.h): from the exact bracket when there is
     * one, else from the fit (slope +- 3 standard errors); rec_line from
     * the fit of b_n against a_n */
    ns_recog rec_a, rec_b, rec_line;
    double beatty_sum;           /* 1/slope_a + 1/slope_b (1 for a Beatty pair) */
    /* the lines (ns_lines.h) of the points (a_n, b_n): fit_line's line, and
     * one line per direction when the pairs lie on several (lines.nlines
     * >= 2: then no single slope describes them) */
    ns_lines lines;
    /* below the diagonal: p_symmetric = 1 when (x, y) is P exactly when
     * (y, x) is, over the square; below: the P-positions (x, y), y < x,
     * and lines_below their lines (x against y's partner: y against x) */
    int p_symmetric;
    int64_t below;
    ns_lines lines_below;
} ns_pseq;

/* Read the P-positions of a two-pile table as a sequence. Free with
 * ns_pseq_free. Not a sequence (ok = 0, why_not says why) when some a has
 * two partners b > a. */
ns_err ns_patterns_pseq(const ns_table *t, ns_pseq *out, ns_error *err);
void ns_pseq_free(ns_pseq *s);

/* ---- two piles: g-values ---- */

typedef struct ns_gvalue {
    uint32_t g;
    uint64_t count;              /* cells with value g in the square */
    double max_dist, mean_dist;  /* distance to the nearer 0-line */
    double max_dist_far;         /* the same over cells with x + y >= S/2 */
    int64_t farthest[2];         /* a cell at max_dist */
} ns_gvalue;

/* For g = 0..K: the cells of value g in the square [0,S)^2 of a two-pile
 * Grundy table and their perpendicular distance from the lines y = l x and
 * y = x / l (l = the slope of b_i against a_i of the P-positions, l > 1).
 * out has room for K+1 entries. */
ns_err ns_patterns_gvalues(const ns_table *t, double l, uint32_t K, ns_gvalue *out,
                           ns_error *err);

#endif
