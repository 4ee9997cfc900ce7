/* ns_sweep.h - sweeps over the parameters of a game (issue 20): the
 * product of parameter ranges (`-D a=1..50 -D m=2,3,5 -D set=subsets(1..12,3)`)
 * as a list of variants, and one driver that solves a list of variants
 * through the engine door, one variant per thread, and summarises each.
 *
 * The driver knows nothing of parameters: it asks a builder for the i-th
 * variant's game (bounds set). A sweep's builder makes the i-th variant
 * of its ranges; the octal census (ns_census.h) is a builder over its code
 * list with grouping (ns_group.h) in the ordered callback.
 *
 * Summaries. One-pile games: the number of P-positions (G = 0), the
 * largest value, and the period: for a take-and-break game (g->octal) as
 * the census finds it (ns_period_find: proven by the octal periodicity
 * theorem when N covers it), else as `patterns` finds it
 * (ns_patterns_period: proven by the subtraction proof rule when the table
 * covers it, else observed); an arithmetic period (saltus s > 0) is
 * reported with its saltus, never proven. Two-pile
 * games (an N x N box): the number of P-positions, and the least-squares
 * slopes of a_n and b_n against n, the P-positions (a_n, b_n), a_n < b_n,
 * as `patterns` reads them (ns_patterns_pseq), with their
 * complementarity, Beatty brackets and the constants `patterns` names,
 * and the additive periods of the first NS_SWEEP_ADDITIVE_ROWS rows
 * (ns_patterns_additive_rows). Both: every theorem of ns_check that
 * applies (ns_check_run). A symmetric rule file's table (g->nsym) is read
 * with its mirrored cells filled for the checks, the sequence and the
 * rows, as `patterns` and `check` read its file; p_positions and
 * max_value count the cells stored. */
#ifndef NS_SWEEP_H
#define NS_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ns_constant.h"
#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_octal.h"
#include "game/ns_params.h"
#include "game/ns_table.h"

/* The most variants a sweep may have, the most values one range may
 * have, and the most elements a subsets(..) base set may have. */
#define NS_SWEEP_MAX_VARIANTS 1000000
#define NS_SWEEP_MAX_SET 40

/* The text fields of a summary row (with the terminating NUL), and the
 * rows of a two-pile table whose additive periods are summarised. */
#define NS_SWEEP_CONST_LEN 96
#define NS_SWEEP_CHECKS_LEN 128
#define NS_SWEEP_ADDITIVE_ROWS 64

/* One -D: a parameter and its values. */
typedef struct ns_sweep_axis {
    char name[NS_PARAM_NAME_LEN];
    char text[NS_PARAM_TEXT_LEN];  /* the range as given, "1..50" */
    int kind;                      /* 0: integers, 1: sets, 2: one code,
                                      3: octal codes */
    size_t n;                      /* values */
    int64_t *v;                    /* kind 0: n integers (owned) */
    int64_t base_lo;               /* kind 1: the base set base_lo .. base_lo + 63 */
    uint64_t *mask;                /* kind 1: n sets, bit j = base_lo + j (owned) */
    int digits_lo, digits_hi;      /* kind 3: codes of digits_lo .. digits_hi digits */
} ns_sweep_axis;

/* The ranges of a sweep; variants in nested-loop order, the first -D
 * outermost. */
typedef struct ns_sweep_ranges {
    int naxes;
    ns_sweep_axis ax[NS_PARAMS_MAX];
    uint64_t nvariants;            /* product of the axes' n (1 with none) */
} ns_sweep_ranges;

/* An empty set of ranges (one variant, no parameters); free with
 * ns_sweep_ranges_free. */
ns_sweep_ranges *ns_sweep_ranges_new(void);
void ns_sweep_ranges_free(ns_sweep_ranges *r);

/* Add "name=RANGE": "lo..hi" (lo <= hi), "v1,v2,..." (integers),
 * "subsets(lo..hi,k)" (the k-element subsets of {lo..hi}, lexicographic),
 * "subsets(lo..hi)" (every non-empty subset, by size then
 * lexicographically), "octal(D)" (every octal code 0.d1..dD with the last
 * digit non-zero, in the census's order: ns_census_code), "octal(lo..hi)"
 * (those of lo digits, then lo+1, .., hi; 1 <= lo <= hi <=
 * NS_CENSUS_MAX_DIGITS), a single integer, or a code with a '.' (one value).
 * Refused (NS_EINVAL, one line): a bad text, an empty range, a parameter
 * given twice, a base set of more than NS_SWEEP_MAX_SET elements, more
 * than NS_SWEEP_MAX_VARIANTS variants in all. */
