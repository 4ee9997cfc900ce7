/* test_tiles2d_bound.c - the checked value bound of the tile kernel.
 *
 * Nim and Wythoff in a square box are planned with the bound 2(N - 1) (not
 * the number of options, 3(N - 1) for Wythoff): 16-bit cells at N = 32768,
 * line sets a third smaller; a rectangle, --loose-bound and P/N tables keep
 * the proven bound. The kernel checks the bound: the test hook
 * ns_engine_opts.max_value lowers it to just below the largest value of an
 * independent naive solve (naive.h), and then a streamed solve stops with
 * NS_ERANGE naming the bound, while a solve in memory is redone with the
 * proven bound (its one-byte table widened) and equals the naive table; at
 * the largest value itself both succeed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "naive.h"
#include "testutil.h"

static ns_game *build(const char *name, const char *params, int64_t n0, int64_t n1)
{
    ns_error err = {0};
    ns_params ps = {0};
    CHECK(ns_params_parse_list(&ps, params, &err) == NS_OK);
    ns_game *g = ns_preset_build(name, &ps, 2, &err);
    int64_t b[2] = {n0, n1};
    CHECK(g && ns_game_set_bounds(g, b, &err) == NS_OK);
    return g;
}

/* the plan's bounds and cell widths, against closed forms */
static void check_plans(void)
{
    ns_error err = {0};
    const int64_t n = 32768;
    ns_game *w = build("wythoff", "", n, n), *nim = build("nim", "piles=2", n, n);
    ns_engine_plan p, q;
    ns_engine_opts o = {0}, loose = {.loose_bound = 1};
    if (w && ns_engine_plan_for(w, &o, &p, &err) == NS_OK && ns_engine_plan_for(w, &loose, &q, &err) == NS_OK) {
        CHECK(strcmp(p.engine->name, "tiles2d") == 0);
        CHECKF(p.bound_checked && p.max_value == 2 * (uint64_t)(n - 1) && p.elem == 2,
               "wythoff %lld: checked %d, bound %llu, elem %d", (long long)n, p.bound_checked,
               (unsigned long long)p.max_value, p.elem);
        CHECK(p.max_value_loose == 3 * (uint64_t)n); /* N options a ray */
        CHECK(!q.bound_checked && q.max_value == 3 * (uint64_t)n && q.elem == 4);
        /* sets of 2N - 1 values against 3N - 2: words 1024 + tail against
         * 1536 + tail, per line and summary */
        CHECKF(p.line_bytes * 10 < q.line_bytes * 7, "line sets %llu against %llu bytes",
               (unsigned long long)p.line_bytes, (unsigned long long)q.line_bytes);
        ns_table *t = ns_engine_table_new(w, 0, &err);
        CHECK(t && t->elem == 2);
        ns_table_free(t);
    } else {
        CHECKF(0, "plan: %s", err.msg);
    }
    if (nim && ns_engine_plan_for(nim, &o, &p, &err) == NS_OK)
        CHECK(p.bound_checked && p.max_value == 2 * (uint64_t)(n - 1));
    ns_game_free(w);
    ns_game_free(nim);
    /* a rectangle and P/N tables: the proven bound */
    w = build("wythoff", "", 300, 517);
    if (w && ns_engine_plan_for(w, &o, &p, &err) == NS_OK)
        CHECK(!p.bound_checked && p.max_value == p.max_value_loose);
    ns_engine_opts pn = {.pn_only = 1};
    if (w && ns_engine_plan_for(w, &pn, &p, &err) == NS_OK)
        CHECK(!p.bound_checked && p.max_value == 1);
    ns_game_free(w);
}

/* the cell width of g's plan with the proven bound */
static int p_loose_elem(const ns_game *g)
{
    ns_error err = {0};
    ns_engine_plan p;
    ns_engine_opts o = {.loose_bound = 1};
    return ns_engine_plan_for(g, &o, &p, &err) == NS_OK ? p.elem : -1;
}

typedef struct collect {
    int64_t n;
    uint32_t *vals;
} collect;

static int sink(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *v)
{
    collect *c = user;
    for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++)
            c->vals[(x0 + i) * c->n + y0 + j] = v[i * ny + j];
    return 0;
}

/* Wythoff (or Nim) n x n with the checked bound forced to cap: streamed,
 * then in memory in a table of one byte a cell. */
static void check_forced(ns_ref_kind kind, const char *name, const char *params, int64_t n, int misere, int threads)
{
    ns_error err = {0};
    ns_game *g = build(name, params, n, n);
    if (!g)
        return;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    ns_ref_game rg = {.kind = kind, .k = 2};
    const int64_t b[2] = {n, n};
    uint32_t *ref = ns_ref_solve(&rg, b, misere);
    collect c = {.n = n, .vals = calloc((size_t)(n * n), sizeof *c.vals)};
    CHECK(ref && c.vals);
    if (!ref || !c.vals)
        goto done;
    uint32_t top = 0;
    for (int64_t i = 0; i < n * n; i++)
        top = ref[i] > top ? ref[i] : top;
    CHECKF(top <= 2 * (uint32_t)(n - 1), "%s %lld: the largest value %u is above 2(N-1)", name, (long long)n, top);
    for (uint32_t cap = top - 1; cap <= top; cap++) {
        const int over = cap < top;
        ns_engine_opts o = {.threads = threads, .tile_sink = sink, .tile_user = &c, .max_value = cap};
        err.msg[0] = '\0';
        ns_err rc = ns_engine_run(g, NULL, &o, &err);
        if (over) {
            CHECKF(rc == NS_ERANGE && strstr(err.msg, "checked bound"),
                   "%s %lld, bound %u streamed: rc %d '%s'", name, (long long)n, cap, (int)rc, err.msg);
        } else {
            uint64_t diff = 0;
            for (int64_t i = 0; i < n * n; i++)
                diff += c.vals[i] != ref[i];
            CHECKF(rc == NS_OK && diff == 0, "%s %lld, bound %u streamed: rc %d '%s', %llu cells differ", name,
                   (long long)n, cap, (int)rc, err.msg, (unsigned long long)diff);
        }
        /* in memory: a table of the width of the forced bound, redone */
        ns_table *t = ns_table_new(2, b, ns_table_elem_for(cap), 0, &err);
        ns_engine_opts om = {.threads = threads, .max_value = cap};
        CHECK(t != NULL);
        if (t) {
            rc = ns_engine_run(g, t, &om, &err);
            CHECKF(rc == NS_OK && ns_ref_compare(name, t, ref) == 0, "%s %lld, bound %u in memory: rc %d '%s'",
                   name, (long long)n, cap, (int)rc, err.msg);
            CHECK(t->elem == (over ? p_loose_elem(g) : ns_table_elem_for(cap)));
        }
        ns_table_free(t);
    }
done:
    free(ref);
    free(c.vals);
    ns_game_free(g);
}

int main(void)
{
    check_plans();
    for (int th = 1; th <= 3; th++) {
        /* values cross 255 at N = 200: the one-byte table widens */
        check_forced(NS_REF_WYTHOFF, "wythoff", "", 200, 0, th);
        check_forced(NS_REF_WYTHOFF, "wythoff", "", 130, 1, th);
        check_forced(NS_REF_NIM, "nim", "piles=2", 129, 0, th);
    }
    return TEST_REPORT();
}
