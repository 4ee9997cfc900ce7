/* cmd_sweep.c - `nimsieve sweep`: the variants of a game over parameter
 * ranges, each solved and summarised, one HDF5 catalogue (issue 20, first
 * slice); `nimsieve sweep --report FILE [--csv]` prints it. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "core/ns_omp.h"
#include "dist/ns_dist.h"
#include "dist/ns_dist_sweep.h"
#include "game/ns_build.h"
#include "store/ns_h5_sweep.h"

#define CMD "sweep"

enum { MAX_THREADS = 1024, MAX_D = NS_PARAMS_MAX };
#define MAX_SIZE_1 ((int64_t)1 << 31)
#define MAX_SIZE_2 ((int64_t)1 << 14)

static void usage(void)
{
    printf("usage: nimsieve sweep GAME-or-RULES [-D name=RANGE ...] --size N -o SWEEP.h5 [--threads T]\n"
           "       nimsieve sweep --report SWEEP.h5 [--csv]\n"
           "\n"
           "Solve every variant of a one- or two-pile game over the product of the\n"
           "parameter ranges, summarise each, and write one catalogue. Variants run in\n"
           "parallel, one per thread, each through the engine door as 'solve' would;\n"
           "the catalogue does not depend on the number of threads.\n"
           "\n"
           "ranges (-D, repeatable; the first one varies slowest):\n"
           "  a=1..50              the integers 1 to 50\n"
           "  m=2,3,5              these integers\n"
           "  set=subsets(1..12,3) every 3-element subset of {1..12} (lexicographic)\n"
           "  set=subsets(1..8)    every non-empty subset of {1..8} (by size)\n"
           "  a=4, code=0.137      one value\n"
           "Refused before any work: an empty range (a=5..1), a parameter the game\n"
           "does not have, a base set of more than %d elements, more than %d\n"
           "variants in all, any variant the game refuses.\n"
           "\n"
           "options:\n"
           "  -D name=RANGE        a parameter range (see above)\n"
           "  -n, --size N         one pile: heap sizes 0..N-1 (N <= 2^31); two piles:\n"
           "                       the box [0,N)^2 (N <= %" PRId64 ")\n"
           "  -o, --output FILE    the HDF5 catalogue: /sweep, one row per variant\n"
           "                       (params, size, p_positions, preperiod, period, proven,\n"
           "                       slope_a, slope_b, seconds) and root attributes game,\n"
           "                       ranges, parameters, piles, size, variants, ...\n"
           "  -t, --threads T      variants solved at once (default: OpenMP's)\n"
           "  -f, --force          overwrite FILE if it exists\n"
           "  -r, --report FILE    print the catalogue of FILE\n"
           "      --csv            with --report: CSV, header: each parameter, then\n"
           "                       p_positions,preperiod,period,proven (one pile) or\n"
           "                       p_positions,slope_a,slope_b (two piles)\n"
           "  -h, --help           this help\n"
           "\n"
           "Summaries: p_positions counts the cells with value 0. One pile: the period\n"
           "and preperiod as 'patterns' finds them, proven 1 when the subtraction proof\n"
           "rule covers them, period 0 when none is found. Two piles: slope_a and\n"
           "slope_b, least-squares slopes against n of a_n and b_n, the P-positions\n"
           "(a_n, b_n) with a_n < b_n as 'patterns' reads them (nan: no fit).\n"
           "Not yet built: grouping of identical variants, conjectures, figures,\n"
           "--resume, --keep-tables, --json.\n"
           "Under MPI (an MPI build, mpirun -np R): rank 0 hands out the variants to\n"
           "the other ranks, collects the rows in variant order and writes FILE\n"
           "(attribute mpi_ranks); the same catalogue but seconds.\n"
           "\n"
           "examples:\n"
           "  nimsieve sweep a-wythoff -D a=1..10 --size 512 -o sweep-aw.h5\n"
           "  nimsieve sweep subtraction -D 'set=subsets(1..9,3)' --size 1000 -o sweep-sub.h5\n"
           "  nimsieve sweep --report sweep-sub.h5 --csv\n",
           NS_SWEEP_MAX_SET, NS_SWEEP_MAX_VARIANTS, MAX_SIZE_2);
}

typedef struct build_ctx {
    const char *spec;
    const ns_sweep_ranges *r;
    int64_t size;
} build_ctx;

static ns_err build_variant(void *user, uint64_t i, ns_game **g, ns_error *err)
{
    const build_ctx *b = user;
    ns_params ps;
    ns_err rc;
    *g = NULL;
    if ((rc = ns_sweep_ranges_variant(b->r, i, &ps, err)) || (rc = ns_game_build(b->spec, &ps, 0, g, err)))
        return rc;
    const int64_t bounds[2] = {b->size, b->size};
    if ((*g)->k <= 2 && (rc = ns_game_set_bounds(*g, bounds, err))) {
        ns_game_free(*g);
        *g = NULL;
    }
    return rc;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    return ns_cli_progress_cb(user, (double)done / (double)total);
}

/* the value of parameter name in text ("a=3;set=1,3,4") as CSV: sets quoted */
static void param_field(const char *params, const char *name, char *buf, size_t len)
{
    ns_params ps;
    ns_error e = {0};
    buf[0] = '\0';
    if (ns_params_parse_list(&ps, params, &e))
        return;
    const ns_param *p = ns_params_get(&ps, name);
    if (!p)
        return;
    if (p->n == 0) {
        snprintf(buf, len, "%s", p->text);
        return;
    }
    size_t u = 0;
    if (p->n > 1)
        u += (size_t)snprintf(buf + u, len - u, "\"");
    for (int j = 0; j < p->n && u < len; j++)
        u += (size_t)snprintf(buf + u, len - u, "%s%" PRId64, j ? "," : "", p->v[j]);
    if (p->n > 1 && u < len)
        snprintf(buf + u, len - u, "\"");
}

