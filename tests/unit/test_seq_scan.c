/* test_seq_scan.c - the rare-common engine's scans for the missing rare
 * values (engine/ns_sequence.c): the vector kernel (AVX2, one- and
 * two-byte cells) and the scalar fallback (ns_engine_opts.seq_scan =
 * NS_SEQ_SCAN_SCALAR, cells of four bytes, processors without AVX2)
 * against a naive mex written here, on Grundy's game and octal codes,
 * at 1 and 2 threads.
 *
 * The naive mex: G(n) is the smallest value not among the options of a
 * heap of n, every option spelled out from the rules (Grundy's game:
 * split into two unequal non-empty heaps; an octal code d0.d1d2...: digit
 * d_t, bit 1 takes a whole heap of t, bit 2 leaves one heap, bit 4 two
 * non-empty heaps), O(N^2). It is checked against the OEIS terms of
 * Grundy's game (A002188, the terms test_octal.c holds) first.
 *
 * The group pass's spans (engine/ns_seq_group.h) are checked directly,
 * since a split marked twice changes nothing and a wrong one changes a
 * value only when it hides the mex: every part a in a span must be a
 * split of every heap of the group, of the phase's kind (early: the
 * other part below b0; late: in [b0, n0)), and never a = m / 2 of a
 * strict split (the parts themselves are rare heaps below b0, the list
 * the kernels read); the skip through a span visits every part outside
 * it.
 *
 * Each run also checks, through ns_seq_stats, that the path it means to
 * test really ran: full scans happened, and the vector kernel ran (where
 * the processor has AVX2) or did not (the fallbacks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "engine/ns_seq_group.h"
#include "game/ns_presets.h"
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
    uint32_t *g = ns_ref_heap_sequence(NULL, ns_oeis_a002188_n);
    CHECK(g != NULL);
    int bad = 0;
    for (int64_t i = 0; g && i < ns_oeis_a002188_n; i++)
        bad += g[i] != (uint32_t)ns_oeis_a002188[i];
    CHECKF(bad == 0, "the naive mex differs from A002188 in %d terms", bad);
    free(g);
}

/* ns_seq_group_span against the definition, at random block starts,
 * groups, digits, strict or not */
static void test_spans(void)
{
    int bad = 0, in = 0;
    for (int it = 0; it < 3000 && bad < 5; it++) {
        const int64_t t = (int64_t)(ns_test_rng() % 4);
        const int strict = (int)(ns_test_rng() % 2);
        const int64_t b0 = 64 + (int64_t)(ns_test_rng() % 5000);
        const int64_t groups = (b0 / 4) / NS_SEQ_GROUP; /* blocks reach a quarter of b0 */
        if (groups < 1)
            continue;
        const int64_t n0 = b0 + NS_SEQ_GROUP * (int64_t)(ns_test_rng() % (uint64_t)groups);
        const int late = (int)(ns_test_rng() % 2);
        const ns_seq_span sp = ns_seq_group_span(t, strict, n0, b0, late);
        /* the parts come from the rare heaps below b0 (rare[0..nr0)) */
        for (int64_t a = 1; a < b0; a++) {
            if (!ns_seq_in_span(&sp, a))
                continue;
            in++;
            for (int64_t h = 0; h < NS_SEQ_GROUP; h++) {
                const int64_t m = n0 + h - t, other = m - a;
                const int ok = other >= 1 && !(strict && a == other) &&
                               (late ? other >= b0 && other < n0 : other < b0);
                if (!ok && bad++ < 5)
                    CHECKF(0, "span of n0 = %lld, b0 = %lld, t = %lld, %s%s: a = %lld is not a split of heap %lld",
                           (long long)n0, (long long)b0, (long long)t, late ? "late" : "early",
                           strict ? ", strict" : "", (long long)a, (long long)(n0 + h));
            }
        }
        /* the kernels' skip: every part, the ones in the span jumped over */
        int64_t visited = 0, outside = 0;
        for (int64_t a = 1; a < n0 + NS_SEQ_GROUP; a++) {
            outside += !ns_seq_in_span(&sp, a);
            if (ns_seq_in_span(&sp, a)) {
                const int64_t nx = ns_seq_span_next(&sp, a);
                for (int64_t x = a; x < nx; x++)
                    bad += ns_seq_in_span(&sp, x) ? 0 : 1; /* jumped over a part outside it */
                a = nx - 1;
                continue;
            }
            visited++;
        }
        CHECKF(visited == outside, "the skip through the span of n0 = %lld, b0 = %lld visits %lld of %lld parts",
               (long long)n0, (long long)b0, (long long)visited, (long long)outside);
    }
    CHECKF(bad == 0, "%d parts in spans are not splits of every heap of the group (or were skipped wrongly)", bad);
    CHECKF(in > 100000, "the spans held only %d parts: the check checked little", in);
}

