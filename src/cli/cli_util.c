/* cli_util.c - see cli_util.h */
#include "cli/cli_util.h"
#include "engine/ns_engine.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist/ns_dist.h"
#include "game/ns_octal.h"
#include "game/ns_params.h"

/* under MPI: whether ranks other than 0 print their errors (ns_cli_errors_every_rank) */
static int errors_every_rank;
/* under MPI, a rank other than 0 before the ranks meet (ns_cli_dist_agree):
 * its last error, printed there only if rank 0 did not fail (then it is
 * this rank's own, not the argument error every rank shares) */
static char held_error[1200];
static int holding;

int ns_cli_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* keep it one line whatever the message holds */
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    fflush(stdout);
    const int rank = ns_dist_rank(), ranks = ns_dist_size();
    if (ranks > 1 && rank != 0 && !errors_every_rank) {
        if (holding)
            snprintf(held_error, sizeof held_error, "nimsieve%s%s: rank %d of %d: %s\n", cmd ? " " : "", cmd ? cmd : "",
                     rank, ranks, msg);
        return NS_EXIT_ERROR; /* rank 0 says the same */
    }
    if (ranks > 1)
        fprintf(stderr, "nimsieve%s%s: rank %d of %d: %s\n", cmd ? " " : "", cmd ? cmd : "", rank, ranks, msg);
    else
        fprintf(stderr, "nimsieve%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "", msg);
    return NS_EXIT_ERROR;
}

void ns_cli_errors_every_rank(int on)
{
    errors_every_rank = on;
}

static int dist_agreed;
/* ns_cli_dist_expect_early: an early meeting expected, held, and whether it
 * stopped this rank for another rank's failure */
static int early_expected, early_met, early_borrowed;

void ns_cli_dist_hold_errors(void)
{
    holding = 1;
    held_error[0] = '\0';
}

int ns_cli_dist_agree(int rc)
{
    dist_agreed = 1;
    const int any = ns_dist_max_code(rc);
    if (holding) {
        /* rank 0's own status: when it failed too, its message stands for all */
        const int zero = ns_dist_max_code(ns_dist_rank() == 0 && !early_borrowed ? rc : 0);
        if (rc && !zero && held_error[0]) {
            fputs(held_error, stderr);
            fflush(stderr);
        }
        holding = 0;
        /* from here on the ranks work apart: each one's errors are its own */
        errors_every_rank = 1;
    }
    return any;
}

int ns_cli_dist_agreed(void)
{
    return dist_agreed;
}

void ns_cli_dist_expect_early(void)
{
    early_expected = 1;
    early_met = early_borrowed = 0;
}

int ns_cli_dist_early(int rc)
{
    early_met = 1;
    const int any = ns_dist_max_code(rc);
    if (any && !rc)
        early_borrowed = 1;
    return any;
}

int ns_cli_dist_catch_up(int rc)
{
    if (early_expected && !early_met)
        (void)ns_cli_dist_early(rc); /* its own status stays its own */
    if (!dist_agreed)
        rc = ns_cli_dist_agree(rc);
    return rc;
}

int ns_cli_bad_option(const char *cmd, int c, char **argv)
{
    const char *opt = optind > 0 && argv[optind - 1] ? argv[optind - 1] : "?";
    if (c == ':') {
        if (optopt > 0 && optopt < 128 && opt[0] == '-' && opt[1] != '-')
            return ns_cli_error(cmd, "option '-%c' needs a value (see 'nimsieve %s --help')", optopt, cmd);
        return ns_cli_error(cmd, "option '%s' needs a value (see 'nimsieve %s --help')", opt, cmd);
    }
    if (optopt > 0 && optopt < 128 && opt[0] == '-' && opt[1] != '-')
        return ns_cli_error(cmd, "unknown option '-%c' (see 'nimsieve %s --help')", optopt, cmd);
    return ns_cli_error(cmd, "unknown option '%s' (see 'nimsieve %s --help')", opt, cmd);
}

