/* cmd_solve.c - `nimsieve solve`: build a game, run the sieve, write HDF5. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_util.h"
#include "ns_build.h"
#include "ns_h5.h"
#include "ns_omp.h"
#include "ns_presets.h"
#include "ns_sieve.h"

static const char *const CMD = "solve";

static void usage(void)
{
    printf("usage: nimsieve solve GAME [-D name=value ...] (--size N | --bounds N1,N2,..)\n"
           "                      [--pn-only] [--misere] [--threads T] [--force] [--quiet] -o OUT.h5\n"
           "\n"
           "Compute the Grundy values (or only P/N with --pn-only) of every position of GAME\n"
           "in the box [0,N1) x ... x [0,Nk) and write them to OUT.h5.\n"
           "\n"
           "GAME is a preset name or the path of a rule file (a path containing '/' or\n"
           "ending in .rules). Presets (parameters with their defaults):\n");
    for (const ns_preset *const *p = ns_presets; *p; p++) {
        printf("  %-14s %s\n", (*p)->name, (*p)->summary);
        if ((*p)->params_help && (*p)->params_help[0])
            printf("  %-14s   -D %s\n", "", (*p)->params_help);
    }
    printf("\n"
           "options:\n"
           "  -D, --define name=value  set a game parameter (value: an integer or a list 1,3,4)\n"
           "  -n, --size N             every coordinate in [0,N)\n"
           "  -b, --bounds N1,N2,..    coordinate i in [0,Ni); the count also sets the number\n"
           "                           of piles of games that take it from the bounds\n"
           "  -p, --pn-only            store P/N flags only (1 byte a cell, faster)\n"
           "  -m, --misere             misere play (the last mover loses)\n"
           "  -t, --threads T          OpenMP threads (default: OpenMP's default, now %d)\n"
           "  -f, --force              overwrite OUT.h5 if it exists\n"
           "  -q, --quiet              print nothing but errors (no plan, summary or progress)\n"
           "  -o, --output OUT.h5      the table file to write (required)\n"
           "  -h, --help               this help\n"
           "\n"
           "The solve is refused when the table and the per-line sets would not fit the\n"
           "available memory (MemAvailable). A progress bar is drawn on stderr when it is a\n"
           "terminal and the solve takes more than a second; Ctrl-C stops cleanly.\n"
           "\n"
           "examples:\n"
           "  nimsieve solve wythoff --size 4096 -o wythoff.h5\n"
           "  nimsieve solve nim -D piles=4 --size 32 --pn-only -o nim4.h5\n"
           "  nimsieve solve subtraction -D set=1,3,4 --bounds 1000 -o sub.h5\n"
           "  nimsieve solve data/rules/wythoff.rules --bounds 512,512 -o w.h5\n",
           ns_omp_max_threads());
}

typedef struct solve_args {
    const char *game;
    ns_cli_box_opts box;   /* -D, --size, --bounds */
    int pn_only, misere, force, quiet, help;
    int threads;           /* 0: OpenMP's default */
    const char *out;
} solve_args;

