/* ns_h5_place.c - the chunks of a streamed two-pile table written by the
 * processes that computed them (see ns_h5.h, "placed chunks"): part of the
 * HDF5 layer (it shares the streamed writer's chunk shapes and filters),
 * though this file needs no HDF5 call.
 *
 * Across MPI ranks a streamed table's file is rank 0's (ns_h5_stream):
 * its chunk index and metadata are written by rank 0 alone. Another rank
 * filters each tile it computed into the stored chunks (/grundy, and /pn
 * when the tile has a P-position) here, exactly as the stream would
 * (ns_h5_tile_pack, which ns_h5_stream_tile uses too), and sends rank 0
 * only their sizes, the largest value and the P-positions (the request);
 * rank 0 gives the chunks their places in the file without writing them
 * (ns_h5_stream_place) and answers with the addresses (the reply); the
 * rank writes its bytes there (ns_h5_place_write). A tile i < j and its
 * mirror make one request, as they leave the engine one after the other.
 *
 * The messages (the same binary on every rank: native 64-bit words):
 *   request: n (1 or 2), then per tile x0, y0, nx, ny, glen, plen, zeros,
 *            max_value, then the tile's zeros P-positions (x, y);
 *   data:    n, then per tile glen, plen; then the tiles' bytes, /grundy's
 *            chunk then /pn's, tile after tile (kept by the rank);
 *   reply:   n, then per tile the address of its /grundy chunk and of its
 *            /pn chunk (UINT64_MAX: none).
 * A P/N table's block of rows (ns_h5_packer_pn_rows, the row kernel):
 *   request: NS_H5_PLACE_ROWS, x0, nrows, n (its /pn chunks that hold a
 *            P-position), p (its P-positions), then per chunk y0 and its
 *            bytes, then the p P-positions (x, y);
 *   data and reply: as above, n pairs, the /grundy length 0 and its
 *            address UINT64_MAX. */
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ns_omp.h"
#include "store/ns_chunkfilter.h"

ns_err ns_h5_tile_pack(ns_chunkfilter *f, uint8_t *pnraw, uint8_t *gout, size_t gcap, uint8_t *pout, size_t pcap,
                       int64_t c0, int64_t c1, int elem, int64_t nx, int64_t ny, const uint32_t *vals,
                       ns_h5_tile_chunks *out, const char *path, ns_error *err)
{
    /* the stored /grundy chunk: c0 x c1, cells beyond the table 0, filtered
     * straight from the 32-bit values (no raw chunk, no shuffle pass) */
    ns_chunk_cells st;
    memset(out, 0, sizeof *out);
    ns_err rc = ns_chunkfilter_run_cells(f, vals, (size_t)nx, (size_t)ny, (size_t)c0, (size_t)c1, (size_t)elem, gout,
                                         gcap, &out->glen, &st, err);
    if (rc)
        return rc;
    out->max_value = st.max_value;
    out->zeros = st.zeros;
    if (elem == 2 && st.max_value > 0xFFFFu)
        return ns_error_set(err, NS_EINTERNAL, "%s: value %u does not fit the stored 16 bits", path, st.max_value);
    /* /pn of the tile, only when it has a P-position (else it is all N,
     * the fill value) */
    if (!st.zeros)
        return NS_OK;
    const size_t pn_bytes = (size_t)c0 * (size_t)c1;
    memset(pnraw, 0, pn_bytes);
    for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++)
            pnraw[i * c1 + j] = vals[i * ny + j] == 0 ? NS_PN_P : NS_PN_N;
    return ns_chunkfilter_run(f, pnraw, pn_bytes, 1, pout, pcap, &out->plen, err);
}

/* ---- the packer: another rank's tiles into requests ---- */

enum { REQ_HEAD = 8 };   /* words of a tile in a request, before its P-positions */

typedef struct pack_slot {
    ns_chunkfilter *filter;
    uint8_t *pnraw;             /* owned */
    uint8_t *g[2], *p[2];       /* a tile's filtered chunks; owned */
    ns_h5_tile_chunks c[2];
    int64_t at[2][4];           /* x0, y0, nx, ny */
    int64_t *pp[2];             /* P-positions (x, y); owned */
    uint64_t cappp[2];
    int have;                   /* 1: a tile i < j waits for its mirror */
} pack_slot;

