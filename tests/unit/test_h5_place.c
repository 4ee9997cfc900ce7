/* test_h5_place.c - placed chunks (store/ns_h5_place.c, ns_h5.h): a
 * streamed table whose chunks another process writes, here in one
 * process, no MPI. Wythoff's Grundy table (a naive mex over the row, the
 * column and the diagonal, written here) is streamed twice in tiles of
 * 128 (tiles i <= j and their mirrors, as the tile kernel hands them on):
 *  - the plain way (ns_h5_stream_tile);
 *  - into a shared stream (ns_h5_stream_share), where some tiles are
 *    stored by the stream itself (rank 0's own) and the others packed
 *    (ns_h5_packer_tile, the pair a tile and its mirror make), placed
 *    (ns_h5_stream_place: no bytes written) and written through a
 *    descriptor of their own (ns_h5_place_write): half of them at once,
 *    the rest only at the end, in reverse order, after the stream wrote
 *    more of its own.
 * Both files read back (ns_h5_read) to the naive table, with the same
 * summary, and their P-positions are Wythoff's pairs (exact integers).
 * (Their sizes differ by a few bytes: HDF5's chunk index takes the chunks
 * in another order.)
 * Bad input: a request cut short, a tile out of the table, a mirror
 * without its tile, a place on a stream not shared: each refused.
 * Workers made on first use (ns_h5_stream_workers_made): a stream holds a
 * thread's chunk filter and buffers only once that thread has stored
 * something. The plain stream has 4 slots and is written on the calling
 * thread: none made by the open, 1 at the end. A third stream of the same
 * table has 8 slots and is written by a loop on 2 OpenMP threads: as many
 * made as threads stored tiles (2 at most), and the file is the same table.
 * A P/N stream of it (blocks of T rows, ns_h5_stream_pn_rows) with 8 slots:
 * each block is one /pn chunk, filled on one thread, so at most one worker
 * a block is made (3 of 8), and the file reads back to the table's P/N.
 * A P/N table's blocks of rows placed (ns_h5_packer_pn_rows, the row
 * kernel across ranks): test_pn_rows below. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ns_omp.h"
#include "store/ns_h5.h"

#include "naive.h"
#include "testutil.h"
#include "wythoff_check.h"

enum { N = 300, T = 128 };

static uint32_t *G;   /* the naive table, row-major N x N; owned */

static void tile_of(int64_t x0, int64_t y0, int64_t *nx, int64_t *ny, uint32_t *vals)
{
    *nx = x0 + T <= N ? T : N - x0;
    *ny = y0 + T <= N ? T : N - y0;
    for (int64_t i = 0; i < *nx; i++)
        for (int64_t j = 0; j < *ny; j++)
            vals[i * *ny + j] = G[(x0 + i) * N + y0 + j];
}

static ns_meta meta(void)
{
    ns_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "wythoff");
    m.threads = 1;
    m.complete = 1;
    return m;
}

typedef struct later {
    ns_h5_placing pl;
    void *reply;
    size_t reply_bytes;
} later;

/* A malformed request is refused (nothing placed, no reply): the
 * placing's request with word `word` set to v, or (word -1) cut short by a
 * word. */
static void check_refused(ns_h5_stream *s, const ns_h5_placing *pl, int word, int64_t v, const char *what)
{
    int64_t *bad = malloc(pl->req_bytes);
    CHECKF(bad, "%s: out of memory for the request", what);
    if (!bad)
        return;
    memcpy(bad, pl->req, pl->req_bytes);
    size_t bytes = pl->req_bytes;
    if (word < 0)
        bytes -= sizeof *bad;
    else
        bad[word] = v;
    void *r = NULL;
    size_t rb = 0;
    ns_error e = {0};
    CHECKF(ns_h5_stream_place(s, bad, bytes, &r, &rb, &e) != NS_OK && !r, "%s", what);
    free(bad);
}

/* The placings held back, written last, the latest first (freed). */
static void write_held(later *held, int nheld, int fd, const char *path)
{
    ns_error err = {0};
    for (int k = nheld - 1; k >= 0; k--) {
        CHECKF(ns_h5_place_write(fd, held[k].pl.data, held[k].pl.data_bytes, held[k].reply, held[k].reply_bytes,
                                 path, &err) == NS_OK,
               "write: %s", err.msg);
        free(held[k].pl.data);
        free(held[k].reply);
    }
}

