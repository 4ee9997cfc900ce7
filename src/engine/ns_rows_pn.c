/* ns_rows_pn.c - P/N sieve for two-pile games whose moves are all rays,
 * row by row, 64 cells per word operation (the engine "rows-pn" of
 * ns_engine.h).
 *
 * Applies when: P/N table, k = 2, normal play, no domain restriction, and
 * every family is a ray with primitive direction (-a, dy), a >= 1, whose
 * first option lies in an earlier row, or the plain row ray (0,-1).
 * Wythoff, a-Wythoff, two-pile Nim and rule files of such rays qualify.
 *
 * This is the book's sieve: every P-position knocks out the cells that reach
 * it. Rows x = 0, 1, ... are final in turn. A family with direction
 * (-a, dy), a >= 1, and first option (ex, ey), ex <= -1, reaches from (x, y)
 * the cells of the line c = a*y + dy*x = a*(y+ey) + dy*(x+ex) lying in rows
 * <= x + ex. Each distinct (a, dy, row lag) keeps one bit per line: "a
 * P-position lies on this line in a row old enough". For a = 1 a row's
 * knock-outs are then one shifted read of that bit array per family. A
 * plain ray along the row, (0,-1), makes only the first free cell of a row
 * a P-position. The table is filled in blocks of rows, in parallel, from
 * the rows' P bitmaps. A block of rows is the unit of checkpoints; a resume
 * reads the finished rows' P bitmaps back from the table (no knock-outs).
 * Streaming (no table: o->rows_sink): the finished block's bitmaps go to
 * the sink instead; the ring of bitmaps is a whole number of blocks, so a
 * block's rows lie one after another in it. A streamed resume rebuilds the
 * line flags and the ring from the finished rows' P-positions
 * (o->resume_p): O(P-positions), not O(rows x words).
 *
 * Across processes (o->tile_exchange, the tile kernel's hooks with a block
 * of rows for a row of tiles): every process runs every row in order; the
 * rows of a block that is not its own (mine() == 0) it does not sieve but
 * receives, as P bitmaps, when the block begins, and takes them in as its
 * own rows: the lagging groups' line flags take in every row in the same
 * place as in a single process, so they stay a single process's. A block
 * of its own it sends when it is done. Checkpoints and resume work as in
 * one process: after a block every process holds every row of the blocks
 * done (received ones included), so any one of them (the caller picks one)
 * may write the checkpoint; a resume hands each process the finished rows
 * (its table, or resume_p without one) and exchanges only the rows after
 * them, so a checkpoint of any number of processes resumes under any. */
#include "engine/ns_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "core/ns_intmath.h"

typedef struct group {
    int64_t a, dy, lag;
    int64_t cmin;       /* smallest line index c */
    int64_t nbits;      /* number of lines */
    uint64_t *flags;
} group;

typedef struct rfam {
    int g;              /* group index */
    int64_t ex, ey;
} rfam;

enum { MAXF = 64, BLOCK_ROWS = 256 };

static int64_t rows_pn_block(void)
{
    return BLOCK_ROWS;
}

/* A family we can do: direction (-a, dy) with a >= 1 and first option in an
 * earlier row; or the plain row ray (0,-1) from (0,-1). */
static int classify(const ns_family *f, int *row_ray)
{
    *row_ray = 0;
    if (f->kind != NS_FAM_RAY)
        return 0;
    if (f->dir[0] == 0 && f->dir[1] == -1 && f->base[0] == 0 && f->base[1] == -1) {
        *row_ray = 1;
        return 1;
    }
    /* the line index c = a*y + dy*x names the ray's line only when the
     * direction is primitive: (-2,-2) reaches every other diagonal cell */
    return f->dir[0] < 0 && f->base[0] <= -1 && ns_gcd64(-f->dir[0], f->dir[1]) == 1;
}

static int rows_pn_applies(const ns_game *g, const ns_engine_opts *o, char *why, size_t len)
{
    const char *r = NULL;
    char buf[NS_ENGINE_WHY];
    if (!o->pn_only)
        r = "needs a P/N table (--pn-only)";
    else if (o->tile_sink)
        r = "streams P/N rows, not Grundy tiles";
    else if (g->k != 2)
        snprintf(buf, sizeof buf, "needs 2 piles (the game has %d)", g->k), r = buf;
    else if (g->play != NS_PLAY_NORMAL)
        r = "needs normal play (not misere)";
    else if (g->valid)
        r = "needs the whole box (the game has a domain)";
    else if (g->nfam == 0)
        r = "the game has no moves";
    else if (g->nfam > MAXF)
        snprintf(buf, sizeof buf, "more than %d families (%d)", MAXF, g->nfam), r = buf;
    for (int f = 0; !r && f < g->nfam; f++) {
        int rr;
        if (!classify(&g->fam[f], &rr))
            snprintf(buf, sizeof buf, "'%.60s' is not a ray along (0,-1) or (-a,dy), a >= 1, primitive, whose first "
                     "option lies in an earlier row", g->fam[f].label), r = buf;
    }
    if (r && why)
        snprintf(why, len, "%s", r);
    return !r;
}

