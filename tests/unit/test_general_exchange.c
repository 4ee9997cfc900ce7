/* test_general_exchange.c - the general engine (level sieve) across
 * processes (ns_engine_opts.level_exchange) without MPI: R "processes" are
 * R POSIX threads of this one, each running the engine on its own table;
 * the exchange hook meets the others at a barrier and copies their blocks
 * of the level in memory. Every process must end with the whole table,
 * checked against independent values: Nim on 3 piles (a ^ b ^ c, Bouton;
 * also 200 x 8 x 8, whose values pass 127 so the sets widen and a level is
 * redone on every process), its P/N table (P iff a ^ b ^ c = 0), Moore's
 * Nim_2 on 3 piles (P iff every binary column sums to 0 mod 3, Moore 1910)
 * and a-Wythoff a = 2 (a naive mex over the moves, written here); and
 * against tests/common/naive.h's solver from the rules: Staircase Nim
 * (cells outside the game), Fibonacci Nim (a prefix family along the
 * rank-0 axis) and Euclid's game (options listed per cell); and a game of
 * a prefix family along an axis of positive rank weight (its running sets
 * span levels: "pw" below, with a naive mex written here); at 1 to
 * 4 processes and 1 or 2 threads each, every level shared (solo_cells 1)
 * and the default small levels. Also: a process that fails makes every
 * other fail with NS_EIO naming it (no hang); checkpoints and resume with
 * an exchange as the CLI runs them across MPI ranks: every process's table
 * holds the levels before u (the rest garbage) and resumes there, process
 * 0's checkpoint callback (the only one) sees every level it reports
 * final in its table; every process ends with the independent values. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "naive.h"
#include "testutil.h"
#include "tsolve.h"

enum { MAXR = 4 };

typedef struct post {
    int ranks;
    pthread_barrier_t b1, b2;
    int status[MAXR];
    int64_t level[MAXR];
    uint32_t *vals[MAXR];
    int fail_rank;          /* this process says "failed" at fail_level; -1: none */
    int64_t fail_level;
    int levels_seen;        /* exchanges of process 0 */
} post;

typedef struct proc {
    post *p;
    int rank;
    ns_engine_opts o;
    ns_level_exchange x;
    const ns_game *g;
    ns_table *t;
    uint64_t units;         /* levels done: a resume (0: a run) */
    ns_err rc;
    ns_error err;
} proc;

static int exchange(void *user, int64_t level, int *status, uint32_t *vals, uint64_t n, const uint64_t *first,
                    ns_error *err)
{
    proc *q = user;
    post *p = q->p;
    if (q->rank == p->fail_rank && level == p->fail_level)
        *status = 2;
    p->status[q->rank] = *status;
    p->level[q->rank] = level;
    p->vals[q->rank] = vals;
    if (q->rank == 0)
        p->levels_seen++;
    pthread_barrier_wait(&p->b1);
    int most = 0, who = -1;
    for (int r = 0; r < p->ranks; r++) {
        if (p->level[r] != level) {
            ns_error_set(err, NS_EINTERNAL, "process %d at level %lld, process %d at %lld", q->rank,
                         (long long)level, r, (long long)p->level[r]);
            most = 2;
        }
        if (p->status[r] > most)
            most = p->status[r];
        if (p->status[r] == 2 && who < 0)
            who = r;
    }
    if (most == 0)
        for (int r = 0; r < p->ranks; r++)
            if (r != q->rank)
                memcpy(vals + first[r], p->vals[r] + first[r], (size_t)(first[r + 1] - first[r]) * sizeof *vals);
    (void)n;
    pthread_barrier_wait(&p->b2);
    if (most == 2 && who >= 0)
        ns_error_set(err, NS_EIO, "process %d failed at level %lld", who, (long long)level);
    *status = most;
    return 0;
}

static void *run_proc(void *arg)
{
    proc *q = arg;
    q->rc = ns_engine_resume_with(ns_engine_find("general"), q->g, q->t, &q->o, q->units, &q->err);
    return NULL;
}

typedef uint32_t (*want_fn)(const int64_t *s, void *ctx);

/* cell i's coordinates into s, the last fastest */
static void coords(const ns_game *g, uint64_t i, int64_t *s)
{
    for (int d = g->k - 1; d >= 0; d--) {
        s[d] = (int64_t)(i % (uint64_t)g->bounds[d]);
        i /= (uint64_t)g->bounds[d];
    }
}

static int64_t rank_of(const ns_game *g, const int64_t *s)
{
    int64_t r = 0;
    for (int d = 0; d < g->k; d++)
        r += g->rank_w[d] * s[d];
    return r;
}

