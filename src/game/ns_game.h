/* ns_game.h - the game interface every rule set compiles to.
 *
 * A game is an impartial game on integer states s = (s_0, ..., s_{k-1}),
 * 1 <= k <= NS_MAX_DIM, inside the box [0,N_0) x ... x [0,N_{k-1}). Its
 * moves come in families; the sieve treats each kind differently:
 *
 *   NS_FAM_RAY      options s + e + t*d for t = 0, 1, 2, ... while inside
 *                   the box ("take any amount along direction d", first
 *                   option s + e). The sieve handles these per line of the
 *                   table, never per option. Plain rays have e == d.
 *   NS_FAM_FINITE   options s + o for a fixed finite list of offsets o.
 *   NS_FAM_GENERAL  options produced by a callback (anything else).
 *   NS_FAM_PREFIX   options that grow along one axis a: the options of s are
 *                   those of s - e_a (none when s_a = 0) plus the few that a
 *                   callback adds at s. The sieve keeps one running set per
 *                   line along a instead of enumerating them all (Fibonacci
 *                   Nim: options(n, L) = options(n, L-1) + the move t = L).
 *
 * A general family may also carry a SUBSETS marker (sub_k > 0): its options
 * are exactly "lower between 1 and sub_k of the piles in the set sub_piles,
 * each by a positive amount" (Moore's Nim_k). Its callback still lists them
 * (every reader but the sieve uses it); the general engine instead keeps,
 * per set S of sub_k piles, the values of the box below each cell in S as a
 * running set (ns_general.c). ns_game_add_subsets builds such a family.
 * A PATTERNS marker (sub_pat) is the same promise for any list of exact
 * pile sets ("lower exactly the piles of T", e.g. both of two piles): the
 * engine keeps, per needed set T, the values of the strict box below each
 * cell (every pile of T lower, the others equal).
 *
 * Every move must strictly decrease the rank w . s (unless the game is
 * loopy: see ns_game.loopy) (weights w >= 0, default
 * all 1, or computed from the box for a lexicographic rank: see
 * rank_nlex); the sieve processes the levels of equal rank in increasing order,
 * so options are always known first, and cells of one level in parallel.
 * A game may restrict its states to a domain inside the box (valid()); cells
 * outside it are not positions and hold NS_INVALID in the table.
 *
 * Presets (ns_presets.h) and parsed rule files (issue "rule-set language")
 * build an ns_game through the same functions below. */
#ifndef NS_GAME_H
#define NS_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_params.h"

#define NS_MAX_DIM 8
#define NS_NAME_LEN 64

typedef enum { NS_PLAY_NORMAL = 0, NS_PLAY_MISERE = 1 } ns_play;

typedef enum { NS_FAM_RAY = 0, NS_FAM_FINITE = 1, NS_FAM_GENERAL = 2, NS_FAM_PREFIX = 3 } ns_fam_kind;

/* Called once per option; return 0 to go on, non-zero to stop the
 * enumeration (that value is passed back to the caller). */
typedef int (*ns_emit_fn)(void *user, const int64_t *opt);

/* REQUIRED for NS_FAM_GENERAL: enumerate the options of state s (which lies
 * in the box and the domain) by calling emit. Must be reentrant: it runs on
 * many threads at once with the same ctx. Returns 0, the non-zero value of
 * emit that stopped it, or a negative value on an error of its own after
 * writing a message to err (err may be NULL). */
typedef int (*ns_options_fn)(const void *ctx, const int64_t *s, ns_emit_fn emit,
                             void *user, ns_error *err);

/* NS_FAM_PREFIX uses the same callback type for the options ADDED at s:
 * options(s) = options(s - e_axis) + those it emits at s (and at s_axis = 0
 * just those). It is called for every cell of the box, also for cells outside
 * the game's domain (later cells of the line inherit their additions), and
 * each option it emits must be a position of the box and the domain with a
 * rank below that of the cell it was called for. Reentrant, as above. */

/* OPTIONAL for NS_FAM_GENERAL and NS_FAM_PREFIX: an upper bound on the
 * number of options of any state in the box. When NULL the engine uses the
 * number of cells. */
typedef uint64_t (*ns_maxopt_fn)(const void *ctx, int k, const int64_t *bounds);

/* OPTIONAL for the game: non-zero when s is a position of the game. When
 * NULL every cell of the box is a position. Must be reentrant. */
typedef int (*ns_valid_fn)(const void *ctx, int k, const int64_t *s);

