/* test_retro_lines.c - the retro engine's state rebuilt from decided cells
 * (retro_rebuild and its retro_rebuild_lines, engine/ns_retro.c, included
 * here for its static functions): a solve restarted after L frontiers from the cells a fresh
 * solve decided with remoteness <= L (those below L processed, those of
 * remoteness L the next frontier) must end in the fresh solve's table and
 * remoteness, for every L from 0 to past the largest remoteness, at 1
 * and 2 threads. The restart is the resume's own retro_rebuild (the counts
 * of the finite and general families less their options already processed
 * N, one by one; the lines' `last` and `hip`, the rays' counts and the N
 * cells not yet processed by retro_rebuild_lines), then retro_search. The games
 * have rays of several directions (shared, off the line, with holes in a
 * domain), finite and general families, many frontiers (Wythoff forced
 * through retro: remoteness grows with the box) and draws. The fresh
 * solve itself is checked against a naive solver in test_retro. */
#include "engine/ns_retro.c"

#include "game/ns_rules.h"
#include "testutil.h"

/* A solve restarted at `level` from ref (table) and rrem, through the
 * resume's own rebuild (retro_rebuild: the counts of finite and general
 * families less their options processed N, then retro_rebuild_lines);
 * into *t, *rem. */
static ns_err restart(const ns_game *g, const ns_table *ref, const uint32_t *rrem, uint32_t level, int threads,
                      ns_table **tout, uint32_t **remout, ns_error *err)
{
    ns_table *t = ns_engine_table_new(g, 1, err);
    uint32_t *rem = t ? malloc(t->ncells * sizeof *rem) : NULL;
    if (!t || !rem) {
        ns_table_free(t);
        free(rem);
        return NS_ENOMEM;
    }
    const uint64_t n = t->ncells;
    uint8_t *cells = t->data;
    /* the checkpoint: the cells decided with remoteness <= level, the
     * other positions undecided */
    for (uint64_t i = 0; i < n; i++) {
        int64_t s[NS_MAX_DIM];
        ns_table_coords(t, i, s);
        if (!ns_game_is_position(g, s)) {
            cells[i] = INVAL;
            rem[i] = NS_REMOTE_NONE;
        } else if (rrem[i] != NS_REMOTE_NONE && rrem[i] <= level) {
            cells[i] = (uint8_t)ns_table_get(ref, i);
            rem[i] = rrem[i];
        } else {
            cells[i] = UNDEC;
            rem[i] = NS_REMOTE_NONE;
        }
    }
    ns_engine_plan plan = {.cells = n};
    retro R = {.g = g, .t = t, .out = t->data, .rem = rem, .err = err};
    ns_err rc = retro_rebuild(&R, &plan, threads, level);
    if (!rc) {
        ns_engine_opts o = {.threads = threads, .pn_only = 1, .remoteness = rem};
        rc = retro_search(&R, level, threads, &o);
    }
    retro_free(&R);
    if (rc) {
        ns_table_free(t);
        free(rem);
        return rc;
    }
    *tout = t;
    *remout = rem;
    return NS_OK;
}

static void check_restarts(const ns_game *g, const char *name)
{
    ns_error err = {0};
    ns_table *ref = ns_engine_table_new(g, 1, &err);
    uint32_t *rrem = ref ? malloc(ref->ncells * sizeof *rrem) : NULL;
    ns_engine_opts o = {.threads = 2, .pn_only = 1, .remoteness = rrem};
    CHECKF(ref && rrem && ns_engine_run_with(&ns_engine_retro, g, ref, &o, &err) == 0, "%s: %s", name, err.msg);
    if (!ref || !rrem) {
        ns_table_free(ref);
        free(rrem);
        return;
    }
    uint32_t maxr = 0;
    uint64_t nd = 0;
    for (uint64_t i = 0; i < ref->ncells; i++) {
        if (rrem[i] != NS_REMOTE_NONE && rrem[i] > maxr)
            maxr = rrem[i];
        nd += ns_table_get(ref, i) == NS_PN_DRAW;
    }
    CHECKF(maxr >= 3, "%s: largest remoteness %u: too few frontiers to test", name, maxr);
    for (int th = 1; th <= 2; th++)
        for (uint32_t level = 0; level <= maxr + 1; level++) {
            ns_table *t = NULL;
            uint32_t *rem = NULL;
            ns_err rc = restart(g, ref, rrem, level, th, &t, &rem, &err);
            CHECKF(rc == 0, "%s at level %u: %s", name, level, err.msg);
            if (rc)
                continue;
            uint64_t diff = 0, first = 0;
            for (uint64_t i = 0; i < ref->ncells; i++)
                if (ns_table_get(t, i) != ns_table_get(ref, i) || rem[i] != rrem[i]) {
                    if (!diff)
                        first = i;
                    diff++;
                }
            CHECKF(diff == 0, "%s, %d threads, restarted at level %u (of %u, %" PRIu64 " draws): %" PRIu64
                   " cells differ from the fresh solve, first cell %" PRIu64 ": %u/%u against %u/%u",
                   name, th, level, maxr, nd, diff, first, ns_table_get(t, first), rem[first], ns_table_get(ref, first),
                   rrem[first]);
            ns_table_free(t);
            free(rem);
        }
    ns_table_free(ref);
    free(rrem);
}

