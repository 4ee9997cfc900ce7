/* test_deflate.c - ns_deflate's zlib streams decode with zlib's own
 * inflate to the input: empty and one-byte inputs, runs of every length
 * around the match limits (258), the stored block size (65535) and the
 * coder's block size (32 KiB), random bytes (stored), small alphabets with
 * runs, one distinct byte, a Grundy-like high byte plane, counts that make
 * the Huffman tree deeper than 15 bits, coded and stored blocks taking
 * turns, several segments stored and coded in one stream, blocks of one
 * repeated byte through one coder (whose plan of such a block is reused:
 * the same bytes as a fresh coder's, the byte and the length changing and
 * coming back), and a fixed-seed fuzz loop; the coded size is checked against zlib's own Z_RLE
 * coding of the same bytes. The code lengths are checked on their own:
 * complete codes (Kraft sum 1) within the length limit whose cost is the
 * optimum under the limit (by package-merge as written here: lists of
 * items with links) and the Huffman cost where it fits. ns_adler32 equals
 * zlib's adler32 for every length 0..300, long buffers of 0xFF (the
 * largest sums), random bytes and chained calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "store/ns_deflate.h"
#include "testutil.h"

/* zlib's Z_RLE level 1 size of p[0..n) */
static size_t zlib_rle_size(const uint8_t *p, size_t n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 1, Z_DEFLATED, 15, 8, Z_RLE) != Z_OK)
        return 0;
    const size_t cap = deflateBound(&z, (uLong)n);
    uint8_t *out = malloc(cap);
    z.next_in = (Bytef *)(uintptr_t)p;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    const size_t len = out && deflate(&z, Z_FINISH) == Z_STREAM_END ? (size_t)z.total_out : 0;
    deflateEnd(&z);
    free(out);
    return len;
}

/* Encode the segments, inflate with zlib, compare; returns the size. */
static size_t round_trip(const char *what, const ns_deflate_seg *seg, int nseg)
{
    size_t total = 0, maxn = 1;
    for (int i = 0; i < nseg; i++) {
        total += seg[i].n;
        maxn = seg[i].n > maxn ? seg[i].n : maxn;
    }
    const size_t cap = ns_deflate_bound(total, nseg);
    uint8_t *out = malloc(cap), *back = malloc(total + 1), *want = malloc(total + 1);
    ns_deflate *d = ns_deflate_new();
    size_t len = 0;
    if (!out || !back || !want || !d) {
        CHECKF(0, "%s: out of memory", what);
        goto done;
    }
    size_t off = 0;
    for (int i = 0; i < nseg; i++) {
        memcpy(want + off, seg[i].p, seg[i].n);
        off += seg[i].n;
    }
    CHECKF(ns_deflate_zlib(d, seg, nseg, out, cap - 1) == 0 || cap - 1 >= ns_deflate_bound(total, nseg),
           "%s: wrote into less room than the bound", what);
    len = ns_deflate_zlib(d, seg, nseg, out, cap);
    CHECKF(len > 0 && len <= cap, "%s: %zu bytes out of %zu room", what, len, cap);
    uLongf got = (uLongf)(total + 1);
    const int zr = uncompress(back, &got, out, (uLong)len);
    CHECKF(zr == Z_OK && got == total && memcmp(back, want, total) == 0,
           "%s: zlib's inflate gave %d, %lu of %zu bytes%s", what, zr, (unsigned long)got, total,
           zr == Z_OK && got == total ? ", different bytes" : "");
done:
    free(out);
    free(back);
    free(want);
    ns_deflate_free(d);
    return len;
}

static size_t one(const char *what, const uint8_t *p, size_t n, int store)
{
    ns_deflate_seg s = {p, n, store};
    return round_trip(what, &s, 1);
}

/* ---- code lengths ---- */

/* The cost (sum of count * length) of an optimal prefix code, no limit:
 * the sum of the weights of the merged nodes (Huffman), O(m^2). */
static uint64_t huffman_cost(const uint32_t *freq, int n)
{
    uint64_t w[300];
    int m = 0;
    for (int s = 0; s < n; s++)
        if (freq[s])
            w[m++] = freq[s];
    uint64_t cost = m == 1 ? w[0] : 0;
    while (m > 1) {
        int a = 0, b = 1;
        if (w[b] < w[a])
            a = 1, b = 0;
        for (int i = 2; i < m; i++) {
            if (w[i] < w[a])
                b = a, a = i;
            else if (w[i] < w[b])
                b = i;
        }
        const uint64_t sum = w[a] + w[b];
        cost += sum;
        w[a] = sum;
        w[b] = w[--m];
    }
    return cost;
}

