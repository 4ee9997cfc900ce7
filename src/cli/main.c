/* main.c - `nimsieve SUBCOMMAND ...`: find the subcommand and run it. */
#include <gsl/gsl_version.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "dist/ns_dist.h"
#include "store/ns_h5.h"
#include "core/ns_version.h"

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int every_rank; /* under MPI: 1 runs on every rank (it shares its work), 0 on rank 0 only */
} subcommand;

static const subcommand subcommands[] = {
    {"solve", ns_cmd_solve, "compute the P/N or Grundy table of a game into an HDF5 file", 1},
    {"info", ns_cmd_info, "summarise a table file: game, bounds, counts, histogram, timing", 0},
    {"query", ns_cmd_query, "value of one position and all its winning moves", 0},
    {"verify", ns_cmd_verify, "recompute cells naively and compare with a table file", 0},
    {"rules", ns_cmd_rules, "show how a rule file (or preset) is understood", 0},
    {"check", ns_cmd_check, "check a closed form against every cell of a table", 0},
    {"patterns", ns_cmd_patterns, "find structure in a table (periods, slopes)", 0},
    {"move", ns_cmd_move, "a winning move from a position, or say it is lost", 0},
    {"poj1067", ns_cmd_poj1067, "answer POJ 1067 (Wythoff) lines \"a b\" from stdin with 1 or 0", 0},
    {"poj1704", ns_cmd_poj1704, "answer POJ 1704 (Georgia and Bob, Staircase Nim) from stdin", 0},
    {"monks", ns_cmd_monks, "answer 高僧斗法 (Staircase Nim): the winning move, or -1", 0},
    {"plot", ns_cmd_plot, "draw a figure of a table with gnuplot", 0},
    {"census", ns_cmd_census, "solve every octal game of D code digits, periods, groups", 1},
    {"sweep", ns_cmd_sweep, "solve the variants of a game over parameter ranges, one catalogue", 1},
    {NULL, NULL, NULL, 0},
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: nimsieve SUBCOMMAND [OPTIONS] ...\n"
            "\n"
            "Sprague-Grundy and P/N tables of impartial games, computed by a parallel\n"
            "sieve and stored in HDF5.\n"
            "\n"
            "subcommands:\n");
    for (const subcommand *c = subcommands; c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out,
            "\n"
            "  nimsieve SUBCOMMAND --help   options of one subcommand\n"
            "  nimsieve help [SUBCOMMAND]   the same\n"
            "  nimsieve --version           version and build\n"
            "\n"
            "exit status: 0 success, 1 a negative answer (e.g. a verify mismatch),\n"
            "2 bad input or an error (one line on stderr).\n");
}

static void version(void)
{
    printf("nimsieve %s (git %s)\n", NS_VERSION, NS_GIT_REVISION);
    printf("HDF5 %s, GSL %s, %s, %s\n", ns_h5_library_version(), GSL_VERSION, NS_COMPILER, NS_BUILD_FLAGS);
    char d[256];
    ns_dist_describe(d, sizeof d);
    printf("%s\n", d);
}

static const subcommand *find(const char *name)
{
    for (const subcommand *c = subcommands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static int run(int argc, char **argv);
static int shared; /* the subcommand run has every_rank */

/* Under MPI (NS_MPI, more than one rank): only rank 0 prints normal output
 * (stdout of the others goes to /dev/null). A subcommand without
 * every_rank runs on rank 0 alone (only rank 0 prints errors); one with it
 * runs on every rank, every rank's errors printed with its rank, and meets
 * the others once before its shared part (ns_cli_dist_agree; main makes a
 * rank that returned earlier meet them, ns_cli_dist_catch_up). Every rank exits with the largest
 * exit status of all ranks. */
int main(int argc, char **argv)
{
    ns_error err = {0};
    if (ns_dist_init(&argc, &argv, &err)) {
        ns_cli_error(NULL, "rank %d: %s", ns_dist_rank(), err.msg);
        ns_dist_abort(NS_EXIT_ERROR);
        return NS_EXIT_ERROR;
    }
    if (ns_dist_rank() != 0 && !freopen("/dev/null", "w", stdout)) {
        ns_cli_error(NULL, "rank %d: cannot send stdout to /dev/null", ns_dist_rank());
        ns_dist_abort(NS_EXIT_ERROR);
    }
    int rc = run(argc, argv);
    if (ns_dist_size() > 1 && shared)
        rc = ns_cli_dist_catch_up(rc);
    fflush(stdout);
    rc = ns_dist_max_code(rc);
    /* a stopped or failed streamed write left a file half closed: HDF5's
     * shutdown, which MPI_Finalize runs in an MPI build, would crash on it
     * (exit 139 instead of the stop's 143); the checkpoint is on disk */
    if (!ns_h5_files_left_open())
        ns_dist_finalize();
    return rc;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        /* one line, like every other error; the list is one --help away */
        fprintf(stderr, "usage: nimsieve SUBCOMMAND [OPTIONS] ... (try 'nimsieve --help')\n");
        return NS_EXIT_ERROR;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return NS_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        version();
        return NS_EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return NS_EXIT_OK;
        }
        const subcommand *c = find(argv[2]);
        if (!c)
            return ns_cli_error(NULL, "unknown subcommand '%s' (see 'nimsieve --help')", argv[2]);
        char *hargv[] = {argv[2], "--help", NULL};
        return c->run(2, hargv);
    }
    const subcommand *c = find(cmd);
    if (!c) {
        if (cmd[0] == '-')
            return ns_cli_error(NULL, "unknown option '%s': expected a subcommand (see 'nimsieve --help')", cmd);
        return ns_cli_error(NULL, "unknown subcommand '%s' (see 'nimsieve --help')", cmd);
    }
    if (ns_dist_size() > 1 && c->every_rank) {
        shared = 1;
        ns_cli_dist_hold_errors();
    }
    if (ns_dist_size() > 1 && !c->every_rank) {
        if (ns_dist_rank() != 0)
            return NS_EXIT_OK;
        /* the other ranks only wait at the end */
        fprintf(stderr, "nimsieve %s: not distributed yet: runs on rank 0 of %d, the other ranks wait\n", c->name,
                ns_dist_size());
    }
    return c->run(argc - 1, argv + 1);
}
