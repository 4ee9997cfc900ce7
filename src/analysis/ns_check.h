/* ns_check.h - closed-form theorems checked against a table, cell by cell.
 *
 * Each theorem is a const descriptor in one NULL-terminated list: a name,
 * what it claims, an applicability test (the game a table was made from,
 * its play convention and shape) and a run function that compares every
 * position of the table with the closed form and fills an ns_check_result.
 * The closed forms use exact integer arithmetic (ns_exact.h). Nothing here
 * prints; the CLI (`nimsieve check`) formats the result.
 *
 * Which tables a theorem applies to (the game is the preset the table was
 * solved with, as stored in the file, or the preset a rule file implements
 * when its text is byte for byte one of data/rules/ that implements one:
 * ns_check_recognise; other rule files never match by name):
 *   wythoff-golden      wythoff, normal play. P iff {x,y} = {floor(n phi),
 *                       floor(n phi^2)}; also probes the book's double formula.
 *   bouton              nim (any piles). Normal: P iff XOR = 0, and G = XOR
 *                       in a Grundy table. Misere: P iff XOR = 0 when some
 *                       pile is > 1, XOR = 1 when all piles are <= 1.
 *   bash                bash (m), or subtraction with set = {1..m}. Normal:
 *                       G = n mod (m+1); misere: P iff n mod (m+1) = 1.
 *   a-wythoff           a-wythoff (a), or wythoff (a = 1), normal play.
 *                       P-positions (A_n, A_n + a n) with A_n = mex, and
 *                       A_n = floor(n alpha) exactly.
 *   moore               moore (piles, k), normal play: P iff every binary
 *                       digit column sums to 0 mod k+1.
 *   euclid              euclid, normal play: (0,y), (x,0) P; x = y > 0 N;
 *                       x < y P iff y < phi x (exact: (2y - x)^2 < 5 x^2).
 *   fibonacci-nim       fibonacci-nim, normal play: (0, L) P; (n, L), n >= 1,
 *                       P iff L < z(n), the smallest Zeckendorf term of n; so
 *                       the losing starts (n, n-1) are the Fibonacci numbers
 *                       and the smallest winning first move takes z(n).
 *   staircase           staircase (k steps), normal play: G = XOR of the odd
 *                       steps c_1, c_3, ... (P iff it is 0).
 *   sprague-grundy-sum  a Grundy table (normal play) of a game whose every
 *                       move family changes one coordinate only, by moves
 *                       that do not depend on the other coordinates (rays
 *                       and finite offsets along one axis, no domain): the
 *                       game is the disjunctive sum of its coordinates, so
 *                       G(x) = G(x_1 e_1) xor ... xor G(x_k e_k), the
 *                       component tables being the table's own axes. With
 *                       explicit component tables (ns_check_sum_components)
 *                       any Grundy table of the right shape applies. */
#ifndef NS_CHECK_H
#define NS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "analysis/ns_exact.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

#define NS_CHECK_SHOWN 10

typedef struct ns_check_mismatch {
    int k;
    int64_t pos[NS_MAX_DIM];
    int64_t found;      /* the table's value (P/N: 0 = P, 1 = N) */
    int64_t expected;   /* the theorem's value */
    char what[48];      /* "P/N", "Grundy value", "winning move", ... */
} ns_check_mismatch;

typedef struct ns_check_result {
    char theorem[32];
    char claim[256];           /* what was compared, one line */
    /* cells of the table compared with the closed form, each once: a
     * position with the theorem's value, a cell outside the game's domain
     * with the "not a position" marker; equals t->ncells after a run */
    uint64_t checked;
    /* further items compared besides the cells (a-wythoff: the terms
     * A_n = floor(n alpha); fibonacci-nim: the smallest winning first
     * moves), counted apart from checked; also_what names them */
    uint64_t also_checked;
    char also_what[96];
    uint64_t mismatches;       /* cells and further items that disagree */
    int nshown;                /* first NS_CHECK_SHOWN mismatches */
    ns_check_mismatch shown[NS_CHECK_SHOWN];
    /* extra facts, one per line, e.g. the P-position count, the sequence
     * terms compared; at most NS_CHECK_NOTES lines */
#define NS_CHECK_NOTES 8
    int nnotes;
    char notes[NS_CHECK_NOTES][256];
    /* wythoff-golden only: the book's formula in double and long double */
    int has_probe;
    ns_phi_probe probe[2];
} ns_check_result;

typedef struct ns_check_theorem {
    const char *name;     /* REQUIRED: "wythoff-golden" */
    const char *summary;  /* REQUIRED: one line for --help */
    /* REQUIRED: 1 when the theorem applies to a table of game g (bounds set,
     * play set) of kind pn_only; else 0 and a one-line reason in why. */
    int (*applies)(const ns_game *g, int pn_only, char *why, size_t len);
    /* REQUIRED: compare every position of t with the closed form. Fails
     * only on errors (bad shapes, memory); mismatches go into *r. */
    ns_err (*run)(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err);
} ns_check_theorem;

/* NULL-terminated list of all theorems. */
extern const ns_check_theorem *const ns_check_theorems[];

/* Find by name; NULL if none. */
const ns_check_theorem *ns_check_find(const char *name);

/* Applicability and run in one call, on the game ns_check_recognise gives
 * (a note in *r names a recognised rule file): NS_EINVAL with the reason in err when
 * the theorem does not apply (so callers can tell "does not apply" from a
 * mismatch); *applies (may be NULL) gets 0 in that case. */
ns_err ns_check_run(const ns_check_theorem *th, const ns_game *g, const ns_table *t,
                    ns_check_result *r, int *applies, ns_error *err);

/* The game a theorem is checked against. For a preset, g itself:
 * *preset = NULL. For a rule file whose text is byte for byte one of
 * data/rules/ implementing a preset (game/ns_shipped_rules.h): a new game
 * of that preset with the mapped parameters and g's play and bounds in
 * *preset (the caller frees it with ns_game_free), and one line in how
 * naming the file, the preset and the test that proves their tables equal.
 * Otherwise *preset = NULL and how is "" (or names the unchanged data/rules
 * file that is not a preset). */
ns_err ns_check_recognise(const ns_game *g, ns_game **preset, char *how, size_t len, ns_error *err);

/* sprague-grundy-sum with explicit components: comp[i] (k entries, borrowed)
 * holds the Grundy values of the one-pile game of coordinate i, for
 * 0 <= x < ncomp[i] (which must cover t->bounds[i]). Compares
 * G(x) = comp[0][x_0] xor ... xor comp[k-1][x_{k-1}] for every cell. */
ns_err ns_check_sum_components(const ns_table *t, const uint32_t *const *comp,
                               const int64_t *ncomp, ns_check_result *r, ns_error *err);

/* Reset *r for theorem name (used by the run functions). */
void ns_check_result_init(ns_check_result *r, const char *name);

#endif