/* The optimal cost with no length over L (2^L >= symbols used), by
 * package-merge: L lists, the leaves sorted by count; list j is the
 * leaves merged with the pairs of list j + 1; a leaf's length is how
 * often it lies under the first 2m - 2 items of list 1. */
typedef struct pm_item {
    uint64_t w;
    int leaf;   /* the symbol, or -1 for a pair of items a, a + 1 of the next list */
    int a;
} pm_item;

static void pm_count(pm_item *const *lv, int j, int k, int *len)
{
    const pm_item *it = &lv[j][k];
    if (it->leaf >= 0) {
        len[it->leaf]++;
        return;
    }
    pm_count(lv, j + 1, it->a, len);
    pm_count(lv, j + 1, it->a + 1, len);
}

static uint64_t package_merge_cost(const uint32_t *freq, int n, int L)
{
    int sym[300], m = 0;
    for (int s = 0; s < n; s++)
        if (freq[s]) {
            int i = m++;
            for (; i > 0 && freq[sym[i - 1]] > freq[s]; i--)
                sym[i] = sym[i - 1];
            sym[i] = s;
        }
    if (m < 2)
        return m ? freq[sym[0]] : 0;
    pm_item *lv[17] = {0};
    int cnt[17] = {0}, len[300] = {0};
    for (int j = 1; j <= L; j++)
        lv[j] = malloc((size_t)(2 * m) * sizeof **lv);
    for (int i = 0; i < m; i++)
        lv[L][i] = (pm_item){freq[sym[i]], sym[i], 0};
    cnt[L] = m;
    for (int j = L - 1; j >= 1; j--) {
        int li = 0, pi = 0, k = 0;
        const int pairs = cnt[j + 1] / 2;
        while (li < m || pi < pairs) {
            const uint64_t pw = pi < pairs ? lv[j + 1][2 * pi].w + lv[j + 1][2 * pi + 1].w : UINT64_MAX;
            if (li < m && freq[sym[li]] <= pw) {
                lv[j][k++] = (pm_item){freq[sym[li]], sym[li], 0};
                li++;
            } else {
                lv[j][k++] = (pm_item){pw, -1, 2 * pi};
                pi++;
            }
        }
        cnt[j] = k;
    }
    for (int k = 0; k < 2 * m - 2; k++)
        pm_count(lv, 1, k, len);
    uint64_t cost = 0;
    for (int s = 0; s < n; s++)
        cost += (uint64_t)freq[s] * (uint64_t)len[s];
    for (int j = 1; j <= L; j++)
        free(lv[j]);
    return cost;
}

/* ns_deflate_code_lengths of freq[0..n) under maxbits, checked. */
static void check_lengths(const char *what, const uint32_t *freq, int n, int maxbits)
{
    uint8_t len[300];
    ns_deflate_code_lengths(freq, n, maxbits, len);
    int used = 0, maxlen = 0, zero_ok = 1;
    uint64_t kraft = 0, cost = 0;
    for (int s = 0; s < n; s++) {
        used += freq[s] != 0;
        zero_ok &= freq[s] ? len[s] > 0 : 1;
        maxlen = len[s] > maxlen ? len[s] : maxlen;
        if (len[s] <= maxbits)
            kraft += len[s] ? (uint64_t)1 << (maxbits - len[s]) : 0;
        cost += (uint64_t)freq[s] * len[s];
    }
    int extra = 0;   /* lengths given to unused symbols */
    for (int s = 0; s < n; s++)
        extra += !freq[s] && len[s];
    CHECKF(zero_ok && maxlen <= maxbits, "%s: a used symbol without a code, or a length %d over %d", what, maxlen,
           maxbits);
    if (used == 0) {
        CHECKF(maxlen == 0, "%s: no symbols, yet lengths", what);
        return;
    }
    CHECKF(kraft == (uint64_t)1 << maxbits, "%s: Kraft sum %llu/2^%d, a complete code expected", what,
           (unsigned long long)kraft, maxbits);
    CHECKF(extra == (used == 1), "%s: %d unused symbols with a code (%d used)", what, extra, used);
    if (used == 1)
        return;
    /* optimal: the Huffman cost where a longest code fits, else the
     * optimum under the limit */
    const uint64_t huff = huffman_cost(freq, n), opt = package_merge_cost(freq, n, maxbits);
    CHECKF(opt >= huff, "%s: package-merge %llu below Huffman %llu (the test's own references)", what,
           (unsigned long long)opt, (unsigned long long)huff);
    CHECKF(cost == opt, "%s: cost %llu, the optimum under %d bits %llu (Huffman %llu)", what,
           (unsigned long long)cost, maxbits, (unsigned long long)opt, (unsigned long long)huff);
    if (maxlen < maxbits)
        CHECKF(cost == huff, "%s: cost %llu, Huffman %llu", what, (unsigned long long)cost, (unsigned long long)huff);
}

