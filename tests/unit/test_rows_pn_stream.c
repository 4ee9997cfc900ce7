/* test_rows_pn_stream.c - the two-pile P/N kernel without a table: the
 * blocks of P bitmaps it hands to a rows sink (ns_rows_fn) cover every row
 * once, in order, in blocks of ns_engine_can_stream's size, and give the
 * same P-positions as the general engine's P/N table; Wythoff, two-pile
 * Nim, a-Wythoff (a = 2, 3), square and rectangular bounds that cut blocks
 * and words, 1 to 3 threads. A failing sink stops the kernel with NS_EIO,
 * and a P/N game without the kernel (misere) is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "testutil.h"

typedef struct sink {
    int64_t n0, n1, block, next_row;
    uint8_t *pn;        /* n0 * n1: NS_PN_P / NS_PN_N from the bitmaps; owned */
    int calls, bad, fail_at;
} sink;

static int on_rows(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p)
{
    sink *s = user;
    if (s->fail_at && ++s->calls == s->fail_at)
        return 1;
    if (x0 != s->next_row || nrows < 1 || nrows > s->block || x0 % s->block || words != (s->n1 + 63) / 64 ||
        x0 + nrows > s->n0) {
        s->bad++;
        return 0;
    }
    for (int64_t i = 0; i < nrows; i++)
        for (int64_t y = 0; y < words * 64; y++) {
            const int bit = (int)(p[i * words + y / 64] >> (y % 64) & 1);
            if (y >= s->n1)
                s->bad += bit;   /* no bits past the row's end */
            else
                s->pn[(x0 + i) * s->n1 + y] = bit ? NS_PN_P : NS_PN_N;
        }
    s->next_row = x0 + nrows;
    return 0;
}

static ns_game *make(const char *name, const char *params, int64_t n0, int64_t n1)
{
    ns_error err = {0};
    ns_params ps = {0};
    if (ns_params_parse_list(&ps, params, &err))
        return NULL;
    ns_game *g = ns_preset_build(name, &ps, 2, &err);
    int64_t b[2] = {n0, n1};
    if (g && ns_game_set_bounds(g, b, &err)) {
        ns_game_free(g);
        g = NULL;
    }
    return g;
}

static void check(const char *name, const char *params, int64_t n0, int64_t n1, int threads)
{
    ns_error err = {0};
    ns_game *g = make(name, params, n0, n1);
    CHECKF(g != NULL, "%s %s: cannot build", name, params);
    if (!g)
        return;
    ns_engine_opts o = {.threads = threads, .pn_only = 1};
    int64_t block = 0;
    uint64_t bytes = 0;
    CHECKF(ns_engine_can_stream(g, &o, &block, &bytes) && block > 0 && bytes > 0,
           "%s %s: expected a P/N game that streams", name, params);
    sink s = {.n0 = n0, .n1 = n1, .block = block};
    s.pn = malloc((size_t)(n0 * n1));
    ns_table *ref = ns_engine_table_new(g, 1, &err);
    if (!s.pn || !ref) {
        CHECKF(0, "out of memory");
        goto done;
    }
    memset(s.pn, 0xEE, (size_t)(n0 * n1));
    o.rows_sink = on_rows;
    o.rows_user = &s;
    CHECKF(ns_engine_run(g, NULL, &o, &err) == NS_OK, "%s %s: streamed run: %s", name, params, err.msg);
    ns_engine_opts og = {.threads = threads, .pn_only = 1};
    CHECKF(ns_engine_run_with(ns_engine_find("general"), g, ref, &og, &err) == NS_OK, "%s: general run: %s", name, err.msg);
    CHECKF(s.bad == 0 && s.next_row == n0, "%s %s %lldx%lld, %d threads: %d bad blocks, rows up to %lld", name,
           params, (long long)n0, (long long)n1, threads, s.bad, (long long)s.next_row);
    uint64_t diff = 0, np = 0;
    for (uint64_t i = 0; i < (uint64_t)(n0 * n1); i++) {
        const uint8_t want = (uint8_t)ns_table_pn(ref, i);
        diff += s.pn[i] != want;
        np += want == NS_PN_P;
    }
    CHECKF(diff == 0 && np > 0, "%s %s %lldx%lld, %d threads: %llu cells differ from the general engine (%llu P)",
           name, params, (long long)n0, (long long)n1, threads, (unsigned long long)diff, (unsigned long long)np);
done:
    free(s.pn);
    ns_table_free(ref);
    ns_game_free(g);
}

int main(void)
{
    const int64_t bounds[][2] = {{1, 1}, {300, 517}, {513, 64}, {700, 700}, {1, 2000}};
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
        for (int th = 1; th <= 3; th++) {
            check("wythoff", "", bounds[b][0], bounds[b][1], th);
            check("nim", "piles=2", bounds[b][0], bounds[b][1], th);
            check("a-wythoff", "a=2", bounds[b][0], bounds[b][1], th);
            check("a-wythoff", "a=3", bounds[b][0], bounds[b][1], th);
        }

    /* a failing sink stops the kernel */
    ns_error err = {0};
    ns_game *g = make("wythoff", "", 1000, 1000);
    sink s = {.n0 = 1000, .n1 = 1000, .block = 256, .fail_at = 2};
    s.pn = malloc(1000 * 1000);
    ns_engine_opts o = {.threads = 2, .pn_only = 1, .rows_sink = on_rows, .rows_user = &s};
    CHECK(g && s.pn && ns_engine_run(g, NULL, &o, &err) == NS_EIO && s.calls == 2);
    /* misere has no rows kernel: refused */
    if (g) {
        g->play = NS_PLAY_MISERE;
        int64_t block;
        uint64_t bytes;
        CHECK(!ns_engine_can_stream(g, &o, &block, &bytes));
        CHECK(ns_engine_run(g, NULL, &o, &err) == NS_EINVAL);
    }
    free(s.pn);
    ns_game_free(g);
    return TEST_REPORT();
}
