/* test_general_levels.c - the general engine's level schedule (issue 19):
 * shared levels meet once, thread 0 holds the barrier to call back and to
 * run the small levels that follow alone, in one batch. Whatever levels
 * are small (opts.solo_cells: 1 shares every level that has a cell per
 * thread, the default batches the small ones, a huge value runs all on
 * thread 0) and on 1, 2 and 3 threads, the tables must be those of
 * independent solvers:
 *  - 3-pile Nim on odd boxes: Bouton, x ^ y ^ z;
 *  - a-Wythoff (a = 2, 3), Grundy and P/N: a naive mex written here from
 *    the definition (take any amount from one pile, or k >= 1 and l >= 1
 *    from both with |k - l| < a), lagged line sets in the engine.
 * The checkpoint callback must see every level once, in order, and a stop
 * at level u must end the solve with NS_EINTR after exactly u calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "testutil.h"
#include "tsolve.h"

typedef struct calls {
    uint64_t next;      /* units_done expected at the next call */
    uint64_t total;     /* units_total seen */
    uint64_t stop_at;   /* return non-zero at this units_done (0: never) */
    int bad;            /* a call out of order */
    uint64_t progress;  /* progress calls */
} calls;

static int on_checkpoint(void *user, uint64_t done, uint64_t total)
{
    calls *c = user;
    if (done != c->next || (c->total && total != c->total))
        c->bad = 1;
    c->total = total;
    c->next = done + 1;
    return c->stop_at && done == c->stop_at;
}

static int on_progress(void *user, double f)
{
    calls *c = user;
    if (!(f > 0 && f <= 1.0 + 1e-9))
        c->bad = 1;
    c->progress++;
    return 0;
}

/* Naive Grundy table of a-Wythoff on b0 x b1 (row-major, x major). */
static uint32_t *naive_awythoff(int64_t a, int64_t b0, int64_t b1)
{
    uint32_t *g = calloc((size_t)(b0 * b1), sizeof *g);
    uint8_t *seen = calloc((size_t)(b0 + b1) * 2 + 8, 1);
    if (!g || !seen) {
        free(g);
        free(seen);
        return NULL;
    }
    const size_t ns = (size_t)(b0 + b1) * 2 + 8;
    for (int64_t x = 0; x < b0; x++)
        for (int64_t y = 0; y < b1; y++) {
            memset(seen, 0, ns);
            for (int64_t i = 1; i <= x; i++)
                seen[g[(x - i) * b1 + y]] = 1;
            for (int64_t j = 1; j <= y; j++)
                seen[g[x * b1 + y - j]] = 1;
            for (int64_t i = 1; i <= x; i++)
                for (int64_t j = 1; j <= y; j++)
                    if (i - j < a && j - i < a)
                        seen[g[(x - i) * b1 + y - j]] = 1;
            uint32_t m = 0;
            while (seen[m])
                m++;
            g[x * b1 + y] = m;
        }
    free(seen);
    return g;
}

/* Solve g with the general engine; c (may be NULL) gets the callbacks.
 * Returns the engine's code; *out gets the table (caller frees). */
static ns_err solve(const ns_game *g, int pn, int threads, uint64_t solo, calls *c, ns_table **out)
{
    ns_error err = {0};
    *out = ns_engine_table_new(g, pn, &err);
    if (!*out)
        return err.code ? err.code : NS_ENOMEM;
    ns_engine_opts o = {.threads = threads, .pn_only = pn, .solo_cells = solo};
    if (c) {
        o.checkpoint = on_checkpoint;
        o.checkpoint_user = c;
        o.progress = on_progress;
        o.progress_user = c;
    }
    ns_err rc = ns_engine_run_with(ns_engine_find("general"), g, *out, &o, &err);
    if (rc && rc != NS_EINTR)
        fprintf(stderr, "solve: %s\n", err.msg);
    return rc;
}

static const uint64_t SOLOS[] = {1, 7, 0, 1000000000};

