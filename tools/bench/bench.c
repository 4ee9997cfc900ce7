/* bench.c - nimsieve benchmark: the sieve against a naive baseline and the
 * memory-write floor, all measured in this one run.
 *
 * Each case runs in a forked child so that its peak RSS is its own. For each
 * game the baseline is the naive solver (options enumerated per cell, mex
 * over them, cells in lexicographic order) at a small size; the sieve runs at
 * the sizes asked for. The table prints wall time, cells per second, peak
 * RSS, the speed ratio to the baseline (cells/s over baseline cells/s) and
 * the ratio to the memory-write floor (the time to first-touch and write a
 * buffer as large as the table, measured just before).
 *
 * On a shared or virtual machine a single run can be off by tens of per
 * cent; --repeat R runs every case R times (each in its own process) and
 * keeps the fastest, --match TEXT runs only the cases whose label
 * contains TEXT.
 *
 * usage: nimsieve-bench [--quick] [--threads T[,T...]] [--repeat R] [--match TEXT]   */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game/ns_build.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"

typedef struct bcase {
    const char *label;   /* shown in the table */
    const char *spec;    /* preset name or rule file (relative to the source dir) */
    const char *params;  /* "a=2" or "" */
    int64_t n;           /* size of every coordinate */
    int k;               /* coordinates */
    int pn_only;
    int64_t base_n;      /* baseline size (0: none) */
    ns_mex_method mex;     /* tiles2d: the mex method (the default, or a scan for comparison) */
} bcase;

typedef struct result {
    int ok;
    double wall, base_wall, floor_wall;
    uint64_t cells, base_cells;
    long rss_kib;
    char msg[NS_ERROR_MSG_LEN];
} result;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static ns_game *make_game(const bcase *c, int64_t n, const char *srcdir, ns_error *err)
{
    ns_params ps = {0};
    char path[1024];
    const char *spec = c->spec;
    if (strchr(spec, '/')) {
        snprintf(path, sizeof path, "%s/%s", srcdir, spec);
        spec = path;
    }
    if (c->params[0] && ns_params_parse_list(&ps, c->params, err))
        return NULL;
    ns_game *g = NULL;
    if (ns_game_build(spec, &ps, c->k, &g, err))
        return NULL;
    int64_t b[NS_MAX_DIM];
    for (int i = 0; i < g->k; i++)
        b[i] = n;
    if (ns_game_set_bounds(g, b, err)) {
        ns_game_free(g);
        return NULL;
    }
    return g;
}

/* Naive baseline: cells in lexicographic order (valid for the games here:
 * every move decreases the first coordinate it changes), each one's value
 * from its explicitly enumerated options. */
static int run_naive(ns_game *g, int pn_only, double *wall, uint64_t *cells, ns_error *err)
{
    ns_table *t = ns_engine_table_new(g, pn_only, err);
    if (!t)
        return -1;
    double t0 = now();
    int64_t s[NS_MAX_DIM];
    for (uint64_t i = 0; i < t->ncells; i++) {
        ns_table_coords(t, i, s);
        uint32_t v;
        if (ns_naive_cell(g, t, s, &v, err)) {
            ns_table_free(t);
            return -1;
        }
        ns_table_set(t, i, v);
    }
    *wall = now() - t0;
    *cells = t->ncells;
    ns_table_free(t);
    return 0;
}

/* First-touch write of a buffer of the table's size, as the table allocates. */
static double write_floor(uint64_t bytes)
{
    double t0 = now();
    void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
#ifdef MADV_HUGEPAGE
    if (bytes >= ((uint64_t)64 << 20))
        madvise(p, (size_t)bytes, MADV_HUGEPAGE);
#endif
    memset(p, 1, (size_t)bytes);
    double w = now() - t0;
    munmap(p, (size_t)bytes);
    return w;
}

