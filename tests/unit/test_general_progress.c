/* test_general_progress.c - the general engine's progress fraction follows
 * the work done, not the cell count (issue 15: on a game whose options grow
 * with the rank, counting cells put the ETA 3 to 4 times too short early
 * on). The work is measured independently here: the options of every cell,
 * listed one by one through ns_game_foreach_option, summed level by level.
 * After every level whose true share of the work is at least 2%, the
 * reported fraction must lie within a factor of 2 of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_rules.h"
#include "testutil.h"

/* tests/cli/fib-general.rules: general Fibonacci Nim, rank = pile, options
 * ~ min(pile, limit) */
static const char *const FIB = "game fibonacci-nim-general\n"
                               "piles pile limit\n"
                               "rank pile\n"
                               "move (pile, limit) -> (pile - t, min(2*t, pile - t))    for t in 1..min(pile, limit)"
                               "    where limit >= 0\n";
enum { N = 160 };

typedef struct seen {
    double f[N + 1];
    int n;
} seen;

static int on_progress(void *user, double fraction)
{
    seen *s = user;
    if (s->n < N + 1)
        s->f[s->n] = fraction;
    s->n++;
    return 0;
}

static int count(void *user, const int64_t *o)
{
    (void)o;
    ++*(uint64_t *)user;
    return 0;
}

int main(void)
{
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = NULL;
    const int64_t b[2] = {N, N};
    CHECK(ns_rules_compile(FIB, "(test)", &ps, 2, &g, &err) == NS_OK && g);
    if (!g) {
        fprintf(stderr, "%s\n", err.msg);
        return TEST_REPORT();
    }
    CHECK(ns_game_set_bounds(g, b, &err) == NS_OK);

    /* the work of each level (pile = r): its cells, and their options */
    double work[N], total = 0;
    for (int64_t r = 0; r < N; r++) {
        uint64_t opts = 0;
        for (int64_t l = 0; l < N; l++) {
            const int64_t s[2] = {r, l};
            CHECK(ns_game_foreach_option(g, s, count, &opts, &err) >= 0);
        }
        work[r] = (double)N + (double)opts;
        total += work[r];
    }

    ns_table *t = ns_engine_table_new(g, 0, &err);
    seen s = {{0}, 0};
    ns_engine_opts o = {.threads = 2, .progress = on_progress, .progress_user = &s};
    CHECK(t && ns_engine_run(g, t, &o, &err) == NS_OK);
    CHECKF(s.n == N, "%d progress calls, expected one a level (%d)", s.n, N);

    double done = 0;
    int checked = 0;
    for (int r = 0; r < N && r < s.n; r++) {
        done += work[r];
        const double truth = done / total;
        if (truth < 0.02)
            continue;
        checked++;
        CHECKF(s.f[r] <= 2 * truth && s.f[r] >= truth / 2,
               "after level %d the engine says %.3f done, the options counted say %.3f", r, s.f[r], truth);
        if (!(s.f[r] <= 2 * truth && s.f[r] >= truth / 2))
            break; /* one line is enough */
    }
    CHECK(checked > N / 2);
    ns_table_free(t);
    ns_game_free(g);
    return TEST_REPORT();
}
