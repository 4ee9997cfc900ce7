/* test_retro.c - loopy games (issue 18): the retro engine against a naive
 * fixed-point solver written here, closed forms of small games solved by
 * hand, the definitions of outcome and remoteness checked cell by cell,
 * identical tables at 1, 2 and 3 threads, the current engines' P/N tables
 * for games whose moves lower the rank, and the compiler's verdicts
 * (loopy and why, 'outside forbid', moves leaving the box refused).
 *
 * The naive solver knows nothing of the engine: it lists each position's
 * options once (ns_game_foreach_option, the reference enumeration), then
 * decides positions in rounds: in round 0 those without options (normal
 * play P, misere N, remoteness 0); in round r + 1, from the decisions of
 * rounds <= r only, a position with a P option is N (remoteness 1 + the
 * least remoteness of its P options) and one whose options are all N is P
 * (1 + the largest). It stops when a round decides nothing; the rest are
 * draws. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/ns_engine.h"
#include "store/ns_filecheck.h"
#include "store/ns_h5.h"
#include "game/ns_rules.h"
#include "game/ns_shipped_rules.h"
#include "game/ns_table.h"
#include "game_graph.h"
#include "testutil.h"

enum { P = NS_PN_P, N = NS_PN_N, D = NS_PN_DRAW, X = 0xFF };
#define NONE NS_REMOTE_NONE

/* ---------- the naive solver ---------- */

/* pn[i] in {P, N, D, X}, rem[i] (NONE for D and X) */
static int naive(const ns_game *g, uint8_t *pn, uint32_t *rem)
{
    ns_test_graph a;
    if (ns_test_graph_build(g, &a))
        return -1;
    const uint64_t n = a.n;
    for (uint64_t i = 0; i < n; i++) {
        pn[i] = a.pos[i] ? D : X; /* D: undecided */
        rem[i] = NONE;
    }
    uint8_t *next = malloc(n);
    uint32_t *nrem = malloc(n * sizeof *nrem);
    for (uint32_t r = 0;; r++) {
        int changed = 0;
        memcpy(next, pn, n);
        memcpy(nrem, rem, n * sizeof *rem);
        for (uint64_t i = 0; i < n; i++) {
            if (pn[i] != D)
                continue;
            if (a.off[i] == a.off[i + 1]) {
                if (r == 0) {
                    next[i] = g->play == NS_PLAY_MISERE ? N : P;
                    nrem[i] = 0;
                    changed = 1;
                }
                continue;
            }
            uint32_t pmin = NONE, nmax = 0;
            int alln = 1;
            for (uint64_t j = a.off[i]; j < a.off[i + 1]; j++) {
                const uint64_t q = a.to[j];
                if (pn[q] == P && rem[q] < pmin)
                    pmin = rem[q];
                if (pn[q] != N)
                    alln = 0;
                else if (rem[q] > nmax)
                    nmax = rem[q];
            }
            if (pmin != NONE) {
                next[i] = N;
                nrem[i] = pmin + 1;
                changed = 1;
            } else if (alln) {
                next[i] = P;
                nrem[i] = nmax + 1;
                changed = 1;
            }
        }
        memcpy(pn, next, n);
        memcpy(rem, nrem, n * sizeof *rem);
        if (!changed && r > 0)
            break;
    }
    free(next);
    free(nrem);
    ns_test_graph_free(&a);
    return 0;
}

/* ---------- the definitions, cell by cell ---------- */

typedef struct defs {
    const ns_table *t;
    const uint32_t *rem;
    int np, nn, nd;
    uint32_t pmin, nmax;
} defs;

static int defs_emit(void *u, const int64_t *o)
{
    defs *d = u;
    const uint64_t q = ns_table_index(d->t, o);
    const int v = ns_table_pn(d->t, q);
    d->np += v == P;
    d->nn += v == N;
    d->nd += v == D;
    if (v == P && d->rem[q] < d->pmin)
        d->pmin = d->rem[q];
    if (v == N && d->rem[q] > d->nmax)
        d->nmax = d->rem[q];
    return 0;
}

/* Every cell of t (and rem) satisfies the definitions: a position without
 * options is P (normal) or N (misere), remoteness 0; N: some option P,
 * remoteness 1 + the least of the P options'; P: every option N,
 * remoteness 1 + the largest; D: no option P, some option D. */
