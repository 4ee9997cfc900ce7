/* test_general_widen.c - the general engine widens its sets (line records,
 * prefix records, running sets) in place, not by rebuilding them from the
 * table: a mex that reaches the sets' width is not stored, its cell is
 * listed, the sets (exact, as no value at or past the width was stored)
 * gain zero words, and only the listed cells of the level are computed
 * again.
 *
 * For each game, the table with widenings in place must be the table with
 * every widening rebuilt from the table (ns_engine_opts.widen_rebuild, the
 * engine's older path, which test_sets_budget and the closed-form tests
 * check), at 1, 2 and 3 threads; the widenings in place must have happened
 * (the widenings counter), and none with widen_rebuild; a game whose levels
 * are runs along a sequential axis rebuilds. Independent values where
 * a closed form exists: Nim (the xor of the piles), Moore's Nim_2 (Moore's
 * theorem) and a-Wythoff's P-positions (a naive P/N sieve written here).
 * Games: line sets (Nim on 3 piles, values to 255), lagged and early line
 * sets (a-Wythoff a = 2, values past 1024: four widenings), running sets of
 * boxes (Moore's Nim_2), strict boxes (a rule file: exactly two of three
 * piles), prefix records (a rule file with a closed form). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_game.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "game/ns_rules.h"
#include "game/ns_table.h"
#include "testutil.h"
#include "tsolve.h"

static ns_game *build_rules(const char *text, int k, const int64_t *b)
{
    ns_params ps = {0};
    ns_error err = {0};
    ns_game *g = NULL;
    if (ns_rules_compile(text, "t.rules", &ps, k, &g, &err) || ns_game_set_bounds(g, b, &err)) {
        fprintf(stderr, "rules: %s\n", err.msg);
        ns_game_free(g);
        return NULL;
    }
    return g;
}

/* g by the general engine; wid[0..1] gets the widenings by copy and by
 * rebuild. NULL on failure (reported). */
static ns_table *solve(const ns_game *g, int threads, int rebuild, uint64_t *wid, const char *what)
{
    ns_error err = {0};
    ns_table *t = ns_engine_table_new(g, 0, &err);
    wid[0] = wid[1] = 0;
    ns_engine_opts o = {.threads = threads, .widen_rebuild = rebuild, .widenings = wid, .solo_cells = 1};
    ns_err rc = t ? ns_engine_run_with(ns_engine_find("general"), g, t, &o, &err) : NS_ENOMEM;
    CHECKF(rc == NS_OK, "%s: %s", what, err.msg);
    if (rc) {
        ns_table_free(t);
        return NULL;
    }
    return t;
}

/* The table by copies against the rebuilt one, at 1..3 threads; returns the
 * 2-thread table by copies (the caller checks its values), or NULL. */
static ns_table *check_game(const ns_game *g, const char *what, uint64_t min_copies, int copies)
{
    uint64_t wid[2];
    char w[128];
    snprintf(w, sizeof w, "%s, rebuilt", what);
    ns_table *ref = solve(g, 2, 1, wid, w);
    if (!ref)
        return NULL;
    CHECKF(wid[0] == 0 && wid[1] >= min_copies, "%s: widen_rebuild copied %" PRIu64 " times, rebuilt %" PRIu64, what,
           wid[0], wid[1]);
    ns_table *keep = NULL;
    for (int th = 1; th <= 3; th++) {
        snprintf(w, sizeof w, "%s, %d threads", what, th);
        ns_table *t = solve(g, th, 0, wid, w);
        if (!t)
            continue;
        if (copies)
            CHECKF(wid[0] >= min_copies && wid[1] == 0, "%s: %" PRIu64 " widenings in place (want >= %" PRIu64
                   "), %" PRIu64 " rebuilt (want 0)", w, wid[0], min_copies, wid[1]);
        else
            CHECKF(wid[0] == 0 && wid[1] >= min_copies, "%s: %" PRIu64 " widenings in place (want 0), %" PRIu64
                   " rebuilt (want >= %" PRIu64 ")", w, wid[0], wid[1], min_copies);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < t->ncells; i++)
            bad += ns_table_get(t, i) != ns_table_get(ref, i);
        CHECKF(bad == 0, "%s: %" PRIu64 " cells differ from the rebuilt path's table", w, bad);
        if (th == 2)
            keep = t;
        else
            ns_table_free(t);
    }
    ns_table_free(ref);
    return keep;
}

static void check_nim(void)
{
    const int64_t b[3] = {300, 5, 4};
    ns_game *g = ns_tbuild("nim", "piles=3", 3, b);
    CHECK(g != NULL);
    ns_table *t = g ? check_game(g, "nim 300x5x4", 1, 1) : NULL;
    const uint64_t bad = ns_tnim3_bad(t, b, UINT64_MAX);
    CHECKF(t && bad == 0, "nim: %" PRIu64 " cells differ from the xor", bad);
    ns_table_free(t);
    ns_game_free(g);
}