/* Stream the whole table (every tile, in row order) into a stream of 8
 * slots from a loop on 2 OpenMP threads; *used gets how many of them
 * stored a tile. */
static void stream_on_two(ns_h5_stream *c, int *used)
{
    const int nt = (N + T - 1) / T;
    int on[2] = {0, 0}, bad = 0;
    ns_error first = {0};
    NS_PRAGMA(omp parallel num_threads(2))
    {
        uint32_t *v = malloc((size_t)T * T * sizeof *v);
        const int tid = ns_omp_thread_num();
        NS_PRAGMA(omp for schedule(static, 1))
        for (int k = 0; k < nt * nt; k++) {
            int64_t nx, ny;
            ns_error e = {0};
            ns_err rc = NS_ENOMEM;
            if (v) {
                tile_of(k / nt * T, k % nt * T, &nx, &ny, v);
                rc = ns_h5_stream_tile(c, k / nt * T, k % nt * T, nx, ny, v, &e);
            }
            on[tid] = 1;   /* each thread its own element */
            if (rc) {
                NS_PRAGMA(omp critical(test_two))
                {
                    if (!bad)
                        first = e;
                    bad = 1;
                }
            }
        }
        free(v);
    }
    CHECKF(!bad, "the stream on 2 threads: %s", first.msg);
    *used = on[0] + on[1];
}

/* The table of a written file (NULL, and a failed check, when it cannot
 * be read). */
static ns_table *read_back(const char *path, const char *what)
{
    ns_table *t = NULL;
    ns_meta m;
    memset(&m, 0, sizeof m);
    ns_error err = {0};
    CHECKF(ns_h5_read(path, &t, &m, &err) == NS_OK, "%s: read: %s", what, err.msg);
    ns_meta_free(&m);
    return t;
}

static void check_file(const char *path, const char *what)
{
    ns_table *t = read_back(path, what);
    if (!t)
        return;
    CHECKF(ns_ref_compare(what, t, G) == 0, "%s: the table is not the naive one", what);
    uint64_t np = 0;
    CHECKF(ns_wy_check_table(t, &np) == 0 && np > 100, "%s: the P-positions are not Wythoff's pairs", what);
    ns_table_free(t);
}

/* ---- a P/N table's blocks of rows, placed (the row kernel across ranks) ----
 * PR x PC cells in blocks of T rows and /pn chunks of 1024 columns (3 chunk
 * columns, the last cut short); the P-positions a fixed pseudo-random set,
 * with one block without any and the middle chunk column empty in another.
 * Streamed the plain way (ns_h5_stream_pn_rows) and into a shared stream
 * where blocks 0 and 2 are the stream's own and the others packed
 * (ns_h5_packer_pn_rows), placed and written, the first at once, the rest
 * at the end in reverse order. Both files read back to the set, cell for
 * cell, with its count; malformed requests are refused. */
enum { PR = 700, PC = 2600, PW = (PC + 63) / 64 };

static int pbit(int64_t x, int64_t y)
{
    if (x / T == 1)
        return 0;                       /* a block without a P-position */
    if (x / T == 3 && y >= 1024 && y < 2048)
        return 0;                       /* an empty chunk column */
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h % 211 == 0;
}

static void block_bits(int64_t x0, int64_t rows, uint64_t *bits)
{
    memset(bits, 0, (size_t)(T * PW) * sizeof *bits);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t y = 0; y < PC; y++)
            if (pbit(x0 + i, y))
                bits[i * PW + y / 64] |= (uint64_t)1 << (y % 64);
}

static void check_pn_file(const char *path, const char *what, uint64_t np)
{
    ns_table *t = read_back(path, what);
    if (!t)
        return;
    uint64_t bad = 0, got = 0;
    for (int64_t x = 0; x < PR; x++)
        for (int64_t y = 0; y < PC; y++) {
            const int p = ns_table_pn(t, (uint64_t)x * PC + (uint64_t)y) == NS_PN_P;
            got += p;
            bad += p != pbit(x, y);
        }
    CHECKF(t->pn_only && bad == 0 && got == np, "%s: %llu cells differ from the set, %llu P of %llu", what,
           (unsigned long long)bad, (unsigned long long)got, (unsigned long long)np);
    ns_table_free(t);
}

