/* ns_deflate.c - see ns_deflate.h. Written from RFC 1950 and RFC 1951.
 *
 * A coded segment is one dynamic-Huffman block: tokens are literals and
 * matches at distance 1 (the run of the previous byte, 3..258 long). The
 * literal/length code is built from the block's counts (two-queue Huffman,
 * counts halved until no code is longer than 15 bits); the distance code
 * has two codes of one bit, of which only distance 1 is used (a complete
 * code, which every inflate accepts). The code lengths go out run-length
 * coded (symbols 16, 17, 18) with a code of their own (at most 7 bits). A
 * segment whose coded size is not below its stored size is stored. The
 * stream ends with an empty fixed-Huffman final block (10 bits). */
#include "ns_deflate.h"

#include <stdlib.h>
#include <string.h>

#include <zlib.h>

enum { NLIT = 286, NCL = 19, STORED_MAX = 65535 };

/* a word loaded with memcpy, as if little-endian */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NS_LE64(x) __builtin_bswap64(x)
#else
#define NS_LE64(x) (x)
#endif

typedef struct bitw {
    uint8_t *o;
    uint64_t acc;
    int nb;
} bitw;

/* n <= 32 bits of v, least significant first */
static inline void put_bits(bitw *b, uint64_t v, int n)
{
    b->acc |= v << b->nb;
    b->nb += n;
    if (b->nb >= 32) {
        const uint32_t w = (uint32_t)b->acc;
        b->o[0] = (uint8_t)w;
        b->o[1] = (uint8_t)(w >> 8);
        b->o[2] = (uint8_t)(w >> 16);
        b->o[3] = (uint8_t)(w >> 24);
        b->o += 4;
        b->acc >>= 32;
        b->nb -= 32;
    }
}

/* pad with zero bits to a byte boundary and write out what is pending */
static void align_bytes(bitw *b)
{
    while (b->nb > 0) {
        *b->o++ = (uint8_t)b->acc;
        b->acc >>= 8;
        b->nb -= 8;
    }
    b->acc = 0;
    b->nb = 0;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Code lengths (<= maxbits) of a Huffman code for freq[0..n), n <= NLIT;
 * symbols with count 0 get 0. With a single used symbol, it and one other
 * get length 1 (a complete code). */
static void huff_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *len)
{
    uint32_t f[NLIT];
    memcpy(f, freq, (size_t)n * sizeof *f);
    for (;;) {
        uint64_t key[NLIT];
        int m = 0;
        memset(len, 0, (size_t)n);
        for (int s = 0; s < n; s++)
            if (f[s])
                key[m++] = (uint64_t)f[s] << 16 | (uint64_t)s;
        if (m == 0)
            return;
        if (m == 1) {
            const int s = (int)(key[0] & 0xFFFF);
            len[s] = 1;
            len[s == 0 ? 1 : 0] = 1;
            return;
        }
        qsort(key, (size_t)m, sizeof *key, cmp_u64);
        /* two queues: the sorted leaves 0..m-1, the internal nodes m.. as
         * they are made (their weights never decrease) */
        uint64_t w[2 * NLIT];
        int parent[2 * NLIT], depth[2 * NLIT];
        for (int i = 0; i < m; i++)
            w[i] = key[i] >> 16;
        int li = 0, ii = m;
        for (int next = m; next < 2 * m - 1; next++) {
            int pick[2];
            for (int k = 0; k < 2; k++)
                pick[k] = li < m && (ii >= next || w[li] <= w[ii]) ? li++ : ii++;
            w[next] = w[pick[0]] + w[pick[1]];
            parent[pick[0]] = parent[pick[1]] = next;
        }
        depth[2 * m - 2] = 0;
        int maxd = 0;
        for (int i = 2 * m - 3; i >= 0; i--) {
            depth[i] = depth[parent[i]] + 1;
            maxd = i < m && depth[i] > maxd ? depth[i] : maxd;
        }
        if (maxd <= maxbits) {
            for (int i = 0; i < m; i++)
                len[key[i] & 0xFFFF] = (uint8_t)depth[i];
            return;
        }
        /* too deep: flatten the counts and build again (all equal counts
         * give depth <= 9) */
        for (int s = 0; s < n; s++)
            if (f[s])
                f[s] = (f[s] + 1) / 2;
    }
}

