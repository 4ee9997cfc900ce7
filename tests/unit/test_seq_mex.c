/* test_seq_mex.c - the plain mex's split kernels (engine/ns_seq_mex.h,
 * ns_engine_opts.seq_mex): the vector kernels (AVX2: one-byte cells with
 * values below 128 gathered as bits in registers, one- and two-byte cells
 * into a byte map), the scalar byte map (NS_SEQ_MEX_SCALAR) and the
 * former bit-per-split kernel (NS_SEQ_MEX_BITS), against a naive mex
 * written here.
 *
 * The kernels directly: random sequences of one- and two-byte cells, every
 * value width from 1 to 12 bits, runs of splits of every length around the
 * vector steps (32 and 16 splits) and random offsets, each run's set of
 * values compared with the set built one split at a time here.
 *
 * The engines: `sequence` (and `rare-common` on codes it leaves to the
 * plain mex: no sparse space) on octal codes with splits into two heaps
 * and hexadecimal codes with splits into three, and Grundy's game, each on
 * every path, into the engine's own table (one byte a value, widened when a
 * value needs more) and into tables of two and four bytes, at 1 and 2
 * threads, against the naive mex: G(n) the smallest value not among the
 * options of a heap of n, every option spelled out from the code (digit d_t:
 * bit 1 takes a whole heap of t, bit 2 leaves one heap, bit 4 two non-empty
 * heaps, bit 8 three), O(N^2) for two heaps, O(N^3) for three. The naive
 * mex is itself checked against the OEIS terms of Kayles (A002186),
 * Dawson's chess (A002187; Dawson's Kayles 0.07 is the same shifted by
 * one, a(n-1)) and Grundy's game (A002188). The sizes make the values
 * reach every width the kernels treat apart: below 64 and 128 (bits in
 * registers), below 256 (byte map of one-byte cells), and past 255 (the
 * table widens to two bytes). Through ns_seq_stats each run also checks
 * that the path it means to test ran: heaps by the plain mex, and the
 * vector kernel on them (where the processor has AVX2) or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "engine/ns_seq_mex.h"
#include "testutil.h"
#include "naive.h"
#include "oeis.h"
#include "tsolve.h"


static int have_avx2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

static void test_naive(void)
{
    const struct {
        const char *code; /* NULL: Grundy's game */
        const int *ref;
        int64_t len, shift; /* G(n) = ref[n - shift] */
    } oeis[] = {{"0.77", ns_oeis_a002186, ns_oeis_a002186_n, 0},
                {"0.137", ns_oeis_a002187, ns_oeis_a002187_n, 0},
                {"0.07", ns_oeis_a002187, ns_oeis_a002187_n, 1},
                {NULL, ns_oeis_a002188, ns_oeis_a002188_n, 0}};
    for (size_t i = 0; i < sizeof oeis / sizeof oeis[0]; i++) {
        const int64_t n = oeis[i].len + oeis[i].shift;
        uint32_t *g = ns_ref_heap_sequence(oeis[i].code, n);
        CHECK(g != NULL);
        int bad = 0;
        for (int64_t k = oeis[i].shift; g && k < n; k++)
            bad += g[k] != (uint32_t)oeis[i].ref[k - oeis[i].shift];
        CHECKF(bad == 0, "the naive mex of %s differs from the OEIS in %d terms",
               oeis[i].code ? oeis[i].code : "Grundy's game", bad);
        free(g);
    }
}

/* words of a bitset of every value below 2^b */
static uint64_t words_of_bits(int b)
{
    return b <= 6 ? 1 : (uint64_t)1 << (b - 6);
}

