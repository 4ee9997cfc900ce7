/* cmd_verify.c - `nimsieve verify`: check that the datasets of a table file
 * agree with each other (ns_filecheck.h), then recompute cells naively (mex
 * over the explicitly enumerated options) and compare them with the file. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "store/ns_filecheck.h"
#include "cli/cli_util.h"
#include "game/ns_build.h"
#include "store/ns_h5.h"
#include "core/ns_omp.h"
#include "game/ns_table.h"

static const char *const CMD = "verify";

enum { WHOLE_LIMIT = 1000000, DEFAULT_SAMPLES = 10000, MAX_SHOWN = 10, BLOCK = 1 << 16 };

static void usage(void)
{
    printf("usage: nimsieve verify FILE.h5 [--samples K] [--all] [--seed S] [--threads T]\n"
           "\n"
           "First check that the file agrees with itself, reading it in bands of rows:\n"
           "every /pn cell against its /grundy cell (P iff the value is 0, 'not a\n"
           "position' iff invalid_value), /p_positions against the P cells of /pn (the\n"
           "same list, in order), and the attributes max_value and n_p_positions against\n"
           "the data; the first disagreement is printed as 'inconsistent: ...' naming the\n"
           "dataset and the position, and verify exits 1. Then recompute cells of a table file independently of the sieve: rebuild the game\n"
           "from the file, enumerate each cell's options one by one and take the mex of\n"
           "their stored values (P/N: N iff some option is P). Tables of at most %d\n"
           "cells are checked whole, larger ones at K random cells.\n"
           "Prints 'verified N cells: OK', or the mismatches (first %d) and exits 1.\n"
           "\n"
           "options:\n"
           "  -k, --samples K   random cells to check in a large table (default %d;\n"
           "                    0 = every cell)\n"
           "  -a, --all         check every cell, whatever the size\n"
           "  -s, --seed S      seed of the random choice (default 1; same seed, same cells)\n"
           "  -t, --threads T   OpenMP threads (default: OpenMP's default)\n"
           "  -h, --help        this help\n",
           WHOLE_LIMIT, MAX_SHOWN, DEFAULT_SAMPLES);
}

/* splitmix64: a small deterministic generator for the sample. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1, without modulo bias. */
static uint64_t random_below(uint64_t *state, uint64_t n)
{
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do
        r = next_random(state);
    while (r >= limit);
    return r % n;
}

static int file_error(const char *path, const ns_error *err)
{
    if (strstr(err->msg, path))
        return ns_cli_error(CMD, "%s", err->msg);
    return ns_cli_error(CMD, "%s: %s", path, err->msg[0] ? err->msg : ns_err_name(err->code));
}

static void format_value(uint32_t v, uint32_t inval, char *buf, size_t len)
{
    if (v == inval)
        snprintf(buf, len, "not-a-position");
    else
        snprintf(buf, len, "%" PRIu32, v);
}

/* Recompute the cells idx[0..n-1] into got[] (status in code[]), in
 * parallel. A loopy game's table (rem: its remoteness, else NULL): the
 * outcome and, in got_rem[], the remoteness the definitions give. */
static void recompute(const ns_game *g, const ns_table *t, const uint32_t *rem, const uint64_t *idx, int64_t n,
                      uint32_t *got, uint32_t *got_rem, ns_err *code, int threads)
{
    NS_OMP_FOR_DYNAMIC(threads)
    for (int64_t j = 0; j < n; j++) {
        int64_t s[NS_MAX_DIM];
        ns_table_coords(t, idx[j], s);
        code[j] = rem ? ns_naive_loopy_cell(g, t, rem, s, &got[j], &got_rem[j], NULL)
                      : ns_naive_cell(g, t, s, &got[j], NULL);
    }
}

static void format_loopy(uint32_t v, uint32_t r, uint32_t inval, char *buf, size_t len)
{
    if (v == inval)
        snprintf(buf, len, "not-a-position");
    else if (r == NS_H5_REMOTE_NONE)
        snprintf(buf, len, "%s", v == NS_PN_DRAW ? "D" : v == NS_PN_P ? "P (no remoteness)" : "N (no remoteness)");
    else
        snprintf(buf, len, "%s remoteness %" PRIu32, v == NS_PN_P ? "P" : v == NS_PN_N ? "N" : "D", r);
}