static int check_defs(const ns_game *g, const ns_table *t, const uint32_t *rem, const char *name)
{
    int bad = 0;
    for (uint64_t i = 0; i < t->ncells && bad < 3; i++) {
        int64_t s[NS_MAX_DIM];
        ns_table_coords(t, i, s);
        const int v = ns_table_pn(t, i);
        if (!ns_game_is_position(g, s)) {
            bad += v != NS_PN_INVALID;
            continue;
        }
        defs d = {t, rem, 0, 0, 0, NONE, 0};
        ns_error err = {0};
        if (ns_game_foreach_option(g, s, defs_emit, &d, &err) < 0)
            return 1;
        const int none = d.np + d.nn + d.nd == 0;
        int ok;
        if (none)
            ok = v == (g->play == NS_PLAY_MISERE ? N : P) && rem[i] == 0;
        else if (v == N)
            ok = d.np > 0 && rem[i] == d.pmin + 1;
        else if (v == P)
            ok = d.np == 0 && d.nd == 0 && rem[i] == d.nmax + 1;
        else
            ok = v == D && d.np == 0 && d.nd > 0 && rem[i] == NONE;
        if (!ok) {
            char pos[160];
            ns_format_pos(g->k, s, pos, sizeof pos);
            fprintf(stderr, "%s: %s is %d (remoteness %" PRIu32 ") against the definitions (options: %d P, %d N, %d D)\n",
                    name, pos, v, rem[i], d.np, d.nn, d.nd);
            bad++;
        }
    }
    return bad;
}

/* ---------- the engine ---------- */

static ns_table *retro(const ns_game *g, int threads, uint32_t **rem, ns_error *err)
{
    ns_table *t = ns_engine_table_new(g, 1, err);
    if (!t)
        return NULL;
    *rem = malloc(t->ncells * sizeof **rem);
    ns_engine_opts o = {.threads = threads, .pn_only = 1, .remoteness = *rem};
    if (ns_engine_run_with(ns_engine_find("retro"), g, t, &o, err)) {
        ns_table_free(t);
        free(*rem);
        *rem = NULL;
        return NULL;
    }
    return t;
}

/* retro at 1, 2, 3 threads = the naive solver, and the definitions hold;
 * returns the number of draws */
static int64_t check_game(const ns_game *g, const char *name)
{
    ns_error err = {0};
    const uint64_t n = ns_game_cells(g);
    uint8_t *pn = malloc(n);
    uint32_t *rem = malloc(n * sizeof *rem);
    int64_t draws = -1;
    CHECKF(naive(g, pn, rem) == 0, "%s: the naive solver failed", name);
    for (int th = 1; th <= 3; th++) {
        uint32_t *r = NULL;
        ns_table *t = retro(g, th, &r, &err);
        CHECKF(t != NULL, "%s, %d threads: %s", name, th, err.msg);
        if (!t)
            continue;
        uint64_t diff = 0, first = n;
        int64_t nd = 0;
        for (uint64_t i = 0; i < n; i++) {
            const uint32_t v = ns_table_get(t, i);
            const uint32_t want = pn[i] == X ? ns_table_invalid(t) : pn[i];
            nd += v == D;
            if (v != want || r[i] != rem[i]) {
                diff++;
                if (first == n)
                    first = i;
            }
        }
        if (diff) {
            int64_t s[NS_MAX_DIM];
            char pos[160];
            ns_table_coords(t, first, s);
            ns_format_pos(g->k, s, pos, sizeof pos);
            CHECKF(0, "%s, %d threads: %" PRIu64 " cells differ from the naive solver, first %s: %" PRIu32 "/%" PRIu32
                   " against %u/%" PRIu32, name, th, diff, pos, ns_table_get(t, first), r[first], pn[first], rem[first]);
        } else {
            CHECK(1);
        }
        CHECKF(check_defs(g, t, r, name) == 0, "%s, %d threads: definitions", name, th);
        draws = nd;
        ns_table_free(t);
        free(r);
    }
    free(pn);
    free(rem);
    return draws;
}

/* ---------- games built here ---------- */

/* one pile: n -> n - 1 or pass (n -> n), both from n >= 1 only */
static int sub1_or_pass(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx, (void)err;
    int64_t o[1] = {s[0] - 1};
    int rc = s[0] >= 1 ? emit(user, o) : 0;
    return rc ? rc : s[0] >= 1 ? emit(user, s) : 0;
}