/* process 0's checkpoint callback: the levels reported final in its table */
typedef struct ckpt_seen {
    const proc *q;
    want_fn want;
    void *ctx;
    uint64_t calls, bad, last;
} ckpt_seen;

static int on_ckpt(void *user, uint64_t done, uint64_t total)
{
    ckpt_seen *c = user;
    const ns_game *g = c->q->g;
    int64_t s[NS_MAX_DIM] = {0};
    (void)total;
    c->calls++;
    c->bad += done <= c->last;
    c->last = done;
    for (uint64_t i = 0; i < c->q->t->ncells; i++) {
        coords(g, i, s);
        if (rank_of(g, s) < (int64_t)done)
            c->bad += ns_table_get(c->q->t, ns_table_index(c->q->t, s)) != c->want(s, c->ctx);
    }
    return 0;
}

/* A resume of u levels across ranks processes, as the CLI runs it (every
 * process handed the checkpoint's table: the values of the levels before
 * u, anything after). */
static void resume_case(const char *what, const ns_game *g, int pn_only, int ranks, int threads, uint64_t solo,
                        want_fn want, void *ctx, uint64_t u)
{
    ns_error err = {0};
    post p = {.ranks = ranks, .fail_rank = -1};
    pthread_barrier_init(&p.b1, NULL, (unsigned)ranks);
    pthread_barrier_init(&p.b2, NULL, (unsigned)ranks);
    proc q[MAXR];
    memset(q, 0, sizeof q);
    ckpt_seen cs = {.q = &q[0], .want = want, .ctx = ctx, .last = u};
    int64_t s[NS_MAX_DIM] = {0};
    int ok = 1;
    for (int r = 0; r < ranks; r++) {
        q[r] = (proc){.p = &p, .rank = r, .g = g, .units = u};
        q[r].x = (ns_level_exchange){.exchange = exchange, .user = &q[r], .rank = r, .ranks = ranks};
        q[r].o = (ns_engine_opts){.threads = threads, .pn_only = pn_only, .solo_cells = solo,
                                  .level_exchange = &q[r].x};
        if (r == 0) {
            q[r].o.checkpoint = on_ckpt;
            q[r].o.checkpoint_user = &cs;
        }
        ok = ok && (q[r].t = ns_engine_table_new(g, pn_only, &err));
        for (uint64_t i = 0; ok && i < q[r].t->ncells; i++) {
            coords(g, i, s);
            ns_table_set(q[r].t, ns_table_index(q[r].t, s),
                         rank_of(g, s) < (int64_t)u ? want(s, ctx) : (uint32_t)(i * 5 % (pn_only ? 2 : 7)));
        }
    }
    CHECKF(ok, "%s: tables: %s", what, err.msg);
    pthread_t th[MAXR];
    for (int r = 0; ok && r < ranks; r++)
        CHECK(pthread_create(&th[r], NULL, run_proc, &q[r]) == 0);
    for (int r = 0; ok && r < ranks; r++)
        pthread_join(th[r], NULL);
    for (int r = 0; ok && r < ranks; r++) {
        uint64_t diff = 0;
        for (uint64_t i = 0; i < q[r].t->ncells; i++) {
            coords(g, i, s);
            diff += ns_table_get(q[r].t, ns_table_index(q[r].t, s)) != want(s, ctx);
        }
        CHECKF(q[r].rc == NS_OK && diff == 0, "%s resumed after %llu levels, process %d of %d, %d threads: rc %d "
               "(%s), %llu cells differ", what, (unsigned long long)u, r, ranks, threads, (int)q[r].rc, q[r].err.msg,
               (unsigned long long)diff);
    }
    CHECKF(!ok || (cs.calls > 0 && cs.bad == 0), "%s resumed after %llu levels at %d processes: %llu checkpoint "
           "calls, %llu with a reported level not final (or not increasing)", what, (unsigned long long)u, ranks,
           (unsigned long long)cs.calls, (unsigned long long)cs.bad);
    for (int r = 0; r < ranks; r++)
        ns_table_free(q[r].t);
    pthread_barrier_destroy(&p.b1);
    pthread_barrier_destroy(&p.b2);
}

/* Solve g across ranks processes of threads threads (solo: solo_cells) and
 * compare every process's table with want; fail_rank >= 0 makes that
 * process fail at fail_level, and then every process must fail with NS_EIO. */
