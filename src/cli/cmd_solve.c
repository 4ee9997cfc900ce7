/* cmd_solve.c - `nimsieve solve`: build a game, run the sieve, write HDF5. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "cli/cli_seq.h"
#include "game/ns_build.h"
#include "store/ns_h5.h"
#include "core/ns_omp.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "analysis/ns_sweep.h"
#include "dist/ns_dist.h"
#include "dist/ns_dist_levels.h"
#include "dist/ns_dist_tiles.h"

static const char *const CMD = "solve";

/* heap sizes from which a sequence streams without --stream: its
 * checkpoints would otherwise write the whole table, tens of MB each */
#define SEQ_STREAM_AUTO ((uint64_t)1 << 26)

static void usage(void)
{
    printf("usage: nimsieve solve GAME [-D name=value ...] (--size N | --bounds N1,N2,..)\n"
           "                      [--pn-only] [--misere] [--threads T] [--memory LIMIT]\n"
           "                      [--checkpoint-every SECONDS] [--resume] [--stream] [--until-periodic]\n"
           "                      [--no-stream] [--loose-bound] [--mpi-write rank0|placed|parallel]\n"
           "                      [--mpi-sets replicated|owned] [--mpi-rows K] [--mpi-keep SIZE]\n"
           "                      [--force] [--quiet] -o OUT.h5\n"
           "\n"
           "Compute the Grundy values (or only P/N with --pn-only) of every position of GAME\n"
           "in the box [0,N1) x ... x [0,Nk) and write them to OUT.h5.\n"
           "\n"
           "GAME is a preset name or the path of a rule file (a path containing '/' or\n"
           "ending in .rules). Presets (parameters with their defaults):\n");
    for (const ns_preset *const *p = ns_presets; *p; p++) {
        printf("  %-14s %s\n", (*p)->name, (*p)->summary);
        if ((*p)->params_help && (*p)->params_help[0])
            printf("  %-14s   -D %s\n", "", (*p)->params_help);
    }
    printf("\n"
           "options:\n"
           "  -D, --define name=value  set a game parameter (value: an integer, a list 1,3,4\n"
           "                           or a code such as 0.77)\n"
           "  -n, --size N             every coordinate in [0,N)\n"
           "  -b, --bounds N1,N2,..    coordinate i in [0,Ni); the count also sets the number\n"
           "                           of piles of games that take it from the bounds\n"
           "  -p, --pn-only            store P/N flags only (faster; 1 byte a cell in memory,\n"
           "                           none when the table streams, see --stream)\n"
           "  -m, --misere             misere play (the last mover loses)\n"
           "  -t, --threads T          OpenMP threads (default: OpenMP's default, now %d)\n"
           "  -M, --memory LIMIT       memory budget for the table and line sets, e.g. 4G,\n"
           "                           512M, 1.5GiB or bytes (default: MemAvailable); line\n"
           "                           sets that widen with the values are checked at the\n"
           "                           start and at each widening\n"
           "  -c, --checkpoint-every S write a checkpoint OUT.h5.ckpt at most every S seconds\n"
           "                           (default 300; 0: never). The interval also grows to\n"
           "                           20x the time one checkpoint takes (overhead <= 5%%)\n"
           "  -r, --resume             continue from OUT.h5.ckpt (the same GAME, -D, bounds and\n"
           "                           kind); without a checkpoint, start from the beginning\n"
           "  -s, --stream             write finished tiles (P/N: blocks of rows) straight to\n"
           "                           OUT.h5 and keep only the per-line sets in memory\n"
           "                           (two-pile games whose moves are rays: Wythoff, two-pile\n"
           "                           Nim, such rule files; P/N in normal play only); chosen\n"
           "                           by itself when the table would not fit the budget, for\n"
           "                           such P/N tables unless --resume or --checkpoint-every\n"
           "                           is given (across MPI ranks even then), for such Grundy\n"
           "                           tables of 2^28 cells (16384^2) or more: there streaming\n"
           "                           needs a quarter of the memory and was measured faster\n"
           "                           (see the README's benchmark), and across MPI ranks with\n"
           "                           owned line sets at any size (each rank writes its own\n"
           "                           tiles or blocks and checkpoints its share). Checkpoints\n"
           "                           too. Values are\n"
           "                           stored in 16 bits when the game's bound allows, else 32.\n",
           ns_omp_max_threads());
    fputs("                           Take-and-break sequences (octal codes, Grundy's game)\n"
          "                           stream too: the whole sequence stays in\n"
           "                           memory, /grundy goes to OUT.h5.part a chunk at a time and\n"
           "                           checkpoints hold only the values after the last chunk;\n"
           "                           chosen by itself from 2^26 heap sizes (not with\n"
           "                           --until-periodic or --no-stream)\n"
           "      --no-stream          keep the table in memory (unless it does not fit)\n"
           "      --loose-bound        size cells and line sets by the number of options, not\n"
           "                           by the tighter bound 2(N-1) that two-pile tables of\n"
           "                           Nim and Wythoff-like games use (checked as they run: a\n"
           "                           solve in memory that exceeds it is redone with the\n"
           "                           loose bound, a streamed one stops and says so)\n"
           "      --mpi-sets KIND      across MPI ranks, the tile kernel's line sets: owned\n"
           "                           (each rank its share; the default of the tile\n"
           "                           kernel's games) or replicated (every rank all;\n"
           "                           see below)\n"
           "      --mpi-rows K         across MPI ranks, the tile kernel's rows of tiles\n"
           "                           dealt to a rank K at a time (default: with owned\n"
           "                           sets the threads a rank, else 1); owned sets pass\n"
           "                           between a rank's consecutive rows without messages\n"
           "      --mpi-keep SIZE      across MPI ranks with owned line sets, the blocks of\n"
           "                           sets a rank may keep in memory between its uses of\n"
           "                           them (their pages not given back to the system,\n"
           "                           which costs page faults when they come again; they\n"
           "                           count in the rank's memory). Default: the single\n"
           "                           process's line sets / ranks; 0: none\n",
           stdout);
    fputs("  -U, --until-periodic     heap games (octal codes): stop as soon as the octal\n"
           "                           periodicity theorem proves a period (looked for after\n"
           "                           every 4096 heap sizes up to 2^20, then each time n grew\n"
           "                           by an eighth) and write the heap sizes computed; --size\n"
           "                           is then the most to compute\n"
           "      --mpi-write WHO      across MPI ranks, who writes a table held in memory:\n"
           "                           rank0 (rank 0 alone, with the fast single-process\n"
           "                           writer; the default but for the general engine),\n"
           "                           placed (every rank filters its share of the chunks\n"
           "                           as one process does and writes them into rank 0's\n"
           "                           file at the places rank 0 gives; the general\n"
           "                           engine's default) or parallel (every rank its bands\n"
           "                           of chunk rows with parallel HDF5, also under one\n"
           "                           rank); the file says which (attribute mpi_write).\n"
           "                           A streamed Grundy table with owned line sets (the\n"
           "                           default across ranks) or a streamed P/N table (the\n"
           "                           row kernel): every rank writes its own tiles' or\n"
           "                           blocks of rows' chunks into rank 0's file (placed)\n"
           "                           unless rank0 is given; other streamed solves: rank 0\n"
           "  -f, --force              overwrite OUT.h5 if it exists; discard a checkpoint\n"
           "  -q, --quiet              print nothing but errors (no plan, summary or progress)\n"
           "  -o, --output OUT.h5      the table file to write (required)\n"
           "  -h, --help               this help\n"
           "\n"
           "The solve is refused when the table and the per-line sets would not fit the\n"
           "memory budget and it cannot stream; the general engine's sets start 128 values\n"
           "wide (the plan line says \"at first\" and the most they can reach), and a widening\n"
           "past the budget stops the solve after a checkpoint: --resume with a larger --memory.\n"
           "A progress bar is drawn on stderr when it is a terminal and the\n"
           "solve takes more than a second. Ctrl-C or SIGTERM stops cleanly: a final\n"
           "checkpoint is written (unless --checkpoint-every 0), the command to resume is\n"
           "printed, and the exit status is 128 + the signal (130, 143). OUT.h5 itself\n"
           "appears only when the solve is complete.\n",
          stdout);
    fputs("\n"
           "A loopy rule file (its moves need not lower the rank: 'nimsieve rules' says so\n"
           "and why) is solved by retrograde analysis to P / N / draw with the remoteness\n"
           "of every position (/pn 3 = draw, /remoteness); the file's kind is P/N. Its\n"
           "checkpoints come between frontiers of remoteness (units: the frontiers done;\n"
           "their number is not known in advance) and hold /pn and /remoteness so far.\n"
           "Without --pn-only (and in normal play) the generalized Sprague-Grundy values\n"
           "follow (Smith; Fraenkel): /grundy holds each finite value or the infinity\n"
           "code, the sets K of inf(K) are beside it; 'query' prints them and decides\n"
           "sums of two tables (query A.h5 x y --plus B.h5 u v).\n"
           "\n",
          stdout);
    fputs("Across MPI ranks (an MPI build: mpirun -np R nimsieve solve ...): two-pile Grundy\n"
           "tables of the tile kernel (tiles2d: Wythoff, two-pile Nim, rule files of rays) are\n"
           "shared by the ranks, rows of tiles dealt cyclically, and so are two-pile P/N\n"
           "tables of the row kernel (rows-pn, --pn-only), blocks of 256 rows dealt\n"
           "cyclically; in memory or --stream. The file is the same as one process's\n"
           "(values, chunks, filters, attributes), with the attributes mpi_ranks and\n"
           "mpi_write: rank 0 writes it, or with --mpi-write placed or parallel (tables in\n"
           "memory: tile kernel, row kernel, general engine) every rank writes its share\n"
           "of the chunks. The general engine (three or more\n"
           "piles, Moore's Nim, a-Wythoff, other moves) too: each rank computes a block\n"
           "of every level, the ranks swap the blocks' values after each level and\n"
           "every rank keeps the whole table, so every rank writes its share of the\n"
           "file (placed, by default).\n"
           "Checkpoints and --resume across ranks, for all three: the checkpoint is the\n"
           "single-process OUT.h5.ckpt; rank 0 writes it (after each unit it holds every\n"
           "finished tile or block of rows), but for the general engine, whose ranks\n"
           "each write their share of its chunks (--mpi-write rank0: rank 0 alone);\n"
           "--resume goes on under any number of\n"
           "ranks, or one process, rank 0 passing on what the others need (the finished\n"
           "tiles; the finished rows' P-positions; the general engine's table).\n"
           "SIGTERM to the ranks: rank 0 has the final checkpoint written at the end\n"
           "of its unit (a range of tiles, a block of rows, a level), then ends every rank\n"
           "(mpirun passes SIGTERM on after ~1 s and kills ~1 s later: the final\n"
           "checkpoint only if rank 0 gets there first). A rank that dies ends the job\n"
           "(mpirun says which); the last checkpoint stays intact. Other games run on\n"
           "rank 0 alone.\n"
           "--mpi-sets owned (the default across ranks of the tile kernel's games: two\n"
           "piles, plain rays of any step; Wythoff and two-pile Nim, in a square box,\n"
           "compute and send only half the tiles): each rank keeps only the line sets\n"
           "its own tiles use, the others rest at their home ranks, packed, and\n"
           "travel between tiles, so the set memory per rank falls as ranks are\n"
           "added, for more bytes exchanged and more time (a tile moves a + q blocks\n"
           "of a ray (x - a t, y - q t): for long steps several times the time of\n"
           "replicated sets: README, \"Owned line sets\"); in memory rank\n"
           "0 takes every tile and writes the file alone (whatever --mpi-write asks);\n"
           "streamed, each rank filters its own tiles into chunks and writes them into\n"
           "rank 0's file at the places rank 0 gives them (rank 0 gets sizes and\n"
           "P-positions, no values; where a rank cannot open the file, or with\n"
           "--mpi-write rank0, rank 0 takes the tiles and writes it alone). The\n"
           "'mpi sets:' line gives the most set memory a rank held and the bytes\n"
           "exchanged; the file's attribute mpi_sets says which. --mpi-sets\n"
           "replicated: every rank keeps all the sets (faster where they fit).\n"
           "A --resume with owned sets: rank 0 replays the finished tiles into the sets\n"
           "at their homes. On one rank, owned runs the exchange all the same (its\n"
           "figures); without MPI the option is ignored.\n"
           "\n"
           "examples:\n"
           "  nimsieve solve wythoff --size 4096 -o wythoff.h5\n"
           "  nimsieve solve nim -D piles=4 --size 32 --pn-only -o nim4.h5\n"
           "  nimsieve solve subtraction -D set=1,3,4 --bounds 1000 -o sub.h5\n"
           "  nimsieve solve octal -D code=0.77 --size 20000 -o kayles.h5    # a heap game's sequence\n"
           "  nimsieve solve data/rules/wythoff.rules --bounds 512,512 -o w.h5\n"
           "  nimsieve solve nim -D piles=3 --size 128 --checkpoint-every 60 -o n3.h5\n"
           "  nimsieve solve nim -D piles=3 --size 128 --resume -o n3.h5   # after a stop\n"
           "\n"
           "The plan line gives the expected time and the size of the file, worked out\n"
           "from the cell count, the engine's measured cost a cell and a sample of the\n"
           "game's moves: about right on an idle machine (observed within a factor of\n"
           "3), slower on a busy one; the file size is for values that compress little.\n",
          stdout);
}

typedef struct solve_args {
    const char *game;
    ns_cli_box_opts box;   /* -D, --size, --bounds */
    int pn_only, misere, force, quiet, help, resume, stream, no_stream, loose_bound;
    int until_periodic;    /* heap games: stop when a period is proven */
    int threads;           /* 0: OpenMP's default */
    uint64_t memory;       /* budget in bytes; 0: MemAvailable */
    double ckpt_every;     /* seconds; 0: no checkpoints */
    int ckpt_given;        /* --checkpoint-every was on the command line */
    int mpi_write;         /* --mpi-write: MPI_WRITE_RANK0, _PARALLEL or _PLACED */
    int mpi_write_given;   /* --mpi-write was on the command line */
    int mpi_sets;          /* --mpi-sets: MPI_SETS_AUTO, _REPLICATED, _OWNED */
    int64_t mpi_rows;      /* --mpi-rows: tile rows dealt to a rank at a time; 0: the default */
    uint64_t mpi_keep;     /* --mpi-keep: bytes of owned line sets a rank keeps between uses */
    int mpi_keep_given;
    const char *out;
} solve_args;

/* --mpi-write: who writes the file of a solve across MPI ranks */
enum { MPI_WRITE_RANK0 = 0, MPI_WRITE_PARALLEL = 1, MPI_WRITE_PLACED = 2 };
/* the default: rank 0 alone, measured faster on this machine (README,
 * "Across MPI ranks", the write-time table) */
#define MPI_WRITE_DEFAULT MPI_WRITE_RANK0

