/* plot_gp.h - gnuplot for `nimsieve plot`: output formats, figure geometry,
 * the script's common preamble, the files a plot needs, and running
 * gnuplot (fork + execvp, never a shell) so that the figure appears under
 * its name only when gnuplot succeeded. */
#ifndef NS_PLOT_GP_H
#define NS_PLOT_GP_H

#include <stdint.h>
#include <stdio.h>

#include "core/ns_error.h"

typedef enum { NS_PLOT_PNG = 0, NS_PLOT_SVG = 1, NS_PLOT_PDF = 2 } ns_plot_format;

/* PDF sizes: this many "pixels" (--width, --height) make an inch. */
#define NS_PLOT_PDF_PX_PER_INCH 150

/* Format from the extension of path (.png, .svg, .pdf; any case). */
ns_err ns_plot_format_from_path(const char *path, ns_plot_format *fmt, ns_error *err);
const char *ns_plot_format_name(ns_plot_format fmt);

/* Geometry of a figure in pixels (PDF: 1/NS_PLOT_PDF_PX_PER_INCH inch). */
typedef struct ns_plot_frame {
    int width, height;
    double font_pt;            /* font size given to the terminal */
    int font_px;               /* about one line of text, in pixels */
    int left, right, top, bottom;   /* margins */
    int plot_w, plot_h;        /* the plot area: width - left - right, ... */
} ns_plot_frame;

/* Margins for title_lines lines of title and a colour bar (or not). When
 * aspect > 0 (y range / x range) the plot area is shrunk to that aspect
 * (kept within 1:4 .. 4:1) and centred, so one unit is as long on both axes. */
void ns_plot_frame_init(ns_plot_frame *fr, ns_plot_format fmt, int width, int height, int title_lines,
                     int colorbox, double aspect);

/* Point sizes for gnuplot's 'ps' are multiplied by this (the script's
 * variable pscale): pdfcairo draws 'ps 1' with a radius of 3 pt (6.25 PDF
 * "pixels"), pngcairo and svg with 3 pixels, so without it a PDF marker
 * is twice the share of the figure a PNG marker is. */
double ns_plot_point_scale(ns_plot_format fmt);

/* The files of one plot. With keep, "<out>.gp" and "<out>.<ext>" beside
 * the figure (out: the figure's whole path, so fig.png and fig.pdf keep
 * files of their own: fig.png.gp, fig.pdf.gp); otherwise a
 * fresh temporary directory holds "plot.gp" and "plot.<ext>". Strings are
 * owned by the struct (ns_plot_files_free). */
typedef struct ns_plot_files {
    char *script;       /* path of the script */
    char *data;         /* path of the data file */
    char *data_base;    /* its name relative to the script's directory */
    char *out_base;     /* the figure's name relative to the script's directory */
    char *tmpdir;       /* the temporary directory, or NULL */
} ns_plot_files;

ns_err ns_plot_files_init(ns_plot_files *pf, const char *out, int keep, const char *data_ext,
                       ns_error *err);
/* Remove the temporary directory and its files (nothing when kept), free
 * the strings. */
void ns_plot_files_free(ns_plot_files *pf);

/* Write s as a gnuplot double-quoted string, quotes included. */
void ns_plot_gp_quote(FILE *f, const char *s);

/* The script's first lines: how it was made and how to rerun it, the
 * variables outfile (default: the figure beside the script) and datafile
 * (found beside the script from ARG0), the terminal, fonts and margins. */
void ns_plot_gp_preamble(FILE *f, const ns_plot_frame *fr, ns_plot_format fmt, const ns_plot_files *pf,
                      const char *what, const char *source);

/* Run gnuplot (the program named by $NIMSIEVE_GNUPLOT, else "gnuplot") on
 * script with outfile set to a temporary name beside out, and rename that
 * over out when gnuplot exited with 0 and wrote something. On failure out
 * is untouched and err holds gnuplot's last error line. */
ns_err ns_plot_gp_run(const char *script, const char *out, ns_error *err);

#endif
