/* ns_deflate.h - a fast zlib stream (RFC 1950 around RFC 1951 deflate)
 * writer for the byte planes of the chunk filter: a plane is either stored
 * (stored blocks, copy speed) or coded as runs of its previous byte
 * (deflate matches at distance 1, lengths 3..258) and literals, in blocks
 * of ~16K tokens with a dynamic Huffman code each (a block is stored
 * where that is not larger). These are the tokens zlib's Z_RLE strategy
 * finds, without zlib's general match machinery and a run at a time
 * rather than a byte at a time: several times faster. Any inflate
 * decodes the output. */
#ifndef NS_DEFLATE_H
#define NS_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ns_deflate_seg {
    const uint8_t *p;   /* borrowed */
    size_t n;
    int store;          /* 1: stored blocks; 0: runs + Huffman (stored when that is not smaller) */
} ns_deflate_seg;

typedef struct ns_deflate ns_deflate;   /* opaque: a block's tokens, the tables of the coder */

/* A coder for ns_deflate_zlib, one per thread (~100 KiB). NULL when out
 * of memory. Owned by the caller: ns_deflate_free. */
ns_deflate *ns_deflate_new(void);
void ns_deflate_free(ns_deflate *d);

/* Room a stream of n input bytes may need (all stored, the wrapper, a
 * Huffman header per segment). */
size_t ns_deflate_bound(size_t n, int nseg);

/* Write one zlib stream of the segments' bytes, in order, into out (cap
 * bytes, at least ns_deflate_bound), with the coder d (its scratch
 * changes; the output does not depend on its earlier use). Returns the
 * stream's size, 0 when cap is too small. Deterministic. */
size_t ns_deflate_zlib(ns_deflate *d, const ns_deflate_seg *seg, int nseg, uint8_t *out, size_t cap);

/* Lengths (0..maxbits) of an optimal prefix code for the counts
 * freq[0..n) with no length over maxbits (n <= 286, 2 <= maxbits <= 15,
 * 2^maxbits >= the symbols used), as the blocks use it: 0 for a count of
 * 0; the Huffman code where it fits, else package-merge's; the Kraft sum
 * exactly 1 (with one symbol used, it and another get length 1). */
void ns_deflate_code_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *len);

/* Adler-32 of n bytes continuing from adler (1 for a start), as zlib's
 * adler32(); vectorized (AVX2) where the processor has it. */
uint32_t ns_adler32(uint32_t adler, const void *buf, size_t n);

#endif
