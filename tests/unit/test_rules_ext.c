/* test_rules_ext.c - the rule language's integer operators, functions
 * ('def'), set comprehensions, 'forall' filters, 'rank lex(...)' and the
 * order found by the compiler: operators against their definitions
 * (Python's semantics, written out here in plain C), precedence against
 * values worked out by hand, errors with their lines, and tables of games
 * written with the new features against a naive memoised-mex solver
 * written in this file (options listed from the rules stated in words,
 * not from the rule text). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_params.h"
#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "game/ns_rules_ir.h"
#include "testutil.h"

static ns_game *compile_info(const char *text, const char *params, ns_rules_info **info, ns_error *err)
{
    ns_params ps = {0};
    ns_game *g = NULL;
    ns_error_clear(err);
    if (ns_params_parse_list(&ps, params, err))
        return NULL;
    if (info ? ns_rules_compile_info(text, "t.rules", &ps, 0, &g, info, err) : ns_rules_compile(text, "t.rules", &ps, 0, &g, err))
        return NULL;
    return g;
}

static ns_game *compile(const char *text, ns_error *err)
{
    return compile_info(text, "", NULL, err);
}

/* value of an integer parameter defined by expr, or INT64_MIN with err */
static int64_t value_of(const char *expr, ns_error *err)
{
    char text[512];
    snprintf(text, sizeof text, "param v = %s\npiles x\nmove x -> x - 1 where x >= 1\n", expr);
    ns_game *g = compile(text, err);
    const ns_param *p = g ? ns_params_get(&g->params, "v") : NULL;
    int64_t v = p ? p->v[0] : INT64_MIN;
    ns_game_free(g);
    return v;
}

/* ---- operators against their definitions ---- */
static void test_operators(void)
{
    int bad = 0;
    for (int64_t a = -70; a <= 70; a++)
        for (int64_t b = 0; b <= 70; b++) {
            int64_t r;
            /* a >> b = floor(a / 2^b): halve with floor b times */
            int64_t q = a;
            for (int64_t i = 0; i < b; i++)
                q = q >= 0 ? q / 2 : -((-q + 1) / 2);
            bad += ns_ir_shr(a, b, &r) != 0 || r != q;
            /* a << b = a * 2^b when it fits */
            __extension__ __int128 m = a;
            int fits = 1;
            for (int64_t i = 0; i < b && fits; i++) {
                m *= 2;
                fits = m <= INT64_MAX && m >= INT64_MIN;
            }
            if (a == 0)
                fits = 1, m = 0;
            int rc = ns_ir_shl(a, b, &r);
            bad += fits ? (rc != 0 || r != (int64_t)m) : rc != NS_IR_OVERFLOW;
            /* a ** b by repeated multiplication */
            __extension__ __int128 p = 1;
            fits = 1;
            for (int64_t i = 0; i < b && fits; i++) {
                p *= a;
                fits = p <= INT64_MAX && p >= INT64_MIN;
            }
            if (a == 0 || a == 1 || a == -1)
                fits = 1, p = b == 0 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : a;
            rc = ns_ir_pow(a, b, &r);
            bad += fits ? (rc != 0 || r != (int64_t)p) : rc != NS_IR_OVERFLOW;
        }
    CHECKF(bad == 0, "%d shift or power results differ from their definitions", bad);
    int64_t r;
    CHECK(ns_ir_shl(1, -1, &r) == NS_IR_NEGSHIFT && ns_ir_shr(1, -1, &r) == NS_IR_NEGSHIFT);
    CHECK(ns_ir_pow(2, -1, &r) == NS_IR_NEGPOW && ns_ir_popcount(-1, &r) == NS_IR_NEGPOP);
    CHECK(ns_ir_shl(-1, 63, &r) == 0 && r == INT64_MIN && ns_ir_shl(1, 63, &r) == NS_IR_OVERFLOW);
    CHECK(ns_ir_pow(2, 62, &r) == 0 && r == (int64_t)1 << 62 && ns_ir_pow(2, 63, &r) == NS_IR_OVERFLOW);
    CHECK(ns_ir_pow(-2, 63, &r) == 0 && r == INT64_MIN);
    CHECK(ns_ir_shr(INT64_MIN, 200, &r) == 0 && r == -1);
    /* popcount: count the bits one by one */
    for (int64_t a = 0; a < 5000; a += 7) {
        int64_t c = 0;
        for (int64_t t = a; t; t /= 2)
            c += t % 2;
        bad += ns_ir_popcount(a, &r) != 0 || r != c;
    }
    CHECK(bad == 0);
}

