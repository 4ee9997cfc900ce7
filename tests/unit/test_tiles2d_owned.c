/* test_tiles2d_owned.c - the tile kernel across processes with owned line
 * sets (ns_tile_exchange's acquire and release) without MPI: R "processes"
 * are R POSIX threads of this one, each running the engine with tile rows
 * dealt cyclically; computed tiles go to the holder (process 0) only, and
 * the blocks of lines rest in a store in memory between uses, keyed by
 * (kind, block, version). Checked against sources outside the kernel:
 * Wythoff's values by a naive mex written here (row, column, diagonal
 * scanned cell by cell) and two-pile Nim's by Bouton's x XOR y:
 *   - the holder ends with every cell (in memory: its table; streaming: its
 *     sink sees each cell once), at 1..4 processes x 1 or 2 threads, sizes
 *     not multiples of the 128-cell tiles, and fewer tile rows than
 *     processes;
 *   - another process's sink sees exactly the cells of its own tile rows
 *     (tiles (i, j), i <= j, i mod R its rank, and their mirrors), once;
 *   - the protocol: an acquire of version v finds exactly the release of
 *     version v (it waits until then); no block is held by two processes
 *     at once; every window released is acquired again (the store ends
 *     empty); a process uses at most 2 blocks for each of its own rows
 *     and 2 for each thread at once (the holder without gather: each of
 *     its threads x processes threads; the bytes the hooks are told), and
 *     holds none at the end but the blocks it kept (below);
 *   - a resume after 3 or 5 tile anti-diagonals, in memory (the holder's
 *     table holds the finished tiles' values, the rest unset) and
 *     streaming (the holder's tile source gives them): the holder replays
 *     them into the sets, the rows it replayed in part go on on their own
 *     processes (the blocks they carry handed over), the same checks (the
 *     sinks see only the tiles after the resume);
 *   - the holder's exchange taking the others' tiles itself (gather: the
 *     holder computes its own rows only; its gather, waiting for each
 *     tile of the range in the mailboxes, fills its table or sink): the
 *     same cells, in memory and streaming, resumed too; the engine allows
 *     a range before it asks for it, asks for every range up to the last,
 *     never takes a tile itself, and its checkpoints find every cell of
 *     their units in the table;
 *   - the plain case (no symmetry: Wythoff and Nim in rectangles both
 *     ways, rule files with the row and the diagonal but no column move,
 *     with the rays (x - 2t, y - t) and (x - t, y - 3t), and with the long
 *     rays (x - 70t, y - t) and (x - t, y - 100t), against
 *     naive solvers): every tile travels as it is, a process's sink sees
 *     its tile rows (x / 128 mod R), the blocks of a ray go negative, a
 *     tile takes several; the same checks, resumed and gathered too;
 *   - blocks kept in memory between uses (x.keep: 200000 bytes a process,
 *     about 3 blocks, and everything): the same cells, in memory and
 *     streaming, symmetric and plain, resumed and gathered; some acquires
 *     find their block kept (told 0 bytes: only a block this process
 *     released with 0 bytes, kept; none without x.keep); the bytes kept
 *     at once stay within x.keep, the others within the bound without
 *     keeping, and at the end a process holds its kept blocks only;
 *   - the longest ray the rule language makes, (x - 2^20 t, y - t),
 *     owns its sets, and a kind gives its steps back; a failing acquire
 *     stops the kernel (NS_EIO). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "game/ns_rules.h"
#include "engine/ns_engine.h"
#include "naive.h"
#include "testutil.h"
#include "xproc.h"

enum { MAXR = NS_XP_MAXR, TILE = 128, MAXH = 4096 /* blocks held at once, all processes */ };

typedef struct win {
    int64_t kind;
    int64_t block, version;
    uint64_t *w;            /* owned */
    size_t n;
    struct win *next;
} win;

/* a block of lines (kind, block) held (or kept) by process by, of bytes */
typedef struct held_block {
    int64_t kind;
    int64_t block;
    int by;
    uint64_t bytes;
} held_block;

