/* game_graph.h - a game's positions and options as an explicit graph, for
 * the tests' naive solvers of loopy games (test_retro, test_retro_gsg).
 *
 * Built by asking ns_game for every cell's options (ns_game_foreach_option),
 * no engine involved: cell i's options are to[off[i] .. off[i + 1]), as
 * cell indices of the game's box; pos[i] says whether cell i is a position
 * (cells outside the game's domain have no options). */
#ifndef NS_TEST_GAME_GRAPH_H
#define NS_TEST_GAME_GRAPH_H

#include <stdint.h>

#include "game/ns_game.h"
#include "game/ns_table.h"

typedef struct ns_test_graph {
    uint64_t n;         /* cells of the box */
    uint64_t *off;      /* n + 1; owned */
    uint64_t *to;       /* off[n] options; owned */
    uint64_t m, cap;
    int *pos;           /* 1: a position; owned */
    ns_table *shape;    /* the box (one byte a cell, never filled); owned */
} ns_test_graph;

/* 0, or -1 with a message on stderr (a is then freed). */
int ns_test_graph_build(const ns_game *g, ns_test_graph *a);
void ns_test_graph_free(ns_test_graph *a);

#endif
