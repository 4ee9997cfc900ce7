/* test_rules_lang.c - the rule-set language itself: arithmetic (floor
 * division and remainder against their defining identities, overflow),
 * constant evaluation of parameters, comprehensions, chained comparisons,
 * guards tested before later ranges, classification of small families,
 * run-time error messages with positions and bound values, the soundness
 * of the interval bounds on option counts, the bytecode against the tree
 * evaluator, and a plainly written a-Wythoff (general family) against the
 * preset. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "game/ns_rules_ir.h"
#include "engine/ns_engine.h"
#include "testutil.h"
#include "tsolve.h"

static ns_game *compile(const char *text, const char *params, int k_hint, ns_error *err)
{
    ns_params ps = {0};
    ns_game *g = NULL;
    ns_error_clear(err);
    if (ns_params_parse_list(&ps, params, err))
        return NULL;
    if (ns_rules_compile(text, "t.rules", &ps, k_hint, &g, err))
        return NULL;
    return g;
}

static int64_t param(const ns_game *g, const char *name, int i)
{
    const ns_param *p = g ? ns_params_get(&g->params, name) : NULL;
    return p && i < p->n ? p->v[i] : INT64_MIN;
}

/* ---- floor division and remainder: q*b + r == a, r in [0,b) or (b,0] ---- */
static void test_divmod(void)
{
    int bad = 0;
    for (int64_t a = -40; a <= 40; a++)
        for (int64_t b = -9; b <= 9; b++) {
            int64_t q, r;
            if (b == 0) {
                bad += ns_ir_div(a, b, &q) != NS_IR_DIVZERO || ns_ir_mod(a, b, &r) != NS_IR_DIVZERO;
                continue;
            }
            if (ns_ir_div(a, b, &q) || ns_ir_mod(a, b, &r)) {
                bad++;
                continue;
            }
            bad += q * b + r != a;
            bad += b > 0 ? (r < 0 || r >= b) : (r > 0 || r <= b);
        }
    CHECK(bad == 0);
    int64_t q;
    CHECK(ns_ir_div(INT64_MIN, -1, &q) == NS_IR_OVERFLOW);
    CHECK(ns_ir_mod(INT64_MIN, -1, &q) == NS_IR_OK && q == 0);
}

/* ---- constant evaluation through parameters ---- */
static void test_constants(void)
{
    ns_error err;
    const char *text = "param a = 7 / -2\n"                   /* floor(-3.5) = -4 */
                       "param b = -7 mod 3\n"                 /* -7 = 3*(-3) + 2 */
                       "param c = count(i mod 2 == 0 for i in 1..10)\n"
                       "param d = sum(i * i for i in 1..10)\n" /* 385 */
                       "param e = max(3, -2, 7) + abs(-5) * min(4, 2)\n" /* 7 + 10 */
                       "param s = 2..4\n"
                       "param u = {10, a, b}\n"
                       "param f = sum(v for v in u) + count(v in s for v in {1, 2, 3, 4, 5})\n" /* 8 + 3 */
                       "require not (1 > 2) and 1 < 2 <= 2 and (3 in s) and not (5 in s) and any(v == 2 for v in u)\n"
                       "require all(v > -10 for v in u) and (2 == 2) == (1 < 2) and 6 % 4 == 2\n"
                       "piles x\n"
                       "move x -> x - t    for t in 1..x\n";
    ns_game *g = compile(text, "", 0, &err);
    CHECKF(g != NULL, "%s", err.msg);
    CHECK(param(g, "a", 0) == -4);
    CHECK(param(g, "b", 0) == 2);
    CHECK(param(g, "c", 0) == 5);
    CHECK(param(g, "d", 0) == 385);
    CHECK(param(g, "e", 0) == 17);
    CHECK(param(g, "s", 0) == 2 && param(g, "s", 2) == 4 && param(g, "s", 3) == INT64_MIN);
    CHECK(param(g, "u", 1) == -4 && param(g, "u", 2) == 2);
    CHECK(param(g, "f", 0) == 11);
    ns_game_free(g);
    /* an override replaces the default; later defaults see it */
    g = compile("param a = 2\nparam b = 3 * a\npiles x\nmove x -> x - t for t in 1..min(x, b)\n", "a=5", 0, &err);
    CHECK(param(g, "a", 0) == 5 && param(g, "b", 0) == 15);
    CHECK(g && g->nfam == 1 && g->fam[0].kind == NS_FAM_FINITE && g->fam[0].noffsets == 15);
    ns_game_free(g);
}