static void code_length_cases(void)
{
    uint32_t f[286];
    char what[96];
    /* Fibonacci counts: the Huffman tree is a path, as deep as it gets */
    for (int n = 2; n <= 40; n += 3)
        for (int maxbits = 7; maxbits <= 15; maxbits += 8) {
            const int syms = maxbits == 7 ? 19 : 286;
            if (n > syms)
                continue;
            memset(f, 0, sizeof f);
            uint32_t a = 1, b = 1;
            for (int i = 0; i < n; i++) {
                f[(i * 7) % syms] = a;
                const uint32_t c = a + b;
                a = b;
                b = c > 2000000000u ? 2000000000u : c;
            }
            snprintf(what, sizeof what, "Fibonacci counts, %d symbols, %d bits", n, maxbits);
            check_lengths(what, f, syms, maxbits);
        }
    /* powers of two, all equal, one and two symbols, all 286 */
    for (int i = 0; i < 286; i++)
        f[i] = 1u << (i % 31);
    check_lengths("powers of two", f, 286, 15);
    for (int i = 0; i < 286; i++)
        f[i] = 5;
    check_lengths("286 equal counts", f, 286, 15);
    check_lengths("19 equal counts", f, 19, 7);
    memset(f, 0, sizeof f);
    check_lengths("no symbol", f, 286, 15);
    for (int s = 0; s < 19; s++) {
        memset(f, 0, sizeof f);
        f[s] = 9;
        snprintf(what, sizeof what, "only symbol %d", s);
        check_lengths(what, f, 19, 7);
        f[(s + 5) % 19] = 1000000;
        snprintf(what, sizeof what, "symbols %d and %d", s, (s + 5) % 19);
        check_lengths(what, f, 19, 7);
    }
    /* random counts, skewed (a random power of two times a random factor) */
    for (int k = 0; k < 300; k++) {
        const int n = k % 3 == 0 ? 19 : 286, maxbits = n == 19 ? 7 : 15;
        const unsigned density = 1 + (unsigned)(ns_test_rng() % 4);
        for (int s = 0; s < n; s++)
            f[s] = ns_test_rng() % 4 < density ? (uint32_t)(ns_test_rng() % 8 + 1) << (ns_test_rng() % 24) : 0;
        snprintf(what, sizeof what, "random counts %d", k);
        check_lengths(what, f, n, maxbits);
    }
}