/* ns_seq_pairs_mark + ns_seq_map_fold against the set built here */
static void test_kernels(void)
{
    const int vecs = have_avx2() ? 2 : 1;
    int bad = 0, runs = 0, clean = 1;
    for (int it = 0; it < 6000 && bad < 5; it++) {
        const int elem = it % 2 ? 2 : 1;
        const int b = 1 + (int)(ns_test_rng() % (elem == 1 ? 8 : 12)); /* values below 2^b */
        const uint64_t w = words_of_bits(b);
        const int64_t len = 2 + (int64_t)(ns_test_rng() % (it % 7 == 0 ? 3000 : 300));
        uint8_t *g8 = malloc((size_t)len);
        uint16_t *g16 = malloc((size_t)len * 2);
        uint8_t *map = calloc(w * 64, 1);
        uint64_t *ref = calloc(w, 8), *s = calloc(w, 8);
        if (!g8 || !g16 || !map || !ref || !s) {
            CHECK(0);
            free(g8), free(g16), free(map), free(ref), free(s);
            return;
        }
        for (int64_t i = 0; i < len; i++)
            g16[i] = (uint16_t)(g8[i] = (uint8_t)(ns_test_rng() & (((uint64_t)1 << b) - 1)));
        if (elem == 2)
            for (int64_t i = 0; i < len; i++)
                g16[i] = (uint16_t)(ns_test_rng() & (((uint64_t)1 << b) - 1));
        const void *g = elem == 1 ? (const void *)g8 : (const void *)g16;
        /* splits (a, m - a) with 0 <= a and m - a < len */
        const int64_t m = 1 + (int64_t)(ns_test_rng() % (uint64_t)(len - 1));
        const int64_t a0 = (int64_t)(ns_test_rng() % (uint64_t)(m + 1));
        const int64_t span = (int64_t)(ns_test_rng() % 3 ? ns_test_rng() % 70 : ns_test_rng() % (uint64_t)(m + 1));
        const int64_t a1 = a0 - 1 + span > m ? m : a0 - 1 + span;
        const uint32_t x = ns_test_rng() % 4 ? 0 : (uint32_t)(ns_test_rng() & (((uint64_t)1 << b) - 1));
        memset(ref, 0, w * 8);
        for (int64_t a = a0; a <= a1; a++) {
            const uint32_t v = x ^ (elem == 1 ? (uint32_t)g8[a] ^ g8[m - a] : (uint32_t)g16[a] ^ g16[m - a]);
            ref[v >> 6] |= (uint64_t)1 << (v & 63);
        }
        for (int vec = 0; vec < vecs; vec++) {
            memset(s, 0, w * 8);
            ns_seq_pairs_mark(g, elem, x, m, a0, a1, map, s, w, vec);
            ns_seq_map_fold(map, s, w);
            runs++;
            for (uint64_t q = 0; q < w * 64; q++)
                clean &= map[q] == 0;
            if (memcmp(s, ref, w * 8) != 0 && bad++ < 5)
                CHECKF(0, "%d-byte cells, values below 2^%d, x = %u, m = %lld, a in [%lld, %lld], %s kernel: "
                       "the set differs from the one built split by split",
                       elem, b, x, (long long)m, (long long)a0, (long long)a1, vec ? "vector" : "scalar");
        }
        free(g8), free(g16), free(map), free(ref), free(s);
    }
    CHECKF(bad == 0, "%d of %d kernel runs gave a wrong set", bad, runs);
    CHECKF(clean, "a map was not all zero after its fold");
}

/* one game to n: every kernel of the engine against the naive mex; vmin:
 * the largest value the size must reach (the widths it means to test) */