struct ns_h5_packer {
    char *path;                 /* for messages; owned */
    int64_t bounds[2], c0, c1;
    int elem, threads;
    int mirrored;               /* tiles come in pairs (a symmetric table) */
    size_t gcap, pcap;
    pack_slot *slots;           /* threads; owned */
};

void ns_h5_packer_free(ns_h5_packer *p)
{
    if (!p)
        return;
    for (int t = 0; p->slots && t < p->threads; t++) {
        pack_slot *s = &p->slots[t];
        ns_chunkfilter_free(s->filter);
        free(s->pnraw);
        for (int k = 0; k < 2; k++) {
            free(s->g[k]);
            free(s->p[k]);
            free(s->pp[k]);
        }
    }
    free(p->slots);
    free(p->path);
    free(p);
}

ns_h5_packer *ns_h5_packer_new(const char *path, const int64_t *bounds, int elem, int64_t tile, int threads,
                               int mirrored, ns_error *err)
{
    if ((elem != 1 && elem != 2 && elem != 4) || (elem == 1 && mirrored) || tile < 1 || threads < 1 ||
        bounds[0] < 1 || bounds[1] < 1) {
        ns_error_set(err, NS_EINTERNAL, "%s: cannot pack tiles of %lld of %d-byte values", path, (long long)tile,
                     elem);
        return NULL;
    }
    ns_h5_packer *p = calloc(1, sizeof *p);
    if (!p || !(p->path = ns_h5_path_plus(path, "")) || !(p->slots = calloc((size_t)threads, sizeof *p->slots)))
        goto nomem;
    p->bounds[0] = bounds[0];
    p->bounds[1] = bounds[1];
    /* the stream's chunk shape (ns_h5_stream.c): the tile, cut to the bounds */
    p->c0 = tile < bounds[0] ? tile : bounds[0];
    p->c1 = elem == 1 ? NS_H5_PN_COLS : tile;   /* a P/N table: blocks of rows */
    p->c1 = p->c1 < bounds[1] ? p->c1 : bounds[1];
    p->elem = elem;
    p->threads = threads;
    p->mirrored = mirrored;
    const size_t raw = (size_t)p->c0 * (size_t)p->c1 * (size_t)elem, pn = (size_t)p->c0 * (size_t)p->c1;
    p->gcap = ns_chunkfilter_bound(raw);
    p->pcap = ns_chunkfilter_bound(pn);
    for (int t = 0; t < threads; t++) {
        pack_slot *s = &p->slots[t];
        if (!(s->filter = ns_chunkfilter_new(raw, NS_H5_DEFLATE_LEVEL, NS_DEFLATE_PLANES, err))) {
            ns_h5_packer_free(p);
            return NULL;
        }
        if (!(s->pnraw = malloc(pn)))
            goto nomem;
        for (int k = 0; k < 2; k++)
            if (!(s->g[k] = malloc(p->gcap)) || !(s->p[k] = malloc(p->pcap)))
                goto nomem;
    }
    return p;
nomem:
    ns_h5_packer_free(p);
    ns_error_set(err, NS_ENOMEM, "%s: out of memory for the tile packer", path);
    return NULL;
}

/* the tile's P-positions into slot k */
static int keep_pp(pack_slot *s, int k, const int64_t *at, const uint32_t *vals)
{
    const uint64_t need = s->c[k].zeros;
    if (need > s->cappp[k]) {
        int64_t *q = realloc(s->pp[k], (size_t)need * 2 * sizeof *q);
        if (!q)
            return -1;
        s->pp[k] = q;
        s->cappp[k] = need;
    }
    uint64_t n = 0;
    for (int64_t i = 0; i < at[2]; i++)
        for (int64_t j = 0; j < at[3]; j++)
            if (vals[i * at[3] + j] == 0 && n < need) {
                s->pp[k][2 * n] = at[0] + i;
                s->pp[k][2 * n + 1] = at[1] + j;
                n++;
            }
    return n == need ? 0 : -1;
}

