/* ns_seq_split3.h - internal to the sequence engine (ns_sequence.c): the
 * values of the moves of a hexadecimal code that leave three heaps, in
 * O(N) bitset operations per heap instead of the O(N^2) of the plain mex
 * over all three-part splits.
 *
 * For each r the set S2(r) = { G(b) ^ G(r - b) : 1 <= b < r } of the
 * values of r split into two non-empty heaps is kept as a bitset (words
 * for values below 2^bitlen of the largest value when it is built). The
 * values of m split into three non-empty heaps are then the union over
 * 1 <= a <= m/3 of G(a) ^ S2(m - a) (every split has a smallest part
 * a <= m/3, and the other two parts are a split of m - a): an XOR-translate
 * of a bitset, words permuted by the high bits of G(a), the bits of each
 * word by its low 6 bits. A heap of m costs m/3 translates, O(N^2 W) for
 * the whole sequence (W words a set) rather than O(N^3).
 *
 * S2(r) needs G(1 .. r-1): the engine adds it (ns_seq_split3_add) once
 * G(r - 1) is known. The store is capped (NS_SEQ_SPLIT3_MAX_BYTES); an r
 * whose S2 was not stored (the cap reached) is marked pair by pair as in the plain mex, so
 * the values never depend on the cap. */
#ifndef NS_SEQ_SPLIT3_H
#define NS_SEQ_SPLIT3_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_table.h"

#define NS_SEQ_SPLIT3_MAX_BYTES ((uint64_t)512 << 20)

typedef struct ns_seq_split3 ns_seq_split3;

/* A store for S2(0 .. n-1) of the sequence in t (borrowed; its values
 * are read as they are filled) of at most max_bytes (0: the default cap).
 * NULL with err set on no memory. */
ns_seq_split3 *ns_seq_split3_new(const ns_table *t, int64_t n, uint64_t max_bytes, ns_error *err);
void ns_seq_split3_free(ns_seq_split3 *s);

/* Build S2(r) from G(1 .. r-1), values up to maxv; r in increasing order,
 * each once (r < 2: empty). Over the cap, S2(r) is not stored. */
void ns_seq_split3_add(ns_seq_split3 *s, int64_t r, uint32_t maxv);

/* Mark in seen (words enough for every value of G(0 .. m-1) XOR-ed
 * three times) the values of m split into three non-empty heaps: those of
 * G(a) ^ S2(m - a) with m - a < b0 (late == 0) or m - a >= b0 (late == 1),
 * 1 <= a <= m/3. Reads S2 and G only: safe from many threads at once. */
void ns_seq_split3_mark(const ns_seq_split3 *s, int64_t m, int64_t b0, int late, uint64_t *seen);

#endif
