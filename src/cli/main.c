/* main.c - placeholder dispatcher (the CLI helper replaces it). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: nimsieve SUBCOMMAND ...\n");
        return 2;
    }
    if (strcmp(argv[1], "solve") == 0)
        return ns_cmd_solve(argc - 1, argv + 1);
    fprintf(stderr, "nimsieve: unknown subcommand '%s'\n", argv[1]);
    return 2;
}
