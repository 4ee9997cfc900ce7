/* test_octal.c - take-and-break heap games (game/ns_octal.h), the sequence
 * engine (engine/ns_sequence.c) and periods (analysis/ns_period.h).
 *
 * The references: a naive solver written here (every move spelled out as
 * the list of heaps it leaves, in every order, values by memoised
 * recursion), the OEIS terms of Kayles (A002186), Dawson's chess 0.137
 * (A002187; Dawson's Kayles 0.07 has the values a(n-1)) and Grundy's game
 * (A002188), and the published periods (Kayles: period 12 from n = 71,
 * last exception at 70; Dawson's chess: period 34, last exception at 51,
 * so from 52, and 0.07 one later; 0.177, 0.117, 0.115 below). 0.127's
 * period 4 from 46578 is in test_octal_slow.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_period.h"
#include "engine/ns_engine.h"
#include "game/ns_octal.h"
#include "game/ns_presets.h"
#include "testutil.h"
#include "oeis.h"
#include "tsolve.h"

/* ---- the naive solver ---- */

typedef struct naive {
    const ns_octal *o;
    int64_t n;
    int *g;     /* memo, -1: not yet */
} naive;

static int naive_g(naive *s, int64_t h);

/* the value of the heaps list[0..k) */
static int xor_of(naive *s, const int64_t *list, int k)
{
    int x = 0;
    for (int i = 0; i < k; i++)
        x ^= naive_g(s, list[i]);
    return x;
}

static int naive_g(naive *s, int64_t h)
{
    if (s->g[h] >= 0)
        return s->g[h];
    /* values of all options; at most h^2 * digits of them, a value below 4096 here */
    static const int MAXV = 1 << 12;
    char *seen = calloc((size_t)MAXV, 1);
    const ns_octal *o = s->o;
    int64_t l[3];
    if (o->kind == NS_TB_GRUNDY) {
        for (int64_t a = 1; a < h; a++)
            if (a != h - a) {
                l[0] = a, l[1] = h - a;
                seen[xor_of(s, l, 2)] = 1;
            }
    } else {
        for (int t = 0; t < NS_OCTAL_MAX_DIGITS && t <= h; t++) {
            const int d = o->d[t];
            const int64_t m = h - t;
            if ((d & 1) && m == 0)
                seen[0] = 1;
            if ((d & 2) && m >= 1 && t >= 1) {
                l[0] = m;
                seen[xor_of(s, l, 1)] = 1;
            }
            if (d & 4)
                for (int64_t a = 1; a < m; a++) {
                    l[0] = a, l[1] = m - a;
                    seen[xor_of(s, l, 2)] = 1;
                }
            if (d & 8)
                for (int64_t a = 1; a < m; a++)
                    for (int64_t b = 1; a + b < m; b++) {
                        l[0] = a, l[1] = b, l[2] = m - a - b;
                        seen[xor_of(s, l, 3)] = 1;
                    }
        }
    }
    int v = 0;
    while (seen[v])
        v++;
    free(seen);
    return s->g[h] = v;
}

/* G(0..n-1) by the naive solver (caller frees) */
static int *naive_sequence(const ns_octal *o, int64_t n)
{
    naive s = {o, n, malloc((size_t)n * sizeof(int))};
    for (int64_t i = 0; i < n; i++)
        s.g[i] = -1;
    for (int64_t i = 0; i < n; i++)
        naive_g(&s, i);
    return s.g;
}

/* ---- the engine ---- */

static ns_game *build(const char *preset, const char *params, int64_t n)
{
    return ns_tbuild1(preset, params, n);
}

static ns_table *solve_with(const ns_game *g, int threads, ns_checkpoint_fn ck, void *ck_user)
{
    ns_error err = {0};
    ns_table *t = ns_engine_table_new(g, 0, &err);
    ns_engine_opts o = {.threads = threads, .checkpoint = ck, .checkpoint_user = ck_user};
    if (!t || ns_engine_run(g, t, &o, &err)) {
        fprintf(stderr, "%s: %s\n", g->name, err.msg);
        ns_table_free(t);
        return NULL;
    }
    return t;
}

static ns_table *solve(const char *preset, const char *params, int64_t n, int threads)
{
    ns_game *g = build(preset, params, n);
    ns_table *t = g ? solve_with(g, threads, NULL, NULL) : NULL;
    ns_game_free(g);
    return t;
}

