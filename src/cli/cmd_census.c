/* cmd_census.c - `nimsieve census octal`: every octal code of at most D
 * digits solved to N heap sizes, its period, codes grouped by identical
 * sequences, one HDF5 table (and optionally CSV) (issue 17, item 6). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/ns_census.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "core/ns_omp.h"
#include "dist/ns_dist.h"
#include "dist/ns_dist_sweep.h"
#include "store/ns_h5_census.h"

#define CMD "census"

_Static_assert((int)NS_CENSUS_CODE_LEN == (int)NS_H5_CENSUS_CODE_LEN, "census code widths differ");

enum { MAX_THREADS = 1024 };
#define MAX_SIZE ((int64_t)1 << 31)

static void usage(void)
{
    printf("usage: nimsieve census octal --digits D --size N -o CENSUS.h5 [--csv FILE] [--threads T]\n"
           "\n"
           "Solve every octal game 0.d1..dD of D code digits (d1..dD in 0..7, the last\n"
           "one non-zero: 7 x 8^(D-1) codes, 7, 56, 448 or 3584 for D = 1..4; shorter\n"
           "codes are those of fewer digits, run them with a smaller --digits) for heap\n"
           "sizes 0..N-1, find each sequence's period (proven by the octal periodicity\n"
           "theorem when N covers what it needs, else observed), and group the codes\n"
           "with identical sequences G(0..N-1). Games run in parallel, one game per\n"
           "thread, each solved by the sequence engines as 'solve octal' does. The\n"
           "census is the sweep 'nimsieve sweep octal -D code=octal(D)' (the same\n"
           "driver and grouping, the same columns per code) in its own file format.\n"
           "\n"
           "options:\n"
           "  -d, --digits D       code digits, 1..%d\n"
           "  -n, --size N         heap sizes 0..N-1, 1..2^31\n"
           "  -o, --output FILE    the HDF5 file: /census, a table of one row per code\n"
           "                       (code, period, preperiod, proven, max_value, group,\n"
           "                       saltus)\n"
           "                       and root attributes digits, size, codes, groups,\n"
           "                       proven, nimsieve_version, created_utc, ...\n"
           "      --csv FILE       the same rows as CSV, with the header line\n"
           "                       code,period,preperiod,proven,max_value,group,saltus\n"
           "  -t, --threads T      games solved at once (default: OpenMP's, all cores)\n"
           "  -h, --help           this help\n"
           "\n"
           "Columns: period 0 and preperiod 0 when no period is observed (a period is\n"
           "reported when its periodic tail spans two periods and half the sequence);\n"
           "proven 1 when the periodicity theorem proves it for every heap size;\n"
           "group: the row (from 0) of the first code with the same sequence;\n"
           "saltus s > 0 when the period observed is arithmetic, G(n+p) = G(n) + s\n"
           "(never proven: a finite octal code is never arithmetic-periodic, Horrocks\n"
           "and Nowakowski 2003, so it is a stretch of the range computed).\n"
           "Memory: about N bytes (N x 2 when values reach 255) per code solved (not\n"
           "derived): each is kept for the codes after it, plus one per distinct sequence.\n"
           "Progress on stderr when it is a terminal; a summary on stdout.\n"
           "\n"
           "example:\n"
           "  nimsieve census octal --digits 2 --size 4096 -o census2.h5 --csv census2.csv\n",
           NS_CENSUS_MAX_DIGITS);
}

typedef struct progress_ctx {
    ns_cli_progress bar;
} progress_ctx;

static int on_progress(void *user, size_t done, size_t total)
{
    progress_ctx *p = user;
    return ns_cli_progress_cb(&p->bar, (double)done / (double)total);
}

static int write_csv(const char *path, const ns_census *c)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return ns_cli_error(CMD, "%s: cannot create the CSV file: %s", path, strerror(errno));
    fprintf(f, "code,period,preperiod,proven,max_value,group,saltus\n");
    for (size_t i = 0; i < c->ncodes; i++)
        fprintf(f, "%s,%" PRId64 ",%" PRId64 ",%u,%" PRIu32 ",%" PRId64 ",%" PRId64 "\n", c->code[i], c->period[i],
                c->preperiod[i], (unsigned)c->proven[i], c->max_value[i], c->group[i], c->saltus[i]);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return ns_cli_error(CMD, "%s: cannot write the CSV file", path);
    return NS_EXIT_OK;
}

int ns_cmd_census(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"digits", required_argument, NULL, 'd'}, {"size", required_argument, NULL, 'n'},
        {"output", required_argument, NULL, 'o'}, {"csv", required_argument, NULL, 'C'},
        {"threads", required_argument, NULL, 't'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    ns_error err = {0};
    const char *out = NULL, *csv = NULL, *digits_s = NULL, *size_s = NULL, *threads_s = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:n:o:t:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(); return NS_EXIT_OK;
        case 'd': digits_s = optarg; break;
        case 'n': size_s = optarg; break;
        case 'o': out = optarg; break;
        case 'C': csv = optarg; break;
        case 't': threads_s = optarg; break;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (optind >= argc)
        return ns_cli_error(CMD, "missing family: expected 'octal', as in 'nimsieve census octal --digits 2 "
                                 "--size 1000 -o census.h5'");
    if (strcmp(argv[optind], "octal") != 0)
        return ns_cli_error(CMD, "unknown family '%s': expected 'octal'", argv[optind]);
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s': expected options after 'octal' only", argv[optind + 1]);
    if (!digits_s)
        return ns_cli_error(CMD, "missing --digits D: expected the number of code digits, 1..%d", NS_CENSUS_MAX_DIGITS);
    if (!size_s)
        return ns_cli_error(CMD, "missing --size N: expected the number of heap sizes, 1..2^31");
    if (!out)
        return ns_cli_error(CMD, "missing -o FILE: expected the HDF5 file to write");
    int64_t digits, size, threads = 0;
    if (ns_cli_parse_int(digits_s, "--digits", 1, NS_CENSUS_MAX_DIGITS, &digits, &err) ||
        ns_cli_parse_int(size_s, "--size", 1, MAX_SIZE, &size, &err) ||
        (threads_s && ns_cli_parse_int(threads_s, "--threads", 1, MAX_THREADS, &threads, &err)))
        return ns_cli_error(CMD, "%s", err.msg);
    if (csv && strcmp(csv, out) == 0)
        return ns_cli_error(CMD, "--csv and -o name the same file '%s': expected two files", out);
    if (!threads)
        threads = ns_omp_max_threads();

    const size_t ncodes = ns_census_count((int)digits);
    progress_ctx pc;
    ns_cli_catch_sigint();
    ns_cli_progress_start(&pc.bar, 1);
    const double t0 = ns_cli_now();
    /* every rank ready (a rank that failed above stops them all), then
     * under MPI rank 0 hands out the codes and the others solve them */
    if (ns_cli_dist_agree(NS_EXIT_OK) != NS_EXIT_OK)
        return NS_EXIT_ERROR;
    ns_census *cs = ns_census_run((int)digits, size, (int)threads, ns_dist_sweep_run, on_progress, &pc, &err);
    ns_cli_progress_finish(&pc.bar);
    if (!cs)
        return ns_cli_error(CMD, "%s", err.msg);
    if (ns_dist_rank() != 0) {
        ns_census_free(cs);   /* rank 0 writes the files */
        return NS_EXIT_OK;
    }
    const double wall = ns_cli_now() - t0;
    int rc = NS_EXIT_OK;
    ns_h5_census_cols cols = {
        .digits = cs->digits, .size = cs->size, .n = cs->ncodes, .ngroups = cs->ngroups, .nproven = cs->nproven,
        .code = (const char (*)[NS_H5_CENSUS_CODE_LEN])cs->code, .period = cs->period, .preperiod = cs->preperiod, .saltus = cs->saltus,
        .group = cs->group, .proven = cs->proven, .max_value = cs->max_value, .threads = (int)threads,
        .wall_seconds = wall, .mpi_ranks = ns_dist_is_mpi_build() ? ns_dist_size() : 0};
    if (ns_h5_census_write(out, &cols, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto done;
    }
    if (csv && (rc = write_csv(csv, cs)))
        goto done;
    size_t nperiodic = 0;
    for (size_t i = 0; i < cs->ncodes; i++)
        nperiodic += cs->period[i] > 0;
    printf("census:        octal codes of %d digit%s (%zu codes, last digit non-zero), heap sizes 0..%" PRId64 "\n",
           (int)digits, digits == 1 ? "" : "s", ncodes, size - 1);
    printf("groups:        %zu distinct sequences\n", cs->ngroups);
    printf("periods:       %zu proven, %zu observed, not proven, %zu none observed\n", cs->nproven,
           nperiodic - cs->nproven, cs->ncodes - nperiodic);
    printf("derived:       %zu codes took an earlier code's sequence (its moves less some that leave one heap or "
           "none: checked heap by heap, not solved)\n", cs->nderived);
    if (ns_dist_size() > 1)
        printf("time:          %.2f s on %d ranks (1 manager, %d worker%s) x %d thread%s\n", wall, ns_dist_size(),
               ns_dist_size() - 1, ns_dist_size() == 2 ? "" : "s", (int)threads, threads == 1 ? "" : "s");
    else
        printf("time:          %.2f s on %d thread%s\n", wall, (int)threads, threads == 1 ? "" : "s");
    printf("file:          %s%s%s\n", out, csv ? ", " : "", csv ? csv : "");
done:
    ns_census_free(cs);
    return rc;
}