/* the processes' post (its mailboxes: tiles on their way to the holder,
 * by tile index) and the blocks of lines between uses, under its lock */
typedef struct post {
    ns_xp_post x;
    int64_t ti, tj;
    win *store;             /* blocks resting between uses */
    held_block hb[MAXH];    /* the blocks held */
    int nhb;
    int sym;                /* the symmetric case: tiles i <= j, mirrored */
    uint64_t held[MAXR], peak[MAXR], block_max;
    long puts, gets, bad;   /* windows released, acquired; protocol errors */
    long kept_gets;         /* acquires of a block the process kept (0 bytes) */
    held_block kb[MAXH];    /* the blocks kept between uses (released with 0 bytes) */
    int nkb;
    uint64_t kept[MAXR], kept_peak[MAXR], use_peak[MAXR]; /* of held: kept, the rest's peak */
    /* gather: the holder's exchange takes the others' tiles itself */
    int64_t allowed, gathered_to;   /* anti-diagonals allowed, gathered */
    uint64_t resume;
    long gathers, late;     /* waits; checkpoints that found a cell missing */
} post;

typedef struct proc {
    ns_xp_proc b;           /* first: the hooks' user; b.t: the holder in memory */
    post *p;
} proc;

static int send_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    proc *q = user;
    if (q->b.rank == 0)
        return 0;   /* the holder keeps its own */
    return ns_xp_send(&q->p->x, q->b.rank, 0, (x0 / TILE) * q->p->tj + y0 / TILE, vals,
                      (size_t)(nx * ny) * sizeof *vals) != 0;
}

static int recv_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    proc *q = user;
    post *p = q->p;
    pthread_mutex_lock(&p->x.lock);
    p->bad += q->b.rank != 0;   /* only the holder takes tiles */
    pthread_mutex_unlock(&p->x.lock);
    return ns_xp_recv(&p->x, 0, (x0 / TILE) * p->tj + y0 / TILE, vals, (size_t)(nx * ny) * sizeof *vals) != 0;
}

/* the entry of block (kind, block) in p->hb, or -1 (under the lock) */
static int held_at(const post *p, int64_t kind, int64_t block)
{
    for (int i = 0; i < p->nhb; i++)
        if (p->hb[i].kind == kind && p->hb[i].block == block)
            return i;
    return -1;
}

static int acquire(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t **w, size_t *n)
{
    proc *q = user;
    post *p = q->p;
    *w = NULL;
    *n = 0;
    pthread_mutex_lock(&p->x.lock);
    p->held[q->b.rank] += bytes;
    p->kept_gets += bytes == 0;
    if (p->held[q->b.rank] > p->peak[q->b.rank])
        p->peak[q->b.rank] = p->held[q->b.rank];
    if (p->held[q->b.rank] - p->kept[q->b.rank] > p->use_peak[q->b.rank])
        p->use_peak[q->b.rank] = p->held[q->b.rank] - p->kept[q->b.rank];
    if (bytes > p->block_max)
        p->block_max = bytes;
    win *e = NULL;
    while (version > 0 && !e) {
        for (win **pp = &p->store; *pp; pp = &(*pp)->next)
            if ((*pp)->kind == kind && (*pp)->block == block) {
                if ((*pp)->version != version)
                    break;  /* another version rests: wait for ours */
                e = *pp;
                *pp = e->next;
                break;
            }
        if (!e)
            pthread_cond_wait(&p->x.cond, &p->x.lock);
    }
    /* a block kept here comes back with 0 bytes (and only such a block) */
    const int r = q->b.rank;
    uint64_t sz = bytes;
    int k = 0;
    while (k < p->nkb && !(p->kb[k].kind == kind && p->kb[k].block == block && p->kb[k].by == r))
        k++;
    if ((k < p->nkb) != (bytes == 0))
        p->bad++;
    else if (k < p->nkb) {
        sz = p->kb[k].bytes;
        p->kept[r] -= sz;
        p->kb[k] = p->kb[--p->nkb];
    }
    if (p->held[r] - p->kept[r] > p->use_peak[r])
        p->use_peak[r] = p->held[r] - p->kept[r];
    /* one holder at a time */
    if (held_at(p, kind, block) >= 0 || p->nhb == MAXH)
        p->bad++;
    else
        p->hb[p->nhb++] = (held_block){kind, block, r, sz};
    if (e) {
        p->gets++;
        *w = e->w;
        *n = e->n;
        free(e);
    }
    pthread_mutex_unlock(&p->x.lock);
    return 0;
}

