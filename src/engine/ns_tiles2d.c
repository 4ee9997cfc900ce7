/* ns_tiles2d.c - Grundy sieve for two-pile games of plain rays, in tiles
 * (the engine "tiles2d" of ns_engine.h).
 *
 * Applies when: Grundy values, k = 2, no domain restriction, and every
 * family is a plain ray (first option one step along it) along the row,
 * (0,-1), or with direction (-a, dy), a >= 1, dy <= 0, primitive. Wythoff,
 * two-pile Nim and rule files of such rays qualify. Normal and misere play.
 *
 * Every family is a plain ray: along the row, (0,-1), or with direction
 * (-a, dy), a >= 1, dy <= 0, first option one step along it. A cell then
 * depends only on cells up and to the left of it, so the table is cut into
 * B x B tiles computed row by row inside, run in parallel as a wavefront
 * (each thread takes a row of tiles and follows the row above it; see
 * run_rows). Each line keeps the bitset of values seen on it and that
 * set's summary (below): the lines of direction (-a, dy) are
 * c = a*y + dy*x, and two tiles that can run at once never share a line,
 * so no locks are needed.
 *
 * A cell's value is the smallest v that is in none of its lines' sets: the
 * first zero of the OR of their bitsets. Each set also keeps a summary, a
 * bit per word of the set that is set when the word is full (all 64
 * values present), and the index of its first word that is not full. Below
 * the largest of those indices every word of the OR is full (that line's
 * word is), and so is every word for which any summary bit is set; the
 * answer lies in one of the other words. The mex reads the OR of the
 * summaries, 64 words of the sets at a time, and the sets' words only
 * where that OR is 0. In Wythoff's game the OR of the sets is full for ~0.2 N
 * values past the start (each set has long full runs that cover the
 * others' holes), but only ~1.4 (N = 1024) to ~1.75 (N = 8192) words of that
 * range, the answer's word included, have no full word in any set: a cell
 * costs O(1 + N / 2^12) word operations instead of the O(N / 64) of a
 * scan (the benchmark's "(scan mex)" rows: 1.1-1.3x at N = 8192, 1.45x at
 * 32768, growing with N). The scans stay, selectable
 * (ns_engine_opts.mex_scan), for the benchmark's comparison and the tests.
 * (Tried and dropped earlier: a leapfrog over each set's next zero with
 * summary bitsets, ~3.5 rounds per cell, its branches 2.6x slower than the
 * wide scan.)
 *
 * Symmetric games (square box; moves along the row, the column and maybe
 * the diagonal: Wythoff, two-pile Nim) compute only x <= y, with one set per
 * index for row x and column x together, and mirror each value: half the
 * cells and two thirds of the line memory.
 *
 * A tile anti-diagonal is the unit of checkpoints; a resume replays the
 * finished ones (their cells go into the lines, no mex). Across processes
 * (o->tile_exchange) the holder replays them and sends each on; the others
 * receive and replay them as they do other processes' tiles.
 *
 * Owned line sets (x->acquire and x->release; the symmetric case and the
 * plain case, own_before): the sets are reserved, not allocated; a process computes only its own tile
 * rows, each tile between own_before (the blocks of lines it needs, from
 * the exchange) and own_after (packed and handed on, their pages given
 * back), and holds only those blocks; see ns_engine.h. A resume: the
 * holder replays every finished tile the same way, between own_before and
 * own_after (the versions are tile rows, whoever does the row), so the
 * blocks reach their homes as a run from the start leaves them; the
 * others skip the finished tiles.
 *
 * Streaming (no table: o->tile_sink): the cells of a tile go to a buffer
 * of the thread's (and its mirror tile's to a second one), handed to the
 * sink when the tile is done; only the line sets stay in memory. A
 * streamed resume replays the finished tiles read back through
 * o->tile_source (the line sets are rebuilt, not stored in checkpoints:
 * they are larger than the table's compressed tiles). */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, MADV_DONTNEED */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/ns_hugemem.h"
#include "core/ns_omp.h"
#include "core/ns_intmath.h"

enum { TILE = 128, MAXG = 16 };

static int64_t tiles2d_tile(void)
{
    return TILE;
}

typedef struct lines {
    int64_t a, dy, cmin;
    int64_t n;
    uint64_t *bits;     /* n * stride, 64-byte aligned, inside raw */
    void *raw;          /* the allocation; owned */
    size_t mapped;      /* its size when mmap'ed (huge pages), else 0 */
    uint64_t *full;     /* n * fstride: bit w of a line's summary = its word w is full; owned */
    size_t fmapped;     /* owned line sets: the size of full's mapping, else 0 (calloc) */
    uint32_t *first;    /* per line: its first word that is not full; owned */
    int64_t bshift;     /* owned line sets: block b of the exchange is the
                           lines' block b + bshift (the plain case: q x
                           tile rows, own_before) */
    uint8_t *kept;      /* owned line sets: per block (b + bshift), 1 while
                           its pages are kept between uses (own_put); owned */
    uint32_t *kend;     /* per line of a kept block: the end of the words
                           its pages still hold (own_put); owned */
} lines;

typedef struct tiles {
    ns_table *t;
    int64_t n0, n1;
    uint64_t words;     /* words of a set that hold values below cap */
    uint64_t stride;    /* words between sets: words rounded up to a
                           vector (8 words) plus a zero tail of 32 words
                           that wide scans may read past the end */
    uint64_t fstride;   /* words between summaries: one bit per word of a
                           set, and at least one bit past words (never set) */
    uint32_t cap;
    int scan;           /* 0: the summaries' mex; 1: scans, AVX-512 where
                           the processor has it; 2: scans four words a step */
    ns_tile_fn sink;    /* streaming when t == NULL */
    ns_tile_src_fn source; /* a streamed resume: reads finished tiles back */
    void *sink_user;
    uint32_t *tbuf;     /* streaming: 2 tiles per thread; owned */
    volatile int sink_failed;
    int misere;
    int row_ray;
    lines rows;         /* row sets (a = 0), when row_ray */
    int ng;
    lines g[MAXG];
    volatile int overflow;
    const ns_tile_exchange *x; /* across processes (ns_tile_exchange), or NULL */
    volatile int xfailed;   /* a hook of x failed */
    int owned;              /* owned line sets (x->acquire): see own_before */
    int plain;              /* owned line sets without symmetry (the plain
                               case: own_before) */
    int64_t ti, tj;         /* tile rows and columns (owned line sets) */
    int64_t resumed;        /* anti-diagonals a resume replays (owned line sets) */
    uint64_t keep;          /* owned line sets: x->keep (own_put) */
    uint64_t kept;          /* the bytes of the kept blocks (atomic) */
} tiles;

/* how a tile is done: computed, replayed from the table or the tile
 * source (a resume), or received from another process (x) and replayed */
enum { COMPUTE = 0, REPLAY = 1, REMOTE = 2, TAKE = 3, SKIP = 4 };
/* owned line sets: TAKE, the holder takes another process's tile into its
 * table or sink (not into its sets); SKIP, another process's tile row */

enum { TAIL = 32 };

/* line sets at least this large are mapped with huge pages */
#define HUGE_SETS ((size_t)4 << 20)

static uint64_t set_stride(uint64_t words)
{
    return (words + 7) / 8 * 8 + TAIL;
}

static int plain_ray(const ns_family *f, int *is_row)
{
    *is_row = 0;
    if (f->kind != NS_FAM_RAY || f->dir[0] != f->base[0] || f->dir[1] != f->base[1])
        return 0;
    if (f->dir[0] == 0 && f->dir[1] == -1) {
        *is_row = 1;
        return 1;
    }
    /* lines c = a*y + dy*x are the ray's lines only for a primitive
     * direction: (-2,-2) reaches every other diagonal cell */
    return f->dir[0] < 0 && f->dir[1] <= 0 && ns_gcd64(-f->dir[0], f->dir[1]) == 1;
}

