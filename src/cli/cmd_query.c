/* cmd_query.c - `nimsieve query`: one position's value and its winning moves. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_seq.h"
#include "cli/cli_util.h"
#include "game/ns_build.h"
#include "store/ns_h5.h"
#include "game/ns_table.h"
#include "analysis/ns_strategy.h"

static const char *const CMD = "query";

static void usage(void)
{
    printf("usage: nimsieve query FILE.h5 X1 X2 ...\n"
           "\n"
           "Print the value of position (X1, X2, ...) from a table file: its Grundy value\n"
           "(for a Grundy table), P or N, and all winning moves, i.e. the moves to\n"
           "P-positions; for a Grundy table also the moves to each smaller value. The\n"
           "moves are enumerated from the game's rules (rebuilt from the file) and their\n"
           "values read from the table. Give exactly one coordinate per pile.\n"
           "\n"
           "A loopy game's file: P, N or D (a draw), the remoteness, and the move to\n"
           "play (the fastest win, the longest defence, or a move that keeps the\n"
           "draw; see 'nimsieve move --help').\n"
           "\n"
           "A heap game's sequence (octal codes, Grundy's game, rule files with 'heap'):\n"
           "give any number of heap sizes; the value is the XOR of their values and\n"
           "every winning move is listed (the heap, the tokens taken, the heaps left).\n"
           "\n"
           "options:\n"
           "  -h, --help   this help\n"
           "\n"
           "example:\n"
           "  nimsieve query wythoff.h5 4 5\n"
           "  nimsieve query kayles.h5 3 7 12\n");
}

/* One option; coordinates past k stay 0 so that whole records compare. */
typedef struct opt_pos {
    int64_t c[NS_MAX_DIM];
} opt_pos;

/* The distinct options of one position. Owns opt. */
typedef struct optlist {
    int k;
    opt_pos *opt;
    size_t n, cap;
    int oom;
} optlist;

static int collect(void *user, const int64_t *o)
{
    optlist *l = user;
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        opt_pos *p = realloc(l->opt, nc * sizeof *p);
        if (!p) {
            l->oom = 1;
            return 1;
        }
        l->opt = p;
        l->cap = nc;
    }
    memset(&l->opt[l->n], 0, sizeof l->opt[l->n]);
    memcpy(l->opt[l->n].c, o, (size_t)l->k * sizeof *o);
    l->n++;
    return 0;
}

static int cmp_pos(const void *a, const void *b)
{
    const opt_pos *x = a, *y = b;
    for (int i = 0; i < NS_MAX_DIM; i++)
        if (x->c[i] != y->c[i])
            return x->c[i] < y->c[i] ? -1 : 1;
    return 0;
}

/* Sort lexicographically and drop repeated options. */
static void dedup(optlist *l)
{
    if (l->n < 2)
        return;
    qsort(l->opt, l->n, sizeof *l->opt, cmp_pos);
    size_t m = 1;
    for (size_t i = 1; i < l->n; i++)
        if (cmp_pos(&l->opt[i], &l->opt[m - 1]) != 0)
            l->opt[m++] = l->opt[i];
    l->n = m;
}

static void print_move(const ns_game *g, const int64_t *s, const int64_t *o, const char *indent)
{
    char pos[256], what[256];
    ns_format_pos(g->k, o, pos, sizeof pos);
    ns_cli_describe_move(g, s, o, what, sizeof what);
    printf("%smove to %s: %s\n", indent, pos, what);
}

static int file_error(const char *path, const ns_error *err)
{
    if (strstr(err->msg, path))
        return ns_cli_error(CMD, "%s", err->msg);
    return ns_cli_error(CMD, "%s: %s", path, err->msg[0] ? err->msg : ns_err_name(err->code));
}