static int report(const char *path, int csv)
{
    ns_error err = {0};
    ns_h5_sweep *s = NULL;
    if (ns_h5_sweep_read(path, &s, &err))
        return ns_cli_error(CMD, "%s", err.msg);
    char names[NS_PARAMS_MAX][NS_PARAM_NAME_LEN];
    int nn = 0;
    for (const char *p = s->parameters; *p && nn < NS_PARAMS_MAX;) {
        const char *e = strchr(p, ',');
        const size_t l = e ? (size_t)(e - p) : strlen(p);
        snprintf(names[nn++], NS_PARAM_NAME_LEN, "%.*s", (int)l, p);
        p = e ? e + 1 : p + l;
    }
    if (!csv) {
        printf("game:          %s\n", s->game);
        printf("ranges:        %s\n", s->ranges[0] ? s->ranges : "(none)");
        printf("size:          %" PRId64 "%s\n", s->size, s->piles == 2 ? " x same (two piles)" : " heap sizes (one pile)");
        printf("variants:      %zu\n", s->n);
    }
    const char *sep = csv ? "," : "  ";
    for (int j = 0; j < nn; j++)
        printf("%s%s", j ? sep : "", names[j]);
    if (s->piles == 1)
        printf("%sp_positions%spreperiod%speriod%sproven", nn ? sep : "", sep, sep, sep);
    else
        printf("%sp_positions%sslope_a%sslope_b", nn ? sep : "", sep, sep);
    if (!csv)
        printf("%sseconds", sep);
    printf("\n");
    for (size_t i = 0; i < s->n; i++) {
        const ns_h5_sweep_row *r = &s->rows[i];
        for (int j = 0; j < nn; j++) {
            char f[NS_H5_SWEEP_PARAMS_LEN + 4];
            param_field(r->params, names[j], f, sizeof f);
            printf("%s%s", j ? sep : "", f);
        }
        printf("%s%" PRId64, nn ? sep : "", r->p_positions);
        if (s->piles == 1)
            printf("%s%" PRId64 "%s%" PRId64 "%s%u", sep, r->preperiod, sep, r->period, sep, (unsigned)r->proven);
        else
            printf("%s%.9g%s%.9g", sep, r->slope_a, sep, r->slope_b);
        if (!csv)
            printf("%s%.3f", sep, r->seconds);
        printf("\n");
    }
    ns_h5_sweep_free(s);
    return NS_EXIT_OK;
}

