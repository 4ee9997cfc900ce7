/* test_moore_sets.c - subsets families (lower 1..k of the piles in P, each
 * by a positive amount: Moore's Nim_k) run as running sets by the general
 * engine.
 *
 * References, none of them the engine's running sets:
 *   naive   a solver written here: cells in row-major order (every option
 *           is coordinatewise below, so comes first), the options of s are
 *           listed literally as the cells s' of the box below s (s'_i <= s_i
 *           for i in P, s'_j = s_j elsewhere) with 1..k coordinates changed,
 *           plus, for the mixed game, "take any amount from pile 1"; value =
 *           mex (misere: 1 at a position without options);
 *   plain   the same moves as a plain general family (a callback of this
 *           file, no SUBSETS marker): the general engine's per-option path;
 *   Moore   Moore's theorem (normal play): P iff for every bit position the
 *           number of piles with that bit set is divisible by k + 1 (exact
 *           integer arithmetic).
 * Games: the moore preset for n = 2, 3, 4 piles and k = 1..n (Grundy and
 * P/N, normal and misere, 1, 2 and 3 threads; one box (80 x 70) with values above
 * 128, where the sets widen mid-run and are rebuilt from the table), a
 * subsets family over piles {0, 2} of three beside a ray on pile 1, and
 * Moore's Nim as a rule file (data/rules/moore.rules), which must compile
 * to a subsets family. A canary: a family whose callback lists no option
 * but carries the marker must get Moore's values, so the marker is what
 * the engine runs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_game.h"
#include "game/ns_params.h"
#include "game/ns_rules.h"
#include "game/ns_table.h"
#include "tsolve.h"
#include "testutil.h"

typedef struct tgame {
    int n;          /* piles */
    int k;          /* at most k piles lowered */
    uint64_t pat[4]; /* when not all 0: exactly the piles of T lowered, for
                        each T with bit T set (a patterns family), k unused */
    uint32_t piles; /* the piles that may be lowered */
    int nim1;       /* also "take any amount from pile 1" */
    int64_t b[NS_MAX_DIM];
} tgame;

static uint64_t cells_of(const tgame *tg)
{
    uint64_t n = 1;
    for (int i = 0; i < tg->n; i++)
        n *= (uint64_t)tg->b[i];
    return n;
}

static uint64_t index_of(const tgame *tg, const int64_t *s)
{
    uint64_t id = 0;
    for (int i = 0; i < tg->n; i++)
        id = id * (uint64_t)tg->b[i] + (uint64_t)s[i];
    return id;
}

static int has_pat(const tgame *tg)
{
    return (tg->pat[0] | tg->pat[1] | tg->pat[2] | tg->pat[3]) != 0;
}

static void coords_of(const tgame *tg, uint64_t id, int64_t *s)
{
    for (int i = tg->n - 1; i >= 0; i--) {
        s[i] = (int64_t)(id % (uint64_t)tg->b[i]);
        id /= (uint64_t)tg->b[i];
    }
}

/* Calls fn(user, s') for every option s' of s, listed literally. */
static void each_option(const tgame *tg, const int64_t *s, void (*fn)(void *, const int64_t *), void *user)
{
    int64_t o[NS_MAX_DIM];
    memcpy(o, s, (size_t)tg->n * sizeof *o);
    for (int i = 0; i < tg->n; i++)
        if (tg->piles >> i & 1)
            o[i] = 0;
    for (;;) {
        int changed = 0;
        uint32_t T = 0;
        for (int i = 0; i < tg->n; i++) {
            changed += o[i] != s[i];
            T |= (uint32_t)(o[i] != s[i]) << i;
        }
        if (has_pat(tg) ? T && (tg->pat[T >> 6] >> (T & 63) & 1) : changed >= 1 && changed <= tg->k)
            fn(user, o);
        int i = tg->n - 1;
        while (i >= 0 && (!(tg->piles >> i & 1) || o[i] == s[i])) {
            if (tg->piles >> i & 1)
                o[i] = 0;
            i--;
        }
        if (i < 0)
            break;
        o[i]++;
    }
    if (tg->nim1) {
        memcpy(o, s, (size_t)tg->n * sizeof *o);
        for (o[1] = 0; o[1] < s[1]; o[1]++)
            fn(user, o);
    }
}

