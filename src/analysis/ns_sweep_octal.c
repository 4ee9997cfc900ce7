/* ns_sweep_octal.c - the period of a take-and-break game's sequence in a
 * sweep row, by ns_period_find as the census finds it (a file of its own:
 * analysis/ns_period.h and analysis/ns_patterns.h both name a type
 * ns_period). See ns_sweep.h. */
#include "analysis/ns_period.h"
#include "analysis/ns_sweep.h"

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
