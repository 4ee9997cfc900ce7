/* cli_util.h - helpers shared by the subcommands: one-line errors, parsing
 * of sizes, bounds and positions with overflow checks, formatting, the
 * progress bar, the clock and the memory budget. Only src/cli/ uses them. */
#ifndef NS_CLI_UTIL_H
#define NS_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_params.h"

/* Exit codes of every subcommand. */
enum { NS_EXIT_OK = 0, NS_EXIT_NO = 1, NS_EXIT_ERROR = 2 };

/* Print "nimsieve CMD: <message>" as one line on stderr. Returns
 * NS_EXIT_ERROR so callers can write `return ns_cli_error(...)`. */
int ns_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Under MPI with more than one rank, errors name the rank ("nimsieve sweep:
 * rank 2 of 4: ...") and only rank 0 prints them (the ranks check their
 * arguments alike) until a subcommand that shares work turns on(1) every
 * rank's errors, where ranks may fail apart. */
void ns_cli_errors_every_rank(int on);

/* Under MPI, a subcommand that shares work (every_rank in main.c) calls
 * this once on every rank before the shared part, with its exit status so
 * far: the largest over all ranks (a rank that failed on its own, a file
 * or rule file it cannot see, stops them all there instead of leaving them
 * waiting). A rank that returns before calling it is made to call it by
 * main. One process: rc. */
int ns_cli_dist_agree(int rc);
int ns_cli_dist_agreed(void);

/* Under MPI, a subcommand whose ranks must meet before the meeting above
 * (solve: rank 0 alone looks at the output path, and the ranks then share a
 * broadcast before they allocate) says so on every rank first
 * (ns_cli_dist_expect_early), then calls ns_cli_dist_early once on every
 * rank with its exit status so far: the largest over all ranks. A rank that
 * returns before calling it is made to call it by main
 * (ns_cli_dist_catch_up), so no rank waits in a meeting another has
 * skipped. A rank stopped there by another rank's failure passes the error
 * on without making it its own (rank 0's message does not hide the failing
 * rank's). One process: rc. */
void ns_cli_dist_expect_early(void);
int ns_cli_dist_early(int rc);

/* main, under MPI, for a subcommand that shares work, once it returned rc:
 * the meetings that rank has not held yet (ns_cli_dist_early when
 * expected, ns_cli_dist_agree); the largest exit status over all ranks. */
int ns_cli_dist_catch_up(int rc);

/* Under MPI, for a subcommand that shares work (main calls it): until the
 * ranks meet, a rank other than 0 keeps its last error instead of printing
 * it, and prints it at the meeting only when rank 0 did not fail (an error
 * of its own: a file it cannot see, memory), so an argument error every
 * rank finds is said once; after the meeting every rank's errors print. */
void ns_cli_dist_hold_errors(void);

/* Report a getopt_long failure (c is '?' or ':', opterr 0 and the option
 * string starting with ':') as one line; returns NS_EXIT_ERROR. */
int ns_cli_bad_option(const char *cmd, int c, char **argv);

/* Parse a decimal integer in [lo, hi] (the whole string, overflow checked).
 * what names the argument in the message ("--size", "coordinate 2"). */
ns_err ns_cli_parse_int(const char *text, const char *what, int64_t lo, int64_t hi,
                        int64_t *out, ns_error *err);

/* Parse a size in [1, 2^62]. */
ns_err ns_cli_parse_size(const char *text, const char *what, int64_t *out, ns_error *err);

/* Parse "N1,N2,..." (1 to NS_MAX_DIM positive sizes) into bounds[], *k. */
ns_err ns_cli_parse_bounds(const char *text, int64_t *bounds, int *k, ns_error *err);

/* The box options of the subcommands that build a game (solve, rules):
 * -D name=value, --size N, --bounds N1,N2,.. */
typedef struct ns_cli_box_opts {
    ns_params params;
    int64_t size;                 /* 0: not given */
    int64_t bounds[NS_MAX_DIM];
    int nbounds;                  /* 0: not given */
    int nsize_opts, nbounds_opts; /* how often each option was given */
} ns_cli_box_opts;

/* Take option c ('D', 'n' or 'b') with its argument into *o. Returns 1 when
 * c is not one of them, 0 when taken, NS_EXIT_ERROR after printing. */
int ns_cli_box_option(const char *cmd, int c, const char *arg, ns_cli_box_opts *o);

