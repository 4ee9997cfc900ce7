/* sweepbench.c - nimsieve-bench-sweep: what a sweep costs beyond solving
 * its variants (issue 20, "Speed"). tools/bench/sweep.sh runs it next to
 * `nimsieve sweep` of the same variants.
 *
 * The same variants (the product of the -D ranges, as `nimsieve sweep`
 * reads them) are run twice in this process, each time on the same number
 * of threads, one variant per thread (an OpenMP loop, dynamic schedule):
 *   bare     build the game, set its bounds, solve it through the engine
 *            door (ns_engine_table_new + ns_engine_run, one thread each)
 *            and free it: the solves and nothing else (the baseline);
 *   driver   ns_sweep_run: the same solves plus the summary of each
 *            (period, slopes) and the driver's bookkeeping, no file.
 * Each is timed best of --reps runs. Printed: one row each with wall
 * seconds, the ratio to bare, and the extra milliseconds per variant.
 *
 * usage: nimsieve-bench-sweep GAME --size N [--threads T] [--reps R] -D name=RANGE ... */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/ns_sweep.h"
#include "core/ns_omp.h"
#include "engine/ns_engine.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the bare solves; returns the number that failed */
static int bare(const ns_sweep_spec *b, int threads)
{
    int bad = 0;
    const long long n = (long long)b->r->nvariants;
    NS_OMP_FOR_DYNAMIC1(threads)
    for (long long i = 0; i < n; i++) {
        ns_error e = {0};
        ns_game *g = NULL;
        ns_table *t = NULL;
        const ns_engine_opts opts = {.threads = 1};
        int ok = ns_sweep_build_variant((void *)b, (uint64_t)i, &g, &e) == NS_OK && (t = ns_engine_table_new(g, 0, &e)) &&
                 ns_engine_run(g, t, &opts, &e) == NS_OK;
        ns_table_free(t);
        ns_game_free(g);
        if (!ok) {
            NS_PRAGMA(omp atomic update)
            bad++;
        }
    }
    return bad;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: nimsieve-bench-sweep GAME --size N [--threads T] [--reps R] -D name=RANGE ...\n"
               "Times the bare solves of a sweep's variants and the sweep driver (solves and\n"
               "summaries) on the same threads, best of R runs (default 3).\n");
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {{"size", required_argument, NULL, 'n'},
                                       {"threads", required_argument, NULL, 't'},
                                       {"reps", required_argument, NULL, 'r'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    ns_error err = {0};
    ns_sweep_ranges *r = ns_sweep_ranges_new();
    int64_t size = 0;
    int threads = 0, reps = 3, c;
    if (!r)
        return 2;
    while ((c = getopt_long(argc, argv, "D:n:t:r:h", lo, NULL)) != -1) {
        switch (c) {
        case 'D':
            if (ns_sweep_ranges_add(r, optarg, &err)) {
                fprintf(stderr, "nimsieve-bench-sweep: %s\n", err.msg);
                ns_sweep_ranges_free(r);
                return 2;
            }
            break;
        case 'n': size = strtoll(optarg, NULL, 10); break;
        case 't': threads = atoi(optarg); break;
        case 'r': reps = atoi(optarg); break;
        case 'h': usage(stdout); ns_sweep_ranges_free(r); return 0;
        default: usage(stderr); ns_sweep_ranges_free(r); return 2;
        }
    }
    if (optind + 1 != argc || size < 1 || reps < 1 || threads < 0) {
        fprintf(stderr, "nimsieve-bench-sweep: expected one GAME, --size N >= 1, --reps R >= 1, --threads T >= 0\n");
        usage(stderr);
        ns_sweep_ranges_free(r);
        return 2;
    }
    if (!threads)
        threads = ns_omp_max_threads();
    const ns_sweep_spec b = {.spec = argv[optind], .r = r, .size = size};
    const uint64_t n = r->nvariants;
    double tb = 1e300, td = 1e300;
    for (int k = 0; k < reps; k++) {
        double t0 = now();
        if (bare(&b, threads)) {
            fprintf(stderr, "nimsieve-bench-sweep: some variants of %s failed to solve\n", b.spec);
            ns_sweep_ranges_free(r);
            return 2;
        }
        double dt = now() - t0;
        tb = dt < tb ? dt : tb;
        const ns_sweep_job job = {.n = n, .build = ns_sweep_build_variant, .user = (void *)&b, .threads = threads};
        t0 = now();
        if (ns_sweep_run(&job, NULL, &err)) {
            fprintf(stderr, "nimsieve-bench-sweep: %s\n", err.msg);
            ns_sweep_ranges_free(r);
            return 2;
        }
        dt = now() - t0;
        td = dt < td ? dt : td;
    }
    printf("variants %" PRIu64 ", threads %d, best of %d\n", n, threads, reps);
    printf("%-10s %9.4f s  %6.2fx  %+8.3f ms/variant  (baseline)\n", "bare", tb, 1.0, 0.0);
    printf("%-10s %9.4f s  %6.2fx  %+8.3f ms/variant  (solve + summary, ns_sweep_run)\n", "driver", td, td / tb,
           1e3 * (td - tb) / (double)n);
    ns_sweep_ranges_free(r);
    return 0;
}
