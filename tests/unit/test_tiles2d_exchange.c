/* test_tiles2d_exchange.c - the tile kernel across processes
 * (ns_engine_opts.tile_exchange) without MPI: R "processes" are R POSIX
 * threads of this one, each running the engine on its own table (or sink)
 * with tile rows dealt cyclically, their tiles passing through mailboxes
 * in memory. Every process must end with the whole table (in memory) or
 * see every cell once (streaming), equal to a naive mex of Wythoff's game
 * written here (rows, columns, diagonals scanned cell by cell): the square
 * (the symmetric path, only tiles i <= j travel) and rectangles (the plain
 * path), 1 to 4 processes (4 > the 3 rows of tiles: an idle one), 1 or 2
 * threads each. Also: a failing receive stops the kernel with NS_EIO (no
 * hang). Resume: the holder (process 0) alone has the finished tile
 * anti-diagonals (its table, or a tile source reading the naive values; the
 * others' tables are empty and their sources fail), and every process ends
 * with the whole table; the holder's checkpoint callback comes only when
 * its table has every tile of the anti-diagonals it reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "naive.h"
#include "testutil.h"
#include "xproc.h"

enum { MAXR = NS_XP_MAXR, TILE = 128 };

/* a process; its mailboxes (the post's) hold a copy of a tile each, by
 * tile index */
typedef struct proc {
    ns_xp_proc b;           /* first: the hooks' user */
    int64_t tj;             /* tiles across */
    uint64_t ckpts;         /* checkpoint callbacks (the holder) */
    uint64_t ckpt_bad;      /* cells of reported anti-diagonals not final then */
} proc;

static int64_t tile_index(const proc *q, int64_t x0, int64_t y0)
{
    return (x0 / TILE) * q->tj + y0 / TILE;
}

static int send_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    proc *q = user;
    return ns_xp_send(q->b.p, q->b.rank, -1, tile_index(q, x0, y0), vals, (size_t)(nx * ny) * sizeof *vals) != 0;
}

static int recv_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    proc *q = user;
    return ns_xp_recv(q->b.p, q->b.rank, tile_index(q, x0, y0), vals, (size_t)(nx * ny) * sizeof *vals) != 0;
}

/* the naive values of the largest box, once (a cell's value does not
 * depend on the box) */
enum { WN0 = 300, WN1 = 400 };
static uint32_t *W;

/* a resume's finished tiles, read back from the naive values */
static int source_naive(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *v)
{
    (void)user;
    for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++)
            v[i * ny + j] = W[(x0 + i) * WN1 + y0 + j];
    return 0;
}

/* a process that does not hold the checkpoint must never read it */
static int source_fail(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *v)
{
    (void)user, (void)x0, (void)y0, (void)nx, (void)ny, (void)v;
    return 1;
}

/* the holder's checkpoint: every cell of tile anti-diagonals < done is final
 * in its table or its sink (the naive value) */
static int on_ckpt_check(void *user, uint64_t done, uint64_t total)
{
    proc *q = user;
    (void)total;
    q->ckpts++;
    const int64_t n0 = q->b.g->bounds[0], n1 = q->b.n1;
    for (int64_t x = 0; x < n0; x++)
        for (int64_t y = 0; y < n1; y++) {
            if ((uint64_t)(x / TILE + y / TILE) >= done)
                continue;
            const uint32_t v = q->b.t ? (uint32_t)ns_table_get(q->b.t, (uint64_t)(x * n1 + y)) : q->b.vals[x * n1 + y];
            q->ckpt_bad += v != W[x * WN1 + y];
        }
    return 0;
}

/* processes resuming after `resume` tile anti-diagonals (0: from the start) */
static void check_resume(int64_t n0, int64_t n1, int ranks, int threads, int stream, uint64_t resume);

static void check(int64_t n0, int64_t n1, int ranks, int threads, int stream)
{
    check_resume(n0, n1, ranks, threads, stream, 0);
}