enum { MPI_SETS_AUTO = 0, MPI_SETS_REPLICATED = 1, MPI_SETS_OWNED = 2 };

/* "4G", "512M", "1.5GiB", "100000": bytes (powers of 1024). */
static int parse_memory(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || !(v > 0))
        return -1;
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (mul > 1 && (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0))
        end += strlen(end);
    if (*end || v * mul > 1.8e19 || v * mul < 1)
        return -1;
    *out = (uint64_t)(v * mul);
    return 0;
}

static int parse_args(int argc, char **argv, solve_args *a)
{
    static const struct option longopts[] = {
        {"define", required_argument, NULL, 'D'}, {"size", required_argument, NULL, 'n'},
        {"bounds", required_argument, NULL, 'b'}, {"pn-only", no_argument, NULL, 'p'},
        {"misere", no_argument, NULL, 'm'},       {"threads", required_argument, NULL, 't'},
        {"force", no_argument, NULL, 'f'},        {"quiet", no_argument, NULL, 'q'},
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
        {"memory", required_argument, NULL, 'M'}, {"checkpoint-every", required_argument, NULL, 'c'},
        {"resume", no_argument, NULL, 'r'},       {"stream", no_argument, NULL, 's'},
        {"until-periodic", no_argument, NULL, 'U'}, {"loose-bound", no_argument, NULL, 'L'},
        {"no-stream", no_argument, NULL, 'S'},    {"mpi-write", required_argument, NULL, 'W'},
        {"mpi-sets", required_argument, NULL, 'E'},  {"mpi-rows", required_argument, NULL, 'K'},
        {"mpi-keep", required_argument, NULL, 'Y'},
        {NULL, 0, NULL, 0},
    };
    ns_error err = {0};
    int c;
    int64_t v;
    memset(a, 0, sizeof *a);
    a->ckpt_every = 300;
    a->mpi_write = MPI_WRITE_DEFAULT;
    optind = 1;
    opterr = 0;
    /* the short options are the letters --help lists; --loose-bound,
     * --no-stream, --mpi-write and --mpi-sets are long only */
    while ((c = getopt_long(argc, argv, ":D:n:b:pmt:fqo:hM:c:rsU", longopts, NULL)) != -1) {
        switch (c) {
        case 'D':
        case 'n':
        case 'b':
            if (ns_cli_box_option(CMD, c, optarg, &a->box))
                return NS_EXIT_ERROR;
            break;
        case 'p': a->pn_only = 1; break;
        case 'm': a->misere = 1; break;
        case 't':
            if (ns_cli_parse_int(optarg, "--threads", 1, 4096, &v, &err))
                return ns_cli_error(CMD, "%s", err.msg);
            a->threads = (int)v;
            break;
        case 'f': a->force = 1; break;
        case 'q': a->quiet = 1; break;
        case 'r': a->resume = 1; break;
        case 's': a->stream = 1; break;
        case 'U': a->until_periodic = 1; break;
        case 'L': a->loose_bound = 1; break;
        case 'S': a->no_stream = 1; break;
        case 'E':
            if (strcmp(optarg, "replicated") == 0)
                a->mpi_sets = MPI_SETS_REPLICATED;
            else if (strcmp(optarg, "owned") == 0)
                a->mpi_sets = MPI_SETS_OWNED;
            else
                return ns_cli_error(CMD, "--mpi-sets '%s': expected replicated or owned", optarg);
            /* a build without MPI: one process, which keeps every set */
            if (!ns_dist_is_mpi_build())
                a->mpi_sets = MPI_SETS_AUTO;
            break;
        case 'K': {
            char *end;
            errno = 0;
            const long long v = strtoll(optarg, &end, 10);
            if (errno || end == optarg || *end || v < 1 || v > 1000000)
                return ns_cli_error(CMD, "--mpi-rows '%s': expected a number of tile rows from 1 to 1000000", optarg);
            a->mpi_rows = (int64_t)v;
            break;
        }
        case 'Y':
            if (strcmp(optarg, "0") != 0 && parse_memory(optarg, &a->mpi_keep))
                return ns_cli_error(CMD, "--mpi-keep '%s': expected a size such as 256M, 1G or 0 (none)", optarg);
            a->mpi_keep_given = 1;
            break;
        case 'M':
            if (parse_memory(optarg, &a->memory))
                return ns_cli_error(CMD, "--memory '%s': expected a size such as 4G, 512M, 1.5GiB or a number of bytes",
                                    optarg);
            break;
        case 'c': {
            char *end;
            errno = 0;
            double secs = strtod(optarg, &end);
            if (end == optarg || *end || errno || !(secs >= 0) || secs > 1e9)
                return ns_cli_error(CMD, "--checkpoint-every '%s': expected a number of seconds >= 0", optarg);
            a->ckpt_every = secs;
            a->ckpt_given = 1;
            break;
        }
        case 'o': a->out = optarg; break;
        case 'h': a->help = 1; break;
        case 'W':
            if (strcmp(optarg, "rank0") == 0)
                a->mpi_write = MPI_WRITE_RANK0;
            else if (strcmp(optarg, "parallel") == 0)
                a->mpi_write = MPI_WRITE_PARALLEL;
            else if (strcmp(optarg, "placed") == 0)
                a->mpi_write = MPI_WRITE_PLACED;
            else
                return ns_cli_error(CMD, "--mpi-write '%s': expected rank0, placed or parallel", optarg);
            a->mpi_write_given = 1;
            break;
        default: return ns_cli_bad_option(CMD, c, argv);
        }
    }
    if (a->help)
        return NS_EXIT_OK;
    if (optind >= argc)
        return ns_cli_error(CMD, "missing GAME: expected a preset name or a rule file (see 'nimsieve solve --help')");
    a->game = argv[optind];
    if (optind + 1 < argc)
        return ns_cli_error(CMD, "unexpected argument '%s' after GAME '%s' (give bounds with --bounds N1,N2,..)",
                            argv[optind + 1], a->game);
    if (!a->out)
        return ns_cli_error(CMD, "missing -o OUT.h5: expected the path of the table file to write");
    if (a->out[0] == '\0')
        return ns_cli_error(CMD, "-o: the output path is empty");
    return ns_cli_box_check(CMD, &a->box, 1);
}

/* Refuse early (before minutes of work) when OUT cannot be written. Under
 * MPI only rank 0 looks (the ranks may not share its directory, and another
 * rank may get here after rank 0 wrote the file of a solve it runs alone);
 * the ranks learn its answer at their early meeting (cmd_solve). */
