/* cmd_plot.c - `nimsieve plot`: figures of a table file through gnuplot.
 *
 * The options and what is known of the file (game, bounds, axis names) go
 * into a ns_plot_ctx; the kind's function (ns_plot_kinds.c) reads what it draws,
 * writes the data and the script, and runs gnuplot. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "game/ns_build.h"
#include "store/ns_h5.h"
#include "cli/plot_data.h"
#include "cli/plot_kinds.h"

static const char *const CMD = "plot";

enum { DEFAULT_WIDTH = 1000, DEFAULT_HEIGHT = 800, MIN_SIZE = 200, MAX_SIZE = 20000 };

static void usage(void)
{
    printf("usage: nimsieve plot FILE.h5 [--kind KIND] -o OUT.{png,svg,pdf} [options]\n"
           "\n"
           "Draw a figure of a table file with gnuplot. The format comes from the\n"
           "extension of OUT: PNG (cairo), SVG, or PDF (vector). Only what is drawn is\n"
           "read, in bands, so tables of 16384 x 16384 take seconds.\n"
           "\n"
           "kinds:\n"
           "  p-positions  the P-positions of a two-pile table as points, with the lines\n"
           "               y = phi x and y = x/phi for Wythoff's game, or else the lines\n"
           "               y = c x fitted by least squares to the points above and below\n"
           "               the diagonal, one per direction when a side holds several,\n"
           "               none when its points fill an area (default for two piles)\n"
           "  grundy       heat map of the Grundy values with a colour bar (P/N map for\n"
           "               a P/N file); a table larger than the plot is reduced\n"
           "               faithfully: each pixel is the min, max or mode of its block\n"
           "  g-values     where the values 0..K lie, one colour each (K: --max-value,\n"
           "               default 4, at most 31)\n"
           "  sequence     a one-pile Grundy sequence with its period marked (as found\n"
           "               by 'nimsieve patterns'; default for one-pile tables)\n"
           "  histogram    how many positions have each Grundy value (any number of\n"
           "               piles; default for more than two)\n"
           "\n"
           "options:\n"
           "  -k, --kind KIND         what to draw (see above)\n"
           "  -o, --output OUT        the figure: .png, .svg or .pdf\n"
           "      --downsample HOW    grundy: min, max (default) or mode per pixel\n"
           "      --max-value K       grundy, sequence: values above K in the top colour or\n"
           "                          cut off; g-values: the values 0..K; histogram: bars\n"
           "                          for 0..K only\n"
           "      --width W           figure width in pixels (default %d; PDF: %d per inch)\n"
           "      --height H          figure height in pixels (default %d)\n"
           "      --title TEXT        the title line (the caption below it stays)\n"
           "      --keep-script       keep the gnuplot script OUT-stem.gp and its data file\n"
           "                          beside the figure, to restyle and rerun with gnuplot\n"
           "  -h, --help              this help\n"
           "\n"
           "gnuplot is run as a program (not through a shell): the one on PATH, or\n"
           "$NIMSIEVE_GNUPLOT. The figure appears under OUT only when gnuplot succeeded.\n"
           "\n"
           "example:\n"
           "  nimsieve plot wythoff.h5 --kind p-positions -o wythoff-p-positions.png\n",
           DEFAULT_WIDTH, NS_PLOT_PDF_PX_PER_INCH, DEFAULT_HEIGHT);
}

/* Error text that names the file once. */
static int file_error(const char *path, const ns_error *err)
{
    if (strstr(err->msg, path))
        return ns_cli_error(CMD, "%s", err->msg);
    return ns_cli_error(CMD, "%s: %s", path, err->msg[0] ? err->msg : ns_err_name(err->code));
}

