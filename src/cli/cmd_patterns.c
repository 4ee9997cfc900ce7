/* cmd_patterns.c - `nimsieve patterns FILE.h5`: structure in a table. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_seq.h"
#include "cli/cli_util.h"
#include "game/ns_build.h"
#include "store/ns_h5.h"
#include "analysis/ns_patterns.h"

static const char *const CMD = "patterns";

static void usage(void)
{
    printf("usage: nimsieve patterns FILE.h5 [--json] [--rows N] [--values K] [--period-max P]\n"
           "\n"
           "Look for structure in a table. A loopy game's P/N/D table: the counts of\n"
           "  P-positions, N-positions and draws, then the analyses of the P-positions\n"
           "  (a draw is neither P nor N).\n"
           "One pile: eventual periodicity G(n+p) = G(n) + s for n >= n0 (preperiod n0,\n"
           "  period p, saltus s; s = 0 is plain periodicity), smallest p first. A period\n"
           "  is reported as proven only when the game's moves are a finite subtraction\n"
           "  set S and the table covers the proof rule: G(n+p) = G(n) for\n"
           "  n0 <= n < n0 + max(S) implies it for all n >= n0 (Winning Ways, ch. 4);\n"
           "  otherwise as observed only, with the reason.\n"
           "Two piles: for each row x, additive periodicity G(x, y+p) = G(x, y) + p for\n"
           "  y >= y0 as seen in the table; the P-positions above the diagonal as a\n"
           "  sequence (a_n, b_n): differences, complementarity, GSL least-squares slopes\n"
           "  with standard errors, the exact interval of alpha with a_n = floor(n alpha)\n"
           "  (its ends as fractions and continued fractions), and the simplest constant\n"
           "  in it: the rational or quadratic irrational (p + q sqrt(d)) / r of smallest\n"
           "  height (the largest coefficient of its minimal polynomial; phi: x^2-x-1,\n"
           "  height 1), checked in exact integers to lie in the interval; 'no simple\n"
           "  constant found' when none of height <= 100 does, or when an interval this\n"
           "  wide would hold one that simple by chance (more than 5%%); the cells of\n"
           "  each value g <= K and their distance from the two lines the P-positions\n"
           "  lie on.\n"
           "\n"
           "options:\n"
           "  --json           machine-readable output (every row, every pair)\n"
           "  --rows N         rows shown in the text output (default 16)\n"
           "  --values K       g-values 0..K (default 3)\n"
           "  --period-max P   largest period searched (default: the table's length)\n"
           "  -h, --help       this help\n"
           "\n"
           "example:\n"
           "  nimsieve patterns wythoff.h5\n");
}

typedef struct pat_opts {
    int json;
    int64_t rows, values, pmax;
} pat_opts;

/* ---- text ---- */

static void print_seq(const char *label, const int64_t *v, int64_t n, int64_t shown)
{
    printf("%s", label);
    for (int64_t i = 0; i < n && i < shown; i++)
        printf(" %" PRId64, v[i]);
    printf("%s\n", n > shown ? " ..." : "");
}

static void print_cf(const int64_t *cf, int n, int more)
{
    printf("[");
    for (int i = 0; i < n; i++)
        printf("%s%" PRId64, i == 0 ? "" : i == 1 ? "; " : ", ", cf[i]);
    printf("%s]", more ? ", ..." : "");
}

static void print_poly(const ns_qnumber *x)
{
    const int64_t *c = x->poly;
    int first = 1;
    for (int i = 0; i < 3; i++) {
        if (c[i] == 0)
            continue;
        int64_t a = c[i] < 0 ? -c[i] : c[i];
        printf("%s", c[i] < 0 ? (first ? "-" : " - ") : (first ? "" : " + "));
        if (a != 1 || i == 2)
            printf("%" PRId64, a);
        printf("%s", i == 0 ? "x^2" : i == 1 ? "x" : "");
        first = 0;
    }
    printf(" = 0");
}

