/* ns_general.c - the general engine: the level-by-level sieve for any game
 * (see ns_engine.h).
 *
 * Order. Every move strictly decreases the rank w . s, so the levels of
 * equal rank are processed in increasing order: when a cell is computed,
 * all its options are known. Two cells of one level never lie on one line
 * along a move direction d (their ranks would differ by a multiple of
 * w . d != 0), so a level is computed in parallel without locks. The whole
 * solve is one parallel region: a shared level costs one barrier (two with
 * lagged line sets that are not early, see family_lag), at which thread 0 holds the others while it calls the
 * progress and checkpoint callbacks and runs the small levels that follow
 * (plan_solo: below opts.solo_cells of work, NS_GENERAL_SOLO_WORK by
 * default) on its own, in one batch.
 *
 * Lines. A ray family "s + e + t*d, t >= 0" reaches exactly the cells of the
 * line through s + e that have rank <= rank(s) + w . e. For each distinct
 * (direction d, lag L, self) group the sieve keeps, per line of the table,
 * the set of values of the line's cells with rank <= r - L while level r is
 * computed (a bitset truncated at the value cap, and the set's own mex as a
 * lower bound for the scan, in one record per line). The lag of a family is
 * -w . e, reduced to the smallest lag selecting the same cells (the ranks on
 * one line step by |w . d|). A plain ray (e == d, lag 1) reads the line of
 * the cell itself, which no other cell of the level touches: such "self"
 * sets get each cell's value as soon as it is computed, by the same thread.
 * Other sets ("lagged") get the cells of level r - L in a parallel pass
 * before level r, or ("early", where the ranks along the line step by 2 or
 * more) the cells of level r + 1 - L while level r runs, on lines that no
 * cell of level r reads (family_lag).
 *
 * Prefix families (NS_FAM_PREFIX along axis a) keep one running set per line
 * along a: a cell adds the values of the options its family adds at s, the
 * line's set then holds the values of all its options. With w_a > 0 the
 * cells of a line lie on different levels; with w_a = 0 (one such axis, the
 * "sequential axis") they lie on one level, which is then enumerated with a
 * last so that a line's cells are consecutive and one thread computes them
 * in order. Prefix families along another rank-0 axis are enumerated.
 *
 * Subsets families (a general family with the SUBSETS marker: lower 1..k of
 * the piles in P, each by >= 1; Moore's Nim_k) run as running sets. For a
 * set S of piles let B_S(s) be the values of the cells s' with s'_i <= s_i
 * for i in S and s'_j = s_j elsewhere (s itself included). Then
 * B_S(s) = {G(s)} U the union over i in S, s_i > 0, of B_S(s - e_i), and the
 * options of s are the union over the k-subsets S of P (S = P when k >= |P|)
 * of the cells below s in S but s: the union over i in S of B_S(s - e_i).
 * With rank weight 1 on the piles of P, s - e_i lies on level r - 1, so the
 * sets of two levels are kept (slot = the cell's coordinates but one, the
 * "dropped" one, which the rank fixes; level parity picks the buffer), each
 * a bitset of the line sets' width; a grow and its rebuild remake them from
 * the table. Per cell: |S| ORs of words per subset, no option listed.
 * PATTERNS families (lower exactly the piles of T, for each allowed T; not
 * down-closed, so not boxes B_S) keep strict boxes instead: V_S(s), the
 * values of the cells s' with s'_i < s_i for i in S and s'_j = s_j
 * elsewhere. With h the highest pile of S, V_S(s) is empty when s_h = 0,
 * else V_S(s - e_h) U V_{S - h}(s - e_h), where V_{} (x) = {G(x)}: one OR
 * of two sets of level r - 1 a cell and set. The sets needed are every
 * allowed T and its chain (T less its highest piles, one by one); the
 * options of s are the union of V_T(s) over the allowed T.
 *
 * Values. A cell's value is the mex of the union of its ray sets, prefix
 * sets and its finite/general options (enumerated). Values are capped at
 * C = bound + 1, where bound >= any possible mex, so truncating the sets at
 * C is exact. A P/N solve is the same computation with C = 1: the sets then
 * only record whether a P-position was seen, and the "mex" is 0 (P) or 1
 * (N). Misere play: a position without options gets 1, others the mex
 * (Conway's misere Grundy value, 0 exactly at misere P-positions).
 *
 * Checkpoints: a unit is a rank level r = 0 .. levels-1 (empty or not).
 * Across processes (opts.level_exchange) every process holds the whole
 * state after each level, so the checkpoint callback of each of them (the
 * caller picks which get one) sees the levels done final in its table,
 * after the same levels on every process; a resume
 * rebuilds the sets from the table alone, so every process given the same
 * checkpoint's table starts from the same state, whatever the number of
 * processes that wrote it. */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "engine/ns_barrier.h"
#include "core/ns_hugemem.h"

/* A line record: word 0 = own mex | any << 32, then the bitset. */
#define REC_ANY ((uint64_t)1 << 32)

typedef struct lineset {
    int64_t dir[NS_MAX_DIM];
    int64_t lag;
    int self;                   /* plain rays only (e == d): updated as cells are computed */
    int early;                  /* lagged, takes in level r + 1 - lag while level r runs
                                   (see family_lag) */
    int pivot;                  /* coordinate with dir < 0 used to canonicalise */
    int64_t lo[NS_MAX_DIM];     /* range of canonical coordinates */
    int64_t span[NS_MAX_DIM];
    uint64_t nlines;
    int lin;                    /* -dir[pivot] == 1: an in-box cell's line id is linear */
    int64_t coef[NS_MAX_DIM];
    int64_t c0;
    uint64_t *rec;              /* nlines records of 1 + words words, owned */
    size_t rec_mapped;          /* bytes mapped for rec (0: malloc'd) */
} lineset;

/* Running sets of the prefix families along one axis. */
typedef struct prefset {
    int axis;
    int nfam;
    int fam[NS_MAX_DIM * 4];    /* family indices (more go to the local game) */
    int64_t mul[NS_MAX_DIM];    /* line id = sum over j != axis of s_j mul_j */
    uint64_t nlines;
    uint64_t *rec;              /* owned */
    size_t rec_mapped;
} prefset;

/* A lagged ray family: reads the line through s + base. */
typedef struct reader {
    int set;
    int64_t base[NS_MAX_DIM];
} reader;

/* The running sets of the subsets families (see the top): distinct pile sets
 * S, each with a bitset per cell of the last two levels. */
enum { SUB_MAX = 70 }; /* C(8, 4): every set of k of 8 piles */

typedef struct subsets {
    int nsub;                   /* 0: none run this way */
    uint32_t mask[SUB_MAX];     /* the sets S */
    /* per set: a strict box (a PATTERNS family: V_S, see the top) or a
     * box B_S; for a strict one, whether its values are options (an
     * allowed set, not only a step of another's chain), its highest pile
     * and the index of S less that pile (-1: one pile, the cell itself) */
    uint8_t strict[SUB_MAX], opt[SUB_MAX];
    int8_t hi[SUB_MAX], parent[SUB_MAX];
    int nfam;
    int fam[NS_MAX_DIM * 4];    /* the families run this way */
    int drop;                   /* coordinate left out of the slot */
    int64_t mul[NS_MAX_DIM];    /* slot = sum over j != drop of s_j mul_j */
    uint64_t nslots;
    uint64_t *buf[2];           /* level r in buf[r & 1]: nslots * nsub sets; owned */
    size_t mapped[2];
} subsets;

typedef struct level_list {
    int64_t r;                  /* level held, or -1 */
    int64_t *cells;             /* n * k coordinates, owned */
    uint64_t n, cap;
} level_list;

typedef struct sieve {
    const ns_game *g;
    ns_table *t;
    int k;
    int pn_only;
    uint32_t cap;               /* C: every value is < cap */
    uint64_t wfull;             /* 64-bit words of a bitset of cap bits */
    uint64_t words;             /* words per line bitset now (<= wfull) */
    uint32_t acap;              /* min(cap, 64 words): line sets keep values < acap */
    uint64_t recw;              /* words + 1: words per line record */
    int nsets;
    lineset *sets;              /* owned */
    int nself, nlagged;
    int nlate;                  /* lagged sets that are not early */
    int *self_idx, *lagged_idx; /* owned */
    int nreaders;
    reader *readers;            /* owned */
    int npref;
    prefset pref[NS_MAX_DIM];
    subsets sub;                /* subsets families run as running sets */
    int seq_axis;               /* rank-0 prefix axis enumerated last, or -1 */
    int64_t run;                /* cells per work unit: bounds[seq_axis] or 1 */
    int has_local;              /* any enumerated family */
    const ns_game *local;       /* the game's enumerated families only */
    int64_t max_rank;
    int nring;                  /* slot r % nring holds level r */
    level_list *ring;           /* owned */
    int ord[NS_MAX_DIM];        /* coordinate order of the level enumeration */
    /* failure inside the parallel region: failed[r & 1] for level r */
    volatile int failed_any;
    volatile int failed[2];
    volatile int stop;
    volatile int grow[2];       /* a mex reached acap < cap at level r: widen */
    volatile int halted;        /* thread 0 ended the run (see between_levels) */
    volatile int64_t next_level; /* the next shared level, set by thread 0 */
    /* cells of a shared level thread 0 leaves to the others: it also lists
     * the next level while they compute (levels_for), so an equal share
     * would keep them waiting at the barrier for as long as that takes.
     * Thread 0 measures the listing against its cells and sets this while
     * it holds the barrier (lead_update); the others read it after. Which
     * thread computes a cell changes no value. */
    double lead;
    /* A widening without a rebuild: a mex that reaches acap is not
     * stored, its cell goes on its thread's redo list (local_ctx.redo) and
     * the level goes on; then the sets are widened in place (every value
     * stored so far is below acap, so every set is exact and only gains
     * zero words: widen_records) and level redo_level runs again for the
     * listed cells only (the others are final, their values already in
     * the sets: computed again they would find themselves on their own
     * lines). -1: none. Set outside the team, cleared by thread 0 after
     * the level while it holds the barrier. */
    int64_t redo_level;
    uint8_t *solo;              /* per level: small, run by thread 0 alone; owned */
    ns_error perr;
    /* progress: the work done, over the work of the whole table. A game with
     * general families lists every option of a cell, and their number grows
     * with the cell's rank ("for t in 1..x"): a cell of level r weighs r + 1
     * there, else 1. Counting cells alone said 42% where 19% of the time had
     * passed (general Fibonacci Nim 900^2, options ~ rank): an ETA 3 to 4
     * times too short early on. */
    int weigh_rank;
    double work_done, work_total;
    /* across processes (opts.level_exchange, NULL: one process) */
    const ns_level_exchange *xch;
    uint32_t *xvals;            /* a shared level's values, in list order; owned */
    uint64_t xcap;
    uint64_t *xfirst;           /* ranks + 1: the processes' blocks of the level; owned */
} sieve;

