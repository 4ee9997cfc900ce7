/* fuzz_cli.c - libFuzzer target for the command-line and position parsers
 * and the stdin readers of the judge-style subcommands.
 *
 * The first byte of an input picks what is fed with the rest:
 *   0  ns_cli_parse_int / ns_cli_parse_size / ns_cli_parse_bounds
 *   1  ns_cli_parse_position for Wythoff (box 100^2), 3-pile Nim and
 *      3-step staircase Nim (a domain), arguments split at blanks
 *   2  ns_params_parse_list (the -D parser)
 *   3  `nimsieve poj1067` with the rest as stdin
 *   4  `nimsieve poj1704` with the rest as stdin
 *   5  `nimsieve monks` with the rest as stdin
 *   6  `nimsieve move` with the rest split into arguments (closed forms
 *      --game wythoff / nim, numbers up to 10^18 and beyond)
 * Any crash or sanitizer report fails; so does an exit status other than
 * 0, 1 or 2, or a parser error message that is empty or spans lines. The
 * subcommands print: run it with -close_fd_mask=3 (tools/fuzz.sh does). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"

enum { MAXARGS = 12 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_msg(const ns_error *err)
{
    if (err->msg[0] == '\0' || strchr(err->msg, '\n'))
        abort();
}

/* split text at blanks into at most MAXARGS arguments (text is modified) */
static int split(char *text, char **args)
{
    int n = 0;
    for (char *p = strtok(text, " \t\n"); p && n < MAXARGS; p = strtok(NULL, " \t\n"))
        args[n++] = p;
    return n;
}

static void positions(char *text)
{
    static const struct {
        const char *name, *params;
        int k;
        int64_t b[3];
    } games[] = {
        {"wythoff", "", 2, {100, 100, 0}},
        {"nim", "piles=3", 3, {8, 9, 10}},
        {"staircase", "piles=3", 3, {6, 6, 6}},
    };
    char *args[MAXARGS];
    int n = split(text, args);
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        ns_error err = {0};
        ns_params ps = {0};
        if (ns_params_parse_list(&ps, games[i].params, &err))
            abort();
        ns_game *g = ns_preset_build(games[i].name, &ps, games[i].k, &err);
        if (!g || ns_game_set_bounds(g, games[i].b, &err))
            abort();
        int64_t s[NS_MAX_DIM];
        if (ns_cli_parse_position(g, args, n, s, &err) != NS_OK) {
            check_msg(&err);
        } else {
            for (int d = 0; d < g->k; d++)
                if (s[d] < 0 || s[d] >= g->bounds[d])
                    abort(); /* accepted a position outside the box */
        }
        ns_game_free(g);
    }
}

/* getopt keeps a pointer into the last argument vector when it stopped
 * inside a group of short options; the subcommands set optind = 1, which
 * glibc does not take as a reset. A process runs one subcommand, so only
 * this harness, which runs thousands, must reset it (optind = 0, one call). */
static void reset_getopt(void)
{
    char *argv[] = {"reset", NULL};
    optind = 0;
    opterr = 0;
    (void)getopt(1, argv, "");
}

static int run_stdin(int (*cmd)(int, char **), const char *name, const uint8_t *data, size_t size)
{
    reset_getopt();
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    FILE *saved = stdin;
    stdin = in;
    char *argv[] = {(char *)name, NULL};
    int rc = cmd(1, argv);
    stdin = saved;
    fclose(in);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    const int mode = data[0] % 7;
    data++;
    size--;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ns_error err = {0};
    int rc = 0;
    switch (mode) {
    case 0: {
        int64_t v, b[NS_MAX_DIM];
        int k = 0;
        if (ns_cli_parse_int(text, "n", -1000, 1000, &v, &err))
            check_msg(&err);
        else if (v < -1000 || v > 1000)
            abort();
        if (ns_cli_parse_size(text, "--size", &v, &err))
            check_msg(&err);
        else if (v < 1)
            abort();
        if (ns_cli_parse_bounds(text, b, &k, &err))
            check_msg(&err);
        else if (k < 1 || k > NS_MAX_DIM)
            abort();
        break;
    }
    case 1:
        positions(text);
        break;
    case 2: {
        ns_params ps = {0};
        if (ns_params_parse_list(&ps, text, &err))
            check_msg(&err);
        break;
    }
    case 3: rc = run_stdin(ns_cmd_poj1067, "poj1067", data, size); break;
    case 4: rc = run_stdin(ns_cmd_poj1704, "poj1704", data, size); break;
    case 5: rc = run_stdin(ns_cmd_monks, "monks", data, size); break;
    default: {
        char *args[MAXARGS + 2];
        args[0] = "move";
        int n = split(text, args + 1);
        args[n + 1] = NULL;
        reset_getopt();
        rc = ns_cmd_move(n + 1, args);
        break;
    }
    }
    if (rc < 0 || rc > 2)
        abort();
    free(text);
    return 0;
}