/* Canonical codes of the lengths (RFC 1951 3.2.2), bit-reversed for
 * output least significant bit first. */
static void canon_codes(const uint8_t *len, int n, uint32_t *code)
{
    int count[16] = {0}, next[16];
    for (int s = 0; s < n; s++)
        count[len[s]]++;
    count[0] = 0;
    int c = 0;
    for (int bits = 1; bits < 16; bits++) {
        c = (c + count[bits - 1]) << 1;
        next[bits] = c;
    }
    for (int s = 0; s < n; s++) {
        code[s] = 0;
        if (!len[s])
            continue;
        uint32_t v = (uint32_t)next[len[s]]++, r = 0;
        for (int i = 0; i < len[s]; i++, v >>= 1)
            r = r << 1 | (v & 1);
        code[s] = r;
    }
}

static const uint16_t len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* the length code (0..28, symbol 257 + it) of a match length 3..258 */
static int len_code(int l)
{
    int i = 28;
    while (len_base[i] > l)
        i--;
    return i;
}

/* Tokens of p[0..n) (n >= 1): byte values, or 256 + length - 3 for a run
 * of the previous byte; counts of the literal/length symbols into lf. */
static size_t tokenize(const uint8_t *p, size_t n, uint16_t *tok, uint32_t *lf, const uint8_t *lcode_of)
{
    size_t nt = 0, i = 1;
    tok[nt++] = p[0];
    lf[p[0]]++;
    while (i < n) {
        const uint8_t prev = p[i - 1];
        const size_t lim = n - i < 258 ? n - i : 258;
        size_t r = 0;
        const uint64_t pat = 0x0101010101010101ull * prev;
        for (; r + 8 <= lim; r += 8) {
            uint64_t v;
            memcpy(&v, p + i + r, 8);
            if (v ^ pat) {
                /* the first differing byte (the bytes are read little-endian) */
                r += (size_t)__builtin_ctzll(NS_LE64(v ^ pat)) / 8;
                goto counted;
            }
        }
        while (r < lim && p[i + r] == prev)
            r++;
    counted:
        if (r >= 3) {
            tok[nt++] = (uint16_t)(256 + r - 3);
            lf[257 + lcode_of[r - 3]]++;
            i += r;
        } else {
            tok[nt++] = p[i];
            lf[p[i]]++;
            i++;
        }
    }
    return nt;
}

static void stored(bitw *b, const uint8_t *p, size_t n)
{
    do {
        const size_t k = n < STORED_MAX ? n : STORED_MAX;
        put_bits(b, 0, 3);   /* not final, stored */
        align_bytes(b);
        b->o[0] = (uint8_t)k;
        b->o[1] = (uint8_t)(k >> 8);
        b->o[2] = (uint8_t)~k;
        b->o[3] = (uint8_t)(~k >> 8);
        memcpy(b->o + 4, p, k);
        b->o += 4 + k;
        p += k;
        n -= k;
    } while (n > 0);
}

static size_t stored_bytes(size_t n)
{
    return n + 5 * ((n + STORED_MAX - 1) / STORED_MAX) + 1;
}

/* The run-length coded code lengths lens[0..n): CL symbols with their
 * extra bits (value << 5 | symbol), counted into cf. */
static int rle_lengths(const uint8_t *lens, int n, uint16_t *out, uint32_t *cf)
{
    int no = 0;
    for (int i = 0; i < n;) {
        const uint8_t v = lens[i];
        int r = 1;
        while (i + r < n && lens[i + r] == v)
            r++;
        i += r;
        if (v == 0) {
            while (r >= 11) {
                const int k = r < 138 ? r : 138;
                out[no++] = (uint16_t)((k - 11) << 5 | 18);
                cf[18]++;
                r -= k;
            }
            if (r >= 3) {
                out[no++] = (uint16_t)((r - 3) << 5 | 17);
                cf[17]++;
                r = 0;
            }
        } else {
            out[no++] = v;
            cf[v]++;
            r--;
            while (r >= 3) {
                const int k = r < 6 ? r : 6;
                out[no++] = (uint16_t)((k - 3) << 5 | 16);
                cf[16]++;
                r -= k;
            }
        }
        for (; r > 0; r--) {
            out[no++] = v;
            cf[v]++;
        }
    }
    return no;
}

static const uint8_t cl_order[NCL] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
static const uint8_t cl_extra[NCL] = {[16] = 2, [17] = 3, [18] = 7};