/* The constant found in an interval and the evidence: the interval's ends
 * (exact fractions when exact != 0) with their continued fractions, the
 * constant's own continued fraction, its height and the chance of a hit. */
static void print_recog(const char *indent, const ns_recog *r, int exact)
{
    if (r->iv.lo_den == 0) {
        printf("%sconstant: none (no interval: too few points)\n", indent);
        return;
    }
    if (exact) {
        printf("%sinterval ends: %" PRId64 "/%" PRId64 " = ", indent, r->iv.lo_num, r->iv.lo_den);
        print_cf(r->cf_lo, r->ncf_lo, r->cf_lo_more);
        printf(" and %" PRId64 "/%" PRId64 " = ", r->iv.hi_num, r->iv.hi_den);
        print_cf(r->cf_hi, r->ncf_hi, r->cf_hi_more);
        printf("; shared terms ");
        print_cf(r->cf, r->nterms, 0);
        printf("\n");
    } else {
        printf("%sinterval (slope +- 3 standard errors): [%.12g, %.12g]; continued fraction terms shared by its ends ", indent,
               (double)r->iv.lo_num / (double)r->iv.lo_den, (double)r->iv.hi_num / (double)r->iv.hi_den);
        print_cf(r->cf, r->nterms, 0);
        printf("\n");
    }
    if (r->kind != NS_RECOG_NONE) {
        const ns_qnumber *c = &r->c;
        printf("%sconstant: %s%s = %.12g = ", indent, r->kind == NS_RECOG_RATIONAL ? "observed: the rational " : "", c->text,
               c->value);
        if (r->kind == NS_RECOG_QUADRATIC) {
            printf("[");
            for (int i = 0; i < r->pre; i++)
                printf("%s%" PRId64, i == 0 ? "" : i == 1 ? "; " : ", ", r->ccf[i]);
            printf("%s(", r->pre == 0 ? "" : r->pre == 1 ? "; " : ", ");
            for (int i = r->pre; i < r->pre + r->per; i++)
                printf("%s%" PRId64, i == r->pre ? "" : ", ", r->ccf[i]);
            printf(")]");
        } else {
            print_cf(r->ccf, r->ccf_n, 0);
        }
        printf(", in the interval (exact); the simplest number there: height %" PRId64 " (", c->height);
        print_poly(c);
        printf("); by chance an interval this wide holds %.2g numbers that simple on average\n", r->chance);
        if (r->rivals > 0)
            printf("%s  not unique: %d other number%s of height %" PRId64 " also lie%s in the interval, e.g. %s\n", indent,
                   r->rivals, r->rivals == 1 ? "" : "s", c->height, r->rivals == 1 ? "s" : "", r->rival.text);
        return;
    }
    if (r->have_simplest)
        printf("%sconstant: no simple constant found: the simplest number in the interval, %s, has height %" PRId64
               ", but by chance an interval this wide holds %.2g numbers that simple on average (more than %g)\n",
               indent, r->simplest.text, r->simplest.height, r->chance, NS_CONSTANT_CHANCE);
    else if (r->chance > NS_CONSTANT_CHANCE)
        printf("%sconstant: no simple constant found: none of height <= %" PRId64
               " lies in the interval, and one of greater height would be chance (an interval this wide holds %.2g on average)\n",
               indent, r->searched_to, r->chance);
    else
        printf("%sconstant: no simple constant found (no rational or quadratic irrational of height <= %" PRId64
               " lies in the interval)\n",
               indent, r->searched_to);
}

static void print_fit(const char *name, const ns_fit *f)
{
    if (!f->ok) {
        printf("  %s: too few points for a fit\n", name);
        return;
    }
    printf("  %s: slope %.9f +- %.2g (GSL least squares over %zu points, intercept %.4f)\n", name, f->slope,
           f->slope_se, f->npoints, f->intercept);
}

