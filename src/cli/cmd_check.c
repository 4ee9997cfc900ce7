/* cmd_check.c - `nimsieve check THEOREM FILE.h5`: a closed form against every
 * cell of a table. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_util.h"
#include "game/ns_build.h"
#include "analysis/ns_check.h"
#include "analysis/ns_exact.h"
#include "store/ns_h5.h"

static const char *const CMD = "check";

static void usage(void)
{
    printf("usage: nimsieve check THEOREM FILE.h5 [--json] [--component C.h5 ...]\n"
           "       nimsieve check --list\n"
           "\n"
           "Compare a closed-form theorem with every position of a table and list the\n"
           "first ten mismatches. The closed forms use exact integer arithmetic (128-bit\n"
           "where needed). A theorem applies to tables of its preset, and says why when\n"
           "it does not. A table solved from a rule file applies when the rule text\n"
           "(stored in the file) is byte for byte one of data/rules/ that implements a\n"
           "preset (its 'game' statement names it: nim, wythoff, a-wythoff, bash,\n"
           "subtraction, moore, staircase, euclid, fibonacci-nim): it is then checked as\n"
           "that preset, with the file's parameters mapped (nim's and staircase's k and\n"
           "moore's n are piles, S is set), because tests/unit/test_rules_presets.c\n"
           "proves each such file gives the preset's table cell by cell. A variant or\n"
           "an edited copy is refused.\n"
           "\n"
           "theorems:\n");
    for (const ns_check_theorem *const *t = ns_check_theorems; *t; t++)
        printf("  %-19s %s\n", (*t)->name, (*t)->summary);
    printf("\n"
           "wythoff-golden also reports where the book's formula x == floor((y-x)*phi),\n"
           "evaluated in double (and long double), first disagrees with the exact value,\n"
           "searching n <= 10^15 (10^18) by the three-gap theorem.\n"
           "sprague-grundy-sum takes the components from the table's own axes when the\n"
           "game moves one pile at a time; with --component (one 1-pile Grundy table for\n"
           "all piles, or one per pile) it checks any Grundy table against them.\n"
           "\n"
           "options:\n"
           "  --json             machine-readable output\n"
           "  --component C.h5   a component table (repeatable; sprague-grundy-sum)\n"
           "  --list             list the theorems\n"
           "  -h, --help         this help\n"
           "\n"
           "exit status: 0 every position agrees, 1 some mismatch, 2 the theorem does not\n"
           "apply to the file, or an error.\n"
           "\n"
           "example:\n"
           "  nimsieve check wythoff-golden wythoff.h5\n");
}

static void describe_probe(const ns_phi_probe *p, const char *type, FILE *out)
{
    if (!p->found) {
        fprintf(out, "  in %s (%d-bit mantissa): agrees with the exact value for every n <= %" PRId64 "\n", type,
                p->mantissa_bits, p->searched_to);
        return;
    }
    int fib = -1;
    for (int i = 2; i <= NS_FIB_MAX; i++)
        if (ns_fib(i) == p->n)
            fib = i;
    char fibtxt[32] = "";
    if (fib > 0)
        snprintf(fibtxt, sizeof fibtxt, " (= F_%d)", fib);
    fprintf(out, "  in %s (%d-bit mantissa): first wrong at n = %" PRId64 "%s: floor(n*phi) = %" PRId64 ", the formula gives %" PRId64 "\n",
            type, p->mantissa_bits, p->n, fibtxt, p->exact, p->computed);
    fprintf(out, "    so the P-position (%" PRId64 ", %" PRId64 ") is judged a first-player win, and (%" PRId64 ", %" PRId64 ") a loss\n",
            p->exact, p->exact + p->n, p->computed, p->computed + p->n);
    fprintf(out, "    (every n < %" PRId64 " agrees; %" PRIu64 " candidates near integers were evaluated)\n", p->n,
            p->candidates);
}

static void print_text(const ns_check_result *r, const char *path, const ns_meta *m, int k, const int64_t *bounds,
                       int pn_only)
{
    char box[256];
    ns_cli_format_box(k, bounds, box, sizeof box);
    printf("theorem:     %s\n", r->theorem);
    printf("claim:       %s\n", r->claim);
    char label[NS_NAME_LEN + 600];
    ns_meta_game_label(m, label, sizeof label);
    printf("table:       %s: %s%s%s, %s, %s, %s play\n", path, label, m->params[0] ? " " : "",
           m->params, box, pn_only ? "P/N" : "Grundy values", m->play == NS_PLAY_MISERE ? "misere" : "normal");
    printf("checked:     %" PRIu64 " cell%s (every cell of the table once)\n", r->checked, r->checked == 1 ? "" : "s");
    if (r->also_checked)
        printf("also:        %" PRIu64 " %s\n", r->also_checked, r->also_what);
    printf("mismatches:  %" PRIu64 "\n", r->mismatches);
    for (int i = 0; i < r->nshown; i++) {
        char pos[256];
        const ns_check_mismatch *x = &r->shown[i];
        ns_format_pos(x->k, x->pos, pos, sizeof pos);
        printf("  %s: %s: table %" PRId64 ", theorem %" PRId64 "\n", pos, x->what, x->found, x->expected);
    }
    if (r->mismatches > (uint64_t)r->nshown)
        printf("  ... (%" PRIu64 " more)\n", r->mismatches - (uint64_t)r->nshown);
    for (int i = 0; i < r->nnotes; i++)
        printf("note:        %s\n", r->notes[i]);
    if (r->has_probe) {
        printf("book's formula x == floor((y-x)*phi), phi = (1+sqrt(5.0))/2 in floating point:\n");
        describe_probe(&r->probe[0], "double", stdout);
        describe_probe(&r->probe[1], "long double", stdout);
    }
    printf("result:      %s\n", r->mismatches ? "FAIL" : "PASS");
}

static void json_probe(const ns_phi_probe *p, const char *type)
{
    printf("{\"type\": ");
    ns_json_string(stdout, type);
    printf(", \"mantissa_bits\": %d, \"found\": %s", p->mantissa_bits, p->found ? "true" : "false");
    if (p->found)
        printf(", \"n\": %" PRId64 ", \"exact\": %" PRId64 ", \"computed\": %" PRId64, p->n, p->exact, p->computed);
    printf(", \"searched_to\": %" PRId64 ", \"candidates\": %" PRIu64 "}", p->searched_to, p->candidates);
}

static void print_json(const ns_check_result *r, const char *path, const ns_meta *m, int k, const int64_t *bounds,
                       int pn_only)
{
    printf("{\"theorem\": ");
    ns_json_string(stdout, r->theorem);
    printf(", \"claim\": ");
    ns_json_string(stdout, r->claim);
    printf(", \"file\": ");
    ns_json_string(stdout, path);
    printf(", \"game\": ");
    ns_json_string(stdout, m->game);
    printf(", \"rule_file\": ");
    if (m->rules_text)
        ns_json_string(stdout, m->rules_file);
    else
        printf("null");
    printf(", \"params\": ");
    ns_json_string(stdout, m->params);
    printf(", \"play\": \"%s\", \"pn_only\": %s, \"bounds\": [", m->play == NS_PLAY_MISERE ? "misere" : "normal",
           pn_only ? "true" : "false");
    for (int d = 0; d < k; d++)
        printf("%s%" PRId64, d ? ", " : "", bounds[d]);
    printf("], \"checked\": %" PRIu64 ", \"also_checked\": %" PRIu64 ", \"also_what\": ", r->checked, r->also_checked);
    ns_json_string(stdout, r->also_what);
    printf(", \"mismatches\": %" PRIu64 ", \"first_mismatches\": [", r->mismatches);
    for (int i = 0; i < r->nshown; i++) {
        const ns_check_mismatch *x = &r->shown[i];
        printf("%s{\"position\": [", i ? ", " : "");
        for (int d = 0; d < x->k; d++)
            printf("%s%" PRId64, d ? ", " : "", x->pos[d]);
        printf("], \"what\": ");
        ns_json_string(stdout, x->what);
        printf(", \"table\": %" PRId64 ", \"theorem\": %" PRId64 "}", x->found, x->expected);
    }
    printf("], \"notes\": [");
    for (int i = 0; i < r->nnotes; i++) {
        printf("%s", i ? ", " : "");
        ns_json_string(stdout, r->notes[i]);
    }
    printf("]");
    if (r->has_probe) {
        printf(", \"book_formula\": [");
        json_probe(&r->probe[0], "double");
        printf(", ");
        json_probe(&r->probe[1], "long double");
        printf("]");
    }
    printf(", \"pass\": %s}\n", r->mismatches ? "false" : "true");
}

/* Read component tables for sprague-grundy-sum into comp[0..k-1]. */
static int load_components(char **paths, int ncomp, const ns_table *t, uint32_t **comp, int64_t *len)
{
    for (int d = 0; d < t->k; d++) {
        const char *p = paths[ncomp == 1 ? 0 : d];
        ns_table *c = NULL;
        ns_meta m = {0};
        ns_error err = {0};
        if (ns_h5_read(p, &c, &m, &err)) {
            ns_meta_free(&m);
            return ns_cli_error(CMD, "%s: %s", p, err.msg);
        }
        int bad = c->k != 1 || c->pn_only;
        if (!bad) {
            comp[d] = malloc((size_t)c->bounds[0] * sizeof *comp[d]);
            if (comp[d]) {
                for (int64_t x = 0; x < c->bounds[0]; x++)
                    comp[d][x] = ns_table_get(c, (uint64_t)x);
                len[d] = c->bounds[0];
            }
        }
        ns_table_free(c);
        ns_meta_free(&m);
        if (bad)
            return ns_cli_error(CMD, "%s: a component must be a one-pile Grundy table", p);
        if (!comp[d])
            return ns_cli_error(CMD, "out of memory");
    }
    return NS_EXIT_OK;
}

