/* naive.c - the reference solver of naive.h: the rules of each game written
 * out by hand, and a memoised recursive mex. */
#include "naive.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ns_ref_optlist_free(ns_ref_optlist *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

static int push(ns_ref_optlist *l, const int64_t *o)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        int64_t *v = realloc(l->v, cap * (size_t)l->k * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    memcpy(l->v + l->n * (size_t)l->k, o, (size_t)l->k * sizeof *o);
    l->n++;
    return 0;
}

int ns_ref_in_domain(const ns_ref_game *g, const int64_t *bounds, const int64_t *s)
{
    if (g->kind != NS_REF_STAIRCASE)
        return 1;
    for (int i = 0; i < g->k; i++) {
        int64_t sum = 0;
        for (int j = i; j < g->k; j++)
            sum += s[j];
        if (sum >= bounds[i])
            return 0;
    }
    return 1;
}

/* Take t >= 1 from pile i, for each pile. */
static int opts_one_pile(int k, const int64_t *s, ns_ref_optlist *out)
{
    int64_t o[NS_MAX_DIM];
    for (int i = 0; i < k; i++)
        for (int64_t t = 1; t <= s[i]; t++) {
            memcpy(o, s, (size_t)k * sizeof *o);
            o[i] -= t;
            if (push(out, o))
                return -1;
        }
    return 0;
}

/* Moore: every o with 0 <= o_i <= s_i that differs from s in 1..m places,
 * found by counting through the whole sub-box. */
static int opts_moore(const ns_ref_game *g, const int64_t *s, ns_ref_optlist *out)
{
    int k = g->k;
    int64_t o[NS_MAX_DIM] = {0};
    for (;;) {
        int changed = 0;
        for (int i = 0; i < k; i++)
            changed += o[i] != s[i];
        if (changed >= 1 && changed <= g->m && push(out, o))
            return -1;
        int i = k - 1;
        while (i >= 0 && o[i] == s[i])
            o[i--] = 0;
        if (i < 0)
            return 0;
        o[i]++;
    }
}

int ns_ref_options(const ns_ref_game *g, const int64_t *s, ns_ref_optlist *out)
{
    int64_t o[NS_MAX_DIM];
    out->k = g->k;
    out->n = 0;
    switch (g->kind) {
    case NS_REF_NIM:
        return opts_one_pile(g->k, s, out);
    case NS_REF_WYTHOFF:
        if (opts_one_pile(2, s, out))
            return -1;
        for (int64_t t = 1; t <= s[0] && t <= s[1]; t++) {
            o[0] = s[0] - t;
            o[1] = s[1] - t;
            if (push(out, o))
                return -1;
        }
        return 0;
    case NS_REF_AWYTHOFF:
        if (opts_one_pile(2, s, out))
            return -1;
        for (int64_t a = 1; a <= s[0]; a++)
            for (int64_t b = 1; b <= s[1]; b++) {
                int64_t diff = a > b ? a - b : b - a;
                if (diff >= g->m)
                    continue;
                o[0] = s[0] - a;
                o[1] = s[1] - b;
                if (push(out, o))
                    return -1;
            }
        return 0;
    case NS_REF_BASH:
        for (int64_t t = 1; t <= g->m && t <= s[0]; t++) {
            o[0] = s[0] - t;
            if (push(out, o))
                return -1;
        }
        return 0;
    case NS_REF_SUBTRACTION:
        for (int i = 0; i < g->nset; i++)
            if (g->set[i] <= s[0]) {
                o[0] = s[0] - g->set[i];
                if (push(out, o))
                    return -1;
            }
        return 0;
    case NS_REF_MOORE:
        return opts_moore(g, s, out);
    case NS_REF_STAIRCASE:
        for (int i = 0; i < g->k; i++)
            for (int64_t t = 1; t <= s[i]; t++) {
                memcpy(o, s, (size_t)g->k * sizeof *o);
                o[i] -= t;
                if (i > 0)
                    o[i - 1] += t;
                if (push(out, o))
                    return -1;
            }
        return 0;
    case NS_REF_EUCLID: {
        int64_t a = s[0], b = s[1];
        if (a == 0 || b == 0)
            return 0;
        if (a <= b)
            for (int64_t m = 1; b - m * a >= 0; m++) {
                o[0] = a;
                o[1] = b - m * a;
                if (push(out, o))
                    return -1;
            }
        if (b <= a)
            for (int64_t m = 1; a - m * b >= 0; m++) {
                o[0] = a - m * b;
                o[1] = b;
                if (push(out, o))
                    return -1;
            }
        return 0;
    }
    case NS_REF_FIBNIM: {
        int64_t n = s[0], lim = s[1];
        for (int64_t t = 1; t <= n && t <= lim; t++) {
            o[0] = n - t;
            o[1] = 2 * t < n - t ? 2 * t : n - t;
            if (push(out, o))
                return -1;
        }
        return 0;
    }
    }
    return -1;
}