ns_err ns_sweep_ranges_add(ns_sweep_ranges *r, const char *assign, ns_error *err);

/* The parameters of variant i (< nvariants) into *ps (reset first). */
ns_err ns_sweep_ranges_variant(const ns_sweep_ranges *r, uint64_t i, ns_params *ps, ns_error *err);

/* ---- the driver ---- */

/* REQUIRED: the i-th variant's game, bounds set, into *g (the driver frees
 * it with ns_game_free). Called from worker threads, several at once. */
typedef ns_err (*ns_sweep_build_fn)(void *user, uint64_t i, ns_game **g, ns_error *err);

/* A builder over ranges (ns_sweep_build_fn with user = ns_sweep_spec *):
 * variant i is the game spec (a preset or rule file, ns_game_build) with
 * variant i's parameters, bounds size per pile for one- and two-pile
 * games. */
typedef struct ns_sweep_spec {
    const char *spec;
    const ns_sweep_ranges *r;
    int64_t size;
} ns_sweep_spec;
ns_err ns_sweep_build_variant(void *user, uint64_t i, ns_game **g, ns_error *err);

/* OPTIONAL: called after each variant (one call at a time) with the
 * variants done; non-zero stops the sweep (NS_EINTR). */
typedef int (*ns_sweep_progress_fn)(void *user, uint64_t done, uint64_t total);

/* The summary of one variant (fields that do not apply: 0, slopes NaN). */
typedef struct ns_sweep_row {
    int piles;                 /* 1 or 2 */
    int64_t size;              /* heap sizes 0 .. size-1 (per pile) */
    int64_t p_positions;       /* cells with G = 0 */
    int64_t max_value;         /* the largest value in the table */
    int64_t preperiod, period; /* one pile; period 0: none found */
    int64_t saltus;            /* one pile: s > 0 when G(n+p) = G(n) + s (observed) */
    int proven;                /* one pile: 1 when the period is proven */
    double slope_a, slope_b;   /* two piles: NaN when no fit */
    double seconds;            /* solve and summary of this variant */
    /* two piles, the P-positions (a_n, b_n) as `patterns` reads them
     * (ns_patterns_pseq): complementary 1 when every integer 1.. is
     * exactly one a_n or b_n; beatty 1 when a_n = floor(n alpha) and
     * b_n = floor(n beta) for some alpha, beta (both exact brackets are
     * non-empty); const_a, const_b the constant `patterns` names for each
     * (rec_a, rec_b: ns_qnumber text, "(1+sqrt(5))/2"), "" when it names
     * none; cf_a, cf_b the constant's continued fraction as `patterns`
     * prints it ("[1; (1)]": the period in parentheses), or, when no
     * constant is named, the terms every number of the interval shares
     * ("[1; 1, 1]", a prefix), "" with no interval (ns_sweep_cf_text) */
    int complementary, beatty;
    char const_a[NS_SWEEP_CONST_LEN], const_b[NS_SWEEP_CONST_LEN];
    char cf_a[NS_SWEEP_CONST_LEN], cf_b[NS_SWEEP_CONST_LEN];
    /* two piles, Grundy values: of the rows x < min(size,
     * NS_SWEEP_ADDITIVE_ROWS), rows_additive have an additive period
     * G(x, y + p) = G(x, y) + p for y >= y0 as `patterns` finds it
     * (ns_patterns_additive_rows: p <= size/3, seen over two periods and a
     * quarter of the row), additive_pmax the largest such p (0: none) */
    int64_t rows_additive, additive_pmax;
    /* every closed-form theorem of ns_check that applies to the variant
     * (ns_check_run), "name:ok" or "name:FAIL(m)" (m mismatches), comma
     * separated in the order of ns_check_theorems; "" when none applies */
    char checks[NS_SWEEP_CHECKS_LEN];
} ns_sweep_row;

