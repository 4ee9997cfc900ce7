/* ns_chunkfilter.c - see ns_chunkfilter.h. Plain C and zlib; no HDF5.
 *
 * Costs per MiB of a chunk of 16-bit Grundy values on the 2-core machine of
 * issue 4: shuffle and checksum ~1 ms each, zlib's deflate of a
 * random-looking byte plane ~20 ms at level 1 (its hash chains find almost
 * nothing), storing it ~0.3 ms. Hence NS_DEFLATE_PLANES, which also codes
 * the compressible planes with ns_deflate (runs + Huffman, no zlib):
 * the Wythoff Grundy write's CPU time went down ~3x against zlib's Z_RLE,
 * for a file ~1% larger.
 *
 * Issue 19, per MiB of 16-bit chunk of Wythoff tiles (128 x 128), one
 * thread, tools/bench/filterbench.c: the whole filter 1.05 -> ~0.61 ms
 * (Fletcher-32 0.31 -> 0.04 with AVX2; the store-or-code choice by the
 * collision entropy of ~1000 samples, in integers, instead of the Shannon
 * entropy of 2340 with a log2 a byte value, and near-random planes (7-7.5
 * bits) stored rather than coded; the coder's tables made once a thread),
 * the coded high byte plane now most of it (~0.55). Converting the 32-bit
 * cells to the stored width first costs another ~0.18, which
 * ns_chunkfilter_run_cells folds into the shuffle. */
#include "store/ns_chunkfilter.h"

#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "store/ns_deflate.h"

/* NS_DEFLATE_PLANES: elements of more bytes go in as one segment */
enum { MAX_PLANES = 16 };

struct ns_chunkfilter {
    z_stream z;
    int z_ready;        /* deflateInit2 succeeded */
    int level;          /* for compressed planes */
    ns_deflate_mode mode;
    size_t max_bytes;
    uint8_t *shuf;      /* max_bytes: the shuffled chunk; owned */
    ns_deflate *coder;  /* NS_DEFLATE_PLANES: the planes' coder; owned */
};

/* ------------------------------------------------------------- shuffle */

void ns_shuffle(const void *in, void *out, size_t nbytes, size_t elem)
{
    const uint8_t *src = in;
    uint8_t *dst = out;
    const size_t n = elem ? nbytes / elem : 0;
    if (elem <= 1 || n <= 1) {
        memcpy(dst, src, nbytes);
        return;
    }
    if (elem == 2) {
        for (size_t i = 0; i < n; i++) {
            dst[i] = src[2 * i];
            dst[n + i] = src[2 * i + 1];
        }
    } else if (elem == 4) {
        for (size_t i = 0; i < n; i++) {
            dst[i] = src[4 * i];
            dst[n + i] = src[4 * i + 1];
            dst[2 * n + i] = src[4 * i + 2];
            dst[3 * n + i] = src[4 * i + 3];
        }
    } else {
        for (size_t b = 0; b < elem; b++)
            for (size_t i = 0; i < n; i++)
                dst[b * n + i] = src[i * elem + b];
    }
    memcpy(dst + n * elem, src + n * elem, nbytes - n * elem);
}

void ns_unshuffle(const void *in, void *out, size_t nbytes, size_t elem)
{
    const uint8_t *src = in;
    uint8_t *dst = out;
    const size_t n = elem ? nbytes / elem : 0;
    if (elem <= 1 || n <= 1) {
        memcpy(dst, src, nbytes);
        return;
    }
    for (size_t b = 0; b < elem; b++)
        for (size_t i = 0; i < n; i++)
            dst[i * elem + b] = src[b * n + i];
    memcpy(dst + n * elem, src + n * elem, nbytes - n * elem);
}

/* ----------------------------------------------------------- checksum */

/* Words per block between reductions of the portable loop: A stays below
 * 65535 * (W + 1) and B below 65535 * (W + 1)^2, far from 2^64. */
#define FLETCHER_BLOCK ((size_t)1 << 16)

/* The sums of the words at p (words of them) added into *a, *b (both
 * reduced modulo 65535 on return, 0..65534), any bit set in them into
 * *any. Four words a step: B gains 4 A + 4 w0 + 3 w1 + 2 w2 + w3 at once,
 * so the chain through A and B is a quarter as long. */
