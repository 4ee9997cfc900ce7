/* test_engine_door.c - the one door to the engines (engine/ns_engine.h).
 *
 * The table: every engine has its required fields, names are unique and
 * found by ns_engine_find, the last entry applies to every in-memory game.
 * The choice: ns_engine_choose picks the first engine of the table that
 * applies and fills this kind of table, and lists exactly the engines before
 * it of that kind with their reasons (each of which indeed does not apply).
 * Known choices: Wythoff Grundy -> tiles2d, Wythoff P/N -> rows-pn, misere
 * P/N -> general (rows-pn: normal play only), Moore 3 piles -> general.
 * Every engine that applies gives the same table, equal cell by cell to the
 * naive mex over the explicitly enumerated options (ns_naive_cell); an engine
 * asked directly for a game it cannot solve refuses with its reason; the
 * plan's line bytes are the chosen engine's memory. */
#include <stdio.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "testutil.h"
#include "tsolve.h"

static ns_game *build(const char *name, const char *params, int k, int64_t n, int misere)
{
    ns_error err = {0};
    ns_params ps = {0};
    if (params[0] && ns_params_parse_list(&ps, params, &err))
        return NULL;
    ns_game *g = ns_preset_build(name, &ps, k, &err);
    int64_t b[NS_MAX_DIM];
    for (int i = 0; i < NS_MAX_DIM; i++)
        b[i] = n;
    if (g && ns_game_set_bounds(g, b, &err)) {
        ns_game_free(g);
        return NULL;
    }
    if (g)
        g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    return g;
}

static void test_table(void)
{
    int n = 0;
    for (; ns_engines[n]; n++) {
        const ns_engine *e = ns_engines[n];
        CHECKF(e->name && e->name[0] && e->what && e->what[0] && e->applies && e->memory && e->run,
               "engine %d lacks a required field", n);
        CHECKF(e->kinds && !(e->kinds & ~(unsigned)(NS_ENGINE_GRUNDY | NS_ENGINE_PN)), "%s: kinds %u", e->name,
               e->kinds);
        CHECKF(ns_engine_find(e->name) == e, "ns_engine_find(%s)", e->name);
        for (int j = 0; j < n; j++)
            CHECKF(strcmp(ns_engines[j]->name, e->name) != 0, "two engines named %s", e->name);
    }
    CHECK(n >= 3 && n <= NS_ENGINE_MAX);
    CHECK(ns_engine_find("no-such-engine") == NULL);
    /* the last engine of games whose moves lower the rank applies to every
     * such game in memory, both kinds (the engines of loopy games, ns_retro.c,
     * come after it: the choice offers them loopy games only) */
    int nl = n;
    while (nl > 1 && ns_engines[nl - 1]->loopy)
        nl--;
    CHECK(nl < n && ns_engine_find("retro") && ns_engine_find("retro")->loopy);
    const ns_engine *last = ns_engines[nl - 1];
    CHECK(last->kinds == (NS_ENGINE_GRUNDY | NS_ENGINE_PN));
    ns_game *g = build("moore", "piles=3;k=2", 3, 6, 1);
    CHECK(g != NULL);
    for (int pn = 0; g && pn <= 1; pn++) {
        ns_engine_opts o = {.pn_only = pn};
        CHECK(last->applies(g, &o, NULL, 0));
    }
    ns_game_free(g);
}

/* choose: the first of the table that applies; the skipped ones have
 * reasons and do not apply */
static const ns_engine *check_choice(const ns_game *g, int pn, const char *expect, const char *skipped_reason)
{
    ns_engine_opts o = {.pn_only = pn};
    ns_engine_choice c;
    ns_engine_choose(g, &o, &c);
    CHECKF(c.engine && strcmp(c.engine->name, expect) == 0, "%s %s: chose %s, expected %s", g->name,
           pn ? "P/N" : "Grundy", c.engine ? c.engine->name : "nothing", expect);
    if (!c.engine)
        return NULL;
    int pos = 0, k = 0;
    for (int i = 0; ns_engines[i]; i++) {
        const ns_engine *e = ns_engines[i];
        if (e == c.engine) {
            pos = 1;
            break;
        }
        if (!(e->kinds & (pn ? NS_ENGINE_PN : NS_ENGINE_GRUNDY)))
            continue;
        char why[NS_ENGINE_WHY] = "";
        CHECKF(!e->applies(g, &o, why, sizeof why), "%s: %s applies but comes first", g->name, e->name);
        CHECKF(k < c.nskipped && c.skipped[k] == e && strcmp(c.why[k], why) == 0 && why[0],
               "%s: skipped engine %d should be %s with its reason", g->name, k, e->name);
        k++;
    }
    CHECK(pos && k == c.nskipped);
    if (skipped_reason) {
        int found = 0;
        for (int i = 0; i < c.nskipped; i++)
            found |= strstr(c.why[i], skipped_reason) != NULL;
        CHECKF(found, "%s %s: no reason mentions '%s'", g->name, pn ? "P/N" : "Grundy", skipped_reason);
    }
    return c.engine;
}

