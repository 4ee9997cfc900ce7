/* ns_filecheck.c - the datasets of a table file against each other (see
 * ns_filecheck.h).
 *
 * The table datasets are read in bands of whole rows along dimension 0
 * (ns_h5_region, whose chunk cache decompresses each chunk once when the
 * bands come in order); a band is compared cell by cell on OpenMP threads,
 * then its P cells are walked in order against /p_positions, which is read
 * in blocks of rows. Memory: one band of each dataset and one block. */
#include "store/ns_filecheck.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "game/ns_game.h"
#include "game/ns_table.h"
#include "store/ns_h5.h"

/* cells of a band (rounded up to whole rows of chunks when that stays
 * below BAND_MAX), rows of /p_positions read at once */
#define BAND_CELLS ((uint64_t)1 << 22)
#define BAND_MAX ((uint64_t)1 << 26)
#define PP_BLOCK 16384

typedef struct scan {
    const char *path;          /* borrowed */
    int k;
    int64_t dims[NS_MAX_DIM];
    int has_inv;               /* /grundy marks non-positions with inv */
    uint32_t inv, max_attr;
    uint64_t np_attr;
    ns_h5_region *g, *pn, *pp; /* g NULL in a P/N file */
    int gelem;
    int64_t pp_rows, pp_next;  /* rows of /p_positions, next one to compare */
    int64_t pp_lo, pp_n;       /* rows pp_lo .. pp_lo+pp_n-1 are in ppbuf */
    int64_t *ppbuf;
    ns_filecheck *res;
    int loopy;                 /* a loopy game's file: /pn may hold 3 (draw) */
    uint64_t nd_attr;          /* its attribute n_draws */
} scan;

