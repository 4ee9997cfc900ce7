/* cmd_rules.c - `nimsieve rules FILE [-D name=value ...] [--size N | --bounds ...]`:
 * show how a rule file (or a preset) is understood, and with a box, check
 * every move of every position of it (or of a sample when it is large). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "game/ns_build.h"
#include "game/ns_game.h"
#include "game/ns_octal.h"
#include "game/ns_params.h"
#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "engine/ns_engine.h"

#define CMD "rules"
#define CHECK_ALL_CELLS ((uint64_t)1 << 20)
#define CHECK_SAMPLES 65536
#define CHECK_MAX_OPTIONS ((uint64_t)1 << 26)

static void usage(void)
{
    printf("usage: nimsieve rules FILE|PRESET [-D name=value ...] [--size N | --bounds N1,N2,..] [--misere]\n"
           "\n"
           "Show how a rule file (or a built-in preset) is understood: the parameters and\n"
           "their values, the piles, the play convention, the rank that orders the solve,\n"
           "the domain (plain, or 'domain filter': options outside it are not moves),\n"
           "the symmetric piles, and every move family with its class:\n"
           "  ray      options s + e + t*d, t = 0, 1, ... inside the box (solved per line)\n"
           "  finite   options s + o for a fixed list of offsets o\n"
           "  prefix   the options of s are those of s - e_a (one step down pile a) plus\n"
           "           those added at s: a range that ends at pile a itself, as in\n"
           "           Fibonacci Nim's 'for t in 1..min(pile, limit)'; one running set of\n"
           "           values per line along pile a (a few options a cell, not all)\n"
           "  general  options enumerated per position (slower; the reason is shown)\n"
           "  subsets  a general family that lowers 1..k of a set of piles, each by a\n"
           "           positive amount (Moore's Nim_k, 'a + b > 0' over two piles): the\n"
           "           general engine keeps, per set of k piles, the values of the box\n"
           "           below each cell as running sets (no option listed)\n"
           "With --size or --bounds it also sets the box, prints the solve's plan and\n"
           "enumerates the moves of the finite and general families at every position\n"
           "(a sample of %d when the box has more than %" PRIu64 " cells), reporting any\n"
           "move that leaves the box or the domain, fails to decrease the rank or\n"
           "divides by zero. A file whose moves no order of the piles lowers is loopy:\n"
           "'loopy:' gives the line and a move that keeps or raises the rank, and the\n"
           "retro engine solves it to P / N / draw ('outside forbid': a move that would\n"
           "leave the box is not a move).\n"
           "\n"
           "options:\n"
           "  -D, --define name=value  set a parameter (value: an integer or a list 1,3,4)\n"
           "  -n, --size N             the box [0,N)^k\n"
           "  -b, --bounds N1,N2,..    the box [0,N1) x [0,N2) x ...\n"
           "  -m, --misere             misere play (a rule file may also say 'play misere')\n"
           "  -h, --help               this help\n"
           "\n"
           "The grammar: data/rules/README.md. Exit status 0, or 2 with one line\n"
           "FILE:LINE:COL: message on any error.\n"
           "\n"
           "examples:\n"
           "  nimsieve rules data/rules/wythoff.rules\n"
           "  nimsieve rules data/rules/a-wythoff.rules -D a=3 --size 64\n",
           CHECK_SAMPLES, CHECK_ALL_CELLS);
}

typedef struct rules_args {
    const char *game;
    ns_cli_box_opts box;   /* -D, --size, --bounds */
    int misere, help;
} rules_args;