static ns_table *solve_code(const char *code, int64_t n, int threads)
{
    char p[128];
    snprintf(p, sizeof p, "code=%s", code);
    return solve("octal", p, n, threads);
}

/* ---- OEIS ---- */


static void test_oeis(void)
{
    ns_table *k = solve_code("0.77", ns_oeis_a002186_n, 2);
    ns_table *dc = solve_code("0.137", ns_oeis_a002187_n, 2);
    ns_table *dk = solve_code("0.07", ns_oeis_a002187_n + 1, 2);
    ns_table *gr = solve("grundys-game", "", ns_oeis_a002188_n, 2);
    CHECK(k && dc && dk && gr);
    if (!k || !dc || !dk || !gr)
        goto done;
    int bad = 0;
    for (int64_t n = 0; n < ns_oeis_a002186_n; n++)
        bad += ns_table_get(k, (uint64_t)n) != (uint32_t)ns_oeis_a002186[n];
    CHECKF(bad == 0, "Kayles 0.77: %d of %d terms differ from A002186", bad, (int)ns_oeis_a002186_n);
    bad = 0;
    for (int64_t n = 0; n < ns_oeis_a002187_n; n++)
        bad += ns_table_get(dc, (uint64_t)n) != (uint32_t)ns_oeis_a002187[n];
    CHECKF(bad == 0, "Dawson's chess 0.137: %d terms differ from A002187", bad);
    bad = ns_table_get(dk, 0) != 0;
    for (int64_t n = 1; n <= ns_oeis_a002187_n; n++)
        bad += ns_table_get(dk, (uint64_t)n) != (uint32_t)ns_oeis_a002187[n - 1];
    CHECKF(bad == 0, "Dawson's Kayles 0.07: %d terms differ from A002187(n-1)", bad);
    bad = 0;
    for (int64_t n = 0; n < ns_oeis_a002188_n; n++)
        bad += ns_table_get(gr, (uint64_t)n) != (uint32_t)ns_oeis_a002188[n];
    CHECKF(bad == 0, "Grundy's game: %d terms differ from A002188", bad);
done:
    ns_table_free(k);
    ns_table_free(dc);
    ns_table_free(dk);
    ns_table_free(gr);
}

/* ---- random codes against the naive solver ---- */

static void random_code(char *buf, size_t len, int hex)
{
    static const char dg[] = "0123456789abcdef";
    const int nd = 1 + (int)(ns_test_rng() % 4);
    size_t w = 0;
    const uint64_t r0 = ns_test_rng() % 8;
    buf[w++] = r0 == 0 ? '4' : (hex && r0 == 1) ? '8' : '0'; /* d0: sometimes split without taking */
    buf[w++] = '.';
    for (int i = 0; i < nd && w + 1 < len; i++)
        buf[w++] = dg[ns_test_rng() % (hex ? 16 : 8)];
    buf[w] = '\0';
}

static void test_random_codes(void)
{
    for (int it = 0; it < 80; it++) {
        char code[16];
        const int hex = it % 3 == 2;
        random_code(code, sizeof code, hex);
        const int64_t n = hex ? 120 + (int64_t)(ns_test_rng() % 100) : 200 + (int64_t)(ns_test_rng() % 300);
        ns_octal o;
        ns_error err = {0};
        CHECKF(ns_octal_parse(code, &o, &err) == NS_OK, "%s: %s", code, err.msg);
        int *ref = naive_sequence(&o, n);
        ns_table *t = solve_code(code, n, 1 + it % 3);
        CHECKF(t != NULL, "code %s", code);
        if (t) {
            int64_t first = -1;
            for (int64_t i = 0; i < n && first < 0; i++)
                if (ns_table_get(t, (uint64_t)i) != (uint32_t)ref[i])
                    first = i;
            CHECKF(first < 0, "code %s, N = %lld: G(%lld) = %u, the naive solver says %d", code, (long long)n,
                   (long long)first, first >= 0 ? ns_table_get(t, (uint64_t)first) : 0, first >= 0 ? ref[first] : 0);
        }
        ns_table_free(t);
        free(ref);
    }
    /* Grundy's game further than OEIS */
    ns_octal o;
    ns_octal_grundy(&o);
    int *ref = naive_sequence(&o, 400);
    ns_table *t = solve("grundys-game", "", 400, 3);
    int bad = 0;
    for (int64_t i = 0; t && i < 400; i++)
        bad += ns_table_get(t, (uint64_t)i) != (uint32_t)ref[i];
    CHECKF(t && bad == 0, "Grundy's game to 400: %d values differ from the naive solver", bad);
    ns_table_free(t);
    free(ref);
}

