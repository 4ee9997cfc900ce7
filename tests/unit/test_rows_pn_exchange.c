/* test_rows_pn_exchange.c - the P/N row kernel (rows-pn) across processes
 * (ns_engine_opts.tile_exchange, a block of rows for a row of tiles)
 * without MPI: R "processes" are R POSIX threads of this one, each running
 * rows-pn on its own table (or rows sink) with the blocks of 256 rows dealt
 * cyclically, their P bitmaps passing through mailboxes in memory. Every
 * process must end with the whole table (in memory) or see every row once
 * (streaming), equal to a naive P/N search written here (every option of
 * every cell enumerated from the moves' definition): Wythoff and an
 * asymmetric game of rays (one of them along (-2,-1), a = 2, the other
 * lagging 3 rows), 1 to 4 processes (4 > the 3 blocks of 600 rows: an idle
 * one), 1 or 2 threads, rows not a multiple of the block. Also: a failing
 * receive stops the kernel with NS_EIO (no hang); checkpoints and resume
 * with an exchange as the CLI runs them across MPI ranks: process 0 in
 * memory, its checkpoint callback (the only one) seeing every reported row
 * final in its table, and a resume of u blocks where process 0's table
 * holds the naive rows before them (garbage after) and the others run
 * without a table from the finished rows' P-positions (resume_p): every
 * process ends with the naive rows, only the blocks after u travel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "game/ns_rules.h"
#include "engine/ns_engine.h"
#include "testutil.h"
#include "xproc.h"

enum { MAXR = NS_XP_MAXR, BLOCK = 256, MAXB = 64 };

/* x -> x - t, y -> y - t, (x - 2t, y - t), (x - t - 2, y - t): not
 * symmetric in x and y */
static const char *ASYM = "game asym-rays\n"
                          "piles x y\n"
                          "move x -> x - t                    for t in 1..x\n"
                          "move y -> y - t                    for t in 1..y\n"
                          "move (x, y) -> (x - 2*t, y - t)    for t in 1..min(x/2, y)\n"
                          "move (x, y) -> (x - t - 2, y - t)  for t in 1..min(x - 2, y)\n";

/* a process; its mailboxes (the post's, MAXB of them) hold a copy of a
 * block's bytes each, by block */
typedef struct proc {
    ns_xp_proc b;           /* first: the hooks' user; b.seen: times each row came */
    uint8_t *pn;            /* streaming: the cells the sink got (0: P, 1: N) */
} proc;

static int send_rows(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    proc *q = user;
    if (y0 != 0 || x0 % BLOCK)
        return 1;
    return ns_xp_send(q->b.p, q->b.rank, -1, x0 / BLOCK, vals, (size_t)(nx * ny) * sizeof *vals) != 0;
}

static int recv_rows(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    proc *q = user;
    if (y0 != 0 || x0 % BLOCK)
        return 1;
    return ns_xp_recv(q->b.p, q->b.rank, x0 / BLOCK, vals, (size_t)(nx * ny) * sizeof *vals) != 0;
}

static int sink(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *bits)
{
    proc *q = user;
    const int64_t n1 = q->b.n1;
    for (int64_t i = 0; i < nrows; i++) {
        q->b.seen[x0 + i]++;
        for (int64_t y = 0; y < n1; y++)
            q->pn[(x0 + i) * n1 + y] = !(bits[i * words + y / 64] >> (y % 64) & 1);
    }
    return 0;
}

/* P/N by the definition (1: N, 0: P): a cell is P when no option is P;
 * asym: the moves of ASYM, else Wythoff's (row, column, diagonal) */
static uint8_t *naive(int asym, int64_t n0, int64_t n1)
{
    uint8_t *v = malloc((size_t)(n0 * n1));
    if (!v)
        return NULL;
    for (int64_t x = 0; x < n0; x++)
        for (int64_t y = 0; y < n1; y++) {
            int n = 0;
            for (int64_t t = 1; t <= x && !n; t++)
                n = !v[(x - t) * n1 + y];
            for (int64_t t = 1; t <= y && !n; t++)
                n = !v[x * n1 + y - t];
            if (!asym)
                for (int64_t t = 1; t <= x && t <= y && !n; t++)
                    n = !v[(x - t) * n1 + y - t];
            else {
                for (int64_t t = 1; 2 * t <= x && t <= y && !n; t++)
                    n = !v[(x - 2 * t) * n1 + y - t];
                for (int64_t t = 1; t + 2 <= x && t <= y && !n; t++)
                    n = !v[(x - t - 2) * n1 + y - t];
            }
            v[x * n1 + y] = (uint8_t)n;
        }
    return v;
}