static int parse_args(int argc, char **argv, rules_args *a)
{
    static const struct option longopts[] = {
        {"define", required_argument, NULL, 'D'}, {"size", required_argument, NULL, 'n'},
        {"bounds", required_argument, NULL, 'b'}, {"misere", no_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    int c;
    memset(a, 0, sizeof *a);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":D:n:b:mh", longopts, NULL)) != -1) {
        switch (c) {
        case 'D':
        case 'n':
        case 'b':
            if (ns_cli_box_option(CMD, c, optarg, &a->box))
                return NS_EXIT_ERROR;
            break;
        case 'm': a->misere = 1; break;
        case 'h': a->help = 1; break;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (a->help)
        return NS_EXIT_OK;
    if (optind >= argc)
        return ns_cli_error(CMD, "missing FILE: expected a rule file or a preset name (see 'nimsieve rules --help')");
    a->game = argv[optind];
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s' after '%s'", argv[optind + 1], a->game);
    return ns_cli_box_check(CMD, &a->box, 0);
}

static void print_vec(int k, const int64_t *v)
{
    char b[200];
    ns_format_pos(k, v, b, sizeof b);
    fputs(b, stdout);
}

/* The end of a subsets or patterns family's line: whether the general
 * engine runs it as running sets of `what` (rank weight 1 on its piles, no
 * domain) or lists its options. */
static void sets_tail(const ns_game *g, const ns_family *f, const char *what)
{
    int w1 = !g->valid && !g->rank_nlex;
    for (int i = 0; i < g->k; i++)
        w1 &= !(f->sub_piles >> i & 1) || g->rank_w[i] == 1;
    if (w1)
        printf(", each by a positive amount: the general engine keeps running sets of the %s below each cell (no "
               "option listed)\n", what);
    else
        printf(", each by a positive amount: options enumerated per position (running sets need rank weight 1 on "
               "these piles and no domain)\n");
}

static void print_family(const ns_game *g, const ns_family *f)
{
    switch (f->kind) {
    case NS_FAM_RAY:
        printf("      ray      direction ");
        print_vec(g->k, f->dir);
        printf(", first option s + ");
        print_vec(g->k, f->base);
        printf("\n");
        break;
    case NS_FAM_FINITE:
        printf("      finite   %zu offset%s:", f->noffsets, f->noffsets == 1 ? "" : "s");
        for (size_t j = 0; j < f->noffsets && j < 12; j++) {
            printf(" ");
            print_vec(g->k, f->offsets + j * (size_t)g->k);
        }
        printf("%s\n", f->noffsets > 12 ? " ..." : "");
        break;
    case NS_FAM_PREFIX:
        printf("      prefix   options of s - e%d plus those added at s; one running set per line along coordinate %d\n",
               f->axis + 1, f->axis + 1);
        break;
    default:
        if (f->sub_k > 0) {
            printf("      subsets  lowers 1..%d of the piles", f->sub_k);
            for (int i = 0; i < g->k; i++)
                if (f->sub_piles >> i & 1)
                    printf(" %s", g->coord_names[i][0] ? g->coord_names[i] : "?");
            sets_tail(g, f, "boxes");
            break;
        }
        if (ns_family_has_patterns(f)) {
            printf("      patterns lowers exactly the piles of one of");
            int n = 0;
            for (uint32_t T = 1; T < 256; T++) {
                if (!(f->sub_pat[T >> 6] >> (T & 63) & 1))
                    continue;
                if (n++ == 16) {
                    printf(" ...");
                    break;
                }
                printf("%s{", n > 1 ? ", " : " ");
                for (int i = 0, c = 0; i < g->k; i++)
                    if (T >> i & 1)
                        printf("%s%s", c++ ? "," : "", g->coord_names[i][0] ? g->coord_names[i] : "?");
                printf("}");
            }
            sets_tail(g, f, "strict boxes");
            break;
        }
        printf("      general  options enumerated per position");
        if (g->bounds[0] > 0 && f->max_options)
            printf(" (at most %" PRIu64 " per position in this box)", f->max_options(f->ctx, g->k, g->bounds));
        printf("\n");
        break;
    }
}

static int count_emit(void *user, const int64_t *opt)
{
    (void)opt;
    (*(uint64_t *)user)++;
    return 0;
}

/* Enumerate the moves of the finite and general families at every position
 * (or a sample), stopping after CHECK_MAX_OPTIONS; 0 or an error. Rays
 * need no walk: they stay in the box by construction, and their rank was
 * checked when the game was built. */
static int check_moves(const ns_game *g0, uint64_t *positions, uint64_t *options, int *sampled, ns_error *err)
{
    ns_family fams[256];
    ns_game local = *g0;
    const ns_game *g = &local;
    local.nfam = 0;
    for (int i = 0; i < g0->nfam && local.nfam < 256; i++)
        if (g0->fam[i].kind != NS_FAM_RAY)
            fams[local.nfam++] = g0->fam[i];
    local.fam = fams;
    const uint64_t cells = ns_game_cells(g);
    int64_t s[NS_MAX_DIM];
    uint64_t rng = 0x9E3779B97F4A7C15u;
    *sampled = cells > CHECK_ALL_CELLS;
    uint64_t n = *sampled ? CHECK_SAMPLES : cells;
    *positions = 0;
    *options = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t idx = i;
        if (*sampled) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            idx = rng % cells;
        }
        for (int d = g->k - 1; d >= 0; d--) {
            s[d] = (int64_t)(idx % (uint64_t)g->bounds[d]);
            idx /= (uint64_t)g->bounds[d];
        }
        if (!ns_game_is_position(g, s))
            continue;
        (*positions)++;
        int rc = ns_game_foreach_option(g, s, count_emit, options, err);
        if (rc < 0)
            return rc;
        if (*options > CHECK_MAX_OPTIONS)
            break;
    }
    return 0;
}

