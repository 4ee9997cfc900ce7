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
           "       nimsieve query A.h5 X1 X2 ... --plus B.h5 Y1 Y2 ...\n"
           "\n"
           "Print the value of position (X1, X2, ...) from a table file: its Grundy value\n"
           "(for a Grundy table), P or N, and all winning moves, i.e. the moves to\n"
           "P-positions; for a Grundy table also the moves to each smaller value. The\n"
           "moves are enumerated from the game's rules (rebuilt from the file) and their\n"
           "values read from the table. Give exactly one coordinate per pile.\n"
           "\n"
           "A loopy game's file: P, N or D (a draw), the remoteness, and the move to\n"
           "play (the fastest win, the longest defence, or a move that keeps the\n"
           "draw; see 'nimsieve move --help'). Solved without --pn-only (normal play),\n"
           "also its generalized Sprague-Grundy value (Smith; Fraenkel): a finite value\n"
           "g, or inf{K}, K the finite values of its options (0 in K: N, else a draw).\n"
           "\n"
           "--plus: the sum of position X of A.h5 and position Y of B.h5 (a move is a\n"
           "move in one of them), decided from the two tables by the generalized\n"
           "Sprague-Grundy theorem: a XOR b for finite a and b; inf{K XOR b} for inf{K}\n"
           "and finite b; two infinite values make a draw. Either file may be a loopy\n"
           "game's (solved without --pn-only) or an ordinary Grundy table. Prints the\n"
           "sum's value and its outcome, P, N or D (a draw).\n"
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
           "  nimsieve query kayles.h5 3 7 12\n"
           "  nimsieve query loopy.h5 3 4 --plus wythoff.h5 2 5\n");
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

/* "3" or "inf{0,2}" */
static void format_gsg(uint32_t v, const uint32_t *k, uint64_t n, char *buf, size_t len)
{
    if (v != NS_H5_GSG_INF) {
        snprintf(buf, len, "%" PRIu32, v);
        return;
    }
    size_t used = (size_t)snprintf(buf, len, "inf{");
    for (uint64_t j = 0; j < n && used < len; j++)
        used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu32, j ? "," : "", k[j]);
    if (used < len)
        snprintf(buf + used, len - used, "}");
    if (used >= len && len > 4)
        memcpy(buf + len - 5, "...}", 5);
}

static const char *outcome_text(int o)
{
    return o == NS_PN_P ? "P (the player to move loses)"
           : o == NS_PN_N ? "N (the player to move wins)"
                          : "D (a draw: neither player can force a win)";
}

/* The value of position args[0..nargs) of the table file path for a sum:
 * the generalized Sprague-Grundy value of a loopy game's file, or the
 * Grundy value of an ordinary Grundy table. *set (malloc'ed) for inf. */
