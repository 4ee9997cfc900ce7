/* ns_table.c - see ns_table.h */
#include "game/ns_table.h"

#include "core/ns_hugemem.h"
#include "core/ns_omp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Tables of at least this size are mapped directly, asking for transparent
 * huge pages: with 4 KiB pages, first-touch page faults cost ~3 s per GiB. */
#define NS_MAP_THRESHOLD ((uint64_t)64 << 20)

uint64_t ns_table_bytes(int k, const int64_t *bounds, int elem)
{
    uint64_t n = (uint64_t)elem;
    for (int d = 0; d < k; d++) {
        if (bounds[d] < 1 || (uint64_t)bounds[d] > UINT64_MAX / n)
            return 0;
        n *= (uint64_t)bounds[d];
    }
    return n;
}

int ns_table_elem_for(uint64_t maxval)
{
    if (maxval < 0xFFu)
        return 1;
    if (maxval < 0xFFFFu)
        return 2;
    if (maxval < 0xFFFFFFFFu)
        return 4;
    return 0;
}

ns_table *ns_table_new(int k, const int64_t *bounds, int elem, int pn_only, ns_error *err)
{
    if (k < 1 || k > NS_MAX_DIM || (elem != 1 && elem != 2 && elem != 4)) {
        ns_error_set(err, NS_EINTERNAL, "ns_table_new: bad shape (k=%d, elem=%d)", k, elem);
        return NULL;
    }
    uint64_t bytes = ns_table_bytes(k, bounds, elem);
    if (bytes == 0 || bytes > ((uint64_t)1 << 62)) {
        ns_error_set(err, NS_ERANGE, "table size overflows");
        return NULL;
    }
    if (bytes > SIZE_MAX) {
        ns_error_set(err, NS_ENOMEM, "table of %" PRIu64 " bytes does not fit the address space", bytes);
        return NULL;
    }
    ns_table *t = calloc(1, sizeof *t);
    if (!t) {
        ns_error_set(err, NS_ENOMEM, "out of memory");
        return NULL;
    }
    t->data = ns_huge_calloc((size_t)bytes, NS_MAP_THRESHOLD, &t->mapped);
    if (!t->data) {
        free(t);
        ns_error_set(err, NS_ENOMEM, "cannot allocate %.2f GiB for the table", (double)bytes / (1 << 30));
        return NULL;
    }
    t->k = k;
    t->elem = elem;
    t->pn_only = pn_only;
    t->ncells = bytes / (uint64_t)elem;
    int64_t st = 1;
    for (int d = k - 1; d >= 0; d--) {
        t->bounds[d] = bounds[d];
        t->stride[d] = st;
        st *= bounds[d];
    }
    return t;
}

/* cells [0, used) of from-wide values into to-wide ones, last first (the
 * wider cell i never overlaps a narrower cell j > i) */
#define WIDEN(FROM, TO)                                                                                                \
    do {                                                                                                               \
        const FROM *src = t->data;                                                                                     \
        TO *dst = t->data;                                                                                             \
        const FROM inv = (FROM)~(FROM)0;                                                                               \
        for (uint64_t i = used; i-- > 0;) {                                                                            \
            const FROM v = src[i];                                                                                     \
            dst[i] = v == inv ? (TO)~(TO)0 : (TO)v;                                                                    \
        }                                                                                                              \
    } while (0)

ns_err ns_table_widen(ns_table *t, int elem, uint64_t used, ns_error *err)
{
    if ((elem != 2 && elem != 4) || elem <= t->elem)
        return ns_error_set(err, NS_EINTERNAL, "ns_table_widen: from %d to %d bytes a cell", t->elem, elem);
    if (used > t->ncells)
        used = t->ncells;
    const uint64_t old_bytes = t->ncells * (uint64_t)t->elem;
    const uint64_t bytes = ns_table_bytes(t->k, t->bounds, elem);
    if (bytes == 0 || bytes > SIZE_MAX)
        return ns_error_set(err, NS_ENOMEM, "a table of %" PRIu64 " cells of %d bytes does not fit the address space",
                            t->ncells, elem);
    size_t mapped = t->mapped;
    void *p = ns_huge_grow(t->data, (size_t)old_bytes, (size_t)bytes, NS_MAP_THRESHOLD, &mapped);
    if (!p)
        return ns_error_set(err, NS_ENOMEM, "cannot widen the table to %d bytes a cell (%.2f GiB)", elem,
                            (double)bytes / (1 << 30));
    t->data = p;
    t->mapped = mapped;
    /* the cells from used on were never set: zero what the old ones left there */
    const uint64_t keep = used * (uint64_t)elem;
    if (keep < old_bytes)
        memset((char *)p + keep, 0, (size_t)(old_bytes - keep));
    if (t->elem == 1 && elem == 2)
        WIDEN(uint8_t, uint16_t);
    else if (t->elem == 1)
        WIDEN(uint8_t, uint32_t);
    else
        WIDEN(uint16_t, uint32_t);
    t->elem = elem;
    return NS_OK;
}
#undef WIDEN