/* The line, or the lines (one per direction), of a set of points. */
static void print_lines(const char *name, const ns_lines *l)
{
    if (!l->ok) {
        printf("  %s: too few points for a fit\n", name);
        return;
    }
    if (l->nlines < 2) {
        printf("  %s: one line: slope %.9f +- %.2g, intercept %.4f, scatter %.2g%%, %" PRIu64 " points%s\n", name,
               l->all.slope, l->all.sd, l->all.intercept, 100 * l->all.scatter, l->all.n,
               l->all.scatter >= NS_LINES_SCATTER ? " (they fill an area, not a line)" : "");
        if (l->all.scatter < NS_LINES_SCATTER)
            print_recog("    ", &l->all.rec, 0);
        return;
    }
    printf("  %s: the points lie on %d lines, not one (one line leaves a scatter of %.2g%%):\n", name, l->nlines,
           100 * l->all.scatter);
    for (int j = 0; j < l->nlines; j++) {
        const ns_line *lj = &l->line[j];
        printf("    line %d: slope %.9f +- %.2g, intercept %.4f, scatter %.2g%%, %s%" PRIu64 " points%s\n", j + 1,
               lj->slope, lj->sd, lj->intercept, 100 * lj->scatter, l->used < l->n ? "about " : "", lj->n,
               lj->scatter >= NS_LINES_SCATTER ? " (they fill an area, not a line)" : "");
        if (lj->scatter < NS_LINES_SCATTER)
            print_recog("      ", &lj->rec, 0);
    }
}

/* the line "sequence:", the first 40 values */
static void text_sequence(const ns_table *t, int loopy)
{
    int64_t n = t->bounds[0];
    printf("sequence:    ");
    for (int64_t i = 0; i < n && i < 40; i++) {
        uint32_t v = ns_table_get(t, (uint64_t)i);
        if (v == ns_table_invalid(t))
            printf(" -");
        else
            printf(" %" PRIu32, t->pn_only ? (v == NS_PN_DRAW ? 3u : v ? 1u : 0u) : v);
    }
    printf("%s%s\n", n > 40 ? " ..." : "", loopy ? "   (P/N/D: 0 = P, 1 = N, 3 = draw)" : t->pn_only ? "   (P/N: 0 = P, 1 = N)" : "");
}

static void text_one_pile(const ns_table *t, const ns_period *p, int loopy)
{
    const int64_t n = t->bounds[0];
    text_sequence(t, loopy);
    if (!p->found) {
        printf("period:      none found within the table (n < %" PRId64 ")\n", n);
        return;
    }
    if (p->saltus == 0)
        printf("period:      %" PRId64 ", preperiod %" PRId64 ": G(n+%" PRId64 ") = G(n) for n >= %" PRId64 "\n", p->period,
               p->preperiod, p->period, p->preperiod);
    else
        printf("period:      arithmetic: period %" PRId64 ", saltus %" PRId64 ", preperiod %" PRId64 ": G(n+%" PRId64
               ") = G(n) + %" PRId64 " for n >= %" PRId64 "\n",
               p->period, p->saltus, p->preperiod, p->period, p->saltus, p->preperiod);
    if (p->proven)
        printf("status:      proven (checked up to n = %" PRId64 "; the rule needs n <= %" PRId64 ")\n", p->table_to,
               p->proof_needs);
    else
        printf("status:      observed only (checked up to n = %" PRId64 ")\n", p->table_to);
    printf("rule:        %s\n", p->rule);
}

static void text_rows(const ns_row_period *rows, int64_t n1, int64_t n2, int64_t shown)
{
    int64_t nf = 0;
    for (int64_t x = 0; x < n1; x++)
        nf += rows[x].found;
    printf("additive periodicity per row, G(x, y+p) = G(x, y) + p for y >= y0 (observed):\n");
    printf("  rows with a period: %" PRId64 " of %" PRId64 " (p <= %" PRId64 ", seen over two periods and a quarter of the row)\n",
           nf, n1, n2 / 3);
    for (int64_t x = 0; x < n1 && x < shown; x++) {
        if (rows[x].found)
            printf("  x = %" PRId64 ": y0 = %" PRId64 ", p = %" PRId64 "\n", x, rows[x].y0, rows[x].p);
        else
            printf("  x = %" PRId64 ": none found within the table\n", x);
    }
    if (n1 > shown)
        printf("  ... (--rows N shows more; --json gives all)\n");
}

