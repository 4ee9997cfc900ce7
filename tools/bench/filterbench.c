/* filterbench.c - nimsieve-bench-filter: where the CPU time of the
 * streamed output path goes, piece by piece, on real tiles (issue 19).
 *
 * The tile kernel solves GAME_PRESET at N x N into a sink that keeps every
 * tile (4 N^2 bytes); then, on one thread, every tile goes REPS times
 * through each piece of what ns_h5_stream_tile does with it (no HDF5, no
 * file): the conversion to the stored width ELEM (2 or 4 bytes; a plain
 * loop as the stream's), the shuffle, Fletcher-32 and Adler-32 of the
 * chunk, ns_deflate of byte planes 0 and 1 stored / coded, the whole
 * ns_chunkfilter_run, ns_chunkfilter_run_cells (the conversion fused with
 * the shuffle; its output is checked to be the same bytes), and the /pn
 * chunk (built and filtered) of the tiles with a P-position. Times are
 * the best pass's, in total and per MiB of raw chunk.
 *
 * usage: nimsieve-bench-filter GAME_PRESET N [REPS [ELEM [only|cells]]]
 *   only: the conversion and ns_chunkfilter_run alone; cells:
 *   ns_chunkfilter_run_cells alone (for a profiler) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ns_omp.h"
#include "engine/ns_engine.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "game/ns_table.h"
#include "store/ns_chunkfilter.h"
#include "store/ns_deflate.h"

typedef struct keep {
    int64_t tile;        /* side of a tile */
    int64_t n, nt;       /* tiles kept, room */
    uint32_t **v;        /* each tile's cells, tile x tile (0 beyond the table); owned */
} keep;

