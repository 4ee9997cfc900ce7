/* tsolve.c - see tsolve.h. */
#include "tsolve.h"

#include <stdio.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "game/ns_rules.h"

ns_table *ns_tsolve_game(const char *name, const char *params_text, int k, const int64_t *bounds,
                         int misere, int pn_only, int threads, ns_game **game)
{
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = NULL;
    ns_table *t = NULL;
    *game = NULL;
    if (ns_params_parse_list(&ps, params_text, &err))
        goto fail;
    g = ns_preset_build(name, &ps, k, &err);
    if (!g)
        goto fail;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    if (ns_game_set_bounds(g, bounds, &err))
        goto fail;
    t = ns_engine_table_new(g, pn_only, &err);
    if (!t)
        goto fail;
    ns_engine_opts opts = {.threads = threads, .pn_only = pn_only};
    if (ns_engine_run(g, t, &opts, &err))
        goto fail;
    *game = g;
    return t;
fail:
    fprintf(stderr, "%s [%s]: %s\n", name, params_text, err.msg);
    ns_table_free(t);
    ns_game_free(g);
    return NULL;
}

ns_table *ns_tsolve(const char *name, const char *params_text, int k, const int64_t *bounds,
                    int misere, int pn_only, int threads)
{
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game(name, params_text, k, bounds, misere, pn_only, threads, &g);
    ns_game_free(g);
    return t;
}

const char *ns_test_engine_name(const ns_game *g, const ns_engine_opts *o)
{
    ns_engine_choice c;
    ns_engine_choose(g, o, &c);
    return c.engine ? c.engine->name : "(none)";
}

ns_table *ns_tsolve_built(ns_game *g, const int64_t *bounds, int misere, int pn_only, int threads, ns_error *err)
{
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    if (ns_game_set_bounds(g, bounds, err))
        return NULL;
    ns_table *t = ns_engine_table_new(g, pn_only, err);
    if (!t)
        return NULL;
    ns_engine_opts opts = {.threads = threads, .pn_only = pn_only};
    if (ns_engine_run(g, t, &opts, err)) {
        ns_table_free(t);
        return NULL;
    }
    return t;
}

ns_table *ns_tsolve_rules(const char *text, int k, const int64_t *bounds, int misere, int pn_only,
                          int threads, ns_game **game)
{
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = NULL;
    ns_table *t = NULL;
    if (game)
        *game = NULL;
    if (ns_rules_compile(text, "(test rules)", &ps, k, &g, &err) ||
        !(t = ns_tsolve_built(g, bounds, misere, pn_only, threads, &err)))
        goto fail;
    if (game)
        *game = g;
    else
        ns_game_free(g);
    return t;
fail:
    fprintf(stderr, "rules: %s\n", err.msg);
    ns_table_free(t);
    ns_game_free(g);
    return NULL;
}

ns_game *ns_tbuild(const char *name, const char *params_text, int k, const int64_t *bounds)
{
    ns_params ps = {0};
    ns_error err = {0};
    if (params_text[0] && ns_params_parse_list(&ps, params_text, &err)) {
        fprintf(stderr, "%s: %s\n", params_text, err.msg);
        return NULL;
    }
    ns_game *g = ns_preset_build(name, &ps, k, &err);
    if (!g || ns_game_set_bounds(g, bounds, &err)) {
        fprintf(stderr, "%s %s: %s\n", name, params_text, err.msg);
        ns_game_free(g);
        return NULL;
    }
    return g;
}

ns_game *ns_tbuild1(const char *name, const char *params_text, int64_t n)
{
    return ns_tbuild(name, params_text, 0, &n);
}

ns_game *ns_tbuild_code(const char *preset, const char *code, int64_t n, char params[32])
{
    params[0] = '\0';
    if (code)
        snprintf(params, 32, "code=%s", code);
    return ns_tbuild1(preset, params, n);
}

ns_table *ns_trun_engine(const ns_game *g, const char *engine, int elem, const struct ns_engine_opts *o)
{
    ns_error err = {0};
    ns_table *t = elem ? ns_table_new(1, g->bounds, elem, 0, &err) : ns_engine_table_new(g, 0, &err);
    const ns_engine *e = ns_engine_find(engine);
    if (!t || !e || ns_engine_run_with(e, g, t, o, &err)) {
        fprintf(stderr, "%s: %s\n", g->name, e ? err.msg : "no such engine");
        ns_table_free(t);
        return NULL;
    }
    return t;
}

int64_t ns_tfirst_diff(const ns_table *t, const uint32_t *ref, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (ns_table_get(t, (uint64_t)i) != ref[i])
            return i;
    return -1;
}

ns_table *ns_trun_compare(const ns_game *g, const char *engine, int elem, const struct ns_engine_opts *o,
                          const uint32_t *ref, int64_t n, char why[128])
{
    why[0] = 0;
    ns_table *t = ns_trun_engine(g, engine, elem, o);
    if (!t) {
        snprintf(why, 128, "the %s run failed", engine);
        return NULL;
    }
    const int64_t d = ns_tfirst_diff(t, ref, n);
    if (d >= 0)
        snprintf(why, 128, "N = %lld: G(%lld) = %u, the reference says %u", (long long)n, (long long)d,
                 ns_table_get(t, (uint64_t)d), ref[d]);
    return t;
}

uint64_t ns_tnim3_bad(const ns_table *t, const int64_t b[3], uint64_t below)
{
    uint64_t bad = 0;
    int64_t s[3];
    for (s[0] = 0; t && s[0] < b[0]; s[0]++)
        for (s[1] = 0; s[1] < b[1]; s[1]++)
            for (s[2] = 0; s[2] < b[2]; s[2]++)
                if ((uint64_t)(s[0] + s[1] + s[2]) < below)
                    bad += ns_table_get(t, ns_table_index(t, s)) != (uint32_t)(s[0] ^ s[1] ^ s[2]);
    return bad;
}
