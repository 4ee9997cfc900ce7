/* ns_chunkfilter.h - HDF5's filter pipeline shuffle + deflate + fletcher32
 * applied to one chunk in plain C (no HDF5 here), so that the HDF5 layer can
 * filter chunks on several threads and store them with direct chunk writes.
 *
 * A filtered chunk is what HDF5 1.10 itself stores for a dataset created
 * with H5Pset_shuffle, H5Pset_deflate and H5Pset_fletcher32 (in that order)
 * and every filter applied (filter mask 0):
 *   shuffle    element size e > 1 and at least 2 elements: byte b of every
 *              element first (plane b = bytes b of elements 0..n-1), planes
 *              0..e-1 in order, then the nbytes % e bytes left over as they
 *              are; otherwise the bytes unchanged
 *   deflate    one zlib stream (RFC 1950) of the shuffled bytes
 *   fletcher32 the checksum of the zlib stream (see ns_fletcher32) appended
 *              as 4 bytes, least significant first
 * HDF5, h5py and h5dump decode it with their built-in filters. */
#ifndef NS_CHUNKFILTER_H
#define NS_CHUNKFILTER_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

typedef enum ns_deflate_mode {
    /* one stream at the given level, zlib's default strategy: byte for
     * byte what HDF5's own deflate filter writes */
    NS_DEFLATE_PLAIN = 0,
    /* each shuffled byte plane on its own inside the one stream, written by
     * ns_deflate (not zlib; the level is not used): a plane whose bytes
     * carry more than NS_CHUNKFILTER_STORE_BITS bits of collision entropy
     * per byte (estimated from a sample of them, in integers) goes into
     * stored (uncompressed) deflate blocks, the others are
     * coded as runs of the previous byte + literals with a Huffman code of
     * their own (what zlib's Z_RLE finds, several times faster). The low
     * byte of Grundy values is nearly random and coding only costs time on
     * it; the high byte shrinks 3-5x. */
    NS_DEFLATE_PLANES = 1
} ns_deflate_mode;

#define NS_CHUNKFILTER_STORE_BITS 7

typedef struct ns_chunkfilter ns_chunkfilter;   /* opaque: a zlib stream and scratch */

/* A filter for chunks of at most max_bytes raw bytes, deflate level 1..9.
 * One per thread. Returns NULL and fills err on failure. Owned by the
 * caller: ns_chunkfilter_free. */
ns_chunkfilter *ns_chunkfilter_new(size_t max_bytes, int level, ns_deflate_mode mode, ns_error *err);
void ns_chunkfilter_free(ns_chunkfilter *f);

/* Capacity a filtered chunk of nbytes raw bytes may need. */
size_t ns_chunkfilter_bound(size_t nbytes);

/* Filter nbytes (<= max_bytes) raw bytes of elements of elem bytes from raw
 * into out (cap bytes, at least ns_chunkfilter_bound(nbytes)); *out_len gets
 * the filtered size. raw and out are borrowed. Deterministic: the output
 * depends only on the input, the level and the mode. */
ns_err ns_chunkfilter_run(ns_chunkfilter *f, const void *raw, size_t nbytes, size_t elem, void *out,
                          size_t cap, size_t *out_len, ns_error *err);

/* What ns_chunkfilter_run_cells saw in the cells it was given. */
typedef struct ns_chunk_cells {
    uint32_t max_value;   /* the largest value (before it is cut to the element's bytes) */
    uint64_t zeros;       /* values 0 */
} ns_chunk_cells;

/* The same filtered chunk as ns_chunkfilter_run of the c0 x c1 chunk of
 * elem-byte (1, 2 or 4) little-endian unsigned elements whose element
 * (i, j) is vals[i * ny + j] (cut to elem bytes) for i < nx <= c0,
 * j < ny <= c1, and 0 elsewhere; with the conversion from 32 bits done
 * straight into the shuffled byte planes (no raw chunk, no shuffle pass).
 * c0 * c1 * elem <= max_bytes. st (NULL: not wanted) gets the largest of
 * the values given and how many are 0: a caller storing 16 bits checks
 * that nothing was cut. vals, out, st borrowed. */
ns_err ns_chunkfilter_run_cells(ns_chunkfilter *f, const uint32_t *vals, size_t nx, size_t ny, size_t c0,
                                size_t c1, size_t elem, void *out, size_t cap, size_t *out_len,
                                ns_chunk_cells *st, ns_error *err);

/* The inverse, for tests and checks: verify the checksum of the len bytes
 * at in, inflate, unshuffle into raw, which must come out at exactly
 * nbytes. NS_EFORMAT on a checksum mismatch or bad data. */
ns_err ns_chunkfilter_undo(const void *in, size_t len, size_t elem, void *raw, size_t nbytes,
                           ns_error *err);

/* HDF5's byte shuffle of nbytes bytes of elements of elem bytes (see above)
 * and its inverse; in and out must not overlap. */
void ns_shuffle(const void *in, void *out, size_t nbytes, size_t elem);
void ns_unshuffle(const void *in, void *out, size_t nbytes, size_t elem);

/* Fletcher's checksum as HDF5 computes it for its fletcher32 filter: the
 * bytes read as 16-bit words, first byte most significant (an odd last
 * byte is the high half of a last word whose low half is 0); A = sum of
 * the words, B = sum of the running values of A, both taken modulo 65535
 * in ones'-complement form: 0 only while every word is 0, otherwise in
 * 1..65535 (65535 standing for a multiple of 65535). Result (B << 16) | A. */
uint32_t ns_fletcher32(const void *buf, size_t len);

/* The same checksum by the portable loop, which ns_fletcher32 uses for
 * what the AVX2 loop leaves (short tails) and on processors without AVX2:
 * for the tests, which check both against the definition. */
uint32_t ns_fletcher32_portable(const void *buf, size_t len);

#endif