/* ---- precedence: Python's (worked out by hand) ---- */
static void test_precedence(void)
{
    static const struct {
        const char *e;
        int64_t v;
    } cases[] = {
        {"-2**2", -4},                 /* ** above unary minus */
        {"2**3**2", 512},              /* right to left */
        {"2**-1 + 1", INT64_MIN},      /* negative exponent: an error */
        {"1 + 2 << 3", 24},            /* + above << */
        {"1 << 2 + 1", 8},
        {"6 & 3 << 1", 6},             /* << above & */
        {"1 | 2 xor 3 & 5 << 1", 1},   /* 5<<1 = 10, 3&10 = 2, 2 xor 2 = 0, 1|0 = 1 */
        {"5 xor 3 | 8", 14},           /* xor above | */
        {"-7 >> 1", -4},               /* floor */
        {"-1 xor 5", -6},              /* two's complement */
        {"7 & -2", 6},
        {"popcount(255) * 2", 16},
        {"2 * 3 ** 2", 18},
        {"(2 * 3) ** 2", 36},
        {"10 - 2 ** 3 mod 5", 7},      /* 2**3 = 8, 8 mod 5 = 3 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ns_error err;
        int64_t v = value_of(cases[i].e, &err);
        CHECKF(v == cases[i].v, "%s = %" PRId64 ", expected %" PRId64 " (%s)", cases[i].e, v, cases[i].v, err.msg);
    }
    /* comparisons come after the bit operators: (6 & 3) == 2 */
    ns_error err;
    ns_game *g = compile("require 6 & 3 == 2 and 1 | 4 < 6\npiles x\nmove x -> x - 1 where x >= 1\n", &err);
    CHECKF(g != NULL, "%s", err.msg);
    ns_game_free(g);
    CHECK(value_of("2**-1 + 1", &err) == INT64_MIN && strstr(err.msg, "t.rules:1:12: negative exponent"));
    CHECK(value_of("popcount(0 - 3)", &err) == INT64_MIN && strstr(err.msg, "t.rules:1:11: popcount of a negative number"));
    CHECK(value_of("1 << 64", &err) == INT64_MIN && strstr(err.msg, "t.rules:1:13: integer overflow"));
    CHECK(value_of("3 ^ 1", &err) == INT64_MIN && strstr(err.msg, "t.rules:1:13: found '^': expected 'xor'"));
}

/* ---- functions, comprehensions, filters: values and errors ---- */
static void test_functions_and_sets(void)
{
    ns_error err;
    CHECK(value_of("tri(4)\ndef tri(n) = n * (n + 1) / 2", &err) == 10);
    CHECK(value_of("sq(tri(3))\ndef tri(n) = n * (n + 1) / 2\ndef sq(a) = a * a", &err) == 36);
    CHECK(value_of("sum(t for t in 1..10 where t mod 3 == 0)", &err) == 18);
    /* a function of parameters and piles, in targets, conditions, ranges */
    ns_game *g = compile("param a = 2\ndef f(n) = a * n\npiles x\nmove x -> x - f(t) for t in 1..f(x) where f(t) <= x\n", &err);
    CHECKF(g != NULL, "%s", err.msg);
    ns_game_free(g);
    /* sets by comprehension: duplicates kept once */
    g = compile("param S = {t mod 3 + 1 for t in 1..9}\npiles x\nmove x -> x - s for s in S where s <= x\n", &err);
    const ns_param *p = g ? ns_params_get(&g->params, "S") : NULL;
    CHECKF(p && p->n == 3 && p->v[0] == 2 && p->v[1] == 3 && p->v[2] == 1, "%s", err.msg);
    ns_game_free(g);
    g = compile("param S = {2**i for i in 0..5}\npiles x\nmove x -> x - s for s in S where s <= x\n", &err);
    p = g ? ns_params_get(&g->params, "S") : NULL;
    CHECK(p && p->n == 6 && p->v[5] == 32);
    ns_game_free(g);
    /* errors name the line */
    g = compile("def f(n) = n\npiles x\n\nmove x -> x - f(t, t) for t in 1..x\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:4:15: wrong arity: f takes 1 argument, found 2"), "%s", err.msg);
    g = compile("def f(n) = n\ndef f(m) = m\npiles x\nmove x -> x - 1 where x >= 1\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:2:5: duplicate function 'f': already defined at 1:5"), "%s", err.msg);
    g = compile("def f(n) = n\npiles f\nmove f -> f - 1 where f >= 1\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:2:7: 'f' is a function (defined with 'def')"), "%s", err.msg);
    g = compile("piles x\nmove x -> x - t for t in 1..x where f(t) > 0\ndef f(n) = g(n)\ndef g(n) = f(n)\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:4:12: 'f' calls itself: functions cannot be recursive"), "%s", err.msg);
    g = compile("piles x\ndef f(n) = n\nmove x -> x - f for t in 1..x\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:3:15: 'f' is a function: write f(...)"), "%s", err.msg);
    /* a run-time fault in a move is an error with its line, not a crash */
    g = compile("piles x\n\nmove x -> x - 1 where x >= 1 and 2 ** (x - 2) >= 0\n", &err);
    CHECKF(g != NULL, "%s", err.msg);
    if (g) {
        const int64_t b[1] = {5};
        ns_table *t = NULL;
        CHECK(ns_game_set_bounds(g, b, &err) == 0 && (t = ns_engine_table_new(g, 0, &err)) != NULL);
        ns_engine_opts o = {.threads = 1};
        CHECK(t && ns_engine_run(g, t, &o, &err) != 0);
        CHECKF(strstr(err.msg, "t.rules:3:36: negative exponent (a ** b needs b >= 0) at position (1)"), "%s", err.msg);
        ns_table_free(t);
        ns_game_free(g);
    }
}

