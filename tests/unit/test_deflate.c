/* test_deflate.c - ns_deflate's zlib streams decode with zlib's own
 * inflate to the input: empty and one-byte inputs, runs of every length
 * around the match limits (258) and the stored block size (65535), random
 * bytes (stored), small alphabets with runs, one distinct byte, a
 * Grundy-like high byte plane, several segments stored and coded in one
 * stream, and a fixed-seed fuzz loop; the coded size is checked against
 * zlib's own Z_RLE coding of the same bytes. ns_adler32 equals zlib's
 * adler32 for every length 0..300, long buffers of 0xFF (the largest
 * sums), random bytes and chained calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "ns_deflate.h"
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
    uint16_t *tok = malloc(maxn * sizeof *tok);
    size_t len = 0;
    if (!out || !back || !want || !tok) {
        CHECKF(0, "%s: out of memory", what);
        goto done;
    }
    size_t off = 0;
    for (int i = 0; i < nseg; i++) {
        memcpy(want + off, seg[i].p, seg[i].n);
        off += seg[i].n;
    }
    CHECKF(ns_deflate_zlib(seg, nseg, tok, out, cap - 1) == 0 || cap - 1 >= ns_deflate_bound(total, nseg),
           "%s: wrote into less room than the bound", what);
    len = ns_deflate_zlib(seg, nseg, tok, out, cap);
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
    free(tok);
    return len;
}

static size_t one(const char *what, const uint8_t *p, size_t n, int store)
{
    ns_deflate_seg s = {p, n, store};
    return round_trip(what, &s, 1);
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
