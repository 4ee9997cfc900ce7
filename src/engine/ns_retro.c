/* ns_retro.c - retrograde analysis: P / N / draw tables of loopy games
 * (ns_game.loopy: moves that need not lower the rank), with remoteness
 * (see ns_engine.h).
 *
 * Outcomes. Every position counts what stands between it and "all my
 * options are N". Positions without options are decided first (normal
 * play: P, the player to move loses; misere: N), remoteness 0. Then,
 * frontier by frontier: a P position makes every undecided predecessor N;
 * an N position lowers the counts of its undecided predecessors, and one
 * whose count reaches zero (all its options are N) is P. Positions still
 * undecided when no frontier is left are draws (D): from them neither
 * player can force a win.
 *
 * Rays, per line (the sieve's way, never option by option). The options
 * of p along a ray "p + e + t*d, t >= 0, inside the box" are the cells of
 * one line of direction d from the cell p + e on (the box is convex, so
 * they are a suffix of the line's cells inside it, the positions among
 * them). They are all N exactly when the line's last cell that is a
 * position and not yet N lies before p + e. So every line keeps `last`,
 * that cell's index along the line (-1: none), which only moves back: when
 * the N cell at `last` is processed, `last` is moved back over the N cells
 * and non-positions behind it (one compare-and-swap), and the predecessors
 * whose p + e lies in the stretch passed over, p = c - e - s*d, lose the
 * one count they held for the whole ray (walked as the forward ray is,
 * beyond the line's first cell when `last` reaches -1). A ray family thus
 * costs one count per position, not one per option. A P cell q makes N
 * every p with q among its ray options: the predecessors from q back; the
 * line's `hip` (the largest index of a P cell processed on it) stops the
 * walk where an earlier P cell's walk already went. Lines belong to a
 * direction: families of equal direction (a-Wythoff's 2a - 1 diagonals)
 * share them. Finite families keep a count per option, their
 * predecessors q - o. General and prefix families (any callback) get a
 * reverse index built from their forward options before the search: CSR
 * arrays, an offset per cell (8 bytes, ncells + 1 of them) and one 8-byte
 * cell index per option of those families. The work is O(cells + the
 * options of finite and general families); Wythoff-like rays add O(cells)
 * in all, where walking every predecessor of every decided cell cost
 * O(N) each.
 *
 * Remoteness. Frontier r holds exactly the positions of remoteness r: a
 * position made N while frontier r is processed gets r + 1 = 1 + the least
 * remoteness of its P options (the winner hurries: frontiers come in
 * increasing r, so the first P option found is the nearest); a P position
 * gets its last option's r + 1 = 1 + the largest remoteness of its options
 * (the loser delays). An N cell counts as N for its predecessors (its
 * lines' `last`, the counts) only when its frontier is processed: decided
 * N, it is held as NPEND until then. A position never becomes both in one
 * frontier: its count reaches zero only when every option is N, and then
 * it has no P option. So the values and the remoteness depend only on
 * the frontiers, not on the order in which threads visit a frontier:
 * identical tables at any thread count.
 *
 * State, rebuildable: the counts, each line's `last` and `hip` and the
 * queue are functions of which cells are decided (with remoteness) and
 * which of them are processed (those of remoteness below the frontier
 * being processed). retro_rebuild_lines sets up the lines, the rays'
 * counts and the N cells' NPEND from the decided cells and a level;
 * retro_init_state calls it with nothing decided (level 0), a resume
 * (retro_rebuild) calls it after restoring the table, the remoteness and
 * the counts of the finite and general families.
 *
 * Memory besides the table: 4 bytes a cell (counts) + 8 bytes a cell (the
 * queue of decided positions, in order of remoteness) + 24 bytes a line of
 * every ray direction, plus the reverse index when the game has general or
 * prefix families; the caller's remoteness array (4 bytes a cell) is
 * optional.
 *
 * Parallel: OpenMP over the cells (counting, the reverse index), over the
 * lines (the rays' counts) and over each frontier (atomic counts,
 * compare-and-swap on the outcome and on the lines' `last` and `hip`,
 * blocks of the next frontier appended with one atomic add).
 *
 * Checkpoints. Units are frontiers: after u of them (o->checkpoint(user,
 * u, positions) between frontiers u - 1 and u) the positions of remoteness
 * <= u are decided (N cells of frontier u shown as NS_PN_N, not NPEND,
 * while the callback runs) and the others UNDEC, so the table and the
 * remoteness are the whole state. retro_rebuild makes the counts, the
 * lines and the queue of frontier u again from them (the resume,
 * ns_engine.h), checking on the way that they can be a state of the
 * solve. Generalized Sprague-Grundy values (o->gsg, ns_retro_gsg.c) come
 * after the last frontier of a fresh or a resumed solve. */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"

/* outcome of a cell while the search runs (a P/N table's elem-1 cells):
 * UNDEC undecided; NPEND decided N, its frontier not yet processed (its
 * predecessors do not see it as N yet); NS_PN_N once processed */
enum { UNDEC = 2, NPEND = 4, INVAL = 0xFF };

/* cells appended to the next frontier at once */
#define PUSH_BLOCK 256

/* The lines of one ray direction d: the cells c, c + d, c + 2d, ... inside
 * the box, from a first cell o (o - d outside the box). Those first cells
 * are the box less the inner box {c : c - d in the box}, numbered group by
 * group: group j holds the cells whose coordinates before j lie in the
 * inner box's range and whose coordinate j does not. */
typedef struct rdir {
    int64_t d[NS_MAX_DIM];
    int64_t sd;                 /* d as a step of the table index */
    int64_t inlo[NS_MAX_DIM];   /* the inner box: [inlo, inhi) per coordinate */
    int64_t inhi[NS_MAX_DIM];
    uint64_t gofs[NS_MAX_DIM + 1]; /* first line number of each group */
    uint64_t nlines;
    uint64_t *origin;           /* table index of each line's first cell; owned */
    int64_t *last;              /* atomic: see the top; owned */
    int64_t *hip;               /* atomic: see the top; owned */
} rdir;

typedef struct retro {
    const ns_game *g;
    ns_table *t;
    uint8_t *out;           /* t->data */
    uint32_t *cnt;          /* counts (see the top), per cell; owned */
    uint64_t *queue;        /* decided positions, by remoteness; owned */
    uint64_t qtail;         /* atomic */
    uint64_t *roff;         /* reverse index of general/prefix families: */
    uint64_t *rpred;        /* predecessors of cell i at rpred[roff[i] .. roff[i+1]); owned */
    int has_index;          /* some family is FM_INDEX */
    uint8_t *fmode;         /* per family: FM_*; owned */
    int *late;              /* per family: atomic, an FM_CAND family met an offset outside its set; owned */
    int64_t *cand;          /* per family: its offsets (FM_CAND), NS_MAX_CAND of k values; owned */
    int *ncand;             /* per family: how many; owned */
    int ndir;
    rdir *dir;              /* the distinct ray directions; owned */
    int *famdir;            /* per family: its direction in dir, or -1; owned */
    uint32_t *rem;          /* OPTIONAL, the caller's */
    int failed;             /* atomic: an enumeration failed */
    ns_error *err;
} retro;