static ns_game *build(int asym, int64_t n0, int64_t n1, ns_error *err)
{
    ns_params none = {0};
    ns_game *g = NULL;
    if (asym) {
        if (ns_rules_compile(ASYM, "asym.rules", &none, 2, &g, err))
            return NULL;
    } else if (!(g = ns_preset_build("wythoff", &none, 2, err))) {
        return NULL;
    }
    int64_t b[2] = {n0, n1};
    if (ns_game_set_bounds(g, b, err)) {
        ns_game_free(g);
        return NULL;
    }
    return g;
}

static void check(int asym, int64_t n0, int64_t n1, int ranks, int threads, int stream)
{
    ns_error err = {0};
    ns_game *g = build(asym, n0, n1, &err);
    uint8_t *want = naive(asym, n0, n1);
    CHECKF(g && want, "%s: %s", asym ? "asym" : "wythoff", err.msg);
    if (!g || !want) {
        ns_game_free(g);
        free(want);
        return;
    }
    /* the kernel under test is the row kernel */
    char why[NS_ENGINE_WHY] = "";
    const ns_engine *e = ns_engine_find("rows-pn");
    ns_engine_opts probe = {.pn_only = 1};
    CHECKF(e && e->applies(g, &probe, why, sizeof why), "rows-pn does not take the game: %s", why);
    ns_xp_post p;
    proc q[MAXR];
    ns_xp_proc *all[MAXR];
    memset(q, 0, sizeof q);
    int ok = ns_xp_post_init(&p, ranks, MAXB) == 0;
    for (int r = 0; ok && r < ranks; r++) {
        ns_xp_proc *b = &q[r].b;
        all[r] = b;
        *b = (ns_xp_proc){.p = &p, .rank = r, .g = g, .n1 = n1};
        b->x = (ns_tile_exchange){.mine = ns_xp_mine, .send = send_rows, .recv = recv_rows, .user = &q[r],
                                  .ranks = ranks};
        b->o = (ns_engine_opts){.threads = threads, .pn_only = 1, .tile_exchange = &b->x};
        if (stream) {
            b->o.rows_sink = sink;
            b->o.rows_user = &q[r];
            ok = ok && (q[r].pn = calloc((size_t)(n0 * n1), 1)) && (b->seen = calloc((size_t)n0, 1));
        } else {
            ok = ok && (b->t = ns_engine_table_new(g, 1, &err));
        }
    }
    CHECK(ok);
    if (ok)
        CHECK(ns_xp_run(all, ranks) == 0);
    for (int r = 0; ok && r < ranks; r++) {
        const ns_xp_proc *b = &q[r].b;
        uint64_t diff = 0, twice = 0;
        for (int64_t i = 0; i < n0 * n1; i++)
            diff += (stream ? q[r].pn[i] : (uint8_t)ns_table_get(b->t, (uint64_t)i)) != want[i];
        for (int64_t x = 0; stream && x < n0; x++)
            twice += b->seen[x] != 1;
        CHECKF(b->rc == NS_OK && diff == 0 && twice == 0,
               "%s %lldx%lld, process %d of %d, %d threads%s: rc %d (%s), %llu cells differ from the naive search, "
               "%llu rows not seen once", asym ? "asym" : "wythoff", (long long)n0, (long long)n1, r, ranks, threads,
               stream ? ", streaming" : "", (int)b->rc, b->err.msg, (unsigned long long)diff,
               (unsigned long long)twice);
    }
    /* every block posted was taken, and each went to the R - 1 others */
    const long blocks = (long)((n0 + BLOCK - 1) / BLOCK);
    const long left = ns_xp_post_free(&p);
    CHECKF(left == 0 && p.sent == blocks * (ranks - 1), "%ld blocks left unread, %ld sent, expected %ld", left,
           p.sent, blocks * (ranks - 1));
    for (int r = 0; r < ranks; r++) {
        ns_table_free(q[r].b.t);
        free(q[r].pn);
        free(q[r].b.seen);
    }
    ns_game_free(g);
    free(want);
}