static int check_output(const char *out, int force)
{
    if (ns_dist_rank() != 0)
        return NS_EXIT_OK;
    struct stat st;
    if (stat(out, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return ns_cli_error(CMD, "-o '%s' is a directory: expected a file path", out);
        if (!force)
            return ns_cli_error(CMD, "'%s' exists: use --force to overwrite it", out);
    }
    char dir[4096];
    const char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == out)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ns_cli_error(CMD, "cannot write '%s': directory '%s' does not exist", out, dir);
    if (access(dir, W_OK) != 0)
        return ns_cli_error(CMD, "cannot write '%s': directory '%s' is not writable", out, dir);
    return NS_EXIT_OK;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* State of one solve shared with the kernel's callbacks. */
typedef struct solve_ctx {
    const solve_args *a;
    ns_cli_progress prog;
    const ns_table *t;      /* the table being filled; borrowed */
    ns_h5_stream *stream;   /* or the stream it goes to; borrowed */
    ns_h5_seq *seq;         /* a streamed sequence: its stream; owned */
    const ns_meta *meta;    /* game, rules, params, play; borrowed */
    const char *ckpt_path;  /* "<out>.ckpt"; borrowed */
    const char *kernel;     /* the engine's name (ns_engine.name) */
    double t0;              /* ns_cli_now() when this run started solving */
    double prior;           /* seconds solved before a resume */
    uint64_t resume_total;  /* units_total of the checkpoint resumed, else 0 */
    double next_due;        /* ns_cli_now() after which the next checkpoint is written */
    int nwritten;
    double write_seconds;   /* spent writing checkpoints */
    uint64_t units_done, units_total, units_saved; /* last seen / last written */
    int stopped;            /* a stop signal ended the run */
    int failed;             /* a checkpoint could not be written; see err */
    ns_error err;
    ns_sweep_until until;   /* --until-periodic: until.octal the heap game (else
                               NULL), until.at the heap sizes done when a period
                               was proven (analysis/ns_sweep.h) */
    int dist;               /* the tile kernel or the P/N row kernel across the
                               MPI ranks (more than one) */
    int owned;              /* the tile kernel across ranks with owned line
                               sets (ns_dist_tiles_own) */
    int ckpt_placed;        /* the general engine across ranks: every rank
                               takes the checkpoint callback, rank 0 decides
                               (its note in the level exchange, ckpt_note)
                               and every rank writes its share of the
                               checkpoint (ns_h5_ckpt_write_placed) */
    ns_dist_levels *dl;     /* with it: the level exchange; borrowed */
    int ckpt_shared;        /* with it: checkpoints written by every rank */
    uint64_t ckpt_bytes, ckpt_others;   /* rank 0: the bytes of the last
                                           one, of them the other ranks' */
} solve_ctx;

/* Under MPI: the tile exchange of a solve across the ranks into *x and
 * opts (progress and checkpoints from rank 0 only: it has every finished
 * tile, so its checkpoint is the job's; a resume's finished tiles go from
 * it to the others, ns_dist_tiles_resume); the P/N row kernel (rows-pn)
 * takes the same hooks with blocks of rows for rows of tiles (rank 0 has
 * every finished block too; a resume's finished rows reach the others as
 * P-positions, dist_resume_share). NULL after printing the error. */
static ns_dist_tiles *dist_start(const ns_game *g, const ns_engine_plan *plan, ns_engine_opts *opts,
                                 ns_tile_exchange *x, ns_meta *meta, int owned, const solve_args *a)
{
    ns_error err = {0};
    /* every rank has checked the paths and allocated its table before rank 0
     * writes any: the ranks meet (a rank that failed before meets them in
     * main with its error, and all stop), unless they met already (the
     * streamed path, before its writer) */
    if (!ns_cli_dist_agreed() && ns_cli_dist_agree(NS_EXIT_OK) != NS_EXIT_OK)
        return NULL;
    const int64_t unit = plan->engine->stream_unit();
    ns_dist_tiles *d = ns_dist_tiles_new((g->bounds[0] + unit - 1) / unit, unit, x, &err);
    if (!d) {
        ns_cli_error(CMD, "rank %d: %s", ns_dist_rank(), err.msg);
        /* the others met this rank already and go on to the kernel */
        ns_dist_abort(NS_EXIT_ERROR);
        return NULL;
    }
    if (owned && ns_dist_tiles_own(d, x, (g->bounds[1] + unit - 1) / unit, owned == 1, &err)) {
        ns_cli_error(CMD, "%s", err.msg);
        ns_dist_abort(NS_EXIT_ERROR);
        return NULL;
    }
    if (strcmp(plan->engine->name, "tiles2d") == 0) {
        snprintf(meta->mpi_sets, sizeof meta->mpi_sets, "%s", owned ? "owned" : "replicated");
        /* tile rows a rank at a time: by default, with owned sets, as many
         * as its threads (consecutive rows pass their lines on in place) */
        ns_dist_tiles_deal(d, a->mpi_rows > 0 ? a->mpi_rows : owned ? opts->threads : 1);
    }
    /* owned sets: by default a rank keeps as many bytes of blocks between
     * its uses of them as its share of the single process's line sets */
    x->keep = !owned ? 0 : a->mpi_keep_given ? a->mpi_keep : plan->line_bytes / (uint64_t)ns_dist_size();
    opts->tile_exchange = x;
    if (ns_dist_rank() != 0) {
        opts->progress = NULL;
        opts->checkpoint = NULL;
    }
    meta->mpi_ranks = ns_dist_size();
    /* a rank that fails now ends the job: the others would wait for its tiles */
    ns_cli_errors_every_rank(1);
    return d;
}

/* Under MPI: after the engine ran across the ranks. A failure (rc, already
 * printed) ends every rank; else this rank's sends are finished and the
 * bytes exchanged said (rank 0's, on stdout unless quiet; pn: the row
 * kernel's blocks of rows, else tiles, with team: the threads of rank 0's
 * engine). */
static int dist_end(ns_dist_tiles *d, int rc, int quiet, int pn, int team, uint64_t keep)
{
    ns_error err = {0};
    if (!rc && ns_dist_tiles_finish(d, &err))
        rc = ns_cli_error(CMD, "%s", err.msg);
    if (rc) {
        fflush(stderr);
        ns_dist_abort(rc);
        return rc;
    }
    uint64_t sent, got;
    ns_dist_tiles_bytes(d, &sent, &got);
    if (!quiet && pn)
        printf("mpi:           %d ranks, blocks of rows dealt cyclically; rank 0 sent %.1f MB and received %.1f MB of "
               "P bitmaps\n", ns_dist_size(), (double)sent / 1e6, (double)got / 1e6);
    else if (!quiet)
        printf("mpi:           %d ranks, tile rows dealt cyclically, %" PRId64 " at a time; rank 0 sent %.1f MB and "
               "received %.1f MB of %s; rank 0 computed on %d thread%s\n", ns_dist_size(), ns_dist_tiles_dealt(d),
               (double)sent / 1e6, (double)got / 1e6,
               ns_dist_tiles_placed(d) ? "placing requests (the ranks wrote their tiles themselves)" : "tiles", team,
               team == 1 ? "" : "s");
    ns_dist_sets s;
    ns_dist_tiles_sets(d, &s);
    if (!quiet && !pn && s.owned)
        printf("mpi sets:      owned (each rank keeps its share of the line sets): at most %" PRIu64 " bytes of line "
               "sets on a rank at once (%.1f MB; rank 0: %.1f MB), counted, of which up to %.1f MB of blocks kept "
               "between uses (--mpi-keep); line windows exchanged: %" PRIu64 " bytes by all ranks (rank 0 sent %.1f "
               "MB, received %.1f MB)\n", s.peak_max, (double)s.peak_max / 1e6, (double)s.peak / 1e6, (double)keep / 1e6,
               s.sent_all, (double)s.sent / 1e6, (double)s.received / 1e6);
    else if (!quiet && !pn)
        printf("mpi sets:      replicated (every rank keeps a single process's line sets)\n");
    return NS_EXIT_OK;
}

/* Under MPI: the general engine's level exchange across the ranks into *x
 * and opts (progress from rank 0 only; checkpoints: after each level every
 * rank holds the whole state, so rank 0's checkpoint is the job's; with
 * all_ckpt every rank takes the callback and writes its share of it, the
 * decision rank 0's: on_checkpoint). NULL after printing the error. */
static ns_dist_levels *dist_levels_start(ns_engine_opts *opts, ns_level_exchange *x, ns_meta *meta, int all_ckpt)
{
    ns_error err = {0};
    /* every rank has checked the paths and allocated its table before rank 0
     * writes any: the ranks meet (see dist_start) */
    if (!ns_cli_dist_agreed() && ns_cli_dist_agree(NS_EXIT_OK) != NS_EXIT_OK)
        return NULL;
    ns_dist_levels *d = ns_dist_levels_new(x, &err);
    if (!d) {
        ns_cli_error(CMD, "rank %d: %s", ns_dist_rank(), err.msg);
        ns_dist_abort(NS_EXIT_ERROR);
        return NULL;
    }
    opts->level_exchange = x;
    if (ns_dist_rank() != 0) {
        opts->progress = NULL;
        if (!all_ckpt)   /* placed checkpoints: every rank takes the callback */
            opts->checkpoint = NULL;
    }
    meta->mpi_ranks = ns_dist_size();
    /* a rank that fails now ends the job: the others would wait for its levels */
    ns_cli_errors_every_rank(1);
    return d;
}

/* Under MPI: after the general engine ran across the ranks. A failure (rc,
 * already printed) ends every rank; else the bytes exchanged are said
 * (rank 0's, on stdout unless quiet). */
static int dist_levels_end(ns_dist_levels *d, int rc, int quiet)
{
    if (rc) {
        fflush(stderr);
        ns_dist_abort(rc);
        return rc;
    }
    uint64_t sent, got, levels, w[3];
    ns_dist_levels_bytes(d, &sent, &got, &levels);
    ns_dist_levels_widths(d, w);
    if (!quiet)
        printf("mpi:           %d ranks, a block of each of %" PRIu64 " shared levels a rank; rank 0 sent %.1f MB and "
               "received %.1f MB of values (levels at 1, 2, 4 bytes a value: %" PRIu64 ", %" PRIu64 ", %" PRIu64
               ")\n", ns_dist_size(), levels, (double)sent / 1e6, (double)got / 1e6, w[0], w[1], w[2]);
    return NS_EXIT_OK;
}

/* Under MPI, a resume of the P/N row kernel: rank 0's P-positions of the
 * finished rows reach every rank as opts->resume_p (the ranks but 0 run
 * without a table and rebuild their line flags from them, ns_rows_fn).
 * Rank 0 takes them from t, the rows of the units done (unit rows a unit),
 * or without a table (streamed) from its own opts->resume_p. *own gets
 * the array made here (caller frees). rc: this rank's outcome so far;
 * every rank calls it, and a failure on any fails all (printed where it
 * happened). */
static int dist_share_p(int rc, const ns_table *t, uint64_t units, int64_t unit, ns_engine_opts *opts, int64_t **own)
{
    ns_error err = {0};
    const int zero = ns_dist_rank() == 0;
    uint64_t np = 0;
    int64_t *p = NULL;
    if (zero && !rc && t) {
        const int64_t n0 = t->bounds[0], n1 = t->bounds[1];
        const int64_t rows = units < (uint64_t)((n0 + unit - 1) / unit) ? (int64_t)units * unit : n0;
        const uint8_t *c = t->data;
        const uint64_t cells = (uint64_t)rows * (uint64_t)n1;
        for (uint64_t i = 0; i < cells; i++)
            np += c[i] == NS_PN_P;
        if (!(p = malloc((size_t)(np ? np : 1) * 2 * sizeof *p))) {
            rc = ns_cli_error(CMD, "out of memory for the %" PRIu64 " P-positions of the resume", np);
        } else {
            uint64_t j = 0;
            for (uint64_t i = 0; i < cells; i++)
                if (c[i] == NS_PN_P) {
                    p[j++] = (int64_t)(i / (uint64_t)n1);
                    p[j++] = (int64_t)(i % (uint64_t)n1);
                }
        }
    } else if (zero && !rc) {
        np = opts->resume_np;
    }
    np = ns_dist_bcast_u64(np);
    if (!zero && !rc && !(p = malloc((size_t)(np ? np : 1) * 2 * sizeof *p)))
        rc = ns_cli_error(CMD, "rank %d: out of memory for the %" PRIu64 " P-positions of the resume", ns_dist_rank(),
                          np);
    if (ns_dist_max_code(rc)) {
        free(p);
        return rc ? rc : NS_EXIT_ERROR;
    }
    /* rank 0's streamed pairs are only read by the broadcast */
    void *buf = zero && !t ? (void *)opts->resume_p : p;
    if (np && ns_dist_bcast_bytes(buf, np * 2 * sizeof *p, &err)) {
        ns_cli_error(CMD, "%s", err.msg);
        fflush(stderr);
        free(p);
        ns_dist_abort(NS_EXIT_ERROR);
        return NS_EXIT_ERROR;
    }
    if (!zero) {
        opts->resume_p = p;
        opts->resume_np = np;
    }
    *own = p;
    return NS_EXIT_OK;
}

/* Under MPI, a resume in memory, after rank 0 alone read the checkpoint
 * (rc: this rank's outcome so far): every rank starts from the same
 * state. The general engine's table goes from rank 0 to every rank (the
 * engine rebuilds its sets from it); the row kernel's finished rows as
 * P-positions (dist_share_p); the tile kernel's finished tiles rank 0
 * sends as it replays them (ns_dist_tiles_resume): nothing here. Every
 * rank calls it; a failure on any fails all. */
static int dist_resume_share(int rc, const ns_engine_plan *plan, ns_table *t, uint64_t units, ns_engine_opts *opts,
                             int64_t **own)
{
    if (strcmp(plan->engine->name, "rows-pn") == 0)
        return dist_share_p(rc, ns_dist_rank() == 0 ? t : NULL, units, plan->engine->stream_unit(), opts, own);
    if (ns_dist_max_code(rc))
        return rc ? rc : NS_EXIT_ERROR;
    if (strcmp(plan->engine->name, "general") != 0)
        return NS_EXIT_OK;
    ns_error err = {0};
    const uint64_t elem = ns_dist_bcast_u64((uint64_t)t->elem);
    if (ns_dist_max_code(elem != (uint64_t)t->elem))
        return ns_cli_error(CMD, "rank %d: the checkpoint's table has %d-byte values on rank 0, %d here",
                            ns_dist_rank(), (int)elem, t->elem);
    if (ns_dist_bcast_bytes(t->data, t->ncells * (uint64_t)t->elem, &err)) {
        ns_cli_error(CMD, "%s", err.msg);
        fflush(stderr);
        ns_dist_abort(NS_EXIT_ERROR);
        return NS_EXIT_ERROR;
    }
    return NS_EXIT_OK;
}

/* Under MPI, in memory: every rank writes its share of the table file
 * (mode MPI_WRITE_PARALLEL: ns_h5_write_par, rank 0's wall time in the
 * file; MPI_WRITE_PLACED: ns_h5_write_placed, rep (OPTIONAL) what it did),
 * stats (OPTIONAL) the summary. A failure is printed with the rank; with
 * parallel HDF5 it ends the job; placed, every rank has agreed on it
 * (only the rank whose failure it is says it) and returns. */
static int dist_write(const solve_args *a, int mode, const ns_table *t, ns_meta *meta, int threads, double wall,
                      ns_table_stats *stats, ns_h5_placed_report *rep)
{
    ns_error err = {0};
    ns_table_stats ts;
    ns_h5_placed_report r0;
    meta->threads = threads;
    meta->wall_seconds = wall;
    meta->complete = 1;
    if (mode == MPI_WRITE_PLACED) {
        if (!rep)
            rep = &r0;
        const ns_err rc = ns_h5_write_placed(a->out, t, meta, a->force ? NS_H5_FORCE : 0, ns_dist_comm(),
                                             stats ? stats : &ts, rep, &err);
        if (rep->refused) /* as for a streamed table's placed chunks */
            fprintf(stderr, "nimsieve solve: rank %d: %s.part: %s; rank 0 writes the file alone (each rank writes its "
                    "own chunks only where every rank sees the output's file system)\n", ns_dist_rank(), a->out,
                    rep->refused > 0 ? strerror(rep->refused) : "not the file rank 0 writes");
        if (!rc)
            return NS_EXIT_OK;
        if (!rep->echo)
            ns_cli_error(CMD, "%s", err.msg);   /* "rank R of N: " comes with it */
        fflush(stderr);
        return NS_EXIT_ERROR;
    }
    if (ns_h5_write_par(a->out, t, meta, a->force ? NS_H5_FORCE : 0, ns_dist_comm(), stats ? stats : &ts, &err)) {
        ns_cli_error(CMD, "%s", err.msg);   /* "rank R of N: " comes with it */
        fflush(stderr);
        ns_dist_abort(NS_EXIT_ERROR);
        return NS_EXIT_ERROR;
    }
    return NS_EXIT_OK;
}

/* a rank other than 0 writes nothing: its sink drops the tiles */
static int on_tile_drop(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    (void)user;
    (void)x0;
    (void)y0;
    (void)nx;
    (void)ny;
    (void)vals;
    return 0;
}

/* the same for a P/N solve's blocks of rows */
static int on_rows_drop(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p)
{
    (void)user;
    (void)x0;
    (void)nrows;
    (void)words;
    (void)p;
    return 0;
}

static int on_progress(void *user, double fraction)
{
    solve_ctx *c = user;
    int stop = ns_cli_progress_cb(&c->prog, fraction);
    /* with checkpoints, a stop waits for the end of the unit (on_checkpoint) */
    return c->a->ckpt_every > 0 ? 0 : stop;
}

/* heap sizes final after `units` units of a sequence engine */
static int64_t seq_done(const ns_table *t, uint64_t units)
{
    const uint64_t n = units * NS_SEQ_UNIT;
    return n < (uint64_t)t->bounds[0] ? (int64_t)n : t->bounds[0];
}

/* the sink of a streamed sequence: G(0 .. n-1) are final */
static int on_seq_unit(void *user, const ns_table *t, int64_t n)
{
    solve_ctx *c = user;
    if (!ns_h5_seq_append(c->seq, t, n, &c->err))
        return 0;
    c->failed = 1;
    return 1;
}

/* Write the checkpoint after `done` units: across ranks, with placed
 * checkpoints (all: every rank calls it at once), every rank its share;
 * else this process alone. 0 on success; -1 with c->err (and c->failed). */
static int write_checkpoint_with(solve_ctx *c, uint64_t done, uint64_t total, int all)
{
    ns_h5_ckpt ck;
    memset(&ck, 0, sizeof ck);
    snprintf(ck.kernel, sizeof ck.kernel, "%s", c->kernel);
    ck.units_done = done;
    ck.units_total = total;
    const double start = ns_cli_now();
    ck.seconds = c->prior + (start - c->t0);
    if (all) {
        ns_h5_placed_report rep;
        const ns_err rc = ns_h5_ckpt_write_placed(c->ckpt_path, c->t, c->meta, &ck, ns_dist_comm(), &rep, &c->err);
        if (rep.refused && !c->nwritten) /* said once, as for the file's placed chunks */
            fprintf(stderr, "nimsieve solve: rank %d: %s.tmp: %s; rank 0 writes the checkpoints alone (each rank "
                    "writes its own chunks only where every rank sees the output's file system)\n", ns_dist_rank(),
                    c->ckpt_path, rep.refused > 0 ? strerror(rep.refused) : "not the file rank 0 writes");
        if (rc) {
            /* a rank's own failure is said here ("rank R of N: "); another's
             * by that rank, and rank 0 ends the job */
            if (ns_dist_rank() != 0 && !rep.echo)
                ns_cli_error(CMD, "%s", c->err.msg);
            c->failed = 1;
            return -1;
        }
        c->ckpt_shared = rep.shared;
        c->ckpt_bytes = rep.bytes;
        c->ckpt_others = rep.bytes_others;
    } else if (c->seq ? ns_h5_seq_checkpoint(c->seq, c->t, seq_done(c->t, done), c->ckpt_path, c->meta, &ck, &c->err)
               : c->stream ? ns_h5_stream_checkpoint(c->stream, c->ckpt_path, c->meta, &ck, &c->err)
                           : ns_h5_ckpt_write(c->ckpt_path, c->t, c->meta, &ck, &c->err)) {
        c->failed = 1;
        return -1;
    }
    const double dt = ns_cli_now() - start;
    c->nwritten++;
    c->write_seconds += dt;
    c->units_saved = done;
    /* at most 5% of the time goes to checkpoints */
    c->next_due = ns_cli_now() + (c->a->ckpt_every > 20 * dt ? c->a->ckpt_every : 20 * dt);
    return 0;
}

static int write_checkpoint(solve_ctx *c, uint64_t done, uint64_t total)
{
    return write_checkpoint_with(c, done, total, 0);
}

/* Test hook: NS_SOLVE_TEST_TERM_AT=N: the solve raises SIGTERM on itself
 * once N units are done (a stop at a known unit; across ranks rank 0's:
 * it alone gets the checkpoint callback). 0: none. */
static uint64_t test_term_at(void)
{
    const char *e = getenv("NS_SOLVE_TEST_TERM_AT");
    return e && *e ? strtoull(e, NULL, 10) : 0;
}

/* What to do after `done` units: the result says whether to stop, *write
 * whether to write a checkpoint first (a failed write stops too). */
static int ckpt_plan(solve_ctx *c, uint64_t done, uint64_t total, int *write)
{
    *write = 0;
    const uint64_t term_at = test_term_at();
    if (term_at && done >= term_at && !ns_cli_interrupted())
        raise(SIGTERM);
    c->units_done = done;
    c->units_total = total;
    if (c->resume_total && total != c->resume_total) {
        ns_error_set(&c->err, NS_EINVAL, "%s: the checkpoint counts %llu units but this solve has %llu (written by "
                     "another version of nimsieve?); remove it or use --force to start over", c->ckpt_path,
                     (unsigned long long)c->resume_total, (unsigned long long)total);
        c->failed = 1;
        return 1;
    }
    if (c->until.octal && ns_sweep_octal_stop(&c->until, done, total)) /* --until-periodic */
        return 1;
    const int sig = ns_cli_interrupted();
    if (c->a->ckpt_every <= 0)
        return sig;
    if (sig && done < total) {
        c->stopped = 1;
        *write = done > c->units_saved && done < total;
        return 1;
    }
    *write = done < total && ns_cli_now() >= c->next_due;
    return 0;
}

/* Placed checkpoints across ranks (the general engine), rank 0 at each
 * level exchange, before the ranks meet: its note for after that level
 * (NOTE_WRITE: a checkpoint is due; NOTE_STOP: a signal, stop after it),
 * which reaches every rank in rank 0's header (ns_dist_levels_set_note):
 * ckpt_plan's choice, made one exchange ahead, without a meeting of its
 * own (a broadcast at every level cost 2% of Nim 192^3 on 2 ranks). Not
 * ckpt_plan itself: that records the level as done (units_done), which a
 * widening of this very level would make false (the final checkpoint of
 * a widening past --memory writes units_done levels). */
enum { NOTE_WRITE = 1, NOTE_STOP = 2 };

static uint32_t ckpt_note(void *user, int64_t level)
{
    solve_ctx *c = user;
    const uint64_t done = (uint64_t)level + 1, total = c->units_total;
    const uint64_t term_at = test_term_at();
    if (term_at && done >= term_at && !ns_cli_interrupted())
        raise(SIGTERM);
    if (!total || done >= total)
        return 0;
    if (ns_cli_interrupted())
        return NOTE_STOP | (done > c->units_saved ? NOTE_WRITE : 0);
    return ns_cli_now() >= c->next_due ? NOTE_WRITE : 0;
}

static int on_checkpoint(void *user, uint64_t done, uint64_t total)
{
    solve_ctx *c = user;
    int write = 0, stop = 0;
    if (!c->ckpt_placed) {
        stop = ckpt_plan(c, done, total, &write);
        if (write && write_checkpoint(c, done, total) && !stop)
            return 1;
        return stop;
    }
    /* placed checkpoints across ranks: every rank comes here after every
     * level and does what rank 0's note of this level's exchange says (a
     * level the ranks did not share, a small one every rank computes:
     * nothing, a signal waits for the next shared level). A stop is rank
     * 0's: it says why and ends the job; the others go on to the next
     * level's exchange, which waits for it */
    c->units_done = done;
    c->units_total = total;
    uint32_t note = 0;
    if (ns_dist_levels_noted(c->dl, &note) != (int64_t)done - 1)
        note = 0;
    if (ns_dist_rank() == 0) {
        if (c->resume_total && total != c->resume_total)
            return ckpt_plan(c, done, total, &write);   /* fails: rank 0 ends the job */
        if (note & NOTE_STOP)
            c->stopped = 1;
    }
    const int failed = (note & NOTE_WRITE) && write_checkpoint_with(c, done, total, 1);
    return ns_dist_rank() == 0 && ((note & NOTE_STOP) || failed);
}

/* Does the checkpoint belong to this solve? NULL if so, else what differs. */
static const char *ckpt_mismatch(const ns_h5_ckpt_info *ci, const ns_meta *m, const ns_game *g, int pn_only,
                                 const char *kernel)
{
    const char *r1 = ci->meta.rules_text ? ci->meta.rules_text : "", *r2 = m->rules_text ? m->rules_text : "";
    /* a rule file's checkpoint from before names were kept says "rules":
     * its text decides */
    const int old_rules = ci->meta.rules_text && m->rules_text && strcmp(ci->meta.game, "rules") == 0;
    if (!old_rules && strcmp(ci->meta.game, m->game) != 0)
        return "the game";
    if (strcmp(r1, r2) != 0)
        return "the rule file's text";
    if (strcmp(ci->meta.params, m->params) != 0)
        return "the parameters (-D)";
    if (ci->k != g->k || memcmp(ci->bounds, g->bounds, sizeof(int64_t) * (size_t)g->k) != 0)
        return "the bounds";
    if (ci->meta.play != g->play)
        return "the play convention (--misere)";
    if (ci->meta.pn_only != pn_only)
        return "the kind (--pn-only)";
    if (kernel && strcmp(ci->ckpt.kernel, kernel) != 0)
        return "the solver kernel (written by another version of nimsieve?)";
    return NULL;
}

static void format_command(int argc, char **argv, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "nimsieve");
    for (int i = 0; i < argc && used < len; i++) {
        if (strcmp(argv[i], "--resume") == 0 || strcmp(argv[i], "-r") == 0)
            continue;
        int plain = argv[i][0] != '\0' && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789-_=.,/:+") == strlen(argv[i]);
        used += (size_t)snprintf(buf + used, len - used, plain ? " %s" : " '%s'", argv[i]);
    }
    if (used < len)
        snprintf(buf + used, len - used, " --resume");
}