typedef struct mexer {
    const tgame *tg;
    const uint32_t *g;
    uint8_t *seen;
    int any;
} mexer;

static void mark(void *u, const int64_t *o)
{
    mexer *m = u;
    m->seen[m->g[index_of(m->tg, o)]] = 1;
    m->any = 1;
}

/* The naive table (values, row-major), malloc'd. */
static uint32_t *naive(const tgame *tg, int misere)
{
    const uint64_t n = cells_of(tg);
    uint32_t *g = calloc(n, sizeof *g);
    uint8_t *seen = calloc(n + 2, 1);
    if (!g || !seen) {
        free(g);
        free(seen);
        return NULL;
    }
    mexer m = {tg, g, seen, 0};
    for (uint64_t id = 0; id < n; id++) {
        int64_t s[NS_MAX_DIM];
        coords_of(tg, id, s);
        memset(seen, 0, n + 2);
        m.any = 0;
        each_option(tg, s, mark, &m);
        uint32_t v = 0;
        while (seen[v])
            v++;
        g[id] = misere && !m.any ? 1 : v;
    }
    free(seen);
    return g;
}

/* ---------- the plain path: the same moves, a callback family ---------- */

typedef struct emitter {
    ns_emit_fn emit;
    void *user;
    int rc;
} emitter;

static void forward(void *u, const int64_t *o)
{
    emitter *e = u;
    if (!e->rc)
        e->rc = e->emit(e->user, o);
}

static int plain_options(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)err;
    emitter e = {emit, user, 0};
    each_option(ctx, s, forward, &e);
    return e.rc;
}

static int no_options(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)s;
    (void)emit;
    (void)user;
    (void)err;
    return 0;
}

/* ---------- comparisons ---------- */

/* Does table t hold the reference ref (values; P/N: 0 / 1) on every cell? */
static uint64_t mismatches(const tgame *tg, const ns_table *t, const uint32_t *ref, int pn_only)
{
    uint64_t bad = 0;
    for (uint64_t id = 0; id < cells_of(tg); id++) {
        int64_t s[NS_MAX_DIM];
        coords_of(tg, id, s);
        uint32_t want = pn_only ? ref[id] != 0 : ref[id];
        uint32_t got = ns_table_get(t, ns_table_index(t, s));
        if (got != want && bad++ < 3) {
            char buf[128];
            ns_format_pos(tg->n, s, buf, sizeof buf);
            fprintf(stderr, "  at %s: %" PRIu32 ", want %" PRIu32 "\n", buf, got, want);
        }
    }
    return bad;
}

/* Moore's theorem: P iff every bit column sums to 0 mod k + 1. */
static int moore_p(const tgame *tg, const int64_t *s)
{
    for (int bit = 0; bit < 62; bit++) {
        int c = 0;
        for (int i = 0; i < tg->n; i++)
            c += (int)(s[i] >> bit & 1);
        if (c % (tg->k + 1))
            return 0;
    }
    return 1;
}

static ns_game *plain_game(const tgame *tg, int marker_only)
{
    ns_error err;
    ns_error_clear(&err);
    ns_game *g = ns_game_new(marker_only ? "canary" : "plain", tg->n);
    if (!g || ns_game_add_general(g, "moves", marker_only ? no_options : plain_options, NULL, tg, &err)) {
        ns_game_free(g);
        return NULL;
    }
    if (marker_only) {
        g->fam[0].sub_k = has_pat(tg) ? 0 : tg->k;
        g->fam[0].sub_piles = tg->piles;
        memcpy(g->fam[0].sub_pat, tg->pat, sizeof tg->pat);
    }
    return g;
}