static ns_game *game1(int64_t size, int misere)
{
    ns_error err = {0};
    ns_game *g = ns_game_new("test", 1);
    g->loopy = 1;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    const int64_t b[1] = {size};
    if (ns_game_add_general(g, "take one or pass", sub1_or_pass, NULL, NULL, &err) || ns_game_set_bounds(g, b, &err)) {
        fprintf(stderr, "game1: %s\n", err.msg);
        ns_game_free(g);
        return NULL;
    }
    return g;
}

/* take one or pass (n -> n), from n >= 1: 0 is P (remoteness 0), 1 is N (1: move
 * to 0), and from n >= 2 the move to n - 1 hands the opponent a win (n = 2)
 * or a draw, while passing goes on for ever: draws. Misere: 0 is N (no
 * move: the player to move wins), and from 1 the move to 0 hands the
 * opponent that win, so 1 and up are draws. */
static void test_pass(void)
{
    for (int mis = 0; mis <= 1; mis++) {
        ns_game *g = game1(12, mis);
        CHECK(g != NULL);
        if (!g)
            continue;
        ns_error err = {0};
        uint32_t *r = NULL;
        ns_table *t = retro(g, 2, &r, &err);
        CHECKF(t != NULL, "%s", err.msg);
        for (uint64_t i = 0; t && i < 12; i++) {
            const uint32_t want = mis ? (i == 0 ? N : D) : (i == 0 ? P : i == 1 ? N : D);
            const uint32_t wrem = mis ? (i == 0 ? 0 : NONE) : (i <= 1 ? (uint32_t)i : NONE);
            CHECKF(ns_table_get(t, i) == want && r[i] == wrem, "pass %s: %" PRIu64 " is %" PRIu32 "/%" PRIu32,
                   mis ? "misere" : "normal", i, ns_table_get(t, i), r[i]);
        }
        check_game(g, mis ? "pass misere" : "pass");
        ns_table_free(t);
        free(r);
        ns_game_free(g);
    }
}

/* one token from x to y or from y to x: the sum stays, so only (0, 0) and
 * (N-1, N-1) end the game (P, remoteness 0); every other position moves
 * along its anti-diagonal for ever: a draw */
static void test_tokens(void)
{
    static const int64_t off[4] = {-1, 1, 1, -1};
    ns_error err = {0};
    ns_game *g = ns_game_new("tokens", 2);
    g->loopy = 1;
    const int64_t b[2] = {9, 9};
    CHECK(ns_game_add_finite(g, "tokens", off, 2, &err) == 0 && ns_game_set_bounds(g, b, &err) == 0);
    uint32_t *r = NULL;
    ns_table *t = retro(g, 3, &r, &err);
    CHECKF(t != NULL, "%s", err.msg);
    for (uint64_t i = 0; t && i < t->ncells; i++) {
        const int end = i == 0 || i == t->ncells - 1;
        CHECKF(ns_table_get(t, i) == (end ? P : D) && r[i] == (end ? 0 : NONE), "tokens: cell %" PRIu64 " is %" PRIu32, i,
               ns_table_get(t, i));
    }
    CHECK(check_game(g, "tokens") == 81 - 2);
    ns_table_free(t);
    free(r);
    ns_game_free(g);
}

/* a general family (swap the piles when x > y, or halve x onto y) */
static int swap_opts(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)err;
    const int64_t *b = ctx;
    int64_t o[2];
    if (s[0] > s[1] && s[0] < b[1] && s[1] < b[0]) {
        o[0] = s[1];
        o[1] = s[0];
        int rc = emit(user, o);
        if (rc)
            return rc;
    }
    if (s[0] >= 2 && s[1] + s[0] / 2 < b[1]) {
        o[0] = s[0] - s[0] / 2 - 1;
        o[1] = s[1] + s[0] / 2;
        return emit(user, o);
    }
    return 0;
}

static int valid_mod7(const void *ctx, int k, const int64_t *s)
{
    (void)ctx, (void)k;
    return (s[0] + 2 * s[1]) % 7 != 3;
}

static int64_t rnd(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(ns_test_rng() % (uint64_t)(hi - lo + 1));
}

/* random games of rays, finite offsets and a general family, some with a
 * domain, normal and misere */