int ns_h5_packer_tile(ns_h5_packer *p, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals,
                      ns_h5_placing *out, ns_error *err)
{
    const int tid = ns_omp_thread_num();
    memset(out, 0, sizeof *out);
    if (p->elem == 1 || tid >= p->threads || x0 % p->c0 || y0 % p->c1 || nx < 1 || ny < 1 || nx > p->c0 ||
        ny > p->c1 ||
        x0 + nx > p->bounds[0] || y0 + ny > p->bounds[1]) {
        ns_error_set(err, NS_EINTERNAL, "%s: bad tile %lld,%lld of %lld x %lld on thread %d", p->path, (long long)x0,
                     (long long)y0, (long long)nx, (long long)ny, tid);
        return -1;
    }
    pack_slot *s = &p->slots[tid];
    /* a mirror (x0 > y0) follows its tile (y0, x0) on the same thread */
    const int k = p->mirrored && x0 > y0 ? 1 : 0;
    if (k != s->have || (k && (s->at[0][0] != y0 || s->at[0][1] != x0))) {
        s->have = 0;
        ns_error_set(err, NS_EINTERNAL, "%s: the tile %lld,%lld came out of its pair", p->path, (long long)x0,
                     (long long)y0);
        return -1;
    }
    const int64_t at[4] = {x0, y0, nx, ny};
    memcpy(s->at[k], at, sizeof at);
    if (ns_h5_tile_pack(s->filter, s->pnraw, s->g[k], p->gcap, s->p[k], p->pcap, p->c0, p->c1, p->elem, nx, ny, vals,
                        &s->c[k], p->path, err))
        return -1;
    if (keep_pp(s, k, at, vals)) {
        ns_error_set(err, NS_ENOMEM, "%s: out of memory for the P-positions of a tile", p->path);
        return -1;
    }
    if (p->mirrored && x0 < y0) {
        s->have = 1;   /* its mirror comes next */
        return 0;
    }
    s->have = 0;
    const int n = k + 1;
    size_t rw = 1, dbytes = (1 + 2 * (size_t)n) * sizeof(int64_t);
    for (int i = 0; i < n; i++) {
        rw += REQ_HEAD + 2 * s->c[i].zeros;
        dbytes += s->c[i].glen + s->c[i].plen;
    }
    int64_t *req = malloc(rw * sizeof *req);
    uint8_t *data = malloc(dbytes);
    if (!req || !data) {
        free(req);
        free(data);
        ns_error_set(err, NS_ENOMEM, "%s: out of memory for a tile's placing", p->path);
        return -1;
    }
    int64_t *r = req, *dh = (int64_t *)(void *)data;
    uint8_t *db = data + (1 + 2 * (size_t)n) * sizeof(int64_t);
    *r++ = n;
    *dh++ = n;
    for (int i = 0; i < n; i++) {
        const ns_h5_tile_chunks *c = &s->c[i];
        memcpy(r, s->at[i], sizeof s->at[i]);
        r += 4;
        *r++ = (int64_t)c->glen;
        *r++ = (int64_t)c->plen;
        *r++ = (int64_t)c->zeros;
        *r++ = (int64_t)c->max_value;
        if (c->zeros) /* else s->pp[i] may be NULL */
            memcpy(r, s->pp[i], (size_t)c->zeros * 2 * sizeof *r);
        r += 2 * c->zeros;
        *dh++ = (int64_t)c->glen;
        *dh++ = (int64_t)c->plen;
        memcpy(db, s->g[i], c->glen);
        db += c->glen;
        if (c->plen)
            memcpy(db, s->p[i], c->plen);
        db += c->plen;
    }
    out->x0 = s->at[0][0];
    out->y0 = s->at[0][1];
    out->req = req;
    out->req_bytes = rw * sizeof *req;
    out->data = data;
    out->data_bytes = dbytes;
    return 1;
}

/* ---- a P/N table's block of rows (the row kernel) ---- */