/* How the game is named in titles. */
static void game_label(const ns_meta *m, char *buf, size_t len)
{
    static const struct { const char *preset, *label; } names[] = {
        {"wythoff", "Wythoff's game"},     {"nim", "Nim"},
        {"bash", "Bash's game"},           {"subtraction", "the subtraction game"},
        {"a-wythoff", "a-Wythoff"},        {"moore", "Moore's Nim"},
        {"staircase", "staircase Nim"},    {"euclid", "Euclid's game"},
        {"fibonacci-nim", "Fibonacci Nim"},
    };
    char name[200];
    snprintf(name, sizeof name, "%s", m->game);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(m->game, names[i].preset) == 0)
            snprintf(name, sizeof name, "%s", names[i].label);
    if (m->rules_text) {
        /* a rule file: its own name when it gives one ("game NAME") */
        snprintf(name, sizeof name, "a rule set");
        for (const char *l = m->rules_text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            while (*l == ' ' || *l == '\t')
                l++;
            if (strncmp(l, "game", 4) == 0 && (l[4] == ' ' || l[4] == '\t')) {
                const char *v = l + 5;
                while (*v == ' ' || *v == '\t' || *v == '"')
                    v++;
                size_t n = strcspn(v, "\"#\n;{");
                while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
                    n--;
                if (n > 0)
                    snprintf(name, sizeof name, "%.*s", (int)(n < 120 ? n : 120), v);
                break;
            }
        }
    }
    char params[sizeof m->params];
    snprintf(params, sizeof params, "%s", m->params);
    for (char *p = params; *p; p++)
        if (*p == ';')
            *p = ' ';
    int used = snprintf(buf, len, "%s", name);
    if (params[0] && used > 0 && (size_t)used < len)
        used += snprintf(buf + used, len - (size_t)used, " (%s)", params);
    if (m->play == NS_PLAY_MISERE && used > 0 && (size_t)used < len)
        snprintf(buf + used, len - (size_t)used, ", misère play");
}

/* Is this Wythoff's game, whose P-positions lie on y = phi x, y = x/phi? */
static int is_wythoff(const ns_meta *m)
{
    if (m->rules_text)
        return 0;
    if (strcmp(m->game, "wythoff") == 0)
        return 1;
    return strcmp(m->game, "a-wythoff") == 0 && strcmp(m->params, "a=1") == 0;
}

/* Axis names: the game's coordinate names when it has its own, else
 * "pile 1", "pile 2", ... */
static void axis_names(ns_plot_ctx *c, const ns_meta *m)
{
    for (int d = 0; d < NS_MAX_DIM; d++)
        snprintf(c->axis[d], sizeof c->axis[d], "pile %d", d + 1);
    ns_game *g = NULL;
    ns_error err = {0};
    if (ns_game_from_meta(m, c->k, c->bounds, &g, &err) != NS_OK)
        return;   /* the labels stay generic; the plot does not need the game */
    for (int d = 0; d < c->k; d++) {
        char deflt[16];
        snprintf(deflt, sizeof deflt, "p%d", d + 1);
        if (g->coord_names[d][0] && strcmp(g->coord_names[d], deflt) != 0)
            snprintf(c->axis[d], sizeof c->axis[d], "%s", g->coord_names[d]);
    }
    ns_game_free(g);
}