static int sum_part(const char *path, char **args, int nargs, int64_t *s, int *k, uint32_t *v, uint32_t **set,
                    uint64_t *nset)
{
    ns_error err = {0};
    ns_meta meta;
    ns_game *g = NULL;
    ns_table *cell = NULL;
    int64_t bounds[NS_MAX_DIM];
    int rc = NS_EXIT_ERROR;
    memset(&meta, 0, sizeof meta);
    if (ns_h5_read_meta(path, &meta, k, bounds, &err)) {
        rc = file_error(path, &err);
        goto done;
    }
    if (ns_game_from_meta(&meta, *k, bounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s: cannot rebuild the game: %s", path, err.msg);
        goto done;
    }
    if (g->octal) {
        rc = ns_cli_error(CMD, "%s: a heap game's sequence: give its heaps to 'nimsieve query %s H1 H2 ...' (a sum "
                          "of heaps) instead of --plus", path, path);
        goto done;
    }
    if (ns_cli_parse_position(g, args, nargs, s, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto done;
    }
    if (meta.gsg) {
        if (ns_h5_read_gsg_cell(path, *k, s, v, set, nset, &err)) {
            rc = file_error(path, &err);
            goto done;
        }
    } else if (!meta.pn_only && !meta.loopy) {
        int64_t one[NS_MAX_DIM];
        for (int d = 0; d < *k; d++)
            one[d] = 1;
        if (ns_h5_read_region(path, "grundy", s, one, NULL, &cell, &err)) {
            rc = file_error(path, &err);
            goto done;
        }
        *v = ns_table_get(cell, 0);
        *v = *v == ns_table_invalid(cell) ? NS_H5_GSG_NONE : *v;
    } else {
        rc = ns_cli_error(CMD, "%s: no Grundy values to add (%s); solve it again without --pn-only%s", path,
                          meta.loopy ? "a loopy game's P/N/draw table" : "a P/N table",
                          meta.play == NS_PLAY_MISERE ? " (and in normal play: sums are for normal play)" : "");
        goto done;
    }
    if (*v == NS_H5_GSG_NONE) {
        char pos[256];
        ns_format_pos(*k, s, pos, sizeof pos);
        rc = ns_cli_error(CMD, "%s: position %s is marked as not a position of the game", path, pos);
        goto done;
    }
    rc = NS_EXIT_OK;
done:
    ns_table_free(cell);
    ns_game_free(g);
    ns_meta_free(&meta);
    return rc;
}

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* query A.h5 X.. --plus B.h5 Y..: args[0] = A.h5, args[plus] = "--plus" */
static int query_sum(char **args, int n, int plus)
{
    if (plus + 1 >= n)
        return ns_cli_error(CMD, "--plus needs a file and a position: expected '--plus B.h5 Y1 Y2 ...'");
    if (plus + 2 >= n)
        return ns_cli_error(CMD, "missing position after --plus %s: expected '--plus %s Y1 Y2 ...'", args[plus + 1],
                            args[plus + 1]);
    if (plus < 2)
        return ns_cli_error(CMD, "missing position: expected 'nimsieve query %s X1 X2 ... --plus %s Y1 Y2 ...'",
                            args[0], args[plus + 1]);
    for (int i = plus + 2; i < n; i++)
        if (strcmp(args[i], "--plus") == 0)
            return ns_cli_error(CMD, "--plus comes once: the sum of two positions (add a third with its own query)");
    int64_t sa[NS_MAX_DIM], sb[NS_MAX_DIM];
    int ka = 0, kb = 0;
    uint32_t a = 0, b = 0, *ka_set = NULL, *kb_set = NULL, *sum = NULL;
    uint64_t na = 0, nb = 0, ns = 0;
    int rc;
    if ((rc = sum_part(args[0], args + 1, plus - 1, sa, &ka, &a, &ka_set, &na)) ||
        (rc = sum_part(args[plus + 1], args + plus + 2, n - plus - 2, sb, &kb, &b, &kb_set, &nb)))
        goto done;
    uint32_t v;
    if (a != NS_H5_GSG_INF && b != NS_H5_GSG_INF) {
        v = a ^ b;
    } else {
        v = NS_H5_GSG_INF;
        if (a == NS_H5_GSG_INF && b == NS_H5_GSG_INF) {
            ns = 0; /* every option of the sum keeps an infinite part */
        } else {
            const uint32_t *kk = a == NS_H5_GSG_INF ? ka_set : kb_set, f = a == NS_H5_GSG_INF ? b : a;
            ns = a == NS_H5_GSG_INF ? na : nb;
            sum = malloc((ns ? ns : 1) * sizeof *sum);
            if (!sum) {
                rc = ns_cli_error(CMD, "out of memory");
                goto done;
            }
            for (uint64_t j = 0; j < ns; j++)
                sum[j] = kk[j] ^ f;
            qsort(sum, (size_t)ns, sizeof *sum, cmp_u32);
        }
    }
    char pa[256], pb[256], ga[512], gb[512], gs[512];
    ns_format_pos(ka, sa, pa, sizeof pa);
    ns_format_pos(kb, sb, pb, sizeof pb);
    format_gsg(a, ka_set, na, ga, sizeof ga);
    format_gsg(b, kb_set, nb, gb, sizeof gb);
    format_gsg(v, sum, ns, gs, sizeof gs);
    /* the outcome: 0 P, finite N, inf{K} N when 0 is in K, else D */
    int o = v == 0 ? NS_PN_P : v != NS_H5_GSG_INF ? NS_PN_N : NS_PN_DRAW;
    for (uint64_t j = 0; j < ns && o == NS_PN_DRAW; j++)
        if (sum[j] == 0)
            o = NS_PN_N;
    printf("position:      %s of %s + %s of %s\n", pa, args[0], pb, args[plus + 1]);
    printf("values:        %s + %s\n", ga, gb);
    printf("sum value:     %s%s\n", gs,
           a == NS_H5_GSG_INF && b == NS_H5_GSG_INF ? " (both parts infinite)" : "");
    printf("outcome:       %s\n", outcome_text(o));
    rc = NS_EXIT_OK;
done:
    free(ka_set);
    free(kb_set);
    free(sum);
    return rc;
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
    for (int i = optind + 1; i < argc; i++)
        if (strcmp(argv[i], "--plus") == 0)
            return query_sum(argv + optind, argc - optind, i - optind);
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
        if (meta2.gsg) {
            uint32_t gv = 0, *gk = NULL;
            uint64_t gn = 0;
            char gt[512];
            if (ns_h5_read_gsg_cell(path, k, s, &gv, &gk, &gn, &err)) {
                rc = file_error(path, &err);
                goto fail;
            }
            format_gsg(gv, gk, gn, gt, sizeof gt);
            printf("gsg value:     %s (generalized Sprague-Grundy value)\n", gt);
            free(gk);
        }
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
