/* ns_strategy.h - winning moves: read from a solved table, or computed by
 * closed forms (Wythoff, Nim) with exact 64/128-bit integer arithmetic for
 * piles up to 10^18 and beyond, without any table.
 *
 * A winning move goes to a P-position. A position without one is lost (a
 * P-position, with best play by the opponent). Nothing here prints. */
#ifndef NS_STRATEGY_H
#define NS_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

typedef struct ns_move {
    int k;
    int64_t from[NS_MAX_DIM];
    int64_t to[NS_MAX_DIM];
    uint32_t rem;   /* ns_strategy_loopy only: the remoteness of to */
} ns_move;

/* A growable list of moves. Start it zeroed; the caller frees it with
 * ns_moves_free (the list stays usable, empty). */
typedef struct ns_moves {
    size_t n, cap;
    ns_move *v;   /* owned */
} ns_moves;

void ns_moves_free(ns_moves *m);

/* Winning moves of position s (in the box and the domain of g) read from t,
 * the table of g: every option whose cell is P, in the order the game
 * enumerates its options (first family first; along a ray, the smallest
 * step first). all = 0 stops at the first one. *value (may be NULL) gets
 * the table's value of s (0 = P). Fails with NS_EINVAL when s is not a
 * position of the table, NS_EFORMAT when an option's cell is invalid. */
ns_err ns_strategy_from_table(const ns_game *g, const ns_table *t, const int64_t *s, int all,
                              ns_moves *out, uint32_t *value, ns_error *err);

/* The move to play in a loopy game (ns_game.loopy): t is its P/N/D table
 * (/pn: 0 P, 1 N, 3 NS_PN_DRAW), rem its remoteness, t's ncells values
 * (UINT32_MAX for draws and non-positions). The case follows the value of
 * s, which *value (may be NULL) gets:
 *   N: the fastest win, a P option with the smallest remoteness;
 *   P: the longest defence, an option (all are N) with the largest one;
 *   D: a move that keeps the draw, a D option (there is no P option).
 * all = 0: out gets the first such move in the game's order; all = 1: every
 * option of that kind (P options, all options, D options) in the game's
 * order, each with the remoteness of its target in rem, and *nbest (may be
 * NULL) counts those that are best (for D: all of them). A P-position
 * without options has none. The file is cross-checked: the best move's
 * remoteness must be the remoteness of s less one, an N-position needs a P
 * option, a P-position only N options, a draw a D option and no P option;
 * else NS_EFORMAT naming the position. NS_EINVAL when s is not a position. */
ns_err ns_strategy_loopy(const ns_game *g, const ns_table *t, const uint32_t *rem, const int64_t *s, int all,
                         ns_moves *out, uint32_t *value, size_t *nbest, ns_error *err);

/* Nim (Bouton): the winning moves of piles p[0..k-1] >= 0, 1 <= k <= 8:
 * for each pile i with p_i xor X < p_i (X = xor of all piles), the move to
 * p_i xor X, in pile order. Returns their number (0: lost), or -1 when an
 * argument is out of range. out has room for k moves. */
int ns_nim_moves(int k, const int64_t *p, ns_move *out);

/* Wythoff: the winning moves of (a, b), 0 <= a, b <= NS_EXACT_MAX, in the
 * order: take from pile 1, take from pile 2, take the same from both (at
 * most one of each). Returns their number (0: lost), or -1 when out of
 * range. out has room for 3 moves. */
int ns_wythoff_moves(int64_t a, int64_t b, ns_move *out);

/* Staircase Nim with k steps c[0..k-1] (c[0] = step 1, whose coins go to the
 * ground): the winning moves "t coins from step i to step i-1", i.e. every
 * move after which the XOR of the odd steps (c[0], c[2], ...) is 0; one per
 * step at most, in step order. Returns their number (0: lost), -1 on bad
 * arguments. out has room for k moves. */
int ns_staircase_moves(int k, const int64_t *c, ns_move *out);

/* Staircase Nim with any number of steps k >= 1 (c[0] = step 1): the XOR of
 * the odd steps (0 iff P), and whether moving coins from step i+1 (index i)
 * down one step wins; then *t gets the number of coins to move. */
int64_t ns_staircase_xor(int64_t k, const int64_t *c);
int ns_staircase_move_at(int64_t k, const int64_t *c, int64_t i, int64_t *t);

/* Solve the staircase position c[0..k-1] (1 <= k <= NS_MAX_DIM, c_i >= 0)
 * through the engine: the preset "staircase" with piles=k in the smallest
 * box that holds c and all its followers (N_i = c_i + ... + c_k + 1), its
 * P/N table filled by the sieve, and the winning moves of c read from that
 * table (all of them, in the game's order). *is_p gets 1 when c is a
 * P-position. Fails with NS_ERANGE when the box has more than max_cells
 * cells. threads <= 0: OpenMP's default. */
ns_err ns_staircase_by_table(int k, const int64_t *c, uint64_t max_cells, int threads, ns_moves *out,
                             int *is_p, ns_error *err);

#endif
