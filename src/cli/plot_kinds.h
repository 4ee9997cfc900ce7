/* plot_kinds.h - the figures `nimsieve plot` draws: one function per kind,
 * each reading what it draws (plot_data.h), writing its data file and
 * gnuplot script and running gnuplot (plot_gp.h). */
#ifndef NS_PLOT_KINDS_H
#define NS_PLOT_KINDS_H

#include <stdint.h>

#include "analysis/ns_downsample.h"
#include "core/ns_error.h"
#include "game/ns_game.h"
#include "cli/plot_gp.h"

typedef enum {
    NS_PLOT_P_POSITIONS = 0,
    NS_PLOT_GRUNDY,
    NS_PLOT_G_VALUES,
    NS_PLOT_SEQUENCE,
    NS_PLOT_HISTOGRAM,
    NS_PLOT_NKINDS
} ns_plot_kind;

/* "p-positions" ...; and back (-1 for an unknown name). */
const char *ns_plot_kind_name(ns_plot_kind kind);
int ns_plot_kind_parse(const char *name);

/* Everything a kind needs; filled by cmd_plot.c. */
typedef struct ns_plot_ctx {
    /* from the command line (strings borrowed from argv) */
    const char *in;          /* table file */
    const char *out;         /* figure */
    ns_plot_kind kind;
    ns_plot_format fmt;
    int width, height;
    int keep_script;
    int ds_given;            /* --downsample given */
    ns_ds_kind ds;
    int64_t max_value;       /* --max-value, or -1 */
    const char *title;       /* --title, or NULL */
    /* from the file */
    int k;
    int64_t bounds[NS_MAX_DIM];
    char game_label[320];    /* "Wythoff's game", "a-Wythoff (a=2), misère play" */
    char axis[NS_MAX_DIM][40];   /* "pile 1", or the game's coordinate names */
    int is_wythoff;          /* the lines y = phi x and y = x / phi apply */
    const char *dsname;      /* "grundy" or "pn" */
    int is_pn;
    /* filled by the kind: what it drew, one line per fact, for stdout */
    char report[1024];
} ns_plot_ctx;

ns_err ns_plot_p_positions(ns_plot_ctx *c, ns_error *err);
ns_err ns_plot_grundy(ns_plot_ctx *c, ns_error *err);
ns_err ns_plot_g_values(ns_plot_ctx *c, ns_error *err);
ns_err ns_plot_sequence(ns_plot_ctx *c, ns_error *err);
ns_err ns_plot_histogram(ns_plot_ctx *c, ns_error *err);

#endif
