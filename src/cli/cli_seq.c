/* cli_seq.c - see cli_seq.h */
#include "cli/cli_seq.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_heapmove.h"
#include "analysis/ns_period.h"
#include "cli/cli_json.h"
#include "cli/cli_util.h"
#include "game/ns_octal.h"
#include "store/ns_h5.h"

int ns_cli_seq_fill(const char *cmd, const ns_game *g, const ns_table *t, uint32_t rare_mask, int64_t **rare,
                    ns_meta *m)
{
    *rare = NULL;
    m->seq_rare_mask = 0;
    m->seq_nrare = 0;
    m->seq_rare = NULL;
    if (rare_mask) {
        const int64_t n = t->bounds[0];
        int64_t nr = 0;
        for (int64_t i = 0; i < n; i++)
            nr += !(__builtin_popcount(ns_table_get(t, (uint64_t)i) & rare_mask) & 1);
        if (!(*rare = malloc((size_t)(nr ? nr : 1) * sizeof **rare)))
            return ns_cli_error(cmd, "out of memory for the %" PRId64 " rare heap sizes", nr);
        nr = 0;
        for (int64_t i = 0; i < n; i++)
            if (!(__builtin_popcount(ns_table_get(t, (uint64_t)i) & rare_mask) & 1))
                (*rare)[nr++] = i;
        m->seq_rare_mask = rare_mask;
        m->seq_nrare = nr;
        m->seq_rare = *rare;
    }
    ns_period per;
    ns_error err = {0};
    if (ns_period_find(t, g->octal, &per, &err))
        return ns_cli_error(cmd, "%s", err.msg);
    snprintf(m->seq_code, sizeof m->seq_code, "%s", g->octal->code);
    m->seq_argmax = per.argmax;
    m->seq_has_period = per.found;
    m->seq_preperiod = per.found ? per.preperiod : 0;
    m->seq_period = per.found ? per.period : 0;
    m->seq_saltus = per.found ? per.saltus : 0;
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
    printf("code:          %s\n", is_code ? m->seq_code
                                   : strcmp(m->seq_code, "rules") == 0 ? "none (split moves of a rule file)"
                                   : "Grundy's game (split a heap into two unequal heaps)");
    printf("largest at:    heap size %" PRId64 " (value %" PRIu32 ", its first occurrence)\n", m->seq_argmax,
           m->max_value);
    if (m->seq_rare_mask)
        printf("rare values:   mask %" PRIu32 " (0x%" PRIx32 "): %" PRId64 " of the %" PRId64 " heap sizes have a "
               "rare value, popcount(G(n) & mask) even (listed in /rare)\n",
               m->seq_rare_mask, m->seq_rare_mask, m->seq_nrare, n);
    if (!m->seq_has_period) {
        printf("period:        none observed in %" PRId64 " heap sizes (a period p is reported when its periodic "
               "tail spans two periods and half the sequence)\n", n);
        return;
    }
    if (m->seq_saltus) {
        printf("period:        arithmetic: G(n+%" PRId64 ") = G(n) + %" PRId64 " from n = %" PRId64 " (period %" PRId64
               ", saltus %" PRId64 ", preperiod %" PRId64 "), observed, not proven: nimsieve does not check the "
               "hypotheses of the arithmetic-periodicity theorem for hexadecimal games (Howse and Nowakowski 2004)%s\n",
               m->seq_period, m->seq_saltus, m->seq_preperiod, m->seq_period, m->seq_saltus, m->seq_preperiod,
               is_code && o.max_heaps < 3 ? "; a finite octal code is never arithmetic-periodic (Horrocks and "
                                            "Nowakowski 2003), so this holds in the computed range only" : "");
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

int ns_cli_seq_patterns(const char *cmd, const ns_game *g, const ns_table *t, int json)
{
    ns_period per;
    ns_error err = {0};
    if (ns_period_find(t, g->octal, &per, &err))
        return ns_cli_error(cmd, "%s", err.msg);
    const int64_t n = t->bounds[0];
    char rule[400];
    if (!per.found)
        snprintf(rule, sizeof rule, "none");
    else if (per.saltus)
        snprintf(rule, sizeof rule, "arithmetic period (saltus %" PRId64 "): observed, not proven; nimsieve does not "
                 "check the hypotheses of the arithmetic-periodicity theorem for hexadecimal games (Howse and "
                 "Nowakowski 2004)%s", per.saltus, g->octal->max_heaps < 3 ? "; a finite octal code is never "
                 "arithmetic-periodic (Horrocks and Nowakowski 2003): this holds in the computed range only" : "");
    else if (per.proven)
        snprintf(rule, sizeof rule, "octal periodicity theorem: G(n+p) = G(n) checked over the first %" PRId64 " heap sizes "
                 "(j n0 + j p + k, j heaps left by a move, k the last digit) holds for every n >= n0; %" PRId64
                 " computed", per.needed, n);
    else if (per.theorem)
        snprintf(rule, sizeof rule, "observed, not proven: the octal periodicity theorem needs %" PRId64 " heap sizes, "
                 "%" PRId64 " more than the %" PRId64 " computed", per.needed, per.needed - n, n);
    else
        snprintf(rule, sizeof rule, "observed, not proven (no periodicity theorem for this game)");
    if (json) {
        printf("\"found\": %s", per.found ? "true" : "false");
        if (per.found) {
            printf(", \"preperiod\": %" PRId64 ", \"period\": %" PRId64 ", \"saltus\": %" PRId64 ", \"proven\": %s, "
                   "\"needed\": %" PRId64 ", \"table_to\": %" PRId64 ", \"rule\": ", per.preperiod, per.period,
                   per.saltus, per.proven ? "true" : "false", per.needed, n - 1);
            ns_json_string(stdout, rule);
        }
        return NS_EXIT_OK;
    }
    if (!per.found) {
        printf("period:      none observed in %" PRId64 " heap sizes (a period p is reported when its periodic tail "
               "spans two periods and half the sequence)\n", n);
        return NS_EXIT_OK;
    }
    if (per.saltus)
        printf("period:      arithmetic: period %" PRId64 ", saltus %" PRId64 ", preperiod %" PRId64 ": G(n+%" PRId64
               ") = G(n) + %" PRId64 " for %" PRId64 " <= n < %" PRId64 "\n", per.period, per.saltus, per.preperiod,
               per.period, per.saltus, per.preperiod, n - per.period);
    else
        printf("period:      %" PRId64 ", preperiod %" PRId64 ": G(n+%" PRId64 ") = G(n) for %" PRId64 " <= n < %" PRId64
               "\n", per.period, per.preperiod, per.period, per.preperiod, n - per.period);
    printf("status:      %s\n", per.proven ? "proven for every n >= n0" : "observed, not proven");
    printf("rule:        %s\n", rule);
    return NS_EXIT_OK;
}

/* "take 1 from the heap of 12, leaving 4 + 7" */
static void describe(const ns_heap_move *m, char *buf, size_t len)
{
    int w;
    if (m->take > 0)
        w = snprintf(buf, len, "take %" PRId64 " from the heap of %" PRId64 ", leaving ", m->take, m->from);
    else
        w = snprintf(buf, len, "split the heap of %" PRId64 " into ", m->from);
    if (w < 0 || (size_t)w >= len)
        return;
    if (m->np == 0)
        snprintf(buf + w, len - (size_t)w, "nothing");
    for (int i = 0; i < m->np && (size_t)w < len; i++) {
        int r = snprintf(buf + w, len - (size_t)w, "%s%" PRId64, i ? " + " : "", m->parts[i]);
        if (r < 0)
            return;
        w += r;
    }
}

/* the heaps after move m: those before it, its parts, those after it */
static void after(const int64_t *h, int k, const ns_heap_move *m, char *buf, size_t len)
{
    size_t w = 0;
    int first = 1;
    buf[0] = '\0';
    for (int i = 0; i < k && w < len; i++) {
        const int64_t *v = i == m->heap ? m->parts : &h[i];
        const int nv = i == m->heap ? m->np : 1;
        for (int j = 0; j < nv && w < len; j++) {
            int r = snprintf(buf + w, len - w, "%s%" PRId64, first ? "" : " ", v[j]);
            if (r < 0)
                return;
            w += (size_t)r;
            first = 0;
        }
    }
    if (first)
        snprintf(buf, len, "(no heap)");
}

int ns_cli_seq_heaps(const char *cmd, const char *path, const ns_game *g, const ns_meta *meta, char **args,
                     int nargs, int move, int all)
{
    ns_error err = {0};
    ns_table *t = NULL;
    ns_meta m2;
    int64_t *h = NULL;
    ns_heap_move *mv = NULL;
    size_t nmv = 0;
    int rc = NS_EXIT_ERROR;
    memset(&m2, 0, sizeof m2);
    if (nargs < 1)
        return ns_cli_error(cmd, "missing position: expected one or more heap sizes, as in '%s %s 3 7 12'", cmd, path);
    if (!(h = malloc((size_t)nargs * sizeof *h)))
        return ns_cli_error(cmd, "out of memory");
    for (int i = 0; i < nargs; i++) {
        char what[32];
        snprintf(what, sizeof what, "heap %d", i + 1);
        if (ns_cli_parse_int(args[i], what, 0, g->bounds[0] - 1, &h[i], &err)) {
            rc = ns_cli_error(cmd, "%s (the sequence in %s has heap sizes 0 .. %" PRId64 ")", err.msg, path,
                              g->bounds[0] - 1);
            goto fail;
        }
    }
    if (ns_h5_read(path, &t, &m2, &err)) {
        rc = ns_cli_error(cmd, "%s: %s", path, err.msg);
        goto fail;
    }
    uint32_t x;
    if (ns_heap_value(t, h, nargs, &x, &err) ||
        ns_heap_winning_moves(g->octal, t, h, nargs, move ? all : 1, &mv, &nmv, &err)) {
        rc = ns_cli_error(cmd, "%s: %s", path, err.msg);
        goto fail;
    }
    char pos[512], what[256], to[512];
    pos[0] = '\0';
    for (int i = 0, w = 0; i < nargs && w < (int)sizeof pos; i++) {
        int r = snprintf(pos + w, sizeof pos - (size_t)w, "%s%" PRId64, i ? " " : "", h[i]);
        if (r < 0)
            break;
        w += r;
    }
    if (move) {
        if (nmv == 0) {
            printf("%s: P-position: the player to move loses (every move leads to an N-position)\n", pos);
            rc = NS_EXIT_NO;
            goto fail;
        }
        printf("%s: N-position: the player to move wins (value %" PRIu32 ")\n", pos, x);
        if (all)
            printf("winning moves: %zu\n", nmv);
        for (size_t i = 0; i < nmv; i++) {
            describe(&mv[i], what, sizeof what);
            after(h, nargs, &mv[i], to, sizeof to);
            printf("%s%s -> %s\n", all ? "  " : "winning move: ", what, to);
        }
        rc = NS_EXIT_OK;
        goto fail;
    }
    char box[64];
    ns_cli_format_box(1, g->bounds, box, sizeof box);
    printf("position:      %s %s\n", nargs == 1 ? "heap of" : "heaps", pos);
    printf("game:          %s%s%s, sequence %s, normal play\n", meta->game, meta->params[0] ? " " : "", meta->params,
           box);
    if (nargs > 1) {
        printf("heap values:  ");
        for (int i = 0; i < nargs; i++)
            printf(" G(%" PRId64 ") = %" PRIu32 "%s", h[i], ns_table_get(t, (uint64_t)h[i]), i + 1 < nargs ? "," : "\n");
    }
    printf("grundy value:  %" PRIu32 "%s\n", x, nargs > 1 ? " (the XOR of the heaps' values)" : "");
    printf("outcome:       %s\n", x == 0 ? "P (the player to move loses)" : "N (the player to move wins)");
    if (x == 0) {
        printf("winning moves: none (every move leads to an N-position)\n");
    } else {
        printf("winning moves: %zu (to P-positions)\n", nmv);
        for (size_t i = 0; i < nmv; i++) {
            describe(&mv[i], what, sizeof what);
            after(h, nargs, &mv[i], to, sizeof to);
            printf("  %s -> %s\n", what, to);
        }
    }
    rc = NS_EXIT_OK;
fail:
    free(mv);
    free(h);
    ns_table_free(t);
    ns_meta_free(&m2);
    return rc;
}