static int tiles2d_applies(const ns_game *g, const ns_engine_opts *o, char *why, size_t len)
{
    const char *r = NULL;
    char buf[NS_ENGINE_WHY];
    if (o->pn_only)
        r = "needs a Grundy table (not --pn-only)";
    else if (o->rows_sink)
        r = "streams Grundy tiles, not P/N rows";
    else if (g->k != 2)
        snprintf(buf, sizeof buf, "needs 2 piles (the game has %d)", g->k), r = buf;
    else if (g->valid)
        r = "needs the whole box (the game has a domain)";
    else if (g->nfam == 0)
        r = "the game has no moves";
    int ng = 0;
    for (int f = 0; !r && f < g->nfam; f++) {
        int row;
        if (!plain_ray(&g->fam[f], &row))
            snprintf(buf, sizeof buf, "'%.60s' is not a plain ray along (0,-1) or (-a,dy), a >= 1, dy <= 0, primitive, "
                     "first option one step along it", g->fam[f].label), r = buf;
        ng += !row;
    }
    if (!r && ng > MAXG)
        snprintf(buf, sizeof buf, "more than %d ray directions besides the row (%d)", MAXG, ng), r = buf;
    if (r && why)
        snprintf(why, len, "%s", r);
    return !r;
}

static uint64_t set_fstride(uint64_t words)
{
    return words / 64 + 1;
}

/* Add v to line c of L. A word that becomes full sets its summary bit; the
 * line's first non-full word moves on through the summary. */
static inline void put(lines *L, uint64_t stride, uint64_t fstride, uint32_t cap, int64_t c, uint32_t v)
{
    if (v >= cap)
        return;
    uint64_t *b = L->bits + (uint64_t)c * stride;
    const uint64_t w = v >> 6;
    b[w] |= (uint64_t)1 << (v & 63);
    if (__builtin_expect(~b[w] != 0, 1))
        return;
    uint64_t *f = L->full + (uint64_t)c * fstride;
    f[w >> 6] |= (uint64_t)1 << (w & 63);
    if (w != L->first[c])
        return;
    uint64_t sw = w >> 6, m = ~f[sw];
    while (!m)   /* ends: the summary's bits past the words are never set */
        m = ~f[++sw];
    L->first[c] = (uint32_t)((sw << 6) + (uint64_t)__builtin_ctzll(m));
}

/* The summaries' mex of the np sets ptr[] (summaries fp[]): every word of
 * their OR below w is full. Reads the OR of the summaries from w on and the
 * sets' words only where it is 0 (no set's word full there); cap when
 * none is below cap. A candidate word exists at or before words (the
 * summaries' bits there are never set). Inlined with np a constant (3 for
 * every symmetric game), its loops unroll. */
static inline uint32_t summary_mex(const uint64_t *const *ptr, const uint64_t *const *fp, int np, uint64_t w,
                                   uint64_t words, uint32_t cap)
{
    uint64_t sw = w >> 6, z = 0;
    for (int i = 0; i < np; i++)
        z |= fp[i][sw];
    z = ~z & (~(uint64_t)0 << (w & 63));
    for (;;) {
        while (!z) {
            sw++;
            for (int i = 0; i < np; i++)
                z |= fp[i][sw];
            z = ~z;
        }
        w = (sw << 6) + (uint64_t)__builtin_ctzll(z);
        if (w >= words)
            return cap;
        uint64_t v = 0;
        for (int i = 0; i < np; i++)
            v |= ptr[i][w];
        if (~v) {
            const uint64_t m = (w << 6) + (uint64_t)__builtin_ctzll(~v);
            return m < cap ? (uint32_t)m : cap;
        }
        z &= z - 1;
    }
}

/* First word index >= w below words where p0 | p1 | p2 is not all ones
 * (words when none): four words a step. */
