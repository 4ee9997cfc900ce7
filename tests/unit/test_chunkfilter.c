/* test_chunkfilter.c - the chunk filter on its own (no HDF5 here; the
 * checks against HDF5 itself are in test_h5_direct.c): HDF5's shuffle
 * layout on small known cases, the Fletcher-32 checksum (the vector loop
 * and the portable one) against a literal evaluation of its definition
 * with exact integer sums, at every length around their steps and blocks,
 * unaligned, on bytes that give the largest sums; chunks given as 32-bit
 * cells (ns_chunkfilter_run_cells) against the same chunk converted here
 * and filtered by ns_chunkfilter_run, every shape and width; and filter + undo
 * round trips of both deflate modes, odd and even sizes, with a damaged
 * byte caught. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/ns_chunkfilter.h"
#include "testutil.h"

/* ---- shuffle ---- */

static void test_shuffle(void)
{
    /* two little-endian uint16 0x0102, 0x0304: low bytes, then high bytes */
    const uint8_t in2[4] = {0x02, 0x01, 0x04, 0x03}, want2[4] = {0x02, 0x04, 0x01, 0x03};
    uint8_t out[64], back[64];
    ns_shuffle(in2, out, 4, 2);
    CHECK(memcmp(out, want2, 4) == 0);

    /* 3-byte elements, 2 of them, 2 bytes left over: kept at the end */
    const uint8_t in3[8] = {1, 2, 3, 4, 5, 6, 7, 8}, want3[8] = {1, 4, 2, 5, 3, 6, 7, 8};
    ns_shuffle(in3, out, 8, 3);
    CHECK(memcmp(out, want3, 8) == 0);

    /* one element, or 1-byte elements: unchanged */
    ns_shuffle(in3, out, 8, 8);
    CHECK(memcmp(out, in3, 8) == 0);
    ns_shuffle(in3, out, 8, 1);
    CHECK(memcmp(out, in3, 8) == 0);

    /* the inverse, every size and element size */
    uint8_t data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (uint8_t)ns_test_rng();
    for (size_t elem = 1; elem <= 9; elem++) {
        for (size_t n = 0; n <= 64; n++) {
            ns_shuffle(data, out, n, elem);
            ns_unshuffle(out, back, n, elem);
            CHECKF(memcmp(back, data, n) == 0, "unshuffle(shuffle) elem %zu, %zu bytes", elem, n);
            /* byte b of element i lands at b * count + i */
            const size_t cnt = n / elem;
            int ok = 1;
            if (elem > 1 && cnt > 1)
                for (size_t i = 0; i < cnt; i++)
                    for (size_t b = 0; b < elem; b++)
                        ok &= out[b * cnt + i] == data[i * elem + b];
            CHECKF(ok, "shuffle layout elem %zu, %zu bytes", elem, n);
        }
    }
}

/* ---- Fletcher-32 ---- */

/* The definition, literally: exact sums of the big-endian 16-bit words and
 * of the running sums (at most a few million words here, so they fit 64
 * bits), then each reduced to ones'-complement form modulo 65535. */
static uint32_t fletcher_reference(const uint8_t *p, size_t len)
{
    uint64_t s1 = 0, s2 = 0;
    for (size_t i = 0; i < len; i += 2) {
        uint64_t w = (uint64_t)p[i] << 8 | (i + 1 < len ? p[i + 1] : 0);
        s1 += w;
        s2 += s1;
    }
    uint64_t a = s1 == 0 ? 0 : (s1 - 1) % 65535 + 1;
    uint64_t b = s2 == 0 ? 0 : (s2 - 1) % 65535 + 1;
    return (uint32_t)(b << 16 | a);
}

