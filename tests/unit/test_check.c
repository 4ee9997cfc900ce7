/* test_check.c - the closed-form checks on tables solved by the engine:
 * every theorem passes on its game (every cell counted exactly once: the
 * count equals the product of the bounds), fails with the
 * right first mismatch when one cell is corrupted, and refuses tables it
 * does not apply to. The closed forms themselves are tested against
 * independent sources in test_exact. */
#include <inttypes.h>
#include <string.h>

#include "analysis/ns_check.h"
#include "analysis/ns_exact.h"
#include "testutil.h"
#include "tsolve.h"

static void pass(const char *theorem, const char *game, const char *params, int k, const int64_t *bounds,
                 int misere, int pn)
{
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game(game, params, k, bounds, misere, pn, 0, &g);
    CHECKF(t != NULL, "%s: solve failed", game);
    if (!t)
        return;
    const ns_check_theorem *th = ns_check_find(theorem);
    CHECK(th != NULL);
    ns_check_result r;
    ns_error e = {0};
    int applies = -1;
    ns_err rc = ns_check_run(th, g, t, &r, &applies, &e);
    CHECKF(rc == NS_OK && applies == 1, "%s on %s [%s]: rc=%d %s", theorem, game, params, rc, e.msg);
    CHECKF(r.mismatches == 0, "%s on %s [%s]%s%s: %" PRIu64 " mismatches", theorem, game, params,
           misere ? " misere" : "", pn ? " pn" : "", r.mismatches);
    /* every cell once: the count is the table's cell count, the product of
     * the bounds (computed here, not taken from the table) */
    uint64_t cells = 1;
    for (int d = 0; d < k; d++)
        cells *= (uint64_t)bounds[d];
    CHECKF(r.checked == cells, "%s on %s [%s]: %" PRIu64 " cells checked, the table has %" PRIu64, theorem, game, params,
           r.checked, cells);
    ns_table_free(t);
    ns_game_free(g);
}

static void refuse(const char *theorem, const char *game, const char *params, int k, const int64_t *bounds,
                   int misere, int pn, const char *why)
{
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game(game, params, k, bounds, misere, pn, 0, &g);
    CHECK(t != NULL);
    if (!t)
        return;
    ns_check_result r;
    ns_error e = {0};
    int applies = -1;
    ns_err rc = ns_check_run(ns_check_find(theorem), g, t, &r, &applies, &e);
    CHECKF(rc == NS_EINVAL && applies == 0, "%s on %s should not apply (rc=%d)", theorem, game, rc);
    CHECKF(strstr(e.msg, why) != NULL, "%s on %s: reason '%s' lacks '%s'", theorem, game, e.msg, why);
    ns_table_free(t);
    ns_game_free(g);
}

/* Corrupt one cell and expect exactly that mismatch first. */
static void corrupt(const char *theorem, const char *game, const char *params, int k, const int64_t *bounds,
                    const int64_t *cell, uint32_t value)
{
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game(game, params, k, bounds, 0, 0, 0, &g);
    CHECK(t != NULL);
    if (!t)
        return;
    uint64_t i = ns_table_index(t, cell);
    uint32_t old = ns_table_get(t, i);
    ns_table_set(t, i, value);
    ns_check_result r;
    ns_error e = {0};
    CHECK(ns_check_run(ns_check_find(theorem), g, t, &r, NULL, &e) == NS_OK);
    CHECKF(r.mismatches == 1 && r.nshown == 1, "%s: %" PRIu64 " mismatches after corrupting one cell", theorem, r.mismatches);
    if (r.nshown == 1) {
        CHECK(memcmp(r.shown[0].pos, cell, (size_t)k * sizeof *cell) == 0);
        CHECK(r.shown[0].found == (int64_t)value || (r.shown[0].found == (value != 0) && old == 0));
    }
    ns_table_free(t);
    ns_game_free(g);
}

