/* test_rules_rank.c - rule families shaped like rays whose direction does
 * not lower the rank, although every option does (issue 14, defect 1).
 *
 * `move (x, y) -> (x - t, y + t - 1) for t in 1..x` lowers x + y by 1 with
 * every option, along the direction (-1, 1) that keeps it; with `rank
 * 64*x + y`, `move (x, y) -> (x - 1, y + u) for u in 0..size(y)-1-y` lowers
 * the rank while size(y) <= 64, along a direction that raises it. Such
 * families used to be refused ("a cycle is possible"); they must compile,
 * run as general families, and give the values of a naive solver written
 * here (memoised mex over the moves enumerated from the rules, no engine),
 * Grundy and P/N, normal and misere, 1 and 2 threads.
 *
 * Moves that really do not lower the rank are still refused with the
 * file's line: at compile time when the first option of a ray does not
 * lower it, while solving when a later one does (the box decides). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "naive.h"
#include "testutil.h"
#include "tsolve.h"

/* ---------- the games, from their rules ---------- */

/* Write the options of (x, y) in the box N0 x N1 to ox/oy (room for
 * 4 * (N0 + N1) options); returns their number. */
typedef int (*opts_fn)(int64_t x, int64_t y, int64_t N0, int64_t N1, int64_t *ox, int64_t *oy);

/* (x - t, y + t - 1), t = 1..x, while y + t - 1 < N1 */
static int o_slide(int64_t x, int64_t y, int64_t N0, int64_t N1, int64_t *ox, int64_t *oy)
{
    (void)N0;
    int c = 0;
    for (int64_t t = 1; t <= x; t++)
        if (y + t - 1 < N1) {
            ox[c] = x - t;
            oy[c++] = y + t - 1;
        }
    return c;
}

/* the slide, plus taking from y */
static int o_slide_take(int64_t x, int64_t y, int64_t N0, int64_t N1, int64_t *ox, int64_t *oy)
{
    int c = o_slide(x, y, N0, N1, ox, oy);
    for (int64_t t = 1; t <= y; t++) {
        ox[c] = x;
        oy[c++] = y - t;
    }
    return c;
}

/* (x - t, y + t - e) for e = 1, 2, when 0 <= y + t - e < N1 */
static int o_slide2(int64_t x, int64_t y, int64_t N0, int64_t N1, int64_t *ox, int64_t *oy)
{
    (void)N0;
    int c = 0;
    for (int64_t e = 1; e <= 2; e++)
        for (int64_t t = 1; t <= x; t++)
            if (y + t - e >= 0 && y + t - e < N1) {
                ox[c] = x - t;
                oy[c++] = y + t - e;
            }
    return c;
}

/* (x - 1, y + u), u = 0 .. N1 - 1 - y, when x >= 1 */
static int o_down_any(int64_t x, int64_t y, int64_t N0, int64_t N1, int64_t *ox, int64_t *oy)
{
    (void)N0;
    int c = 0;
    if (x < 1)
        return 0;
    for (int64_t u = 0; u <= N1 - 1 - y; u++) {
        ox[c] = x - 1;
        oy[c++] = y + u;
    }
    return c;
}

/* the same, plus taking from y */
static int o_down_any_take(int64_t x, int64_t y, int64_t N0, int64_t N1, int64_t *ox, int64_t *oy)
{
    int c = o_down_any(x, y, N0, N1, ox, oy);
    for (int64_t t = 1; t <= y; t++) {
        ox[c] = x;
        oy[c++] = y - t;
    }
    return c;
}

typedef struct tgame {
    const char *name;
    const char *text;
    int64_t w0, w1;         /* rank weights */
    opts_fn opts;
    int nfam;               /* families of the game; the first is the one under test */
} tgame;

#define SLIDE "move (x, y) -> (x - t, y + t - 1)    for t in 1..x    where y + t - 1 < size(y)\n"
#define DOWN "move (x, y) -> (x - 1, y + u)    for u in 0..size(y)-1-y    where x >= 1\n"

static const tgame games[] = {
    {"slide.rules", "piles x y\n" SLIDE, 1, 1, o_slide, 1},
    {"slide-take.rules", "piles x y\n" SLIDE "move y -> y - t    for t in 1..y\n", 1, 1, o_slide_take, 2},
    {"slide2.rules",
     "piles x y\nmove (x, y) -> (x - t, y + t - e)    for e in 1..2, t in 1..x    where 0 <= y + t - e < size(y)\n", 1, 1,
     o_slide2, 1},
    {"down-any.rules", "piles x y\nrank 64*x + y\n" DOWN, 64, 1, o_down_any, 1},
    {"down-any-take.rules", "piles x y\nrank 64*x + y\n" DOWN "move y -> y - t    for t in 1..y\n", 64, 1,
     o_down_any_take, 2},
};

