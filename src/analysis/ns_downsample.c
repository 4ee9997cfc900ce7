/* ns_downsample.c - see ns_downsample.h.
 *
 * Each grid cell of a band is reduced by one thread, which walks its whole
 * block; the grid cells of a band are shared out statically, so the result
 * does not depend on the thread count. The mode counts values in a small
 * open-addressing hash per thread whose entries are stamped with the block
 * they belong to, so nothing is cleared between blocks. */
#include "analysis/ns_downsample.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"

typedef struct mode_hash {
    uint32_t *key;
    uint32_t *count;
    uint32_t *stamp;      /* entry in use when == cur */
    uint32_t cur;
    unsigned bits;        /* capacity 2^bits */
    uint64_t used;
} mode_hash;

struct ns_downsample {
    ns_ds_plan p;
    ns_ds_kind kind;
    int has_invalid;
    uint32_t invalid;
    int threads;
    uint32_t *grid;       /* out_rows * out_cols, owned */
    int nhash;
    mode_hash *hash;      /* one per thread for NS_DS_MODE, owned */
};

/* ------------------------------------------------------------------ plan */

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

ns_err ns_ds_plan_for(int64_t rows, int64_t cols, int64_t max_rows, int64_t max_cols,
                      ns_ds_plan *plan, ns_error *err)
{
    if (rows < 1 || cols < 1 || max_rows < 1 || max_cols < 1)
        return ns_error_set(err, NS_EINVAL,
                            "downsample: source %" PRId64 " x %" PRId64 " into at most %" PRId64
                            " x %" PRId64 ": sizes must be >= 1", rows, cols, max_rows, max_cols);
    plan->rows = rows;
    plan->cols = cols;
    plan->fr = ceil_div(rows, max_rows);
    plan->fc = ceil_div(cols, max_cols);
    plan->out_rows = ceil_div(rows, plan->fr);
    plan->out_cols = ceil_div(cols, plan->fc);
    return NS_OK;
}

const char *ns_ds_kind_name(ns_ds_kind kind)
{
    switch (kind) {
    case NS_DS_MIN: return "min";
    case NS_DS_MAX: return "max";
    case NS_DS_MODE: return "mode";
    default: return "presence";
    }
}

ns_err ns_ds_kind_parse(const char *name, ns_ds_kind *kind, ns_error *err)
{
    static const ns_ds_kind all[] = {NS_DS_MIN, NS_DS_MAX, NS_DS_MODE, NS_DS_PRESENCE};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(name, ns_ds_kind_name(all[i])) == 0) {
            *kind = all[i];
            return NS_OK;
        }
    }
    return ns_error_set(err, NS_EINVAL, "downsample \"%s\": expected min, max, mode or presence", name);
}

/* ------------------------------------------------------------------ mode */

static void hash_free(mode_hash *h)
{
    free(h->key);
    free(h->count);
    free(h->stamp);
    memset(h, 0, sizeof *h);
}

static int hash_alloc(mode_hash *h, unsigned bits)
{
    size_t cap = (size_t)1 << bits;
    h->key = malloc(cap * sizeof *h->key);
    h->count = malloc(cap * sizeof *h->count);
    h->stamp = calloc(cap, sizeof *h->stamp);
    h->bits = bits;
    h->cur = 1;
    h->used = 0;
    return h->key && h->count && h->stamp;
}

static inline size_t hash_slot(uint32_t v, unsigned bits)
{
    return (size_t)((v * 0x9E3779B1u) >> (32 - bits));
}

/* Start a new block: forget every entry. */
static void hash_reset(mode_hash *h)
{
    h->used = 0;
    if (++h->cur == 0) {   /* stamps wrapped: clear them once */
        memset(h->stamp, 0, ((size_t)1 << h->bits) * sizeof *h->stamp);
        h->cur = 1;
    }
}

/* Double the capacity, keeping the current block's entries. 0 on no memory
 * (the table is then unchanged). */
static int hash_grow(mode_hash *h)
{
    mode_hash n;
    memset(&n, 0, sizeof n);
    if (h->bits >= 31 || !hash_alloc(&n, h->bits + 1)) {
        hash_free(&n);
        return 0;
    }
    size_t cap = (size_t)1 << h->bits, ncap = (size_t)1 << n.bits;
    for (size_t i = 0; i < cap; i++) {
        if (h->stamp[i] != h->cur)
            continue;
        size_t s = hash_slot(h->key[i], n.bits);
        while (n.stamp[s] == n.cur)
            s = (s + 1) & (ncap - 1);
        n.stamp[s] = n.cur;
        n.key[s] = h->key[i];
        n.count[s] = h->count[i];
        n.used++;
    }
    hash_free(h);
    *h = n;
    return 1;
}