void ns_table_free(ns_table *t)
{
    if (!t)
        return;
    ns_huge_free(t->data, t->mapped);
    free(t);
}

void ns_table_coords(const ns_table *t, uint64_t i, int64_t *s)
{
    for (int d = 0; d < t->k; d++) {
        s[d] = (int64_t)(i / (uint64_t)t->stride[d]);
        i %= (uint64_t)t->stride[d];
    }
}

/* Typed loop over lo..hi-1: counters of the cells' own width over blocks
 * short enough not to overflow them, so that the loop vectorizes. */
#define SUMMARIZE_PIECE(T)                                                              \
    do {                                                                                \
        const T *p = (const T *)t->data;                                                \
        const T inv = (T)tinv;                                                          \
        const uint64_t block = (T)~(T)0;                                                \
        T m = 0;                                                                        \
        uint64_t ci = 0, cp = 0;                                                        \
        for (uint64_t b0 = lo; b0 < hi;) {                                              \
            const uint64_t b1 = hi - b0 > block ? b0 + block : hi;                      \
            T bi = 0, bp = 0;                                                           \
            for (uint64_t i = b0; i < b1; i++) {                                        \
                const T v = p[i];                                                       \
                const T ne = (T)(v != inv); /* branch-free: it vectorizes */            \
                const T valid = (T)(v & (T)-ne);                                        \
                m = valid > m ? valid : m;                                              \
                bi = (T)(bi + 1 - ne);                                                  \
                bp = (T)(bp + (v == 0));                                                \
            }                                                                           \
            ci += bi;                                                                   \
            cp += bp;                                                                   \
            b0 = b1;                                                                    \
        }                                                                               \
        st->n_valid = (hi - lo) - ci;                                                   \
        st->n_p = cp;                                                                   \
        st->max_value = m;                                                              \
    } while (0)

static void summarize_piece(const ns_table *t, uint64_t lo, uint64_t hi, uint32_t tinv, ns_table_stats *st)
{
    if (t->elem == 1)
        SUMMARIZE_PIECE(uint8_t);
    else if (t->elem == 2)
        SUMMARIZE_PIECE(uint16_t);
    else
        SUMMARIZE_PIECE(uint32_t);
}

void ns_table_summarize_range(const ns_table *t, uint64_t lo, uint64_t hi, ns_table_stats *st)
{
    const uint32_t tinv = ns_table_invalid(t);
    const uint64_t piece = (uint64_t)1 << 30;
    memset(st, 0, sizeof *st);
    for (uint64_t a = lo; a < hi;) {
        const uint64_t b = hi - a > piece ? a + piece : hi;
        ns_table_stats one;
        summarize_piece(t, a, b, tinv, &one);
        st->n_valid += one.n_valid;
        st->n_p += one.n_p;
        st->max_value = one.max_value > st->max_value ? one.max_value : st->max_value;
        a = b;
    }
}

void ns_table_summarize(const ns_table *t, ns_table_stats *st, uint64_t *hist, size_t nhist)
{
    memset(st, 0, sizeof *st);
    if (!hist) {
        enum { RANGE = 1 << 22 };
        const int64_t nr = (int64_t)((t->ncells + RANGE - 1) / RANGE);
        uint64_t nv = 0, np = 0;
        uint32_t mx = 0;
        NS_PRAGMA(omp parallel for schedule(dynamic, 1) reduction(+ : nv, np) reduction(max : mx) if (nr > 1))
        for (int64_t r = 0; r < nr; r++) {
            const uint64_t lo = (uint64_t)r * RANGE;
            const uint64_t hi = lo + RANGE < t->ncells ? lo + RANGE : t->ncells;
            ns_table_stats one;
            ns_table_summarize_range(t, lo, hi, &one);
            nv += one.n_valid;
            np += one.n_p;
            mx = one.max_value > mx ? one.max_value : mx;
        }
        st->n_valid = nv;
        st->n_p = np;
        st->max_value = mx;
        return;
    }
    memset(hist, 0, nhist * sizeof *hist);
    const uint32_t inv = ns_table_invalid(t);
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t v = ns_table_get(t, i);
        if (v == inv)
            continue;
        st->n_valid++;
        if (v == 0)
            st->n_p++;
        if (v > st->max_value)
            st->max_value = v;
        if (hist && v < nhist)
            hist[v]++;
    }
}

int ns_table_equal(const ns_table *a, const ns_table *b)
{
    if (a->k != b->k || a->pn_only != b->pn_only || a->ncells != b->ncells)
        return 0;
    for (int d = 0; d < a->k; d++)
        if (a->bounds[d] != b->bounds[d])
            return 0;
    if (a->elem == b->elem)
        return memcmp(a->data, b->data, (size_t)a->ncells * (size_t)a->elem) == 0;
    for (uint64_t i = 0; i < a->ncells; i++) {
        int ia = ns_table_get(a, i) == ns_table_invalid(a);
        int ib = ns_table_get(b, i) == ns_table_invalid(b);
        if (ia != ib || (!ia && ns_table_get(a, i) != ns_table_get(b, i)))
            return 0;
    }
    return 1;
}

