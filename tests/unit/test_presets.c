/* test_presets.c - every preset, several parameters and small boxes, Grundy
 * and P/N, normal and misere play: the engine's table equals the naive
 * reference solver (tests/common/naive.c) on every cell, and so does
 * ns_naive_cell() (on a fixed subset of the cells of the larger boxes);
 * on the smaller boxes ns_game_foreach_option lists the options the rules
 * give. */
#include <stdlib.h>
#include <string.h>

#include "naive.h"
#include "engine/ns_engine.h"
#include "testutil.h"
#include "tsolve.h"

typedef struct tcase {
    const char *name;
    const char *params;   /* as ns_params_format writes them */
    ns_ref_game ref;
    int64_t bounds[NS_MAX_DIM];
} tcase;

#define REF(kind_, k_, m_) {.kind = (kind_), .k = (k_), .m = (m_)}

static const tcase cases[] = {
    {"nim", "piles=1", REF(NS_REF_NIM, 1, 0), {30}},
    {"nim", "", REF(NS_REF_NIM, 2, 0), {40, 40}},
    {"nim", "piles=3", REF(NS_REF_NIM, 3, 0), {10, 10, 10}},
    {"nim", "", REF(NS_REF_NIM, 3, 0), {7, 11, 5}},
    {"nim", "piles=4", REF(NS_REF_NIM, 4, 0), {6, 5, 7, 4}},
    {"nim", "", REF(NS_REF_NIM, 5, 0), {4, 3, 4, 5, 3}},
    {"wythoff", "", REF(NS_REF_WYTHOFF, 2, 0), {40, 40}},
    {"wythoff", "", REF(NS_REF_WYTHOFF, 2, 0), {17, 33}},
    {"wythoff", "", REF(NS_REF_WYTHOFF, 2, 0), {1, 25}},
    /* past the 2-D kernels' tiles (128), row blocks (256) and 64-bit words */
    {"wythoff", "", REF(NS_REF_WYTHOFF, 2, 0), {300, 70}},
    {"wythoff", "", REF(NS_REF_WYTHOFF, 2, 0), {129, 140}},
    {"nim", "piles=2", REF(NS_REF_NIM, 2, 0), {260, 40}},
    {"a-wythoff", "a=1", REF(NS_REF_AWYTHOFF, 2, 1), {140, 70}},
    {"a-wythoff", "a=2", REF(NS_REF_AWYTHOFF, 2, 2), {270, 30}},
    {"a-wythoff", "a=3", REF(NS_REF_AWYTHOFF, 2, 3), {260, 20}},
    {"a-wythoff", "a=1", REF(NS_REF_AWYTHOFF, 2, 1), {30, 30}},
    {"a-wythoff", "", REF(NS_REF_AWYTHOFF, 2, 2), {40, 40}},
    {"a-wythoff", "a=3", REF(NS_REF_AWYTHOFF, 2, 3), {35, 40}},
    {"a-wythoff", "a=5", REF(NS_REF_AWYTHOFF, 2, 5), {25, 19}},
    {"bash", "m=1", REF(NS_REF_BASH, 1, 1), {60}},
    {"bash", "", REF(NS_REF_BASH, 1, 3), {60}},
    {"bash", "m=7", REF(NS_REF_BASH, 1, 7), {61}},
    {"bash", "m=100", REF(NS_REF_BASH, 1, 100), {50}},
    {"subtraction", "", {.kind = NS_REF_SUBTRACTION, .k = 1, .nset = 3, .set = {1, 3, 4}}, {80}},
    {"subtraction", "set=2,5,6", {.kind = NS_REF_SUBTRACTION, .k = 1, .nset = 3, .set = {2, 5, 6}}, {70}},
    {"subtraction", "set=3", {.kind = NS_REF_SUBTRACTION, .k = 1, .nset = 1, .set = {3}}, {20}},
    {"subtraction", "set=16,1,8,2,4", {.kind = NS_REF_SUBTRACTION, .k = 1, .nset = 5, .set = {16, 1, 8, 2, 4}}, {100}},
    {"subtraction", "set=50", {.kind = NS_REF_SUBTRACTION, .k = 1, .nset = 1, .set = {50}}, {10}},
    {"moore", "piles=2;k=2", REF(NS_REF_MOORE, 2, 2), {20, 20}},
    {"moore", "piles=3;k=1", REF(NS_REF_MOORE, 3, 1), {8, 8, 8}},
    {"moore", "", REF(NS_REF_MOORE, 3, 2), {9, 9, 9}},
    {"moore", "piles=3;k=3", REF(NS_REF_MOORE, 3, 3), {7, 8, 6}},
    {"moore", "piles=4;k=2", REF(NS_REF_MOORE, 4, 2), {5, 5, 5, 5}},
    {"moore", "k=3", REF(NS_REF_MOORE, 4, 3), {4, 5, 4, 3}},
    {"staircase", "piles=1", REF(NS_REF_STAIRCASE, 1, 0), {20}},
    {"staircase", "piles=2", REF(NS_REF_STAIRCASE, 2, 0), {20, 15}},
    {"staircase", "", REF(NS_REF_STAIRCASE, 3, 0), {10, 8, 6}},
    {"staircase", "piles=3", REF(NS_REF_STAIRCASE, 3, 0), {10, 10, 10}},
    {"staircase", "", REF(NS_REF_STAIRCASE, 3, 0), {6, 9, 12}},
    {"staircase", "piles=4", REF(NS_REF_STAIRCASE, 4, 0), {8, 7, 6, 5}},
    {"euclid", "", REF(NS_REF_EUCLID, 2, 0), {40, 40}},
    {"euclid", "", REF(NS_REF_EUCLID, 2, 0), {25, 37}},
    {"fibonacci-nim", "", REF(NS_REF_FIBNIM, 2, 0), {40, 40}},
    {"fibonacci-nim", "", REF(NS_REF_FIBNIM, 2, 0), {30, 45}},
};