static void test_pn_rows(const char *dir)
{
    char pe[512], pf[512];
    snprintf(pe, sizeof pe, "%s/e.h5", dir);
    snprintf(pf, sizeof pf, "%s/f.h5", dir);
    const int64_t bounds[2] = {PR, PC};
    static uint64_t bits[T * PW];
    ns_error err = {0};
    uint64_t np = 0;
    for (int64_t x = 0; x < PR; x++)
        for (int64_t y = 0; y < PC; y++)
            np += (uint64_t)pbit(x, y);
    ns_meta m = meta();
    m.pn_only = 1;
    ns_table_stats se, sf;
    memset(&se, 0, sizeof se);
    memset(&sf, 0, sizeof sf);

    ns_h5_stream *e = ns_h5_stream_open(pe, bounds, 1, T, 2, 0, &err);
    CHECKF(e != NULL, "open e: %s", err.msg);
    for (int64_t x0 = 0; e && x0 < PR; x0 += T) {
        const int64_t rows = x0 + T <= PR ? T : PR - x0;
        block_bits(x0, rows, bits);
        CHECKF(ns_h5_stream_pn_rows(e, x0, rows, PW, bits, &err) == NS_OK, "e: %s", err.msg);
    }
    CHECKF(e && ns_h5_stream_close(e, &m, &se, &err) == NS_OK, "close e: %s", err.msg);

    ns_h5_stream *f = ns_h5_stream_open(pf, bounds, 1, T, 2, 0, &err);
    CHECKF(f != NULL, "open f: %s", err.msg);
    if (!f)
        return;
    CHECKF(ns_h5_stream_share(f, &err) == NS_OK, "share f: %s", err.msg);
    /* a P/N packer packs no tiles, and is never mirrored */
    CHECKF(ns_h5_packer_new(pf, bounds, 1, T, 2, 1, &err) == NULL, "a mirrored P/N packer");
    ns_h5_packer *pk = ns_h5_packer_new(pf, bounds, 1, T, 2, 0, &err);
    CHECKF(pk != NULL, "P/N packer: %s", err.msg);
    const int fd = open(ns_h5_stream_file(f), O_WRONLY);
    CHECKF(fd >= 0, "open %s for writing", ns_h5_stream_file(f));
    if (!pk || fd < 0)
        return;
    {
        ns_h5_placing pl;
        static uint32_t v[T * T];
        ns_error e2 = {0};
        CHECKF(ns_h5_packer_tile(pk, 0, 0, T, T, v, &pl, &e2) < 0, "a tile into a P/N packer");
        CHECKF(ns_h5_packer_pn_rows(pk, 1, T, PW, bits, &pl, &e2) < 0, "a block not at a block's row");
        CHECKF(ns_h5_packer_pn_rows(pk, 0, T, PW - 1, bits, &pl, &e2) < 0, "a block of short rows");
    }
    later held[8];
    int nheld = 0, placed = 0;
    for (int64_t x0 = 0; x0 < PR; x0 += T) {
        const int64_t rows = x0 + T <= PR ? T : PR - x0;
        block_bits(x0, rows, bits);
        if (x0 / T == 0 || x0 / T == 2) {
            CHECKF(ns_h5_stream_pn_rows(f, x0, rows, PW, bits, &err) == NS_OK, "f: %s", err.msg);
            continue;
        }
        ns_h5_placing pl;
        CHECKF(ns_h5_packer_pn_rows(pk, x0, rows, PW, bits, &pl, &err) == 0, "pack the rows at %lld: %s",
               (long long)x0, err.msg);
        const int64_t *rq = pl.req;
        if (x0 / T == 1)
            CHECKF(rq[3] == 0 && rq[4] == 0, "the block without a P-position: %lld chunks, %lld P",
                   (long long)rq[3], (long long)rq[4]);
        if (x0 / T == 3)
            CHECKF(rq[3] == 2 && rq[5] == 0 && rq[7] == 2048, "the block with an empty chunk column: %lld chunks",
                   (long long)rq[3]);
        if (placed == 1) {
            /* malformed: cut short, moved off its block's row, a chunk off its column */
            check_refused(f, &pl, -1, 0, "a block's request cut short");
            check_refused(f, &pl, 1, x0 + 1, "a block off its row");
            check_refused(f, &pl, 5, 1000, "a chunk off its column");
        }
        later *h = &held[nheld];
        CHECKF(ns_h5_stream_place(f, pl.req, pl.req_bytes, &h->reply, &h->reply_bytes, &err) == NS_OK,
               "place the rows at %lld: %s", (long long)x0, err.msg);
        free(pl.req);
        h->pl = pl;
        if (placed++ == 0) {
            CHECKF(ns_h5_place_write(fd, pl.data, pl.data_bytes, h->reply, h->reply_bytes, pf, &err) == NS_OK,
                   "write: %s", err.msg);
            free(pl.data);
            free(h->reply);
        } else {
            nheld++;
        }
    }
    write_held(held, nheld, fd, pf);
    close(fd);
    CHECKF(placed == 4 && nheld == 3, "P/N: %d blocks placed, %d held", placed, nheld);
    CHECKF(ns_h5_stream_flush(f, &err) == NS_OK, "flush f: %s", err.msg);
    CHECKF(ns_h5_stream_close(f, &m, &sf, &err) == NS_OK, "close f: %s", err.msg);
    ns_h5_packer_free(pk);
    check_pn_file(pe, "the P/N stream", np);
    check_pn_file(pf, "the shared P/N stream", np);
    CHECKF(np > 1000 && se.n_p == np && sf.n_p == np && se.n_valid == (uint64_t)PR * PC && sf.n_valid == se.n_valid,
           "P/N summaries: %llu / %llu P of %llu, %llu / %llu cells", (unsigned long long)se.n_p,
           (unsigned long long)sf.n_p, (unsigned long long)np, (unsigned long long)se.n_valid,
           (unsigned long long)sf.n_valid);
    remove(pe);
    remove(pf);
}

