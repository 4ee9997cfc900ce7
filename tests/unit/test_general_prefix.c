/* test_general_prefix.c - prefix families (NS_FAM_PREFIX) in the general
 * engine.
 *
 * Fibonacci Nim: the preset (a prefix family along the limit) must give the
 * same table, bit for bit, as the same moves written as a general family
 * (every option enumerated per cell, as the preset did before) and agree
 * with the independent memoised solver of tests/common/naive.c.
 *
 * Games written here, each also as explicit options with a naive mex in
 * rank order (below, no engine involved):
 *   pw: w = (1,1); take from pile 2, or a prefix along axis 0 adding
 *       (x-1, y/2) at (x, y): options (j, y/2) for j < x (rank-positive axis);
 *   p3: w = (1,0,1); a prefix along axis 1, the rank-0 axis in the middle,
 *       adding (a-b, min(2b, N1-1), c) at 1 <= b <= a, and take from pile 3;
 *   p2: w = (1,0,0); prefixes along axes 1 and 2, both of rank 0 (the second
 *       one is enumerated option by option).
 * Every table: Grundy and P/N, normal and misere, 1, 2 and 3 threads, equal
 * to the reference; ns_naive_cell (the explicit enumeration of
 * ns_game_foreach_option) agrees on every cell. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "testutil.h"

/* ---------- the games ---------- */

enum { G_FIB_GENERAL, G_PW, G_P3, G_P2 };

typedef struct tgame {
    int kind;
    int64_t b[NS_MAX_DIM];
} tgame;

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* Fibonacci Nim as a general family: all options of (n, L) per cell. */
static int fib_all(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)err;
    for (int64_t t = 1; t <= min64(s[0], s[1]); t++) {
        const int64_t o[2] = {s[0] - t, min64(2 * t, s[0] - t)};
        int rc = emit(user, o);
        if (rc)
            return rc;
    }
    return 0;
}

static int pw_add(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)err;
    if (s[0] < 1)
        return 0;
    const int64_t o[2] = {s[0] - 1, s[1] / 2};
    return emit(user, o);
}

static int p3_add(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)err;
    const tgame *tg = ctx;
    const int64_t b = s[1];
    if (b < 1 || b > s[0])
        return 0;
    const int64_t o[3] = {s[0] - b, min64(2 * b, tg->b[1] - 1), s[2]};
    return emit(user, o);
}

static int p2_add1(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)err;
    const int64_t t = s[1];
    if (t < 1 || t > s[0])
        return 0;
    const int64_t o[3] = {s[0] - t, min64(t, s[0] - t), s[2]};
    return emit(user, o);
}

static int p2_add2(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)err;
    const int64_t t = s[2];
    if (t < 1 || t > s[0])
        return 0;
    const int64_t o[3] = {s[0] - t, s[1], min64(t, s[0] - t)};
    return emit(user, o);
}

static uint64_t any_maxopt(const void *ctx, int k, const int64_t *b)
{
    (void)ctx;
    uint64_t m = 0;
    for (int i = 0; i < k; i++)
        m += (uint64_t)b[i];
    return m;
}

static ns_game *build(tgame *tg, int misere)
{
    ns_error err = {0};
    int k = tg->kind == G_FIB_GENERAL || tg->kind == G_PW ? 2 : 3;
    ns_game *g = ns_game_new("test", k);
    if (!g)
        return NULL;
    const int64_t d2[2] = {0, -1}, d3[3] = {0, 0, -1};
    ns_err rc = NS_OK;
    switch (tg->kind) {
    case G_FIB_GENERAL:
        g->rank_w[1] = 0;
        rc = ns_game_add_general(g, "fib", fib_all, any_maxopt, NULL, &err);
        break;
    case G_PW:
        rc = ns_game_add_ray(g, "take from pile 2", d2, NULL, &err);
        if (!rc)
            rc = ns_game_add_prefix(g, "pw", 0, pw_add, any_maxopt, NULL, &err);
        break;
    case G_P3:
        g->rank_w[1] = 0;
        rc = ns_game_add_prefix(g, "p3", 1, p3_add, any_maxopt, tg, &err);
        if (!rc)
            rc = ns_game_add_ray(g, "take from pile 3", d3, NULL, &err);
        break;
    default:
        g->rank_w[1] = 0;
        g->rank_w[2] = 0;
        rc = ns_game_add_prefix(g, "p2 axis 1", 1, p2_add1, any_maxopt, NULL, &err);
        if (!rc)
            rc = ns_game_add_prefix(g, "p2 axis 2", 2, p2_add2, any_maxopt, NULL, &err);
        break;
    }
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    if (!rc)
        rc = ns_game_set_bounds(g, tg->b, &err);
    if (rc) {
        fprintf(stderr, "build: %s\n", err.msg);
        ns_game_free(g);
        return NULL;
    }
    return g;
}