int main(void)
{
    const int64_t b2[2] = {160, 160}, b3[3] = {12, 13, 14}, b1[1] = {200}, bf[2] = {120, 120}, bs[3] = {10, 10, 10};
    const int64_t b4[4] = {6, 7, 8, 9};

    pass("wythoff-golden", "wythoff", "", 2, b2, 0, 0);
    pass("wythoff-golden", "wythoff", "", 2, b2, 0, 1);
    pass("bouton", "nim", "piles=3", 3, b3, 0, 0);
    pass("bouton", "nim", "piles=4", 4, b4, 0, 1);
    pass("bouton", "nim", "piles=3", 3, b3, 1, 0);
    pass("bash", "bash", "m=4", 1, b1, 0, 0);
    pass("bash", "bash", "", 1, b1, 1, 0);
    pass("bash", "subtraction", "set=3,1,2", 1, b1, 0, 0);
    pass("a-wythoff", "a-wythoff", "a=2", 2, b2, 0, 0);
    pass("a-wythoff", "a-wythoff", "a=3", 2, b2, 0, 1);
    pass("a-wythoff", "a-wythoff", "", 2, b2, 0, 0);
    pass("a-wythoff", "wythoff", "", 2, b2, 0, 0);
    pass("moore", "moore", "piles=3;k=2", 3, bs, 0, 1);
    pass("moore", "moore", "piles=3", 3, bs, 0, 0);
    pass("moore", "moore", "piles=3;k=1", 3, bs, 0, 1);
    pass("euclid", "euclid", "", 2, b2, 0, 1);
    pass("fibonacci-nim", "fibonacci-nim", "", 2, bf, 0, 0);
    pass("staircase", "staircase", "piles=3", 3, bs, 0, 0);
    pass("staircase", "staircase", "piles=2", 2, b2, 0, 1);
    pass("sprague-grundy-sum", "nim", "piles=3", 3, b3, 0, 0);

    refuse("wythoff-golden", "nim", "piles=2", 2, b2, 0, 0, "preset 'wythoff'");
    refuse("wythoff-golden", "wythoff", "", 2, b2, 1, 0, "misere");
    refuse("bash", "subtraction", "set=1,3,4", 1, b1, 0, 0, "not {1, ..., m}");
    refuse("sprague-grundy-sum", "wythoff", "", 2, b2, 0, 0, "more than one pile");
    refuse("sprague-grundy-sum", "nim", "piles=3", 3, b3, 0, 1, "P/N flags only");
    refuse("sprague-grundy-sum", "bash", "", 1, b1, 0, 0, "one-pile");
    refuse("sprague-grundy-sum", "moore", "piles=3", 3, bs, 0, 0, "callback");
    refuse("sprague-grundy-sum", "staircase", "piles=3", 3, bs, 0, 0, "domain");
    refuse("euclid", "euclid", "", 2, b2, 1, 0, "misere");

    /* (3,5) is P; claim N. (4,4) has Grundy 8 in nim; claim 9. */
    const int64_t c1[2] = {3, 5}, c2[3] = {4, 4, 0}, c3[2] = {9, 8};
    corrupt("wythoff-golden", "wythoff", "", 2, b2, c1, 1);
    corrupt("bouton", "nim", "piles=3", 3, b3, c2, 9);
    corrupt("sprague-grundy-sum", "nim", "piles=3", 3, b3, c2, 9);
    corrupt("fibonacci-nim", "fibonacci-nim", "", 2, bf, c3, 0);

    /* the double-precision report rides along with wythoff-golden */
    {
        ns_game *g = NULL;
        ns_table *t = ns_tsolve_game("wythoff", "", 2, b2, 0, 0, 0, &g);
        ns_check_result r;
        CHECK(t && ns_check_run(ns_check_find("wythoff-golden"), g, t, &r, NULL, NULL) == NS_OK);
        CHECK(r.has_probe && r.probe[0].found && r.probe[0].n == 102334155);
        /* P-positions inside [0,160)^2: (0,0) and pairs with b_n < 160, twice */
        int64_t np = 1;
        for (int64_t n = 1; ns_floor_phi2(n) < 160; n++)
            np += 2;
        char want[64];
        snprintf(want, sizeof want, "%" PRId64 " in the table, %" PRId64 " by", np, np);
        CHECKF(strstr(r.notes[0], want) != NULL, "note '%s'", r.notes[0]);
        ns_table_free(t);
        ns_game_free(g);
    }
    /* explicit components: nim's one-pile tables are G1(x) = x */
    {
        ns_table *t = ns_tsolve("nim", "piles=3", 3, b3, 0, 0, 0);
        uint32_t c0[20], cc[20];
        for (int i = 0; i < 20; i++) {
            c0[i] = (uint32_t)i;
            cc[i] = (uint32_t)(i == 5 ? 6 : i);
        }
        const uint32_t *comp[3] = {c0, c0, c0};
        const int64_t nc[3] = {20, 20, 20}, nshort[3] = {20, 5, 20};
        ns_check_result r;
        CHECK(t && ns_check_sum_components(t, comp, nc, &r, NULL) == NS_OK && r.mismatches == 0);
        comp[1] = cc; /* wrong at x_2 = 5: every cell with x_2 = 5 differs */
        CHECK(ns_check_sum_components(t, comp, nc, &r, NULL) == NS_OK && r.mismatches == 12 * 14);
        CHECK(ns_check_sum_components(t, comp, nshort, &r, NULL) == NS_EINVAL);
        ns_table_free(t);
    }
    CHECK(ns_check_find("no-such-theorem") == NULL);
    return TEST_REPORT();
}
