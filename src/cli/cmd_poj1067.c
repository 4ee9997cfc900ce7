/* cmd_poj1067.c - `nimsieve poj1067`: POJ 1067 (取石子游戏, Wythoff's game)
 * as the judge expects it: lines "a b" on stdin, one answer per line. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "analysis/ns_exact.h"

static const char *const CMD = "poj1067";

#define POJ_MAX ((int64_t)1000000000000000000) /* 10^18 */

static void usage(void)
{
    printf("usage: nimsieve poj1067 < INPUT\n"
           "\n"
           "POJ 1067 (Wythoff's game): every input line holds two non-negative integers\n"
           "a b, the two piles; print 1 when the player to move wins and 0 when he loses,\n"
           "one line per input line, until end of input. The answer is exact for\n"
           "0 <= a, b <= 10^18: (a, b) is lost iff min(a,b) = floor(|b-a| * phi), with\n"
           "floor(n phi) = (n + isqrt(5 n^2)) / 2 in 128-bit integers (the judge's own\n"
           "bound is 10^9; the usual double-precision formula first fails at\n"
           "|b-a| = 102334155).\n"
           "\n"
           "Blank lines are skipped. A line that is not two such integers stops the\n"
           "run: the answers to the lines before it have been printed, a message naming\n"
           "the line goes to stderr, and the exit status is 2.\n"
           "\n"
           "options:\n"
           "  -h, --help   this help\n"
           "\n"
           "example:\n"
           "  printf '2 1\\n8 4\\n4 7\\n' | nimsieve poj1067     # prints 0 1 0\n");
}

/* Parse one unsigned decimal at *p (after blanks) into *v; 0 on success,
 * 1 when there is no number, 2 when it is too large, 3 on junk. */
static int parse_num(const char **p, int64_t *v)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s < '0' || *s > '9') {
        *p = s;
        return *s == '\0' ? 1 : 3;
    }
    int64_t x = 0;
    int big = 0;
    while (*s >= '0' && *s <= '9') {
        if (x > (POJ_MAX - (*s - '0')) / 10)
            big = 1;
        else
            x = x * 10 + (*s - '0');
        s++;
    }
    *p = s;
    if (*s != '\0' && *s != ' ' && *s != '\t')
        return 3;
    if (big)
        return 2;
    *v = x;
    return 0;
}

int ns_cmd_poj1067(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            usage();
            return NS_EXIT_OK;
        }
        return ns_cli_bad_option(CMD, c, argv);
    }
    if (optind < argc)
        return ns_cli_error(CMD, "unexpected argument '%s': the input comes from stdin", argv[optind]);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    uint64_t lineno = 0;
    int rc = NS_EXIT_OK;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if ((size_t)len != strlen(line)) {
            rc = ns_cli_error(CMD, "line %" PRIu64 ": contains a NUL byte: expected two integers 'a b'", lineno);
            break;
        }
        const char *p = line;
        int64_t a = 0, b = 0;
        int ra = parse_num(&p, &a);
        if (ra == 1)
            continue; /* blank line */
        int rb = ra ? ra : parse_num(&p, &b);
        int rest = 0;
        if (!ra && !rb) {
            while (*p == ' ' || *p == '\t')
                p++;
            rest = *p != '\0';
        }
        if (ra || rb || rest) {
            const char *why = (ra == 2 || rb == 2) ? "a number is larger than 10^18"
                              : rb == 1            ? "only one number"
                              : rest               ? "more than two numbers or trailing text"
                                                   : "not a non-negative integer";
            rc = ns_cli_error(CMD, "line %" PRIu64 ": '%.60s': %s: expected two integers 'a b' in [0, 10^18]", lineno, line,
                              why);
            break;
        }
        fputs(ns_wythoff_is_p(a, b) ? "0\n" : "1\n", stdout);
    }
    if (rc == NS_EXIT_OK && ferror(stdin))
        rc = ns_cli_error(CMD, "error reading stdin");
    free(line);
    if (fflush(stdout) != 0 && rc == NS_EXIT_OK)
        rc = ns_cli_error(CMD, "error writing stdout");
    return rc;
}
