/* cmd_move.c - `nimsieve move`: a winning move from a position, read from a
 * table, or computed by a closed form (Wythoff, Nim, Staircase Nim) for
 * piles up to 10^18 without any table. */
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
#include "game/ns_presets.h"
#include "analysis/ns_strategy.h"

static const char *const CMD = "move";

#define MOVE_MAX ((int64_t)1000000000000000000) /* 10^18 */

static void usage(void)
{
    printf("usage: nimsieve move FILE.h5 X1 X2 ... [--all]\n"
           "       nimsieve move --game wythoff A B [--all]\n"
           "       nimsieve move --game nim P1 P2 ... [--all]      (1 to 8 piles)\n"
           "       nimsieve move --game staircase C1 C2 ... [--all] (steps; C1 is next to the ground)\n"
           "\n"
           "Print a winning move from the position, i.e. a move to a P-position, or say\n"
           "that the position is lost (every move leads to an N-position). With a table\n"
           "file the options come from the game's rules and their values from the table;\n"
           "the first winning move in the game's order is shown (along a ray, the\n"
           "smallest step first). A heap game's sequence (octal code, Grundy's game,\n"
           "a rule file with 'heap') takes any number of heap sizes: the move names the\n"
           "heap, the tokens taken and the heaps it leaves. With --game the move comes from the closed form, in\n"
           "exact integer arithmetic, for piles 0 .. 10^18: Wythoff's pairs\n"
           "(floor(n phi), floor(n phi^2)), Bouton's XOR rule, the XOR of the odd steps.\n"
           "\n"
           "options:\n"
           "  --game NAME   wythoff, nim or staircase: no table, closed form\n"
           "  --all         every winning move, one per line\n"
           "  -h, --help    this help\n"
           "\n"
           "A loopy game's file (P / N / draw with remoteness) gives the move to play:\n"
           "from an N-position the fastest win (to a P-position of the smallest\n"
           "remoteness), from a P-position the longest defence (to an N-position of\n"
           "the largest remoteness), from a draw a move that keeps the draw (to a\n"
           "D-position); the first such move in the game's order, the case named.\n"
           "--all lists every move of that kind with its remoteness, '*' the best.\n"
           "\n"
           "exit status: 0 a winning move was printed, 1 the position is lost (a\n"
           "P-position) or a draw, 2 bad input or an error.\n"
           "\n"
           "examples:\n"
           "  nimsieve move wythoff.h5 4 9\n"
           "  nimsieve move kayles.h5 3 7 12\n"
           "  nimsieve move --game nim 14 21 39\n"
           "  nimsieve move --game wythoff 1000000000000000000 1\n");
}

/* "take 12 from pile 3 -> (14, 21, 27)" */
static void print_move(const ns_game *g, const ns_move *m, const char *prefix)
{
    char what[256], pos[256];
    int64_t t0 = m->from[0] - m->to[0];
    /* the presets' own words; a rule file may declare any name */
    if (!g->rules_text && strcmp(g->name, "fibonacci-nim") == 0)
        snprintf(what, sizeof what, "take %" PRId64 " (the opponent may then take up to %" PRId64 ")", t0, m->to[1]);
    else if (g->k == 2 && t0 > 0 && m->from[1] - m->to[1] == t0 && (g->rules_text || strcmp(g->name, "staircase") != 0))
        snprintf(what, sizeof what, "take %" PRId64 " from both piles", t0);
    else
        ns_cli_describe_move(g, m->from, m->to, what, sizeof what);
    ns_format_pos(m->k, m->to, pos, sizeof pos);
    printf("%s%s -> %s\n", prefix, what, pos);
}

static int report(const ns_game *g, const int64_t *s, const ns_move *mv, size_t n, int all)
{
    char pos[256];
    ns_format_pos(g->k, s, pos, sizeof pos);
    if (n == 0) {
        printf("%s: P-position: the player to move loses (every move leads to an N-position)\n", pos);
        return NS_EXIT_NO;
    }
    printf("%s: N-position: the player to move wins\n", pos);
    if (!all) {
        print_move(g, &mv[0], "winning move: ");
        return NS_EXIT_OK;
    }
    printf("winning moves: %zu\n", n);
    for (size_t i = 0; i < n; i++)
        print_move(g, &mv[i], "  ");
    return NS_EXIT_OK;
}

