/* cmd_solve.c - placeholder until `nimsieve solve` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_solve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve solve: not implemented yet\n");
    return 2;
}