static void run_case(const char *what, const ns_game *g, int pn_only, int ranks, int threads, uint64_t solo,
                     want_fn want, void *ctx, int fail_rank, int64_t fail_level)
{
    ns_error err = {0};
    post p = {.ranks = ranks, .fail_rank = fail_rank, .fail_level = fail_level};
    pthread_barrier_init(&p.b1, NULL, (unsigned)ranks);
    pthread_barrier_init(&p.b2, NULL, (unsigned)ranks);
    proc q[MAXR];
    memset(q, 0, sizeof q);
    int ok = 1;
    for (int r = 0; r < ranks; r++) {
        q[r] = (proc){.p = &p, .rank = r, .g = g};
        q[r].x = (ns_level_exchange){.exchange = exchange, .user = &q[r], .rank = r, .ranks = ranks};
        q[r].o = (ns_engine_opts){.threads = threads, .pn_only = pn_only, .solo_cells = solo,
                                  .level_exchange = &q[r].x};
        ok = ok && (q[r].t = ns_engine_table_new(g, pn_only, &err));
    }
    CHECKF(ok, "%s: tables: %s", what, err.msg);
    pthread_t th[MAXR];
    for (int r = 0; ok && r < ranks; r++)
        CHECK(pthread_create(&th[r], NULL, run_proc, &q[r]) == 0);
    for (int r = 0; ok && r < ranks; r++)
        pthread_join(th[r], NULL);
    const ns_table *t0 = q[0].t;
    for (int r = 0; ok && r < ranks; r++) {
        if (fail_rank >= 0) {
            char name[32];
            snprintf(name, sizeof name, "process %d failed", fail_rank);
            CHECKF(q[r].rc == NS_EIO && (r == fail_rank || strstr(q[r].err.msg, name)),
                   "%s, process %d of %d failing: rc %d (%s), expected NS_EIO naming process %d", what, r, ranks,
                   (int)q[r].rc, q[r].err.msg, fail_rank);
            continue;
        }
        if (!want) { /* ctx: the naive solver's values */
            char w[160];
            snprintf(w, sizeof w, "%s, process %d of %d, %d threads, solo %llu", what, r, ranks, threads,
                     (unsigned long long)solo);
            CHECKF(q[r].rc == NS_OK && ns_ref_compare(w, q[r].t, ctx) == 0, "%s: rc %d (%s), or differs from the "
                   "naive solver", w, (int)q[r].rc, q[r].err.msg);
            continue;
        }
        uint64_t diff = 0, first = UINT64_MAX;
        int64_t s[NS_MAX_DIM] = {0};
        for (uint64_t i = 0; i < t0->ncells; i++) {
            /* cell i's coordinates, the last fastest */
            uint64_t rest = i;
            for (int d = g->k - 1; d >= 0; d--) {
                s[d] = (int64_t)(rest % (uint64_t)g->bounds[d]);
                rest /= (uint64_t)g->bounds[d];
            }
            if (ns_table_get(q[r].t, ns_table_index(q[r].t, s)) != want(s, ctx)) {
                diff++;
                if (first == UINT64_MAX)
                    first = i;
            }
        }
        CHECKF(q[r].rc == NS_OK && diff == 0,
               "%s, process %d of %d, %d threads, solo %llu: rc %d (%s), %llu cells differ (first: cell %llu)", what,
               r, ranks, threads, (unsigned long long)solo, (int)q[r].rc, q[r].err.msg, (unsigned long long)diff,
               (unsigned long long)first);
    }
    for (int r = 0; r < ranks; r++)
        ns_table_free(q[r].t);
    pthread_barrier_destroy(&p.b1);
    pthread_barrier_destroy(&p.b2);
}

static uint32_t want_nim(const int64_t *s, void *ctx)
{
    const int pn = *(const int *)ctx;
    const uint32_t x = (uint32_t)(s[0] ^ s[1] ^ s[2]);
    return pn ? x != 0 : x;
}

/* Moore's Nim_k (k = 2): P iff every binary column of the piles sums to 0
 * mod k + 1; the table's value is 0 exactly there (Grundy) */
static uint32_t want_moore_p(const int64_t *s, void *ctx)
{
    (void)ctx;
    for (int bit = 0; bit < 20; bit++) {
        int64_t c = 0;
        for (int i = 0; i < 3; i++)
            c += s[i] >> bit & 1;
        if (c % 3)
            return 1;
    }
    return 0;
}

typedef struct moore_ctx {
    const ns_table *ref;    /* the same game on one process: Grundy values */
} moore_ctx;