static int collect(void *user, const int64_t *o)
{
    int64_t *v = user;
    if (v[0] < 16) {
        v[1 + 2 * v[0]] = o[0];
        v[2 + 2 * v[0]] = o[1];
    }
    v[0]++;
    return 0;
}

/* ---- guards are tested before later ranges; options in order ---- */
static void test_guards(void)
{
    ns_error err;
    const char *euclid = "piles x y\n"
                         "move y -> y - m*x    for m in 1..y/x    where 1 <= x <= y\n"
                         "move x -> x - m*y    for m in 1..x/y    where 1 <= y <= x\n";
    ns_game *g = compile(euclid, "", 0, &err);
    int64_t b[2] = {10, 10};
    CHECKF(g && ns_game_set_bounds(g, b, &err) == 0, "%s", err.msg);
    int64_t v[40] = {0};
    int64_t s0[2] = {0, 5};
    CHECK(g && ns_game_foreach_option(g, s0, collect, v, &err) == 0 && v[0] == 0);
    memset(v, 0, sizeof v);
    int64_t s1[2] = {2, 5};
    CHECK(g && ns_game_foreach_option(g, s1, collect, v, &err) == 0 && v[0] == 2 && v[1] == 2 && v[2] == 3 && v[3] == 2 &&
          v[4] == 1);
    memset(v, 0, sizeof v);
    int64_t s2[2] = {3, 3};
    CHECK(g && ns_game_foreach_option(g, s2, collect, v, &err) == 0 && v[0] == 2);
    ns_game_free(g);
}

static ns_fam_kind kind_of(const char *text, int *nfam, char *why, size_t len)
{
    ns_error err;
    ns_game *g = NULL;
    ns_rules_info *info = NULL;
    ns_params ps = {0};
    *nfam = -1;
    if (why)
        why[0] = '\0';
    if (ns_rules_compile_info(text, "t.rules", &ps, 0, &g, &info, &err)) {
        fprintf(stderr, "kind_of: %s\n", err.msg);
        return (ns_fam_kind)-1;
    }
    ns_fam_kind k = info->nfam ? info->fam[info->nfam - 1].kind : (ns_fam_kind)-1;
    if (why && info->nfam)
        snprintf(why, len, "%s", info->fam[info->nfam - 1].why);
    *nfam = g->nfam;
    ns_rules_info_free(info);
    ns_game_free(g);
    return k;
}

