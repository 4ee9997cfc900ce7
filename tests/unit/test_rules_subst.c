/* test_rules_subst.c - two-variable move families whose conditions bound
 * v - m*u compile to rays by the substitution v = m*u + d (issue 14,
 * language feature 5).
 *
 * Fraenkel's a-Wythoff written from its definition,
 *   move (x, y) -> (x - k, y - l) for k in 1..x, l in 1..y where abs(k - l) < a
 * must become 2a - 1 rays and give, for a = 1..4, Grundy and P/N, normal and
 * misere, the table of the hand-derived data/rules/a-wythoff.rules and of
 * the reference solver in tests/common/naive.c (written from the rules).
 *
 * Variants: the bound given by the range of l instead of a condition, a
 * slope 2 (l = 2k + d), the first variable substituted (k = 2l + d), an
 * enumerated variable in front; lookalikes that must stay general (the
 * bound reads a pile, a condition that is not a box limit) all give the
 * values of a naive solver written here (mex over the moves enumerated
 * from the rules). A random differential: 300 families 'lo <= l - m*k <=
 * hi' (or k - m*l), some with conditions that keep them general, give the
 * same table, or both fail, as the same family forced to be general. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "naive.h"
#include "testutil.h"
#include "tsolve.h"

static char srcdir[4096];

#define AW_DEF                                                                                                          \
    "param a = 2\npiles x y\n"                                                                                         \
    "move x -> x - t    for t in 1..x\n"                                                                               \
    "move y -> y - t    for t in 1..y\n"                                                                               \
    "move (x, y) -> (x - k, y - l)    for k in 1..x, l in 1..y    where abs(k - l) < a\n"

/* Compile text (NULL: the file path) with the parameters params_text. */
static ns_game *compile(const char *name, const char *text, const char *path, const char *params_text,
                        ns_rules_info **info, ns_error *err)
{
    ns_params ps = {0};
    ns_game *g = NULL;
    char *buf = NULL;
    if (ns_params_parse_list(&ps, params_text, err))
        return NULL;
    if (!text) {
        if (ns_rules_read_file(path, &buf, err))
            return NULL;
        text = buf;
    }
    if (info)
        ns_rules_compile_info(text, name, &ps, 0, &g, info, err);
    else
        ns_rules_compile(text, name, &ps, 0, &g, err);
    free(buf);
    return g;
}

/* ---------- a-Wythoff from its definition ---------- */

static void check_awythoff(int64_t a, int64_t N0, int64_t N1)
{
    char params[32], path[4200], what[200];
    ns_error err = {0};
    ns_rules_info *info = NULL;
    snprintf(params, sizeof params, "a=%" PRId64, a);
    snprintf(path, sizeof path, "%s/data/rules/a-wythoff.rules", srcdir);
    ns_game *def = compile("a-wythoff-def.rules", AW_DEF, NULL, params, &info, &err);
    CHECKF(def != NULL, "a-wythoff-def a=%" PRId64 ": %s", a, err.msg);
    ns_game *hand = compile("a-wythoff.rules", NULL, path, params, NULL, &err);
    CHECKF(hand != NULL, "a-wythoff.rules a=%" PRId64 ": %s", a, err.msg);
    if (!def || !hand)
        goto done;
    /* 1 + 1 + (2a - 1) rays, nothing general */
    int rays = 0;
    for (int i = 0; i < def->nfam; i++)
        rays += def->fam[i].kind == NS_FAM_RAY;
    CHECKF(def->nfam == (int)(2 * a + 1) && rays == def->nfam, "a=%" PRId64 ": %d families, %d rays, expected %d rays",
           a, def->nfam, rays, (int)(2 * a + 1));
    CHECKF(info && info->nfam == 3 && info->fam[2].kind == NS_FAM_RAY && info->fam[2].count == (int)(2 * a - 1) &&
               strstr(info->fam[2].why, "l = k + d"),
           "a=%" PRId64 ": `rules` shows the substitution: '%s'", a, info && info->nfam == 3 ? info->fam[2].why : "");
    for (int i = 0; i < def->nfam; i++) {
        const ns_family *f = &def->fam[i];
        if (i >= 2 && f->kind == NS_FAM_RAY)
            CHECKF(f->dir[0] == -1 && f->dir[1] == -1 && f->base[1] - f->base[0] >= 1 - a && f->base[1] - f->base[0] <= a - 1 &&
                       (f->base[0] == -1 || f->base[1] == -1),
                   "a=%" PRId64 ": ray %d: direction (%" PRId64 ", %" PRId64 "), base (%" PRId64 ", %" PRId64 ")", a, i,
                   f->dir[0], f->dir[1], f->base[0], f->base[1]);
    }
    const int64_t b[2] = {N0, N1};
    ns_ref_game rg = {.kind = NS_REF_AWYTHOFF, .k = 2, .m = a};
    for (int misere = 0; misere <= 1; misere++) {
        uint32_t *ref = ns_ref_solve(&rg, b, misere);
        CHECKF(ref != NULL, "reference a=%" PRId64, a);
        for (int pn = 0; ref && pn <= 1; pn++) {
            snprintf(what, sizeof what, "a-wythoff a=%" PRId64 " %" PRId64 "x%" PRId64 " %s %s", a, N0, N1,
                     misere ? "misere" : "normal", pn ? "P/N" : "Grundy");
            ns_table *td = ns_tsolve_built(def, b, misere, pn, 2, &err);
            CHECKF(td != NULL, "%s: definition: %s", what, err.msg);
            ns_table *th = ns_tsolve_built(hand, b, misere, pn, 2, &err);
            CHECKF(th != NULL, "%s: hand-derived: %s", what, err.msg);
            if (td && th)
                CHECKF(ns_table_equal(td, th), "%s: the definition form differs from a-wythoff.rules", what);
            if (td)
                CHECKF(ns_ref_compare(what, td, ref) == 0, "%s: the definition form differs from the reference", what);
            ns_table_free(td);
            ns_table_free(th);
        }
        free(ref);
    }
done:
    ns_rules_info_free(info);
    ns_game_free(def);
    ns_game_free(hand);
}