typedef struct ns_family {
    ns_fam_kind kind;
    char label[NS_NAME_LEN];   /* shown by `nimsieve rules` and in errors */
    /* NS_FAM_RAY */
    int64_t dir[NS_MAX_DIM];
    int64_t base[NS_MAX_DIM];
    /* NS_FAM_FINITE: noffsets offsets of k values each, owned by the game */
    int64_t *offsets;
    size_t noffsets;
    /* NS_FAM_GENERAL and NS_FAM_PREFIX (options: the additions at s) */
    ns_options_fn options;
    ns_maxopt_fn max_options;
    const void *ctx;           /* borrowed; see ns_game_own() */
    /* NS_FAM_PREFIX: the axis along which the options accumulate */
    int axis;
    /* NS_FAM_GENERAL, optional SUBSETS marker (see above): 0 = none, else
     * the options are the cells that lower 1..sub_k of the piles in
     * sub_piles (bit i = pile i), each by >= 1, the others unchanged. A
     * promise about the callback's options: whoever sets it must keep it. */
    int sub_k;
    uint32_t sub_piles;
    /* NS_FAM_GENERAL, optional PATTERNS marker (sub_k == 0, sub_piles set):
     * the options are the cells that lower exactly the piles of T, each by
     * >= 1, the others unchanged, for every allowed set T (bit T of
     * sub_pat, T a mask of piles inside sub_piles, never 0): "take from
     * exactly two piles", "lower both piles". Same promise as sub_k. */
    uint64_t sub_pat[4];
} ns_family;

struct ns_octal; /* game/ns_octal.h */

typedef struct ns_game {
    char name[NS_NAME_LEN];    /* preset name; a rule file's declared name
                                  ("game NAME"), or "rules" when it has none */
    char *rules_text;          /* full rule-file text, or NULL; owned */
    ns_params params;          /* the parameters it was built with */
    int k;                     /* number of coordinates (piles) */
    char coord_names[NS_MAX_DIM][16];
    int64_t bounds[NS_MAX_DIM];/* box; 0 until ns_game_set_bounds() */
    int64_t rank_w[NS_MAX_DIM];/* rank weights, >= 0 */
    ns_play play;
    int nfam;
    int capfam;                /* allocated length of fam */
    ns_family *fam;            /* owned array */
    ns_valid_fn valid;
    const void *valid_ctx;
    /* OPTIONAL symmetry (rule files' 'symmetric'): the game is unchanged by
     * every permutation of the piles sym[0 .. nsym) (increasing indices; their
     * sizes must be equal, ns_game_set_bounds checks it). nsym = 0: none.
     * Unless sym_whole, only the cells sorted along them (s[sym[0]] <=
     * s[sym[1]] <= ...) are positions: valid() says so and every family gives
     * its options sorted (so its families are general ones), and a table holds
     * each class of positions once, the other cells invalid. With sym_whole
     * set, every cell of the domain is a position and the options are the
     * moves as written: for readers of a table whose mirrored cells were
     * filled (ns_sym_fill in ns_table.h). The callbacks of the game honour
     * both; the engines need to know nothing. */
    int nsym;
    int sym[NS_MAX_DIM];
    int sym_whole;
    /* owned context blocks, freed with the game */
    int nowned;
    void **owned;
    void (**owned_free)(void *);
    /* A lexicographic rank: when rank_nlex > 0, positions are ordered by
     * the tuple (c_0, ..., c_{m-1}), c_i = rank_lex[i] . s (coefficients
     * >= 0), compared lexicographically. ns_game_set_bounds turns it into
     * the weights rank_w = sum_i W_i rank_lex[i], with W_{m-1} = 1 and
     * W_i = W_{i+1} * (1 + the largest c_{i+1} in the box): two positions
     * of the box then compare by rank as their tuples do, and the rank
     * has prod_i (1 + largest c_i) levels. */
    int rank_nlex;
    int64_t rank_lex[NS_MAX_DIM][NS_MAX_DIM];
    /* OPTIONAL: a take-and-break heap game (game/ns_octal.h): one pile, the
     * heap size, no families; its options are sums of heaps, so only the
     * sequence engine solves it and ns_game_foreach_option refuses it.
     * Borrowed from the game's owned blocks. NULL for every other game. */
    const struct ns_octal *octal;
    /* A loopy game (issue 18): its moves need not lower the rank, so a
     * position may come back. Set by the rule compiler when no order of the
     * piles settles (loopy_why says why: the line and a move that keeps or
     * raises the rank); the rank checks of ns_game_set_bounds and
     * ns_game_foreach_option are then off, and only engines for loopy
     * games (retrograde analysis) solve it. */
    int loopy;
    char loopy_why[512];
    /* Rule files' 'outside forbid': an option outside the box is not a
     * move (dropped, as with a 'domain filter'), instead of an error. */
    int outside_forbid;
} ns_game;

/* Create an empty game of k coordinates named name; rank weights 1, normal
 * play, no families, no bounds. Returns NULL on bad k or no memory. The
 * caller frees it with ns_game_free(). */