/* After all options: --size and --bounds exclude each other and come at
 * most once; with required, one of them must be given. Returns NS_EXIT_OK
 * or NS_EXIT_ERROR after printing. */
int ns_cli_box_check(const char *cmd, const ns_cli_box_opts *o, int required);

/* Parse the k coordinate arguments args[0..nargs-1] of a position and check
 * that it lies in the box of g and in its domain. */
ns_err ns_cli_parse_position(const ns_game *g, char **args, int nargs, int64_t *s,
                             ns_error *err);

/* args[0..n-1] should be FILE.h5 X1 X2 ...: when args[0] is a number and a
 * later argument an existing *.h5 file (the position typed first), print
 * "the file comes first: ..." and return NS_EXIT_ERROR; else NS_EXIT_OK. */
int ns_cli_file_first(const char *cmd, char **args, int n);

/* "[0,4096) x [0,4096)" and "4096 x 4096" */
void ns_cli_format_box(int k, const int64_t *bounds, char *buf, size_t len);
void ns_cli_format_dims(int k, const int64_t *bounds, char *buf, size_t len);

/* "1.50 GiB", "512 B" */
void ns_cli_format_bytes(uint64_t bytes, char *buf, size_t len);
/* The memory an engine keeps besides the table, from its plan: "12.00 MiB",
 * or, when it grows with the values, "12.00 MiB at first (they widen with
 * the values; at most 8.97 GiB)". */
struct ns_engine_plan;
void ns_cli_format_line_bytes(const struct ns_engine_plan *plan, char *buf, size_t len);

/* Describe the move from s to o by the coordinates it changes, e.g. "take 3
 * from pile 2" or "take 1 from pile 1 and 1 from pile 2". */
void ns_cli_describe_move(const ns_game *g, const int64_t *s, const int64_t *o, char *buf,
                          size_t len);

/* "engine:    NAME (what it does)" and, for each faster engine of the
 * table passed over, "           not NAME: why" (label padded to width). */
struct ns_engine_choice;
void ns_cli_print_engine(const struct ns_engine_choice *c, const char *label, int width);

/* What a solve is expected to take, for the plan line: *seconds on threads
 * threads and the size of the file in bytes, from the cell count, the
 * engine's measured cost a cell (the general engine: per family, plus the
 * options of its general families, counted and timed at a sample of cells
 * for at most about 0.2 s) and measured compression ratios. "About": the
 * solves of tests/cli/test_solve_estimate.sh and the README's were observed
 * within a factor of 3 of it. engine: the ns_engine name that will run.
 * *seconds_low: the same, or less for the rare-common engine, whose speed
 * depends on the sparse space the sequence turns out to have (seconds is
 * then the plain mex's, its speed without one). */
struct ns_engine_plan;
void ns_cli_estimate_solve(const ns_game *g, const struct ns_engine_plan *plan, const char *engine, int pn_only,
                           int threads, double *seconds_low, double *seconds, double *file_bytes);

/* "expected about 3 min, file up to about 950 MB"; a range when
 * seconds_low is shorter */
void ns_cli_format_estimate(double seconds_low, double seconds, double file_bytes, char *buf, size_t len);

/* Seconds on the monotonic clock. */
double ns_cli_now(void);

/* MemAvailable from /proc/meminfo in bytes, or 0 when unknown. */
uint64_t ns_cli_mem_available(void);

/* Progress bar on stderr. Drawn only when enabled, stderr is a terminal and
 * more than a second has passed since ns_progress_start; redrawn at most ten
 * times a second. ns_cli_progress_cb is an ns_progress_fn; it returns non-zero
 * (stop) once SIGINT or SIGTERM has been received after ns_cli_catch_sigint(). */
typedef struct ns_cli_progress {
    int enabled;
    double start, last;   /* ns_cli_now() at the start and at the last redraw */
    double fraction;      /* last fraction reported */
    int drawn;            /* something is on the line */
} ns_cli_progress;

void ns_cli_progress_start(ns_cli_progress *p, int enabled);
int ns_cli_progress_cb(void *user, double fraction);
/* Redraw the last state and end the line (when anything was drawn). */
void ns_cli_progress_finish(ns_cli_progress *p);

/* Make the first SIGINT (Ctrl-C) or SIGTERM request a clean stop (seen by
 * ns_cli_progress_cb and ns_cli_interrupted, which returns the signal's
 * number, else 0); a second one kills the process as usual. */
void ns_cli_catch_sigint(void);
int ns_cli_interrupted(void);

#endif