/* A rule file of a take-and-break heap game ('heap n'): its moves, its
 * engine and, with a size, every move of every heap size checked. */
typedef struct heap_count {
    uint64_t moves;
} heap_count;

static int count_move(void *user, int64_t take, const int64_t *parts, int np)
{
    (void)take, (void)parts, (void)np;
    ((heap_count *)user)->moves++;
    return 0;
}

static int print_heap_game(const ns_game *g, const ns_rules_info *info, const ns_cli_box_opts *box)
{
    ns_error err = {0};
    printf("%-10s %s (a take-and-break game: a position is a sum of heaps, its value the XOR of theirs)\n", "heap:",
           g->coord_names[0]);
    printf("%-10s normal (the player who cannot move loses)\n", "play:");
    printf("%-10s %d (split moves: each option is the list of heaps a move leaves, enumerated per heap size)\n",
           "families:", info->nfam);
    for (int i = 0; i < info->nfam; i++) {
        const ns_rules_fam_info *fi = &info->fam[i];
        printf("  line %d%s%s%s: %s\n", fi->line, fi->idx[0] ? " [" : "", fi->idx, fi->idx[0] ? "]" : "", fi->text);
        printf("      split    leaves up to %d heap%s (a heap of 0 is none)\n", fi->parts, fi->parts == 1 ? "" : "s");
    }
    if (info->ndropped)
        printf("  (%d famil%s left out: %s conditions are never true)\n", info->ndropped,
               info->ndropped == 1 ? "y" : "ies", info->ndropped == 1 ? "its" : "their");
    const ns_engine_opts o = {.pn_only = 0};
    ns_engine_choice c;
    ns_engine_choose(g, &o, &c);
    printf("%-10s Grundy sequence: %s (%s)\n", "engine:", c.engine ? c.engine->name : "none",
           c.engine ? c.engine->what : "no engine applies");
    if (!box->size && !box->nbounds)
        return NS_EXIT_OK;
    const int64_t n = box->size ? box->size : box->bounds[0];
    heap_count hc = {0};
    for (int64_t h = 0; h < n; h++)
        if (ns_octal_foreach_option(g->octal, h, count_move, &hc, &err) < 0)
            return ns_cli_error(CMD, "%s", err.msg);
    printf("%-10s heap sizes 0..%" PRId64 "\n", "box:", n - 1);
    printf("%-10s all %" PRId64 " heap sizes: %" PRIu64 " moves, each leaving heaps smaller than its heap and at "
           "most its tokens\n", "checked:", n, hc.moves);
    return NS_EXIT_OK;
}