/* ---- which families are rays, finite sets, general ---- */
static void test_classify(void)
{
    int n;
    char why[200];
    CHECK(kind_of("piles x\nmove x -> x - t for t in 2..x\n", &n, NULL, 0) == NS_FAM_RAY && n == 1);
    CHECK(kind_of("piles x\nmove x -> x - 2*t for t in 1..x/2\n", &n, NULL, 0) == NS_FAM_RAY);
    CHECK(kind_of("piles x y\nmove (x, y) -> (x - t, y - 3*t) for t in 1..min(x, y/3)\n", &n, NULL, 0) == NS_FAM_RAY);
    CHECK(kind_of("piles x y\nmove (x, y) -> (x - t, y - t) for t in 1..x where t <= y\n", &n, NULL, 0) == NS_FAM_RAY);
    CHECK(kind_of("piles x y\nmove (x, y) -> (x - t, y - t) for t in 1..x where not (y < t)\n", &n, NULL, 0) == NS_FAM_RAY);
    /* a bound that is not the box limit */
    CHECK(kind_of("piles x y\nmove (x, y) -> (x - t, y) for t in 1..x where y >= 1\n", &n, why, sizeof why) == NS_FAM_GENERAL);
    CHECK(strstr(why, "not a limit of the box") != NULL);
    CHECK(kind_of("piles x\nmove x -> x - t for t in 1..x - 1\n", &n, NULL, 0) == NS_FAM_GENERAL);
    CHECK(kind_of("piles x\nmove x -> x - t for t in 1..x where t mod 2 == 1\n", &n, NULL, 0) == NS_FAM_GENERAL);
    CHECK(kind_of("piles x\nmove x -> x - t for t in 1..x where t <= 5\n", &n, why, sizeof why) == NS_FAM_GENERAL);
    /* nothing keeps the pile >= 0: general (run-time errors) */
    CHECK(kind_of("piles x\nmove x -> x - 2\n", &n, why, sizeof why) == NS_FAM_GENERAL);
    CHECK(strstr(why, "nothing keeps x >= 0") != NULL);
    CHECK(kind_of("piles x\nmove x -> x - 2 where x >= 2\n", &n, NULL, 0) == NS_FAM_FINITE);
    CHECK(kind_of("piles x\nmove x -> x - s for s in {1, 2, 5} where x - s >= 0\n", &n, NULL, 0) == NS_FAM_FINITE);
    /* rays generated by an enumerated variable */
    CHECK(kind_of("piles x y\nmove (x, y) -> (x - t, y - d*t) for d in 1..3, t in 1..min(x, y/d)\n", &n, NULL, 0) == NS_FAM_RAY && n == 3);
    /* two variables depending on the position: rays when the conditions
     * bound l - m*k by constants (l = k + d, d in -1..1), else general */
    CHECK(kind_of("piles x y\nmove (x, y) -> (x - k, y - l) for k in 1..x, l in 1..y where abs(k - l) < 2\n", &n, why, sizeof why) ==
              NS_FAM_RAY && n == 3);
    CHECK(kind_of("piles x y\nmove (x, y) -> (x - k, y - l) for k in 1..x, l in 1..y where abs(k - l) < y\n", &n, why, sizeof why) ==
          NS_FAM_GENERAL);
    /* an upward move needs a box limit or a domain that bounds it */
    CHECK(kind_of("piles x y\nrank 2*x + y\nmove (x, y) -> (x - t, y + t) for t in 1..x\n", &n, NULL, 0) == NS_FAM_GENERAL);
    CHECK(kind_of("piles x y\nrank 2*x + y\nmove (x, y) -> (x - t, y + t) for t in 1..x where y + t < size(y)\n", &n, NULL, 0) ==
          NS_FAM_RAY);
    CHECK(kind_of("piles x y\nrank 2*x + y\ndomain x + y < size(y)\nmove (x, y) -> (x - t, y + t) for t in 1..x\n", &n, NULL, 0) ==
          NS_FAM_RAY);
    /* a domain the move may leave */
    CHECK(kind_of("piles x y\ndomain x <= y\nmove y -> y - t for t in 1..y\n", &n, why, sizeof why) == NS_FAM_GENERAL);
    CHECK(strstr(why, "leave the domain") != NULL);
    CHECK(kind_of("piles x y\ndomain x <= y\nmove x -> x - t for t in 1..x\n", &n, NULL, 0) == NS_FAM_RAY);
    /* a coefficient so large the evaluation could overflow: general */
    CHECK(kind_of("piles x\nmove x -> x - 1 where x * 4611686018427387904 > 0\n", &n, NULL, 0) == NS_FAM_GENERAL);
    /* constant conditions decide at compile time */
    CHECK(kind_of("param a = 1\npiles x y\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y where a == 2\n", &n, NULL, 0) ==
              NS_FAM_RAY && n == 1);
}