/* OPTIONAL: called once per variant IN VARIANT ORDER (variant i only after
 * first .. i-1), one call at a time, with its row, game and solved table
 * (borrowed: valid only during the call). This is where a caller groups
 * identical tables, writes catalogue rows as they come (so an interrupted
 * sweep keeps what is done) or keeps tables. Non-zero stops the sweep
 * (NS_EINTR). A variant that finishes before an earlier one is held until
 * its turn; a worker does not start a variant more than `window` ahead of
 * the next one to deliver, so at most about threads + window tables are
 * held at once. */
typedef int (*ns_sweep_each_fn)(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g,
                                const ns_table *t);

/* OPTIONAL: called before variant i is solved (on the worker's thread,
 * any order) with its game and its new table: non-zero when it filled the
 * table whole itself (the census: a code whose sequence follows from an
 * earlier code's), and then the engine does not run; the row is
 * summarised from the table as usual. */
typedef int (*ns_sweep_fill_fn)(void *user, uint64_t i, const ns_game *g, ns_table *t);

/* One sweep run: variants first .. n-1 (first > 0 continues an interrupted
 * sweep: the earlier ones are not built). */
typedef struct ns_sweep_job {
    uint64_t first, n;
    ns_sweep_build_fn build;      /* REQUIRED */
    void *user;                   /* for build */
    int threads;                  /* variants at once (<= 0: OpenMP's default) */
    ns_sweep_each_fn each;        /* OPTIONAL, ordered (above) */
    void *each_user;
    ns_sweep_progress_fn progress; /* OPTIONAL: done counts variants of this run */
    void *progress_user;
    uint64_t window;              /* 0: 4 x threads */
    int inner_threads;            /* threads each variant's solve uses (<= 1: one);
                                     large variants: threads = 1, inner_threads = T
                                     solves them one at a time with all threads */
    ns_sweep_fill_fn fill;        /* OPTIONAL (above) */
    void *fill_user;
} ns_sweep_job;

/* Solve the job's variants (one per thread) and fill rows[i - first] for
 * each (rows OPTIONAL: NULL when each takes the rows). Every field but
 * seconds is independent of threads, and so are the calls of each. Games
 * of other than one or two piles are refused. On failure the message of
 * the lowest failing variant. */
ns_err ns_sweep_run(const ns_sweep_job *job, ns_sweep_row *rows, ns_error *err);

/* Summarise the solved table t (Grundy values) of g into row (not
 * seconds). */
ns_err ns_sweep_summarise(const ns_game *g, const ns_table *t, ns_sweep_row *row, ns_error *err);

/* A take-and-break game's solve in a sweep or census stops as soon as
 * the octal periodicity theorem proves a period of the heap sizes done
 * (looked for after every unit of NS_SEQ_UNIT heap sizes up to 2^20, then
 * each time they grew by an eighth, as solve --until-periodic does); the
 * rest of the sequence then follows from the period exactly, so the table
 * is the one a full solve gives. ns_sweep_octal_stop is the engine's
 * checkpoint callback (user: an ns_sweep_until, t and octal set, the rest
 * zero); after a run it stopped (NS_EINTR with at > 0),
 * ns_sweep_octal_extend fills G(at .. N-1). */
typedef struct ns_sweep_until {
    const ns_table *t;
    const ns_octal *octal;
    int64_t next_check;     /* heap sizes at which the period is next looked for */
    int64_t at;             /* heap sizes done when a period was proven, else 0 */
    int64_t period;         /* the period proven */
} ns_sweep_until;

int ns_sweep_octal_stop(void *user, uint64_t done, uint64_t total);
void ns_sweep_octal_extend(ns_table *t, const ns_sweep_until *u);

/* The period fields of row (preperiod, period, saltus, proven) of the
 * sequence t of a take-and-break game g (g->octal set) by ns_period_find,
 * as the census finds them (ns_sweep_octal.c). */
ns_err ns_sweep_summarise_octal(const ns_game *g, const ns_table *t, ns_sweep_row *row, ns_error *err);

/* The continued fraction of a constant `patterns` found (r->kind != NONE,
 * "[a0; a1, (p1, p2)]" for a quadratic irrational: the period in
 * parentheses; "[a0; a1, a2]" for a rational), else the terms the ends of
 * its interval share ("[1; 1, 1]"), "" when there is no interval; cut at a
 * term boundary with ", ...]" when len is short. */
void ns_sweep_cf_text(const ns_recog *r, char *buf, size_t len);

#endif
