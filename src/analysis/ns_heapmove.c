/* ns_heapmove.c - see ns_heapmove.h */
#include "analysis/ns_heapmove.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

ns_err ns_heap_value(const ns_table *t, const int64_t *h, int k, uint32_t *x, ns_error *err)
{
    *x = 0;
    if (t->k != 1 || t->pn_only)
        return ns_error_set(err, NS_EINVAL, "a position of heaps needs a 1-D table of Grundy values (a heap game's "
                            "sequence)");
    for (int i = 0; i < k; i++) {
        if (h[i] < 0 || h[i] >= t->bounds[0])
            return ns_error_set(err, NS_ERANGE, "heap %d of %" PRId64 " tokens is outside the sequence: expected 0 .. %"
                                PRId64, i + 1, h[i], t->bounds[0] - 1);
        *x ^= ns_table_get(t, (uint64_t)h[i]);
    }
    return NS_OK;
}

typedef struct collect {
    const ns_table *t;
    uint32_t want;          /* the value an option must have */
    int all;
    ns_heap_move cur;       /* heap and from set by the caller */
    ns_heap_move *v;        /* owned by the caller's list */
    size_t n, cap;
    int oom, range;         /* a part outside the sequence */
} collect;

static int on_option(void *user, int64_t take, const int64_t *parts, int np)
{
    collect *c = user;
    uint32_t x = 0;
    for (int i = 0; i < np; i++) {
        if (parts[i] >= c->t->bounds[0]) {
            c->range = 1;
            return 1;
        }
        x ^= ns_table_get(c->t, (uint64_t)parts[i]);
    }
    if (x != c->want)
        return 0;
    if (c->n == c->cap) {
        const size_t nc = c->cap ? 2 * c->cap : 16;
        ns_heap_move *p = realloc(c->v, nc * sizeof *p);
        if (!p) {
            c->oom = 1;
            return 1;
        }
        c->v = p;
        c->cap = nc;
    }
    ns_heap_move *m = &c->v[c->n++];
    *m = c->cur;
    m->take = take;
    m->np = np;
    memset(m->parts, 0, sizeof m->parts);
    memcpy(m->parts, parts, (size_t)np * sizeof *parts);
    return !c->all;
}

ns_err ns_heap_winning_moves(const ns_octal *o, const ns_table *t, const int64_t *h, int k, int all,
                             ns_heap_move **out, size_t *n, ns_error *err)
{
    *out = NULL;
    *n = 0;
    uint32_t x;
    ns_err rc = ns_heap_value(t, h, k, &x, err);
    if (rc || x == 0)
        return rc;
    collect c = {.t = t, .all = all};
    for (int i = 0; i < k && (all || c.n == 0); i++) {
        c.cur.heap = i;
        c.cur.from = h[i];
        c.want = ns_table_get(t, (uint64_t)h[i]) ^ x;
        if (ns_octal_foreach_option(o, h[i], on_option, &c, err) < 0) {
            rc = err->code ? err->code : NS_EINTERNAL;
            goto fail;
        }
        if (c.oom) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory listing the winning moves");
            goto fail;
        }
        if (c.range) {
            rc = ns_error_set(err, NS_EINTERNAL, "a move from the heap of %" PRId64 " leaves a heap outside the "
                              "sequence", h[i]);
            goto fail;
        }
    }
    if (c.n == 0) {
        rc = ns_error_set(err, NS_EINTERNAL, "the value is %" PRIu32 " but no move reaches value 0: the sequence does "
                          "not belong to this game", x);
        goto fail;
    }
    *out = c.v;
    *n = c.n;
    return NS_OK;
fail:
    free(c.v);
    return rc;
}
