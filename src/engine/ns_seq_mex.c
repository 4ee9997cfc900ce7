/* ns_seq_mex.c - see ns_seq_mex.h */
#include "engine/ns_seq_mex.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NS_SEQ_MEX_AVX2 1
#endif

int ns_seq_mex_vector(ns_seq_mex how)
{
#ifdef NS_SEQ_MEX_AVX2
    return how == NS_SEQ_MEX_AUTO && __builtin_cpu_supports("avx2");
#else
    (void)how;
    return 0;
#endif
}

/* one split at a time, a in [a0, a1] */
static void pairs_scalar(const void *g, int elem, uint32_t x, int64_t m, int64_t a0, int64_t a1, uint8_t *map)
{
#define NS_SEQ_MAP_PAIRS(T)                                                                                            \
    do {                                                                                                               \
        const T *gg = g;                                                                                               \
        for (int64_t a = a0; a <= a1; a++)                                                                             \
            map[x ^ (uint32_t)gg[a] ^ (uint32_t)gg[m - a]] = 0xff;                                                     \
    } while (0)
    switch (elem) {
    case 1: NS_SEQ_MAP_PAIRS(uint8_t); break;
    case 2: NS_SEQ_MAP_PAIRS(uint16_t); break;
    default: NS_SEQ_MAP_PAIRS(uint32_t); break;
    }
#undef NS_SEQ_MAP_PAIRS
}

#ifdef NS_SEQ_MEX_AVX2
/* the four 64-bit words of r, low first */
__attribute__((target("avx2"))) static inline void words4(__m256i r, uint64_t q[4])
{
    const __m128i r0 = _mm256_castsi256_si128(r), r1 = _mm256_extracti128_si256(r, 1);
    q[0] = (uint64_t)_mm_cvtsi128_si64(r0);
    q[1] = (uint64_t)_mm_extract_epi64(r0, 1);
    q[2] = (uint64_t)_mm_cvtsi128_si64(r1);
    q[3] = (uint64_t)_mm_extract_epi64(r1, 1);
}

/* pairs_scalar for one-byte cells, 32 splits a step: G(a .. a+31) ^
 * G(m-a-31 .. m-a) reversed ^ x, out of the register in four 64-bit
 * words (a shift and a mask a value: a byte extraction costs two
 * operations), then marked value by value */
__attribute__((target("avx2"))) static void pairs_u8_avx2(const uint8_t *g, uint32_t x, int64_t m, int64_t a,
                                                          int64_t a1, uint8_t *map)
{
    /* the bytes of each 128-bit half reversed; swapping the halves then
     * reverses all 32 */
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                         10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m256i xv = _mm256_set1_epi8((char)x);
    for (; a + 31 <= a1; a += 32) {
        const __m256i lo = _mm256_loadu_si256((const __m256i *)(g + a));
        const __m256i hi = _mm256_permute4x64_epi64(
            _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(g + m - a - 31)), rev), 0x4e);
        const __m256i r = _mm256_xor_si256(_mm256_xor_si256(lo, hi), xv);
        uint64_t q[4];
        words4(r, q);
        for (int j = 0; j < 4; j++)
            for (int b = 0; b < 64; b += 8)
                map[q[j] >> b & 0xff] = 0xff;
    }
    pairs_scalar(g, 1, x, m, a, a1, map);
}

/* Small values (one-byte cells, below 64 w, w = 1 or 2 words): no
 * stores at all. A split's value v sets bit v & 7 of byte v >> 3 of the
 * bitset; 8 w vectors hold, lane by lane, the bits of each byte (the bit
 * from a byte shuffle of v, kept where v >> 3 is that byte's index), and
 * are ORed down to their byte at the end: 3 vector operations a byte a
 * step of 32 splits. Where it stopped (a multiple of 32 past a). */
static inline __attribute__((always_inline, target("avx2"))) int64_t bits_u8_k(const uint8_t *g, uint32_t x,
                                                                              int64_t m, int64_t a, int64_t a1,
                                                                              uint64_t *s, const int w)
{
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                         10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    /* a byte shuffle reads the low 4 bits of v (v < 128: bit 7 clear) */
    const __m256i bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16,
                                         32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    const __m256i xv = _mm256_set1_epi8((char)x), hm = _mm256_set1_epi8((char)0xf8);
    __m256i acc[16];
    for (int k = 0; k < 8 * w; k++)
        acc[k] = _mm256_setzero_si256();
    for (; a + 31 <= a1; a += 32) {
        const __m256i lo = _mm256_loadu_si256((const __m256i *)(g + a));
        const __m256i hi = _mm256_permute4x64_epi64(
            _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(g + m - a - 31)), rev), 0x4e);
        const __m256i v = _mm256_xor_si256(_mm256_xor_si256(lo, hi), xv);
        const __m256i b = _mm256_shuffle_epi8(bit, v), h = _mm256_and_si256(v, hm);
        for (int k = 0; k < 8 * w; k++)
            acc[k] = _mm256_or_si256(acc[k],
                                     _mm256_and_si256(_mm256_cmpeq_epi8(h, _mm256_set1_epi8((char)(8 * k))), b));
    }
    for (int k = 0; k < 8 * w; k++) {
        _Alignas(32) uint64_t q[4];
        _mm256_store_si256((__m256i *)q, acc[k]);
        uint64_t u = q[0] | q[1] | q[2] | q[3];
        u |= u >> 32;
        u |= u >> 16;
        u |= u >> 8;
        s[k / 8] |= (u & 0xff) << (8 * (k % 8));
    }
    return a;
}

