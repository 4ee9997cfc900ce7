/* cmd_patterns.c - placeholder until `nimsieve patterns` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_patterns(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve patterns: not implemented yet\n");
    return 2;
}