/* ---------- explicit options and a naive mex in rank order ---------- */

typedef struct olist {
    int64_t v[4096][3];
    int n;
} olist;

static void add(olist *l, int64_t a, int64_t b, int64_t c)
{
    l->v[l->n][0] = a;
    l->v[l->n][1] = b;
    l->v[l->n][2] = c;
    l->n++;
}

static void options_of(const tgame *tg, const int64_t *s, olist *l)
{
    l->n = 0;
    switch (tg->kind) {
    case G_FIB_GENERAL:
        for (int64_t t = 1; t <= min64(s[0], s[1]); t++)
            add(l, s[0] - t, min64(2 * t, s[0] - t), 0);
        break;
    case G_PW:
        for (int64_t t = 1; t <= s[1]; t++)
            add(l, s[0], s[1] - t, 0);
        for (int64_t j = 0; j < s[0]; j++)
            add(l, j, s[1] / 2, 0);
        break;
    case G_P3:
        for (int64_t t = 1; t <= min64(s[0], s[1]); t++)
            add(l, s[0] - t, min64(2 * t, tg->b[1] - 1), s[2]);
        for (int64_t t = 1; t <= s[2]; t++)
            add(l, s[0], s[1], s[2] - t);
        break;
    default:
        for (int64_t t = 1; t <= min64(s[0], s[1]); t++)
            add(l, s[0] - t, min64(t, s[0] - t), s[2]);
        for (int64_t t = 1; t <= min64(s[0], s[2]); t++)
            add(l, s[0] - t, s[1], min64(t, s[0] - t));
        break;
    }
}

/* Values row-major; the rank of the games here is the coordinate sum
 * weighted as in build(). */
static uint32_t *naive_solve(const tgame *tg, int k, int misere)
{
    const int64_t *b = tg->b;
    uint64_t n = 1;
    for (int i = 0; i < k; i++)
        n *= (uint64_t)b[i];
    int64_t w[3] = {1, 1, 1};
    if (tg->kind != G_PW)
        w[1] = 0;
    if (tg->kind == G_P2 || tg->kind == G_FIB_GENERAL)
        w[2] = 0;
    uint32_t *val = calloc((size_t)n, sizeof *val);
    olist *l = malloc(sizeof *l);
    uint8_t *seen = calloc(8192, 1);
    if (!val || !l || !seen) {
        free(val);
        free(l);
        free(seen);
        return NULL;
    }
    int64_t maxr = 0;
    for (int i = 0; i < k; i++)
        maxr += w[i] * (b[i] - 1);
    for (int64_t r = 0; r <= maxr; r++)
        for (uint64_t i = 0; i < n; i++) {
            int64_t s[3] = {0, 0, 0};
            uint64_t x = i;
            for (int d = k - 1; d >= 0; d--) {
                s[d] = (int64_t)(x % (uint64_t)b[d]);
                x /= (uint64_t)b[d];
            }
            if (w[0] * s[0] + w[1] * s[1] + w[2] * s[2] != r)
                continue;
            options_of(tg, s, l);
            memset(seen, 0, 8192);
            for (int j = 0; j < l->n; j++) {
                uint64_t idx = 0;
                for (int d = 0; d < k; d++)
                    idx = idx * (uint64_t)b[d] + (uint64_t)l->v[j][d];
                seen[val[idx]] = 1;
            }
            uint32_t m = 0;
            while (seen[m])
                m++;
            val[i] = misere && l->n == 0 ? 1 : m;
        }
    free(l);
    free(seen);
    return val;
}

/* ---------- checks ---------- */

static ns_table *solve(const ns_game *g, int pn, int threads)
{
    ns_error err = {0};
    ns_table *t = ns_engine_table_new(g, pn, &err);
    ns_engine_opts o = {.threads = threads, .pn_only = pn};
    if (!t || ns_engine_run(g, t, &o, &err)) {
        fprintf(stderr, "solve: %s\n", err.msg);
        ns_table_free(t);
        return NULL;
    }
    return t;
}

static int same(const ns_table *a, const ns_table *b)
{
    return a && b && a->elem == b->elem && a->ncells == b->ncells &&
           memcmp(a->data, b->data, (size_t)a->ncells * (size_t)a->elem) == 0;
}

/* ns_naive_cell (explicit enumeration, prefix chains walked) on every cell */
static uint64_t naive_cell_mismatches(const ns_game *g, const ns_table *t)
{
    uint64_t bad = 0;
    int64_t s[NS_MAX_DIM];
    for (uint64_t i = 0; i < t->ncells; i++) {
        ns_table_coords(t, i, s);
        uint32_t v;
        ns_error err = {0};
        if (ns_naive_cell(g, t, s, &v, &err) || v != ns_table_get(t, i))
            bad++;
    }
    return bad;
}

