/* ns_deflate.c - see ns_deflate.h. Written from RFC 1950 and RFC 1951.
 *
 * A coded segment is cut into tokens: literals and matches at distance 1
 * (the run of the previous byte, 3..258 long), which is what zlib's Z_RLE
 * finds. They are found a run at a time, not a byte at a time: a 64-bit
 * mask of the places where a byte differs from the one before it gives the
 * runs of 64 bytes by counting trailing zeros, and a run of length L of
 * byte v becomes, without a branch, v v v (L <= 3) or v + a match of L - 1
 * (4 <= L <= 259); longer runs take a loop.
 *
 * The tokens go out in dynamic-Huffman blocks of 32 KiB of input each
 * (each with the code of its own counts, which follows the plane's slow
 * changes as zlib's blocks of 16K symbols do). The literal/length code is
 * a Huffman code, or where that has a code over 15 bits the optimal one
 * within 15 bits (package-merge); the distance code has two codes of one
 * bit, of which only distance 1 is used (a complete code, which every
 * inflate accepts). The code lengths go out run-length coded (symbols 16,
 * 17, 18) with a code of their own (at most 7 bits, likewise). A block
 * whose coded size is not below its stored size is stored (together with
 * stored neighbours). The stream ends with an empty fixed-Huffman final
 * block (10 bits).
 *
 * A block of one repeated byte (the zero top planes of 4-byte values
 * that fit 2 bytes, chunk after chunk) is one run: no change masks, and
 * its plan (codes and header) from the coder's cache when the byte and
 * the length are those of the last such block.
 *
 * On the high byte plane of a Wythoff Grundy table (~0.46 tokens a byte)
 * the time goes to finding the runs (~60%), writing the bits (~30%) and
 * the codes of the blocks; Adler-32 is a few percent. The tables of the
 * coder are made once (ns_deflate_new), not once a stream. */
#include "store/ns_deflate.h"

#include <stdlib.h>
#include <string.h>

#include <zlib.h>

enum {
    NLIT = 286,
    NCL = 19,
    STORED_MAX = 65535,
    /* bytes a block: a code header costs ~50-80 bytes; 32 KiB (~16K
     * tokens on Grundy planes, zlib's block at level 1) follow the data
     * closely; smaller blocks cost more headers and time */
    BLOCK_BYTES = 32768,
    BLOCK_MAX = BLOCK_BYTES + BLOCK_BYTES / 2,   /* the last block of a segment takes a short rest */
    TOKEN_SLACK = 8   /* tokens written past the last one (see emit_run) */
};

/* a word loaded with memcpy, as if little-endian */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NS_LE64(x) __builtin_bswap64(x)
#else
#define NS_LE64(x) (x)
#endif

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return NS_LE64(v);
}

static inline void store64(uint8_t *p, uint64_t v)
{
    v = NS_LE64(v);
    memcpy(p, &v, 8);
}

