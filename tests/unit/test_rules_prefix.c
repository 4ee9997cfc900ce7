/* test_rules_prefix.c - rule-file move families compiled to prefix
 * families (NS_FAM_PREFIX, ns_rules_prefix_of).
 *
 * data/rules/fibonacci-nim.rules must become one prefix family along the
 * limit and give, at 1, 2 and 3 threads, Grundy and P/N, normal and misere
 * play, the preset's table bit for bit and the values of a naive solver
 * written here from the rules (memoised mex, no engine); ns_naive_cell
 * (the explicit enumeration, prefix chains walked) agrees on every cell.
 *
 * Variants that must also be prefix families (a domain that only shrinks
 * along the limit, a rank weight on the limit, a range starting below 0,
 * a second variable, 'where' conditions on the pile and on t) and lookalikes
 * that must stay general (the new state reads the limit, the upper end is
 * 2*limit, the lower end or a condition reads the limit, the limit is left
 * alone, a domain that is not linear) all give the naive solver's values.
 * A move that leaves the box and a division by zero fail the solve with the
 * same message in the prefix form and in its general twin. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_presets.h"
#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "engine/ns_engine.h"
#include "testutil.h"

#define INVALID UINT32_MAX

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* ---------- the games, from their rules ---------- */

/* Append the options of (n, L) to on/oL (room for at least 2n + 8);
 * returns their number. */
typedef int (*opts_fn)(int64_t n, int64_t L, int64_t *on, int64_t *oL);
typedef int (*valid_fn)(int64_t n, int64_t L);

static int fib_move(int64_t n, int64_t t, int64_t *on, int64_t *oL, int c)
{
    on[c] = n - t;
    oL[c] = min64(2 * t, n - t);
    return c + 1;
}

static int o_fib(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    for (int64_t t = 1; t <= min64(n, L); t++)
        c = fib_move(n, t, on, oL, c);
    return c;
}

static int o_neg(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    for (int64_t t = -2; t <= min64(n - 3, L); t++, c++) {
        on[c] = n - t - 3;
        oL[c] = 0;
    }
    return c;
}

static int o_two(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    for (int64_t u = 0; u <= 1; u++)
        for (int64_t t = 1; t <= min64(n - u, L); t++, c++) {
            on[c] = n - t - u;
            oL[c] = min64(2 * t, n - t - u);
        }
    return c;
}

static int o_guard(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    if (n % 5 == 2)
        return 0;
    for (int64_t t = 1; t <= min64(n, L); t++)
        if (t != 3)
            c = fib_move(n, t, on, oL, c);
    return c;
}

static int o_readlimit(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    for (int64_t t = 1; t <= min64(n, L); t++, c++) {
        on[c] = n - t;
        oL[c] = min64(2 * t, L);
    }
    return c;
}

static int o_twolimit(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    for (int64_t t = 1; t <= min64(n, 2 * L); t++)
        c = fib_move(n, t, on, oL, c);
    return c;
}

static int o_lolimit(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    for (int64_t t = max64(1, L - 3); t <= min64(n, L); t++)
        c = fib_move(n, t, on, oL, c);
    return c;
}

static int o_guardlimit(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    return L == 4 ? 0 : o_fib(n, L, on, oL);
}

static int o_keeplimit(int64_t n, int64_t L, int64_t *on, int64_t *oL)
{
    int c = 0;
    for (int64_t t = 1; t <= min64(n, L); t++, c++) {
        on[c] = n - t;
        oL[c] = L;
    }
    return c;
}

static int v_below(int64_t n, int64_t L)
{
    return L <= n;
}

static int v_or(int64_t n, int64_t L)
{
    return L >= 1 || n == 0;
}

typedef struct tgame {
    const char *name;
    const char *text;       /* rule text; NULL: data/rules/fibonacci-nim.rules */
    ns_fam_kind kind;       /* expected class of its one family */
    int axis, w0, w1;       /* prefix axis; rank weights */
    opts_fn opts;
    valid_fn valid;         /* NULL: the whole box */
} tgame;

#define FIBMOVE "move (pile, limit) -> (pile - t, min(2*t, pile - t))    for t in 1..min(pile, limit)"
#define HEAD "piles pile limit\nrank pile\n"

