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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "testutil.h"

enum { MAXR = 4, TILE = 128 };

/* the mailboxes: box[r][tile index] holds a copy of a tile for process r */
typedef struct post {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int ranks;
    int64_t ti, tj;
    uint32_t **box[MAXR];
    long sent;              /* tiles posted (to all receivers) */
} post;

typedef struct proc {
    post *p;
    int rank;
    ns_engine_opts o;
    ns_tile_exchange x;
    const ns_game *g;
    ns_table *t;            /* in memory, or NULL (streaming) */
    uint32_t *vals;         /* streaming: the cells the sink got */
    uint8_t *seen;
    int64_t n1;
    ns_err rc;
    ns_error err;
    uint64_t ckpts;         /* checkpoint callbacks (the holder) */
    uint64_t ckpt_bad;      /* cells of reported anti-diagonals not final then */
    uint64_t resume;        /* units of a resume, else 0 */
} proc;

static int mine(void *user, int64_t row)
{
    const proc *q = user;
    return row % q->p->ranks == q->rank;
}

static int64_t tile_index(const post *p, int64_t x0, int64_t y0)
{
    return (x0 / TILE) * p->tj + y0 / TILE;
}

static int send_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    proc *q = user;
    post *p = q->p;
    pthread_mutex_lock(&p->lock);
    for (int r = 0; r < p->ranks; r++) {
        if (r == q->rank)
            continue;
        uint32_t *c = malloc((size_t)(nx * ny) * sizeof *c);
        if (c)
            memcpy(c, vals, (size_t)(nx * ny) * sizeof *c);
        p->box[r][tile_index(p, x0, y0)] = c;
        p->sent++;
    }
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    return 0;
}

static int recv_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    proc *q = user;
    post *p = q->p;
    uint32_t **slot = &p->box[q->rank][tile_index(p, x0, y0)];
    pthread_mutex_lock(&p->lock);
    while (!*slot)
        pthread_cond_wait(&p->cond, &p->lock);
    memcpy(vals, *slot, (size_t)(nx * ny) * sizeof *vals);
    free(*slot);
    *slot = NULL;
    pthread_mutex_unlock(&p->lock);
    return 0;
}

/* a recv that fails at once */
static int recv_fail(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    (void)user, (void)x0, (void)y0, (void)nx, (void)ny, (void)vals;
    return 1;
}

static int sink(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *v)
{
    proc *q = user;
    NS_PRAGMA(omp critical(test_exchange_sink))
    for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++) {
            q->vals[(x0 + i) * q->n1 + y0 + j] = v[i * ny + j];
            q->seen[(x0 + i) * q->n1 + y0 + j]++;
        }
    return 0;
}

static void *run_proc(void *arg)
{
    proc *q = arg;
    q->rc = ns_engine_resume(q->g, q->t, &q->o, q->resume, &q->err);
    return NULL;
}

/* Wythoff's Grundy values by the definition: the mex of the row to the
 * left, the column above and the diagonal up-left */
