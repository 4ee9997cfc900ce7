/* ns_engine.c - the table of engines and the door to them (ns_engine.h). */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The engines, each in its own file. */
extern const ns_engine ns_engine_rows_pn;   /* ns_rows_pn.c */
extern const ns_engine ns_engine_tiles2d;   /* ns_tiles2d.c */
extern const ns_engine ns_engine_rare_common; /* ns_sequence.c */
extern const ns_engine ns_engine_sequence;  /* ns_sequence.c */
extern const ns_engine ns_engine_general;   /* ns_general.c */
extern const ns_engine ns_engine_retro;     /* ns_retro.c: loopy games */

/* Fastest first: the first that applies runs. */
const ns_engine *const ns_engines[] = {
    &ns_engine_rows_pn,
    &ns_engine_tiles2d,
    &ns_engine_rare_common,
    &ns_engine_sequence,
    &ns_engine_general,
    &ns_engine_retro,
    NULL,
};

const ns_engine *ns_engine_find(const char *name)
{
    for (int i = 0; ns_engines[i]; i++)
        if (strcmp(ns_engines[i]->name, name) == 0)
            return ns_engines[i];
    return NULL;
}

void ns_engine_choose(const ns_game *g, const ns_engine_opts *o, ns_engine_choice *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; ns_engines[i]; i++) {
        const ns_engine *e = ns_engines[i];
        if (!(e->kinds & (o->pn_only ? NS_ENGINE_PN : NS_ENGINE_GRUNDY)))
            continue;
        if (!g->loopy && e->loopy)
            continue;
        char *why = c->nskipped < NS_ENGINE_MAX ? c->why[c->nskipped] : NULL;
        if (g->loopy && !e->loopy) {
            if (why)
                snprintf(why, NS_ENGINE_WHY, "the game is loopy (a position may come back): it needs retrograde analysis");
        } else if (e->applies(g, o, why, NS_ENGINE_WHY)) {
            c->engine = e;
            return;
        }
        if (c->nskipped < NS_ENGINE_MAX)
            c->skipped[c->nskipped++] = e;
    }
}

/* The reasons of a choice that found no engine, as one phrase. */
static void none_applies(const ns_engine_choice *c, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->nskipped && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", i ? "; " : "", c->skipped[i]->name, c->why[i]);
}

static uint64_t value_bound(const ns_game *g, int pn_only)
{
    if (pn_only)
        return 1;
    uint64_t b = ns_game_max_options(g);
    return b < 1 ? 1 : b;
}

/* Sizes of g's table for engine e (NULL: whatever the engine): the bound
 * on values is the number of options, or a tighter one the engine checks
 * as it runs (e->checked_bound, o->max_value) unless o->loose_bound. */
static ns_err table_plan(const ns_game *g, const ns_engine *e, const ns_engine_opts *o, ns_engine_plan *plan,
                         ns_error *err)
{
    const int pn_only = o->pn_only;
    memset(plan, 0, sizeof *plan);
    if (g->bounds[0] < 1)
        return ns_error_set(err, NS_EINTERNAL, "the game's bounds are not set");
    plan->cells = ns_game_cells(g);
    plan->max_value = plan->max_value_loose = value_bound(g, pn_only);
    uint64_t tight = 0;
    if (!pn_only && !o->loose_bound && e && e->checked_bound)
        tight = e->checked_bound(g);
    if (!pn_only && o->max_value && (!tight || o->max_value < tight))
        tight = o->max_value;
    if (tight && tight < plan->max_value) {
        plan->max_value = tight;
        plan->bound_checked = 1;
    }
    plan->elem = ns_table_elem_for(plan->max_value);
    if (plan->elem == 0)
        return ns_error_set(err, NS_ERANGE, "values up to %" PRIu64 " do not fit 32-bit cells", plan->max_value);
    /* a heap game's sequence starts at one byte a value: the sequence
     * engines widen the table when a value needs more (the a-priori bound,
     * the number of options of the largest heap, is far above the values) */
    if (g->octal && !pn_only)
        plan->elem = 1;
    plan->table_bytes = ns_table_bytes(g->k, g->bounds, plan->elem);
    int64_t ones[NS_MAX_DIM];
    for (int i = 0; i < NS_MAX_DIM; i++)
        ones[i] = 1;
    plan->levels = ns_game_rank(g, g->bounds) - ns_game_rank(g, ones) + 1;
    return NS_OK;
}

static ns_err plan_with(const ns_engine *e, const ns_game *g, const ns_engine_opts *o, ns_engine_plan *plan,
                        ns_error *err)
{
    ns_err rc = table_plan(g, e, o, plan, err);
    if (rc)
        return rc;
    plan->engine = e;
    plan->line_bytes = e->memory(g, plan);
    plan->line_bytes_max = e->memory_max ? e->memory_max(g, plan) : plan->line_bytes;
    return NS_OK;
}

ns_err ns_engine_plan_for(const ns_game *g, const ns_engine_opts *o, ns_engine_plan *plan, ns_error *err)
{
    ns_engine_choice c;
    ns_engine_choose(g, o, &c);
    if (!c.engine) {
        char why[NS_ENGINE_MAX * (NS_ENGINE_WHY + 16)];
        none_applies(&c, why, sizeof why);
        memset(plan, 0, sizeof *plan);
        return ns_error_set(err, NS_EINVAL, "no engine can solve %s%s (%s)", g->name,
                            o->tile_sink || o->rows_sink ? " streaming" : "", why);
    }
    ns_err rc = plan_with(c.engine, g, o, plan, err);
    plan->choice = c;
    return rc;
}

