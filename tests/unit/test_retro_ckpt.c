/* test_retro_ckpt.c - checkpoints and resume of the retro engine (loopy
 * games, issue 18 item 6).
 *
 * For each game: a naive solver written here gives the outcome and the
 * remoteness of every cell. It decides positions in rounds straight from
 * the definitions: in round r an undecided position with no option is
 * decided when r = 0 (normal play P, misere N, remoteness 0); one with an
 * option decided P in an earlier round is N with remoteness 1 + the least
 * such option's; one whose options were all decided N in earlier rounds
 * is P with remoteness 1 + the largest. It stops at the first round that
 * decides nothing: the rest are draws. It knows nothing of frontiers,
 * counters or checkpoints.
 *
 * Then the engine: an uninterrupted run must equal the naive solver; its
 * checkpoint callback must be called between frontiers with units_done
 * 1, 2, ... and units_total = the number of positions (a bound on the
 * frontiers, never reached). For every stop point u (each boundary of the
 * small games), a run stopped there by its checkpoint callback, its table
 * and remoteness copied, is resumed from the copy with units_done u at
 * another thread count (1, 2, 3); the result must equal the naive
 * solver's. One stop point also goes through a checkpoint file
 * (ns_h5_ckpt_write, ns_h5_ckpt_read, ns_h5_ckpt_read_remoteness).
 * Copies that cannot be a state of the solve (a decided cell beyond the
 * frontier, an undecided one with a remoteness, a position marked as none)
 * are refused with NS_EFORMAT, naming the cell. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/ns_engine.h"
#include "game/ns_rules.h"
#include "game/ns_table.h"
#include "store/ns_h5.h"
#include "testutil.h"

enum { P = NS_PN_P, N = NS_PN_N, D = NS_PN_DRAW, X = 0xFF, U = 0xFE };
#define NONE NS_REMOTE_NONE

/* ---------- the naive solver ---------- */

typedef struct probe {
    const ns_table *shape;
    const uint8_t *pn;
    const uint32_t *rem;
    uint32_t round;
    int nopt, all_n_before;
    uint32_t pmin, nmax;
} probe;

static int probe_emit(void *u, const int64_t *o)
{
    probe *p = u;
    const uint64_t j = ns_table_index(p->shape, o);
    const int before = p->pn[j] != U && p->rem[j] < p->round; /* decided in an earlier round */
    p->nopt++;
    if (before && p->pn[j] == P && p->rem[j] < p->pmin)
        p->pmin = p->rem[j];
    if (!before || p->pn[j] != N)
        p->all_n_before = 0;
    else if (p->rem[j] > p->nmax)
        p->nmax = p->rem[j];
    return 0;
}

/* pn[i] in {P, N, D, X}, rem[i] (NONE for D and X); 0 on success */
static int naive(const ns_game *g, uint8_t *pn, uint32_t *rem)
{
    ns_error err = {0};
    ns_table *shape = ns_table_new(g->k, g->bounds, 1, 1, &err);
    if (!shape)
        return -1;
    const uint64_t n = shape->ncells;
    for (uint64_t i = 0; i < n; i++) {
        int64_t s[NS_MAX_DIM];
        ns_table_coords(shape, i, s);
        pn[i] = ns_game_is_position(g, s) ? U : X;
        rem[i] = NONE;
    }
    int rc = 0;
    for (uint32_t r = 0; rc == 0; r++) {
        int decided = 0;
        for (uint64_t i = 0; i < n && rc == 0; i++) {
            if (pn[i] != U)
                continue;
            int64_t s[NS_MAX_DIM];
            ns_table_coords(shape, i, s);
            probe p = {shape, pn, rem, r, 0, 1, NONE, 0};
            if (ns_game_foreach_option(g, s, probe_emit, &p, &err) < 0) {
                fprintf(stderr, "naive: %s\n", err.msg);
                rc = -1;
            } else if (p.nopt == 0) {
                if (r == 0) {
                    pn[i] = g->play == NS_PLAY_MISERE ? N : P;
                    rem[i] = 0;
                    decided = 1;
                }
            } else if (p.pmin != NONE) {
                pn[i] = N;
                rem[i] = p.pmin + 1;
                decided = 1;
            } else if (p.all_n_before) {
                pn[i] = P;
                rem[i] = p.nmax + 1;
                decided = 1;
            }
        }
        if (!decided)
            break;
    }
    for (uint64_t i = 0; i < n; i++)
        if (pn[i] == U)
            pn[i] = D;
    ns_table_free(shape);
    return rc;
}