static uint32_t want_moore(const int64_t *s, void *ctx)
{
    const moore_ctx *m = ctx;
    return ns_table_get(m->ref, ns_table_index(m->ref, s));
}

/* a-Wythoff (a = 2), naive: take any amount from one pile, or x from the
 * first and y from the second, x, y >= 1, |x - y| < a; the mex by scan */
enum { AW = 70 };
static uint32_t AWG[AW][AW];

static void awythoff_naive(int a)
{
    for (int i = 0; i < AW; i++)
        for (int j = 0; j < AW; j++) {
            unsigned char seen[4 * AW] = {0};
            for (int x = 1; x <= i; x++)
                seen[AWG[i - x][j]] = 1;
            for (int y = 1; y <= j; y++)
                seen[AWG[i][j - y]] = 1;
            for (int x = 1; x <= i; x++)
                for (int y = 1; y <= j; y++)
                    if (x - y < a && y - x < a)
                        seen[AWG[i - x][j - y]] = 1;
            uint32_t m = 0;
            while (seen[m])
                m++;
            AWG[i][j] = m;
        }
}

static uint32_t want_aw(const int64_t *s, void *ctx)
{
    (void)ctx;
    return AWG[s[0]][s[1]];
}

/* pw: w = (1, 1); take any amount from pile 2, or a prefix family along
 * axis 0 adding (x - 1, y / 2) at (x, y): the options (j, y / 2), j < x */
enum { PW0 = 40, PW1 = 50 };
static uint32_t PWG[PW0][PW1];

static int pw_add(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)err;
    if (s[0] < 1)
        return 0;
    const int64_t o[2] = {s[0] - 1, s[1] / 2};
    return emit(user, o);
}

static uint64_t pw_maxopt(const void *ctx, int k, const int64_t *b)
{
    (void)ctx;
    uint64_t m = 0;
    for (int i = 0; i < k; i++)
        m += (uint64_t)b[i];
    return m;
}

static ns_game *pw_build(void)
{
    ns_error err = {0};
    ns_game *g = ns_game_new("pw", 2);
    const int64_t d[2] = {0, -1}, b[2] = {PW0, PW1};
    if (!g || ns_game_add_ray(g, "take from pile 2", d, NULL, &err) ||
        ns_game_add_prefix(g, "pw", 0, pw_add, pw_maxopt, NULL, &err) || ns_game_set_bounds(g, b, &err)) {
        fprintf(stderr, "pw: %s\n", err.msg);
        ns_game_free(g);
        return NULL;
    }
    /* the naive mex, row by row: every option has a smaller x, or the same x and a smaller y */
    for (int x = 0; x < PW0; x++)
        for (int y = 0; y < PW1; y++) {
            unsigned char seen[PW0 + PW1 + 2] = {0};
            for (int t = 1; t <= y; t++)
                seen[PWG[x][y - t]] = 1;
            for (int j = 0; j < x; j++)
                seen[PWG[j][y / 2]] = 1;
            uint32_t m = 0;
            while (seen[m])
                m++;
            PWG[x][y] = m;
        }
    return g;
}

static uint32_t want_pw(const int64_t *s, void *ctx)
{
    const int pn = *(const int *)ctx;
    return pn ? PWG[s[0]][s[1]] != 0 : PWG[s[0]][s[1]];
}

