/* loopybench.c - nimsieve-bench-loopy: a two-pile loopy game to P / N /
 * draw with remoteness (engine `retro`, engine/ns_retro.c), all in one run.
 *
 * The game is loopy Wythoff (data/rules/wythoff-loopy.rules: Wythoff's
 * moves and a token passed between the piles). The baseline is the naive
 * fixed-point iteration written here, sharing nothing with the engine or
 * the game model (the moves are written out below): in round 0 the
 * positions without moves are decided (P, remoteness 0); in round r + 1,
 * from the values of round r, a position with a P option is N (1 + the
 * least remoteness of its P options), one whose options are all N is P (1
 * + the largest); it repeats until a round changes nothing; the rest are
 * draws. It runs at a small size (--base, 512 by default); the retro
 * engine solves the same size and must give the same table and
 * remoteness (printed: "agree"), then the large size (--size, 8192) on 1
 * and 2 threads. Rows: wall seconds, cells per second and the ratio to
 * the baseline's cells per second; the 1 -> 2 thread speed-up. The load
 * average is printed before and after: on a shared machine the times are
 * only as good as the load allows.
 *
 * usage: nimsieve-bench-loopy [--quick] [--size N] [--base N]
 *   --quick   --size 1024 --base 128 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/ns_engine.h"
#include "game/ns_rules.h"
#include "game/ns_shipped_rules.h"

enum { BP = 0, BN = 1, BD = 3 };
#define BNONE UINT32_MAX

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The options of (x, y) in an n x n box, as cell indices x * n + y. */
static int64_t moves(int64_t n, int64_t x, int64_t y, uint64_t *o)
{
    int64_t m = 0;
    for (int64_t t = 1; t <= x; t++)
        o[m++] = (uint64_t)((x - t) * n + y);
    for (int64_t t = 1; t <= y; t++)
        o[m++] = (uint64_t)(x * n + y - t);
    for (int64_t t = 1; t <= x && t <= y; t++)
        o[m++] = (uint64_t)((x - t) * n + y - t);
    if (y >= 1 && x + 1 < n)
        o[m++] = (uint64_t)((x + 1) * n + y - 1);
    if (x >= 1 && y + 1 < n)
        o[m++] = (uint64_t)((x - 1) * n + y + 1);
    return m;
}

/* The naive fixed point on n x n: v (BP, BN, BD) and rem; -1 out of memory. */
static int naive(int64_t n, uint8_t *v, uint32_t *rem)
{
    const uint64_t cells = (uint64_t)(n * n);
    uint8_t *nv = malloc(cells);
    uint32_t *nr = malloc(cells * sizeof *nr);
    uint64_t *o = malloc((size_t)(3 * n + 2) * sizeof *o);
    if (!nv || !nr || !o) {
        free(nv), free(nr), free(o);
        return -1;
    }
    memset(v, BD, cells);
    for (uint64_t i = 0; i < cells; i++)
        rem[i] = BNONE;
    for (uint32_t r = 0;; r++) {
        int changed = 0;
        memcpy(nv, v, cells);
        memcpy(nr, rem, cells * sizeof *rem);
        for (int64_t x = 0; x < n; x++)
            for (int64_t y = 0; y < n; y++) {
                const uint64_t i = (uint64_t)(x * n + y);
                if (v[i] != BD)
                    continue;
                const int64_t m = moves(n, x, y, o);
                if (m == 0) {
                    if (r == 0) {
                        nv[i] = BP, nr[i] = 0, changed = 1;
                    }
                    continue;
                }
                uint32_t pmin = BNONE, nmax = 0;
                int alln = 1;
                for (int64_t j = 0; j < m; j++) {
                    const uint64_t q = o[j];
                    if (v[q] == BP && rem[q] < pmin)
                        pmin = rem[q];
                    if (v[q] != BN)
                        alln = 0;
                    else if (rem[q] > nmax)
                        nmax = rem[q];
                }
                if (pmin != BNONE)
                    nv[i] = BN, nr[i] = pmin + 1, changed = 1;
                else if (alln)
                    nv[i] = BP, nr[i] = nmax + 1, changed = 1;
            }
        memcpy(v, nv, cells);
        memcpy(rem, nr, cells * sizeof *rem);
        if (!changed && r > 0)
            break;
    }
    free(nv), free(nr), free(o);
    return 0;
}

/* The retro engine on loopy Wythoff n x n with `threads`: the table and
 * the remoteness (the caller frees both), the wall time in *wall. */
static ns_table *retro(int64_t n, int threads, uint32_t **rem, double *wall, ns_error *err)
{
    const char *text = NULL;
    for (int i = 0; ns_shipped_rules_texts[i].file; i++)
        if (strcmp(ns_shipped_rules_texts[i].file, "wythoff-loopy.rules") == 0)
            text = ns_shipped_rules_texts[i].text;
    if (!text) {
        ns_error_set(err, NS_EINTERNAL, "wythoff-loopy.rules is not built in");
        return NULL;
    }
    ns_game *g = NULL;
    ns_table *t = NULL;
    *rem = NULL;
    const int64_t b[2] = {n, n};
    if (ns_rules_compile(text, "wythoff-loopy.rules", NULL, 0, &g, err) || ns_game_set_bounds(g, b, err))
        goto fail;
    if (!(t = ns_engine_table_new(g, 1, err)))
        goto fail;
    if (!(*rem = malloc(t->ncells * sizeof **rem))) {
        ns_error_set(err, NS_ENOMEM, "out of memory for the remoteness");
        goto fail;
    }
    ns_engine_opts o = {.threads = threads, .pn_only = 1, .remoteness = *rem};
    const double t0 = now();
    if (ns_engine_run_with(ns_engine_find("retro"), g, t, &o, err))
        goto fail;
    *wall = now() - t0;
    ns_game_free(g);
    return t;
fail:
    ns_table_free(t);
    ns_game_free(g);
    free(*rem);
    *rem = NULL;
    return NULL;
}

