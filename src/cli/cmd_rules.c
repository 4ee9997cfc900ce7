/* cmd_rules.c - placeholder until `nimsieve rules` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_rules(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve rules: not implemented yet\n");
    return 2;
}