/* ---------- the naive solver ---------- */

typedef struct naive {
    const tgame *tg;
    int64_t N0, N1;
    int misere;
    uint32_t *val;
    uint8_t *done;
    int bad;                /* an option outside the box, or of no smaller rank */
} naive;

static uint32_t naive_value(naive *nv, int64_t x, int64_t y)
{
    uint64_t i = (uint64_t)x * (uint64_t)nv->N1 + (uint64_t)y;
    if (nv->done[i])
        return nv->val[i];
    size_t room = (size_t)(4 * (nv->N0 + nv->N1));
    int64_t *ox = malloc(room * sizeof *ox), *oy = malloc(room * sizeof *oy);
    uint8_t *seen = calloc(room + 2, 1);
    if (!ox || !oy || !seen) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    int c = nv->tg->opts(x, y, nv->N0, nv->N1, ox, oy);
    for (int j = 0; j < c; j++) {
        if (ox[j] < 0 || ox[j] >= nv->N0 || oy[j] < 0 || oy[j] >= nv->N1 ||
            nv->tg->w0 * ox[j] + nv->tg->w1 * oy[j] >= nv->tg->w0 * x + nv->tg->w1 * y) {
            nv->bad = 1;
            continue;
        }
        uint32_t v = naive_value(nv, ox[j], oy[j]);
        if (v <= room)
            seen[v] = 1;
    }
    uint32_t m = 0;
    while (seen[m])
        m++;
    if (nv->misere && c == 0)
        m = 1;
    free(ox);
    free(oy);
    free(seen);
    nv->done[i] = 1;
    nv->val[i] = m;
    return m;
}

/* Values of the box, row-major; NULL when a move leaves it or does not
 * lower the rank (a bug in the test). */
static uint32_t *naive_solve(const tgame *tg, int64_t N0, int64_t N1, int misere)
{
    naive nv = {tg, N0, N1, misere, calloc((size_t)(N0 * N1), sizeof(uint32_t)), calloc((size_t)(N0 * N1), 1), 0};
    if (!nv.val || !nv.done) {
        free(nv.val);
        free(nv.done);
        return NULL;
    }
    for (int64_t x = 0; x < N0; x++)
        for (int64_t y = 0; y < N1; y++)
            naive_value(&nv, x, y);
    free(nv.done);
    if (nv.bad) {
        fprintf(stderr, "%s: the naive solver found a bad option\n", tg->name);
        free(nv.val);
        return NULL;
    }
    return nv.val;
}

/* ---------- the tests ---------- */

static ns_game *compile(const char *name, const char *text, ns_rules_info **info, ns_error *err)
{
    ns_params ps = {0};
    ns_game *g = NULL;
    if (ns_rules_compile_info(text, name, &ps, 0, &g, info, err))
        return NULL;
    return g;
}