int main(void)
{
    ns_error err = {0};
    const int64_t b3[3] = {24, 20, 18}, wide[3] = {200, 8, 8}, bm[3] = {20, 18, 16}, ba[2] = {AW, AW};
    ns_game *nim = ns_tbuild("nim", "piles=3", 3, b3);
    ns_game *nimw = ns_tbuild("nim", "piles=3", 3, wide);
    ns_game *moore = ns_tbuild("moore", "piles=3;k=2", 3, bm);
    ns_game *aw = ns_tbuild("a-wythoff", "a=2", 2, ba);
    CHECK(nim && nimw && moore && aw);
    if (!nim || !nimw || !moore || !aw)
        return TEST_REPORT();
    awythoff_naive(2);
    /* the Moore reference: one process, no exchange; its P-positions Moore's */
    ns_table *mref = ns_engine_table_new(moore, 0, &err);
    ns_engine_opts one = {.threads = 1};
    CHECK(mref && ns_engine_run_with(ns_engine_find("general"), moore, mref, &one, &err) == NS_OK);
    uint64_t bad = 0;
    for (int64_t a = 0; mref && a < bm[0]; a++)
        for (int64_t b = 0; b < bm[1]; b++)
            for (int64_t c = 0; c < bm[2]; c++) {
                const int64_t s[3] = {a, b, c};
                bad += (ns_table_get(mref, ns_table_index(mref, s)) == 0) != (want_moore_p(s, NULL) == 0);
            }
    CHECKF(bad == 0, "Moore's Nim_2: %llu cells whose P/N is not Moore's theorem's", (unsigned long long)bad);
    moore_ctx mc = {mref};
    int grundy = 0, pn = 1;
    for (int ranks = 1; ranks <= MAXR; ranks++)
        for (int threads = 1; threads <= 2; threads++)
            for (int si = 0; si < 2; si++) {
                const uint64_t solo = si ? 0 : 1;
                run_case("nim 3 piles", nim, 0, ranks, threads, solo, want_nim, &grundy, -1, 0);
                run_case("nim 3 piles, P/N", nim, 1, ranks, threads, solo, want_nim, &pn, -1, 0);
                run_case("nim 200x8x8 (sets widen)", nimw, 0, ranks, threads, solo, want_nim, &grundy, -1, 0);
                run_case("moore k=2 P/N", moore, 1, ranks, threads, solo, want_moore_p, NULL, -1, 0);
                if (mref)
                    run_case("moore k=2", moore, 0, ranks, threads, solo, want_moore, &mc, -1, 0);
                run_case("a-wythoff a=2", aw, 0, ranks, threads, solo, want_aw, NULL, -1, 0);
            }
    /* games the naive solver knows from their rules */
    {
        const struct {
            const char *name, *params;
            ns_ref_game rg;
            int64_t b[3];
        } nv[] = {
            {"staircase", "piles=3", {.kind = NS_REF_STAIRCASE, .k = 3}, {14, 12, 10}},
            {"fibonacci-nim", "", {.kind = NS_REF_FIBNIM, .k = 2}, {60, 50}},
            {"euclid", "", {.kind = NS_REF_EUCLID, .k = 2}, {50, 45}},
        };
        for (size_t i = 0; i < sizeof nv / sizeof nv[0]; i++) {
            ns_game *g = ns_tbuild(nv[i].name, nv[i].params, nv[i].rg.k, nv[i].b);
            uint32_t *ref = ns_ref_solve(&nv[i].rg, nv[i].b, 0);
            CHECKF(g && ref, "%s: game or naive values", nv[i].name);
            for (int ranks = 1; g && ref && ranks <= MAXR; ranks++)
                for (int pnv = 0; pnv <= 1; pnv++) {
                    run_case(nv[i].name, g, pnv, ranks, 2, 1, NULL, ref, -1, 0);
                    run_case(nv[i].name, g, pnv, ranks, 1, 0, NULL, ref, -1, 0);
                }
            free(ref);
            ns_game_free(g);
        }
    }
    {
        ns_game *pw = pw_build();
        CHECK(pw != NULL);
        for (int ranks = 1; pw && ranks <= MAXR; ranks++)
            for (int threads = 1; threads <= 2; threads++) {
                run_case("pw (prefix along a weighted axis)", pw, 0, ranks, threads, 1, want_pw, &grundy, -1, 0);
                run_case("pw (prefix along a weighted axis), P/N", pw, 1, ranks, threads, 1, want_pw, &pn, -1, 0);
            }
        ns_game_free(pw);
    }
    /* a process that fails: all fail, none hangs */
    run_case("nim, process 1 fails", nim, 0, 3, 2, 1, want_nim, &grundy, 1, 20);
    run_case("nim, process 0 fails", nim, 0, 2, 1, 1, want_nim, &grundy, 0, 5);
    /* checkpoints and resume across processes (u levels of 60, 54, 119;
     * nimw: its values pass 127 after the resume, the sets widen) */
    for (int ranks = 1; ranks <= 3; ranks++)
        for (uint64_t solo = 0; solo <= 1; solo++) {
            resume_case("nim", nim, 0, ranks, 2, solo, want_nim, &grundy, 25);
            resume_case("nim P/N", nim, 1, ranks, 1, solo, want_nim, &pn, 40);
            if (mref)
                resume_case("moore", moore, 0, ranks, 1 + (int)solo, solo, want_moore, &mc, 20);
            resume_case("a-wythoff", aw, 0, ranks, 2, solo, want_aw, NULL, 30);
        }
    resume_case("nim 200x8x8", nimw, 0, 3, 2, 1, want_nim, &grundy, 100);
    ns_table_free(mref);
    ns_game_free(nim);
    ns_game_free(nimw);
    ns_game_free(moore);
    ns_game_free(aw);
    return TEST_REPORT();
}
