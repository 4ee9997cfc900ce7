/* cmd_info.c - placeholder until `nimsieve info` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve info: not implemented yet\n");
    return 2;
}