/* ---- threads ---- */

static void test_threads(void)
{
    static const struct {
        const char *preset, *params;
        int64_t n;
    } cases[] = {
        {"octal", "code=0.77", 30000},  {"octal", "code=0.137", 20000}, {"grundys-game", "", 30000},
        {"octal", "code=4.37", 12000},  {"octal", "code=0.f", 1100},     {"octal", "code=0.6", 15000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ns_table *t1 = solve(cases[i].preset, cases[i].params, cases[i].n, 1);
        for (int th = 2; th <= 3; th++) {
            ns_table *tt = solve(cases[i].preset, cases[i].params, cases[i].n, th);
            CHECKF(t1 && tt && ns_table_equal(t1, tt), "%s %s N = %lld: %d threads differ from 1", cases[i].preset,
                   cases[i].params, (long long)cases[i].n, th);
            ns_table_free(tt);
        }
        ns_table_free(t1);
    }
}

/* Hexadecimal codes whose moves leave three heaps (the engine's two-heap
 * value sets, engine/ns_seq_split3.h) against the naive solver, at several
 * N (so several block layouts) and on 1 to 3 threads; values beyond 64
 * (0.aa, 0.8b: growing sequences) make the sets several words wide. */
static void test_hex3(void)
{
    static const char *const codes[] = {"0.8", "0.f", "0.8f", "0.3f", "0.b8", "0.48", "8.0", "c.f", "0.aa",
                                        "0.8b", "0.2048", "0.0c9"};
    static const int64_t sizes[] = {3, 40, 301};
    for (size_t c = 0; c < sizeof codes / sizeof *codes; c++) {
        ns_octal o;
        ns_error err = {0};
        CHECK(ns_octal_parse(codes[c], &o, &err) == NS_OK && o.max_heaps == 3);
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            const int64_t n = sizes[k];
            int *ref = naive_sequence(&o, n);
            for (int th = 1; th <= 3; th++) {
                ns_table *t = solve_code(codes[c], n, th);
                int64_t bad = -1;
                for (int64_t i = 0; t && i < n && bad < 0; i++)
                    if ((int)ns_table_get(t, (uint64_t)i) != ref[i])
                        bad = i;
                CHECKF(t && bad < 0, "%s N = %lld, %d threads: G(%lld) = %d, naive %d", codes[c], (long long)n, th,
                       (long long)bad, t && bad >= 0 ? (int)ns_table_get(t, (uint64_t)bad) : -1,
                       bad >= 0 ? ref[bad] : -1);
                ns_table_free(t);
            }
            free(ref);
        }
    }
}

/* ---- cell widening ---- */

/* A sequence starts at one byte a value and is widened in place when a
 * value passes 255 (ns_table_widen). 0.6666666666666666 (take 1..16, leave
 * one or two heaps) passes 255 within a few hundred heaps: both engines at
 * 1, 2 and 3 threads agree with the naive solver, and with the plain mex
 * on a table of 4-byte cells from the start (no widening). */