static int release(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t *w, size_t n)
{
    proc *q = user;
    post *p = q->p;
    win *e = w ? malloc(sizeof *e) : NULL;
    pthread_mutex_lock(&p->x.lock);
    p->held[q->b.rank] -= bytes;
    const int h = held_at(p, kind, block), r = q->b.rank;
    if (h < 0 || p->hb[h].by != r || (bytes && bytes != p->hb[h].bytes) || (!bytes && p->nkb == MAXH))
        p->bad++;
    else {
        /* released with 0 bytes: kept here, still counted */
        if (!bytes) {
            p->kb[p->nkb++] = p->hb[h];
            p->kept[r] += p->hb[h].bytes;
            if (p->kept[r] > p->kept_peak[r])
                p->kept_peak[r] = p->kept[r];
        }
        p->hb[h] = p->hb[--p->nhb];
    }
    for (win *s = p->store; s; s = s->next)
        p->bad += s->kind == kind && s->block == block;   /* one version rests at a time */
    if (w && e) {
        *e = (win){.kind = kind, .block = block, .version = version, .w = w, .n = n, .next = p->store};
        p->store = e;
        p->puts++;
    } else if (w) {
        free(w);
        p->bad++;
    }
    pthread_cond_broadcast(&p->x.cond);
    pthread_mutex_unlock(&p->x.lock);
    return 0;
}

enum { WN = 520 };
static uint32_t *W;
/* the row and the diagonal, no column move: naive values in RD (RN x RN);
 * the row, the column and the rays (x - 2t, y - t), (x - t, y - 3t):
 * naive values in RY */
enum { RN = 400 };
static uint32_t *RD, *RY, *LR;
static const char *ROWDIAG = "game rowdiag\npiles x, y\nmove y -> y - t for t in 1..y\n"
                             "move (x, y) -> (x - t, y - t) for t in 1..min(x, y)\n";
static const char *RAYS = "game rays\npiles x, y\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y\n"
                          "move (x, y) -> (x - 2*t, y - t) for t in 1..min(x / 2, y)\n"
                          "move (x, y) -> (x - t, y - 3*t) for t in 1..min(x, y / 3)\n";
/* rays of long steps, (x - 70t, y - t) and (x - t, y - 100t): a tile meets
 * 71 and 101 blocks of their lines; naive values in LR (RN x RN) */
static const char *LONGRAYS = "game longrays\npiles x, y\nmove x -> x - t for t in 1..x\n"
                              "move y -> y - t for t in 1..y\n"
                              "move (x, y) -> (x - 70*t, y - t) for t in 1..min(x / 70, y)\n"
                              "move (x, y) -> (x - t, y - 100*t) for t in 1..min(x, y / 100)\n";

/* ns_tile_exchange.gather of the holder (the exchange's own taking of the
 * others' tiles, as dist/ does on a thread of its own): the tiles (i <= j)
 * of the other processes' rows, of anti-diagonals [gathered_to, upto) and
 * past the resume's finished ones, taken from their mailboxes (waiting for
 * each) into the holder's table, with the mirror, or its sink. The engine
 * must not take them itself (recv would find the mailboxes empty) and must
 * ask for them only after allowing them. */