/* ---------- runs of the engine ---------- */

typedef struct stopper {
    uint64_t at;            /* stop at the first call with units_done >= at (0: never) */
    uint64_t stopped;       /* units_done at the stop */
    uint64_t calls, last, total;
    int monotone, total_fixed;
    const ns_table *t;
    const uint32_t *rem;
    uint8_t *pn_copy;       /* owned */
    uint32_t *rem_copy;     /* owned */
} stopper;

static int stop_cb(void *user, uint64_t done, uint64_t total)
{
    stopper *s = user;
    if (s->calls && (done != s->last + 1))
        s->monotone = 0;
    if (s->calls && total != s->total)
        s->total_fixed = 0;
    s->calls++;
    s->last = done;
    s->total = total;
    if (!s->at || done < s->at)
        return 0;
    s->stopped = done;
    s->pn_copy = malloc(s->t->ncells);
    s->rem_copy = malloc(s->t->ncells * sizeof *s->rem_copy);
    if (s->pn_copy && s->rem_copy) {
        memcpy(s->pn_copy, s->t->data, s->t->ncells);
        memcpy(s->rem_copy, s->rem, s->t->ncells * sizeof *s->rem_copy);
    }
    return 1;
}

/* cells of (t, rem) that differ from the naive (pn, nrem); the first in *first */
static uint64_t differ(const ns_table *t, const uint32_t *rem, const uint8_t *pn, const uint32_t *nrem,
                       uint64_t *first)
{
    uint64_t d = 0;
    *first = t->ncells;
    for (uint64_t i = 0; i < t->ncells; i++) {
        const uint32_t want = pn[i] == X ? ns_table_invalid(t) : pn[i];
        if (ns_table_get(t, i) != want || rem[i] != nrem[i]) {
            if (!d)
                *first = i;
            d++;
        }
    }
    return d;
}

static const ns_engine *retro(void)
{
    return ns_engine_find("retro");
}

/* Resume from (pn_copy, rem_copy) after u frontiers with th threads into
 * a new table; NULL with err set on failure. *rem_out owned by the caller. */
static ns_table *resume_from(const ns_game *g, const uint8_t *pn_copy, const uint32_t *rem_copy, uint64_t u, int th,
                             uint32_t **rem_out, ns_error *err)
{
    ns_table *t = ns_engine_table_new(g, 1, err);
    uint32_t *rem = t ? malloc(t->ncells * sizeof *rem) : NULL;
    *rem_out = NULL;
    if (!t || !rem) {
        ns_table_free(t);
        free(rem);
        return NULL;
    }
    memcpy(t->data, pn_copy, t->ncells);
    memcpy(rem, rem_copy, t->ncells * sizeof *rem);
    ns_engine_opts o = {.threads = th, .pn_only = 1, .remoteness = rem};
    if (ns_engine_resume_with(retro(), g, t, &o, u, err)) {
        ns_table_free(t);
        free(rem);
        return NULL;
    }
    *rem_out = rem;
    return t;
}

/* A run stopped at the first boundary with at least u frontiers done
 * (threads th); s gets the copy. Returns the engine's code. */
static ns_err stopped_run(const ns_game *g, uint64_t u, int th, stopper *s, ns_error *err)
{
    ns_table *t = ns_engine_table_new(g, 1, err);
    uint32_t *rem = t ? malloc(t->ncells * sizeof *rem) : NULL;
    memset(s, 0, sizeof *s);
    s->at = u;
    s->monotone = s->total_fixed = 1;
    s->t = t;
    s->rem = rem;
    ns_err rc = NS_ENOMEM;
    if (t && rem) {
        ns_engine_opts o = {.threads = th, .pn_only = 1, .remoteness = rem, .checkpoint = stop_cb,
                            .checkpoint_user = s};
        rc = ns_engine_run_with(retro(), g, t, &o, err);
    }
    s->t = NULL;
    s->rem = NULL;
    ns_table_free(t);
    free(rem);
    return rc;
}

static void stopper_free(stopper *s)
{
    free(s->pn_copy);
    free(s->rem_copy);
    s->pn_copy = NULL;
    s->rem_copy = NULL;
}