static int64_t ring_rows(int64_t maxlag)
{
    return BLOCK_ROWS * (1 + (maxlag + BLOCK_ROWS - 1) / BLOCK_ROWS);
}

static uint64_t rows_pn_memory(const ns_game *game, const ns_engine_plan *plan)
{
    (void)plan;
    const int64_t n0 = game->bounds[0], n1 = game->bounds[1];
    uint64_t bytes = 0;
    int64_t maxlag = 1;
    for (int f = 0; f < game->nfam; f++) {
        const ns_family *fm = &game->fam[f];
        int rr;
        if (!classify(fm, &rr) || rr)
            continue;
        const int64_t a = -fm->dir[0], dy = fm->dir[1];
        int64_t lag = -fm->base[0] - a + 1;
        lag = lag < 1 ? 1 : lag;
        maxlag = lag > maxlag ? lag : maxlag;
        const int64_t lo = dy < 0 ? dy * (n0 - 1) : 0, hi = a * (n1 - 1) + (dy > 0 ? dy * (n0 - 1) : 0);
        bytes += (uint64_t)((hi - lo + 1 + 63) / 64) * 8;   /* at most one group a family */
    }
    return bytes + (uint64_t)(ring_rows(maxlag) + 1) * (uint64_t)((n1 + 63) / 64) * 8;
}

/* Bits [pos, pos + 64) of b (nbits long); bits outside read as 0. */
static inline uint64_t extract64(const uint64_t *b, int64_t nbits, int64_t pos)
{
    if (pos >= nbits || pos <= -64)
        return 0;
    uint64_t r;
    if (pos < 0) {
        r = b[0] << (-pos);
    } else {
        int64_t w = pos >> 6;
        int sh = (int)(pos & 63);
        r = b[w] >> sh;
        if (sh && (w + 1) * 64 < nbits)
            r |= b[w + 1] << (64 - sh);
    }
    int64_t left = nbits - pos;
    if (left < 64)
        r &= ((uint64_t)1 << left) - 1;
    return r;
}

