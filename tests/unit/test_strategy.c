/* test_strategy.c - winning moves.
 *   Closed-form Wythoff moves: P/N agrees with a solved 1024 x 1024 table
 *     at every cell, and the set of winning moves equals the table's (every
 *     option enumerated) on [0,160)^2.
 *   Nim moves equal the table's on a 3-pile box; the seed's examples
 *     (14,21,39) -> (14,21,27), (55,81,121) -> (55,81,102), (29,45,58) ->
 *     (29,45,48) (acm博弈 seed, 尼姆博奕 例1-3).
 *   Staircase moves equal the table's on a 3-step box.
 *   Piles near 10^18: targets are P-positions by a second exact route
 *     (Zeckendorf) and by the Fibonacci pairs (F_86, F_87). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_exact.h"
#include "analysis/ns_strategy.h"
#include "testutil.h"
#include "tsolve.h"

static int same_set(const ns_move *a, int na, const ns_moves *b)
{
    if ((size_t)na != b->n)
        return 0;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (size_t j = 0; j < b->n && !found; j++)
            found = memcmp(a[i].to, b->v[j].to, (size_t)a[i].k * sizeof(int64_t)) == 0;
        if (!found)
            return 0;
    }
    return 1;
}

static void test_wythoff(void)
{
    const int64_t big[2] = {1024, 1024};
    ns_table *t = ns_tsolve("wythoff", "", 2, big, 0, 1, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    int64_t bad = 0;
    ns_move mv[3];
    for (int64_t x = 0; x < 1024; x++)
        for (int64_t y = 0; y < 1024; y++) {
            int64_t s[NS_MAX_DIM] = {x, y};
            int p = ns_table_get(t, ns_table_index(t, s)) == 0;
            int n = ns_wythoff_moves(x, y, mv);
            if (p != (n == 0) || p != ns_wythoff_is_p(x, y))
                bad++;
            for (int i = 0; i < n; i++)
                if (ns_table_get(t, ns_table_index(t, mv[i].to)) != 0)
                    bad++;
        }
    CHECKF(bad == 0, "%" PRId64 " disagreements with the 1024 table", bad);
    ns_table_free(t);

    const int64_t b[2] = {160, 160};
    ns_game *g = NULL;
    t = ns_tsolve_game("wythoff", "", 2, b, 0, 0, 0, &g);
    ns_moves tm = {0};
    bad = 0;
    for (int64_t x = 0; x < 160; x++)
        for (int64_t y = 0; y < 160; y++) {
            int64_t s[2] = {x, y};
            uint32_t v;
            if (ns_strategy_from_table(g, t, s, 1, &tm, &v, NULL) != NS_OK)
                bad++;
            int n = ns_wythoff_moves(x, y, mv);
            if (!same_set(mv, n, &tm) || (v == 0) != (n == 0))
                bad++;
        }
    CHECKF(bad == 0, "%" PRId64 " cells where the move sets differ", bad);
    /* one move only: the first one the game enumerates */
    int64_t s[2] = {4, 9};
    CHECK(ns_strategy_from_table(g, t, s, 0, &tm, NULL, NULL) == NS_OK && tm.n == 1 && tm.v[0].to[0] == 4 &&
          tm.v[0].to[1] == 7);
    int64_t out[2] = {160, 3};
    ns_error e = {0};
    CHECK(ns_strategy_from_table(g, t, out, 0, &tm, NULL, &e) == NS_EINVAL);
    ns_moves_free(&tm);
    ns_table_free(t);
    ns_game_free(g);

    /* the seed's unsafe positions are lost; (4,9) -> (4,7) */
    static const int64_t unsafe[][2] = {{1, 2}, {3, 5}, {4, 7}, {6, 10}, {8, 13}, {9, 15}, {11, 18}, {12, 20}};
    for (int i = 0; i < 8; i++) {
        CHECK(ns_wythoff_moves(unsafe[i][0], unsafe[i][1], mv) == 0);
        CHECK(ns_wythoff_moves(unsafe[i][1], unsafe[i][0], mv) == 0);
    }
    CHECK(ns_wythoff_moves(4, 9, mv) == 1 && mv[0].to[0] == 4 && mv[0].to[1] == 7);
    /* (5,5): to (3,5), (5,3) and (0,0) */
    CHECK(ns_wythoff_moves(5, 5, mv) == 3 && mv[0].to[0] == 3 && mv[1].to[1] == 3 && mv[2].to[0] == 0 && mv[2].to[1] == 0);
    /* near 10^18: (F_86, F_87) is P (F_85 phi rounds up: floor = F_86) */
    int64_t f86 = ns_fib(86), f87 = ns_fib(87);
    CHECK(ns_wythoff_moves(f86, f87, mv) == 0);
    int n = ns_wythoff_moves(f86, f87 + 10, mv);
    CHECK(n >= 1 && mv[0].to[0] == f86 && mv[0].to[1] == f87);
    n = ns_wythoff_moves(f86 + 3, f87 + 3, mv);
    int diag = 0;
    for (int i = 0; i < n; i++)
        diag |= mv[i].to[0] == f86 && mv[i].to[1] == f87;
    CHECK(diag);
    uint64_t xs = 0x2545F4914F6CDD1Dull;
    bad = 0;
    for (int i = 0; i < 3000; i++) {
        xs ^= xs << 13;
        xs ^= xs >> 7;
        xs ^= xs << 17;
        int64_t a = (int64_t)(xs % 1000000000000000001ull), c = (int64_t)((xs >> 7) % 1000000000000000001ull);
        n = ns_wythoff_moves(a, c, mv);
        if (n < 0)
            bad++;
        for (int j = 0; j < n; j++) {
            int64_t lo = mv[j].to[0] < mv[j].to[1] ? mv[j].to[0] : mv[j].to[1];
            int64_t d = mv[j].to[0] > mv[j].to[1] ? mv[j].to[0] - mv[j].to[1] : mv[j].to[1] - mv[j].to[0];
            int legal = (mv[j].to[0] < a && mv[j].to[1] == c) || (mv[j].to[0] == a && mv[j].to[1] < c) ||
                        (a - mv[j].to[0] == c - mv[j].to[1] && mv[j].to[0] < a && mv[j].to[0] >= 0 && mv[j].to[1] >= 0);
            if (!legal || ns_floor_phi_zeckendorf(d) != lo)
                bad++;
        }
        if (n == 0 && ns_floor_phi_zeckendorf(a > c ? a - c : c - a) != (a < c ? a : c))
            bad++;
    }
    CHECKF(bad == 0, "%" PRId64 " bad large moves", bad);
    CHECK(ns_wythoff_moves(-1, 3, mv) == -1);
    CHECK(ns_wythoff_moves(NS_EXACT_MAX + 1, 3, mv) == -1);
}