int ns_cmd_query(int argc, char **argv)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    ns_error err = {0};
    ns_meta meta, meta2;
    ns_table *t = NULL;
    ns_game *g = NULL;
    optlist opts = {0};
    uint32_t *vals = NULL, *rem = NULL;
    ns_moves play = {0};
    int c, k = 0, rc;
    int64_t bounds[NS_MAX_DIM], s[NS_MAX_DIM];
    memset(&meta, 0, sizeof meta);
    memset(&meta2, 0, sizeof meta2);
    optind = 1;
    opterr = 0;
    /* '+': stop at FILE so that coordinates like -3 are not taken for options */
    while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
        if (c == 'h') {
            usage();
            return NS_EXIT_OK;
        }
        return ns_cli_bad_option(CMD, c, argv);
    }
    if (optind >= argc)
        return ns_cli_error(CMD, "missing FILE.h5 and position: expected 'nimsieve query FILE.h5 X1 X2 ...'");
    const char *path = argv[optind];
    if (optind + 1 >= argc)
        return ns_cli_error(CMD, "missing position: expected 'nimsieve query %s X1 X2 ...'", path);

    if ((rc = ns_cli_file_first(CMD, argv + optind, argc - optind)))
        return rc;
    if (ns_h5_read_meta(path, &meta, &k, bounds, &err)) {
        rc = file_error(path, &err);
        goto fail;
    }
    if (ns_game_from_meta(&meta, k, bounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s: cannot rebuild the game: %s", path, err.msg);
        goto fail;
    }
    if (g->octal) { /* a take-and-break heap game: a sum of heaps, moves that take and split */
        rc = ns_cli_seq_heaps(CMD, path, g, &meta, argv + optind + 1, argc - optind - 1, 0, 1);
        goto fail;
    }
    if (ns_cli_parse_position(g, argv + optind + 1, argc - optind - 1, s, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto fail;
    }
    if (ns_h5_read(path, &t, &meta2, &err)) {
        rc = file_error(path, &err);
        goto fail;
    }
    if (t->k != g->k || !ns_table_contains(t, s)) {
        rc = ns_cli_error(CMD, "%s: the table's shape does not match its metadata", path);
        goto fail;
    }
    const uint32_t inval = ns_table_invalid(t);
    const uint32_t v = ns_table_get(t, ns_table_index(t, s));
    char pos[256], box[256];
    ns_format_pos(k, s, pos, sizeof pos);
    ns_cli_format_box(k, bounds, box, sizeof box);
    if (v == inval) {
        rc = ns_cli_error(CMD, "%s: position %s is marked as not a position of the game", path, pos);
        goto fail;
    }

    opts.k = k;
    int erc = ns_game_foreach_option(g, s, collect, &opts, &err);
    if (opts.oom) {
        rc = ns_cli_error(CMD, "out of memory while listing the moves from %s", pos);
        goto fail;
    }
    if (erc < 0) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto fail;
    }
    dedup(&opts);
    vals = malloc((opts.n ? opts.n : 1) * sizeof *vals);
    if (!vals) {
        rc = ns_cli_error(CMD, "out of memory");
        goto fail;
    }
    size_t nwin = 0;
    for (size_t i = 0; i < opts.n; i++) {
        const int64_t *o = opts.opt[i].c;
        vals[i] = ns_table_get(t, ns_table_index(t, o));
        nwin += vals[i] == 0;
    }

    printf("position:      %s\n", pos);
    char label[NS_NAME_LEN + 600];
    ns_meta_game_label(&meta, label, sizeof label);
    printf("game:          %s%s%s, table %s, %s play\n", label, meta.params[0] ? " " : "", meta.params, box,
           meta.play == NS_PLAY_MISERE ? "misere" : "normal");
    if (!t->pn_only)
        printf("grundy value:  %" PRIu32 "\n", v);
    if (t->pn_only && meta2.loopy) {
        uint32_t r = NS_H5_REMOTE_NONE;
        if (ns_h5_read_remoteness(path, k, s, &r, &err)) {
            rc = file_error(path, &err);
            goto fail;
        }
        printf("outcome:       %s\n", v == 0 ? "P (the player to move loses)" : v == NS_PN_DRAW ? "D (a draw: neither player can force a win)"
                                                                                        : "N (the player to move wins)");
        if (r == NS_H5_REMOTE_NONE)
            printf("remoteness:    none (a draw)\n");
        else
            printf("remoteness:    %" PRIu32 " (moves to the end: the winner hurries, the loser delays)\n", r);
    } else {
        printf("outcome:       %s\n", v == 0 ? "P (the player to move loses)" : "N (the player to move wins)");
    }
    printf("moves:         %zu distinct option%s\n", opts.n, opts.n == 1 ? "" : "s");
    if (opts.n == 0)
        printf("winning moves: none (no move at all: a terminal position)\n");
    else if (nwin == 0 && meta2.loopy)
        printf("winning moves: none (no move leads to a P-position)\n");
    else if (nwin == 0)
        printf("winning moves: none (every move leads to an N-position)\n");
    else
        printf("winning moves: %zu (to P-positions)\n", nwin);
    for (size_t i = 0; i < opts.n; i++)
        if (vals[i] == 0)
            print_move(g, s, opts.opt[i].c, "  ");
    if (t->pn_only && meta2.loopy && opts.n) {
        /* the move to play: the fastest win, the longest defence, or a
         * move that keeps the draw (ns_strategy_loopy) */
        rem = malloc((t->ncells ? t->ncells : 1) * sizeof *rem);
        if (!rem) {
            rc = ns_cli_error(CMD, "out of memory");
            goto fail;
        }
        if (ns_h5_read_remoteness_all(path, t->ncells, rem, &err) ||
            ns_strategy_loopy(g, t, rem, s, 0, &play, NULL, NULL, &err)) {
            rc = file_error(path, &err);
            goto fail;
        }
        char tail[96] = "";
        if (v != NS_PN_DRAW)
            snprintf(tail, sizeof tail, " (remoteness %" PRIu32 ")", play.v[0].rem);
        printf("move to play:  %s%s\n", v == 0 ? "the longest defence" : v == NS_PN_DRAW ? "a move that keeps the draw" : "the fastest win", tail);
        print_move(g, s, play.v[0].to, "  ");
    }
    if (!t->pn_only && v > 1) {
        printf("moves to each smaller value:\n");
        for (uint32_t gv = 1; gv < v; gv++) {
            size_t n = 0;
            for (size_t i = 0; i < opts.n; i++)
                n += vals[i] == gv;
            printf("  value %" PRIu32 ": %zu move%s\n", gv, n, n == 1 ? "" : "s");
            for (size_t i = 0; i < opts.n; i++)
                if (vals[i] == gv)
                    print_move(g, s, opts.opt[i].c, "    ");
        }
    }
    rc = NS_EXIT_OK;
fail:
    free(rem);
    ns_moves_free(&play);
    free(vals);
    free(opts.opt);
    ns_table_free(t);
    ns_game_free(g);
    ns_meta_free(&meta);
    ns_meta_free(&meta2);
    return rc;
}