/* ---- run-time errors name the position and the bound values ---- */
static void test_runtime_errors(void)
{
    ns_error err;
    int64_t b[1] = {30}, s[1] = {5}, v[40] = {0};
    ns_game *g = compile("piles x\nmove x -> x - t + 0 * (10 / (t - 2))    for t in 1..x\n", "", 0, &err);
    CHECK(g && ns_game_set_bounds(g, b, &err) == 0);
    int rc = g ? ns_game_foreach_option(g, s, collect, v, &err) : 0;
    CHECKF(rc < 0 && strstr(err.msg, "t.rules:2:27: division by zero at position (5) (t = 2)"), "%d %s", rc, err.msg);
    ns_game_free(g);
    g = compile("param k = 2\npiles p[1..k]\nrank 3*p[1] + p[2]\n"
                "move (p[1], p[i]) -> (p[1] - 1, p[i] + t) for t in 1..2 where p[1] >= 1 and p[i] == 3 forall i in 2..k\n",
                "", 0, &err);
    int64_t b2[2] = {5, 5}, s2[2] = {1, 3};
    CHECK(g && ns_game_set_bounds(g, b2, &err) == 0);
    rc = g ? ns_game_foreach_option(g, s2, collect, v, &err) : 0;
    CHECKF(rc < 0 && strstr(err.msg, "t.rules:4:1: the move from (1, 3) leads to (0, 5), outside the box [0,5) x [0,5) (t = 2; i=2)"),
           "%s", err.msg);
    ns_game_free(g);
}

/* ---- interval bounds contain every value ---- */
static uint64_t rng = 88172645463325252u;
static int64_t rnd(int64_t lo, int64_t hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (int64_t)(rng % (uint64_t)(hi - lo + 1));
}

static int random_expr(ns_ir_pool *p, int depth)
{
    ns_ir_fault f;
    if (depth == 0 || rnd(0, 3) == 0) {
        int w = (int)rnd(0, 3);
        if (w == 0)
            return ns_ir_add(p, IR_CONST, -1, -1, rnd(-20, 20), 0, &f);
        return ns_ir_add(p, w == 1 ? IR_PILE : w == 2 ? IR_SIZE : IR_VAR, (int)rnd(0, 1), -1, 0, 0, &f);
    }
    static const ns_ir_op ops[] = {IR_NEG, IR_ABS, IR_ADD, IR_SUB, IR_MUL, IR_DIV, IR_MOD, IR_MIN,
                                   IR_MAX, IR_LT, IR_AND, IR_OR, IR_NOT, IR_EQ, IR_GE};
    ns_ir_op op = ops[rnd(0, 14)];
    int unary = op == IR_NEG || op == IR_ABS || op == IR_NOT;
    int a = random_expr(p, depth - 1);
    int b = unary ? -1 : random_expr(p, depth - 1);
    if (a < 0 || (b < 0 && !unary))
        return -1;
    return ns_ir_add(p, op, a, b, 0, 0, &f);
}

static void test_intervals(void)
{
    int bad = 0, tried = 0, badcode = 0, compiled = 0;
    for (int e = 0; e < 400; e++) {
        ns_ir_pool p = {0};
        int id = random_expr(&p, 4);
        if (id < 0) {
            ns_ir_pool_free(&p);
            continue;
        }
        ns_iv s[2], size[2], var[2];
        for (int i = 0; i < 2; i++) {
            int64_t a = rnd(-30, 30), c = rnd(0, 25);
            s[i] = (ns_iv){a, a + c};
            a = rnd(1, 30);
            size[i] = (ns_iv){a, a + rnd(0, 5)};
            a = rnd(-30, 30);
            var[i] = (ns_iv){a, a + rnd(0, 25)};
        }
        ns_iv iv = ns_ir_interval(p.n, id, s, size, var);
        ns_ir_code code = {0};
        int start = ns_ir_compile(p.n, id, &code);
        compiled += start >= 0;
        for (int t = 0; t < 200; t++) {
            int64_t sv[2], zv[2], vv[2], out;
            for (int i = 0; i < 2; i++) {
                sv[i] = rnd(s[i].lo, s[i].hi);
                zv[i] = rnd(size[i].lo, size[i].hi);
                vv[i] = rnd(var[i].lo, var[i].hi);
            }
            ns_ir_env env = {sv, zv, vv};
            ns_ir_fault f, g = {0, 0};
            int rc = ns_ir_eval(p.n, id, &env, &out, &f);
            if (start >= 0) {
                /* the bytecode gives the same value, or the same fault */
                int64_t out2 = 0;
                int rc2 = ns_ir_run(code.ins, start, &env, &out2, &g);
                badcode += rc != rc2 || (rc == 0 && out != out2) || (rc != 0 && f.off != g.off);
            }
            if (rc)
                continue;
            tried++;
            if (out < iv.lo || out > iv.hi)
                bad++;
        }
        ns_ir_code_free(&code);
        ns_ir_pool_free(&p);
    }
    CHECKF(bad == 0 && tried > 10000, "%d of %d values outside their interval", bad, tried);
    CHECKF(badcode == 0 && compiled > 300, "bytecode: %d mismatches, %d expressions compiled", badcode, compiled);
}

