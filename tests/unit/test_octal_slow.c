/* test_octal_slow.c - a published period of a long preperiod: octal game
 * 0.127 is periodic with period 4, its last exception at n = 46577
 * (Gangolli and Plambeck, A note on periodicity in some octal games, Int.
 * J. Game Theory 18 (1989); OEIS A071464). The octal periodicity theorem
 * proves it once 2*46578 + 2*4 + 3 = 93167 heap sizes are known; at 93166
 * it is observed only. */
#include <stdio.h>

#include "analysis/ns_period.h"
#include "engine/ns_engine.h"
#include "game/ns_octal.h"
#include "testutil.h"

static void check(int64_t n, int proven)
{
    ns_octal o;
    ns_error err = {0};
    CHECK(ns_octal_parse("0.127", &o, &err) == NS_OK);
    ns_game *g = ns_octal_game_new("octal", &o, &err);
    ns_table *t = NULL;
    ns_period per;
    ns_engine_opts opts = {.threads = 2};
    CHECK(g && ns_game_set_bounds(g, &n, &err) == NS_OK);
    CHECK(g && (t = ns_engine_table_new(g, 0, &err)) && ns_engine_run(g, t, &opts, &err) == NS_OK);
    CHECK(t && ns_period_find(t, &o, &per, &err) == NS_OK);
    CHECKF(t && per.found && per.period == 4 && per.preperiod == 46578 && per.proven == proven &&
               per.needed == 93167,
           "0.127 to %lld: period %lld from %lld, proven %d, needs %lld", (long long)n, (long long)per.period,
           (long long)per.preperiod, per.proven, (long long)per.needed);
    ns_table_free(t);
    ns_game_free(g);
}

int main(void)
{
    check(93167, 1);
    check(93166, 0);
    return TEST_REPORT();
}
