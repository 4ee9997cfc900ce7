/* test_dist_sweep_driver.c - ns_dist_sweep_run under mpirun (issue 21,
 * item 2), run with 1, 2, 3 and 4 ranks (tests/CMakeLists.txt): on rank 0
 * the ordered callback comes in variant order with every variant's table,
 * each table checked against a naive subtraction-game mex written here;
 * the rows equal those of the single-process driver (ns_sweep_run) at
 * every window; `first` skips the earlier variants; a stop from the
 * callback ends the run with NS_EINTR after exactly the variants
 * delivered; a variant whose build fails (on whichever worker gets it)
 * ends the run with its message naming a rank, on every rank, no hang. */
#include <stdio.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "dist/ns_dist.h"
#include "dist/ns_dist_sweep.h"
#include "game/ns_presets.h"
#include "testutil.h"

enum { NV = 40, BAD = 17 };

/* variant i: subtraction game S = {1, 2 + i % 5, 9 + i % 7} */
static void set_of(uint64_t i, int64_t s[3])
{
    s[0] = 1;
    s[1] = 2 + (int64_t)(i % 5);
    s[2] = 9 + (int64_t)(i % 7);
}

static int64_t size_of(uint64_t i) { return (i % 3 == 0) ? 20000 : 3000; }

static ns_err build(void *user, uint64_t i, ns_game **g, ns_error *err)
{
    const int *fail_bad = user;
    if (fail_bad && *fail_bad && i == BAD)
        return ns_error_set(err, NS_EINVAL, "the test's variant %d refuses to be built", BAD);
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
} seen;

static int each(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    seen *s = user;
    (void)g;
    if (i != s->expect)
        s->out_of_order++;
    s->expect = i + 1;
    s->calls++;
    int64_t S[3];
    set_of(i, S);
    if (t->k != 1 || t->bounds[0] != size_of(i))
        s->bad_table++;
    /* naive mex over S, every heap size */
    static uint32_t gv[20000];
    for (int64_t n = 0; n < size_of(i); n++) {
        uint32_t seen_v = 0;
        for (int k = 0; k < 3; k++)
            if (S[k] <= n)
                seen_v |= 1u << gv[n - S[k]];
        uint32_t m = 0;
        while (seen_v >> m & 1)
            m++;
        gv[n] = m;
        if (ns_table_get(t, (uint64_t)n) != m)
            s->bad_table++;
    }
    if (row->size != size_of(i) || row->piles != 1)
        s->bad_row++;
    return s->stop_at && i + 1 == s->stop_at;
}

int main(int argc, char **argv)
{
    ns_error err = {0};
    if (ns_dist_init(&argc, &argv, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    const int root = ns_dist_rank() == 0;
    ns_sweep_row ref[NV];
    {
        const ns_sweep_job job = {.n = NV, .build = build, .threads = 1};
        CHECK(ns_sweep_run(&job, ref, &err) == NS_OK);
    }
    const uint64_t windows[] = {0, 1, 3};
    for (int b = 0; b < 3; b++) {
        seen s = {0};
        ns_sweep_row rows[NV];
        memset(rows, 0, sizeof rows);
        const ns_sweep_job job = {.n = NV, .build = build, .threads = 1 + b % 2, .each = each, .each_user = &s,
                                  .window = windows[b]};
        CHECK(ns_dist_sweep_run(&job, rows, &err) == NS_OK);
        if (root) {
            CHECK(s.calls == NV && s.out_of_order == 0 && s.bad_table == 0 && s.bad_row == 0);
            for (int i = 0; i < NV; i++)
                CHECKF(rows[i].p_positions == ref[i].p_positions && rows[i].period == ref[i].period &&
                           rows[i].preperiod == ref[i].preperiod && rows[i].proven == ref[i].proven,
                       "variant %d", i);
        } else {
            CHECK(s.calls == 0); /* the workers deliver nothing */
        }
    }
    /* rows only (no callback: no tables travel) */
    {
        ns_sweep_row rows[NV];
        memset(rows, 0, sizeof rows);
        const ns_sweep_job job = {.n = NV, .build = build, .threads = 2};
        CHECK(ns_dist_sweep_run(&job, rows, &err) == NS_OK);
        for (int i = 0; root && i < NV; i++)
            CHECKF(rows[i].p_positions == ref[i].p_positions && rows[i].period == ref[i].period, "variant %d", i);
    }
    /* first: continue at variant 25, rows[i - first] */
    {
        seen s = {.expect = 25};
        ns_sweep_row rows[NV - 25];
        const ns_sweep_job job = {.first = 25, .n = NV, .build = build, .threads = 2, .each = each, .each_user = &s};
        CHECK(ns_dist_sweep_run(&job, rows, &err) == NS_OK);
        if (root) {
            CHECK(s.calls == NV - 25 && s.out_of_order == 0 && s.bad_table == 0);
            for (int i = 25; i < NV; i++)
                CHECK(rows[i - 25].period == ref[i].period);
        }
    }
    /* a stop from the callback: NS_EINTR on rank 0, exactly the variants before it */
    {
        seen s = {.stop_at = 13};
        const ns_sweep_job job = {.n = NV, .build = build, .threads = 1, .each = each, .each_user = &s, .window = 2};
        ns_error e = {0};
        const ns_err rc = ns_dist_sweep_run(&job, NULL, &e);
        if (root) {
            CHECKF(rc == NS_EINTR, "rc %d: %s", rc, e.msg);
            CHECK(s.calls == 13 && s.out_of_order == 0);
            CHECKF(strstr(e.msg, "13 of 40") != NULL, "%s", e.msg);
        } else {
            CHECK(rc == NS_OK);
        }
    }
    /* a variant that fails on a worker: its message with the worker's rank */
    {
        int fail_bad = 1;
        seen s = {0};
        const ns_sweep_job job = {.n = NV, .build = build, .user = &fail_bad, .threads = 1, .each = each,
                                  .each_user = &s};
        ns_error e = {0};
        const ns_err rc = ns_dist_sweep_run(&job, NULL, &e);
        if (root) {
            CHECKF(rc == NS_EINVAL, "rc %d: %s", rc, e.msg);
            CHECKF(strstr(e.msg, "variant 17: the test's variant 17 refuses") != NULL, "%s", e.msg);
            if (ns_dist_size() > 1)
                CHECKF(strncmp(e.msg, "rank ", 5) == 0 && strncmp(e.msg, "rank 0", 6) != 0, "%s", e.msg);
            CHECK(s.calls <= BAD && s.out_of_order == 0);
        }
    }
    const int rc = ns_dist_max_code(TEST_REPORT());
    ns_dist_finalize();
    return rc;
}