typedef struct bitw {
    uint8_t *o;
    uint64_t acc;
    int nb;   /* bits in acc, < 32 between calls */
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

/* ------------------------------------------------------------ Huffman */

/* Sort a[0..n) ascending: Shell's sort with Ciura's gaps (n <= 286 here;
 * no qsort callback per comparison) */
static void sort_u64(uint64_t *a, int n)
{
    static const int gaps[] = {132, 57, 23, 10, 4, 1};
    for (int g = 0; g < 6; g++) {
        const int gap = gaps[g];
        for (int i = gap; i < n; i++) {
            const uint64_t x = a[i];
            int j = i;
            for (; j >= gap && a[j - gap] > x; j -= gap)
                a[j] = a[j - gap];
            a[j] = x;
        }
    }
}

/* Optimal code lengths under maxbits, by package-merge (Larmore and
 * Hirschberg), for m >= 2 counts w[0..m) in ascending order, m <=
 * 2^maxbits; len[i] for w[i]. List maxbits holds the leaves; list j the
 * leaves merged with the sums of pairs of list j + 1 (in order of weight).
 * The first 2m - 2 items of list 1 are the cheapest set of leaves and
 * packages of total width m - 1; a leaf gets one bit for every list in
 * which it is among the items so chosen. Leaves enter each list in order,
 * so the chosen ones of a list are the lightest few, and the packages
 * among them are the first items of the next list: a bit an item (leaf or
 * package) a list is all that needs keeping. */
static void package_merge(const uint64_t *w, int m, int maxbits, uint8_t *len)
{
    uint8_t leaf[15][2 * NLIT];   /* leaf[j - 1][k]: item k of list j is a leaf */
    uint64_t prev[2 * NLIT], cur[2 * NLIT];
    int nprev = m;
    memcpy(prev, w, (size_t)m * sizeof *w);
    memset(leaf[maxbits - 1], 1, (size_t)m);
    for (int j = maxbits - 1; j >= 1; j--) {
        const int pairs = nprev / 2;
        int li = 0, pi = 0, k = 0;
        while (li < m || pi < pairs) {
            const uint64_t pw = pi < pairs ? prev[2 * pi] + prev[2 * pi + 1] : UINT64_MAX;
            const int is_leaf = li < m && w[li] <= pw;
            cur[k] = is_leaf ? w[li++] : (pi++, pw);
            leaf[j - 1][k++] = (uint8_t)is_leaf;
        }
        memcpy(prev, cur, (size_t)k * sizeof *cur);
        nprev = k;
    }
    memset(len, 0, (size_t)m);
    int k = 2 * m - 2;   /* items chosen in list j */
    for (int j = 1; j <= maxbits && k > 0; j++) {
        int nl = 0;
        for (int t = 0; t < k; t++)
            nl += leaf[j - 1][t];
        for (int i = 0; i < nl; i++)
            len[i]++;
        k = 2 * (k - nl);
    }
}

/* See ns_deflate_code_lengths (n <= NLIT, maxbits <= 15). */
static void huff_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *len)
{
    uint64_t key[NLIT];
    int m = 0;
    memset(len, 0, (size_t)n);
    for (int s = 0; s < n; s++)
        if (freq[s])
            key[m++] = (uint64_t)freq[s] << 16 | (uint64_t)s;
    if (m == 0)
        return;
    if (m == 1) {
        const int s = (int)(key[0] & 0xFFFF);
        len[s] = 1;
        len[s == 0 ? 1 : 0] = 1;
        return;
    }
    sort_u64(key, m);
    /* two queues: the sorted leaves 0..m-1, the internal nodes m.. as they
     * are made (their weights never decrease) */
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
    /* too deep (rare): the best code under the limit */
    uint8_t plen[NLIT];
    package_merge(w, m, maxbits, plen);
    for (int i = 0; i < m; i++)
        len[key[i] & 0xFFFF] = plen[i];
}

void ns_deflate_code_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *len)
{
    huff_lengths(freq, n, maxbits, len);
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
        /* the 16 bits reversed, then the top len[s] of them */
        uint32_t v = (uint32_t)next[len[s]]++;
        v = (v >> 1 & 0x5555) | (v & 0x5555) << 1;
        v = (v >> 2 & 0x3333) | (v & 0x3333) << 2;
        v = (v >> 4 & 0x0F0F) | (v & 0x0F0F) << 4;
        v = (v >> 8 & 0x00FF) | (v & 0x00FF) << 8;
        code[s] = v >> (16 - len[s]);
    }
}

static const uint16_t len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* ------------------------------------------------------------- tokens */

/* A token is a byte value (a literal) or 256 + length - 3 (a match of
 * 3..258 at distance 1). */

/* Token counts of a block: lit[v] literals v, mat[l - 3] matches of
 * length l (mat[256] counts nothing: emit_run's dump for runs without a
 * match). */
typedef struct counts {
    uint32_t lit[256], mat[257];
} counts;

/* The tokens of a run of len >= 1 bytes v that follows a different byte
 * (or starts the block), as Z_RLE takes it: v, then the len - 1 copies of
 * the previous byte as matches of at most 258, the last 1 or 2 as
 * literals. Returns the new end of the tokens. */
static uint16_t *emit_long_run(uint16_t *t, counts *cn, uint8_t v, size_t len)
{
    *t++ = v;
    cn->lit[v]++;
    size_t r = len - 1;
    for (; r >= 258; r -= 258) {
        *t++ = 256 + 258 - 3;
        cn->mat[258 - 3]++;
    }
    if (r >= 3) {
        *t++ = (uint16_t)(256 + r - 3);
        cn->mat[r - 3]++;
    } else {
        cn->lit[v] += (uint32_t)r;
        for (; r > 0; r--)
            *t++ = v;
    }
    return t;
}

