/* ns_plot_gp.c - see plot_gp.h */
#include "cli/plot_gp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/ns_version.h"

/* ---------------------------------------------------------------- format */

ns_err ns_plot_format_from_path(const char *path, ns_plot_format *fmt, ns_error *err)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (dot && strcasecmp(dot, ".png") == 0)
        *fmt = NS_PLOT_PNG;
    else if (dot && strcasecmp(dot, ".svg") == 0)
        *fmt = NS_PLOT_SVG;
    else if (dot && strcasecmp(dot, ".pdf") == 0)
        *fmt = NS_PLOT_PDF;
    else
        return ns_error_set(err, NS_EINVAL, "output '%s' has %s%s: expected .png, .svg or .pdf", path,
                            dot ? "the extension " : "no extension", dot ? dot : "");
    return NS_OK;
}

const char *ns_plot_format_name(ns_plot_format fmt)
{
    return fmt == NS_PLOT_PNG ? "png" : fmt == NS_PLOT_SVG ? "svg" : "pdf";
}

/* --------------------------------------------------------------- geometry */

double ns_plot_point_scale(ns_plot_format fmt)
{
    /* a PDF "pixel" is 1/NS_PLOT_PDF_PX_PER_INCH in, a point 1/72 in */
    return fmt == NS_PLOT_PDF ? 72.0 / NS_PLOT_PDF_PX_PER_INCH : 1.0;
}

void ns_plot_frame_init(ns_plot_frame *fr, ns_plot_format fmt, int width, int height, int title_lines,
                     int colorbox, double aspect)
{
    memset(fr, 0, sizeof *fr);
    fr->width = width;
    fr->height = height;
    int m = width < height ? width : height;
    /* one text line is about 1/40 of the shorter side, 12 to 30 pixels;
     * cairo renders a point as 4/3 pixel in PNG and SVG, and PDF
     * "pixels" are 1/150 in = 0.48 pt */
    fr->font_px = m / 40 < 12 ? 12 : m / 40 > 30 ? 30 : m / 40;
    fr->font_pt = fmt == NS_PLOT_PDF ? fr->font_px * 72.0 / NS_PLOT_PDF_PX_PER_INCH : fr->font_px * 0.75;
    fr->left = fr->font_px * 6 + fr->font_px / 2;
    fr->right = colorbox ? fr->font_px * 7 : fr->font_px * 2;
    fr->top = fr->font_px * (title_lines > 0 ? 2 * title_lines + 1 : 1);
    fr->bottom = fr->font_px * 4;
    fr->plot_w = width - fr->left - fr->right;
    fr->plot_h = height - fr->top - fr->bottom;
    if (fr->plot_w < 16)
        fr->plot_w = 16;
    if (fr->plot_h < 16)
        fr->plot_h = 16;
    if (aspect > 0) {
        if (aspect < 0.25)
            aspect = 0.25;
        if (aspect > 4)
            aspect = 4;
        int w = fr->plot_w, h = fr->plot_h;
        if ((double)h / w > aspect)
            h = (int)(w * aspect + 0.5);
        else
            w = (int)(h / aspect + 0.5);
        /* centre the smaller area in the space the margins left */
        fr->left += (fr->plot_w - w) / 2;
        fr->right += fr->plot_w - w - (fr->plot_w - w) / 2;
        fr->top += (fr->plot_h - h) / 2;
        fr->bottom += fr->plot_h - h - (fr->plot_h - h) / 2;
        fr->plot_w = w;
        fr->plot_h = h;
    }
}

/* ------------------------------------------------------------------ files */

static char *dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *dup_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