static void fletcher_words(const uint8_t *p, size_t words, uint64_t *a_io, uint64_t *b_io, unsigned *any)
{
    uint64_t a = *a_io, b = *b_io;
    unsigned orv = 0;
    while (words) {
        const size_t m = words < FLETCHER_BLOCK ? words : FLETCHER_BLOCK;
        size_t i = 0;
        for (; i + 4 <= m; i += 4) {
            const unsigned w0 = (unsigned)p[2 * i] << 8 | p[2 * i + 1];
            const unsigned w1 = (unsigned)p[2 * i + 2] << 8 | p[2 * i + 3];
            const unsigned w2 = (unsigned)p[2 * i + 4] << 8 | p[2 * i + 5];
            const unsigned w3 = (unsigned)p[2 * i + 6] << 8 | p[2 * i + 7];
            orv |= w0 | w1 | w2 | w3;
            b += 4 * a + 4 * (uint64_t)w0 + 3 * (uint64_t)w1 + 2 * (uint64_t)w2 + w3;
            a += (uint64_t)w0 + w1 + w2 + w3;
        }
        for (; i < m; i++) {
            const unsigned w = (unsigned)p[2 * i] << 8 | p[2 * i + 1];
            orv |= w;
            a += w;
            b += a;
        }
        a %= 65535;
        b %= 65535;
        p += 2 * m;
        words -= m;
    }
    *a_io = a % 65535;
    *b_io = b % 65535;
    *any |= orv;
}

/* A and B in ones'-complement form (see ns_fletcher32) */
static uint32_t fletcher_finish(const uint8_t *p, size_t len, uint64_t a, uint64_t b, unsigned any)
{
    if (len & 1) {
        any |= p[len - 1];
        a += (unsigned)p[len - 1] << 8;
        b += a;
    }
    if (!any)
        return 0;
    a %= 65535;
    b %= 65535;
    /* ones' complement: a nonzero sum that is a multiple of 65535 is 65535 */
    if (a == 0)
        a = 65535;
    if (b == 0)
        b = 65535;
    return (uint32_t)(b << 16 | a);
}

