/* ns_group.c - see ns_group.h. */
#include "analysis/ns_group.h"

#include <inttypes.h>
#include <stdlib.h>

/* one group: its first variant, the hash, and a copy of its table */
typedef struct rep {
    uint64_t first;
    uint64_t hash;
    ns_table *t;
} rep;

struct ns_group {
    rep *reps;          /* ngroups, in the order they opened */
    size_t ngroups, cap;
    size_t *slot;       /* open addressing on hash: index into reps + 1, 0 free */
    size_t nslots;      /* a power of two, at least 2 x ngroups */
    uint64_t next;      /* the smallest i the next add may have */
};

ns_group *ns_group_new(void) { return calloc(1, sizeof(ns_group)); }

void ns_group_free(ns_group *gr)
{
    if (!gr)
        return;
    for (size_t k = 0; k < gr->ngroups; k++)
        ns_table_free(gr->reps[k].t);
    free(gr->reps);
    free(gr->slot);
    free(gr);
}

size_t ns_group_count(const ns_group *gr) { return gr->ngroups; }

static uint64_t fnv32(uint64_t h, uint32_t v)
{
    for (int b = 0; b < 4; b++, v >>= 8) {
        h ^= v & 0xFFu;
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t ns_group_hash(const ns_table *t)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv32(h, (uint32_t)t->k);
    h = fnv32(h, (uint32_t)t->pn_only);
    for (int d = 0; d < t->k; d++) {
        h = fnv32(h, (uint32_t)t->bounds[d]);
        h = fnv32(h, (uint32_t)((uint64_t)t->bounds[d] >> 32));
    }
    const uint32_t inv = ns_table_invalid(t);
    for (uint64_t c = 0; c < t->ncells; c++) {
        const uint32_t v = ns_table_get(t, c);
        h = fnv32(h, v == inv ? UINT32_MAX : v);
    }
    return h;
}

/* t in the narrowest cells that hold its values (invalid cells kept) */
static ns_table *narrow_copy(const ns_table *t, ns_error *err)
{
    const uint32_t inv = ns_table_invalid(t);
    uint32_t maxv = 0;
    for (uint64_t c = 0; c < t->ncells; c++) {
        const uint32_t v = ns_table_get(t, c);
        if (v != inv && v > maxv)
            maxv = v;
    }
    ns_table *s = ns_table_new(t->k, t->bounds, t->pn_only ? t->elem : ns_table_elem_for(maxv), t->pn_only, err);
    if (!s)
        return NULL;
    const uint32_t sinv = ns_table_invalid(s);
    for (uint64_t c = 0; c < t->ncells; c++) {
        const uint32_t v = ns_table_get(t, c);
        ns_table_set(s, c, v == inv ? sinv : v);
    }
    return s;
}

static ns_err grow_slots(ns_group *gr, ns_error *err)
{
    const size_t n = gr->nslots ? 2 * gr->nslots : 64;
    size_t *s = calloc(n, sizeof *s);
    if (!s)
        return ns_error_set(err, NS_ENOMEM, "grouping: out of memory for %zu groups", gr->ngroups);
    for (size_t k = 0; k < gr->ngroups; k++) {
        size_t j = (size_t)gr->reps[k].hash & (n - 1);
        while (s[j])
            j = (j + 1) & (n - 1);
        s[j] = k + 1;
    }
    free(gr->slot);
    gr->slot = s;
    gr->nslots = n;
    return NS_OK;
}

ns_err ns_group_add(ns_group *gr, uint64_t i, const ns_table *t, uint64_t *first, ns_error *err)
{
    if (i < gr->next)
        return ns_error_set(err, NS_EINVAL, "grouping: variant %" PRIu64 " after variant %" PRIu64
                            " (expected increasing order)", i, gr->next - 1);
    const uint64_t h = ns_group_hash(t);
    if (gr->nslots) {
        for (size_t j = (size_t)h & (gr->nslots - 1); gr->slot[j]; j = (j + 1) & (gr->nslots - 1)) {
            const rep *r = &gr->reps[gr->slot[j] - 1];
            if (r->hash == h && ns_table_equal(r->t, t)) {
                *first = r->first;
                gr->next = i + 1;
                return NS_OK;
            }
        }
    }
    ns_err rc;
    if (2 * (gr->ngroups + 1) > gr->nslots && (rc = grow_slots(gr, err)))
        return rc;
    if (gr->ngroups == gr->cap) {
        const size_t cap = gr->cap ? 2 * gr->cap : 16;
        rep *r = realloc(gr->reps, cap * sizeof *r);
        if (!r)
            return ns_error_set(err, NS_ENOMEM, "grouping: out of memory for %zu groups", cap);
        gr->reps = r;
        gr->cap = cap;
    }
    ns_table *copy = narrow_copy(t, err);
    if (!copy)
        return err->code ? err->code : NS_ENOMEM;
    const size_t k = gr->ngroups++;
    gr->reps[k] = (rep){.first = i, .hash = h, .t = copy};
    size_t j = (size_t)h & (gr->nslots - 1);
    while (gr->slot[j])
        j = (j + 1) & (gr->nslots - 1);
    gr->slot[j] = k + 1;
    gr->next = i + 1;
    *first = i;
    return NS_OK;
}