ns_err ns_cli_parse_int(const char *text, const char *what, int64_t lo, int64_t hi,
                        int64_t *out, ns_error *err)
{
    int64_t v;
    if (ns_parse_i64(text, &v)) {
        const char *p = text;
        int digits = *p == '-' || *p == '+';
        p += digits;
        digits = *p != '\0';
        for (; *p; p++)
            digits &= *p >= '0' && *p <= '9';
        if (digits)
            return ns_error_set(err, NS_ERANGE, "%s '%.40s' is too large: expected an integer in [%" PRId64 ", %" PRId64 "]",
                                what, text, lo, hi);
        return ns_error_set(err, NS_EINVAL, "%s '%.40s' is not an integer: expected an integer in [%" PRId64 ", %" PRId64 "]",
                            what, text, lo, hi);
    }
    if (v < lo || v > hi)
        return ns_error_set(err, NS_ERANGE, "%s is %" PRId64 ": expected an integer in [%" PRId64 ", %" PRId64 "]", what,
                            v, lo, hi);
    *out = v;
    return NS_OK;
}

ns_err ns_cli_parse_size(const char *text, const char *what, int64_t *out, ns_error *err)
{
    const int64_t max = (int64_t)1 << 62;
    int64_t v = 0;
    ns_err rc = ns_cli_parse_int(text, what, INT64_MIN, INT64_MAX, &v, err);
    if (rc == NS_EINVAL)
        return ns_error_set(err, NS_EINVAL, "%s '%.40s' is not an integer: expected a positive size", what, text);
    if (rc)
        return ns_error_set(err, NS_ERANGE, "%s '%.40s' is too large: expected a positive size below 2^62", what, text);
    if (v < 1 || v > max)
        return ns_error_set(err, NS_ERANGE, "%s is %" PRId64 ": expected a positive size%s", what, v,
                            v > max ? " below 2^62" : "");
    *out = v;
    return NS_OK;
}

ns_err ns_cli_parse_bounds(const char *text, int64_t *bounds, int *k, ns_error *err)
{
    int n = 0;
    const char *s = text;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char tok[48], what[48];
        if (n >= NS_MAX_DIM)
            return ns_error_set(err, NS_EINVAL, "--bounds '%.60s' has more than %d sizes", text, NS_MAX_DIM);
        if (len == 0 || len >= sizeof tok)
            return ns_error_set(err, NS_EINVAL, "--bounds '%.60s': size %d is %s: expected positive integers like 4096,4096",
                                text, n + 1, len == 0 ? "empty" : "too long");
        memcpy(tok, s, len);
        tok[len] = '\0';
        snprintf(what, sizeof what, "--bounds size %d", n + 1);
        ns_err rc = ns_cli_parse_size(tok, what, &bounds[n], err);
        if (rc)
            return rc;
        n++;
        if (!comma)
            break;
        s = comma + 1;
    }
    *k = n;
    return NS_OK;
}

ns_err ns_cli_parse_position(const ns_game *g, char **args, int nargs, int64_t *s, ns_error *err)
{
    if (nargs != g->k)
        return ns_error_set(err, NS_EINVAL, "expected %d coordinate%s for %s, got %d", g->k, g->k == 1 ? "" : "s",
                            g->name, nargs);
    for (int i = 0; i < nargs; i++) {
        char what[32];
        snprintf(what, sizeof what, "coordinate %d", i + 1);
        ns_err rc = ns_cli_parse_int(args[i], what, INT64_MIN, INT64_MAX, &s[i], err);
        if (rc)
            return rc;
    }
    char pos[256], box[256];
    ns_format_pos(g->k, s, pos, sizeof pos);
    if (!ns_game_in_box(g, s)) {
        ns_cli_format_box(g->k, g->bounds, box, sizeof box);
        return ns_error_set(err, NS_ERANGE, "position %s is outside the table %s", pos, box);
    }
    if (!ns_game_is_position(g, s))
        return ns_error_set(err, NS_EINVAL, "%s is not a position of %s (outside the game's domain)", pos, g->name);
    return NS_OK;
}

int ns_cli_file_first(const char *cmd, char **args, int n)
{
    if (n < 2 || !args[0][0] || strspn(args[0], "-+0123456789") != strlen(args[0]))
        return NS_EXIT_OK;
    for (int i = 1; i < n; i++) {
        const size_t len = strlen(args[i]);
        if (len > 3 && strcmp(args[i] + len - 3, ".h5") == 0 && access(args[i], F_OK) == 0)
            return ns_cli_error(cmd, "the file comes first: expected 'nimsieve %s %s X1 X2 ...', got the position "
                                "before it", cmd, args[i]);
    }
    return NS_EXIT_OK;
}

