/* cmd_query.c - placeholder until `nimsieve query` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_query(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve query: not implemented yet\n");
    return 2;
}