/* The summary lines both kinds of solve print: bounds and kind as text. */
static void print_summary(const ns_game *g, const ns_meta *meta, const char *bounds, const char *kind,
                          const ns_table_stats *ts, int show_max)
{
    char label[NS_NAME_LEN + 600];
    ns_meta_game_label(meta, label, sizeof label);
    printf("game:          %s\n", label);
    printf("params:        %s\n", meta->params[0] ? meta->params : "(defaults)");
    printf("bounds:        %s\n", bounds);
    printf("play:          %s\n", g->play == NS_PLAY_MISERE ? "misere" : "normal");
    printf("kind:          %s\n", kind);
    printf("P-positions:   %" PRIu64 "%s\n", ts->n_p, g->nsym ? " (of the positions stored: the sorted cells of a symmetric game; 'nimsieve info' counts the whole table)" : "");
    if (show_max)
        printf("largest value: %" PRIu32 "\n", ts->max_value);
}

/* A finished solve removes its checkpoint and what a killed checkpoint
 * write left. */
static void remove_checkpoint(const char *ckpt_path, const char *out)
{
    struct stat st;
    if (stat(ckpt_path, &st) == 0 && remove(ckpt_path) != 0)
        fprintf(stderr, "nimsieve solve: warning: cannot remove the checkpoint %s (the table %s is complete)\n",
                ckpt_path, out);
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", ckpt_path) < sizeof tmp)
        remove(tmp);
}

/* The summary's time and checkpoint lines. */
static void print_times(const solve_ctx *ctx, double wall, int threads)
{
    printf("time:          %.3f s on %d thread%s", wall, threads, threads == 1 ? "" : "s");
    if (ctx->prior > 0)
        printf(" (%.3f s in all, with the runs before the resume)", ctx->prior + wall);
    printf("\n");
    if (!ctx->nwritten)
        return;
    printf("checkpoints:   %d, %.3f s in all (%.1f%% of the time)", ctx->nwritten, ctx->write_seconds,
           wall > 0 ? 100.0 * ctx->write_seconds / wall : 0.0);
    if (ctx->ckpt_placed && ctx->ckpt_shared)
        printf("; every rank wrote its share of the chunks (the last: %" PRIu64 " bytes of chunks, %" PRIu64
               " by the ranks but 0)", ctx->ckpt_bytes, ctx->ckpt_others);
    else if (ctx->ckpt_placed)
        printf("; rank 0 wrote them alone (a rank could not open the file)");
    printf("\n");
}

/* ---- streaming: tiles go straight to the file ---- */

/* Grundy tables of at least this many cells stream by default (when the
 * game can): on a 2-core machine, Wythoff 32768^2 (2^30 cells) streamed
 * in 11.2 s against 12.6-22.8 s in memory on 2 threads (issue 19: the
 * table's first touch cost 3-24 s of system time); since the streamed
 * file is written with O_DIRECT by its own thread (ns_h5_direct.c),
 * 16384^2 (2^28) streams in 2.16 s against 2.64 s in memory (best of 3,
 * end to end), 8192^2 in 0.57 against 0.62 s (within this machine's
 * noise), 4096^2 and below even. The environment variable
 * NS_STREAM_MIN_CELLS sets another threshold (the tests use it). */
static uint64_t stream_min_cells(void)
{
    const char *e = getenv("NS_STREAM_MIN_CELLS");
    char *end;
    errno = 0;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
    if (e && *e && !errno && !*end && v > 0)
        return (uint64_t)v;
    return (uint64_t)1 << 28;
}

/* A stream that will not be closed: kept as the last checkpoint knows it
 * (keep), or removed. */
static void stream_drop(ns_h5_stream *s, int keep)
{
    if (keep)
        ns_h5_stream_suspend(s);
    else
        ns_h5_stream_abort(s);
}

typedef struct stream_sink {
    ns_h5_stream *s;
    int failed;             /* under the critical section */
    ns_error err;           /* the first failure */
} stream_sink;

/* A sink's failure on any thread: the first message wins. Returns 1 (stop). */
static int sink_failed(stream_sink *k, const ns_error *e)
{
    NS_PRAGMA(omp critical(solve_stream_fail))
    {
        if (!k->failed)
            k->err = *e;
        k->failed = 1;
    }
    return 1;
}

static int on_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    stream_sink *k = user;
    ns_error e = {0};
    if (!ns_h5_stream_tile(k->s, x0, y0, nx, ny, vals, &e))
        return 0;
    return sink_failed(k, &e);
}

/* the rows sink of a streamed P/N solve (called on one thread) */
static int on_rows(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p)
{
    stream_sink *k = user;
    ns_error e = {0};
    if (!ns_h5_stream_pn_rows(k->s, x0, nrows, words, p, &e))
        return 0;
    if (!k->failed)
        k->err = e;
    k->failed = 1;
    return 1;
}

/* a streamed Grundy resume reads the finished tiles back (worker threads) */
static int on_tile_source(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    stream_sink *k = user;
    ns_error e = {0};
    if (!ns_h5_stream_read_tile(k->s, x0, y0, nx, ny, vals, &e))
        return 0;
    return sink_failed(k, &e);
}

/* Rank 0, owned line sets in memory: another rank's tile (i <= j) and its
 * mirror (the symmetric case), or the tile as it is (the plain case), into
 * the table (on the exchange's service thread; distinct cells from the
 * engine's) */
typedef struct take_table {
    ns_table *t;        /* borrowed */
    int sym;
} take_table;

static int on_take(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    const take_table *tt = user;
    ns_table *t = tt->t;
    const uint64_t n = (uint64_t)t->bounds[1];
    for (int64_t x = x0; x < x0 + nx; x++)
        for (int64_t y = tt->sym && y0 < x ? x : y0; y < y0 + ny; y++) {
            const uint32_t v = vals[(x - x0) * ny + (y - y0)];
            ns_table_set(t, (uint64_t)x * n + (uint64_t)y, v);
            if (tt->sym)
                ns_table_set(t, (uint64_t)y * n + (uint64_t)x, v);
        }
    return 0;
}

/* Rank 0, owned line sets, streamed, writing the file alone (a rank
 * cannot reach it, or --mpi-write rank0): another rank's tile (i <= j)
 * and its mirror (the symmetric case; the plain case: the tile as it is)
 * into the stream, on the exchange's service thread, in a slot of the
 * stream's own (the one above the engine's threads). A tile on the
 * diagonal may hold its upper triangle only: it is completed from it. */
typedef struct take_sink {
    stream_sink *k;     /* borrowed */
    int slot;
    int sym;
} take_sink;

static int on_take_stream(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    take_sink *ts = user;
    ns_error e = {0};
    if (!ts->sym)
        return ns_h5_stream_tile_slot(ts->k->s, ts->slot, x0, y0, nx, ny, vals, &e) != NS_OK ? sink_failed(ts->k, &e)
                                                                                           : 0;
    uint32_t *m = malloc((size_t)(nx * ny) * sizeof *m);
    if (!m) {
        ns_error_set(&e, NS_ENOMEM, "rank 0: out of memory for a tile of another rank");
        return sink_failed(ts->k, &e);
    }
    int rc = 0;
    if (x0 == y0) {
        for (int64_t i = 0; i < nx; i++)
            for (int64_t j = 0; j < ny; j++)
                m[i * ny + j] = j >= i ? vals[i * ny + j] : vals[j * ny + i];
        rc = ns_h5_stream_tile_slot(ts->k->s, ts->slot, x0, y0, nx, ny, m, &e) != NS_OK;
    } else {
        for (int64_t i = 0; i < nx; i++)
            for (int64_t j = 0; j < ny; j++)
                m[j * nx + i] = vals[i * ny + j];
        rc = ns_h5_stream_tile_slot(ts->k->s, ts->slot, x0, y0, nx, ny, vals, &e) != NS_OK ||
             ns_h5_stream_tile_slot(ts->k->s, ts->slot, y0, x0, ny, nx, m, &e) != NS_OK;
    }
    free(m);
    return rc ? sink_failed(ts->k, &e) : 0;
}

/* ---- placed chunks: across ranks, each rank writes its own tiles ----
 * (store/ns_h5.h, "placed chunks"; dist/ns_dist_tiles.h) */
typedef struct place_sink {
    stream_sink *k;         /* failures go there; borrowed */
    ns_h5_packer *pk;       /* the ranks but 0; owned */
    ns_dist_tiles *dt;      /* borrowed */
    int fd;                 /* the ranks but 0: rank 0's file, for writing; -1 */
    char file[4096];        /* its name */
} place_sink;

/* a rank but 0: its tile (and mirror) into chunks, the placing to rank 0 */
static int on_tile_place(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    place_sink *p = user;
    ns_error e = {0};
    ns_h5_placing pl;
    const int r = ns_h5_packer_tile(p->pk, x0, y0, nx, ny, vals, &pl, &e);
    if (r < 0)
        return sink_failed(p->k, &e);
    if (r > 0 && ns_dist_tiles_place(p->dt, pl.x0, pl.y0, pl.req, pl.req_bytes, pl.data, pl.data_bytes)) {
        ns_error_set(&e, NS_EIO, "rank %d: cannot hand the chunks of the tile at %" PRId64 ",%" PRId64 " to rank 0",
                     ns_dist_rank(), pl.x0, pl.y0);
        return sink_failed(p->k, &e);
    }
    return 0;
}

/* rank 0: a request's chunks placed in the file */
static int on_place(void *user, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes)
{
    stream_sink *k = user;
    ns_error e = {0};
    if (!ns_h5_stream_place(k->s, req, req_bytes, reply, reply_bytes, &e))
        return 0;
    return sink_failed(k, &e);
}

/* a rank but 0 (its exchange's service thread): a placing's bytes written */
static int on_place_write(void *user, const void *data, size_t data_bytes, const void *reply, size_t reply_bytes)
{
    place_sink *p = user;
    ns_error e = {0};
    if (!ns_h5_place_write(p->fd, data, data_bytes, reply, reply_bytes, p->file, &e))
        return 0;
    return sink_failed(p->k, &e);
}

static int on_place_sync(void *user)
{
    place_sink *p = user;
    if (fdatasync(p->fd) == 0)
        return 0;
    ns_error e = {0};
    ns_error_set(&e, NS_EIO, "rank %d: %s: cannot sync its chunks: %s", ns_dist_rank(), p->file, strerror(errno));
    return sink_failed(p->k, &e);
}

static void place_end(place_sink *p)
{
    if (p->fd >= 0)
        close(p->fd);
    p->fd = -1;
    ns_h5_packer_free(p->pk);
    p->pk = NULL;
}

/* ---- placed P/N rows: across ranks, the row kernel's blocks of rows,
 * each written by the rank that sieved it (a streamed P/N table) ---- */
typedef struct rows_place {
    stream_sink *k;         /* rank 0's stream; failures go there; borrowed */
    place_sink *p;          /* the ranks but 0: the packer and the file; borrowed */
    ns_dist_tiles *dt;      /* borrowed */
} rows_place;

/* rank 0: its own blocks into the stream, another rank's placed for it */
static int on_rows_place0(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *bits)
{
    rows_place *r = user;
    if (ns_dist_tiles_rows_owner(r->dt, x0) == 0)
        return on_rows(r->k, x0, nrows, words, bits);
    ns_error e = {0};
    if (!ns_dist_tiles_rows_answer(r->dt, x0, on_place, r->k, &e))
        return 0;
    return sink_failed(r->k, &e);
}