static void nim3(const int64_t *b)
{
    ns_game *g = ns_tbuild("nim", "piles=3", 3, b);
    CHECK(g != NULL);
    if (!g)
        return;
    const uint64_t levels = (uint64_t)(b[0] + b[1] + b[2] - 2);
    for (int th = 1; th <= 3; th++)
        for (size_t si = 0; si < sizeof SOLOS / sizeof SOLOS[0]; si++) {
            calls c = {.next = 1};
            ns_table *t = NULL;
            CHECK(solve(g, 0, th, SOLOS[si], si & 1 ? &c : NULL, &t) == NS_OK);
            const uint64_t bad = ns_tnim3_bad(t, b, UINT64_MAX);
            CHECK(t && bad == 0);
            if (si & 1)
                CHECK(!c.bad && c.next == levels + 1 && c.total == levels && c.progress == levels);
            if (bad)
                fprintf(stderr, "nim %lldx%lldx%lld, %d threads, solo %llu: %llu cells differ from Bouton\n",
                        (long long)b[0], (long long)b[1], (long long)b[2], th, (unsigned long long)SOLOS[si],
                        (unsigned long long)bad);
            ns_table_free(t);
        }
    ns_game_free(g);
}

static void awythoff(int64_t a, const int64_t *b)
{
    char params[32];
    snprintf(params, sizeof params, "a=%lld", (long long)a);
    ns_game *g = ns_tbuild("a-wythoff", params, 2, b);
    uint32_t *ref = naive_awythoff(a, b[0], b[1]);
    CHECK(g != NULL && ref != NULL);
    if (!g || !ref) {
        ns_game_free(g);
        free(ref);
        return;
    }
    const uint64_t levels = (uint64_t)(b[0] + b[1] - 1);
    for (int pn = 0; pn <= 1; pn++)
        for (int th = 1; th <= 3; th++)
            for (size_t si = 0; si < sizeof SOLOS / sizeof SOLOS[0]; si++) {
                calls c = {.next = 1};
                ns_table *t = NULL;
                CHECK(solve(g, pn, th, SOLOS[si], si & 1 ? &c : NULL, &t) == NS_OK);
                uint64_t bad = 0;
                int64_t s[2];
                for (s[0] = 0; t && s[0] < b[0]; s[0]++)
                    for (s[1] = 0; s[1] < b[1]; s[1]++) {
                        uint32_t v = ns_table_get(t, ns_table_index(t, s)), r = ref[s[0] * b[1] + s[1]];
                        bad += pn ? (v == 0) != (r == 0) : v != r;
                    }
                CHECK(t && bad == 0);
                if (si & 1)
                    CHECK(!c.bad && c.next == levels + 1 && c.total == levels);
                if (bad)
                    fprintf(stderr, "a-wythoff a=%lld %lldx%lld %s, %d threads, solo %llu: %llu cells differ\n",
                            (long long)a, (long long)b[0], (long long)b[1], pn ? "P/N" : "Grundy", th,
                            (unsigned long long)SOLOS[si], (unsigned long long)bad);
                ns_table_free(t);
            }
    free(ref);
    ns_game_free(g);
}

/* A stop from the checkpoint callback at level u (a shared one or inside
 * a batch of small ones): NS_EINTR after exactly u calls, and the levels
 * before it final. */
static void stops(void)
{
    const int64_t b[3] = {23, 9, 14};
    ns_game *g = ns_tbuild("nim", "piles=3", 3, b);
    CHECK(g != NULL);
    if (!g)
        return;
    const uint64_t at[] = {1, 5, 20, 40};
    for (int th = 2; th <= 3; th++)
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
            calls c = {.next = 1, .stop_at = at[i]};
            ns_table *t = NULL;
            CHECK(solve(g, 0, th, 40, &c, &t) == NS_EINTR);
            CHECK(!c.bad && c.next == at[i] + 1);
            const uint64_t bad = ns_tnim3_bad(t, b, at[i]);
            CHECK(t && bad == 0);
            ns_table_free(t);
        }
    ns_game_free(g);
}

int main(void)
{
    const int64_t n1[3] = {13, 29, 7}, n2[3] = {40, 33, 21}, n3[3] = {1, 50, 3};
    nim3(n1);
    nim3(n2);
    nim3(n3);
    const int64_t w1[2] = {61, 47}, w2[2] = {9, 130};
    awythoff(2, w1);
    awythoff(3, w2);
    stops();
    return TEST_REPORT();
}
