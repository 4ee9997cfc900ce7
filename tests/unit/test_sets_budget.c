/* test_sets_budget.c - the general engine's memory besides the table: the
 * plan states what the solve starts with (sets 2 words, 128 values, wide)
 * and the most they can grow to; ns_engine_opts.memory_limit stops a
 * widening past it with NS_ENOMEM and a message, not a crash, the levels
 * before it final.
 *
 * References, none of them the engine:
 *   sizes   the running sets of Moore's Nim_2 on 3 piles (engine README):
 *           two levels of bitsets, one per cell of a level (the box less one
 *           coordinate) and pile set (C(3, 2) = 3), at 2 words first and at
 *           (bound + 64) / 64 words at most, 8 bytes a word;
 *   Moore   Moore's theorem: P iff for every bit the number of piles with
 *           that bit set is divisible by k + 1 (exact integer arithmetic);
 *   xor     Nim on three piles: the value is the xor of the piles, so the
 *           box 256 x 4 x 4 has values up to 255 and its line sets must
 *           widen past 128.
 * Each game is solved without a limit, with the limit its plan gives for
 * the start (refused at the first widening, which Moore's Nim_2 at 128^3
 * and Nim at 256 x 4 x 4 need), and with the plan's most (accepted), at 1
 * and 2 threads. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_game.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "game/ns_table.h"
#include "testutil.h"
#include "tsolve.h"

static int note_done(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    *(uint64_t *)user = done;
    return 0;
}

/* Solve g with the general engine under limit (0: none); *done gets the
 * last unit (level) reported done. The table, or NULL with *rc and err. */
static ns_table *solve(const ns_game *g, uint64_t limit, int threads, uint64_t *done, ns_err *rc, ns_error *err)
{
    ns_error_clear(err);
    *done = 0;
    ns_table *t = ns_engine_table_new(g, 0, err);
    if (!t) {
        *rc = err->code;
        return NULL;
    }
    ns_engine_opts o = {.threads = threads, .memory_limit = limit, .checkpoint = note_done, .checkpoint_user = done};
    *rc = ns_engine_run_with(ns_engine_find("general"), g, t, &o, err);
    return t;
}

static int moore_p(const int64_t *s, int n, int k)
{
    for (int bit = 0; bit < 16; bit++) {
        int c = 0;
        for (int i = 0; i < n; i++)
            c += (int)(s[i] >> bit & 1);
        if (c % (k + 1))
            return 0;
    }
    return 1;
}