static void check_game(const char *engine, const char *preset, const char *code, int64_t n, uint32_t vmin)
{
    char params[32];
    ns_game *g = ns_tbuild_code(preset, code, n, params);
    uint32_t *ref = ns_ref_heap_sequence(code, n);
    CHECKF(g && ref && (!code || code[1] == '.'), "%s %s: setup", preset, params);
    if (!g || !ref)
        goto out;
    uint32_t vmax = 0;
    for (int64_t i = 0; i < n; i++)
        vmax = ref[i] > vmax ? ref[i] : vmax;
    CHECKF(vmax >= vmin, "%s %s N = %lld: the values reach %u, not %u: the widths meant are not tested", preset,
           params, (long long)n, vmax, vmin);
    static const struct {
        int elem;
        ns_seq_mex how;
        int vec; /* 1: the vector kernel must run (with AVX2), 0: must not */
        const char *what;
    } paths[] = {{0, NS_SEQ_MEX_AUTO, 1, "own table, vector kernels"},
                 {2, NS_SEQ_MEX_AUTO, 1, "two-byte cells, vector kernel"},
                 {0, NS_SEQ_MEX_SCALAR, 0, "own table, scalar byte map"},
                 {2, NS_SEQ_MEX_SCALAR, 0, "two-byte cells, scalar byte map"},
                 {0, NS_SEQ_MEX_BITS, 0, "own table, bit per split"},
                 {4, NS_SEQ_MEX_AUTO, 1, "four-byte cells, vector kernel"},
                 {4, NS_SEQ_MEX_SCALAR, 0, "four-byte cells, scalar byte map"},
                 {4, NS_SEQ_MEX_BITS, 0, "four-byte cells, bit per split"}};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        for (int th = 1; th <= 2; th++) {
            ns_seq_stats st;
            memset(&st, 0, sizeof st);
            const ns_engine_opts o = {.threads = th, .seq_mex = paths[p].how, .seq_stats = &st};
            char why[128];
            ns_table *t = ns_trun_compare(g, engine, paths[p].elem, &o, ref, n, why);
            CHECKF(!why[0], "%s %s, %s, %s, %d threads: %s (against the naive mex)", preset, params, engine,
                   paths[p].what, th, why);
            if (!t)
                continue;
            CHECKF(st.mex_heaps > 0, "%s %s, %s %s: no heap by the plain mex", preset, params, engine,
                   paths[p].what);
            if (paths[p].vec && have_avx2())
                CHECKF(st.mex_vec > 0, "%s %s, %s %s: the vector kernel never ran", preset, params, engine,
                       paths[p].what);
            if (!paths[p].vec)
                CHECKF(st.mex_vec == 0, "%s %s, %s %s: the vector kernel ran on %llu heaps", preset, params, engine,
                       paths[p].what, (unsigned long long)st.mex_vec);
            if (th == 1 && p == 0)
                printf("%s %s N = %lld (values to %u), %s: %llu heaps by the plain mex, %llu with the vector kernel\n",
                       preset, params, (long long)n, vmax, engine, (unsigned long long)st.mex_heaps,
                       (unsigned long long)st.mex_vec);
            ns_table_free(t);
        }
out:
    free(ref);
    ns_game_free(g);
}

int main(void)
{
    if (!have_avx2())
        printf("no AVX2 on this processor: only the scalar paths run (their checks still do)\n");
    test_naive();
    test_kernels();
    /* values below 64 and 128: bits in registers */
    check_game("sequence", "octal", "0.77", 6000, 8);
    check_game("sequence", "octal", "0.07", 6000, 8);
    check_game("sequence", "octal", "0.14", 6000, 16);
    check_game("sequence", "grundys-game", NULL, 6000, 64);
    /* below 256: the byte map of one-byte cells; then past 255 */
    check_game("sequence", "octal", "0.37", 12000, 256);
    check_game("sequence", "octal", "0.76", 8000, 256);
    /* no sparse space: rare-common runs the plain mex */
    check_game("rare-common", "octal", "0.04", 12000, 256);
    check_game("rare-common", "octal", "0.76", 8000, 256);
    /* three heaps (hexadecimal digits; the three-heap values are marked
     * by ns_seq_split3, the rest by the kernels) */
    check_game("sequence", "octal", "0.f", 400, 1);
    check_game("sequence", "octal", "0.9b", 400, 128);
    check_game("sequence", "octal", "0.4c", 700, 256);
    return TEST_REPORT();
}