int ns_cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"component", required_argument, NULL, 'c'},
        {"list", no_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, ncomp = 0;
    char *comp_paths[NS_MAX_DIM];
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j': json = 1; break;
        case 'c':
            if (ncomp >= NS_MAX_DIM)
                return ns_cli_error(CMD, "at most %d --component tables", NS_MAX_DIM);
            comp_paths[ncomp++] = optarg;
            break;
        case 'l':
            for (const ns_check_theorem *const *t = ns_check_theorems; *t; t++)
                printf("%-19s %s\n", (*t)->name, (*t)->summary);
            return NS_EXIT_OK;
        case 'h': usage(); return NS_EXIT_OK;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (argc - optind != 2)
        return ns_cli_error(CMD, "expected 'nimsieve check THEOREM FILE.h5' (see 'nimsieve check --help')");
    const char *name = argv[optind], *path = argv[optind + 1];
    const ns_check_theorem *th = ns_check_find(name);
    if (!th) {
        char list[512] = "";
        size_t u = 0;
        for (const ns_check_theorem *const *t = ns_check_theorems; *t && u < sizeof list; t++)
            u += (size_t)snprintf(list + u, sizeof list - u, "%s%s", u ? ", " : "", (*t)->name);
        return ns_cli_error(CMD, "unknown theorem '%s': expected one of %s", name, list);
    }
    if (ncomp && strcmp(th->name, "sprague-grundy-sum") != 0)
        return ns_cli_error(CMD, "--component only goes with sprague-grundy-sum");

    ns_meta meta = {0}, meta2 = {0};
    ns_error err = {0};
    ns_game *g = NULL;
    ns_table *t = NULL;
    uint32_t *comp[NS_MAX_DIM] = {0};
    int64_t bounds[NS_MAX_DIM], clen[NS_MAX_DIM];
    int k = 0, rc = NS_EXIT_ERROR;
    char how[300] = "";
    ns_check_result *r = calloc(1, sizeof *r);
    if (!r)
        return ns_cli_error(CMD, "out of memory");
    if (ns_h5_read_meta(path, &meta, &k, bounds, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    if (meta.loopy) { /* no theorem is about a game whose positions come back */
        rc = ns_cli_error(CMD, "%s does not apply to %s: the table is of a loopy game (P / N / draw with remoteness, "
                          "engine retro), and the theorems are about games without draws; 'nimsieve verify %s' checks "
                          "its cells against the definitions of P, N and draw", th->name, path, path);
        goto fail;
    }
    if (ncomp > 1 && ncomp != k) {
        rc = ns_cli_error(CMD, "%d --component tables for a %d-pile table: give one, or one per pile", ncomp, k);
        goto fail;
    }
    if (ns_game_from_meta(&meta, k, bounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s: cannot rebuild the game: %s", path, err.msg);
        goto fail;
    }
    /* a rule file that is one of data/rules/ implementing a preset is
     * checked as that preset (ns_check_recognise) */
    ns_game *preset = NULL;
    if (ns_check_recognise(g, &preset, how, sizeof how, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    if (preset) {
        ns_game_free(g);
        g = preset;
    }
    char why[256] = "";
    if (!ncomp && !th->applies(g, meta.pn_only, why, sizeof why)) {
        rc = ns_cli_error(CMD, "%s does not apply to %s: %s%s%s%s", th->name, path, why, how[0] ? " (the table's game: " : "",
                          how, how[0] ? ")" : "");
        goto fail;
    }
    if (ns_h5_read(path, &t, &meta2, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    ns_err erc;
    if (ncomp) {
        if (t->pn_only || g->play != NS_PLAY_NORMAL) {
            rc = ns_cli_error(CMD, "sprague-grundy-sum does not apply to %s: it needs a Grundy table in normal play", path);
            goto fail;
        }
        if ((rc = load_components(comp_paths, ncomp, t, comp, clen)) != NS_EXIT_OK)
            goto fail;
        rc = NS_EXIT_ERROR;
        erc = ns_check_sum_components(t, (const uint32_t *const *)comp, clen, r, &err);
    } else {
        erc = th->run(g, t, r, &err);
    }
    if (erc) {
        rc = ns_cli_error(CMD, "%s: %s", path, err.msg);
        goto fail;
    }
    if (how[0] && g->rules_text == NULL && r->nnotes < NS_CHECK_NOTES)
        snprintf(r->notes[r->nnotes++], sizeof r->notes[0], "the table's game: %.230s", how);
    if (json)
        print_json(r, path, &meta, k, bounds, t->pn_only);
    else
        print_text(r, path, &meta, k, bounds, t->pn_only);
    rc = r->mismatches ? NS_EXIT_NO : NS_EXIT_OK;
fail:
    for (int d = 0; d < NS_MAX_DIM; d++)
        free(comp[d]);
    free(r);
    ns_table_free(t);
    ns_game_free(g);
    ns_meta_free(&meta);
    ns_meta_free(&meta2);
    return rc;
}