static void text_pseq(const ns_pseq *s)
{
    printf("P-positions as sequences (a_n, b_n), a_n < b_n, inside [0,%" PRId64 ")^2:\n", s->square);
    if (!s->ok) {
        printf("  not a sequence: %s\n", s->why_not);
        return;
    }
    printf("  pairs: %" PRId64 "; (0, 0) is %s; %" PRId64 " P-position%s (x, x), x > 0\n", s->n, s->origin_p ? "P" : "N",
           s->diagonal, s->diagonal == 1 ? "" : "s");
    print_seq("  a_n:", s->a, s->n, 16);
    print_seq("  b_n:", s->b, s->n, 16);
    int64_t d[16];
    for (int64_t i = 0; i < s->n && i < 16; i++)
        d[i] = s->b[i] - s->a[i];
    print_seq("  b_n - a_n:", d, s->n, 16);
    if (s->diff_is_index && s->diff_step == 1)
        printf("  differences: b_n - a_n = n for every n\n");
    else if (s->diff_is_index)
        printf("  differences: b_n - a_n = %" PRId64 " n for every n\n", s->diff_step);
    else
        printf("  differences: %s\n", s->diff_increasing ? "strictly increasing" : "not monotone");
    if (s->complementary)
        printf("  complementary: yes: every integer 1..%" PRId64 " is exactly one a_n or b_n (no value twice)\n", s->cover_to);
    else if (s->repeated >= 0)
        printf("  complementary: no: %" PRId64 " occurs twice\n", s->repeated);
    else
        printf("  complementary: no: 1 is missing\n");
    const char *nm[2] = {"a_n", "b_n"};
    const ns_fit *f[2] = {&s->fit_a, &s->fit_b};
    const int beatty[2] = {s->beatty_a, s->beatty_b};
    const double *br[2] = {s->bracket_a, s->bracket_b};
    const ns_recog *rc[2] = {&s->rec_a, &s->rec_b};
    for (int i = 0; i < 2; i++) {
        print_fit(nm[i], f[i]);
        if (beatty[i])
            printf("    %s = floor(n alpha) for every n exactly when %.12f <= alpha < %.12f\n", nm[i], br[i][0], br[i][1]);
        else
            printf("    %s is not floor(n alpha) for any one alpha\n", nm[i]);
        print_recog("    ", rc[i], beatty[i]);
    }
    if (s->beatty_sum > 0)
        printf("  1/slope(a_n) + 1/slope(b_n) = %.6f%s\n", s->beatty_sum,
               s->complementary && s->beatty_sum > 0.999 && s->beatty_sum < 1.001 ? " (a Beatty pair)" : "");
    if (s->lines.nlines >= 2) {
        print_fit("b_n against a_n (one line through all the pairs)", &s->fit_line);
        print_lines("b_n against a_n", &s->lines);
    } else {
        print_fit("b_n against a_n (the 0-lines y = l x and y = x / l)", &s->fit_line);
        print_recog("    ", &s->rec_line, 0);
        if (s->lines.ok && s->lines.all.scatter >= NS_LINES_SCATTER)
            printf("    the pairs fill an area about this line (scatter %.2g%%), they do not lie on it\n",
                   100 * s->lines.all.scatter);
    }
    if (s->p_symmetric)
        printf("  below the diagonal: the mirror images (y, x) of the pairs, as the table is symmetric in its P-positions\n");
    else {
        printf("  below the diagonal: %" PRId64 " P-positions (x, y), y < x, not the mirror images of those above\n", s->below);
        if (s->lines_below.ok)
            print_lines("y against x below the diagonal", &s->lines_below);
    }
}