int ns_cmd_verify(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"samples", required_argument, NULL, 'k'}, {"all", no_argument, NULL, 'a'},
        {"seed", required_argument, NULL, 's'},    {"threads", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    ns_error err = {0};
    ns_meta meta;
    ns_table *t = NULL;
    ns_game *g = NULL;
    uint64_t *idx = NULL;
    uint32_t *got = NULL, *got_rem = NULL, *rem = NULL;
    ns_err *code = NULL;
    int c, k = 0, rc, all = 0, threads = 0, samples_given = 0;
    int64_t samples = DEFAULT_SAMPLES, seed = 1, v;
    int64_t bounds[NS_MAX_DIM];
    memset(&meta, 0, sizeof meta);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":k:as:t:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            if (ns_cli_parse_int(optarg, "--samples", 0, INT64_MAX, &samples, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            samples_given = 1;
            break;
        case 'a': all = 1; break;
        case 's':
            if (ns_cli_parse_int(optarg, "--seed", 0, INT64_MAX, &seed, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            break;
        case 't':
            if (ns_cli_parse_int(optarg, "--threads", 1, 4096, &v, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            threads = (int)v;
            break;
        case 'h': usage(); return NS_EXIT_OK;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (optind >= argc)
        return ns_cli_error(CMD, "missing FILE.h5: expected a table file written by 'nimsieve solve'");
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s': expected one FILE.h5", argv[optind + 1]);
    const char *path = argv[optind];
    if (threads <= 0)
        threads = ns_omp_max_threads();

    if (ns_h5_read_meta(path, &meta, &k, bounds, &err)) {
        rc = file_error(path, &err);
        goto fail;
    }
    if (ns_game_from_meta(&meta, k, bounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s: cannot rebuild the game: %s", path, err.msg);
        goto fail;
    }
    /* the file's shape and kind from its metadata: the table is read after
     * the datasets are found to agree */
    uint64_t ncells = 1;
    for (int d = 0; d < k; d++)
        ncells *= (uint64_t)bounds[d];
    const int whole = all || (samples_given && (samples == 0 || (uint64_t)samples >= ncells)) ||
                      (!samples_given && ncells <= WHOLE_LIMIT);
    const uint64_t total = whole ? ncells : (uint64_t)samples;
    char box[256];
    ns_cli_format_box(k, bounds, box, sizeof box);
    char label[NS_NAME_LEN + 600];
    ns_meta_game_label(&meta, label, sizeof label);
    printf("checking %s%" PRIu64 " cells of %s (%s %s, %s play, %s) on %d thread%s\n", whole ? "all " : "", total,
           path, label, box, g->play == NS_PLAY_MISERE ? "misere" : "normal", meta.pn_only ? "P/N" : "grundy",
           threads, threads == 1 ? "" : "s");
    if (!whole)
        printf("random cells, seed %" PRId64 "\n", seed);
    if (!meta.complete)
        printf("note: the file is marked incomplete\n");
    fflush(stdout);

    ns_filecheck fc;
    if (ns_filecheck_run(path, threads, &fc, &err)) {
        rc = file_error(path, &err);
        goto fail;
    }
    if (!fc.consistent) {
        printf("inconsistent: %s\n", fc.why);
        rc = NS_EXIT_NO;
        goto fail;
    }
    printf("datasets agree: %s/pn, /p_positions, max_value, n_p_positions (%" PRIu64 " cells, %" PRIu64
           " P-positions, largest value %" PRIu32 ")\n", fc.has_grundy ? "/grundy, " : "", fc.cells, fc.n_p,
           fc.max_value);
    fflush(stdout);

    ns_meta_free(&meta);
    if (ns_h5_read(path, &t, &meta, &err)) {
        rc = file_error(path, &err);
        goto fail;
    }
    if (t->k != g->k || memcmp(t->bounds, g->bounds, (size_t)k * sizeof *bounds) != 0) {
        rc = ns_cli_error(CMD, "%s: the table's shape does not match its metadata", path);
        goto fail;
    }

    if (meta.loopy && t->pn_only) {
        /* a loopy game: the definitions of outcome and remoteness */
        if (!(rem = malloc((size_t)t->ncells * sizeof *rem))) {
            rc = ns_cli_error(CMD, "out of memory for /remoteness");
            goto fail;
        }
        if (ns_h5_read_remoteness_all(path, t->ncells, rem, &err)) {
            rc = file_error(path, &err);
            goto fail;
        }
        printf("loopy game: each cell against the definitions of P, N, draw and remoteness from its options' stored values%s\n",
               whole ? " (every cell: a proof that the table is the game's)" : "");
    }
    idx = malloc(BLOCK * sizeof *idx);
    got = malloc(BLOCK * sizeof *got);
    got_rem = malloc(BLOCK * sizeof *got_rem);
    code = malloc(BLOCK * sizeof *code);
    if (!idx || !got || !got_rem || !code) {
        rc = ns_cli_error(CMD, "out of memory");
        goto fail;
    }
    ns_cli_catch_sigint();
    uint64_t state = (uint64_t)seed, done = 0, bad = 0;
    while (done < total) {
        const int64_t n = (int64_t)(total - done < BLOCK ? total - done : BLOCK);
        for (int64_t j = 0; j < n; j++)
            idx[j] = whole ? done + (uint64_t)j : random_below(&state, ncells);
        recompute(g, t, rem, idx, n, got, got_rem, code, threads);
        for (int64_t j = 0; j < n; j++) {
            int64_t s[NS_MAX_DIM];
            char pos[256];
            ns_table_coords(t, idx[j], s);
            ns_format_pos(k, s, pos, sizeof pos);
            if (code[j]) {
                /* again on this thread, for the message */
                uint32_t dummy, dummy_rem;
                if (rem)
                    ns_naive_loopy_cell(g, t, rem, s, &dummy, &dummy_rem, &err);
                else
                    ns_naive_cell(g, t, s, &dummy, &err);
                rc = ns_cli_error(CMD, "cannot recompute %s: %s", pos, err.msg[0] ? err.msg : ns_err_name(code[j]));
                goto fail;
            }
            const uint32_t stored = ns_table_get(t, idx[j]);
            if (rem) {
                if (stored == got[j] && rem[idx[j]] == got_rem[j])
                    continue;
                if (++bad <= MAX_SHOWN) {
                    char a[64], b[64];
                    format_loopy(stored, rem[idx[j]], ns_table_invalid(t), a, sizeof a);
                    format_loopy(got[j], got_rem[j], ns_table_invalid(t), b, sizeof b);
                    printf("mismatch at %s: stored %s, recomputed %s\n", pos, a, b);
                }
                continue;
            }
            if (stored == got[j])
                continue;
            if (++bad <= MAX_SHOWN) {
                const uint32_t inval = ns_table_invalid(t);
                char a[32], b[32];
                format_value(stored, inval, a, sizeof a);
                format_value(got[j], inval, b, sizeof b);
                printf("mismatch at %s: stored %s, recomputed %s\n", pos, a, b);
            }
        }
        done += (uint64_t)n;
        if (ns_cli_interrupted()) {
            rc = ns_cli_error(CMD, "interrupted after %" PRIu64 " of %" PRIu64 " cells (%" PRIu64 " mismatches so far)",
                              done, total, bad);
            goto fail;
        }
    }
    if (bad) {
        printf("verified %" PRIu64 " cells: %" PRIu64 " mismatch%s%s\n", total, bad, bad == 1 ? "" : "es",
               bad > MAX_SHOWN ? " (first 10 shown)" : "");
        rc = NS_EXIT_NO;
    } else {
        printf("verified %" PRIu64 " cells: OK\n", total);
        rc = NS_EXIT_OK;
    }
fail:
    free(idx);
    free(got);
    free(got_rem);
    free(rem);
    free(code);
    ns_table_free(t);
    ns_game_free(g);
    ns_meta_free(&meta);
    return rc;
}