/* What a run of len (1..259) bytes v becomes, for emit_run: its tokens
 * are three = (v v v & keep) | put, of which the first
 * adv count: v v v (len <= 3: keep all, put 0, adv len) or v + a match of
 * len - 1 (keep the outer two, put the match token in the middle, adv 2);
 * lit literals v and a match counted at mat[mat] (256: none). */
typedef struct run_entry {
    uint64_t keep, put;
    uint16_t mat;
    uint8_t lit, adv;
} run_entry;

/* The tables of a stream: run entries, length codes of match lengths. */
typedef struct tables {
    run_entry run[260];
    uint64_t vvv[256];       /* v v v: three tokens v */
    uint8_t lcode_of[256];   /* the length code (0..28) of match length 3 + i */
} tables;

/* The same as emit_long_run; for len <= 259 from the table, without a
 * branch (a run's length is as good as random), in one 8-byte store
 * (writes up to 4 tokens past the end). */
static inline uint16_t *emit_run(uint16_t *t, counts *cn, const tables *tb, uint8_t v, size_t len)
{
    if (__builtin_expect(len > 259, 0))
        return emit_long_run(t, cn, v, len);
    const run_entry *e = tb->run + len;
    const uint64_t three = (tb->vvv[v] & e->keep) | e->put;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    t[0] = (uint16_t)three;
    t[1] = (uint16_t)(three >> 16);
    t[2] = (uint16_t)(three >> 32);
#else
    memcpy(t, &three, 8);
#endif
    cn->lit[v] += e->lit;
    cn->mat[e->mat]++;
    return t + e->adv;
}

static void make_tables(tables *tb)
{
    tb->run[0] = (run_entry){0, 0, 256, 0, 0};   /* never used: runs are 1 long at least */
    for (int len = 1; len <= 259; len++) {
        run_entry *e = &tb->run[len];
        if (len <= 3) {
            *e = (run_entry){~(uint64_t)0, 0, 256, (uint8_t)len, (uint8_t)len};
        } else {
            const uint64_t match = 256 + (uint64_t)len - 4;   /* the token of length len - 1 */
            *e = (run_entry){0xFFFF0000FFFFull, match << 16, (uint16_t)(len - 4), 1, 2};
        }
    }
    /* the length codes in one pass: code c covers len_base[c] up to the next base */
    int c = 0;
    for (int l = 3; l <= 258; l++) {
        while (c < 28 && len_base[c + 1] <= l)
            c++;
        tb->lcode_of[l - 3] = (uint8_t)c;
    }
    for (uint64_t v = 0; v < 256; v++)
        tb->vvv[v] = v * 0x0000000100010001ull;
}

#if !defined(__SSE2__)
/* Bit j set where w's byte j is not 0 (w's bytes in little-endian order). */
static inline uint64_t nonzero_bytes(uint64_t x)
{
    const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full;
    /* high bit of each byte: the byte is not 0 */
    const uint64_t h = (((x & lo7) + lo7) | x) & ~lo7;
    /* gather the 8 high bits into the top byte (no carries: the partial
     * products land on distinct bits) */
    return (h >> 7) * 0x0102040810204080ull >> 56;
}
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bit j % 64 of mask[j / 64] set where p[j] != p[j - 1], for j = 1..n-1
 * (bit 0 and the bits from n on clear); n <= BLOCK_MAX. With SSE2 (every
 * x86-64): 16 bytes compared with the 16 before them shifted by one, the
 * equal ones' mask by movemask; else 8 bytes a word (nonzero_bytes). */
static void change_masks(const uint8_t *p, size_t n, uint64_t *mask)
{
    size_t w = 0, j = 0;
    if (n >= 64) {
#if defined(__SSE2__)
        {
            /* the first 64: byte 0 compared with itself (equal, bit clear) */
            const __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)p);
            const __m128i s0 = _mm_or_si128(_mm_slli_si128(v0, 1), _mm_and_si128(v0, _mm_cvtsi32_si128(0xFF)));
            uint64_t m = (uint64_t)(uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(v0, s0));
            for (int k = 1; k < 4; k++) {
                const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
                const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k - 1));
                m |= (uint64_t)(uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) << (16 * k);
            }
            mask[w++] = m;
        }
        for (j = 64; j + 64 <= n; j += 64) {
            uint64_t m = 0;
            for (int k = 0; k < 4; k++) {
                const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + j + 16 * k));
                const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + j + 16 * k - 1));
                m |= (uint64_t)(uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) << (16 * k);
            }
            mask[w++] = m;
        }
