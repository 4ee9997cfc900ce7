/* cmd_sweep.c - `nimsieve sweep`: the variants of a game over parameter
 * ranges, each solved and summarised, one HDF5 catalogue (issue 20, first
 * slice); `nimsieve sweep --report FILE [--csv]` prints it. */
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_group.h"
#include "analysis/ns_sweep.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "core/ns_omp.h"
#include "dist/ns_dist.h"
#include "dist/ns_dist_sweep.h"
#include "game/ns_build.h"
#include "game/ns_table.h"
#include "store/ns_h5_sweep.h"
#include "cli/sweep_report.h"

#define CMD "sweep"

enum { MAX_THREADS = 1024, MAX_D = NS_PARAMS_MAX };
#define MAX_SIZE_1 ((int64_t)1 << 31)
#define MAX_SIZE_2 ((int64_t)1 << 14)
/* variants of this many cells or more run one at a time with all threads */
#define LARGE_CELLS 4194304.0

static void usage(void)
{
    printf("usage: nimsieve sweep GAME-or-RULES [-D name=RANGE ...] --size N -o SWEEP.h5 [--threads T]\n"
           "                      [--keep-tables] [--resume | --force]\n"
           "       nimsieve sweep --report SWEEP.h5 [--csv | --json]\n"
           "\n"
           "Solve every variant of a one- or two-pile game over the product of the\n"
           "parameter ranges, summarise each, and write one catalogue. Small variants\n"
           "run side by side, one per thread, large ones one at a time with all\n"
           "threads, each through the engine door as 'solve' would; the catalogue does\n"
           "not depend on the number of threads.\n"
           "\n"
           "ranges (-D, repeatable; the first one varies slowest):\n"
           "  a=1..50              the integers 1 to 50\n"
           "  m=2,3,5              these integers\n"
           "  set=subsets(1..12,3) every 3-element subset of {1..12} (lexicographic)\n"
           "  set=subsets(1..8)    every non-empty subset of {1..8} (by size)\n"
           "  code=octal(2)        every octal code 0.d1d2, last digit non-zero, in the\n"
           "                       census's order; octal(1..3): 1, then 2, then 3 digits\n"
           "  a=4, code=0.137      one value\n"
           "Refused before any work: an empty range (a=5..1), a parameter the game\n"
           "does not have, a base set of more than %d elements, more than %d\n"
           "variants in all, any variant the game refuses.\n"
           "\n"
           "options:\n"
           "  -D name=RANGE        a parameter range (see above)\n"
           "  -n, --size N         one pile: heap sizes 0..N-1 (N <= 2^31); two piles:\n"
           "                       the box [0,N)^2 (N <= %" PRId64 ")\n"
           "  -o, --output FILE    the HDF5 catalogue: /sweep, one row per variant\n"
           "                       (params, size, p_positions, preperiod, period, proven,\n"
           "                       slope_a, slope_b, seconds, group, max_value, saltus,\n"
           "                       complementary, beatty, const_a, const_b, cf_a, cf_b,\n"
           "                       rows_additive, additive_pmax, checks)\n"
           "                       and root attributes game,\n"
           "                       ranges, parameters, piles, size, variants, ...\n"
           "  -t, --threads T      threads (default: OpenMP's): small variants run side by\n"
           "                       side, one per thread; variants of 2^22 cells or more\n"
           "                       (two piles: N >= 2048) one at a time with all threads\n"
           "      --one-at-a-time  every variant with all threads, one after another\n"
           "      --side-by-side   every variant on one thread, T at once\n"
           "      --keep-tables    also each variant's Grundy values, /tables/v0000012\n"
           "                       (variant 12; uint8/16/32 as its values need)\n"
           "      --resume         continue the interrupted sweep in FILE.part (the same\n"
           "                       game, -D, --size and --keep-tables, or it refuses)\n"
           "  -f, --force          overwrite FILE (and start over from an interrupted\n"
           "                       FILE.part) if it exists\n"
           "  -r, --report FILE    print the catalogue of FILE, then its conjectures\n"
           "      --csv            with --report: CSV, header: each parameter, then\n"
           "                       p_positions,preperiod,period,proven (one pile) or\n"
           "                       p_positions,slope_a,slope_b (two piles), then\n"
           "                       group,max_value, then saltus (one pile) or\n"
           "                       complementary,beatty,const_a,const_b,cf_a,cf_b,\n"
           "                       rows_additive,additive_pmax (two piles), then checks;\n"
           "                       a field with a comma quoted; no conjectures\n"
           "      --json           with --report: the catalogue and its conjectures as\n"
           "                       one JSON object (nan as null)\n"
           "  -h, --help           this help\n"
           "\n",
           NS_SWEEP_MAX_SET, NS_SWEEP_MAX_VARIANTS, MAX_SIZE_2);
    fputs("Summaries: p_positions counts the cells with value 0, max_value is the\n"
           "largest value, group the first variant (from 0) whose table is identical\n"
           "value by value (its own row when none is). One pile: the period and\n"
           "preperiod as 'patterns' finds them, proven 1 when the subtraction proof\n"
           "rule covers them; for take-and-break games (octal, ...) as 'census' finds\n"
           "them, proven by the octal periodicity theorem; saltus s > 0 for an\n"
           "arithmetic period G(n+p) = G(n) + s (observed only); period 0 when none is\n"
           "found. Two piles: slope_a and\n"
           "slope_b, least-squares slopes against n of a_n and b_n, the P-positions\n"
           "(a_n, b_n) with a_n < b_n as 'patterns' reads them (nan: no fit);\n"
           "complementary 1 when every integer 1.. is exactly one a_n or b_n; beatty 1\n"
           "when a_n = floor(n alpha) and b_n = floor(n beta) for some alpha, beta;\n"
           "const_a, const_b the constant 'patterns' names for each ('(1+sqrt(5))/2',\n"
           "empty when it names none) and cf_a, cf_b its continued fraction as\n"
           "'patterns' prints it ('[1; (2)]': the period in parentheses) or, with no\n"
           "constant named, the terms every alpha of the exact interval shares (a\n"
           "prefix); rows_additive: of the rows x < min(N, 64), those with an additive\n"
           "period G(x, y+p) = G(x, y) + p for y >= y0 as 'patterns' finds it (p <= N/3,\n"
           "seen over two periods and a quarter of the row), additive_pmax the largest\n"
           "such p (Grundy tables; 0 when none). Both: checks, every closed-form\n"
           "theorem of 'nimsieve check' that applies to the variant, run on its whole\n"
           "table: 'a-wythoff:ok', 'bash:FAIL(3)' (3 mismatches), comma separated;\n"
           "empty when none applies (a rule file applies only when its text is a\n"
           "data/rules file implementing a preset, as for 'check').\n"
           "\n"
           "Conjectures (--report, --json), ranked by the variants they cover, then\n"
           "simplicity; each is true of the catalogue and says so ('observed for all\n"
           "10 variants'), never proven beyond it: a field constant over the variants\n"
           "(or over most of them); an integer field that is exactly m x + c in an\n"
           "integer parameter x (checked in integers, at least 3 values of x, per\n"
           "group of the other parameters); two piles: slope_a, slope_b =\n"
           "(p + q x + sqrt(r x^2 + s x + t))/u, |p|,|q|,u,r <= 4, |s| <= 8, |t| <= 16,\n"
           "the simplest form within 1.5K/(K^2-1) of every variant's slope (K pairs:\n"
           "the least-squares error bound of a Beatty sequence), max deviation shown,\n"
           "searched per group of the other parameters (at least 4 values of x): one\n"
           "statement when the groups share a form, else 'a closed form in x for each\n"
           "value of y' with the first groups' forms. With one other integer\n"
           "parameter y (at least 3 values): the coefficients of the groups' forms (or\n"
           "m, c of the groups' linear laws) that are exactly linear in y over every\n"
           "group, e.g. 'period = m b + c with m = 1, c = a for ... every a'.\n"
           "Figures: nimsieve plot SWEEP.h5 (--kind landscape, thumbnails).\n"
           "\n"
           "Rows go to FILE.part as the variants finish, in variant order (flushed at\n"
           "least every 64 rows or 2 s), and FILE.part is renamed to FILE at the end.\n"
           "Each flush also appends its rows to the journal FILE.part.rows, from which\n"
           "--resume makes FILE.part again if a kill during a flush left it unreadable\n"
           "(not with --keep-tables: the tables were only in FILE.part).\n"
           "Ctrl-C or SIGTERM stops after the rows done; --resume continues from them\n"
           "(the groups of the rows done are rebuilt by solving their first variants\n"
           "again). On a terminal, a progress line on stderr: variants done, the\n"
           "lowest one not finished, the rate and an estimate of the time left.\n"
           "\n"
           "Under MPI (an MPI build, mpirun -np R): rank 0 hands out the variants to\n"
           "the other ranks, collects the rows in variant order and writes FILE\n"
           "(attribute mpi_ranks); the same catalogue but seconds.\n"
           "\n"
           "examples:\n"
           "  nimsieve sweep a-wythoff -D a=1..10 --size 512 -o sweep-aw.h5\n"
           "  nimsieve sweep subtraction -D 'set=subsets(1..9,3)' --size 1000 -o sweep-sub.h5\n"
           "  nimsieve sweep --report sweep-sub.h5 --csv\n"
           "  nimsieve sweep octal -D 'code=octal(2)' --size 1000 -o sweep-oct.h5\n",
          stdout);
}