/* Count one more v; returns its count, or 0 on no memory. */
static inline uint32_t hash_add(mode_hash *h, uint32_t v)
{
    if (2 * (h->used + 1) > ((uint64_t)1 << h->bits) && !hash_grow(h))
        return 0;
    size_t mask = ((size_t)1 << h->bits) - 1, s = hash_slot(v, h->bits);
    for (;;) {
        if (h->stamp[s] != h->cur) {
            h->stamp[s] = h->cur;
            h->key[s] = v;
            h->count[s] = 1;
            h->used++;
            return 1;
        }
        if (h->key[s] == v)
            return ++h->count[s];
        s = (s + 1) & mask;
    }
}

/* ---------------------------------------------------------------- create */

ns_downsample *ns_downsample_new(const ns_ds_plan *plan, ns_ds_kind kind, int has_invalid,
                                 uint32_t invalid, int threads, ns_error *err)
{
    if (plan->fr < 1 || plan->fc < 1 || plan->out_rows != ceil_div(plan->rows, plan->fr) ||
        plan->out_cols != ceil_div(plan->cols, plan->fc) || (unsigned)kind > NS_DS_PRESENCE) {
        ns_error_set(err, NS_EINTERNAL, "downsample: inconsistent plan");
        return NULL;
    }
    if ((uint64_t)plan->out_rows > SIZE_MAX / sizeof(uint32_t) / (uint64_t)plan->out_cols) {
        ns_error_set(err, NS_ERANGE, "downsample: grid of %" PRId64 " x %" PRId64 " is too large",
                     plan->out_rows, plan->out_cols);
        return NULL;
    }
    ns_downsample *d = calloc(1, sizeof *d);
    if (!d)
        goto nomem;
    d->p = *plan;
    d->kind = kind;
    d->has_invalid = has_invalid;
    d->invalid = invalid;
    d->threads = threads > 0 ? threads : ns_omp_max_threads();
    size_t n = (size_t)plan->out_rows * (size_t)plan->out_cols;
    d->grid = malloc(n * sizeof *d->grid);
    if (!d->grid)
        goto nomem;
    for (size_t i = 0; i < n; i++)
        d->grid[i] = kind == NS_DS_PRESENCE ? 0 : NS_DS_EMPTY;
    if (kind == NS_DS_MODE) {
        d->nhash = d->threads;
        d->hash = calloc((size_t)d->nhash, sizeof *d->hash);
        if (!d->hash)
            goto nomem;
        for (int t = 0; t < d->nhash; t++)
            if (!hash_alloc(&d->hash[t], 10))
                goto nomem;
    }
    return d;

nomem:
    ns_downsample_free(d);
    ns_error_set(err, NS_ENOMEM, "downsample: out of memory for a grid of %" PRId64 " x %" PRId64,
                 plan->out_rows, plan->out_cols);
    return NULL;
}

void ns_downsample_free(ns_downsample *d)
{
    if (!d)
        return;
    for (int t = 0; t < d->nhash; t++)
        hash_free(&d->hash[t]);
    free(d->hash);
    free(d->grid);
    free(d);
}

const uint32_t *ns_downsample_grid(const ns_downsample *d)
{
    return d->grid;
}

/* ---------------------------------------------------------------- reduce */

static inline uint32_t load(const void *data, int elem, size_t i)
{
    switch (elem) {
    case 1: return ((const uint8_t *)data)[i];
    case 2: return ((const uint16_t *)data)[i];
    default: return ((const uint32_t *)data)[i];
    }
}

/* Reduce the block of rows [r0, r1) x cols [c0, c1) of a band of width
 * cols. Returns 0 when the mode ran out of memory. */