static void test_random_api(void)
{
    int64_t draws = 0;
    for (int it = 0; it < 24; it++) {
        ns_error err = {0};
        const int k = it % 4 == 3 ? 3 : 2;
        ns_game *g = ns_game_new("random", k);
        g->loopy = 1;
        g->play = it % 3 == 2 ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
        int64_t *b = calloc(NS_MAX_DIM, sizeof *b);
        for (int i = 0; i < k; i++)
            b[i] = k == 2 ? rnd(20, 40) : rnd(6, 12);
        if (k == 2)
            b[1] = b[0]; /* the general family swaps */
        ns_game_own(g, b, free, &err);
        const int nray = (int)rnd(0, 2), noff = (int)rnd(1, 3);
        for (int r = 0; r < nray; r++) {
            int64_t d[NS_MAX_DIM], e[NS_MAX_DIM];
            int nz = 0;
            for (int i = 0; i < k; i++) {
                d[i] = rnd(-2, 1);
                nz |= d[i] != 0;
                e[i] = d[i] + (ns_test_rng() % 3 == 0 ? rnd(-1, 1) : 0);
            }
            if (!nz)
                d[0] = -1;
            CHECK(ns_game_add_ray(g, "ray", d, e, &err) == 0);
        }
        int64_t off[3 * NS_MAX_DIM];
        for (int j = 0; j < noff * k; j++)
            off[j] = rnd(-3, 3);
        CHECK(ns_game_add_finite(g, "offsets", off, (size_t)noff, &err) == 0);
        /* a domain (rays and offsets skip the cells outside it), or a
         * general family (its options might leave the domain) */
        if (k == 2 && it % 5 == 1)
            g->valid = valid_mod7;
        else if (k == 2 && it % 2 == 0)
            CHECK(ns_game_add_general(g, "swap or halve", swap_opts, NULL, b, &err) == 0);
        int64_t bounds[NS_MAX_DIM];
        memcpy(bounds, b, (size_t)k * sizeof *b);
        CHECKF(ns_game_set_bounds(g, bounds, &err) == 0, "%s", err.msg);
        char name[32];
        snprintf(name, sizeof name, "random game %d", it);
        int64_t nd = check_game(g, name);
        draws += nd > 0 ? nd : 0;
        ns_game_free(g);
    }
    CHECKF(draws > 0, "the random games have no draws at all");
}

/* ---------- rule files ---------- */

static ns_game *compile(const char *text, ns_error *err)
{
    ns_game *g = NULL;
    if (ns_rules_compile(text, "t.rules", NULL, 0, &g, err))
        return NULL;
    return g;
}

static int set_box(ns_game *g, int64_t n0, int64_t n1, ns_error *err)
{
    const int64_t b[NS_MAX_DIM] = {n0, n1, n0, n0, n0, n0, n0, n0};
    return ns_game_set_bounds(g, b, err);
}


/* ---------- the per-line path (rays) ---------- */

/* the numbers of ray, finite and general families of g */
static void kinds(const ns_game *g, int *nray, int *nfin, int *ngen)
{
    *nray = *nfin = *ngen = 0;
    for (int f = 0; f < g->nfam; f++) {
        *nray += g->fam[f].kind == NS_FAM_RAY;
        *nfin += g->fam[f].kind == NS_FAM_FINITE;
        *ngen += g->fam[f].kind == NS_FAM_GENERAL || g->fam[f].kind == NS_FAM_PREFIX;
    }
}

static int valid_not_diag3(const void *ctx, int k, const int64_t *s)
{
    (void)ctx, (void)k;
    return (s[0] - s[1]) % 3 != 0 || s[0] < 4; /* holes on every third diagonal */
}

/* Games built from rays through the API, each against the naive solver
 * at 1, 2, 3 threads (check_game): loopy Wythoff (its rays share no
 * direction; the tokens make draws), two families of one direction with
 * different first options (a-Wythoff's diagonals share lines), rays whose
 * first option lies off the line s + t*d (e != d), steps of 2, rays that
 * go up as well as down, a domain with holes on the lines (the pointer
 * passes over non-positions), non-square and 3-pile boxes, misere play. */