#else
        const uint64_t w0 = load64(p);
        uint64_t m = nonzero_bytes(w0 ^ w0 << 8) & ~(uint64_t)1;
        for (int k = 1; k < 8; k++)
            m |= nonzero_bytes(load64(p + 8 * k) ^ load64(p + 8 * k - 1)) << (8 * k);
        mask[w++] = m;
        for (j = 64; j + 64 <= n; j += 64) {
            m = 0;
            for (int k = 0; k < 8; k++)
                m |= nonzero_bytes(load64(p + j + 8 * k) ^ load64(p + j + 8 * k - 1)) << (8 * k);
            mask[w++] = m;
        }
#endif
    }
    if (j < n) {
        uint64_t m = 0;
        for (size_t i = j > 0 ? j : 1; i < n; i++)
            m |= (uint64_t)(p[i] != p[i - 1]) << (i - j);
        mask[w] = m;
    }
}

/* Tokens of p[0..n) (1 <= n <= BLOCK_MAX) into tok (n + TOKEN_SLACK
 * entries), their counts added into cn. Returns their number. */
static size_t tokenize(const uint8_t *p, size_t n, uint16_t *tok, counts *cn, const tables *tb)
{
    uint64_t mask[BLOCK_MAX / 64 + 1];
    change_masks(p, n, mask);
    uint16_t *t = tok;
    size_t start = 0;
    const size_t words = (n + 63) / 64;
    for (size_t w = 0; w < words; w++) {
        uint64_t m = mask[w];
        while (m) {
            const size_t c = 64 * w + (unsigned)__builtin_ctzll(m);
            m &= m - 1;
            t = emit_run(t, cn, tb, p[start], c - start);
            start = c;
        }
    }
    t = emit_run(t, cn, tb, p[start], n - start);
    return (size_t)(t - tok);
}

/* -------------------------------------------------------------- blocks */

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

/* A dynamic Huffman block's codes and header */
typedef struct plan {
    int hlit, hclen, ncls;
    uint8_t ll[NLIT], cl[NCL]; /* code lengths: literal/length, code length */
    uint32_t lc[NLIT], cc[NCL];
    uint16_t cls[NLIT + 2];    /* the run-length coded lengths, see rle_lengths */
} plan;

/* The codes of a block of n bytes with the token counts cn into pl.
 * Returns whether the coded block is smaller than the bytes stored. */
static int plan_block(plan *pl, const counts *cn, size_t n, const uint8_t *lcode_of)
{
    uint32_t lf[NLIT] = {0};
    memcpy(lf, cn->lit, sizeof cn->lit);
    for (int t = 0; t < 256; t++)
        lf[257 + lcode_of[t]] += cn->mat[t];
    lf[256] = 1;
    uint8_t *ll = pl->ll, *cl = pl->cl;
    huff_lengths(lf, NLIT, 15, ll);
    canon_codes(ll, NLIT, pl->lc);
    int hlit = NLIT;
    while (hlit > 257 && ll[hlit - 1] == 0)
        hlit--;
    uint8_t lens[NLIT + 2];
    memcpy(lens, ll, (size_t)hlit);
    lens[hlit] = lens[hlit + 1] = 1;   /* distance codes 0 and 1 */
    uint32_t cf[NCL] = {0};
    const int ncls = rle_lengths(lens, hlit + 2, pl->cls, cf);
    huff_lengths(cf, NCL, 7, cl);
    canon_codes(cl, NCL, pl->cc);
    int hclen = NCL;
    while (hclen > 4 && cl[cl_order[hclen - 1]] == 0)
        hclen--;
    pl->hlit = hlit;
    pl->hclen = hclen;
    pl->ncls = ncls;
    /* the exact size in bits against the stored size */
    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)hclen;
    for (int k = 0; k < ncls; k++)
        bits += cl[pl->cls[k] & 31] + cl_extra[pl->cls[k] & 31];
    for (int s = 0; s < NLIT; s++)
        bits += (uint64_t)lf[s] * ll[s];
    for (int c = 0; c < 29; c++)
        bits += (uint64_t)lf[257 + c] * (len_extra[c] + 1u);   /* extra bits, the distance bit */
    return bits / 8 + 1 < stored_bytes(n);
}

