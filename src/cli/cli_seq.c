/* cli_seq.c - see cli_seq.h */
#include "cli/cli_seq.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/ns_period.h"
#include "cli/cli_util.h"
#include "game/ns_octal.h"

int ns_cli_seq_fill(const char *cmd, const ns_game *g, const ns_table *t, ns_meta *m)
{
    ns_period per;
    ns_error err = {0};
    if (ns_period_find(t, g->octal, &per, &err))
        return ns_cli_error(cmd, "%s", err.msg);
    snprintf(m->seq_code, sizeof m->seq_code, "%s", g->octal->code);
    m->seq_argmax = per.argmax;
    m->seq_has_period = per.found;
    m->seq_preperiod = per.found ? per.preperiod : 0;
    m->seq_period = per.found ? per.period : 0;
    m->seq_proven = per.proven;
    return NS_EXIT_OK;
}

void ns_cli_seq_print(const ns_meta *m, int64_t n)
{
    if (!m->seq_code[0])
        return;
    ns_octal o;
    ns_error err = {0};
    const int is_code = strcmp(m->seq_code, "grundy") != 0 && ns_octal_parse(m->seq_code, &o, &err) == NS_OK;
    printf("code:          %s\n", is_code ? m->seq_code : "Grundy's game (split a heap into two unequal heaps)");
    printf("largest at:    heap size %" PRId64 " (value %" PRIu32 ", its first occurrence)\n", m->seq_argmax,
           m->max_value);
    if (!m->seq_has_period) {
        printf("period:        none observed in %" PRId64 " heap sizes (a period p is reported when its periodic "
               "tail spans two periods and half the sequence)\n", n);
        return;
    }
    printf("period:        %" PRId64 " from n = %" PRId64 " (preperiod %" PRId64 "), ", m->seq_period, m->seq_preperiod,
           m->seq_preperiod);
    const int64_t need = is_code ? ns_period_needed(&o, m->seq_preperiod, m->seq_period) : -1;
    if (m->seq_proven && need >= 0 && need <= n)
        printf("proven by the octal periodicity theorem (it needs %" PRId64 " heap sizes, %" PRId64 " computed)\n",
               need, n);
    else if (need >= 0)
        printf("observed, not proven: the octal periodicity theorem needs %" PRId64 " heap sizes, %" PRId64
               " more than the %" PRId64 " computed\n", need, need - n, n);
    else
        printf("observed, not proven (no periodicity theorem for this game)\n");
}
