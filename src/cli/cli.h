/* cli.h - the command-line front end: one function per subcommand.
 *
 * Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit code: 0 success, 1 a negative
 * answer (a mismatch found, a check that fails), 2 bad input or an error.
 * Only code under src/cli/ prints for the user and exits. */
#ifndef NS_CLI_H
#define NS_CLI_H

int ns_cmd_solve(int argc, char **argv);    /* cmd_solve.c    (issue 2) */
int ns_cmd_info(int argc, char **argv);     /* cmd_info.c     (issue 2) */
int ns_cmd_query(int argc, char **argv);    /* cmd_query.c    (issue 2) */
int ns_cmd_verify(int argc, char **argv);   /* cmd_verify.c   (issue 2) */
int ns_cmd_rules(int argc, char **argv);    /* cmd_rules.c    (issue 3) */
int ns_cmd_check(int argc, char **argv);    /* cmd_check.c    (issue 5) */
int ns_cmd_patterns(int argc, char **argv); /* cmd_patterns.c (issue 5) */
int ns_cmd_move(int argc, char **argv);     /* cmd_move.c     (issue 5) */
int ns_cmd_poj1067(int argc, char **argv);  /* cmd_poj1067.c  (issue 5) */
int ns_cmd_poj1704(int argc, char **argv);  /* cmd_staircase.c (issue 5) */
int ns_cmd_monks(int argc, char **argv);    /* cmd_staircase.c (issue 5) */
int ns_cmd_plot(int argc, char **argv);     /* cmd_plot.c     (issue 6) */
int ns_cmd_census(int argc, char **argv);   /* cmd_census.c   (issue 17) */
int ns_cmd_sweep(int argc, char **argv);    /* cmd_sweep.c    (issue 20) */

#endif