/* The block planned in pl of the tokens tok[0..nt). */
static void write_block(bitw *b, const plan *pl, const uint16_t *tok, size_t nt, const uint8_t *lcode_of)
{
    const uint8_t *ll = pl->ll, *cl = pl->cl;
    const uint32_t *lc = pl->lc;
    put_bits(b, 2 << 1, 3);   /* not final, dynamic */
    put_bits(b, (uint64_t)(pl->hlit - 257), 5);
    put_bits(b, 2 - 1, 5);
    put_bits(b, (uint64_t)(pl->hclen - 4), 4);
    for (int k = 0; k < pl->hclen; k++)
        put_bits(b, cl[cl_order[k]], 3);
    for (int k = 0; k < pl->ncls; k++) {
        const int s = pl->cls[k] & 31;
        put_bits(b, pl->cc[s], cl[s]);
        if (cl_extra[s])
            put_bits(b, (uint64_t)(pl->cls[k] >> 5), cl_extra[s]);
    }
    /* each token's bit string: a literal's code; a match's length code,
     * extra bits and distance code 0 (the one-bit code 0), at most 15 +
     * 5 + 1 bits */
    struct {
        uint32_t bits, n;
    } code[512];
    for (int t = 0; t < 256; t++) {
        code[t].bits = lc[t];
        code[t].n = ll[t];
        const int l = t + 3, c = lcode_of[t], s = 257 + c;
        code[256 + t].bits = lc[s] | (uint32_t)(l - len_base[c]) << ll[s];
        code[256 + t].n = ll[s] ? ll[s] + len_extra[c] + 1u : 0;
    }
    /* two tokens (<= 42 bits) a step onto < 8 pending bits, 8 bytes
     * stored each time and the whole ones kept: no branch a token (the
     * block is smaller than stored, so the bytes written ahead lie inside
     * the bound's slack) */
    uint64_t acc = b->acc;
    unsigned nb = (unsigned)b->nb;
    uint8_t *o = b->o;
    while (nb >= 8) {
        *o++ = (uint8_t)acc;
        acc >>= 8;
        nb -= 8;
    }
    size_t i = 0;
    /* short codes (most blocks of a plane worth coding): three tokens, at
     * most 3 * 19 bits onto the < 8 pending, between flushes */
    unsigned longest = 0;
    for (int t = 0; t < 512; t++)
        longest = code[t].n > longest ? code[t].n : longest;
    if (3 * longest + 7 <= 64) {
        for (; i + 3 <= nt; i += 3) {
            const unsigned t0 = tok[i], t1 = tok[i + 1], t2 = tok[i + 2];
            acc |= (uint64_t)code[t0].bits << nb;
            nb += code[t0].n;
            acc |= (uint64_t)code[t1].bits << nb;
            nb += code[t1].n;
            acc |= (uint64_t)code[t2].bits << nb;
            nb += code[t2].n;
            store64(o, acc);
            o += nb >> 3;
            acc >>= nb & ~7u;
            nb &= 7;
        }
    }
    for (; i + 2 <= nt; i += 2) {
        const unsigned t0 = tok[i], t1 = tok[i + 1];
        acc |= (uint64_t)code[t0].bits << nb;
        nb += code[t0].n;
        acc |= (uint64_t)code[t1].bits << nb;
        nb += code[t1].n;
        store64(o, acc);
        o += nb >> 3;
        acc >>= nb & ~7u;
        nb &= 7;
    }
    if (i < nt) {
        const unsigned t0 = tok[i];
        acc |= (uint64_t)code[t0].bits << nb;
        nb += code[t0].n;
        store64(o, acc);
        o += nb >> 3;
        acc >>= nb & ~7u;
        nb &= 7;
    }
    b->acc = acc;
    b->nb = (int)nb;
    b->o = o;
    put_bits(b, lc[256], ll[256]);
}