/* the value of parameter name in text ("a=3;set=1,3,4") as CSV: sets quoted */
static void param_field(const char *params, const char *name, char *buf, size_t len)
{
    ns_params ps;
    ns_error e = {0};
    buf[0] = '\0';
    if (ns_params_parse_list(&ps, params, &e))
        return;
    const ns_param *p = ns_params_get(&ps, name);
    if (!p)
        return;
    if (p->n == 0) {
        snprintf(buf, len, "%s", p->text);
        return;
    }
    size_t u = 0;
    if (p->n > 1)
        u += (size_t)snprintf(buf + u, len - u, "\"");
    for (int j = 0; j < p->n && u < len; j++)
        u += (size_t)snprintf(buf + u, len - u, "%s%" PRId64, j ? "," : "", p->v[j]);
    if (p->n > 1 && u < len)
        snprintf(buf + u, len - u, "\"");
}

/* a text column: CSV quotes it when it holds a comma (no field holds a
 * double quote); the table shows "-" for an empty one */
static void text_field(const char *sep, const char *v, int csv)
{
    if (csv)
        printf(strchr(v, ',') ? "%s\"%s\"" : "%s%s", sep, v);
    else
        printf("%s%s", sep, v[0] ? v : "-");
}

static int report(const char *path, int csv, int json)
{
    ns_error err = {0};
    ns_h5_sweep *s = NULL;
    if (ns_h5_sweep_read(path, &s, &err))
        return ns_cli_error(CMD, "%s", err.msg);
    if (json) {
        const ns_err e = ns_sweep_print_json(stdout, s, &err);
        ns_h5_sweep_free(s);
        return e ? ns_cli_error(CMD, "%s: %s", path, err.msg) : NS_EXIT_OK;
    }
    char names[NS_PARAMS_MAX][NS_PARAM_NAME_LEN];
    int nn = 0;
    for (const char *p = s->parameters; *p && nn < NS_PARAMS_MAX;) {
        const char *e = strchr(p, ',');
        const size_t l = e ? (size_t)(e - p) : strlen(p);
        snprintf(names[nn++], NS_PARAM_NAME_LEN, "%.*s", (int)l, p);
        p = e ? e + 1 : p + l;
    }
    if (!csv) {
        if (!s->analysed)
            printf("note:          written before the analysis columns (complementary .. checks): not shown\n");
        printf("game:          %s\n", s->game);
        printf("ranges:        %s\n", s->ranges[0] ? s->ranges : "(none)");
        printf("size:          %" PRId64 "%s\n", s->size, s->piles == 2 ? " x same (two piles)" : " heap sizes (one pile)");
        printf("variants:      %zu\n", s->n);
    }
    const char *sep = csv ? "," : "  ";
    for (int j = 0; j < nn; j++)
        printf("%s%s", j ? sep : "", names[j]);
    if (s->piles == 1)
        printf("%sp_positions%spreperiod%speriod%sproven", nn ? sep : "", sep, sep, sep);
    else
        printf("%sp_positions%sslope_a%sslope_b", nn ? sep : "", sep, sep);
    if (!csv)
        printf("%sseconds", sep);
    printf("%sgroup%smax_value", sep, sep);
    if (s->piles == 1)
        printf("%ssaltus", sep);
    else if (s->analysed)
        printf("%scomplementary%sbeatty%sconst_a%sconst_b%scf_a%scf_b%srows_additive%sadditive_pmax", sep, sep, sep, sep,
               sep, sep, sep, sep);
    printf("%s\n", s->analysed ? (csv ? ",checks" : "  checks") : "");
    for (size_t i = 0; i < s->n; i++) {
        const ns_h5_sweep_row *r = &s->rows[i];
        for (int j = 0; j < nn; j++) {
            char f[NS_H5_SWEEP_PARAMS_LEN + 4];
            param_field(r->params, names[j], f, sizeof f);
            printf("%s%s", j ? sep : "", f);
        }
        printf("%s%" PRId64, nn ? sep : "", r->p_positions);
        if (s->piles == 1)
            printf("%s%" PRId64 "%s%" PRId64 "%s%u", sep, r->preperiod, sep, r->period, sep, (unsigned)r->proven);
        else
            printf("%s%.9g%s%.9g", sep, r->slope_a, sep, r->slope_b);
        if (!csv)
            printf("%s%.3f", sep, r->seconds);
        printf("%s%" PRId64 "%s%" PRId64, sep, r->group, sep, r->max_value);
        if (s->piles == 1)
            printf("%s%" PRId64, sep, r->saltus);
        else if (s->analysed) {
            printf("%s%u%s%u", sep, (unsigned)r->complementary, sep, (unsigned)r->beatty);
            text_field(sep, r->const_a, csv);
            text_field(sep, r->const_b, csv);
            text_field(sep, r->cf_a, csv);
            text_field(sep, r->cf_b, csv);
            printf("%s%" PRId64 "%s%" PRId64, sep, r->rows_additive, sep, r->additive_pmax);
        }
        if (s->analysed)
            text_field(sep, r->checks, csv);
        printf("\n");
    }
    if (!csv) {
        ns_params *ps = NULL;
        ns_conj *c = NULL;
        size_t nc = 0;
        if (ns_sweep_conjectures(s, &ps, &c, &nc, &err)) {
            ns_h5_sweep_free(s);
            return ns_cli_error(CMD, "%s: %s", path, err.msg);
        }
        ns_sweep_print_conjectures(stdout, c, nc);
        free(c);
        free(ps);
    }
    ns_h5_sweep_free(s);
    return NS_EXIT_OK;
}