static void disagree(scan *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The first disagreement wins: "<path>: <what>". */
static void disagree(scan *c, const char *fmt, ...)
{
    if (!c->res->consistent)
        return;
    char what[NS_ERROR_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    c->res->consistent = 0;
    /* a very long path cuts the message, which still starts with it */
    if (snprintf(c->res->why, sizeof c->res->why, "%s: %s", c->path, what) >= (int)sizeof c->res->why)
        memcpy(c->res->why + sizeof c->res->why - 4, "...", 4);
}

static void coords(const scan *c, uint64_t i, int64_t *s)
{
    for (int d = c->k - 1; d >= 0; d--) {
        s[d] = (int64_t)(i % (uint64_t)c->dims[d]);
        i /= (uint64_t)c->dims[d];
    }
}

static void pos_of(const scan *c, uint64_t i, char *buf, size_t len)
{
    int64_t s[NS_MAX_DIM];
    coords(c, i, s);
    ns_format_pos(c->k, s, buf, len);
}

static const char *pn_word(uint32_t p)
{
    return p == NS_PN_P ? " (P)" : p == NS_PN_N ? " (N)" : p == NS_PN_INVALID ? " (not a position)" : "";
}

static uint32_t gval(const void *buf, int elem, uint64_t i)
{
    return elem == 1 ? ((const uint8_t *)buf)[i] : elem == 2 ? ((const uint16_t *)buf)[i]
                                                             : ((const uint32_t *)buf)[i];
}

/* /pn's value for a /grundy value. */
static uint32_t pn_for(const scan *c, uint32_t v)
{
    return c->has_inv && v == c->inv ? NS_PN_INVALID : v == 0 ? NS_PN_P : NS_PN_N;
}

/* Is cell i of the band wrong by itself (its /pn against its /grundy, a
 * value in range)? */
static int cell_bad(const scan *c, const uint8_t *pn, const void *g, uint64_t i)
{
    if (!c->g)
        return pn[i] > NS_PN_INVALID && !(c->loopy && pn[i] == NS_PN_DRAW);
    const uint32_t v = gval(g, c->gelem, i);
    if (!(c->has_inv && v == c->inv) && v > c->max_attr)
        return 1;
    return pn[i] != pn_for(c, v);
}

/* Describe the bad cell i of the band that starts at cell base. */
static void describe_cell(scan *c, const uint8_t *pn, const void *g, uint64_t i, uint64_t base)
{
    char pos[256];
    pos_of(c, base + i, pos, sizeof pos);
    if (!c->g) {
        disagree(c, "dataset /pn holds %u at %s, expected 0 (P), 1 (N)%s 2 (not a position)%s", pn[i], pos,
                 c->loopy ? "," : " or", c->loopy ? " or 3 (a draw)" : "");
        return;
    }
    const uint32_t v = gval(g, c->gelem, i);
    if (!(c->has_inv && v == c->inv) && v > c->max_attr) {
        disagree(c, "dataset /grundy holds %" PRIu32 " at %s, above attribute max_value %" PRIu32, v, pos,
                 c->max_attr);
        return;
    }
    const uint32_t want = pn_for(c, v);
    char gs[64];
    if (want == NS_PN_INVALID)
        snprintf(gs, sizeof gs, "invalid_value %" PRIu32 " (not a position)", v);
    else
        snprintf(gs, sizeof gs, "%" PRIu32 "%s", v, want == NS_PN_P ? " (P)" : " (N)");
    disagree(c, "dataset /pn holds %u%s at %s, but /grundy holds %s there: expected /pn %u%s", pn[i],
             pn_word(pn[i]), pos, gs, want, pn_word(want));
}

/* Row r of /p_positions into row[] (reads a block when needed). */
static ns_err pp_row(scan *c, int64_t r, int64_t *row, ns_error *err)
{
    if (r < c->pp_lo || r >= c->pp_lo + c->pp_n) {
        int64_t n = c->pp_rows - r < PP_BLOCK ? c->pp_rows - r : PP_BLOCK;
        int64_t lo[2] = {r, 0}, cnt[2] = {n, c->k};
        ns_err rc = ns_h5_region_read_stored(c->pp, lo, cnt, NULL, c->ppbuf, err);
        if (rc)
            return rc;
        c->pp_lo = r;
        c->pp_n = n;
    }
    memcpy(row, c->ppbuf + (r - c->pp_lo) * c->k, (size_t)c->k * sizeof *row);
    return NS_OK;
}

/* -1, 0, 1: a against b, lexicographically. */
static int lex_cmp(int k, const int64_t *a, const int64_t *b)
{
    for (int d = 0; d < k; d++)
        if (a[d] != b[d])
            return a[d] < b[d] ? -1 : 1;
    return 0;
}

/* Walk the P cells of the band's first n cells against /p_positions. */
static ns_err walk_p(scan *c, const uint8_t *pn, uint64_t n, uint64_t base, ns_error *err)
{
    const uint8_t *p = pn, *end = pn + n;
    while (c->res->consistent && (p = memchr(p, NS_PN_P, (size_t)(end - p))) != NULL) {
        const uint64_t i = base + (uint64_t)(p - pn);
        int64_t s[NS_MAX_DIM], row[NS_MAX_DIM];
        char pos[256], rs[256];
        coords(c, i, s);
        ns_format_pos(c->k, s, pos, sizeof pos);
        if (c->pp_next >= c->pp_rows) {
            disagree(c, "dataset /p_positions lacks %s, a P-position of /pn: its %" PRId64
                     " rows (attribute n_p_positions) end before it", pos, c->pp_rows);
            break;
        }
        ns_err rc = pp_row(c, c->pp_next, row, err);
        if (rc)
            return rc;
        int cmp = lex_cmp(c->k, row, s);
        if (cmp != 0) {
            ns_format_pos(c->k, row, rs, sizeof rs);
            if (cmp < 0)
                disagree(c, "dataset /p_positions row %" PRId64 " is %s, not a P-position of /pn (the next one "
                         "there is %s)", c->pp_next, rs, pos);
            else
                disagree(c, "dataset /p_positions lacks %s, a P-position of /pn (row %" PRId64 " is %s)", pos,
                         c->pp_next, rs);
            break;
        }
        c->pp_next++;
        c->res->n_p++;
        p++;
    }
    return NS_OK;
}

/* Rows of a band: about BAND_CELLS cells, whole rows of chunks when the
 * datasets' chunk rows line up within BAND_MAX cells. */
static int64_t band_rows(const scan *c, uint64_t rowcells)
{
    int64_t nr = (int64_t)(BAND_CELLS / rowcells);
    if (nr < 1)
        nr = 1;
    int64_t a = ns_h5_region_info(c->pn)->chunk[0], b = c->g ? ns_h5_region_info(c->g)->chunk[0] : 1;
    a = a > 0 ? a : 1;
    b = b > 0 ? b : 1;
    int64_t x = a, y = b;
    while (y) {
        int64_t t = x % y;
        x = y;
        y = t;
    }
    const int64_t l = a / x * b;
    if (l <= (int64_t)(BAND_MAX / rowcells))
        nr = (nr + l - 1) / l * l;
    return nr < c->dims[0] ? nr : c->dims[0];
}

ns_err ns_filecheck_run(const char *path, int threads, ns_filecheck *res, ns_error *err)
{
    ns_meta meta;
    scan c;
    uint8_t *pbuf = NULL;
    void *gbuf = NULL;
    ns_err rc;
    memset(&c, 0, sizeof c);
    memset(res, 0, sizeof *res);
    res->consistent = 1;
    c.path = path;
    c.res = res;
    if ((rc = ns_h5_read_meta(path, &meta, &c.k, c.dims, err)))
        return rc;
    res->has_grundy = !meta.pn_only;
    c.has_inv = meta.has_invalid;
    c.inv = meta.invalid_value;
    c.max_attr = meta.max_value;
    c.np_attr = meta.n_p_positions;
    c.loopy = meta.loopy && meta.pn_only;
    c.nd_attr = meta.n_draws;
    ns_meta_free(&meta);
    if (threads < 1)
        threads = 1;

    if ((rc = ns_h5_region_open(path, "pn", &c.pn, err)) ||
        (res->has_grundy && (rc = ns_h5_region_open(path, "grundy", &c.g, err))) ||
        (rc = ns_h5_region_open(path, "p_positions", &c.pp, err)))
        goto done;
    if (c.g)
        c.gelem = ns_h5_region_info(c.g)->elem;
    c.pp_rows = ns_h5_region_info(c.pp)->dims[0];
    c.ppbuf = malloc((size_t)PP_BLOCK * (size_t)c.k * sizeof *c.ppbuf);

    uint64_t rowcells = 1;
    for (int d = 1; d < c.k; d++)
        rowcells *= (uint64_t)c.dims[d];
    const int64_t nr = band_rows(&c, rowcells);
    const uint64_t band = (uint64_t)nr * rowcells;
    pbuf = malloc(band);
    gbuf = c.g ? malloc(band * (uint64_t)c.gelem) : NULL;
    if (!c.ppbuf || !pbuf || (c.g && !gbuf)) {
        rc = ns_error_set(err, NS_ENOMEM, "%s: out of memory for a band of %" PRIu64 " cells", path, band);
        goto done;
    }

    uint32_t mx = 0;
    for (int64_t r0 = 0; r0 < c.dims[0] && res->consistent; r0 += nr) {
        const int64_t rows = c.dims[0] - r0 < nr ? c.dims[0] - r0 : nr;
        int64_t lo[NS_MAX_DIM] = {0}, cnt[NS_MAX_DIM];
        lo[0] = r0;
        cnt[0] = rows;
        for (int d = 1; d < c.k; d++)
            cnt[d] = c.dims[d];
        if ((rc = ns_h5_region_read_stored(c.pn, lo, cnt, NULL, pbuf, err)) ||
            (c.g && (rc = ns_h5_region_read_stored(c.g, lo, cnt, NULL, gbuf, err))))
            goto done;
        const uint64_t n = (uint64_t)rows * rowcells, base = (uint64_t)r0 * rowcells;
        /* cell by cell on threads: the first bad cell, the largest value */
        enum { PIECE = 1 << 16 };
        const int64_t npieces = (int64_t)((n + PIECE - 1) / PIECE);
        uint64_t first = UINT64_MAX, nd = 0;
        uint32_t bmx = 0;
        NS_PRAGMA(omp parallel for schedule(static) num_threads(threads) reduction(min : first) \
                  reduction(max : bmx) reduction(+ : nd) if (npieces > 1))
        for (int64_t q = 0; q < npieces; q++) {
            const uint64_t a = (uint64_t)q * PIECE, b = a + PIECE < n ? a + PIECE : n;
            uint32_t m = 0;
            for (uint64_t i = a; i < b; i++) {
                if (cell_bad(&c, pbuf, gbuf, i)) {
                    first = i < first ? i : first;
                    break;
                }
                uint32_t v = c.g ? gval(gbuf, c.gelem, i) : pbuf[i];
                nd += !c.g && v == NS_PN_DRAW;
                if (c.g ? !(c.has_inv && v == c.inv) : v != NS_PN_INVALID)
                    m = v > m ? v : m;
            }
            bmx = m > bmx ? m : bmx;
        }
        /* the P cells before the first bad one, in order, against /p_positions */
        if ((rc = walk_p(&c, pbuf, first < n ? first : n, base, err)))
            goto done;
        if (first < n)
            describe_cell(&c, pbuf, gbuf, first, base);
        mx = bmx > mx ? bmx : mx;
        res->n_draws += nd;
        res->cells += n;
    }
    res->max_value = mx;
    if (res->consistent && c.pp_next < c.pp_rows) {
        int64_t row[NS_MAX_DIM];
        char rs[256];
        if ((rc = pp_row(&c, c.pp_next, row, err)))
            goto done;
        ns_format_pos(c.k, row, rs, sizeof rs);
        disagree(&c, "dataset /p_positions row %" PRId64 " is %s, not a P-position of /pn (which has %" PRIu64
                 " P-positions, /p_positions %" PRId64 " rows)", c.pp_next, rs, res->n_p, c.pp_rows);
    }
    if (res->consistent && res->n_p != c.np_attr)
        disagree(&c, "attribute n_p_positions = %" PRIu64 ", but /pn has %" PRIu64 " P-positions", c.np_attr,
                 res->n_p);
    if (res->consistent && c.loopy && res->n_draws != c.nd_attr)
        disagree(&c, "attribute n_draws = %" PRIu64 ", but /pn has %" PRIu64 " draws", c.nd_attr, res->n_draws);
    if (res->consistent && mx != c.max_attr)
        disagree(&c, "attribute max_value = %" PRIu32 ", but the largest value in %s is %" PRIu32, c.max_attr,
                 c.g ? "/grundy" : "/pn (over positions: 1 when some position is N)", mx);
    rc = NS_OK;
done:
    free(pbuf);
    free(gbuf);
    free(c.ppbuf);
    ns_h5_region_close(c.pp);
    ns_h5_region_close(c.g);
    ns_h5_region_close(c.pn);
    return rc;
}