static const tgame games[] = {
    {"fibonacci-nim.rules", NULL, NS_FAM_PREFIX, 1, 1, 0, o_fib, NULL},
    /* prefix families */
    {"domain limit <= pile", HEAD "domain limit <= pile\n" FIBMOVE "\n", NS_FAM_PREFIX, 1, 1, 0, o_fib, v_below},
    {"rank 2*pile + limit", "piles pile limit\nrank 2*pile + limit\n" FIBMOVE "\n", NS_FAM_PREFIX, 1, 2, 1, o_fib, NULL},
    {"t from -2", HEAD "move (pile, limit) -> (pile - t - 3, 0)    for t in -2..min(pile - 3, limit)\n", NS_FAM_PREFIX, 1,
     1, 0, o_neg, NULL},
    {"two variables",
     HEAD "move (pile, limit) -> (pile - t - u, min(2*t, pile - t - u))    for u in 0..1, t in 1..min(pile - u, limit)\n",
     NS_FAM_PREFIX, 1, 1, 0, o_two, NULL},
    {"where on pile and t", HEAD FIBMOVE "    where pile mod 5 != 2 and t != 3\n", NS_FAM_PREFIX, 1, 1, 0, o_guard, NULL},
    /* lookalikes that stay general */
    {"new limit reads limit", HEAD "move (pile, limit) -> (pile - t, min(2*t, limit))    for t in 1..min(pile, limit)\n",
     NS_FAM_GENERAL, -1, 1, 0, o_readlimit, NULL},
    {"upper end 2*limit", HEAD "move (pile, limit) -> (pile - t, min(2*t, pile - t))    for t in 1..min(pile, 2*limit)\n",
     NS_FAM_GENERAL, -1, 1, 0, o_twolimit, NULL},
    {"lower end reads limit",
     HEAD "move (pile, limit) -> (pile - t, min(2*t, pile - t))    for t in max(1, limit - 3)..min(pile, limit)\n",
     NS_FAM_GENERAL, -1, 1, 0, o_lolimit, NULL},
    {"where reads limit", HEAD FIBMOVE "    where limit != 4\n", NS_FAM_GENERAL, -1, 1, 0, o_guardlimit, NULL},
    {"limit left alone", HEAD "move pile -> pile - t    for t in 1..min(pile, limit)\n", NS_FAM_GENERAL, -1, 1, 0,
     o_keeplimit, NULL},
    {"domain not linear", HEAD "domain limit >= 1 or pile == 0\n" FIBMOVE "\n", NS_FAM_GENERAL, -1, 1, 0, o_fib, v_or},
};

/* ---------- the naive solver ---------- */

typedef struct naive {
    const tgame *tg;
    int64_t N0, N1;
    int misere;
    uint32_t *val;          /* N0 * N1, INVALID outside the domain */
    uint8_t *done;
    int bad;                /* an option outside the box or the domain */
} naive;

static uint32_t naive_value(naive *nv, int64_t n, int64_t L)
{
    uint64_t i = (uint64_t)n * (uint64_t)nv->N1 + (uint64_t)L;
    if (nv->done[i])
        return nv->val[i];
    int64_t *on = malloc((size_t)(2 * n + 8) * sizeof *on), *oL = malloc((size_t)(2 * n + 8) * sizeof *oL);
    uint8_t *seen = calloc((size_t)(2 * n + 10), 1);
    if (!on || !oL || !seen) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    int c = nv->tg->opts(n, L, on, oL);
    for (int j = 0; j < c; j++) {
        if (on[j] < 0 || on[j] >= nv->N0 || oL[j] < 0 || oL[j] >= nv->N1 ||
            (nv->tg->valid && !nv->tg->valid(on[j], oL[j]))) {
            nv->bad = 1;
            continue;
        }
        uint32_t v = naive_value(nv, on[j], oL[j]);
        if (v <= (uint32_t)(2 * n + 8))
            seen[v] = 1;
    }
    uint32_t m = 0;
    while (seen[m])
        m++;
    if (nv->misere && c == 0)
        m = 1;
    free(on);
    free(oL);
    free(seen);
    nv->done[i] = 1;
    nv->val[i] = m;
    return m;
}

/* Values of the whole box; NULL when an option leaves it (a bug here). */
static uint32_t *naive_solve(const tgame *tg, int64_t N0, int64_t N1, int misere)
{
    naive nv = {tg, N0, N1, misere, calloc((size_t)(N0 * N1), sizeof(uint32_t)), calloc((size_t)(N0 * N1), 1), 0};
    if (!nv.val || !nv.done) {
        free(nv.val);
        free(nv.done);
        return NULL;
    }
    for (int64_t n = 0; n < N0; n++)
        for (int64_t L = 0; L < N1; L++) {
            if (tg->valid && !tg->valid(n, L)) {
                nv.val[n * N1 + L] = INVALID;
                nv.done[n * N1 + L] = 1;
            } else {
                naive_value(&nv, n, L);
            }
        }
    free(nv.done);
    if (nv.bad) {
        fprintf(stderr, "%s: the naive solver found an option outside the box or the domain\n", tg->name);
        free(nv.val);
        return NULL;
    }
    return nv.val;
}