static void test_lines_api(void)
{
    static const int64_t tok[4] = {1, -1, -1, 1};
    int64_t draws = 0;
    for (int it = 0; it < 16; it++) {
        ns_error err = {0};
        const int k = it % 8 == 7 ? 3 : 2;
        ns_game *g = ns_game_new("lines", k);
        g->loopy = 1;
        g->play = it % 2 ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
        int64_t d[NS_MAX_DIM] = {0}, e[NS_MAX_DIM] = {0};
        /* take from one pile (rays down the axes) */
        for (int i = 0; i < k; i++) {
            memset(d, 0, sizeof d);
            d[i] = -1;
            CHECK(ns_game_add_ray(g, "axis", d, d, &err) == 0);
        }
        const int v = it % 8;
        memset(d, 0, sizeof d);
        d[0] = d[1] = -1;
        if (v == 0 || v == 1 || v == 7) { /* the diagonal */
            CHECK(ns_game_add_ray(g, "diag", d, d, &err) == 0);
        } else if (v == 2 || v == 3) { /* 2-Wythoff: three diagonals of one direction */
            for (int j = -1; j <= 1; j++) {
                e[0] = -1 - (j > 0 ? j : 0), e[1] = -1 - (j < 0 ? -j : 0);
                CHECK(ns_game_add_ray(g, "diag", d, e, &err) == 0);
            }
        } else if (v == 4 || v == 5) { /* off the line, steps of 2, and up one pile */
            e[0] = -2, e[1] = 1;
            d[0] = -2, d[1] = -2;
            CHECK(ns_game_add_ray(g, "diag2", d, e, &err) == 0);
            int64_t u[NS_MAX_DIM] = {1, -2}, eu[NS_MAX_DIM] = {2, -1};
            CHECK(ns_game_add_ray(g, "up", u, eu, &err) == 0);
        } else { /* v == 6: a domain with holes */
            CHECK(ns_game_add_ray(g, "diag", d, d, &err) == 0);
            g->valid = valid_not_diag3;
        }
        if (k == 2)
            CHECK(ns_game_add_finite(g, "tokens", tok, 2, &err) == 0);
        else {
            static const int64_t tok3[6] = {1, -1, 0, 0, 1, -1};
            CHECK(ns_game_add_finite(g, "tokens", tok3, 2, &err) == 0);
        }
        const int64_t bounds[NS_MAX_DIM] = {k == 2 ? 31 + it : 9, k == 2 ? 47 - it : 11, 8};
        CHECKF(ns_game_set_bounds(g, bounds, &err) == 0, "%s", err.msg);
        int nr, nf, ngn;
        kinds(g, &nr, &nf, &ngn);
        CHECK(nr >= 3 && ngn == 0);
        char name[48];
        snprintf(name, sizeof name, "lines %d (%s)", it, g->play == NS_PLAY_MISERE ? "misere" : "normal");
        const int64_t nd = check_game(g, name);
        draws += nd > 0 ? nd : 0;
        ns_game_free(g);
    }
    CHECKF(draws > 0, "the games of lines have no draws at all");
}

/* Rule files: loopy Wythoff and variants with bounded rays (t in 1..3:
 * finite offsets), rays with a where-condition (general families), a
 * ray that may leave the box (a general family with many offsets: the
 * reverse index beside the lines), normal and misere, against the naive
 * solver. */
static void test_lines_rules(void)
{
    static const struct {
        const char *text;
        int rays; /* at least */
        int others; /* at least this many finite or general families */
    } files[] = {
        {"piles x y\noutside forbid\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n"
         "move (x, y) -> (x - t, y - t) for t in 1..min(x, y)\nmove (x, y) -> (x + 1, y - 1) where y >= 1\n"
         "move (x, y) -> (x - 1, y + 1) where x >= 1\n", 3, 2},
        {"piles x y\noutside forbid\nmove x -> x - t for t in 1..min(x, 3)\nmove y -> y - t for t in 1..y\n"
         "move (x, y) -> (x - t, y - t) for t in 1..min(x, y, 2)\nmove (x, y) -> (x + 1, y - 1) where y >= 1\n", 1, 2},
        {"piles x y\noutside forbid\nmove x -> x - t for t in 1..x where x - t != 3\nmove y -> y - t for t in 1..y\n"
         "move (x, y) -> (x - t, y - t) for t in 1..min(x, y) where t % 2 == 1\n"
         "move (x, y) -> (x - 1, y + 1) where x >= 1\nmove (x, y) -> (x + 2, y - 1) where y >= 1\n", 1, 2},
        {"piles x y\nplay misere\noutside forbid\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n"
         "move (x, y) -> (x - t, y - t) for t in 1..min(x, y)\nmove (x, y) -> (x + 1, y - 1) where y >= 1\n"
         "move (x, y) -> (x - 1, y + 1) where x >= 1\n", 3, 2},
        {"piles x y\nplay misere\noutside forbid\nmove x -> x - t for t in 1..x\n"
         "move (x, y) -> (x - t, y + t) for t in 1..x\nmove (x, y) -> (x + 2, y - 2) where y >= 2\n", 1, 2},
    };
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        ns_error err = {0};
        ns_game *g = compile(files[f].text, &err);
        CHECKF(g && g->loopy, "file %zu: %s", f, g ? "not loopy" : err.msg);
        if (!g || !g->loopy) {
            ns_game_free(g);
            continue;
        }
        CHECKF(set_box(g, 33, 29, &err) == 0, "%s", err.msg);
        int nr, nf, ngn;
        kinds(g, &nr, &nf, &ngn);
        CHECKF(nr >= files[f].rays && nf + ngn >= files[f].others, "file %zu: %d rays, %d finite, %d general", f, nr, nf,
               ngn);
        char name[32];
        snprintf(name, sizeof name, "rule file %zu", f);
        check_game(g, name);
        ns_game_free(g);
    }
}


