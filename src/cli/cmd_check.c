/* cmd_check.c - placeholder until `nimsieve check` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve check: not implemented yet\n");
    return 2;
}