static void check_moore(void)
{
    const int64_t N = 128, b[3] = {N, N, N};
    ns_game *g = ns_tbuild("moore", "piles=3;k=2", 3, b);
    CHECK(g != NULL);
    if (!g)
        return;
    ns_engine_plan plan;
    ns_error err = {0};
    CHECK(ns_engine_plan_for(g, &(ns_engine_opts){0}, &plan, &err) == NS_OK);
    CHECKF(plan.engine && strcmp(plan.engine->name, "general") == 0, "engine %s",
           plan.engine ? plan.engine->name : "none");
    const uint64_t slots = (uint64_t)(N * N), wfull = (plan.max_value + 64) / 64;
    CHECKF(plan.line_bytes == 2 * slots * 3 * 2 * 8, "planned at the start: %" PRIu64 " bytes", plan.line_bytes);
    CHECKF(plan.line_bytes_max == 2 * slots * 3 * wfull * 8, "planned at most: %" PRIu64 " bytes, bound %" PRIu64,
           plan.line_bytes_max, plan.max_value);

    uint64_t done;
    ns_err rc;
    ns_table *ref = solve(g, 0, 2, &done, &rc, &err);
    CHECKF(rc == NS_OK, "unlimited: %s", err.msg);
    if (rc != NS_OK || !ref) {
        ns_table_free(ref);
        ns_game_free(g);
        return;
    }
    uint64_t bad = 0;
    int64_t s[3];
    for (s[0] = 0; s[0] < N; s[0]++)
        for (s[1] = 0; s[1] < N; s[1]++)
            for (s[2] = 0; s[2] < N; s[2]++)
                bad += (ns_table_get(ref, ns_table_index(ref, s)) == 0) != moore_p(s, 3, 2);
    CHECKF(bad == 0, "%" PRIu64 " cells against Moore's theorem", bad);

    for (int th = 1; th <= 2; th++) {
        /* the start fits, the first widening (4 words: 3 MiB) does not */
        ns_table *t = solve(g, plan.line_bytes, th, &done, &rc, &err);
        CHECKF(rc == NS_ENOMEM, "limit at the start, %d threads: rc %d (%s)", th, (int)rc, err.msg);
        CHECKF(strstr(err.msg, "need 3.00 MiB") && strstr(err.msg, "memory limit leaves them 1.50 MiB") &&
                   strstr(err.msg, "4 words a set"),
               "message: %s", err.msg);
        CHECKF(done > 0 && done < (uint64_t)plan.levels, "stopped after level %" PRIu64, done);
        /* the levels reported done are final */
        uint64_t diff = 0;
        for (s[0] = 0; t && s[0] < N; s[0]++)
            for (s[1] = 0; s[1] < N; s[1]++)
                for (s[2] = 0; s[2] < N; s[2]++)
                    if ((uint64_t)(s[0] + s[1] + s[2]) < done)
                        diff += ns_table_get(t, ns_table_index(t, s)) != ns_table_get(ref, ns_table_index(ref, s));
        CHECKF(diff == 0, "%" PRIu64 " cells of the levels done differ", diff);
        ns_table_free(t);

        /* a limit that cannot hold even the start: refused before any level */
        t = solve(g, plan.line_bytes - 1, th, &done, &rc, &err);
        CHECKF(rc == NS_ENOMEM && done == 0, "limit below the start: rc %d, done %" PRIu64, (int)rc, done);
        ns_table_free(t);

        t = solve(g, plan.line_bytes_max, th, &done, &rc, &err);
        CHECKF(rc == NS_OK, "limit at the most: %s", err.msg);
        CHECK(t && memcmp(t->data, ref->data, ref->ncells * (size_t)ref->elem) == 0);
        ns_table_free(t);
    }
    ns_table_free(ref);
    ns_game_free(g);
}

/* Ray families: the line sets widen the same way and obey the same limit. */
static void check_nim(void)
{
    const int64_t b[3] = {256, 4, 4};
    ns_game *g = ns_tbuild("nim", "piles=3", 3, b);
    CHECK(g != NULL);
    if (!g)
        return;
    ns_engine_plan plan;
    ns_error err = {0};
    CHECK(ns_engine_plan_for(g, &(ns_engine_opts){0}, &plan, &err) == NS_OK);
    CHECKF(plan.line_bytes < plan.line_bytes_max, "start %" PRIu64 ", most %" PRIu64, plan.line_bytes,
           plan.line_bytes_max);
    for (int th = 1; th <= 2; th++) {
        uint64_t done;
        ns_err rc;
        ns_table *t = solve(g, plan.line_bytes, th, &done, &rc, &err);
        CHECKF(rc == NS_ENOMEM && strstr(err.msg, "memory limit"), "nim, limit at the start: rc %d (%s)", (int)rc,
               err.msg);
        ns_table_free(t);
        t = solve(g, plan.line_bytes_max, th, &done, &rc, &err);
        CHECKF(rc == NS_OK, "nim, limit at the most: %s", err.msg);
        uint64_t bad = 0;
        int64_t s[3];
        for (s[0] = 0; t && rc == NS_OK && s[0] < b[0]; s[0]++)
            for (s[1] = 0; s[1] < b[1]; s[1]++)
                for (s[2] = 0; s[2] < b[2]; s[2]++)
                    bad += ns_table_get(t, ns_table_index(t, s)) != (uint32_t)(s[0] ^ s[1] ^ s[2]);
        CHECKF(bad == 0, "nim: %" PRIu64 " cells differ from the xor", bad);
        ns_table_free(t);
    }
    ns_game_free(g);
}

int main(void)
{
    check_moore();
    check_nim();
    return TEST_REPORT();
}