/* One segment as a dynamic block, or stored when that is not larger. */
static void coded(bitw *b, const uint8_t *p, size_t n, uint16_t *tok, const uint8_t *lcode_of)
{
    uint32_t lf[NLIT] = {0};
    const size_t nt = tokenize(p, n, tok, lf, lcode_of);
    lf[256] = 1;
    uint8_t ll[NLIT];
    uint32_t lc[NLIT];
    huff_lengths(lf, NLIT, 15, ll);
    canon_codes(ll, NLIT, lc);
    int hlit = NLIT;
    while (hlit > 257 && ll[hlit - 1] == 0)
        hlit--;
    uint8_t lens[NLIT + 2];
    memcpy(lens, ll, (size_t)hlit);
    lens[hlit] = lens[hlit + 1] = 1;   /* distance codes 0 and 1 */
    uint16_t cls[NLIT + 2];
    uint32_t cf[NCL] = {0}, cc[NCL];
    uint8_t cl[NCL];
    const int ncls = rle_lengths(lens, hlit + 2, cls, cf);
    huff_lengths(cf, NCL, 7, cl);
    canon_codes(cl, NCL, cc);
    int hclen = NCL;
    while (hclen > 4 && cl[cl_order[hclen - 1]] == 0)
        hclen--;
    /* the exact size in bits against the stored size */
    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)hclen;
    for (int i = 0; i < ncls; i++)
        bits += cl[cls[i] & 31] + cl_extra[cls[i] & 31];
    for (int s = 0; s < NLIT; s++)
        bits += (uint64_t)lf[s] * ll[s];
    for (int c = 0; c < 29; c++)
        bits += (uint64_t)lf[257 + c] * (len_extra[c] + 1u);   /* extra bits, the distance bit */
    if (bits / 8 + 1 >= stored_bytes(n)) {
        stored(b, p, n);
        return;
    }
    put_bits(b, 2 << 1, 3);   /* not final, dynamic */
    put_bits(b, (uint64_t)(hlit - 257), 5);
    put_bits(b, 2 - 1, 5);
    put_bits(b, (uint64_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++)
        put_bits(b, cl[cl_order[i]], 3);
    for (int i = 0; i < ncls; i++) {
        const int s = cls[i] & 31;
        put_bits(b, cc[s], cl[s]);
        if (cl_extra[s])
            put_bits(b, (uint64_t)(cls[i] >> 5), cl_extra[s]);
    }
    /* a match as one bit string: length code, extra bits, distance code 0
     * (the one-bit code 0) */
    uint32_t mcode[256];
    uint8_t mlen[256];
    for (int l = 3; l <= 258; l++) {
        const int c = lcode_of[l - 3], s = 257 + c;
        mcode[l - 3] = ll[s] ? lc[s] | (uint32_t)(l - len_base[c]) << ll[s] : 0;
        mlen[l - 3] = (uint8_t)(ll[s] + len_extra[c] + 1);
    }
    /* the tokens, with the bit writer in locals (the hot loop) */
    uint32_t code[512];
    uint8_t clen[512];
    for (int t = 0; t < 256; t++) {
        code[t] = lc[t];
        clen[t] = ll[t];
        code[256 + t] = mcode[t];
        clen[256 + t] = mlen[t];
    }
    /* no branch a token: 8 bytes stored each time, the whole ones kept
     * (the block is smaller than stored, so the 7 bytes written ahead lie
     * inside the bound's slack) */
    uint64_t acc = b->acc;
    unsigned nb = (unsigned)b->nb;
    uint8_t *o = b->o;
    while (nb >= 8) {
        *o++ = (uint8_t)acc;
        acc >>= 8;
        nb -= 8;
    }
    for (size_t i = 0; i < nt; i++) {
        acc |= (uint64_t)code[tok[i]] << nb;
        nb += clen[tok[i]];
        const uint64_t le = NS_LE64(acc);
        memcpy(o, &le, 8);
        o += nb >> 3;
        acc >>= nb & ~7u;
        nb &= 7;
    }
    b->acc = acc;
    b->nb = (int)nb;
    b->o = o;
    put_bits(b, lc[256], ll[256]);
}

/* ---- Adler-32 (RFC 1950): a = 1 + sum of the bytes, b = sum of the a's,
 * both mod 65521. With AVX2: 32 bytes a step, in blocks of at most 1024
 * steps (no 32-bit lane overflows), reduced after each block. ---- */