void ns_cli_format_box(int k, const int64_t *bounds, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < k && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s[0,%" PRId64 ")", i ? " x " : "", bounds[i]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}

void ns_cli_format_dims(int k, const int64_t *bounds, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < k && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%" PRId64, i ? " x " : "", bounds[i]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}

void ns_cli_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%" PRIu64 " B", bytes);
    else
        snprintf(buf, len, "%.2f %s", v, unit[u]);
}

void ns_cli_format_line_bytes(const ns_engine_plan *plan, char *buf, size_t len)
{
    char now[32], most[32];
    ns_cli_format_bytes(plan->line_bytes, now, sizeof now);
    if (plan->line_bytes_max <= plan->line_bytes) {
        snprintf(buf, len, "%s", now);
        return;
    }
    ns_cli_format_bytes(plan->line_bytes_max, most, sizeof most);
    snprintf(buf, len, "%s at first (they widen with the values; at most %s)", now, most);
}

/* "pile 2" for the default coordinate names p1.., else the game's name; a
 * preset's numbered name is written as words, like the families' labels and
 * the messages: staircase's step3 is "step 3". (A rule file's pile names are
 * the file's own identifiers, kept as written.) */
static void coord_label(const ns_game *g, int i, char *buf, size_t len)
{
    char def[16];
    const char *c = g->coord_names[i];
    snprintf(def, sizeof def, "p%d", i + 1);
    const size_t letters = strspn(c, "abcdefghijklmnopqrstuvwxyz");
    if (strcmp(c, def) == 0 || c[0] == '\0')
        snprintf(buf, len, "pile %d", i + 1);
    else if (!g->rules_text && letters > 1 && c[letters] && strspn(c + letters, "0123456789") == strlen(c + letters))
        snprintf(buf, len, "%.*s %s", (int)letters, c, c + letters);
    else
        snprintf(buf, len, "%s", c);
}

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used += (size_t)w;
}

void ns_cli_describe_move(const ns_game *g, const int64_t *s, const int64_t *o, char *buf, size_t len)
{
    size_t used = 0;
    int ntake = 0, nadd = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < g->k; i++) {
        if (o[i] >= s[i])
            continue;
        char name[32];
        coord_label(g, i, name, sizeof name);
        append(buf, len, &used, "%s%" PRId64 " from %s", ntake ? " and " : "take ", s[i] - o[i], name);
        ntake++;
    }
    for (int i = 0; i < g->k; i++) {
        if (o[i] <= s[i])
            continue;
        char name[32];
        coord_label(g, i, name, sizeof name);
        append(buf, len, &used, "%s%" PRId64 " to %s", nadd ? " and " : ntake ? ", add " : "add ", o[i] - s[i], name);
        nadd++;
    }
    if (!ntake && !nadd)
        snprintf(buf, len, "no change");
}

/* ---- what a solve will take ---- */

/* Measured on the project's 2-core machine (observed, 2026-11): nanoseconds
 * a cell on one thread. tiles2d: Wythoff 4096^2 in 0.19 s on 2 threads (23
 * ns; 175 ns when the machine was busy); rows-pn: Wythoff 1048576^2 P/N in 87
 * s (0.16 ns); general: Nim 256^3 (3 rays) 126 ns, a-Wythoff a = 3 2048^2
 * 286 ns, one-pile games about 0.4 us a level (a level is one cell). The
 * constants are about twice those, to cover a busy machine. */
enum { NS_PER_CELL_TILES = 60, NS_PER_FAMILY = 90, NS_PER_CELL_GENERAL = 60, NS_PER_LEVEL = 800 };
#define NS_PER_CELL_ROWS 0.4
#define NS_PER_OPTION_EXTRA 5.0 /* the sieve's table read and bit for each option */
/* the sequence engine (heap games): nanoseconds an option (a split) on one
 * thread; with the byte-map kernels (engine/ns_seq_mex.h) 0.76 to 32768,
 * 5.4e8 splits with values past 255, took 0.22 s on a busy machine (load
 * 4.5; 0.4 ns a split), Kayles (values below 128) 0.05 s: twice the slower
 * kernel, as before (a bit per split took 1.2 ns in the same run) */
