/* cmd_plot.c - placeholder until `nimsieve plot` is written. */
#include <stdio.h>

#include "cli.h"

int ns_cmd_plot(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "nimsieve plot: not implemented yet\n");
    return 2;
}