static void test_widen(void)
{
    const char *code = "0.6666666666666666";
    const int64_t n = 900;
    ns_octal o;
    ns_error err = {0};
    CHECK(ns_octal_parse(code, &o, &err) == NS_OK);
    int *ref = naive_sequence(&o, n);
    int refmax = 0;
    for (int64_t i = 0; i < n; i++)
        refmax = ref[i] > refmax ? ref[i] : refmax;
    CHECKF(refmax > 255 && refmax < 4096, "%s to %lld: largest value %d, expected 256..4095", code, (long long)n,
           refmax);
    char p[64];
    snprintf(p, sizeof p, "code=%s", code);
    ns_game *g = build("octal", p, n);
    CHECK(g != NULL);
    if (!g) {
        free(ref);
        return;
    }
    /* the plain mex into 4-byte cells */
    ns_table *wide = ns_table_new(1, &n, 4, 0, &err);
    const ns_engine *plain = ns_engine_find("sequence");
    ns_engine_opts o1 = {.threads = 1};
    CHECK(wide && plain && ns_engine_run_with(plain, g, wide, &o1, &err) == NS_OK);
    static const char *const engines[] = {"sequence", "rare-common"};
    for (int e = 0; e < 2; e++)
        for (int th = 1; th <= 3; th++) {
            ns_table *t = ns_engine_table_new(g, 0, &err);
            CHECKF(t && t->elem == 1, "%s: the table starts at %d bytes a value", code, t ? t->elem : 0);
            ns_engine_opts ot = {.threads = th};
            CHECKF(t && ns_engine_run_with(ns_engine_find(engines[e]), g, t, &ot, &err) == NS_OK, "%s: %s",
                   engines[e], err.msg);
            CHECKF(t && t->elem == 2, "%s, %d threads: %d bytes a value after values up to %d", engines[e], th,
                   t ? t->elem : 0, refmax);
            int64_t bad = -1;
            for (int64_t i = 0; t && i < n && bad < 0; i++)
                if (ns_table_get(t, (uint64_t)i) != (uint32_t)ref[i])
                    bad = i;
            CHECKF(t && bad < 0, "%s %s, %d threads: G(%lld) = %u, the naive solver %d", code, engines[e], th,
                   (long long)bad, t && bad >= 0 ? ns_table_get(t, (uint64_t)bad) : 0, bad >= 0 ? ref[bad] : 0);
            CHECKF(t && wide && ns_table_equal(t, wide), "%s %s, %d threads: differs from the plain mex in 4-byte cells",
                   code, engines[e], th);
            ns_table_free(t);
        }
    ns_table_free(wide);
    ns_game_free(g);
    free(ref);
}

/* ---- checkpoints and resume ---- */

typedef struct stop_at {
    uint64_t at, total;
} stop_at;

static int stop_cb(void *user, uint64_t done, uint64_t total)
{
    stop_at *s = user;
    s->total = total;
    return done >= s->at;
}

static void test_resume(void)
{
    const int64_t n = 13000;
    ns_game *g = build("octal", "code=0.137", n);
    CHECK(g != NULL);
    if (!g)
        return;
    ns_table *full = solve_with(g, 2, NULL, NULL);
    ns_error err = {0};
    ns_table *t = ns_engine_table_new(g, 0, &err);
    stop_at s = {2, 0};
    ns_engine_opts o = {.threads = 2, .checkpoint = stop_cb, .checkpoint_user = &s};
    CHECK(t && ns_engine_run(g, t, &o, &err) == NS_EINTR);
    CHECK(s.total == 4);
    /* what a checkpoint keeps: the finished units; the rest is lost */
    for (int64_t i = 2 * 4096; t && i < n; i++)
        ns_table_set(t, (uint64_t)i, 0);
    ns_engine_opts o2 = {.threads = 3};
    CHECK(t && ns_engine_resume(g, t, &o2, 2, &err) == NS_OK);
    CHECK(full && t && ns_table_equal(full, t));
    ns_table_free(t);
    ns_table_free(full);
    ns_game_free(g);
}

/* ---- periods ---- */

static void check_period(const char *code, int64_t n, int64_t p, int64_t n0, int proven)
{
    ns_table *t = solve_code(code, n, 2);
    ns_octal o;
    ns_error err = {0};
    ns_period per;
    CHECK(ns_octal_parse(code, &o, &err) == NS_OK);
    CHECK(t && ns_period_find(t, &o, &per, &err) == NS_OK);
    CHECKF(t && per.found && per.period == p && per.preperiod == n0 && per.proven == proven,
           "%s N = %lld: period %lld from %lld, proven %d; expected %lld from %lld, proven %d", code, (long long)n,
           (long long)per.period, (long long)per.preperiod, per.proven, (long long)p, (long long)n0, proven);
    ns_table_free(t);
}

/* the period as ns_period.h defines it, by brute force: n0(p) for every
 * p; the smallest p the theorem proves, else the smallest p observed
 * (tail of two periods and half the sequence; multiples of it are not
 * tried for a proof) */
