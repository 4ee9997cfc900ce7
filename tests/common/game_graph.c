/* game_graph.c - see game_graph.h */
#include "game_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int emit(void *u, const int64_t *o)
{
    ns_test_graph *a = u;
    if (a->m == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 1024;
        a->to = realloc(a->to, a->cap * sizeof *a->to);
        if (!a->to)
            abort();
    }
    a->to[a->m++] = ns_table_index(a->shape, o);
    return 0;
}

int ns_test_graph_build(const ns_game *g, ns_test_graph *a)
{
    ns_error err = {0};
    memset(a, 0, sizeof *a);
    a->shape = ns_table_new(g->k, g->bounds, 1, 1, &err);
    if (!a->shape) {
        fprintf(stderr, "graph: %s\n", err.msg);
        return -1;
    }
    a->n = a->shape->ncells;
    a->off = calloc(a->n + 1, sizeof *a->off);
    a->pos = calloc(a->n, sizeof *a->pos);
    if (!a->off || !a->pos)
        abort();
    for (uint64_t i = 0; i < a->n; i++) {
        int64_t s[NS_MAX_DIM];
        ns_table_coords(a->shape, i, s);
        a->off[i] = a->m;
        if (!ns_game_is_position(g, s))
            continue;
        a->pos[i] = 1;
        if (ns_game_foreach_option(g, s, emit, a, &err) < 0) {
            fprintf(stderr, "graph: %s\n", err.msg);
            ns_test_graph_free(a);
            return -1;
        }
    }
    a->off[a->n] = a->m;
    return 0;
}

void ns_test_graph_free(ns_test_graph *a)
{
    free(a->off);
    free(a->to);
    free(a->pos);
    ns_table_free(a->shape);
    memset(a, 0, sizeof *a);
}