/* The engine's run and every resume against the naive solver. */
static void check_game(const ns_game *g, const char *name, uint64_t min_frontiers, int want_draws)
{
    ns_error err = {0};
    const uint64_t n = ns_game_cells(g);
    uint8_t *pn = malloc(n);
    uint32_t *nrem = malloc(n * sizeof *nrem);
    CHECKF(pn && nrem && naive(g, pn, nrem) == 0, "%s: the naive solver failed", name);
    uint64_t positions = 0, draws = 0, top = 0;
    for (uint64_t i = 0; i < n; i++) {
        positions += pn[i] != X;
        draws += pn[i] == D;
        if (nrem[i] != NONE && nrem[i] > top)
            top = nrem[i];
    }
    CHECKF((draws > 0 || !want_draws) && top + 1 >= min_frontiers, "%s: expected %s%" PRIu64 "+ frontiers, the "
           "naive solver finds %" PRIu64 " draws and remoteness up to %" PRIu64, name, want_draws ? "draws and " : "",
           min_frontiers, draws, top);

    /* uninterrupted, with a callback that never stops */
    stopper s;
    ns_table *t = ns_engine_table_new(g, 1, &err);
    uint32_t *rem = malloc(n * sizeof *rem);
    memset(&s, 0, sizeof s);
    s.monotone = s.total_fixed = 1;
    s.t = t;
    s.rem = rem;
    ns_engine_opts o = {.threads = 2, .pn_only = 1, .remoteness = rem, .checkpoint = stop_cb, .checkpoint_user = &s};
    CHECKF(t && rem && ns_engine_run_with(retro(), g, t, &o, &err) == NS_OK, "%s: %s", name, err.msg);
    uint64_t first;
    CHECKF(t && differ(t, rem, pn, nrem, &first) == 0, "%s: the uninterrupted run differs from the naive solver",
           name);
    /* a boundary after every frontier but the last (frontiers 0..top) */
    CHECKF(s.calls == top && s.monotone && (s.calls == 0 || s.last == top),
           "%s: checkpoint calls %" PRIu64 " (last %" PRIu64 ", in order %d), expected units 1..%" PRIu64, name,
           s.calls, s.last, s.monotone, top);
    CHECKF(s.total_fixed && (s.calls == 0 || s.total == positions),
           "%s: units_total %" PRIu64 ", expected the number of positions %" PRIu64, name, s.total, positions);
    ns_table_free(t);
    free(rem);

    /* stopped at every boundary, resumed at another thread count */
    uint64_t bad = 0;
    for (uint64_t u = 1; u <= top; u++) {
        const int th_stop = 1 + (int)(u % 3), th_resume = 1 + (int)((u + 1) % 3);
        ns_err rc = stopped_run(g, u, th_stop, &s, &err);
        if (rc != NS_EINTR || s.stopped != u || !s.pn_copy || !s.rem_copy) {
            CHECKF(0, "%s: the run to stop after %" PRIu64 " frontiers returned %d (stopped at %" PRIu64 ")", name, u,
                   (int)rc, s.stopped);
            stopper_free(&s);
            continue;
        }
        uint32_t *r2 = NULL;
        ns_table *t2 = resume_from(g, s.pn_copy, s.rem_copy, u, th_resume, &r2, &err);
        if (!t2) {
            CHECKF(0, "%s: resume after %" PRIu64 " frontiers: %s", name, u, err.msg);
        } else if (differ(t2, r2, pn, nrem, &first)) {
            int64_t c[NS_MAX_DIM];
            char pos[160];
            ns_table_coords(t2, first, c);
            ns_format_pos(g->k, c, pos, sizeof pos);
            if (!bad++)
                CHECKF(0, "%s: resumed after %" PRIu64 " frontiers (%d threads, stopped with %d): cell %s is %" PRIu32
                       "/%" PRIu32 ", the naive solver says %u/%" PRIu32, name, u, th_resume, th_stop, pos,
                       ns_table_get(t2, first), r2[first], pn[first], nrem[first]);
        }
        ns_table_free(t2);
        free(r2);
        stopper_free(&s);
    }
    CHECKF(bad == 0, "%s: %" PRIu64 " of %" PRIu64 " resumes differ from the naive solver", name, bad, top);
    printf("%s: %" PRIu64 " positions, %" PRIu64 " draws, %" PRIu64 " frontiers; resumed at each boundary\n", name,
           positions, draws, top + 1);
    free(pn);
    free(nrem);
}

/* ---------- games ---------- */

static ns_game *compile(const char *text, int64_t n0, int64_t n1, int misere)
{
    ns_game *g = NULL;
    ns_error err = {0};
    const int64_t b[NS_MAX_DIM] = {n0, n1, n0, n0, n0, n0, n0, n0};
    if (ns_rules_compile(text, "t.rules", NULL, 0, &g, &err) || ns_game_set_bounds(g, b, &err)) {
        fprintf(stderr, "compile: %s\n%s", err.msg, text);
        ns_game_free(g);
        return NULL;
    }
    if (misere)
        g->play = NS_PLAY_MISERE;
    return g;
}