/* random loopy rule files of 3 to 5 moves in boxes of 20..40 */
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
    };
    const int nmoves = (int)(sizeof moves / sizeof *moves);
    int loopy = 0;
    for (int it = 0; it < 20; it++) {
        char text[2048] = "piles x y\n";
        if (it % 4 == 3)
            strcat(text, "play misere\n");
        const int m = (int)rnd(3, 5);
        int used = 0;
        for (int j = 0; j < m; j++) {
            int c = (int)rnd(0, nmoves - 1);
            if (used & (1 << c))
                continue;
            used |= 1 << c;
            strcat(text, moves[c]);
        }
        ns_error err = {0};
        ns_game *g = compile(text, &err);
        CHECKF(g != NULL, "%s\n%s", err.msg, text);
        if (!g)
            continue;
        const int64_t n = rnd(20, 40);
        CHECKF(set_box(g, n, n, &err) == 0, "%s", err.msg);
        loopy += g->loopy;
        char name[32];
        snprintf(name, sizeof name, "random rules %d", it);
        check_game(g, name);
        ns_game_free(g);
    }
    CHECKF(loopy >= 5, "only %d of the random rule files are loopy", loopy);
}

/* games whose moves lower the rank: retro forced = the current engines */
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
        for (int mis = 0; mis <= 1; mis++) {
            ns_error err = {0};
            ns_game *g = compile(text, &err);
            CHECKF(g && !g->loopy, "%s: %s", files[f], err.msg);
            if (!g)
                continue;
            g->play = mis ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
            const int64_t n = g->k == 1 ? 300 : g->k == 2 ? 64 : 12;
            CHECKF(set_box(g, n, n, &err) == 0, "%s", err.msg);
            ns_table *ref = ns_engine_table_new(g, 1, &err);
            ns_engine_opts o = {.threads = 2, .pn_only = 1};
            CHECKF(ref && ns_engine_run(g, ref, &o, &err) == 0, "%s: %s", files[f], err.msg);
            uint32_t *r = NULL;
            ns_table *t = retro(g, 2, &r, &err);
            CHECKF(t && ref && ns_table_equal(t, ref), "%s %s: retro differs from the engine (%s)", files[f],
                   mis ? "misere" : "normal", err.msg);
            if (t)
                CHECKF(check_defs(g, t, r, files[f]) == 0, "%s: definitions", files[f]);
            ns_table_free(t);
            ns_table_free(ref);
            free(r);
            ns_game_free(g);
        }
    }
}