/* ---------- variants against a naive solver ---------- */

/* Options of (x, y) written to ox/oy (room for (x + 1) * (y + 1) + x + y);
 * returns their number. */
typedef int (*opts_fn)(int64_t x, int64_t y, int64_t *ox, int64_t *oy);

static int64_t iabs(int64_t v)
{
    return v < 0 ? -v : v;
}

/* (x - k, y - l) for k in 1..x, l in 1..y with keep(x, y, k, l) */
static int pairs(int64_t x, int64_t y, int (*keep)(int64_t, int64_t, int64_t, int64_t), int64_t *ox, int64_t *oy)
{
    int c = 0;
    for (int64_t k = 1; k <= x; k++)
        for (int64_t l = 1; l <= y; l++)
            if (keep(x, y, k, l)) {
                ox[c] = x - k;
                oy[c++] = y - l;
            }
    return c;
}

static int k_diff1(int64_t x, int64_t y, int64_t k, int64_t l)
{
    (void)x, (void)y;
    return iabs(k - l) <= 1;
}

static int k_slope2(int64_t x, int64_t y, int64_t k, int64_t l)
{
    (void)x, (void)y;
    return 2 * k - 1 <= l && l <= 2 * k + 1;
}

static int k_half(int64_t x, int64_t y, int64_t k, int64_t l)
{
    (void)x, (void)y;
    return k == 2 * l || k == 2 * l + 1;
}

static int k_slopes(int64_t x, int64_t y, int64_t k, int64_t l)
{
    (void)x, (void)y;
    return l == k || l == 2 * k;
}

static int k_pile(int64_t x, int64_t y, int64_t k, int64_t l)
{
    (void)y;
    return iabs(k - l) < x;
}

static int k_notbox(int64_t x, int64_t y, int64_t k, int64_t l)
{
    (void)x;
    return iabs(k - l) <= 1 && k <= y;
}

static int o_diff1(int64_t x, int64_t y, int64_t *ox, int64_t *oy) { return pairs(x, y, k_diff1, ox, oy); }
static int o_slope2(int64_t x, int64_t y, int64_t *ox, int64_t *oy) { return pairs(x, y, k_slope2, ox, oy); }
static int o_half(int64_t x, int64_t y, int64_t *ox, int64_t *oy) { return pairs(x, y, k_half, ox, oy); }
static int o_slopes(int64_t x, int64_t y, int64_t *ox, int64_t *oy) { return pairs(x, y, k_slopes, ox, oy); }
static int o_pile(int64_t x, int64_t y, int64_t *ox, int64_t *oy) { return pairs(x, y, k_pile, ox, oy); }
static int o_notbox(int64_t x, int64_t y, int64_t *ox, int64_t *oy) { return pairs(x, y, k_notbox, ox, oy); }

typedef struct tgame {
    const char *name;
    const char *text;       /* one move statement on piles x y */
    ns_fam_kind kind;       /* expected class */
    int nrays;              /* RAY: expected number */
    const char *how;        /* expected in the family's why ("" for any) */
    opts_fn opts;
} tgame;