ns_game *ns_game_new(const char *name, int k);
void ns_game_free(ns_game *g);

/* Hand a block (context of a family or of valid()) to the game; it is freed
 * with free_fn when the game is freed. */
ns_err ns_game_own(ns_game *g, void *block, void (*free_fn)(void *), ns_error *err);

/* Add move families. Vectors have g->k entries and are copied. A ray needs
 * dir != 0; base NULL means base = dir. */
ns_err ns_game_add_ray(ns_game *g, const char *label, const int64_t *dir,
                       const int64_t *base, ns_error *err);
ns_err ns_game_add_finite(ns_game *g, const char *label, const int64_t *offsets,
                          size_t noffsets, ns_error *err);
ns_err ns_game_add_general(ns_game *g, const char *label, ns_options_fn fn,
                           ns_maxopt_fn maxopt, const void *ctx, ns_error *err);

/* A prefix family along coordinate axis (0-based); fn gives the options
 * added at each cell (see NS_FAM_PREFIX above), maxopt bounds the number of
 * options of a position (all of them, not the additions). */
ns_err ns_game_add_prefix(ns_game *g, const char *label, int axis, ns_options_fn fn,
                          ns_maxopt_fn maxopt, const void *ctx, ns_error *err);

/* A general family with the SUBSETS marker: a move lowers between 1 and
 * kmax of the piles in piles (bit i = pile i, at least one bit, all below
 * g->k; kmax >= 1, capped at the number of piles in the set), each by a
 * positive amount. Its callback enumerates them; its option bound is exact. */
ns_err ns_game_add_subsets(ns_game *g, const char *label, uint32_t piles, int kmax, ns_error *err);

/* Does f carry a PATTERNS marker (see ns_family.sub_pat)? */
int ns_family_has_patterns(const ns_family *f);

/* The sets of piles whose running sets a PATTERNS family needs (the
 * general engine's strict boxes): every allowed T and what is left of it
 * as its highest piles are dropped one by one, each set once, written to
 * out (at most cap); returns how many there are (more than cap: only cap
 * written). 0 when f carries no PATTERNS marker. */
int ns_family_pattern_sets(const ns_family *f, uint32_t *out, int cap);

/* Set the box. Checks 1 <= N_i, the cell count for overflow (< 2^62), and
 * that every ray and offset strictly decreases the rank. For a
 * lexicographic rank, computes rank_w first (fails when the rank would
 * have 2^62 levels or more). */
ns_err ns_game_set_bounds(ns_game *g, const int64_t *bounds, ns_error *err);

/* Number of cells of the box (after ns_game_set_bounds). */
uint64_t ns_game_cells(const ns_game *g);

/* Rank w . s */
static inline int64_t ns_game_rank(const ns_game *g, const int64_t *s)
{
    int64_t r = 0;
    for (int i = 0; i < g->k; i++)
        r += g->rank_w[i] * s[i];
    return r;
}

static inline int ns_game_in_box(const ns_game *g, const int64_t *s)
{
    for (int i = 0; i < g->k; i++)
        if (s[i] < 0 || s[i] >= g->bounds[i])
            return 0;
    return 1;
}

/* In the box and in the domain. */
static inline int ns_game_is_position(const ns_game *g, const int64_t *s)
{
    return ns_game_in_box(g, s) && (!g->valid || g->valid(g->valid_ctx, g->k, s));
}

/* Enumerate every option of position s explicitly, family by family (rays
 * step by step; a prefix family: its additions at s_a = 0, 1, ..., s_a in
 * turn), without the sieve's line structure: the reference that
 * `verify`, `query` and the tests rely on. Options outside the box or the
 * domain are skipped for rays and finite families; a general family that
 * produces one is an error (NS_EGAME) naming the position and the move, and
 * so is an option that does not decrease the rank. Returns 0, the non-zero
 * value of emit that stopped it, or a negative ns_err on error. */
int ns_game_foreach_option(const ns_game *g, const int64_t *s, ns_emit_fn emit,
                           void *user, ns_error *err);

/* The options family f (a member of g) itself produces at cell s, with
 * the checks of ns_game_foreach_option: for a prefix family the additions
 * at s only (s may be outside the domain), for a general family all its
 * options; rays and finite families are walked as there. Same returns. */
int ns_game_family_options(const ns_game *g, const ns_family *f, const int64_t *s, ns_emit_fn emit,
                           void *user, ns_error *err);

/* Upper bound on the number of options of any position (sum over families,
 * capped at the cell count). */
uint64_t ns_game_max_options(const ns_game *g);

/* "(3, 5)" into buf. */
void ns_format_pos(int k, const int64_t *s, char *buf, size_t len);

#endif
