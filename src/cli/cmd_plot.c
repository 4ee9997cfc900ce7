/* cmd_plot.c - `nimsieve plot`: figures of a table file through gnuplot.
 *
 * The options and what is known of the file (game, bounds, axis names) go
 * into a ns_plot_ctx; the kind's entry in the table of plot_kinds.h says
 * which tables and options it takes, and its draw reads what it draws,
 * writes the data and the script, and runs gnuplot. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "game/ns_build.h"
#include "store/ns_h5.h"
#include "store/ns_h5_census.h"
#include "store/ns_h5_sweep_tables.h"
#include "cli/plot_data.h"
#include "cli/plot_kinds.h"

static const char *const CMD = "plot";

enum { DEFAULT_WIDTH = 1000, DEFAULT_HEIGHT = 800, MIN_SIZE = 200, MAX_SIZE = 20000 };

static void usage(void)
{
    printf("usage: nimsieve plot FILE.h5 [--kind KIND] -o OUT.{png,svg,pdf} [options]\n"
           "\n"
           "Draw a figure of a table file, a census file of 'nimsieve census' or a\n"
           "sweep file of 'nimsieve sweep', with gnuplot. The format comes from the extension of OUT: PNG (cairo), SVG,\n"
           "or PDF (vector). Only what is drawn is read, in bands, so tables of\n"
           "16384 x 16384 take seconds.\n"
           "\n"
           "kinds:\n");
    for (int i = 0; ns_plot_kinds[i]; i++) {
        const char *w = ns_plot_kinds[i]->what;
        printf("  %-12s ", ns_plot_kinds[i]->name);
        for (const char *l = w; *l;) {
            size_t n = strcspn(l, "\n");
            printf("%s%.*s\n", l == w ? "" : "               ", (int)n, l);
            l += n + (l[n] == '\n');
        }
    }
    printf("\n"
           "options:\n"
           "  -k, --kind KIND         what to draw (see above)\n"
           "  -o, --output OUT        the figure: .png, .svg or .pdf\n"
           "      --xrange A:B        p-positions, grundy, g-values, remoteness: draw\n"
           "      --yrange C:D        the cells with A <= x <= B, C <= y <= D (x: the\n"
           "                          first pile)\n"
           "      --range A:B         sequence: draw n = A..B\n"
           "      --downsample HOW    grundy, remoteness: min, max or mode per pixel\n"
           "      --max-value K       grundy, sequence, remoteness: values above K in the\n"
           "                          top colour or cut off; g-values: the values 0..K;\n"
           "                          histogram: bars for 0..K only\n"
           "      --width W           figure width in pixels (default %d; PDF: %d per inch)\n"
           "      --height H          figure height in pixels (default %d)\n"
           "      --title TEXT        the title line (the caption below it stays)\n"
           "      --keep-script       keep the gnuplot script OUT.gp and its data file\n"
           "                          OUT.dat or OUT.bin beside the figure (fig.png and\n"
           "                          fig.pdf keep their own), to restyle and rerun\n"
           "      --field NAME        landscape: the summary field drawn (p_positions,\n"
           "                          period, preperiod, proven, slope_a, slope_b, seconds)\n"
           "      --param NAME        landscape: the integer parameter on the x axis\n"
           "  -h, --help              this help\n"
           "\n"
           "What was drawn is printed: the window, the slopes with their standard\n"
           "errors and constants, the period, and a note when the figure came out a\n"
           "single colour.\n"
           "\n"
           "gnuplot is run as a program (not through a shell): the one on PATH, or\n"
           "$NIMSIEVE_GNUPLOT. The figure appears under OUT only when gnuplot succeeded.\n"
           "\n"
           "examples:\n"
           "  nimsieve plot wythoff.h5 --kind p-positions -o wythoff-p-positions.png\n"
           "  nimsieve plot wythoff.h5 --kind g-values --xrange 0:99 --yrange 0:99 -o g.pdf\n"
           "  nimsieve census octal --digits 2 --size 1024 -o census.h5 && nimsieve plot census.h5 -o census.png\n"
           "  nimsieve sweep a-wythoff -D a=1..10 --size 512 -o aw.h5 && nimsieve plot aw.h5 -o aw.png\n"
           "  nimsieve plot aw.h5 --kind thumbnails -o aw-thumbs.png\n"
           "  nimsieve solve data/rules/wythoff-grow.rules --size 64 -o wg.h5 && nimsieve plot wg.h5 --kind remoteness -o wg.png\n",
           DEFAULT_WIDTH, NS_PLOT_PDF_PX_PER_INCH, DEFAULT_HEIGHT);
}

/* "A:B" with 0 <= A <= B into r; an error names the option. */
static int parse_range(const char *opt, const char *arg, int64_t r[2])
{
    const char *colon = strchr(arg, ':');
    char *end = NULL;
    if (!colon || colon == arg || !colon[1])
        return ns_cli_error(CMD, "%s '%s': expected A:B, two whole numbers A <= B (e.g. 0:255)", opt, arg);
    for (int i = 0; i < 2; i++) {
        const char *p = i ? colon + 1 : arg;
        if (*p < '0' || *p > '9')
            return ns_cli_error(CMD, "%s '%s': expected A:B, two whole numbers A <= B (e.g. 0:255)", opt, arg);
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (errno || end != (i ? colon + 1 + strlen(colon + 1) : colon))
            return ns_cli_error(CMD, "%s '%s': expected A:B, two whole numbers A <= B (e.g. 0:255)", opt, arg);
        r[i] = v;
    }
    if (r[0] > r[1])
        return ns_cli_error(CMD, "%s '%s': the start %" PRId64 " is after the end %" PRId64, opt, arg, r[0], r[1]);
    return NS_EXIT_OK;
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
    enum { OPT_DOWNSAMPLE = 256, OPT_MAXV, OPT_WIDTH, OPT_HEIGHT, OPT_TITLE, OPT_KEEP, OPT_XRANGE, OPT_YRANGE,
           OPT_RANGE, OPT_FIELD, OPT_PARAM };
    static const struct option longopts[] = {
        {"kind", required_argument, NULL, 'k'},
        {"output", required_argument, NULL, 'o'},
        {"downsample", required_argument, NULL, OPT_DOWNSAMPLE},
        {"max-value", required_argument, NULL, OPT_MAXV},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"height", required_argument, NULL, OPT_HEIGHT},
        {"title", required_argument, NULL, OPT_TITLE},
        {"keep-script", no_argument, NULL, OPT_KEEP},
        {"xrange", required_argument, NULL, OPT_XRANGE},
        {"yrange", required_argument, NULL, OPT_YRANGE},
        {"range", required_argument, NULL, OPT_RANGE},
        {"field", required_argument, NULL, OPT_FIELD},
        {"param", required_argument, NULL, OPT_PARAM},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    ns_plot_ctx c;
    memset(&c, 0, sizeof c);
    c.width = DEFAULT_WIDTH;
    c.height = DEFAULT_HEIGHT;
    c.max_value = -1;
    const ns_plot_kind_def *kind = NULL;
    int given_range = 0, given_xy = 0;
    const char *range_arg[2] = {NULL, NULL};
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
            kind = ns_plot_kind_find(optarg);
            if (!kind) {
                char names[200] = "";
                for (int i = 0; ns_plot_kinds[i]; i++)
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                             ns_plot_kinds[i]->name);
                return ns_cli_error(CMD, "--kind '%s': expected one of %s", optarg, names);
            }
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
        case OPT_FIELD:
            c.field = optarg;
            break;
        case OPT_PARAM:
            c.param = optarg;
            break;
        case OPT_XRANGE:
        case OPT_YRANGE:
        case OPT_RANGE: {
            const int d = opt == OPT_YRANGE;
            const char *name = opt == OPT_XRANGE ? "--xrange" : opt == OPT_YRANGE ? "--yrange" : "--range";
            if ((rc = parse_range(name, optarg, c.range[d])) != NS_EXIT_OK)
                return rc;
            c.have_range[d] = 1;
            range_arg[d] = optarg;
            *(opt == OPT_RANGE ? &given_range : &given_xy) = 1;
            break;
        }
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

    if (ns_h5_sweep_probe(c.in)) {
        c.sweep = 1;
        c.kind = kind ? kind : &ns_plot_kind_landscape;
        char why[400];
        if (!ns_plot_kind_applies(c.kind, &c, why, sizeof why))
            return ns_cli_error(CMD, "%s", why);
        if (given_xy || given_range || c.ds_given || c.max_value >= 0)
            return ns_cli_error(CMD, "--kind %s takes no --xrange, --yrange, --range, --downsample or --max-value",
                                c.kind->name);
        if ((c.field || c.param) && c.kind != &ns_plot_kind_landscape)
            return ns_cli_error(CMD, "--field and --param go with --kind landscape, not --kind %s", c.kind->name);
        goto draw;
    }
    if (c.field || c.param)
        return ns_cli_error(CMD, "--field and --param apply to sweep files (nimsieve sweep), --kind landscape");
    if (ns_h5_census_probe(c.in)) {
        c.census = 1;
        c.kind = kind ? kind : ns_plot_kind_find("census");
        char why[400];
        if (!ns_plot_kind_applies(c.kind, &c, why, sizeof why))
            return ns_cli_error(CMD, "%s", why);
        if (given_xy || given_range || c.ds_given || c.max_value >= 0)
            return ns_cli_error(CMD, "--kind census takes no --xrange, --yrange, --range, --downsample or "
                                     "--max-value (it draws every code)");
        goto draw;
    }
    if (ns_h5_read_meta(c.in, &meta, &c.k, c.bounds, &err)) {
        rc = file_error(c.in, &err);
        goto done;
    }
    c.kind = kind ? kind : ns_plot_kind_default(c.k);
    c.is_pn = meta.pn_only;
    c.loopy = meta.pn_only && meta.loopy;
    c.n_draws = c.loopy ? meta.n_draws : 0;
    game_label(&meta, c.game_label, sizeof c.game_label);
    c.is_wythoff = is_wythoff(&meta);
    axis_names(&c, &meta);
    {
        char why[400];
        if (!ns_plot_kind_applies(c.kind, &c, why, sizeof why)) {
            rc = ns_cli_error(CMD, "%s", why);
            goto done;
        }
    }
    if (c.ds_given && !(c.kind->takes & NS_PLOT_TAKES_DOWNSAMPLE)) {
        rc = ns_cli_error(CMD, "--downsample applies to --kind grundy and remoteness only (g-values shows every value 0..K of "
                               "a pixel's block; the others draw points)");
        goto done;
    }
    if (given_xy && !(c.kind->takes & NS_PLOT_TAKES_XYRANGE)) {
        rc = ns_cli_error(CMD, "--xrange and --yrange apply to two-pile figures (p-positions, grundy, g-values, remoteness), "
                               "not --kind %s%s", c.kind->name,
                          c.kind->takes & NS_PLOT_TAKES_RANGE ? " (use --range A:B)" : "");
        goto done;
    }
    if (given_range && !(c.kind->takes & NS_PLOT_TAKES_RANGE)) {
        rc = ns_cli_error(CMD, "--range applies to --kind sequence, not --kind %s%s", c.kind->name,
                          c.kind->takes & NS_PLOT_TAKES_XYRANGE ? " (use --xrange A:B --yrange C:D)" : "");
        goto done;
    }
    for (int d = 0; d < 2; d++)
        if (c.have_range[d] && c.range[d][1] >= c.bounds[d]) {
            const char *name = given_range ? "--range" : d ? "--yrange" : "--xrange";
            rc = ns_cli_error(CMD, "%s %s: outside the table: %s runs 0..%" PRId64 " in %s", name, range_arg[d],
                              given_range ? "n" : c.axis[d], c.bounds[d] - 1, c.in);
            goto done;
        }
    c.dsname = meta.pn_only ? "pn" : "grundy";

draw:;
    double t0 = ns_cli_now();
    if (c.kind->draw(&c, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg[0] ? err.msg : ns_err_name(err.code));
        goto done;
    }
    printf("%s: %s (%s, %d x %d%s) in %.2f s\n", c.kind->name, c.out, ns_plot_format_name(c.fmt), c.width,
           c.height, c.fmt == NS_PLOT_PDF ? " at 150/in" : "", ns_cli_now() - t0);
    fputs(c.report, stdout);
    if (c.keep_script && c.kept_script[0])
        printf("script: %s (data: %s); rerun with: gnuplot %s\n", c.kept_script, c.kept_data, c.kept_script);
    rc = NS_EXIT_OK;
done:
    ns_meta_free(&meta);
    return rc;
}