#define NS_PER_SPLIT 0.8
#define NS_PER_RARE_HEAP 400.0
/* compression measured on the same solves: Grundy files up to 0.8 of the
 * raw values (Wythoff 0.60, Bash 0.80; tables of few values far less:
 * Fibonacci Nim 0.01); P/N files store only the chunks
 * holding a P-position and the list of P-positions (Nim^3 256^3: 1/54 byte a
 * cell, Wythoff 4096^2: 1/450) */
#define GRUNDY_RATIO 0.8
#define PN_BYTES_PER_CELL (1.0 / 64)

typedef struct opt_count {
    uint64_t n, budget;
} opt_count;

static int count_option(void *user, const int64_t *opt)
{
    (void)opt;
    opt_count *c = user;
    return ++c->n >= c->budget;
}

static uint64_t sample_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Does the general engine run family f of g as running sets (a SUBSETS
 * marker, game/ns_game.h), not option by option? Its conditions: no
 * domain, not loopy, rank weight 1 on the family's piles. How many sets of
 * sub_k piles it keeps goes to *nsets. */
static int runs_as_sets(const ns_game *g, int f, double *nsets)
{
    const ns_family *fm = &g->fam[f];
    const int pats = ns_family_has_patterns(fm);
    if (fm->kind != NS_FAM_GENERAL || (fm->sub_k < 1 && !pats) || !fm->sub_piles || g->valid || g->loopy || g->octal)
        return 0;
    int np = 0;
    for (int j = 0; j < g->k; j++)
        if (fm->sub_piles >> j & 1) {
            if (g->rank_w[j] != 1)
                return 0;
            np++;
        }
    if (pats) {
        uint32_t need[70]; /* the engine's limit (SUB_MAX) */
        const int nn = ns_family_pattern_sets(fm, need, 70);
        if (nn > 70)
            return 0;
        *nsets = 2.0 * nn; /* two sets ORed a cell and set */
        return 1;
    }
    const int kk = fm->sub_k < np ? fm->sub_k : np;
    double c = 1; /* C(np, kk) */
    for (int i = 0; i < kk; i++)
        c = c * (np - i) / (i + 1);
    *nsets = c * kk; /* kk neighbours' sets ORed a cell and set */
    return 1;
}

/* From up to 400 random cells of the box and about 0.2 s: the fraction of
 * them that are positions, and for g's general families (but those run as
 * running sets) the mean options a position and the nanoseconds an option
 * takes to list (0 without one). */
static void sample_cells(const ns_game *g, double *valid_fraction, double *mean_options, double *ns_per_option)
{
    double unused;
    uint64_t state = 12345, cells = 0;
    int tries = 0;
    opt_count c = {0, 20000000};
    const double t0 = ns_cli_now();
    double spent = 0;
    for (; tries < 4000 && cells < 400 && spent < 0.2 && c.n < c.budget; tries++) {
        int64_t s[NS_MAX_DIM];
        for (int i = 0; i < g->k; i++)
            s[i] = (int64_t)(sample_next(&state) % (uint64_t)g->bounds[i]);
        if (!ns_game_is_position(g, s))
            continue;
        for (int f = 0; f < g->nfam; f++)
            if (g->fam[f].kind == NS_FAM_GENERAL && !runs_as_sets(g, f, &unused))
                (void)g->fam[f].options(g->fam[f].ctx, s, count_option, &c, NULL);
        cells++;
        spent = ns_cli_now() - t0;
    }
    *valid_fraction = tries ? (double)cells / tries : 1;
    /* a cell cut short by the budget counts whole: a lower bound, then */
    *mean_options = cells ? (double)c.n / (double)cells : 0;
    *ns_per_option = c.n ? 1e9 * spent / (double)c.n : 0;
}

