/* naive.h - an independent reference solver for the built-in games.
 *
 * Written from the rules of each game, not from ns_game's move families:
 * ns_ref_options() lists the options of a state by the plain rules, and
 * ns_ref_solve() fills a whole box by memoised recursion (mex over the
 * options, no ranks, no lines, one thread). The tests compare the engine's
 * tables against it cell by cell.
 *
 * Conventions (those of the engine): normal play gives Sprague-Grundy
 * values; misere play gives Conway's misere Grundy value (a position with
 * no options has value 1, any other the mex of its options), so P iff the
 * value is 0 in both. Cells outside a game's domain (staircase) hold
 * NS_REF_INVALID. */
#ifndef NS_TEST_NAIVE_H
#define NS_TEST_NAIVE_H

#include <stddef.h>
#include <stdint.h>

#include "game/ns_game.h"
#include "game/ns_table.h"

#define NS_REF_INVALID UINT32_MAX
#define NS_REF_MAX_SET 64

typedef enum {
    NS_REF_NIM,         /* take t >= 1 from one pile */
    NS_REF_WYTHOFF,     /* one pile, or the same t >= 1 from both */
    NS_REF_AWYTHOFF,    /* one pile, or k,l >= 1 from both with |k-l| < a */
    NS_REF_BASH,        /* one pile, take 1..m */
    NS_REF_SUBTRACTION, /* one pile, take s in S */
    NS_REF_MOORE,       /* take positive amounts from 1..m of the piles */
    NS_REF_STAIRCASE,   /* move t >= 1 coins from step i to step i-1 */
    NS_REF_EUCLID,      /* subtract a positive multiple of the smaller pile */
    NS_REF_FIBNIM       /* (n, L): take 1 <= t <= min(n, L), new limit min(2t, n-t) */
} ns_ref_kind;

typedef struct ns_ref_game {
    ns_ref_kind kind;
    int k;                        /* number of coordinates */
    int64_t m;                    /* a (a-wythoff), m (bash), k (moore) */
    int nset;                     /* subtraction set */
    int64_t set[NS_REF_MAX_SET];
} ns_ref_game;

/* A growable list of options, k values each. Owned by the caller: start it
 * zeroed, free it with ns_ref_optlist_free(). */
typedef struct ns_ref_optlist {
    int k;
    size_t n, cap;
    int64_t *v;                   /* n * k values, owned */
} ns_ref_optlist;

void ns_ref_optlist_free(ns_ref_optlist *l);

/* Non-zero when s (in the box) is a position of g: always, except for
 * staircase, where every suffix sum c_i + ... + c_k must be < N_i. */
int ns_ref_in_domain(const ns_ref_game *g, const int64_t *bounds, const int64_t *s);

/* Replace the contents of *out with the options of s by the rules of g.
 * Returns 0, or -1 when memory is short. */
int ns_ref_options(const ns_ref_game *g, const int64_t *s, ns_ref_optlist *out);

/* Values of every cell of the box [0,N_0) x ... x [0,N_{k-1}), row-major
 * (the last coordinate fastest), misere != 0 for misere play. Returns a
 * malloc'd array of ns_ref_cells() values owned by the caller, or NULL when
 * memory is short or an option leaves the box (the message goes to stderr:
 * a bug in the test). */
uint32_t *ns_ref_solve(const ns_ref_game *g, const int64_t *bounds, int misere);

uint64_t ns_ref_cells(int k, const int64_t *bounds);

/* Compare an engine table with a reference array over every cell: invalid
 * cells must be ns_table_invalid(t); in a P/N table a cell must be 0 iff
 * the reference value is 0 (and 1 otherwise), in a Grundy table equal to
 * it. Prints up to 5 mismatches to stderr prefixed by what. Returns the
 * number of mismatching cells. */
uint64_t ns_ref_compare(const char *what, const ns_table *t, const uint32_t *ref);

/* Wythoff's Grundy values on the box [0,n0) x [0,n1) by the definition,
 * without ns_game: the mex of the row to the left, the column above and the
 * diagonal up-left, scanned cell by cell (row major, y fastest). Returns a
 * malloc'd array of n0 * n1 values owned by the caller, or NULL when memory
 * is short. A cell's value does not depend on the box. */
uint32_t *ns_ref_wythoff_grid(int64_t n0, int64_t n1);

/* The same for the moves of nrays rays: ray (p, r) moves to (x - p t,
 * y - r t), t >= 1 (p, r >= 0, not both 0): Wythoff is (1, 0), (0, 1),
 * (1, 1); two-pile Nim the first two. */
uint32_t *ns_ref_rays_grid(int64_t n0, int64_t n1, int nrays, const int64_t (*rays)[2]);

/* G(0 .. n-1) of a heap game by the naive mex over every move: code NULL,
 * Grundy's game (split a heap into two unequal ones); else a code
 * "d0.d1d2..." of octal or hexadecimal digits (bit 1: take all, 2: leave
 * one heap, 4: two, 8: three). Returns a malloc'd array owned by the
 * caller, or NULL when memory is short. */
uint32_t *ns_ref_heap_sequence(const char *code, int64_t n);

#endif