static void run_case(const bcase *c, int threads, const char *srcdir, result *r)
{
    ns_error err = {0};
    memset(r, 0, sizeof *r);
    ns_game *g = make_game(c, c->n, srcdir, &err);
    if (!g) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        return;
    }
    ns_engine_plan plan;
    const ns_engine_opts po = {.pn_only = c->pn_only};
    if (ns_engine_plan_for(g, &po, &plan, &err)) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        ns_game_free(g);
        return;
    }
    r->floor_wall = write_floor(plan.table_bytes);
    ns_table *t = ns_engine_table_new(g, c->pn_only, &err);
    ns_engine_opts o = {.threads = threads, .pn_only = c->pn_only, .mex_scan = c->mex};
    double t0 = now();
    if (!t || ns_engine_run(g, t, &o, &err)) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        ns_table_free(t);
        ns_game_free(g);
        return;
    }
    r->wall = now() - t0;
    r->cells = t->ncells;
    ns_table_free(t);
    ns_game_free(g);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r->rss_kib = ru.ru_maxrss;
    r->ok = 1;
}

static void run_baseline(const bcase *c, const char *srcdir, result *r)
{
    ns_error err = {0};
    memset(r, 0, sizeof *r);
    ns_game *g = make_game(c, c->base_n, srcdir, &err);
    if (!g || run_naive(g, c->pn_only, &r->base_wall, &r->base_cells, &err)) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        ns_game_free(g);
        return;
    }
    ns_game_free(g);
    r->ok = 1;
}