static int is_indexed(const ns_family *f)
{
    return f->kind == NS_FAM_GENERAL || f->kind == NS_FAM_PREFIX;
}

/* How the predecessors along a family are found: FM_RAY per line;
 * FM_FINITE the offsets negated; FM_CAND (a general family whose options
 * s + o take at most NS_MAX_CAND offsets o over the box) the candidates
 * q - o, each asked for its options; FM_INDEX the reverse index. */
enum { FM_RAY, FM_FINITE, FM_CAND, FM_INDEX };
#define NS_MAX_CAND 16
/* cells whose options a general family's offsets are first collected from */
#define CAND_PROBE 4096

/* ---------- lines ---------- */

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t ceil_div(int64_t a, int64_t b) /* b > 0 */
{
    return -floor_div(-a, b);
}

/* The t with c + t*d inside the box: [*lo, *hi] (empty when *hi < *lo). */
static void segment(const ns_game *g, const int64_t *d, const int64_t *c, int64_t *lo, int64_t *hi)
{
    int64_t a = INT64_MIN, b = INT64_MAX;
    for (int i = 0; i < g->k; i++) {
        const int64_t n = g->bounds[i];
        int64_t l, h;
        if (d[i] == 0) {
            if (c[i] < 0 || c[i] >= n) {
                *lo = 0, *hi = -1;
                return;
            }
            continue;
        }
        if (d[i] == 1) {
            l = -c[i];
            h = n - 1 - c[i];
        } else if (d[i] == -1) {
            l = c[i] - n + 1;
            h = c[i];
        } else if (d[i] > 0) {
            l = ceil_div(-c[i], d[i]);
            h = floor_div(n - 1 - c[i], d[i]);
        } else {
            l = ceil_div(c[i] - n + 1, -d[i]);
            h = floor_div(c[i], -d[i]);
        }
        a = l > a ? l : a;
        b = h < b ? h : b;
    }
    *lo = a, *hi = b;
}

static void rdir_setup(const ns_game *g, const int64_t *d, rdir *D)
{
    const int k = g->k;
    memset(D, 0, sizeof *D);
    memcpy(D->d, d, (size_t)k * sizeof *d);
    int64_t stride = 1;
    for (int i = k - 1; i >= 0; i--) {
        D->sd += d[i] * stride;
        stride *= g->bounds[i];
    }
    for (int i = 0; i < k; i++) {
        const int64_t n = g->bounds[i];
        D->inlo[i] = d[i] > 0 ? (d[i] < n ? d[i] : n) : 0;
        D->inhi[i] = d[i] < 0 ? (n + d[i] > 0 ? n + d[i] : 0) : n;
    }
    uint64_t at = 0;
    for (int j = 0; j < k; j++) {
        D->gofs[j] = at;
        uint64_t size = (uint64_t)(g->bounds[j] - (D->inhi[j] - D->inlo[j]));
        for (int i = 0; i < k && size; i++)
            if (i < j)
                size *= (uint64_t)(D->inhi[i] - D->inlo[i]);
            else if (i > j)
                size *= (uint64_t)g->bounds[i];
        at += size;
    }
    D->gofs[k] = at;
    D->nlines = at;
}

/* The number of the line whose first cell is o. */
static uint64_t line_number(const ns_game *g, const rdir *D, const int64_t *o)
{
    const int k = g->k;
    int j = 0;
    while (j < k && o[j] >= D->inlo[j] && o[j] < D->inhi[j])
        j++;
    uint64_t r = 0;
    for (int i = 0; i < k; i++) {
        uint64_t radix, digit;
        if (i < j) {
            radix = (uint64_t)(D->inhi[i] - D->inlo[i]);
            digit = (uint64_t)(o[i] - D->inlo[i]);
        } else if (i == j) {
            radix = (uint64_t)(g->bounds[i] - (D->inhi[i] - D->inlo[i]));
            digit = (uint64_t)(D->d[i] > 0 ? o[i] : o[i] - D->inhi[i]);
        } else {
            radix = (uint64_t)g->bounds[i];
            digit = (uint64_t)o[i];
        }
        r = r * radix + digit;
    }
    return D->gofs[j] + r;
}

/* The first cell of line l. */
static void line_origin(const ns_game *g, const rdir *D, uint64_t l, int64_t *o)
{
    const int k = g->k;
    int j = 0;
    while (j + 1 < k && l >= D->gofs[j + 1])
        j++;
    uint64_t r = l - D->gofs[j];
    for (int i = k - 1; i >= 0; i--) {
        uint64_t radix;
        if (i < j)
            radix = (uint64_t)(D->inhi[i] - D->inlo[i]);
        else if (i == j)
            radix = (uint64_t)(g->bounds[i] - (D->inhi[i] - D->inlo[i]));
        else
            radix = (uint64_t)g->bounds[i];
        const int64_t digit = (int64_t)(r % radix);
        r /= radix;
        o[i] = i < j ? D->inlo[i] + digit : i == j ? (D->d[i] > 0 ? digit : D->inhi[i] + digit) : digit;
    }
}

/* The line through c (inside the box or not) and c's index along it;
 * 0 when the line misses the box. */
static int locate(const ns_game *g, const rdir *D, const int64_t *c, uint64_t *l, int64_t *tc)
{
    int64_t lo, hi, o[NS_MAX_DIM];
    segment(g, D->d, c, &lo, &hi);
    if (hi < lo)
        return 0;
    for (int i = 0; i < g->k; i++)
        o[i] = c[i] + lo * D->d[i];
    *l = line_number(g, D, o);
    *tc = -lo;
    return 1;
}

/* ---------- the counts and the decisions ---------- */

/* Options of s from family f, as ns_game_foreach_option gives them. */
static int fam_options(const ns_game *g, const ns_family *f, const int64_t *s, ns_emit_fn emit, void *user,
                       ns_error *err)
{
    if (f->kind != NS_FAM_PREFIX)
        return ns_game_family_options(g, f, s, emit, user, err);
    int64_t c[NS_MAX_DIM];
    int rc = 0;
    memcpy(c, s, (size_t)g->k * sizeof *c);
    for (c[f->axis] = 0; c[f->axis] <= s[f->axis] && !rc; c[f->axis]++)
        rc = ns_game_family_options(g, f, c, emit, user, err);
    return rc;
}