/* ---- the naive reference (ns_naive_cell) ---- */

typedef struct naive_ctx {
    const ns_table *t;
    uint32_t *vals;
    size_t n, cap;
    int oom;
} naive_ctx;

static int naive_emit(void *u, const int64_t *opt)
{
    naive_ctx *c = u;
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        uint32_t *p = realloc(c->vals, nc * sizeof *p);
        if (!p) {
            c->oom = 1;
            return 1;
        }
        c->vals = p;
        c->cap = nc;
    }
    c->vals[c->n++] = ns_table_get(c->t, ns_table_index(c->t, opt));
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

ns_err ns_naive_cell(const ns_game *g, const ns_table *t, const int64_t *s, uint32_t *out, ns_error *err)
{
    if (!ns_game_is_position(g, s)) {
        *out = ns_table_invalid(t);
        return NS_OK;
    }
    naive_ctx c = {t, NULL, 0, 0, 0};
    int rc = ns_game_foreach_option(g, s, naive_emit, &c, err);
    if (c.oom) {
        free(c.vals);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    if (rc < 0) {
        free(c.vals);
        return -rc;
    }
    if (c.n > 1)
        qsort(c.vals, c.n, sizeof *c.vals, cmp_u32);
    uint32_t v = 0; /* mex of the sorted values */
    for (size_t i = 0; i < c.n && c.vals[i] <= v; i++)
        if (c.vals[i] == v)
            v++;
    if (t->pn_only)
        v = v > 0; /* 1 (N) when some option is P */
    if (g->play == NS_PLAY_MISERE && c.n == 0)
        v = 1;
    free(c.vals);
    *out = v;
    return NS_OK;
}

typedef struct loopy_ctx {
    const ns_table *t;
    const uint32_t *rem;
    uint64_t n, np, nn;
    uint32_t pmin, nmax;
} loopy_ctx;

static int loopy_emit(void *u, const int64_t *opt)
{
    loopy_ctx *c = u;
    const uint64_t q = ns_table_index(c->t, opt);
    const int v = ns_table_pn(c->t, q);
    c->n++;
    if (v == NS_PN_P) {
        c->np++;
        c->pmin = c->rem[q] < c->pmin ? c->rem[q] : c->pmin;
    } else if (v == NS_PN_N) {
        c->nn++;
        c->nmax = c->rem[q] > c->nmax ? c->rem[q] : c->nmax;
    }
    return 0;
}

ns_err ns_naive_loopy_cell(const ns_game *g, const ns_table *t, const uint32_t *rem, const int64_t *s,
                           uint32_t *out, uint32_t *out_rem, ns_error *err)
{
    *out_rem = UINT32_MAX;
    if (!ns_game_is_position(g, s)) {
        *out = ns_table_invalid(t);
        return NS_OK;
    }
    loopy_ctx c = {t, rem, 0, 0, 0, UINT32_MAX, 0};
    int rc = ns_game_foreach_option(g, s, loopy_emit, &c, err);
    if (rc < 0)
        return -rc;
    if (c.n == 0) {
        *out = g->play == NS_PLAY_MISERE ? NS_PN_N : NS_PN_P;
        *out_rem = 0;
    } else if (c.np) {
        *out = NS_PN_N;
        *out_rem = c.pmin == UINT32_MAX ? UINT32_MAX : c.pmin + 1;
    } else if (c.nn == c.n) {
        *out = NS_PN_P;
        *out_rem = c.nmax == UINT32_MAX ? UINT32_MAX : c.nmax + 1;
    } else {
        *out = NS_PN_DRAW;
    }
    return NS_OK;
}

void ns_sym_fill(ns_table *t, int nsym, const int *sym)
{
    if (nsym < 2)
        return;
    const int k = t->k;
    /* one line along the last coordinate per iteration; lines do not
     * depend on each other, since sorted cells are only read */
    const int64_t last = t->bounds[k - 1];
    const int64_t nlines = (int64_t)(t->ncells / (uint64_t)last);
    NS_OMP_FOR_IF(ns_omp_max_threads(), nlines > 64)
    for (int64_t line = 0; line < nlines; line++) {
        int64_t s[NS_MAX_DIM], c[NS_MAX_DIM];
        ns_table_coords(t, (uint64_t)line * (uint64_t)last, s);
        for (int64_t x = 0; x < last; x++) {
            s[k - 1] = x;
            memcpy(c, s, (size_t)k * sizeof *s);
            int sorted = 1;
            for (int i = 1; i < nsym; i++) {
                int64_t v = c[sym[i]];
                int j = i;
                for (; j > 0 && c[sym[j - 1]] > v; j--) {
                    c[sym[j]] = c[sym[j - 1]];
                    sorted = 0;
                }
                c[sym[j]] = v;
            }
            if (!sorted)
                ns_table_set(t, ns_table_index(t, s), ns_table_get(t, ns_table_index(t, c)));
        }
    }
}