/* ns_naive_cell gives the table's value: on every cell of boxes up to
 * 8000 cells, on every 7th cell of larger ones (whose options are many). */
static uint64_t check_naive_cell(const ns_game *g, const ns_table *t, const char *what)
{
    uint64_t bad = 0, step = t->ncells <= 8000 ? 1 : 7;
    int64_t s[NS_MAX_DIM];
    for (uint64_t i = 0; i < t->ncells; i += step) {
        ns_table_coords(t, i, s);
        if (!ns_game_is_position(g, s))
            continue;
        uint32_t v = 0;
        ns_error err = {0};
        if (ns_naive_cell(g, t, s, &v, &err) || v != ns_table_get(t, i)) {
            if (bad++ < 3) {
                char buf[128];
                ns_format_pos(t->k, s, buf, sizeof buf);
                fprintf(stderr, "%s: ns_naive_cell %s = %u (%s), table %u\n", what, buf, v,
                        err.code ? err.msg : "ok", ns_table_get(t, i));
            }
        }
    }
    return bad;
}

/* ns_game_foreach_option lists the same set of options as the rules
 * (boxes up to 5000 cells). */
typedef struct optbuf {
    int k;
    size_t n, cap;
    int64_t *v;
} optbuf;

static int collect(void *user, const int64_t *o)
{
    optbuf *b = user;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        int64_t *v = realloc(b->v, cap * (size_t)b->k * sizeof *v);
        if (!v)
            return 1;
        b->v = v;
        b->cap = cap;
    }
    memcpy(b->v + b->n * (size_t)b->k, o, (size_t)b->k * sizeof *o);
    b->n++;
    return 0;
}

static int sort_k;

static int cmp_opt(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int i = 0; i < sort_k; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Sort and drop repeats; returns the new count. */
static size_t sort_unique(int k, int64_t *v, size_t n)
{
    if (n == 0)
        return 0;
    sort_k = k;
    qsort(v, n, (size_t)k * sizeof *v, cmp_opt);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (cmp_opt(v + (i - 1) * (size_t)k, v + i * (size_t)k) != 0)
            memmove(v + m++ * (size_t)k, v + i * (size_t)k, (size_t)k * sizeof *v);
    return m;
}

static uint64_t check_options(const ns_game *g, const tcase *tc, const char *what)
{
    uint64_t bad = 0, n = ns_ref_cells(g->k, tc->bounds);
    if (n > 5000)
        return 0;
    optbuf eng = {.k = g->k};
    ns_ref_optlist ref = {0};
    int64_t s[NS_MAX_DIM];
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = i;
        for (int d = g->k - 1; d >= 0; d--) {
            s[d] = (int64_t)(r % (uint64_t)tc->bounds[d]);
            r /= (uint64_t)tc->bounds[d];
        }
        if (!ns_ref_in_domain(&tc->ref, tc->bounds, s))
            continue;
        ns_error err = {0};
        eng.n = 0;
        int rc = ns_game_foreach_option(g, s, collect, &eng, &err);
        int fail = rc != 0 || ns_ref_options(&tc->ref, s, &ref) != 0;
        if (fail && bad < 3)
            fprintf(stderr, "%s: listing options failed (%d): %s\n", what, rc, err.msg);
        if (!fail) {
            size_t ne = sort_unique(g->k, eng.v, eng.n), nr = sort_unique(g->k, ref.v, ref.n);
            fail = ne != nr || (ne && memcmp(eng.v, ref.v, ne * (size_t)g->k * sizeof *eng.v) != 0);
            if (fail && bad < 3) {
                char buf[128];
                ns_format_pos(g->k, s, buf, sizeof buf);
                fprintf(stderr, "%s: options of %s: engine lists %zu, the rules give %zu\n", what, buf, ne, nr);
            }
        }
        bad += (uint64_t)fail;
    }
    free(eng.v);
    ns_ref_optlist_free(&ref);
    return bad;
}

int main(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const tcase *tc = &cases[c];
        int k = tc->ref.k;
        for (int misere = 0; misere <= 1; misere++) {
            uint32_t *ref = ns_ref_solve(&tc->ref, tc->bounds, misere);
            CHECKF(ref != NULL, "naive solver failed on %s", tc->name);
            if (!ref)
                continue;
            for (int pn = 0; pn <= 1; pn++) {
                char what[160], b[64];
                ns_format_pos(k, tc->bounds, b, sizeof b);
                snprintf(what, sizeof what, "%s [%s] box %s %s %s", tc->name, tc->params, b,
                         misere ? "misere" : "normal", pn ? "P/N" : "Grundy");
                ns_game *g = NULL;
                ns_table *t = ns_tsolve_game(tc->name, tc->params, k, tc->bounds, misere, pn, 0, &g);
                CHECKF(t != NULL, "%s: solve failed", what);
                if (!t)
                    continue;
                if (!misere && !pn)
                    CHECKF(check_options(g, tc, what) == 0, "%s: option lists differ", what);
                CHECKF(t->k == k && t->ncells == ns_ref_cells(k, tc->bounds) && t->pn_only == pn,
                       "%s: table shape", what);
                if (t->ncells == ns_ref_cells(k, tc->bounds)) {
                    CHECKF(ns_ref_compare(what, t, ref) == 0, "%s: table differs from the naive solver", what);
                    CHECKF(check_naive_cell(g, t, what) == 0, "%s: ns_naive_cell differs from the table", what);
                }
                ns_table_free(t);
                ns_game_free(g);
            }
            free(ref);
        }
    }
    return TEST_REPORT();
}