/* Mismatching cells of t against ref (P/N: 0 iff P), the first few printed. */
static uint64_t compare(const char *what, const ns_table *t, const uint32_t *ref)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t v = ns_table_get(t, i), want = ref[i];
        int ok = want == INVALID ? v == ns_table_invalid(t) : t->pn_only ? v == (want != 0) : v == want;
        if (!ok && bad++ < 5) {
            int64_t s[NS_MAX_DIM];
            ns_table_coords(t, i, s);
            fprintf(stderr, "%s: (%" PRId64 ", %" PRId64 ") holds %" PRIu32 ", expected %" PRIu32 "\n", what, s[0], s[1], v,
                    want);
        }
    }
    return bad;
}

/* ns_naive_cell on every position of t */
static uint64_t naive_cell_mismatches(const ns_game *g, const ns_table *t)
{
    uint64_t bad = 0;
    int64_t s[NS_MAX_DIM];
    for (uint64_t i = 0; i < t->ncells; i++) {
        ns_table_coords(t, i, s);
        if (!ns_game_is_position(g, s))
            continue;
        uint32_t v;
        ns_error err = {0};
        if (ns_naive_cell(g, t, s, &v, &err) || v != ns_table_get(t, i))
            bad++;
    }
    return bad;
}

/* ---------- the engine ---------- */

static char srcdir[4096];

static ns_game *compile(const tgame *tg, ns_rules_info **info)
{
    ns_params ps = {0};
    ns_error err = {0};
    ns_game *g = NULL;
    char *text = NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/data/rules/fibonacci-nim.rules", srcdir);
    if (!tg->text && ns_rules_read_file(path, &text, &err)) {
        fprintf(stderr, "%s: %s\n", tg->name, err.msg);
        return NULL;
    }
    if (ns_rules_compile_info(tg->text ? tg->text : text, tg->name, &ps, 0, &g, info, &err))
        fprintf(stderr, "%s: %s\n", tg->name, err.msg);
    free(text);
    return g;
}

/* Solve g in the box with play, kind and threads; NULL (message in err). */
static ns_table *solve(ns_game *g, int64_t N0, int64_t N1, int misere, int pn, int threads, ns_error *err)
{
    const int64_t b[2] = {N0, N1};
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    if (ns_game_set_bounds(g, b, err))
        return NULL;
    ns_table *t = ns_engine_table_new(g, pn, err);
    if (!t)
        return NULL;
    ns_engine_opts opts = {.threads = threads, .pn_only = pn};
    if (ns_engine_run(g, t, &opts, err)) {
        ns_table_free(t);
        return NULL;
    }
    return t;
}

/* ---------- the tests ---------- */

static void check_class(const tgame *tg)
{
    ns_rules_info *info = NULL;
    ns_game *g = compile(tg, &info);
    CHECKF(g && info, "%s does not compile", tg->name);
    if (g && info) {
        CHECKF(g->nfam == 1 && g->fam[0].kind == tg->kind, "%s: one family of kind %d, found %d of kind %d", tg->name,
               (int)tg->kind, g->nfam, g->nfam ? (int)g->fam[0].kind : -1);
        if (tg->kind == NS_FAM_PREFIX && g->nfam == 1)
            CHECKF(g->fam[0].axis == tg->axis, "%s: prefix along axis %d, expected %d", tg->name, g->fam[0].axis, tg->axis);
        CHECKF(info->nfam == 1 && info->fam[0].kind == tg->kind && info->fam[0].count == 1, "%s: `rules` shows kind %d",
               tg->name, info->nfam ? (int)info->fam[0].kind : -1);
        CHECKF(g->rank_w[0] == tg->w0 && g->rank_w[1] == tg->w1, "%s: rank weights", tg->name);
    }
    ns_rules_info_free(info);
    ns_game_free(g);
}

/* Every kind, play and thread count against the naive solver (and, for
 * the Fibonacci Nim file, against the preset). The box needs N1 >= N0 - 1
 * or so: a new limit min(2t, n - t) may reach n - 1. */