int main(void)
{
    G = ns_ref_wythoff_grid(N, N);
    if (!G)
        return 2;
    uint64_t np = 0;
    for (int64_t i = 0; i < (int64_t)N * N; i++)
        np += G[i] == 0;
    char dir[] = "/tmp/ns_place_XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    char pa[512], pb[512], pc[512], pd[512];
    snprintf(pa, sizeof pa, "%s/a.h5", dir);
    snprintf(pb, sizeof pb, "%s/b.h5", dir);
    snprintf(pc, sizeof pc, "%s/c.h5", dir);
    snprintf(pd, sizeof pd, "%s/d.h5", dir);
    const int64_t bounds[2] = {N, N};
    ns_error err = {0};
    static uint32_t vals[T * T], mir[T * T];
    int64_t nx, ny;

    /* the plain stream: 4 slots, written on this thread only */
    ns_h5_stream *a = ns_h5_stream_open(pa, bounds, 2, T, 4, 0, &err);
    CHECKF(a != NULL, "open a: %s", err.msg);
    CHECKF(ns_h5_stream_workers_made(a) == 0, "a: %d workers made by the open", ns_h5_stream_workers_made(a));
    for (int64_t i = 0; a && i * T < N; i++)
        for (int64_t j = i; j * T < N; j++) {
            tile_of(i * T, j * T, &nx, &ny, vals);
            CHECKF(ns_h5_stream_tile(a, i * T, j * T, nx, ny, vals, &err) == NS_OK, "a: %s", err.msg);
            if (i != j) {
                tile_of(j * T, i * T, &nx, &ny, mir);
                CHECKF(ns_h5_stream_tile(a, j * T, i * T, nx, ny, mir, &err) == NS_OK, "a: %s", err.msg);
            }
        }
    CHECKF(ns_h5_stream_workers_made(a) == 1, "a: %d workers made for 1 thread of 4 slots",
           ns_h5_stream_workers_made(a));
    ns_meta m = meta();
    ns_table_stats sa, sb, sc, sd;
    CHECKF(a && ns_h5_stream_close(a, &m, &sa, &err) == NS_OK, "close a: %s", err.msg);

    /* 8 slots, 2 threads write */
    ns_h5_stream *c = ns_h5_stream_open(pc, bounds, 2, T, 8, 0, &err);
    CHECKF(c != NULL, "open c: %s", err.msg);
    if (c) {
        int used = 0;
        CHECKF(ns_h5_stream_workers_made(c) == 0, "c: %d workers made by the open", ns_h5_stream_workers_made(c));
        stream_on_two(c, &used);
        const int made = ns_h5_stream_workers_made(c);
        CHECKF(used >= 1 && used <= 2 && made == used, "c: %d workers made of 8 slots, %d threads stored", made,
               used);
        CHECKF(ns_h5_stream_close(c, &m, &sc, &err) == NS_OK, "close c: %s", err.msg);
    }

    /* P/N in blocks of T rows, 8 slots */
    ns_h5_stream *d = ns_h5_stream_open(pd, bounds, 1, T, 8, 0, &err);
    CHECKF(d != NULL, "open d: %s", err.msg);
    if (d) {
        enum { WORDS = (N + 63) / 64 };
        static uint64_t bits[T * WORDS];
        int blocks = 0;
        CHECKF(ns_h5_stream_workers_made(d) == 0, "d: %d workers made by the open", ns_h5_stream_workers_made(d));
        for (int64_t x0 = 0; x0 < N; x0 += T, blocks++) {
            const int64_t rows = x0 + T <= N ? T : N - x0;
            memset(bits, 0, sizeof bits);
            for (int64_t i = 0; i < rows; i++)
                for (int64_t y = 0; y < N; y++)
                    if (G[(x0 + i) * N + y] == 0)
                        bits[i * WORDS + y / 64] |= (uint64_t)1 << (y % 64);
            CHECKF(ns_h5_stream_pn_rows(d, x0, rows, WORDS, bits, &err) == NS_OK, "d: %s", err.msg);
        }
        const int made = ns_h5_stream_workers_made(d);
        CHECKF(made >= 1 && made <= blocks && blocks < 8, "d: %d workers made of 8 slots for %d one-chunk blocks",
               made, blocks);
        ns_meta mp = meta();
        mp.pn_only = 1;
        CHECKF(ns_h5_stream_close(d, &mp, &sd, &err) == NS_OK, "close d: %s", err.msg);
    }

    /* the shared stream */
    ns_h5_stream *b = ns_h5_stream_open(pb, bounds, 2, T, 1, 0, &err);
    CHECKF(b != NULL, "open b: %s", err.msg);
    if (!b)
        return 1;
    {
        /* a place on a stream not shared is refused */
        void *r = NULL;
        size_t rb = 0;
        int64_t req[1] = {1};
        ns_error e = {0};
        CHECKF(ns_h5_stream_place(b, req, sizeof req, &r, &rb, &e) != NS_OK && !r, "a place on a stream not shared");
    }
    CHECKF(ns_h5_stream_share(b, &err) == NS_OK, "share: %s", err.msg);
    ns_h5_packer *pk = ns_h5_packer_new(pb, bounds, 2, T, 1, 1, &err);
    CHECKF(pk != NULL, "packer: %s", err.msg);
    const int fd = open(ns_h5_stream_file(b), O_WRONLY);
    CHECKF(fd >= 0, "open %s for writing", ns_h5_stream_file(b));
    if (!pk || fd < 0)
        return 1;
    {
        /* a mirror without its tile is refused */
        ns_h5_placing pl;
        ns_error e = {0};
        tile_of(T, 0, &nx, &ny, mir);
        CHECKF(ns_h5_packer_tile(pk, T, 0, nx, ny, mir, &pl, &e) < 0 && strstr(e.msg, "out of its pair"),
              "a mirror alone: %s", e.msg);
    }
    later held[16];
    int nheld = 0, placed = 0, own = 0;
    for (int64_t i = 0; i * T < N; i++)
        for (int64_t j = i; j * T < N; j++) {
            tile_of(i * T, j * T, &nx, &ny, vals);
            if ((i + j) % 2 == 0 && !(i == 0 && j == 0)) {
                /* rank 0's own tile */
                own++;
                CHECKF(ns_h5_stream_tile(b, i * T, j * T, nx, ny, vals, &err) == NS_OK, "b: %s", err.msg);
                if (i != j) {
                    tile_of(j * T, i * T, &nx, &ny, mir);
                    CHECKF(ns_h5_stream_tile(b, j * T, i * T, nx, ny, mir, &err) == NS_OK, "b: %s", err.msg);
                }
                continue;
            }
            ns_h5_placing pl;
            int r = ns_h5_packer_tile(pk, i * T, j * T, nx, ny, vals, &pl, &err);
            CHECKF(r == (i == j ? 1 : 0), "pack (%lld,%lld): %d %s", (long long)i, (long long)j, r, err.msg);
            if (i != j) {
                tile_of(j * T, i * T, &nx, &ny, mir);
                r = ns_h5_packer_tile(pk, j * T, i * T, nx, ny, mir, &pl, &err);
                CHECKF(r == 1, "pack the mirror of (%lld,%lld): %d %s", (long long)i, (long long)j, r, err.msg);
            }
            if (r != 1)
                continue;
            CHECKF(pl.x0 == i * T && pl.y0 == j * T, "the placing names %lld,%lld", (long long)pl.x0,
                  (long long)pl.y0);
            if (placed == 0) {
                /* malformed requests are refused: cut short, a tile moved out of the table */
                check_refused(b, &pl, -1, 0, "a request cut short");
                check_refused(b, &pl, 1, N + T, "a tile out of the table");   /* x0 past the table */
            }
            later *h = &held[nheld];
            CHECKF(ns_h5_stream_place(b, pl.req, pl.req_bytes, &h->reply, &h->reply_bytes, &err) == NS_OK,
                  "place: %s", err.msg);
            free(pl.req);
            pl.req = NULL;
            h->pl = pl;
            placed++;
            if (placed % 2) {
                /* written at once */
                CHECKF(ns_h5_place_write(fd, pl.data, pl.data_bytes, h->reply, h->reply_bytes, pb, &err) == NS_OK,
                      "write: %s", err.msg);
                free(pl.data);
                free(h->reply);
            } else {
                nheld++;
            }
        }
    CHECKF(own >= 2 && placed >= 3 && nheld >= 1, "the shares: %d own, %d placed, %d held", own, placed, nheld);
    /* a reply that is not the data's: refused */
    if (nheld) {
        uint64_t wrong[3] = {2, 0, 0};
        ns_error e = {0};
        CHECKF(ns_h5_place_write(fd, held[0].pl.data, held[0].pl.data_bytes, wrong, sizeof wrong, pb, &e) != NS_OK,
              "a reply for another placing");
    }
    /* the rest written last, the latest first */
    write_held(held, nheld, fd, pb);
    close(fd);
    CHECKF(ns_h5_stream_io(b) == 3, "the shared stream's io: %d", ns_h5_stream_io(b));
    CHECKF(ns_h5_stream_flush(b, &err) == NS_OK, "flush b: %s", err.msg);
    CHECKF(ns_h5_stream_close(b, &m, &sb, &err) == NS_OK, "close b: %s", err.msg);
    ns_h5_packer_free(pk);

    check_file(pa, "the plain stream");
    check_file(pb, "the shared stream");
    check_file(pc, "the stream of 8 slots on 2 threads");
    check_file(pd, "the P/N stream of 8 slots");
    CHECKF(sc.n_valid == sa.n_valid && sc.n_p == sa.n_p && sc.max_value == sa.max_value,
           "the stream on 2 threads: %llu cells, %llu P, max %u", (unsigned long long)sc.n_valid,
           (unsigned long long)sc.n_p, sc.max_value);
    CHECKF(sd.n_valid == sa.n_valid && sd.n_p == np, "the P/N stream: %llu cells, %llu P",
           (unsigned long long)sd.n_valid, (unsigned long long)sd.n_p);
    CHECKF(sa.n_valid == (uint64_t)N * N && sb.n_valid == sa.n_valid && sb.n_p == sa.n_p && sa.n_p == np &&
              sb.max_value == sa.max_value,
          "summaries: %llu/%llu cells, %llu/%llu P, max %u/%u", (unsigned long long)sa.n_valid,
          (unsigned long long)sb.n_valid, (unsigned long long)sa.n_p, (unsigned long long)sb.n_p, sa.max_value,
          sb.max_value);
    test_pn_rows(dir);
    remove(pa);
    remove(pb);
    remove(pc);
    remove(pd);
    rmdir(dir);
    free(G);
    return TEST_REPORT();
}
