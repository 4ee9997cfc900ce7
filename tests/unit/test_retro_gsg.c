/* test_retro_gsg.c - generalized Sprague-Grundy values of loopy games
 * (issue 18, item 3): ns_gsg_solve and the retro engine's hook against a
 * naive solver written here, cell by cell; Fraenkel's definition checked
 * on every cell; the outcome of every value against the retro engine's
 * P/N/draw table and against the naive P/N/draw solver of the retro test's
 * kind written here; for games whose moves lower the rank, the ordinary
 * Grundy tables of the current engines; identical at 1, 2, 3 threads; and
 * the sum theorem on the product of two loopy games, solved as one game.
 *
 * The naive solver follows Smith's algorithm literally, with no counters
 * and no reverse index: for m = 0, 1, ..., it rescans every position until
 * none changes, labelling m an unlabelled position with no option labelled
 * m whose every unlabelled or infinite option has an option labelled m;
 * then every unlabelled position without an option labelled m becomes
 * infinite. The sets are the finite labels of the options. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_rules.h"
#include "game/ns_shipped_rules.h"
#include "game/ns_table.h"
#include "game_graph.h"
#include "testutil.h"

#define UNL (UINT32_MAX - 2)
#define INF NS_GSG_INF
#define NONE NS_GSG_NONE

/* ---------- the game as a graph (tests/common/game_graph.h) ---------- */

typedef ns_test_graph graph;

static int has_option_labelled(const graph *a, const uint32_t *lab, uint64_t u, uint32_t m)
{
    for (uint64_t j = a->off[u]; j < a->off[u + 1]; j++)
        if (lab[a->to[j]] == m)
            return 1;
    return 0;
}

/* Smith's algorithm, literally */
static void naive_gsg(const graph *a, uint32_t *lab)
{
    uint64_t unl = 0;
    for (uint64_t i = 0; i < a->n; i++) {
        lab[i] = a->pos[i] ? UNL : NONE;
        unl += a->pos[i];
    }
    for (uint32_t m = 0; unl; m++) {
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint64_t u = 0; u < a->n; u++) {
                if (lab[u] != UNL || has_option_labelled(a, lab, u, m))
                    continue;
                int ok = 1;
                for (uint64_t j = a->off[u]; j < a->off[u + 1] && ok; j++) {
                    const uint64_t v = a->to[j];
                    if ((lab[v] == UNL || lab[v] == INF) && !has_option_labelled(a, lab, v, m))
                        ok = 0;
                }
                if (ok) {
                    lab[u] = m;
                    changed = 1;
                }
            }
        }
        unl = 0;
        for (uint64_t u = 0; u < a->n; u++) {
            if (lab[u] != UNL)
                continue;
            if (!has_option_labelled(a, lab, u, m))
                lab[u] = INF;
            else
                unl++;
        }
    }
}

/* the set of u as a bitmask of values below 64 (the games here stay below) */
static uint64_t set_mask(const graph *a, const uint32_t *lab, uint64_t u)
{
    uint64_t k = 0;
    for (uint64_t j = a->off[u]; j < a->off[u + 1]; j++) {
        const uint32_t v = lab[a->to[j]];
        if (v < 64)
            k |= (uint64_t)1 << v;
    }
    return k;
}

static uint32_t mex_finite(const graph *a, const uint32_t *lab, uint64_t u)
{
    const uint64_t k = set_mask(a, lab, u);
    uint32_t m = 0;
    while (m < 64 && (k >> m & 1))
        m++;
    return m;
}

/* Fraenkel's conditions on every cell: A, a finite value is the mex of the
 * finite values of the options; B, an option of larger or infinite value
 * has an option of the value; C, an infinite position has an infinite
 * option whose set lacks the mex of its own finite options. */