static void test_fletcher(void)
{
    uint8_t buf[8] = {0};
    CHECK(ns_fletcher32(buf, 0) == 0);
    CHECK(ns_fletcher32(buf, 7) == 0);
    /* one word 0xFFFF: a multiple of 65535 that is not 0 stays 65535 */
    buf[0] = buf[1] = 0xFF;
    CHECK(ns_fletcher32(buf, 2) == 0xFFFFFFFFu);
    /* words 0x0102, 0x0304: A = 0x0406, B = 0x0102 + 0x0406 = 0x0508 */
    const uint8_t w2[4] = {1, 2, 3, 4};
    CHECK(ns_fletcher32(w2, 4) == 0x05080406u);
    /* odd: the last byte is a high half, 0x0300 */
    CHECK(ns_fletcher32(w2, 3) == ((0x0102u + 0x0402u) << 16 | 0x0402u));

    /* long inputs cross the blocks between reductions; all-0xFF bytes give
     * the largest sums */
    const size_t n = (size_t)3 << 17;   /* 196608 words */
    uint8_t *big = malloc(n * 2 + 1);
    CHECK(big != NULL);
    if (!big)
        return;
    const int kinds = 4;
    for (int kind = 0; kind < kinds; kind++) {
        for (size_t i = 0; i < n * 2 + 1; i++)
            big[i] = kind == 0 ? 0xFF : kind == 1 ? (uint8_t)ns_test_rng() : kind == 2 ? (uint8_t)(i % 7 == 0) : 0;
        /* around the portable loop's blocks (2^16 words) and the vector
         * loop's steps (32 bytes) and blocks (1024 steps, 32768 bytes) */
        const size_t lens[] = {1,     2,     3,     31,    32,    33,    63,     64,     65,     66,    719,
                               720,   721,   32767, 32768, 32769, 32800, 32801,  65535,  65536,  65537, 131071,
                               131072, 131073, 262145, n * 2, n * 2 + 1};
        for (size_t j = 0; j < sizeof lens / sizeof lens[0]; j++) {
            for (size_t at = 0; at < 3; at++) {   /* unaligned starts too */
                if (lens[j] + at > n * 2 + 1)
                    continue;
                const uint32_t want = fletcher_reference(big + at, lens[j]);
                const uint32_t got = ns_fletcher32(big + at, lens[j]), port = ns_fletcher32_portable(big + at, lens[j]);
                CHECKF(got == want && port == want, "kind %d, %zu bytes at +%zu: 0x%08" PRIx32 " (portable 0x%08"
                       PRIx32 "), expected 0x%08" PRIx32, kind, lens[j], at, got, port, want);
            }
        }
    }
    /* every length 0..300 on random bytes, both loops */
    for (size_t len = 0; len <= 300; len++) {
        for (size_t i = 0; i < len; i++)
            big[i] = (uint8_t)ns_test_rng();
        const uint32_t want = fletcher_reference(big, len);
        CHECKF(ns_fletcher32(big, len) == want && ns_fletcher32_portable(big, len) == want,
               "random, %zu bytes", len);
    }
    /* all zero but one byte, at every place of a 64-byte buffer: the zero
     * test sees every byte */
    for (size_t at = 0; at < 64; at++) {
        uint8_t z[64] = {0};
        z[at] = 0x80;
        const uint32_t want = fletcher_reference(z, 64);
        CHECKF(want != 0 && ns_fletcher32(z, 64) == want && ns_fletcher32_portable(z, 64) == want,
               "one byte 0x80 at %zu of 64", at);
    }
    /* sums landing on multiples of 65535: words chosen so that A is 65535 * j */
    for (int j = 1; j <= 3; j++) {
        uint8_t s[6] = {0};
        uint32_t total = 65535u * (uint32_t)j;
        for (int w = 0; w < 3; w++) {
            uint32_t v = total > 0xFFFF ? 0xFFFF : total;
            s[2 * w] = (uint8_t)(v >> 8);
            s[2 * w + 1] = (uint8_t)v;
            total -= v;
        }
        CHECK(ns_fletcher32(s, 6) == fletcher_reference(s, 6));
        CHECK(ns_fletcher32_portable(s, 6) == fletcher_reference(s, 6));
        CHECK((ns_fletcher32(s, 6) & 0xFFFF) == 0xFFFF);
    }
    free(big);
}

/* ---- filter and undo ---- */

static void fill(uint8_t *p, size_t n, size_t elem, int kind)
{
    for (size_t i = 0; i < n; i++) {
        const size_t e = i / elem, b = i % elem;
        switch (kind) {
        case 0: p[i] = (uint8_t)ns_test_rng(); break;                          /* random */
        case 1: p[i] = 0; break;                                       /* zeros */
        case 2: p[i] = b == 0 ? (uint8_t)ns_test_rng() : (uint8_t)(e >> 12); /* Grundy-like: random low, slow high */
                break;
        default: p[i] = (uint8_t)((e * 2654435761u) >> (8 * b)); break;
        }
    }
}

