/* test_tiles2d_stream.c - the two-pile Grundy kernel without a table
 * (ns_engine_opts.tile_sink): every cell reaches the sink exactly once, in
 * tiles aligned to ns_engine_can_stream's tile side, with the value the
 * general engine computes; Wythoff and two-pile Nim (the symmetric path:
 * a tile and its mirror), a rectangle (the plain path), normal and misere,
 * sizes below, at and across the tile side, 1 to 3 threads. Also: a game
 * that cannot stream is refused, and a failing sink stops the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "testutil.h"

typedef struct collect {
    int64_t n0, n1, tile;
    uint32_t *vals;     /* n0 * n1 */
    uint8_t *seen;      /* times each cell arrived */
    int bad_tile;
    int fail_after;     /* > 0: the sink fails at that call */
    int calls;
} collect;

static int sink(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *v)
{
    collect *c = user;
    int stop = 0;
    NS_PRAGMA(omp critical(test_sink))
    {
        c->calls++;
        if (c->fail_after && c->calls >= c->fail_after)
            stop = 1;
        if (x0 % c->tile || y0 % c->tile || nx < 1 || ny < 1 || nx > c->tile || ny > c->tile || x0 + nx > c->n0 ||
            y0 + ny > c->n1)
            c->bad_tile = 1;
        else
            for (int64_t i = 0; i < nx; i++)
                for (int64_t j = 0; j < ny; j++) {
                    c->vals[(x0 + i) * c->n1 + y0 + j] = v[i * ny + j];
                    c->seen[(x0 + i) * c->n1 + y0 + j]++;
                }
    }
    return stop;
}

static void check(const char *name, const char *params, int64_t n0, int64_t n1, int misere, int threads)
{
    ns_error err = {0};
    ns_params ps = {0};
    CHECK(ns_params_parse_list(&ps, params, &err) == NS_OK);
    ns_game *g = ns_preset_build(name, &ps, 2, &err);
    CHECK(g != NULL);
    if (!g)
        return;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    int64_t b[2] = {n0, n1};
    CHECK(ns_game_set_bounds(g, b, &err) == NS_OK);
    collect c = {.n0 = n0, .n1 = n1};
    uint64_t lb = 0;
    ns_engine_opts o = {.threads = threads, .tile_sink = sink, .tile_user = &c};
    CHECK(ns_engine_can_stream(g, &o, &c.tile, &lb) && c.tile > 0 && lb > 0);
    c.vals = calloc((size_t)(n0 * n1), sizeof *c.vals);
    c.seen = calloc((size_t)(n0 * n1), 1);
    ns_table *r = ns_engine_table_new(g, 0, &err);
    ns_engine_opts og = {.threads = threads};
    if (c.vals && c.seen && r && ns_engine_run(g, NULL, &o, &err) == NS_OK &&
        ns_engine_run_with(ns_engine_find("general"), g, r, &og, &err) == NS_OK) {
        uint64_t diff = 0, twice = 0;
        for (uint64_t i = 0; i < r->ncells; i++) {
            diff += c.vals[i] != ns_table_get(r, i);
            twice += c.seen[i] != 1;
        }
        CHECKF(!c.bad_tile && diff == 0 && twice == 0,
               "%s %s %lldx%lld%s, %d threads: bad tile %d, %llu cells differ, %llu not seen exactly once", name,
               params, (long long)n0, (long long)n1, misere ? " misere" : "", threads, c.bad_tile,
               (unsigned long long)diff, (unsigned long long)twice);
    } else {
        CHECKF(0, "%s: solve failed: %s", name, err.msg);
    }
    ns_table_free(r);
    free(c.vals);
    free(c.seen);
    ns_game_free(g);
}

static void check_refusals(void)
{
    ns_error err = {0};
    ns_params ps = {0};
    CHECK(ns_params_parse_list(&ps, "a=2", &err) == NS_OK);
    ns_game *g = ns_preset_build("a-wythoff", &ps, 2, &err);
    int64_t b[2] = {50, 50}, tile = 0;
    uint64_t lb = 0;
    collect c = {.n0 = 300, .n1 = 300};
    ns_engine_opts o = {.threads = 2, .tile_sink = sink, .tile_user = &c};
    if (g && ns_game_set_bounds(g, b, &err) == NS_OK) {
        CHECK(!ns_engine_can_stream(g, &o, &tile, &lb));
        CHECK(ns_engine_run(g, NULL, &o, &err) == NS_EINVAL && strstr(err.msg, "streaming"));
    }
    ns_game_free(g);
    /* a sink that fails at its 3rd call stops the kernel with NS_EIO */
    ns_params none = {0};
    g = ns_preset_build("wythoff", &none, 2, &err);
    b[0] = b[1] = 300;
    c.vals = calloc(300 * 300, sizeof *c.vals);
    c.seen = calloc(300 * 300, 1);
    c.fail_after = 3;
    if (g && c.vals && c.seen && ns_game_set_bounds(g, b, &err) == NS_OK && ns_engine_can_stream(g, &o, &c.tile, &lb)) {
        err.msg[0] = '\0';
        CHECK(ns_engine_run(g, NULL, &o, &err) == NS_EIO && strstr(err.msg, "sink"));
    }
    free(c.vals);
    free(c.seen);
    ns_game_free(g);
}

int main(void)
{
    const int64_t sizes[] = {1, 127, 128, 129, 300};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int mis = 0; mis <= 1; mis++)
            for (int th = 1; th <= 3; th++) {
                check("wythoff", "", sizes[si], sizes[si], mis, th);
                check("nim", "piles=2", sizes[si], sizes[si], mis, th);
            }
    for (int th = 1; th <= 3; th++) {
        check("wythoff", "", 300, 517, 0, th);
        check("wythoff", "", 129, 40, 1, th);
    }
    check_refusals();
    return TEST_REPORT();
}
