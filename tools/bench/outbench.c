/* outbench.c - nimsieve-bench-out: the tile kernel alone, its finished
 * tiles handed to a sink that discards them (no file, no filter), for the
 * output-path benchmark (tools/bench/output.sh compares it with `nimsieve
 * solve` streamed and in memory, in the same run).
 *
 * usage: nimsieve-bench-out GAME_PRESET N THREADS
 * prints one line: "kernel <seconds> <max value>" (wall time of the run
 * of the engine, the plan's sets allocated inside it, as in a solve). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/ns_omp.h"
#include "engine/ns_engine.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"

typedef struct discard {
    uint32_t mx[256];   /* per thread, so that the tiles are read */
} discard;

static int sink(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *v)
{
    discard *d = user;
    (void)x0, (void)y0;
    uint32_t m = 0;
    for (int64_t i = 0; i < nx * ny; i++)
        m = v[i] > m ? v[i] : m;
    uint32_t *slot = &d->mx[ns_omp_thread_num() & 255];
    *slot = m > *slot ? m : *slot;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: nimsieve-bench-out GAME_PRESET N THREADS\n");
        return 2;
    }
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = ns_preset_build(argv[1], &ps, 2, &err);
    const int64_t n = strtoll(argv[2], NULL, 10);
    const int threads = atoi(argv[3]);
    const int64_t b[2] = {n, n};
    if (!g || n < 1 || threads < 1 || ns_game_set_bounds(g, b, &err)) {
        fprintf(stderr, "nimsieve-bench-out: %s\n", err.msg[0] ? err.msg : "bad arguments");
        ns_game_free(g);
        return 1;
    }
    discard *d = calloc(1, sizeof *d);
    ns_engine_opts o = {.threads = threads, .tile_sink = sink, .tile_user = d};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ns_err rc = d ? ns_engine_run(g, NULL, &o, &err) : NS_ENOMEM;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uint32_t mx = 0;
    for (int i = 0; d && i < 256; i++)
        mx = d->mx[i] > mx ? d->mx[i] : mx;
    if (rc)
        fprintf(stderr, "nimsieve-bench-out: %s\n", d ? err.msg : "out of memory");
    else
        printf("kernel %.3f %" PRIu32 "\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
               mx);
    free(d);
    ns_game_free(g);
    return rc ? 1 : 0;
}