static int gather(void *user, int64_t upto, int wait)
{
    proc *q = user;
    post *p = q->p;
    if (!wait) {
        p->allowed = upto;
        return 0;
    }
    if (upto != p->allowed)
        return 1;
    p->gathers++;
    static uint32_t v[TILE * TILE], m[TILE * TILE];
    const int64_t n0 = q->b.g->bounds[0], n = q->b.n1, ranks = p->x.ranks;
    for (int64_t i = 0; i < p->ti; i++) {
        if (i % ranks == 0)
            continue;
        for (int64_t j = p->sym ? i : 0; j < p->tj; j++) {
            const int64_t a = i + j;
            if (a < p->gathered_to || a >= upto || (uint64_t)a < p->resume)
                continue;
            const int64_t x0 = i * TILE, y0 = j * TILE;
            const int64_t nx = x0 + TILE < n0 ? TILE : n0 - x0, ny = y0 + TILE < n ? TILE : n - y0;
            if (ns_xp_recv(&p->x, 0, i * p->tj + j, v, (size_t)(nx * ny) * sizeof *v))
                return 1;
            for (int64_t x = 0; x < nx; x++)
                for (int64_t y = 0; y < ny; y++) {
                    m[y * nx + x] = v[x * ny + y];
                    if (q->b.t && (!p->sym || x0 + x <= y0 + y)) {
                        ns_table_set(q->b.t, (uint64_t)((x0 + x) * n + y0 + y), v[x * ny + y]);
                        if (p->sym)
                            ns_table_set(q->b.t, (uint64_t)((y0 + y) * n + x0 + x), v[x * ny + y]);
                    }
                }
            if (!q->b.t && (ns_xp_tile_sink(q, x0, y0, nx, ny, v) ||
                            (p->sym && i != j && ns_xp_tile_sink(q, y0, x0, ny, nx, m))))
                return 1;
        }
    }
    p->gathered_to = upto;
    return 0;
}

/* nim: 1 Nim, 0 Wythoff, 2 the rule file ROWDIAG, 3 RAYS, 4 LONGRAYS */
static uint32_t expect(int nim, int64_t x, int64_t y)
{
    return nim == 1 ? (uint32_t)(x ^ y) : nim == 2 ? RD[x * RN + y] : nim == 3 ? RY[x * RN + y]
         : nim == 4 ? LR[x * RN + y]
                    : W[x * WN + y];
}

/* a resume's finished tiles (tile row + tile column < units) */
static int done_cell(int64_t x, int64_t y, uint64_t units)
{
    return (uint64_t)(x / TILE + y / TILE) < units;
}

/* the holder's tile source on a streamed resume: the values by their
 * independent source (Nim: SRC_NIM) */
static int SRC_NIM;

static int source_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    (void)user;
    for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++)
            vals[i * ny + j] = expect(SRC_NIM, x0 + i, y0 + j);
    return 0;
}

/* the holder's checkpoint callback with gather: every cell of the units
 * done is final in its table (the others' tiles were gathered first) */
static int CK_NIM;

static int on_checkpoint(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    proc *q = user;
    const int64_t n = q->b.n1;
    for (int64_t x = 0; x < q->b.g->bounds[0]; x++)
        for (int64_t y = 0; y < n; y++)
            if ((uint64_t)(x / TILE + y / TILE) < done &&
                ns_table_get(q->b.t, (uint64_t)(x * n + y)) != expect(CK_NIM, x, y)) {
                q->p->late++;
                return 0;
            }
    return 0;
}

/* the engine's owned_sets for g: 1 symmetric, 2 plain, 0 neither */
/* x.keep of the processes of check_box */
static uint64_t KEEPB;

static int owned_kind(const ns_game *g)
{
    const ns_engine *e = ns_engine_find("tiles2d");
    return e && e->owned_sets ? e->owned_sets(g) : -1;
}

