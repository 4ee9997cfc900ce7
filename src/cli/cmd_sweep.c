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

#include "analysis/ns_group.h"
#include "analysis/ns_sweep.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "core/ns_omp.h"
#include "game/ns_build.h"
#include "store/ns_h5_sweep.h"
#include "cli/sweep_report.h"

#define CMD "sweep"

enum { MAX_THREADS = 1024, MAX_D = NS_PARAMS_MAX };
#define MAX_SIZE_1 ((int64_t)1 << 31)
#define MAX_SIZE_2 ((int64_t)1 << 14)
/* variants of this many cells or more run one at a time with all threads */
#define LARGE_CELLS 4194304.0

static void usage(void)
{
    printf("usage: nimsieve sweep GAME-or-RULES [-D name=RANGE ...] --size N -o SWEEP.h5 [--threads T]\n"
           "       nimsieve sweep --report SWEEP.h5 [--csv | --json]\n"
           "\n"
           "Solve every variant of a one- or two-pile game over the product of the\n"
           "parameter ranges, summarise each, and write one catalogue. Small variants\n"
           "run side by side, one per thread, large ones one at a time with all\n"
           "threads, each through the engine door as 'solve' would; the catalogue does\n"
           "not depend on the number of threads.\n"
           "\n"
           "ranges (-D, repeatable; the first one varies slowest):\n"
           "  a=1..50              the integers 1 to 50\n"
           "  m=2,3,5              these integers\n"
           "  set=subsets(1..12,3) every 3-element subset of {1..12} (lexicographic)\n"
           "  set=subsets(1..8)    every non-empty subset of {1..8} (by size)\n"
           "  code=octal(2)        every octal code 0.d1d2, last digit non-zero, in the\n"
           "                       census's order; octal(1..3): 1, then 2, then 3 digits\n"
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
           "                       slope_a, slope_b, seconds, group, max_value, saltus)\n"
           "                       and root attributes game,\n"
           "                       ranges, parameters, piles, size, variants, ...\n"
           "  -t, --threads T      threads (default: OpenMP's): small variants run side by\n"
           "                       side, one per thread; variants of 2^22 cells or more\n"
           "                       (two piles: N >= 2048) one at a time with all threads\n"
           "      --one-at-a-time  every variant with all threads, one after another\n"
           "      --side-by-side   every variant on one thread, T at once\n"
           "  -f, --force          overwrite FILE if it exists\n"
           "  -r, --report FILE    print the catalogue of FILE, then its conjectures\n"
           "      --csv            with --report: CSV, header: each parameter, then\n"
           "                       p_positions,preperiod,period,proven (one pile) or\n"
           "                       p_positions,slope_a,slope_b (two piles), then\n"
           "                       group,max_value (and saltus, one pile); no conjectures\n"
           "      --json           with --report: the catalogue and its conjectures as\n"
           "                       one JSON object (nan as null)\n"
           "  -h, --help           this help\n"
           "\n",
           NS_SWEEP_MAX_SET, NS_SWEEP_MAX_VARIANTS, MAX_SIZE_2);
    fputs("Summaries: p_positions counts the cells with value 0, max_value is the\n"
           "largest value, group the first variant (from 0) whose table is identical\n"
           "value by value (its own row when none is). One pile: the period and\n"
           "preperiod as 'patterns' finds them, proven 1 when the subtraction proof\n"
           "rule covers them; for take-and-break games (octal, ...) as 'census' finds\n"
           "them, proven by the octal periodicity theorem; saltus s > 0 for an\n"
           "arithmetic period G(n+p) = G(n) + s (observed only); period 0 when none is\n"
           "found. Two piles: slope_a and\n"
           "slope_b, least-squares slopes against n of a_n and b_n, the P-positions\n"
           "(a_n, b_n) with a_n < b_n as 'patterns' reads them (nan: no fit).\n"
           "\n"
           "Conjectures (--report, --json), ranked by the variants they cover, then\n"
           "simplicity; each is true of the catalogue and says so ('observed for all\n"
           "10 variants'), never proven beyond it: a field constant over the variants\n"
           "(or over most of them); an integer field that is exactly m x + c in an\n"
           "integer parameter x (checked in integers, at least 3 values of x, per\n"
           "group of the other parameters); two piles: slope_a, slope_b =\n"
           "(p + q x + sqrt(r x^2 + s x + t))/u, |p|,|q|,u,r <= 4, |s|,|t| <= 8, the\n"
           "simplest form within 1.5K/(K^2-1) of every variant's slope (K pairs:\n"
           "the least-squares error bound of a Beatty sequence), max deviation shown.\n"
           "Figures: nimsieve plot SWEEP.h5 (--kind landscape, thumbnails).\n"
           "Not yet built: --resume, --keep-tables.\n"
           "\n"
           "examples:\n"
           "  nimsieve sweep a-wythoff -D a=1..10 --size 512 -o sweep-aw.h5\n"
           "  nimsieve sweep subtraction -D 'set=subsets(1..9,3)' --size 1000 -o sweep-sub.h5\n"
           "  nimsieve sweep --report sweep-sub.h5 --csv\n"
           "  nimsieve sweep octal -D 'code=octal(2)' --size 1000 -o sweep-oct.h5\n",
          stdout);
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

/* the ordered callback: each variant's group (the first variant with an
 * identical table) */
typedef struct group_ctx {
    ns_group *gr;
    int64_t *group;     /* one per variant */
    ns_error err;       /* a grouping failure */
} group_ctx;

static int on_each(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    group_ctx *gc = user;
    (void)row;
    (void)g;
    uint64_t first;
    if (ns_group_add(gc->gr, i, t, &first, &gc->err))
        return 1;
    gc->group[i] = (int64_t)first;
    return 0;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    return ns_cli_progress_cb(user, (double)done / (double)total);
}

/* the value of parameter name in text ("a=3;set=1,3,4") as CSV: sets quoted */
static void param_field(const char *params, const char *name, char *buf, size_t len)
{
    ns_params ps = {0};   /* ns_params_parse_list adds to what is there */
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

static int report(const char *path, int csv, int json)
{
    ns_error err = {0};
    ns_h5_sweep *s = NULL;
    if (ns_h5_sweep_read(path, &s, &err))
        return ns_cli_error(CMD, "%s", err.msg);
    if (json) {
        const ns_err e = ns_sweep_print_json(stdout, s, &err);
        ns_h5_sweep_free(s);
        return e ? ns_cli_error(CMD, "%s: %s", path, err.msg) : NS_EXIT_OK;
    }
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
    printf("%sgroup%smax_value", sep, sep);
    if (s->piles == 1)
        printf("%ssaltus", sep);
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
        printf("%s%" PRId64 "%s%" PRId64, sep, r->group, sep, r->max_value);
        if (s->piles == 1)
            printf("%s%" PRId64, sep, r->saltus);
        printf("\n");
    }
    if (!csv) {
        ns_params *ps = NULL;
        ns_conj *c = NULL;
        size_t nc = 0;
        if (ns_sweep_conjectures(s, &ps, &c, &nc, &err)) {
            ns_h5_sweep_free(s);
            return ns_cli_error(CMD, "%s: %s", path, err.msg);
        }
        ns_sweep_print_conjectures(stdout, c, nc);
        free(c);
        free(ps);
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
        {"force", no_argument, NULL, 'f'},       {"json", no_argument, NULL, 'J'},
        {"one-at-a-time", no_argument, NULL, 'S'}, {"side-by-side", no_argument, NULL, 'P'},
        {NULL, 0, NULL, 0}};
    ns_error err = {0};
    const char *out = NULL, *size_s = NULL, *threads_s = NULL, *rep = NULL;
    const char *defs[MAX_D];
    int ndefs = 0, csv = 0, json = 0, force = 0, mode = 0, c;   /* mode 1: one at a time, 2: side by side */
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
        case 'J': json = 1; break;
        case 'f': force = 1; break;
        case 'S':
        case 'P':
            if (mode && mode != (c == 'S' ? 1 : 2))
                return ns_cli_error(CMD, "--one-at-a-time and --side-by-side: expected one of them");
            mode = c == 'S' ? 1 : 2;
            break;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (rep) {
        if (optind < argc || ndefs || out || size_s || threads_s || mode)
            return ns_cli_error(CMD, "--report FILE takes only --csv or --json: expected 'nimsieve sweep --report FILE [--csv | --json]'");
        if (csv && json)
            return ns_cli_error(CMD, "--csv and --json: expected one of them");
        return report(rep, csv, json);
    }
    if (csv || json)
        return ns_cli_error(CMD, "--%s goes with --report FILE (the sweep itself writes HDF5 with -o)", csv ? "csv" : "json");
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
    group_ctx gc = {0};
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
    if (!(rows = calloc(n, sizeof *rows)) || !(hrows = calloc(n, sizeof *hrows)) ||
        !(gc.group = calloc(n, sizeof *gc.group)) || !(gc.gr = ns_group_new())) {
        rc = ns_cli_error(CMD, "out of memory for %zu variants", n);
        goto done;
    }
    ns_cli_progress bar;
    ns_cli_catch_sigint();
    ns_cli_progress_start(&bar, 1);
    const double t0 = ns_cli_now();
    /* large variants (LARGE_CELLS cells or more) one at a time with all
     * threads, small ones side by side, one per thread */
    const double cells = piles == 1 ? (double)size : (double)size * (double)size;
    const int serial = mode ? mode == 1 : cells >= LARGE_CELLS;
    const ns_sweep_job job = {.n = n, .build = build_variant, .user = &bc, .threads = serial ? 1 : (int)threads,
                              .inner_threads = serial ? (int)threads : 1,
                              .each = on_each, .each_user = &gc,
                              .progress = on_progress, .progress_user = &bar};
    const ns_err e = ns_sweep_run(&job, rows, &err);
    ns_cli_progress_finish(&bar);
    if (e) {
        rc = ns_cli_error(CMD, "%s: %s", spec, gc.err.code ? gc.err.msg : err.msg);
        goto done;
    }
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
        hrows[i].group = gc.group[i];
        hrows[i].max_value = rows[i].max_value;
        hrows[i].saltus = rows[i].saltus;
        nproven += rows[i].proven != 0;
        nperiodic += rows[i].period > 0;
        nfit += !isnan(rows[i].slope_a) && !isnan(rows[i].slope_b);
    }
    ns_h5_sweep s = {.piles = piles, .size = size, .threads = (int)threads, .wall_seconds = wall, .n = n, .rows = hrows};
    snprintf(s.game, sizeof s.game, "%s", spec);
    snprintf(s.ranges, sizeof s.ranges, "%s", ranges);
    snprintf(s.parameters, sizeof s.parameters, "%s", names);
    if (ns_h5_sweep_write(out, &s, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto done;
    }
    printf("sweep:         %s%s%s, %zu variant%s, %s %" PRId64 "\n", spec, ranges[0] ? " " : "", ranges, n,
           n == 1 ? "" : "s", piles == 1 ? "heap sizes 0 ..": "box [0,N)^2, N =", piles == 1 ? size - 1 : size);
    const size_t ngroups = ns_group_count(gc.gr);
    printf("groups:        %zu distinct table%s among %zu variant%s\n", ngroups, ngroups == 1 ? "" : "s", n,
           n == 1 ? "" : "s");
    if (piles == 1)
        printf("periods:       %zu proven, %zu observed, not proven, %zu none found\n", nproven, nperiodic - nproven,
               n - nperiodic);
    else
        printf("slopes:        %zu of %zu variants fitted (P-positions above the diagonal as one sequence)\n", nfit, n);
    printf("time:          %.2f s on %d thread%s, %s\n", wall, (int)threads, threads == 1 ? "" : "s",
           serial ? "variants one at a time, each with all threads" : "variants side by side, one per thread");
    printf("file:          %s (nimsieve sweep --report %s)\n", out, out);
done:
    ns_group_free(gc.gr);
    free(gc.group);
    free(hrows);
    free(rows);
    ns_sweep_ranges_free(r);
    return rc;
}