/* Run fn in a child; the result comes back through a pipe. */
static void in_child(void (*fn)(const bcase *, int, const char *, result *), const bcase *c, int threads,
                     const char *srcdir, result *r)
{
    int fd[2];
    memset(r, 0, sizeof *r);
    if (pipe(fd) != 0) {
        snprintf(r->msg, sizeof r->msg, "pipe failed");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        result cr;
        fn(c, threads, srcdir, &cr);
        ssize_t w = write(fd[1], &cr, sizeof cr);
        _exit(w == (ssize_t)sizeof cr ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = pid > 0 ? read(fd[0], r, sizeof *r) : -1;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    if (got != (ssize_t)sizeof *r) {
        memset(r, 0, sizeof *r);
        snprintf(r->msg, sizeof r->msg, "child failed");
    }
}

static void base_adapter(const bcase *c, int threads, const char *srcdir, result *r)
{
    (void)threads;
    run_baseline(c, srcdir, r);
}

int main(int argc, char **argv)
{
    int quick = 0, repeat = 1;
    const char *match = "";
    char threads_arg[64] = "1,2";
    const char *srcdir = NS_SOURCE_DIR;
    static const struct option lo[] = {{"quick", no_argument, 0, 'q'}, {"threads", required_argument, 0, 't'},
                                       {"source-dir", required_argument, 0, 's'}, {"help", no_argument, 0, 'h'},
                                       {"repeat", required_argument, 0, 'r'}, {"match", required_argument, 0, 'm'},
                                       {0, 0, 0, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "qt:s:hr:m:", lo, NULL)) != -1) {
        if (ch == 'q')
            quick = 1;
        else if (ch == 'r')
            repeat = atoi(optarg) > 0 ? atoi(optarg) : 1;
        else if (ch == 'm')
            match = optarg;
        else if (ch == 't')
            snprintf(threads_arg, sizeof threads_arg, "%s", optarg);
        else if (ch == 's')
            srcdir = optarg;
        else {
            printf("usage: nimsieve-bench [--quick] [--threads 1,2,...] [--repeat R] [--match TEXT] [--source-dir DIR]\n"
                   "Runs the sieve on fixed games and sizes against a naive baseline and the\n"
                   "memory-write floor, each case in its own process; prints a table.\n"
                   "  --repeat R    run each case R times, keep the fastest (default 1)\n"
                   "  --match TEXT  only the cases whose label contains TEXT\n");
            return ch == 'h' ? 0 : 2;
        }
    }
    int threads[16], nth = 0;
    for (char *s = strtok(threads_arg, ","); s && nth < 16; s = strtok(NULL, ","))
        threads[nth++] = atoi(s) > 0 ? atoi(s) : 1;

    const int64_t q = quick ? 4 : 1;
    const bcase cases[] = {
        {"wythoff", "wythoff", "", 8192 / q, 2, 0, 256, 0},
        {"wythoff (scan mex)", "wythoff", "", 8192 / q, 2, 0, 0, NS_MEX_SCAN},
        {"wythoff", "wythoff", "", 16384 / q, 2, 0, 0, 0},
        {"wythoff (scan mex)", "wythoff", "", 16384 / q, 2, 0, 0, NS_MEX_SCAN},
        {"wythoff", "wythoff", "", 32768 / q, 2, 0, 0, 0},
        {"wythoff (scan mex)", "wythoff", "", 32768 / q, 2, 0, 0, NS_MEX_SCAN},
        {"wythoff (rule file)", "data/rules/wythoff.rules", "", 8192 / q, 2, 0, 0, 0},
        {"a-wythoff a=2", "a-wythoff", "a=2", 2048 / q, 2, 0, 192, 0},
        {"nim 3 piles", "nim", "piles=3", 256 / q, 3, 0, 48, 0},
        {"fibonacci-nim", "fibonacci-nim", "", 2048 / q, 2, 0, 384, 0},
        {"fibonacci-nim (rule file)", "data/rules/fibonacci-nim.rules", "", 2048 / q, 2, 0, 0, 0},
        {"euclid", "euclid", "", 4096 / q, 2, 0, 1024, 0},
        /* last: the kernel compacts memory after its 4 GiB table, which
         * slowed the case that came next */
        {"wythoff P/N", "wythoff", "", 65536 / q, 2, 1, 256, 0},
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    printf("%-26s %7s %4s %5s %9s %11s %9s %10s %9s\n", "game", "N", "kind", "thr", "wall s", "cells/s",
           "RSS MiB", "x baseline", "x floor");
    double base_rate = 0; /* a case with base_n 0 reuses the one above */
    for (int i = 0; i < ncases; i++) {
        const bcase *c = &cases[i];
        result base = {0};
        if (!strstr(c->label, match))
            continue;
        if (c->base_n > 0) {
            in_child(base_adapter, c, 1, srcdir, &base);
            base_rate = base.ok && base.base_wall > 0 ? (double)base.base_cells / base.base_wall : 0;
        }
        if (base.ok)
            printf("%-26s %7" PRId64 " %4s %5d %9.3f %11.3g %9s %10s %9s  (naive baseline)\n", c->label, c->base_n,
                   c->pn_only ? "P/N" : "G", 1, base.base_wall, base_rate, "-", "1", "-");
        for (int j = 0; j < nth; j++) {
            result r;
            in_child(run_case, c, threads[j], srcdir, &r);
            for (int k = 1; k < repeat && r.ok; k++) {
                result again;
                in_child(run_case, c, threads[j], srcdir, &again);
                if (again.ok && again.wall < r.wall)
                    r = again;
            }
            if (!r.ok) {
                printf("%-26s %7" PRId64 " %4s %5d  failed: %s\n", c->label, c->n, c->pn_only ? "P/N" : "G", threads[j],
                       r.msg);
                continue;
            }
            double rate = (double)r.cells / r.wall;
            char xb[32] = "-", xf[32] = "-";
            if (base_rate > 0)
                snprintf(xb, sizeof xb, "%.3g", rate / base_rate);
            if (r.floor_wall > 0)
                snprintf(xf, sizeof xf, "%.1f", r.wall / r.floor_wall);
            printf("%-26s %7" PRId64 " %4s %5d %9.3f %11.3g %9.1f %10s %9s\n", c->label, c->n, c->pn_only ? "P/N" : "G",
                   threads[j], r.wall, rate, (double)r.rss_kib / 1024.0, xb, xf);
            fflush(stdout);
        }
    }
    printf("x baseline: cells/s over the naive solver's cells/s (its N is smaller: it is O(N) per cell;\n"
           "  a row without a baseline line uses the one above).\n"
           "x floor: wall time over the time to first-touch and write a buffer of the table's size.\n");
    return 0;
}