uint32_t ns_fletcher32_portable(const void *buf, size_t len)
{
    uint64_t a = 0, b = 0;
    unsigned any = 0;
    fletcher_words(buf, len / 2, &a, &b, &any);
    return fletcher_finish(buf, len, a, b, any);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NS_HAVE_AVX2_FLETCHER 1
/* Steps of 16 words (32 bytes) per block between reductions: the 32-bit
 * lanes of the weighted sums gain at most 2 * 16 * 65535 a step. */
enum { FLETCHER_AVX2_STEPS = 1024 };

/* The same sums as fletcher_words, 16 words a step: a step's words w_j,
 * j = 0..15, add S = sum w_j to A and 16 A + sum (16 - j) w_j to B. A
 * word is 256 hi + lo (its first byte hi): sum w_j by sums of absolute
 * differences of the hi and the lo bytes (64-bit lanes), sum (16 - j) w_j
 * by multiplying the bytes by their weights (maddubs, 16-bit lanes, at
 * most 255 * 16), then pairs added into 32-bit lanes, the hi ones times
 * 256. Over a block of m steps B gains 16 m A0 + 16 (sum over steps of
 * the S before them) + the weighted sums. */
__attribute__((target("avx2"))) static size_t fletcher_avx2(const uint8_t *p, size_t words, uint64_t *a_io,
                                                            uint64_t *b_io, unsigned *any)
{
    uint64_t a = *a_io, b = *b_io;
    const __m256i whi = _mm256_set_epi8(0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0,
                                        12, 0, 13, 0, 14, 0, 15, 0, 16);
    const __m256i wlo = _mm256_set_epi8(1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12,
                                        0, 13, 0, 14, 0, 15, 0, 16, 0);
    const __m256i mlo = _mm256_set1_epi16((short)0xFF00), mhi = _mm256_set1_epi16(0x00FF);
    const __m256i k256 = _mm256_set1_epi16(256), ones = _mm256_set1_epi16(1), zero = _mm256_setzero_si256();
    __m256i orv = zero;
    size_t done = 0;
    while (words - done >= 16) {
        const size_t m = (words - done) / 16 < FLETCHER_AVX2_STEPS ? (words - done) / 16 : FLETCHER_AVX2_STEPS;
        __m256i s1 = zero, s1sum = zero, s2 = zero;
        for (size_t k = 0; k < m; k++, p += 32) {
            const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
            orv = _mm256_or_si256(orv, v);
            s1sum = _mm256_add_epi64(s1sum, s1);   /* the sums before this step */
            const __m256i hs = _mm256_sad_epu8(_mm256_and_si256(v, mhi), zero);
            const __m256i ls = _mm256_sad_epu8(_mm256_and_si256(v, mlo), zero);
            s1 = _mm256_add_epi64(s1, _mm256_add_epi64(_mm256_slli_epi64(hs, 8), ls));
            const __m256i wh = _mm256_madd_epi16(_mm256_maddubs_epi16(v, whi), k256);
            const __m256i wl = _mm256_madd_epi16(_mm256_maddubs_epi16(v, wlo), ones);
            s2 = _mm256_add_epi32(s2, _mm256_add_epi32(wh, wl));
        }
        uint64_t l1[4], l1s[4];
        uint32_t l2[8];
        _mm256_storeu_si256((__m256i *)(void *)l1, s1);
        _mm256_storeu_si256((__m256i *)(void *)l1s, s1sum);
        _mm256_storeu_si256((__m256i *)(void *)l2, s2);
        uint64_t h1 = 0, h1s = 0, h2 = 0;
        for (int i = 0; i < 4; i++) {
            h1 += l1[i];
            h1s += l1s[i];
        }
        for (int i = 0; i < 8; i++)
            h2 += l2[i];
        b = (b + 16 * (uint64_t)m * a + 16 * h1s + h2) % 65535;
        a = (a + h1) % 65535;
        done += 16 * m;
    }
    *any |= !_mm256_testz_si256(orv, orv);
    *a_io = a;
    *b_io = b;
    return done;
}
#endif

uint32_t ns_fletcher32(const void *buf, size_t len)
{
    const uint8_t *p = buf;
    uint64_t a = 0, b = 0;
    unsigned any = 0;
    size_t done = 0;
#ifdef NS_HAVE_AVX2_FLETCHER
    if (len >= 64 && __builtin_cpu_supports("avx2"))
        done = fletcher_avx2(p, len / 2, &a, &b, &any);
#endif
    fletcher_words(p + 2 * done, len / 2 - done, &a, &b, &any);
    return fletcher_finish(p, len, a, b, any);
}

/* ------------------------------------------------------------- deflate */

size_t ns_chunkfilter_bound(size_t nbytes)
{
    /* zlib's bound for one stream, room for the block ends a change of
     * parameters between planes adds; ns_deflate's for up to MAX_PLANES
     * planes; the checksum */
    const size_t z = (size_t)compressBound((uLong)nbytes) + 1024, d = ns_deflate_bound(nbytes, MAX_PLANES);
    return (z > d ? z : d) + 4;
}

ns_chunkfilter *ns_chunkfilter_new(size_t max_bytes, int level, ns_deflate_mode mode, ns_error *err)
{
    if (level < 1 || level > 9 || (mode != NS_DEFLATE_PLAIN && mode != NS_DEFLATE_PLANES) ||
        max_bytes == 0 || max_bytes > (size_t)UINT32_MAX) {
        ns_error_set(err, NS_EINTERNAL, "chunk filter: level %d, mode %d, %zu bytes a chunk (level 1..9, "
                     "a known mode, 1..2^32-1 bytes expected)", level, (int)mode, max_bytes);
        return NULL;
    }
    ns_chunkfilter *f = calloc(1, sizeof *f);
    if (!f || !(f->shuf = malloc(max_bytes)))
        goto nomem;
    f->level = level;
    f->mode = mode;
    f->max_bytes = max_bytes;
    if (mode == NS_DEFLATE_PLANES) {
        /* ns_deflate, no zlib stream */
        if (!(f->coder = ns_deflate_new()))
            goto nomem;
        return f;
    }
    /* windowBits 15, memLevel 8: what compress2 (HDF5's deflate filter) uses */
    int zr = deflateInit2(&f->z, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY);
    if (zr == Z_MEM_ERROR)
        goto nomem;
    if (zr != Z_OK) {
        ns_error_set(err, NS_EINTERNAL, "chunk filter: zlib's deflateInit2 failed (%d)", zr);
        ns_chunkfilter_free(f);
        return NULL;
    }
    f->z_ready = 1;
    return f;
nomem:
    ns_error_set(err, NS_ENOMEM, "chunk filter: out of memory for %zu bytes a chunk", max_bytes);
    ns_chunkfilter_free(f);
    return NULL;
}

void ns_chunkfilter_free(ns_chunkfilter *f)
{
    if (!f)
        return;
    if (f->z_ready)
        deflateEnd(&f->z);
    free(f->shuf);
    ns_deflate_free(f->coder);
    free(f);
}

/* Whether the n bytes of a plane are to be stored rather than coded:
 * their collision entropy (Renyi's of order 2, -log2 of the chance that
 * two bytes drawn at random are equal) is above NS_CHUNKFILTER_STORE_BITS,
 * estimated from every step-th byte (an odd step, so that it does not
 * follow the power-of-two periods of tables; ENTROPY_STEP at least, wider
 * where that gives over ENTROPY_SAMPLES samples: 17 on the 16 KiB planes
 * of a 128 x 128 tile, ~960 samples, which put the estimate within a few
 * hundredths of a bit of a near-random plane's): with counts c_v of m
 * samples, sum c_v (c_v - 1)
 * / (m (m - 1)) is an unbiased estimate of the chance, and the plane is
 * stored when it is below 2^-STORE_BITS. Integers only: no libm, the
 * same decision on every machine. The collision entropy is at most the
 * Shannon entropy, and on the byte planes of Grundy tables it tells the
 * same: the low byte plane of a Wythoff tile is ~7.8 bits, its high byte
 * plane ~1-2 bits. A coded near-random plane saves ~3% of its bytes at
 * ~30 times the time of storing it, hence the bar at 7 bits. */
#define ENTROPY_STEP 7
#define ENTROPY_SAMPLES ((size_t)1 << 10)

static int plane_stored(const uint8_t *p, size_t n)
{
    size_t step = ENTROPY_STEP;
    if (n / step > ENTROPY_SAMPLES)
        step = (n / ENTROPY_SAMPLES) | 1;   /* about ENTROPY_SAMPLES samples */
    /* four tables: repeated bytes do not wait on one counter */
    uint32_t h[4][256];
    memset(h, 0, sizeof h);
    size_t i = 0;
    uint64_t m = 0;
    for (; i + 3 * step < n; i += 4 * step, m += 4) {
        h[0][p[i]]++;
        h[1][p[i + step]]++;
        h[2][p[i + 2 * step]]++;
        h[3][p[i + 3 * step]]++;
    }
    for (; i < n; i += step, m++)
        h[0][p[i]]++;
    if (m < 64)
        return 0;   /* too few to tell: coded (blocks that do not shrink are stored) */
    uint64_t pairs = 0;   /* sum c (c - 1): ordered pairs of equal samples */
    for (int v = 0; v < 256; v++) {
        const uint64_t c = (uint64_t)h[0][v] + h[1][v] + h[2][v] + h[3][v];
        pairs += c ? c * (c - 1) : 0;
    }
    return ((uint64_t)1 << NS_CHUNKFILTER_STORE_BITS) * pairs < m * (m - 1);
}

/* One zlib stream of n bytes at in, into out (cap bytes), as HDF5's own
 * deflate filter makes it. Returns the stream's size, or 0 when zlib did
 * not finish (no room). */
static size_t deflate_plain(ns_chunkfilter *f, const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    z_stream *z = &f->z;
    if (deflateReset(z) != Z_OK)
        return 0;
    z->next_in = (Bytef *)(uintptr_t)in;   /* zlib does not write through it */
    z->avail_in = (uInt)n;
    z->next_out = out;
    z->avail_out = (uInt)cap;
    return deflate(z, Z_FINISH) == Z_STREAM_END ? (size_t)z->total_out : 0;
}

/* Deflate and checksum the shuffled chunk of nbytes in f->shuf (see
 * ns_chunkfilter_run). */
static ns_err filter_shuffled(ns_chunkfilter *f, size_t nbytes, size_t elem, uint8_t *o, size_t cap,
                              size_t *out_len, ns_error *err)
{
    size_t zlen;
    if (f->mode == NS_DEFLATE_PLANES) {
        ns_deflate_seg seg[MAX_PLANES];
        const size_t n = nbytes / elem;
        const int planes = elem > 1 && n > 1 && elem <= MAX_PLANES ? (int)elem : 1;
        const size_t plen = planes > 1 ? n : nbytes;
        for (int b = 0; b < planes; b++) {
            seg[b].p = f->shuf + (size_t)b * plen;
            seg[b].n = b == planes - 1 ? nbytes - (size_t)b * plen : plen;   /* the leftover with the last */
            seg[b].store = plane_stored(seg[b].p, seg[b].n);
        }
        zlen = ns_deflate_zlib(f->coder, seg, planes, o, cap - 4);
        if (zlen == 0)
            return ns_error_set(err, NS_EINTERNAL, "chunk filter: no room for %zu bytes in %zu", nbytes, cap);
    } else {
        zlen = deflate_plain(f, f->shuf, nbytes, o, cap - 4);
        if (zlen == 0)
            return ns_error_set(err, NS_EINTERNAL, "chunk filter: zlib failed on %zu bytes (%s)", nbytes,
                                f->z.msg ? f->z.msg : "no message");
    }
    const uint32_t sum = ns_fletcher32(o, zlen);
    o[zlen] = (uint8_t)sum;
    o[zlen + 1] = (uint8_t)(sum >> 8);
    o[zlen + 2] = (uint8_t)(sum >> 16);
    o[zlen + 3] = (uint8_t)(sum >> 24);
    *out_len = zlen + 4;
    return NS_OK;
}

ns_err ns_chunkfilter_run(ns_chunkfilter *f, const void *raw, size_t nbytes, size_t elem, void *out,
                          size_t cap, size_t *out_len, ns_error *err)
{
    *out_len = 0;
    if (nbytes > f->max_bytes || elem == 0 || cap < ns_chunkfilter_bound(nbytes))
        return ns_error_set(err, NS_EINTERNAL, "chunk filter: %zu bytes of %zu-byte elements into %zu "
                            "(at most %zu bytes, room for %zu expected)", nbytes, elem, cap, f->max_bytes,
                            ns_chunkfilter_bound(nbytes));
    ns_shuffle(raw, f->shuf, nbytes, elem);
    return filter_shuffled(f, nbytes, elem, out, cap, out_len, err);
}

/* One row of a chunk of cells into its planes: the ny values at v to
 * lo[0..ny) (and hi, and the planes above, for wider elements), the rest
 * of the row's c1 cells 0; its largest value and its zeros into *mx, *nz.
 * Written for the compiler to vectorise (no branch in the loops). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* unsigned 32-bit max needs more than SSE2: an AVX2 copy too, chosen at load time */
__attribute__((target_clones("avx2", "default")))
#endif
static void cells_row(const uint32_t *v, size_t ny, size_t c1, uint8_t *plane0, size_t plen, size_t elem,
                      uint32_t *mx, uint64_t *nz)
{
    uint32_t m = *mx, z = 0;   /* a row has fewer than 2^32 cells */
    for (size_t j = 0; j < ny; j++) {
        m = v[j] > m ? v[j] : m;
        z += v[j] == 0;
    }
    if (elem == 1) {
        for (size_t j = 0; j < ny; j++)
            plane0[j] = (uint8_t)v[j];
    } else if (elem == 2) {
        uint8_t *lo = plane0, *hi = plane0 + plen;
        for (size_t j = 0; j < ny; j++) {
            lo[j] = (uint8_t)v[j];
            hi[j] = (uint8_t)(v[j] >> 8);
        }
    } else {
        uint8_t *b0 = plane0, *b1 = plane0 + plen, *b2 = plane0 + 2 * plen, *b3 = plane0 + 3 * plen;
        for (size_t j = 0; j < ny; j++) {
            b0[j] = (uint8_t)v[j];
            b1[j] = (uint8_t)(v[j] >> 8);
            b2[j] = (uint8_t)(v[j] >> 16);
            b3[j] = (uint8_t)(v[j] >> 24);
        }
    }
    for (size_t b = 0; b < elem; b++)
        memset(plane0 + b * plen + ny, 0, c1 - ny);
    *mx = m;
    *nz += z;
}

ns_err ns_chunkfilter_run_cells(ns_chunkfilter *f, const uint32_t *vals, size_t nx, size_t ny, size_t c0,
                                size_t c1, size_t elem, void *out, size_t cap, size_t *out_len,
                                ns_chunk_cells *st, ns_error *err)
{
    *out_len = 0;
    const size_t n = c0 * c1, nbytes = n * elem;
    if ((elem != 1 && elem != 2 && elem != 4) || nx > c0 || ny > c1 || c0 == 0 || c1 == 0 ||
        n > f->max_bytes / elem || cap < ns_chunkfilter_bound(nbytes))
        return ns_error_set(err, NS_EINTERNAL, "chunk filter: %zu x %zu cells in a chunk of %zu x %zu "
                            "%zu-byte elements into %zu (1, 2 or 4 bytes, at most %zu bytes, room for %zu "
                            "expected)", nx, ny, c0, c1, elem, cap, f->max_bytes, ns_chunkfilter_bound(nbytes));
    uint32_t mx = 0;
    uint64_t nz = 0;
    /* the planes: byte b of cell k at b * n + k (HDF5's shuffle of the
     * little-endian elements; one cell: its bytes, the same thing) */
    for (size_t i = 0; i < nx; i++)
        cells_row(vals + i * ny, ny, c1, f->shuf + i * c1, n, elem, &mx, &nz);
    for (size_t b = 0; b < elem; b++)
        memset(f->shuf + b * n + nx * c1, 0, (c0 - nx) * c1);
    if (st) {
        st->max_value = mx;
        st->zeros = nz;
    }
    return filter_shuffled(f, nbytes, elem, out, cap, out_len, err);
}

ns_err ns_chunkfilter_undo(const void *in, size_t len, size_t elem, void *raw, size_t nbytes, ns_error *err)
{
    const uint8_t *p = in;
    if (len < 4 || elem == 0)
        return ns_error_set(err, NS_EFORMAT, "filtered chunk of %zu bytes, at least 4 expected", len);
    const uint32_t want = (uint32_t)p[len - 4] | (uint32_t)p[len - 3] << 8 | (uint32_t)p[len - 2] << 16 |
                          (uint32_t)p[len - 1] << 24;
    const uint32_t got = ns_fletcher32(p, len - 4);
    if (got != want)
        return ns_error_set(err, NS_EFORMAT, "filtered chunk: fletcher32 checksum 0x%08x, stored 0x%08x",
                            (unsigned)got, (unsigned)want);
    uint8_t *shuf = malloc(nbytes ? nbytes : 1);
    if (!shuf)
        return ns_error_set(err, NS_ENOMEM, "out of memory for a chunk of %zu bytes", nbytes);
    z_stream z;
    memset(&z, 0, sizeof z);
    ns_err rc = NS_OK;
    if (inflateInit(&z) != Z_OK) {
        free(shuf);
        return ns_error_set(err, NS_ENOMEM, "zlib's inflateInit failed");
    }
    z.next_in = (Bytef *)(uintptr_t)p;
    z.avail_in = (uInt)(len - 4);
    z.next_out = shuf;
    z.avail_out = (uInt)nbytes;
    int zr = inflate(&z, Z_FINISH);
    if (zr != Z_STREAM_END || z.total_out != nbytes || z.avail_in != 0)
        rc = ns_error_set(err, NS_EFORMAT, "filtered chunk: inflate gave %d, %lu bytes, %u left over (%zu "
                          "bytes and the stream's end expected)", zr, (unsigned long)z.total_out,
                          (unsigned)z.avail_in, nbytes);
    else
        ns_unshuffle(shuf, raw, nbytes, elem);
    inflateEnd(&z);
    free(shuf);
    return rc;
}