/* ---- the run: rows to the catalogue as they come, the progress line ---- */

typedef struct run_ctx {
    const ns_sweep_ranges *r;
    ns_h5_sweep_writer *w;
    ns_group *gr;              /* identical tables: each row's group */
    int keep;                  /* --keep-tables */
    uint64_t first, total;     /* the variant this run starts from; all */
    uint64_t next;             /* the lowest variant not in the catalogue */
    uint64_t solved;           /* variants of this run solved (any order) */
    int failed;                /* err holds why */
    ns_error err;
    int tty;                   /* the progress line is drawn */
    double start, last;        /* ns_cli_now() at the start, last redraw */
    int drawn;
} run_ctx;

/* The catalogue row of variant i. */
static ns_err to_hrow(const ns_sweep_ranges *r, uint64_t i, const ns_sweep_row *row, ns_h5_sweep_row *h,
                      ns_error *err)
{
    ns_params ps;
    memset(h, 0, sizeof *h);
    ns_err rc = ns_sweep_ranges_variant(r, i, &ps, err);
    if (rc)
        return rc;
    ns_params_format(&ps, h->params, sizeof h->params);
    h->size = row->size;
    h->p_positions = row->p_positions;
    h->preperiod = row->preperiod;
    h->period = row->period;
    h->proven = (uint8_t)row->proven;
    h->slope_a = row->slope_a;
    h->slope_b = row->slope_b;
    h->seconds = row->seconds;
    h->max_value = row->max_value;
    h->saltus = row->saltus;
    h->complementary = (uint8_t)row->complementary;
    h->beatty = (uint8_t)row->beatty;
    snprintf(h->const_a, sizeof h->const_a, "%s", row->const_a);
    snprintf(h->const_b, sizeof h->const_b, "%s", row->const_b);
    snprintf(h->cf_a, sizeof h->cf_a, "%s", row->cf_a);
    snprintf(h->cf_b, sizeof h->cf_b, "%s", row->cf_b);
    h->rows_additive = row->rows_additive;
    h->additive_pmax = row->additive_pmax;
    snprintf(h->checks, sizeof h->checks, "%s", row->checks);
    return NS_OK;
}

