/* test_sweep_driver.c - the sweep driver's ordered stage (issue 20): the
 * per-variant callback comes in variant order at every thread count and
 * window, with the rows the driver also returns, and the variants' tables
 * (each checked against a naive subtraction-game mex written here);
 * `first` skips the earlier variants; a callback's stop ends the run with
 * NS_EINTR after exactly the variants delivered. */
#include <stdio.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "game/ns_presets.h"
#include "testutil.h"

enum { NV = 40 };

/* variant i: subtraction game S = {1, 2 + i % 5, 3 + i % 7}; sizes vary so
 * variants finish out of order */
static void set_of(uint64_t i, int64_t s[3])
{
    s[0] = 1;
    s[1] = 2 + (int64_t)(i % 5);
    s[2] = 9 + (int64_t)(i % 7);
}

static int64_t size_of(uint64_t i) { return (i % 3 == 0) ? 200000 : 3000; }

static ns_err build(void *user, uint64_t i, ns_game **g, ns_error *err)
{
    (void)user;
    ns_params ps;
    memset(&ps, 0, sizeof ps);
    int64_t s[3];
    set_of(i, s);
    ns_err rc = ns_params_set(&ps, "set", s, 3, err);
    if (rc)
        return rc;
    if (!(*g = ns_preset_build("subtraction", &ps, 1, err)))
        return err->code ? err->code : NS_ENOMEM;
    const int64_t b[1] = {size_of(i)};
    return ns_game_set_bounds(*g, b, err);
}

typedef struct seen {
    uint64_t calls, expect, stop_at;
    int out_of_order, bad_table, bad_row;
    ns_sweep_row rows[NV];
} seen;

static int each(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    seen *s = user;
    (void)g;
    if (i != s->expect)
        s->out_of_order++;
    s->expect = i + 1;
    s->calls++;
    s->rows[i] = *row;
    /* naive mex over S, first 400 heap sizes */
    int64_t S[3];
    set_of(i, S);
    uint32_t gv[400];
    for (int64_t n = 0; n < 400; n++) {
        uint32_t seen_v = 0;
        for (int k = 0; k < 3; k++)
            if (S[k] <= n)
                seen_v |= 1u << gv[n - S[k]];
        uint32_t m = 0;
        while (seen_v >> m & 1)
            m++;
        gv[n] = m;
        if ((uint32_t)ns_table_get(t, (uint64_t)n) != m)
            s->bad_table++;
    }
    if (row->size != size_of(i) || row->piles != 1)
        s->bad_row++;
    return s->stop_at && i + 1 == s->stop_at;
}

int main(void)
{
    ns_error err = {0};
    ns_sweep_row ref[NV];
    {
        const ns_sweep_job job = {.n = NV, .build = build, .threads = 1};
        CHECK(ns_sweep_run(&job, ref, &err) == NS_OK);
        for (int i = 0; i < NV; i++)
            CHECK(ref[i].period > 0 && ref[i].proven);
    }
    const int threads[] = {1, 2, 3};
    const uint64_t windows[] = {0, 1, 2};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            seen s = {0};
            ns_sweep_row rows[NV];
            memset(rows, 0, sizeof rows);
            const ns_sweep_job job = {.n = NV, .build = build, .threads = threads[a], .each = each,
                                      .each_user = &s, .window = windows[b]};
            CHECK(ns_sweep_run(&job, rows, &err) == NS_OK);
            CHECK(s.calls == NV && s.out_of_order == 0 && s.bad_table == 0 && s.bad_row == 0);
            for (int i = 0; i < NV; i++) {
                CHECK(rows[i].p_positions == ref[i].p_positions && rows[i].period == ref[i].period &&
                      rows[i].preperiod == ref[i].preperiod);
                CHECK(s.rows[i].period == ref[i].period && s.rows[i].p_positions == ref[i].p_positions);
            }
        }
    /* first: continue at variant 25, rows[i - first] */
    {
        seen s = {.expect = 25};
        ns_sweep_row rows[NV - 25];
        const ns_sweep_job job = {.first = 25, .n = NV, .build = build, .threads = 2, .each = each, .each_user = &s};
        CHECK(ns_sweep_run(&job, rows, &err) == NS_OK);
        CHECK(s.calls == NV - 25 && s.out_of_order == 0);
        for (int i = 25; i < NV; i++)
            CHECK(rows[i - 25].period == ref[i].period);
    }
    /* a stop from the callback: NS_EINTR, exactly the variants before it */
    for (int a = 0; a < 3; a++) {
        seen s = {.stop_at = 13};
        const ns_sweep_job job = {.n = NV, .build = build, .threads = threads[a], .each = each, .each_user = &s};
        ns_error e = {0};
        CHECK(ns_sweep_run(&job, NULL, &e) == NS_EINTR);
        CHECK(s.calls == 13 && s.out_of_order == 0);
        CHECK(strstr(e.msg, "13 of 40") != NULL);
    }
    return TEST_REPORT();
}
