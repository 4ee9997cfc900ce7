/* ns_seq_split3.c - see ns_seq_split3.h */
#include "engine/ns_seq_split3.h"

#include <stdlib.h>
#include <string.h>

struct ns_seq_split3 {
    const ns_table *t;
    int64_t n;
    uint64_t *pool;   /* the stored sets, one after the other */
    uint64_t used, cap; /* words */
    uint64_t max_words; /* the cap on cap */
    uint64_t *off;    /* off[r]: first word of S2(r) in pool */
    uint32_t *words;  /* words[r]: its length, 0 when not stored */
};

static int bitlen(uint64_t v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

ns_seq_split3 *ns_seq_split3_new(const ns_table *t, int64_t n, uint64_t max_bytes, ns_error *err)
{
    ns_seq_split3 *s = calloc(1, sizeof *s);
    if (!s || !(s->off = calloc((size_t)(n > 0 ? n : 1), sizeof *s->off)) ||
        !(s->words = calloc((size_t)(n > 0 ? n : 1), sizeof *s->words))) {
        ns_seq_split3_free(s);
        ns_error_set(err, NS_ENOMEM, "out of memory for the two-heap value sets of %lld heap sizes", (long long)n);
        return NULL;
    }
    s->t = t;
    s->n = n;
    s->max_words = (max_bytes ? max_bytes : NS_SEQ_SPLIT3_MAX_BYTES) / 8;
    return s;
}

void ns_seq_split3_free(ns_seq_split3 *s)
{
    if (!s)
        return;
    free(s->pool);
    free(s->off);
    free(s->words);
    free(s);
}

void ns_seq_split3_add(ns_seq_split3 *s, int64_t r, uint32_t maxv)
{
    if (r < 2 || r >= s->n)
        return;
    const int b = bitlen(maxv);
    const uint64_t w = b <= 6 ? 1 : (uint64_t)1 << (b - 6);
    if (s->used + w > s->cap) {
        uint64_t cap = s->cap ? 2 * s->cap : 4096;
        while (cap < s->used + w)
            cap *= 2;
        if (cap > s->max_words)
            cap = s->max_words;
        uint64_t *p = cap >= s->used + w ? realloc(s->pool, cap * sizeof *p) : NULL;
        if (!p)
            return; /* not stored: marked pair by pair */
        s->pool = p;
        s->cap = cap;
    }
    uint64_t *set = s->pool + s->used;
    memset(set, 0, w * sizeof *set);
    for (int64_t a = 1; 2 * a <= r; a++) {
        const uint32_t v = ns_table_get(s->t, (uint64_t)a) ^ ns_table_get(s->t, (uint64_t)(r - a));
        set[v >> 6] |= (uint64_t)1 << (v & 63);
    }
    s->off[r] = s->used;
    s->words[r] = (uint32_t)w;
    s->used += w;
}

/* the bits of w moved from j to j ^ x (x < 64): blocks of 2^k bits swapped
 * for each bit k of x */
static inline uint64_t permute(uint64_t w, unsigned x)
{
    static const uint64_t lo[6] = {0x5555555555555555u, 0x3333333333333333u, 0x0f0f0f0f0f0f0f0fu,
                                   0x00ff00ff00ff00ffu, 0x0000ffff0000ffffu, 0x00000000ffffffffu};
    for (int k = 0; k < 6; k++)
        if (x >> k & 1) {
            const unsigned sh = 1u << k;
            w = ((w & lo[k]) << sh) | ((w >> sh) & lo[k]);
        }
    return w;
}

void ns_seq_split3_mark(const ns_seq_split3 *s, int64_t m, int64_t b0, int late, uint64_t *seen)
{
    const ns_table *t = s->t;
    for (int64_t a = 1; 3 * a <= m; a++) {
        const int64_t r = m - a;
        if ((r >= b0) != late)
            continue;
        const uint32_t x = ns_table_get(t, (uint64_t)a);
        const uint32_t w = r < s->n ? s->words[r] : 0;
        if (w) {
            const uint64_t *set = s->pool + s->off[r];
            const uint64_t hi = x >> 6;
            const unsigned low = x & 63;
            for (uint64_t i = 0; i < w; i++)
                if (set[i])
                    seen[i ^ hi] |= permute(set[i], low);
        } else {
            for (int64_t b = 1; 2 * b <= r; b++) {
                const uint32_t v = x ^ ns_table_get(t, (uint64_t)b) ^ ns_table_get(t, (uint64_t)(r - b));
                seen[v >> 6] |= (uint64_t)1 << (v & 63);
            }
        }
    }
}