/* tests/rules/loopy/take_grow.rules: rays, finite offsets, conditions */
static const char *const TAKE_GROW = "piles x y\n"
                                     "outside forbid\n"
                                     "move x -> x - t                    for t in 2..min(x, 3)\n"
                                     "move y -> y - 2                    where y >= 2\n"
                                     "move (x, y) -> (x + 1, y - 1)      where y >= 1\n"
                                     "move (x, y) -> (x, y + 1)          where x >= 2\n";

/* a swap (a general family: the reverse index), takes and a token move */
static const char *const SWAP = "piles x y\n"
                                "move x -> x - t                  for t in 2..x\n"
                                "move y -> y - 2                  where y >= 2\n"
                                "move (x, y) -> (y, x)            where x > y + 2\n"
                                "move (x, y) -> (x + 1, y - 1)    where y >= 1 and x + 1 < size(x)\n"
                                "move (x, y) -> (x - 1, y + 1)    where x >= 1 and y + 1 < size(y)\n";

/* three piles, tokens moved around a cycle */
static const char *const THREE = "piles x y z\n"
                                 "move x -> x - 1                  where x >= 1\n"
                                 "move z -> z - t                  for t in 2..z\n"
                                 "move (x, y) -> (x + 1, y - 1)    where y >= 1 and x + 1 < size(x)\n"
                                 "move (y, z) -> (y + 1, z - 1)    where z >= 1 and y + 1 < size(y)\n"
                                 "move (x, z) -> (x - 1, z + 1)    where x >= 1 and z + 1 < size(z)\n";

static void test_games(void)
{
    struct {
        const char *text, *name;
        int64_t n0, n1;
        int misere;
        uint64_t min_frontiers;
        int draws;
    } games[] = {
        {TAKE_GROW, "take_grow 24 x 24", 24, 24, 0, 20, 1},
        {TAKE_GROW, "take_grow 24 x 24 misere", 24, 24, 1, 20, 1},
        {SWAP, "swap 20 x 20", 20, 20, 0, 5, 1},
        {THREE, "three piles 9^3", 9, 9, 0, 20, 0},
    };
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        ns_game *g = compile(games[i].text, games[i].n0, games[i].n1, games[i].misere);
        CHECKF(g != NULL && g->loopy, "%s: expected a loopy game", games[i].name);
        if (g)
            check_game(g, games[i].name, games[i].min_frontiers, games[i].draws);
        ns_game_free(g);
    }
}

/* ---------- through a checkpoint file; states that cannot be ---------- */