/* ---- general families: the option bound holds at every position ---- */
static int count_opts(void *user, const int64_t *o)
{
    (void)o;
    (*(uint64_t *)user)++;
    return 0;
}

static void test_maxopt(void)
{
    const char *texts[] = {
        "piles x y\nmove y -> y - m*x for m in 1..y/x where 1 <= x <= y\nmove x -> x - m*y for m in 1..x/y where 1 <= y <= x\n",
        "piles a b\nrank a\nmove (a, b) -> (a - t, min(2*t, a - t)) for t in 1..min(a, b)\n",
        "param n = 3\npiles p[1..n]\nmove p -> (p[i] - t[i] for i in 1..n) for (t[i] in 0..p[i] for i in 1..n) where 1 <= count(t[i] > 0 for i in 1..n) <= 2\n",
        "piles x y\nmove (x, y) -> (x - k, y - l) for k in 1..x, l in 1..y where abs(k - l) < 3\n",
        "piles x y\nmove (x, y) -> (x - k, y) for k in {1, x / 2, x mod 3} where 1 <= k <= x\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        ns_error err;
        ns_game *g = compile(texts[i], "", 0, &err);
        CHECKF(g != NULL, "%s", err.msg);
        if (!g)
            continue;
        int64_t b[NS_MAX_DIM];
        for (int d = 0; d < g->k; d++)
            b[d] = 7 + d;
        CHECK(ns_game_set_bounds(g, b, &err) == 0);
        uint64_t cells = ns_game_cells(g), worst = 0, bound = ns_game_max_options(g);
        for (uint64_t c = 0; c < cells; c++) {
            int64_t s[NS_MAX_DIM];
            uint64_t r = c, n = 0;
            for (int d = g->k - 1; d >= 0; d--) {
                s[d] = (int64_t)(r % (uint64_t)b[d]);
                r /= (uint64_t)b[d];
            }
            CHECK(ns_game_foreach_option(g, s, count_opts, &n, &err) == 0);
            worst = n > worst ? n : worst;
        }
        CHECKF(worst <= bound && bound <= cells, "text %zu: %" PRIu64 " options but bound %" PRIu64, i, worst, bound);
        ns_game_free(g);
    }
}

/* ---- a plainly written a-Wythoff (rays by l = k + d) equals the preset ---- */
static void test_plain_awythoff(void)
{
    const char *text = "param a = 2\npiles x y\n"
                       "move x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n"
                       "move (x, y) -> (x - k, y - l) for k in 1..x, l in 1..y where abs(k - l) < a\n";
    for (int a = 1; a <= 3; a++) {
        char ps[16];
        snprintf(ps, sizeof ps, "a=%d", a);
        ns_error err;
        ns_game *g = compile(text, ps, 0, &err);
        int64_t b[2] = {22, 19};
        CHECK(g && g->nfam == 2 * a + 1 && g->fam[2 * a].kind == NS_FAM_RAY);
        ns_table *t = NULL, *u = ns_tsolve("a-wythoff", ps, 2, b, 0, 0, 2);
        if (g && ns_game_set_bounds(g, b, &err) == 0 && (t = ns_engine_table_new(g, 0, &err))) {
            ns_engine_opts o = {.threads = 2};
            CHECKF(ns_engine_run(g, t, &o, &err) == 0, "%s", err.msg);
        }
        CHECKF(t && u && ns_table_equal(t, u), "a=%d", a);
        ns_table_free(t);
        ns_table_free(u);
        ns_game_free(g);
    }
}

/* ---- differential: a family as compiled (ray / finite / general) gives
 * the same table, or the same failure, as the same family forced to be
 * general (an extra condition 'x mod 1 == 0' the classifier cannot read) ---- */