int ns_cmd_rules(int argc, char **argv)
{
    rules_args a;
    ns_error err = {0};
    ns_game *g = NULL;
    ns_rules_info *info = NULL;
    char *text = NULL;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    if (a.help) {
        usage();
        return NS_EXIT_OK;
    }
    size_t n = strlen(a.game);
    int is_file = strchr(a.game, '/') || (n > 6 && strcmp(a.game + n - 6, ".rules") == 0);
    if (!is_file) {
        FILE *fp = fopen(a.game, "r");
        if (fp) {
            is_file = 1;
            fclose(fp);
        }
    }
    if (is_file) {
        if (ns_rules_read_file(a.game, &text, &err) ||
            ns_rules_compile_info(text, a.game, &a.box.params, a.box.nbounds, &g, &info, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto done;
        }
    } else if (ns_game_build(a.game, &a.box.params, a.box.nbounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg[0] ? err.msg : "cannot build the game");
        goto done;
    }
    if (a.box.nbounds && a.box.nbounds != g->k) {
        rc = ns_cli_error(CMD, "--bounds has %d size%s but the game has %d pile%s", a.box.nbounds, a.box.nbounds == 1 ? "" : "s", g->k,
                          g->k == 1 ? "" : "s");
        goto done;
    }
    if (a.misere)
        g->play = NS_PLAY_MISERE;
    if (a.box.size || a.box.nbounds) {
        if (!a.box.nbounds)
            for (int i = 0; i < g->k; i++)
                a.box.bounds[i] = a.box.size;
        if (ns_game_set_bounds(g, a.box.bounds, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto done;
        }
    }

    /* what was understood */
    printf("%-10s %s\n", is_file ? "file:" : "preset:", a.game);
    if (info && info->title[0])
        printf("%-10s %s\n", "game:", info->title);
    char pbuf[1024];
    ns_params_format(&g->params, pbuf, sizeof pbuf);
    if (info) {
        if (!info->nparams)
            printf("%-10s none\n", "params:");
        for (int i = 0; i < info->nparams; i++) {
            const ns_param *p = &g->params.p[i];
            printf("%-10s %s = ", i ? "" : "params:", p->name);
            if (info->param[i].is_set)
                printf("{");
            for (int j = 0; j < p->n; j++)
                printf("%s%" PRId64, j ? ", " : "", p->v[j]);
            printf("%s%s\n", info->param[i].is_set ? "}" : "", info->param[i].overridden ? "   (given)" : "   (default)");
        }
    } else {
        printf("%-10s %s\n", "params:", pbuf[0] ? pbuf : "(defaults)");
    }
    if (info && info->heap) {
        rc = print_heap_game(g, info, &a.box);
        goto done;
    }
    printf("%-10s %d:", "piles:", g->k);
    for (int i = 0; i < g->k; i++)
        printf("%s %s", i ? "," : "", g->coord_names[i]);
    printf("\n");
    printf("%-10s %s\n", "play:", g->play == NS_PLAY_MISERE ? "misere (the player who cannot move wins)" : "normal (the player who cannot move loses)");
    printf("%-10s ", "rank:");
    if (g->rank_nlex) {
        /* lexicographic: the weights come from the box */
        printf("%s   (lexicographic", info && info->rank[0] ? info->rank : "lex");
        if (g->bounds[0] > 0) {
            printf("; weights for this box");
            for (int i = 0; i < g->k; i++)
                printf("%s%" PRId64, i ? ", " : " ", g->rank_w[i]);
        } else {
            printf("; weights computed from the box");
        }
        printf(")\n");
    } else {
        int first = 1;
        for (int i = 0; i < g->k; i++) {
            if (!g->rank_w[i])
                continue;
            printf("%s", first ? "" : " + ");
            if (g->rank_w[i] != 1)
                printf("%" PRId64 "*", g->rank_w[i]);
            printf("%s", g->coord_names[i]);
            first = 0;
        }
        printf("%s   (weights", first ? "0" : "");
        for (int i = 0; i < g->k; i++)
            printf("%s%" PRId64, i ? ", " : " ", g->rank_w[i]);
        printf("%s)\n", info && !info->rank[0] ? "; the default: the sum of the piles" : "");
    }
    if (info && info->order[0])
        printf("%-10s %s\n", "found:", info->order);
    if (g->loopy) {
        printf("%-10s %s\n", "loopy:", g->loopy_why);
        printf("%-10s retrograde analysis (engine retro): P / N / draw with remoteness, from the positions without moves back\n"
               "%-10s along the moves; the rank above orders nothing\n", "order:", "");
    } else if (g->rank_nlex)
        printf("%-10s positions are solved by levels of equal rank (one per value of the tuple), in increasing order; every move must lower the tuple lexicographically\n", "order:");
    else
        printf("%-10s positions are solved by levels of equal rank, in increasing order; every move must lower the rank\n", "order:");
    if (info) {
        printf("%-10s %s\n", "domain:", info->domain[0] ? info->domain : "the whole box");
        if (info->has_filter)
            printf("%-10s an option outside a 'domain filter' is not a move (it is dropped, not an error)\n", "");
        if (info->symmetric[0])
            printf("%-10s %s: the game is the same after any exchange of them; a table stores the cells sorted along them\n"
                   "%-10s (the others hold the invalid marker, and readers fill them from their mirror images)\n",
                   "symmetric:", info->symmetric, "");
    }
    else
        printf("%-10s %s\n", "domain:", g->valid ? "restricted (see the preset)" : "the whole box");
    int nray = 0, nfin = 0, ngen = 0, npre = 0;
    for (int i = 0; i < g->nfam; i++) {
        nray += g->fam[i].kind == NS_FAM_RAY;
        nfin += g->fam[i].kind == NS_FAM_FINITE;
        ngen += g->fam[i].kind == NS_FAM_GENERAL;
        npre += g->fam[i].kind == NS_FAM_PREFIX;
    }
    if (npre)
        printf("%-10s %d (%d ray%s, %d finite, %d general, %d prefix)\n", "families:", g->nfam, nray,
               nray == 1 ? "" : "s", nfin, ngen, npre);
    else
        printf("%-10s %d (%d ray%s, %d finite, %d general)\n", "families:", g->nfam, nray, nray == 1 ? "" : "s", nfin,
               ngen);
    if (info) {
        for (int i = 0; i < info->nfam; i++) {
            const ns_rules_fam_info *fi = &info->fam[i];
            printf("  line %d%s%s%s: %s\n", fi->line, fi->idx[0] ? " [" : "", fi->idx, fi->idx[0] ? "]" : "", fi->text);
            if (fi->count == 0)
                printf("      (no moves)\n");
            for (int j = 0; j < fi->count; j++)
                print_family(g, &g->fam[fi->first + j]);
            if (fi->kind == NS_FAM_GENERAL && fi->why[0] && fi->count == 1 &&
                (g->fam[fi->first].sub_k > 0 || ns_family_has_patterns(&g->fam[fi->first])))
                printf("               %s\n", fi->why);
            else if (fi->kind == NS_FAM_GENERAL && fi->why[0])
                printf("               why not a ray or finite set: %s\n", fi->why);
            else if (fi->kind == NS_FAM_RAY && fi->why[0])
                printf("               rays by substitution: %s\n", fi->why);
        }
        if (info->ndropped)
            printf("  (%d famil%s left out: %s conditions are never true)\n", info->ndropped, info->ndropped == 1 ? "y" : "ies",
                   info->ndropped == 1 ? "its" : "their");
    } else {
        for (int i = 0; i < g->nfam; i++) {
            printf("  %s\n", g->fam[i].label);
            print_family(g, &g->fam[i]);
        }
    }

    {
        /* which engine solves it, and why not the faster ones */
        for (int pn = 0; pn <= 1; pn++) {
            const ns_engine_opts o = {.pn_only = pn};
            ns_engine_choice c;
            ns_engine_choose(g, &o, &c);
            printf("%-10s %s tables: %s (%s)\n", pn ? "" : "engine:", pn ? "P/N" : "Grundy",
                   c.engine ? c.engine->name : "none", c.engine ? c.engine->what : "no engine applies");
            for (int i = 0; i < c.nskipped; i++)
                printf("%-10s   not %s: %s\n", "", c.skipped[i]->name, c.why[i]);
        }
        if (g->loopy)
            printf("%-10s generalized Sprague-Grundy values: computed after the P/N/draw table by 'solve' without\n"
                   "%-10s   --pn-only, in normal play (Smith's algorithm; /grundy and the sets of inf{K})\n", "", "");
    }

    if (a.box.size || a.box.nbounds) {
        char dims[256], tb[32], lb[128];
        ns_engine_plan plan;
        ns_cli_format_dims(g->k, g->bounds, dims, sizeof dims);
        const ns_engine_opts po = {.pn_only = g->loopy};
        if (ns_engine_plan_for(g, &po, &plan, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto done;
        }
        ns_cli_format_bytes(plan.table_bytes, tb, sizeof tb);
        ns_cli_format_line_bytes(&plan, lb, sizeof lb);
        if (g->loopy)
            printf("%-10s %s: %" PRIu64 " cells, P/N/draw table %s (1 byte a cell), counters and queue %s\n", "box:", dims,
                   plan.cells, tb, lb);
        else
            printf("%-10s %s: %" PRIu64 " cells, %" PRId64 " rank levels, Grundy table %s (%d byte%s a cell), line sets %s\n", "box:",
                   dims, plan.cells, plan.levels, tb, plan.elem, plan.elem == 1 ? "" : "s", lb);
        uint64_t positions, options;
        int sampled;
        fflush(stdout);
        if (g->loopy && nfin + ngen + npre == 0) {
            printf("%-10s every family is a ray: its moves stay in the box\n", "checked:");
        } else if (g->loopy) {
            if (check_moves(g, &positions, &options, &sampled, &err) < 0) {
                rc = ns_cli_error(CMD, "%s", err.msg);
                goto done;
            }
            printf("%-10s %s %" PRIu64 " positions: %" PRIu64 " moves of the finite, general and prefix families%s, all inside the box and\n"
                   "           the domain (a loopy game: moves need not lower the rank)\n",
                   "checked:", sampled || options > CHECK_MAX_OPTIONS ? "a sample of" : "all", positions, options,
                   options > CHECK_MAX_OPTIONS ? " (stopped there)" : "");
        } else if (nfin + ngen + npre == 0) {
            printf("%-10s every family is a ray: its moves stay in the box, and lower the rank (checked when compiled)\n", "checked:");
        } else if (check_moves(g, &positions, &options, &sampled, &err) < 0) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto done;
        } else {
            printf("%-10s %s %" PRIu64 " positions: %" PRIu64 " moves of the finite, general and prefix families%s, all inside the box and\n"
                   "           the domain, all lowering the rank (rays are right by construction)\n",
                   "checked:", sampled || options > CHECK_MAX_OPTIONS ? "a sample of" : "all", positions, options,
                   options > CHECK_MAX_OPTIONS ? " (stopped there)" : "");
        }
    }
    rc = NS_EXIT_OK;
done:
    ns_rules_info_free(info);
    free(text);
    ns_game_free(g);
    return rc;
}
