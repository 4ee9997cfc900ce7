/* seqbench.c - nimsieve-bench-seq: Grundy sequences of take-and-break
 * games (the sequence engines, engine/ns_sequence.c), all in one run.
 *
 * Per game: the plain mex (engine `sequence`, O(N^2) for splits) at a
 * small size as the baseline, then at the same size its former kernel (a
 * bit set per split, NS_SEQ_MEX_BITS) and its byte-map kernel without
 * vectors (NS_SEQ_MEX_SCALAR), each with the baseline's speed over its
 * own ("new kernel N.NNx as fast"), then the rare/common method (engine
 * `rare-common`) at the size asked for on 1 and 2 threads, heap by heap
 * (ns_engine_opts.seq_no_pipe) and with its pipeline over groups of heaps
 * (the default, engine/ns_seq_pipe.c), the pipeline's speed over heap by
 * heap on as many threads printed beside it; wall time,
 * values (heap sizes) per second, peak RSS, and the speed ratio to the
 * baseline (values/s over the baseline's values/s), and what the method
 * did (mask, rare heaps, heaps scanned, heaps whose scans ran the vector
 * kernel, ns_seq_stats). Where the peer
 * program /work/shared/anchors/ogs-bench (beling/impartial-games' `ogs`,
 * rare/common, one thread) exists and runs, it computes the same game to
 * the same N in the same run, and its ratio to our 1-thread time is
 * printed; it is skipped with a note when absent or when it does not take
 * the game (Grundy's game). Every case runs in a forked child so that its
 * peak RSS is its own. The load average is printed before and after: on
 * a shared machine the times are only as good as the load allows.
 *
 * usage: nimsieve-bench-seq [--quick] [--match TEXT] [--size N] [--peer PATH] [--plain]
 *   --size N   the rare/common runs of every matched game go to N
 *              (e.g. --match 0.1777 --size 443200000, the proof of its period)
 *   --plain    only the plain mex lines (its kernels compared)
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/ns_engine.h"
#include "game/ns_presets.h"

typedef struct scase {
    const char *label; /* "0.1777" or "grundys-game" */
    const char *preset, *params;
    int64_t base_n, n, quick_base_n, quick_n;
} scase;

static const scase cases[] = {
    /* Kayles and Dawson's chess: periodic with few values and no sparse
     * space: the method falls back to the plain mex, so the sizes stay small */
    {"0.77", "octal", "code=0.77", 1 << 15, 1 << 17, 1 << 13, 1 << 15},
    {"0.137", "octal", "code=0.137", 1 << 15, 1 << 17, 1 << 13, 1 << 15},
    {"0.1777", "octal", "code=0.1777", 1 << 16, 1 << 25, 1 << 14, 1 << 21},
    {"grundys-game", "grundys-game", "", 1 << 16, 1 << 22, 1 << 14, 1 << 18},
    /* the census's slow codes: no period observed, values that keep
     * growing past 255 (two-byte cells), no sparse space: the method
     * falls back to the plain mex */
    {"0.04", "octal", "code=0.04", 1 << 15, 1 << 16, 1 << 13, 1 << 14},
    {"0.76", "octal", "code=0.76", 1 << 15, 1 << 16, 1 << 13, 1 << 14},
};

typedef struct result {
    int ok;
    double wall;
    long rss_kib;
    ns_seq_stats st;
    char msg[NS_ERROR_MSG_LEN];
} result;

/* Run the engine named rc ? "rare-common" : "sequence" on g into t with
 * o, its statistics into *st (the tests' and the benchmark's way to pick
 * one engine of the two). */