static int valid_holes(const void *ctx, int k, const int64_t *s)
{
    (void)ctx, (void)k;
    return (s[0] + 2 * s[1]) % 7 != 3;
}

int main(void)
{
    static const struct {
        const char *name, *text;
        int64_t n0, n1;
    } files[] = {
        {"wythoff (forced through retro)",
         "piles x y\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n"
         "move (x, y) -> (x - t, y - t) for t in 1..min(x, y)\n", 40, 33},
        {"wythoff misere (forced through retro)",
         "piles x y\nplay misere\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n"
         "move (x, y) -> (x - t, y - t) for t in 1..min(x, y)\n", 29, 37},
        {"2-wythoff and a token",
         "piles x y\noutside forbid\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n"
         "move (x, y) -> (x - t, y - u) for t in 1..x for u in t-1..t+1 where u >= 1 and u <= y\n"
         "move (x, y) -> (x + 1, y - 1) where y >= 1\n", 31, 31},
        {"take, grow and rays",
         "piles x y\noutside forbid\nmove x -> x - t for t in 2..x\nmove y -> y - 2 where y >= 2\n"
         "move (x, y) -> (x + 1, y - 1) where y >= 1\nmove (x, y) -> (x, y + 1) where x >= 2\n"
         "move (x, y) -> (x - t, y - t) for t in 1..min(x, y)\n", 24, 27},
    };
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        ns_error err = {0};
        ns_game *g = NULL;
        const int64_t b[2] = {files[f].n0, files[f].n1};
        CHECKF(ns_rules_compile(files[f].text, "t.rules", NULL, 0, &g, &err) == 0 && ns_game_set_bounds(g, b, &err) == 0,
               "%s: %s", files[f].name, err.msg);
        if (g)
            check_restarts(g, files[f].name);
        ns_game_free(g);
    }
    /* through the API: rays of one direction with different first options,
     * a ray off its line with steps of 2, a domain with holes, tokens */
    for (int mis = 0; mis <= 1; mis++) {
        ns_error err = {0};
        ns_game *g = ns_game_new("api", 2);
        g->loopy = 1;
        g->play = mis ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
        static const int64_t tok[2] = {1, -1};
        const int64_t dx[2] = {-1, 0}, dy[2] = {0, -1}, dd[2] = {-1, -1}, e1[2] = {-2, -1}, d2[2] = {-2, -2},
                      e2[2] = {-1, 0};
        CHECK(ns_game_add_ray(g, "x", dx, dx, &err) == 0 && ns_game_add_ray(g, "y", dy, dy, &err) == 0 &&
              ns_game_add_ray(g, "diag", dd, dd, &err) == 0 && ns_game_add_ray(g, "diag+1", dd, e1, &err) == 0 &&
              ns_game_add_ray(g, "by 2", d2, e2, &err) == 0 && ns_game_add_finite(g, "token", tok, 1, &err) == 0);
        if (mis)
            g->valid = valid_holes;
        const int64_t b[2] = {35, 30};
        CHECKF(ns_game_set_bounds(g, b, &err) == 0, "%s", err.msg);
        check_restarts(g, mis ? "api misere, holes" : "api");
        ns_game_free(g);
    }
    return TEST_REPORT();
}
