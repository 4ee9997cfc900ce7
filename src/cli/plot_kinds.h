/* plot_kinds.h - the figures `nimsieve plot` draws, as a table of kinds.
 *
 * A kind is one `const ns_plot_kind_def` in the table ns_plot_kinds[]
 * (plot_kinds.c), like the engines of engine/ns_engine.h: its name, a line
 * of help, the tables it draws, the options it takes, its defaults, and
 * the function that reads what it draws (plot_data.h), writes the data file
 * and the gnuplot script and runs gnuplot (plot_gp.h). cmd_plot.c parses
 * the options into a ns_plot_ctx, checks them against the kind's entry and
 * calls its draw; `plot --help` lists the table. A new figure (the
 * remoteness of loopy games, sequences of take-and-break games) is a new
 * draw function and one entry. */
#ifndef NS_PLOT_KINDS_H
#define NS_PLOT_KINDS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ns_downsample.h"
#include "core/ns_error.h"
#include "game/ns_game.h"
#include "cli/plot_gp.h"

struct ns_plot_kind_def;

/* Everything a kind needs; filled by cmd_plot.c. */
typedef struct ns_plot_ctx {
    /* from the command line (strings borrowed from argv) */
    const char *in;          /* table file */
    const char *out;         /* figure */
    const struct ns_plot_kind_def *kind;
    ns_plot_format fmt;
    int width, height;
    int keep_script;
    int ds_given;            /* --downsample given */
    ns_ds_kind ds;
    int64_t max_value;       /* --max-value, or -1 */
    const char *title;       /* --title, or NULL */
    /* --xrange, --yrange (2-D kinds), --range (sequences): inclusive
     * [lo, hi], checked against the table by cmd_plot.c */
    int have_range[2];       /* x (first pile, or n), y */
    int64_t range[2][2];
    /* from the file */
    int k;
    int64_t bounds[NS_MAX_DIM];
    char game_label[320];    /* "Wythoff's game", "a-Wythoff (a=2), misère play" */
    char axis[NS_MAX_DIM][40];   /* "pile 1", or the game's coordinate names */
    int is_wythoff;          /* the lines y = phi x and y = x / phi apply */
    const char *dsname;      /* "grundy" or "pn" */
    int is_pn;
    int loopy;               /* a loopy game's /pn: 3 (NS_PN_DRAW) marks a draw */
    int census;              /* a file of 'nimsieve census' (no table) */
    int sweep;               /* a file of 'nimsieve sweep' (plot_sweep.c) */
    const char *field;       /* sweep landscape: --field, or NULL */
    const char *param;       /* sweep landscape: --param, or NULL */
    uint64_t n_draws;        /* a loopy game's file: its draws (root attribute n_draws) */
    /* filled by the kind */
    char report[2048];       /* what it drew, one line per fact, for stdout */
    char kept_script[1024];  /* with --keep-script: the script and data kept */
    char kept_data[1024];
} ns_plot_ctx;

/* What a kind takes beyond the common options. */
enum {
    NS_PLOT_TAKES_XYRANGE = 1,     /* --xrange, --yrange */
    NS_PLOT_TAKES_RANGE = 2,       /* --range */
    NS_PLOT_TAKES_DOWNSAMPLE = 4,  /* --downsample */
};

typedef struct ns_plot_defaults {
    /* the default kind for tables of piles_from..piles_to piles (0, 0: never) */
    int piles_from, piles_to;
    /* 2-D kinds: without --xrange/--yrange, at most this many cells a side
     * (from 0; 0: the whole table) */
    int64_t window;
    /* sequences: without --range, the preperiod and this many periods when
     * a period is found (0: the whole sequence) */
    int periods;
} ns_plot_defaults;

typedef struct ns_plot_kind_def {
    const char *name;        /* --kind NAME */
    const char *what;        /* for --help: lines of at most 58 columns, '\n' between */
    int piles;               /* the tables it draws: 1, 2, or 0 for any number of piles */
    unsigned takes;          /* NS_PLOT_TAKES_* */
    ns_plot_defaults defaults;
    /* OPTIONAL: 1 when it can draw c's table, else 0 with why filled; NULL:
     * the piles check above is enough */
    int (*applies)(const ns_plot_ctx *c, char *why, size_t len);
    /* REQUIRED: draw the figure c->out, fill c->report */
    ns_err (*draw)(ns_plot_ctx *c, ns_error *err);
} ns_plot_kind_def;

/* The kinds of sweep files (plot_sweep.c) and their limits: at most
 * NS_PLOT_SWEEP_THUMBS thumbnails, of [0, NS_PLOT_THUMB_SIDE2)^2 cells (two
 * piles) or NS_PLOT_THUMB_SIDE1 heap sizes (one pile). */
enum { NS_PLOT_SWEEP_THUMBS = 64, NS_PLOT_THUMB_SIDE2 = 64, NS_PLOT_THUMB_SIDE1 = 100 };
extern const ns_plot_kind_def ns_plot_kind_landscape, ns_plot_kind_thumbnails;

/* The kinds, NULL-terminated, in the order --help lists them. */
extern const ns_plot_kind_def *const ns_plot_kinds[];

/* The kind called name, or NULL. */
const ns_plot_kind_def *ns_plot_kind_find(const char *name);
/* The default kind for a table of k piles (never NULL). */
const ns_plot_kind_def *ns_plot_kind_default(int k);
/* 1 when kind can draw c's table; else 0 and why says why (with a hint). */
int ns_plot_kind_applies(const ns_plot_kind_def *kind, const ns_plot_ctx *c, char *why, size_t len);

#endif