/* The preset (or a game built from tg) against naive and plain. */
static void check_game(const tgame *tg, ns_game *fast, const char *what)
{
    ns_game *plain = plain_game(tg, 0);
    CHECK(plain != NULL);
    int marked = 0;
    for (int f = 0; f < fast->nfam; f++)
        marked |= has_pat(tg) ? ns_family_has_patterns(&fast->fam[f]) && !memcmp(fast->fam[f].sub_pat, tg->pat,
                                                                                  sizeof tg->pat)
                              : fast->fam[f].sub_k > 0;
    CHECKF(marked, "%s: no family carries the %s marker", what, has_pat(tg) ? "patterns (with these sets)" : "subsets");
    for (int misere = 0; misere <= 1; misere++) {
        uint32_t *ref = naive(tg, misere);
        CHECK(ref != NULL);
        if (!ref)
            continue;
        if (!misere && !tg->nim1 && !has_pat(tg) && tg->piles == (1u << tg->n) - 1) {
            uint64_t bad = 0;
            for (uint64_t id = 0; id < cells_of(tg); id++) {
                int64_t s[NS_MAX_DIM];
                coords_of(tg, id, s);
                bad += (ref[id] == 0) != moore_p(tg, s);
            }
            CHECKF(bad == 0, "%s: the naive solver disagrees with Moore's theorem on %" PRIu64 " cells", what, bad);
        }
        for (int pn = 0; pn <= 1; pn++) {
            ns_error err;
            ns_error_clear(&err);
            ns_table *tp = plain ? ns_tsolve_built(plain, tg->b, misere, pn, 2, &err) : NULL;
            CHECKF(tp != NULL, "%s: plain solve: %s", what, err.msg);
            if (tp)
                CHECKF(mismatches(tg, tp, ref, pn) == 0, "%s plain %s %s", what, misere ? "misere" : "normal",
                       pn ? "P/N" : "Grundy");
            for (int th = 1; th <= 3; th++) {
                ns_error_clear(&err);
                ns_table *t = ns_tsolve_built(fast, tg->b, misere, pn, th, &err);
                CHECKF(t != NULL, "%s: %s", what, err.msg);
                if (!t)
                    continue;
                CHECKF(mismatches(tg, t, ref, pn) == 0, "%s %s %s, %d threads", what,
                       misere ? "misere" : "normal", pn ? "P/N" : "Grundy", th);
                if (tp) {
                    uint64_t bad = 0;
                    for (uint64_t i = 0; i < t->ncells; i++)
                        bad += ns_table_get(t, i) != ns_table_get(tp, i);
                    CHECKF(bad == 0, "%s: %" PRIu64 " cells differ from the plain path's table", what, bad);
                }
                ns_table_free(t);
            }
            ns_table_free(tp);
        }
        free(ref);
    }
    ns_game_free(plain);
}

static void check_preset(int n, int k, const int64_t *b)
{
    tgame tg = {.n = n, .k = k, .piles = (1u << n) - 1};
    memcpy(tg.b, b, (size_t)n * sizeof *b);
    char what[96], params[64];
    snprintf(params, sizeof params, "piles=%d;k=%d", n, k);
    snprintf(what, sizeof what, "moore %s", params);
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game("moore", params, n, b, 0, 0, 1, &g);
    CHECKF(t && g, "%s: solve failed", what);
    if (t && g)
        check_game(&tg, g, what);
    ns_table_free(t);
    ns_game_free(g);
}

/* Piles {0, 2} of three, at most one lowered, beside Nim on pile 1. */
static void check_mixed(void)
{
    tgame tg = {.n = 3, .k = 1, .piles = 5, .nim1 = 1, .b = {9, 7, 8}};
    ns_error err;
    ns_error_clear(&err);
    ns_game *g = ns_game_new("mixed", 3);
    const int64_t d[3] = {0, -1, 0};
    CHECK(g && !ns_game_add_subsets(g, "lower pile 0 or 2", 5, 1, &err) && !ns_game_add_ray(g, "nim 1", d, NULL, &err));
    if (g)
        check_game(&tg, g, "subsets {0,2} k=1 + nim on pile 1");
    ns_game_free(g);
}

/* The marker, not the callback, is what the engine runs: a family whose
 * callback lists no option but carries tg's marker (subsets, or patterns
 * when tg has them) must get the naive values. */
