/* ns_table.h - a k-dimensional table of Grundy values or P/N flags.
 *
 * Row-major (the last coordinate varies fastest). Each cell holds an
 * unsigned value of elem bytes (1, 2 or 4). In a P/N table (pn_only) the
 * values are 0 (P) and 1 (N), and 3 (NS_PN_DRAW) for a draw of a loopy
 * game. The type's largest value, NS_INVALID for
 * that width, marks cells outside the game's domain. */
#ifndef NS_TABLE_H
#define NS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"

typedef struct ns_table {
    int k;
    int64_t bounds[NS_MAX_DIM];
    int64_t stride[NS_MAX_DIM]; /* in cells */
    uint64_t ncells;
    int pn_only;
    int elem;                   /* bytes per cell: 1, 2 or 4 */
    void *data;                 /* ncells * elem bytes, owned */
    size_t mapped;              /* bytes mapped with mmap (large tables), else 0 */
} ns_table;

/* P/N flags as stored in the /pn dataset; NS_PN_DRAW only in the table
 * of a loopy game (ns_game.loopy), whose P/N table holds 3 for a draw */
enum { NS_PN_P = 0, NS_PN_N = 1, NS_PN_INVALID = 2, NS_PN_DRAW = 3 };

/* Allocate a zeroed table. elem must be 1, 2 or 4. Returns NULL and fills
 * err when the size overflows or memory is short. Free with ns_table_free. */
ns_table *ns_table_new(int k, const int64_t *bounds, int elem, int pn_only, ns_error *err);
void ns_table_free(ns_table *t);

/* Bytes the data of such a table would take (0 on overflow). */
uint64_t ns_table_bytes(int k, const int64_t *bounds, int elem);

/* Smallest cell width (1, 2, 4) that holds values 0..maxval plus the
 * NS_INVALID marker; 0 if none does. */
int ns_table_elem_for(uint64_t maxval);

/* Widen t's cells to elem bytes (2 or 4, more than t->elem), in place from
 * the end: cells 0..used-1 keep their values, the others become 0 (a
 * solve that fills the table in order widens it when a value needs more
 * room: tables start at one byte a cell). An invalid marker among the
 * first used cells becomes the new width's marker. On failure (out of
 * memory, bad width) t is unchanged. */
ns_err ns_table_widen(ns_table *t, int elem, uint64_t used, ns_error *err);

static inline uint32_t ns_table_invalid(const ns_table *t)
{
    return t->elem == 1 ? 0xFFu : t->elem == 2 ? 0xFFFFu : 0xFFFFFFFFu;
}

static inline uint32_t ns_table_get(const ns_table *t, uint64_t i)
{
    switch (t->elem) {
    case 1: return ((const uint8_t *)t->data)[i];
    case 2: return ((const uint16_t *)t->data)[i];
    default: return ((const uint32_t *)t->data)[i];
    }
}

static inline void ns_table_set(ns_table *t, uint64_t i, uint32_t v)
{
    switch (t->elem) {
    case 1: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
    case 2: ((uint16_t *)t->data)[i] = (uint16_t)v; break;
    default: ((uint32_t *)t->data)[i] = v; break;
    }
}

static inline uint64_t ns_table_index(const ns_table *t, const int64_t *s)
{
    uint64_t i = 0;
    for (int d = 0; d < t->k; d++)
        i += (uint64_t)s[d] * (uint64_t)t->stride[d];
    return i;
}

static inline int ns_table_contains(const ns_table *t, const int64_t *s)
{
    for (int d = 0; d < t->k; d++)
        if (s[d] < 0 || s[d] >= t->bounds[d])
            return 0;
    return 1;
}

void ns_table_coords(const ns_table *t, uint64_t i, int64_t *s);

/* P/N flag of cell i (NS_PN_P, NS_PN_N or NS_PN_INVALID). */
static inline int ns_table_pn(const ns_table *t, uint64_t i)
{
    uint32_t v = ns_table_get(t, i);
    return v == ns_table_invalid(t) ? NS_PN_INVALID : v == 0 ? NS_PN_P : t->pn_only && v == NS_PN_DRAW ? NS_PN_DRAW : NS_PN_N;
}

/* Summary: P-position count, valid-cell count, largest value (over valid
 * cells). hist (may be NULL) receives counts of values 0..nhist-1. */
typedef struct ns_table_stats {
    uint64_t n_p;
    uint64_t n_valid;
    uint32_t max_value;
} ns_table_stats;

void ns_table_summarize(const ns_table *t, ns_table_stats *st, uint64_t *hist, size_t nhist);

/* The same numbers (no histogram) for the cells lo..hi-1 only, on the
 * calling thread: a typed loop the compiler vectorizes. ns_table_summarize
 * without hist runs it on OpenMP threads over ranges of the table. */
void ns_table_summarize_range(const ns_table *t, uint64_t lo, uint64_t hi, ns_table_stats *st);

/* A table of a symmetric game (ns_game.h: nsym) stores the cells sorted
 * along piles sym[0 .. nsym) only; the others hold the invalid marker.
 * Give every cell the value of its sorted image (the mirrored cells), so
 * that the table is the whole game's. Sorted cells are left as they are. */
void ns_sym_fill(ns_table *t, int nsym, const int *sym);

/* Cells with equal data (same shape, kind and values; widths may differ). */
int ns_table_equal(const ns_table *a, const ns_table *b);

/* Value of position s of g from the values of its options in t, by
 * explicit enumeration (ns_game_foreach_option) and a mex: the independent
 * reference of `verify` and the tests (no engine involved). *out gets the
 * value (0/1 for a P/N table; the invalid marker for a non-position). */
ns_err ns_naive_cell(const ns_game *g, const ns_table *t, const int64_t *s, uint32_t *out, ns_error *err);

/* The same for a loopy game's P/N/draw table t with its remoteness rem
 * (t->ncells values, UINT32_MAX for draws and non-positions): what the
 * definitions give position s from the stored values of its options.
 * No option: P (misere: N), remoteness 0; some option P: N, 1 + the least
 * remoteness of the P options; every option N: P, 1 + the largest; else
 * a draw (NS_PN_DRAW), remoteness UINT32_MAX. A table whose every cell
 * agrees is the game's (the remoteness makes the P and N cells well
 * founded, and then a cell marked D cannot be P or N). */
ns_err ns_naive_loopy_cell(const ns_game *g, const ns_table *t, const uint32_t *rem, const int64_t *s,
                           uint32_t *out, uint32_t *out_rem, ns_error *err);

#endif
