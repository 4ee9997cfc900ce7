/* ns_heapmove.h - a position of several heaps of a take-and-break game
 * (game/ns_octal.h): its value and its winning moves, from the stored
 * Grundy sequence.
 *
 * The value of heaps h_1, ..., h_k is X = G(h_1) ^ ... ^ G(h_k). It is a
 * P-position when X == 0. Otherwise a winning move replaces one heap h_i
 * by an option of value G(h_i) ^ X (then the XOR is 0); the options of
 * h_i are enumerated from the game's code or rule (ns_octal_foreach_option)
 * and their values read from the sequence. */
#ifndef NS_HEAPMOVE_H
#define NS_HEAPMOVE_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_octal.h"
#include "game/ns_table.h"

typedef struct ns_heap_move {
    int heap;                           /* index of the heap moved in (0-based) */
    int64_t from;                       /* its size */
    int64_t take;                       /* tokens removed */
    int np;                             /* heaps left in its place ... */
    int64_t parts[NS_HEAP_MAX_PARTS];   /* ... in increasing order */
} ns_heap_move;

/* X of heaps h[0 .. k): each must lie in the table (else NS_ERANGE naming
 * the heap). */
ns_err ns_heap_value(const ns_table *t, const int64_t *h, int k, uint32_t *x, ns_error *err);

/* The winning moves of heaps h[0 .. k) of game o: all of them (all != 0),
 * heap by heap in order, or the first one. *out is malloc'd (caller frees;
 * NULL when none), *n their count (0: a P-position). */
ns_err ns_heap_winning_moves(const ns_octal *o, const ns_table *t, const int64_t *h, int k, int all,
                             ns_heap_move **out, size_t *n, ns_error *err);

#endif