static void check_values(const tgame *tg, int64_t N0, int64_t N1, int all_threads)
{
    const int is_fib = tg->text == NULL;
    for (int misere = 0; misere <= 1; misere++) {
        uint32_t *ref = naive_solve(tg, N0, N1, misere);
        CHECKF(ref != NULL, "%s: naive solver", tg->name);
        if (!ref)
            continue;
        for (int pn = 0; pn <= 1; pn++) {
            char what[160];
            snprintf(what, sizeof what, "%s %" PRId64 "x%" PRId64 " %s %s", tg->name, N0, N1, misere ? "misere" : "normal",
                     pn ? "P/N" : "Grundy");
            ns_table *pt = NULL;
            ns_game *pg = NULL;
            if (is_fib) {
                ns_params ps = {0};
                ns_error err = {0};
                pg = ns_preset_build("fibonacci-nim", &ps, 2, &err);
                pt = pg ? solve(pg, N0, N1, misere, pn, 1, &err) : NULL;
                CHECKF(pt != NULL, "%s: preset: %s", what, err.msg);
                if (pt)
                    CHECKF(compare(what, pt, ref) == 0, "%s: the preset differs from the naive solver", what);
            }
            ns_game *g = compile(tg, NULL);
            CHECKF(g != NULL, "%s: compile", what);
            for (int th = 1; g && th <= 3; th++) {
                if (!all_threads && th != 2)
                    continue;
                ns_error err = {0};
                ns_table *t = solve(g, N0, N1, misere, pn, th, &err);
                CHECKF(t != NULL, "%s, %d threads: %s", what, th, err.msg);
                if (!t)
                    continue;
                CHECKF(compare(what, t, ref) == 0, "%s, %d threads: differs from the naive solver", what, th);
                if (pt)
                    CHECKF(ns_table_equal(t, pt), "%s, %d threads: differs from the preset", what, th);
                if (th == 2 && N0 * N1 <= 60 * 60)
                    CHECKF(naive_cell_mismatches(g, t) == 0, "%s: ns_naive_cell disagrees", what);
                ns_table_free(t);
            }
            ns_game_free(g);
            ns_table_free(pt);
            ns_game_free(pg);
        }
        free(ref);
    }
}

/* A defect found while solving: the prefix form and its general twin
 * (an extra condition on the limit that is always true) fail alike. */
static void check_error(const char *name, const char *prefix_text, const char *general_text, const char *want)
{
    const char *texts[2] = {prefix_text, general_text};
    for (int i = 0; i < 2; i++) {
        ns_params ps = {0};
        ns_error err = {0};
        ns_game *g = NULL;
        CHECKF(ns_rules_compile(texts[i], name, &ps, 0, &g, &err) == NS_OK, "%s: %s", name, err.msg);
        if (!g)
            continue;
        CHECKF(g->nfam == 1 && g->fam[0].kind == (i ? NS_FAM_GENERAL : NS_FAM_PREFIX), "%s: %s form", name,
               i ? "general" : "prefix");
        for (int th = 1; th <= 2; th++) {
            ns_error e = {0};
            ns_table *t = solve(g, 20, 20, 0, 0, th, &e);
            CHECKF(t == NULL && e.code != NS_OK, "%s (%s form, %d threads): the solve should fail", name,
                   i ? "general" : "prefix", th);
            CHECKF(strstr(e.msg, want) != NULL, "%s (%s form, %d threads): expected '%s' in '%s'", name,
                   i ? "general" : "prefix", th, want, e.msg);
            ns_table_free(t);
        }
        ns_game_free(g);
    }
}

int main(void)
{
    const char *s = getenv("NS_SOURCE_DIR");
    snprintf(srcdir, sizeof srcdir, "%s", s ? s : ".");
    const int ng = (int)(sizeof games / sizeof games[0]);
    for (int i = 0; i < ng; i++)
        check_class(&games[i]);
    /* the file against the preset and the naive solver */
    check_values(&games[0], 60, 60, 1);
    check_values(&games[0], 200, 200, 1);
    check_values(&games[0], 37, 90, 1);
    check_values(&games[0], 64, 128, 1);
    check_values(&games[0], 1, 5, 1);
    check_values(&games[0], 5, 1, 1);
    /* the variants */
    for (int i = 1; i < ng; i++) {
        check_values(&games[i], 60, 60, 1);
        check_values(&games[i], 41, 75, 0);
    }
    check_error("leaves the box", HEAD "move (pile, limit) -> (pile - t, 2*t)    for t in 1..min(pile, limit)\n",
                HEAD "move (pile, limit) -> (pile - t, 2*t)    for t in 1..min(pile, limit)    where limit >= 0\n",
                "outside the box [0,20) x [0,20)");
    check_error("division by zero", HEAD FIBMOVE "    where 12 / (pile - 3) != 5\n",
                HEAD FIBMOVE "    where 12 / (pile - 3) != 5 and limit >= 0\n", "division by zero at position (3, ");
    return TEST_REPORT();
}