uint64_t ns_ref_cells(int k, const int64_t *bounds)
{
    uint64_t n = 1;
    for (int i = 0; i < k; i++)
        n *= (uint64_t)bounds[i];
    return n;
}

/* ---- memoised recursion ---- */

#define UNKNOWN (UINT32_MAX - 1)
#define BUSY (UINT32_MAX - 2)

/* Scratch of one recursion depth, reused by every call at that depth. */
typedef struct frame {
    ns_ref_optlist opts;
    uint8_t *seen;       /* owned, cap bytes */
    size_t cap;
} frame;

typedef struct solver {
    const ns_ref_game *g;
    const int64_t *bounds;
    int misere;
    uint32_t *val;       /* borrowed: the result array */
    frame *frames;       /* owned, nframes */
    size_t nframes;
    int failed;
} solver;

static uint64_t cell_index(const solver *sv, const int64_t *s)
{
    uint64_t i = 0;
    for (int d = 0; d < sv->g->k; d++)
        i = i * (uint64_t)sv->bounds[d] + (uint64_t)s[d];
    return i;
}

static void fail_at(solver *sv, const int64_t *s, const char *what)
{
    char buf[128];
    ns_format_pos(sv->g->k, s, buf, sizeof buf);
    fprintf(stderr, "naive solver: %s at %s\n", what, buf);
    sv->failed = 1;
}

static frame *frame_at(solver *sv, size_t depth)
{
    if (depth >= sv->nframes) {
        size_t n = sv->nframes ? 2 * sv->nframes : 64;
        frame *f = realloc(sv->frames, n * sizeof *f);
        if (!f)
            return NULL;
        memset(f + sv->nframes, 0, (n - sv->nframes) * sizeof *f);
        sv->frames = f;
        sv->nframes = n;
    }
    return &sv->frames[depth];
}

static uint32_t eval(solver *sv, const int64_t *s, size_t depth)
{
    const ns_ref_game *g = sv->g;
    uint64_t idx = cell_index(sv, s);
    if (sv->val[idx] == BUSY) {
        fail_at(sv, s, "cycle");
        return 0;
    }
    if (sv->val[idx] != UNKNOWN)
        return sv->val[idx];
    sv->val[idx] = BUSY;

    uint32_t v = 0;
    frame *f = frame_at(sv, depth);
    if (!f || ns_ref_options(g, s, &f->opts)) {
        fail_at(sv, s, "out of memory");
        goto done;
    }
    size_t nopts = f->opts.n;
    /* values of the options first: deeper calls reuse other frames, but
     * may move sv->frames, so f is looked up again afterwards */
    for (size_t j = 0; j < nopts && !sv->failed; j++) {
        int64_t o[NS_MAX_DIM];
        memcpy(o, sv->frames[depth].opts.v + j * (size_t)g->k, (size_t)g->k * sizeof *o);
        for (int d = 0; d < g->k; d++)
            if (o[d] < 0 || o[d] >= sv->bounds[d]) {
                fail_at(sv, s, "an option leaves the box");
                goto done;
            }
        if (!ns_ref_in_domain(g, sv->bounds, o)) {
            fail_at(sv, s, "an option leaves the domain");
            goto done;
        }
        eval(sv, o, depth + 1);
    }
    if (sv->failed)
        goto done;
    f = &sv->frames[depth];
    if (f->cap < nopts + 1) {
        uint8_t *seen = realloc(f->seen, nopts + 1);
        if (!seen) {
            fail_at(sv, s, "out of memory");
            goto done;
        }
        f->seen = seen;
        f->cap = nopts + 1;
    }
    memset(f->seen, 0, nopts + 1);
    for (size_t j = 0; j < nopts; j++) {
        uint32_t ov = sv->val[cell_index(sv, f->opts.v + j * (size_t)g->k)];
        if (ov <= nopts)
            f->seen[ov] = 1;
    }
    if (sv->misere && nopts == 0)
        v = 1;
    else
        while (f->seen[v])
            v++;
done:
    sv->val[idx] = v;
    return v;
}

uint32_t *ns_ref_solve(const ns_ref_game *g, const int64_t *bounds, int misere)
{
    uint64_t n = ns_ref_cells(g->k, bounds);
    uint32_t *val = malloc(n * sizeof *val);
    if (!val)
        return NULL;
    for (uint64_t i = 0; i < n; i++)
        val[i] = UNKNOWN;
    solver sv = {g, bounds, misere, val, NULL, 0, 0};
    int64_t s[NS_MAX_DIM] = {0};
    for (uint64_t i = 0; i < n && !sv.failed; i++) {
        uint64_t r = i;
        for (int d = g->k - 1; d >= 0; d--) {
            s[d] = (int64_t)(r % (uint64_t)bounds[d]);
            r /= (uint64_t)bounds[d];
        }
        if (!ns_ref_in_domain(g, bounds, s))
            val[i] = NS_REF_INVALID;
        else
            eval(&sv, s, 0);
    }
    for (size_t i = 0; i < sv.nframes; i++) {
        ns_ref_optlist_free(&sv.frames[i].opts);
        free(sv.frames[i].seen);
    }
    free(sv.frames);
    if (sv.failed) {
        free(val);
        return NULL;
    }
    return val;
}