void ns_cli_estimate_solve(const ns_game *g, const struct ns_engine_plan *plan, const char *engine, int pn_only,
                           int threads, double *seconds_low, double *seconds, double *file_bytes)
{
    const double cells = (double)plan->cells, th = threads > 0 ? threads : 1;
    double ns = 0, serial = 0, valid = 1, mean = 0, per = 0;
    sample_cells(g, &valid, &mean, &per);
    const int rare_common = strcmp(engine, "rare-common") == 0 && g->octal;
    if ((rare_common || strcmp(engine, "sequence") == 0) && g->octal) {
        /* the plain mex visits every split of every heap: the sum of the
         * options over the heap sizes, from 64 samples */
        double opts = 0;
        for (int i = 0; i < 64; i++)
            opts += (double)ns_octal_max_options(g->octal, (int64_t)(((double)i + 0.5) * cells / 64.0));
        ns = opts / 64.0 * NS_PER_SPLIT;
    } else if (strcmp(engine, "tiles2d") == 0) {
        ns = NS_PER_CELL_TILES;
    } else if (strcmp(engine, "rows-pn") == 0) {
        ns = NS_PER_CELL_ROWS;
    } else {
        ns = NS_PER_CELL_GENERAL;
        for (int f = 0; f < g->nfam; f++) {
            double nsets = 0;
            if (g->fam[f].kind != NS_FAM_GENERAL)
                ns += pn_only ? NS_PER_FAMILY / 3.0 : NS_PER_FAMILY;
            else if (runs_as_sets(g, f, &nsets))
                /* running sets: an OR of a few words per set and neighbour
                 * (Moore's Nim_2, 3 piles: about 420 ns a cell of CPU at
                 * 128^3 and 256^3 on a busy machine, the sets' widenings
                 * included) */
                ns += NS_PER_FAMILY * nsets;
        }
        ns += mean * (2 * per + NS_PER_OPTION_EXTRA);
        serial = (double)plan->levels * NS_PER_LEVEL * 1e-9;
        /* cells outside the domain cost next to nothing */
        ns *= 0.1 + 0.9 * valid;
    }
    *seconds = cells * ns * 1e-9 / th + serial;
    /* the rare/common method: as fast as its sparse space allows (observed:
     * 0.1777 to 4.4e8 at 180 ns a heap on one thread, Grundy's game about
     * 7 us a heap), the plain mex where there is none (Kayles) */
    *seconds_low = rare_common ? fmin(*seconds, cells * NS_PER_RARE_HEAP * 1e-9) : *seconds;
    /* and they hold one value, which compresses to nothing */
    if (pn_only)
        *file_bytes = (cells * PN_BYTES_PER_CELL) * (0.2 + 0.8 * valid) + 20000;
    else
        *file_bytes = (cells * plan->elem * GRUNDY_RATIO) * (0.2 + 0.8 * valid) + 20000;
}

static void format_about_bytes(double b, char *buf, size_t len)
{
    static const char *const unit[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (b >= 999.5 && u < 5) {
        b /= 1000;
        u++;
    }
    /* two significant digits: "about" */
    if (b >= 10)
        snprintf(buf, len, "%.0f %s", b >= 100 ? 10 * (double)(long)(b / 10 + 0.5) : b, unit[u]);
    else
        snprintf(buf, len, "%.1f %s", b, unit[u]);
}

static void format_about_seconds(double seconds, char *t, size_t len)
{
    if (seconds < 1)
        snprintf(t, len, "under a second");
    else if (seconds < 90)
        snprintf(t, len, "about %.0f s", seconds);
    else if (seconds < 90 * 60)
        snprintf(t, len, "about %.0f min", seconds / 60);
    else if (seconds < 48 * 3600)
        snprintf(t, len, "about %.0f h", seconds / 3600);
    else
        snprintf(t, len, "about %.0f days", seconds / 86400);
}

void ns_cli_format_estimate(double seconds_low, double seconds, double file_bytes, char *buf, size_t len)
{
    char t[48], t0[48], f[48];
    format_about_seconds(seconds, t, sizeof t);
    format_about_seconds(seconds_low, t0, sizeof t0);
    format_about_bytes(file_bytes, f, sizeof f);
    if (strcmp(t0, t) != 0)
        snprintf(buf, len, "expected %s (a sparse space) to %s (none), file up to about %s", t0, t, f);
    else
        snprintf(buf, len, "expected %s, file up to about %s", t, f);
}

double ns_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t ns_cli_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
            break;
    fclose(f);
    return kb > UINT64_MAX / 1024 ? UINT64_MAX : kb * 1024;
}