static void brute_period(const ns_octal *o, const int *g, int64_t n, int *found, int *proven, int64_t *p_out,
                         int64_t *n0_out, int64_t *s_out)
{
    *found = *proven = 0;
    *s_out = 0;
    int64_t obs = 0, obs_n0 = 0, obs_s = 0;
    for (int64_t p = 1; 2 * p <= n; p++) {
        /* pure (s = 0) and arithmetic (s = the last step) */
        const int64_t s = g[n - 1] - g[n - 1 - p];
        int64_t n0 = 0;
        for (int64_t i = 0; i + p < n; i++)
            if (g[i + p] - g[i] != s)
                n0 = i + 1;
        if (obs && p % obs == 0)
            continue;
        if (s > 0) {
            if (!obs && n - n0 >= 2 * p && 2 * (n - n0) >= n)
                obs = p, obs_n0 = n0, obs_s = s;
            continue;
        }
        if (s < 0)
            continue;
        const int64_t j = o->max_heaps > 1 ? o->max_heaps : 1, m0 = n0 > 1 ? n0 : 1;
        if (n >= j * m0 + j * p + o->tmax) {
            *found = *proven = 1, *p_out = p, *n0_out = n0;
            return;
        }
        if (!obs && n - n0 >= 2 * p && 2 * (n - n0) >= n)
            obs = p, obs_n0 = n0;
    }
    if (obs)
        *found = 1, *p_out = obs, *n0_out = obs_n0, *s_out = obs_s;
}

/* Arithmetic periods of hexadecimal codes: for each code, the sequence by
 * the naive solver, and by a naive finder written here from the
 * definition (every p, every n0, every s: the smallest p, then n0, with
 * G(n + p) = G(n) + s, s > 0, for n0 <= n < N - p and a tail N - n0 of two
 * periods and half the sequence) the period, preperiod and saltus that
 * ns_period_find must report, never as proven. The codes, and the p, s
 * seen at N = 120 (an exploration script, not a published table): 0.8
 * (3, 1), 0.0f (2, 1), 0.3f (6, 3), 0.89 (4, 2), 0.8b (7, 4), 0.b8 (7, 4),
 * 0.aa (1, 1), 0.bc (3, 2). */
static int naive_saltus(const int *g, int64_t n, int64_t *p_out, int64_t *n0_out, int64_t *s_out)
{
    for (int64_t p = 1; 2 * p <= n; p++)
        for (int64_t n0 = 0; n0 + p <= n; n0++) {
            if (n - n0 < 2 * p || 2 * (n - n0) < n)
                break;
            const int64_t s = g[n0 + p] - g[n0];
            int ok = s > 0;
            for (int64_t i = n0; ok && i + p < n; i++)
                ok = g[i + p] - g[i] == s;
            if (ok) {
                *p_out = p, *n0_out = n0, *s_out = s;
                return 1;
            }
        }
    return 0;
}

static void test_saltus(void)
{
    static const char *const codes[] = {"0.8", "0.0f", "0.3f", "0.89", "0.8b", "0.b8", "0.aa", "0.bc", "0.2048"};
    /* 1: a saltus expected at N = 240; 0.2048 has a "ruler regularity"
     * (Grossman and Nowakowski 2015), no claim either way */
    static const int expect[] = {1, 1, 1, 1, 1, 1, 1, 1, -1};
    for (size_t c = 0; c < sizeof codes / sizeof *codes; c++) {
        ns_octal o;
        ns_error err = {0};
        CHECK(ns_octal_parse(codes[c], &o, &err) == NS_OK);
        for (int64_t n = 120; n <= 240; n += 120) {
            int *ref = naive_sequence(&o, n);
            int64_t p = 0, n0 = 0, s = 0;
            const int found = naive_saltus(ref, n, &p, &n0, &s);
            CHECKF(n < 240 || expect[c] < 0 || found == expect[c], "%s N = %lld: the naive finder %s a saltus", codes[c], (long long)n,
                   found ? "finds" : "finds no");
            for (int th = 1; th <= 3; th++) {
                ns_table *t = solve_code(codes[c], n, th);
                ns_period per;
                CHECK(t && ns_period_find(t, &o, &per, &err) == NS_OK);
                if (found)
                    CHECKF(t && per.found && per.saltus == s && per.period == p && per.preperiod == n0 && !per.proven,
                           "%s N = %lld: period %lld from %lld saltus %lld (found %d, proven %d); naive: %lld from %lld "
                           "saltus %lld", codes[c], (long long)n, (long long)per.period, (long long)per.preperiod,
                           (long long)per.saltus, per.found, per.proven, (long long)p, (long long)n0, (long long)s);
                else
                    CHECKF(t && per.saltus == 0, "%s N = %lld: saltus %lld reported, the naive finder finds none",
                           codes[c], (long long)n, (long long)per.saltus);
                ns_table_free(t);
            }
            free(ref);
        }
    }
}