static void text_gvalues(const ns_gvalue *gv, int64_t K, double l, int64_t S)
{
    printf("g-values: cells of value g in [0,%" PRId64 ")^2 and their distance from the nearer 0-line (l = %.6f):\n", S, l);
    for (int64_t g = 0; g <= K; g++)
        printf("  g = %" PRId64 ": %" PRIu64 " cells, max distance %.3f at (%" PRId64 ", %" PRId64 "), mean %.3f, max for x+y >= %" PRId64 ": %.3f\n",
               g, gv[g].count, gv[g].max_dist, gv[g].farthest[0], gv[g].farthest[1], gv[g].mean_dist, S / 2,
               gv[g].max_dist_far);
}

/* ---- json ---- */

static void json_fit(const char *key, const ns_fit *f)
{
    printf(", \"%s\": {\"ok\": %s, \"slope\": ", key, f->ok ? "true" : "false");
    ns_json_double(stdout, f->slope);
    printf(", \"slope_se\": ");
    ns_json_double(stdout, f->slope_se);
    printf(", \"intercept\": ");
    ns_json_double(stdout, f->intercept);
    printf(", \"points\": %zu}", f->npoints);
}

static void json_cf(const char *key, const int64_t *cf, int n)
{
    printf(", \"%s\": [", key);
    for (int i = 0; i < n; i++)
        printf("%s%" PRId64, i ? ", " : "", cf[i]);
    printf("]");
}

static void json_lines(const char *key, const ns_lines *l);

static void json_recog(const char *key, const ns_recog *r)
{
    static const char *const kind[] = {"none", "rational", "quadratic"};
    printf(", \"%s\": {\"kind\": \"%s\", \"text\": ", key, kind[r->kind]);
    ns_json_string(stdout, r->kind ? r->c.text : "");
    printf(", \"value\": ");
    ns_json_double(stdout, r->kind ? r->c.value : 0.0);
    if (r->kind)
        printf(", \"p\": %" PRId64 ", \"q\": %" PRId64 ", \"d\": %" PRId64 ", \"r\": %" PRId64 ", \"height\": %" PRId64
               ", \"poly\": [%" PRId64 ", %" PRId64 ", %" PRId64 "], \"cf_preperiod\": %d, \"cf_period\": %d",
               r->c.p, r->c.q, r->c.d, r->c.r, r->c.height, r->c.poly[0], r->c.poly[1], r->c.poly[2], r->pre, r->per);
    if (r->kind)
        json_cf("cf", r->ccf, r->ccf_n);
    printf(", \"simplest_in_interval\": ");
    ns_json_string(stdout, r->have_simplest ? r->simplest.text : "");
    printf(", \"chance\": ");
    ns_json_double(stdout, r->chance);
    printf(", \"rivals\": %d, \"searched_to\": %" PRId64, r->rivals, r->searched_to);
    printf(", \"interval\": {\"lo\": [%" PRId64 ", %" PRId64 "], \"hi\": [%" PRId64 ", %" PRId64 "], \"lo_open\": %s, \"hi_open\": %s}",
           r->iv.lo_num, r->iv.lo_den, r->iv.hi_num, r->iv.hi_den, r->iv.lo_open ? "true" : "false",
           r->iv.hi_open ? "true" : "false");
    json_cf("cf_lo", r->cf_lo, r->ncf_lo);
    json_cf("cf_hi", r->cf_hi, r->ncf_hi);
    json_cf("cf_shared", r->cf, r->nterms);
    printf("}");
}

static void json_array(const char *key, const int64_t *v, int64_t n)
{
    printf(", \"%s\": [", key);
    for (int64_t i = 0; i < n; i++)
        printf("%s%" PRId64, i ? ", " : "", v[i]);
    printf("]");
}