static double level_weight(const sieve *sv, int64_t r)
{
    return sv->weigh_rank ? (double)(r + 1) : 1.0;
}

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int64_t dot(int k, const int64_t *a, const int64_t *b)
{
    int64_t r = 0;
    for (int i = 0; i < k; i++)
        r += a[i] * b[i];
    return r;
}

/* ---------- lines ---------- */

static void lineset_shape(lineset *ls, const ns_game *g)
{
    const int k = g->k;
    int p = -1;
    for (int i = 0; i < k; i++)
        if (ls->dir[i] < 0 && g->rank_w[i] > 0 && (p < 0 || -ls->dir[i] > -ls->dir[p]))
            p = i;
    if (p < 0) /* rank decrease guarantees one; fall back to any negative */
        for (int i = 0; i < k; i++)
            if (ls->dir[i] < 0)
                p = i;
    ls->pivot = p;
    const int64_t a = -ls->dir[p];
    const int64_t T = (g->bounds[p] - 1) / a;
    uint64_t n = (uint64_t)a;
    ls->lin = a == 1;
    ls->c0 = 0;
    ls->coef[p] = 0;
    for (int j = 0; j < k; j++) {
        if (j == p) {
            ls->lo[j] = 0;
            ls->span[j] = 1;
            continue;
        }
        int64_t dj = ls->dir[j];
        ls->lo[j] = dj < 0 ? T * dj : 0;
        ls->span[j] = g->bounds[j] + T * (dj < 0 ? -dj : dj);
        /* a == 1: id = sum_j (s_j + s_p dir_j - lo_j) mul_j */
        ls->coef[j] = (int64_t)n;
        ls->coef[p] += dj * (int64_t)n;
        ls->c0 -= ls->lo[j] * (int64_t)n;
        n *= (uint64_t)ls->span[j];
    }
    ls->nlines = n;
}

/* Index of the line through s (any integer point), or UINT64_MAX when that
 * line does not meet the box. */
static inline uint64_t line_id(const lineset *ls, int k, const int64_t *s)
{
    const int p = ls->pivot;
    const int64_t a = -ls->dir[p];
    const int64_t t = a == 1 ? s[p] : floor_div(s[p], a);
    uint64_t id = (uint64_t)(s[p] - t * a);
    uint64_t mul = (uint64_t)a;
    for (int j = 0; j < k; j++) {
        if (j == p)
            continue;
        int64_t c = s[j] + t * ls->dir[j] - ls->lo[j];
        if (c < 0 || c >= ls->span[j])
            return UINT64_MAX;
        id += (uint64_t)c * mul;
        mul *= (uint64_t)ls->span[j];
    }
    return id;
}

/* Index of the line through a cell of the box (it always meets the box). */
static inline uint64_t own_line_id(const lineset *ls, int k, const int64_t *s)
{
    if (!ls->lin)
        return line_id(ls, k, s);
    int64_t id = ls->c0;
    for (int j = 0; j < k; j++)
        id += ls->coef[j] * s[j];
    return (uint64_t)id;
}

/* Zeroed line records. Large ones are mapped with transparent huge pages:
 * a level's cells touch records spread over the whole array, and 4 KiB
 * pages would make most of those touches TLB misses. */
enum { REC_MAP_BYTES = 4 << 20 };

static uint64_t *rec_new(uint64_t nlines, uint64_t recw, size_t *mapped)
{
    *mapped = 0;
    if (nlines > SIZE_MAX / 8 / recw)
        return NULL;
    return ns_huge_calloc((size_t)(nlines * recw * 8), REC_MAP_BYTES, mapped);
}

static void rec_free(uint64_t *p, size_t mapped)
{
    ns_huge_free(p, mapped);
}

/* Add value v to a line record (words bitset words, values < cap kept). */
static inline void rec_insert(uint64_t *rec, uint32_t v, uint32_t cap, uint64_t words)
{
    uint64_t h = rec[0] | REC_ANY;
    if (v < cap) {
        uint64_t *b = rec + 1;
        b[v >> 6] |= (uint64_t)1 << (v & 63);
        uint32_t m = (uint32_t)h;
        if (v == m) {
            uint64_t w = m >> 6;
            uint64_t x = ~b[w] & (~(uint64_t)0 << (m & 63));
            while (!x && ++w < words)
                x = ~b[w];
            uint64_t nm = x ? (w << 6) + (uint64_t)__builtin_ctzll(x) : words << 6;
            m = nm > cap ? cap : (uint32_t)nm;
            h = (h & ~(uint64_t)0xFFFFFFFFu) | m;
        }
    }
    rec[0] = h;
}

/* ---------- planning ---------- */

static int is_plain(const ns_game *g, const ns_family *f)
{
    return memcmp(f->dir, f->base, (size_t)g->k * sizeof *f->dir) == 0;
}

/* The lag of a non-plain ray family: its set holds, while level r runs,
 * the cells of rank <= r - lag of each line. The family at s reads the line
 * through s + e, whose cells have the ranks r - l, r - l - m, ... (l = -w.e,
 * m = -w.d: ranks step by m along a line), so any lag from l - m + 1 to l
 * selects them. The largest, l - m + 1, is the default: the set then takes
 * in level r - lag in a pass of its own before level r, all threads, and a
 * barrier. *early (may be NULL) gets 1 when m >= 2 and l >= m: the lag is
 * then l - m + 2 >= 2, and the cells of level r + 1 - lag, final already,
 * lie on lines whose ranks are r + 1 - lag = r - l + m - 1, not r - l,
 * modulo m: no cell of level r reads them. Those cells go into the set
 * while level r runs, by the threads computing it, without that pass and
 * its barrier (a-Wythoff's shifted diagonals: m = 2). */
static int64_t family_lag(const ns_game *g, const ns_family *f, int *early)
{
    const int64_t m = -dot(g->k, g->rank_w, f->dir);
    const int64_t lag = -dot(g->k, g->rank_w, f->base);
    const int e = m >= 2 && lag >= m && !is_plain(g, f);
    if (early)
        *early = e;
    if (e)
        return lag - m + 2;
    int64_t r = lag - m + 1;
    return r < 1 ? 1 : r;
}

/* Distinct (direction, lag, self) groups; fam_set (may be NULL) gets each
 * ray family's group. Returns the number of groups; sets (may be NULL) are
 * filled with dir, lag and self. */
static int plan_groups(const ns_game *g, lineset *sets, int *fam_set)
{
    int n = 0;
    lineset tmp[64];
    lineset *out = sets ? sets : tmp;
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        if (fam_set)
            fam_set[f] = -1;
        if (fm->kind != NS_FAM_RAY)
            continue;
        int early;
        int64_t lag = family_lag(g, fm, &early);
        int self = is_plain(g, fm);
        int found = -1;
        for (int i = 0; i < n; i++)
            if (out[i].lag == lag && out[i].self == self && out[i].early == early &&
                memcmp(out[i].dir, fm->dir, (size_t)g->k * sizeof(int64_t)) == 0)
                found = i;
        if (found < 0) {
            if (!sets && n >= 64)
                continue; /* counting only: the exact count is not needed beyond this */
            found = n++;
            memset(&out[found], 0, sizeof out[found]);
            memcpy(out[found].dir, fm->dir, (size_t)g->k * sizeof(int64_t));
            out[found].lag = lag;
            out[found].self = self;
            out[found].early = early;
        }
        if (fam_set)
            fam_set[f] = found;
    }
    return n;
}

/* Which prefix families run incrementally: those along an axis of positive
 * rank weight, and those along the first rank-0 prefix axis (the sequential
 * axis, *seq, -1 if none). inc[f] (nfam entries) gets 1 for them; their
 * distinct axes go to pref (axis and families; at most NS_MAX_DIM). */
static int plan_prefix(const ns_game *g, int *inc, prefset *pref, int *seq)
{
    int np = 0;
    *seq = -1;
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        inc[f] = 0;
        if (fm->kind != NS_FAM_PREFIX || fm->axis < 0 || fm->axis >= g->k)
            continue;
        if (g->rank_w[fm->axis] == 0) {
            if (*seq < 0)
                *seq = fm->axis;
            if (fm->axis != *seq)
                continue;
        }
        int found = -1;
        for (int i = 0; i < np; i++)
            if (pref[i].axis == fm->axis)
                found = i;
        if (found >= 0 && pref[found].nfam == (int)(sizeof pref[found].fam / sizeof pref[found].fam[0]))
            continue;
        if (found < 0) {
            found = np++;
            memset(&pref[found], 0, sizeof pref[found]);
            pref[found].axis = fm->axis;
        }
        pref[found].fam[pref[found].nfam++] = f;
        inc[f] = 1;
    }
    for (int i = 0; i < np; i++) {
        uint64_t n = 1;
        for (int j = g->k - 1; j >= 0; j--) {
            pref[i].mul[j] = j == pref[i].axis ? 0 : (int64_t)n;
            if (j != pref[i].axis)
                n *= (uint64_t)g->bounds[j];
        }
        pref[i].nlines = n;
    }
    return np;
}

/* Which general families run as running sets: those with the SUBSETS
 * marker, when the game has no domain and is not loopy, and their piles
 * have rank weight 1 (s - e_i is then on the level below). inc[f] gets 1
 * for them. sub gets the distinct sets S of k piles, the dropped coordinate
 * (weight 1, the largest bound) and the slot layout; sub->nsub = 0: none. */
/* The index of the strict set of piles T, or -1. */
static int strict_find(const subsets *sub, uint32_t T)
{
    for (int i = 0; i < sub->nsub; i++)
        if (sub->strict[i] && sub->mask[i] == T)
            return i;
    return -1;
}