uint64_t ns_ref_compare(const char *what, const ns_table *t, const uint32_t *ref)
{
    uint64_t bad = 0;
    uint32_t inv = ns_table_invalid(t);
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t got = ns_table_get(t, i);
        uint32_t want = ref[i] == NS_REF_INVALID ? inv : t->pn_only ? (ref[i] != 0) : ref[i];
        if (got == want)
            continue;
        if (bad++ < 5) {
            int64_t s[NS_MAX_DIM];
            char buf[128];
            ns_table_coords(t, i, s);
            ns_format_pos(t->k, s, buf, sizeof buf);
            fprintf(stderr, "%s: %s %s: engine %" PRIu32 ", naive %" PRIu32 "%s\n", what,
                    t->pn_only ? "P/N" : "Grundy", buf, got, want,
                    ref[i] == NS_REF_INVALID ? " (outside the domain)" : "");
        }
    }
    if (bad > 5)
        fprintf(stderr, "%s: %" PRIu64 " mismatching cells in all\n", what, bad);
    return bad;
}

uint32_t *ns_ref_wythoff_grid(int64_t n0, int64_t n1)
{
    static const int64_t wythoff[3][2] = {{1, 0}, {0, 1}, {1, 1}};
    return ns_ref_rays_grid(n0, n1, 3, wythoff);
}

uint32_t *ns_ref_rays_grid(int64_t n0, int64_t n1, int nrays, const int64_t (*rays)[2])
{
    /* a mex is at most the number of options: at most max(n0, n1) a ray */
    const size_t nused = (size_t)nrays * (size_t)(n0 > n1 ? n0 : n1) + 2;
    uint32_t *g = malloc((size_t)(n0 * n1) * sizeof *g);
    uint8_t *used = malloc(nused);
    if (!g || !used) {
        free(g);
        free(used);
        return NULL;
    }
    for (int64_t x = 0; x < n0; x++)
        for (int64_t y = 0; y < n1; y++) {
            memset(used, 0, nused);
            for (int r = 0; r < nrays; r++)
                for (int64_t t = 1; rays[r][0] * t <= x && rays[r][1] * t <= y; t++)
                    used[g[(x - rays[r][0] * t) * n1 + y - rays[r][1] * t]] = 1;
            uint32_t m = 0;
            while (used[m])
                m++;
            g[x * n1 + y] = m;
        }
    free(used);
    return g;
}

static int ref_hexdigit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* G(0..n-1) by the naive mex; code NULL: Grundy's game, else a code
 * "d0.d1d2..." of octal or hexadecimal digits (caller frees) */
uint32_t *ns_ref_heap_sequence(const char *code, int64_t n)
{
    uint32_t *g = malloc((size_t)n * sizeof *g);
    unsigned char *seen = malloc((size_t)n + 2);
    if (!g || !seen) {
        free(g);
        free(seen);
        return NULL;
    }
    int d[32] = {0}, nd = 0; /* d[t]: the code's digit for taking t */
    if (code) {
        d[nd++] = ref_hexdigit(code[0]);
        for (const char *c = code + 2; *c && nd < 32; c++)
            d[nd++] = ref_hexdigit(*c);
    }
    for (int64_t h = 0; h < n; h++) {
        memset(seen, 0, (size_t)h + 2); /* h + 1 values at most are options */
        if (!code) {
            for (int64_t a = 1; 2 * a < h; a++)
                seen[g[a] ^ g[h - a]] = 1;
        } else {
            for (int t = 0; t < nd && t <= h; t++) {
                const int64_t m = h - t;
                if ((d[t] & 1) && m == 0)
                    seen[0] = 1;
                if ((d[t] & 2) && m >= 1 && t >= 1)
                    seen[g[m]] = 1;
                if (d[t] & 4)
                    for (int64_t a = 1; a <= m - a; a++)
                        seen[g[a] ^ g[m - a]] = 1;
                if (d[t] & 8) /* a <= b <= c, a + b + c = m */
                    for (int64_t a = 1; 3 * a <= m; a++)
                        for (int64_t b = a; b <= m - a - b; b++)
                            seen[g[a] ^ g[b] ^ g[m - a - b]] = 1;
            }
        }
        uint32_t v = 0;
        while (seen[v])
            v++;
        g[h] = v;
    }
    free(seen);
    return g;
}