ns_table *ns_engine_table_new(const ns_game *g, int pn_only, ns_error *err)
{
    ns_engine_opts o;
    memset(&o, 0, sizeof o);
    o.pn_only = pn_only;
    ns_engine_choice c;
    ns_engine_choose(g, &o, &c);
    ns_engine_plan plan;
    if (table_plan(g, c.engine, &o, &plan, err))
        return NULL;
    return ns_table_new(g->k, g->bounds, plan.elem, pn_only, err);
}

ns_err ns_engine_resume_with(const ns_engine *e, const ns_game *g, ns_table *t, const ns_engine_opts *o,
                             uint64_t units_done, ns_error *err)
{
    char why[NS_ENGINE_WHY];
    if (g->loopy && !e->loopy)
        return ns_error_set(err, NS_EINVAL, "the %s engine cannot solve %s: the game is loopy (%s)", e->name, g->name,
                            g->loopy_why[0] ? g->loopy_why : "its moves need not lower the rank");
    if (!e->applies(g, o, why, sizeof why))
        return ns_error_set(err, NS_EINVAL, "the %s engine cannot solve %s: %s", e->name, g->name, why);
    const int sink = o->tile_sink || o->rows_sink;
    /* owned line sets: the processes but the holder skip the finished tiles */
    const ns_tile_exchange *x = o->tile_exchange;
    const int skips = x && x->acquire && x->release && !x->holder;
    if (sink && units_done && o->tile_sink && !o->tile_source && !skips)
        return ns_error_set(err, NS_EINVAL, "a streamed resume of Grundy tiles needs a tile source");
    if (sink && units_done && o->rows_sink && !o->resume_p && o->resume_np)
        return ns_error_set(err, NS_EINVAL, "a streamed resume of P/N rows needs the finished rows' P-positions");
    if (units_done && !e->resume)
        return ns_error_set(err, NS_EINVAL, "the %s engine cannot resume", e->name);
    if (!sink && !t)
        return ns_error_set(err, NS_EINTERNAL, "no table and no sink");
    ns_engine_plan plan;
    ns_err rc = plan_with(e, g, o, &plan, err);
    if (rc)
        return rc;
    if (t) {
        if (t->k != g->k || t->pn_only != o->pn_only)
            return ns_error_set(err, NS_EINTERNAL, "table does not match the game's plan");
        for (int i = 0; i < g->k; i++)
            if (t->bounds[i] != g->bounds[i])
                return ns_error_set(err, NS_EINTERNAL, "table bounds do not match the game's");
        /* a table made for another engine's checked bound: as wide as
         * this engine's plan needs (the cells done so far kept) */
        if (t->elem < plan.elem && (rc = ns_table_widen(t, plan.elem, t->ncells, err)))
            return rc;
    }
    rc = units_done ? e->resume(g, t, &plan, o, units_done, err) : e->run(g, t, &plan, o, err);
    if (rc != NS_ERANGE || !plan.bound_checked || !t || o->tile_exchange)
        return rc;
    /* a value above the checked bound (the engine stopped, nothing
     * wrapped): in memory, redo with the proven bound; the units done
     * before hold values below the checked bound */
    ns_engine_opts loose = *o;
    loose.loose_bound = 1;
    loose.max_value = 0;
    if ((rc = plan_with(e, g, &loose, &plan, err)))
        return rc;
    if (t->elem < plan.elem && (rc = ns_table_widen(t, plan.elem, t->ncells, err)))
        return rc;
    return units_done ? e->resume(g, t, &plan, &loose, units_done, err) : e->run(g, t, &plan, &loose, err);
}

ns_err ns_engine_run_with(const ns_engine *e, const ns_game *g, ns_table *t, const ns_engine_opts *o, ns_error *err)
{
    return ns_engine_resume_with(e, g, t, o, 0, err);
}

ns_err ns_engine_resume(const ns_game *g, ns_table *t, const ns_engine_opts *o, uint64_t units_done, ns_error *err)
{
    ns_engine_choice c;
    ns_engine_choose(g, o, &c);
    if (!c.engine) {
        char why[NS_ENGINE_MAX * (NS_ENGINE_WHY + 16)];
        none_applies(&c, why, sizeof why);
        return ns_error_set(err, NS_EINVAL, "no engine can solve %s%s (%s)", g->name,
                            o->tile_sink || o->rows_sink ? " streaming" : "", why);
    }
    return ns_engine_resume_with(c.engine, g, t, o, units_done, err);
}

ns_err ns_engine_run(const ns_game *g, ns_table *t, const ns_engine_opts *o, ns_error *err)
{
    return ns_engine_resume(g, t, o, 0, err);
}

/* stand-ins for a probe's sinks: never called */
static int probe_tiles(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    (void)user, (void)x0, (void)y0, (void)nx, (void)ny, (void)vals;
    return 1;
}

static int probe_rows(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p)
{
    (void)user, (void)x0, (void)nrows, (void)words, (void)p;
    return 1;
}

int ns_engine_can_stream(const ns_game *g, const ns_engine_opts *opts, int64_t *unit, uint64_t *line_bytes)
{
    ns_engine_opts probe = *opts;
    probe.tile_sink = NULL;
    probe.rows_sink = NULL;
    if (opts->pn_only)
        probe.rows_sink = probe_rows;
    else
        probe.tile_sink = probe_tiles;
    ns_engine_choice c;
    ns_engine_choose(g, &probe, &c);
    ns_engine_plan plan;
    ns_error err = {0};
    if (!c.engine || !c.engine->stream_unit || plan_with(c.engine, g, &probe, &plan, &err))
        return 0;
    *unit = c.engine->stream_unit();
    *line_bytes = plan.line_bytes;
    return 1;
}
