/* test_octal_slow.c - a published period of a long preperiod: octal game
 * 0.127 is periodic with period 4, its last exception at n = 46577
 * (Gangolli and Plambeck, A note on periodicity in some octal games, Int.
 * J. Game Theory 18 (1989); OEIS A071464). The octal periodicity theorem
 * proves it once 2*46578 + 2*4 + 3 = 93167 heap sizes are known; at 93166
 * it is observed only.
 *
 * And 0.56 (OEIS A071436: period 144, "last exception at n = 326637"),
 * whose values 0.561 .. 0.563 share (the census D = 3 to 2^20 proves
 * them): the last n with G(n) != G(n+144) comes out at 326,639 (G = 26
 * there, 16 at 326,783), two later than that comment, and a naive mex
 * written separately for this check (take 1 leaving 0 or 2 heaps, take 2
 * leaving 1 or 2, every split listed) gave the same 327,000 values. So
 * the preperiod here is 326,640, and the theorem needs 2 * 326,640 +
 * 2 * 144 + 3 = 653,571 heap sizes for 0.561 (0.56, its last digit the
 * second: 653,570); one fewer leaves it observed. */
#include <stdio.h>

#include "analysis/ns_period.h"
#include "engine/ns_engine.h"
#include "game/ns_octal.h"
#include "testutil.h"

static void check(const char *code, int64_t n, int64_t period, int64_t preperiod, int64_t needed, int proven)
{
    ns_octal o;
    ns_error err = {0};
    CHECK(ns_octal_parse(code, &o, &err) == NS_OK);
    ns_game *g = ns_octal_game_new("octal", &o, &err);
    ns_table *t = NULL;
    ns_period per;
    ns_engine_opts opts = {.threads = 2};
    CHECK(g && ns_game_set_bounds(g, &n, &err) == NS_OK);
    CHECK(g && (t = ns_engine_table_new(g, 0, &err)) && ns_engine_run(g, t, &opts, &err) == NS_OK);
    CHECK(t && ns_period_find(t, &o, &per, &err) == NS_OK);
    CHECKF(t && per.found && per.period == period && per.preperiod == preperiod && per.proven == proven &&
               per.needed == needed,
           "%s to %lld: period %lld from %lld, proven %d, needs %lld", code, (long long)n, (long long)per.period,
           (long long)per.preperiod, per.proven, (long long)per.needed);
    ns_table_free(t);
    ns_game_free(g);
}

int main(void)
{
    check("0.127", 93167, 4, 46578, 93167, 1);
    check("0.127", 93166, 4, 46578, 93167, 0);
    check("0.561", 653571, 144, 326640, 653571, 1);
    check("0.561", 653570, 144, 326640, 653571, 0);
    check("0.56", 653570, 144, 326640, 653570, 1);
    return TEST_REPORT();
}