static const tgame games[] = {
    {"range bound", "piles x y\nmove (x, y) -> (x - k, y - l)    for k in 1..x, l in max(1, k - 1)..min(y, k + 1)\n",
     NS_FAM_RAY, 3, "l = k + d for each d in -1..1", o_diff1},
    {"slope 2", "piles x y\nmove (x, y) -> (x - k, y - l)    for k in 1..x, l in 1..y    where 2*k - 1 <= l <= 2*k + 1\n",
     NS_FAM_RAY, 3, "l = 2*k + d for each d in -1..1", o_slope2},
    {"first variable", "piles x y\nmove (x, y) -> (x - k, y - l)    for k in 1..x, l in 1..y    where 0 <= k - 2*l <= 1\n",
     NS_FAM_RAY, 2, "k = 2*l + d for each d in 0..1", o_half},
    {"enumerated in front",
     "piles x y\nmove (x, y) -> (x - k, y - l)    for c in 0..1, k in 1..x, l in 1..y    where abs(k - l) <= c\n",
     NS_FAM_RAY, 3, "l = k + d for each d in -1..1", o_diff1},
    {"slope from an enumerated variable",
     "piles x y\nmove (x, y) -> (x - k, y - l)    for c in 1..2, k in 1..x, l in 1..y    where l == c*k\n", NS_FAM_RAY, 2,
     "per value of the enumerated variables", o_slopes},
    {"bound reads a pile", "piles x y\nmove (x, y) -> (x - k, y - l)    for k in 1..x, l in 1..y    where abs(k - l) < x\n",
     NS_FAM_GENERAL, 0, "no condition or range bounds l - m*k", o_pile},
    {"not a box limit", "piles x y\nmove (x, y) -> (x - k, y - l)    for k in 1..x, l in 1..y    where abs(k - l) <= 1 and k <= y\n",
     NS_FAM_GENERAL, 0, "with l = k - 1: ", o_notbox},
};

static uint32_t *naive_solve(const tgame *tg, int64_t N0, int64_t N1, int misere)
{
    uint32_t *val = malloc((size_t)(N0 * N1) * sizeof *val);
    size_t room = (size_t)(N0 * N1 + N0 + N1);
    int64_t *ox = malloc(room * sizeof *ox), *oy = malloc(room * sizeof *oy);
    uint8_t *seen = malloc(room + 2);
    int ok = val && ox && oy && seen;
    /* every option lowers both piles: fill in increasing x, then y */
    for (int64_t x = 0; ok && x < N0; x++)
        for (int64_t y = 0; ok && y < N1; y++) {
            int c = tg->opts(x, y, ox, oy);
            memset(seen, 0, room + 2);
            for (int j = 0; j < c; j++) {
                if (ox[j] < 0 || oy[j] < 0 || ox[j] > x || oy[j] > y || (ox[j] == x && oy[j] == y)) {
                    fprintf(stderr, "%s: bad option in the naive solver\n", tg->name);
                    ok = 0;
                    break;
                }
                uint32_t v = val[ox[j] * N1 + oy[j]];
                if (v <= room)
                    seen[v] = 1;
            }
            uint32_t m = 0;
            while (seen[m])
                m++;
            val[x * N1 + y] = misere && c == 0 ? 1 : m;
        }
    free(ox);
    free(oy);
    free(seen);
    if (!ok) {
        free(val);
        return NULL;
    }
    return val;
}

static void check_variant(const tgame *tg, int64_t N0, int64_t N1)
{
    ns_error err = {0};
    ns_rules_info *info = NULL;
    ns_game *g = compile(tg->name, tg->text, NULL, "", &info, &err);
    CHECKF(g != NULL, "%s: %s", tg->name, err.msg);
    if (!g) {
        ns_rules_info_free(info);
        return;
    }
    int want = tg->kind == NS_FAM_RAY ? tg->nrays : 1;
    CHECKF(info && info->nfam == 1 && info->fam[0].kind == tg->kind && info->fam[0].count == want &&
               strstr(info->fam[0].why, tg->how),
           "%s: kind %d with %d families ('%s'), expected kind %d with %d ('%s')", tg->name,
           info && info->nfam ? (int)info->fam[0].kind : -1, info && info->nfam ? info->fam[0].count : -1,
           info && info->nfam ? info->fam[0].why : "", (int)tg->kind, want, tg->how);
    const int64_t b[2] = {N0, N1};
    for (int misere = 0; misere <= 1; misere++) {
        uint32_t *ref = naive_solve(tg, N0, N1, misere);
        CHECKF(ref != NULL, "%s: naive solver", tg->name);
        for (int pn = 0; ref && pn <= 1; pn++) {
            char what[200];
            snprintf(what, sizeof what, "%s %" PRId64 "x%" PRId64 " %s %s", tg->name, N0, N1, misere ? "misere" : "normal",
                     pn ? "P/N" : "Grundy");
            ns_table *t = ns_tsolve_built(g, b, misere, pn, 2, &err);
            CHECKF(t != NULL, "%s: %s", what, err.msg);
            if (t)
                CHECKF(ns_ref_compare(what, t, ref) == 0, "%s: differs from the naive solver", what);
            ns_table_free(t);
        }
        free(ref);
    }
    ns_rules_info_free(info);
    ns_game_free(g);
}