/* one game to n: every scan path against the naive mex */
static void check_game(const char *preset, const char *code, int64_t n)
{
    char params[32];
    ns_game *g = ns_tbuild_code(preset, code, n, params);
    uint32_t *ref = ns_ref_heap_sequence(code, n);
    CHECKF(g && ref && (!code || code[1] == '.'), "%s %s: setup", preset, params);
    if (!g || !ref)
        goto out;
    static const struct {
        int elem;
        ns_seq_scan how;
        int vec; /* 1: the vector kernel must run (with AVX2), 0: must not */
        const char *what;
    } paths[] = {{0, NS_SEQ_SCAN_AUTO, 1, "one-byte cells, vector kernel"},
                 {2, NS_SEQ_SCAN_AUTO, 1, "two-byte cells, vector kernel"},
                 {0, NS_SEQ_SCAN_SCALAR, 0, "one-byte cells, scalar fallback"},
                 {2, NS_SEQ_SCAN_SCALAR, 0, "two-byte cells, scalar fallback"},
                 {4, NS_SEQ_SCAN_AUTO, 0, "four-byte cells (scalar)"}};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        for (int th = 1; th <= 2; th++) {
            ns_seq_stats st;
            memset(&st, 0, sizeof st);
            const ns_engine_opts o = {.threads = th, .seq_scan = paths[p].how, .seq_stats = &st};
            char why[128];
            ns_table *t = ns_trun_compare(g, "rare-common", paths[p].elem, &o, ref, n, why);
            CHECKF(!why[0], "%s %s, %s, %d threads: %s", preset, params, paths[p].what, th, why);
            if (!t)
                continue;
            CHECKF(st.rc_heaps > 0 && st.scans > 0, "%s %s, %s: the method ran on %llu heaps, %llu full scans",
                   preset, params, paths[p].what, (unsigned long long)st.rc_heaps, (unsigned long long)st.scans);
            if (paths[p].vec && have_avx2())
                CHECKF(st.vec_scans > 0, "%s %s, %s: the vector kernel never ran", preset, params, paths[p].what);
            if (!paths[p].vec)
                CHECKF(st.vec_scans == 0, "%s %s, %s: the vector kernel ran on %llu heaps", preset, params,
                       paths[p].what, (unsigned long long)st.vec_scans);
            if (th == 1)
                printf("%s %s N = %lld, %s: %llu heaps by the method, %llu full scans, %llu with the vector "
                       "kernel\n",
                       preset, params, (long long)n, paths[p].what, (unsigned long long)st.rc_heaps,
                       (unsigned long long)st.scans, (unsigned long long)st.vec_scans);
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
    test_spans();
    check_game("grundys-game", NULL, 40000);
    check_game("octal", "0.1777", 40000);
    check_game("octal", "0.165", 20000);
    check_game("octal", "0.644", 20000);
    check_game("octal", "0.356", 20000);
    return TEST_REPORT();
}