static int check_definition(const graph *a, const uint32_t *lab, const char *name)
{
    int bad = 0;
    for (uint64_t u = 0; u < a->n && bad < 5; u++) {
        if (lab[u] == NONE)
            continue;
        const uint32_t mx = mex_finite(a, lab, u);
        if (lab[u] != INF) {
            if (lab[u] != mx) {
                fprintf(stderr, "%s: cell %" PRIu64 ": value %" PRIu32 ", mex %" PRIu32 "\n", name, u, lab[u], mx);
                bad++;
            }
            for (uint64_t j = a->off[u]; j < a->off[u + 1]; j++) {
                const uint64_t v = a->to[j];
                if ((lab[v] == INF || lab[v] > lab[u]) && !has_option_labelled(a, lab, v, lab[u])) {
                    fprintf(stderr, "%s: cell %" PRIu64 ": option %" PRIu64 " does not reverse out\n", name, u, v);
                    bad++;
                }
            }
        } else {
            int found = 0;
            for (uint64_t j = a->off[u]; j < a->off[u + 1] && !found; j++) {
                const uint64_t v = a->to[j];
                found = lab[v] == INF && !(set_mask(a, lab, v) >> mx & 1);
            }
            if (!found) {
                fprintf(stderr, "%s: infinite cell %" PRIu64 " has no infinite option without %" PRIu32 "\n", name,
                        u, mx);
                bad++;
            }
        }
    }
    return bad;
}

/* the naive P/N/draw solver: rounds until nothing changes */
static void naive_pnd(const graph *a, uint8_t *pn)
{
    for (uint64_t i = 0; i < a->n; i++)
        pn[i] = a->pos[i] ? 9 : NS_PN_INVALID;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint64_t u = 0; u < a->n; u++) {
            if (pn[u] != 9)
                continue;
            int anyp = 0, alln = 1;
            for (uint64_t j = a->off[u]; j < a->off[u + 1]; j++) {
                anyp |= pn[a->to[j]] == NS_PN_P;
                alln &= pn[a->to[j]] == NS_PN_N;
            }
            if (anyp || alln) {
                pn[u] = anyp ? NS_PN_N : NS_PN_P;
                changed = 1;
            }
        }
    }
    for (uint64_t i = 0; i < a->n; i++)
        if (pn[i] == 9)
            pn[i] = NS_PN_DRAW;
}

/* ---------- the engine against it ---------- */

static int same_gsg(const ns_gsg *x, const ns_gsg *y)
{
    return x->ncells == y->ncells && x->ninf == y->ninf && memcmp(x->value, y->value, x->ncells * 4) == 0 &&
           memcmp(x->inf_off, y->inf_off, (x->ninf + 1) * 8) == 0 &&
           memcmp(x->inf_val, y->inf_val, x->inf_off[x->ninf] * 4) == 0;
}

/* ns_gsg_solve at 1, 2, 3 threads and the retro hook = the naive solver;
 * the definition and the outcomes hold. Returns the infinite cells. */
static int64_t check_game(const ns_game *g, const char *name)
{
    ns_error err = {0};
    graph a;
    if (ns_test_graph_build(g, &a)) {
        CHECKF(0, "%s: cannot list the options", name);
        return -1;
    }
    uint32_t *lab = malloc(a.n * sizeof *lab);
    uint8_t *pn = malloc(a.n);
    naive_gsg(&a, lab);
    naive_pnd(&a, pn);
    CHECKF(check_definition(&a, lab, name) == 0, "%s: the naive values break the definition", name);
    int64_t ninf = 0;
    ns_gsg *ref = NULL;
    for (int th = 1; th <= 3; th++) {
        ns_gsg *x = NULL;
        CHECKF(ns_gsg_solve(g, th, &x, &err) == 0, "%s: %s", name, err.msg);
        if (!x)
            continue;
        int bad = 0;
        ninf = 0;
        for (uint64_t i = 0; i < a.n && bad < 3; i++) {
            uint64_t nk = 0;
            const uint32_t *k = ns_gsg_set(x, i, &nk);
            uint64_t mask = 0;
            for (uint64_t j = 0; j < nk; j++) {
                mask |= k[j] < 64 ? (uint64_t)1 << k[j] : 0;
                if (j && k[j] <= k[j - 1])
                    bad++; /* increasing */
            }
            const int same = x->value[i] == lab[i] && (lab[i] != INF || mask == set_mask(&a, lab, i));
            const int out = ns_gsg_outcome(x->value[i], k, nk);
            ninf += lab[i] == INF;
            if (!same || out != pn[i]) {
                fprintf(stderr, "%s, %d threads: cell %" PRIu64 ": %" PRIu32 " (outcome %d), naive %" PRIu32
                                " (outcome %d)\n",
                        name, th, i, x->value[i], out, lab[i], pn[i]);
                bad++;
            }
        }
        CHECKF(bad == 0, "%s, %d threads: differs from the naive solver", name, th);
        CHECK((int64_t)x->ninf == ninf);
        if (!ref)
            ref = x;
        else {
            CHECKF(same_gsg(ref, x), "%s: %d threads differ from 1", name, th);
            ns_gsg_free(x);
        }
    }
    /* the retro engine's hook: its P/N/draw table and the same values */
    for (int th = 1; ref && th <= 3; th += 2) {
        ns_table *t = ns_engine_table_new(g, 1, &err);
        ns_gsg *x = NULL;
        ns_engine_opts o = {.threads = th, .pn_only = 1, .gsg = &x};
        CHECKF(t && ns_engine_run_with(ns_engine_find("retro"), g, t, &o, &err) == 0, "%s: retro: %s", name, err.msg);
        CHECKF(x && same_gsg(ref, x), "%s: the retro hook's values differ", name);
        for (uint64_t i = 0; t && i < a.n; i++)
            if (ns_table_pn(t, i) != pn[i]) {
                CHECKF(0, "%s: retro's table differs from the naive one at cell %" PRIu64, name, i);
                break;
            }
        if (x)
            CHECK(ns_gsg_check_outcomes(x, t, &err) == 0);
        ns_gsg_free(x);
        ns_table_free(t);
    }
    ns_gsg_free(ref);
    free(lab);
    free(pn);
    ns_test_graph_free(&a);
    return ninf;
}