int ns_cmd_plot(int argc, char **argv)
{
    enum { OPT_DOWNSAMPLE = 256, OPT_MAXV, OPT_WIDTH, OPT_HEIGHT, OPT_TITLE, OPT_KEEP };
    static const struct option longopts[] = {
        {"kind", required_argument, NULL, 'k'},
        {"output", required_argument, NULL, 'o'},
        {"downsample", required_argument, NULL, OPT_DOWNSAMPLE},
        {"max-value", required_argument, NULL, OPT_MAXV},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"height", required_argument, NULL, OPT_HEIGHT},
        {"title", required_argument, NULL, OPT_TITLE},
        {"keep-script", no_argument, NULL, OPT_KEEP},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    ns_plot_ctx c;
    memset(&c, 0, sizeof c);
    c.width = DEFAULT_WIDTH;
    c.height = DEFAULT_HEIGHT;
    c.max_value = -1;
    int kind = -1;
    ns_error err = {0};
    ns_meta meta;
    memset(&meta, 0, sizeof meta);
    int64_t v;
    int opt, rc;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":k:o:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage();
            return NS_EXIT_OK;
        case 'k':
            kind = ns_plot_kind_parse(optarg);
            if (kind < 0)
                return ns_cli_error(CMD, "--kind '%s': expected p-positions, grundy, g-values, sequence or histogram",
                                    optarg);
            break;
        case 'o':
            c.out = optarg;
            break;
        case OPT_DOWNSAMPLE:
            if (ns_ds_kind_parse(optarg, &c.ds, &err) || c.ds == NS_DS_PRESENCE)
                return ns_cli_error(CMD, "--downsample '%s': expected min, max or mode", optarg);
            c.ds_given = 1;
            break;
        case OPT_MAXV:
            if (ns_cli_parse_int(optarg, "--max-value", 0, UINT32_MAX - 1, &v, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            c.max_value = v;
            break;
        case OPT_WIDTH:
        case OPT_HEIGHT:
            if (ns_cli_parse_int(optarg, opt == OPT_WIDTH ? "--width" : "--height", MIN_SIZE, MAX_SIZE, &v, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            *(opt == OPT_WIDTH ? &c.width : &c.height) = (int)v;
            break;
        case OPT_TITLE:
            c.title = optarg;
            break;
        case OPT_KEEP:
            c.keep_script = 1;
            break;
        default:
            return ns_cli_bad_option(CMD, opt, argv);
        }
    }
    if (optind >= argc)
        return ns_cli_error(CMD, "missing FILE.h5: expected a table file written by 'nimsieve solve'");
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s': expected one FILE.h5", argv[optind + 1]);
    c.in = argv[optind];
    if (!c.out)
        return ns_cli_error(CMD, "missing -o OUT: expected the figure's file name (.png, .svg or .pdf)");
    if (ns_plot_format_from_path(c.out, &c.fmt, &err))
        return ns_cli_error(CMD, "%s", err.msg);

    if (ns_h5_read_meta(c.in, &meta, &c.k, c.bounds, &err)) {
        rc = file_error(c.in, &err);
        goto done;
    }
    if (kind < 0)
        kind = c.k == 2 ? NS_PLOT_P_POSITIONS : c.k == 1 ? NS_PLOT_SEQUENCE : NS_PLOT_HISTOGRAM;
    c.kind = (ns_plot_kind)kind;
    if (c.ds_given && c.kind != NS_PLOT_GRUNDY) {
        rc = ns_cli_error(CMD, "--downsample applies to --kind grundy only (g-values shows every value 0..K of "
                               "a pixel's block; the others draw points)");
        goto done;
    }
    game_label(&meta, c.game_label, sizeof c.game_label);
    c.is_wythoff = is_wythoff(&meta);
    axis_names(&c, &meta);
    c.is_pn = meta.pn_only;
    c.dsname = meta.pn_only ? "pn" : "grundy";

    ns_err (*const draw[NS_PLOT_NKINDS])(ns_plot_ctx *, ns_error *) = {
        [NS_PLOT_P_POSITIONS] = ns_plot_p_positions, [NS_PLOT_GRUNDY] = ns_plot_grundy, [NS_PLOT_G_VALUES] = ns_plot_g_values,
        [NS_PLOT_SEQUENCE] = ns_plot_sequence, [NS_PLOT_HISTOGRAM] = ns_plot_histogram,
    };
    double t0 = ns_cli_now();
    if (draw[c.kind](&c, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg[0] ? err.msg : ns_err_name(err.code));
        goto done;
    }
    printf("%s: %s (%s, %d x %d%s) in %.2f s\n", ns_plot_kind_name(c.kind), c.out, ns_plot_format_name(c.fmt), c.width,
           c.height, c.fmt == NS_PLOT_PDF ? " at 150/in" : "", ns_cli_now() - t0);
    fputs(c.report, stdout);
    if (c.keep_script) {
        ns_plot_files pf;
        if (ns_plot_files_init(&pf, c.out, 1, c.kind == NS_PLOT_GRUNDY || c.kind == NS_PLOT_G_VALUES ? "bin" : "dat", &err) == NS_OK) {
            printf("script: %s (data: %s); rerun with: gnuplot %s\n", pf.script, pf.data, pf.script);
            ns_plot_files_free(&pf);
        }
    }
    rc = NS_EXIT_OK;
done:
    ns_meta_free(&meta);
    return rc;
}