/* a loopy game's file: the move to play, and which case it is */
static int report_loopy(const ns_game *g, const int64_t *s, uint32_t v, uint32_t r, const ns_moves *mv, size_t nbest, int all)
{
    char pos[256], rs[64];
    ns_format_pos(g->k, s, pos, sizeof pos);
    snprintf(rs, sizeof rs, "%" PRIu32, r);
    if (v == NS_PN_N)
        printf("%s: N-position: the player to move wins (remoteness %s)\n", pos, rs);
    else if (v == NS_PN_P)
        printf("%s: P-position: the player to move loses (remoteness %s)\n", pos, rs);
    else
        printf("%s: D-position: a draw (no player can force a win; no move leads to a P-position)\n", pos);
    if (mv->n == 0) { /* a P-position without options */
        printf("no move: a terminal position\n");
        return NS_EXIT_NO;
    }
    const char *what = v == NS_PN_N ? "fastest win" : v == NS_PN_P ? "longest defence" : "move that keeps the draw";
    if (!all) {
        char pre[96];
        if (v == NS_PN_DRAW)
            snprintf(pre, sizeof pre, "%s (to a D-position): ", what);
        else
            snprintf(pre, sizeof pre, "%s (to a%s-position of remoteness %" PRIu32 "): ", what, v == NS_PN_N ? " P" : "n N", mv->v[0].rem);
        print_move(g, &mv->v[0], pre);
        return v == NS_PN_N ? NS_EXIT_OK : NS_EXIT_NO;
    }
    if (v == NS_PN_N)
        printf("winning moves: %zu (to P-positions), %zu of them the fastest win\n", mv->n, nbest);
    else if (v == NS_PN_P)
        printf("moves: %zu (all to N-positions), %zu of them the longest defence\n", mv->n, nbest);
    else
        printf("moves that keep the draw: %zu (to D-positions)\n", mv->n);
    for (size_t i = 0; i < mv->n; i++) {
        char pre[64];
        if (v == NS_PN_DRAW)
            snprintf(pre, sizeof pre, "  ");
        else
            snprintf(pre, sizeof pre, "  %s remoteness %" PRIu32 ": ", mv->v[i].rem + 1 == r ? "*" : " ", mv->v[i].rem);
        print_move(g, &mv->v[i], pre);
    }
    return v == NS_PN_N ? NS_EXIT_OK : NS_EXIT_NO;
}

static int closed_form(const char *game, char **args, int nargs, int all)
{
    int64_t s[NS_MAX_DIM];
    ns_error err = {0};
    int k = nargs;
    if (strcmp(game, "wythoff") == 0) {
        if (nargs != 2)
            return ns_cli_error(CMD, "wythoff needs two piles, got %d", nargs);
    } else if (strcmp(game, "nim") == 0 || strcmp(game, "staircase") == 0) {
        if (nargs < 1 || nargs > NS_MAX_DIM)
            return ns_cli_error(CMD, "%s needs 1 to %d %s, got %d", game, NS_MAX_DIM,
                                game[0] == 'n' ? "piles" : "steps", nargs);
    } else {
        return ns_cli_error(CMD, "--game '%s' has no closed form here: expected wythoff, nim or staircase (or give a table file)", game);
    }
    for (int i = 0; i < k; i++) {
        char what[32];
        snprintf(what, sizeof what, "%s %d", game[0] == 's' ? "step" : "pile", i + 1);
        if (ns_cli_parse_int(args[i], what, 0, MOVE_MAX, &s[i], &err))
            return ns_cli_error(CMD, "%s", err.msg);
    }
    ns_params ps = {0};
    if (strcmp(game, "wythoff") != 0) {
        int64_t kk = k;
        ns_params_set(&ps, "piles", &kk, 1, &err);
    }
    ns_game *g = ns_preset_build(game, &ps, k, &err);
    if (!g)
        return ns_cli_error(CMD, "%s", err.msg);
    ns_move mv[NS_MAX_DIM];
    int n;
    if (game[0] == 'w')
        n = ns_wythoff_moves(s[0], s[1], mv);
    else if (game[0] == 'n')
        n = ns_nim_moves(k, s, mv);
    else
        n = ns_staircase_moves(k, s, mv);
    int rc = n < 0 ? ns_cli_error(CMD, "position out of range") : report(g, s, mv, (size_t)n, all);
    ns_game_free(g);
    return rc;
}

