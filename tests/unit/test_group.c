/* test_group.c - grouping of identical tables (ns_group.h):
 * - equal values in cells of different widths share a group; one differing
 *   cell, other bounds with the same leading values, P/N flags against
 *   Grundy values, an invalid cell against a value: all separate groups;
 * - 3000 random short tables over a small alphabet (many repeats, the hash
 *   table grows several times) against a brute-force first-equal search;
 * - variants out of order refused;
 * - through the sweep driver's ordered callback at 1, 2 and 3 threads and
 *   windows 0 and 1: subtraction games S = {1, 2, k}, k = 3..40, grouped as
 *   the closed form says (G(n) = n mod 3 exactly when 3 does not divide k,
 *   so every such k joins k = 4; each k divisible by 3 has G(k) = 3 and a
 *   group of its own, as G(n) for n < k is n mod 3 and G(k) = 3 tells k). */
#include <stdio.h>
#include <string.h>

#include "analysis/ns_group.h"
#include "analysis/ns_sweep.h"
#include "game/ns_presets.h"
#include "testutil.h"

static ns_table *seq(int elem, int pn, int64_t n, const uint32_t *v)
{
    ns_error err = {0};
    ns_table *t = ns_table_new(1, &n, elem, pn, &err);
    for (int64_t i = 0; t && i < n; i++)
        ns_table_set(t, (uint64_t)i, v[i] == UINT32_MAX ? ns_table_invalid(t) : v[i]);
    return t;
}

static uint64_t add(ns_group *gr, uint64_t i, ns_table *t)
{
    ns_error err = {0};
    uint64_t first = UINT64_MAX;
    CHECK(t && ns_group_add(gr, i, t, &first, &err) == NS_OK);
    ns_table_free(t);
    return first;
}

static void basics(void)
{
    const uint32_t a[6] = {0, 1, 2, 0, 1, 2}, b[6] = {0, 1, 2, 0, 1, 3}, c[6] = {0, 1, 2, 0, 1, UINT32_MAX};
    ns_group *gr = ns_group_new();
    CHECK(gr != NULL);
    CHECK(add(gr, 0, seq(1, 0, 6, a)) == 0);
    CHECK(add(gr, 1, seq(4, 0, 6, a)) == 0);     /* wider cells, same values */
    CHECK(add(gr, 2, seq(2, 0, 6, b)) == 2);     /* last cell differs */
    CHECK(add(gr, 3, seq(1, 0, 5, a)) == 3);     /* a prefix: other bounds */
    CHECK(add(gr, 4, seq(1, 1, 6, a)) == 4);     /* P/N flags, not Grundy values */
    CHECK(add(gr, 5, seq(1, 0, 6, c)) == 5);     /* an invalid cell */
    CHECK(add(gr, 6, seq(2, 0, 6, c)) == 5);     /* ... at another width */
    CHECK(add(gr, 9, seq(2, 0, 6, b)) == 2);
    CHECK(ns_group_count(gr) == 5);
    /* out of order */
    ns_error err = {0};
    uint64_t first;
    ns_table *t = seq(1, 0, 6, a);
    CHECK(ns_group_add(gr, 9, t, &first, &err) == NS_EINVAL && strstr(err.msg, "increasing order"));
    ns_table_free(t);
    ns_group_free(gr);
}

enum { NR = 3000, LEN = 5 };

static void random_tables(void)
{
    static uint32_t v[NR][LEN];
    ns_group *gr = ns_group_new();
    size_t distinct = 0;
    int bad = 0;
    for (int i = 0; i < NR; i++) {
        for (int j = 0; j < LEN; j++)
            v[i][j] = (uint32_t)(ns_test_rng() % 5) * (j == 0 ? 100u : 1u);   /* some values need 2 bytes */
        int want = i;
        for (int k = 0; k < i && want == i; k++)
            if (memcmp(v[k], v[i], sizeof v[i]) == 0)
                want = k;
        distinct += want == i;
        const int elem = (i % 3 == 0) ? 4 : 2;
        if (add(gr, (uint64_t)i, seq(elem, 0, LEN, v[i])) != (uint64_t)want)
            bad++;
    }
    CHECKF(bad == 0, "%d of %d tables grouped off the brute-force search", bad, NR);
    CHECKF(ns_group_count(gr) == distinct, "%zu groups, brute force %zu", ns_group_count(gr), distinct);
    CHECK(distinct > 500 && distinct < NR);
    ns_group_free(gr);
}

/* ---- through the driver ---- */

enum { KLO = 3, KHI = 40, NV = KHI - KLO + 1 };

static ns_err build(void *user, uint64_t i, ns_game **g, ns_error *err)
{
    (void)user;
    ns_params ps;
    memset(&ps, 0, sizeof ps);
    const int64_t s[3] = {1, 2, KLO + (int64_t)i};
    ns_err rc = ns_params_set(&ps, "set", s, 3, err);
    if (rc)
        return rc;
    if (!(*g = ns_preset_build("subtraction", &ps, 1, err)))
        return err->code ? err->code : NS_ENOMEM;
    const int64_t same[1] = {500};
    return ns_game_set_bounds(*g, same, err);
}

typedef struct ctx {
    ns_group *gr;
    uint64_t group[NV];
    int fail;
} ctx;

static int each(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    ctx *c = user;
    ns_error err = {0};
    (void)row;
    (void)g;
    if (ns_group_add(c->gr, i, t, &c->group[i], &err))
        c->fail = 1;
    return c->fail;
}

static void driver(void)
{
    const int threads[] = {1, 2, 3};
    const uint64_t windows[] = {0, 1};
    const uint64_t i4 = 4 - KLO;
    for (int a = 0; a < 3; a++)
        for (int w = 0; w < 2; w++) {
            ctx c = {.gr = ns_group_new()};
            ns_error err = {0};
            const ns_sweep_job job = {.n = NV, .build = build, .threads = threads[a], .each = each,
                                      .each_user = &c, .window = windows[w]};
            CHECK(ns_sweep_run(&job, NULL, &err) == NS_OK && !c.fail);
            int bad = 0;
            size_t own = 0;
            for (uint64_t i = 0; i < NV; i++) {
                const int64_t k = KLO + (int64_t)i;
                const uint64_t want = k % 3 ? i4 : i;
                bad += c.group[i] != want;
                own += k % 3 == 0;
            }
            CHECKF(bad == 0, "%d variants grouped off the closed form at %d threads, window %d", bad, threads[a],
                   (int)windows[w]);
            CHECK(ns_group_count(c.gr) == own + 1);
            ns_group_free(c.gr);
        }
}

int main(void)
{
    basics();
    random_tables();
    driver();
    return TEST_REPORT();
}