/* what the compiler says */
static void test_compiler(void)
{
    ns_error err = {0};
    /* a cycle through two finite moves: loopy, the line and an example move */
    ns_game *g = compile("piles x y\nmove (x, y) -> (x - 1, y + u) for u in 0..3 where x >= 1 and y + u < size(y)\n"
                         "move (x, y) -> (x + 1, y - 1) where y >= 1 and x + 1 < size(x)\n",
                         &err);
    CHECKF(g && g->loopy && strstr(g->loopy_why, "line 2: ") && strstr(g->loopy_why, "(1, 0) -> (0, 1)"), "%s",
           g ? g->loopy_why : err.msg);
    ns_game_free(g);
    /* a general family that keeps the rank: found by the probe */
    g = compile("piles x y\nmove x -> x - t for t in 1..x\nmove (x, y) -> (y, x)    where x == 3 and y == 1\n", &err);
    CHECKF(g && g->loopy && strstr(g->loopy_why, "line 3") && strstr(g->loopy_why, "(3, 1) -> (1, 3)"), "%s",
           g ? g->loopy_why : err.msg);
    ns_game_free(g);
    /* orders the compiler finds are not loopy */
    g = compile("piles x y\nmove (x, y) -> (x - 1, y + 1) where x >= 1 and y + 1 < size(y)\nmove y -> y - 1 where y >= 1\n",
                &err);
    CHECKF(g && !g->loopy, "%s", g ? g->loopy_why : err.msg);
    ns_game_free(g);
    /* a rank the file gives and a move breaks: still an error */
    g = compile("piles x y\nrank x + y\nmove (x, y) -> (x - t, y + t) for t in 1..x where y + t < size(y)\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:3:1: the move does not strictly decrease the rank x + y"), "%s", err.msg);
    ns_game_free(g);

    /* a loopy move leaving the box: refused with its line when solving ... */
    const char *leaves = "piles x y\nmove x -> x - t for t in 1..x\nmove (x, y) -> (x + 1, y)\n";
    g = compile(leaves, &err);
    CHECKF(g && g->loopy, "%s", err.msg);
    if (g) {
        CHECK(set_box(g, 6, 6, &err) == 0);
        uint32_t *r = NULL;
        ns_table *t = retro(g, 2, &r, &err);
        CHECKF(!t && strstr(err.msg, "t.rules:3:1: the move from (5, ") && strstr(err.msg, "outside the box"), "%s",
               err.msg);
        ns_table_free(t);
        free(r);
    }
    ns_game_free(g);
    /* ... and with 'outside forbid' it is the game with the box limit written out */
    char text[512];
    snprintf(text, sizeof text, "outside forbid\n%s", leaves);
    ns_game *a = compile(text, &err);
    CHECKF(a && a->loopy && a->outside_forbid, "%s", err.msg);
    ns_game *b = compile("piles x y\nmove x -> x - t for t in 1..x\nmove (x, y) -> (x + 1, y) where x + 1 < size(x)\n", &err);
    CHECKF(b && b->loopy, "%s", err.msg);
    if (a && b) {
        CHECK(set_box(a, 7, 5, &err) == 0 && set_box(b, 7, 5, &err) == 0);
        uint32_t *ra = NULL, *rb = NULL;
        ns_table *ta = retro(a, 2, &ra, &err), *tb = retro(b, 2, &rb, &err);
        CHECKF(ta && tb && ns_table_equal(ta, tb) && memcmp(ra, rb, ta->ncells * sizeof *ra) == 0, "outside forbid: %s",
               err.msg);
        /* every position has a move (x = 0 up, x >= 1 down): all draws */
        CHECK(check_game(a, "outside forbid") == 7 * 5);
        ns_table_free(ta);
        ns_table_free(tb);
        free(ra);
        free(rb);
    }
    ns_game_free(a);
    ns_game_free(b);
    /* 'outside' needs 'forbid' */
    g = compile("piles x\noutside allow\nmove x -> x - 1 where x >= 1\n", &err);
    CHECKF(!g && strstr(err.msg, "t.rules:2:9: found name 'allow': expected 'forbid'"), "%s", err.msg);
    ns_game_free(g);
}

/* the door: loopy games go to retro (P/N only), the others refuse them */
static void test_door(void)
{
    ns_error err = {0};
    ns_game *g = game1(10, 0);
    for (int pn = 0; g && pn <= 1; pn++) {
        ns_engine_opts o = {.pn_only = pn};
        ns_engine_choice c;
        ns_engine_choose(g, &o, &c);
        CHECKF(pn ? c.engine == ns_engine_find("retro") : c.engine == NULL, "loopy %s: chose %s", pn ? "P/N" : "Grundy",
               c.engine ? c.engine->name : "none");
        int said = c.nskipped > 0;
        for (int i = 0; i < c.nskipped; i++)
            said &= strstr(c.why[i], "loopy") != NULL;
        CHECK(said);
    }
    ns_table *t = g ? ns_engine_table_new(g, 1, &err) : NULL;
    ns_engine_opts o = {.pn_only = 1, .threads = 1};
    CHECK(t && ns_engine_run_with(ns_engine_find("general"), g, t, &o, &err) == NS_EINVAL && strstr(err.msg, "loopy"));
    ns_table_free(t);
    ns_game_free(g);
}

