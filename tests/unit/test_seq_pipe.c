/* test_seq_pipe.c - the rare-common engine's pipeline over groups of 32
 * heaps (engine/ns_seq_pipe.c) against a naive mex written in the tests
 * (tests/common/naive.c, itself checked against the OEIS terms of
 * Grundy's game) and against the same engine heap by heap
 * (ns_engine_opts.seq_no_pipe), on Grundy's game and octal codes: the
 * scan kernels (AVX-512 where the processor has it, and the scalar one,
 * NS_SEQ_SCAN_SCALAR), cells of one byte (widened) and of two, 1, 2 and
 * 3 threads.
 *
 * The pipeline guesses that a heap is not rare and stops at the first
 * rare heap its checks meet; the engine starts it only some way past the
 * last rare heap (65,536 heap sizes). The runs here start it 64 heap
 * sizes past, so that it meets the rare heaps of Grundy's game (up to
 * 36,184) and of 0.1777 and starts again after each. Each run also
 * checks, through ns_seq_stats, that the pipeline really finished most
 * heaps, that it met rare heaps, and that the vector kernel ran (AVX-512)
 * or did not (scalar). Grundy's game to 40,000 also passes G = 64 and
 * G = 128 inside the pipeline, which stops it for wider bitsets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_presets.h"
#include "testutil.h"
#include "naive.h"
#include "oeis.h"
#include "tsolve.h"

static int have_avx512(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
#else
    return 0;
#endif
}

static uint64_t pipe_total; /* heaps the pipeline finished, every run */

/* every pipeline path on one game against ref (n values) */
static void check_game(const char *preset, const char *code, int64_t n, const uint32_t *ref, int need_scans, int piped)
{
    char params[32];
    ns_game *g = ns_tbuild_code(preset, code, n, params);
    CHECKF(g != NULL, "%s %s: setup", preset, params);
    if (!g)
        return;
    static const struct {
        int elem;
        ns_seq_scan how;
        const char *what;
    } paths[] = {{0, NS_SEQ_SCAN_AUTO, "one-byte cells, vector kernel"},
                 {2, NS_SEQ_SCAN_AUTO, "two-byte cells, vector kernel"},
                 {0, NS_SEQ_SCAN_SCALAR, "one-byte cells, scalar kernel"},
                 {2, NS_SEQ_SCAN_SCALAR, "two-byte cells, scalar kernel"}};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        for (int th = 1; th <= 3; th++) {
            ns_seq_stats st;
            memset(&st, 0, sizeof st);
            /* the pipeline starts 64 heaps after a rare one: it meets rare
             * heaps (Grundy's game: up to 36,184) and starts again */
            const ns_engine_opts o = {.threads = th, .seq_scan = paths[p].how, .seq_stats = &st, .seq_pipe_quiet = 64};
            char why[128];
            ns_table *t = ns_trun_compare(g, "rare-common", paths[p].elem, &o, ref, n, why);
            CHECKF(!why[0], "%s %s, %s, %d threads: %s", preset, params, paths[p].what, th, why);
            if (!t)
                continue;
            if (piped)
                CHECKF(st.pipe_heaps * 2 > (uint64_t)n, "%s %s, %s, %d threads: the pipeline finished %llu of %lld heaps",
                       preset, params, paths[p].what, th, (unsigned long long)st.pipe_heaps, (long long)n);
            pipe_total += st.pipe_heaps;
            if (need_scans)
                CHECKF(st.pipe_rare > 0, "%s %s, %s: the pipeline met no rare heap", preset, params, paths[p].what);
            if (paths[p].how == NS_SEQ_SCAN_SCALAR)
                CHECKF(st.vec_scans == 0, "%s %s, %s: a vector kernel ran on %llu heaps", preset, params,
                       paths[p].what, (unsigned long long)st.vec_scans);
            else if (have_avx512() && st.pipe_heaps > 0)
                CHECKF(st.vec_scans > 0, "%s %s, %s: the vector kernel never ran", preset, params, paths[p].what);
            if (th == 1)
                printf("%s %s N = %lld, %s: %llu heaps by the pipeline, %llu rare heaps met, %llu vector scans\n",
                       preset, params, (long long)n, paths[p].what, (unsigned long long)st.pipe_heaps,
                       (unsigned long long)st.pipe_rare, (unsigned long long)st.vec_scans);
            ns_table_free(t);
        }
    /* heap by heap: no pipeline, the same values */
    ns_seq_stats st;
    memset(&st, 0, sizeof st);
    const ns_engine_opts o = {.threads = 2, .seq_no_pipe = 1, .seq_stats = &st};
    char why[128];
    ns_table *t = ns_trun_compare(g, "rare-common", 0, &o, ref, n, why);
    CHECKF(!why[0], "%s %s, heap by heap: %s", preset, params, why);
    CHECKF(st.pipe_heaps == 0, "%s %s: seq_no_pipe still ran the pipeline (%llu heaps)", preset, params,
           (unsigned long long)st.pipe_heaps);
    ns_table_free(t);
    ns_game_free(g);
}