int ns_cmd_sweep(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 'n'},   {"output", required_argument, NULL, 'o'},
        {"threads", required_argument, NULL, 't'}, {"report", required_argument, NULL, 'r'},
        {"csv", no_argument, NULL, 'C'},          {"help", no_argument, NULL, 'h'},
        {"force", no_argument, NULL, 'f'},
        {NULL, 0, NULL, 0}};
    ns_error err = {0};
    const char *out = NULL, *size_s = NULL, *threads_s = NULL, *rep = NULL;
    const char *defs[MAX_D];
    int ndefs = 0, csv = 0, force = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":D:n:o:t:r:fh", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(); return NS_EXIT_OK;
        case 'D':
            if (ndefs >= MAX_D)
                return ns_cli_error(CMD, "too many -D: at most %d parameters", MAX_D);
            defs[ndefs++] = optarg;
            break;
        case 'n': size_s = optarg; break;
        case 'o': out = optarg; break;
        case 't': threads_s = optarg; break;
        case 'r': rep = optarg; break;
        case 'C': csv = 1; break;
        case 'f': force = 1; break;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (rep) {
        if (optind < argc || ndefs || out || size_s || threads_s)
            return ns_cli_error(CMD, "--report FILE takes only --csv: expected 'nimsieve sweep --report FILE [--csv]'");
        return report(rep, csv);
    }
    if (csv)
        return ns_cli_error(CMD, "--csv goes with --report FILE (the sweep itself writes HDF5 with -o)");
    if (optind >= argc)
        return ns_cli_error(CMD, "missing game: expected a preset or rule file, as in 'nimsieve sweep a-wythoff -D "
                                 "a=1..10 --size 1024 -o sweep.h5'");
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s': expected one game", argv[optind + 1]);
    const char *spec = argv[optind];
    if (!size_s)
        return ns_cli_error(CMD, "missing --size N: expected the heap sizes per pile");
    if (!out)
        return ns_cli_error(CMD, "missing -o FILE: expected the HDF5 file to write");
    if (!force && access(out, F_OK) == 0)
        return ns_cli_error(CMD, "'%s' exists: use --force to overwrite it", out);
    int64_t size, threads = 0;
    if (ns_cli_parse_int(size_s, "--size", 1, MAX_SIZE_1, &size, &err) ||
        (threads_s && ns_cli_parse_int(threads_s, "--threads", 1, MAX_THREADS, &threads, &err)))
        return ns_cli_error(CMD, "%s", err.msg);
    if (!threads)
        threads = ns_omp_max_threads();

    int rc = NS_EXIT_OK;
    ns_sweep_ranges *r = ns_sweep_ranges_new();
    ns_sweep_row *rows = NULL;
    ns_h5_sweep_row *hrows = NULL;
    if (!r)
        return ns_cli_error(CMD, "out of memory");
    char ranges[NS_H5_SWEEP_TEXT_LEN] = "", names[NS_H5_SWEEP_TEXT_LEN] = "";
    size_t ur = 0, un = 0;
    for (int i = 0; i < ndefs; i++) {
        if (ns_sweep_ranges_add(r, defs[i], &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto done;
        }
        if (ur < sizeof ranges)
            ur += (size_t)snprintf(ranges + ur, sizeof ranges - ur, "%s-D %s", i ? " " : "", defs[i]);
        if (un < sizeof names)
            un += (size_t)snprintf(names + un, sizeof names - un, "%s%s", i ? "," : "", r->ax[i].name);
    }
    /* every variant's game built (not solved) before any work: unknown
     * parameters, values the game refuses, the number of piles */
    build_ctx bc = {.spec = spec, .r = r, .size = size};
    int piles = 0;
    for (uint64_t i = 0; i < r->nvariants; i++) {
        ns_game *g = NULL;
        ns_params ps;
        char ptext[NS_H5_SWEEP_PARAMS_LEN];
        if (ns_sweep_ranges_variant(r, i, &ps, &err) || ns_game_build(spec, &ps, 0, &g, &err)) {
            ns_params_format(&ps, ptext, sizeof ptext);
            rc = ns_cli_error(CMD, "%s (variant %s)", err.msg, ptext);
            goto done;
        }
        const int k = g->k;
        ns_game_free(g);
        if (k != 1 && k != 2) {
            rc = ns_cli_error(CMD, "%s has %d piles: a sweep takes one- or two-pile games", spec, k);
            goto done;
        }
        if (i == 0)
            piles = k;
        else if (k != piles) {
            rc = ns_cli_error(CMD, "the variants of %s have %d and %d piles: expected the same for all", spec, piles, k);
            goto done;
        }
    }
    if (piles == 2 && size > MAX_SIZE_2) {
        rc = ns_cli_error(CMD, "--size %" PRId64 ": two-pile variants take at most %" PRId64, size, MAX_SIZE_2);
        goto done;
    }
    const size_t n = (size_t)r->nvariants;
    /* under MPI: rank 0 (the manager) keeps the rows, the workers need none */
    const int manager = ns_dist_rank() == 0;
    if (manager && (!(rows = calloc(n, sizeof *rows)) || !(hrows = calloc(n, sizeof *hrows))))
        rc = ns_cli_error(CMD, "out of memory for %zu variants", n);
    /* every rank ready, or every rank stops here (no rank waits for one that left) */
    if (ns_cli_dist_agree(rc) != NS_EXIT_OK) {
        rc = NS_EXIT_ERROR;
        goto done;
    }
    ns_cli_progress bar;
    ns_cli_catch_sigint();
    ns_cli_progress_start(&bar, 1);
    const double t0 = ns_cli_now();
    const ns_sweep_job job = {.n = n, .build = build_variant, .user = &bc, .threads = (int)threads,
                              .progress = on_progress, .progress_user = &bar};
    /* one process: ns_sweep_run; under MPI a manager rank and workers */
    const ns_err e = ns_dist_sweep_run(&job, rows, &err);
    ns_cli_progress_finish(&bar);
    if (e) {
        rc = ns_cli_error(CMD, "%s: %s", spec, err.msg);
        goto done;
    }
    if (!manager)
        goto done; /* the manager writes the catalogue */
    const double wall = ns_cli_now() - t0;
    size_t nproven = 0, nperiodic = 0, nfit = 0;
    for (size_t i = 0; i < n; i++) {
        ns_params ps;
        if (ns_sweep_ranges_variant(r, i, &ps, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto done;
        }
        ns_params_format(&ps, hrows[i].params, sizeof hrows[i].params);
        hrows[i].size = rows[i].size;
        hrows[i].p_positions = rows[i].p_positions;
        hrows[i].preperiod = rows[i].preperiod;
        hrows[i].period = rows[i].period;
        hrows[i].proven = (uint8_t)rows[i].proven;
        hrows[i].slope_a = rows[i].slope_a;
        hrows[i].slope_b = rows[i].slope_b;
        hrows[i].seconds = rows[i].seconds;
        nproven += rows[i].proven != 0;
        nperiodic += rows[i].period > 0;
        nfit += !isnan(rows[i].slope_a) && !isnan(rows[i].slope_b);
    }
    ns_h5_sweep s = {.piles = piles, .size = size, .threads = (int)threads, .wall_seconds = wall, .n = n, .rows = hrows,
                     .mpi_ranks = ns_dist_is_mpi_build() ? ns_dist_size() : 0};
    snprintf(s.game, sizeof s.game, "%s", spec);
    snprintf(s.ranges, sizeof s.ranges, "%s", ranges);
    snprintf(s.parameters, sizeof s.parameters, "%s", names);
    if (ns_h5_sweep_write(out, &s, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto done;
    }
    printf("sweep:         %s%s%s, %zu variant%s, %s %" PRId64 "\n", spec, ranges[0] ? " " : "", ranges, n,
           n == 1 ? "" : "s", piles == 1 ? "heap sizes 0 ..": "box [0,N)^2, N =", piles == 1 ? size - 1 : size);
    if (piles == 1)
        printf("periods:       %zu proven, %zu observed, not proven, %zu none found\n", nproven, nperiodic - nproven,
               n - nperiodic);
    else
        printf("slopes:        %zu of %zu variants fitted (P-positions above the diagonal as one sequence)\n", nfit, n);
    if (ns_dist_size() > 1)
        printf("time:          %.2f s on %d ranks (1 manager, %d worker%s) x %d thread%s\n", wall, ns_dist_size(),
               ns_dist_size() - 1, ns_dist_size() == 2 ? "" : "s", (int)threads, threads == 1 ? "" : "s");
    else
        printf("time:          %.2f s on %d thread%s\n", wall, (int)threads, threads == 1 ? "" : "s");
    printf("file:          %s (nimsieve sweep --report %s)\n", out, out);
done:
    free(hrows);
    free(rows);
    ns_sweep_ranges_free(r);
    return rc;
}