/* "sweep: 120 of 220 variants, at set=1,3,4, 35.2/s, about 3 s left" */
static void draw_progress(run_ctx *c, int force)
{
    const double now = ns_cli_now();
    if (!c->tty || (!force && (now - c->start < 1.0 || now - c->last < 0.1)))
        return;
    const uint64_t done = c->first + c->solved;
    const double el = now - c->start, rate = el > 0 ? (double)c->solved / el : 0;
    char at[NS_H5_SWEEP_PARAMS_LEN] = "", eta[64] = "";
    ns_params ps;
    ns_error e = {0};
    if (c->next < c->total && ns_sweep_ranges_variant(c->r, c->next, &ps, &e) == NS_OK)
        ns_params_format(&ps, at, sizeof at);
    if (rate > 0 && done < c->total)
        snprintf(eta, sizeof eta, ", about %.0f s left", (double)(c->total - done) / rate);
    fprintf(stderr, "\rsweep: %" PRIu64 " of %" PRIu64 " variants%s%s, %.1f/s%s\033[K", done, c->total,
            at[0] ? ", at " : "", at, rate, eta);
    fflush(stderr);
    c->drawn = 1;
    c->last = now;
}

/* ns_sweep_progress_fn: any variant solved */
static int on_progress(void *user, uint64_t done, uint64_t total)
{
    run_ctx *c = user;
    (void)total;
    c->solved = done;
    draw_progress(c, 0);
    return ns_cli_interrupted();
}