static void load(const char *when)
{
    double l[3] = {0, 0, 0};
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
            l[0] = l[1] = l[2] = 0;
        fclose(f);
    }
    printf("load average %s: %.2f %.2f %.2f (%ld cores online)\n", when, l[0], l[1], l[2],
           sysconf(_SC_NPROCESSORS_ONLN));
}

static void row(int64_t n, const char *method, int threads, double wall, double base_cps, const char *note)
{
    const double cells = (double)n * (double)n;
    const double cps = wall > 0 ? cells / wall : 0;
    printf("%-14s %6" PRId64 "^2 %-18s %2d %10.3f %12.4g ", "wythoff-loopy", n, method, threads, wall, cps);
    if (base_cps > 0)
        printf("%9.1fx", cps / base_cps);
    else
        printf("%10s", "-");
    printf("%s%s\n", note[0] ? "  " : "", note);
}

static int64_t size_arg(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    return *s && !*end && v >= 2 && v <= 65536 ? (int64_t)v : -1;
}

int main(int argc, char **argv)
{
    int64_t size = 8192, base = 512;
    int set_size = 0, set_base = 0, quick = 0;
    static const struct option lo[] = {
        {"quick", no_argument, 0, 'q'}, {"size", required_argument, 0, 's'},
        {"base", required_argument, 0, 'b'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c == 'q') {
            quick = 1;
        } else if (c == 's' || c == 'b') {
            const int64_t v = size_arg(optarg);
            if (v < 0) {
                fprintf(stderr, "nimsieve-bench-loopy: --%s %s: expected a side from 2 to 65536\n",
                        c == 's' ? "size" : "base", optarg);
                return 2;
            }
            if (c == 's')
                size = v, set_size = 1;
            else
                base = v, set_base = 1;
        } else if (c == 'h') {
            printf("usage: nimsieve-bench-loopy [--quick] [--size N] [--base N]\n"
                   "  loopy Wythoff (data/rules/wythoff-loopy.rules) to P / N / draw with remoteness:\n"
                   "  the naive fixed-point iteration at --base N (default 512) as the baseline, the retro\n"
                   "  engine at the same size (its table must agree) and at --size N (default 8192) on 1\n"
                   "  and 2 threads; --quick: --size 1024 --base 128\n");
            return 0;
        } else {
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "nimsieve-bench-loopy: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (quick) {
        size = set_size ? size : 1024;
        base = set_base ? base : 128;
    }
    load("before");
    printf("%-14s %8s %-18s %2s %10s %12s %10s\n", "game", "size", "method", "th", "wall_s", "cells/s", "ratio");

    /* the baseline, and the engine's table at its size */
    const uint64_t bc = (uint64_t)(base * base);
    uint8_t *v = malloc(bc);
    uint32_t *r = malloc(bc * sizeof *r);
    double t0 = now();
    if (!v || !r || naive(base, v, r)) {
        fprintf(stderr, "nimsieve-bench-loopy: out of memory for the baseline\n");
        return 1;
    }
    const double bwall = now() - t0;
    const double base_cps = bwall > 0 ? (double)bc / bwall : 0;
    row(base, "naive fixed-point", 1, bwall, 0, "(baseline)");
    ns_error err = {0};
    uint32_t *er = NULL;
    double ew = 0;
    ns_table *et = retro(base, 1, &er, &ew, &err);
    if (!et) {
        fprintf(stderr, "nimsieve-bench-loopy: retro at %" PRId64 ": %s\n", base, err.msg);
        return 1;
    }
    uint64_t diff = 0;
    for (uint64_t i = 0; i < bc; i++)
        diff += ns_table_get(et, i) != v[i] || er[i] != r[i];
    printf("agree at %" PRId64 "^2: %s (retro against the naive fixed point: outcome and remoteness of every cell)\n",
           base, diff ? "NO" : "yes");
    ns_table_free(et);
    free(er);
    free(v);
    free(r);
    if (diff) {
        fprintf(stderr, "nimsieve-bench-loopy: %" PRIu64 " cells differ from the naive fixed point\n", diff);
        return 1;
    }

    /* the engine at the large size */
    double wall[3] = {0, 0, 0};
    for (int th = 1; th <= 2; th++) {
        ns_table *t = retro(size, th, &er, &wall[th], &err);
        if (!t) {
            fprintf(stderr, "nimsieve-bench-loopy: retro at %" PRId64 ", %d threads: %s\n", size, th, err.msg);
            return 1;
        }
        uint64_t np = 0, nn = 0, nd = 0;
        for (uint64_t i = 0; i < t->ncells; i++) {
            const uint32_t x = ns_table_get(t, i);
            np += x == BP, nn += x == BN, nd += x == BD;
        }
        char note[96];
        snprintf(note, sizeof note, "P %" PRIu64 ", N %" PRIu64 ", D %" PRIu64, np, nn, nd);
        row(size, "retro", th, wall[th], base_cps, note);
        ns_table_free(t);
        free(er);
    }
    printf("speed-up 1 -> 2 threads at %" PRId64 "^2: %.2fx\n", size, wall[2] > 0 ? wall[1] / wall[2] : 0);
    load("after");
    return 0;
}