/* ---------- games ---------- */

static ns_game *compile(const char *text, int64_t n0, int64_t n1)
{
    ns_error err = {0};
    ns_game *g = NULL;
    const int64_t b[NS_MAX_DIM] = {n0, n1, n0, n0, n0, n0, n0, n0};
    if (ns_rules_compile(text, "t.rules", NULL, 0, &g, &err) || ns_game_set_bounds(g, b, &err)) {
        fprintf(stderr, "compile: %s\n%s", err.msg, text);
        ns_game_free(g);
        return NULL;
    }
    return g;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

/* the loopy rule files of the tests and data/rules/wythoff-loopy.rules */
static void test_rule_files(void)
{
    static const char *files[] = {"tests/rules/loopy/swap_general.rules", "tests/rules/loopy/take_grow.rules",
                                  "tests/rules/loopy/tokens.rules", "tests/rules/loopy/zero_move.rules",
                                  "data/rules/wythoff-loopy.rules"};
    int64_t inf = 0;
    const char *src = getenv("NS_SOURCE_DIR");
    CHECKF(src != NULL, "NS_SOURCE_DIR is not set");
    for (size_t f = 0; src && f < sizeof files / sizeof *files; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", src, files[f]);
        char *text = slurp(path);
        CHECKF(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        for (int64_t n = 5; n <= 13; n += 4) {
            ns_game *g = compile(text, n, n + 2);
            CHECKF(g && g->loopy, "%s is not loopy", files[f]);
            if (g) {
                char name[1100];
                snprintf(name, sizeof name, "%s %" PRId64, files[f], n);
                inf += check_game(g, name);
            }
            ns_game_free(g);
        }
        free(text);
    }
    CHECK(inf > 0);
}

static int64_t rnd(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(ns_test_rng() % (uint64_t)(hi - lo + 1));
}

/* random loopy rule files: finite and infinite values, draws and sets */
static void test_random_rules(void)
{
    static const char *moves[] = {
        "move x -> x - t                  for t in 1..x\n",
        "move y -> y - t                  for t in 1..y\n",
        "move (x, y) -> (x - t, y + t - 1) for t in 1..x where y + t - 1 < size(y)\n",
        "move (x, y) -> (x + 1, y - 2)     where y >= 2 and x + 1 < size(x)\n",
        "move (x, y) -> (x - 1, y + 1)     where x >= 1 and y + 1 < size(y)\n",
        "move (x, y) -> (x - 2, y + 1)     where x >= 2 and y + 1 < size(y)\n",
        "move (x, y) -> (y, x)             where x > y + 2\n",
        "move (x, y) -> (x - t, y - t)     for t in 1..min(x, y)\n",
        "move (x, y) -> (x + 2, y - 1)     where y >= 1 and x + 2 < size(x)\n",
        "move y -> y + 1 - 2*t            for t in 1..(y + 1) / 2\n",
        "move x -> x - 2                  where x >= 2\n",
        "move (x, y) -> (x, y + 1)        where x % 3 == 1 and y + 1 < size(y)\n",
    };
    const int nmoves = (int)(sizeof moves / sizeof *moves);
    int loopy = 0, withinf = 0, withfinite = 0;
    for (int it = 0; it < 30; it++) {
        char text[2048] = "piles x y\n";
        const int m = (int)rnd(2, 4);
        int used = 0;
        for (int j = 0; j < m; j++) {
            int c = (int)rnd(0, nmoves - 1);
            if (used & (1 << c))
                continue;
            used |= 1 << c;
            strcat(text, moves[c]);
        }
        const int64_t n = rnd(6, 14);
        ns_game *g = compile(text, n, n);
        if (!g)
            continue;
        loopy += g->loopy;
        char name[32];
        snprintf(name, sizeof name, "random rules %d", it);
        int64_t ni = check_game(g, name);
        withinf += ni > 0;
        withfinite += ni < (int64_t)(n * n);
        ns_game_free(g);
    }
    CHECKF(loopy >= 8 && withinf >= 5 && withfinite >= 5, "random rules: %d loopy, %d with infinite values", loopy,
           withinf);
}

/* take one or pass (n -> n), from n >= 1: 0 is 0; 1 is inf{0} (N: move to
 * 0); every n >= 2 is inf{} (its options n - 1 and n are infinite): a draw.
 * Worked by hand from the algorithm. */
static int sub1_or_pass(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx, (void)err;
    int64_t o[1] = {s[0] - 1};
    int rc = s[0] >= 1 ? emit(user, o) : 0;
    return rc ? rc : s[0] >= 1 ? emit(user, s) : 0;
}

static void test_pass(void)
{
    ns_error err = {0};
    ns_game *g = ns_game_new("pass", 1);
    g->loopy = 1;
    const int64_t b[1] = {9};
    CHECK(ns_game_add_general(g, "take one or pass", sub1_or_pass, NULL, NULL, &err) == 0 &&
          ns_game_set_bounds(g, b, &err) == 0);
    ns_gsg *x = NULL;
    CHECKF(ns_gsg_solve(g, 2, &x, &err) == 0, "%s", err.msg);
    for (uint64_t i = 0; x && i < 9; i++) {
        uint64_t nk = 0;
        const uint32_t *k = ns_gsg_set(x, i, &nk);
        if (i == 0)
            CHECK(x->value[0] == 0 && !k);
        else if (i == 1)
            CHECK(x->value[1] == INF && nk == 1 && k[0] == 0);
        else
            CHECKF(x->value[i] == INF && nk == 0, "pass: %" PRIu64 " is %" PRIu32, i, x->value[i]);
    }
    CHECK(x && x->ninf == 8 && x->max_finite == 0 && x->nfinite == 1);
    check_game(g, "pass");
    ns_gsg_free(x);
    /* misere: refused, with the reason */
    g->play = NS_PLAY_MISERE;
    x = NULL;
    CHECK(ns_gsg_solve(g, 1, &x, &err) == NS_EINVAL && !x && strstr(err.msg, "normal play only"));
    ns_game_free(g);
}

/* moves that lower the rank: gamma = the ordinary Grundy values of the
 * current engines, every value finite */
static void test_rank_games(void)
{
    const char *files[] = {"wythoff.rules", "nim.rules", "subtraction.rules", "euclid.rules"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        const char *text = NULL;
        for (int i = 0; ns_shipped_rules_texts[i].file; i++)
            if (strcmp(ns_shipped_rules_texts[i].file, files[f]) == 0)
                text = ns_shipped_rules_texts[i].text;
        CHECKF(text != NULL, "%s is not shipped", files[f]);
        if (!text)
            continue;
        ns_error err = {0};
        ns_game *g = NULL;
        CHECKF(ns_rules_compile(text, files[f], NULL, 0, &g, &err) == 0, "%s", err.msg);
        if (!g)
            continue;
        const int64_t n = g->k == 1 ? 300 : g->k == 2 ? 48 : 10;
        const int64_t b[NS_MAX_DIM] = {n, n, n, n, n, n, n, n};
        CHECKF(!g->loopy && ns_game_set_bounds(g, b, &err) == 0, "%s", err.msg);
        ns_table *ref = ns_engine_table_new(g, 0, &err);
        ns_engine_opts o = {.threads = 2};
        CHECKF(ref && ns_engine_run(g, ref, &o, &err) == 0, "%s: %s", files[f], err.msg);
        for (int th = 1; ref && th <= 3; th++) {
            ns_gsg *x = NULL;
            CHECKF(ns_gsg_solve(g, th, &x, &err) == 0, "%s: %s", files[f], err.msg);
            uint64_t bad = 0;
            for (uint64_t i = 0; x && i < ref->ncells; i++) {
                const uint32_t r = ns_table_get(ref, i);
                bad += x->value[i] != (r == ns_table_invalid(ref) ? NONE : r);
            }
            CHECKF(x && bad == 0 && x->ninf == 0, "%s, %d threads: %" PRIu64 " cells differ from the engine",
                   files[f], th, bad);
            ns_gsg_free(x);
        }
        ns_table_free(ref);
        ns_game_free(g);
    }
}

/* ---------- sums ---------- */

/* the sum of two 2-pile games as one 4-pile game: a move in either part */
typedef struct sum_ctx {
    const ns_game *a, *b;
} sum_ctx;

typedef struct lift {
    ns_emit_fn emit;
    void *user;
    const int64_t *s;
    int part;
} lift;

static int lift_emit(void *u, const int64_t *o)
{
    lift *l = u;
    int64_t q[4] = {l->s[0], l->s[1], l->s[2], l->s[3]};
    q[2 * l->part] = o[0];
    q[2 * l->part + 1] = o[1];
    return l->emit(l->user, q);
}

static int sum_options(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    const sum_ctx *c = ctx;
    lift l = {emit, user, s, 0};
    int rc = ns_game_foreach_option(c->a, s, lift_emit, &l, err);
    if (rc)
        return rc;
    l.part = 1;
    return ns_game_foreach_option(c->b, s + 2, lift_emit, &l, err);
}

/* gamma of u + v by the sum theorem, as value and set mask */
static void sum_rule(const ns_gsg *x, uint64_t u, const ns_gsg *y, uint64_t v, uint32_t *val, uint64_t *mask)
{
    uint64_t nu = 0, nv = 0;
    const uint32_t *ku = ns_gsg_set(x, u, &nu), *kv = ns_gsg_set(y, v, &nv);
    const uint32_t a = x->value[u], b = y->value[v];
    *mask = 0;
    if (a != INF && b != INF) {
        *val = a ^ b;
        return;
    }
    *val = INF;
    if (a == INF && b == INF)
        return;
    const uint32_t *k = a == INF ? ku : kv;
    const uint64_t nk = a == INF ? nu : nv;
    const uint32_t f = a == INF ? b : a;
    for (uint64_t j = 0; j < nk; j++)
        *mask |= (uint64_t)1 << (k[j] ^ f);
}

static void test_sums(void)
{
    const char *ta = "piles x y\nmove x -> x - t for t in 1..x\nmove (x, y) -> (x + 1, y - 1) where y >= 1 and x + 1 < size(x)\n"
                     "move (x, y) -> (x, y + 1) where x % 3 == 1 and y + 1 < size(y)\n";
    const char *tb = "piles x y\nmove x -> x - 2 where x >= 2\nmove (x, y) -> (x - 1, y + 1) where x >= 1 and y + 1 < size(y)\n"
                     "move (x, y) -> (x + 1, y - 1) where y >= 2 and x + 1 < size(x)\nmove y -> y - 3 where y >= 3\n";
    ns_game *a = compile(ta, 5, 4), *b = compile(tb, 4, 5);
    CHECK(a && b && a->loopy && b->loopy);
    if (!a || !b)
        return;
    ns_error err = {0};
    ns_gsg *x = NULL, *y = NULL, *z = NULL;
    CHECK(ns_gsg_solve(a, 2, &x, &err) == 0 && ns_gsg_solve(b, 2, &y, &err) == 0);
    sum_ctx c = {a, b};
    ns_game *s = ns_game_new("sum", 4);
    s->loopy = 1;
    const int64_t bs[4] = {5, 4, 4, 5};
    CHECK(ns_game_add_general(s, "a move in one part", sum_options, NULL, &c, &err) == 0 &&
          ns_game_set_bounds(s, bs, &err) == 0);
    check_game(s, "sum"); /* the engine = the naive solver on the sum itself */
    CHECKF(ns_gsg_solve(s, 3, &z, &err) == 0, "%s", err.msg);
    int kinds[4] = {0}, bad = 0;
    for (uint64_t u = 0; z && u < 20; u++)
        for (uint64_t v = 0; v < 20; v++) {
            const uint64_t i = u * 20 + v;
            uint32_t want;
            uint64_t wmask, nk = 0, mask = 0;
            sum_rule(x, u, y, v, &want, &wmask);
            const uint32_t *k = ns_gsg_set(z, i, &nk);
            for (uint64_t j = 0; j < nk; j++)
                mask |= (uint64_t)1 << k[j];
            kinds[(x->value[u] == INF) * 2 + (y->value[v] == INF)]++;
            if (z->value[i] != want || mask != wmask) {
                if (bad++ < 3)
                    fprintf(stderr, "sum: (%" PRIu64 ", %" PRIu64 "): %" PRIu32 "/%" PRIx64 ", the theorem %" PRIu32
                                    "/%" PRIx64 "\n",
                            u, v, z->value[i], mask, want, wmask);
            }
        }
    CHECKF(bad == 0, "sums: %d cells differ from the sum theorem", bad);
    CHECKF(kinds[0] && kinds[1] && kinds[2] && kinds[3], "sums: not every kind of pair (%d %d %d %d)", kinds[0],
           kinds[1], kinds[2], kinds[3]);
    ns_gsg_free(x);
    ns_gsg_free(y);
    ns_gsg_free(z);
    ns_game_free(s);
    ns_game_free(a);
    ns_game_free(b);
}

/* ---------- the memory estimate ---------- */

static int count_emit(void *u, const int64_t *o)
{
    (void)o;
    (*(uint64_t *)u)++;
    return 0;
}

/* every option of every position, as ns_gsg_solve lists them */
static uint64_t exact_options(const ns_game *g)
{
    uint64_t n = 1, sum = 0;
    for (int d = 0; d < g->k; d++)
        n *= (uint64_t)g->bounds[d];
    for (uint64_t i = 0; i < n; i++) {
        int64_t s[NS_MAX_DIM];
        uint64_t j = i;
        for (int d = g->k - 1; d >= 0; d--) {
            s[d] = (int64_t)(j % (uint64_t)g->bounds[d]);
            j /= (uint64_t)g->bounds[d];
        }
        ns_error err = {0};
        if (ns_game_is_position(g, s) && ns_game_foreach_option(g, s, count_emit, &sum, &err) < 0)
            return 0;
    }
    return sum;
}

/* ns_gsg_estimate: exact on boxes of at most NS_GSG_SAMPLE cells, within a
 * factor of 2 of the exact count on larger ones (sampled), the bytes 36 a
 * cell + 8 an option; the same at every call */
static void test_estimate(void)
{
    const char *src = getenv("NS_SOURCE_DIR");
    static const char *files[] = {"data/rules/wythoff-loopy.rules", "tests/rules/loopy/take_grow.rules",
                                  "tests/rules/loopy/tokens.rules"};
    static const int64_t sizes[][2] = {{40, 50}, {64, 64}, {150, 90}, {300, 300}};
    for (size_t f = 0; src && f < sizeof files / sizeof *files; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", src, files[f]);
        char *text = slurp(path);
        CHECKF(text != NULL, "cannot read %s", path);
        for (size_t z = 0; text && z < sizeof sizes / sizeof *sizes; z++) {
            ns_game *g = compile(text, sizes[z][0], sizes[z][1]);
            CHECKF(g != NULL, "%s", files[f]);
            if (!g)
                continue;
            const uint64_t n = (uint64_t)(sizes[z][0] * sizes[z][1]), exact = exact_options(g);
            ns_error err = {0};
            uint64_t est = 0, est2 = 0;
            const uint64_t bytes = ns_gsg_estimate(g, &est, &err);
            CHECKF(bytes == n * 36 + est * 8, "%s %" PRIu64 " cells: %" PRIu64 " bytes for %" PRIu64 " options (%s)",
                   files[f], n, bytes, est, err.msg);
            CHECK(ns_gsg_estimate(g, &est2, &err) == bytes && est2 == est);
            if (n <= NS_GSG_SAMPLE)
                CHECKF(est == exact, "%s %" PRIu64 " cells: estimate %" PRIu64 ", exact %" PRIu64, files[f], n, est,
                       exact);
            else
                CHECKF(est <= 2 * exact && exact <= 2 * est, "%s %" PRIu64 " cells: estimate %" PRIu64 ", exact %" PRIu64,
                       files[f], n, est, exact);
            if (z == 3 && f == 0)
                fprintf(stderr, "estimate of %s at %" PRIu64 " cells: %" PRIu64 " options, exact %" PRIu64 " (%.3f)\n",
                        files[f], n, est, exact, (double)est / (double)exact);
            ns_game_free(g);
        }
        free(text);
    }
}

int main(void)
{
    test_estimate();
    test_pass();
    test_rule_files();
    test_random_rules();
    test_rank_games();
    test_sums();
    return TEST_REPORT();
}