static int solve_text(const char *text, const int64_t *b, int misere, ns_table **out, int *nray)
{
    ns_error err;
    *out = NULL;
    ns_game *g = compile(text, "", 0, &err);
    if (!g)
        return -1;
    *nray = 0;
    for (int i = 0; i < g->nfam; i++)
        *nray += g->fam[i].kind != NS_FAM_GENERAL;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    ns_table *t = NULL;
    int rc = -1;
    if (ns_game_set_bounds(g, b, &err) == 0 && (t = ns_engine_table_new(g, 0, &err))) {
        ns_engine_opts o = {.threads = 1};
        rc = ns_engine_run(g, t, &o, &err) == 0 ? 0 : -2;
    }
    if (rc) {
        ns_table_free(t);
        t = NULL;
    }
    *out = t;
    ns_game_free(g);
    return rc;
}

static void test_differential(void)
{
    static const char *const lims[] = {"", "x", "y", "x/2", "y/2", "(x - 1)", "(y + 1)/2"};
    int classified = 0, agree = 0, cases = 0, solved = 0;
    for (int c = 0; c < 300; c++) {
        int a = (int)rnd(0, 2), bb = (int)rnd(0, 2);
        if (!a && !bb)
            a = 1;
        int sx = (int)rnd(-1, 0), sy = (int)rnd(-1, 0), start = (int)rnd(1, 2);
        const char *l1 = lims[rnd(0, 6)], *l2 = lims[rnd(0, 6)];
        char fam[256], text[600], forced[700];
        if (rnd(0, 3) == 0) /* a finite family */
            snprintf(fam, sizeof fam, "move (x, y) -> (x - %d*t + %d, y - %d*t + %d) for t in {1, %d} where %d*t - %d <= x and %d*t - %d <= y",
                     a, sx, bb, sy, start + 1, a, sx, bb, sy);
        else if (!l1[0] && !l2[0])
            snprintf(fam, sizeof fam, "move (x, y) -> (x - %d*t + %d, y - %d*t + %d) for t in %d..x", a, sx, bb, sy, start);
        else
            snprintf(fam, sizeof fam, "move (x, y) -> (x - %d*t + %d, y - %d*t + %d) for t in %d..min(%s%s%s)", a, sx, bb, sy, start,
                     l1[0] ? l1 : l2, l1[0] && l2[0] ? ", " : "", l1[0] && l2[0] ? l2 : "");
        snprintf(text, sizeof text, "piles x y\nmove x -> x - t for t in 1..x\n%s\n", fam);
        snprintf(forced, sizeof forced, "piles x y\nmove x -> x - t for t in 1..x\n%s%s x mod 1 == 0\n", fam,
                 strstr(fam, "where") ? " and" : " where");
        const int64_t b[2] = {13, 11};
        ns_table *t1, *t2;
        int n1, n2;
        int misere = (int)rnd(0, 1);
        int r1 = solve_text(text, b, misere, &t1, &n1);
        int r2 = solve_text(forced, b, misere, &t2, &n2);
        cases++;
        classified += n1 > n2;
        int same = (r1 != 0 && r2 != 0) || (r1 == 0 && r2 == 0 && ns_table_equal(t1, t2));
        agree += same;
        solved += r1 == 0 && r2 == 0;
        if (!same)
            fprintf(stderr, "differential: %s: %d vs %d\n", fam, r1, r2);
        ns_table_free(t1);
        ns_table_free(t2);
    }
    CHECKF(agree == cases, "%d of %d families disagree", cases - agree, cases);
    CHECKF(classified > 60, "only %d of %d families were rays or finite", classified, cases);
    CHECKF(solved > 80, "only %d of %d families solved", solved, cases);
}