/* ---- progress bar ---- */

/* the signal that asked for a stop (SIGINT or SIGTERM), 0 while none did:
 * a signal handler can only reach a static flag */
static volatile sig_atomic_t got_signal = 0;

static void on_stop_signal(int sig)
{
    got_signal = sig;
    signal(sig, SIG_DFL); /* a second one kills */
}

void ns_cli_catch_sigint(void)
{
    got_signal = 0;
    signal(SIGINT, on_stop_signal);
    signal(SIGTERM, on_stop_signal);
}

int ns_cli_interrupted(void)
{
    return got_signal;
}

enum { BAR_WIDTH = 40 };

static void draw(ns_cli_progress *p, double fraction, double now)
{
    if (fraction < 0)
        fraction = 0;
    if (fraction > 1)
        fraction = 1;
    int fill = (int)(fraction * BAR_WIDTH);
    char bar[BAR_WIDTH + 1];
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[BAR_WIDTH] = '\0';
    double el = now - p->start;
    if (fraction > 0.01 && fraction < 1) {
        double eta = el * (1 - fraction) / fraction;
        fprintf(stderr, "\r[%s] %5.1f%%  %.1f s, about %.0f s left ", bar, 100 * fraction, el, eta);
    } else {
        fprintf(stderr, "\r[%s] %5.1f%%  %.1f s                  ", bar, 100 * fraction, el);
    }
    fflush(stderr);
    p->drawn = 1;
    p->last = now;
}

void ns_cli_progress_start(ns_cli_progress *p, int enabled)
{
    p->enabled = enabled && isatty(STDERR_FILENO);
    p->start = ns_cli_now();
    p->last = 0;
    p->fraction = 0;
    p->drawn = 0;
}

int ns_cli_progress_cb(void *user, double fraction)
{
    ns_cli_progress *p = user;
    if (p && p->enabled) {
        p->fraction = fraction;
        double now = ns_cli_now();
        if (now - p->start > 1.0 && now - p->last >= 0.1)
            draw(p, fraction, now);
    }
    return ns_cli_interrupted();
}

void ns_cli_progress_finish(ns_cli_progress *p)
{
    if (!p->enabled || !p->drawn)
        return;
    draw(p, p->fraction, ns_cli_now());
    fputc('\n', stderr);
    fflush(stderr);
    p->drawn = 0;
}

int ns_cli_box_option(const char *cmd, int c, const char *arg, ns_cli_box_opts *o)
{
    ns_error err = {0};
    switch (c) {
    case 'D':
        if (ns_params_parse(&o->params, arg, &err))
            return ns_cli_error(cmd, "-D: %s", err.msg);
        return 0;
    case 'n':
        if (ns_cli_parse_size(arg, "--size", &o->size, &err))
            return ns_cli_error(cmd, "%s", err.msg);
        o->nsize_opts++;
        return 0;
    case 'b':
        if (ns_cli_parse_bounds(arg, o->bounds, &o->nbounds, &err))
            return ns_cli_error(cmd, "%s", err.msg);
        o->nbounds_opts++;
        return 0;
    default:
        return 1;
    }
}

int ns_cli_box_check(const char *cmd, const ns_cli_box_opts *o, int required)
{
    if (o->nsize_opts && o->nbounds_opts)
        return ns_cli_error(cmd, "--size and --bounds are mutually exclusive: give one of them");
    if (required && !o->nsize_opts && !o->nbounds_opts)
        return ns_cli_error(cmd, "missing size: expected --size N or --bounds N1,N2,..");
    if (o->nsize_opts > 1 || o->nbounds_opts > 1)
        return ns_cli_error(cmd, "%s given more than once", o->nsize_opts > 1 ? "--size" : "--bounds");
    return NS_EXIT_OK;
}

void ns_cli_print_engine(const ns_engine_choice *c, const char *label, int width)
{
    if (c->engine)
        printf("%-*s %s (%s)\n", width, label, c->engine->name, c->engine->what);
    else
        printf("%-*s none applies\n", width, label);
    for (int i = 0; i < c->nskipped; i++)
        printf("%-*s   not %s: %s\n", width, "", c->skipped[i]->name, c->why[i]);
}