static void test_nim(void)
{
    const int64_t b[3] = {9, 10, 11};
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game("nim", "piles=3", 3, b, 0, 1, 0, &g);
    CHECK(t != NULL);
    ns_moves tm = {0};
    ns_move mv[8];
    int64_t bad = 0, s[3];
    for (uint64_t i = 0; t && i < t->ncells; i++) {
        ns_table_coords(t, i, s);
        if (ns_strategy_from_table(g, t, s, 1, &tm, NULL, NULL) != NS_OK)
            bad++;
        if (!same_set(mv, ns_nim_moves(3, s, mv), &tm))
            bad++;
    }
    CHECKF(bad == 0, "%" PRId64 " nim cells differ", bad);
    ns_moves_free(&tm);
    ns_table_free(t);
    ns_game_free(g);

    static const int64_t ex[3][4] = {{14, 21, 39, 27}, {55, 81, 121, 102}, {29, 45, 58, 48}};
    for (int e = 0; e < 3; e++) {
        int n = ns_nim_moves(3, ex[e], mv), found = 0;
        for (int i = 0; i < n; i++)
            found |= mv[i].to[0] == ex[e][0] && mv[i].to[1] == ex[e][1] && mv[i].to[2] == ex[e][3];
        CHECKF(found, "seed example %d", e + 1);
    }
    /* (55,81,121): X = 31, every pile has the 16 bit: three winning moves */
    CHECK(ns_nim_moves(3, ex[1], mv) == 3);
    /* (7,8,9) -> (1,8,9) as in the seed's game */
    const int64_t p789[3] = {7, 8, 9};
    CHECK(ns_nim_moves(3, p789, mv) == 1 && mv[0].to[0] == 1);
    /* 10^18-sized piles */
    const int64_t big[4] = {1000000000000000000, 999999999999999999, 123456789012345678, 7};
    int n = ns_nim_moves(4, big, mv);
    int64_t x = big[0] ^ big[1] ^ big[2] ^ big[3];
    int expect = 0;
    int hb = 63 - __builtin_clzll((unsigned long long)x);
    for (int i = 0; i < 4; i++)
        expect += (big[i] >> hb) & 1;
    CHECK(n == expect);
    for (int i = 0; i < n; i++)
        CHECK((mv[i].to[0] ^ mv[i].to[1] ^ mv[i].to[2] ^ mv[i].to[3]) == 0);
    const int64_t neg[2] = {3, -1};
    CHECK(ns_nim_moves(2, neg, mv) == -1);
    CHECK(ns_nim_moves(9, big, mv) == -1);
}