/* a rank but 0: the chunks of its own blocks into rank 0's file, on disk
 * before rank 0 hears of it (its next checkpoint records them). A failure
 * before the request ends the job (rank 0 waits for the request) */
static int on_rows_placed(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *bits)
{
    rows_place *r = user;
    if (ns_dist_tiles_rows_owner(r->dt, x0) != ns_dist_rank())
        return 0;
    ns_error e = {0};
    ns_h5_placing pl;
    void *reply = NULL;
    size_t rb = 0;
    if (ns_h5_packer_pn_rows(r->p->pk, x0, nrows, words, bits, &pl, &e) ||
        ns_dist_tiles_rows_ask(r->dt, pl.req, pl.req_bytes, &reply, &rb, &e)) {
        ns_cli_error(CMD, "rank %d: %s", ns_dist_rank(), e.msg);
        fflush(stderr);
        ns_dist_abort(NS_EXIT_ERROR);
    }
    ns_err w = ns_h5_place_write(r->p->fd, pl.data, pl.data_bytes, reply, rb, r->p->file, &e);
    if (!w && fdatasync(r->p->fd) != 0)
        w = ns_error_set(&e, NS_EIO, "%s: cannot sync its chunks: %s", r->p->file, strerror(errno));
    free(pl.req);
    free(pl.data);
    free(reply);
    /* rank 0 hears of a failure too, and ends the job with its message */
    ns_error ne = {0};
    if (ns_dist_tiles_rows_written(r->dt, w ? e.msg : NULL, &ne) && !w) {
        e = ne;
        w = ne.code;
    }
    return w ? sink_failed(r->k, &e) : 0;
}

/* Every rank (collective, after dist_start): can every rank write into
 * rank 0's file (s, rank 0's stream; the others open it by the name rank 0
 * gives and check it is the same file)? Then each rank writes its own
 * tiles' chunks: 1. 0: rank 0 writes the file alone (a rank cannot reach
 * it; said on stderr). -1: failed (printed; the job ends). */
static int place_start(const char *out, ns_h5_stream *s, ns_dist_tiles *dt, ns_tile_exchange *x,
                       const int64_t *bounds, int elem, int64_t tile, int threads, int sym, stream_sink *k,
                       place_sink *p)
{
    /* elem 1: the row kernel's P/N blocks (ns_dist_tiles_rows_placing) */
    ns_error err = {0};
    const int zero = ns_dist_rank() == 0;
    memset(p, 0, sizeof *p);
    p->k = k;
    p->dt = dt;
    p->fd = -1;
    uint64_t ino = 0;
    if (zero) {
        struct stat st;
        snprintf(p->file, sizeof p->file, "%s", ns_h5_stream_file(s));
        ino = stat(p->file, &st) == 0 ? (uint64_t)st.st_ino : 0;
    }
    if (ns_dist_bcast_bytes(p->file, sizeof p->file, &err)) {
        ns_cli_error(CMD, "rank %d: %s", ns_dist_rank(), err.msg);
        ns_dist_abort(NS_EXIT_ERROR);
    }
    ino = ns_dist_bcast_u64(ino);
    int ok = 1;
    if (!zero) {
        struct stat st;
        /* test hook: NS_TEST_PLACE_REFUSE=R, rank R finds no such file */
        const char *refuse = getenv("NS_TEST_PLACE_REFUSE");
        p->fd = refuse && atoi(refuse) == ns_dist_rank() ? (errno = ENOENT, -1) : open(p->file, O_WRONLY | O_CLOEXEC);
        if (p->fd < 0 || fstat(p->fd, &st) != 0 || (uint64_t)st.st_ino != ino) {
            fprintf(stderr, "nimsieve solve: rank %d: %s: %s; rank 0 writes the file alone (each rank writes its own "
                    "chunks only where every rank sees the output's file system)\n", ns_dist_rank(), p->file,
                    p->fd < 0 ? strerror(errno) : "not the file rank 0 writes");
            ok = 0;
        } else if (!(p->pk = ns_h5_packer_new(out, bounds, elem, tile, threads, sym, &err))) {
            ns_cli_error(CMD, "rank %d: %s", ns_dist_rank(), err.msg);
            ok = 0;
        }
    }
    /* then rank 0's file takes the others' chunks (not before: when a rank
     * cannot reach it, rank 0 writes it alone as usual) */
    if (ns_dist_max_code(ok ? 0 : 1) || ns_dist_max_code(zero && ns_h5_stream_share(s, &err) ? 1 : 0)) {
        if (err.code)
            ns_cli_error(CMD, "%s", err.msg);
        place_end(p);
        return 0;
    }
    const ns_dist_place_hooks h = {.place = zero ? on_place : NULL, .write = zero ? NULL : on_place_write,
                                   .sync = zero ? NULL : on_place_sync, .user = zero ? (void *)k : (void *)p};
    if (elem == 1 ? ns_dist_tiles_rows_placing(dt, &err) : ns_dist_tiles_placing(dt, x, &h, &err)) {
        ns_cli_error(CMD, "%s", err.msg);
        ns_dist_abort(NS_EXIT_ERROR);
    }
    return 1;
}

/* A streamed solve; ci: the checkpoint record it resumes (NULL: from the
 * start). */
static int solve_streaming(const solve_args *a, const ns_game *g, ns_meta *meta, const ns_engine_plan *plan,
                           int threads, int64_t tile, uint64_t line_bytes, const ns_h5_ckpt_info *ci,
                           const char *why, int argc, char **argv, solve_ctx *ctx)
{
    ns_error err = {0};
    const int elem = a->pn_only ? 1 : plan->max_value <= 0xFFFFu ? 2 : 4;
    stream_sink sink = {0};
    /* across MPI ranks: rank 0's file. With owned line sets (a Grundy
     * table) every rank writes the chunks of its own tiles into it, at the
     * places rank 0 gives them (place_start), unless --mpi-write rank0;
     * else rank 0 writes it alone (the streamed writer's direct chunk
     * writes have no parallel form in HDF5 1.10; src/store/README.md) */
    const int writer = !ctx->dist || ns_dist_rank() == 0;
    /* P/N (the row kernel): each block of rows written by its rank, as the
     * owned tiles' chunks */
    const int want_place = ctx->dist && (ctx->owned || a->pn_only) && ns_dist_size() > 1 &&
                           !(a->mpi_write_given && a->mpi_write == MPI_WRITE_RANK0);
    place_sink place = {.fd = -1};
    rows_place rplace = {&sink, &place, NULL};
    if (ctx->dist) {
        snprintf(meta->mpi_write, sizeof meta->mpi_write, "rank0");
    } else {
        meta->mpi_ranks = 0;
        meta->mpi_write[0] = '\0';
    }
    if (a->mpi_write_given && a->mpi_write != MPI_WRITE_RANK0 && ns_dist_is_mpi_build() && ns_dist_rank() == 0 &&
        !want_place)
        fprintf(stderr, "nimsieve solve: --mpi-write %s: this streamed solve's file is written by rank 0 alone "
                "(each rank writes its own chunks with owned line sets or a P/N table only; the parallel write "
                "takes tables in memory)\n", a->mpi_write == MPI_WRITE_PLACED ? "placed" : "parallel");
    ns_dist_tiles *dt = NULL;
    ns_tile_exchange xch;
    int64_t *shared_p = NULL;   /* across ranks: a resume's P-positions from rank 0 */
    char dims[256], lb[32], tb[32];
    ns_cli_format_dims(g->k, g->bounds, dims, sizeof dims);
    ns_cli_format_bytes(line_bytes, lb, sizeof lb);
    ns_cli_format_bytes(plan->table_bytes, tb, sizeof tb);
    if (ci && (ci->elem != elem || ci->stream_tile != tile))
        return ns_cli_error(CMD, "%s is a checkpoint of another solve (%d-byte values in units of %" PRId64 ", this one "
                            "%d in units of %" PRId64 "); use --force to start over", ctx->ckpt_path, ci->elem,
                            ci->stream_tile, elem, tile);
    /* across ranks with replicated line sets the tile kernel runs threads x
     * ranks threads (ns_tile_exchange), each of which may hand tiles to the
     * sink (the row kernel's sink is called on one thread); with owned sets
     * rank 0 runs its own threads, and when it writes the file alone its
     * exchange's service thread stores the other ranks' tiles in one more
     * slot (on_take_stream). The stream makes a thread's chunk filter and
     * buffers when that thread first stores a tile, so the slots of threads
     * that never do cost a pointer each. */
    const int sink_threads = !ctx->dist || a->pn_only ? threads : ctx->owned ? threads + 1 : threads * ns_dist_size();
    take_sink take = {&sink, threads, ctx->owned == 1};
    /* every rank has looked at the paths (a .part left over) before rank 0
     * makes its own */
    if (ctx->dist && ns_cli_dist_agree(NS_EXIT_OK) != NS_EXIT_OK)
        return NS_EXIT_ERROR;
    if (!writer)
        sink.s = NULL;
    else if (ci)
        sink.s = ns_h5_stream_resume(a->out, ctx->ckpt_path, g->bounds, elem, tile, sink_threads, ci->ckpt.units_done,
                                     &err);
    else
        sink.s = ns_h5_stream_open(a->out, g->bounds, elem, tile, sink_threads, a->force ? NS_H5_FORCE : 0, &err);
    if (writer && !sink.s) {
        ns_cli_error(CMD, "%s%s", err.msg, ci ? "; use --force to start over" : "");
        /* the other ranks met this one already and go on to the kernel */
        if (ctx->dist)
            ns_dist_abort(NS_EXIT_ERROR);
        return NS_EXIT_ERROR;
    }
    ctx->stream = sink.s;
    if (!a->quiet) {
        char what[96];
        if (a->pn_only)
            snprintf(what, sizeof what, "P/N in blocks of %" PRId64 " rows", tile);
        else
            snprintf(what, sizeof what, "tiles of %" PRId64 " x %" PRId64, tile, tile);
        char label[NS_NAME_LEN + 600], est[128];
        double secs0, secs, bytes;
        ns_meta_game_label(meta, label, sizeof label);
        ns_cli_estimate_solve(g, plan, a->pn_only ? "rows-pn" : "tiles2d", a->pn_only, threads, &secs0, &secs, &bytes);
        ns_cli_format_estimate(secs0, secs, bytes, est, sizeof est);
        printf("solving %s on %s (%" PRIu64 " cells) streaming: %s to %s as they finish (%s; no table in memory: "
               "it would take %s), %s %s, %d thread%s; %s\n",
               label, dims, plan->cells, what, a->out, why, tb, a->pn_only ? "line flags" : "line sets", lb, threads,
               threads == 1 ? "" : "s", est);
        if (ci)
            printf("resuming from %s: %" PRIu64 " of %" PRIu64 " units done (%.1f s of solving)\n", ctx->ckpt_path,
                   ci->ckpt.units_done, ci->ckpt.units_total, ci->ckpt.seconds);
        else if (a->resume)
            printf("no checkpoint %s: starting from the beginning\n", ctx->ckpt_path);
        fflush(stdout);
    }
    ns_engine_opts opts = {.threads = threads, .pn_only = a->pn_only, .loose_bound = a->loose_bound, .progress = on_progress, .progress_user = ctx,
                           .checkpoint = on_checkpoint, .checkpoint_user = ctx};
    if (a->pn_only) {
        opts.rows_sink = writer ? on_rows : on_rows_drop;
        opts.rows_user = &sink;
        if (sink.s)
            opts.resume_p = ns_h5_stream_p_positions(sink.s, &opts.resume_np);
        /* across ranks the others rebuild their line flags from rank 0's */
        if (ctx->dist && ci && dist_share_p(NS_EXIT_OK, NULL, 0, 0, &opts, &shared_p)) {
            ns_h5_stream_abort(sink.s);
            return NS_EXIT_ERROR;
        }
    } else {
        opts.tile_sink = writer ? on_tile : on_tile_drop;
        opts.tile_source = on_tile_source;
        opts.tile_user = &sink;
    }
    if (ctx->dist && !(dt = dist_start(g, plan, &opts, &xch, meta, ctx->owned, a))) {
        ns_h5_stream_abort(sink.s);
        free(shared_p);
        return NS_EXIT_ERROR;
    }
    const uint64_t resume_units = ci ? ci->ckpt.units_done : 0;
    if (dt)
        ns_dist_tiles_resume(dt, resume_units);
    /* the packer's slots: the threads of a rank but 0, which computes its
     * own rows only (owned sets), not the threads x ranks of the sink */
    if (dt && want_place &&
        place_start(a->out, sink.s, dt, &xch, g->bounds, elem, tile, threads, ctx->owned == 1, &sink, &place) > 0) {
        snprintf(meta->mpi_write, sizeof meta->mpi_write, "placed");
        if (a->pn_only) {
            rplace.dt = dt;
            opts.rows_sink = writer ? on_rows_place0 : on_rows_placed;
            opts.rows_user = &rplace;
        } else if (!writer) {
            opts.tile_sink = on_tile_place;
            opts.tile_source = NULL;   /* owned sets: the finished tiles are rank 0's */
            opts.tile_user = &place;
        }
    } else if (dt && ctx->owned && !a->pn_only && ns_dist_size() > 1 &&
               ns_dist_tiles_gather_tiles(dt, &xch, g->bounds, on_take_stream, &take, &err)) {
        /* rank 0 writes the file alone: it takes the others' tiles on its
         * exchange's thread, not on threads x ranks threads of its engine */
        ns_cli_error(CMD, "%s", err.msg);
        ns_dist_abort(NS_EXIT_ERROR);
    }
    if (ci) {
        ctx->resume_total = ci->ckpt.units_total;
        ctx->units_saved = ci->ckpt.units_done;
        ctx->prior = ci->ckpt.seconds;
    }
    ns_engine_choice choice;
    ns_engine_choose(g, &opts, &choice);
    if (!choice.engine) {
        ns_h5_stream_abort(sink.s);
        free(shared_p);
        return ns_cli_error(CMD, "%s cannot be solved streaming", g->name);
    }
    snprintf(meta->engine, sizeof meta->engine, "%s", choice.engine->name);
    ctx->kernel = choice.engine->name;
    if (ci && strcmp(ci->ckpt.kernel, ctx->kernel) != 0) {
        ns_h5_stream_suspend(sink.s);
        free(shared_p);
        return ns_cli_error(CMD, "%s is a checkpoint of another solve (the solver kernel differs: %s, this one %s); use "
                            "--force to start over", ctx->ckpt_path, ci->ckpt.kernel, ctx->kernel);
    }
    if (!a->quiet) {
        ns_cli_print_engine(&choice, "engine:", 7);
        fflush(stdout);
    }
    ns_cli_catch_sigint();
    ns_cli_progress_start(&ctx->prog, !a->quiet);
    ctx->t0 = ns_cli_now();
    ctx->next_due = ctx->t0 + a->ckpt_every;
    ns_err src = ns_engine_resume_with(choice.engine, g, NULL, &opts, resume_units, &err);
    const double wall = ns_cli_now() - ctx->t0;
    free(shared_p);     /* borrowed by the engine only */
    opts.resume_p = NULL;
    ns_cli_progress_finish(&ctx->prog);
    /* across ranks, rank 0 stopped (a checkpoint) or failed: it says so as a
     * single process does, below, then ends every rank */
    const int dist_stop = dt && src && writer;
    uint64_t placings = 0;
    if (dt && !dist_stop) {
        if (src)
            ns_cli_error(CMD, "%s", sink.failed ? sink.err.msg : err.msg);
        const int drc = dist_end(dt, src ? NS_EXIT_ERROR : NS_EXIT_OK, a->quiet, a->pn_only,
                                 xch.gather ? threads : threads * ns_dist_size(), xch.keep);
        placings = ns_dist_tiles_placed(dt);
        ns_dist_tiles_free(dt);
        place_end(&place);
        if (drc || !writer) {
            ns_h5_stream_abort(sink.s);
            return drc;
        }
    }
    if (src) {
        /* with a checkpoint (written now or resumed from), the .part stays */
        const int keep = ctx->units_saved > 0;
        stream_drop(sink.s, keep);
        ctx->stream = NULL;
        const int sig = ns_cli_interrupted();
        int rc;
        if (ctx->failed) {
            rc = ns_cli_error(CMD, "%s%s", ctx->err.msg,
                              keep ? "; the previous checkpoint is intact: resume with --resume" : "");
        } else if (src == NS_EINTR && ctx->stopped && keep) {
            char cmd[2048];
            format_command(argc, argv, cmd, sizeof cmd);
            ns_cli_error(CMD, "stopped by %s after %.1f s; checkpoint %s (with %s.part) holds %" PRIu64 " of %" PRIu64
                         " units (%.0f%%); continue with: %s", sig == SIGTERM ? "SIGTERM" : "SIGINT", wall,
                         ctx->ckpt_path, a->out, ctx->units_saved, ctx->units_total,
                         ctx->units_total ? 100.0 * (double)ctx->units_saved / (double)ctx->units_total : 0.0, cmd);
            rc = 128 + (sig ? sig : SIGINT);
        } else if (src == NS_EINTR) {
            ns_cli_error(CMD, "interrupted after %.1f s%s", wall,
                         keep ? "; the checkpoint it resumed from is intact" : "; nothing was written");
            rc = 128 + (sig ? sig : SIGINT);
        } else {
            rc = ns_cli_error(CMD, "%s%s", sink.failed ? sink.err.msg : err.msg,
                              keep ? "; the last checkpoint is intact: resume with --resume" : "");
        }
        if (dist_stop) {
            fflush(stdout);
            fflush(stderr);
            ns_dist_abort(rc);
        }
        return rc;
    }
    meta->threads = threads;
    meta->wall_seconds = ctx->prior + wall;
    meta->complete = 1;
    ns_table_stats ts;
    ctx->stream = NULL;
    const int io = ns_h5_stream_io(sink.s);
    /* the chunks on disk first: a write that fails here (a full disk)
     * leaves the .part as the last checkpoint knows it */
    if (ns_h5_stream_flush(sink.s, &err)) {
        stream_drop(sink.s, ctx->units_saved > 0);
        return ns_cli_error(CMD, "%s%s", err.msg, ctx->units_saved ? "; the last checkpoint is intact: resume with "
                            "--resume" : "");
    }
    if (ns_h5_stream_close(sink.s, meta, &ts, &err))
        return ns_cli_error(CMD, "%s%s", err.msg, ctx->units_saved ? "; the .part and its checkpoint are gone: start "
                            "over" : "");
    remove_checkpoint(ctx->ckpt_path, a->out);
    if (!a->quiet) {
        char bt[320], kt[64];
        snprintf(bt, sizeof bt, "%s (%" PRIu64 " cells, streamed)", dims, plan->cells);
        if (a->pn_only)
            snprintf(kt, sizeof kt, "P/N");
        else
            snprintf(kt, sizeof kt, "grundy (%d-byte values)", elem);
        print_summary(g, meta, bt, kt, &ts, !a->pn_only);
        print_times(ctx, wall, threads);
        printf("output:        %s%s\n", a->out,
               io == 3   ? (a->pn_only ? " (shared: every rank wrote its own blocks of rows' chunks into it, through "
                                         "the page cache)"
                                       : " (shared: every rank wrote its own tiles' chunks into it, through the page "
                                         "cache)")
               : io == 2 ? " (written with O_DIRECT, in 8 MiB blocks, by the file driver's own thread)"
               : io == 1 ? " (written in 8 MiB blocks through the page cache, by the file driver's own thread: "
                           "O_DIRECT refused or NS_H5_DIRECT=0)"
                         : "");
        if (strcmp(meta->mpi_write, "placed") == 0)
            printf("mpi write:     each of %d ranks wrote the chunks of its own %s into the file; rank 0 placed "
                   "them (%" PRIu64 " requests from the other ranks: sizes and P-positions, no values)\n",
                   ns_dist_size(), a->pn_only ? "blocks of rows" : "tiles", placings);
    }
    return NS_EXIT_OK;
}

