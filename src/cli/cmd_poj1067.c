/* cmd_poj1067.c - placeholder until `nimsieve poj1067` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_poj1067(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve poj1067: not implemented yet\n");
    return 2;
}