/* game in an n0 x n box (n0 0: n x n) */
static void check_box(const char *game, int64_t n0, int64_t n, int ranks, int threads, int stream, uint64_t resume)
{
    const int gathered = stream >= 2;
    stream &= 1;
    if (!n0)
        n0 = n;
    /* gathered (stream 2 or 3): the holder's exchange takes the others'
     * tiles (ns_tile_exchange.gather) */
    const int nim = strcmp(game, "nim") == 0 ? 1 : strcmp(game, "rowdiag") == 0 ? 2 : strcmp(game, "rays") == 0 ? 3
                    : strcmp(game, "longrays") == 0 ? 4
                                                    : 0;
    SRC_NIM = nim;
    ns_error err = {0};
    ns_params pr = {0};
    if (nim == 1)
        CHECK(ns_params_parse(&pr, "piles=2", &err) == NS_OK);
    ns_game *g = NULL;
    if (nim >= 2)
        CHECK(ns_rules_compile(nim == 2 ? ROWDIAG : nim == 3 ? RAYS : LONGRAYS, "t.rules", &pr, 2, &g, &err) == NS_OK);
    else
        g = ns_preset_build(game, &pr, 2, &err);
    int64_t b[2] = {n0, n};
    CHECK(g && ns_game_set_bounds(g, b, &err) == NS_OK);
    /* the symmetric case: a square box of Wythoff or Nim */
    const int sym = n0 == n && nim < 2;
    CHECKF(g && owned_kind(g) == (sym ? 1 : 2), "%s %lld x %lld: owned_sets %d, expected %d", game,
           (long long)n0, (long long)n, g ? owned_kind(g) : -1, sym ? 1 : 2);
    post p = {.ti = (n0 + TILE - 1) / TILE, .tj = (n + TILE - 1) / TILE, .resume = resume, .sym = sym};
    CK_NIM = nim;
    proc q[MAXR];
    ns_xp_proc *all[MAXR];
    memset(q, 0, sizeof q);
    int ok = g && (nim || W) && ns_xp_post_init(&p.x, ranks, p.ti * p.tj) == 0;
    for (int r = 0; ok && r < ranks; r++) {
        ns_xp_proc *b = &q[r].b;
        all[r] = b;
        q[r].p = &p;
        *b = (ns_xp_proc){.p = &p.x, .rank = r, .g = g, .n1 = n, .resume = resume};
        b->x = (ns_tile_exchange){.mine = ns_xp_mine, .send = send_tile, .recv = recv_tile, .acquire = acquire,
                                  .release = release, .user = &q[r], .ranks = ranks, .holder = r == 0,
                                  .keep = KEEPB};
        b->o = (ns_engine_opts){.threads = threads, .tile_exchange = &b->x};
        if (gathered && r == 0) {
            b->x.gather = gather;
            if (!stream) {
                b->o.checkpoint = on_checkpoint;
                b->o.checkpoint_user = &q[r];
            }
        }
        if (stream || r > 0) {
            b->o.tile_sink = ns_xp_tile_sink;
            b->o.tile_user = &q[r];
            if (resume && r == 0)
                b->o.tile_source = source_tile;
            ok = ok && (b->vals = calloc((size_t)(n0 * n), sizeof *b->vals)) && (b->seen = calloc((size_t)(n0 * n), 1));
        } else {
            ok = ok && (b->t = ns_engine_table_new(g, 0, &err));
            for (int64_t x = 0; ok && x < n0; x++) /* a resume: the finished tiles' cells */
                for (int64_t y = 0; y < n; y++)
                    if (done_cell(x, y, resume))
                        ns_table_set(b->t, (uint64_t)(x * n + y), expect(nim, x, y));
        }
    }
    CHECK(ok);
    if (ok)
        CHECK(ns_xp_run(all, ranks) == 0);
    for (int r = 0; ok && r < ranks; r++) {
        const ns_xp_proc *b = &q[r].b;
        uint64_t diff = 0, seen = 0;
        for (int64_t x = 0; x < n0; x++)
            for (int64_t y = 0; y < n; y++) {
                const int64_t i = x * n + y;
                const int64_t row = (sym && y < x ? y : x) / TILE;
                /* the holder: every cell; another: the cells of its rows;
                 * a resume: not those of the finished tiles */
                const int want = (r == 0 || row % ranks == r) && !done_cell(x, y, resume);
                if (b->t)
                    diff += (uint32_t)ns_table_get(b->t, (uint64_t)i) != expect(nim, x, y);
                else {
                    diff += want && b->vals[i] != expect(nim, x, y);
                    seen += b->seen[i] != want;
                }
            }
        CHECKF(b->rc == NS_OK && diff == 0 && seen == 0,
               "%s %lld x %lld, process %d of %d, %d threads%s, resumed after %llu: rc %d (%s), %llu cells differ "
               "from %s, %llu not seen as expected", game, (long long)n0, (long long)n, r, ranks, threads,
               stream ? ", streaming" : "", (unsigned long long)resume, (int)b->rc, b->err.msg,
               (unsigned long long)diff, nim == 1 ? "x XOR y" : "the naive mex", (unsigned long long)seen);
        /* a row in progress keeps its block and a diagonal block, a tile
         * being computed adds a column block and a diagonal block (the
         * plain case: the row keeps its block and q blocks of each ray
         * (x - a t, y - q t), a tile adds a blocks of each; the row ray is
         * one block, the column (1, 0) keeps none) */
        static const int KEEP[5] = {2, 1, 2, 5, 102}, TAKE[5] = {2, 1, 1, 4, 72};
        const int keep = sym ? 2 : KEEP[nim], take = sym ? 2 : TAKE[nim];
        int64_t own = (p.ti - r + ranks - 1) / ranks;
        /* a resume: the holder replays the finished tiles of every row first */
        const int64_t rows_done = sym ? (int64_t)(resume + 1) / 2 : (int64_t)resume;
        const int64_t replayed = rows_done < p.ti ? rows_done : p.ti;
        if (r == 0 && resume && replayed > own)
            own = replayed;
        /* ... on all its threads (threads x processes: those of the others'
         * tiles then replay too). Without gather the holder runs threads x
         * processes threads all along, for the others' tiles, and any of
         * them may take one of its own (seen: Wythoff 300 x 520 streamed,
         * 2 processes of 1 thread, 8 blocks in use on the holder) */
        const int64_t busy = r == 0 && !gathered ? (int64_t)threads * ranks : threads;
        CHECKF(p.use_peak[r] <= (uint64_t)(keep * own + take * busy) * p.block_max && p.kept_peak[r] <= KEEPB &&
                   p.held[r] == p.kept[r] && p.peak[r] <= p.use_peak[r] + KEEPB,
               "%s %lld, process %d of %d, %d threads: used %llu bytes of sets at once, more than %d blocks of %llu "
               "for each of its %lld rows and %d a thread; kept %llu at once (keep %llu); held %llu at the end, "
               "%llu kept", game, (long long)n, r, ranks, threads, (unsigned long long)p.use_peak[r], keep,
               (unsigned long long)p.block_max, (long long)own, take, (unsigned long long)p.kept_peak[r],
               (unsigned long long)KEEPB, (unsigned long long)p.held[r], (unsigned long long)p.kept[r]);
    }
    /* kept blocks come back without fresh pages (and so only when kept;
     * a process with one tile row never takes a block twice) */
    if (p.puts > 0 && (KEEPB == 0 || p.ti > ranks))
        CHECKF(KEEPB ? p.kept_gets > 0 : p.kept_gets == 0, "%s %lld at %d processes, %llu bytes kept: %ld blocks taken "
               "again from a process's own pages (stream %d, resumed after %llu)", game, (long long)n, ranks,
               (unsigned long long)KEEPB, p.kept_gets, stream, (unsigned long long)resume);
    long left = 0;
    for (win *e = p.store; e; e = e->next)
        left++;
    const int held = p.nhb;
    CHECKF(p.bad == 0 && left == 0 && held == 0 && p.puts == p.gets && (p.ti < 2 || p.puts > 0),
           "%s %lld at %d processes: %ld protocol errors, %ld windows left, %d blocks still held, %ld puts, %ld gets",
           game, (long long)n, ranks, p.bad, left, held, p.puts, p.gets);
    const long untaken = ns_xp_post_free(&p.x);
    if (gathered)
        CHECKF(p.gathers > 0 && p.late == 0 && p.gathered_to == p.ti + p.tj - 1 && untaken == 0,
               "%s %lld at %d processes, gathered: %ld gathers, %ld checkpoints before their cells, up to %lld of "
               "%lld, tiles left in the mailboxes", game, (long long)n, ranks, p.gathers, p.late,
               (long long)p.gathered_to, (long long)(p.ti + p.tj - 1));
    while (p.store) {
        win *e = p.store;
        p.store = e->next;
        free(e->w);
        free(e);
    }
    for (int r = 0; r < ranks; r++) {
        ns_table_free(q[r].b.t);
        free(q[r].b.vals);
        free(q[r].b.seen);
    }
    ns_game_free(g);
}