/* ---- tables against a naive memoised mex ---- */

typedef struct naive {
    int k;
    int64_t n[3];
    int32_t *val;                                       /* -1: not yet */
    int (*opts)(const struct naive *nv, const int64_t *s, int64_t *out); /* options, k values each; returns count */
    int64_t set[64];
    int nset;
} naive;

static uint64_t nidx(const naive *nv, const int64_t *s)
{
    uint64_t i = 0;
    for (int j = 0; j < nv->k; j++)
        i = i * (uint64_t)nv->n[j] + (uint64_t)s[j];
    return i;
}

static int32_t mex_of(naive *nv, const int64_t *s)
{
    uint64_t i = nidx(nv, s);
    if (nv->val[i] >= 0)
        return nv->val[i];
    int64_t *o = malloc(4096 * 3 * sizeof *o);
    int n = nv->opts(nv, s, o);
    char seen[4200] = {0};
    for (int j = 0; j < n; j++) {
        int32_t v = mex_of(nv, o + 3 * j);
        if (v < 4200)
            seen[v] = 1;
    }
    free(o);
    int32_t m = 0;
    while (seen[m])
        m++;
    nv->val[i] = m;
    return m;
}

/* the engine's table of text in box b equals the naive values */
static void check_table(const char *name, const char *text, naive *nv)
{
    ns_error err;
    ns_game *g = compile(text, &err);
    CHECKF(g != NULL, "%s: %s", name, err.msg);
    if (!g)
        return;
    ns_table *t = NULL;
    int ok = ns_game_set_bounds(g, nv->n, &err) == 0 && (t = ns_engine_table_new(g, 0, &err)) != NULL;
    ns_engine_opts o = {.threads = 2};
    ok = ok && ns_engine_run(g, t, &o, &err) == 0;
    CHECKF(ok, "%s: %s", name, err.msg);
    uint64_t cells = 1;
    for (int j = 0; j < nv->k; j++)
        cells *= (uint64_t)nv->n[j];
    nv->val = malloc(cells * sizeof *nv->val);
    for (uint64_t i = 0; i < cells; i++)
        nv->val[i] = -1;
    uint64_t bad = 0;
    for (uint64_t i = 0; ok && i < cells; i++) {
        int64_t s[3];
        uint64_t r = i;
        for (int j = nv->k - 1; j >= 0; j--) {
            s[j] = (int64_t)(r % (uint64_t)nv->n[j]);
            r /= (uint64_t)nv->n[j];
        }
        bad += (uint32_t)mex_of(nv, s) != ns_table_get(t, ns_table_index(t, s));
    }
    CHECKF(ok && bad == 0, "%s: %" PRIu64 " cells differ", name, bad);
    free(nv->val);
    ns_table_free(t);
    ns_game_free(g);
}

