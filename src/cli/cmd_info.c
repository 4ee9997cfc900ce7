/* cmd_info.c - `nimsieve info`: what a table file holds. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "cli/cli_seq.h"
#include "store/ns_h5.h"
#include "game/ns_table.h"

static const char *const CMD = "info";

enum { HIST_HEAD = 10 };

static void usage(void)
{
    printf("usage: nimsieve info FILE.h5\n"
           "\n"
           "Summarise a table file written by 'nimsieve solve': game, parameters, bounds,\n"
           "play convention, kind (grundy or P/N), number of P-positions, largest Grundy\n"
           "value, the counts of the values 0..%d, timing and provenance (the engine; across\n"
           "MPI ranks, how many and who wrote the file).\n"
           "\n"
           "options:\n"
           "  -h, --help   this help\n",
           HIST_HEAD - 1);
}

static double pct(uint64_t n, uint64_t of)
{
    return of ? 100.0 * (double)n / (double)of : 0.0;
}

/* Error text that names the file once. */
static int file_error(const char *path, const ns_error *err)
{
    if (strstr(err->msg, path))
        return ns_cli_error(CMD, "%s", err->msg);
    return ns_cli_error(CMD, "%s: %s", path, err->msg[0] ? err->msg : ns_err_name(err->code));
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n + (s[-1] != '\n');
}

int ns_cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    ns_error err = {0};
    ns_meta meta, meta2;
    ns_table *t = NULL;
    int c, k = 0, rc;
    int64_t bounds[NS_MAX_DIM];
    memset(&meta, 0, sizeof meta);
    memset(&meta2, 0, sizeof meta2);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            usage();
            return NS_EXIT_OK;
        }
        return ns_cli_bad_option(CMD, c, argv);
    }
    if (optind >= argc)
        return ns_cli_error(CMD, "missing FILE.h5: expected a table file written by 'nimsieve solve'");
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s': expected one FILE.h5", argv[optind + 1]);
    const char *path = argv[optind];

    if (ns_h5_read_meta(path, &meta, &k, bounds, &err)) {
        rc = file_error(path, &err);
        goto fail;
    }
    if (ns_h5_read(path, &t, &meta2, &err)) {
        rc = file_error(path, &err);
        goto fail;
    }

    uint64_t hist[HIST_HEAD];
    ns_table_stats st;
    ns_table_summarize(t, &st, hist, HIST_HEAD);
    char dims[256];
    ns_cli_format_dims(k, bounds, dims, sizeof dims);

    printf("file:          %s\n", path);
    char label[NS_NAME_LEN + 600];
    ns_meta_game_label(&meta, label, sizeof label);
    if (meta.rules_text && meta.rules_text[0])
        printf("game:          %s; its text is stored in the file (%d lines)\n", label, count_lines(meta.rules_text));
    else
        printf("game:          %s\n", label);
    printf("params:        %s\n", meta.params[0] ? meta.params : "(defaults)");
    printf("bounds:        %s (%" PRIu64 " cells, %" PRIu64 " positions)\n", dims, t->ncells, st.n_valid);
    printf("play:          %s\n", meta.play == NS_PLAY_MISERE ? "misere" : "normal");
    printf("kind:          %s\n", t->pn_only ? "P/N" : "grundy");
    printf("P-positions:   %" PRIu64 " (%.4f%%)\n", st.n_p, pct(st.n_p, st.n_valid));
    uint64_t draws = 0;
    if (t->pn_only && meta2.loopy)
        for (uint64_t i = 0; i < t->ncells; i++)
            draws += ns_table_get(t, i) == NS_PN_DRAW;
    if (t->pn_only) {
        printf("N-positions:   %" PRIu64 " (%.4f%%)\n", st.n_valid - st.n_p - draws, pct(st.n_valid - st.n_p - draws, st.n_valid));
        if (meta2.loopy)
            printf("draws:         %" PRIu64 " (%.4f%%)   (a loopy game: from a draw neither player can force a win)\n",
                   draws, pct(draws, st.n_valid));
        if (meta2.gsg)
            printf("gsg values:    %" PRIu64 " finite (largest %" PRIu32 "), %" PRIu64 " infinite   "
                   "(generalized Sprague-Grundy values: /grundy)\n",
                   st.n_valid - meta2.gsg_ninf, meta2.gsg_max_finite, meta2.gsg_ninf);
    } else {
        printf("largest value: %" PRIu32 "\n", st.max_value);
        printf("values:\n");
        uint64_t shown = 0;
        for (int v = 0; v < HIST_HEAD && (uint32_t)v <= st.max_value; v++) {
            printf("  %4d: %14" PRIu64 "  %8.4f%%\n", v, hist[v], pct(hist[v], st.n_valid));
            shown += hist[v];
        }
        if (st.max_value >= HIST_HEAD)
            printf("  >=%2d: %14" PRIu64 "  %8.4f%%\n", HIST_HEAD, st.n_valid - shown, pct(st.n_valid - shown, st.n_valid));
    }
    if (meta.seq_code[0] && t->k == 1)
        ns_cli_seq_print(&meta, t->bounds[0]);
    printf("timing:        %.3f s wall on %d thread%s\n", meta.wall_seconds, meta.threads, meta.threads == 1 ? "" : "s");
    printf("engine:        %s\n", meta.engine[0] ? meta.engine : "(not recorded: written before engines had names)");
    if (meta.mpi_ranks > 0) {
        const char *w = meta.mpi_write;
        printf("mpi:           %d rank%s; file written %s%s%s\n", meta.mpi_ranks, meta.mpi_ranks == 1 ? "" : "s",
               strcmp(w, "placed") == 0     ? "by every rank, its chunks at the places rank 0 gave (placed)"
               : strcmp(w, "parallel") == 0 ? "by every rank with parallel HDF5 (parallel)"
               : strcmp(w, "rank0") == 0    ? "by rank 0 alone (rank0)"
                                            : "(not recorded)",
               meta.mpi_sets[0] ? "; line sets " : "", meta.mpi_sets);
    }
    printf("complete:      %s\n", meta.complete ? "yes" : "NO (the solve did not finish)");
    printf("created:       %s\n", meta.created_utc[0] ? meta.created_utc : "(unknown)");
    printf("version:       nimsieve %s (git %s)\n", meta.nimsieve_version, meta.git_revision);
    printf("built with:    HDF5 %s, GSL %s, %s\n", meta.hdf5_version, meta.gsl_version, meta.compiler);
    rc = NS_EXIT_OK;
fail:
    ns_table_free(t);
    ns_meta_free(&meta);
    ns_meta_free(&meta2);
    return rc;
}