/* ns_sweep_each_fn: variant i's turn, in variant order: its table (with
 * --keep-tables, a symmetric game's mirrored cells filled) and its row */
static int on_each(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    run_ctx *c = user;
    ns_h5_sweep_row h;
    ns_table *full = NULL;
    uint64_t first = i;
    ns_err rc = to_hrow(c->r, i, row, &h, &c->err);
    if (!rc)
        rc = ns_group_add(c->gr, i, t, &first, &c->err);
    h.group = (int64_t)first;
    if (!rc && c->keep) {
        const ns_table *kt = t;
        if (g->nsym) {
            if (!(full = ns_table_new(t->k, t->bounds, t->elem, t->pn_only, &c->err)))
                rc = c->err.code ? c->err.code : NS_ENOMEM;
            else {
                memcpy(full->data, t->data, (size_t)t->ncells * (size_t)t->elem);
                ns_sym_fill(full, g->nsym, g->sym);
                kt = full;
            }
        }
        if (!rc)
            rc = ns_h5_sweep_writer_table(c->w, i, h.params, kt, &c->err);
    }
    ns_table_free(full);
    if (!rc)
        rc = ns_h5_sweep_writer_append(c->w, &h, &c->err);
    if (rc) {
        c->failed = 1;
        return 1;
    }
    c->next = i + 1;
    return ns_cli_interrupted();
}

/* An interrupted sweep's rows live in OUT.part: --resume needs it, a fresh
 * run without --force refuses to replace it. Returns non-zero after
 * printing. */
static int part_check(const char *out, int resume, int force)
{
    char part[4096];
    if ((size_t)snprintf(part, sizeof part, "%s.part", out) >= sizeof part)
        return ns_cli_error(CMD, "-o %s: the name is too long", out);
    const int have = access(part, F_OK) == 0;
    if (resume && !have)
        return ns_cli_error(CMD, "--resume: no interrupted sweep '%s' (an interrupted 'nimsieve sweep -o %s' "
                            "leaves one)", part, out);
    if (!resume && !force && have)
        return ns_cli_error(CMD, "an interrupted sweep '%s' exists: add --resume to continue it, or --force to start "
                            "over", part);
    return 0;
}

/* The end of a run that did not finish: the .part is kept (closed after
 * a flush) and the reason printed. Returns the exit status. */
static int stopped(run_ctx *c, ns_err e, const ns_error *err, const char *out, double wall, double prior, int force)
{
    const int sig = ns_cli_interrupted();
    ns_error ce = {0};
    const uint64_t kept = ns_h5_sweep_writer_rows(c->w);
    const ns_err cr = ns_h5_sweep_writer_close(c->w, prior + wall, &ce);
    c->w = NULL;
    if (cr)
        return ns_cli_error(CMD, "%s; and %s", c->failed ? c->err.msg : err->msg, ce.msg);
    if (!c->failed && e == NS_EINTR && sig) {
        ns_cli_error(CMD, "stopped by %s after %.1f s; %s.part holds %" PRIu64 " of %" PRIu64 " variants; continue "
                     "with the same command and --resume%s", sig == SIGTERM ? "SIGTERM" : "SIGINT", wall, out, kept,
                     c->total, force ? " instead of --force" : "");
        return 128 + sig;
    }
    return ns_cli_error(CMD, "%s; %s.part keeps the %" PRIu64 " variants done: --resume continues from them",
                        c->failed ? c->err.msg : err->msg, out, kept);
}

/* --resume: the groups of the rows done. The first variant of each group
 * (a row whose group is its own index) is solved again and handed to the
 * grouper, in variant order, so later variants join the groups of the rows
 * before the interruption as in an uninterrupted run. */
typedef struct regroup_ctx {
    const ns_sweep_spec *bc;
    const uint64_t *first;     /* the variants to solve again */
    run_ctx *run;
} regroup_ctx;

static ns_err regroup_build(void *user, uint64_t k, ns_game **g, ns_error *err)
{
    const regroup_ctx *x = user;
    return ns_sweep_build_variant((void *)x->bc, x->first[k], g, err);
}

static int regroup_each(void *user, uint64_t k, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    regroup_ctx *x = user;
    uint64_t first;
    (void)row;
    (void)g;
    if (ns_group_add(x->run->gr, x->first[k], t, &first, &x->run->err) || first != x->first[k]) {
        if (!x->run->err.code)
            ns_error_set(&x->run->err, NS_EINVAL, "variant %" PRIu64 " opens a group in the .part but its table "
                         "equals variant %" PRIu64 "'s", x->first[k], first);
        return 1;
    }
    return 0;
}