/* s: the next cell in the table's order (the last coordinate fastest) */
static void next_cell(const ns_table *t, int64_t *s)
{
    for (int i = t->k - 1; i >= 0; i--) {
        if (++s[i] < t->bounds[i])
            return;
        s[i] = 0;
    }
}

/* cells a loop over the table takes at once (coordinates computed once a block) */
#define CELL_BLOCK 4096

/* Record the first failure (message into R->err) */
static void fail_once(retro *R, const ns_error *e)
{
    int was = __atomic_exchange_n(&R->failed, 1, __ATOMIC_ACQ_REL);
    if (!was && R->err)
        *R->err = *e;
}

typedef struct count_ctx {
    retro *R;
    uint32_t n;
    int index;              /* 1: count in-degrees into roff; 2: fill rpred */
    uint64_t from;
    const int64_t *s;       /* the cell */
    int cand;               /* >= 0: an FM_CAND family, whose offsets are checked */
} count_ctx;

static int in_cand(const retro *R, int f, const int64_t *o)
{
    const int k = R->g->k;
    const int64_t *c = R->cand + (size_t)f * NS_MAX_CAND * (size_t)k;
    for (int j = 0; j < R->ncand[f]; j++, c += k) {
        int i = 0;
        while (i < k && c[i] == o[i])
            i++;
        if (i == k)
            return 1;
    }
    return 0;
}

static int count_emit(void *u, const int64_t *o)
{
    count_ctx *c = u;
    c->n++;
    if (c->cand >= 0) {
        const int k = c->R->g->k;
        int64_t d[NS_MAX_DIM];
        for (int i = 0; i < k; i++)
            d[i] = o[i] - c->s[i];
        if (!in_cand(c->R, c->cand, d))
            __atomic_store_n(&c->R->late[c->cand], 1, __ATOMIC_RELAXED);
    }
    if (c->index) {
        const uint64_t j = ns_table_index(c->R->t, o);
        if (c->index == 1) {
            __atomic_add_fetch(&c->R->roff[j], 1, __ATOMIC_RELAXED);
        } else {
            const uint64_t at = __atomic_sub_fetch(&c->R->roff[j], 1, __ATOMIC_RELAXED);
            c->R->rpred[at] = c->from;
        }
    }
    return 0;
}

/* pass 1: the options of finite and general families per cell, the
 * in-degrees of the reverse index (FM_INDEX families), the offsets of
 * FM_CAND families checked, the non-positions; pass 2: fill the reverse
 * index; pass 3: the in-degrees of the families that were FM_CAND in pass
 * 1 and met an offset outside their set (late). Rays are counted per
 * line (retro_init_state). */
static void scan_cells(retro *R, int threads, int pass)
{
    const ns_game *g = R->g;
    const int k = g->k;
    const uint64_t n = R->t->ncells;
    const int64_t blocks = (int64_t)((n + CELL_BLOCK - 1) / CELL_BLOCK);
    NS_OMP_FOR_DYNAMIC1(threads)
    for (int64_t bl = 0; bl < blocks; bl++) {
        const uint64_t lo = (uint64_t)bl * CELL_BLOCK, hi = lo + CELL_BLOCK < n ? lo + CELL_BLOCK : n;
        int64_t s[NS_MAX_DIM];
        ns_error e; /* written on a failure only (no clearing per cell: it is large) */
        e.code = NS_OK;
        e.msg[0] = 0;
        ns_table_coords(R->t, lo, s);
        for (uint64_t i = lo; i < hi; i++, next_cell(R->t, s)) {
            if (__atomic_load_n(&R->failed, __ATOMIC_RELAXED))
                break;
            if (pass == 1 && !ns_game_is_position(g, s)) {
                R->out[i] = INVAL;
                continue;
            }
            if (pass != 1 && R->out[i] == INVAL)
                continue;
            count_ctx c = {.R = R, .from = i, .s = s, .cand = -1};
            for (int f = 0; f < g->nfam; f++) {
                const ns_family *fm = &g->fam[f];
                const int m = R->fmode[f];
                if (m == FM_RAY || (pass == 2 && m != FM_INDEX) || (pass == 3 && !R->late[f]))
                    continue;
                if (m == FM_FINITE) { /* inline: the options s + o that are positions */
                    for (size_t j = 0; j < fm->noffsets; j++) {
                        const int64_t *off = fm->offsets + j * (size_t)k;
                        int64_t o[NS_MAX_DIM];
                        for (int a = 0; a < k; a++)
                            o[a] = s[a] + off[a];
                        c.n += ns_game_is_position(g, o);
                    }
                    continue;
                }
                c.index = m == FM_INDEX ? (pass == 3 ? 1 : pass) : 0;
                c.cand = pass == 1 && m == FM_CAND ? f : -1;
                if (fam_options(g, fm, s, count_emit, &c, &e) < 0) {
                    fail_once(R, &e);
                    break;
                }
            }
            if (pass == 1) {
                R->cnt[i] = c.n;
                R->out[i] = UNDEC;
            }
        }
    }
}

static int probe_emit(void *u, const int64_t *o)
{
    count_ctx *c = u;
    retro *R = c->R;
    const int k = R->g->k;
    int64_t d[NS_MAX_DIM];
    for (int i = 0; i < k; i++)
        d[i] = o[i] - c->s[i];
    if (in_cand(R, c->cand, d))
        return 0;
    if (R->ncand[c->cand] == NS_MAX_CAND)
        return 1; /* too many: stop */
    memcpy(R->cand + ((size_t)c->cand * NS_MAX_CAND + (size_t)R->ncand[c->cand]++) * (size_t)k, d,
           (size_t)k * sizeof *d);
    return 0;
}

/* How each family's predecessors are found (R->fmode): a general family
 * is FM_CAND when its options at CAND_PROBE cells spread over the box take
 * at most NS_MAX_CAND offsets (pass 1 checks every cell and turns it into
 * FM_INDEX, late, when one is outside), else FM_INDEX, like every prefix
 * family. */
static void choose_modes(retro *R)
{
    const ns_game *g = R->g;
    const uint64_t n = R->t->ncells;
    const uint64_t probes = n < CAND_PROBE ? n : CAND_PROBE;
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        R->fmode[f] = fm->kind == NS_FAM_RAY ? FM_RAY : fm->kind == NS_FAM_FINITE ? FM_FINITE : FM_INDEX;
        if (fm->kind != NS_FAM_GENERAL)
            continue;
        int ok = 1;
        for (uint64_t j = 0; j < probes && ok; j++) {
            int64_t s[NS_MAX_DIM];
            ns_table_coords(R->t, probes == n ? j : (uint64_t)((double)j * (double)(n - 1) / (double)(probes - 1)), s);
            if (!ns_game_is_position(g, s))
                continue;
            ns_error e = {0};
            count_ctx c = {.R = R, .s = s, .cand = f};
            ok = ns_game_family_options(g, fm, s, probe_emit, &c, &e) == 0; /* an error: pass 1 reports it */
        }
        if (ok)
            R->fmode[f] = FM_CAND;
    }
    for (int f = 0; f < g->nfam; f++)
        R->has_index |= R->fmode[f] == FM_INDEX;
}