int ns_h5_packer_pn_rows(ns_h5_packer *p, int64_t x0, int64_t nrows, int64_t words, const uint64_t *bits,
                         ns_h5_placing *out, ns_error *err)
{
    memset(out, 0, sizeof *out);
    if (p->elem != 1 || x0 < 0 || x0 % p->c0 || nrows < 1 || nrows > p->c0 || x0 + nrows > p->bounds[0] ||
        words != (p->bounds[1] + 63) / 64) {
        ns_error_set(err, NS_EINTERNAL, "%s: bad block of %lld rows at row %lld (%lld words a row)", p->path,
                     (long long)nrows, (long long)x0, (long long)words);
        return -1;
    }
    const int64_t c1 = p->c1, nch = (p->bounds[1] + c1 - 1) / c1;
    /* the chunks with a P-position (the others are all N, not stored) */
    int64_t npp = 0, nst = 0;
    for (int64_t i = 0; i < nrows * words; i++)
        npp += __builtin_popcountll(bits[i]);
    int64_t *ys = malloc((size_t)(nch > 0 ? nch : 1) * sizeof *ys);
    size_t *len = calloc((size_t)p->threads, sizeof *len);
    int64_t *req = NULL;
    uint8_t *data = NULL;
    size_t dcap = 0, dbytes = 0;
    if (!ys || !len)
        goto nomem;
    /* c1 is NS_H5_PN_COLS (a multiple of 64) or, with a single chunk
     * column, the whole row: a chunk's columns are whole words */
    for (int64_t j = 0; j < nch; j++) {
        const int64_t w0 = j * c1 / 64, w1 = ((j + 1) * c1 + 63) / 64 < words ? ((j + 1) * c1 + 63) / 64 : words;
        uint64_t any = 0;
        for (int64_t i = 0; i < nrows && !any; i++)
            for (int64_t k = w0; k < w1; k++)
                any |= bits[i * words + k];
        if (any)
            ys[nst++] = j * c1;
    }
    /* request: kind, x0, nrows, chunks, P-positions, (y0, bytes) a chunk,
     * then the P-positions (x, y); data: the chunks' count, (0, bytes) a
     * chunk (ns_h5_place_write's pairs: no /grundy), then their bytes */
    const size_t rw = 5 + 2 * (size_t)nst + 2 * (size_t)npp, head = (1 + 2 * (size_t)nst) * sizeof(int64_t);
    if (!(req = malloc(rw * sizeof *req)))
        goto nomem;
    dcap = head + (size_t)(nst < 4 ? nst : 4) * p->pcap;
    if (!(data = malloc(dcap ? dcap : 1)))
        goto nomem;
    dbytes = head;
    /* filter the chunks a batch of `threads` at a time, each thread its
     * slot's filter, then append them in order */
    const size_t bytes = (size_t)p->c0 * (size_t)c1;
    for (int64_t j0 = 0; j0 < nst; j0 += p->threads) {
        const int nb = (int)(nst - j0 < p->threads ? nst - j0 : p->threads);
        int bad = 0;
        NS_PRAGMA(omp parallel for schedule(static, 1) num_threads(nb) reduction(| : bad))
        for (int t = 0; t < nb; t++) {
            pack_slot *sl = &p->slots[t];
            const int64_t y0 = ys[j0 + t], w0 = y0 / 64,
                          w1 = (y0 + c1 + 63) / 64 < words ? (y0 + c1 + 63) / 64 : words;
            ns_error e = {0};
            memset(sl->pnraw, NS_PN_N, bytes);
            for (int64_t i = 0; i < nrows; i++)
                for (int64_t k = w0; k < w1; k++)
                    for (uint64_t b = bits[i * words + k]; b; b &= b - 1) {
                        const int64_t y = k * 64 + __builtin_ctzll(b);
                        if (y >= y0 && y < y0 + c1)
                            sl->pnraw[i * c1 + (y - y0)] = NS_PN_P;
                    }
            bad |= ns_chunkfilter_run(sl->filter, sl->pnraw, bytes, 1, sl->p[0], p->pcap, &len[t], &e) != NS_OK;
        }
        if (bad) {
            ns_error_set(err, NS_EIO, "%s: cannot filter the /pn chunks of the rows at %lld", p->path, (long long)x0);
            goto fail;
        }
        for (int t = 0; t < nb; t++) {
            if (dbytes + len[t] > dcap) {
                size_t nc = dcap * 2 > dbytes + len[t] ? dcap * 2 : dbytes + len[t];
                uint8_t *q = realloc(data, nc);
                if (!q)
                    goto nomem;
                data = q;
                dcap = nc;
            }
            memcpy(data + dbytes, p->slots[t].p[0], len[t]);
            dbytes += len[t];
            req[5 + 2 * (j0 + t)] = ys[j0 + t];
            req[5 + 2 * (j0 + t) + 1] = (int64_t)len[t];
        }
    }
    req[0] = NS_H5_PLACE_ROWS;
    req[1] = x0;
    req[2] = nrows;
    req[3] = nst;
    req[4] = npp;
    int64_t *pp = req + 5 + 2 * nst;
    for (int64_t i = 0; i < nrows; i++)
        for (int64_t k = 0; k < words; k++)
            for (uint64_t b = bits[i * words + k]; b; b &= b - 1) {
                *pp++ = x0 + i;
                *pp++ = k * 64 + __builtin_ctzll(b);
            }
    int64_t *dh = (int64_t *)(void *)data;
    dh[0] = nst;
    for (int64_t j = 0; j < nst; j++) {
        dh[1 + 2 * j] = 0;
        dh[2 + 2 * j] = req[5 + 2 * j + 1];
    }
    free(ys);
    free(len);
    out->x0 = x0;
    out->y0 = 0;
    out->req = req;
    out->req_bytes = rw * sizeof *req;
    out->data = data;
    out->data_bytes = dbytes;
    return 0;
nomem:
    ns_error_set(err, NS_ENOMEM, "%s: out of memory for the placing of the rows at %lld", p->path, (long long)x0);
fail:
    free(ys);
    free(len);
    free(req);
    free(data);
    return -1;
}