/* the reference of a code: the naive mex (small n) or the plain mex of
 * the sequence engine, itself tested against the naive one */
static uint32_t *reference(const char *preset, const char *code, int64_t n, int naive)
{
    if (naive)
        return ns_ref_heap_sequence(code, n);
    char params[32];
    ns_game *g = ns_tbuild_code(preset, code, n, params);
    const ns_engine_opts o = {.threads = 2};
    ns_table *t = g ? ns_trun_engine(g, "sequence", 4, &o) : NULL;
    uint32_t *ref = t ? malloc((size_t)n * sizeof *ref) : NULL;
    for (int64_t i = 0; ref && i < n; i++)
        ref[i] = ns_table_get(t, (uint64_t)i);
    ns_table_free(t);
    ns_game_free(g);
    return ref;
}

int main(void)
{
    if (!have_avx512())
        printf("no AVX-512 (VBMI) on this processor: the pipeline scans with its scalar kernel on every path\n");
    /* the naive mex against A002188 first */
    uint32_t *oe = ns_ref_heap_sequence(NULL, ns_oeis_a002188_n);
    int bad = 0;
    for (int64_t i = 0; oe && i < ns_oeis_a002188_n; i++)
        bad += oe[i] != (uint32_t)ns_oeis_a002188[i];
    CHECKF(oe && bad == 0, "the naive mex differs from A002188 in %d terms", bad);
    free(oe);

    /* naive: the reference is the naive mex (else the sequence engine's
     * plain mex); scans: the pipeline must meet rare heaps; piped: it must
     * finish most heaps (codes whose rare heaps keep coming leave it idle:
     * only the values are checked) */
    static const struct {
        const char *preset, *code;
        int64_t n;
        int naive, scans, piped;
    } games[] = {
        {"grundys-game", NULL, 30000, 1, 0, 0}, {"grundys-game", NULL, 90000, 0, 1, 1},
        {"octal", "0.1777", 30000, 1, 0, 1},    {"octal", "0.77", 12000, 0, 0, 1},
        {"octal", "0.165", 16000, 0, 0, 0},     {"octal", "0.644", 16000, 0, 0, 0},
        {"octal", "0.356", 16000, 0, 0, 0},     {"octal", "0.16", 16000, 0, 0, 0},
        {"octal", "4.37", 12000, 0, 0, 0},      {"octal", "0.754", 12000, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        uint32_t *ref = reference(games[i].preset, games[i].code, games[i].n, games[i].naive);
        CHECKF(ref != NULL, "%s %s: no reference", games[i].preset, games[i].code ? games[i].code : "");
        if (ref)
            check_game(games[i].preset, games[i].code, games[i].n, ref, games[i].scans, games[i].piped);
        free(ref);
    }
    CHECKF(pipe_total > 1000000, "the pipeline finished only %llu heaps in all runs", (unsigned long long)pipe_total);
    return TEST_REPORT();
}