static void json_pseq(const ns_pseq *s)
{
    printf(", \"p_positions\": {\"ok\": %s", s->ok ? "true" : "false");
    if (!s->ok) {
        printf(", \"why_not\": ");
        ns_json_string(stdout, s->why_not);
        printf("}");
        return;
    }
    printf(", \"square\": %" PRId64 ", \"origin_p\": %s, \"diagonal\": %" PRId64 ", \"pairs\": %" PRId64, s->square,
           s->origin_p ? "true" : "false", s->diagonal, s->n);
    json_array("a", s->a, s->n);
    json_array("b", s->b, s->n);
    printf(", \"diff_is_index\": %s, \"diff_step\": %" PRId64 ", \"diff_increasing\": %s", s->diff_is_index ? "true" : "false",
           s->diff_step, s->diff_increasing ? "true" : "false");
    printf(", \"complementary\": %s, \"cover_to\": %" PRId64 ", \"repeated\": %" PRId64, s->complementary ? "true" : "false",
           s->cover_to, s->repeated);
    json_fit("fit_a", &s->fit_a);
    json_fit("fit_b", &s->fit_b);
    json_fit("fit_line", &s->fit_line);
    printf(", \"beatty_a\": %s, \"bracket_a\": [", s->beatty_a ? "true" : "false");
    ns_json_double(stdout, s->bracket_a[0]);
    printf(", ");
    ns_json_double(stdout, s->bracket_a[1]);
    printf("], \"beatty_b\": %s, \"bracket_b\": [", s->beatty_b ? "true" : "false");
    ns_json_double(stdout, s->bracket_b[0]);
    printf(", ");
    ns_json_double(stdout, s->bracket_b[1]);
    printf("]");
    json_recog("constant_a", &s->rec_a);
    json_recog("constant_b", &s->rec_b);
    json_recog("constant_line", &s->rec_line);
    json_lines("lines", &s->lines);
    printf(", \"p_symmetric\": %s, \"below\": %" PRId64, s->p_symmetric ? "true" : "false", s->below);
    json_lines("lines_below", &s->lines_below);
    printf(", \"beatty_sum\": ");
    ns_json_double(stdout, s->beatty_sum);
    printf("}");
}

/* "key": [one object per line: slope, slope_se, intercept, scatter, n,
 * constant]: the one line, or one per direction when the points split. */
static void json_lines(const char *key, const ns_lines *l)
{
    printf(", \"%s\": [", key);
    const int m = !l->ok ? 0 : l->nlines >= 2 ? l->nlines : 1;
    for (int j = 0; j < m; j++) {
        const ns_line *lj = l->nlines >= 2 ? &l->line[j] : &l->all;
        printf("%s{\"slope\": ", j ? ", " : "");
        ns_json_double(stdout, lj->slope);
        printf(", \"slope_se\": ");
        ns_json_double(stdout, lj->sd);
        printf(", \"intercept\": ");
        ns_json_double(stdout, lj->intercept);
        printf(", \"scatter\": ");
        ns_json_double(stdout, lj->scatter);
        printf(", \"n\": %" PRIu64, lj->n);
        json_recog("constant", &lj->rec);
        printf("}");
    }
    printf("]");
}

/* ---- main ---- */