typedef struct cand_ctx {
    const int64_t *want;
    size_t bytes;
    uint32_t hits;
} cand_ctx;

static int cand_emit(void *u, const int64_t *o)
{
    cand_ctx *c = u;
    c->hits += memcmp(o, c->want, c->bytes) == 0;
    return 0;
}

/* Append the block buf[0..n) to the queue. */
static void push_block(retro *R, const uint64_t *buf, int n)
{
    const uint64_t at = __atomic_fetch_add(&R->qtail, (uint64_t)n, __ATOMIC_RELAXED);
    memcpy(R->queue + at, buf, (size_t)n * sizeof *buf);
}

typedef struct pushbuf {
    uint64_t b[PUSH_BLOCK];
    int n;
} pushbuf;

/* Decide cell p as v with remoteness r if still undecided; into the block. */
static void decide(retro *R, uint64_t p, uint8_t v, uint32_t r, pushbuf *pb)
{
    uint8_t expect = UNDEC;
    if (!__atomic_compare_exchange_n(&R->out[p], &expect, v == NS_PN_N ? NPEND : v, 0, __ATOMIC_SEQ_CST,
                                     __ATOMIC_RELAXED))
        return;
    if (R->rem)
        R->rem[p] = r;
    pb->b[pb->n++] = p;
    if (pb->n == PUSH_BLOCK) {
        push_block(R, pb->b, pb->n);
        pb->n = 0;
    }
}

/* What a processed option (outcome v, remoteness r) does to predecessor p:
 * one count less for an N option, N for a P option. */
static void reach(retro *R, uint64_t p, uint8_t v, uint32_t r, pushbuf *pb)
{
    if (__atomic_load_n(&R->out[p], __ATOMIC_RELAXED) != UNDEC)
        return;
    if (v == NS_PN_P)
        decide(R, p, NS_PN_N, r + 1, pb);
    else if (__atomic_sub_fetch(&R->cnt[p], 1, __ATOMIC_RELAXED) == 0)
        decide(R, p, NS_PN_P, r + 1, pb);
}

/* reach(p) with v and r for the predecessors p = c - e along family fm
 * of the cells c of line l at indices a, a - 1, ..., b + 1; with b < 0 on
 * past the line's first cell while p can still be in the box. */
static void walk(retro *R, const ns_family *fm, const rdir *D, uint64_t l, int64_t a, int64_t b, uint8_t v,
                 uint32_t r, pushbuf *pb)
{
    const ns_game *g = R->g;
    const int k = g->k;
    int64_t p[NS_MAX_DIM];
    ns_table_coords(R->t, D->origin[l], p);
    for (int i = 0; i < k; i++)
        p[i] += a * D->d[i] - fm->base[i];
    for (int64_t t = a; b < 0 || t > b; t--) {
        if (ns_game_in_box(g, p)) {
            reach(R, ns_table_index(R->t, p), v, r, pb);
        } else {
            /* gone once a coordinate has left the box the way it keeps going */
            int gone = 0;
            for (int i = 0; i < k; i++)
                gone |= (p[i] < 0 && D->d[i] >= 0) || (p[i] >= g->bounds[i] && D->d[i] <= 0);
            if (gone)
                break;
        }
        for (int i = 0; i < k; i++)
            p[i] -= D->d[i];
    }
}

/* a line's cell is passed over by `last`: N and processed, or no position */
static int passed(const retro *R, uint64_t i)
{
    const uint8_t v = __atomic_load_n(&R->out[i], __ATOMIC_SEQ_CST);
    return v == NS_PN_N || v == INVAL;
}

/* Move line l's `last` back over the processed N cells; the predecessors
 * along the stretch passed over lose their ray's count (r: the frontier). */