/* one pile, take s in the set */
static int opts_subtract(const naive *nv, const int64_t *s, int64_t *o)
{
    int n = 0;
    for (int j = 0; j < nv->nset; j++)
        if (nv->set[j] <= s[0])
            o[3 * n++] = s[0] - nv->set[j];
    return n;
}

/* two piles; a pile x may become x xor t for any t >= 1 that makes it smaller */
static int opts_xor(const naive *nv, const int64_t *s, int64_t *o)
{
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int64_t t = 1; t < nv->n[i]; t++)
            if ((s[i] ^ t) < s[i]) {
                o[3 * n] = s[0];
                o[3 * n + 1] = s[1];
                o[3 * n + i] = s[i] ^ t;
                n++;
            }
    return n;
}

/* one pile, take a triangular number 1, 3, 6, 10, ... */
static int opts_tri(const naive *nv, const int64_t *s, int64_t *o)
{
    (void)nv;
    int n = 0;
    for (int64_t t = 1; t * (t + 1) / 2 <= s[0]; t++)
        o[3 * n++] = s[0] - t * (t + 1) / 2;
    return n;
}

/* (x, y): take from y, or take one from x and put any number on y that
 * fits the box */
static int opts_lex(const naive *nv, const int64_t *s, int64_t *o)
{
    int n = 0;
    for (int64_t t = 1; t <= s[1]; t++) {
        o[3 * n] = s[0];
        o[3 * n++ + 1] = s[1] - t;
    }
    for (int64_t u = 0; s[0] >= 1 && s[1] + u < nv->n[1]; u++) {
        o[3 * n] = s[0] - 1;
        o[3 * n++ + 1] = s[1] + u;
    }
    return n;
}

/* three piles: take from one, or move a token from a pile to a later one */
static int opts_pass(const naive *nv, const int64_t *s, int64_t *o)
{
    int n = 0;
    for (int i = 0; i < 3; i++) {
        for (int64_t t = 1; t <= s[i]; t++) {
            memcpy(o + 3 * n, s, 3 * sizeof *s);
            o[3 * n++ + i] -= t;
        }
        for (int j = i + 1; j < 3; j++)
            if (s[i] >= 1 && s[j] + 1 < nv->n[j]) {
                memcpy(o + 3 * n, s, 3 * sizeof *s);
                o[3 * n + i]--;
                o[3 * n++ + j]++;
            }
    }
    return n;
}

static void test_tables(void)
{
    naive nv = {.k = 1, .n = {300}, .opts = opts_subtract, .nset = 6, .set = {1, 2, 4, 8, 16, 32}};
    check_table("powers of two", "param S = {2**i for i in 0..5}\npiles n\nmove n -> n - s for s in S where s <= n\n", &nv);
    nv.nset = 5;
    check_table("powers of two by popcount",
                "param S = {t for t in 1..20 where popcount(t) == 1}\npiles n\nmove n -> n - s for s in S where s <= n\n", &nv);
    naive nx = {.k = 2, .n = {32, 23}, .opts = opts_xor};
    check_table("xor moves",
                "piles p[1..2]\nmove p[i] -> p[i] xor t for t in 1..size(p[i]) - 1 where (p[i] xor t) < p[i] forall i in 1..2\n", &nx);
    naive nt = {.k = 1, .n = {400}, .opts = opts_tri};
    check_table("triangular", "def tri(n) = n * (n + 1) / 2\npiles x\nmove x -> x - tri(t) for t in 1..x where tri(t) <= x\n", &nt);
    naive nl = {.k = 2, .n = {9, 7}, .opts = opts_lex};
    const char *lex_moves = "move (x, y) -> (x - 1, y + u) for u in 0..size(y) - 1 - y where x >= 1\nmove y -> y - t for t in 1..y\n";
    char text[512];
    snprintf(text, sizeof text, "piles x y\nrank lex(x, y)\n%s", lex_moves);
    check_table("rank lex", text, &nl);
    snprintf(text, sizeof text, "piles x y\n%s", lex_moves);
    check_table("order found", text, &nl);
    naive np = {.k = 3, .n = {5, 4, 6}, .opts = opts_pass};
    const char *pass = "move p[i] -> p[i] - t for t in 1..p[i] forall i in 1..3\n"
                       "move (p[i], p[j]) -> (p[i] - 1, p[j] + 1) where p[i] >= 1 and p[j] + 1 < size(p[j])\n"
                       "    forall i in 1..3, j in 1..3 where i < j\n";
    snprintf(text, sizeof text, "piles p[1..3]\n%s", pass);
    check_table("forall filter, weights found", text, &np);
    snprintf(text, sizeof text, "piles p[1..3]\nrank lex(p[1], p[2], p[3])\n%s", pass);
    check_table("forall filter, rank lex", text, &np);
}

