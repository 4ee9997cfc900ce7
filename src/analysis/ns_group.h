/* ns_group.h - grouping of identical tables (the octal census, sweeps):
 * tables come one at a time in variant order, and each is answered with the
 * index of the first variant whose table is identical (its own index when
 * none is).
 *
 * Identical: same number of piles, same bounds, same kind (Grundy values or
 * P/N flags) and the same value in every cell (cell widths may differ). A
 * 64-bit hash of the values picks the candidates, which are then compared
 * value by value, so a hash collision never merges two groups.
 *
 * Memory: one copy per group (its first table, in the narrowest cells that
 * hold it); a table that joins a group is not kept. */
#ifndef NS_GROUP_H
#define NS_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_table.h"

typedef struct ns_group ns_group;

/* An empty grouper (NULL when memory is short); free with ns_group_free. */
ns_group *ns_group_new(void);
void ns_group_free(ns_group *gr);

/* Group table t (borrowed: copied when it opens a group) of variant i;
 * variants come in increasing order (i larger than every earlier one, else
 * NS_EINVAL). *first: the first variant with an identical table, i when it
 * is the first of its kind. */
ns_err ns_group_add(ns_group *gr, uint64_t i, const ns_table *t, uint64_t *first, ns_error *err);

/* Groups so far (distinct tables among the tables added). */
size_t ns_group_count(const ns_group *gr);

/* The hash that picks the candidates: FNV-1a over the bounds and the
 * values as 32-bit numbers (invalid cells as UINT32_MAX), so it does not
 * depend on the cell width. */
uint64_t ns_group_hash(const ns_table *t);

#endif