static void test_periods(void)
{
    /* published: Kayles 12 from 71; Dawson's chess 34 from 52; 0.07 one later */
    check_period("0.77", 1000, 12, 71, 1);
    check_period("0.137", 1000, 34, 52, 1);
    check_period("0.07", 1000, 34, 53, 1);
    /* Winning Ways ch. 4 tables via OEIS: 0.177 period 20, last exception
     * 496 (A071435); 0.117 period 48, last exception 46 (A071453); 0.115
     * period 14, the only exception n = 0 (A125829) */
    check_period("0.177", 1100, 20, 497, 1);
    check_period("0.117", 1000, 48, 47, 1);
    check_period("0.115", 1000, 14, 1, 1);
    /* the theorem's range: 2 n0 + 2 p + k heap sizes (Kayles 168) */
    check_period("0.77", 168, 12, 71, 1);
    check_period("0.77", 167, 12, 71, 0);
    ns_octal o;
    ns_error err = {0};
    CHECK(ns_octal_parse("0.77", &o, &err) == NS_OK && ns_period_needed(&o, 71, 12) == 168);
    CHECK(ns_octal_parse("0.137", &o, &err) == NS_OK && ns_period_needed(&o, 52, 34) == 175);
    ns_octal_grundy(&o);
    CHECK(ns_period_needed(&o, 10, 3) == -1);

    /* random codes: the period found is the brute-force one, and a proven
     * period holds on a sequence four times as long */
    int nproven = 0;
    for (int it = 0; it < 60; it++) {
        char code[16];
        random_code(code, sizeof code, it % 4 == 3);
        CHECK(ns_octal_parse(code, &o, &err) == NS_OK);
        const int64_t n = 400;
        int *ref = naive_sequence(&o, n);
        ns_table *t = solve_code(code, n, 2);
        ns_period per;
        CHECK(t && ns_period_find(t, &o, &per, &err) == NS_OK);
        int found, proven;
        int64_t p = 0, n0 = 0, sal = 0;
        brute_period(&o, ref, n, &found, &proven, &p, &n0, &sal);
        CHECKF(t && found == per.found && proven == per.proven &&
                   (!found || (p == per.period && n0 == per.preperiod && sal == per.saltus)),
               "%s: period %lld from %lld saltus %lld (found %d, proven %d), brute force %lld from %lld saltus %lld "
               "(found %d, proven %d)", code, (long long)per.period, (long long)per.preperiod, (long long)per.saltus,
               per.found, per.proven, (long long)p, (long long)n0, (long long)sal, found, proven);
        if (t && per.proven) {
            nproven++;
            const int64_t n4 = 4 * n;
            ns_table *l = solve_code(code, n4, 2);
            int64_t bad = -1;
            for (int64_t i = per.preperiod; l && i + per.period < n4 && bad < 0; i++)
                if (ns_table_get(l, (uint64_t)i) != ns_table_get(l, (uint64_t)(i + per.period)))
                    bad = i;
            CHECKF(l && bad < 0, "%s: period %lld from %lld proven at N = 400 but G(%lld) != G(%lld + p) at N = %lld",
                   code, (long long)per.period, (long long)per.preperiod, (long long)bad, (long long)bad,
                   (long long)n4);
            ns_table_free(l);
        }
        ns_table_free(t);
        free(ref);
    }
    CHECKF(nproven >= 10, "only %d random codes had a proven period", nproven);
}

/* ---- codes refused ---- */