static void test_staircase(void)
{
    const int64_t b[3] = {12, 12, 12};
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game("staircase", "piles=3", 3, b, 0, 1, 0, &g);
    CHECK(t != NULL);
    ns_moves tm = {0};
    ns_move mv[8];
    int64_t bad = 0, s[3], nvalid = 0;
    for (uint64_t i = 0; t && i < t->ncells; i++) {
        ns_table_coords(t, i, s);
        if (!ns_game_is_position(g, s))
            continue;
        nvalid++;
        if (ns_strategy_from_table(g, t, s, 1, &tm, NULL, NULL) != NS_OK)
            bad++;
        if (!same_set(mv, ns_staircase_moves(3, s, mv), &tm))
            bad++;
    }
    CHECKF(bad == 0 && nvalid > 100, "%" PRId64 " staircase cells differ", bad);
    ns_moves_free(&tm);
    ns_table_free(t);
    ns_game_free(g);
}

/* the engine route (preset + sieve + table) against the closed form on
 * random small instances, and the seed's monks: 1 5 9 -> gaps (3, 3),
 * 1 5 8 10 -> gaps (3, 2, 1) */
static void test_staircase_table(void)
{
    ns_moves tm = {0};
    ns_move mv[8];
    int p = -1;
    const int64_t m1[2] = {3, 3}, m2[3] = {3, 2, 1};
    CHECK(ns_staircase_by_table(2, m1, 1u << 20, 0, &tm, &p, NULL) == NS_OK && !p && tm.n == 1 &&
          tm.v[0].to[0] == 0 && tm.v[0].to[1] == 3);
    CHECK(ns_staircase_by_table(3, m2, 1u << 20, 0, &tm, &p, NULL) == NS_OK && !p && tm.n >= 1 &&
          tm.v[0].to[0] == 1 && tm.v[0].to[1] == 2);
    uint64_t x = 12345;
    int bad = 0;
    for (int r = 0; r < 150; r++) {
        int64_t c[8];
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int k = 1 + (int)((x >> 60) % 4);
        for (int i = 0; i < k; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            c[i] = (int64_t)((x >> 59) % 6);
        }
        if (ns_staircase_by_table(k, c, 1u << 22, 1, &tm, &p, NULL) != NS_OK)
            bad++;
        int n = ns_staircase_moves(k, c, mv);
        if (!same_set(mv, n, &tm) || p != (n == 0) || p != (ns_staircase_xor(k, c) == 0))
            bad++;
    }
    CHECKF(bad == 0, "%d staircase instances differ", bad);
    ns_error e = {0};
    const int64_t huge[2] = {1000000, 1000000};
    CHECK(ns_staircase_by_table(2, huge, 1u << 20, 0, &tm, &p, &e) == NS_ERANGE);
    ns_moves_free(&tm);
}

int main(void)
{
    test_wythoff();
    test_nim();
    test_staircase();
    test_staircase_table();
    return TEST_REPORT();
}