int ns_cmd_move(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},
        {"all", no_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *game = NULL;
    int all = 0, c;
    optind = 1;
    opterr = 0;
    /* '+' would stop at the first non-option; positions are plain numbers,
     * so permuting is fine, but "-1" must reach the parser as a number */
    while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'g': game = optarg; break;
        case 'a': all = 1; break;
        case 'h': usage(); return NS_EXIT_OK;
        default: {
            /* "-3" is a negative pile, not an option */
            const char *a = optind > 0 && optind <= argc ? argv[optind - 1] : "";
            if (a[0] == '-' && a[1] >= '0' && a[1] <= '9')
                return ns_cli_error(CMD, "'%s' is negative: piles are integers in [0, 10^18]", a);
            return ns_cli_bad_option(CMD, c, argv);
        }
        }
    }
    /* options may also follow the position */
    int nargs = 0;
    char *args[64];
    for (int i = optind; i < argc; i++) {
        if (strcmp(argv[i], "--all") == 0)
            all = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
            return NS_EXIT_OK;
        } else if (nargs < 64)
            args[nargs++] = argv[i];
        else
            return ns_cli_error(CMD, "too many arguments");
    }
    if (game)
        return closed_form(game, args, nargs, all);
    if (nargs < 2)
        return ns_cli_error(CMD, "expected 'nimsieve move FILE.h5 X1 X2 ...' or 'nimsieve move --game NAME P1 P2 ...'");

    int rc0 = ns_cli_file_first(CMD, args, nargs);
    if (rc0)
        return rc0;
    const char *path = args[0];
    ns_meta meta = {0}, meta2 = {0};
    ns_error err = {0};
    ns_game *g = NULL;
    ns_table *t = NULL;
    ns_moves mv = {0};
    uint32_t *rem = NULL;
    int64_t bounds[NS_MAX_DIM], s[NS_MAX_DIM];
    int k = 0, rc = NS_EXIT_ERROR;
    if (ns_h5_read_meta(path, &meta, &k, bounds, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    if (ns_game_from_meta(&meta, k, bounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s: cannot rebuild the game: %s", path, err.msg);
        goto fail;
    }
    if (g->octal) { /* a sum of heaps of a take-and-break game */
        rc = ns_cli_seq_heaps(CMD, path, g, &meta, args + 1, nargs - 1, 1, all);
        goto fail;
    }
    if (ns_cli_parse_position(g, args + 1, nargs - 1, s, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto fail;
    }
    if (ns_h5_read(path, &t, &meta2, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    if (meta2.loopy) {
        if (!t->pn_only) {
            rc = ns_cli_error(CMD, "%s: a loopy game's file without its P/N/D table", path);
            goto fail;
        }
        rem = malloc((t->ncells ? t->ncells : 1) * sizeof *rem);
        if (!rem) {
            rc = ns_cli_error(CMD, "out of memory for the remoteness of %" PRIu64 " cells", t->ncells);
            goto fail;
        }
        uint32_t v = 0;
        size_t nbest = 0;
        if (ns_h5_read_remoteness_all(path, t->ncells, rem, &err) ||
            ns_strategy_loopy(g, t, rem, s, all, &mv, &v, &nbest, &err)) {
            rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
            goto fail;
        }
        rc = report_loopy(g, s, v, rem[ns_table_index(t, s)], &mv, nbest, all);
        goto fail;
    }
    if (ns_strategy_from_table(g, t, s, all, &mv, NULL, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    rc = report(g, s, mv.v, mv.n, all);
fail:
    free(rem);
    ns_moves_free(&mv);
    ns_table_free(t);
    ns_game_free(g);
    ns_meta_free(&meta);
    ns_meta_free(&meta2);
    return rc;
}
