/* ns_sweep_octal.c - the period of a take-and-break game's sequence in a
 * sweep row, by ns_period_find as the census finds it (a file of its own:
 * analysis/ns_period.h and analysis/ns_patterns.h both name a type
 * ns_period). See ns_sweep.h. */
#include "analysis/ns_period.h"
#include "analysis/ns_sweep.h"
#include "engine/ns_engine.h"

ns_err ns_sweep_summarise_octal(const ns_game *g, const ns_table *t, ns_sweep_row *row, ns_error *err)
{
    ns_period per;
    const ns_err rc = ns_period_find(t, g->octal, &per, err);
    if (rc)
        return rc;
    row->period = per.found ? per.period : 0;
    row->preperiod = per.found ? per.preperiod : 0;
    row->saltus = per.found ? per.saltus : 0;
    row->proven = per.found && per.proven;
    return NS_OK;
}

int ns_sweep_octal_stop(void *user, uint64_t done, uint64_t total)
{
    ns_sweep_until *u = user;
    const int64_t N = u->t->bounds[0];
    const int64_t n = done >= total ? N : (int64_t)done * NS_SEQ_UNIT;
    if (n < u->next_check || n >= N)
        return 0;
    u->next_check = n < ((int64_t)1 << 20) ? n + 1 : n + n / 8;
    ns_table view = *u->t; /* G(0 .. n-1): final */
    view.bounds[0] = n;
    view.ncells = (uint64_t)n;
    view.mapped = 0;
    ns_period per;
    ns_error err = {0};
    if (ns_period_find(&view, u->octal, &per, &err) || !per.found || !per.proven || per.saltus)
        return 0;
    u->at = n;
    u->period = per.period;
    return 1;
}

void ns_sweep_octal_extend(ns_table *t, const ns_sweep_until *u)
{
    /* proven: G(i) = G(i - p) for every i >= n0 + p, and at >= n0 + p */
    for (int64_t i = u->at; i < t->bounds[0]; i++)
        ns_table_set(t, (uint64_t)i, ns_table_get(t, (uint64_t)(i - u->period)));
}