static uint32_t *naive_wythoff(int64_t n0, int64_t n1)
{
    uint32_t *g = malloc((size_t)(n0 * n1) * sizeof *g);
    uint8_t *used = malloc((size_t)(n0 + n1 + 2));
    if (!g || !used) {
        free(g);
        free(used);
        return NULL;
    }
    for (int64_t x = 0; x < n0; x++)
        for (int64_t y = 0; y < n1; y++) {
            memset(used, 0, (size_t)(n0 + n1 + 2));
            for (int64_t t = 1; t <= x; t++)
                used[g[(x - t) * n1 + y]] = 1;
            for (int64_t t = 1; t <= y; t++)
                used[g[x * n1 + y - t]] = 1;
            for (int64_t t = 1; t <= x && t <= y; t++)
                used[g[(x - t) * n1 + y - t]] = 1;
            uint32_t m = 0;
            while (used[m])
                m++;
            g[x * n1 + y] = m;
        }
    free(used);
    return g;
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
    const int64_t n0 = q->g->bounds[0], n1 = q->n1;
    for (int64_t x = 0; x < n0; x++)
        for (int64_t y = 0; y < n1; y++) {
            if ((uint64_t)(x / TILE + y / TILE) >= done)
                continue;
            const uint32_t v = q->t ? (uint32_t)ns_table_get(q->t, (uint64_t)(x * n1 + y)) : q->vals[x * n1 + y];
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
    post p = {.ranks = ranks, .ti = (n0 + TILE - 1) / TILE, .tj = (n1 + TILE - 1) / TILE};
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.cond, NULL);
    proc q[MAXR];
    memset(q, 0, sizeof q);
    int ok = g && W;
    for (int r = 0; r < ranks; r++) {
        ok = ok && (p.box[r] = calloc((size_t)(p.ti * p.tj), sizeof *p.box[r]));
        q[r] = (proc){.p = &p, .rank = r, .g = g, .n1 = n1, .resume = resume};
        q[r].x = (ns_tile_exchange){.mine = mine, .send = send_tile, .recv = recv_tile, .user = &q[r], .ranks = ranks,
                                    .holder = r == 0};
        q[r].o = (ns_engine_opts){.threads = threads, .tile_exchange = &q[r].x};
        if (r == 0 && resume) {
            q[r].o.checkpoint = on_ckpt_check;
            q[r].o.checkpoint_user = &q[r];
        }
        if (stream) {
            q[r].o.tile_sink = sink;
            q[r].o.tile_source = r == 0 ? source_naive : source_fail;
            q[r].o.tile_user = &q[r];
            ok = ok && (q[r].vals = calloc((size_t)(n0 * n1), sizeof *q[r].vals)) &&
                 (q[r].seen = calloc((size_t)(n0 * n1), 1));
        } else {
            ok = ok && (q[r].t = ns_engine_table_new(g, 0, &err));
        }
        /* the holder's checkpoint: the finished anti-diagonals (both halves) */
        for (int64_t x = 0; ok && r == 0 && resume && x < n0; x++)
            for (int64_t y = 0; y < n1; y++)
                if ((uint64_t)(x / TILE + y / TILE) < resume) {
                    if (q[r].t)
                        ns_table_set(q[r].t, (uint64_t)(x * n1 + y), W[x * WN1 + y]);
                    else
                        q[r].vals[x * n1 + y] = W[x * WN1 + y];
                }
    }
    CHECK(ok);
    pthread_t th[MAXR];
    for (int r = 0; ok && r < ranks; r++)
        CHECK(pthread_create(&th[r], NULL, run_proc, &q[r]) == 0);
    for (int r = 0; ok && r < ranks; r++)
        pthread_join(th[r], NULL);
    for (int r = 0; ok && r < ranks; r++) {
        uint64_t diff = 0, twice = 0;
        for (int64_t i = 0; i < n0 * n1; i++) {
            diff += (stream ? q[r].vals[i] : ns_table_get(q[r].t, (uint64_t)i)) != W[(i / n1) * WN1 + i % n1];
            /* streaming: the holder's sink gets only the tiles after the
             * resume point (its file has the others), the others' every tile */
            const int before = (uint64_t)((i / n1) / TILE + (i % n1) / TILE) < resume;
            twice += stream && q[r].seen[i] != (r == 0 && before ? 0 : 1);
        }
        CHECKF(q[r].rc == NS_OK && diff == 0 && twice == 0,
               "%lldx%lld, process %d of %d, %d threads%s, resume at %llu: rc %d (%s), %llu cells differ from the "
               "naive mex, %llu not seen as expected", (long long)n0, (long long)n1, r, ranks, threads,
               stream ? ", streaming" : "", (unsigned long long)resume, (int)q[r].rc, q[r].err.msg,
               (unsigned long long)diff, (unsigned long long)twice);
    }
    /* the holder's checkpoints: each after the tiles it reports were final */
    const uint64_t units = (uint64_t)(p.ti + p.tj - 1);
    if (resume && resume < units)
        CHECKF(q[0].ckpts > 0 && q[0].ckpt_bad == 0,
               "%lldx%lld, %d processes%s, resume at %llu: %llu checkpoints, %llu cells not final at one",
               (long long)n0, (long long)n1, ranks, stream ? ", streaming" : "", (unsigned long long)resume,
               (unsigned long long)q[0].ckpts, (unsigned long long)q[0].ckpt_bad);
    /* every tile posted was taken: no mailbox holds one */
    long left = 0;
    for (int r = 0; r < ranks; r++)
        for (int64_t i = 0; p.box[r] && i < p.ti * p.tj; i++)
            left += p.box[r][i] != NULL;
    CHECKF(left == 0 && (ranks == 1 || p.sent > 0), "%d tiles left unread, %ld sent", (int)left, p.sent);
    for (int r = 0; r < ranks; r++) {
        for (int64_t i = 0; p.box[r] && i < p.ti * p.tj; i++)
            free(p.box[r][i]);
        free(p.box[r]);
        ns_table_free(q[r].t);
        free(q[r].vals);
        free(q[r].seen);
    }
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.cond);
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
        post p = {.ranks = 2, .ti = 3, .tj = 3};
        proc q = {.p = &p, .rank = 0, .g = g};
        ns_tile_exchange x = {.mine = mine, .send = send_tile, .recv = recv_fail, .user = &q, .ranks = 2};
        pthread_mutex_init(&p.lock, NULL);
        pthread_cond_init(&p.cond, NULL);
        p.box[1] = calloc(9, sizeof *p.box[1]);
        ns_engine_opts o = {.threads = 2, .tile_exchange = &x};
        err.msg[0] = '\0';
        CHECK(p.box[1] && ns_engine_run(g, t, &o, &err) == NS_EIO && strstr(err.msg, "exchange"));
        for (int i = 0; p.box[1] && i < 9; i++)
            free(p.box[1][i]);
        free(p.box[1]);
        pthread_mutex_destroy(&p.lock);
        pthread_cond_destroy(&p.cond);
    } else {
        CHECK(0);
    }
    ns_table_free(t);
    ns_game_free(g);
}

int main(void)
{
    W = naive_wythoff(WN0, WN1);
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