static ns_err seq_run_stats(const ns_game *g, ns_table *t, const ns_engine_opts *o, int rc, ns_seq_stats *st,
                            ns_error *err)
{
    ns_engine_opts oo = *o;
    oo.seq_stats = st;
    const ns_engine *e = ns_engine_find(rc ? "rare-common" : "sequence");
    if (!e)
        return ns_error_set(err, NS_EINTERNAL, "no engine %s", rc ? "rare-common" : "sequence");
    return ns_engine_run_with(e, g, t, &oo, err);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_case(const scase *c, int64_t n, int rc, int threads, ns_seq_mex mex, int nopipe, result *r)
{
    ns_params ps = {0};
    ns_error err = {0};
    memset(r, 0, sizeof *r);
    ns_game *g = NULL;
    ns_table *t = NULL;
    if (c->params[0] && ns_params_parse_list(&ps, c->params, &err))
        goto out;
    if (!(g = ns_preset_build(c->preset, &ps, 0, &err)) || ns_game_set_bounds(g, &n, &err))
        goto out;
    if (!(t = ns_engine_table_new(g, 0, &err)))
        goto out;
    ns_engine_opts o = {.threads = threads, .seq_mex = mex, .seq_no_pipe = nopipe};
    const double t0 = now();
    if (seq_run_stats(g, t, &o, rc, &r->st, &err))
        goto out;
    r->wall = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r->rss_kib = ru.ru_maxrss;
    r->ok = 1;
out:
    if (!r->ok)
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
    ns_table_free(t);
    ns_game_free(g);
}

static void in_child(const scase *c, int64_t n, int rc, int threads, ns_seq_mex mex, int nopipe, result *r)
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
        run_case(c, n, rc, threads, mex, nopipe, &cr);
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

/* The peer's time for code to n (seconds), or < 0 with why filled. */
static double run_peer(const char *peer, const char *code, int64_t n, char *why, size_t len)
{
    if (access(peer, X_OK) != 0) {
        snprintf(why, len, "%s not found", peer);
        return -1;
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' '%s' %" PRId64 " rc 2>/dev/null", peer, code, n);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(why, len, "cannot run %s", peer);
        return -1;
    }
    char line[512];
    double secs = -1;
    while (fgets(line, sizeof line, p)) {
        const char *tm = strstr(line, "time=");
        if (!tm)
            continue;
        char *end;
        double v = strtod(tm + 5, &end);
        if (end == tm + 5)
            continue;
        double mul = strncmp(end, "ms", 2) == 0                                        ? 1e-3
                     : strncmp(end, "\xc2\xb5s", 3) == 0 || strncmp(end, "us", 2) == 0 ? 1e-6
                     : strncmp(end, "ns", 2) == 0                                      ? 1e-9
                     : strncmp(end, "s", 1) == 0                                       ? 1
                                                                                       : -1;
        if (mul > 0)
            secs = v * mul;
    }
    const int st = pclose(p);
    if (secs < 0)
        snprintf(why, len, "%s did not run this game (exit %d)", peer, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return secs;
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

static void row(const char *label, int64_t n, const char *method, int threads, double wall, long rss, double base_vps,
                const char *note)
{
    const double vps = wall > 0 ? (double)n / wall : 0;
    printf("%-14s %11" PRId64 " %-12s %2d %10.3f %12.4g %9ld ", label, n, method, threads, wall, vps, rss / 1024);
    if (base_vps > 0)
        printf("%9.1fx", vps / base_vps);
    else
        printf("%10s", "-");
    printf("%s%s\n", note[0] ? "  " : "", note);
}

int main(int argc, char **argv)
{
    int quick = 0, plain = 0;
    const char *match = "";
    const char *peer = "/work/shared/anchors/ogs-bench";
    int64_t size = 0;
    static const struct option lo[] = {{"quick", no_argument, 0, 'q'},      {"match", required_argument, 0, 'm'},
                                       {"size", required_argument, 0, 'n'}, {"peer", required_argument, 0, 'p'},
                                       {"plain", no_argument, 0, 'P'},      {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "qm:n:p:h", lo, NULL)) != -1) {
        switch (ch) {
        case 'q': quick = 1; break;
        case 'm': match = optarg; break;
        case 'n': {
            char *end;
            size = strtoll(optarg, &end, 10);
            if (*end || size < 1) {
                fprintf(stderr, "nimsieve-bench-seq: --size '%s': expected a positive integer\n", optarg);
                return 2;
            }
            break;
        }
        case 'p': peer = optarg; break;
        case 'P': plain = 1; break;
        case 'h':
            printf("usage: nimsieve-bench-seq [--quick] [--match TEXT] [--size N] "
                   "[--peer PATH] [--plain]\n");
            return 0;
        default: return 2;
        }
    }
    load("before");
    printf("%-14s %11s %-12s %2s %10s %12s %9s %10s\n", "game", "N", "method", "T", "seconds", "values/s", "RSS MiB",
           "vs plain");
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const scase *c = &cases[i];
        if (!strstr(c->label, match))
            continue;
        const int64_t bn = quick ? c->quick_base_n : c->base_n;
        const int64_t n = size ? size : quick ? c->quick_n : c->n;
        result r;
        in_child(c, bn, 0, 1, NS_SEQ_MEX_AUTO, 0, &r);
        if (!r.ok) {
            printf("%-14s baseline failed: %s\n", c->label, r.msg);
            failed = 1;
            continue;
        }
        const double base_vps = (double)bn / r.wall, base_wall = r.wall;
        row(c->label, bn, "plain mex", 1, r.wall, r.rss_kib, 0, "(baseline)");
        /* the plain mex's other kernels at the same size */
        static const struct {
            ns_seq_mex mex;
            const char *name;
        } kern[] = {{NS_SEQ_MEX_BITS, "plain bits"}, {NS_SEQ_MEX_SCALAR, "plain scalar"}};
        for (size_t k = 0; k < sizeof kern / sizeof kern[0]; k++) {
            in_child(c, bn, 0, 1, kern[k].mex, 0, &r);
            if (!r.ok) {
                printf("%-14s %s failed: %s\n", c->label, kern[k].name, r.msg);
                failed = 1;
                continue;
            }
            char note[96];
            snprintf(note, sizeof note, "(the baseline's kernel is %.2fx as fast)", r.wall / base_wall);
            row(c->label, bn, kern[k].name, 1, r.wall, r.rss_kib, base_vps, note);
        }
        if (plain)
            continue;
        /* rare-common heap by heap (seq_no_pipe), then its pipeline (the
         * default), each on 1 and 2 threads; the pipeline's rows say how
         * many times as fast as heap by heap on as many threads */
        double one = 0, hbh[3] = {0, 0, 0};
        for (int pipe = 0; pipe <= 1; pipe++)
            for (int th = 1; th <= 2; th++) {
                in_child(c, n, 1, th, NS_SEQ_MEX_AUTO, !pipe, &r);
                const char *what = pipe ? "pipeline" : "heap by heap";
                if (!r.ok) {
                    printf("%-14s rare-common %s failed: %s\n", c->label, what, r.msg);
                    failed = 1;
                    continue;
                }
                if (!pipe)
                    hbh[th] = r.wall;
                if (pipe && th == 1)
                    one = r.wall;
                char note[240];
                int k = snprintf(note, sizeof note, "%s: mask %u, %" PRId64 " rare, %.2g%% of heaps by the method", what,
                                 r.st.mask, r.st.rare, 100.0 * (double)r.st.rc_heaps / (double)n);
                if (pipe && k > 0 && (size_t)k < sizeof note)
                    snprintf(note + k, sizeof note - (size_t)k, ", %.2g%% by the pipeline, %" PRIu64
                             " rare heaps met; %.2fx as fast as heap by heap",
                             100.0 * (double)r.st.pipe_heaps / (double)n, r.st.pipe_rare,
                             hbh[th] > 0 ? hbh[th] / r.wall : 0.0);
                else if (k > 0 && (size_t)k < sizeof note)
                    snprintf(note + k, sizeof note - (size_t)k, ", %.2g%% scanned",
                             r.st.rc_heaps ? 100.0 * (double)r.st.scans / (double)r.st.rc_heaps : 0.0);
                row(c->label, n, "rare-common", th, r.wall, r.rss_kib, base_vps, note);
            }
        if (strcmp(c->preset, "octal") == 0) {
            char why[256];
            const double ps = run_peer(peer, c->params + 5, n, why, sizeof why);
            if (ps > 0) {
                char note[96];
                snprintf(note, sizeof note, "(ogs-bench rc; ours on 1 thread is %.2fx as fast)",
                         one > 0 ? ps / one : 0);
                row(c->label, n, "ogs-bench", 1, ps, 0, base_vps, note);
            } else {
                printf("%-14s %11" PRId64 " %-12s skipped: %s\n", c->label, n, "ogs-bench", why);
            }
        } else {
            printf("%-14s %11" PRId64 " %-12s skipped: it takes octal codes only\n", c->label, n, "ogs-bench");
        }
        fflush(stdout);
    }
    load("after");
    return failed;
}