static void advance(retro *R, int dn, uint64_t l, uint32_t r, pushbuf *pb)
{
    rdir *D = &R->dir[dn];
    for (;;) {
        int64_t a = __atomic_load_n(&D->last[l], __ATOMIC_SEQ_CST);
        if (a < 0 || !passed(R, D->origin[l] + (uint64_t)(a * D->sd)))
            return;
        int64_t b = a - 1;
        while (b >= 0 && passed(R, D->origin[l] + (uint64_t)(b * D->sd)))
            b--;
        if (!__atomic_compare_exchange_n(&D->last[l], &a, b, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            continue;
        for (int f = 0; f < R->g->nfam; f++)
            if (R->famdir[f] == dn)
                walk(R, &R->g->fam[f], D, l, a, b, NS_PN_N, r, pb);
        /* and again: a cell before b may have been processed meanwhile */
    }
}

/* Processed cell q (outcome v, remoteness r) on its ray lines. */
static void reach_rays(retro *R, uint64_t q, const int64_t *s, uint8_t v, uint32_t r, pushbuf *pb)
{
    (void)q;
    for (int dn = 0; dn < R->ndir; dn++) {
        rdir *D = &R->dir[dn];
        uint64_t l;
        int64_t tq;
        if (!locate(R->g, D, s, &l, &tq))
            continue;
        if (v == NS_PN_N) {
            if (__atomic_load_n(&D->last[l], __ATOMIC_SEQ_CST) == tq)
                advance(R, dn, l, r, pb);
            continue;
        }
        /* P: the predecessors whose ray reaches q and no P cell processed before */
        int64_t h = __atomic_load_n(&D->hip[l], __ATOMIC_SEQ_CST);
        while (h < tq && !__atomic_compare_exchange_n(&D->hip[l], &h, tq, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            ;
        if (h >= tq)
            continue;
        for (int f = 0; f < R->g->nfam; f++)
            if (R->famdir[f] == dn)
                walk(R, &R->g->fam[f], D, l, tq, h, NS_PN_P, r, pb);
    }
}

/* Every predecessor of q along the finite families. */
static void reach_finite(retro *R, const int64_t *q, uint8_t v, uint32_t r, pushbuf *pb)
{
    const ns_game *g = R->g;
    const int k = g->k;
    int64_t p[NS_MAX_DIM];
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        if (fm->kind != NS_FAM_FINITE)
            continue;
        for (size_t j = 0; j < fm->noffsets; j++) {
            const int64_t *off = fm->offsets + j * (size_t)k;
            for (int i = 0; i < k; i++)
                p[i] = q[i] - off[i];
            if (ns_game_in_box(g, p))
                reach(R, ns_table_index(R->t, p), v, r, pb);
        }
    }
}

/* Every predecessor of q along the FM_CAND families: the candidates
 * q - o that are undecided, asked for their options (q may be one of
 * them more than once). */
static void reach_cand(retro *R, const int64_t *q, uint8_t v, uint32_t r, pushbuf *pb)
{
    const ns_game *g = R->g;
    const int k = g->k;
    int64_t p[NS_MAX_DIM];
    for (int f = 0; f < g->nfam; f++) {
        if (R->fmode[f] != FM_CAND)
            continue;
        for (int j = 0; j < R->ncand[f]; j++) {
            const int64_t *off = R->cand + ((size_t)f * NS_MAX_CAND + (size_t)j) * (size_t)k;
            for (int i = 0; i < k; i++)
                p[i] = q[i] - off[i];
            if (!ns_game_in_box(g, p))
                continue;
            const uint64_t pi = ns_table_index(R->t, p);
            if (__atomic_load_n(&R->out[pi], __ATOMIC_RELAXED) != UNDEC)
                continue;
            ns_error e; /* written on a failure only */
            e.code = NS_OK;
            e.msg[0] = 0;
            cand_ctx c = {q, (size_t)k * sizeof *q, 0};
            if (ns_game_family_options(g, &g->fam[f], p, cand_emit, &c, &e) < 0) {
                fail_once(R, &e);
                return;
            }
            for (uint32_t h = 0; h < c.hits; h++)
                reach(R, pi, v, r, pb);
        }
    }
}

/* The distinct ray directions and their lines (first cells; `last` and
 * `hip` are set by retro_init_state). */
static ns_err setup_lines(retro *R, ns_error *err)
{
    const ns_game *g = R->g;
    R->famdir = malloc((size_t)(g->nfam ? g->nfam : 1) * sizeof *R->famdir);
    R->dir = calloc((size_t)(g->nfam ? g->nfam : 1), sizeof *R->dir);
    if (!R->famdir || !R->dir)
        return ns_error_set(err, NS_ENOMEM, "retro: out of memory");
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        R->famdir[f] = -1;
        if (fm->kind != NS_FAM_RAY)
            continue;
        int dn = 0;
        while (dn < R->ndir && memcmp(R->dir[dn].d, fm->dir, (size_t)g->k * sizeof *fm->dir) != 0)
            dn++;
        if (dn == R->ndir) {
            rdir *D = &R->dir[R->ndir++];
            rdir_setup(g, fm->dir, D);
            D->origin = malloc((D->nlines ? D->nlines : 1) * sizeof *D->origin);
            D->last = malloc((D->nlines ? D->nlines : 1) * sizeof *D->last);
            D->hip = malloc((D->nlines ? D->nlines : 1) * sizeof *D->hip);
            if (!D->origin || !D->last || !D->hip)
                return ns_error_set(err, NS_ENOMEM, "retro: out of memory for the lines of direction '%s' (%" PRIu64
                                    " lines)", fm->label, D->nlines);
            for (uint64_t l = 0; l < D->nlines; l++) {
                int64_t o[NS_MAX_DIM];
                line_origin(g, D, l, o);
                D->origin[l] = ns_table_index(R->t, o);
            }
        }
        R->famdir[f] = dn;
    }
    return NS_OK;
}

/* Has s an option along ray family fm (direction D) that is not a
 * processed N cell? Its options are the cells of the line through
 * c = s + e from c on, their positions: one that is not processed N
 * exists when the line's `last` is at or after c (`last` is the line's
 * last position when nothing is processed: with every cell a position,
 * any option will do). */
static int ray_has_option(const retro *R, const ns_family *fm, const rdir *D, const int64_t *s, int fresh)
{
    const ns_game *g = R->g;
    int64_t c[NS_MAX_DIM], lo, hi;
    for (int i = 0; i < g->k; i++)
        c[i] = s[i] + fm->base[i];
    segment(g, D->d, c, &lo, &hi);
    const int64_t from = lo > 0 ? lo : 0; /* the first option: c + from*d */
    if (hi < from)
        return 0;
    if (fresh && !g->valid)
        return 1;
    uint64_t l;
    int64_t tc;
    if (!locate(g, D, c, &l, &tc))
        return 0;
    return D->last[l] >= tc + from;
}

/* Is cell i processed by the time frontier `level` is processed: decided
 * with remoteness below level (rem: the remoteness, NULL when level is 0)? */
static int processed_before(const retro *R, uint64_t i, uint32_t level)
{
    const uint8_t v = R->out[i];
    return level > 0 && (v == NS_PN_P || v == NS_PN_N || v == NPEND) && R->rem[i] < level;
}

/* The rays' state for a table whose cells are decided up to a level: the
 * cells decided with remoteness below `level` count as processed (their
 * frontiers are done; the others, and those of remoteness level, are
 * not). out holds UNDEC, INVAL, NS_PN_P and NS_PN_N (or NPEND), R->rem
 * the remoteness of the decided cells (it may be NULL when level is 0,
 * nothing processed, as for a fresh search). Sets every line's `last`
 * (its last position that is not a processed N cell, -1: none) and `hip`
 * (its largest processed P cell, -1: none), marks the N cells not
 * processed as NPEND (processed ones as NS_PN_N), and adds to cnt[i] of
 * every undecided cell one count for each ray family with an option that
 * is not a processed N cell. cnt must already hold the counts of the
 * finite and general families (options not yet processed N); the queue
 * (the cells of remoteness `level`, the next frontier) is the caller's.
 * A resume calls it once after restoring out, rem and those counts, with
 * the level of the frontier to process next. */
static void retro_rebuild_lines(retro *R, uint32_t level, int threads)
{
    const ns_game *g = R->g;
    const int64_t n = (int64_t)R->t->ncells;
    NS_OMP_FOR(threads)
    for (int64_t i = 0; i < n; i++) {
        const uint8_t v = R->out[i];
        if (v == NS_PN_N || v == NPEND)
            R->out[i] = processed_before(R, (uint64_t)i, level) ? NS_PN_N : NPEND;
    }
    for (int dn = 0; dn < R->ndir; dn++) {
        rdir *D = &R->dir[dn];
        NS_OMP_FOR_DYNAMIC(threads)
        for (int64_t l = 0; l < (int64_t)D->nlines; l++) {
            int64_t o[NS_MAX_DIM], lo, hi;
            ns_table_coords(R->t, D->origin[l], o);
            segment(g, D->d, o, &lo, &hi);
            int64_t t = hi, h = -1;
            while (t >= 0) {
                const uint8_t v = R->out[D->origin[l] + (uint64_t)(t * D->sd)];
                if (v != INVAL && v != NS_PN_N)
                    break;
                t--;
            }
            for (int64_t u = t; u >= 0 && h < 0; u--) {
                const uint64_t i = D->origin[l] + (uint64_t)(u * D->sd);
                if (R->out[i] == NS_PN_P && processed_before(R, i, level))
                    h = u;
            }
            D->last[l] = t;
            D->hip[l] = h;
        }
    }
    /* one count for each ray that has an option not processed N */
    if (R->ndir) {
        const uint64_t nc = R->t->ncells;
        const int64_t blocks = (int64_t)((nc + CELL_BLOCK - 1) / CELL_BLOCK);
        NS_OMP_FOR_DYNAMIC1(threads)
        for (int64_t bl = 0; bl < blocks; bl++) {
            const uint64_t lo = (uint64_t)bl * CELL_BLOCK, hi = lo + CELL_BLOCK < nc ? lo + CELL_BLOCK : nc;
            int64_t s[NS_MAX_DIM];
            ns_table_coords(R->t, lo, s);
            for (uint64_t i = lo; i < hi; i++, next_cell(R->t, s)) {
                if (R->out[i] != UNDEC)
                    continue;
                for (int f = 0; f < g->nfam; f++)
                    if (R->famdir[f] >= 0)
                        R->cnt[i] += ray_has_option(R, &g->fam[f], &R->dir[R->famdir[f]], s, level == 0);
            }
        }
    }
}

/* Counts, lines and frontier 0 for a table where no position is decided
 * yet (out: UNDEC or INVAL, cnt: the options of finite and general
 * families): the lines as retro_rebuild_lines sets them with nothing
 * processed, the positions without options decided. */
static void retro_init_state(retro *R, int threads)
{
    const ns_game *g = R->g;
    retro_rebuild_lines(R, 0, threads);
    /* frontier 0: the positions without options */
    const uint8_t terminal = g->play == NS_PLAY_MISERE ? NS_PN_N : NS_PN_P;
    const int64_t n = (int64_t)R->t->ncells;
    NS_PRAGMA(omp parallel num_threads(threads))
    {
        pushbuf pb = {.n = 0};
        NS_PRAGMA(omp for schedule(static))
        for (int64_t i = 0; i < n; i++)
            if (R->out[i] == UNDEC && R->cnt[i] == 0)
                decide(R, (uint64_t)i, terminal, 0, &pb);
        if (pb.n)
            push_block(R, pb.b, pb.n);
    }
}

static void retro_free(retro *R)
{
    free(R->cnt);
    free(R->queue);
    free(R->roff);
    free(R->rpred);
    for (int dn = 0; R->dir && dn < R->ndir; dn++) {
        free(R->dir[dn].origin);
        free(R->dir[dn].last);
        free(R->dir[dn].hip);
    }
    free(R->dir);
    free(R->famdir);
    free(R->fmode);
    free(R->late);
    free(R->cand);
    free(R->ncand);
}

static int retro_applies(const ns_game *g, const ns_engine_opts *o, char *why, size_t len)
{
    if (!o->pn_only) {
        if (why)
            snprintf(why, len, "fills P/N/draw tables (generalized Sprague-Grundy values come beside them: ns_engine_opts.gsg)");
        return 0;
    }
    if (o->tile_sink || o->rows_sink) {
        if (why)
            snprintf(why, len, "cannot stream (it keeps the whole table in memory)");
        return 0;
    }
    if (ns_game_max_options(g) >= UINT32_MAX) {
        if (why)
            snprintf(why, len, "a position may have 2^32 options or more (its counters are 32-bit)");
        return 0;
    }
    return 1;
}

static uint64_t retro_memory(const ns_game *g, const ns_engine_plan *plan)
{
    int indexed = 0;
    uint64_t lines = 0;
    for (int f = 0; f < g->nfam; f++) {
        indexed |= is_indexed(&g->fam[f]);
        if (g->fam[f].kind == NS_FAM_RAY) { /* an upper bound: directions shared by families are counted once each */
            rdir D;
            rdir_setup(g, g->fam[f].dir, &D);
            lines += D.nlines;
        }
    }
    /* counts and queue; lines; the reverse index's offsets (its entries,
     * one per option of the general families, are counted at run time) */
    return plan->cells * (sizeof(uint32_t) + sizeof(uint64_t)) + lines * 3 * sizeof(uint64_t) +
           (indexed ? (plan->cells + 1) * sizeof(uint64_t) : 0);
}

/* The arrays, the modes of the families, the lines (their first cells),
 * the counts of the finite and general families and the reverse index,
 * every position UNDEC in out and the others INVAL, rem (if any) NONE;
 * nothing decided yet (retro_init_state, or a resume's restore and
 * retro_rebuild_lines, comes next). R holds g, t, out, rem and err. */
static ns_err retro_setup(retro *R, const ns_engine_plan *plan, int threads)
{
    const ns_game *g = R->g;
    const uint64_t n = R->t->ncells;
    ns_err rc = NS_OK;
    const size_t nf = (size_t)(g->nfam ? g->nfam : 1);
    R->cnt = malloc(n * sizeof *R->cnt);
    if (!R->queue) /* a resume allocates it first: it holds the checkpoint's cells meanwhile */
        R->queue = malloc(n * sizeof *R->queue);
    R->fmode = calloc(nf, sizeof *R->fmode);
    R->late = calloc(nf, sizeof *R->late);
    R->ncand = calloc(nf, sizeof *R->ncand);
    R->cand = calloc(nf * NS_MAX_CAND * (size_t)g->k, sizeof *R->cand);
    if (!R->cnt || !R->queue || !R->fmode || !R->late || !R->ncand || !R->cand) {
        rc = ns_error_set(R->err, NS_ENOMEM, "retro: out of memory for the counters and the queue (%.2f GiB)",
                          (double)retro_memory(g, plan) / (1 << 30));
        return rc;
    }
    choose_modes(R);
    if (R->has_index && !(R->roff = calloc(n + 1, sizeof *R->roff))) {
        rc = ns_error_set(R->err, NS_ENOMEM, "retro: out of memory for the reverse index (%.2f GiB)",
                          (double)(n + 1) * 8 / (1 << 30));
        return rc;
    }
    rc = setup_lines(R, R->err);
    if (rc)
        return rc;
    if (R->rem)
        for (uint64_t i = 0; i < n; i++)
            R->rem[i] = NS_REMOTE_NONE;

    /* options of finite and general families per cell (and in-degrees of the reverse index) */
    scan_cells(R, threads, 1);
    if (R->failed) {
        rc = R->err ? R->err->code : NS_EGAME;
        return rc;
    }
    int late = 0;
    for (int f = 0; f < g->nfam; f++)
        if (R->late[f]) {
            R->fmode[f] = FM_INDEX;
            late = 1;
        }
    if (late) {
        if (!R->roff && !(R->roff = calloc(n + 1, sizeof *R->roff))) {
            rc = ns_error_set(R->err, NS_ENOMEM, "retro: out of memory for the reverse index (%.2f GiB)",
                              (double)(n + 1) * 8 / (1 << 30));
            return rc;
        }
        R->has_index = 1;
        scan_cells(R, threads, 3);
        if (R->failed) {
            rc = R->err ? R->err->code : NS_EGAME;
            return rc;
        }
    }
    if (R->has_index) {
        uint64_t sum = 0; /* inclusive prefix sums: roff[i] = end of list i */
        for (uint64_t i = 0; i < n; i++) {
            sum += R->roff[i];
            R->roff[i] = sum;
        }
        R->roff[n] = sum;
        R->rpred = malloc((sum ? sum : 1) * sizeof *R->rpred);
        if (!R->rpred) {
            rc = ns_error_set(R->err, NS_ENOMEM, "retro: out of memory for the reverse index (%" PRIu64 " moves, %.2f GiB)",
                              sum, (double)sum * 8 / (1 << 30));
            return rc;
        }
        scan_cells(R, threads, 2); /* roff[i] ends at the start of list i */
        if (R->failed) {
            rc = R->err ? R->err->code : NS_EGAME;
            return rc;
        }
    }
    return NS_OK;
}

/* Show the N cells of the queue's [from, to) (one frontier, not processed:
 * NPEND) as a checkpoint holds them, NS_PN_N (back: 0), or mark them NPEND
 * again (back: 1). */
static void show_frontier(retro *R, uint64_t from, uint64_t to, int back, int threads)
{
    const uint8_t was = back ? NS_PN_N : NPEND, now = back ? NPEND : NS_PN_N;
    NS_OMP_FOR(threads)
    for (int64_t j = (int64_t)from; j < (int64_t)to; j++)
        if (R->out[R->queue[j]] == was)
            R->out[R->queue[j]] = now;
}

/* The frontiers from r0 on: the queue holds frontier r0 at [0, qtail)
 * (the cells of remoteness r0, decided, not processed); the state is
 * that of retro_init_state or retro_rebuild at level r0 (R->rem holds the
 * remoteness of the cells decided before, when r0 > 0). Progress counts
 * the positions decided before r0 as done; o->checkpoint comes between
 * frontiers r and r + 1 with units_done r + 1 (none after the last). Ends
 * with the undecided positions made draws. */
static ns_err retro_search(retro *R, uint32_t r0, int threads, const ns_engine_opts *o)
{
    const uint64_t n = R->t->ncells;
    ns_err rc = NS_OK;
    uint64_t head = 0, positions = 0, before = 0; /* before: processed in frontiers before r0 */
    for (uint64_t i = 0; i < n; i++) {
        positions += R->out[i] != INVAL;
        before += r0 > 0 && R->out[i] != INVAL && R->out[i] != UNDEC && R->rem[i] < r0;
    }
    for (uint32_t r = r0; head < R->qtail; r++) {
        const uint64_t end = R->qtail;
        if (r == UINT32_MAX - 1) {
            rc = ns_error_set(R->err, NS_ERANGE, "retro: remoteness above 2^32 - 2");
            return rc;
        }
        NS_PRAGMA(omp parallel num_threads(threads))
        {
            pushbuf pb = {.n = 0};
            NS_PRAGMA(omp for schedule(dynamic, 64))
            for (int64_t j = (int64_t)head; j < (int64_t)end; j++) {
                const uint64_t q = R->queue[j];
                uint8_t v = __atomic_load_n(&R->out[q], __ATOMIC_RELAXED);
                if (v == NPEND) {
                    v = NS_PN_N;
                    __atomic_store_n(&R->out[q], v, __ATOMIC_SEQ_CST);
                }
                int64_t s[NS_MAX_DIM];
                ns_table_coords(R->t, q, s);
                reach_rays(R, q, s, v, r, &pb);
                reach_finite(R, s, v, r, &pb);
                reach_cand(R, s, v, r, &pb);
                if (R->has_index)
                    for (uint64_t a = R->roff[q]; a < R->roff[q + 1]; a++)
                        reach(R, R->rpred[a], v, r, &pb);
            }
            if (pb.n)
                push_block(R, pb.b, pb.n);
        }
        if (R->failed) {
            rc = R->err ? R->err->code : NS_EGAME;
            return rc;
        }
        head = end;
        if (o->progress &&
            o->progress(o->progress_user, positions ? (double)(before + head) / (double)positions : 1.0)) {
            rc = ns_error_set(R->err, NS_EINTR, "interrupted");
            return rc;
        }
        /* between frontiers r and r + 1 (none when r was the last) */
        if (o->checkpoint && head < R->qtail) {
            show_frontier(R, head, R->qtail, 0, threads);
            if (o->checkpoint(o->checkpoint_user, (uint64_t)r + 1, positions)) {
                rc = ns_error_set(R->err, NS_EINTR, "interrupted");
                return rc;
            }
            show_frontier(R, head, R->qtail, 1, threads);
        }
    }
    /* the rest are draws */
    NS_OMP_FOR(threads)
    for (int64_t i = 0; i < (int64_t)n; i++)
        if (R->out[i] == UNDEC)
            R->out[i] = NS_PN_DRAW;

    return NS_OK;
}

/* Keep the least index of a cell a checkpoint cannot hold. */
static void note_bad(int64_t *bad, int64_t i)
{
    int64_t b = __atomic_load_n(bad, __ATOMIC_RELAXED);
    while ((b < 0 || i < b) && !__atomic_compare_exchange_n(bad, &b, i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

typedef struct undo_ctx {
    const retro *R;
    uint32_t level;
    uint32_t n;             /* options already processed as N */
} undo_ctx;

static int undo_emit(void *u, const int64_t *o)
{
    undo_ctx *c = u;
    const uint64_t j = ns_table_index(c->R->t, o);
    c->n += c->R->out[j] == NS_PN_N && c->R->rem[j] < c->level;
    return 0;
}

/* Resume (see ns_engine.h): the state at the boundary between frontiers
 * level - 1 and level, rebuilt from a checkpoint of it. R holds g, t, out,
 * rem and err; out holds the checkpoint's cells (P, N, UNDEC, INVAL) and
 * rem its remoteness: the positions of remoteness <= level are decided,
 * the others UNDEC. retro_setup runs first (the checkpoint's cells wait in
 * the queue's memory meanwhile, the remoteness untouched), then the
 * decided cells come back; each undecided cell's count loses its options
 * of finite and general families already processed as N (those of
 * remoteness < level: no P option of remoteness < level can exist, it
 * would have decided the cell; rays are counted per line, not per
 * option); retro_rebuild_lines sets the lines, adds the rays' counts and
 * marks the N cells not yet processed NPEND; the queue gets frontier
 * level (the cells of remoteness level). The checkpoint is checked
 * against the game on the way: NS_EFORMAT, naming the first cell, when
 * it cannot be a state of this solve (an undecided position left with
 * nothing to wait for would have been decided P). */
static ns_err retro_rebuild(retro *R, const ns_engine_plan *plan, int threads, uint32_t level)
{
    const int64_t n = (int64_t)R->t->ncells;
    uint32_t *rem = R->rem;
    if (!rem)
        return ns_error_set(R->err, NS_EINVAL, "retro: a resume needs the checkpoint's remoteness (opts.remoteness)");
    R->queue = malloc((size_t)n * sizeof *R->queue);
    if (!R->queue)
        return ns_error_set(R->err, NS_ENOMEM, "retro: out of memory for the queue (%.2f GiB)",
                            (double)n * 8 / (1 << 30));
    uint8_t *saved = (uint8_t *)R->queue; /* n bytes of the queue's 8n, unused until the end */
    memcpy(saved, R->out, (size_t)n);
    R->rem = NULL; /* setup would clear it */
    ns_err rc = retro_setup(R, plan, threads);
    R->rem = rem;
    if (rc)
        return rc;
    int64_t bad = -1; /* the first cell the checkpoint cannot hold (the least index) */
    NS_OMP_FOR(threads)
    for (int64_t i = 0; i < n; i++) {
        const uint8_t v = saved[i];
        const uint32_t r = rem[i];
        int ok;
        if (R->out[i] == INVAL)
            ok = v == INVAL && r == NS_REMOTE_NONE;
        else if (v == UNDEC)
            ok = r == NS_REMOTE_NONE;
        else
            ok = (v == NS_PN_P || v == NS_PN_N) && r <= level;
        if (!ok)
            note_bad(&bad, i);
        else
            R->out[i] = v;
    }
    /* each undecided cell's count loses its options of finite and general
     * families processed as N */
    NS_OMP_FOR_DYNAMIC(threads)
    for (int64_t i = 0; i < n; i++) {
        if (__atomic_load_n(&bad, __ATOMIC_RELAXED) >= 0 || R->out[i] != UNDEC ||
            __atomic_load_n(&R->failed, __ATOMIC_RELAXED))
            continue;
        int64_t s[NS_MAX_DIM];
        ns_error e = {0};
        undo_ctx c = {R, level, 0};
        ns_table_coords(R->t, (uint64_t)i, s);
        for (int f = 0; f < R->g->nfam; f++)
            if (R->fmode[f] != FM_RAY && fam_options(R->g, &R->g->fam[f], s, undo_emit, &c, &e) < 0) {
                fail_once(R, &e);
                break;
            }
        if (c.n > R->cnt[i])
            note_bad(&bad, i);
        else
            R->cnt[i] -= c.n;
    }
    if (R->failed)
        return R->err ? R->err->code : NS_EGAME;
    if (bad < 0) {
        /* the lines, the rays' counts, NPEND; then a count at zero would
         * have been decided P */
        retro_rebuild_lines(R, level, threads);
        NS_OMP_FOR(threads)
        for (int64_t i = 0; i < n; i++)
            if (R->out[i] == UNDEC && R->cnt[i] == 0)
                note_bad(&bad, i);
    }
    if (bad >= 0) {
        int64_t s[NS_MAX_DIM];
        char where[256];
        size_t used = 0;
        ns_table_coords(R->t, (uint64_t)bad, s);
        for (int d = 0; d < R->t->k && used < sizeof where; d++)
            used += (size_t)snprintf(where + used, sizeof where - used, "%s%" PRId64, d ? ", " : "", s[d]);
        char rs[24] = "none";
        if (rem[bad] != NS_REMOTE_NONE)
            snprintf(rs, sizeof rs, "%" PRIu32, rem[bad]);
        return ns_error_set(R->err, NS_EFORMAT, "retro: the checkpoint is no state of this game after %" PRIu32
                            " frontiers: cell (%s) holds code %u with remoteness %s", level, where,
                            (unsigned)saved[bad], rs);
    }
    /* frontier level: the decided cells of remoteness level (saved, in the
     * queue's memory, is no longer needed) */
    R->qtail = 0;
    NS_PRAGMA(omp parallel num_threads(threads))
    {
        pushbuf pb = {.n = 0};
        NS_PRAGMA(omp for schedule(static))
        for (int64_t i = 0; i < n; i++)
            if (R->out[i] != UNDEC && R->out[i] != INVAL && rem[i] == level) {
                pb.b[pb.n++] = (uint64_t)i;
                if (pb.n == PUSH_BLOCK) {
                    push_block(R, pb.b, pb.n);
                    pb.n = 0;
                }
            }
        if (pb.n)
            push_block(R, pb.b, pb.n);
    }
    return NS_OK;
}

/* A solve from scratch (units_done 0) or from a checkpoint after
 * units_done frontiers. Units are frontiers (0, 1, ...): after u of them,
 * the positions of remoteness <= u are decided. Their number is not known
 * in advance; units_total is the number of positions, a bound on it (every
 * frontier holds a position). The generalized Sprague-Grundy values, when
 * asked, come after the last frontier either way. */
static ns_err retro_solve(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                          uint64_t units_done, ns_error *err)
{
    if (t->elem != 1)
        return ns_error_set(err, NS_EINTERNAL, "retro: expected a P/N table of 1-byte cells");
    if (units_done >= UINT32_MAX - 1)
        return ns_error_set(err, NS_EFORMAT, "retro: a checkpoint after %" PRIu64 " frontiers (remoteness is 32-bit)",
                            units_done);
    const int threads = o->threads > 0 ? o->threads : ns_omp_max_threads();
    retro R = {.g = g, .t = t, .out = t->data, .rem = o->remoteness, .err = err};
    ns_err rc;
    if (units_done) {
        rc = retro_rebuild(&R, plan, threads, (uint32_t)units_done);
    } else {
        rc = retro_setup(&R, plan, threads);
        if (!rc)
            retro_init_state(&R, threads);
    }
    if (!rc)
        rc = retro_search(&R, (uint32_t)units_done, threads, o);
    retro_free(&R);
    /* generalized Sprague-Grundy values when asked (ns_retro_gsg.c) */
    if (!rc && o->gsg)
        rc = ns_gsg_solve_for(g, t, threads, o->gsg, err);
    return rc;
}

static ns_err retro_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                        ns_error *err)
{
    return retro_solve(g, t, plan, o, 0, err);
}

static ns_err retro_resume(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                           uint64_t units_done, ns_error *err)
{
    return retro_solve(g, t, plan, o, units_done, err);
}

const ns_engine ns_engine_retro = {
    .name = "retro",
    .what = "retrograde analysis: loopy games to P / N / draw with remoteness, frontiers in parallel",
    .kinds = NS_ENGINE_PN,
    .applies = retro_applies,
    .memory = retro_memory,
    .run = retro_run,
    .resume = retro_resume,
    .stream_unit = NULL,
    .loopy = 1,
};
