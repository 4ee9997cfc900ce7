/* cmd_verify.c - placeholder until `nimsieve verify` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_verify(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve verify: not implemented yet\n");
    return 2;
}