/* ---- what the compiler says about orders ---- */
static void test_orders(void)
{
    ns_error err;
    ns_rules_info *info = NULL;
    ns_game *g = compile_info("piles x y\nmove (x, y) -> (x - 1, y + 1) where x >= 1 and y + 1 < size(y)\n", "", &info, &err);
    CHECKF(g && g->rank_w[0] == 2 && g->rank_w[1] == 1 && g->rank_nlex == 0, "%s", err.msg);
    CHECKF(info && strstr(info->order, "the sum of the piles fails (line 2: the step (-1, 1) changes it by +0); 2*x + y lowers"),
           "%s", info ? info->order : "");
    ns_game_free(g);
    ns_rules_info_free(info);
    info = NULL;
    g = compile_info("piles x y\nmove (x, y) -> (x - 1, y + u) for u in 0..size(y) - 1 - y where x >= 1\n", "", &info, &err);
    CHECKF(g && g->rank_nlex == 2 && g->rank_lex[0][0] == 1 && g->rank_lex[1][1] == 1, "%s", err.msg);
    CHECK(info && strstr(info->order, "lex(x, y) lowers every ray") && strcmp(info->rank, "lex(x, y)") == 0);
    CHECK(g && g->nfam == 1 && g->fam[0].kind == NS_FAM_GENERAL);
    if (g) {
        /* the lex weights come from the box: (N_y, 1) */
        const int64_t b[2] = {10, 7};
        CHECK(ns_game_set_bounds(g, b, &err) == 0 && g->rank_w[0] == 7 && g->rank_w[1] == 1);
    }
    ns_game_free(g);
    ns_rules_info_free(info);
    /* lex of weighted sums: (x + y, x) has (2N-1) * N levels, weights (N, N + 1) */
    g = compile("piles x y\nrank lex(x + y, x)\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n", &err);
    const int64_t b[2] = {5, 5};
    CHECKF(g && ns_game_set_bounds(g, b, &err) == 0 && g->rank_w[0] == 6 && g->rank_w[1] == 5, "%s", err.msg);
    ns_game_free(g);
    /* an explicit lex rank that a move does not lower */
    g = compile("piles x y\nrank lex(y, x)\n\nmove (x, y) -> (x - 1, y + 1) where x >= 1 and y + 1 < size(y)\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:4:1: the move does not lower the order lex(y, x): the step (-1, 1) changes its components by (1, -1)"),
           "%s", err.msg);
    g = compile("piles x y\nrank lex(x - y, x)\nmove x -> x - 1 where x >= 1\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:2:6: each component of lex(...) must be a sum of piles"), "%s", err.msg);
    /* forall filters: the filtered instances never reach the body */
    g = compile("piles p[1..3]\nrank lex(p[1], p[2], p[3])\n"
                "move (p[i], p[j]) -> (p[i] - 1, p[j] + 1) where p[i] >= 1 and p[j] + 1 < size(p[j]) forall i in 1..3, j in 1..3 where i < j\n",
                &err);
    CHECKF(g && g->nfam == 3, "%s", err.msg);
    ns_game_free(g);
    g = compile("piles p[1..3]\ndomain p[i] <= p[j] forall i in 1..3, j in 1..3 where i < j\nmove p[3] -> p[3] - 1 where p[3] > p[2]\n", &err);
    CHECKF(g != NULL, "%s", err.msg);
    if (g) {
        const int64_t b3[3] = {4, 4, 4};
        CHECK(ns_game_set_bounds(g, b3, &err) == 0);
        CHECK(g->valid(g->valid_ctx, 3, (const int64_t[3]){1, 2, 3}) && !g->valid(g->valid_ctx, 3, (const int64_t[3]){2, 1, 3}));
    }
    ns_game_free(g);
}

int main(void)
{
    test_operators();
    test_precedence();
    test_functions_and_sets();
    test_tables();
    test_orders();
    return TEST_REPORT();
}