static void check_resume(int64_t n0, int64_t n1, int ranks, int threads, int stream, uint64_t resume)
{
    ns_error err = {0};
    ns_params none = {0};
    ns_game *g = ns_preset_build("wythoff", &none, 2, &err);
    int64_t b[2] = {n0, n1};
    CHECK(g && ns_game_set_bounds(g, b, &err) == NS_OK);
    const int64_t ti = (n0 + TILE - 1) / TILE, tj = (n1 + TILE - 1) / TILE;
    ns_xp_post p;
    proc q[MAXR];
    ns_xp_proc *all[MAXR];
    memset(q, 0, sizeof q);
    int ok = g && W && ns_xp_post_init(&p, ranks, ti * tj) == 0;
    for (int r = 0; ok && r < ranks; r++) {
        ns_xp_proc *b = &q[r].b;
        all[r] = b;
        q[r].tj = tj;
        *b = (ns_xp_proc){.p = &p, .rank = r, .g = g, .n1 = n1, .resume = resume};
        b->x = (ns_tile_exchange){.mine = ns_xp_mine, .send = send_tile, .recv = recv_tile, .user = &q[r],
                                  .ranks = ranks, .holder = r == 0};
        b->o = (ns_engine_opts){.threads = threads, .tile_exchange = &b->x};
        if (r == 0 && resume) {
            b->o.checkpoint = on_ckpt_check;
            b->o.checkpoint_user = &q[r];
        }
        if (stream) {
            b->o.tile_sink = ns_xp_tile_sink;
            b->o.tile_source = r == 0 ? source_naive : source_fail;
            b->o.tile_user = &q[r];
            ok = ok && (b->vals = calloc((size_t)(n0 * n1), sizeof *b->vals)) &&
                 (b->seen = calloc((size_t)(n0 * n1), 1));
        } else {
            ok = ok && (b->t = ns_engine_table_new(g, 0, &err));
        }
        /* the holder's checkpoint: the finished anti-diagonals (both halves) */
        for (int64_t x = 0; ok && r == 0 && resume && x < n0; x++)
            for (int64_t y = 0; y < n1; y++)
                if ((uint64_t)(x / TILE + y / TILE) < resume) {
                    if (b->t)
                        ns_table_set(b->t, (uint64_t)(x * n1 + y), W[x * WN1 + y]);
                    else
                        b->vals[x * n1 + y] = W[x * WN1 + y];
                }
    }
    CHECK(ok);
    if (ok)
        CHECK(ns_xp_run(all, ranks) == 0);
    for (int r = 0; ok && r < ranks; r++) {
        const ns_xp_proc *b = &q[r].b;
        uint64_t diff = 0, twice = 0;
        for (int64_t i = 0; i < n0 * n1; i++) {
            diff += (stream ? b->vals[i] : ns_table_get(b->t, (uint64_t)i)) != W[(i / n1) * WN1 + i % n1];
            /* streaming: the holder's sink gets only the tiles after the
             * resume point (its file has the others), the others' every tile */
            const int before = (uint64_t)((i / n1) / TILE + (i % n1) / TILE) < resume;
            twice += stream && b->seen[i] != (r == 0 && before ? 0 : 1);
        }
        CHECKF(b->rc == NS_OK && diff == 0 && twice == 0,
               "%lldx%lld, process %d of %d, %d threads%s, resume at %llu: rc %d (%s), %llu cells differ from the "
               "naive mex, %llu not seen as expected", (long long)n0, (long long)n1, r, ranks, threads,
               stream ? ", streaming" : "", (unsigned long long)resume, (int)b->rc, b->err.msg,
               (unsigned long long)diff, (unsigned long long)twice);
    }
    /* the holder's checkpoints: each after the tiles it reports were final */
    const uint64_t units = (uint64_t)(ti + tj - 1);
    if (resume && resume < units)
        CHECKF(q[0].ckpts > 0 && q[0].ckpt_bad == 0,
               "%lldx%lld, %d processes%s, resume at %llu: %llu checkpoints, %llu cells not final at one",
               (long long)n0, (long long)n1, ranks, stream ? ", streaming" : "", (unsigned long long)resume,
               (unsigned long long)q[0].ckpts, (unsigned long long)q[0].ckpt_bad);
    /* every tile posted was taken: no mailbox holds one */
    const long left = ns_xp_post_free(&p);
    CHECKF(left == 0 && (ranks == 1 || p.sent > 0), "%d tiles left unread, %ld sent", (int)left, p.sent);
    for (int r = 0; r < ranks; r++) {
        ns_table_free(q[r].b.t);
        free(q[r].b.vals);
        free(q[r].b.seen);
    }
    ns_game_free(g);
}

static void check_refusals(void)
{
    ns_error err = {0};
    ns_params none = {0};
    ns_game *g = ns_preset_build("wythoff", &none, 2, &err);
    int64_t b[2] = {300, 300};
    ns_table *t = NULL;
    if (g && ns_game_set_bounds(g, b, &err) == NS_OK && (t = ns_engine_table_new(g, 0, &err))) {
        /* a receive that fails: NS_EIO, not a hang */
        ns_xp_post p;
        const int made = ns_xp_post_init(&p, 2, 9) == 0;
        proc q = {.b = {.p = &p, .rank = 0, .g = g}, .tj = 3};
        ns_tile_exchange x = {.mine = ns_xp_mine, .send = send_tile, .recv = ns_xp_recv_fail, .user = &q, .ranks = 2};
        ns_engine_opts o = {.threads = 2, .tile_exchange = &x};
        err.msg[0] = '\0';
        CHECK(made && ns_engine_run(g, t, &o, &err) == NS_EIO && strstr(err.msg, "exchange"));
        ns_xp_post_free(&p);
    } else {
        CHECK(0);
    }
    ns_table_free(t);
    ns_game_free(g);
}

int main(void)
{
    W = ns_ref_wythoff_grid(WN0, WN1);
    CHECK(W != NULL);
    for (int stream = 0; stream <= 1; stream++)
        for (int ranks = 1; ranks <= MAXR; ranks++)
            for (int th = 1; th <= 2; th++) {
                check(300, 300, ranks, th, stream);  /* symmetric: tiles i <= j */
                check(300, 200, ranks, th, stream);  /* the plain path */
            }
    check(129, 400, 2, 2, 0);
    check(129, 400, 3, 1, 1);
    /* resume after some of the 5 (300 x 300), 4 (300 x 200) or 6 (129 x 400)
     * tile anti-diagonals, under 1 to 4 processes */
    for (int stream = 0; stream <= 1; stream++)
        for (int ranks = 1; ranks <= MAXR; ranks++)
            for (uint64_t u = 1; u <= 4; u += 2) {
                check_resume(300, 300, ranks, 2, stream, u);
                check_resume(300, 200, ranks, 1 + (ranks & 1), stream, u);
            }
    check_resume(129, 400, 3, 2, 0, 5);
    check_resume(129, 400, 2, 1, 1, 2);
    check_refusals();
    free(W);
    return TEST_REPORT();
}