static inline int reduce_block(const ns_downsample *d, mode_hash *h, const void *data,
                               const int elem, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                               uint32_t *out)
{
    const int64_t cols = d->p.cols;
    const int skip = d->has_invalid;
    const uint32_t inv = d->invalid;
    switch (d->kind) {
    case NS_DS_MIN: {
        uint32_t m = NS_DS_EMPTY;
        for (int64_t r = r0; r < r1; r++)
            for (int64_t c = c0; c < c1; c++) {
                uint32_t v = load(data, elem, (size_t)(r * cols + c));
                if (!(skip && v == inv) && v < m)
                    m = v;
            }
        *out = m;
        return 1;
    }
    case NS_DS_MAX: {
        uint32_t m = 0;
        int any = 0;
        for (int64_t r = r0; r < r1; r++)
            for (int64_t c = c0; c < c1; c++) {
                uint32_t v = load(data, elem, (size_t)(r * cols + c));
                if (!(skip && v == inv)) {
                    any = 1;
                    m = v > m ? v : m;
                }
            }
        *out = any ? m : NS_DS_EMPTY;
        return 1;
    }
    case NS_DS_PRESENCE: {
        uint32_t mask = 0;
        for (int64_t r = r0; r < r1; r++)
            for (int64_t c = c0; c < c1; c++) {
                uint32_t v = load(data, elem, (size_t)(r * cols + c));
                if (!(skip && v == inv) && v <= NS_DS_PRESENCE_MAX)
                    mask |= (uint32_t)1 << v;
            }
        *out = mask;
        return 1;
    }
    default: {
        uint32_t best = NS_DS_EMPTY, best_n = 0;
        hash_reset(h);
        for (int64_t r = r0; r < r1; r++)
            for (int64_t c = c0; c < c1; c++) {
                uint32_t v = load(data, elem, (size_t)(r * cols + c));
                if (skip && v == inv)
                    continue;
                uint32_t n = hash_add(h, v);
                if (n == 0)
                    return 0;
                if (n > best_n || (n == best_n && v < best)) {
                    best_n = n;
                    best = v;
                }
            }
        *out = best;
        return 1;
    }
    }
}

ns_err ns_downsample_feed(ns_downsample *d, int64_t row0, int64_t nrows, const void *data,
                          int elem, ns_error *err)
{
    const ns_ds_plan *p = &d->p;
    if (elem != 1 && elem != 2 && elem != 4)
        return ns_error_set(err, NS_EINTERNAL, "downsample: values of %d bytes", elem);
    if (row0 < 0 || nrows < 1 || row0 > p->rows - nrows || row0 % p->fr != 0 ||
        (nrows % p->fr != 0 && row0 + nrows != p->rows))
        return ns_error_set(err, NS_EINTERNAL,
                            "downsample: band of rows %" PRId64 "+%" PRId64 " does not consist of "
                            "whole blocks of %" PRId64 " rows within %" PRId64,
                            row0, nrows, p->fr, p->rows);
    const int64_t R0 = row0 / p->fr, nR = ceil_div(nrows, p->fr), ncells = nR * p->out_cols;
    const int64_t fr = p->fr, fc = p->fc, out_cols = p->out_cols, cols = p->cols;
    int failed = 0;   /* set (never cleared) by a thread whose hash ran out */
    NS_OMP_FOR_DYNAMIC(d->threads)
    for (int64_t i = 0; i < ncells; i++) {
        const int64_t R = i / out_cols, C = i % out_cols;
        const int64_t r0 = R * fr, r1 = r0 + fr < nrows ? r0 + fr : nrows;
        const int64_t c0 = C * fc, c1 = c0 + fc < cols ? c0 + fc : cols;
        mode_hash *h = d->hash ? &d->hash[ns_omp_thread_num() % d->nhash] : NULL;
        uint32_t *out = &d->grid[(R0 + R) * out_cols + C];
        int ok;
        switch (elem) {
        case 1: ok = reduce_block(d, h, data, 1, r0, r1, c0, c1, out); break;
        case 2: ok = reduce_block(d, h, data, 2, r0, r1, c0, c1, out); break;
        default: ok = reduce_block(d, h, data, 4, r0, r1, c0, c1, out); break;
        }
        if (!ok) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
            failed = 1;
        }
    }
    if (failed)
        return ns_error_set(err, NS_ENOMEM, "downsample: out of memory counting the values of a block");
    return NS_OK;
}

ns_err ns_downsample_all(const ns_ds_plan *plan, ns_ds_kind kind, int has_invalid,
                         uint32_t invalid, const void *data, int elem, int threads,
                         uint32_t **out, ns_error *err)
{
    *out = NULL;
    ns_downsample *d = ns_downsample_new(plan, kind, has_invalid, invalid, threads, err);
    if (!d)
        return err && err->code ? err->code : NS_ENOMEM;
    ns_err rc = ns_downsample_feed(d, 0, plan->rows, data, elem, err);
    if (rc == NS_OK) {
        *out = d->grid;   /* hand the grid over */
        d->grid = NULL;
    }
    ns_downsample_free(d);
    return rc;
}
