/* test_rays_nonprimitive.c - ray families whose direction is not primitive,
 * such as (-2,-2) ("take an even amount 2t from both piles"), reach only
 * every other cell of their line. The two-pile kernels index lines by
 * c = a*y + dy*x, which lumps such a ray's cells together with cells it
 * never reaches, so these games must go to the general engine. For games
 * mixing primitive and non-primitive rays, Grundy and P/N, normal and
 * misere: ns_engine_run equals the general engine (ns_engine_run_with), and every cell equals
 * the naive mex over the explicitly enumerated options (ns_naive_cell). */
#include <stdio.h>

#include "engine/ns_engine.h"
#include "testutil.h"
#include "tsolve.h"

typedef struct ray {
    int64_t dx, dy;
} ray;

static void check(const char *what, const ray *rays, int nrays, int64_t n0, int64_t n1, int misere, int pn)
{
    ns_error err = {0};
    ns_game *g = ns_game_new(what, 2);
    CHECK(g != NULL);
    if (!g)
        return;
    for (int i = 0; i < nrays; i++) {
        int64_t d[2] = {rays[i].dx, rays[i].dy};
        CHECK(ns_game_add_ray(g, "ray", d, d, &err) == NS_OK);
    }
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    int64_t b[2] = {n0, n1};
    CHECK(ns_game_set_bounds(g, b, &err) == NS_OK);
    ns_engine_opts o = {.threads = 2, .pn_only = pn};
    ns_table *fast = ns_engine_table_new(g, pn, &err), *gen = ns_engine_table_new(g, pn, &err);
    CHECK(fast && gen);
    if (fast && gen) {
        CHECK(ns_engine_run(g, fast, &o, &err) == NS_OK);
        CHECK(ns_engine_run_with(ns_engine_find("general"), g, gen, &o, &err) == NS_OK);
        uint64_t diff = 0, naive_bad = 0;
        for (uint64_t i = 0; i < fast->ncells; i++) {
            diff += ns_table_get(fast, i) != ns_table_get(gen, i);
            int64_t s[2] = {(int64_t)(i / (uint64_t)n1), (int64_t)(i % (uint64_t)n1)};
            uint32_t v = 0;
            if (ns_naive_cell(g, gen, s, &v, &err) != NS_OK || v != ns_table_get(gen, i))
                naive_bad++;
        }
        CHECKF(diff == 0 && naive_bad == 0, "%s %s%s (%s kernel): %llu cells differ from the general engine, "
               "%llu from the naive mex", what, pn ? "P/N" : "Grundy", misere ? " misere" : "",
               ns_test_engine_name(g, &o), (unsigned long long)diff, (unsigned long long)naive_bad);
    }
    ns_table_free(fast);
    ns_table_free(gen);
    ns_game_free(g);
}

int main(void)
{
    const ray even[] = {{-1, 0}, {0, -1}, {-2, -2}};
    const ray knight[] = {{-1, 0}, {0, -1}, {-2, -4}, {-3, -1}};
    const ray mixed[] = {{-1, 0}, {0, -1}, {-1, -1}, {-3, -3}, {-2, 0}};
    for (int pn = 0; pn <= 1; pn++)
        for (int mis = 0; mis <= 1; mis++) {
            if (pn && mis)
                continue; /* P/N is normal play only in the rows kernel; misere P/N goes general anyway */
            check("even diagonal", even, 3, 90, 77, mis, pn);
            check("knight-like", knight, 4, 64, 101, mis, pn);
            check("mixed", mixed, 5, 70, 70, mis, pn);
        }
    return TEST_REPORT();
}