static uint64_t full3_scalar(const uint64_t *p0, const uint64_t *p1, const uint64_t *p2, uint64_t w, uint64_t words)
{
    for (; w + 4 <= words; w += 4) {
        uint64_t a0 = p0[w] | p1[w] | p2[w], a1 = p0[w + 1] | p1[w + 1] | p2[w + 1];
        uint64_t a2 = p0[w + 2] | p1[w + 2] | p2[w + 2], a3 = p0[w + 3] | p1[w + 3] | p2[w + 3];
        if (~(a0 & a1 & a2 & a3))
            break;
    }
    for (; w < words; w++)
        if (~(p0[w] | p1[w] | p2[w]))
            break;
    return w;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NS_HAVE_WIDE 1
/* Mex of p0 | p1 | p2 (cap when none below cap), where every value below
 * lo is in one of the sets (lo starts the largest first non-full word): 32 words
 * (four AVX-512 vectors) a step from the aligned vector holding lo, so the
 * mex of a typical cell is found in one step with one well-predicted
 * branch. The sets are 64-byte aligned with a zero tail of TAIL words after
 * their words (see set_stride), so the steps may read past the end. */
__attribute__((target("avx512f"))) static uint32_t mex3_avx512(const uint64_t *p0, const uint64_t *p1,
                                                               const uint64_t *p2, uint32_t lo, uint64_t words,
                                                               uint32_t cap)
{
    const __m512i ones = _mm512_set1_epi64(-1);
    for (uint64_t w = (lo >> 6) & ~(uint64_t)7;; w += 32) {
        const __m512i v0 = _mm512_ternarylogic_epi64(_mm512_load_si512(p0 + w), _mm512_load_si512(p1 + w),
                                                     _mm512_load_si512(p2 + w), 0xFE);
        const __m512i v1 = _mm512_ternarylogic_epi64(_mm512_load_si512(p0 + w + 8), _mm512_load_si512(p1 + w + 8),
                                                     _mm512_load_si512(p2 + w + 8), 0xFE);
        const __m512i v2 = _mm512_ternarylogic_epi64(
            _mm512_load_si512(p0 + w + 16), _mm512_load_si512(p1 + w + 16), _mm512_load_si512(p2 + w + 16), 0xFE);
        const __m512i v3 = _mm512_ternarylogic_epi64(
            _mm512_load_si512(p0 + w + 24), _mm512_load_si512(p1 + w + 24), _mm512_load_si512(p2 + w + 24), 0xFE);
        const uint32_t k = (uint32_t)_mm512_cmpneq_epi64_mask(v0, ones) |
                           (uint32_t)_mm512_cmpneq_epi64_mask(v1, ones) << 8 |
                           (uint32_t)_mm512_cmpneq_epi64_mask(v2, ones) << 16 |
                           (uint32_t)_mm512_cmpneq_epi64_mask(v3, ones) << 24;
        if (k) {
            const uint64_t i = w + (uint64_t)__builtin_ctz(k);
            if (i >= words)
                return cap;
            const uint64_t m = (i << 6) + (uint64_t)__builtin_ctzll(~(p0[i] | p1[i] | p2[i]));
            return m < cap ? (uint32_t)m : cap;
        }
    }
}
#endif

/* Mex of the union of the np sets ptr[], scanned from lo, below which
 * every value is in one of them; cap when none is below cap. */
static inline uint32_t scan_mex(const uint64_t *const *ptr, int np, uint64_t words, uint32_t cap, uint32_t lo,
                                int wide)
{
    (void)wide;
    if (lo >= cap)
        return cap;
#ifdef NS_HAVE_WIDE
    if (np == 3 && wide)
        return mex3_avx512(ptr[0], ptr[1], ptr[2], lo, words, cap);
#endif
    uint64_t w = lo >> 6;
    uint64_t v = ((uint64_t)1 << (lo & 63)) - 1;
    for (int i = 0; i < np; i++)
        v |= ptr[i][w];
    if (~v == 0) {
        w++;
        if (np == 3) {
            w = full3_scalar(ptr[0], ptr[1], ptr[2], w, words);
        }
        for (; w < words; w++) {
            v = 0;
            for (int i = 0; i < np; i++)
                v |= ptr[i][w];
            if (~v)
                break;
        }
    }
    return w < words ? (uint32_t)(w << 6) + (uint32_t)__builtin_ctzll(~v) : cap;
}

/* The cell's mex from the sets ptr[] (summaries fp[]), every word of
 * whose OR below w0 is full: by the summaries, or by a scan (T->scan). */
static inline uint32_t cell_mex(const tiles *T, const uint64_t *const *ptr, const uint64_t *const *fp, int np,
                                uint64_t w0)
{
    if (T->scan == 0)
        return np == 3 ? summary_mex(ptr, fp, 3, w0, T->words, T->cap) : summary_mex(ptr, fp, np, w0, T->words, T->cap);
    if (w0 >= T->words || (w0 << 6) >= (uint64_t)T->cap)
        return T->cap;
    return scan_mex(ptr, np, T->words, T->cap, (uint32_t)(w0 << 6), T->scan == 1);
}

/* A resume's finished tile into the thread's buffer tb: read back through
 * the tile source (streaming), or copied from the table (in memory, across
 * processes: the holder sends it on). Non-zero when the source failed. */
static int replay_tile(tiles *T, int64_t x0, int64_t x1, int64_t y0, int64_t y1, uint32_t *tb)
{
    if (!T->t) {
        if (!T->source(T->sink_user, x0, y0, x1 - x0, y1 - y0, tb))
            return 0;
        T->sink_failed = 1;
        return 1;
    }
    for (int64_t x = x0; x < x1; x++)
        for (int64_t y = y0; y < y1; y++)
            tb[(x - x0) * (y1 - y0) + (y - y0)] = ns_table_get(T->t, (uint64_t)x * (uint64_t)T->n1 + (uint64_t)y);
    return 0;
}

/* A finished tile (and in the symmetric case its mirror) from the
 * thread's buffer to the sink, and a computed one to the exchange. A
 * computed tile goes out after its row has published it (run_rows): the
 * next row's thread may compute below it meanwhile, so the filtering and
 * writing of the stream are off the wavefront's chain. */
static void tile_out(tiles *T, int64_t x0, int64_t x1, int64_t y0, int64_t y1, int sym, int replay)
{
    uint32_t *tb = T->tbuf ? T->tbuf + (size_t)2 * TILE * TILE * (size_t)ns_omp_thread_num() : NULL;
    if (!tb)
        return;
    uint32_t *mb = sym && x0 != y0 ? tb + TILE * TILE : tb;
    if (!T->sink)
        ;
    else if (T->sink(T->sink_user, x0, y0, x1 - x0, y1 - y0, tb))
        T->sink_failed = 1;
    else if (mb != tb && T->sink(T->sink_user, y0, x0, y1 - y0, x1 - x0, mb))
        T->sink_failed = 1;
    /* only the tile i <= j travels: the mirror is filled where it arrives */
    if (replay == COMPUTE && T->x && T->x->send(T->x->user, x0, y0, x1 - x0, y1 - y0, tb))
        T->xfailed = 1;
}

/* replay (REPLAY): the tile's cells are final in the table (a resume);
 * only put them into their lines. REMOTE: received from the process that
 * computed it, then put into the lines and the table or the sink. */
static void do_tile(tiles *T, int64_t x0, int64_t x1, int64_t y0, int64_t y1, int replay)
{
    /* the thread's buffer: streaming, or an exchange's values */
    uint32_t *tb = T->tbuf ? T->tbuf + (size_t)2 * TILE * TILE * (size_t)ns_omp_thread_num() : NULL;
    if (replay == REMOTE && T->x->recv(T->x->user, x0, y0, x1 - x0, y1 - y0, tb)) {
        T->xfailed = 1;
        return;
    }
    if (tb && replay == REPLAY && replay_tile(T, x0, x1, y0, y1, tb))
        return;
    const uint64_t stride = T->stride, fstride = T->fstride;
    const uint32_t cap = T->cap;
    const uint64_t *ptr[MAXG + 1], *fp[MAXG + 1];
    int64_t cidx[MAXG];
    for (int64_t x = x0; x < x1; x++) {
        for (int64_t y = y0; y < y1; y++) {
            int np = 0;
            uint64_t w0 = 0;
            int any = 0;
            if (T->row_ray) {
                ptr[np] = T->rows.bits + (uint64_t)x * stride;
                fp[np++] = T->rows.full + (uint64_t)x * fstride;
                w0 = T->rows.first[x];
                any |= y > 0;
            }
            for (int i = 0; i < T->ng; i++) {
                const lines *L = &T->g[i];
                int64_t c = L->a * y + L->dy * x - L->cmin;
                cidx[i] = c;
                ptr[np] = L->bits + (uint64_t)c * stride;
                fp[np++] = L->full + (uint64_t)c * fstride;
                if (L->first[c] > w0)
                    w0 = L->first[c];
                any |= x >= L->a && y + L->dy >= 0;
            }
            uint32_t m;
            if (replay) {
                m = tb ? tb[(x - x0) * (y1 - y0) + (y - y0)]
                       : ns_table_get(T->t, (uint64_t)x * (uint64_t)T->n1 + (uint64_t)y);
                if (replay == REMOTE && T->t)
                    ns_table_set(T->t, (uint64_t)x * (uint64_t)T->n1 + (uint64_t)y, m);
            } else {
                m = cell_mex(T, ptr, fp, np, w0);
                if (T->misere && !any)
                    m = 1;
                if (m >= cap) {
                    T->overflow = 1;
                    m = 0;
                }
                if (tb)
                    tb[(x - x0) * (y1 - y0) + (y - y0)] = m;
                if (T->t)
                    ns_table_set(T->t, (uint64_t)x * (uint64_t)T->n1 + (uint64_t)y, m);
            }
            if (T->row_ray)
                put(&T->rows, stride, fstride, cap, x, m);
            for (int i = 0; i < T->ng; i++)
                put(&T->g[i], stride, fstride, cap, cidx[i], m);
        }
    }
    if (tb && replay == REMOTE)
        tile_out(T, x0, x1, y0, y1, 0, REMOTE);
    /* a resume: the holder hands its finished tiles to the others (owned
     * line sets: it replays them into the sets at their homes instead) */
    if (replay == REPLAY && T->x && T->x->ranks > 1 && !T->owned &&
        T->x->send(T->x->user, x0, y0, x1 - x0, y1 - y0, tb))
        T->xfailed = 1;
}

/* The symmetric case (see tiles2d_resume): only cells x <= y are computed;
 * S = T->rows holds, per index i, the values of row i and column i seen so
 * far; diag (a group with a = 1, dy = -1) or NULL. Each value is also
 * written to the mirror cell (y, x). */
static void do_tile_sym(tiles *T, lines *diag, int64_t x0, int64_t x1, int64_t y0, int64_t y1, int replay)
{
    const uint64_t stride = T->stride, fstride = T->fstride;
    const uint32_t cap = T->cap;
    const uint64_t n = (uint64_t)T->n1;
    lines *S = &T->rows;
    /* streaming or an exchange: the tile, and its mirror (the same buffer
     * on the diagonal) */
    uint32_t *tb = T->tbuf ? T->tbuf + (size_t)2 * TILE * TILE * (size_t)ns_omp_thread_num() : NULL;
    uint32_t *mb = tb && x0 != y0 ? tb + TILE * TILE : tb;
    if (replay == REMOTE && T->x->recv(T->x->user, x0, y0, x1 - x0, y1 - y0, tb)) {
        T->xfailed = 1;
        return;
    }
    if (tb && replay == REPLAY && replay_tile(T, x0, x1, y0, y1, tb))
        return;
    for (int64_t x = x0; x < x1; x++) {
        for (int64_t y = y0 > x ? y0 : x; y < y1; y++) {
            /* without a diagonal, the third set is the second again */
            const uint64_t *ptr[3] = {S->bits + (uint64_t)x * stride, S->bits + (uint64_t)y * stride,
                                      S->bits + (uint64_t)y * stride};
            const uint64_t *fp[3] = {S->full + (uint64_t)x * fstride, S->full + (uint64_t)y * fstride,
                                     S->full + (uint64_t)y * fstride};
            uint64_t w0 = S->first[x] > S->first[y] ? S->first[x] : S->first[y];
            int64_t c = 0;
            if (diag) {
                c = y - x - diag->cmin;
                ptr[2] = diag->bits + (uint64_t)c * stride;
                fp[2] = diag->full + (uint64_t)c * fstride;
                if (diag->first[c] > w0)
                    w0 = diag->first[c];
            }
            uint32_t m;
            if (replay) {
                m = tb ? tb[(x - x0) * (y1 - y0) + (y - y0)] : ns_table_get(T->t, (uint64_t)x * n + (uint64_t)y);
                if (replay == REMOTE) {
                    if (T->t) {
                        ns_table_set(T->t, (uint64_t)x * n + (uint64_t)y, m);
                        ns_table_set(T->t, (uint64_t)y * n + (uint64_t)x, m);
                    }
                    if (mb != tb)
                        mb[(y - y0) * (x1 - x0) + (x - x0)] = m;
                }
            } else {
                m = cell_mex(T, ptr, fp, 3, w0);
                if (T->misere && x == 0 && y == 0)
                    m = 1;
                if (m >= cap) {
                    T->overflow = 1;
                    m = 0;
                }
                if (tb) {
                    tb[(x - x0) * (y1 - y0) + (y - y0)] = m;
                    mb[(y - y0) * (x1 - x0) + (x - x0)] = m;
                }
                if (T->t) {
                    ns_table_set(T->t, (uint64_t)x * n + (uint64_t)y, m);
                    ns_table_set(T->t, (uint64_t)y * n + (uint64_t)x, m);
                }
            }
            put(S, stride, fstride, cap, x, m);
            if (y != x)
                put(S, stride, fstride, cap, y, m);
            if (diag)
                put(diag, stride, fstride, cap, c, m);
        }
    }
    if (tb && replay == REMOTE)
        tile_out(T, x0, x1, y0, y1, 1, REMOTE);
    /* a resume: the holder hands its finished tiles to the others (owned
     * line sets: it replays them into the sets at their homes instead) */
    if (replay == REPLAY && T->x && T->x->ranks > 1 && !T->owned &&
        T->x->send(T->x->user, x0, y0, x1 - x0, y1 - y0, tb))
        T->xfailed = 1;
}

/* Owned line sets (ns_tile_exchange's acquire and release; the
 * symmetric and the plain case). The sets are reserved, not allocated (MAP_NORESERVE:
 * only the pages touched cost memory); a process fills a block of lines
 * from its packed window before a tile (own_get) and, after its last use
 * here, packs it, hands it to the exchange and gives its pages back
 * (own_put: zero pages, empty sets, until the block comes again), unless
 * the blocks it keeps stay within x->keep bytes: then the pages stay
 * (kept), and the block's next use here writes into them instead of
 * faulting fresh zero pages in, one a 4 KiB page (Wythoff 8192^2 on one
 * rank of this 2-core machine: 2.4-2.5 s kept against 10.4-10.5 s given
 * back, most of it page faults and madvise). Its words are cleared
 * first: a set only grows from version to version, so the stale words
 * would be overwritten anyway, but the clearing costs nothing measured. */

size_t ns_tile_lines_pack(const ns_tile_lines *L, int64_t l0, int64_t nl, uint64_t *out)
{
    size_t k = 0;
    for (int64_t l = l0; l < l0 + nl; l++) {
        const uint64_t *b = L->bits + (uint64_t)l * L->stride;
        const uint64_t f = L->first[l];
        uint64_t e = L->words;
        while (e > f && b[e - 1] == 0)
            e--;
        const uint64_t n = e > f ? e - f : 0;
        if (out) {
            out[k] = f | n << 32;
            memcpy(out + k + 1, b + f, n * sizeof *b);
        }
        k += 1 + n;
    }
    return k;
}

ns_err ns_tile_lines_unpack(const ns_tile_lines *L, int64_t l0, int64_t nl, const uint64_t *in, size_t nin,
                            ns_error *err)
{
    size_t k = 0;
    for (int64_t l = l0; l < l0 + nl; l++) {
        if (k >= nin)
            return ns_error_set(err, NS_EFORMAT, "packed line sets: %zu words end before line %" PRId64 " of %" PRId64,
                                nin, l - l0, nl);
        const uint64_t f = in[k] & 0xFFFFFFFFu, n = in[k] >> 32;
        /* the window's first word is not full (else first would be past it) */
        if (f > L->words || n > L->words - f || n > nin - k - 1 || (n && in[k + 1] == ~(uint64_t)0))
            return ns_error_set(err, NS_EFORMAT, "packed line sets: line %" PRId64 " has a bad window (first word %"
                                PRIu64 ", %" PRIu64 " words; sets of %" PRIu64 " words)", l - l0, f, n, L->words);
        uint64_t *b = L->bits + (uint64_t)l * L->stride, *fs = L->full + (uint64_t)l * L->fstride;
        memset(b, 0xFF, f * sizeof *b);
        memset(fs, 0xFF, (f >> 6) * sizeof *fs);
        if (f & 63)
            fs[f >> 6] |= ((uint64_t)1 << (f & 63)) - 1;
        memcpy(b + f, in + k + 1, n * sizeof *b);
        for (uint64_t w = f; w < f + n; w++)
            if (b[w] == ~(uint64_t)0)
                fs[w >> 6] |= (uint64_t)1 << (w & 63);
        L->first[l] = (uint32_t)f;
        k += 1 + n;
    }
    if (k != nin)
        return ns_error_set(err, NS_EFORMAT, "packed line sets: %zu words, %zu expected for %" PRId64 " lines", nin, k,
                            nl);
    return NS_OK;
}

/* zero bytes at p: whole pages given back (zero when touched again), the
 * ends cleared */
static void drop_range(void *p, size_t bytes)
{
    const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p, e = a + bytes;
    const uintptr_t pa = (a + pg - 1) & ~(pg - 1), pe = e & ~(pg - 1);
    if (pe <= pa || madvise((void *)pa, pe - pa, MADV_DONTNEED) != 0) {
        memset(p, 0, bytes);
        return;
    }
    memset(p, 0, pa - a);
    memset((void *)pe, 0, e - pe);
}

static void *map_zero(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* the sets of L reserved (owned line sets); free with free_lines */
static int reserve_lines(lines *L, uint64_t stride, uint64_t fstride)
{
    const size_t bytes = ((size_t)L->n * (size_t)stride + 8) * sizeof *L->bits;
    const size_t fbytes = ((size_t)L->n * (size_t)fstride + 1) * sizeof *L->full;
    if ((L->raw = map_zero(bytes)))
        L->mapped = bytes;
    L->bits = L->raw;
    if ((L->full = map_zero(fbytes)))
        L->fmapped = fbytes;
    L->first = calloc((size_t)L->n, sizeof *L->first);
    L->kept = calloc((size_t)((L->n + TILE - 1) / TILE), 1);
    L->kend = calloc((size_t)L->n, sizeof *L->kend);
    return L->bits && L->full && L->first && L->kept && L->kend;
}

static ns_tile_lines lines_view(const tiles *T, const lines *L)
{
    return (ns_tile_lines){.bits = L->bits, .full = L->full, .first = L->first, .stride = T->stride,
                           .fstride = T->fstride, .words = T->words};
}

/* block b of L: its first line and number of lines, and their memory */
static int64_t block_lines(const lines *L, int64_t b, int64_t *l0)
{
    *l0 = (b + L->bshift) * TILE;
    return L->n - *l0 < TILE ? L->n - *l0 : TILE;
}

static uint64_t block_bytes(const tiles *T, int64_t nl)
{
    return (uint64_t)nl * ((T->stride + T->fstride) * sizeof(uint64_t) + sizeof(uint32_t));
}

/* A kept block taken again: the words its pages still hold zeroed (they
 * were written before: no fresh pages), so that it is empty as a block
 * given back is (then unpacked as one) */
static void clear_kept(const tiles *T, lines *L, int64_t l0, int64_t nl)
{
    for (int64_t l = l0; l < l0 + nl; l++) {
        const uint64_t e = L->kend[l];
        if (!e)
            continue;
        memset(L->bits + (uint64_t)l * T->stride, 0, e * sizeof *L->bits);
        memset(L->full + (uint64_t)l * T->fstride, 0, ((e + 63) >> 6) * sizeof *L->full);
        L->kend[l] = 0;
    }
}

/* block b of L (kind) at version: from the exchange into the sets (a
 * kept block into its own pages, which the exchange still counts) */
static int own_get(tiles *T, lines *L, int64_t kind, int64_t b, int64_t version)
{
    int64_t l0;
    const int64_t nl = block_lines(L, b, &l0);
    const uint64_t bb = block_bytes(T, nl);
    uint8_t *kf = L->kept + b + L->bshift;
    const int kept = *kf;
    if (kept)
        clear_kept(T, L, l0, nl);
    *kf = 0;
    uint64_t *win = NULL;
    size_t nwin = 0;
    int rc = T->x->acquire(T->x->user, kind, b, version, kept ? 0 : bb, &win, &nwin) != 0;
    /* its room among the kept only now: the exchange, which saw it kept
     * until this acquire, never counts more than T->keep kept */
    if (kept)
        __atomic_sub_fetch(&T->kept, bb, __ATOMIC_RELAXED);
    if (!rc && win) {
        const ns_tile_lines v = lines_view(T, L);
        ns_error e = {0};
        rc = ns_tile_lines_unpack(&v, l0, nl, win, nwin, &e) != NS_OK;
    }
    free(win);
    return rc;
}

/* block b of L (kind) after version uses: packed to the exchange (last:
 * no one needs it again, nothing travels) and emptied. While the kept
 * blocks stay within T->keep bytes it keeps its pages (the exchange still
 * counts it; kend records the words written), else they are given back
 * (zero pages until the block comes again). */
static int own_put(tiles *T, lines *L, int64_t kind, int64_t b, int64_t version, int last)
{
    int64_t l0;
    const int64_t nl = block_lines(L, b, &l0);
    const uint64_t bb = block_bytes(T, nl);
    uint64_t *win = NULL;
    size_t nwin = 0;
    if (!last) {
        const ns_tile_lines v = lines_view(T, L);
        nwin = ns_tile_lines_pack(&v, l0, nl, NULL);
        if (!(win = malloc(nwin * sizeof *win)))
            return 1;
        ns_tile_lines_pack(&v, l0, nl, win);
    }
    const int can = !last && T->keep >= bb;
    const int keep = can && __atomic_add_fetch(&T->kept, bb, __ATOMIC_RELAXED) <= T->keep;
    if (can && !keep)
        __atomic_sub_fetch(&T->kept, bb, __ATOMIC_RELAXED);
    if (keep) {
        /* the words written: the prefix set full, then the window */
        size_t k = 0;
        for (int64_t l = l0; l < l0 + nl; l++) {
            const uint64_t f = win[k] & 0xFFFFFFFFu, n = win[k] >> 32;
            L->kend[l] = (uint32_t)(f + n);
            k += 1 + n;
        }
    } else {
        drop_range(L->bits + (uint64_t)l0 * T->stride, (size_t)nl * T->stride * sizeof *L->bits);
        drop_range(L->full + (uint64_t)l0 * T->fstride, (size_t)nl * T->fstride * sizeof *L->full);
    }
    L->kept[b + L->bshift] = (uint8_t)keep;
    memset(L->first + l0, 0, (size_t)nl * sizeof *L->first);
    return T->x->release(T->x->user, kind, b, version, keep ? 0 : bb, win, nwin) != 0;
}

/* The plain case (no symmetry; any box; every tile (i, j)): the row ray's
 * sets (line x) are tile row i's own block (kind NS_LINES_ROW), empty at
 * the row's first tile and dead after its last. A ray group (a, q), its
 * lines c = a*y - q*x (a >= 1, q = -dy >= 0), is laid out from
 * c = -q * TILE * (tile rows), so that tile (i, j) meets the exchange's
 * blocks B - q .. B + a - 1 of kind NS_LINES_RAY_KIND(a, q), B = a*j - q*i
 * (block b: the lines' block b + q * tile rows). Its previous tile (i, j - 1)
 * met B - a - q .. B - 1, so the tile keeps q blocks from it and takes the
 * a blocks B .. B + a - 1 from row i - 1 (which met them at its tile
 * (i - 1, j), from the version count i on: version i), and afterwards
 * hands the a blocks B - q .. B + a - q - 1 on to row i + 1 (version
 * i + 1; the last row: dead); after the row's last tile its q kept blocks
 * are dead, and before its first tile the q blocks B - q .. B - 1 start
 * empty (no row above met them: version 0). The column (a = 1, q = 0) is
 * one block j travelling down; the diagonal (1, 1) block j - i. A block's
 * releasing and acquiring tiles share the column floor((b + q v) / a)
 * (v the version), which the exchange reads from the kind. */
static int ray_blocks(tiles *T, lines *L, int64_t b0, int64_t nb, int64_t version, int put, int last)
{
    const int64_t a = L->a, q = -L->dy;
    const int64_t kind = NS_LINES_RAY_KIND(a, q);
    int rc = 0;
    for (int64_t b = b0; b < b0 + nb && !rc; b++)
        rc = put ? own_put(T, L, kind, b, version, last) : own_get(T, L, kind, b, version);
    return rc;
}

/* Before tile (i, j), i <= j, of a process's own row: index block j (the
 * column's sets; at j == i the row's, kept to the row's end) and diagonal
 * block j - i (kept for the next tile, where it is block j - i - 1), both
 * after the i rows above. The plain case: as above (fresh: the row's first
 * tile, not a resume's takeover). */
static int own_before(tiles *T, lines *diag, int64_t i, int64_t j, int fresh)
{
    if (!T->plain)
        return own_get(T, &T->rows, NS_LINES_INDEX, j, i) || (diag && own_get(T, diag, NS_LINES_DIAG, j - i, i));
    if (fresh && T->row_ray && own_get(T, &T->rows, NS_LINES_ROW, i, 0))
        return 1;
    for (int k = 0; k < T->ng; k++) {
        lines *L = &T->g[k];
        const int64_t a = L->a, q = -L->dy, B = a * j - q * i;
        if ((fresh && ray_blocks(T, L, B - q, q, 0, 0, 0)) || ray_blocks(T, L, B, a, i, 0, 0))
            return 1;
    }
    return 0;
}

/* After it: the column's block and diagonal block j - i - 1 go on to row
 * i + 1; after the row's last tile its row's block and diagonal block
 * j - i are dead (row i + 1 would need them at tile (i + 1, tj)). The
 * plain case: as above. */
static int own_after(tiles *T, lines *diag, int64_t i, int64_t j)
{
    int rc = 0;
    if (T->plain) {
        const int last = i == T->ti - 1, end = j == T->tj - 1;
        for (int k = 0; k < T->ng && !rc; k++) {
            lines *L = &T->g[k];
            const int64_t a = L->a, q = -L->dy, B = a * j - q * i;
            rc = ray_blocks(T, L, B - q, a, i + 1, 1, last) || (end && ray_blocks(T, L, B + a - q, q, i + 1, 1, 1));
        }
        if (!rc && end && T->row_ray)
            rc = own_put(T, &T->rows, NS_LINES_ROW, i, i + 1, 1);
        return rc;
    }
    if (j > i) {
        rc |= own_put(T, &T->rows, NS_LINES_INDEX, j, i + 1, 0);
        if (diag)
            rc |= own_put(T, diag, NS_LINES_DIAG, j - i - 1, i + 1, 0);
    }
    if (j == T->tj - 1) {
        rc |= own_put(T, &T->rows, NS_LINES_INDEX, i, i + 1, 1);
        if (diag)
            rc |= own_put(T, diag, NS_LINES_DIAG, j - i, i + 1, 1);
    }
    return rc;
}

/* A resume with owned line sets: a row of which the holder replayed the
 * tiles up to (i, jr), i <= jr < tj - 1, goes on on its own process, which
 * needs what the row carries from tile to tile: its index block i and
 * diagonal block jr - i (the plain case, 0 <= jr < tj - 1: its row block
 * and each ray group's q kept blocks). The holder hands them over after
 * the replay (own_handoff) under version ti + 1 + i, which no tile uses,
 * and the process that goes on takes them before its first tile
 * (i, jr + 1) (own_takeover). */
static int64_t handoff_version(const tiles *T, int64_t i)
{
    return T->ti + 1 + i;
}

/* the plain case's blocks a row carries into tile (i, j0): its row block
 * and each ray group's q blocks, handed over (put) or taken over */
static int plain_carried(tiles *T, int64_t i, int64_t j0, int put)
{
    const int64_t v = handoff_version(T, i);
    if (T->row_ray && (put ? own_put(T, &T->rows, NS_LINES_ROW, i, v, 0) : own_get(T, &T->rows, NS_LINES_ROW, i, v)))
        return 1;
    for (int k = 0; k < T->ng; k++) {
        lines *L = &T->g[k];
        const int64_t a = L->a, q = -L->dy, B = a * j0 - q * i;
        if (ray_blocks(T, L, B - q, q, v, put, 0))
            return 1;
    }
    return 0;
}

static int own_handoff(tiles *T, lines *diag, int64_t i, int64_t jr)
{
    if (T->plain)
        return plain_carried(T, i, jr + 1, 1);
    int rc = own_put(T, &T->rows, NS_LINES_INDEX, i, handoff_version(T, i), 0);
    if (diag)
        rc |= own_put(T, diag, NS_LINES_DIAG, jr - i, handoff_version(T, i), 0);
    return rc;
}

static int own_takeover(tiles *T, lines *diag, int64_t i, int64_t j0)
{
    if (T->plain)
        return plain_carried(T, i, j0, 0);
    return own_get(T, &T->rows, NS_LINES_INDEX, i, handoff_version(T, i)) ||
           (diag && own_get(T, diag, NS_LINES_DIAG, j0 - 1 - i, handoff_version(T, i)));
}

/* TAKE: the holder takes another process's tile (i <= j) into its table
 * (and the mirror) or its sink, not into its sets */
static void take_tile_sym(tiles *T, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
    uint32_t *tb = T->tbuf + (size_t)2 * TILE * TILE * (size_t)ns_omp_thread_num();
    uint32_t *mb = x0 != y0 ? tb + TILE * TILE : tb;
    const int64_t nx = x1 - x0, ny = y1 - y0;
    const uint64_t n = (uint64_t)T->n1;
    if (T->x->recv(T->x->user, x0, y0, nx, ny, tb)) {
        T->xfailed = 1;
        return;
    }
    for (int64_t x = x0; x < x1; x++)
        for (int64_t y = y0 > x ? y0 : x; y < y1; y++) {
            const uint32_t m = tb[(x - x0) * ny + (y - y0)];
            if (T->t) {
                ns_table_set(T->t, (uint64_t)x * n + (uint64_t)y, m);
                ns_table_set(T->t, (uint64_t)y * n + (uint64_t)x, m);
            }
            if (mb != tb)
                mb[(y - y0) * nx + (x - x0)] = m;
        }
    if (!T->sink)
        return;
    if (T->sink(T->sink_user, x0, y0, nx, ny, tb) || (mb != tb && T->sink(T->sink_user, y0, x0, ny, nx, mb)))
        T->sink_failed = 1;
}

/* TAKE, the plain case: another process's tile into the holder's table or
 * sink, as it is */
static void take_tile(tiles *T, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
    uint32_t *tb = T->tbuf + (size_t)2 * TILE * TILE * (size_t)ns_omp_thread_num();
    const int64_t nx = x1 - x0, ny = y1 - y0;
    if (T->x->recv(T->x->user, x0, y0, nx, ny, tb)) {
        T->xfailed = 1;
        return;
    }
    for (int64_t x = x0; T->t && x < x1; x++)
        for (int64_t y = y0; y < y1; y++)
            ns_table_set(T->t, (uint64_t)x * (uint64_t)T->n1 + (uint64_t)y, tb[(x - x0) * ny + (y - y0)]);
    if (T->sink && T->sink(T->sink_user, x0, y0, nx, ny, tb))
        T->sink_failed = 1;
}

static void free_lines(lines *L)
{
    ns_huge_free(L->raw, L->mapped);
    if (L->fmapped)
        munmap(L->full, L->fmapped);
    else
        free(L->full);
    free(L->first);
    free(L->kept);
    free(L->kend);
}

static void free_tiles(tiles *T)
{
    free(T->tbuf);
    free_lines(&T->rows);
    for (int i = 0; i < T->ng; i++)
        free_lines(&T->g[i]);
}

static int alloc_lines(lines *L, uint64_t stride, uint64_t fstride)
{
    /* zeroed by the kernel's fresh pages (no memset); huge pages when
     * large: the first touches of the sets, spread over the whole array,
     * then fault once per 2 MiB */
    const size_t bytes = ((size_t)L->n * (size_t)stride + 8) * sizeof *L->bits;
    L->raw = ns_huge_calloc(bytes, HUGE_SETS, &L->mapped);
    L->bits = L->raw ? (uint64_t *)(((uintptr_t)L->raw + 63) & ~(uintptr_t)63) : NULL;
    L->full = calloc((size_t)L->n * (size_t)fstride, sizeof *L->full);
    L->first = calloc((size_t)L->n, sizeof *L->first);
    return L->bits && L->full && L->first;
}

/* the sets of L, as T keeps them: reserved (owned line sets, filled a
 * block at a time) or allocated whole; free with free_lines */
static int new_lines(const tiles *T, lines *L)
{
    return T->owned ? reserve_lines(L, T->stride, T->fstride) : alloc_lines(L, T->stride, T->fstride);
}

/* The line groups of g into T (rows, and T->g without their memory),
 * and whether the symmetric case applies (see tiles2d_resume): then the
 * column group (*col) gets no sets and the diagonal group (*dg, or -1)
 * only the diagonals y - x >= 0. Sets T->rows.n and every T->g[i].n. */
static int plan_lines(const ns_game *g, tiles *T, int *col, int *dg)
{
    T->n0 = g->bounds[0];
    T->n1 = g->bounds[1];
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        int r;
        plain_ray(fm, &r);
        if (r) {
            T->row_ray = 1;
            T->rows.n = T->n0;
            continue;
        }
        int64_t a = -fm->dir[0], dy = fm->dir[1];
        int dup = 0;
        for (int i = 0; i < T->ng; i++)
            dup |= T->g[i].a == a && T->g[i].dy == dy;
        if (dup)
            continue;
        lines *L = &T->g[T->ng++];
        L->a = a;
        L->dy = dy;
        L->cmin = dy * (T->n0 - 1);
        L->n = a * (T->n1 - 1) - L->cmin + 1;
    }
    /* Symmetry: a square box and moves along the row, the column and
     * possibly the diagonal (Wythoff, two-pile Nim) give G(x, y) = G(y, x).
     * Only tiles i <= j are computed; row x and column x share one set (the
     * row sets): for x <= y, row x's cells left of y are the column-x cells
     * (t, x), t < x, and the row cells (x, t), x <= t < y, all inserted
     * already, and column y's cells above x are (t, y), t < x. Two tiles
     * (i, j), (i', j') of one anti-diagonal touch the index blocks {i, j}
     * and {i', j'}, which are disjoint, and different diagonals. */
    int sym = T->n0 == T->n1 && T->row_ray && T->ng >= 1 && T->ng <= 2;
    *col = *dg = -1;
    for (int i = 0; i < T->ng; i++) {
        if (T->g[i].a == 1 && T->g[i].dy == 0)
            *col = i;
        else if (T->g[i].a == 1 && T->g[i].dy == -1)
            *dg = i;
        else
            sym = 0;
    }
    sym = sym && *col >= 0;
    if (sym) {
        T->g[*col].n = 0;   /* the column sets are the row sets */
        if (*dg >= 0) {     /* diagonals c = y - x >= 0 only */
            T->g[*dg].cmin = 0;
            T->g[*dg].n = T->n1;
        }
    }
    return sym;
}

/* Owned line sets without symmetry (the plain case, own_before): every
 * ray group's steps a and q = -dy (after plan_lines) fit the exchange's
 * kinds (NS_LINES_RAY_KIND). */
static int plain_owned(const tiles *T)
{
    for (int i = 0; i < T->ng; i++)
        if (T->g[i].a > NS_LINES_RAY_MAX || -T->g[i].dy > NS_LINES_RAY_MAX)
            return 0;
    return 1;
}

/* The checked bound: in a square box whose moves are along the row, the
 * column and maybe the diagonal (Nim, Wythoff; the symmetric case), the
 * values stay below 2(N - 1) (proven for Nim: x XOR y < 2^bits(N - 1);
 * observed for Wythoff, whose largest values are about 1.5 N), where the
 * number of options allows 3(N - 1): 16-bit cells up to N = 32768 and
 * line sets a third smaller. Checked as the kernel runs (cell_mex's
 * results against cap). None for other games. */
static uint64_t tiles2d_checked_bound(const ns_game *g)
{
    tiles T;
    memset(&T, 0, sizeof T);
    int col, dg;
    if (!tiles2d_applies(g, &(ns_engine_opts){0}, NULL, 0) || !plan_lines(g, &T, &col, &dg) || T.n0 < 2)
        return 0;
    return 2 * (uint64_t)(T.n0 - 1);
}

static uint64_t tiles2d_memory(const ns_game *g, const ns_engine_plan *plan)
{
    const uint64_t max_value = plan->max_value;
    tiles T;
    memset(&T, 0, sizeof T);
    int col, dg;
    plan_lines(g, &T, &col, &dg);
    const uint64_t words = (max_value + 1 + 63) / 64;
    const uint64_t per = (set_stride(words) + set_fstride(words)) * sizeof(uint64_t) + sizeof(uint32_t);
    uint64_t n = (uint64_t)T.rows.n;
    for (int i = 0; i < T.ng; i++)
        n += (uint64_t)T.g[i].n;
    return n * per;
}

/* The tiles of anti-diagonals s0 <= i + j < s1, a tile row at a time:
 * each thread takes the next row i and computes its tiles of the range
 * left to right, each once its upper neighbour (i - 1, j) is done (ncol[i]:
 * the next tile column of row i, published with release/acquire); the
 * left neighbour is the thread's own previous tile, or of an earlier
 * range. A row's consecutive tiles share their column sets and half their
 * diagonals, so they find them in the cache (tiles handed out in
 * anti-diagonal order share nothing with the thread's previous one: ~15%
 * slower on one thread). Safe: a tile's cells need only cells up and to
 * the left (done through those two neighbours; in the symmetric case the
 * mirrored ones lie in tiles (i', i), i' <= i, done before (i - 1, j)), and
 * two tiles that can run at once (one further right and higher than the
 * other) share no line set: their rows, columns and lines c = a*y + dy*x
 * lie at least a tile apart. No deadlock: rows are handed out in order,
 * and a row waits only for the one before, which a thread holds or has
 * finished. */
static void run_rows(tiles *T, lines *diag, int sym, int64_t s0, int64_t s1, int64_t ti, int64_t tj, int64_t *ncol,
                     int nthreads, int replay)
{
    int64_t next = 0;
    NS_PRAGMA(omp parallel num_threads(nthreads))
    for (;;) {
        int64_t i;
        NS_PRAGMA(omp atomic capture)
        i = next++;
        if (i >= ti)
            break;
        const int64_t jmin = sym ? i : 0;
        const int64_t j0 = s0 - i > jmin ? s0 - i : jmin, j1 = s1 - 1 - i < tj - 1 ? s1 - 1 - i : tj - 1;
        /* a row of another process: received, not computed; a resume's
         * finished tiles: replayed by the holder, received by the others
         * (owned line sets: skipped by the others) */
        int mode = replay ? (T->x && T->x->ranks > 1 && !T->x->holder ? REMOTE : REPLAY)
                   : T->x && j0 <= j1 && !T->x->mine(T->x->user, i) ? REMOTE : COMPUTE;
        /* owned line sets: another process's row is taken (the holder) or
         * skipped; an own tile waits in acquire, not for the row above */
        if (T->owned && mode == REMOTE)
            mode = T->x->holder && !T->x->gather ? TAKE : SKIP;
        if (mode == SKIP)
            continue;
        for (int64_t j = j0; j <= j1; j++) {
            for (int spin = 0; i > 0 && !T->owned && __atomic_load_n(&ncol[i - 1], __ATOMIC_ACQUIRE) <= j; spin++) {
                if (T->x && spin > 4096)
                    nanosleep(&(struct timespec){0, 20000}, NULL); /* threads x ranks threads: mostly waiting */
                else if (spin > 64)
                    sched_yield();   /* more threads than cores: let the others run */
            }
            const int64_t x0 = i * TILE, y0 = j * TILE;
            const int64_t x1 = x0 + TILE < T->n0 ? x0 + TILE : T->n0;
            const int64_t y1 = y0 + TILE < T->n1 ? y0 + TILE : T->n1;
            if (mode == TAKE && T->plain)
                take_tile(T, x0, x1, y0, y1);
            else if (mode == TAKE)
                take_tile_sym(T, x0, x1, y0, y1);
            else if (T->owned) {
                /* the first tile after a resume of a row the holder replayed in part */
                const int takeover = !replay && s0 == T->resumed && j == j0 && j0 > jmin;
                if (T->xfailed || (takeover && own_takeover(T, diag, i, j0)) ||
                    own_before(T, diag, i, j, j == 0 && !takeover))
                    T->xfailed = 1;
                else {
                    if (T->plain)
                        do_tile(T, x0, x1, y0, y1, mode);
                    else
                        do_tile_sym(T, diag, x0, x1, y0, y1, mode);
                    if (own_after(T, diag, i, j))
                        T->xfailed = 1;
                }
            } else if (sym)
                do_tile_sym(T, diag, x0, x1, y0, y1, mode);
            else
                do_tile(T, x0, x1, y0, y1, mode);
            __atomic_store_n(&ncol[i], j + 1, __ATOMIC_RELEASE);
            if (mode == COMPUTE && !(T->owned && T->xfailed))
                tile_out(T, x0, x1, y0, y1, sym, COMPUTE);
        }
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static ns_err tiles2d_resume(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                             uint64_t resume_units, ns_error *err)
{
    const uint64_t max_value = plan->max_value;
    tiles T;
    memset(&T, 0, sizeof T);
    int64_t *first = NULL;     /* first[q]: tiles before anti-diagonal q; owned */
    int64_t *ncol = NULL;      /* per tile row: the next tile column; owned */
    T.t = t;
    T.cap = (uint32_t)(max_value + 1);
    T.words = (T.cap + 63) / 64;
    T.stride = set_stride(T.words);
    T.fstride = set_fstride(T.words);
    T.scan = o->mex_scan == NS_MEX_SUMMARY ? 0 : 2;
#ifdef NS_HAVE_WIDE
    if (o->mex_scan == NS_MEX_SCAN && __builtin_cpu_supports("avx512f"))
        T.scan = 1;
#endif
    T.misere = g->play == NS_PLAY_MISERE;
    ns_err rc = NS_OK;
    int col, dg;
    const int sym = plan_lines(g, &T, &col, &dg);
    T.x = o->tile_exchange;
    T.owned = T.x && T.x->acquire && T.x->release;
    T.keep = T.owned ? T.x->keep : 0;
    T.plain = T.owned && !sym;
    if (T.plain && !plain_owned(&T)) {
        rc = ns_error_set(err, NS_EINVAL, "tiles2d: owned line sets need ray steps of at most %lld",
                          (long long)NS_LINES_RAY_MAX);
        goto done;
    }
    const int64_t ti = (T.n0 + TILE - 1) / TILE, tj = (T.n1 + TILE - 1) / TILE;
    /* the plain case: each ray group's lines c = a*y - q*x from -q TILE ti
     * on, in whole blocks (own_before) */
    for (int k = 0; T.plain && k < T.ng; k++) {
        lines *L = &T.g[k];
        const int64_t q = -L->dy;
        L->cmin = -q * TILE * ti;
        L->n = TILE * (L->a * tj + q * ti);
        L->bshift = q * ti;
    }
    /* owned: a block's summaries (128 lines) in whole 4 KiB pages, which
     * own_put gives back (the sets' stride is a multiple of 8 words) */
    if (T.owned)
        T.fstride = (T.fstride + 3) / 4 * 4;
    if (T.row_ray && !new_lines(&T, &T.rows))
        goto oom;
    for (int i = 0; i < T.ng; i++)
        if (T.g[i].n && !new_lines(&T, &T.g[i]))
            goto oom;
    int nthreads = o->threads > 0 ? o->threads : ns_omp_max_threads();
    /* across processes: threads x ranks threads, of which about threads
     * compute (rows are dealt cyclically) and the others replay received
     * rows, mostly waiting; owned line sets: threads, the holder's others
     * take the received tiles (unless the exchange gathers them) */
    if (T.x && T.x->ranks > 1 && (!T.owned || (T.x->holder && !T.x->gather)))
        nthreads *= T.x->ranks;
    if (!t) {
        T.sink = o->tile_sink;
        T.source = o->tile_source;
        T.sink_user = o->tile_user;
        /* owned line sets: the processes but the holder skip the finished tiles */
        if (resume_units && !T.source && !(T.owned && !T.x->holder)) {
            rc = ns_error_set(err, NS_EINVAL, "tiles2d: a streamed resume needs a tile source");
            goto done;
        }
        if (!T.sink || !(T.tbuf = malloc((size_t)2 * TILE * TILE * sizeof *T.tbuf * (size_t)nthreads)))
            goto oom;
    } else if (T.x && !(T.tbuf = malloc((size_t)2 * TILE * TILE * sizeof *T.tbuf * (size_t)nthreads))) {
        goto oom;
    }
    T.ti = ti;
    T.tj = tj;
    T.resumed = (int64_t)resume_units;
    tiles *PT = &T;
    /* units of checkpoints: the tile anti-diagonals s = 0 .. ti+tj-2 */
    const uint64_t units_total = (uint64_t)(ti + tj - 1);
    if (resume_units > units_total) {
        rc = ns_error_set(err, NS_EINVAL, "resume point %llu is past the last unit %llu",
                          (unsigned long long)resume_units, (unsigned long long)units_total);
        goto done;
    }
    lines *diag = sym && dg >= 0 ? &T.g[dg] : NULL;
    /* first[q]: the tiles of anti-diagonals before q (sym: only i <= j) */
    const int64_t ndiag = ti + tj - 1;
    first = malloc((size_t)(ndiag + 1) * sizeof *first);
    ncol = malloc((size_t)ti * sizeof *ncol);
    if (!first || !ncol)
        goto oom;
    first[0] = 0;
    for (int64_t q = 0; q < ndiag; q++) {
        const int64_t i0 = q - (tj - 1) > 0 ? q - (tj - 1) : 0;
        const int64_t i1 = sym ? q / 2 : q < ti - 1 ? q : ti - 1;
        first[q + 1] = first[q] + (i1 >= i0 ? i1 - i0 + 1 : 0);
    }
    for (int64_t i = 0; i < ti; i++)
        ncol[i] = sym ? i : 0;   /* the next tile column of row i */
    /* Ranges of anti-diagonals: between them the progress and checkpoint
     * callbacks, never across the resume point. A range is sized to take
     * about half a second (from the time per tile of the one before, at
     * most 4 times as many anti-diagonals), so that the callbacks come
     * often enough while the rows stay long; without callbacks, one range. */
    const int callbacks = o->progress || o->checkpoint;
    int64_t seg = callbacks ? 1 : ndiag;
    /* across processes: the same ranges on every process (32 of them), so
     * that their wavefronts meet only at the same joins */
    if (T.x)
        seg = (ndiag + 31) / 32;
    for (int64_t s = 0, s1; s < ndiag; s = s1) {
        const int replay = (uint64_t)s < resume_units;
        s1 = s + seg < ndiag ? s + seg : ndiag;
        if (replay && (uint64_t)s1 > resume_units)
            s1 = (int64_t)resume_units;
        const double t0 = now_s();
        /* the others' tiles of the range go to the output by the exchange */
        const int gathered = !replay && T.owned && T.x->holder && T.x->gather;
        if (gathered && T.x->gather(T.x->user, s1, 0))
            T.xfailed = 1;
        run_rows(PT, diag, sym, s, s1, ti, tj, ncol, nthreads, replay);
        if (gathered && !T.xfailed && T.x->gather(T.x->user, s1, 1))
            T.xfailed = 1;
        /* owned line sets: the rows the holder replayed in part go on elsewhere */
        if (replay && s1 == T.resumed && T.owned && T.x->holder)
            for (int64_t i = 0; i < ti && !T.xfailed; i++) {
                const int64_t jr = s1 - 1 - i;
                if ((sym ? i : 0) <= jr && jr < tj - 1 && own_handoff(PT, diag, i, jr))
                    T.xfailed = 1;
            }
        if (callbacks && !T.x && replay && (uint64_t)s1 == resume_units) {
            /* a replay's pace says nothing of the solve's: the first range
             * after the resume point is one anti-diagonal, measured anew
             * (grown from a fast replay, one range ran to the end without
             * a checkpoint) */
            seg = 1;
        } else if (callbacks && !T.x) {
            /* tiles a half second took, spread over the next anti-diagonals */
            const double dt = now_s() - t0, per_tile = dt / (double)(first[s1] - first[s] ? first[s1] - first[s] : 1);
            const double want = per_tile > 0 ? 0.5 / per_tile : 1e18;
            int64_t q = s1;
            while (q < ndiag && q - s1 < 4 * (s1 - s) && (double)(first[q + 1] - first[s1]) <= want)
                q++;
            seg = q > s1 ? q - s1 : 1;
        }
        s = s1 - 1;   /* the last anti-diagonal finished, for the checks below */
        if (T.overflow) {
            rc = plan->bound_checked
                     ? ns_error_set(err, NS_ERANGE, "tiles2d: a value exceeded the checked bound %" PRIu64
                                    " on this table's values (the proven bound is %" PRIu64 "); solve with --loose-bound",
                                    max_value, plan->max_value_loose)
                     : ns_error_set(err, NS_EINTERNAL, "tiles2d: a value exceeded the bound %" PRIu64
                                    " (the number of options); the game's option bound is wrong", max_value);
            goto done;
        }
        if (T.xfailed) {
            rc = ns_error_set(err, NS_EIO, "tiles2d: the tile exchange between processes failed");
            goto done;
        }
        if (T.sink_failed) {
            rc = ns_error_set(err, NS_EIO, replay ? "the tile source failed" : "the tile sink failed");
            goto done;
        }
        if (o->progress) {
            /* cells in tile anti-diagonals 0..s, approximated by tiles */
            if (o->progress(o->progress_user, (double)first[s + 1] / (double)first[ndiag])) {
                rc = ns_error_set(err, NS_EINTR, "interrupted");
                goto done;
            }
        }
        if (!replay && o->checkpoint && o->checkpoint(o->checkpoint_user, (uint64_t)s + 1, units_total)) {
            rc = ns_error_set(err, NS_EINTR, "interrupted");
            goto done;
        }
    }
    goto done;
oom:
    rc = ns_error_set(err, NS_ENOMEM, "out of memory for the line sets");
done:
    free(first);
    free(ncol);
    free_tiles(&T);
    return rc;
}

static ns_err tiles2d_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                          ns_error *err)
{
    return tiles2d_resume(g, t, plan, o, 0, err);
}

static int tiles2d_owned_sets(const ns_game *g)
{
    tiles T;
    memset(&T, 0, sizeof T);
    int col, dg;
    if (!tiles2d_applies(g, &(ns_engine_opts){0}, NULL, 0))
        return 0;
    return plan_lines(g, &T, &col, &dg) ? 1 : plain_owned(&T) ? 2 : 0;
}

const ns_engine ns_engine_tiles2d = {
    .name = "tiles2d",
    .what = "two-pile Grundy tables of plain rays in 128 x 128 tiles, a parallel wavefront; streams tiles",
    .kinds = NS_ENGINE_GRUNDY,
    .applies = tiles2d_applies,
    .memory = tiles2d_memory,
    .run = tiles2d_run,
    .resume = tiles2d_resume,
    .stream_unit = tiles2d_tile,
    .checked_bound = tiles2d_checked_bound,
    .owned_sets = tiles2d_owned_sets,
};