/* every engine that applies: the same table, equal to ns_naive_cell */
static void check_engines_agree(ns_game *g, int pn)
{
    ns_error err = {0};
    ns_table *ref = NULL;
    int napplied = 0;
    for (int i = 0; ns_engines[i]; i++) {
        const ns_engine *e = ns_engines[i];
        ns_engine_opts o = {.threads = 2, .pn_only = pn};
        ns_table *t = ns_engine_table_new(g, pn, &err);
        CHECK(t != NULL);
        if (!t)
            continue;
        char why[NS_ENGINE_WHY];
        const int applies = (e->kinds & (pn ? NS_ENGINE_PN : NS_ENGINE_GRUNDY)) && e->applies(g, &o, why, sizeof why);
        ns_err rc = ns_engine_run_with(e, g, t, &o, &err);
        if (!applies) {
            CHECKF(rc == NS_EINVAL && strstr(err.msg, e->name), "%s: %s does not apply but ran (%d: %s)", g->name,
                   e->name, (int)rc, err.msg);
            ns_table_free(t);
            continue;
        }
        napplied++;
        CHECKF(rc == NS_OK, "%s %s by %s: %s", g->name, pn ? "P/N" : "Grundy", e->name, err.msg);
        if (!ref) {
            uint64_t bad = 0;
            for (uint64_t c = 0; c < t->ncells; c++) {
                int64_t s[NS_MAX_DIM];
                uint64_t r = c;
                for (int d = t->k - 1; d >= 0; d--) {
                    s[d] = (int64_t)(r % (uint64_t)t->bounds[d]);
                    r /= (uint64_t)t->bounds[d];
                }
                uint32_t v = 0;
                if (ns_naive_cell(g, t, s, &v, &err) || v != ns_table_get(t, c))
                    bad++;
            }
            CHECKF(bad == 0, "%s %s by %s: %llu cells differ from the naive mex", g->name, pn ? "P/N" : "Grundy",
                   e->name, (unsigned long long)bad);
            ref = t;
        } else {
            CHECKF(memcmp(ref->data, t->data, (size_t)t->ncells * (size_t)t->elem) == 0,
                   "%s %s: %s differs from the engine before it", g->name, pn ? "P/N" : "Grundy", e->name);
            ns_table_free(t);
        }
    }
    CHECK(napplied >= 1);
    ns_table_free(ref);
}

static void test_plan(ns_game *g, int pn)
{
    ns_engine_opts o = {.pn_only = pn};
    ns_engine_plan plan;
    ns_error err = {0};
    CHECK(ns_engine_plan_for(g, &o, &plan, &err) == NS_OK);
    CHECK(plan.engine && plan.line_bytes == plan.engine->memory(g, &plan));
    CHECK(plan.cells == ns_game_cells(g) && plan.table_bytes == plan.cells * (uint64_t)plan.elem);
}

int main(void)
{
    test_table();
    struct {
        const char *name, *params;
        int k, misere;
        int64_t n;
        const char *grundy, *pn, *why_g, *why_pn;
    } cases[] = {
        {"wythoff", "", 2, 0, 300, "tiles2d", "rows-pn", NULL, NULL},
        {"wythoff", "", 2, 1, 200, "tiles2d", "general", NULL, "normal play"},
        {"nim", "piles=2", 2, 0, 150, "tiles2d", "rows-pn", NULL, NULL},
        {"a-wythoff", "a=3", 2, 0, 160, NULL, "rows-pn", NULL, NULL},
        {"moore", "piles=3;k=2", 3, 0, 10, "general", "general", "2 piles", "2 piles"},
        {"euclid", "", 2, 0, 90, "general", "general", NULL, NULL},
        {"staircase", "piles=3", 3, 0, 9, "general", "general", NULL, NULL},
        {"fibonacci-nim", "", 2, 0, 70, "general", "general", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ns_game *g = build(cases[i].name, cases[i].params, cases[i].k, cases[i].n, cases[i].misere);
        CHECKF(g != NULL, "cannot build %s", cases[i].name);
        if (!g)
            continue;
        for (int pn = 0; pn <= 1; pn++) {
            const char *expect = pn ? cases[i].pn : cases[i].grundy;
            if (expect)
                check_choice(g, pn, expect, pn ? cases[i].why_pn : cases[i].why_g);
            check_engines_agree(g, pn);
            test_plan(g, pn);
        }
        ns_game_free(g);
    }
    /* streaming: the two-pile kernels stream, the general engine does not */
    ns_game *w = build("wythoff", "", 2, 1000, 0), *m = build("moore", "piles=3;k=2", 3, 10, 0);
    int64_t unit = 0;
    uint64_t lb = 0;
    ns_engine_opts g0 = {.pn_only = 0}, p1 = {.pn_only = 1};
    CHECK(w && ns_engine_can_stream(w, &g0, &unit, &lb) && unit > 0 && lb > 0);
    CHECK(w && ns_engine_can_stream(w, &p1, &unit, &lb) && unit > 0 && lb > 0);
    CHECK(m && !ns_engine_can_stream(m, &g0, &unit, &lb) && !ns_engine_can_stream(m, &p1, &unit, &lb));
    ns_game_free(w);
    ns_game_free(m);
    return TEST_REPORT();
}