static void check_game(const tgame *tg, int64_t N0, int64_t N1)
{
    ns_error err = {0};
    ns_rules_info *info = NULL;
    ns_game *g = compile(tg->name, tg->text, &info, &err);
    CHECKF(g != NULL, "%s does not compile: %s", tg->name, err.msg);
    if (!g)
        return;
    /* Either the compiler found an order (no rank given) under which the
     * family is a plain ray (its direction lowers it), or the family runs as
     * a general one and `rules` says the direction is why. */
    if (g->nfam && g->fam[0].kind == NS_FAM_RAY) {
        const int64_t wd = g->rank_w[0] * g->fam[0].dir[0] + g->rank_w[1] * g->fam[0].dir[1];
        CHECKF(wd < 0 && info && info->order[0], "%s: a ray under the found order %s (weights %lld, %lld)", tg->name,
               info ? info->rank : "", (long long)g->rank_w[0], (long long)g->rank_w[1]);
    } else {
        CHECKF(g->nfam == tg->nfam && g->fam[0].kind == NS_FAM_GENERAL, "%s: the first family is of kind %d", tg->name,
               g->nfam ? (int)g->fam[0].kind : -1);
        CHECKF(info && info->nfam == tg->nfam && strstr(info->fam[0].why, "direction"),
               "%s: `rules` says why the family is general: '%s'", tg->name, info && info->nfam ? info->fam[0].why : "");
        CHECKF(g->rank_w[0] == tg->w0 && g->rank_w[1] == tg->w1, "%s: rank weights", tg->name);
    }
    ns_rules_info_free(info);
    const int64_t b[2] = {N0, N1};
    for (int misere = 0; misere <= 1; misere++) {
        uint32_t *ref = naive_solve(tg, N0, N1, misere);
        CHECKF(ref != NULL, "%s: naive solver", tg->name);
        for (int pn = 0; ref && pn <= 1; pn++)
            for (int th = 1; th <= 2; th++) {
                char what[160];
                snprintf(what, sizeof what, "%s %" PRId64 "x%" PRId64 " %s %s, %d threads", tg->name, N0, N1,
                         misere ? "misere" : "normal", pn ? "P/N" : "Grundy", th);
                ns_table *t = ns_tsolve_built(g, b, misere, pn, th, &err);
                CHECKF(t != NULL, "%s: %s", what, err.msg);
                if (t)
                    CHECKF(ns_ref_compare(what, t, ref) == 0, "%s: differs from the naive solver", what);
                ns_table_free(t);
            }
        free(ref);
    }
    ns_game_free(g);
}

/* The file compiles, and solving it in the box fails with a message that
 * holds want. */
static void check_solve_refused(const char *name, const char *text, int64_t N0, int64_t N1, const char *want)
{
    ns_error err = {0};
    ns_game *g = compile(name, text, NULL, &err);
    CHECKF(g != NULL, "%s does not compile: %s", name, err.msg);
    if (!g)
        return;
    const int64_t b[2] = {N0, N1};
    ns_table *t = ns_tsolve_built(g, b, 0, 0, 2, &err);
    CHECKF(t == NULL && strstr(err.msg, want), "%s: expected a failure with '%s', got %s", name, want,
           t ? "a table" : err.msg);
    ns_table_free(t);
    ns_game_free(g);
}

static void check_compile_refused(const char *name, const char *text, const char *want)
{
    ns_error err = {0};
    ns_game *g = compile(name, text, NULL, &err);
    CHECKF(g == NULL && strstr(err.msg, want), "%s: expected '%s', got %s", name, want, g ? "a game" : err.msg);
    ns_game_free(g);
}

int main(void)
{
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        const int64_t (*boxes)[2];
        static const int64_t square[][2] = {{24, 24}, {17, 30}, {30, 9}};
        static const int64_t wide[][2] = {{12, 64}, {20, 40}, {9, 1}};
        boxes = games[i].w0 == 64 ? wide : square;
        for (int j = 0; j < 3; j++)
            check_game(&games[i], boxes[j][0], boxes[j][1]);
    }
    /* rank 64*x + y: at size(y) = 65 the move from (1, 0) to (0, 64) keeps it */
    check_solve_refused("down-any.rules", "piles x y\nrank 64*x + y\n" DOWN, 10, 65,
                        "down-any.rules:3:1: the move from (1, 0) leads to (0, 64), which does not strictly decrease the rank");
    /* with the default rank x + y the second option already keeps it */
    check_solve_refused("down-any-sum.rules", "piles x y\nrank x + y\n" DOWN, 5, 5,
                        "down-any-sum.rules:3:1: the move from (1, 0) leads to (0, 1), which does not strictly decrease the rank");
    /* the first option raises it and no order the compiler tries works
     * (y only grows, but no weight of y may be negative): a loopy game, for
     * the retro engine, with the line and the move (issue 18) */
    {
        ns_error err = {0};
        ns_game *g = compile("raise.rules", "piles x y\nmove (x, y) -> (x - t + 1, y + 1)    for t in 1..x+1    where y + 1 < size(y)\n",
                             NULL, &err);
        CHECKF(g && g->loopy && strstr(g->loopy_why, "line 2: its first step (0, 1) changes the rank x + y by +1"), "raise.rules: %s",
               g ? g->loopy_why : err.msg);
        ns_game_free(g);
    }
    /* every option keeps it */
    check_compile_refused("keep.rules", "piles x y\nrank x + y\nmove (x, y) -> (x - t, y + t)    for t in 1..x    where y + t < size(y)\n",
                          "keep.rules:3:1: the move does not strictly decrease the rank x + y: its direction (-1, 1) changes it by +0");
    return TEST_REPORT();
}