static void plan_subsets(const ns_game *g, int *inc, subsets *sub)
{
    memset(sub, 0, sizeof *sub);
    sub->drop = -1;
    if (g->valid || g->loopy || g->octal)
        return;
    for (int j = 0; j < g->k; j++)
        if (g->rank_w[j] == 1 && (sub->drop < 0 || g->bounds[j] > g->bounds[sub->drop]))
            sub->drop = j;
    if (sub->drop < 0)
        return;
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        if (fm->kind != NS_FAM_GENERAL || fm->sub_k < 1 || !fm->sub_piles ||
            (g->k < 32 && fm->sub_piles >> g->k) || sub->nfam == (int)(sizeof sub->fam / sizeof sub->fam[0]))
            continue;
        int ok = 1;
        for (int j = 0; j < g->k; j++)
            ok &= !(fm->sub_piles >> j & 1) || g->rank_w[j] == 1;
        if (!ok)
            continue;
        const int np = __builtin_popcount(fm->sub_piles);
        const int kk = fm->sub_k < np ? fm->sub_k : np;
        uint32_t add[SUB_MAX];
        int nadd = 0;
        /* every subset of sub_piles with kk piles, not yet listed */
        for (uint32_t t = fm->sub_piles; t && ok; t = (t - 1) & fm->sub_piles) {
            if (__builtin_popcount(t) != kk)
                continue;
            int dup = 0;
            for (int i = 0; i < sub->nsub; i++)
                dup |= sub->mask[i] == t;
            if (dup)
                continue;
            if (sub->nsub + nadd == SUB_MAX)
                ok = 0;
            else
                add[nadd++] = t;
        }
        if (!ok)
            continue; /* too many sets: enumerated per cell */
        memcpy(sub->mask + sub->nsub, add, (size_t)nadd * sizeof *add);
        sub->nsub += nadd;
        sub->fam[sub->nfam++] = f;
        inc[f] = 1;
    }
    /* PATTERNS families: strict boxes, each allowed set and its chain */
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        uint32_t need[SUB_MAX];
        if (!ns_family_has_patterns(fm) || (g->k < 32 && fm->sub_piles >> g->k) ||
            sub->nfam == (int)(sizeof sub->fam / sizeof sub->fam[0]))
            continue;
        const int nn = ns_family_pattern_sets(fm, need, SUB_MAX);
        int ok = nn <= SUB_MAX;
        for (int j = 0; j < g->k; j++)
            ok &= !(fm->sub_piles >> j & 1) || g->rank_w[j] == 1;
        int nadd = 0;
        for (int a = 0; a < nn && ok; a++)
            nadd += strict_find(sub, need[a]) < 0;
        if (!ok || sub->nsub + nadd > SUB_MAX)
            continue; /* too many sets: enumerated per cell */
        for (int a = 0; a < nn; a++) {
            const uint32_t T = need[a];
            int i = strict_find(sub, T);
            if (i < 0) {
                i = sub->nsub++;
                sub->mask[i] = T;
                sub->strict[i] = 1;
                sub->hi[i] = (int8_t)(31 - __builtin_clz(T));
            }
            sub->opt[i] |= (uint8_t)(fm->sub_pat[T >> 6] >> (T & 63) & 1);
        }
        sub->fam[sub->nfam++] = f;
        inc[f] = 1;
    }
    for (int i = 0; i < sub->nsub; i++)
        if (sub->strict[i]) {
            const uint32_t rest = sub->mask[i] & ~((uint32_t)1 << sub->hi[i]);
            sub->parent[i] = (int8_t)(rest ? strict_find(sub, rest) : -1);
        }
    if (!sub->nsub)
        return;
    uint64_t n = 1;
    for (int j = g->k - 1; j >= 0; j--) {
        sub->mul[j] = j == sub->drop ? 0 : (int64_t)n;
        if (j != sub->drop)
            n *= (uint64_t)g->bounds[j];
    }
    sub->nslots = n;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return (a && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Words a set starts with: most games' values stay far below the bound;
 * the sets widen, doubling, when a value needs more (general_resume). */
static uint64_t start_words(uint64_t wfull)
{
    return wfull < 2 ? wfull : 2;
}

/* Bytes of the line records of the ray groups and prefix sets and of the
 * running sets of two levels, at words words a set: what the engine keeps
 * besides the table (alloc_records allocates exactly these). */
static uint64_t sets_bytes(const lineset *sets, int nsets, const prefset *pref, int npref, const subsets *sub,
                           uint64_t words)
{
    uint64_t bytes = 0;
    const uint64_t per = sat_mul(words + 1, 8);
    for (int i = 0; i < nsets; i++)
        bytes = sat_add(bytes, sat_mul(sets[i].nlines, per));
    for (int i = 0; i < npref; i++)
        bytes = sat_add(bytes, sat_mul(pref[i].nlines, per));
    return sat_add(bytes, sat_mul(sat_mul(2 * sub->nslots, (uint64_t)sub->nsub), sat_mul(words, 8)));
}

/* The sets' bytes for the plan: at the start (most = 0) or at the widest. */
static uint64_t plan_bytes(const ns_game *g, const ns_engine_plan *plan, int most)
{
    int nfam = g->nfam;
    int *fam_set = calloc((size_t)(nfam ? nfam : 1), sizeof *fam_set);
    lineset *sets = calloc((size_t)(nfam ? nfam : 1), sizeof *sets);
    if (!fam_set || !sets) {
        free(fam_set);
        free(sets);
        return UINT64_MAX;
    }
    const int nsets = plan_groups(g, sets, fam_set);
    for (int i = 0; i < nsets; i++)
        lineset_shape(&sets[i], g);
    prefset pref[NS_MAX_DIM];
    int seq;
    const int npref = plan_prefix(g, fam_set, pref, &seq);
    subsets sub;
    plan_subsets(g, fam_set, &sub);
    const uint64_t wfull = (plan->max_value + 1 + 63) / 64;
    const uint64_t bytes = sets_bytes(sets, nsets, pref, npref, &sub, most ? wfull : start_words(wfull));
    free(fam_set);
    free(sets);
    return bytes;
}

/* ns_engine.memory: the sets at the start (2 words, 128 values, a set). */
static uint64_t general_memory(const ns_game *g, const ns_engine_plan *plan)
{
    return plan_bytes(g, plan, 0);
}

/* ns_engine.memory_max: the sets at the widest (the plan's value bound). */
static uint64_t general_memory_max(const ns_game *g, const ns_engine_plan *plan)
{
    return plan_bytes(g, plan, 1);
}

/* ---------- levels ---------- */

/* Fill L with all cells of rank r: coordinates in the order sv->ord,
 * lexicographic (so with the sequential axis last, a line along it is a run
 * of consecutive cells in increasing order). */
static ns_err level_fill(const sieve *sv, level_list *L, int64_t r, ns_error *err)
{
    const ns_game *g = sv->g;
    const int k = sv->k;
    const int *ord = sv->ord;
    L->n = 0;
    L->r = r;
    int64_t w[NS_MAX_DIM], B[NS_MAX_DIM];
    for (int j = 0; j < k; j++) {
        w[j] = g->rank_w[ord[j]];
        B[j] = g->bounds[ord[j]];
    }
    /* maxrest[j] = largest rank the positions j+1..k-1 can add */
    int64_t maxrest[NS_MAX_DIM + 1];
    maxrest[k] = 0;
    for (int j = k - 1; j >= 0; j--)
        maxrest[j] = (j + 1 < k ? maxrest[j + 1] + w[j + 1] * (B[j + 1] - 1) : 0);
    int64_t s[NS_MAX_DIM], hi[NS_MAX_DIM], part[NS_MAX_DIM + 1];
    int j = 0;
    part[0] = 0;
    /* depth-first odometer with pruned ranges */
    int64_t lo_j;
    for (;;) {
        /* enter position j: compute its range given part[j] */
        const int64_t wj = w[j], rem = r - part[j];
        if (j == k - 1) {
            /* solve the last position */
            int64_t a0, a1;
            if (wj == 0) {
                a0 = rem == 0 ? 0 : 1;
                a1 = rem == 0 ? B[j] - 1 : 0;
            } else if (rem < 0 || rem % wj != 0 || rem / wj >= B[j]) {
                a0 = 1;
                a1 = 0;
            } else {
                a0 = a1 = rem / wj;
            }
            if (a0 <= a1 && L->n + (uint64_t)(a1 - a0 + 1) > L->cap) {
                uint64_t nc = L->cap ? L->cap : 1024;
                while (nc < L->n + (uint64_t)(a1 - a0 + 1))
                    nc *= 2;
                int64_t *c = realloc(L->cells, (size_t)nc * (size_t)k * sizeof *c);
                if (!c)
                    return ns_error_set(err, NS_ENOMEM, "out of memory for a level's cell list");
                L->cells = c;
                L->cap = nc;
            }
            for (int64_t v = a0; v <= a1; v++) {
                s[j] = v;
                int64_t *dst = L->cells + L->n * (uint64_t)k;
                for (int i = 0; i < k; i++)
                    dst[ord[i]] = s[i];
                L->n++;
            }
        } else {
            if (wj == 0) {
                lo_j = 0;
                hi[j] = B[j] - 1;
            } else {
                int64_t need = rem - maxrest[j];  /* w*s_j >= need */
                lo_j = need <= 0 ? 0 : (need + wj - 1) / wj;
                hi[j] = rem < 0 ? -1 : rem / wj;
                if (hi[j] > B[j] - 1)
                    hi[j] = B[j] - 1;
            }
            if (lo_j <= hi[j]) {
                s[j] = lo_j;
                part[j + 1] = part[j] + wj * s[j];
                j++;
                continue;
            }
        }
        /* advance: back up to the nearest position that can step */
        for (;;) {
            j--;
            if (j < 0)
                return NS_OK;
            if (s[j] < hi[j]) {
                s[j]++;
                part[j + 1] = part[j] + w[j] * s[j];
                j++;
                break;
            }
        }
    }
}

/* The cell list of level r, from the ring or freshly enumerated (NULL on
 * error, with err set). Called by one thread at a time. */
static level_list *level_get(sieve *sv, int64_t r, ns_error *err)
{
    level_list *L = &sv->ring[r % sv->nring];
    if (L->r == r)
        return L;
    if (level_fill(sv, L, r, err)) {
        L->r = -1;
        return NULL;
    }
    return L;
}

/* ---------- per-cell work ---------- */

/* One per thread; padded so that threads never share its cache line. */
typedef struct local_ctx {
    _Alignas(128) sieve *sv;
    uint64_t *bits;         /* thread-local bitset of words words, owned */
    uint32_t *touched;      /* values set in bits, to clear; owned */
    size_t ntouched, captouched;
    const uint64_t **ptr;   /* line bitsets read by the cell; owned */
    uint64_t **selfrec;     /* the cell's self-line records; owned */
    uint64_t *rec;          /* prefix record being extended */
    int any;
    int oom;
    int64_t vmax;           /* the largest value this thread stored or
                               restored (-1: none) */
    uint64_t *redo;         /* cells (indices in the level's list) whose
                               mex reached acap (see sieve.redo_level); owned */
    size_t nredo, capredo;
    int redo_oom;           /* a cell could not be listed: rebuild instead */
    char pad[64];
} local_ctx;

static int local_emit(void *u, const int64_t *opt)
{
    local_ctx *lc = u;
    const ns_table *t = lc->sv->t;
    uint32_t v = ns_table_get(t, ns_table_index(t, opt));
    lc->any = 1;
    if (v < lc->sv->cap && !(lc->bits[v >> 6] >> (v & 63) & 1)) {
        if (lc->ntouched == lc->captouched) {
            size_t nc = lc->captouched ? lc->captouched * 2 : 256;
            uint32_t *p = realloc(lc->touched, nc * sizeof *p);
            if (!p) {
                lc->oom = 1;
                return 1;
            }
            lc->touched = p;
            lc->captouched = nc;
        }
        lc->touched[lc->ntouched++] = v;
        lc->bits[v >> 6] |= (uint64_t)1 << (v & 63);
    }
    return 0;
}

static int prefix_emit(void *u, const int64_t *opt)
{
    local_ctx *lc = u;
    const sieve *sv = lc->sv;
    rec_insert(lc->rec, ns_table_get(sv->t, ns_table_index(sv->t, opt)), sv->acap, sv->words);
    return 0;
}

static void fail_once(sieve *sv, int64_t r, const ns_error *e, ns_err code, const char *msg)
{
    NS_PRAGMA(omp critical(ns_general_fail))
    {
        if (!sv->failed_any) {
            if (e && e->code) {
                sv->perr = *e;
            } else {
                ns_error_set(&sv->perr, code, "%s", msg);
            }
            sv->failed_any = 1;
        }
        sv->failed[r & 1] = 1;
    }
}

/* Extend the running sets of the incremental prefix families at s. */
static void prefix_step(sieve *sv, int64_t r, const int64_t *s, local_ctx *lc, int valid, int *np, uint32_t *lo,
                        int *any)
{
    const int k = sv->k;
    for (int i = 0; i < sv->npref; i++) {
        const prefset *ps = &sv->pref[i];
        int64_t id = 0;
        for (int j = 0; j < k; j++)
            id += ps->mul[j] * s[j];
        uint64_t *rec = ps->rec + (uint64_t)id * sv->recw;
        if (s[ps->axis] == 0)
            memset(rec, 0, (size_t)sv->recw * sizeof *rec);
        lc->rec = rec;
        for (int f = 0; f < ps->nfam; f++) {
            ns_error e;
            ns_error_clear(&e);
            int rc = ns_game_family_options(sv->g, &sv->g->fam[ps->fam[f]], s, prefix_emit, lc, &e);
            if (rc < 0)
                fail_once(sv, r, &e, NS_EGAME, "a move family failed");
        }
        if (valid && (rec[0] & REC_ANY)) {
            *any = 1;
            if ((uint32_t)rec[0] > *lo)
                *lo = (uint32_t)rec[0];
            lc->ptr[(*np)++] = rec + 1;
        }
    }
}

/* The running sets of cell s (level r) before its value is known: for each
 * set S, the union over i in S, s_i > 0, of B_S(s - e_i) (level r - 1),
 * written to s's own sets; each is added to ptr, and *any set when s has an
 * option there. */
static void subsets_gather(sieve *sv, int64_t r, const int64_t *s, const uint64_t **ptr, int *np, int *any)
{
    const subsets *sub = &sv->sub;
    const int k = sv->k, nsub = sub->nsub;
    const uint64_t W = sv->words;
    uint64_t slot = 0;
    for (int j = 0; j < k; j++)
        slot += (uint64_t)(sub->mul[j] * s[j]);
    uint64_t *cur = sub->buf[r & 1] + slot * (uint64_t)nsub * W;
    const uint64_t *prev = sub->buf[(r - 1) & 1];
    for (int i = 0; i < nsub; i++) {
        uint64_t *dst = cur + (uint64_t)i * W;
        if (sub->strict[i]) {
            /* V_S(s) = V_S(s - e_h) U V_{S-h}(s - e_h), h the highest pile
             * of S (empty when s_h = 0); V_{} (x) = {G(x)} */
            const int h = sub->hi[i];
            if (s[h] == 0) {
                memset(dst, 0, (size_t)W * sizeof *dst);
            } else {
                const uint64_t at = (slot - (uint64_t)sub->mul[h]) * (uint64_t)nsub;
                const uint64_t *a = prev + (at + (uint64_t)i) * W;
                if (sub->parent[i] >= 0) {
                    const uint64_t *b = prev + (at + (uint64_t)sub->parent[i]) * W;
                    for (uint64_t w = 0; w < W; w++)
                        dst[w] = a[w] | b[w];
                } else {
                    memcpy(dst, a, (size_t)W * sizeof *dst);
                    int64_t q[NS_MAX_DIM];
                    memcpy(q, s, (size_t)k * sizeof *q);
                    q[h]--;
                    const uint32_t v = ns_table_get(sv->t, ns_table_index(sv->t, q));
                    if (v < sv->acap)
                        dst[v >> 6] |= (uint64_t)1 << (v & 63);
                }
            }
            if (sub->opt[i]) {
                int all = 1;
                for (int j = 0; j < k; j++)
                    all &= !(sub->mask[i] >> j & 1) || s[j] > 0;
                *any |= all;
                if (ptr)
                    ptr[(*np)++] = dst;
            }
            continue;
        }
        int first = 1;
        for (int j = 0; j < k; j++) {
            if (!(sub->mask[i] >> j & 1) || s[j] == 0)
                continue;
            /* s - e_j: the same slot when j is the dropped coordinate */
            const uint64_t *src = prev + ((slot - (uint64_t)sub->mul[j]) * (uint64_t)nsub + (uint64_t)i) * W;
            if (first)
                memcpy(dst, src, (size_t)W * sizeof *dst);
            else
                for (uint64_t w = 0; w < W; w++)
                    dst[w] |= src[w];
            first = 0;
        }
        if (first) {
            memset(dst, 0, (size_t)W * sizeof *dst);
        } else {
            *any = 1;
        }
        if (ptr)
            ptr[(*np)++] = dst;
    }
}

/* Add s's value v (< acap) to its own running sets: B_S(s) complete. */
static void subsets_insert(sieve *sv, int64_t r, const int64_t *s, uint32_t v)
{
    const subsets *sub = &sv->sub;
    const uint64_t W = sv->words;
    if (v >= sv->acap)
        return; /* a P/N solve's N: the sets record P-positions only */
    uint64_t slot = 0;
    for (int j = 0; j < sv->k; j++)
        slot += (uint64_t)(sub->mul[j] * s[j]);
    uint64_t *cur = sub->buf[r & 1] + slot * (uint64_t)sub->nsub * W;
    for (int i = 0; i < sub->nsub; i++)
        if (!sub->strict[i]) /* a strict box leaves s out */
            cur[(uint64_t)i * W + (v >> 6)] |= (uint64_t)1 << (v & 63);
}

/* Returns the value stored, -2 when the sets are too narrow for it (not
 * stored), or -1 (none: not a position, a failure). */
static int64_t compute_cell(sieve *sv, int64_t r, const int64_t *s, local_ctx *lc)
{
    const ns_game *g = sv->g;
    const int k = sv->k;
    ns_table *t = sv->t;
    const uint64_t idx = ns_table_index(t, s);
    const int valid = !g->valid || g->valid(g->valid_ctx, k, s);
    const uint64_t **ptr = lc->ptr;
    int np = 0;
    uint32_t lo = 0;
    int any = 0;
    if (sv->npref)
        prefix_step(sv, r, s, lc, valid, &np, &lo, &any);
    if (!valid) {
        ns_table_set(t, idx, ns_table_invalid(t));
        return -1;
    }
    if (sv->sub.nsub)
        subsets_gather(sv, r, s, ptr, &np, &any);
    for (int i = 0; i < sv->nself; i++) {
        const lineset *ls = &sv->sets[sv->self_idx[i]];
        uint64_t *rec = ls->rec + own_line_id(ls, k, s) * sv->recw;
        lc->selfrec[i] = rec;
        uint64_t h = rec[0];
        if (h & REC_ANY) {
            any = 1;
            if ((uint32_t)h > lo)
                lo = (uint32_t)h;
            ptr[np++] = rec + 1;
        }
    }
    for (int i = 0; i < sv->nreaders; i++) {
        const reader *rd = &sv->readers[i];
        const lineset *ls = &sv->sets[rd->set];
        int64_t q[NS_MAX_DIM];
        for (int j = 0; j < k; j++)
            q[j] = s[j] + rd->base[j];
        uint64_t id = line_id(ls, k, q);
        if (id == UINT64_MAX)
            continue;
        const uint64_t *rec = ls->rec + id * sv->recw;
        uint64_t h = rec[0];
        if (!(h & REC_ANY))
            continue;
        any = 1;
        if ((uint32_t)h > lo)
            lo = (uint32_t)h;
        ptr[np++] = rec + 1;
    }
    if (sv->has_local) {
        ns_error e;
        ns_error_clear(&e);
        lc->any = 0;
        int rc = ns_game_foreach_option(sv->local, s, local_emit, lc, &e);
        if (lc->oom)
            fail_once(sv, r, NULL, NS_ENOMEM, "out of memory");
        else if (rc < 0)
            fail_once(sv, r, &e, NS_EGAME, "a move family failed");
        any |= lc->any;
        ptr[np++] = lc->bits;
    }
    uint32_t m = sv->acap;
    if (lo < sv->acap) {
        for (uint64_t w = lo >> 6; w < sv->words; w++) {
            uint64_t x = 0;
            for (int i = 0; i < np; i++)
                x |= ptr[i][w];
            if (w == lo >> 6 && (lo & 63))
                x |= ((uint64_t)1 << (lo & 63)) - 1;
            if (~x) {
                uint64_t mm = (w << 6) + (uint64_t)__builtin_ctzll(~x);
                m = mm > sv->acap ? sv->acap : (uint32_t)mm;
                break;
            }
        }
    }
    if (sv->has_local) {
        for (size_t i = 0; i < lc->ntouched; i++)
            lc->bits[lc->touched[i] >> 6] = 0;
        lc->ntouched = 0;
    }
    if (g->play == NS_PLAY_MISERE && !any)
        m = 1;
    if (m >= sv->acap && sv->acap < sv->cap) {
        /* the sets are too narrow for this value: widen them and redo the cell */
        sv->grow[r & 1] = 1;
        return -2;
    }
    if (!sv->pn_only && m >= sv->cap)
        fail_once(sv, r, NULL, NS_EINTERNAL, "a value reached the value bound; the game's option bound is wrong");
    ns_table_set(t, idx, m);
    for (int i = 0; i < sv->nself; i++)
        rec_insert(lc->selfrec[i], m, sv->acap, sv->words);
    if (sv->sub.nsub)
        subsets_insert(sv, r, s, m);
    return m;
}

/* Thread me's contiguous block [*c0, *c1) of n cells shared by nt threads:
 * the same blocks as schedule(static). */
static void thread_block(uint64_t n, int me, int nt, uint64_t *c0, uint64_t *c1)
{
    const uint64_t q = n / (uint64_t)nt, rem = n % (uint64_t)nt, m = (uint64_t)me;
    *c0 = m * q + (m < rem ? m : rem);
    *c1 = *c0 + q + (m < rem ? 1 : 0);
}

/* Thread me's block [c0, c1) of n cells when thread 0 leaves `lead` cells
 * (at most its equal share) to the other nt - 1 threads. */
static void lead_block(uint64_t n, int me, int nt, double lead, uint64_t *c0, uint64_t *c1)
{
    if (nt < 2 || lead < 1) {
        thread_block(n, me, nt, c0, c1);
        return;
    }
    const uint64_t q = n / (uint64_t)nt;
    const uint64_t n0 = q - (lead < (double)q ? (uint64_t)lead : q);   /* thread 0's cells */
    if (me == 0) {
        *c0 = 0;
        *c1 = n0;
        return;
    }
    thread_block(n - n0, me - 1, nt - 1, c0, c1);
    *c0 += n0;
    *c1 += n0;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Thread 0, while it holds the barrier: the listing of the next level
 * took t_list seconds and its n0 cells t_cells; balanced, thread 0 gives
 * up (nt - 1) / nt of the cells the listing is worth (smoothed over the
 * levels: the next level's sizes are close to this one's). */
static void lead_update(sieve *sv, int nt, double t_list, double t_cells, uint64_t n0)
{
    if (nt < 2 || n0 < 64 || t_cells <= 0)
        return;
    const double want = t_list / (t_cells / (double)n0) * (double)(nt - 1) / (double)nt;
    sv->lead = 0.5 * sv->lead + 0.5 * want;
}

static int team_size(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

/* Cells [c0, c1) of list L (level r). */
static void compute_cells(sieve *sv, int64_t r, const level_list *L, uint64_t c0, uint64_t c1, local_ctx *lc)
{
    const int k = sv->k;
    int64_t vm = lc->vmax;
    if (r == sv->redo_level) {
        /* after a widening: only this thread's cells that reached the old
         * width (the block is not needed: they are listed) */
        for (size_t i = 0; i < lc->nredo && !sv->failed_any; i++) {
            const int64_t v = compute_cell(sv, r, L->cells + lc->redo[i] * (uint64_t)k, lc);
            vm = v > vm ? v : vm;
        }
        lc->nredo = 0;
        lc->vmax = vm;
        return;
    }
    for (uint64_t c = c0; c < c1 && !sv->failed_any; c++) {
        const int64_t v = compute_cell(sv, r, L->cells + c * (uint64_t)k, lc);
        vm = v > vm ? v : vm;
        if (v == -2 && !lc->redo_oom) {
            if (lc->nredo == lc->capredo) {
                const size_t nc = lc->capredo ? 2 * lc->capredo : 1024;
                uint64_t *p = realloc(lc->redo, nc * sizeof *p);
                if (!p) {
                    lc->redo_oom = 1;
                    continue;
                }
                lc->redo = p;
                lc->capredo = nc;
            }
            lc->redo[lc->nredo++] = c;
        }
    }
    lc->vmax = vm;
}

/* Put the (final) value of cell s into the line of lagged set ls. */
static void insert_lagged(sieve *sv, lineset *ls, const int64_t *s)
{
    const ns_table *t = sv->t;
    uint32_t v = ns_table_get(t, ns_table_index(t, s));
    if (v == ns_table_invalid(t))
        return;
    rec_insert(ls->rec + own_line_id(ls, sv->k, s) * sv->recw, v, sv->acap, sv->words);
}

/* Resume: the per-line state a fresh run would have after level rr - 1
 * from the final value of cell s (level r < rr): self sets, lagged sets whose
 * lag has passed, and the prefix sets of positive-weight axes. */
static void restore_cell(sieve *sv, int64_t r, int64_t rr, const int64_t *s, local_ctx *lc)
{
    const ns_game *g = sv->g;
    const int k = sv->k;
    const uint32_t v = ns_table_get(sv->t, ns_table_index(sv->t, s));
    if (v != ns_table_invalid(sv->t) && (int64_t)v > lc->vmax)
        lc->vmax = v;
    for (int i = 0; i < sv->npref; i++) {
        const prefset *ps = &sv->pref[i];
        if (g->rank_w[ps->axis] == 0)
            continue; /* its lines lie inside one level: rebuilt as it runs */
        int64_t id = 0;
        for (int j = 0; j < k; j++)
            id += ps->mul[j] * s[j];
        lc->rec = ps->rec + (uint64_t)id * sv->recw;
        for (int f = 0; f < ps->nfam; f++) {
            ns_error e;
            ns_error_clear(&e);
            if (ns_game_family_options(g, &g->fam[ps->fam[f]], s, prefix_emit, lc, &e) < 0)
                fail_once(sv, r, &e, NS_EGAME, "a move family failed");
        }
    }
    for (int i = 0; i < sv->nsets; i++) {
        lineset *ls = &sv->sets[i];
        if (ls->self || r <= rr - 1 - ls->lag + ls->early)
            insert_lagged(sv, ls, s);
    }
    if (sv->sub.nsub) {
        /* the running sets of levels r - 1 and r (the last two) */
        int any = 0;
        subsets_gather(sv, r, s, NULL, NULL, &any);
        subsets_insert(sv, r, s, v);
    }
}

/* ---------- across processes (opts.level_exchange) ---------- */

/* Process q's block [*c0, *c1) of the n cells of a level: whole runs, the
 * units dealt as thread_block deals cells to threads. One process: all. */
static void rank_block(const sieve *sv, uint64_t n, int q, uint64_t *c0, uint64_t *c1)
{
    if (!sv->xch) {
        *c0 = 0;
        *c1 = n;
        return;
    }
    const uint64_t run = (uint64_t)sv->run;
    uint64_t u0, u1;
    thread_block(n / run, q, sv->xch->ranks, &u0, &u1);
    *c0 = u0 * run;
    *c1 = u1 * run;
}

/* After this process's block of shared level r (list L), on thread 0 while
 * the others wait: the processes agree on the level's outcome (a failure,
 * a widening) and, when all went well, swap their blocks' values into
 * sv->xvals. A failure elsewhere fails here too (NS_EIO, naming it), a
 * widening anywhere widens everywhere. */
static void level_exchange(sieve *sv, int64_t r, const level_list *L)
{
    const ns_level_exchange *x = sv->xch;
    const uint64_t n = L->n;
    const int k = sv->k;
    for (int q = 0; q < x->ranks; q++)
        rank_block(sv, n, q, &sv->xfirst[q], &sv->xfirst[q + 1]);
    int status = sv->failed[r & 1] ? 2 : sv->grow[r & 1] ? 1 : 0;
    if (!status && n > sv->xcap) {
        uint32_t *p = realloc(sv->xvals, (size_t)n * sizeof *p);
        if (p) {
            sv->xvals = p;
            sv->xcap = n;
        } else {
            fail_once(sv, r, NULL, NS_ENOMEM, "out of memory for a level's values (to exchange)");
            status = 2;
        }
    }
    if (!status)
        for (uint64_t c = sv->xfirst[x->rank]; c < sv->xfirst[x->rank + 1]; c++)
            sv->xvals[c] = ns_table_get(sv->t, ns_table_index(sv->t, L->cells + c * (uint64_t)k));
    const int mine = status;
    ns_error e;
    ns_error_clear(&e);
    if (x->exchange(x->user, r, &status, sv->xvals, n, sv->xfirst, &e)) {
        fail_once(sv, r, &e, NS_EIO, "the exchange of a level's values failed");
    } else if (status >= 2 && mine < 2) {
        fail_once(sv, r, &e, NS_EIO, "another process failed");
    } else if (status == 1) {
        sv->grow[r & 1] = 1;
    }
}

/* Cell s of level r, computed by another process with value v: what
 * compute_cell leaves behind, without the mex: its table cell, the prefix
 * sets along axes of positive rank weight (those along the sequential axis
 * lie inside one level and are only read by the thread running the line),
 * its running sets and its self lines. */
static void replay_cell(sieve *sv, int64_t r, const int64_t *s, uint32_t v, local_ctx *lc)
{
    const ns_game *g = sv->g;
    const int k = sv->k;
    ns_table_set(sv->t, ns_table_index(sv->t, s), v);
    if (v != ns_table_invalid(sv->t) && (int64_t)v > lc->vmax)
        lc->vmax = v;
    for (int i = 0; i < sv->npref; i++) {
        const prefset *ps = &sv->pref[i];
        if (g->rank_w[ps->axis] == 0)
            continue;
        int64_t id = 0;
        for (int j = 0; j < k; j++)
            id += ps->mul[j] * s[j];
        uint64_t *rec = ps->rec + (uint64_t)id * sv->recw;
        if (s[ps->axis] == 0)
            memset(rec, 0, (size_t)sv->recw * sizeof *rec);
        lc->rec = rec;
        for (int f = 0; f < ps->nfam; f++) {
            ns_error e;
            ns_error_clear(&e);
            if (ns_game_family_options(g, &g->fam[ps->fam[f]], s, prefix_emit, lc, &e) < 0)
                fail_once(sv, r, &e, NS_EGAME, "a move family failed");
        }
    }
    if (g->valid && !g->valid(g->valid_ctx, k, s))
        return;
    if (sv->sub.nsub) {
        int any = 0;
        subsets_gather(sv, r, s, NULL, NULL, &any);
        subsets_insert(sv, r, s, v);
    }
    for (int i = 0; i < sv->nself; i++) {
        const lineset *ls = &sv->sets[sv->self_idx[i]];
        rec_insert(ls->rec + own_line_id(ls, k, s) * sv->recw, v, sv->acap, sv->words);
    }
}

/* Thread me of nt's share of the cells of level r (list L) that other
 * processes computed, replayed from sv->xvals. */
static void replay_others(sieve *sv, int64_t r, const level_list *L, int me, int nt, local_ctx *lc)
{
    const uint64_t a = sv->xfirst[sv->xch->rank], b = sv->xfirst[sv->xch->rank + 1];
    uint64_t j0, j1;
    thread_block(L->n - (b - a), me, nt, &j0, &j1);
    for (uint64_t j = j0; j < j1; j++) {
        const uint64_t c = j < a ? j : j + (b - a);
        replay_cell(sv, r, L->cells + c * (uint64_t)sv->k, sv->xvals[c], lc);
    }
}

static void sieve_free(sieve *sv)
{
    for (int i = 0; i < sv->nsets; i++)
        rec_free(sv->sets[i].rec, sv->sets[i].rec_mapped);
    free(sv->sets);
    free(sv->self_idx);
    free(sv->lagged_idx);
    free(sv->readers);
    for (int i = 0; i < sv->npref; i++)
        rec_free(sv->pref[i].rec, sv->pref[i].rec_mapped);
    for (int i = 0; i < 2; i++)
        rec_free(sv->sub.buf[i], sv->sub.mapped[i]);
    if (sv->ring)
        for (int i = 0; i < sv->nring; i++)
            free(sv->ring[i].cells);
    free(sv->ring);
    free(sv->solo);
    free(sv->xvals);
    free(sv->xfirst);
}

/* Set up sv for game (the plan given); lf (nfam entries) receives the local
 * game's families. */
static ns_err sieve_init(sieve *sv, const ns_game *game, ns_table *t, const ns_engine_plan *plan, int pn_only,
                         ns_game *local, ns_family *lf, ns_error *err)
{
    const size_t nfam1 = (size_t)(game->nfam ? game->nfam : 1);
    const int k = game->k;
    memset(sv, 0, sizeof *sv);
    sv->g = game;
    sv->t = t;
    sv->k = k;
    sv->pn_only = pn_only;
    sv->cap = pn_only ? 1 : (uint32_t)(plan->max_value + 1);
    sv->wfull = (sv->cap + 63) / 64;
    sv->words = start_words(sv->wfull);
    sv->acap = sv->cap < 64 * sv->words ? sv->cap : (uint32_t)(64 * sv->words);
    sv->recw = sv->words + 1;
    sv->max_rank = plan->levels - 1;
    int *fam_set = calloc(nfam1, sizeof *fam_set);
    int *inc = calloc(nfam1, sizeof *inc);
    sv->sets = calloc(nfam1, sizeof *sv->sets);
    sv->self_idx = calloc(nfam1, sizeof *sv->self_idx);
    sv->lagged_idx = calloc(nfam1, sizeof *sv->lagged_idx);
    sv->readers = calloc(nfam1, sizeof *sv->readers);
    ns_err rc = NS_OK;
    if (!fam_set || !inc || !sv->sets || !sv->self_idx || !sv->lagged_idx || !sv->readers) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto done;
    }
    sv->nsets = plan_groups(game, sv->sets, fam_set);
    sv->npref = plan_prefix(game, inc, sv->pref, &sv->seq_axis);
    plan_subsets(game, inc, &sv->sub);

    /* the local game: the families enumerated per cell */
    *local = *game;
    local->nfam = 0;
    for (int f = 0; f < game->nfam; f++)
        if (game->fam[f].kind != NS_FAM_RAY && !inc[f])
            lf[local->nfam++] = game->fam[f];
    local->fam = lf;
    local->capfam = (int)nfam1;
    sv->local = local;
    sv->has_local = local->nfam > 0;

    /* lagged readers: distinct (set, base) pairs */
    for (int f = 0; f < game->nfam; f++) {
        int gi = fam_set[f];
        if (gi < 0 || sv->sets[gi].self)
            continue;
        int dup = 0;
        for (int i = 0; i < sv->nreaders; i++)
            dup |= sv->readers[i].set == gi &&
                   memcmp(sv->readers[i].base, game->fam[f].base, (size_t)k * sizeof(int64_t)) == 0;
        if (dup)
            continue;
        sv->readers[sv->nreaders].set = gi;
        memcpy(sv->readers[sv->nreaders].base, game->fam[f].base, (size_t)k * sizeof(int64_t));
        sv->nreaders++;
    }
    int64_t max_lag = 0;
    for (int i = 0; i < sv->nsets; i++) {
        lineset *ls = &sv->sets[i];
        lineset_shape(ls, game);
        if (ls->self) {
            sv->self_idx[sv->nself++] = i;
        } else {
            sv->lagged_idx[sv->nlagged++] = i;
            sv->nlate += !ls->early;
            if (ls->lag > max_lag)
                max_lag = ls->lag;
        }
    }
    /* the ring holds levels r+1-max_lag .. r+1 while level r runs */
    sv->nring = (int)(max_lag + 1 > 2 ? max_lag + 1 : 2);
    sv->ring = calloc((size_t)sv->nring, sizeof *sv->ring);
    if (!sv->ring) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < sv->nring; i++)
        sv->ring[i].r = -1;
    int n = 0;
    for (int j = 0; j < k; j++)
        if (j != sv->seq_axis)
            sv->ord[n++] = j;
    if (sv->seq_axis >= 0)
        sv->ord[n++] = sv->seq_axis;
    sv->run = sv->seq_axis >= 0 ? game->bounds[sv->seq_axis] : 1;
done:
    free(fam_set);
    free(inc);
    return rc;
}

/* Mark the levels too small to share among nthreads threads (a barrier
 * costs more than their cells; with other processes on the cores it can
 * cost a time slice): work below solo_work (cells, each weighing
 * level_weight), or fewer work units than threads. With auto set,
 * solo_work is at most a quarter of the largest level's work: a table
 * whose levels are all small (two piles: at most N cells) still shares
 * all but a few per cent of its cells (a-Wythoff 2048^2 with 2048 cells
 * ran every level on one thread). Level sizes come from
 * the box alone: the number of cells of rank r is a convolution of one box
 * per coordinate. Consecutive solo levels run as one batch (see
 * solo_run). */
static ns_err plan_solo(sieve *sv, int nthreads, uint64_t solo_work, int autos, ns_error *err)
{
    const ns_game *g = sv->g;
    const uint64_t nl = (uint64_t)sv->max_rank + 1;
    sv->solo = malloc((size_t)nl);
    uint64_t *cnt = calloc((size_t)nl, sizeof *cnt), *nx = calloc((size_t)nl, sizeof *nx);
    if (!sv->solo || !cnt || !nx) {
        free(cnt);
        free(nx);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    cnt[0] = 1;
    for (int j = 0; j < g->k; j++) {
        const int64_t w = g->rank_w[j], B = g->bounds[j];
        for (uint64_t r = 0; r < nl; r++) {
            if (w == 0) {
                nx[r] = cnt[r] * (uint64_t)B;
                continue;
            }
            /* nx[r] = sum over v < B of cnt[r - w v] */
            uint64_t v = cnt[r];
            if (r >= (uint64_t)w)
                v += nx[r - (uint64_t)w];
            if (r >= (uint64_t)(w * B))
                v -= cnt[r - (uint64_t)(w * B)];
            nx[r] = v;
        }
        memcpy(cnt, nx, (size_t)nl * sizeof *cnt);
    }
    double lim = (double)solo_work, most = 0;
    for (uint64_t r = 0; r < nl; r++)
        if ((double)cnt[r] * level_weight(sv, (int64_t)r) > most)
            most = (double)cnt[r] * level_weight(sv, (int64_t)r);
    if (autos && most / 4 < lim)
        lim = most / 4;
    for (uint64_t r = 0; r < nl; r++)
        sv->solo[r] = nthreads <= 1 || (double)cnt[r] * level_weight(sv, (int64_t)r) < lim ||
                      cnt[r] / (uint64_t)sv->run < (uint64_t)nthreads;
    free(cnt);
    free(nx);
    return NS_OK;
}

static void format_bytes(uint64_t b, char *buf, size_t len)
{
    if (b >= (uint64_t)1 << 30)
        snprintf(buf, len, "%.2f GiB", (double)b / (1 << 30));
    else
        snprintf(buf, len, "%.2f MiB", (double)b / (1 << 20));
}

/* (Re)allocate the line records and running sets, empty, at the current
 * width: refused (NS_ENOMEM) when over limit (0: none). The old ones go
 * first, so a widening peaks at the new size. */
static ns_err alloc_records(sieve *sv, uint64_t limit, ns_error *err)
{
    subsets *sub = &sv->sub;
    const uint64_t need = sets_bytes(sv->sets, sv->nsets, sv->pref, sv->npref, sub, sv->words);
    char nb[32], lb[32];
    format_bytes(need, nb, sizeof nb);
    if (limit && need > limit) {
        format_bytes(limit, lb, sizeof lb);
        return ns_error_set(err, NS_ENOMEM, "the line sets and running sets need %s for values below %" PRIu32
                            " (%" PRIu64 " words a set) but the memory limit leaves them %s",
                            nb, sv->acap, sv->words, lb);
    }
    for (int i = 0; i < sv->nsets; i++) {
        lineset *ls = &sv->sets[i];
        rec_free(ls->rec, ls->rec_mapped);
        ls->rec = rec_new(ls->nlines, sv->recw, &ls->rec_mapped);
        if (!ls->rec)
            goto nomem;
    }
    for (int i = 0; i < sv->npref; i++) {
        prefset *ps = &sv->pref[i];
        rec_free(ps->rec, ps->rec_mapped);
        ps->rec = rec_new(ps->nlines, sv->recw, &ps->rec_mapped);
        if (!ps->rec)
            goto nomem;
    }
    for (int i = 0; i < 2 && sub->nsub; i++) {
        rec_free(sub->buf[i], sub->mapped[i]);
        sub->buf[i] = rec_new(sub->nslots, (uint64_t)sub->nsub * sv->words, &sub->mapped[i]);
        if (!sub->buf[i])
            goto nomem;
    }
    return NS_OK;
nomem:
    return ns_error_set(err, NS_ENOMEM, "cannot allocate %s for the line sets and running sets (%" PRIu64
                        " words a set)", nb, sv->words);
}

/* Widen n records of ow words to nw >= ow words in place (the rest zero):
 * the block grows (ns_huge_grow: mremap or realloc), then each record
 * moves to its new place, the last first (a record's new place lies at or
 * after its old one, past the records below it). NULL when out of memory
 * (the old block kept). */
static uint64_t *rec_widen(uint64_t *old, size_t *mapped, uint64_t n, uint64_t ow, uint64_t nw)
{
    uint64_t *rec = ns_huge_grow(old, (size_t)(n * ow * 8), (size_t)(n * nw * 8), REC_MAP_BYTES, mapped);
    if (!rec)
        return NULL;
    for (uint64_t l = n; l-- > 0;) {
        memmove(rec + l * nw, rec + l * ow, (size_t)ow * sizeof *rec);
        memset(rec + l * nw + ow, 0, (size_t)(nw - ow) * sizeof *rec);
    }
    return rec;
}

/* Widen the line records and running sets from ow to sv->words words a set
 * in place (rec_widen), instead of alloc_records and a rebuild: the caller
 * knows that every value stored so far is below the old acap, so every set
 * is exact as it stands and only gains zero words; a record's own mex (its
 * first word) stays right: below 64 ow it is the first value missing, at
 * 64 ow the set is full below it and the new words are empty. Refused
 * (NS_ENOMEM) when the new sets are over limit (0: none), as alloc_records
 * refuses them, or when memory runs out part way (some sets then wider
 * than others): the caller falls back to alloc_records and a rebuild. */
static ns_err widen_records(sieve *sv, uint64_t ow, uint64_t limit)
{
    subsets *sub = &sv->sub;
    const uint64_t need = sets_bytes(sv->sets, sv->nsets, sv->pref, sv->npref, sub, sv->words);
    if (limit && need > limit)
        return NS_ENOMEM;
    for (int i = 0; i < sv->nsets; i++) {
        lineset *ls = &sv->sets[i];
        uint64_t *r = rec_widen(ls->rec, &ls->rec_mapped, ls->nlines, ow + 1, sv->recw);
        if (!r)
            return NS_ENOMEM;
        ls->rec = r;
    }
    for (int i = 0; i < sv->npref; i++) {
        prefset *ps = &sv->pref[i];
        uint64_t *r = rec_widen(ps->rec, &ps->rec_mapped, ps->nlines, ow + 1, sv->recw);
        if (!r)
            return NS_ENOMEM;
        ps->rec = r;
    }
    for (int i = 0; i < 2 && sub->nsub; i++) {
        /* nsub sets a slot, one after another: each set widens alone */
        uint64_t *r = rec_widen(sub->buf[i], &sub->mapped[i], sub->nslots * (uint64_t)sub->nsub, ow, sv->words);
        if (!r)
            return NS_ENOMEM;
        sub->buf[i] = r;
    }
    return NS_OK;
}

/* Rebuild the line records from the final values of levels 0..upto-1; adds
 * their cell count to *cells (may be NULL). One parallel region: the
 * threads take contiguous blocks of a level (thread 0 alone on a small
 * one) and meet at a spinning barrier, while thread 0 lists the next
 * level (another slot of the ring); the cells of one level lie on distinct
 * lines, those of two levels may not. */
static ns_err rebuild(sieve *sv, int64_t upto, local_ctx *lcs, int nthreads, uint64_t *cells, ns_error *err)
{
    const int k = sv->k;
    if (upto <= 0)
        return NS_OK;
    if (!level_get(sv, 0, err))
        return err ? err->code : NS_ENOMEM;
    ns_barrier bar;
    ns_error lerr;   /* a failure to list a level, thread 0's */
    ns_error_clear(&lerr);
    /* per level parity: a thread that has passed level r's barrier may set
     * level r + 1's flag while another still reads level r's */
    volatile int list_failed[2] = {0, 0};
    uint64_t n_cells = 0;
    NS_PRAGMA(omp parallel num_threads(nthreads))
    {
        const int me = ns_omp_thread_num();
        int sense = 0;
        if (me == 0)
            ns_barrier_init(&bar, team_size());
        NS_PRAGMA(omp barrier)
        const int nt = team_size();
        for (int64_t r = 0; r < upto; r++) {
            const level_list *L = &sv->ring[r % sv->nring];
            const uint64_t n = L->n;
            uint64_t c0 = 0, c1 = me == 0 ? n : 0;
            if (!sv->solo[r])
                thread_block(n, me, nt, &c0, &c1);
            for (uint64_t c = c0; c < c1; c++)
                restore_cell(sv, r, upto, L->cells + c * (uint64_t)k, &lcs[me]);
            if (me == 0) {
                n_cells += n;
                if (cells)
                    sv->work_done += (double)n * level_weight(sv, r);
                if (r + 1 < upto && !level_get(sv, r + 1, &lerr))
                    list_failed[r & 1] = 1;
            }
            ns_barrier_wait(&bar, &sense);
            if (sv->failed[r & 1] || list_failed[r & 1])
                break;
        }
    }
    if (cells)
        *cells += n_cells;
    if (list_failed[0] || list_failed[1]) {
        if (err)
            *err = lerr;
        return lerr.code ? lerr.code : NS_ENOMEM;
    }
    if (sv->failed_any) {
        if (err)
            *err = sv->perr;
        return sv->perr.code ? sv->perr.code : NS_EINTERNAL;
    }
    return NS_OK;
}

/* Lists of level r and of the levels its lagged sets take in while it
 * runs (r - lag, early sets r + 1 - lag); thread 0 only. */
static ns_err levels_for(sieve *sv, int64_t r, ns_error *err)
{
    if (!level_get(sv, r, err))
        return err ? err->code : NS_ENOMEM;
    for (int i = 0; i < sv->nlagged; i++) {
        const lineset *ls = &sv->sets[sv->lagged_idx[i]];
        int64_t rr = r - ls->lag + ls->early;
        if (rr >= 0 && !level_get(sv, rr, err))
            return err ? err->code : NS_ENOMEM;
    }
    return NS_OK;
}

/* Progress and checkpoint after level r (no thread writes the table);
 * non-zero: stop. */
static int level_done(sieve *sv, int64_t r, const ns_engine_opts *opts, uint64_t levels, uint64_t *done)
{
    *done += sv->ring[r % sv->nring].n;
    sv->work_done += (double)sv->ring[r % sv->nring].n * level_weight(sv, r);
    if (opts->progress && opts->progress(opts->progress_user, sv->work_done / sv->work_total))
        return 1;
    if (opts->checkpoint && opts->checkpoint(opts->checkpoint_user, (uint64_t)r + 1, levels))
        return 1;
    return 0;
}

/* The largest value stored or restored so far, by any thread (-1: none);
 * thread 0, while the others wait at the barrier or outside the team. */
static int64_t vmax_all(const local_ctx *lcs, int nthreads)
{
    int64_t m = -1;
    for (int i = 0; i < nthreads; i++)
        m = lcs[i].vmax > m ? lcs[i].vmax : m;
    return m;
}

/* Level r on thread 0 alone (the others wait at a barrier): lagged inserts,
 * the cells, the callbacks; sets sv->halted (and *grow_at) to end the run. */
static void solo_level(sieve *sv, int64_t r, local_ctx *lc, const ns_engine_opts *opts, uint64_t levels,
                       uint64_t *done, int64_t *grow_at)
{
    const int k = sv->k;
    for (int i = 0; i < sv->nlagged; i++) {
        lineset *ls = &sv->sets[sv->lagged_idx[i]];
        const int64_t rr = r - ls->lag + ls->early;
        if (rr < 0)
            continue;
        const level_list *LL = &sv->ring[rr % sv->nring];
        for (uint64_t c = 0; c < LL->n; c++)
            insert_lagged(sv, ls, LL->cells + c * (uint64_t)k);
    }
    if (r < sv->max_rank) {
        ns_error e;
        ns_error_clear(&e);
        if (levels_for(sv, r + 1, &e))
            fail_once(sv, r, &e, NS_ENOMEM, "out of memory");
    }
    compute_cells(sv, r, &sv->ring[r % sv->nring], 0, sv->ring[r % sv->nring].n, lc);
    if (sv->failed[r & 1]) {
        sv->halted = 1;
    } else if (sv->grow[r & 1]) {
        *grow_at = r;
        sv->halted = 1;
    } else if ((opts->progress || opts->checkpoint) && level_done(sv, r, opts, levels, done)) {
        sv->stop = 1;
        sv->halted = 1;
    }
    if (sv->redo_level == r && !sv->grow[r & 1])
        sv->redo_level = -1;
}

/* Levels r, r + 1, ... as long as they are small, on thread 0 alone (the
 * others wait at a barrier): one batch, no meeting between its levels.
 * Returns the first level not run (max_rank + 1 at the end); sv->halted
 * ends the run. */
static int64_t solo_run(sieve *sv, int64_t r, local_ctx *lc, const ns_engine_opts *opts, uint64_t levels,
                        uint64_t *done, int64_t *grow_at)
{
    for (; r <= sv->max_rank && sv->solo[r] && !sv->halted; r++)
        solo_level(sv, r, lc, opts, levels, done, grow_at);
    return r;
}

/* After shared level r, on thread 0 while the others wait at the barrier:
 * a failure, a widening or a stop from the callbacks sets sv->halted (and
 * *grow_at); else the small levels that follow run here. Sets
 * sv->next_level. */
static void between_levels(sieve *sv, int64_t r, local_ctx *lc, const ns_engine_opts *opts, uint64_t levels,
                           uint64_t *done, int64_t *grow_at)
{
    if (sv->failed[r & 1]) {
        sv->halted = 1;
    } else if (sv->grow[r & 1]) {
        *grow_at = r;
        sv->halted = 1;
    } else if ((opts->progress || opts->checkpoint) && level_done(sv, r, opts, levels, done)) {
        sv->stop = 1;
        sv->halted = 1;
    }
    if (sv->redo_level == r && !sv->grow[r & 1])
        sv->redo_level = -1;
    sv->next_level = sv->halted ? r + 1 : solo_run(sv, r + 1, lc, opts, levels, done, grow_at);
}

static ns_err general_resume(const ns_game *game, ns_table *t, const ns_engine_plan *pl, const ns_engine_opts *opts,
                             uint64_t resume_units, ns_error *err)
{
    ns_err rc = NS_OK;
    const ns_engine_plan plan = *pl;
    if (t->k != game->k || t->pn_only != opts->pn_only || t->elem != plan.elem)
        return ns_error_set(err, NS_EINTERNAL, "table does not match the game's plan");
    for (int i = 0; i < game->k; i++)
        if (t->bounds[i] != game->bounds[i])
            return ns_error_set(err, NS_EINTERNAL, "table bounds do not match the game's");
    const uint64_t levels = (uint64_t)plan.levels;
    if (resume_units > levels)
        return ns_error_set(err, NS_EINVAL, "resume after unit %" PRIu64 ", but this solve has %" PRIu64 " units (levels)",
                            resume_units, levels);

    const ns_level_exchange *xch = opts->level_exchange;
    if (xch && (xch->ranks < 1 || xch->rank < 0 || xch->rank >= xch->ranks || !xch->exchange))
        return ns_error_set(err, NS_EINVAL, "a level exchange of process %d of %d", xch->rank, xch->ranks);
    const int k = game->k;
    const int nthreads = opts->threads > 0 ? opts->threads : ns_omp_max_threads();
    ns_game local;
    ns_family *lf = calloc((size_t)(game->nfam ? game->nfam : 1), sizeof *lf);
    local_ctx *lcs = aligned_alloc(128, (size_t)nthreads * sizeof *lcs);
    sieve sv;
    memset(&sv, 0, sizeof sv);
    if (lcs)
        memset(lcs, 0, (size_t)nthreads * sizeof *lcs);
    if (!lf || !lcs) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    rc = sieve_init(&sv, game, t, &plan, opts->pn_only, &local, lf, err);
    if (rc)
        goto fail;
    for (int f = 0; f < sv.local->nfam; f++)
        sv.weigh_rank |= sv.local->fam[f].kind == NS_FAM_GENERAL;
    if (xch) {
        sv.xch = xch;
        if (!(sv.xfirst = calloc((size_t)xch->ranks + 1, sizeof *sv.xfirst))) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
    }
    /* across processes a level is shared by threads x ranks workers */
    if ((rc = plan_solo(&sv, xch ? nthreads * xch->ranks : nthreads, opts->solo_cells ? opts->solo_cells : NS_GENERAL_SOLO_WORK,
                        !opts->solo_cells, err)))
        goto fail;
    /* the ranks of a box's cells lie symmetrically about max_rank / 2 (x ->
     * bounds - 1 - x maps rank r to max_rank - r), so the cells weigh
     * ncells (1 + max_rank / 2) in all */
    sv.work_total = (double)t->ncells * (sv.weigh_rank ? 1.0 + (double)sv.max_rank / 2 : 1.0);
    const size_t nptr = (size_t)(sv.nself + sv.nreaders + sv.npref + sv.sub.nsub + 1);
    sv.redo_level = -1;
    for (int i = 0; i < nthreads; i++) {
        lcs[i].sv = &sv;
        lcs[i].vmax = -1;
        lcs[i].bits = calloc((size_t)sv.wfull, sizeof *lcs[i].bits);
        lcs[i].ptr = calloc(nptr, sizeof *lcs[i].ptr);
        lcs[i].selfrec = calloc((size_t)sv.nself + 1, sizeof *lcs[i].selfrec);
        if (!lcs[i].bits || !lcs[i].ptr || !lcs[i].selfrec) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
    }

    /* Resume: rebuild the per-line state from the levels already final. */
    int64_t start = (int64_t)resume_units;
    uint64_t done = 0;
    if ((rc = alloc_records(&sv, opts->memory_limit, err)) || (rc = rebuild(&sv, start, lcs, nthreads, &done, err)))
        goto fail;
    sieve *psv = &sv;
    ns_barrier bar;   /* the team's per-level barrier (see ns_barrier.h) */
    int64_t grow_at = -1;
    for (;;) {
        if (start <= sv.max_rank && (rc = levels_for(&sv, start, err)))
            goto fail;
        sv.halted = 0;
        NS_PRAGMA(omp parallel num_threads(nthreads))
        {
            const int me = ns_omp_thread_num();
            local_ctx *lc = &lcs[me];
            int sense = 0;   /* this thread's, for bar */
            if (me == 0) {
                ns_barrier_init(&bar, team_size());
                /* the small levels at the start: thread 0 alone */
                psv->next_level = solo_run(psv, start, lc, opts, levels, &done, &grow_at);
            }
            NS_PRAGMA(omp barrier)
            /* shared levels only: thread 0 runs the small ones between two
             * of them while the others wait (between_levels); next_level
             * and halted are written by thread 0 alone, while it holds the
             * barrier, and read by the others after it */
            for (int64_t r = psv->next_level; !psv->halted && r <= psv->max_rank; r = psv->next_level) {
                const level_list *L = &psv->ring[r % psv->nring];
                /* lagged sets take in level r - lag before level r; early
                 * ones level r + 1 - lag while it runs (below) */
                if (psv->nlate) {
                    for (int i = 0; i < psv->nlagged; i++) {
                        lineset *ls = &psv->sets[psv->lagged_idx[i]];
                        const int64_t rr = r - ls->lag;
                        if (rr < 0 || ls->early)
                            continue;
                        const level_list *LL = &psv->ring[rr % psv->nring];
                        const int64_t n = (int64_t)LL->n;
                        NS_PRAGMA(omp for schedule(static) nowait)
                        for (int64_t c = 0; c < n; c++)
                            insert_lagged(psv, ls, LL->cells + c * k);
                    }
                    ns_barrier_wait(&bar, &sense);
                }
                const int64_t run = psv->run;
                double t_list = 0, t_cells = 0;   /* thread 0's, for lead_update */
                uint64_t n0 = 0;
                if (me == 0 && r < psv->max_rank) {
                    /* the next level's lists, while the others start on this one */
                    ns_error e;
                    ns_error_clear(&e);
                    t_list = mono_s();
                    if (levels_for(psv, r + 1, &e))
                        fail_once(psv, r, &e, NS_ENOMEM, "out of memory");
                    t_list = mono_s() - t_list;
                }
                for (int i = 0; i < psv->nlagged; i++) {
                    lineset *ls = &psv->sets[psv->lagged_idx[i]];
                    const int64_t rr = r + 1 - ls->lag;
                    if (rr < 0 || !ls->early)
                        continue;
                    const level_list *LL = &psv->ring[rr % psv->nring];
                    uint64_t c0, c1;
                    thread_block(LL->n, me, team_size(), &c0, &c1);
                    for (uint64_t c = c0; c < c1; c++)
                        insert_lagged(psv, ls, LL->cells + c * (uint64_t)k);
                }
                /* contiguous blocks: a thread keeps its part of the level
                 * from one level to the next, and so the line records and
                 * table rows it wrote (no cache-line migration between
                 * cores at every level) */
                uint64_t b0, b1; /* this process's block: all of it in one process */
                rank_block(psv, L->n, psv->xch ? psv->xch->rank : 0, &b0, &b1);
                if (me == 0)
                    t_cells = mono_s();
                if (run == 1) {
                    uint64_t c0, c1;
                    lead_block(b1 - b0, me, team_size(), psv->lead, &c0, &c1);
                    compute_cells(psv, r, L, b0 + c0, b0 + c1, lc);
                    n0 = c1 - c0;
                } else {
                    /* runs of cells along the sequence axis, a thread's
                     * block of them (lead counted in runs) */
                    const uint64_t u0 = b0 / (uint64_t)run, u1 = b1 / (uint64_t)run;
                    uint64_t c0, c1;
                    lead_block(u1 - u0, me, team_size(), psv->lead / (double)run, &c0, &c1);
                    for (uint64_t u = u0 + c0; u < u0 + c1 && !psv->failed_any; u++)
                        compute_cells(psv, r, L, u * (uint64_t)run, (u + 1) * (uint64_t)run, lc);
                    n0 = (c1 - c0) * (uint64_t)run;
                }
                if (me == 0)
                    t_cells = mono_s() - t_cells;
                /* across processes: thread 0 swaps the blocks while the
                 * others wait, then all replay the other processes' cells */
                if (psv->xch) {
                    if (me == 0) {
                        ns_barrier_hold(&bar);
                        level_exchange(psv, r, L);
                        ns_barrier_release(&bar, &sense);
                    } else {
                        ns_barrier_wait(&bar, &sense);
                    }
                    if (!psv->failed[r & 1] && !psv->grow[r & 1])
                        replay_others(psv, r, L, me, team_size(), lc);
                }
                /* one meeting a level: thread 0 checks it, calls back and
                 * runs the small levels that follow while the others wait */
                if (me == 0) {
                    ns_barrier_hold(&bar);
                    lead_update(psv, team_size(), t_list, t_cells, n0);
                    between_levels(psv, r, lc, opts, levels, &done, &grow_at);
                    ns_barrier_release(&bar, &sense);
                } else {
                    ns_barrier_wait(&bar, &sense);
                }
            }
        }
        if (sv.failed_any || sv.stop || grow_at < 0)
            break;
        /* widen the line sets and redo level grow_at: its listed cells
         * after a widening in place (see sieve.redo_level), where every
         * set is exact (no value at or past acap stored: not so after a
         * resume's rebuild) and no cell's sets depend on another cell of
         * its level (runs along a sequential axis do: their prefix records
         * go on along the run); else the whole level after a rebuild */
        const uint64_t ow = sv.words;
        int listed = !opts->widen_rebuild && sv.run == 1 && vmax_all(lcs, nthreads) < (int64_t)sv.acap;
        for (int i = 0; i < nthreads; i++)
            listed &= !lcs[i].redo_oom;
        sv.words = sv.words * 2 < sv.wfull ? sv.words * 2 : sv.wfull;
        sv.acap = sv.cap < 64 * sv.words ? sv.cap : (uint32_t)(64 * sv.words);
        sv.recw = sv.words + 1;
        sv.grow[0] = sv.grow[1] = 0;
        start = grow_at;
        grow_at = -1;
        if (listed && !widen_records(&sv, ow, opts->memory_limit)) {
            sv.redo_level = start;
            if (opts->widenings)
                opts->widenings[0]++;
            continue;
        }
        sv.redo_level = -1;
        for (int i = 0; i < nthreads; i++) {
            lcs[i].nredo = 0;
            lcs[i].redo_oom = 0;
        }
        if (opts->widenings)
            opts->widenings[1]++;
        if ((rc = alloc_records(&sv, opts->memory_limit, err))) {
            /* over the limit: levels 0 .. grow_at - 1 are final */
            char mb[32];
            format_bytes(plan.line_bytes_max, mb, sizeof mb);
            size_t n = strlen(err ? err->msg : "");
            if (err && n < sizeof err->msg)
                snprintf(err->msg + n, sizeof err->msg - n, " (at level %" PRId64 " of %" PRIu64 "; at most %s)",
                         start, levels, mb);
            goto fail;
        }
        if ((rc = rebuild(&sv, start, lcs, nthreads, NULL, err)))
            goto fail;
    }
    if (sv.failed_any) {
        rc = sv.perr.code ? sv.perr.code : NS_EINTERNAL;
        if (err)
            *err = sv.perr;
        goto fail;
    }
    if (sv.stop) {
        rc = ns_error_set(err, NS_EINTR, "interrupted");
        goto fail;
    }
    rc = NS_OK;
fail:
    if (lcs)
        for (int i = 0; i < nthreads; i++) {
            free(lcs[i].bits);
            free(lcs[i].touched);
            free(lcs[i].ptr);
            free(lcs[i].selfrec);
            free(lcs[i].redo);
        }
    free(lcs);
    free(lf);
    sieve_free(&sv);
    return rc;
}


static ns_err general_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                          ns_error *err)
{
    return general_resume(g, t, plan, o, 0, err);
}

static int general_applies(const ns_game *g, const ns_engine_opts *o, char *why, size_t len)
{
    if (o->tile_sink || o->rows_sink) {
        if (why)
            snprintf(why, len, "cannot stream (it keeps the whole table in memory)");
        return 0;
    }
    if (g->octal) {
        if (why)
            snprintf(why, len, "a take-and-break game: its options are sums of heaps, not cells of the table "
                     "(the sequence engine solves it, Grundy values in normal play)");
        return 0;
    }
    return 1;
}

const ns_engine ns_engine_general = {
    .name = "general",
    .what = "the level sieve: any game, levels of equal rank in parallel, rays per line, other moves per cell",
    .kinds = NS_ENGINE_GRUNDY | NS_ENGINE_PN,
    .applies = general_applies,
    .memory = general_memory,
    .memory_max = general_memory_max,
    .run = general_run,
    .resume = general_resume,
    .stream_unit = NULL,
};