static inline void set_bit(uint64_t *b, int64_t i)
{
    b[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* Knock-out bits of row x into K (words words): a P option exists. */
static void knockouts(const group *gs, const rfam *fs, int nf, int64_t x, int64_t n1,
                      int64_t words, uint64_t *K)
{
    memset(K, 0, (size_t)words * sizeof *K);
    for (int i = 0; i < nf; i++) {
        const group *g = &gs[fs[i].g];
        const int64_t xs = x + fs[i].ex;
        if (xs < 0)
            continue; /* the first option's row is above the table; later ones too */
        if (g->a == 1) {
            const int64_t off = fs[i].ey + g->dy * xs - g->cmin;
            for (int64_t w = 0; w < words; w++)
                K[w] |= extract64(g->flags, g->nbits, off + 64 * w);
        } else {
            for (int64_t y = 0; y < n1; y++) {
                int64_t c = g->a * (y + fs[i].ey) + g->dy * xs - g->cmin;
                if (c >= 0 && c < g->nbits && (g->flags[c >> 6] >> (c & 63) & 1))
                    set_bit(K, y);
            }
        }
    }
}

/* The P bitmap P of row x (K: scratch, words words): every cell without a
 * P option, or with the row ray only the first of them. */
static void sieve_row(const group *gs, const rfam *fs, int nf, int row_ray, int64_t x, int64_t n1, int64_t words,
                      uint64_t *K, uint64_t *P)
{
    memset(P, 0, (size_t)words * sizeof *P);
    knockouts(gs, fs, nf, x, n1, words, K);
    if (row_ray) {
        for (int64_t w = 0; w < words; w++)
            if (~K[w]) {
                int64_t y = w * 64 + __builtin_ctzll(~K[w]);
                if (y < n1)
                    set_bit(P, y);
                break;
            }
    } else {
        for (int64_t w = 0; w < words; w++)
            P[w] = ~K[w];
        if (n1 & 63)
            P[words - 1] &= ((uint64_t)1 << (n1 & 63)) - 1;
    }
}

static ns_err rows_pn_resume(const ns_game *game, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                             uint64_t resume_units, ns_error *err)
{
    (void)plan;
    const int64_t n0 = game->bounds[0], n1 = game->bounds[1];
    const int64_t words = (n1 + 63) / 64;
    const int nthreads = o->threads > 0 ? o->threads : ns_omp_max_threads();
    group gs[MAXF];
    rfam fs[MAXF];
    int ng = 0, nf = 0, row_ray = 0;
    ns_err rc = NS_OK;
    uint64_t *K = NULL, *rows = NULL;
    uint32_t *xbuf = NULL;  /* an exchanged block: its bitmaps' bytes */
    const ns_tile_exchange *xch = o->tile_exchange;
    int64_t maxlag = 1;
    memset(gs, 0, sizeof gs);

    for (int f = 0; f < game->nfam; f++) {
        const ns_family *fm = &game->fam[f];
        int rr;
        classify(fm, &rr);
        if (rr) {
            row_ray = 1;
            continue;
        }
        int64_t a = -fm->dir[0], dy = fm->dir[1];
        int64_t lag = -fm->base[0] - a + 1;
        if (lag < 1)
            lag = 1;
        int gi = -1;
        for (int i = 0; i < ng; i++)
            if (gs[i].a == a && gs[i].dy == dy && gs[i].lag == lag)
                gi = i;
        if (gi < 0) {
            gi = ng++;
            gs[gi].a = a;
            gs[gi].dy = dy;
            gs[gi].lag = lag;
            int64_t lo = dy < 0 ? dy * (n0 - 1) : 0;
            int64_t hi = a * (n1 - 1) + (dy > 0 ? dy * (n0 - 1) : 0);
            gs[gi].cmin = lo;
            gs[gi].nbits = hi - lo + 1;
            gs[gi].flags = calloc((size_t)((gs[gi].nbits + 63) / 64), sizeof(uint64_t));
            if (!gs[gi].flags) {
                rc = ns_error_set(err, NS_ENOMEM, "out of memory for line flags");
                goto fail;
            }
            if (lag > maxlag)
                maxlag = lag;
        }
        fs[nf].g = gi;
        fs[nf].ex = fm->base[0];
        fs[nf].ey = fm->base[1];
        nf++;
    }

    /* P bitmaps of a block of rows; the ring must also hold the rows that
     * lagging groups still have to insert, so blocks keep maxlag extra
     * rows, rounded up to whole blocks */
    const int64_t ring = ring_rows(maxlag);
    K = malloc((size_t)words * sizeof *K);
    rows = calloc((size_t)(ring * words), sizeof *rows);
    if (!K || !rows) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    /* a block of rows travels as nx = its rows, ny = 2 words-worth of 32-bit
     * halves a 64-bit word: the bitmaps' bytes (the same binary, the same
     * byte order, on every process) */
    if (xch && !(xbuf = malloc((size_t)(BLOCK_ROWS * words) * sizeof(uint64_t)))) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    int64_t block_start = 0;
    /* units: blocks of BLOCK_ROWS rows (see ns_engine.h, checkpoints) */
    const uint64_t units_total = (uint64_t)((n0 + BLOCK_ROWS - 1) / BLOCK_ROWS);
    if (resume_units > units_total) {
        rc = ns_error_set(err, NS_EINVAL, "resume point %llu is past the last unit %llu",
                          (unsigned long long)resume_units, (unsigned long long)units_total);
        goto fail;
    }
    if (!t && !o->rows_sink) {
        rc = ns_error_set(err, NS_EINTERNAL, "rows-pn: no table and no rows sink");
        goto fail;
    }
    uint8_t *out = t ? t->data : NULL;
    const int64_t resume_rows = (int64_t)resume_units * BLOCK_ROWS < n0 ? (int64_t)resume_units * BLOCK_ROWS : n0;
    int64_t x_start = 0;
    if (!out && resume_rows) {
        /* a streamed resume: the finished rows' P-positions go into the
         * line flags of the groups that have taken their row in by row
         * resume_rows (row x enters group i at row x + lag), and into the
         * ring (its last rows), as if computed */
        for (uint64_t k = 0; k < o->resume_np; k++) {
            const int64_t x = o->resume_p[2 * k], y = o->resume_p[2 * k + 1];
            if (x < 0 || x >= resume_rows || y < 0 || y >= n1) {
                rc = ns_error_set(err, NS_EINVAL, "resume: P-position (%lld, %lld) lies outside the %lld finished "
                                  "rows", (long long)x, (long long)y, (long long)resume_rows);
                goto fail;
            }
            for (int i = 0; i < ng; i++)
                if (x + gs[i].lag < resume_rows)
                    set_bit(gs[i].flags, gs[i].a * y + gs[i].dy * x - gs[i].cmin);
            if (x >= resume_rows - ring)
                set_bit(rows + (x % ring) * words, y);
        }
        x_start = block_start = resume_rows;
    }
    int theirs = 0;         /* across processes: the block of row x came from another */
    for (int64_t x = x_start; x < n0; x++) {
        /* the finished rows of a resume are every process's already (from
         * the table or resume_p): nothing to exchange */
        if (xch && x >= resume_rows && x % BLOCK_ROWS == 0) {
            const int64_t nrows = n0 - x < BLOCK_ROWS ? n0 - x : BLOCK_ROWS;
            theirs = !xch->mine(xch->user, x / BLOCK_ROWS);
            if (theirs) {
                if (xch->recv(xch->user, x, 0, nrows, 2 * words, xbuf)) {
                    rc = ns_error_set(err, NS_EIO, "rows-pn: the exchange of rows between processes failed");
                    goto fail;
                }
                memcpy(rows + (x % ring) * words, xbuf, (size_t)(nrows * words) * sizeof(uint64_t));
            }
        }
        /* lagging groups take in row x - lag (lag 1: the previous row) */
        for (int i = 0; i < ng; i++) {
            int64_t xr = x - gs[i].lag;
            if (xr < 0)
                continue;
            const uint64_t *P = rows + (xr % ring) * words;
            for (int64_t w = 0; w < words; w++)
                for (uint64_t b = P[w]; b; b &= b - 1) {
                    int64_t y = w * 64 + __builtin_ctzll(b);
                    set_bit(gs[i].flags, gs[i].a * y + gs[i].dy * xr - gs[i].cmin);
                }
        }
        uint64_t *P = rows + (x % ring) * words;
        if (x < resume_rows) {
            /* resume: the row is final in the table; take its P bitmap */
            const uint8_t *row = out + x * n1;
            memset(P, 0, (size_t)words * sizeof *P);
            for (int64_t y = 0; y < n1; y++)
                if (row[y] == NS_PN_P)
                    set_bit(P, y);
            if (x + 1 == resume_rows)
                block_start = x + 1;
            continue;
        }
        if (!theirs) /* a received row is final as it came */
            sieve_row(gs, fs, nf, row_ray, x, n1, words, K, P);
        /* fill finished blocks of rows in parallel */
        if (x + 1 - block_start == BLOCK_ROWS || x + 1 == n0) {
            const int64_t x0 = block_start, x1 = x + 1;
            if (xch && !theirs) {
                memcpy(xbuf, rows + (x0 % ring) * words, (size_t)((x1 - x0) * words) * sizeof(uint64_t));
                if (xch->send(xch->user, x0, 0, x1 - x0, 2 * words, xbuf)) {
                    rc = ns_error_set(err, NS_EIO, "rows-pn: the exchange of rows between processes failed");
                    goto fail;
                }
            }
            if (!out) {
                if (o->rows_sink(o->rows_user, x0, x1 - x0, words, rows + (x0 % ring) * words)) {
                    rc = ns_error_set(err, NS_EIO, "the rows sink failed");
                    goto fail;
                }
            } else {
                NS_OMP_FOR(nthreads)
                for (int64_t xx = x0; xx < x1; xx++) {
                    uint8_t *row = out + xx * n1;
                    const uint64_t *PP = rows + (xx % ring) * words;
                    memset(row, 1, (size_t)n1);
                    for (int64_t w = 0; w < words; w++)
                        for (uint64_t b = PP[w]; b; b &= b - 1)
                            row[w * 64 + __builtin_ctzll(b)] = 0;
                }
            }
            block_start = x1;
            if (o->progress && o->progress(o->progress_user, (double)x1 / (double)n0)) {
                rc = ns_error_set(err, NS_EINTR, "interrupted");
                goto fail;
            }
            if (o->checkpoint && o->checkpoint(o->checkpoint_user, (uint64_t)((x1 + BLOCK_ROWS - 1) / BLOCK_ROWS),
                                               units_total)) {
                rc = ns_error_set(err, NS_EINTR, "interrupted");
                goto fail;
            }
        }
    }
fail:
    for (int i = 0; i < ng; i++)
        free(gs[i].flags);
    free(K);
    free(rows);
    free(xbuf);
    return rc;
}

static ns_err rows_pn_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                          ns_error *err)
{
    return rows_pn_resume(g, t, plan, o, 0, err);
}

const ns_engine ns_engine_rows_pn = {
    .name = "rows-pn",
    .what = "two-pile P/N tables of rays, row by row, 64 cells a word operation; streams blocks of rows",
    .kinds = NS_ENGINE_PN,
    .applies = rows_pn_applies,
    .memory = rows_pn_memory,
    .run = rows_pn_run,
    .resume = rows_pn_resume,
    .stream_unit = rows_pn_block,
};
