/* cmd_staircase.c - the seed's two Staircase Nim problems, solved through
 * the engine: `nimsieve poj1704` (POJ 1704, Georgia and Bob) and
 * `nimsieve monks` (高僧斗法, 4th Lanqiao Cup). Both turn their input into
 * the steps of a staircase, build the preset "staircase" in the smallest box
 * that holds the position, fill its P/N table by the sieve and read the
 * answer (and the winning move) from the table; the closed form (XOR of the
 * odd steps) is computed too and must agree. Positions with more than eight
 * steps, or whose box is too large, use the closed form (--method auto). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "analysis/ns_strategy.h"

#define STAIR_MAX_CELLS ((uint64_t)1 << 22)
#define POS_MAX ((int64_t)1000000000)

enum { METHOD_AUTO, METHOD_TABLE, METHOD_FORMULA };

/* All integers of stdin. Fails (message printed) on anything else. */
typedef struct tokens {
    int64_t *v;     /* owned */
    size_t n, cap;
} tokens;

static int read_tokens(const char *cmd, tokens *tk)
{
    char buf[64];
    size_t len = 0;
    uint64_t line = 1;
    int ch;
    memset(tk, 0, sizeof *tk);
    for (;;) {
        ch = getchar();
        if (ch != EOF && !isspace(ch)) {
            if (len + 1 >= sizeof buf)
                return ns_cli_error(cmd, "line %" PRIu64 ": a token longer than %zu characters", line, sizeof buf - 2);
            buf[len++] = (char)ch;
            continue;
        }
        if (len > 0) {
            buf[len] = '\0';
            char *end = NULL;
            errno = 0;
            long long v = strtoll(buf, &end, 10);
            if (!isdigit((unsigned char)buf[0]) || *end != '\0' || errno == ERANGE || v > POS_MAX)
                return ns_cli_error(cmd, "line %" PRIu64 ": '%s' is not an integer in [0, 10^9]", line, buf);
            if (tk->n == tk->cap) {
                size_t nc = tk->cap ? 2 * tk->cap : 256;
                int64_t *p = realloc(tk->v, nc * sizeof *p);
                if (!p)
                    return ns_cli_error(cmd, "out of memory");
                tk->v = p;
                tk->cap = nc;
            }
            tk->v[tk->n++] = v;
            len = 0;
        }
        if (ch == '\n')
            line++;
        if (ch == EOF)
            break;
    }
    if (ferror(stdin))
        return ns_cli_error(cmd, "error reading stdin");
    return NS_EXIT_OK;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int parse_method(const char *cmd, const char *s, int *m)
{
    if (strcmp(s, "auto") == 0)
        *m = METHOD_AUTO;
    else if (strcmp(s, "table") == 0)
        *m = METHOD_TABLE;
    else if (strcmp(s, "formula") == 0)
        *m = METHOD_FORMULA;
    else
        return ns_cli_error(cmd, "--method '%s': expected auto, table or formula", s);
    return NS_EXIT_OK;
}

/* The answer for steps c[0..k-1]: *lost, and when won the first step index
 * (smallest) with a winning move and its size. By the table when the method
 * allows and the box fits; *by_table says which way was used. */
static int solve_steps(const char *cmd, const char *what, int64_t k, const int64_t *c, int method, int verbose,
                       int *lost, int64_t *step, int64_t *amount)
{
    /* the closed form, always */
    int f_lost = ns_staircase_xor(k, c) == 0;
    int64_t f_step = -1, f_amount = 0;
    for (int64_t i = 0; i < k && !f_lost; i++)
        if (ns_staircase_move_at(k, c, i, &f_amount)) {
            f_step = i;
            break;
        }
    *lost = f_lost;
    *step = f_step;
    *amount = f_amount;
    if (method == METHOD_FORMULA) {
        if (verbose)
            fprintf(stderr, "%s: %" PRId64 " steps, closed form (XOR of the odd steps)\n", what, k);
        return NS_EXIT_OK;
    }
    ns_moves mv = {0};
    ns_error err = {0};
    int t_lost = 0;
    ns_err rc = k <= NS_MAX_DIM ? ns_staircase_by_table((int)k, c, STAIR_MAX_CELLS, 0, &mv, &t_lost, &err)
                                : ns_error_set(&err, NS_ERANGE, "%" PRId64 " steps: the engine holds at most %d", k, NS_MAX_DIM);
    if (rc == NS_ERANGE && method == METHOD_AUTO) {
        if (verbose)
            fprintf(stderr, "%s: %s; closed form (XOR of the odd steps)\n", what, err.msg);
        return NS_EXIT_OK;
    }
    if (rc) {
        ns_moves_free(&mv);
        return ns_cli_error(cmd, "%s: %s", what, err.msg);
    }
    /* the smallest step that loses coins in some winning move */
    int64_t t_step = -1, t_amount = 0;
    for (size_t j = 0; j < mv.n; j++)
        for (int64_t i = 0; i < k; i++)
            if (mv.v[j].to[i] < mv.v[j].from[i] && (t_step < 0 || i < t_step)) {
                t_step = i;
                t_amount = mv.v[j].from[i] - mv.v[j].to[i];
            }
    ns_moves_free(&mv);
    if (t_lost != f_lost || t_step != f_step || t_amount != f_amount)
        return ns_cli_error(cmd, "%s: the table and the closed form disagree (a bug)", what);
    if (verbose) {
        char pos[256];
        ns_format_pos((int)k, c, pos, sizeof pos);
        fprintf(stderr, "%s: staircase %s solved by the sieve; answer read from its P/N table (agrees with the XOR rule)\n",
                what, pos);
    }
    return NS_EXIT_OK;
}

/* The options both staircase commands take, then stdin's integers into
 * *tk (free tk->v after any return). *help: --help was asked (the caller
 * prints its usage; NS_EXIT_OK, nothing read). */
static int stair_args(const char *cmd, int argc, char **argv, int *method, int *verbose, int *help, tokens *tk)
{
    static const struct option longopts[] = {
        {"method", required_argument, NULL, 'm'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    *method = METHOD_AUTO;
    *verbose = *help = 0;
    memset(tk, 0, sizeof *tk);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (parse_method(cmd, optarg, method))
                return NS_EXIT_ERROR;
            break;
        case 'v': *verbose = 1; break;
        case 'h': *help = 1; return NS_EXIT_OK;
        default: return ns_cli_bad_option(cmd, c, argv);
        }
    }
    if (optind < argc)
        return ns_cli_error(cmd, "unexpected argument '%s': the input comes from stdin", argv[optind]);
    return read_tokens(cmd, tk);
}

/* ---- POJ 1704 ---- */

static void usage_poj1704(void)
{
    printf("usage: nimsieve poj1704 [--method auto|table|formula] [--verbose] < INPUT\n"
           "\n"
           "POJ 1704 (Georgia and Bob): chessmen on a line of cells 1, 2, 3, ...; a move\n"
           "takes one chessman any number of cells to the left without jumping over\n"
           "another or leaving the board; Georgia moves first, who cannot move loses.\n"
           "Input: T, then for each case N and the N positions (any order). Output per\n"
           "case: \"Georgia will win\" or \"Bob will win\".\n"
           "\n"
           "The gaps between neighbouring chessmen (the first one's to the left edge)\n"
           "are the steps of a Staircase Nim, read from the right: moving a chessman\n"
           "shrinks its gap and widens the next one to its right. The position is\n"
           "solved as the preset staircase by the sieve and read from its table; the\n"
           "XOR of the odd steps is checked against it.\n"
           "\n"
           "options:\n"
           "  --method M   auto (table when it fits: <= 8 steps, <= 2^22 cells; else the\n"
           "               closed form), table (fail when it does not fit), formula\n"
           "  --verbose    say on stderr how each case was solved\n"
           "  -h, --help   this help\n"
           "\n"
           "example (the POJ sample):\n"
           "  printf '2\\n3\\n1 2 3\\n8\\n1 5 6 7 9 12 14 17\\n' | nimsieve poj1704\n");
}

int ns_cmd_poj1704(int argc, char **argv)
{
    static const char *const cmd = "poj1704";
    int method, verbose, help;
    tokens tk;
    int rc = stair_args(cmd, argc, argv, &method, &verbose, &help, &tk);
    if (help) {
        usage_poj1704();
        return NS_EXIT_OK;
    }
    if (rc) {
        free(tk.v);
        return rc;
    }
    size_t at = 0;
    int64_t *steps = NULL;
    if (tk.n == 0) {
        rc = ns_cli_error(cmd, "empty input: expected the number of cases T");
        goto done;
    }
    int64_t T = tk.v[at++];
    for (int64_t tc = 1; tc <= T; tc++) {
        if (at >= tk.n) {
            rc = ns_cli_error(cmd, "case %" PRId64 ": input ends before N", tc);
            goto done;
        }
        int64_t n = tk.v[at++];
        if (n < 1 || (uint64_t)n > tk.n - at) {
            rc = ns_cli_error(cmd, "case %" PRId64 ": N = %" PRId64 " but %zu numbers follow", tc, n, tk.n - at);
            goto done;
        }
        int64_t *p = tk.v + at;
        at += (size_t)n;
        qsort(p, (size_t)n, sizeof *p, cmp_i64);
        for (int64_t i = 0; i < n; i++)
            if (p[i] < 1 || (i > 0 && p[i] == p[i - 1])) {
                rc = ns_cli_error(cmd, "case %" PRId64 ": position %" PRId64 " %s", tc, p[i],
                                  p[i] < 1 ? "is below 1" : "holds two chessmen");
                goto done;
            }
        /* step 1 is the rightmost gap: c[i] = gap in front of chessman n-i */
        free(steps);
        steps = malloc((size_t)n * sizeof *steps);
        if (!steps) {
            rc = ns_cli_error(cmd, "out of memory");
            goto done;
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t j = n - 1 - i;
            steps[i] = p[j] - (j > 0 ? p[j - 1] : 0) - 1;
        }
        int64_t k = n;
        while (k > 1 && steps[k - 1] == 0)
            k--; /* nothing moves into or out of empty top steps */
        char what[48];
        snprintf(what, sizeof what, "case %" PRId64, tc);
        int lost;
        int64_t st, amt;
        if ((rc = solve_steps(cmd, what, k, steps, method, verbose, &lost, &st, &amt)) != NS_EXIT_OK)
            goto done;
        puts(lost ? "Bob will win" : "Georgia will win");
    }
    if (at < tk.n)
        rc = ns_cli_error(cmd, "%zu numbers after the last case", tk.n - at);
done:
    free(steps);
    free(tk.v);
    return rc;
}

/* ---- 高僧斗法 ---- */

static void usage_monks(void)
{
    printf("usage: nimsieve monks [--method auto|table|formula] [--verbose] < INPUT\n"
           "\n"
           "高僧斗法 (4th Lanqiao Cup): little monks stand on numbered steps; a move sends\n"
           "one monk up any number of steps, not past the next monk above and never onto\n"
           "an occupied step; the top monk stands on the last step. Who cannot move\n"
           "loses. Input: the monks' steps (one line). Output: \"A B\", move the monk on\n"
           "step A to step B, the winning move with the smallest A; or -1 when the\n"
           "first player loses.\n"
           "\n"
           "The free steps between neighbouring monks, from the bottom, are the steps\n"
           "of a Staircase Nim (moving a monk up shrinks the gap above it and widens\n"
           "the one below). The position is solved as the preset staircase by the\n"
           "sieve and the move read from its table; the XOR rule is checked against it.\n"
           "\n"
           "options:\n"
           "  --method M   auto (table when it fits: <= 8 steps, <= 2^22 cells; else the\n"
           "               closed form), table (fail when it does not fit), formula\n"
           "  --verbose    say on stderr how it was solved\n"
           "  -h, --help   this help\n"
           "\n"
           "examples (the contest's samples):\n"
           "  echo 1 5 9 | nimsieve monks       # 1 4\n"
           "  echo 1 5 8 10 | nimsieve monks    # 1 3\n");
}

int ns_cmd_monks(int argc, char **argv)
{
    static const char *const cmd = "monks";
    int method, verbose, help;
    tokens tk;
    int rc = stair_args(cmd, argc, argv, &method, &verbose, &help, &tk);
    if (help) {
        usage_monks();
        return NS_EXIT_OK;
    }
    int64_t *steps = NULL;
    if (rc)
        goto done;
    if (tk.n == 0) {
        rc = ns_cli_error(cmd, "empty input: expected the monks' steps");
        goto done;
    }
    int64_t *p = tk.v, n = (int64_t)tk.n;
    qsort(p, (size_t)n, sizeof *p, cmp_i64);
    for (int64_t i = 0; i < n; i++)
        if (p[i] < 1 || (i > 0 && p[i] == p[i - 1])) {
            rc = ns_cli_error(cmd, "step %" PRId64 " %s", p[i], p[i] < 1 ? "is below 1" : "holds two monks");
            goto done;
        }
    if (n == 1) {
        puts("-1"); /* the lone monk stands on the top step: no move */
        goto done;
    }
    /* step i+1 of the staircase: the free steps between monk i and monk i+1 */
    steps = malloc((size_t)(n - 1) * sizeof *steps);
    if (!steps) {
        rc = ns_cli_error(cmd, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i + 1 < n; i++)
        steps[i] = p[i + 1] - p[i] - 1;
    int64_t k = n - 1;
    while (k > 1 && steps[k - 1] == 0)
        k--;
    int lost;
    int64_t st, amt;
    if ((rc = solve_steps(cmd, "monks", k, steps, method, verbose, &lost, &st, &amt)) != NS_EXIT_OK)
        goto done;
    if (lost)
        puts("-1");
    else
        printf("%" PRId64 " %" PRId64 "\n", p[st], p[st] + amt);
done:
    free(steps);
    free(tk.v);
    return rc;
}