/* process 0's checkpoint callback: the rows of the blocks reported must
 * be final (the naive search's) in its table */
typedef struct ckpt_seen {
    const proc *q;
    const uint8_t *want;
    int64_t n0;
    uint64_t calls, bad, last;
} ckpt_seen;

static int on_ckpt(void *user, uint64_t done, uint64_t total)
{
    ckpt_seen *c = user;
    const int64_t rows = (int64_t)done * BLOCK < c->n0 ? (int64_t)done * BLOCK : c->n0;
    (void)total;
    c->calls++;
    c->bad += done <= c->last;
    c->last = done;
    for (int64_t i = 0; i < rows * c->q->b.n1; i++)
        c->bad += (uint8_t)ns_table_get(c->q->b.t, (uint64_t)i) != c->want[i];
    return 0;
}

/* A resume of u blocks across ranks processes, as the CLI runs it. */
static void check_resume(int asym, int64_t n0, int64_t n1, int ranks, int threads, uint64_t u)
{
    ns_error err = {0};
    ns_game *g = build(asym, n0, n1, &err);
    uint8_t *want = naive(asym, n0, n1);
    int64_t *pp = NULL;
    uint64_t np = 0;
    const int64_t done_rows = (int64_t)u * BLOCK < n0 ? (int64_t)u * BLOCK : n0;
    CHECKF(g && want, "%s: %s", asym ? "asym" : "wythoff", err.msg);
    for (int64_t i = 0; want && i < done_rows * n1; i++)
        np += want[i] == 0;
    if (g && want && !(pp = malloc((size_t)(np + 1) * 2 * sizeof *pp)))
        CHECK(pp);
    if (!g || !want || !pp) {
        ns_game_free(g);
        free(want);
        free(pp);
        return;
    }
    for (int64_t i = 0, j = 0; i < done_rows * n1; i++)
        if (want[i] == 0) {
            pp[j++] = i / n1;
            pp[j++] = i % n1;
        }
    ns_xp_post p;
    proc q[MAXR];
    ns_xp_proc *all[MAXR];
    memset(q, 0, sizeof q);
    ckpt_seen cs = {.q = &q[0], .want = want, .n0 = n0, .last = u};
    int ok = ns_xp_post_init(&p, ranks, MAXB) == 0;
    for (int r = 0; ok && r < ranks; r++) {
        ns_xp_proc *b = &q[r].b;
        all[r] = b;
        *b = (ns_xp_proc){.p = &p, .rank = r, .g = g, .n1 = n1, .resume = u};
        b->x = (ns_tile_exchange){.mine = ns_xp_mine, .send = send_rows, .recv = recv_rows, .user = &q[r],
                                  .ranks = ranks, .holder = r == 0};
        b->o = (ns_engine_opts){.threads = threads, .pn_only = 1, .tile_exchange = &b->x};
        if (r == 0) {
            b->o.checkpoint = on_ckpt;
            b->o.checkpoint_user = &cs;
            ok = ok && (b->t = ns_engine_table_new(g, 1, &err));
            /* the checkpoint's finished rows; the rest garbage */
            for (int64_t i = 0; ok && i < n0 * n1; i++)
                ns_table_set(b->t, (uint64_t)i, i < done_rows * n1 ? want[i] : (uint32_t)(i * 7 % 3 == 0));
        } else {
            b->o.rows_sink = sink;
            b->o.rows_user = &q[r];
            b->o.resume_p = pp;
            b->o.resume_np = np;
            ok = ok && (q[r].pn = calloc((size_t)(n0 * n1), 1)) && (b->seen = calloc((size_t)n0, 1));
            /* the rows a resume does not hand to the sink: as the checkpoint has them */
            for (int64_t i = 0; ok && i < done_rows * n1; i++)
                q[r].pn[i] = want[i];
            for (int64_t x = 0; ok && x < done_rows; x++)
                b->seen[x] = 1;
        }
    }
    CHECK(ok);
    if (ok)
        CHECK(ns_xp_run(all, ranks) == 0);
    for (int r = 0; ok && r < ranks; r++) {
        const ns_xp_proc *b = &q[r].b;
        uint64_t diff = 0, twice = 0;
        for (int64_t i = 0; i < n0 * n1; i++)
            diff += (r ? q[r].pn[i] : (uint8_t)ns_table_get(b->t, (uint64_t)i)) != want[i];
        for (int64_t x = 0; r && x < n0; x++)
            twice += b->seen[x] != 1;
        CHECKF(b->rc == NS_OK && diff == 0 && twice == 0,
               "%s %lldx%lld resumed after %llu blocks, process %d of %d, %d threads: rc %d (%s), %llu cells differ "
               "from the naive search, %llu rows not seen once", asym ? "asym" : "wythoff", (long long)n0,
               (long long)n1, (unsigned long long)u, r, ranks, threads, (int)b->rc, b->err.msg,
               (unsigned long long)diff, (unsigned long long)twice);
    }
    /* process 0's callback: once a block after the resume, each time with
     * its reported rows final */
    const uint64_t blocks = (uint64_t)((n0 + BLOCK - 1) / BLOCK);
    CHECKF(!ok || (cs.calls == blocks - u && cs.bad == 0 && cs.last == blocks),
           "resumed after %llu of %llu blocks at %d processes: %llu checkpoint calls (%llu wrong), last %llu",
           (unsigned long long)u, (unsigned long long)blocks, ranks, (unsigned long long)cs.calls,
           (unsigned long long)cs.bad, (unsigned long long)cs.last);
    /* only the blocks after the finished ones travel, each to the R - 1 others */
    const long left = ns_xp_post_free(&p);
    CHECKF(left == 0 && p.sent == (long)(blocks - u) * (ranks - 1), "resumed after %llu blocks: %ld blocks left "
           "unread, %ld sent, expected %ld", (unsigned long long)u, left, p.sent, (long)(blocks - u) * (ranks - 1));
    for (int r = 0; r < ranks; r++) {
        ns_table_free(q[r].b.t);
        free(q[r].pn);
        free(q[r].b.seen);
    }
    ns_game_free(g);
    free(want);
    free(pp);
}