enum { ADLER_MOD = 65521 };

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NS_HAVE_AVX2_ADLER 1
__attribute__((target("avx2"))) static uint32_t adler32_avx2(uint32_t adler, const uint8_t *p, size_t n)
{
    uint64_t a = adler & 0xFFFF, b = adler >> 16;
    const __m256i w = _mm256_set_epi8(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                      22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32);
    const __m256i ones = _mm256_set1_epi16(1), zero = _mm256_setzero_si256();
    while (n >= 32) {
        const size_t m = n / 32 < 1024 ? n / 32 : 1024;
        __m256i s1 = zero, s1sum = zero, s2 = zero;
        for (size_t k = 0; k < m; k++, p += 32) {
            const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
            s1sum = _mm256_add_epi32(s1sum, s1);   /* the sums before this step */
            s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_maddubs_epi16(v, w), ones));
            s1 = _mm256_add_epi32(s1, _mm256_sad_epu8(v, zero));
        }
        uint32_t l1[8], l1s[8], l2[8];
        _mm256_storeu_si256((__m256i *)(void *)l1, s1);
        _mm256_storeu_si256((__m256i *)(void *)l1s, s1sum);
        _mm256_storeu_si256((__m256i *)(void *)l2, s2);
        uint64_t h1 = 0, h1s = 0, h2 = 0;
        for (int i = 0; i < 8; i++) {
            h1 += l1[i];
            h1s += l1s[i];
            h2 += l2[i];
        }
        b = (b + 32 * m * a + 32 * h1s + h2) % ADLER_MOD;
        a = (a + h1) % ADLER_MOD;
        n -= 32 * m;
    }
    for (; n > 0; n--) {
        a += *p++;
        b += a;
    }
    return (uint32_t)((b % ADLER_MOD) << 16 | (a % ADLER_MOD));
}
#endif

uint32_t ns_adler32(uint32_t adler, const void *buf, size_t n)
{
    const uint8_t *p = buf;
#ifdef NS_HAVE_AVX2_ADLER
    if (__builtin_cpu_supports("avx2"))
        return adler32_avx2(adler, p, n);
#endif
    for (size_t k = 0; k < n; k += (size_t)1 << 30) {
        const size_t part = n - k < (size_t)1 << 30 ? n - k : (size_t)1 << 30;
        adler = (uint32_t)adler32(adler, p + k, (uInt)part);
    }
    return adler;
}

size_t ns_deflate_bound(size_t n, int nseg)
{
    /* wrapper 6, final block 2, per segment stored framing and slack */
    return n + 5 * (n / STORED_MAX) + 8 + (size_t)(nseg > 0 ? nseg : 1) * 16;
}

size_t ns_deflate_zlib(const ns_deflate_seg *seg, int nseg, uint16_t *tokens, uint8_t *out, size_t cap)
{
    size_t total = 0;
    for (int i = 0; i < nseg; i++)
        total += seg[i].n;
    if (cap < ns_deflate_bound(total, nseg))
        return 0;
    uint8_t lcode_of[256];
    for (int l = 3; l <= 258; l++)
        lcode_of[l - 3] = (uint8_t)len_code(l);
    bitw b = {out, 0, 0};
    b.o[0] = 0x78;   /* deflate, 32 KiB window */
    b.o[1] = 0x01;   /* fastest; (0x78 << 8 | 0x01) % 31 == 0 */
    b.o += 2;
    uint32_t adler = 1;
    for (int i = 0; i < nseg; i++) {
        if (seg[i].n == 0)
            continue;
        if (seg[i].store)
            stored(&b, seg[i].p, seg[i].n);
        else
            coded(&b, seg[i].p, seg[i].n, tokens, lcode_of);
        adler = ns_adler32(adler, seg[i].p, seg[i].n);
    }
    put_bits(&b, 1 | 1 << 1, 3);   /* final, fixed Huffman */
    put_bits(&b, 0, 7);            /* end of block: code 256 is 0000000 */
    align_bytes(&b);
    b.o[0] = (uint8_t)(adler >> 24);
    b.o[1] = (uint8_t)(adler >> 16);
    b.o[2] = (uint8_t)(adler >> 8);
    b.o[3] = (uint8_t)adler;
    b.o += 4;
    return (size_t)(b.o - out);
}