static void test_roundtrip(void)
{
    const size_t max = 70001 * 8;
    uint8_t *raw = malloc(max), *out = malloc(ns_chunkfilter_bound(max)), *back = malloc(max);
    CHECK(raw && out && back);
    if (!raw || !out || !back)
        goto done;
    const size_t elems[] = {1, 2, 4, 8};
    const size_t counts[] = {1, 2, 3, 1000, 1001, 70001};
    int odd = 0, even = 0;
    for (int mode = 0; mode < 2; mode++) {
        ns_error err = {0};
        ns_chunkfilter *f = ns_chunkfilter_new(max, 1, (ns_deflate_mode)mode, &err);
        CHECKF(f != NULL, "new: %s", err.msg);
        if (!f)
            continue;
        for (size_t ie = 0; ie < 4; ie++) {
            for (size_t ic = 0; ic < 6; ic++) {
                for (int kind = 0; kind < 4; kind++) {
                    const size_t elem = elems[ie], n = counts[ic] * elem;
                    fill(raw, n, elem, kind);
                    size_t len = 0, len2 = 0;
                    ns_err rc = ns_chunkfilter_run(f, raw, n, elem, out, ns_chunkfilter_bound(n), &len, &err);
                    CHECKF(rc == NS_OK, "mode %d elem %zu n %zu kind %d: %s", mode, elem, n, kind, err.msg);
                    if (rc)
                        continue;
                    CHECK(len >= 4 + 6 && len <= ns_chunkfilter_bound(n));
                    odd += (len - 4) % 2 == 1;
                    even += (len - 4) % 2 == 0;
                    memset(back, 0xA5, n);
                    rc = ns_chunkfilter_undo(out, len, elem, back, n, &err);
                    CHECKF(rc == NS_OK && memcmp(back, raw, n) == 0, "mode %d elem %zu n %zu kind %d: %s", mode,
                           elem, n, kind, err.msg);
                    /* the same input gives the same bytes */
                    uint8_t *again = malloc(ns_chunkfilter_bound(n));
                    if (again) {
                        CHECK(ns_chunkfilter_run(f, raw, n, elem, again, ns_chunkfilter_bound(n), &len2, &err) ==
                              NS_OK);
                        CHECK(len2 == len && memcmp(again, out, len) == 0);
                        free(again);
                    }
                    /* one damaged byte is caught */
                    const size_t at = (size_t)(ns_test_rng() % len);
                    out[at] ^= 0x10;
                    rc = ns_chunkfilter_undo(out, len, elem, back, n, &err);
                    CHECKF(rc == NS_EFORMAT, "mode %d elem %zu n %zu kind %d: damage at %zu not caught", mode,
                           elem, n, kind, at);
                }
            }
        }
        ns_chunkfilter_free(f);
    }
    CHECKF(odd > 10 && even > 10, "deflate output lengths: %d odd, %d even", odd, even);

    /* NS_DEFLATE_PLANES stores random planes and compresses the others:
     * uint16 with a random low byte and a constant high byte comes out at
     * a little over half its size; plain deflate would not get there */
    {
        ns_error err = {0};
        ns_chunkfilter *f = ns_chunkfilter_new(max, 1, NS_DEFLATE_PLANES, &err);
        const size_t n = 65536 * 2;
        for (size_t i = 0; i < n; i++)
            raw[i] = i % 2 ? 7 : (uint8_t)ns_test_rng();
        size_t len = 0;
        CHECK(f && ns_chunkfilter_run(f, raw, n, 2, out, ns_chunkfilter_bound(n), &len, &err) == NS_OK);
        CHECKF(len > n / 2 && len < n / 2 + n / 100, "random low plane + constant high plane: %zu of %zu", len,
               n);
        CHECK(ns_chunkfilter_undo(out, len, 2, back, n, &err) == NS_OK && memcmp(back, raw, n) == 0);
        ns_chunkfilter_free(f);
    }

    /* which planes are stored: bytes drawn uniformly from k values have a
     * collision entropy of log2 k bits; above NS_CHUNKFILTER_STORE_BITS (7)
     * the plane is stored (the stream at least its size), below it coded
     * (a Huffman code of the k values: about log2 k / 8 of it) */
    {
        ns_error err = {0};
        ns_chunkfilter *f = ns_chunkfilter_new(max, 1, NS_DEFLATE_PLANES, &err);
        const size_t n = 65536;
        const unsigned ks[] = {256, 200, 150, 129, 100, 64, 16};
        for (size_t ik = 0; f && ik < sizeof ks / sizeof ks[0]; ik++) {
            const unsigned k = ks[ik];
            for (size_t i = 0; i < n; i++)
                raw[i] = (uint8_t)(ns_test_rng() % k);
            size_t len = 0;
            CHECK(ns_chunkfilter_run(f, raw, n, 1, out, ns_chunkfilter_bound(n), &len, &err) == NS_OK);
            if (k > 128)   /* log2 k > 7: stored */
                CHECKF(len >= n && len < n + n / 100, "%u values: %zu bytes of %zu (stored expected)", k, len, n);
            else   /* coded: log2(100) / 8 = 0.83, 6 / 8, 4 / 8 of it, and the block headers */
                CHECKF((double)len < (double)n * (log2((double)k) / 8 + 0.02), "%u values: %zu bytes of %zu "
                       "(coded expected)", k, len, n);
            CHECK(ns_chunkfilter_undo(out, len, 1, back, n, &err) == NS_OK && memcmp(back, raw, n) == 0);
        }
        ns_chunkfilter_free(f);
    }

    /* bad arguments */
    {
        ns_error err = {0};
        CHECK(ns_chunkfilter_new(100, 0, NS_DEFLATE_PLAIN, &err) == NULL && err.code == NS_EINTERNAL);
        ns_chunkfilter *f = ns_chunkfilter_new(100, 1, NS_DEFLATE_PLAIN, &err);
        size_t len;
        CHECK(f && ns_chunkfilter_run(f, raw, 101, 1, out, ns_chunkfilter_bound(101), &len, &err) == NS_EINTERNAL);
        CHECK(f && ns_chunkfilter_run(f, raw, 100, 1, out, 10, &len, &err) == NS_EINTERNAL);
        ns_chunkfilter_free(f);
        CHECK(ns_chunkfilter_undo(out, 3, 1, back, 10, &err) == NS_EFORMAT);
    }
done:
    free(raw);
    free(out);
    free(back);
}