static ns_err regroup(ns_sweep_spec *bc, run_ctx *run, int serial, int threads, ns_error *err)
{
    const uint64_t n = run->first;
    int64_t *group = malloc(n * sizeof *group);
    uint64_t *first = malloc(n * sizeof *first), nf = 0;
    ns_err rc = NS_OK;
    if (!group || !first) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory for %" PRIu64 " rows", n);
        goto out;
    }
    if ((rc = ns_h5_sweep_writer_groups(run->w, group, err)))
        goto out;
    for (uint64_t i = 0; i < n; i++) {
        if (group[i] < 0 || (uint64_t)group[i] > i || group[group[i]] != group[i]) {
            rc = ns_error_set(err, NS_EINVAL, "the .part's row %" PRIu64 " has group %" PRId64 ": expected the "
                              "index of a row that opens its group, not after it", i, group[i]);
            goto out;
        }
        if ((uint64_t)group[i] == i)
            first[nf++] = i;
    }
    regroup_ctx x = {.bc = bc, .first = first, .run = run};
    const ns_sweep_job job = {.n = nf, .build = regroup_build, .user = &x, .threads = serial ? 1 : threads,
                              .inner_threads = serial ? threads : 1, .each = regroup_each, .each_user = &x};
    rc = ns_sweep_run(&job, NULL, err);
    if (run->err.code)
        rc = ns_error_set(err, run->err.code, "%s", run->err.msg);
out:
    free(group);
    free(first);
    return rc;
}