/* ---- play, pile counts from the bounds ---- */
static void test_misc(void)
{
    ns_error err;
    ns_game *g = compile("play misere\npiles x\nmove x -> x - t for t in 1..x\n", "", 0, &err);
    CHECK(g && g->play == NS_PLAY_MISERE && strcmp(g->coord_names[0], "x") == 0);
    ns_game_free(g);
    g = compile("param k = 3\npiles p[1..k]\nmove p[i] -> p[i] - t for t in 1..p[i] forall i in 1..k\n", "", 2, &err);
    CHECK(g && g->k == 2 && param(g, "k", 0) == 2 && strcmp(g->coord_names[1], "p[2]") == 0);
    ns_game_free(g);
    g = compile("param k = 3\npiles p[1..k]\nmove p[i] -> p[i] - t for t in 1..p[i] forall i in 1..k\n", "k=3", 2, &err);
    CHECKF(!g && strstr(err.msg, "t.rules:2:1: the rules declare 3 piles but 2 bounds were given"), "%s", err.msg);
    g = compile("piles x y\nmove x -> x - t for t in 1..x\n", "", 1, &err);
    CHECK(!g && strstr(err.msg, "declare 2 piles but 1 bounds"));
    /* comments, commas, strings and names with '-' */
    g = compile("/* a\n block */ game \"my game\" # title\npiles x, y  # two\nmove (x,y)->(x-t,y-t) for t in 1..min(x,y)\n", "", 0, &err);
    CHECKF(g && g->nfam == 1 && g->fam[0].kind == NS_FAM_RAY, "%s", err.msg);
    ns_game_free(g);
    g = compile("game a-b-3\npiles x\nmove x -> x - t for t in 1..x\n", "", 0, &err);
    CHECK(g != NULL);
    ns_game_free(g);
    g = compile("", "", 0, &err);
    CHECK(!g && strstr(err.msg, "t.rules:1:1: no 'piles' statement"));
}

/* ---- 'game NAME': hyphenated names of any parts, kept as written ---- */
static void title_of(const char *text, char *title, size_t len, ns_error *err)
{
    ns_params ps = {0};
    ns_game *g = NULL;
    ns_rules_info *info = NULL;
    ns_error_clear(err);
    title[0] = '\0';
    if (ns_rules_compile_info(text, "t.rules", &ps, 0, &g, &info, err) == NS_OK) {
        snprintf(title, len, "%s", info->title);
        /* the statements after the name are read as usual */
        if (g->k != 2 || g->nfam != 2)
            snprintf(title, len, "(k %d, %d families)", g->k, g->nfam);
    }
    ns_rules_info_free(info);
    ns_game_free(g);
}

static void test_game_names(void)
{
    static const char *const names[] = {
        "two-piles", "sub25-2piles", "a-b-3", "a-wythoff", "2piles", "x_y-z9", "in-out", "move-first",
    };
    char text[256], title[NS_NAME_LEN];
    ns_error err;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        for (int nl = 0; nl < 2; nl++) {
            snprintf(text, sizeof text, "game%s%s # title\npiles x y\n"
                     "move x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n", nl ? "\n  " : " ", names[i]);
            title_of(text, title, sizeof title, &err);
            CHECKF(strcmp(title, names[i]) == 0, "%s: title '%s' (%s)", names[i], title, err.msg);
        }
    }
    title_of("game \"two piles\"\npiles x y\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n",
             title, sizeof title, &err);
    CHECKF(strcmp(title, "two piles") == 0, "title '%s' (%s)", title, err.msg);
    /* bad names: one message with the line and column */
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"piles x\ngame -x\nmove x -> x - t for t in 1..x\n", "t.rules:2:6: found '-': expected the name of the game"},
        {"piles x\nmove x -> x - t for t in 1..x\ngame", "t.rules:3:1: 'game' has no name"},
        {"game\npiles x\nmove x -> x - t for t in 1..x\n", "t.rules:1:1: 'game' has no name"},
        {"game for\npiles x\nmove x -> x - t for t in 1..x\n", "t.rules:1:6: found 'for': expected the name of the game"},
        {"game a->b\npiles x\nmove x -> x - t for t in 1..x\n", "t.rules:1:7: found '->'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ns_game *g = compile(bad[i].text, "", 0, &err);
        CHECKF(!g && strstr(err.msg, bad[i].msg) && !strchr(err.msg, '\n'), "%s", g ? "(compiled)" : err.msg);
        ns_game_free(g);
    }
}

int main(void)
{
    test_divmod();
    test_constants();
    test_guards();
    test_classify();
    test_runtime_errors();
    test_intervals();
    test_maxopt();
    test_plain_awythoff();
    test_differential();
    test_misc();
    test_game_names();
    return TEST_REPORT();
}