static void check_failing_receive(void)
{
    ns_error err = {0};
    ns_game *g = build(0, 600, 300, &err);
    ns_table *t = g ? ns_engine_table_new(g, 1, &err) : NULL;
    CHECK(g && t);
    if (g && t) {
        /* rank 1 of 2 waits for block 0 first: a receive that fails is NS_EIO, not a hang */
        ns_xp_post p;
        const int made = ns_xp_post_init(&p, 2, MAXB) == 0;
        proc q = {.b = {.p = &p, .rank = 1, .g = g}};
        ns_tile_exchange x = {.mine = ns_xp_mine, .send = send_rows, .recv = ns_xp_recv_fail, .user = &q, .ranks = 2};
        ns_engine_opts o = {.threads = 2, .pn_only = 1, .tile_exchange = &x};
        err.msg[0] = '\0';
        CHECKF(made && ns_engine_run(g, t, &o, &err) == NS_EIO && strstr(err.msg, "exchange"), "a failing receive: %s",
               err.msg);
        ns_xp_post_free(&p);
    }
    ns_table_free(t);
    ns_game_free(g);
}

int main(void)
{
    for (int asym = 0; asym <= 1; asym++)
        for (int stream = 0; stream <= 1; stream++)
            for (int ranks = 1; ranks <= MAXR; ranks++)
                for (int th = 1; th <= 2; th++)
                    check(asym, 600, 300, ranks, th, stream); /* 3 blocks: 256, 256, 88 rows */
    check(0, 100, 700, 2, 2, 0);   /* one block, 11 words a row: rank 1 only receives */
    check(1, 513, 130, 3, 1, 1);   /* the last block one row */
    check(1, 513, 130, 2, 2, 0);
    check_failing_receive();
    /* checkpoints and resume across processes: 3 blocks of 600 rows, 5 of 1100 */
    for (int asym = 0; asym <= 1; asym++)
        for (int ranks = 1; ranks <= 3; ranks++)
            for (uint64_t u = 1; u <= 2; u++)
                check_resume(asym, 600, 300, ranks, 1 + (int)u % 2, u);
    check_resume(1, 1100, 200, 3, 2, 3);
    check_resume(0, 1100, 200, 4, 1, 4);
    return TEST_REPORT();
}