static void test_bad_codes(void)
{
    static const struct {
        const char *code, *msg;
    } bad[] = {
        {"", "empty"},
        {"77", "no '.'"},
        {"0.7x", "'x' at position 4"},
        {"0.(7)", "'(' at position 3: repeating"},
        {"0.7...", "position 4: repeating"},
        {"0.7.7", "second '.' at position 4"},
        {"1.7", "d0 = 1"},
        {"2.7", "d0 = 2"},
        {"12.3", "position 2"},
        {"0.", "no digit after"},
        {"0.7 ", "' ' at position 4"},
        {"0.g", "'g' at position 3"},
        {"0.1234567012345670123456701234567012345670123456701234567012345670", "digits after the '.'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ns_octal o;
        ns_error err = {0};
        CHECKF(ns_octal_parse(bad[i].code, &o, &err) == NS_EINVAL && strstr(err.msg, bad[i].msg) &&
                   !strchr(err.msg, '\n'),
               "'%s': %s (expected '%s')", bad[i].code, err.msg, bad[i].msg);
    }
    /* accepted: canonical text, hexadecimal, d0 of a split */
    ns_octal o;
    ns_error err = {0};
    CHECK(ns_octal_parse(".77", &o, &err) == NS_OK && strcmp(o.code, "0.77") == 0 && o.tmax == 2 && o.max_heaps == 2);
    CHECK(ns_octal_parse("0.3F00", &o, &err) == NS_OK && strcmp(o.code, "0.3f") == 0 && o.tmax == 2 &&
          o.max_heaps == 3 && o.d[1] == 3 && o.d[2] == 15);
    CHECK(ns_octal_parse("4.0", &o, &err) == NS_OK && o.d[0] == 4 && o.tmax == 0 && o.max_heaps == 2);
    /* the preset's parameter */
    ns_params ps = {0};
    CHECK(ns_params_parse(&ps, "code=0.7x", &err) == NS_OK && ns_params_get(&ps, "code")->n == 0);
    CHECK(ns_preset_build("octal", &ps, 0, &err) == NULL && strstr(err.msg, "'x' at position 4"));
    ns_params ps2 = {0};
    CHECK(ns_preset_build("octal", &ps2, 0, &err) == NULL && strstr(err.msg, "code"));
    char text[128];
    CHECK(ns_params_parse_list(&ps2, "code=0.77", &err) == NS_OK);
    ns_params_format(&ps2, text, sizeof text);
    CHECK(strcmp(text, "code=0.77") == 0);
    CHECK(ns_preset_build("octal", &ps2, 2, &err) == NULL && strstr(err.msg, "one heap"));
}

/* ---- the engine door ---- */

static void test_door(void)
{
    ns_game *g = build("octal", "code=0.77", 100);
    CHECK(g != NULL);
    if (!g)
        return;
    ns_engine_opts o = {0};
    ns_engine_choice c;
    ns_engine_choose(g, &o, &c);
    CHECK(c.engine && strcmp(c.engine->name, "rare-common") == 0);
    const ns_engine *gen = ns_engine_find("general");
    char why[NS_ENGINE_WHY];
    CHECK(gen && !gen->applies(g, &o, why, sizeof why) && strstr(why, "take-and-break"));
    ns_engine_opts pn = {.pn_only = 1};
    ns_engine_plan plan;
    ns_error err = {0};
    CHECK(ns_engine_plan_for(g, &pn, &plan, &err) == NS_EINVAL);
    g->play = NS_PLAY_MISERE;
    CHECK(ns_engine_plan_for(g, &o, &plan, &err) == NS_EINVAL);
    g->play = NS_PLAY_NORMAL;
    /* explicit options are refused, not made up */
    int64_t s = 5;
    ns_table *t = solve_with(g, 1, NULL, NULL);
    uint32_t v = 0;
    CHECK(t && ns_naive_cell(g, t, &s, &v, &err) != NS_OK && strstr(err.msg, "take-and-break"));
    ns_table_free(t);
    ns_game_free(g);
    /* and the sequence engine refuses ordinary games */
    ns_game *w = build("subtraction", "set=1,2", 50);
    const ns_engine *seq = ns_engine_find("sequence");
    CHECK(w && seq && !seq->applies(w, &o, why, sizeof why));
    ns_game_free(w);
}

int main(void)
{
    test_bad_codes();
    test_door();
    test_oeis();
    test_random_codes();
    test_periods();
    test_saltus();
    test_threads();
    test_hex3();
    test_widen();
    test_resume();
    return TEST_REPORT();
}