ns_err ns_h5_place_parse_rows(const void *req, size_t bytes, int64_t bounds0, int64_t bounds1, int64_t c0,
                              int64_t c1, size_t pbound, ns_h5_place_rows *out, const char *path, ns_error *err)
{
    const int64_t *r = req;
    const size_t nw = bytes / sizeof *r;
    if (bytes % sizeof *r || nw < 5 || r[0] != NS_H5_PLACE_ROWS)
        goto bad;
    out->x0 = r[1];
    out->nrows = r[2];
    out->nch = r[3];
    out->npp = (uint64_t)r[4];
    if (out->x0 < 0 || out->x0 % c0 || out->x0 >= bounds0 || out->nrows != (bounds0 - out->x0 < c0 ? bounds0 - out->x0 : c0) ||
        out->nch < 0 || out->nch > (bounds1 + c1 - 1) / c1 || r[4] < 0 ||
        (uint64_t)r[4] > (uint64_t)out->nrows * (uint64_t)bounds1 ||
        nw != 5 + 2 * (size_t)out->nch + 2 * (size_t)out->npp)
        goto bad;
    out->ch = r + 5;
    out->pp = r + 5 + 2 * out->nch;
    for (int64_t i = 0; i < out->nch; i++) {
        const int64_t y0 = out->ch[2 * i], len = out->ch[2 * i + 1];
        if (y0 < 0 || y0 % c1 || y0 >= bounds1 || (i && y0 <= out->ch[2 * i - 2]) || len < 4 || (uint64_t)len > pbound)
            goto bad;
    }
    for (uint64_t k = 0; k < out->npp; k++) {
        const int64_t x = out->pp[2 * k], y = out->pp[2 * k + 1];
        if (x < out->x0 || x >= out->x0 + out->nrows || y < 0 || y >= bounds1)
            goto bad;
    }
    return NS_OK;
bad:
    return ns_error_set(err, NS_EINTERNAL, "%s: a rank's request to place a block of rows' chunks is malformed "
                        "(%zu bytes)", path, bytes);
}

/* ---- rank 0 gives a request its places (ns_h5_stream_place) ---- */