/* an acquire that fails once a block has been used: the kernel stops */
static int acquire_fail(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t **w,
                        size_t *n)
{
    (void)user, (void)kind, (void)block, (void)bytes;
    *w = NULL;
    *n = 0;
    return version > 0;
}

static int release_free(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t *w, size_t n)
{
    (void)user, (void)kind, (void)block, (void)version, (void)bytes, (void)n;
    free(w);
    return 0;
}

static void check(const char *game, int64_t n, int ranks, int threads, int stream, uint64_t resume)
{
    check_box(game, 0, n, ranks, threads, stream, resume);
}

static void check_refusals(void)
{
    ns_error err = {0};
    ns_params none = {0};
    ns_game *g = ns_preset_build("wythoff", &none, 2, &err);
    int64_t rect[2] = {300, 400}, sq[2] = {300, 300};
    /* the longest ray the rule language makes, (x - 2^20 t, y - t),
     * owns its sets (the plain case); its kind gives its steps back */
    ns_game *kn = NULL;
    CHECK(ns_rules_compile("game kn\npiles x, y\nmove x -> x - t for t in 1..x\n"
                           "move (x, y) -> (x - 1048576*t, y - t) for t in 1..min(x / 1048576, y)\n",
                           "kn.rules", &none, 2, &kn, &err) == NS_OK);
    CHECK(kn && ns_game_set_bounds(kn, rect, &err) == NS_OK && owned_kind(kn) == 2);
    ns_game_free(kn);
    const int64_t kind = NS_LINES_RAY_KIND(NS_LINES_RAY_MAX, NS_LINES_RAY_MAX - 1);
    CHECK(NS_LINES_RAY_A(kind) == NS_LINES_RAY_MAX && NS_LINES_RAY_Q(kind) == NS_LINES_RAY_MAX - 1);
    CHECK(NS_LINES_RAY_A(NS_LINES_RAY_KIND(70, 0)) == 70 && NS_LINES_RAY_Q(NS_LINES_RAY_KIND(1, 100)) == 100);
    post p = {.x = {.ranks = 1}};
    proc q = {.b = {.p = &p.x}, .p = &p};
    q.b.x = (ns_tile_exchange){.mine = ns_xp_mine, .send = send_tile, .recv = recv_tile, .acquire = acquire,
                               .release = release, .user = &q, .ranks = 1, .holder = 1};
    ns_engine_opts o = {.threads = 1, .tile_exchange = &q.b.x};
    ns_table *t = NULL;
    CHECK(g && ns_game_set_bounds(g, sq, &err) == NS_OK && (t = ns_engine_table_new(g, 0, &err)));
    if (t) {
        /* a failing hook stops the kernel with NS_EIO, no hang */
        q.b.x.acquire = acquire_fail;
        q.b.x.release = release_free;
        CHECK(ns_engine_run(g, t, &o, &err) == NS_EIO);
        ns_table_free(t);
    }
    ns_game_free(g);
}