/* The coder (see ns_deflate_new): its tables, a block's tokens, and the
 * plan of the last block of one repeated byte (a plane of zeros, say the
 * top bytes of 4-byte values that fit in 2, comes back chunk after chunk;
 * the plan depends only on the byte and the length, so it is made once). */
struct ns_deflate {
    tables tb;                               /* made once, by ns_deflate_new */
    uint16_t tok[BLOCK_MAX + TOKEN_SLACK];   /* a block's tokens, at most one a byte */
    int same_ok;                             /* same_pl holds the plan of same_len bytes same_v */
    uint8_t same_v;
    int same_coded;                          /* plan_block's answer for it */
    size_t same_len;
    plan same_pl;
};

/* The n >= 1 bytes at p as runs + Huffman blocks of BLOCK_BYTES (a run
 * that crosses into the next block starts over there with a literal);
 * blocks not smaller coded go out stored, neighbours together. A block of
 * one repeated byte is one run: its tokens without the change masks, its
 * plan from the coder's cache when the byte and the length are the last
 * ones's (the same plan, so the same bytes, as a new one). */
static void coded(bitw *b, const uint8_t *p, size_t n, ns_deflate *d)
{
    const uint8_t *sp = p;   /* bytes waiting to be stored: sp[0..sn) */
    size_t sn = 0;
    plan pl;
    counts cn;
    for (size_t at = 0; at < n; at += BLOCK_BYTES) {
        /* a last piece of less than half a block goes with the one before */
        const size_t len = n - at < BLOCK_BYTES + BLOCK_BYTES / 2 ? n - at : BLOCK_BYTES;
        const uint8_t *q = p + at;
        const plan *use = &pl;
        int smaller;
        size_t nt;
        memset(&cn, 0, sizeof cn);
        if (len > 1 && q[0] == q[len - 1] && memcmp(q, q + 1, len - 1) == 0) {
            nt = (size_t)(emit_long_run(d->tok, &cn, q[0], len) - d->tok);
            if (!d->same_ok || d->same_v != q[0] || d->same_len != len) {
                d->same_coded = plan_block(&d->same_pl, &cn, len, d->tb.lcode_of);
                d->same_v = q[0];
                d->same_len = len;
                d->same_ok = 1;
            }
            use = &d->same_pl;
            smaller = d->same_coded;
        } else {
            nt = tokenize(q, len, d->tok, &cn, &d->tb);
            smaller = plan_block(&pl, &cn, len, d->tb.lcode_of);
        }
        if (smaller) {
            if (sn)
                stored(b, sp, sn);
            sn = 0;
            write_block(b, use, d->tok, nt, d->tb.lcode_of);
        } else {
            sp = sn ? sp : q;
            sn += len;
        }
        if (len != BLOCK_BYTES)
            break;
    }
    if (sn)
        stored(b, sp, sn);
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

ns_deflate *ns_deflate_new(void)
{
    ns_deflate *d = malloc(sizeof *d);
    if (d) {
        make_tables(&d->tb);
        d->same_ok = 0;
    }
    return d;
}

void ns_deflate_free(ns_deflate *d)
{
    free(d);
}

size_t ns_deflate_bound(size_t n, int nseg)
{
    /* Every block is at most its bytes stored: at most 6 bytes of framing
     * (3 bits, the padding, LEN, NLEN) a piece of <= 65535 bytes. A
     * segment of m bytes has at most m / BLOCK_BYTES + 1 blocks, and
     * they have at most m / 65535 + blocks pieces. Then the wrapper 6, the final block 2, the 8 bytes a coded
     * block may write ahead. */
    const size_t segs = (size_t)(nseg > 0 ? nseg : 1);
    return n + 6 * (n / STORED_MAX + n / BLOCK_BYTES + 2 * segs) + 16;
}

size_t ns_deflate_zlib(ns_deflate *d, const ns_deflate_seg *seg, int nseg, uint8_t *out, size_t cap)
{
    size_t total = 0;
    for (int i = 0; i < nseg; i++)
        total += seg[i].n;
    if (cap < ns_deflate_bound(total, nseg))
        return 0;
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
            coded(&b, seg[i].p, seg[i].n, d);
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