static int run(const char *path, const pat_opts *o)
{
    ns_meta meta = {0}, meta2 = {0};
    ns_error err = {0};
    ns_game *g = NULL;
    ns_table *t = NULL;
    ns_row_period *rows = NULL;
    ns_gvalue *gv = NULL;
    ns_pseq ps = {0};
    int64_t bounds[NS_MAX_DIM];
    int k = 0, rc = NS_EXIT_ERROR;
    if (ns_h5_read_meta(path, &meta, &k, bounds, &err) || ns_h5_read(path, &t, &meta2, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    /* the game is needed for the proof rule of one-pile periods only */
    if (k == 1 && ns_game_from_meta(&meta, k, bounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s: cannot rebuild the game: %s", path, err.msg);
        goto fail;
    }
    char box[256];
    ns_cli_format_box(k, bounds, box, sizeof box);
    const char *gname = meta.game;
    char label[NS_NAME_LEN + 600];
    ns_meta_game_label(&meta, label, sizeof label);
    const char *play = meta.play == NS_PLAY_MISERE ? "misere" : "normal";
    if (o->json) {
        printf("{\"file\": ");
        ns_json_string(stdout, path);
        printf(", \"game\": ");
        ns_json_string(stdout, gname);
        printf(", \"rule_file\": ");
        if (meta.rules_text)
            ns_json_string(stdout, meta.rules_file);
        else
            printf("null");
        printf(", \"params\": ");
        ns_json_string(stdout, meta.params);
        printf(", \"play\": \"%s\", \"pn_only\": %s, \"bounds\": [", play, t->pn_only ? "true" : "false");
        for (int d = 0; d < k; d++)
            printf("%s%" PRId64, d ? ", " : "", bounds[d]);
        printf("]");
    } else {
        printf("file:        %s: %s%s%s, %s, %s, %s play\n", path, label,
               meta.params[0] ? " " : "", meta.params, box, t->pn_only ? (meta2.loopy ? "P/N/draw" : "P/N") : "Grundy values", play);
    }
    /* a loopy game's P/N/D table: the counts, and that the patterns below
     * are those of the P-positions (a draw is neither P nor N) */
    const int loopy = t->pn_only && meta2.loopy;
    if (loopy) {
        uint64_t np = 0, nn = 0, nd = 0;
        const uint32_t inval = ns_table_invalid(t);
        for (uint64_t i = 0; i < t->ncells; i++) {
            uint32_t v = ns_table_get(t, i);
            np += v == NS_PN_P;
            nd += v == NS_PN_DRAW;
            nn += v != NS_PN_P && v != NS_PN_DRAW && v != inval;
        }
        if (o->json)
            printf(", \"loopy\": {\"p_positions\": %" PRIu64 ", \"n_positions\": %" PRIu64 ", \"draws\": %" PRIu64 "}", np, nn, nd);
        else
            printf("loopy game:  %" PRIu64 " P-positions, %" PRIu64 " N-positions, %" PRIu64
                   " draws; the patterns below are those of the P-positions (a draw is neither P nor N)\n", np, nn, nd);
    }
    if (k == 1 && g && g->octal && !t->pn_only) {
        /* a heap game's sequence: the octal periodicity theorem, saltus */
        if (o->json)
            printf(", \"one_pile\": {");
        else
            text_sequence(t, loopy);
        if ((rc = ns_cli_seq_patterns(CMD, g, t, o->json)) != NS_EXIT_OK)
            goto fail;
        rc = NS_EXIT_ERROR;
        if (o->json)
            printf("}");
    } else if (k == 1) {
        ns_period p;
        if (ns_patterns_period(g, t, o->pmax, &p, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto fail;
        }
        if (o->json) {
            printf(", \"one_pile\": {\"found\": %s", p.found ? "true" : "false");
            if (p.found)
                printf(", \"preperiod\": %" PRId64 ", \"period\": %" PRId64 ", \"saltus\": %" PRId64 ", \"proven\": %s, \"verified\": %" PRId64
                       ", \"smax\": %" PRId64 ", \"proof_needs\": %" PRId64 ", \"table_to\": %" PRId64 ", \"rule\": ",
                       p.preperiod, p.period, p.saltus, p.proven ? "true" : "false", p.verified, p.smax, p.proof_needs,
                       p.table_to);
            if (p.found)
                ns_json_string(stdout, p.rule);
            printf("}");
        } else {
            text_one_pile(t, &p, loopy);
        }
    } else if (k == 2) {
        const int64_t N1 = bounds[0], N2 = bounds[1];
        if (!t->pn_only) {
            rows = calloc((size_t)N1, sizeof *rows);
            if (!rows) {
                rc = ns_cli_error(CMD, "out of memory");
                goto fail;
            }
            if (ns_patterns_additive_rows(t, o->pmax, rows, &err)) {
                rc = ns_cli_error(CMD, "%s", err.msg);
                goto fail;
            }
            if (o->json) {
                printf(", \"rows\": {\"searched\": %" PRId64 ", \"found\": [", N1);
                int first = 1;
                for (int64_t x = 0; x < N1; x++)
                    if (rows[x].found) {
                        printf("%s{\"x\": %" PRId64 ", \"y0\": %" PRId64 ", \"p\": %" PRId64 ", \"verified\": %" PRId64 "}",
                               first ? "" : ", ", x, rows[x].y0, rows[x].p, rows[x].verified);
                        first = 0;
                    }
                printf("]}");
            } else {
                text_rows(rows, N1, N2, o->rows);
            }
        } else if (!o->json) {
            printf("additive periodicity per row: needs Grundy values (this table holds P/N flags only)\n");
        }
        if (ns_patterns_pseq(t, &ps, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto fail;
        }
        if (o->json)
            json_pseq(&ps);
        else
            text_pseq(&ps);
        double l = ps.ok && ps.fit_line.ok ? ps.fit_line.slope : 0.0;
        if (ps.ok && ps.rec_line.kind == NS_RECOG_QUADRATIC)
            l = ps.rec_line.c.value;
        const char *skip = t->pn_only ? "needs Grundy values (this table holds P/N flags only)"
                           : !(l > 1.0) ? "no 0-lines: the P-positions do not form a sequence with slope > 1"
                           : ps.lines.nlines >= 2 ? "no distances: the P-positions above the diagonal lie on several lines, not on one 0-line y = l x"
                           : !ps.p_symmetric ? "no distances: the P-positions are not symmetric, so y = x / l is not their line below the diagonal"
                           : ps.lines.all.scatter >= NS_LINES_SCATTER ? "no distances: the P-positions fill an area, not a line"
                                        : NULL;
        if (!skip) {
            gv = calloc((size_t)o->values + 1, sizeof *gv);
            if (!gv) {
                rc = ns_cli_error(CMD, "out of memory");
                goto fail;
            }
            if (ns_patterns_gvalues(t, l, (uint32_t)o->values, gv, &err)) {
                rc = ns_cli_error(CMD, "%s", err.msg);
                goto fail;
            }
            if (o->json) {
                printf(", \"g_values\": {\"line_slope\": ");
                ns_json_double(stdout, l);
                printf(", \"values\": [");
                for (int64_t v = 0; v <= o->values; v++) {
                    printf("%s{\"g\": %" PRId64 ", \"count\": %" PRIu64 ", \"max_distance\": ", v ? ", " : "", v, gv[v].count);
                    ns_json_double(stdout, gv[v].max_dist);
                    printf(", \"mean_distance\": ");
                    ns_json_double(stdout, gv[v].mean_dist);
                    printf(", \"max_distance_far\": ");
                    ns_json_double(stdout, gv[v].max_dist_far);
                    printf(", \"farthest\": [%" PRId64 ", %" PRId64 "]}", gv[v].farthest[0], gv[v].farthest[1]);
                }
                printf("]}");
            } else {
                text_gvalues(gv, o->values, l, ps.square);
            }
        } else if (!o->json) {
            printf("g-values: %s\n", skip);
        }
    } else if (!o->json) {
        printf("patterns: the analysis covers one- and two-pile tables; this one has %d piles\n", k);
    }
    if (o->json)
        printf("}\n");
    rc = NS_EXIT_OK;
fail:
    free(rows);
    free(gv);
    ns_pseq_free(&ps);
    ns_table_free(t);
    ns_game_free(g);
    ns_meta_free(&meta);
    ns_meta_free(&meta2);
    return rc;
}

int ns_cmd_patterns(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"rows", required_argument, NULL, 'r'},
        {"values", required_argument, NULL, 'v'},
        {"period-max", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    pat_opts o = {0, 16, 3, 0};
    ns_error err = {0};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j': o.json = 1; break;
        case 'r':
            if (ns_cli_parse_int(optarg, "--rows", 0, INT64_MAX, &o.rows, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            break;
        case 'v':
            if (ns_cli_parse_int(optarg, "--values", 0, 1000, &o.values, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            break;
        case 'p':
            if (ns_cli_parse_int(optarg, "--period-max", 1, INT64_MAX, &o.pmax, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            break;
        case 'h': usage(); return NS_EXIT_OK;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (argc - optind != 1)
        return ns_cli_error(CMD, "expected 'nimsieve patterns FILE.h5' (see 'nimsieve patterns --help')");
    return run(argv[optind], &o);
}