int main(void)
{
    enum { BIG = 1 << 20 };
    uint8_t *buf = calloc(BIG, 1), *buf2 = calloc(BIG, 1);
    if (!buf || !buf2)
        return 1;
    char what[128];

    one("empty", buf, 0, 0);
    one("empty stored", buf, 0, 1);
    buf[0] = 7;
    one("one byte", buf, 1, 0);
    one("one byte stored", buf, 1, 1);
    memcpy(buf, "abcabcabcaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbb", 48);
    one("short string", buf, 48, 0);

    /* all equal, lengths around the match limit and the stored block */
    const size_t lens[] = {2, 3, 4, 257, 258, 259, 260, 516, 517, 65535, 65536, 65537, 131071, BIG};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        memset(buf, 0xA5, lens[i]);
        snprintf(what, sizeof what, "%zu equal bytes", lens[i]);
        const size_t len = one(what, buf, lens[i], 0);
        if (lens[i] >= 65536)
            CHECKF(len < lens[i] / 50, "%s: %zu bytes, expected runs to shrink it 50x", what, len);
        snprintf(what, sizeof what, "%zu equal bytes stored", lens[i]);
        one(what, buf, lens[i], 1);
    }

    /* random bytes: not smaller coded, so stored */
    for (size_t i = 0; i < BIG; i++)
        buf[i] = (uint8_t)ns_test_rng();
    const size_t rlen = one("random bytes", buf, BIG, 0);
    CHECKF(rlen <= BIG + 5 * (BIG / 65535 + 1) + 16, "random bytes: %zu, expected about the input", rlen);

    /* every byte value once, then runs */
    for (size_t i = 0; i < 256; i++)
        buf[i] = (uint8_t)i;
    for (size_t i = 256; i < 4096; i++)
        buf[i] = (uint8_t)(i / 300);
    one("256 values and runs", buf, 4096, 0);

    /* a Grundy-like high byte plane: (x + y + (x * y) % 7 + noise) / 256 */
    for (size_t x = 0; x < 512; x++)
        for (size_t y = 0; y < 1024; y++)
            buf[x * 1024 + y] = (uint8_t)((x + y + (x * y) % 7 + ns_test_rng() % 300) >> 8);
    const size_t glen = one("grundy-like plane", buf, 512 * 1024, 0);
    const size_t zlen = zlib_rle_size(buf, 512 * 1024);
    CHECKF(zlen > 0 && glen <= zlen + zlen / 10, "grundy-like plane: %zu bytes, zlib Z_RLE %zu", glen, zlen);

    /* small alphabets with runs, many sizes */
    for (int k = 0; k < 40; k++) {
        const size_t n = 1 + (size_t)(ns_test_rng() % 70000);
        const unsigned alpha = 1 + (unsigned)(ns_test_rng() % 5);
        for (size_t i = 0; i < n;) {
            const uint8_t v = (uint8_t)(ns_test_rng() % alpha * 37);
            size_t r = 1 + (size_t)(ns_test_rng() % 20);
            for (; r && i < n; r--)
                buf[i++] = v;
        }
        snprintf(what, sizeof what, "alphabet %u, %zu bytes", alpha, n);
        const size_t l = one(what, buf, n, 0);
        const size_t zl = zlib_rle_size(buf, n);
        CHECKF(l <= zl + zl / 10 + 64, "%s: %zu bytes, zlib Z_RLE %zu", what, l, zl);
    }

    /* a plane whose literal counts follow Fibonacci (1, 2, 3, 5, ...,
     * 10946: 28655 bytes, one coder block; with the end-of-block code's 1
     * the Huffman tree is a path 20 deep, to be cut to 15), no byte next
     * to an equal one (the bytes grouped, the most frequent first, laid on
     * the even places, then the odd ones) */
    {
        uint32_t fib[20] = {1, 2};
        for (int k = 2; k < 20; k++)
            fib[k] = fib[k - 1] + fib[k - 2];
        size_t n = 0, at = 0;
        for (int k = 19; k >= 0; k--)
            for (uint32_t r = 0; r < fib[k]; r++)
                buf2[n++] = (uint8_t)(k * 11);
        for (size_t i = 0; i < n; i += 2)
            buf[i] = buf2[at++];
        for (size_t i = 1; i < n; i += 2)
            buf[i] = buf2[at++];
        int adjacent = 0;
        for (size_t i = 1; i < n; i++)
            adjacent += buf[i] == buf[i - 1];
        CHECKF(n == 28655 && adjacent == 0, "Fibonacci plane: %zu bytes, %d equal neighbours", n, adjacent);
        const size_t fl = one("Fibonacci literal counts", buf, n, 0);
        CHECKF(fl < n * 3 / 4, "Fibonacci literal counts: %zu of %zu bytes, expected coded (~2 bits a byte)", fl, n);
        memcpy(buf + n, buf, n);
        one("Fibonacci literal counts, twice over", buf, 2 * n, 0);
    }

    /* coded and stored blocks taking turns (runs, random, runs, ...),
     * and runs across the 32 KiB coder blocks */
    for (size_t i = 0; i < 10 * 32768; i++)
        buf[i] = (i / 32768) % 2 ? (uint8_t)ns_test_rng() : (uint8_t)(i / 1000);
    one("coded and stored blocks in turn", buf, 10 * 32768, 0);
    one("coded and stored blocks in turn, offset", buf + 1000, 9 * 32768, 0);
    for (size_t i = 0; i < 4 * 32768; i++)
        buf[i] = (uint8_t)((i + 100) / 700);
    one("runs across coder blocks", buf, 4 * 32768 + 5 - 5, 0);

    /* blocks of one repeated byte, one coder for all (its plan of such a
     * block is kept and reused when the byte and the length come again):
     * every stream inflates to its input and equals a fresh coder's, for
     * lengths around the match limit and the coder's blocks (32 KiB, the
     * last piece up to 1.5 blocks), bytes changing and repeating, and such
     * blocks beside blocks of other bytes in one segment */
    {
        const size_t clens[] = {2, 3, 4, 259, 260, 16384, 32768, 32769, 49151, 49152, 49153, 65536, 100000};
        const uint8_t vals[] = {0, 0, 7, 255, 0};
        ns_deflate *shared = ns_deflate_new(), *fresh = NULL;
        const size_t cap = ns_deflate_bound(3 * 65536, 1);
        uint8_t *o1 = malloc(cap), *o2 = malloc(cap), *back = malloc(3 * 65536);
        CHECK(shared && o1 && o2 && back);
        for (int pass = 0; pass < 2 && shared && o1 && o2 && back; pass++) {
            for (size_t il = 0; il < sizeof clens / sizeof clens[0]; il++) {
                for (size_t iv = 0; iv < sizeof vals; iv++) {
                    for (int mixed = 0; mixed < 3; mixed++) {
                        /* mixed 1: varied bytes, then the repeated ones; 2: the other way round */
                        const size_t n = clens[il] + (mixed ? 32768 : 0);
                        const size_t rep_at = mixed == 1 ? 32768 : 0, var_at = mixed == 2 ? clens[il] : 0;
                        memset(buf + rep_at, vals[iv], clens[il]);
                        for (size_t k = 0; mixed && k < 32768; k++)
                            buf[var_at + k] = (uint8_t)(k / 5 % 3 + (k % 7 == 0));
                        const ns_deflate_seg sg = {buf, n, 0};
                        fresh = ns_deflate_new();
                        const size_t l1 = ns_deflate_zlib(shared, &sg, 1, o1, cap);
                        const size_t l2 = fresh ? ns_deflate_zlib(fresh, &sg, 1, o2, cap) : 0;
                        ns_deflate_free(fresh);
                        uLongf got = (uLongf)n;
                        const int zr = uncompress(back, &got, o1, (uLong)l1);
                        CHECKF(l1 > 0 && l1 == l2 && memcmp(o1, o2, l1) == 0 && zr == Z_OK && got == n &&
                                   memcmp(back, buf, n) == 0,
                               "%zu bytes %u (mixed %d, pass %d): %zu bytes, a fresh coder's %zu, inflate %d", clens[il],
                               (unsigned)vals[iv], mixed, pass, l1, l2, zr);
                    }
                }
            }
        }
        /* one stream of coder blocks each of one byte, the byte changing
         * and coming back */
        const uint8_t seq[] = {0, 7, 0, 0, 255, 7};
        for (size_t k = 0; k < sizeof seq; k++)
            memset(buf + 32768 * k, seq[k], 32768);
        const ns_deflate_seg sg = {buf, 32768 * sizeof seq, 0};
        uint8_t *o3 = malloc(ns_deflate_bound(sg.n, 1)), *b3 = malloc(sg.n);
        const size_t l3 = o3 && shared ? ns_deflate_zlib(shared, &sg, 1, o3, ns_deflate_bound(sg.n, 1)) : 0;
        uLongf got3 = (uLongf)sg.n;
        const int zr3 = b3 && l3 ? uncompress(b3, &got3, o3, (uLong)l3) : Z_MEM_ERROR;
        CHECKF(zr3 == Z_OK && got3 == sg.n && memcmp(b3, buf, sg.n) == 0,
               "blocks of one byte each, the byte changing: inflate %d, %lu of %zu bytes", zr3,
               (unsigned long)got3, sg.n);
        free(o3);
        free(b3);
        free(o1);
        free(o2);
        free(back);
        ns_deflate_free(shared);
    }

    /* the same input, the same stream */
    {
        const size_t n = 200000, cap = ns_deflate_bound(n, 1);
        uint8_t *o1 = malloc(cap), *o2 = malloc(cap);
        ns_deflate *d1 = ns_deflate_new(), *d2 = ns_deflate_new();
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)(ns_test_rng() % 3 ? i / 77 : ns_test_rng() % 5);
        ns_deflate_seg sg = {buf, n, 0};
        size_t l1 = 0, l2 = 1;
        if (o1 && o2 && d1 && d2) {
            /* a fresh coder and one used on other bytes before */
            uint8_t other[5000];
            for (size_t i = 0; i < sizeof other; i++)
                other[i] = (uint8_t)(i % 11 ? i : i / 3);
            const ns_deflate_seg so = {other, sizeof other, 0};
            CHECK(ns_deflate_zlib(d2, &so, 1, o2, cap) > 0);
            l1 = ns_deflate_zlib(d1, &sg, 1, o1, cap);
            l2 = ns_deflate_zlib(d2, &sg, 1, o2, cap);
        }
        CHECKF(l1 == l2 && l1 > 0 && memcmp(o1, o2, l1) == 0, "the same input twice: %zu and %zu bytes", l1, l2);
        free(o1);
        free(o2);
        ns_deflate_free(d1);
        ns_deflate_free(d2);
    }

    /* segments: stored, coded, empty, coded in one stream */
    for (size_t i = 0; i < 70000; i++) {
        buf[i] = (uint8_t)ns_test_rng();
        buf2[i] = (uint8_t)(i / 1000);
    }
    ns_deflate_seg segs[4] = {{buf, 70000, 1}, {buf2, 70000, 0}, {buf, 0, 0}, {buf2 + 5, 1000, 0}};
    round_trip("four segments", segs, 4);

    /* fuzz: random segments of random kinds (fixed seed) */
    for (int k = 0; k < 300; k++) {
        ns_deflate_seg s[3];
        const int ns = 1 + (int)(ns_test_rng() % 3);
        size_t at = 0;
        for (int i = 0; i < ns; i++) {
            const size_t n = (size_t)(ns_test_rng() % 3000);
            const int mode = (int)(ns_test_rng() % 3);
            for (size_t j = 0; j < n; j++)
                buf[at + j] = mode == 0 ? (uint8_t)ns_test_rng() : mode == 1 ? (uint8_t)(ns_test_rng() % 3) : (uint8_t)(j / 97);
            s[i].p = buf + at;
            s[i].n = n;
            s[i].store = (int)(ns_test_rng() % 4 == 0);
            at += n;
        }
        snprintf(what, sizeof what, "fuzz case %d", k);
        round_trip(what, s, ns);
    }
    code_length_cases();

    /* Adler-32 against zlib's */
    for (size_t i = 0; i < BIG; i++)
        buf[i] = (uint8_t)ns_test_rng();
    for (size_t n = 0; n <= 300; n++) {
        const uint32_t z = (uint32_t)adler32(1, buf + n, (uInt)n), ours = ns_adler32(1, buf + n, n);
        CHECKF(z == ours, "adler32 of %zu bytes: 0x%08x, zlib 0x%08x", n, ours, z);
    }
    memset(buf2, 0xFF, BIG);
    const size_t longs[] = {31, 32, 33, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1, 5552, 100000, BIG};
    for (size_t k = 0; k < sizeof longs / sizeof longs[0]; k++) {
        const uint8_t *bufs[2] = {buf, buf2};
        for (int b = 0; b < 2; b++) {
            const uint32_t z = (uint32_t)adler32(1, bufs[b], (uInt)longs[k]);
            const uint32_t ours = ns_adler32(1, bufs[b], longs[k]);
            CHECKF(z == ours, "adler32 of %zu %s bytes: 0x%08x, zlib 0x%08x", longs[k], b ? "0xFF" : "random",
                   ours, z);
        }
    }
    uint32_t za = 1, oa = 1;
    for (size_t at = 0, n; at < BIG; at += n) {
        n = 1 + (size_t)(ns_test_rng() % 70000);
        n = at + n > BIG ? BIG - at : n;
        za = (uint32_t)adler32(za, buf + at, (uInt)n);
        oa = ns_adler32(oa, buf + at, n);
    }
    CHECKF(za == oa, "chained adler32: 0x%08x, zlib 0x%08x", oa, za);
    free(buf);
    free(buf2);
    return TEST_REPORT();
}
