/* test_sweep_until.c - a take-and-break game in a sweep or census stops at
 * its first proven period (analysis/ns_sweep.h: ns_sweep_octal_stop) and
 * the rest of its sequence is filled from the period
 * (ns_sweep_octal_extend): the table must be the full solve's, cell for
 * cell, and the stop must come well before the end for codes whose
 * period the theorem proves early (Kayles 0.77: 12 from 71, proven with
 * 168 heap sizes; Dawson's chess 0.137: 34 from 52; 0.07: 34 from 53;
 * 0.156: 349 from 3,479),
 * and never for a code with no period in the range (0.04) or for
 * Grundy's game (no theorem). The full solves are the plain mex (engine
 * `sequence`), checked elsewhere against a naive mex; the stopped ones run
 * the engine the door picks, on 1 and 2 threads. The census's own output
 * with the stop is compared with a naive solver in
 * tests/cli/test_census.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "engine/ns_engine.h"
#include "testutil.h"
#include "tsolve.h"

static void check(const char *preset, const char *code, int64_t n, int must_stop)
{
    char params[32];
    ns_game *g = ns_tbuild_code(preset, code, n, params);
    CHECKF(g != NULL, "%s %s: setup", preset, params);
    if (!g)
        return;
    const ns_engine_opts full_o = {.threads = 2};
    ns_table *full = ns_trun_engine(g, "sequence", 4, &full_o);
    for (int th = 1; th <= 2 && full; th++) {
        ns_error err = {0};
        ns_table *t = ns_engine_table_new(g, 0, &err);
        CHECKF(t != NULL, "%s %s: table: %s", preset, params, err.msg);
        if (!t)
            continue;
        ns_sweep_until u = {.t = t, .octal = g->octal};
        ns_engine_opts o = {.threads = th, .checkpoint = ns_sweep_octal_stop, .checkpoint_user = &u};
        const ns_err rc = ns_engine_run(g, t, &o, &err);
        if (must_stop) {
            CHECKF(rc == NS_EINTR && u.at > 0 && u.at < n / 2, "%s %s N = %lld: expected a stop at a proven period "
                   "well before the end, got rc %d at %lld", preset, params, (long long)n, (int)rc, (long long)u.at);
        } else {
            CHECKF(rc == NS_OK && u.at == 0, "%s %s N = %lld: expected no stop, got rc %d at %lld", preset, params,
                   (long long)n, (int)rc, (long long)u.at);
        }
        if (rc == NS_EINTR && u.at > 0)
            ns_sweep_octal_extend(t, &u);
        int64_t bad = -1;
        for (int64_t i = 0; i < n && bad < 0; i++)
            if (ns_table_get(t, (uint64_t)i) != ns_table_get(full, (uint64_t)i))
                bad = i;
        CHECKF(bad < 0, "%s %s N = %lld, %d threads: G(%lld) = %u after the stop at %lld (period %lld), the full "
               "solve says %u", preset, params, (long long)n, th, (long long)bad,
               bad >= 0 ? ns_table_get(t, (uint64_t)bad) : 0, (long long)u.at, (long long)u.period,
               bad >= 0 ? ns_table_get(full, (uint64_t)bad) : 0);
        if (th == 1)
            printf("%s %s N = %lld: stopped at %lld (period %lld)\n", preset, params, (long long)n, (long long)u.at,
                   (long long)u.period);
        ns_table_free(t);
    }
    CHECKF(full != NULL, "%s %s: the full solve failed", preset, params);
    ns_table_free(full);
    ns_game_free(g);
}

int main(void)
{
    check("octal", "0.77", 50000, 1);
    check("octal", "0.137", 50000, 1);
    check("octal", "0.07", 50000, 1);
    check("octal", "0.156", 50000, 1); /* 349 from 3479: a long preperiod */
    check("octal", "0.04", 12000, 0);
    check("grundys-game", NULL, 12000, 0);
    return TEST_REPORT();
}