/* ---- chunks given as 32-bit cells ---- */

/* The c0 x c1 chunk of elem-byte little-endian elements that
 * ns_chunkfilter_run_cells is to filter, written out plainly. */
static void cells_reference(const uint32_t *v, size_t nx, size_t ny, size_t c0, size_t c1, size_t elem, uint8_t *raw)
{
    memset(raw, 0, c0 * c1 * elem);
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++)
            for (size_t b = 0; b < elem; b++)
                raw[(i * c1 + j) * elem + b] = (uint8_t)(v[i * ny + j] >> (8 * b));
}

static void test_cells(void)
{
    const size_t maxc = 130;
    const size_t max = maxc * maxc * 4;
    uint32_t *v = malloc(maxc * maxc * sizeof *v);
    uint8_t *raw = malloc(max), *o1 = malloc(ns_chunkfilter_bound(max)), *o2 = malloc(ns_chunkfilter_bound(max));
    uint8_t *back = malloc(max);
    CHECK(v && raw && o1 && o2 && back);
    if (!v || !raw || !o1 || !o2 || !back)
        goto done;
    /* chunk shapes, cells given (full, cut on either side, one cell, one row) */
    const size_t shapes[][4] = {{128, 128, 128, 128}, {128, 128, 100, 128}, {128, 128, 128, 37},
                                {130, 129, 1, 1},     {1, 1, 1, 1},         {1, 130, 1, 77},
                                {7, 3, 7, 3},         {64, 130, 63, 129},   {2, 2, 0, 0}};
    for (int mode = 0; mode < 2; mode++) {
        ns_error err = {0};
        ns_chunkfilter *f = ns_chunkfilter_new(max, 1, (ns_deflate_mode)mode, &err);
        CHECKF(f != NULL, "new: %s", err.msg);
        for (size_t is = 0; f && is < sizeof shapes / sizeof shapes[0]; is++) {
            const size_t c0 = shapes[is][0], c1 = shapes[is][1], nx = shapes[is][2], ny = shapes[is][3];
            for (size_t elem = 1; elem <= 4; elem *= 2) {
                for (int kind = 0; kind < 3; kind++) {
                    /* Grundy-like (slow high bytes), any 32 bits (cut to elem bytes), mostly 0 */
                    uint32_t mx = 0;
                    uint64_t zeros = 0;
                    for (size_t k = 0; k < nx * ny; k++) {
                        const uint32_t r = (uint32_t)ns_test_rng();
                        v[k] = kind == 0 ? (uint32_t)(k / 97 * 3 + r % 5) : kind == 1 ? r : (r % 8 == 0 ? r % 300 : 0);
                        mx = v[k] > mx ? v[k] : mx;
                        zeros += v[k] == 0;
                    }
                    const size_t nbytes = c0 * c1 * elem;
                    size_t l1 = 0, l2 = 0;
                    ns_chunk_cells st = {1, 1};
                    /* the filter's scratch full of other bytes first: every byte of the chunk is written */
                    memset(raw, 0xA5, max);
                    CHECK(ns_chunkfilter_run(f, raw, max, 1, o1, ns_chunkfilter_bound(max), &l1, &err) == NS_OK);
                    ns_err rc = ns_chunkfilter_run_cells(f, v, nx, ny, c0, c1, elem, o2, ns_chunkfilter_bound(nbytes),
                                                         &l2, &st, &err);
                    cells_reference(v, nx, ny, c0, c1, elem, raw);
                    CHECK(ns_chunkfilter_run(f, raw, nbytes, elem, o1, ns_chunkfilter_bound(nbytes), &l1, &err) == NS_OK);
                    CHECKF(rc == NS_OK && l1 == l2 && memcmp(o1, o2, l1) == 0 && st.max_value == mx &&
                           st.zeros == zeros, "mode %d, %zu x %zu cells of a %zu x %zu chunk, elem %zu, kind %d: "
                           "%zu bytes against %zu, max %u (%u), zeros %llu (%llu)", mode, nx, ny, c0, c1, elem, kind,
                           l2, l1, (unsigned)st.max_value, (unsigned)mx, (unsigned long long)st.zeros,
                           (unsigned long long)zeros);
                    CHECK(ns_chunkfilter_undo(o2, l2, elem, back, nbytes, &err) == NS_OK &&
                          memcmp(back, raw, nbytes) == 0);
                }
            }
        }
        /* bad arguments: 3-byte elements, more cells than the chunk, a chunk over max_bytes, no room */
        size_t len = 0;
        if (f) {
            CHECK(ns_chunkfilter_run_cells(f, v, 2, 2, 2, 2, 3, o2, ns_chunkfilter_bound(12), &len, NULL, &err) ==
                  NS_EINTERNAL);
            CHECK(ns_chunkfilter_run_cells(f, v, 3, 2, 2, 2, 2, o2, ns_chunkfilter_bound(8), &len, NULL, &err) ==
                  NS_EINTERNAL);
            CHECK(ns_chunkfilter_run_cells(f, v, 1, 1, maxc, maxc + 1, 4, o2, ns_chunkfilter_bound(max + 4 * maxc),
                                           &len, NULL, &err) == NS_EINTERNAL);
            CHECK(ns_chunkfilter_run_cells(f, v, 2, 2, 2, 2, 2, o2, 8, &len, NULL, &err) == NS_EINTERNAL);
        }
        ns_chunkfilter_free(f);
    }
done:
    free(v);
    free(raw);
    free(o1);
    free(o2);
    free(back);
}

int main(void)
{
    *ns_test_rng_state() = 0x2545F4914F6CDD1Dull;   /* the inputs this test was written with */
    test_shuffle();
    test_fletcher();
    test_roundtrip();
    test_cells();
    return TEST_REPORT();
}