static void check_fib(int64_t n0, int64_t n1)
{
    for (int misere = 0; misere <= 1; misere++)
        for (int pn = 0; pn <= 1; pn++) {
            char what[96];
            snprintf(what, sizeof what, "fibonacci-nim %" PRId64 "x%" PRId64 " %s %s", n0, n1,
                     misere ? "misere" : "normal", pn ? "P/N" : "Grundy");
            ns_error err = {0};
            ns_params ps = {0};
            ns_game *g = ns_preset_build("fibonacci-nim", &ps, 2, &err);
            const int64_t b[2] = {n0, n1};
            CHECKF(g && ns_game_set_bounds(g, b, &err) == NS_OK, "%s: %s", what, err.msg);
            if (!g)
                continue;
            g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
            CHECK(g->nfam == 1 && g->fam[0].kind == NS_FAM_PREFIX && g->fam[0].axis == 1);
            tgame tg = {G_FIB_GENERAL, {n0, n1}};
            ns_game *gg = build(&tg, misere);
            CHECK(gg != NULL);
            ns_table *old = gg ? solve(gg, pn, 1) : NULL;
            CHECKF(old != NULL, "%s: general-family solve", what);
            ns_ref_game rg = {.kind = NS_REF_FIBNIM, .k = 2};
            uint32_t *ref = ns_ref_solve(&rg, b, misere);
            CHECK(ref != NULL);
            for (int th = 1; th <= 3; th++) {
                ns_table *t = solve(g, pn, th);
                CHECKF(same(t, old), "%s, %d threads: prefix and general family differ", what, th);
                if (t && ref)
                    CHECKF(ns_ref_compare(what, t, ref) == 0, "%s, %d threads: differs from the naive solver", what,
                           th);
                if (t && th == 2)
                    CHECKF(naive_cell_mismatches(g, t) == 0, "%s: ns_naive_cell disagrees", what);
                ns_table_free(t);
            }
            free(ref);
            ns_table_free(old);
            ns_game_free(gg);
            ns_game_free(g);
        }
}

static void check_game(int kind, const int64_t *b, const char *name)
{
    const int k = kind == G_PW ? 2 : 3;
    for (int misere = 0; misere <= 1; misere++) {
        tgame tg = {kind, {0}};
        memcpy(tg.b, b, (size_t)k * sizeof *b);
        uint32_t *ref = naive_solve(&tg, k, misere);
        CHECK(ref != NULL);
        ns_game *g = build(&tg, misere);
        CHECKF(g != NULL, "%s: build", name);
        if (!g || !ref) {
            free(ref);
            ns_game_free(g);
            continue;
        }
        for (int pn = 0; pn <= 1; pn++) {
            char what[96];
            snprintf(what, sizeof what, "%s %s %s", name, misere ? "misere" : "normal", pn ? "P/N" : "Grundy");
            ns_table *t1 = NULL;
            for (int th = 1; th <= 3; th++) {
                ns_table *t = solve(g, pn, th);
                CHECKF(t != NULL, "%s, %d threads: solve", what, th);
                if (!t)
                    continue;
                CHECKF(ns_ref_compare(what, t, ref) == 0, "%s, %d threads: differs from the naive mex", what, th);
                if (th == 1) {
                    t1 = t;
                    CHECKF(naive_cell_mismatches(g, t) == 0, "%s: ns_naive_cell disagrees", what);
                } else {
                    CHECKF(same(t, t1), "%s: %d threads differ from 1", what, th);
                    ns_table_free(t);
                }
            }
            ns_table_free(t1);
        }
        free(ref);
        ns_game_free(g);
    }
}

int main(void)
{
    /* the family's own interface */
    {
        ns_error err = {0};
        ns_game *g = ns_game_new("x", 2);
        CHECK(g && ns_game_add_prefix(g, "bad axis", 2, pw_add, NULL, NULL, &err) == NS_EINTERNAL);
        CHECK(g && ns_game_add_prefix(g, "no callback", 0, NULL, NULL, NULL, &err) == NS_EINTERNAL);
        ns_game_free(g);
    }
    check_fib(90, 90);
    check_fib(64, 100);
    check_fib(1, 5);
    const int64_t bpw[2] = {40, 70}, bp3[3] = {25, 30, 12}, bp2[3] = {20, 22, 24};
    check_game(G_PW, bpw, "pw");
    check_game(G_P3, bp3, "p3");
    check_game(G_P2, bp2, "p2");
    return TEST_REPORT();
}
