/* cmd_move.c - placeholder until `nimsieve move` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_move(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve move: not implemented yet\n");
    return 2;
}