int ns_cmd_solve(int argc, char **argv)
{
    solve_args a;
    ns_error err = {0};
    ns_game *g = NULL;
    ns_table *t = NULL;
    ns_meta meta;
    ns_h5_ckpt_info ci;
    solve_ctx ctx;
    char *ckpt_path = NULL;
    uint32_t *remote = NULL;
    ns_gsg *gsg = NULL;         /* a loopy game's generalized Sprague-Grundy values (opts.gsg) */
    int64_t *rare = NULL;   /* the rare heap sizes of a rare/common run */
    ns_seq_stats sst;       /* the sequence engines' numbers (the final mask) */
    int64_t *shared_p = NULL;   /* across ranks: a resume's P-positions from rank 0 (dist_share_p) */
    int have_ckpt = 0;
    /* under MPI the ranks meet early, once rank 0 has looked at -o */
    ns_cli_dist_expect_early();
    int rc = parse_args(argc, argv, &a);
    memset(&meta, 0, sizeof meta);
    memset(&ci, 0, sizeof ci);
    memset(&ctx, 0, sizeof ctx);
    memset(&sst, 0, sizeof sst);
    if (rc)
        return rc;
    if (a.help) {
        usage();
        return NS_EXIT_OK;
    }
    if ((rc = check_output(a.out, a.force)))
        return rc;
    if (!(ckpt_path = malloc(strlen(a.out) + sizeof ".ckpt")))
        return ns_cli_error(CMD, "out of memory");
    sprintf(ckpt_path, "%s.ckpt", a.out);
    struct stat st;
    have_ckpt = stat(ckpt_path, &st) == 0;
    if (have_ckpt && !a.resume && !a.force) {
        rc = ns_cli_error(CMD, "a checkpoint '%s' of an unfinished solve exists: add --resume to continue it, or "
                          "--force to start over", ckpt_path);
        goto fail;
    }

    if (ns_game_build(a.game, &a.box.params, a.box.nbounds, &g, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg[0] ? err.msg : "cannot build the game");
        goto fail;
    }
    if (a.box.nbounds && a.box.nbounds != g->k) {
        rc = ns_cli_error(CMD, "--bounds has %d size%s but %s has %d coordinate%s", a.box.nbounds, a.box.nbounds == 1 ? "" : "s",
                          g->name, g->k, g->k == 1 ? "" : "s");
        goto fail;
    }
    if (!a.box.nbounds)
        for (int i = 0; i < g->k; i++)
            a.box.bounds[i] = a.box.size;
    if (a.misere)
        g->play = NS_PLAY_MISERE; /* a rule file may say "play misere" itself */
    if (a.until_periodic && (!g->octal || a.stream || a.pn_only)) {
        rc = ns_cli_error(CMD, "--until-periodic: expected a take-and-break heap game (octal code or Grundy's game) "
                          "solved in memory for Grundy values; %s", !g->octal ? "this game is not one"
                          : a.stream ? "drop --stream" : "drop --pn-only");
        goto fail;
    }
    if (ns_game_set_bounds(g, a.box.bounds, &err)) {
        rc = ns_cli_error(CMD, "%s: %s", a.box.nbounds ? "--bounds" : "--size", err.msg);
        goto fail;
    }

    /* a loopy game: P / N / draw with remoteness (retro engine); said once
     * the options are known to be accepted */
    const int say_loopy = g->loopy && !a.pn_only && !a.quiet;
    /* and its generalized Sprague-Grundy values unless --pn-only (normal play) */
    const int want_gsg = g->loopy && !a.pn_only && g->play == NS_PLAY_NORMAL;
    if (g->loopy)
        a.pn_only = 1;
    snprintf(meta.game, sizeof meta.game, "%s", g->name);
    if (g->rules_text && !(meta.rules_text = strdup(g->rules_text))) {
        rc = ns_cli_error(CMD, "out of memory");
        goto fail;
    }
    if (g->rules_text)
        snprintf(meta.rules_file, sizeof meta.rules_file, "%s", a.game);
    ns_params_format(&g->params, meta.params, sizeof meta.params);
    meta.play = g->play;
    meta.nsym = g->nsym; /* a symmetric game's file says so: its readers fill the mirrored cells */
    memcpy(meta.sym, g->sym, sizeof meta.sym);
    meta.pn_only = a.pn_only;
    meta.threads = a.threads > 0 ? a.threads : ns_omp_max_threads(); /* also the checkpoints' writer threads */

    ns_engine_plan plan;
    const ns_engine_opts in_memory = {.pn_only = a.pn_only, .loose_bound = a.loose_bound};
    if (ns_engine_plan_for(g, &in_memory, &plan, &err)) {
        rc = ns_cli_error(CMD, "%s", err.msg);
        goto fail;
    }
    /* never drop an option silently: an engine without resume writes no
     * checkpoints */
    if (!plan.engine->resume && ((a.ckpt_given && a.ckpt_every > 0) || a.resume)) {
        rc = ns_cli_error(CMD, "%s: the %s engine has no checkpoints yet, so it cannot be resumed; solve without %s",
                          a.resume ? "--resume" : "--checkpoint-every", plan.engine->name,
                          a.resume ? "--resume" : "--checkpoint-every (or with --checkpoint-every 0)");
        goto fail;
    }
    /* under MPI (more than one rank): the tile kernel and the P/N row
     * kernel (ns_dist_tiles.h) and the general engine (ns_dist_levels.h)
     * are shared by every rank; any other engine runs on rank 0 alone */
    const int ranks = ns_dist_size();
    const int dist_general = strcmp(plan.engine->name, "general") == 0;
    const int dist_tiles = strcmp(plan.engine->name, "tiles2d") == 0;
    /* --mpi-sets owned runs the exchange even on one rank (its figures) */
    /* the engines the ranks share (any other runs on rank 0 alone) */
    const int shared = dist_tiles || strcmp(plan.engine->name, "rows-pn") == 0 || dist_general;
    ctx.dist = (ranks > 1 || (a.mpi_sets == MPI_SETS_OWNED && dist_tiles)) && shared;
    /* owned line sets: the default of tile solves across ranks (1 the
     * symmetric case, 2 the plain case: engine/ns_engine.h) */
    const int can_own = dist_tiles && plan.engine->owned_sets ? plan.engine->owned_sets(g) : 0;
    if (a.mpi_sets == MPI_SETS_OWNED && !can_own) {
        rc = ns_cli_error(CMD, "--mpi-sets owned: only for the tile kernel's games (two piles, plain rays: Wythoff, "
                          "two-pile Nim, such rule files); this solve runs the %s engine%s", plan.engine->name,
                          dist_tiles ? " on a ray of a step over 2^31 - 1" : "");
        goto fail;
    }
    ctx.owned = ctx.dist && a.mpi_sets != MPI_SETS_REPLICATED ? can_own : 0;
    /* every rank has come this far (rank 0 has looked at the output path),
     * or every rank stops here: before the broadcast below, and before rank 0
     * goes on alone with an engine the ranks do not share */
    if (ranks > 1 && (rc = ns_cli_dist_early(NS_EXIT_OK)) != NS_EXIT_OK)
        goto fail;
    /* checkpoints across ranks: rank 0 writes them (after each unit it
     * holds every finished tile, block of rows or level) */
    if (ranks > 1 && !ctx.dist) {
        if (ns_dist_rank() != 0) {
            rc = NS_EXIT_OK;
            goto fail;
        }
        fprintf(stderr, "nimsieve solve: not distributed yet (the %s engine): runs on rank 0 of %d, the other ranks "
                "wait\n", plan.engine->name, ranks);
    }
    /* --mpi-write parallel or placed: an in-memory table of a shared
     * engine is written by every rank (ns_h5_write_par with parallel HDF5;
     * ns_h5_write_placed, each rank its share of the chunks with the
     * single-process filters), also by a job of one rank in an MPI build;
     * else rank 0 writes it. The general engine, whose ranks all hold the
     * table, places by default. A streamed solve: solve_streaming */
    const int wmode = a.mpi_write_given ? a.mpi_write
                      : dist_general && ctx.dist ? MPI_WRITE_PLACED : MPI_WRITE_DEFAULT;
    const int par_write = wmode != MPI_WRITE_RANK0 && ns_dist_is_mpi_build() && !ctx.owned &&
                          (ctx.dist || (ranks == 1 && shared));
    if (ctx.dist || par_write) {
        meta.mpi_ranks = ranks;
        snprintf(meta.mpi_write, sizeof meta.mpi_write, "%s",
                 !par_write ? "rank0" : wmode == MPI_WRITE_PLACED ? "placed" : "parallel");
    }
    const int threads = a.threads > 0 ? a.threads : ns_omp_max_threads();
    char dims[256], tb[32], lb[32], nb[32], avb[32];
    ns_cli_format_dims(g->k, g->bounds, dims, sizeof dims);
    ns_cli_format_bytes(plan.table_bytes, tb, sizeof tb);
    ns_cli_format_bytes(plan.line_bytes, lb, sizeof lb);
    const uint64_t need = sat_add(plan.table_bytes, plan.line_bytes);
    /* across ranks, rank 0's figure: every rank takes the same road */
    const uint64_t avail = ctx.dist ? ns_dist_bcast_u64(ns_cli_mem_available()) : ns_cli_mem_available();
    const uint64_t budget = a.memory ? a.memory : avail;
    const int over = plan.table_bytes == 0 || (budget && need > budget) || (a.memory && avail && need > avail);
    /* the generalized Sprague-Grundy values list every option (ns_retro_gsg.c):
     * estimated from a sample before any work, refused when over the budget
     * with the table and the remoteness beside them */
    uint64_t gsg_bytes = 0, gsg_options = 0;
    if (want_gsg) {
        if (!(gsg_bytes = ns_gsg_estimate(g, &gsg_options, &err))) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto fail;
        }
        const uint64_t gneed = sat_add(sat_add(gsg_bytes, plan.table_bytes), plan.cells * sizeof(uint32_t));
        if (budget && gneed > budget) {
            rc = ns_cli_error(CMD, "%s (%" PRIu64 " cells): generalized Sprague-Grundy values would need about %.2f "
                              "GiB (%" PRIu64 " options listed) but %s %.2f GiB%s; add --pn-only for P / N / draw "
                              "with remoteness only, or give --memory", dims, plan.cells,
                              (double)gsg_bytes / (1 << 30), gsg_options, a.memory ? "--memory allows" : "only",
                              (double)budget / (1 << 30), a.memory ? "" : " is available");
            goto fail;
        }
    }
    if (say_loopy)
        printf("loopy game: solved to P / N / draw with remoteness%s: %s\n",
               want_gsg ? " and generalized Sprague-Grundy values (/grundy)"
                        : " (generalized Sprague-Grundy values are for normal play only)",
               g->loopy_why);
    /* a checkpoint to resume: of a streamed solve, or of one in memory */
    int ci_streamed = 0, ci_memory = 0;
    if (a.resume && have_ckpt) {
        const char *why;
        if (ns_h5_ckpt_read(ckpt_path, &ci, NULL, &err)) {
            rc = ns_cli_error(CMD, "%s; remove it or use --force to start over", err.msg);
            goto fail;
        }
        if ((why = ckpt_mismatch(&ci, &meta, g, a.pn_only, NULL))) {
            rc = ns_cli_error(CMD, "%s is a checkpoint of another solve (%s differs); give the same GAME, -D, bounds "
                              "and options, or use --force to start over", ckpt_path, why);
            goto fail;
        }
        ci_streamed = ci.streamed;
        ci_memory = !ci.streamed && !ci.seq_streamed;
    }
    /* a heap game's sequence streams to the file as its heap sizes finish:
     * asked for, or chosen for long sequences; never with
     * --until-periodic (the file would be cut) */
    const int seq_can = g->octal && (strcmp(plan.engine->name, "sequence") == 0 ||
                                     strcmp(plan.engine->name, "rare-common") == 0);
    const int seq_stream = seq_can && (ci.seq_streamed || (!ci_memory && !a.until_periodic &&
                                                           (a.stream || (plan.cells >= SEQ_STREAM_AUTO && !a.no_stream))));
    if (seq_stream && a.until_periodic) {
        rc = ns_cli_error(CMD, "--until-periodic: %s is the checkpoint of a streamed sequence, which is written "
                          "whole; resume it without --until-periodic, or use --force to start over", ckpt_path);
        goto fail;
    }
    if (seq_stream && !ci.seq_streamed) {
        char part[4200];
        snprintf(part, sizeof part, "%s.part", a.out);
        if (!a.force && stat(part, &st) == 0) {
            rc = ns_cli_error(CMD, "'%s' is left from an unfinished solve and has no checkpoint %s: nothing to "
                              "resume%s; use --force to start over", part, ckpt_path,
                              a.resume ? "" : " (or it is being written by another run)");
            goto fail;
        }
        /* --force: a record of an earlier run must not pair with the new .part */
        if (have_ckpt && remove(ckpt_path) != 0) {
            rc = ns_cli_error(CMD, "cannot remove the old checkpoint %s: %s", ckpt_path, strerror(errno));
            goto fail;
        }
        have_ckpt = 0;
    }
    {
        /* streaming: asked for, or chosen when the table does not fit */
        int64_t tile = 0;
        uint64_t sbytes = 0;
        ns_engine_opts probe = {.pn_only = a.pn_only, .loose_bound = a.loose_bound};
        const int can = ns_engine_can_stream(g, &probe, &tile, &sbytes);
        const uint64_t sneed = sat_add(sbytes, (uint64_t)threads * ((uint64_t)1 << 20)); /* + tiles, filters */
        const uint64_t slimit = a.memory && avail ? (a.memory < avail ? a.memory : avail) : budget;
        if (a.stream && !can && !seq_can) {
            rc = ns_cli_error(CMD, "--stream: %s cannot be solved streaming (only two-pile tables whose moves are "
                              "all rays: Wythoff, two-pile Nim, rule files of such rays; P/N in normal play)",
                              g->name);
            goto fail;
        }
        /* a P/N table of such a game streams by default: it never needs the
         * table in memory, and finishes long before a checkpoint is due;
         * --resume and an explicit --checkpoint-every keep the table */
        /* across ranks, also with --checkpoint-every or --resume (without
         * a checkpoint in memory): streamed, every rank writes its own
         * blocks' chunks and its part of each checkpoint (placed rows),
         * where in memory rank 0 writes the file and checkpoints alone */
        const int pn_default = a.pn_only && can && !a.no_stream &&
                               ((ctx.dist && ranks > 1) || (!a.resume && !a.ckpt_given));
        /* a large Grundy table of such a game streams by default too: from
         * 2^28 cells (16384^2) on, streaming was measured faster than the
         * table in memory, whose first touch alone costs seconds of system
         * time (see stream_min_cells); --no-stream keeps the table */
        const uint64_t smin = stream_min_cells();
        const int grundy_default = !a.pn_only && can && !a.no_stream && plan.cells >= smin &&
                                   !(slimit && sneed > slimit);
        /* across ranks with owned line sets (the tile kernel's default
         * there), any size streams by default: every rank writes its own
         * tiles' chunks and checkpoints its share into the .part, where in
         * memory rank 0 would take every tile, write the file and checkpoint
         * alone. Wythoff 8192^2 on 2 ranks of 1 thread: 2.7-2.9 s streamed
         * against 3.0-3.1 s in memory plus rank 0's write (README) */
        const int owned_default = can && ctx.owned && ranks > 1 && !a.no_stream && !(slimit && sneed > slimit);
        if (ci_streamed && !can) {
            rc = ns_cli_error(CMD, "%s is the checkpoint of a streamed solve, but %s cannot be solved streaming "
                              "here; use --force to start over", ckpt_path, g->name);
            goto fail;
        }
        if (ci_memory && a.stream) {
            rc = ns_cli_error(CMD, "--stream: %s is the checkpoint of a solve in memory; resume it without --stream, "
                              "or use --force to start over", ckpt_path);
            goto fail;
        }
        if (a.stream && a.no_stream) {
            rc = ns_cli_error(CMD, "--stream and --no-stream contradict each other; give one");
            goto fail;
        }
        if (!seq_can && (ci_streamed || (!ci_memory && (a.stream || (over && can) || pn_default || grundy_default ||
                                                          owned_default)))) {
            char part[4200];
            snprintf(part, sizeof part, "%s.part", a.out);
            if (!ci_streamed && !a.force && stat(part, &st) == 0) {
                rc = ns_cli_error(CMD, "'%s' is left from an unfinished solve and has no checkpoint %s: nothing to "
                                  "resume%s; use --force to start over", part, ckpt_path,
                                  a.resume ? "" : " (or it is being written by another run)");
                goto fail;
            }
            if (slimit && sneed > slimit) {
                ns_cli_format_bytes(sneed, nb, sizeof nb);
                ns_cli_format_bytes(slimit, avb, sizeof avb);
                rc = ns_cli_error(CMD, "%s streaming still needs %s of memory (line sets and buffers) but %s %s; use "
                                  "smaller bounds", dims, nb, a.memory ? "--memory allows" : "only", avb);
                goto fail;
            }
            /* --force: a record of an earlier run must not pair with the new .part */
            if (!ci_streamed && have_ckpt && ns_dist_rank() == 0 && remove(ckpt_path) != 0) {
                rc = ns_cli_error(CMD, "cannot remove the old checkpoint %s: %s", ckpt_path, strerror(errno));
                goto fail;
            }
            ctx.a = &a;
            ctx.meta = &meta;
            ctx.ckpt_path = ckpt_path;
            char why[128];
            if (grundy_default && !ci_streamed && !a.stream && !(over && can))
                snprintf(why, sizeof why, "the default for Grundy tables of %" PRIu64 " cells or more", smin);
            else if (owned_default && !ci_streamed && !a.stream && !(over && can) && !pn_default)
                snprintf(why, sizeof why, "the default across ranks with owned line sets");
            else
                snprintf(why, sizeof why, "%s", ci_streamed ? "resumed" : a.stream ? "--stream"
                                                : (over && can) ? "the table does not fit" : "the default for P/N tables");
            rc = solve_streaming(&a, g, &meta, &plan, threads, tile, sbytes, ci_streamed ? &ci : NULL, why, argc,
                                 argv, &ctx);
            goto fail;
        }
    }
    if (over) {
        ns_cli_format_bytes(need, nb, sizeof nb);
        const int by_limit = a.memory && (!avail || a.memory <= avail);
        ns_cli_format_bytes(by_limit ? a.memory : avail, avb, sizeof avb);
        char lim[96];
        snprintf(lim, sizeof lim, by_limit ? "--memory allows %s" : "only %s is available", avb);
        rc = ns_cli_error(CMD, "%s (%" PRIu64 " cells) needs %s of memory (table %s + line sets %s) but %s%s", dims,
                          plan.cells, nb, tb, lb, lim,
                          a.pn_only ? "; use smaller bounds" : "; use smaller bounds or --pn-only");
        goto fail;
    }

    /* owned line sets in memory (--no-stream, or resumed from such a
     * checkpoint): rank 0 takes every tile */
    if (ctx.owned && a.mpi_write_given && a.mpi_write != MPI_WRITE_RANK0 && ns_dist_rank() == 0)
        fprintf(stderr, "nimsieve solve: --mpi-write %s: with owned line sets in memory rank 0 alone holds the "
                "table and writes the file (streamed, the default across ranks, each rank writes its chunks; or ask "
                "--mpi-sets replicated for the %s write)\n",
                a.mpi_write == MPI_WRITE_PLACED ? "placed" : "parallel",
                a.mpi_write == MPI_WRITE_PLACED ? "placed" : "parallel");
    uint64_t resume_units = 0;
    ns_engine_opts opts = {.threads = threads, .pn_only = a.pn_only, .loose_bound = a.loose_bound, .progress = on_progress,
                          .progress_user = &ctx, .checkpoint = on_checkpoint, .checkpoint_user = &ctx,
                          .seq_stats = &sst};
    /* the engine's sets may widen mid-run (general engine): within what
     * the budget leaves beside the table, checked at each widening */
    if (budget)
        opts.memory_limit = budget > plan.table_bytes + 1 ? budget - plan.table_bytes : 1;
    if (seq_stream) {
        opts.seq_sink = on_seq_unit;
        opts.seq_user = &ctx;
    }
    ctx.a = &a;
    ctx.meta = &meta;
    ctx.ckpt_path = ckpt_path;
    ctx.kernel = plan.engine->name;
    snprintf(meta.engine, sizeof meta.engine, "%s", plan.engine->name);
    t = ns_engine_table_new(g, a.pn_only, &err);
    if (!t) {
        rc = ns_cli_error(CMD, "%s", err.msg[0] ? err.msg : "out of memory");
        goto fail;
    }
    if (plan.engine->loopy) { /* /remoteness beside /pn */
        if (!(remote = malloc((size_t)t->ncells * sizeof *remote))) {
            rc = ns_cli_error(CMD, "out of memory for the remoteness (%" PRIu64 " cells)", t->ncells);
            goto fail;
        }
        opts.remoteness = remote;
        ns_cli_format_bytes(t->ncells * sizeof *remote, nb, sizeof nb);
        meta.loopy = 1;
        meta.remoteness = remote;
        opts.gsg = want_gsg ? &gsg : NULL;
    }
    ctx.t = t;
    ns_tile_exchange xch;
    ns_dist_tiles *dt = NULL;
    ns_level_exchange lxch;
    ns_dist_levels *dl = NULL;
    take_table take_mem = {t, ctx.owned == 1};
    if (ctx.dist && dist_general) {
        ctx.ckpt_placed = wmode != MPI_WRITE_RANK0 && a.ckpt_every > 0 && !meta.loopy;
        if (!(dl = dist_levels_start(&opts, &lxch, &meta, ctx.ckpt_placed))) {
            rc = NS_EXIT_ERROR;
            goto fail;
        }
        ctx.dl = dl;
        if (ctx.ckpt_placed && ns_dist_rank() == 0)
            ns_dist_levels_set_note(dl, ckpt_note, &ctx);
    } else if (ctx.dist && !(dt = dist_start(g, &plan, &opts, &xch, &meta, ctx.owned, &a))) {
        rc = NS_EXIT_ERROR;
        goto fail;
    } else if (dt && ctx.owned && ns_dist_size() > 1 &&
               ns_dist_tiles_gather_tiles(dt, &xch, g->bounds, on_take, &take_mem, &err)) {
        /* rank 0 takes the others' tiles on its exchange's thread */
        ns_cli_error(CMD, "%s", err.msg);
        ns_dist_abort(NS_EXIT_ERROR);
    }
    if (a.until_periodic) {
        ctx.until.octal = g->octal;
        ctx.until.t = t;
    }
    if (a.resume && have_ckpt) {
        const char *why;
        if ((why = ckpt_mismatch(&ci, &meta, g, a.pn_only, ctx.kernel))) {
            rc = ns_cli_error(CMD, "%s is a checkpoint of another solve (%s differs); give the same GAME, -D, bounds "
                              "and options, or use --force to start over", ckpt_path, why);
            goto fail;
        }
        /* across ranks rank 0 alone reads the finished cells: it passes them
         * on (dist_resume_share, ns_dist_tiles_resume) */
        int rrc = NS_EXIT_OK;
        if (!ci.seq_streamed && (!ctx.dist || ns_dist_rank() == 0)) {
            ns_meta_free(&ci.meta); /* read again, with the table */
            /* a sequence's table widens as values grow: take the checkpoint's width */
            if (g->octal && ci.elem > t->elem && ns_table_widen(t, ci.elem, 0, &err))
                rrc = ns_cli_error(CMD, "%s", err.msg);
            else if (ns_h5_ckpt_read(ckpt_path, &ci, t, &err))
                rrc = ns_cli_error(CMD, "%s; remove it or use --force to start over", err.msg);
        }
        if (!rrc && plan.engine->loopy && ns_h5_ckpt_read_remoteness(ckpt_path, t, remote, &err))
            rrc = ns_cli_error(CMD, "%s; remove it or use --force to start over", err.msg);
        if (ctx.dist)
            rrc = dist_resume_share(rrc, &plan, t, ci.ckpt.units_done, &opts, &shared_p);
        if (rrc) {
            rc = rrc;
            goto fail;
        }
        resume_units = ci.ckpt.units_done;
        ctx.resume_total = ci.ckpt.units_total;
        ctx.units_saved = ci.ckpt.units_done;
        ctx.prior = ci.ckpt.seconds;
    }
    if (dt)
        ns_dist_tiles_resume(dt, resume_units);
    if (seq_stream) {
        /* a resume reads the finished heap sizes back from the .part and the record */
        ctx.seq = ci.seq_streamed && have_ckpt
                      ? ns_h5_seq_resume(a.out, ckpt_path, t, threads, seq_done(t, resume_units), &err)
                      : ns_h5_seq_open(a.out, t->bounds[0], threads, a.force ? NS_H5_FORCE : 0, &err);
        if (!ctx.seq) {
            rc = ns_cli_error(CMD, "%s%s", err.msg, ci.seq_streamed ? "; use --force to start over" : "");
            goto fail;
        }
    }
    if (!a.quiet && plan.engine->loopy) {
        char llabel[NS_NAME_LEN + 600];
        ns_meta_game_label(&meta, llabel, sizeof llabel);
        printf("solving %s on %s (%" PRIu64 " cells): table %s (1 byte a cell), counters and queue %s, remoteness %s, %d thread%s\n",
               llabel, dims, plan.cells, tb, lb, nb, threads, threads == 1 ? "" : "s");
        if (want_gsg)
            printf("then generalized Sprague-Grundy values: about %.2f GiB (36 bytes a cell and 8 bytes an option, every "
                   "option listed: about %" PRIu64 " options, counted at %d cells), and the sets of inf{K}\n",
                   (double)gsg_bytes / (1 << 30), gsg_options, NS_GSG_SAMPLE);
        ns_cli_print_engine(&plan.choice, "engine:", 7);
        if (a.resume && have_ckpt)
            printf("resuming from %s: %" PRIu64 " frontiers done, every position of remoteness <= %" PRIu64
                   " decided (%.1f s of solving)\n", ckpt_path, ci.ckpt.units_done, ci.ckpt.units_done,
                   ci.ckpt.seconds);
        else if (a.resume)
            printf("no checkpoint %s: starting from the beginning\n", ckpt_path);
        fflush(stdout);
    } else if (!a.quiet) {
        char label[NS_NAME_LEN + 600], est[128];
        double secs0, secs, bytes;
        ns_meta_game_label(&meta, label, sizeof label);
        ns_cli_estimate_solve(g, &plan, plan.engine->name, a.pn_only, threads, &secs0, &secs, &bytes);
        if (ctx.resume_total) {
            const double left = 1.0 - (double)resume_units / (double)ctx.resume_total;
            secs *= left;
            secs0 *= left;
        }
        ns_cli_format_estimate(secs0, secs, bytes, est, sizeof est);
        char lbp[128];
        ns_cli_format_line_bytes(&plan, lbp, sizeof lbp);
        printf("solving %s on %s (%" PRIu64 " cells): table %s (%d byte%s a cell%s), line sets %s, %" PRId64 " levels, "
               "%d thread%s; %s\n",
               label, dims, plan.cells, tb, plan.elem, plan.elem == 1 ? "" : "s",
               g->octal && !a.pn_only ? ", widened to 2 or 4 when a value needs it" : "", lbp, plan.levels, threads,
               threads == 1 ? "" : "s", est);
        if (seq_stream)
            printf("streaming: the sequence goes to %s.part a chunk of /grundy at a time as its heap sizes finish "
                   "(%s); checkpoints hold only the values after the last whole chunk\n", a.out,
                   a.stream ? "--stream" : ci.seq_streamed ? "as the checkpoint's run"
                                                          : "chosen for sequences of 2^26 heap sizes or more");
        ns_cli_print_engine(&plan.choice, "engine:", 7);
        if (a.resume && have_ckpt)
            printf("resuming from %s: %" PRIu64 " of %" PRIu64 " units done (%.1f s of solving)\n", ckpt_path,
                   ci.ckpt.units_done, ci.ckpt.units_total, ci.ckpt.seconds);
        else if (a.resume)
            printf("no checkpoint %s: starting from the beginning\n", ckpt_path);
        fflush(stdout);
    }

    ns_cli_catch_sigint();
    ns_cli_progress_start(&ctx.prog, !a.quiet);
    ctx.t0 = ns_cli_now();
    ctx.next_due = ctx.t0 + a.ckpt_every;
    /* across ranks a P/N solve's rows on a rank other than 0 go nowhere:
     * that rank's table is never filled (so never touched) */
    ns_table *run_t = t;
    if (dt && a.pn_only && ns_dist_rank() != 0 && !par_write) {
        opts.rows_sink = on_rows_drop;
        run_t = NULL;
    }
    /* owned line sets: likewise, rank 0 takes every tile and holds the table */
    if (dt && ctx.owned && ns_dist_rank() != 0) {
        opts.tile_sink = on_tile_drop;
        run_t = NULL;
    }
    ns_err src = ns_engine_resume_with(plan.engine, g, run_t, &opts, resume_units, &err);
    const double wall = ns_cli_now() - ctx.t0;
    ns_cli_progress_finish(&ctx.prog);
    /* across ranks, rank 0 stopped (a checkpoint) or failed: it says so as a
     * single process does, below, then ends every rank */
    const int dist_stop = (dt || dl) && src && ns_dist_rank() == 0;
    if (dt && !dist_stop) {
        if (src)
            ns_cli_error(CMD, "%s", err.msg);
        rc = dist_end(dt, src ? NS_EXIT_ERROR : NS_EXIT_OK, a.quiet, a.pn_only,
                      xch.gather ? threads : threads * ns_dist_size(), xch.keep);
        ns_dist_tiles_free(dt);
        if (rc)
            goto fail;
        /* --mpi-write parallel: every rank holds the whole table (a P/N
         * table too: its rows were not dropped) and writes its share of the
         * file with rank 0 (parallel HDF5, ns_h5_write_par); else rank 0
         * alone writes it */
        if (ns_dist_rank() != 0) {
            if (par_write)
                rc = dist_write(&a, wmode, t, &meta, threads, ctx.prior + wall, NULL, NULL);
            goto fail;
        }
    }
    if (dl && !dist_stop) {
        if (src)
            ns_cli_error(CMD, "%s", err.msg);
        /* a widening past --memory fails every rank at once: rank 0 writes
         * the checkpoint of the finished levels and ends the job; wait for
         * that rather than cut it short (a failure of this rank alone:
         * rank 0 never comes, and the job ends here below) */
        if (src == NS_ENOMEM && opts.memory_limit && ns_dist_fail_meet(30.0))
            ns_dist_wait_end();
        rc = dist_levels_end(dl, src ? NS_EXIT_ERROR : NS_EXIT_OK, a.quiet);
        ns_dist_levels_free(dl);
        if (rc)
            goto fail;
        if (ns_dist_rank() != 0) { /* with rank 0 (--mpi-write parallel), or rank 0 alone */
            if (par_write)
                rc = dist_write(&a, wmode, t, &meta, threads, ctx.prior + wall, NULL, NULL);
            goto fail;
        }
    }
    if (src == NS_EINTR && ctx.until.at) {
        /* --until-periodic: keep the prefix that proves the period */
        int64_t n = ctx.until.at;
        t->bounds[0] = n;
        t->ncells = (uint64_t)n;
        if (ns_game_set_bounds(g, &n, &err)) {
            rc = ns_cli_error(CMD, "%s", err.msg);
            goto fail;
        }
        snprintf(dims, sizeof dims, "%" PRId64, n);
        plan.cells = (uint64_t)n;
        if (!a.quiet)
            printf("until periodic: a period is proven with %" PRId64 " of the %" PRId64 " heap sizes asked for; "
                   "stopped there\n", n, a.box.bounds[0]);
        src = NS_OK;
    }
    if (src) {
        const int sig = ns_cli_interrupted();
        if (ctx.failed) {
            rc = ns_cli_error(CMD, "%s%s", ctx.err.msg,
                              ctx.units_saved ? "; the previous checkpoint is intact: resume with --resume" : "");
        } else if (src == NS_EINTR && ctx.stopped && ctx.units_saved) {
            char cmd[2048], held[160];
            format_command(argc, argv, cmd, sizeof cmd);
            if (plan.engine->loopy) /* frontiers: how many is not known in advance */
                snprintf(held, sizeof held, "%" PRIu64 " frontiers (every position of remoteness <= %" PRIu64
                         " decided)", ctx.units_saved, ctx.units_saved);
            else
                snprintf(held, sizeof held, "%" PRIu64 " of %" PRIu64 " units (%.0f%%)", ctx.units_saved,
                         ctx.units_total,
                         ctx.units_total ? 100.0 * (double)ctx.units_saved / (double)ctx.units_total : 0.0);
            ns_cli_error(CMD, "stopped by %s after %.1f s; checkpoint %s holds %s; continue with: %s",
                         sig == SIGTERM ? "SIGTERM" : "SIGINT", wall, ckpt_path, held, cmd);
            rc = 128 + (sig ? sig : SIGINT);
        } else if (src == NS_EINTR) {
            ns_cli_error(CMD, "interrupted after %.1f s%s", wall,
                         have_ckpt && a.resume ? "; the checkpoint it resumed from is intact" : "; nothing was written");
            rc = 128 + (sig ? sig : SIGINT);
        } else if (src == NS_ENOMEM && opts.memory_limit) {
            /* the sets outgrew the budget: the levels reported done are
             * final, so they make a checkpoint as any other stop does */
            char bb[32], held[4400];
            ns_cli_format_bytes(budget, bb, sizeof bb);
            held[0] = 0;
            /* across ranks: the others wait for this checkpoint (they
             * failed the same way), ns_dist_fail_meet */
            if (dl)
                (void)ns_dist_fail_meet(0.0);
            if (a.ckpt_every > 0 && !ctx.seq && plan.engine->resume && ctx.units_done > ctx.units_saved)
                (void)write_checkpoint(&ctx, ctx.units_done, ctx.units_total);
            if (ctx.units_saved)
                snprintf(held, sizeof held, "; checkpoint %s holds %" PRIu64 " of %" PRIu64 " units: continue with "
                         "--resume and a larger --memory", ckpt_path, ctx.units_saved, ctx.units_total);
            rc = ns_cli_error(CMD, "%s, of %s %s less the table %s%s", err.msg, bb,
                              a.memory ? "(--memory)" : "(available at the start)", tb,
                              held[0] ? held : "; nothing was written: give a larger --memory");
        } else {
            rc = ns_cli_error(CMD, "%s", err.msg);
        }
        if (dist_stop) {
            fflush(stdout);
            fflush(stderr);
            ns_dist_abort(rc);
        }
        goto fail;
    }

    meta.threads = threads;
    meta.wall_seconds = ctx.prior + wall;
    meta.complete = 1;
    if (gsg) {
        meta.gsg_value = gsg->value;
        meta.gsg_ninf = gsg->ninf;
        meta.gsg_inf_off = gsg->inf_off;
        meta.gsg_inf_val = gsg->inf_val;
        meta.gsg_max_finite = gsg->max_finite;
    }
    /* a heap game's code and period; the rare heap sizes under the final
     * mask when rare/common ran with one */
    if (g->octal && (rc = ns_cli_seq_fill(CMD, g, t, strcmp(plan.engine->name, "rare-common") == 0 ? sst.mask : 0,
                                          &rare, &meta)))
        goto fail;
    ns_table_stats ts;
    ns_h5_seq *seq = ctx.seq;
    ctx.seq = NULL;
    double write_s = ns_cli_now();
    /* --mpi-write parallel: every rank writes its share (the others are in
     * dist_write too); else rank 0 writes alone */
    ns_h5_placed_report prep = {0};
    if (par_write) {
        if ((rc = dist_write(&a, wmode, t, &meta, threads, ctx.prior + wall, &ts, &prep)))
            goto fail;
    } else if (seq ? ns_h5_seq_close(seq, t, &meta, &ts, &err)
                   : ns_h5_write_stats(a.out, t, &meta, a.force ? NS_H5_FORCE : 0, &ts, &err)) {
        const char *tail = seq && ctx.units_saved ? "; the .part is gone with it: start over with --force"
                           : ctx.units_saved ? "; the last checkpoint is intact: free the space and run again with --resume"
                                             : "";
        if (seq)
            ctx.units_saved = 0; /* nothing to suspend */
        rc = strstr(err.msg, a.out) ? ns_cli_error(CMD, "%s%s", err.msg, tail)
                                    : ns_cli_error(CMD, "%s: %s%s", a.out, err.msg, tail);
        goto fail;
    }
    write_s = ns_cli_now() - write_s;
    remove_checkpoint(ckpt_path, a.out);

    if (!a.quiet) {
        char bt[320];
        snprintf(bt, sizeof bt, "%s (%" PRIu64 " cells, %" PRIu64 " positions)", dims, plan.cells, ts.n_valid);
        print_summary(g, &meta, bt, a.pn_only ? "P/N" : "grundy", &ts, !a.pn_only);
        meta.max_value = ts.max_value;
        ns_cli_seq_print(&meta, g->bounds[0]);
        if (meta.loopy) {
            uint64_t draws = 0;
            for (uint64_t i = 0; i < t->ncells; i++)
                draws += ns_table_get(t, i) == NS_PN_DRAW;
            printf("draws:         %" PRIu64 "\n", draws);
        }
        if (gsg)
            printf("gsg values:    %" PRIu64 " finite (largest %" PRIu32 "), %" PRIu64 " infinite\n", gsg->nfinite,
                   gsg->max_finite, gsg->ninf);
        print_times(&ctx, wall, threads);
        if (par_write && wmode == MPI_WRITE_PLACED && prep.shared)
            printf("mpi write:     %d rank%s wrote %s at once, each its share of the chunks filtered as one process "
                   "does, at the places rank 0 gave (%" PRIu64 " bytes of chunks, %" PRIu64 " by the ranks but 0) "
                   "in %.2f s (--mpi-write placed)\n", ns_dist_size(), ns_dist_size() == 1 ? "" : "s", a.out,
                   prep.bytes, prep.bytes_others, write_s);
        else if (par_write && wmode == MPI_WRITE_PLACED)
            printf("mpi write:     rank 0 of %d wrote %s alone in %.2f s (a rank could not open its .part: "
                   "--mpi-write placed fell back to rank 0)\n", ns_dist_size(), a.out, write_s);
        else if (par_write)
            printf("mpi write:     %d rank%s wrote %s at once with parallel HDF5 (each its bands of chunk rows) "
                   "in %.2f s (--mpi-write parallel)\n", ns_dist_size(), ns_dist_size() == 1 ? "" : "s", a.out,
                   write_s);
        else if (ctx.dist)
            printf("mpi write:     rank 0 of %d wrote %s alone in %.2f s (--mpi-write rank0)\n", ns_dist_size(),
                   a.out, write_s);
        printf("output:        %s\n", a.out);
    }
    rc = NS_EXIT_OK;
fail:
    ns_gsg_free(gsg);
    /* a streamed sequence that stopped keeps its .part when a checkpoint records it */
    if (ctx.seq && ctx.units_saved)
        ns_h5_seq_suspend(ctx.seq);
    else
        ns_h5_seq_abort(ctx.seq);
    free(remote);
    free(rare);
    free(shared_p);
    ns_meta_free(&ci.meta);
    ns_meta_free(&meta);
    ns_table_free(t);
    ns_game_free(g);
    free(ckpt_path);
    return rc;
}