static int sink(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    keep *k = user;
    (void)x0, (void)y0;
    uint32_t *c = calloc((size_t)(k->tile * k->tile), sizeof *c);
    if (!c)
        return 1;
    for (int64_t i = 0; i < nx; i++)
        memcpy(c + i * k->tile, vals + i * ny, (size_t)ny * sizeof *c);
    int full = 0;
    NS_PRAGMA(omp critical(bench_keep))
    {
        if (k->n < k->nt)
            k->v[k->n++] = c;
        else
            full = 1;
    }
    if (full)
        free(c);
    return full;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile uint64_t sink_sum;   /* keeps results alive */

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 6) {
        fprintf(stderr, "usage: nimsieve-bench-filter GAME_PRESET N [REPS [ELEM [only|cells]]]\n");
        return 2;
    }
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = ns_preset_build(argv[1], &ps, 2, &err);
    const int64_t n = strtoll(argv[2], NULL, 10);
    const int reps = argc > 3 ? atoi(argv[3]) : 3;
    const size_t elem = argc > 4 ? (size_t)atoi(argv[4]) : 2;   /* bytes a stored value: 2 or 4 */
    /* "only": conversion + ns_chunkfilter_run alone, "cells": ns_chunkfilter_run_cells alone (for a profiler) */
    const int only = argc > 5 && strcmp(argv[5], "only") == 0, cells_only = argc > 5 && strcmp(argv[5], "cells") == 0;
    const int64_t b[2] = {n, n};
    if (!g || n < 1 || reps < 1 || (elem != 2 && elem != 4) || ns_game_set_bounds(g, b, &err)) {
        fprintf(stderr, "nimsieve-bench-filter: %s\n", err.msg[0] ? err.msg : "bad arguments");
        ns_game_free(g);
        return 1;
    }
    const int64_t T = 128;   /* the tile kernel's tile (ns_engine_plan.stream_tile) */
    keep k = {T, 0, ((n + T - 1) / T) * ((n + T - 1) / T), NULL};
    k.v = calloc((size_t)k.nt, sizeof *k.v);
    ns_engine_opts o = {.threads = 2, .tile_sink = sink, .tile_user = &k};
    if (!k.v || ns_engine_run(g, NULL, &o, &err) || k.n != k.nt) {
        fprintf(stderr, "nimsieve-bench-filter: %s\n", err.msg[0] ? err.msg : "the solve failed");
        return 1;
    }
    const size_t cells = (size_t)(T * T), raw_bytes = cells * elem, bound = ns_chunkfilter_bound(raw_bytes);
    uint8_t *raw = malloc(raw_bytes), *shuf = malloc(raw_bytes), *out = malloc(bound), *out2 = malloc(bound),
            *pn = malloc(cells);
    ns_deflate *coder = ns_deflate_new();
    ns_chunkfilter *f = ns_chunkfilter_new(raw_bytes, 1, NS_DEFLATE_PLANES, &err);
    if (!raw || !shuf || !out || !out2 || !pn || !coder || !f) {
        fprintf(stderr, "nimsieve-bench-filter: out of memory\n");
        return 1;
    }
    enum { CONVERT, SHUFFLE, FLETCHER, ADLER, STORE_BOTH, CODE_LOW, CODE_HIGH, CHUNKFILTER, CELLS, PN_BUILD,
           PN_FILTER, NP };
    static const char *names[NP] = {"convert to the stored width", "shuffle", "fletcher32 (chunk)", "adler32 (chunk)",
                                    "deflate: both planes stored", "deflate: low plane coded",
                                    "deflate: high plane coded", "ns_chunkfilter_run (all)",
                                    "ns_chunkfilter_run_cells", "/pn chunk build", "/pn chunk filter"};
    double best[NP];
    for (int p = 0; p < NP; p++)
        best[p] = 1e30;
    uint64_t gbytes = 0, pbytes = 0, ptiles = 0;
    for (int r = 0; r < reps; r++) {
        double t[NP] = {0};
        gbytes = pbytes = ptiles = 0;
        for (int64_t i = 0; i < k.n; i++) {
            const uint32_t *v = k.v[i];
            double t0 = now();
            uint32_t mx = 0, np = 0;
            for (size_t c = 0; c < cells; c++) {
                mx = v[c] > mx ? v[c] : mx;
                np += v[c] == 0;
                if (elem == 2) {
                    const uint16_t v16 = (uint16_t)v[c];
                    memcpy(raw + 2 * c, &v16, 2);
                } else {
                    memcpy(raw + 4 * c, &v[c], 4);
                }
            }
            double t1 = now();
            t[CONVERT] += t1 - t0;
            if (only) {
                size_t len = 0;
                if (ns_chunkfilter_run(f, raw, raw_bytes, elem, out, bound, &len, &err))
                    return 1;
                t[CHUNKFILTER] += now() - t1;
                gbytes += len;
                continue;
            }
            if (cells_only) {
                size_t len = 0;
                if (ns_chunkfilter_run_cells(f, v, (size_t)T, (size_t)T, (size_t)T, (size_t)T, elem, out, bound, &len,
                                             NULL, &err))
                    return 1;
                t[CELLS] += now() - t1;
                gbytes += len;
                continue;
            }
            ns_shuffle(raw, shuf, raw_bytes, elem);
            double t2 = now();
            t[SHUFFLE] += t2 - t1;
            uint64_t s = ns_fletcher32(raw, raw_bytes);
            double t3 = now();
            t[FLETCHER] += t3 - t2;
            s += ns_adler32(1, raw, raw_bytes);
            double t4 = now();
            t[ADLER] += t4 - t3;
            ns_deflate_seg seg[2] = {{shuf, cells, 1}, {shuf + cells, cells, 1}};
            s += ns_deflate_zlib(coder, seg, 2, out, bound);   /* planes 0 and 1 */
            double t5 = now();
            t[STORE_BOTH] += t5 - t4;
            seg[0].store = 0;
            s += ns_deflate_zlib(coder, seg, 1, out, bound);
            double t6 = now();
            t[CODE_LOW] += t6 - t5;
            seg[1].store = 0;
            s += ns_deflate_zlib(coder, seg + 1, 1, out, bound);
            double t7 = now();
            t[CODE_HIGH] += t7 - t6;
            size_t len = 0;
            if (ns_chunkfilter_run(f, raw, raw_bytes, elem, out, bound, &len, &err))
                return 1;
            double t8 = now();
            t[CHUNKFILTER] += t8 - t7;
            gbytes += len;
            s += len;
            ns_chunk_cells st;
            size_t len2 = 0;
            double t8b = now();
            if (ns_chunkfilter_run_cells(f, v, (size_t)T, (size_t)T, (size_t)T, (size_t)T, elem, out2, bound, &len2, &st,
                                         &err))
                return 1;
            t[CELLS] += now() - t8b;
            if (len2 != len || memcmp(out, out2, len) != 0 || st.max_value != mx || st.zeros != np) {
                fprintf(stderr, "nimsieve-bench-filter: ns_chunkfilter_run_cells differs from the plain path\n");
                return 1;
            }
            t8 = now();
            if (np) {
                for (size_t c = 0; c < cells; c++)
                    pn[c] = v[c] == 0 ? NS_PN_P : NS_PN_N;
                double t9 = now();
                t[PN_BUILD] += t9 - t8;
                if (ns_chunkfilter_run(f, pn, cells, 1, out, bound, &len, &err))
                    return 1;
                t[PN_FILTER] += now() - t9;
                pbytes += len;
                ptiles++;
            }
            sink_sum += s + mx;
        }
        for (int p = 0; p < NP; p++)
            best[p] = t[p] < best[p] ? t[p] : best[p];
    }
    const double mib = (double)k.n * (double)raw_bytes / 1048576.0;
    printf("%s %" PRId64 "^2: %" PRId64 " tiles of %" PRId64 "^2 (%.1f MiB of %zu-byte chunks), best of %d, one thread\n",
           argv[1], n, k.n, T, mib, elem, reps);
    printf("  /grundy filtered: %.1f%% of raw; /pn chunks: %" PRIu64 " (%.2f%% of tiles), %.1f%% of raw\n",
           100.0 * (double)gbytes / ((double)k.n * (double)raw_bytes), ptiles, 100.0 * (double)ptiles / (double)k.n,
           ptiles ? 100.0 * (double)pbytes / ((double)ptiles * (double)cells) : 0.0);
    printf("  %-30s %10s %10s\n", "piece", "total s", "ms/MiB");
    for (int p = 0; p < NP; p++)
        printf("  %-30s %10.4f %10.3f\n", names[p], best[p], 1e3 * best[p] / mib);
    for (int64_t i = 0; i < k.n; i++)
        free(k.v[i]);
    free(k.v);
    free(raw);
    free(shuf);
    free(out);
    free(out2);
    free(pn);
    ns_deflate_free(coder);
    ns_chunkfilter_free(f);
    ns_game_free(g);
    return 0;
}