static void test_file_and_refusals(void)
{
    ns_error err = {0};
    ns_game *g = compile(TAKE_GROW, 24, 24, 0);
    CHECK(g != NULL);
    if (!g)
        return;
    const uint64_t n = ns_game_cells(g);
    uint8_t *pn = malloc(n);
    uint32_t *nrem = malloc(n * sizeof *nrem);
    CHECK(pn && nrem && naive(g, pn, nrem) == 0);
    stopper s;
    const uint64_t u = 7;
    CHECK(stopped_run(g, u, 2, &s, &err) == NS_EINTR && s.pn_copy && s.rem_copy);
    if (!s.pn_copy || !s.rem_copy)
        goto out;

    /* write the stopped state as a checkpoint file, read it back, resume */
    char dir[] = "/tmp/ns_retro_ckptXXXXXX", path[64], plain[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.h5.ckpt", dir);
    snprintf(plain, sizeof plain, "%s/plain.h5.ckpt", dir);
    ns_table *t = ns_engine_table_new(g, 1, &err);
    CHECK(t != NULL);
    if (!t)
        goto out;
    memcpy(t->data, s.pn_copy, n);
    ns_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "take_grow");
    m.play = NS_PLAY_NORMAL;
    m.pn_only = 1;
    m.threads = 2;
    m.loopy = 1;
    m.remoteness = s.rem_copy;
    ns_h5_ckpt c;
    memset(&c, 0, sizeof c);
    snprintf(c.kernel, sizeof c.kernel, "retro");
    c.units_done = u;
    c.units_total = n;
    CHECKF(ns_h5_ckpt_write(path, t, &m, &c, &err) == NS_OK, "%s", err.msg);
    m.loopy = 0; /* the same table without its remoteness */
    CHECKF(ns_h5_ckpt_write(plain, t, &m, &c, &err) == NS_OK, "%s", err.msg);
    memset(t->data, 0x55, n);
    ns_h5_ckpt_info ci;
    uint32_t *rem = malloc(n * sizeof *rem);
    CHECKF(ns_h5_ckpt_read(path, &ci, t, &err) == NS_OK, "%s", err.msg);
    CHECK(ci.loopy == 1 && ci.ckpt.units_done == u && strcmp(ci.ckpt.kernel, "retro") == 0);
    ns_meta_free(&ci.meta);
    CHECKF(ns_h5_ckpt_read_remoteness(path, t, rem, &err) == NS_OK, "%s", err.msg);
    CHECK(memcmp(t->data, s.pn_copy, n) == 0 && memcmp(rem, s.rem_copy, n * sizeof *rem) == 0);
    uint32_t *r2 = NULL;
    ns_table *t2 = resume_from(g, t->data, rem, ci.ckpt.units_done, 3, &r2, &err);
    uint64_t first;
    CHECKF(t2 && differ(t2, r2, pn, nrem, &first) == 0, "resume through the file: %s",
           t2 ? "differs from the naive solver" : err.msg);
    ns_table_free(t2);
    free(r2);
    /* a checkpoint without remoteness is refused by the remoteness reader */
    CHECKF(ns_h5_ckpt_read(plain, &ci, t, &err) == NS_OK && ci.loopy == 0, "%s", err.msg);
    ns_meta_free(&ci.meta);
    err.msg[0] = '\0';
    CHECKF(ns_h5_ckpt_read_remoteness(plain, t, rem, &err) == NS_EFORMAT && strstr(err.msg, "plain.h5.ckpt"),
           "a checkpoint without remoteness: %s", err.msg);

    /* states that cannot be: each refused, naming the cell */
    uint64_t dec = n, und = n, inv = n;
    for (uint64_t i = 0; i < n; i++) {
        if (s.pn_copy[i] == N && s.rem_copy[i] == u && dec == n)
            dec = i;
        if (s.pn_copy[i] == 2 && und == n)
            und = i;
        if (s.pn_copy[i] == X && inv == n)
            inv = i;
    }
    CHECK(dec < n && und < n);
    struct {
        const char *what;
        uint64_t cell;
        uint8_t v;
        uint32_t r;
    } bad[] = {
        {"a decided cell beyond the frontier", dec, N, (uint32_t)u + 1},
        {"an undecided cell with a remoteness", und, 2, 3},
        {"a position marked as none", und, X, NONE},
        {"an undecided cell decided P without a remoteness", und, P, NONE},
    };
    for (size_t j = 0; j < sizeof bad / sizeof *bad; j++) {
        if (bad[j].cell >= n)
            continue;
        const uint8_t v0 = s.pn_copy[bad[j].cell];
        const uint32_t r0 = s.rem_copy[bad[j].cell];
        s.pn_copy[bad[j].cell] = bad[j].v;
        s.rem_copy[bad[j].cell] = bad[j].r;
        int64_t cs[NS_MAX_DIM];
        char want[64];
        ns_table_coords(t, bad[j].cell, cs);
        snprintf(want, sizeof want, "cell (%" PRId64 ", %" PRId64 ")", cs[0], cs[1]);
        err.msg[0] = '\0';
        uint32_t *r3 = NULL;
        ns_table *t3 = resume_from(g, s.pn_copy, s.rem_copy, u, 2, &r3, &err);
        CHECKF(!t3 && err.code == NS_EFORMAT && strstr(err.msg, want), "%s: expected NS_EFORMAT naming %s, got '%s'",
               bad[j].what, want, err.msg);
        ns_table_free(t3);
        free(r3);
        s.pn_copy[bad[j].cell] = v0;
        s.rem_copy[bad[j].cell] = r0;
    }
    /* resume without the remoteness: refused, not guessed */
    memcpy(t->data, s.pn_copy, n);
    ns_engine_opts o = {.threads = 1, .pn_only = 1};
    CHECK(ns_engine_resume_with(retro(), g, t, &o, u, &err) == NS_EINVAL);

    free(rem);
    ns_table_free(t);
    remove(path);
    remove(plain);
    rmdir(dir);
out:
    stopper_free(&s);
    free(pn);
    free(nrem);
    ns_game_free(g);
}

int main(void)
{
    test_games();
    test_file_and_refusals();
    return TEST_REPORT();
}