/* ---------- differential: rays by substitution vs the same family general ---------- */

static int64_t rnd(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(ns_test_rng() % (uint64_t)(hi - lo + 1));
}

/* Solve text at b; 0 and *out, or -1 (compile) / -2 (solve) failing.
 * *nsub: families compiled to rays by substitution. */
static int solve_text(const char *text, const int64_t *b, int misere, ns_table **out, int *nsub)
{
    ns_error err = {0};
    ns_rules_info *info = NULL;
    *out = NULL;
    *nsub = 0;
    ns_game *g = compile("diff.rules", text, NULL, "", &info, &err);
    if (!g) {
        ns_rules_info_free(info);
        return -1;
    }
    for (int i = 0; i < info->nfam; i++)
        *nsub += info->fam[i].kind == NS_FAM_RAY && info->fam[i].why[0];
    ns_rules_info_free(info);
    *out = ns_tsolve_built(g, b, misere, 0, 1, &err);
    ns_game_free(g);
    return *out ? 0 : -2;
}

static void test_differential(void)
{
    static const char *const extra[] = {"", "", "", " and k <= y", " and x mod 2 == 0", " and l != 2"};
    int cases = 0, agree = 0, subst = 0, solved = 0;
    for (int c = 0; c < 300; c++) {
        int64_t m = rnd(1, 3), lo = rnd(-3, 2), hi = lo + rnd(0, 3);
        int flip = (int)rnd(0, 1);
        char fam[400], text[600], forced[700];
        snprintf(fam, sizeof fam,
                 "move (x, y) -> (x - k, y - l) for k in %" PRId64 "..%s, l in %" PRId64 "..y where %" PRId64
                 " <= %s - %" PRId64 "*%s <= %" PRId64 "%s",
                 (int64_t)(rnd(0, 3) ? 1 : 0), rnd(0, 1) ? "x" : "min(x, y)", (int64_t)(rnd(0, 3) ? 1 : 0), lo, flip ? "k" : "l", m,
                 flip ? "l" : "k", hi, extra[rnd(0, 5)]);
        snprintf(text, sizeof text, "piles x y\nmove x -> x - t for t in 1..x\n%s\n", fam);
        snprintf(forced, sizeof forced, "piles x y\nmove x -> x - t for t in 1..x\n%s and x mod 1 == 0\n", fam);
        const int64_t b[2] = {14, 12};
        int misere = (int)rnd(0, 1), n1, n2;
        ns_table *t1, *t2;
        int r1 = solve_text(text, b, misere, &t1, &n1);
        int r2 = solve_text(forced, b, misere, &t2, &n2);
        cases++;
        subst += n1 > 0 && n2 == 0;
        int same = (r1 != 0 && r2 != 0) || (r1 == 0 && r2 == 0 && ns_table_equal(t1, t2));
        agree += same;
        solved += r1 == 0 && r2 == 0;
        if (!same)
            fprintf(stderr, "differential: %s: %d vs %d\n", fam, r1, r2);
        ns_table_free(t1);
        ns_table_free(t2);
    }
    CHECKF(agree == cases, "%d of %d families disagree", cases - agree, cases);
    CHECKF(subst > 40, "only %d of %d families became rays by substitution", subst, cases);
    CHECKF(solved > 60, "only %d of %d families solved", solved, cases);
    printf("differential: %d families, %d rays by substitution, %d solved\n", cases, subst, solved);
}

int main(void)
{
    const char *s = getenv("NS_SOURCE_DIR");
    snprintf(srcdir, sizeof srcdir, "%s", s ? s : ".");
    for (int64_t a = 1; a <= 4; a++) {
        check_awythoff(a, 40, 40);
        check_awythoff(a, 23, 51);
    }
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        check_variant(&games[i], 30, 30);
        check_variant(&games[i], 17, 41);
    }
    test_differential();
    return TEST_REPORT();
}
