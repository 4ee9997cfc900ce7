/* ns_seq_mex.h - internal to the sequence engine (ns_sequence.c): the
 * plain mex's split kernel, marking x ^ G(a) ^ G(m - a) for a run of
 * splits (a, m - a) into a byte map (here so that the tests check the
 * kernels directly).
 *
 * Why a byte map. The plain mex marks one value a split. Set as a bit
 * (seen[v >> 6] |= 1 << (v & 63)) each mark is a read-modify-write of one
 * of a few words, and every one waits for the store before it: the
 * sequences with small values (one word) run one split per store-to-load
 * latency. A byte store (map[v] = 0xff) waits for nothing, and the map is
 * folded into the heap's bitset once at the end (ns_seq_map_fold: 64 bytes
 * a word through a byte mask).
 *
 * The vector kernel (AVX2) takes 32 (two-byte cells: 16, four-byte: 8)
 * splits a step: G(a .. a+31) from one load, G(m-a-31 .. m-a) from
 * another, reversed in the register, both XORed with x, taken out of the
 * register 64 bits at a time (two operations an extraction of one value)
 * and marked value by value; values below 128 (one or two words, the periodic
 * codes' usual few values) skip the map and gather their bits in vector
 * registers, one per byte of the bitset. Otherwise (NS_SEQ_MEX_SCALAR, no
 * AVX2) one split at a time into the same map; NS_SEQ_MEX_BITS is the
 * engine's former bit-per-split kernel, kept as the benchmark's baseline
 * (ns_engine_opts.seq_mex). The values are the same on every path. */
#ifndef NS_SEQ_MEX_H
#define NS_SEQ_MEX_H

#include <stdint.h>

#include "engine/ns_engine.h"

/* Does the vector kernel run for how (ns_engine_opts.seq_mex) on this
 * processor (AVX2)? */
int ns_seq_mex_vector(ns_seq_mex how);

/* Mark the values x ^ G(a) ^ G(m - a) for a0 <= a <= a1 (none when
 * a1 < a0), g the sequence of elem-byte cells (1, 2 or 4), every value
 * read below 64 w: into the bitset s (w words) or as map[v] = 0xff into
 * the map (64 w bytes), which the caller then folds into s
 * (ns_seq_map_fold); each value goes to one or the other. vec: the vector
 * kernels may run (ns_seq_mex_vector; cells of one or two bytes only).
 * Safe from many threads on different maps and bitsets. */
void ns_seq_pairs_mark(const void *g, int elem, uint32_t x, int64_t m, int64_t a0, int64_t a1, uint8_t *map,
                       uint64_t *s, uint64_t w, int vec);

/* s[q] |= the bits of map[64q .. 64q+63] (a byte marks its bit when its
 * top bit is set) for q < w, then clear the 64 w bytes of the map. */
void ns_seq_map_fold(uint8_t *map, uint64_t *s, uint64_t w);

#endif