int main(void)
{
    W = ns_ref_wythoff_grid(WN, WN);
    CHECK(W != NULL);
    static const int64_t rowdiag[2][2] = {{0, 1}, {1, 1}}, rays[4][2] = {{1, 0}, {0, 1}, {2, 1}, {1, 3}},
                         longrays[4][2] = {{1, 0}, {0, 1}, {70, 1}, {1, 100}};
    RD = ns_ref_rays_grid(RN, RN, 2, rowdiag);
    RY = ns_ref_rays_grid(RN, RN, 4, rays);
    LR = ns_ref_rays_grid(RN, RN, 4, longrays);
    CHECK(RD != NULL && RY != NULL && LR != NULL);
    for (int r = 1; r <= MAXR; r++)
        for (int t = 1; t <= 2; t++) {
            check("wythoff", WN, r, t, 0, 0);
            check("wythoff", WN, r, t, 1, 0);
            /* resumes: after 3 of 9 anti-diagonals (rows 0 and 1 go on
             * elsewhere) and 5 (row 0 finished, rows 1 and 2 go on) */
            for (uint64_t u = 3; u <= 5; u += 2) {
                check("wythoff", WN, r, t, 0, u);
                check("wythoff", WN, r, t, 1, u);
            }
        }
    check("wythoff", 200, 4, 1, 0, 0);  /* 2 tile rows, 4 processes */
    check("wythoff", 200, 4, 1, 1, 2);
    check("wythoff", 100, 3, 2, 1, 0);  /* 1 tile row */
    check("nim", 700, 3, 2, 0, 0);
    check("nim", 700, 2, 1, 1, 0);
    check("nim", 700, 3, 2, 0, 4);
    check("nim", 700, 2, 1, 1, 6);
    /* the holder's exchange takes the others' tiles (gather): in memory
     * (its checkpoints find every cell of their units) and streaming, from
     * the start and resumed */
    for (int r = 2; r <= MAXR; r++)
        for (int st = 2; st <= 3; st++) {
            check("wythoff", WN, r, 2, st, 0);
            check("wythoff", WN, r, 1, st, 5);
        }
    check("nim", 700, 3, 2, 2, 4);
    /* the plain case: rectangles both ways (more tile rows than columns
     * and fewer), a game without the column move; resumed after 3 and 5
     * anti-diagonals (rows replayed in part handed over), gathered */
    for (int r = 1; r <= MAXR; r++) {
        check_box("wythoff", 300, WN, r, 2, 0, 0);
        check_box("wythoff", WN, 300, r, 1, 1, 0);
        check_box("wythoff", 300, WN, r, 1, 0, 3);
        check_box("wythoff", WN, 300, r, 2, 1, 5);
        check_box("rowdiag", RN, 260, r, 2, 0, 0);
        check_box("rowdiag", 260, RN, r, 1, 1, 4);
        check_box("rays", RN, 300, r, 2, 0, 0);
        check_box("rays", 300, RN, r, 1, 1, 3);
        check_box("rays", RN, RN, r, 2, 0, 5);
        check_box("longrays", RN, 300, r, 2, 0, 0);
        check_box("longrays", 300, RN, r, 1, 1, 3);
    }
    check_box("nim", 700, 300, 3, 2, 0, 0);
    check_box("nim", 300, 700, 2, 1, 1, 3);
    for (int r = 2; r <= MAXR; r++) {
        check_box("wythoff", 300, WN, r, 2, 2, 0);
        check_box("wythoff", WN, 300, r, 1, 3, 5);
        check_box("rowdiag", RN, 260, r, 2, 3, 0);
        check_box("rays", RN, 300, r, 1, 2, 4);
        check_box("longrays", RN, RN, r, 2, 3, 5);
    }
    /* blocks kept between uses: about 3 a process, and every one */
    for (int k = 0; k < 2; k++) {
        KEEPB = k ? (uint64_t)1 << 41 : 200000;
        for (int r = 1; r <= MAXR; r++) {
            check("wythoff", WN, r, 2, 0, 0);
            check("wythoff", WN, r, 1, 1, 5);
            check_box("rays", RN, 300, r, 2, 0, 3);
            check_box("wythoff", 300, WN, r, 1, 1, 0);
        }
        check("wythoff", WN, 3, 2, 2, 5);
        check_box("longrays", RN, RN, 3, 2, 3, 0);
        check("nim", 700, 3, 2, 0, 4);
    }
    KEEPB = 0;
    check_refusals();
    free(W);
    free(RD);
    free(RY);
    free(LR);
    return TEST_REPORT();
}