ns_err ns_h5_place_parse(const void *req, size_t bytes, int64_t bounds0, int64_t bounds1, int64_t tile,
                         ns_h5_place_tile *tiles, int *n, const char *path, ns_error *err)
{
    const int64_t *r = req, *end = r + bytes / sizeof *r;
    if (bytes % sizeof *r || bytes < sizeof *r || r[0] < 1 || r[0] > 2)
        goto bad;
    *n = (int)*r++;
    for (int i = 0; i < *n; i++) {
        ns_h5_place_tile *t = &tiles[i];
        if (end - r < REQ_HEAD)
            goto bad;
        t->x0 = r[0];
        t->y0 = r[1];
        t->nx = r[2];
        t->ny = r[3];
        t->glen = (uint64_t)r[4];
        t->plen = (uint64_t)r[5];
        t->zeros = (uint64_t)r[6];
        t->max_value = (uint64_t)r[7];
        r += REQ_HEAD;
        if (t->x0 < 0 || t->y0 < 0 || t->x0 % tile || t->y0 % tile || t->nx < 1 || t->ny < 1 || t->nx > tile ||
            t->ny > tile || t->x0 + t->nx > bounds0 || t->y0 + t->ny > bounds1 || t->glen < 4 ||
            (t->plen != 0) != (t->zeros != 0) || (t->plen && t->plen < 4) ||
            t->zeros > (uint64_t)(t->nx * t->ny) || t->max_value > UINT32_MAX ||
            (uint64_t)(end - r) < 2 * t->zeros)
            goto bad;
        t->pp = r;
        r += 2 * t->zeros;
        for (uint64_t k = 0; k < t->zeros; k++)
            if (t->pp[2 * k] < t->x0 || t->pp[2 * k] >= t->x0 + t->nx || t->pp[2 * k + 1] < t->y0 ||
                t->pp[2 * k + 1] >= t->y0 + t->ny)
                goto bad;
    }
    if (r != end)
        goto bad;
    return NS_OK;
bad:
    return ns_error_set(err, NS_EINTERNAL, "%s: a rank's request to place a tile's chunks is malformed (%zu bytes)",
                        path, bytes);
}

/* ---- rank 0 places a chunk: HDF5 allocates and indexes it ---- */

ns_err ns_h5_place_chunk(hid_t file, hid_t ds, const hsize_t *off, uint64_t len, const void *dummy, uint64_t *addr,
                         const char *path, ns_error *err)
{
    uint64_t got = 0;
    if (ns_h5_direct_skip(file, 1, NULL, NULL))
        return ns_error_set(err, NS_EINTERNAL, "%s: the file does not take other processes' chunks", path);
    const herr_t w = H5Dwrite_chunk(ds, H5P_DEFAULT, 0, off, (size_t)len, dummy);
    const ns_err k = ns_h5_direct_skip(file, 0, addr, &got);
    if (w < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot place the chunk at %llu,%llu", path, (unsigned long long)off[0],
                          (unsigned long long)off[1]);
    if (k || got != len)
        return ns_error_set(err, NS_EINTERNAL, "%s: the chunk at %llu,%llu was not placed as one write", path,
                            (unsigned long long)off[0], (unsigned long long)off[1]);
    return NS_OK;
}

/* ---- the rank writes its bytes where rank 0 placed them ---- */

ns_err ns_h5_place_write(int fd, const void *data, size_t data_bytes, const void *reply, size_t reply_bytes,
                         const char *file, ns_error *err)
{
    const int64_t *d = data;
    const uint64_t *a = reply;
    if (data_bytes < sizeof *d || reply_bytes < sizeof *a || d[0] < 0 ||
        (uint64_t)d[0] > (data_bytes / sizeof *d - 1) / 2 || (int64_t)a[0] != d[0] ||
        reply_bytes != (1 + 2 * (size_t)d[0]) * sizeof *a)
        return ns_error_set(err, NS_EINTERNAL, "%s: a placing's reply does not match its tiles", file);
    const int n = (int)d[0];
    const uint8_t *b = (const uint8_t *)data + (1 + 2 * (size_t)n) * sizeof *d, *bend = (const uint8_t *)data + data_bytes;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            const uint64_t len = (uint64_t)d[1 + 2 * i + k], addr = a[1 + 2 * i + k];
            if (!len)
                continue;
            if (addr == UINT64_MAX || (uint64_t)(bend - b) < len)
                return ns_error_set(err, NS_EINTERNAL, "%s: a placing's reply does not match its tiles", file);
            size_t done = 0;
            while (done < len) {
                const ssize_t w = pwrite(fd, b + done, (size_t)len - done, (off_t)(addr + done));
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0)
                    return ns_error_set(err, NS_EIO, "%s: cannot write a chunk of %llu bytes at %llu: %s", file,
                                        (unsigned long long)len, (unsigned long long)addr,
                                        w < 0 ? strerror(errno) : "nothing written");
                done += (size_t)w;
            }
            b += len;
        }
    }
    return NS_OK;
}