static void check_moore(void)
{
    const int64_t N = 72, b[3] = {N, N, N};
    ns_game *g = ns_tbuild("moore", "piles=3;k=2", 3, b);
    CHECK(g != NULL);
    ns_table *t = g ? check_game(g, "moore k=2 72^3", 1, 1) : NULL;
    uint64_t bad = 0;
    int64_t s[3];
    for (s[0] = 0; t && s[0] < N; s[0]++)
        for (s[1] = 0; s[1] < N; s[1]++)
            for (s[2] = 0; s[2] < N; s[2]++) {
                int p = 1;
                for (int bit = 0; bit < 8; bit++)
                    p &= ((s[0] >> bit & 1) + (s[1] >> bit & 1) + (s[2] >> bit & 1)) % 3 == 0;
                bad += (ns_table_get(t, ns_table_index(t, s)) == 0) != p;
            }
    CHECKF(t && bad == 0, "moore: %" PRIu64 " cells against Moore's theorem", bad);
    ns_table_free(t);
    ns_game_free(g);
}

/* a-Wythoff a = 2: from (x, y) take k >= 1 from x, or from y, or k, l >= 1
 * from both with |k - l| < 2. P-positions by a naive P/N sieve. */
static void check_awythoff(void)
{
    const int64_t N = 700, b[2] = {N, N};
    ns_game *g = ns_tbuild("a-wythoff", "a=2", 2, b);
    CHECK(g != NULL);
    ns_table *t = g ? check_game(g, "a-wythoff a=2 700^2", 3, 1) : NULL;
    uint8_t *p = calloc((size_t)(N * N), 1);
    CHECK(p != NULL);
    uint64_t bad = 0;
    for (int64_t x = 0; t && p && x < N; x++)
        for (int64_t y = 0; y < N; y++) {
            int win = 0;
            for (int64_t k = 1; k <= x && !win; k++)
                win = p[(x - k) * N + y];
            for (int64_t l = 1; l <= y && !win; l++)
                win = p[x * N + y - l];
            for (int64_t k = 1; k <= x && !win; k++)
                for (int64_t l = k - 1; l <= k + 1 && !win; l++)
                    win = l >= 1 && l <= y && p[(x - k) * N + y - l];
            p[x * N + y] = !win;
            const int64_t s[2] = {x, y};
            bad += (ns_table_get(t, ns_table_index(t, s)) == 0) != !win;
        }
    CHECKF(t && bad == 0, "a-wythoff: %" PRIu64 " cells against the naive P/N sieve", bad);
    free(p);
    ns_table_free(t);
    ns_game_free(g);
}

static void check_patterns(void)
{
    const int64_t b[3] = {100, 90, 80};
    ns_game *g = build_rules("game two\npiles p[1..3]\nmove p -> (p[i] - t[i] for i in 1..3) for (t[i] in 0..p[i] "
                             "for i in 1..3) where count(t[i] > 0 for i in 1..3) == 2\n",
                             3, b);
    CHECK(g != NULL);
    ns_table *t = g ? check_game(g, "exactly two of three piles 100x90x80", 1, 1) : NULL;
    ns_table_free(t);
    ns_game_free(g);
}

/* Prefix records along a coordinate of rank weight 0: the cells of a level
 * form runs whose records go on along the run, so a widening rebuilds the
 * sets and redoes the whole level (not only the cells that reached the
 * width): from (n, m) take t <= min(n, m)
 * and leave (n - t, n - t). G(x, x) = x (every smaller diagonal cell is an
 * option), so G(n, m) = n when m >= n and 0 otherwise (the options n - t,
 * t = 1..m, miss 0). */
static void check_prefix(void)
{
    const int64_t b[2] = {300, 300};
    ns_game *g = build_rules("game pre\npiles n, m\nrank n\nmove (n, m) -> (n - t, n - t) for t in 1..min(n, m)\n", 2, b);
    CHECK(g != NULL);
    int prefix = 0;
    for (int f = 0; g && f < g->nfam; f++)
        prefix |= g->fam[f].kind == NS_FAM_PREFIX;
    CHECKF(prefix, "the rule file did not compile to a prefix family");
    ns_table *t = g ? check_game(g, "prefix 300^2", 1, 0) : NULL;
    uint64_t bad = 0;
    for (int64_t n = 0; t && n < b[0]; n++)
        for (int64_t m = 0; m < b[1]; m++) {
            const int64_t s[2] = {n, m};
            bad += ns_table_get(t, ns_table_index(t, s)) != (uint32_t)(m >= n ? n : 0);
        }
    CHECKF(t && bad == 0, "prefix: %" PRIu64 " cells against G(n, m) = n if m >= n else 0", bad);
    ns_table_free(t);
    ns_game_free(g);
}

int main(void)
{
    check_nim();
    check_moore();
    check_awythoff();
    check_patterns();
    check_prefix();
    return TEST_REPORT();
}