__attribute__((target("avx2"))) static int64_t bits_u8_avx2(const uint8_t *g, uint32_t x, int64_t m, int64_t a,
                                                           int64_t a1, uint64_t *s, uint64_t w)
{
    return w == 1 ? bits_u8_k(g, x, m, a, a1, s, 1) : bits_u8_k(g, x, m, a, a1, s, 2);
}

/* the same for two-byte cells, 16 splits a vector */
__attribute__((target("avx2"))) static void pairs_u16_avx2(const uint16_t *g, uint32_t x, int64_t m, int64_t a,
                                                           int64_t a1, uint8_t *map)
{
    const __m256i rev = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11,
                                         8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    const __m256i xv = _mm256_set1_epi16((short)x);
    for (; a + 15 <= a1; a += 16) {
        const __m256i lo = _mm256_loadu_si256((const __m256i *)(g + a));
        const __m256i hi = _mm256_permute4x64_epi64(
            _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(g + m - a - 15)), rev), 0x4e);
        const __m256i r = _mm256_xor_si256(_mm256_xor_si256(lo, hi), xv);
        uint64_t q[4];
        words4(r, q);
        for (int j = 0; j < 4; j++) {
            map[q[j] & 0xffff] = 0xff;
            map[q[j] >> 16 & 0xffff] = 0xff;
            map[q[j] >> 32 & 0xffff] = 0xff;
            map[q[j] >> 48] = 0xff;
        }
    }
    pairs_scalar(g, 2, x, m, a, a1, map);
}

/* the same for four-byte cells, 8 splits a vector (the values from two
 * 64-bit words a half) */
__attribute__((target("avx2"))) static void pairs_u32_avx2(const uint32_t *g, uint32_t x, int64_t m, int64_t a,
                                                           int64_t a1, uint8_t *map)
{
    const __m256i rev = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    const __m256i xv = _mm256_set1_epi32((int)x);
    for (; a + 7 <= a1; a += 8) {
        const __m256i lo = _mm256_loadu_si256((const __m256i *)(g + a));
        const __m256i hi = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(g + m - a - 7)), rev);
        const __m256i r = _mm256_xor_si256(_mm256_xor_si256(lo, hi), xv);
        uint64_t q[4];
        words4(r, q);
        for (int j = 0; j < 4; j++) {
            map[q[j] & 0xffffffff] = 0xff;
            map[q[j] >> 32] = 0xff;
        }
    }
    pairs_scalar(g, 4, x, m, a, a1, map);
}
#endif

void ns_seq_pairs_mark(const void *g, int elem, uint32_t x, int64_t m, int64_t a0, int64_t a1, uint8_t *map,
                       uint64_t *s, uint64_t w, int vec)
{
    if (a1 < a0)
        return;
#ifdef NS_SEQ_MEX_AVX2
    if (vec && elem == 1 && w <= 2 && a1 - a0 >= 31)
        a0 = bits_u8_avx2(g, x, m, a0, a1, s, w);
    if (vec && elem == 1) {
        pairs_u8_avx2(g, x, m, a0, a1, map);
        return;
    }
    if (vec && elem == 2) {
        pairs_u16_avx2(g, x, m, a0, a1, map);
        return;
    }
    if (vec && elem == 4) {
        pairs_u32_avx2(g, x, m, a0, a1, map);
        return;
    }
#else
    (void)s;
    (void)w;
    (void)vec;
#endif
    pairs_scalar(g, elem, x, m, a0, a1, map);
}

void ns_seq_map_fold(uint8_t *map, uint64_t *s, uint64_t w)
{
    for (uint64_t q = 0; q < w; q++) {
        const uint8_t *by = map + 64 * q;
        uint64_t bits = 0;
#ifdef __SSE2__
        for (int h = 0; h < 4; h++)
            bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(by + 16 * h)))
                    << (16 * h);
#else
        for (int b = 0; b < 64; b++)
            bits |= (uint64_t)(by[b] >> 7) << b;
#endif
        s[q] |= bits;
    }
    memset(map, 0, (size_t)(w * 64));
}