/* the number of cells whose stored outcome or remoteness the definitions
 * (ns_naive_loopy_cell, what `verify` runs) do not give */
static uint64_t loopy_mismatches(const ns_game *g, const ns_table *t, const uint32_t *rem)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < t->ncells; i++) {
        int64_t s[NS_MAX_DIM];
        uint32_t v, r;
        ns_error err = {0};
        ns_table_coords(t, i, s);
        if (ns_naive_loopy_cell(g, t, rem, s, &v, &r, &err))
            return UINT64_MAX;
        bad += v != ns_table_get(t, i) || r != rem[i];
    }
    return bad;
}

/* a loopy table written and read back: /pn codes 3, /remoteness, the
 * attributes, the file check; the definitions find corrupted cells */
static void test_store_and_verify(void)
{
    const char *text = NULL;
    for (int i = 0; ns_shipped_rules_texts[i].file; i++)
        if (strcmp(ns_shipped_rules_texts[i].file, "wythoff-loopy.rules") == 0)
            text = ns_shipped_rules_texts[i].text;
    ns_error err = {0};
    ns_game *g = text ? compile(text, &err) : NULL;
    CHECKF(g && g->loopy && set_box(g, 9, 9, &err) == 0, "%s", err.msg);
    if (!g)
        return;
    uint32_t *r = NULL;
    ns_table *t = retro(g, 2, &r, &err);
    CHECKF(t != NULL, "%s", err.msg);
    if (!t) {
        ns_game_free(g);
        return;
    }
    uint64_t nd = 0;
    for (uint64_t i = 0; i < t->ncells; i++)
        nd += ns_table_get(t, i) == D;
    /* the closed form of the file's comment: one P, 3(n - 1) N, the rest draws */
    CHECKF(nd == 81 - 1 - 24, "wythoff-loopy 9 x 9: %" PRIu64 " draws", nd);
    CHECK(loopy_mismatches(g, t, r) == 0);

    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/ns_test_retro_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/wl.h5", dir);
    ns_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "rules");
    m.rules_text = g->rules_text;
    m.pn_only = 1;
    m.complete = 1;
    m.loopy = 1;
    m.remoteness = r;
    CHECKF(ns_h5_write(path, t, &m, 0, &err) == 0, "%s", err.msg);
    ns_table *u = NULL;
    ns_meta m2;
    memset(&m2, 0, sizeof m2);
    CHECKF(ns_h5_read(path, &u, &m2, &err) == 0, "%s", err.msg);
    CHECK(u && ns_table_equal(t, u) && m2.loopy == 1 && m2.n_draws == nd && m2.max_value == 3);
    uint32_t *r2 = calloc(t->ncells, sizeof *r2);
    CHECKF(ns_h5_read_remoteness_all(path, t->ncells, r2, &err) == 0 && memcmp(r, r2, t->ncells * sizeof *r) == 0,
           "%s", err.msg);
    const int64_t cell[2] = {3, 0};
    uint32_t one = 0;
    CHECK(ns_h5_read_remoteness(path, 2, cell, &one, &err) == 0 && one == r[3 * 9 + 0] && one == 1);
    ns_filecheck fc;
    CHECKF(ns_filecheck_run(path, 2, &fc, &err) == 0 && fc.consistent && fc.n_draws == nd, "%s %s", err.msg, fc.why);

    /* a draw made P, a remoteness changed: the definitions disagree */
    ns_table_set(u, 1 * 9 + 2, P);
    CHECK(loopy_mismatches(g, u, r) > 0);
    ns_table_set(u, 1 * 9 + 2, D);
    CHECK(loopy_mismatches(g, u, r) == 0);
    r2[3 * 9 + 0] = 2;
    CHECK(loopy_mismatches(g, u, r2) > 0);
    free(r2);
    ns_table_free(u);
    ns_meta_free(&m2);
    unlink(path);
    rmdir(dir);
    ns_table_free(t);
    free(r);
    ns_game_free(g);
}

int main(void)
{
    test_pass();
    test_tokens();
    test_door();
    test_compiler();
    test_random_api();
    test_lines_api();
    test_lines_rules();
    test_random_rules();
    test_rank_games();
    test_store_and_verify();
    return TEST_REPORT();
}