static void check_canary(const tgame *tg, const char *what)
{
    ns_game *g = plain_game(tg, 1);
    uint32_t *ref = naive(tg, 0);
    CHECK(g && ref);
    ns_error err;
    ns_error_clear(&err);
    ns_table *t = g && ref ? ns_tsolve_built(g, tg->b, 0, 0, 2, &err) : NULL;
    CHECKF(t != NULL, "%s: %s", what, err.msg);
    if (t)
        CHECKF(mismatches(tg, t, ref, 0) == 0, "%s: the engine did not run the marked family as running sets", what);
    ns_table_free(t);
    free(ref);
    ns_game_free(g);
}

/* Rule files whose family lowers exactly the piles of one of a list of
 * sets (not every set of 1..k piles): the general engine's strict boxes,
 * against the naive solver and the plain path. */
static void check_patterns(void)
{
    static const struct {
        const char *text;
        int n;
        uint32_t piles;
        uint64_t pat;  /* bit T: the set of piles T */
        int nim1;
        int64_t b[3];
    } cases[] = {
        /* lower both piles (values above 128: the sets widen) */
        {"game both\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 1..x, b in 1..y\n", 2, 3, 1u << 3, 0,
         {131, 130}},
        {"game both\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where a > 0 and b > 0\n", 2, 3,
         1u << 3, 0, {23, 19}},
        /* exactly two of three piles */
        {"game two\npiles p[1..3]\nmove p -> (p[i] - t[i] for i in 1..3) for (t[i] in 0..p[i] for i in 1..3) "
         "where count(t[i] > 0 for i in 1..3) == 2\n",
         3, 7, 1u << 3 | 1u << 5 | 1u << 6, 0, {11, 13, 12}},
        /* one pile or all three */
        {"game odd\npiles p[1..3]\nmove p -> (p[i] - t[i] for i in 1..3) for (t[i] in 0..p[i] for i in 1..3) "
         "where count(t[i] > 0 for i in 1..3) != 2 and count(t[i] > 0 for i in 1..3) >= 1\n",
         3, 7, 1u << 1 | 1u << 2 | 1u << 4 | 1u << 7, 0, {10, 9, 11}},
        /* x always, z too if wished (sets {x} and {x, z}), beside Nim on y */
        {"game xz\npiles x, y, z\nmove (x, y, z) -> (x - a, y, z - b) for a in 1..x, b in 0..z\n"
         "move (x, y, z) -> (x, y - t, z) for t in 1..y\n",
         3, 5, 1u << 1 | 1u << 5, 1, {9, 7, 8}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tgame tg = {.n = cases[c].n, .piles = cases[c].piles, .pat = {cases[c].pat}, .nim1 = cases[c].nim1};
        memcpy(tg.b, cases[c].b, sizeof cases[c].b);
        ns_game *g = NULL;
        ns_table *t = ns_tsolve_rules(cases[c].text, tg.n, tg.b, 0, 0, 1, &g);
        char what[64];
        snprintf(what, sizeof what, "patterns rule file %zu", c);
        CHECKF(t && g, "%s did not compile or solve", what);
        if (t && g)
            check_game(&tg, g, what);
        ns_table_free(t);
        ns_game_free(g);
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* Rule files of Moore's Nim: data/rules/moore.rules with -D n, k, and the
 * two-pile "lower either or both" written from the definition. */
static void check_rules(void)
{
    const char *src = getenv("NS_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/rules/moore.rules", src ? src : ".");
    char *text = read_text(path);
    CHECKF(text != NULL, "cannot read %s (NS_SOURCE_DIR: the source tree)", path);
    static const struct { int n, k; int64_t b[4]; } cases[] = {
        {3, 2, {9, 10, 8}}, {3, 1, {7, 8, 6}}, {3, 3, {6, 7, 5}}, {4, 2, {5, 6, 4, 5}},
    };
    for (size_t c = 0; text && c < sizeof cases / sizeof cases[0]; c++) {
        tgame tg = {.n = cases[c].n, .k = cases[c].k, .piles = (1u << cases[c].n) - 1};
        memcpy(tg.b, cases[c].b, sizeof cases[c].b);
        ns_params ps;
        ns_error err;
        ns_error_clear(&err);
        memset(&ps, 0, sizeof ps);
        char kv[2][32];
        snprintf(kv[0], sizeof kv[0], "n=%d", tg.n);
        snprintf(kv[1], sizeof kv[1], "k=%d", tg.k);
        ns_game *g = NULL;
        int ok = !ns_params_parse(&ps, kv[0], &err) && !ns_params_parse(&ps, kv[1], &err) &&
                 !ns_rules_compile(text, "moore.rules", &ps, tg.n, &g, &err);
        CHECKF(ok && g, "moore.rules n=%d k=%d: %s", tg.n, tg.k, err.msg);
        char what[64];
        snprintf(what, sizeof what, "moore.rules n=%d k=%d", tg.n, tg.k);
        if (ok && g)
            check_game(&tg, g, what);
        ns_game_free(g);
    }
    free(text);
    /* written from the definition; the second with rank weights (2, 1),
     * where the engine cannot run the sets and enumerates the options */
    static const char *two[] = {
        "game both\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where a + b > 0\n",
        "game both\npiles x, y\nrank 2*x + y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where a + b > 0\n",
        "game both\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where a != 0 or b >= 1\n",
        "game both\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where 3*a + b >= 1\n",
    };
    /* not subsets families: another pattern set, a threshold that is not
     * "positive", a condition reading a pile */
    static const char *not_sub[] = {
        "game g\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where a + b > 1\n",
        "game g\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where a + b > 0 and a < 5\n",
        "game g\npiles x, y\nmove (x, y) -> (x - a, y - b) for a in 0..x, b in 0..y where a + b > 0 and x > 2\n",
        "game g\npiles x, y\nmove (x, y) -> (x - a, y - 2*b) for a in 0..x, b in 0..y/2 where a + b > 0\n",
    };
    for (size_t c = 0; c < sizeof not_sub / sizeof not_sub[0]; c++) {
        ns_game *g = NULL;
        ns_error err;
        ns_error_clear(&err);
        ns_params ps;
        memset(&ps, 0, sizeof ps);
        CHECKF(!ns_rules_compile(not_sub[c], "g.rules", &ps, 2, &g, &err) && g, "not_sub %zu: %s", c, err.msg);
        for (int f = 0; g && f < g->nfam; f++)
            CHECKF(g->fam[f].sub_k == 0 && !ns_family_has_patterns(&g->fam[f]), "not_sub %zu: marked as a subsets family", c);
        ns_game_free(g);
    }
    for (size_t c = 0; c < sizeof two / sizeof two[0]; c++) {
        tgame tg = {.n = 2, .k = 2, .piles = 3, .b = {12, 11}};
        ns_game *g = NULL;
        ns_table *t = ns_tsolve_rules(two[c], 2, tg.b, 0, 0, 1, &g);
        CHECKF(t && g, "two-pile rule file %zu did not compile or solve", c);
        if (t && g)
            check_game(&tg, g, "two-pile rule file");
        ns_table_free(t);
        ns_game_free(g);
    }
}

int main(void)
{
    static const int64_t b2[] = {80, 70}, b2s[] = {23, 19};  /* 80 x 70: values to 148 */
    static const int64_t b3[] = {11, 13, 12}, b4[] = {6, 7, 5, 6};
    check_preset(2, 1, b2s);
    check_preset(2, 2, b2);
    for (int k = 1; k <= 3; k++)
        check_preset(3, k, b3);
    for (int k = 1; k <= 4; k++)
        check_preset(4, k, b4);
    check_mixed();
    const tgame canary = {.n = 3, .k = 2, .piles = 7, .b = {8, 6, 7}};
    check_canary(&canary, "canary");
    /* exactly two of three piles */
    const tgame canary_pat = {.n = 3, .piles = 7, .pat = {1u << 3 | 1u << 5 | 1u << 6}, .b = {9, 8, 10}};
    check_canary(&canary_pat, "patterns canary");
    check_rules();
    check_patterns();
    return TEST_REPORT();
}