int ns_cmd_sweep(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 'n'},   {"output", required_argument, NULL, 'o'},
        {"threads", required_argument, NULL, 't'}, {"report", required_argument, NULL, 'r'},
        {"csv", no_argument, NULL, 'C'},          {"help", no_argument, NULL, 'h'},
        {"force", no_argument, NULL, 'f'},       {"resume", no_argument, NULL, 'R'},
        {"keep-tables", no_argument, NULL, 'K'},  {"json", no_argument, NULL, 'J'},
        {"one-at-a-time", no_argument, NULL, 'S'}, {"side-by-side", no_argument, NULL, 'P'},
        {NULL, 0, NULL, 0}};
    ns_error err = {0};
    const char *out = NULL, *size_s = NULL, *threads_s = NULL, *rep = NULL;
    const char *defs[MAX_D];
    int ndefs = 0, csv = 0, json = 0, force = 0, resume = 0, keep = 0, c;
    int mode = 0;   /* 1: one variant at a time, 2: side by side, 0: by size */
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":D:n:o:t:r:fh", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(); return NS_EXIT_OK;
        case 'D':
            if (ndefs >= MAX_D)
                return ns_cli_error(CMD, "too many -D: at most %d parameters", MAX_D);
            defs[ndefs++] = optarg;
            break;
        case 'n': size_s = optarg; break;
        case 'o': out = optarg; break;
        case 't': threads_s = optarg; break;
        case 'r': rep = optarg; break;
        case 'C': csv = 1; break;
        case 'f': force = 1; break;
        case 'R': resume = 1; break;
        case 'K': keep = 1; break;
        case 'J': json = 1; break;
        case 'S':
        case 'P':
            if (mode && mode != (c == 'S' ? 1 : 2))
                return ns_cli_error(CMD, "--one-at-a-time and --side-by-side: expected one of them");
            mode = c == 'S' ? 1 : 2;
            break;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (rep) {
        if (optind < argc || ndefs || out || size_s || threads_s || resume || keep || force || mode)
            return ns_cli_error(CMD, "--report FILE takes only --csv or --json: expected 'nimsieve sweep --report FILE [--csv | --json]'");
        if (csv && json)
            return ns_cli_error(CMD, "--csv and --json: expected one of them");
        return report(rep, csv, json);
    }
    if (csv || json)
        return ns_cli_error(CMD, "--%s goes with --report FILE (the sweep itself writes HDF5 with -o)", csv ? "csv" : "json");
    if (optind >= argc)
        return ns_cli_error(CMD, "missing game: expected a preset or rule file, as in 'nimsieve sweep a-wythoff -D "
                                 "a=1..10 --size 1024 -o sweep.h5'");
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s': expected one game", argv[optind + 1]);
    const char *spec = argv[optind];
    if (!size_s)
        return ns_cli_error(CMD, "missing --size N: expected the heap sizes per pile");
    if (!out)
        return ns_cli_error(CMD, "missing -o FILE: expected the HDF5 file to write");
    if (resume && force)
        return ns_cli_error(CMD, "--resume and --force exclude each other: --resume continues %s.part, --force "
                            "starts over", out);
    /* under MPI only rank 0 (the manager) touches the files */
    const int manager = ns_dist_rank() == 0;
    if (manager && !force && access(out, F_OK) == 0)
        return resume ? ns_cli_error(CMD, "'%s' is a finished sweep already: nothing to resume (--force starts over)",
                                     out)
                      : ns_cli_error(CMD, "'%s' exists: use --force to overwrite it", out);
    if (manager && part_check(out, resume, force))
        return NS_EXIT_ERROR;
    int64_t size, threads = 0;
    if (ns_cli_parse_int(size_s, "--size", 1, MAX_SIZE_1, &size, &err) ||
        (threads_s && ns_cli_parse_int(threads_s, "--threads", 1, MAX_THREADS, &threads, &err)))
        return ns_cli_error(CMD, "%s", err.msg);
    if (!threads)
        threads = ns_omp_max_threads();

    int rc = NS_EXIT_OK;
    ns_sweep_ranges *r = ns_sweep_ranges_new();
    if (!r)
        return ns_cli_error(CMD, "out of memory");
    char ranges[NS_H5_SWEEP_TEXT_LEN] = "", names[NS_H5_SWEEP_TEXT_LEN] = "";
    size_t ur = 0, un = 0;
    for (int i = 0; i < ndefs; i++) {
        if (ns_sweep_ranges_add(r, defs[i], &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto done;
        }
        if (ur < sizeof ranges)
            ur += (size_t)snprintf(ranges + ur, sizeof ranges - ur, "%s-D %s", i ? " " : "", defs[i]);
        if (un < sizeof names)
            un += (size_t)snprintf(names + un, sizeof names - un, "%s%s", i ? "," : "", r->ax[i].name);
    }
    /* every variant's game built (not solved) before any work: unknown
     * parameters, values the game refuses, the number of piles */
    ns_sweep_spec bc = {.spec = spec, .r = r, .size = size};
    int piles = 0;
    for (uint64_t i = 0; i < r->nvariants; i++) {
        ns_game *g = NULL;
        ns_params ps;
        char ptext[NS_H5_SWEEP_PARAMS_LEN];
        if (ns_sweep_ranges_variant(r, i, &ps, &err) || ns_game_build(spec, &ps, 0, &g, &err)) {
            ns_params_format(&ps, ptext, sizeof ptext);
            rc = ns_cli_error(CMD, "%s (variant %s)", err.msg, ptext);
            goto done;
        }
        const int k = g->k;
        ns_game_free(g);
        if (k != 1 && k != 2) {
            rc = ns_cli_error(CMD, "%s has %d piles: a sweep takes one- or two-pile games", spec, k);
            goto done;
        }
        if (i == 0)
            piles = k;
        else if (k != piles) {
            rc = ns_cli_error(CMD, "the variants of %s have %d and %d piles: expected the same for all", spec, piles, k);
            goto done;
        }
    }
    if (piles == 2 && size > MAX_SIZE_2) {
        rc = ns_cli_error(CMD, "--size %" PRId64 ": two-pile variants take at most %" PRId64, size, MAX_SIZE_2);
        goto done;
    }
    const size_t n = (size_t)r->nvariants;
    ns_h5_sweep s = {.piles = piles, .size = size, .threads = (int)threads, .n = n,
                     .mpi_ranks = ns_dist_is_mpi_build() ? ns_dist_size() : 0};
    snprintf(s.game, sizeof s.game, "%s", spec);
    snprintf(s.ranges, sizeof s.ranges, "%s", ranges);
    snprintf(s.parameters, sizeof s.parameters, "%s", names);
    run_ctx run = {.r = r, .keep = keep, .total = n};
    double prior = 0;
    if (!(run.gr = ns_group_new())) {
        rc = ns_cli_error(CMD, "out of memory");
        goto done;
    }
    /* large variants (LARGE_CELLS cells or more) one at a time with all
     * threads, small ones side by side, one per thread */
    const double cells = piles == 1 ? (double)size : (double)size * (double)size;
    const int serial = mode ? mode == 1 : cells >= LARGE_CELLS;
    if (manager) {
        int rebuilt = 0;
        if (resume ? ns_h5_sweep_writer_reopen(out, &s, keep, &run.first, &prior, &rebuilt, &run.w, &err)
                   : ns_h5_sweep_writer_create(out, &s, keep, &run.w, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
        } else {
            if (resume && rebuilt)
                printf("resuming from %s.part.rows: %s.part could not be opened (a kill during a flush?) and was "
                       "made again from its journal: %" PRIu64 " of %zu variants done (the time before is not "
                       "recorded there)\n", out, out, run.first, n);
            else if (resume)
                printf("resuming from %s.part: %" PRIu64 " of %zu variants done (%.1f s before)\n", out, run.first,
                       n, prior);
            fflush(stdout);
            if (resume && run.first && regroup(&bc, &run, serial, (int)threads, &err)) {
                rc = ns_cli_error(CMD, "%s", err.msg);
                ns_error e2 = {0};
                ns_h5_sweep_writer_close(run.w, prior, &e2);
                run.w = NULL;
            }
        }
    }
    /* every rank ready, or every rank stops here (no rank waits for one that left) */
    if (ns_cli_dist_agree(rc) != NS_EXIT_OK) {
        if (run.w) {
            /* another rank failed before any work: a new .part goes, a
             * resumed one stays as it was */
            ns_error e2 = {0};
            ns_h5_sweep_writer_close(run.w, prior, &e2);
            run.w = NULL;
            char part[4096];
            if (!resume && (size_t)snprintf(part, sizeof part, "%s.part", out) < sizeof part)
                remove(part);
            if (!resume && (size_t)snprintf(part, sizeof part, "%s.part.rows", out) < sizeof part)
                remove(part);
        }
        rc = rc ? rc : NS_EXIT_ERROR;
        goto done;
    }
    run.next = run.first;
    ns_cli_catch_sigint();
    run.tty = isatty(STDERR_FILENO);
    const double t0 = run.start = ns_cli_now();
    const ns_sweep_job job = {.first = run.first, .n = n, .build = ns_sweep_build_variant, .user = &bc,
                              .threads = serial ? 1 : (int)threads, .inner_threads = serial ? (int)threads : 1,
                              .each = on_each, .each_user = &run, .progress = on_progress, .progress_user = &run};
    /* one process: ns_sweep_run; under MPI a manager rank and workers */
    const ns_err e = ns_dist_sweep_run(&job, NULL, &err);
    const double wall = ns_cli_now() - t0;
    if (!manager) {
        /* a worker: the manager reports and writes */
        if (e)
            rc = ns_cli_error(CMD, "%s", err.msg);
        goto done;
    }
    if (run.drawn) {
        draw_progress(&run, 1);
        fputc('\n', stderr);
    }
    if (e || run.next != n) {
        rc = stopped(&run, e ? e : NS_EINTR, &err, out, wall, prior, force);
        goto done;
    }
    if (ns_h5_sweep_writer_finish(run.w, prior + wall, (int)threads, &err)) {
        run.w = NULL;
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto done;
    }
    run.w = NULL;
    /* the summary of the whole catalogue (rows of earlier runs too) */
    ns_h5_sweep *back = NULL;
    if (ns_h5_sweep_read(out, &back, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto done;
    }
    size_t nproven = 0, nperiodic = 0, nfit = 0;
    for (size_t i = 0; i < back->n; i++) {
        nproven += back->rows[i].proven != 0;
        nperiodic += back->rows[i].period > 0;
        nfit += !isnan(back->rows[i].slope_a) && !isnan(back->rows[i].slope_b);
    }
    ns_h5_sweep_free(back);
    printf("sweep:         %s%s%s, %zu variant%s, %s %" PRId64 "\n", spec, ranges[0] ? " " : "", ranges, n,
           n == 1 ? "" : "s", piles == 1 ? "heap sizes 0 ..": "box [0,N)^2, N =", piles == 1 ? size - 1 : size);
    const size_t ngroups = ns_group_count(run.gr);
    printf("groups:        %zu distinct table%s among %zu variant%s\n", ngroups, ngroups == 1 ? "" : "s", n,
           n == 1 ? "" : "s");
    if (piles == 1)
        printf("periods:       %zu proven, %zu observed, not proven, %zu none found\n", nproven, nperiodic - nproven,
               n - nperiodic);
    else
        printf("slopes:        %zu of %zu variants fitted (P-positions above the diagonal as one sequence)\n", nfit, n);
    if (ns_dist_size() > 1)
        printf("time:          %.2f s on %d ranks (1 manager, %d worker%s) x %d thread%s, %s", wall, ns_dist_size(),
               ns_dist_size() - 1, ns_dist_size() == 2 ? "" : "s", (int)threads, threads == 1 ? "" : "s",
               serial ? "variants one at a time on each worker" : "variants side by side, one per thread");
    else
        printf("time:          %.2f s on %d thread%s, %s", wall, (int)threads, threads == 1 ? "" : "s",
               serial ? "variants one at a time, each with all threads" : "variants side by side, one per thread");
    if (resume)
        printf(" (%.2f s in all, with the runs before the resume)", prior + wall);
    printf("\n");
    printf("file:          %s (nimsieve sweep --report %s)\n", out, out);
done:
    ns_group_free(run.gr);
    ns_sweep_ranges_free(r);
    return rc;
}