static int parse_args(int argc, char **argv, solve_args *a)
{
    static const struct option longopts[] = {
        {"define", required_argument, NULL, 'D'}, {"size", required_argument, NULL, 'n'},
        {"bounds", required_argument, NULL, 'b'}, {"pn-only", no_argument, NULL, 'p'},
        {"misere", no_argument, NULL, 'm'},       {"threads", required_argument, NULL, 't'},
        {"force", no_argument, NULL, 'f'},        {"quiet", no_argument, NULL, 'q'},
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    ns_error err = {0};
    int c;
    int64_t v;
    memset(a, 0, sizeof *a);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":D:n:b:pmt:fqo:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'D':
        case 'n':
        case 'b':
            if (ns_cli_box_option(CMD, c, optarg, &a->box))
                return NS_EXIT_ERROR;
            break;
        case 'p': a->pn_only = 1; break;
        case 'm': a->misere = 1; break;
        case 't':
            if (ns_cli_parse_int(optarg, "--threads", 1, 4096, &v, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            a->threads = (int)v;
            break;
        case 'f': a->force = 1; break;
        case 'q': a->quiet = 1; break;
        case 'o': a->out = optarg; break;
        case 'h': a->help = 1; break;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (a->help)
        return NS_EXIT_OK;
    if (optind >= argc)
        return ns_cli_error(CMD, "missing GAME: expected a preset name or a rule file (see 'nimsieve solve --help')");
    a->game = argv[optind];
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s' after GAME '%s' (give bounds with --bounds N1,N2,..)",
                            argv[optind + 1], a->game);
    if (!a->out)
        return ns_cli_error(CMD, "missing -o OUT.h5: expected the path of the table file to write");
    if (a->out[0] == '\0')
        return ns_cli_error(CMD, "-o: the output path is empty");
    return ns_cli_box_check(CMD, &a->box, 1);
}

/* Refuse early (before minutes of work) when OUT cannot be written. */
static int check_output(const char *out, int force)
{
    struct stat st;
    if (stat(out, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return ns_cli_error(CMD, "-o '%s' is a directory: expected a file path", out);
        if (!force)
            return ns_cli_error(CMD, "'%s' exists: use --force to overwrite it", out);
    }
    char dir[4096];
    const char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == out)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ns_cli_error(CMD, "cannot write '%s': directory '%s' does not exist", out, dir);
    if (access(dir, W_OK) != 0)
        return ns_cli_error(CMD, "cannot write '%s': directory '%s' is not writable", out, dir);
    return NS_EXIT_OK;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int ns_cmd_solve(int argc, char **argv)
{
    solve_args a;
    ns_error err = {0};
    ns_game *g = NULL;
    ns_table *t = NULL;
    ns_meta meta;
    ns_cli_progress prog;
    int rc = parse_args(argc, argv, &a);
    memset(&meta, 0, sizeof meta);
    if (rc)
        return rc;
    if (a.help) {
        usage();
        return NS_EXIT_OK;
    }
    if ((rc = check_output(a.out, a.force)))
        return rc;

    if (ns_game_build(a.game, &a.box.params, a.box.nbounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg[0] ? err.msg : "cannot build the game");
        goto fail;
    }
    if (a.box.nbounds && a.box.nbounds != g->k) {
        rc = ns_cli_error(CMD, "--bounds has %d size%s but %s has %d coordinate%s", a.box.nbounds, a.box.nbounds == 1 ? "" : "s",
                          g->name, g->k, g->k == 1 ? "" : "s");
        goto fail;
    }
    if (!a.box.nbounds)
        for (int i = 0; i < g->k; i++)
            a.box.bounds[i] = a.box.size;
    if (a.misere)
        g->play = NS_PLAY_MISERE; /* a rule file may say "play misere" itself */
    if (ns_game_set_bounds(g, a.box.bounds, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", a.box.nbounds ? "--bounds" : "--size", err.msg);
        goto fail;
    }

    ns_sieve_plan plan;
    if (ns_sieve_plan_for(g, a.pn_only, &plan, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto fail;
    }
    const int threads = a.threads > 0 ? a.threads : ns_omp_max_threads();
    char dims[256], tb[32], lb[32], nb[32], avb[32];
    ns_cli_format_dims(g->k, g->bounds, dims, sizeof dims);
    ns_cli_format_bytes(plan.table_bytes, tb, sizeof tb);
    ns_cli_format_bytes(plan.line_bytes, lb, sizeof lb);
    const uint64_t need = sat_add(plan.table_bytes, plan.line_bytes);
    const uint64_t avail = ns_cli_mem_available();
    if (plan.table_bytes == 0 || (avail && need > avail)) {
        ns_cli_format_bytes(need, nb, sizeof nb);
        ns_cli_format_bytes(avail, avb, sizeof avb);
        rc = ns_cli_error(CMD, "%s (%" PRIu64 " cells) needs %s of memory (table %s + line sets %s) but only %s is available%s",
                          dims, plan.cells, nb, tb, lb, avb, a.pn_only ? "; use smaller bounds" : "; use smaller bounds or --pn-only");
        goto fail;
    }
    if (!a.quiet) {
        printf("solving %s on %s (%" PRIu64 " cells): table %s (%d byte%s a cell), line sets %s, %" PRId64 " levels, %d thread%s\n",
               g->name, dims, plan.cells, tb, plan.elem, plan.elem == 1 ? "" : "s", lb, plan.levels, threads,
               threads == 1 ? "" : "s");
        fflush(stdout);
    }

    ns_sieve_opts opts = {.threads = threads, .pn_only = a.pn_only, .progress = ns_cli_progress_cb,
                          .progress_user = &prog};
    ns_cli_catch_sigint();
    ns_cli_progress_start(&prog, !a.quiet);
    const double t0 = ns_cli_now();
    t = ns_sieve_table_new(g, a.pn_only, &err);
    ns_err src = t ? ns_sieve_run(g, t, &opts, &err) : (err.code ? err.code : NS_ENOMEM);
    const double wall = ns_cli_now() - t0;
    ns_cli_progress_finish(&prog);
    if (src) {
        if (src == NS_EINTR)
            rc = ns_cli_error(CMD, "interrupted after %.1f s; nothing was written", wall);
        else
            rc = ns_cli_error(CMD, "%s", err.msg);
        goto fail;
    }

    snprintf(meta.game, sizeof meta.game, "%s", g->name);
    if (g->rules_text && !(meta.rules_text = strdup(g->rules_text))) {
        rc = ns_cli_error(CMD, "out of memory");
        goto fail;
    }
    ns_params_format(&g->params, meta.params, sizeof meta.params);
    meta.play = g->play;
    meta.pn_only = a.pn_only;
    meta.threads = threads;
    meta.wall_seconds = wall;
    meta.complete = 1;
    if (ns_h5_write(a.out, t, &meta, a.force ? NS_H5_FORCE : 0, &err)) {
        rc = strstr(err.msg, a.out) ? ns_cli_error(CMD, "%s", err.msg) : ns_cli_error(CMD, "%s: %s", a.out, err.msg);
        goto fail;
    }

    if (!a.quiet) {
        ns_table_stats st;
        ns_table_summarize(t, &st, NULL, 0);
        printf("game:          %s\n", g->name);
        printf("params:        %s\n", meta.params[0] ? meta.params : "(defaults)");
        printf("bounds:        %s (%" PRIu64 " cells, %" PRIu64 " positions)\n", dims, plan.cells, st.n_valid);
        printf("play:          %s\n", g->play == NS_PLAY_MISERE ? "misere" : "normal");
        printf("kind:          %s\n", a.pn_only ? "P/N" : "grundy");
        printf("P-positions:   %" PRIu64 "\n", st.n_p);
        if (!a.pn_only)
            printf("largest value: %" PRIu32 "\n", st.max_value);
        printf("time:          %.3f s on %d thread%s\n", wall, threads, threads == 1 ? "" : "s");
        printf("output:        %s\n", a.out);
    }
    rc = NS_EXIT_OK;
fail:
    ns_meta_free(&meta);
    ns_table_free(t);
    ns_game_free(g);
    return rc;
}