ns_err ns_plot_files_init(ns_plot_files *pf, const char *out, int keep, const char *data_ext,
                       ns_error *err)
{
    memset(pf, 0, sizeof *pf);
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    const char *dot = strrchr(base, '.');
    size_t base_stem = dot ? (size_t)(dot - base) : strlen(base);
    if (base_stem == 0)
        return ns_error_set(err, NS_EINVAL, "output '%s' has no name before its extension", out);
    if (keep) {
        /* named by the whole figure name: fig.png and fig.pdf keep their
         * own fig.png.gp and fig.pdf.gp */
        pf->script = dup_printf("%s.gp", out);
        pf->data = dup_printf("%s.%s", out, data_ext);
        pf->data_base = dup_printf("%s.%s", base, data_ext);
        pf->out_base = strdup(base);
    } else {
        const char *tmp = getenv("TMPDIR");
        pf->tmpdir = dup_printf("%s/nimsieve-plot-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (pf->tmpdir && !mkdtemp(pf->tmpdir)) {
            ns_error_set(err, NS_EIO, "cannot create a temporary directory %s: %s", pf->tmpdir,
                         strerror(errno));
            free(pf->tmpdir);
            pf->tmpdir = NULL;
            ns_plot_files_free(pf);
            return NS_EIO;
        }
        pf->script = pf->tmpdir ? dup_printf("%s/plot.gp", pf->tmpdir) : NULL;
        pf->data = pf->tmpdir ? dup_printf("%s/plot.%s", pf->tmpdir, data_ext) : NULL;
        pf->data_base = dup_printf("plot.%s", data_ext);
        pf->out_base = strdup(base);
    }
    if (!pf->script || !pf->data || !pf->data_base || !pf->out_base) {
        ns_plot_files_free(pf);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    return NS_OK;
}

void ns_plot_files_free(ns_plot_files *pf)
{
    if (pf->tmpdir) {
        if (pf->script)
            unlink(pf->script);
        if (pf->data)
            unlink(pf->data);
        rmdir(pf->tmpdir);
    }
    free(pf->script);
    free(pf->data);
    free(pf->data_base);
    free(pf->out_base);
    free(pf->tmpdir);
    memset(pf, 0, sizeof *pf);
}

/* ----------------------------------------------------------------- script */

void ns_plot_gp_quote(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if (*s == '\n')
            fputs("\\n", f);
        else if (*s == '\t' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void ns_plot_gp_preamble(FILE *f, const ns_plot_frame *fr, ns_plot_format fmt, const ns_plot_files *pf,
                      const char *what, const char *source)
{
    char when[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
    fprintf(f, "# %s\n", what);
    fprintf(f, "# of ");
    for (const char *s = source; *s; s++)      /* a file name on one comment line */
        fputc(*s == '\n' ? ' ' : *s, f);
    fprintf(f, "\n# written by nimsieve %s (git %s), %s.\n", NS_VERSION, NS_GIT_REVISION, when);
    fprintf(f, "#\n# Rerun from anywhere:  gnuplot %s\n", pf->tmpdir ? "plot.gp" : strrchr(pf->script, '/') ? strrchr(pf->script, '/') + 1 : pf->script);
    fprintf(f, "# The data file lies beside this script; the figure goes beside it too,\n"
               "# unless you name another:  gnuplot -e \"outfile='other.%s'\" SCRIPT\n",
            ns_plot_format_name(fmt));
    fprintf(f, "# Restyle freely: the terminal, fonts and margins come first, the plot last.\n\n");

    fprintf(f, "scriptdir = ''\n"
               "_s = exists(\"ARG0\") ? ARG0 : ''\n"
               "while (strstrt(_s, '/') > 0) { _i = strstrt(_s, '/'); scriptdir = scriptdir . _s[1:_i]; _s = _s[_i+1:] }\n");
    fprintf(f, "datafile = scriptdir . ");
    ns_plot_gp_quote(f, pf->data_base);
    fprintf(f, "\nif (!exists(\"outfile\")) outfile = scriptdir . ");
    ns_plot_gp_quote(f, pf->out_base);
    fprintf(f, "\n\nset encoding utf8\n");
    switch (fmt) {
    case NS_PLOT_PNG:
        fprintf(f, "set terminal pngcairo size %d,%d enhanced font 'DejaVu Sans,%.1f' linewidth %.2f background '#ffffff'\n",
                fr->width, fr->height, fr->font_pt, fr->font_px / 14.0);
        break;
    case NS_PLOT_SVG:
        fprintf(f, "set terminal svg size %d,%d enhanced font 'DejaVu Sans,%.1f' linewidth %.2f background '#ffffff'\n",
                fr->width, fr->height, fr->font_pt, fr->font_px / 14.0);
        break;
    case NS_PLOT_PDF:
        fprintf(f, "set terminal pdfcairo size %.3fin,%.3fin enhanced font 'DejaVu Sans,%.1f' linewidth %.2f\n",
                (double)fr->width / NS_PLOT_PDF_PX_PER_INCH, (double)fr->height / NS_PLOT_PDF_PX_PER_INCH,
                fr->font_pt, fr->font_px / 14.0);
        break;
    }
    fprintf(f, "set output outfile\n");
    fprintf(f, "# point sizes are multiplied by pscale: pdfcairo draws 'ps 1' with a radius\n"
               "# of 3 pt, pngcairo and svg with 3 pixels; this makes them the same share\n"
               "# of the figure\npscale = %.4f\n", ns_plot_point_scale(fmt));
    fprintf(f, "# margins fixed in pixels of %d x %d: the plot area is %d x %d\n", fr->width, fr->height,
            fr->plot_w, fr->plot_h);
    fprintf(f, "set lmargin at screen %.6f\nset rmargin at screen %.6f\n", (double)fr->left / fr->width,
            1.0 - (double)fr->right / fr->width);
    fprintf(f, "set bmargin at screen %.6f\nset tmargin at screen %.6f\n", (double)fr->bottom / fr->height,
            1.0 - (double)fr->top / fr->height);
    fprintf(f, "set border lw 1\nset tics out nomirror\nset mxtics\nset mytics\n");
}

/* ------------------------------------------------------------------- run */

/* "it's" -> 'it''s' for a gnuplot single-quoted string. */
static char *gp_single_quoted(const char *s)
{
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 2 : 1;
    char *q = malloc(n), *o = q;
    if (!q)
        return NULL;
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            *o++ = '\'';
        *o++ = *p;
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

/* The last non-empty line of the log file at fd, into buf. */
static void last_line(int fd, char *buf, size_t len)
{
    char tail[4096];
    buf[0] = '\0';
    off_t size = lseek(fd, 0, SEEK_END);
    if (size <= 0)
        return;
    off_t from = size > (off_t)sizeof tail - 1 ? size - (off_t)sizeof tail + 1 : 0;
    ssize_t n = pread(fd, tail, sizeof tail - 1, from);
    if (n <= 0)
        return;
    tail[n] = '\0';
    /* gnuplot puts the failing command, a caret line and the message; keep
     * the message and the line it names */
    char *lines[64];
    int nl = 0;
    for (char *save = NULL, *t = strtok_r(tail, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
        while (*t == ' ')
            t++;
        if (*t && *t != '^')
            lines[nl++ % 64] = t;
    }
    if (nl == 0)
        return;
    snprintf(buf, len, "%s", lines[(nl - 1) % 64]);
}

ns_err ns_plot_gp_run(const char *script, const char *out, ns_error *err)
{
    const char *gnuplot = getenv("NIMSIEVE_GNUPLOT");
    if (!gnuplot || !gnuplot[0])
        gnuplot = "gnuplot";
    ns_err rc = NS_OK;
    char *tmp = NULL, *assign = NULL, *quoted = NULL;
    char logpath[] = "/tmp/nimsieve-gnuplot-XXXXXX";
    int logfd = -1;

    /* the temporary figure: a hidden name in the figure's directory, so
     * that the final rename cannot cross file systems */
    const char *slash = strrchr(out, '/');
    tmp = slash ? dup_printf("%.*s/.%s.XXXXXX", (int)(slash - out), out, slash + 1)
                : dup_printf(".%s.XXXXXX", out);
    if (!tmp)
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    int tfd = mkstemp(tmp);
    if (tfd < 0) {
        rc = ns_error_set(err, NS_EIO, "cannot create a file beside %s: %s", out, strerror(errno));
        free(tmp);
        return rc;
    }
    mode_t mask = umask(0);   /* the figure gets the usual permissions, not 0600 */
    umask(mask);
    fchmod(tfd, 0666 & ~mask);
    close(tfd);
    quoted = gp_single_quoted(tmp);
    assign = quoted ? dup_printf("outfile=%s", quoted) : NULL;
    logfd = mkstemp(logpath);
    if (!assign || logfd < 0) {
        rc = logfd < 0 ? ns_error_set(err, NS_EIO, "cannot create a log file in /tmp: %s", strerror(errno))
                       : ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    unlink(logpath);   /* the descriptor is enough */

    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        rc = ns_error_set(err, NS_EIO, "cannot start gnuplot: fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, STDIN_FILENO);
            dup2(devnull, STDOUT_FILENO);
        }
        dup2(logfd, STDERR_FILENO);
        char *argv[] = {(char *)gnuplot, "-e", assign, (char *)script, NULL};
        execvp(gnuplot, argv);
        dprintf(STDERR_FILENO, "cannot run %s: %s (install gnuplot, or set NIMSIEVE_GNUPLOT)\n", gnuplot,
                strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            rc = ns_error_set(err, NS_EIO, "waiting for gnuplot: %s", strerror(errno));
            goto fail;
        }
    }
    struct stat sb;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char line[400];
        last_line(logfd, line, sizeof line);
        if (WIFEXITED(status))
            rc = ns_error_set(err, NS_EIO, "gnuplot failed (exit %d)%s%s", WEXITSTATUS(status),
                              line[0] ? ": " : "", line);
        else
            rc = ns_error_set(err, NS_EIO, "gnuplot was killed by signal %d", WTERMSIG(status));
        goto fail;
    }
    if (stat(tmp, &sb) != 0 || sb.st_size == 0) {
        rc = ns_error_set(err, NS_EIO, "gnuplot exited without writing the figure");
        goto fail;
    }
    if (rename(tmp, out) != 0) {
        rc = ns_error_set(err, NS_EIO, "cannot rename the figure to %s: %s", out, strerror(errno));
        goto fail;
    }
    free(tmp);
    tmp = NULL;

fail:
    if (tmp) {
        unlink(tmp);
        free(tmp);
    }
    if (logfd >= 0)
        close(logfd);
    free(assign);
    free(quoted);
    return rc;
}
