/* ns_engine.h - one door to the engines.
 *
 * An engine fills a table with Grundy values or P/N flags (or hands
 * finished blocks of it to a sink), touching no files and printing
 * nothing; results never depend on the number of threads. Every engine is
 * one const ns_engine (named fields: what it is, whether it applies to a
 * game and options and why not, its memory, run, resume) listed in one
 * table, fastest first (ns_engine.c). A solve asks the door once:
 * ns_engine_choose picks the first engine of the table that applies, and
 * keeps, for each faster one it passed over, the reason. The general level
 * sieve (ns_general.c) applies to every game that fits in memory; the
 * tile kernel (ns_tiles2d.c) and the P/N row kernel (ns_rows_pn.c) to
 * two-pile games of rays; retrograde analysis (ns_retro.c) to loopy games
 * (ns_game.loopy) only. A new engine is a new file and one entry in the
 * table.
 *
 * The sieve's idea, common to all: moves with line structure (rays) are
 * handled per line of the table (each line keeps the set of values seen
 * on it), never option by option. */
#ifndef NS_ENGINE_H
#define NS_ENGINE_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

#include <stddef.h>

/* Progress callback: called from the calling thread between levels with the
 * fraction of cells done; return non-zero to stop (the solve then fails
 * with NS_EINTR). */
typedef int (*ns_progress_fn)(void *user, double fraction);

/* Checkpoints. Every kernel does its work in units taken in a fixed order
 * (general engine: rank levels; rows_pn: rows; tiles2d: tile wavefronts).
 * After each unit it calls checkpoint(user, units_done, units_total) from
 * one thread while no thread writes the table: the cells of units
 * 0..units_done-1 then hold their final values (cells of later units may hold
 * anything). The callback may copy the table (to a checkpoint file); a
 * non-zero return stops the kernel, which then fails with NS_EINTR.
 *
 * Resume (ns_engine_resume). With u units done the table handed to the kernel already
 * holds the final values of units 0..u-1 (from a checkpoint of the same game,
 * bounds, kernel and value kind); the kernel rebuilds its per-line state from
 * them without recomputing them, then computes units u.. as usual. The
 * result is bit-identical to an uninterrupted run. */
typedef int (*ns_checkpoint_fn)(void *user, uint64_t units_done, uint64_t units_total);

/* Streaming (tables larger than memory; the tiles2d engine only, see
 * ns_engine_can_stream). With tile_sink set, ns_engine_run takes t == NULL,
 * keeps only the per-line sets, and hands every finished tile to
 * tile_sink(user, x0, y0, nx, ny, vals): the cells (x0 + i, y0 + j),
 * 0 <= i < nx, 0 <= j < ny, with vals[i * ny + j] (borrowed for the call).
 * It is called on the worker threads, several at once, each tile once, in
 * no fixed order. A non-zero return stops the kernel, which fails with
 * NS_EIO (the sink keeps its own message).
 *
 * Checkpoints of a streamed solve: checkpoint() is called, as above, when
 * every tile of the units done has been handed to the sink and no thread
 * is in the sink (units: tile anti-diagonals, tiles (i, j) with i + j <
 * units_done). Resume (units_done > 0, t == NULL): the kernel reads the
 * finished tiles it needs back through tile_source(tile_user, x0, y0, nx,
 * ny, vals), which fills vals like the sink's argument (called on the
 * worker threads, several at once; non-zero: NS_EIO), puts their values
 * into its line sets without recomputing them, and hands only the tiles of
 * later units to the sink. */
typedef int (*ns_tile_fn)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals);
typedef int (*ns_tile_src_fn)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals);

/* Distribution of the tile kernel (tiles2d) over the processes of a job
 * (src/dist/ implements it with MPI; the engine sees only these hooks).
 * Every process runs the same wavefront over all tile rows, but computes
 * only the tiles of its own rows (mine(user, i) != 0 for tile row i); a
 * tile of another row it receives as values (recv, blocking) and replays
 * into its line sets in its wavefront place, so the line sets stay exactly
 * those of a single-process run. After computing a tile it hands its values
 * to send (in the symmetric case only the tiles i <= j travel; the mirror
 * is filled where they arrive). vals as in ns_tile_fn (the tile's nx * ny
 * values, borrowed for the call). Called on the worker threads, several at
 * once; send and recv for one tile row come from one thread at a time, in
 * column order. Non-zero from a hook stops the kernel with NS_EIO.
 *
 * With an exchange the sink (streaming) or the table (in memory) gets every
 * tile, computed here or received; each process runs threads x ranks
 * OpenMP threads, so that its threads compute while the others, waiting on
 * rows of other processes, replay. A value over a checked bound is not
 * redone with the loose bound (NS_ERANGE: the other processes cannot
 * follow).
 *
 * Checkpoints and resume: the ranges of anti-diagonals between callbacks
 * are the same on every process, and a process's checkpoint callback comes
 * after it has every tile of the anti-diagonals it reports (its own and
 * the received ones), so one process's checkpoint (the one holding the
 * file) is the whole job's. A resume (units_done > 0): the process with
 * holder != 0 replays the finished tiles from its table or tile_source and
 * sends each (send, i <= j when symmetric) to the others, which take them
 * with recv (from the holder: the exchange knows the finished units) and
 * replay them as received tiles; so any number of processes resumes a
 * checkpoint written by any number.
 *
 * The P/N row kernel (rows-pn) takes the same hooks, a block of
 * stream_unit() rows for a row of tiles: mine(user, block); every process
 * runs every row in order, sieves the rows of its own blocks and, when a
 * block is done, sends its P bitmaps (as ns_rows_fn's p) as x0 = the
 * block's first row, y0 = 0, nx = its rows, ny = 2 * words, vals = the
 * bitmaps' bytes seen as 32-bit halves (the same binary on every process:
 * hooks copy them as bytes); a block of another process it receives the
 * same way when the block begins and takes in its rows as its own, so its
 * line flags stay a single process's. Called on the calling thread, blocks
 * in row order; the table or rows_sink gets every row. Checkpoints: after
 * a block every process holds every finished row, so any one process's
 * callback (the caller sets one) sees the job's state. Resume: each
 * process is handed the finished rows (its table, or resume_p without
 * one: a process may run without a table and a sink that drops the rows)
 * and the blocks exchanged are only those after them, so a checkpoint of
 * any number of processes resumes under any number. */
/* Owned line sets (acquire and release set; the symmetric case: a
 * square box, moves along the row, the column and maybe the diagonal; the
 * plain case below: any box, moves along the row, the column, the
 * diagonal, or some of them).
 * A process keeps only the line sets it works on; the others rest at
 * their homes in the exchange. Blocks of lines: kind NS_LINES_INDEX,
 * block b = the sets of indices [bT, bT + T) (row and column x share a
 * set), kind NS_LINES_DIAG, block m = the diagonals y - x in [mT, mT + T)
 * (T: stream_unit()). A process computes only its own tile rows (a process
 * with holder != 0 also takes every other tile through recv, into its table
 * or sink, without its sets; the others skip them: send goes to the holder
 * only) and, for tile (i, j), i <= j, acquires before it index block j (at
 * j == i: its row's block, kept to the row's end) and diagonal block j - i,
 * each at version i (the uses it has had: the rows before), and after it
 * releases index block j (j > i) and diagonal block j - i - 1 (j > i) at
 * version i + 1; after the row's last tile, its row's block and diagonal
 * block j - i are released with win NULL (no one needs them again).
 * acquire(user, kind, block, version, bytes, &win, &nwin) waits until that
 * version is released (anywhere), then hands its packed lines
 * (ns_tile_lines_pack) to the caller (*win malloc'ed, the caller frees it;
 * NULL with version 0: empty sets); release hands the packed lines after
 * version uses (win malloc'ed, the hook owns it from the call on, also when
 * it fails). bytes: the memory of the block's sets while the process holds
 * them (for the hook's count). Called on the worker threads, several at
 * once, never twice for one block at once. A resume: the holder replays the
 * finished tiles between acquire and release as if it computed them, the
 * others skip them (no tile source needed); a row it replayed in part
 * hands the two blocks it carries (its index block i, its last diagonal
 * block) to the row's process under version tile rows + 1 + i. */
/* The plain case (no symmetry, any box, any rays the kernel runs): every
 * tile (i, j) of the box; a row's own sets are kind NS_LINES_ROW (block i),
 * a ray group's (the moves (x - a t, y - q t), lines c = a*y - q*x, laid
 * out as ns_tiles2d.c's own_before says), kind
 * NS_LINES_RAY_KIND(a, q), blocks b (negative too) of the lines
 * [T (b + q tile rows), T (b + q tile rows + 1)). Tile (i, j) acquires
 * blocks B .. B + a - 1, B = a j - q i, at version i (at j == 0 also its
 * row block and blocks B - q .. B - 1 at version 0: empty) and releases
 * B - q .. B + a - q - 1 at version i + 1 (win NULL from the last tile
 * row); after the row's last tile its row block and B + a - q .. B + a - 1
 * with win NULL. Version v of block b is so released by tile (v - 1, j)
 * and acquired by tile (v, j), j = floor((b + q v) / a). A resume's
 * hand-over: the row block and each group's q blocks B - q .. B - 1 of
 * the row's next tile. */
/* gather (OPTIONAL, owned line sets): the other processes' tiles reach
 * the holder's output without its threads (the exchange puts them into
 * its table, or their processes write them into the sink's file). The
 * holder
 * then skips their rows as the others do (threads, not threads x ranks)
 * and, around each range [s0, s1) of anti-diagonals it computes, calls
 * gather(user, s1, 0) before it (the other tiles of anti-diagonals < s1
 * may be stored from now on, none later) and gather(user, s1, 1) after it
 * (returns once every other process's tile (i <= j; the plain case: every one) of anti-diagonals
 * < s1 and past a resume's finished ones is stored: then, and before its
 * checkpoint, the output holds exactly the tiles of the units done);
 * non-zero: failed. */
enum { NS_LINES_INDEX = 0, NS_LINES_DIAG = 1, NS_LINES_ROW = 2, NS_LINES_RAY = 16 };
/* the plain case's kind of a ray group's blocks (lines c = a*y - q*x,
 * 1 <= a <= NS_LINES_RAY_MAX, 0 <= q <= NS_LINES_RAY_MAX: any step a table
 * of 2^31 - 1 rows or columns can move by), and its steps back from it */
#define NS_LINES_RAY_MAX INT64_C(0x7FFFFFFF)
#define NS_LINES_RAY_KIND(a, q) (NS_LINES_RAY + ((int64_t)(a) << 31) + (int64_t)(q))
#define NS_LINES_RAY_A(kind) (((kind) - NS_LINES_RAY) >> 31)
#define NS_LINES_RAY_Q(kind) (((kind) - NS_LINES_RAY) & NS_LINES_RAY_MAX)
typedef struct ns_tile_exchange {
    int (*mine)(void *user, int64_t tile_row);  /* REQUIRED */
    int (*send)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals); /* REQUIRED */
    int (*recv)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals);       /* REQUIRED */
    /* OPTIONAL, both or neither: owned line sets (see below) */
    int (*acquire)(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t **win,
                   size_t *nwin);
    int (*release)(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t *win,
                   size_t nwin);
    int (*gather)(void *user, int64_t upto, int wait);  /* OPTIONAL, owned sets: see above */
    void *user;
    int ranks;              /* the processes (>= 1) */
    int holder;             /* this process holds the finished tiles of a
                               resume (and writes the checkpoints) */
    uint64_t keep;          /* owned line sets: the bytes of blocks released
                               for a later use whose pages a process may keep
                               (not given back: taken again, they need no
                               fresh pages); they stay counted (release and
                               acquire are told 0 bytes for them). 0: none */
} ns_tile_exchange;

/* Distribution of the general engine (the level sieve) over the processes
 * of a job (src/dist/ implements it with MPI; the engine sees only this
 * hook). Every process keeps the whole table and all line and running
 * sets. The small levels (those run on one thread, see solo_cells; their
 * choice counts threads x ranks workers) every process computes whole; of
 * each shared level only its block: the cells [first[rank], first[rank +
 * 1]) of the level's list (the same list and the same blocks on every
 * process; whole runs along the sequential axis). Then one thread calls
 * exchange(user, level, status, vals, n, first, err): *status in is this
 * process's (0: done, 1: a value needs wider sets, the level is redone
 * after a widening, 2: failed), out the largest of all processes'; only
 * with 0 out, vals (the level's n values in list order, this process's
 * block filled) comes back whole, first (ranks + 1 entries) borrowed. The
 * process then puts the others' values into its table and replays them
 * into its line and running sets as if it had computed them, so its state
 * stays a single process's. Non-zero from the hook, or 2 out when this
 * process did not fail (err then names the process that did): the engine
 * fails with NS_EIO and err's message. Checkpoints and resume: after
 * each level every process holds the whole state, so any one process's
 * checkpoint callback (the caller sets one) sees the job's levels final in
 * its table; a resume rebuilds the sets from the table alone, so processes
 * handed the same checkpoint's table start from the same state, whatever
 * the number of processes that wrote it or resume it. */
typedef struct ns_level_exchange {
    int (*exchange)(void *user, int64_t level, int *status, uint32_t *vals, uint64_t n, const uint64_t *first,
                    ns_error *err);     /* REQUIRED */
    void *user;
    int rank;               /* this process (0 .. ranks - 1) */
    int ranks;              /* the processes (>= 1) */
} ns_level_exchange;

/* Streaming P/N tables (the rows-pn engine only, see ns_engine_can_stream):
 * with rows_sink set, ns_engine_run takes t == NULL and hands every finished
 * block of rows to rows_sink(user, x0, nrows, words, p): the P-positions of
 * rows x0 .. x0 + nrows - 1 as bitmaps, bit y of row x0 + i being
 * p[i * words + y / 64] >> (y % 64) & 1 (borrowed for the call). Called on
 * the calling thread, blocks in row order (the sink may run parallel
 * loops of its own); non-zero stops the kernel with NS_EIO. Checkpoints
 * come after the sink took the block (units: blocks of stream_unit() rows).
 * Resume (units_done > 0, t == NULL): resume_p holds the P-positions
 * (x, y) of the finished rows as resume_np pairs (x at [2i], y at [2i+1],
 * in any order; borrowed); the kernel rebuilds its line flags from them. */
typedef int (*ns_rows_fn)(void *user, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p);

/* Streaming a take-and-break game's sequence (the sequence engines,
 * ns_sequence.c): they keep the whole sequence in memory (the far parts
 * of splits need it) and, with seq_sink set, call seq_sink(user, t, n)
 * after each unit of NS_SEQ_UNIT heap sizes, on the calling thread and
 * before checkpoint(): G(0 .. n-1) in t are then final (n grows by a
 * unit a call, N at the last). t is the table being filled (borrowed for
 * the call; its cell width may have grown since the last call). Non-zero
 * stops the engine with NS_EIO (the sink keeps its own message). */
typedef int (*ns_seq_fn)(void *user, const ns_table *t, int64_t n);

/* How the two-pile Grundy kernel (tiles2d) finds a cell's mex; the
 * tables are the same. */
typedef enum ns_mex_method {
    NS_MEX_SUMMARY = 0,     /* the default: only the words where no line's
                               word is full, from summaries of full words */
    NS_MEX_SCAN = 1,        /* the union scanned from the lines' first
                               non-full word, 32 words a step with AVX-512
                               where the processor has it */
    NS_MEX_SCAN_NARROW = 2  /* the same scan, four words a step */
} ns_mex_method;

/* What the take-and-break sequence engines (ns_sequence.c: rare-common,
 * sequence) did in a run, for the tests and the benchmark. Their
 * checkpoint unit is NS_SEQ_UNIT heap sizes: after u units, G(0 ..
 * min(N, u * NS_SEQ_UNIT) - 1) are final (solve --until-periodic looks for
 * a proven period there). */
enum { NS_SEQ_UNIT = 4096 };
typedef struct ns_seq_stats {
    uint32_t mask;          /* the rare/common mask at the end (0: none) */
    uint64_t mask_changes;  /* times a mask was chosen (the first included) */
    int64_t rare;           /* rare heap sizes under it at the end */
    uint64_t rc_heaps;      /* heaps done by the rare/common method ... */
    uint64_t scans;         /* ... of which needed a scan of all splits */
    uint64_t vec_scans;     /* heaps of rc_heaps whose scans ran the vector kernel */
    uint64_t pipe_heaps;    /* heaps of rc_heaps done by the pipeline (engine/ns_seq_pipe.h) */
    uint64_t pipe_rare;     /* rare heaps the pipeline met (each stopped it) */
    uint64_t mex_heaps;     /* heaps done by the plain mex ... */
    uint64_t mex_vec;       /* ... of which marked their splits with its
                               vector kernel (ns_engine_opts.seq_mex) */
} ns_seq_stats;

/* How the rare-common engine scans a heap's splits for the rare values
 * still missing (ns_engine_opts.seq_scan); the sequences are the same. */
typedef enum ns_seq_scan {
    NS_SEQ_SCAN_AUTO = 0,   /* the default: 32 (16-bit values: 16) splits a
                               step with AVX2 where the processor has it
                               and the values fit 16 bits, else scalar */
    NS_SEQ_SCAN_SCALAR = 1  /* one split at a time (the tests' fallback) */
} ns_seq_scan;

/* How the plain mex of the sequence engines (sequence; rare-common where
 * the method does not pay) marks a heap's splits (ns_engine_opts.seq_mex,
 * engine/ns_seq_mex.h); the sequences are the same. */
typedef enum ns_seq_mex {
    NS_SEQ_MEX_AUTO = 0,    /* the default: byte marks, 32 (16-bit values:
                               16) splits a step with AVX2 where the
                               processor has it and the cells are one or
                               two bytes, else one split at a time */
    NS_SEQ_MEX_SCALAR = 1,  /* byte marks, one split at a time (the tests'
                               fallback) */
    NS_SEQ_MEX_BITS = 2     /* a bit set per split, read-modify-write: the
                               former kernel (the benchmark's baseline) */
} ns_seq_mex;

/* The general engine's default for ns_engine_opts.solo_cells: a level of
 * fewer than this many cells (of plain cells: about 0.1 ms on one thread)
 * costs less alone than a meeting of the threads on a busy machine. */
enum { NS_GENERAL_SOLO_WORK = 2048 };

typedef struct ns_engine_opts {
    int threads;            /* <= 0: OpenMP's default */
    int pn_only;            /* P/N flags instead of Grundy values */
    ns_progress_fn progress;/* OPTIONAL */
    void *progress_user;
    ns_checkpoint_fn checkpoint; /* OPTIONAL */
    void *checkpoint_user;
    ns_tile_fn tile_sink;   /* OPTIONAL: streaming, see ns_tile_fn */
    void *tile_user;
    ns_mex_method mex_scan; /* tiles2d: how a cell's mex is found (the
                               benchmark's and the tests' comparisons) */
    ns_rows_fn rows_sink;   /* OPTIONAL: P/N streaming, see ns_rows_fn */
    void *rows_user;
    ns_tile_src_fn tile_source; /* a streamed Grundy resume: see ns_tile_fn */
    const int64_t *resume_p;    /* a streamed P/N resume: see ns_rows_fn */
    uint64_t resume_np;
    uint32_t *remoteness;   /* OPTIONAL (engines of loopy games: retro):
                               the table's ncells entries, filled with each
                               position's remoteness, NS_REMOTE_NONE for
                               draws and non-positions; caller owns it */
    ns_seq_stats *seq_stats;    /* OPTIONAL: filled by the sequence engines */
    uint64_t solo_cells;    /* general engine: levels whose work (cells, times
                               rank + 1 with general families) is below this
                               run on one thread, batched between two shared
                               levels; 0: NS_GENERAL_SOLO_WORK, or a quarter
                               of the largest level's work if less (the
                               tests set 1 to share every level they can) */
    int widen_rebuild;      /* general engine: a widening of the sets
                               rebuilds them from the table (the path taken
                               when copying them would pass memory_limit)
                               instead of copying them wider; for tests */
    uint64_t *widenings;    /* OPTIONAL (general engine): widenings[0] gets
                               the widenings of the sets done by copying
                               them, widenings[1] those rebuilt from the
                               table (both added to) */
    struct ns_gsg **gsg;    /* OPTIONAL (retro, normal play): *gsg gets the
                               generalized Sprague-Grundy values, computed
                               after the P/N/draw table (ns_gsg_solve);
                               caller frees with ns_gsg_free */
    ns_seq_fn seq_sink;     /* OPTIONAL (sequence engines): see ns_seq_fn */
    void *seq_user;
    ns_seq_scan seq_scan;   /* rare-common: how splits are scanned (tests) */
    int seq_no_pipe;        /* rare-common: heap by heap in blocks, not the
                               pipeline over groups (tests, benchmark) */
    int64_t seq_pipe_quiet; /* rare-common: the pipeline starts once the last
                               rare heap lies this many heap sizes back (0:
                               65,536; the tests set less, to meet rare heaps
                               inside it) */
    ns_seq_mex seq_mex;     /* sequence engines: how the plain mex marks
                               splits (tests, benchmark) */
    int loose_bound;        /* 1: size cells and line sets by the proven
                               bound (the number of options), never by an
                               engine's checked bound */
    const ns_tile_exchange *tile_exchange; /* OPTIONAL (tiles2d): across
                               processes, see ns_tile_exchange */
    uint64_t max_value;     /* 0, or a checked bound below the plan's:
                               a test hook that forces the engines'
                               overflow check (tiles2d checks) */
    uint64_t memory_limit;  /* 0: none; else the bytes the engine may keep
                               besides the table (general engine: its line
                               and running sets, which widen with the
                               values): a widening past it stops the solve
                               with NS_ENOMEM naming both sizes, the levels
                               before it final (a checkpoint may be written) */
    const ns_level_exchange *level_exchange; /* OPTIONAL (general): across
                               processes, see ns_level_exchange */
} ns_engine_opts;

/* The line sets of the tile kernel as they travel between processes
 * (owned line sets, above): line l's set is bits + l * stride (words words
 * of values, bit v of the set = value v seen), its summary full + l *
 * fstride (bit w = word w is full) and first[l] its first word that is not
 * full. Packed, a line is one word, first | (n << 32), then its n words
 * from first up to its last non-zero word (none when first reaches it):
 * the words below first are full and the words past the window zero, and
 * the summary follows from the words. */
typedef struct ns_tile_lines {
    uint64_t *bits;
    uint64_t *full;
    uint32_t *first;
    uint64_t stride, fstride, words;
} ns_tile_lines;

/* The packed lines l0 .. l0 + nl - 1 of L into out (NULL: only counted);
 * returns the words. */
size_t ns_tile_lines_pack(const ns_tile_lines *L, int64_t l0, int64_t nl, uint64_t *out);

/* The packed lines in[0 .. nin) into lines l0 .. l0 + nl - 1 of L, which
 * must be empty (all zero) before. NS_EFORMAT when in is not nl packed
 * lines of L's width. */
ns_err ns_tile_lines_unpack(const ns_tile_lines *L, int64_t l0, int64_t nl, const uint64_t *in, size_t nin,
                            ns_error *err);

/* Generalized Sprague-Grundy values of a loopy game (Smith 1966; Fraenkel
 * and Yesha), ns_retro_gsg.c. Every position u gets gamma(u): a finite
 * value, or infinity "inf(K)" with K the set of finite values among its
 * options. Outcome: 0 is P, finite non-zero N, inf(K) N when 0 is in K,
 * else a draw. Sums: a XOR b for finite a, b; inf(K XOR b) for inf(K) and
 * finite b; two infinite values make a draw. */
#define NS_GSG_NONE UINT32_MAX          /* not a position */
#define NS_GSG_INF (UINT32_MAX - 1)     /* gamma infinite (the set: below) */
typedef struct ns_gsg {
    uint64_t ncells;
    uint32_t *value;        /* ncells: the finite value, NS_GSG_INF or NS_GSG_NONE */
    uint64_t ninf;          /* cells with value NS_GSG_INF */
    uint64_t *inf_off;      /* ninf + 1: the set of the j-th infinite cell (in
                               cell order) is inf_val[inf_off[j] .. inf_off[j+1]) */
    uint32_t *inf_val;      /* increasing within each set */
    uint32_t max_finite;    /* the largest finite value (0 when none) */
    uint64_t nfinite;       /* positions with a finite value */
    uint64_t stages;        /* values m the algorithm went through */
} ns_gsg;

/* Compute the generalized Sprague-Grundy values of g (bounds set, normal
 * play; any game, loopy or not) on threads threads (<= 0: OpenMP's
 * default); *out owned by the caller (ns_gsg_free). Identical at any
 * thread count. Memory: 36 bytes a cell + 8 bytes an option, plus the sets. */
ns_err ns_gsg_solve(const ns_game *g, int threads, ns_gsg **out, ns_error *err);
void ns_gsg_free(ns_gsg *x);

/* What ns_gsg_solve would need, before any work: the options of
 * NS_GSG_SAMPLE cells spread over the box (a fixed pseudo-random choice,
 * the same at every call; every cell when there are fewer) counted with
 * ns_game_foreach_option and scaled to all cells into *options; returns
 * the bytes, 36 a cell + 8 an option (the sets of inf{K} not counted:
 * they are at most 4 bytes an option of the infinite cells). 0 with
 * *err set when an option cannot be enumerated. */
#define NS_GSG_SAMPLE 4096
uint64_t ns_gsg_estimate(const ns_game *g, uint64_t *options, ns_error *err);

/* The same for the retro engine: then checked against its P/N/draw table
 * t (ns_gsg_check_outcomes); *out stays NULL on failure. */
ns_err ns_gsg_solve_for(const ns_game *g, const ns_table *t, int threads, ns_gsg **out, ns_error *err);

/* The outcome (NS_PN_P, NS_PN_N, NS_PN_DRAW) of value v, with its set
 * k[0..nk) when v is NS_GSG_INF. */
int ns_gsg_outcome(uint32_t v, const uint32_t *k, uint64_t nk);

/* NS_EINTERNAL, naming the first cell, unless the outcome of every value
 * of x is the one the P/N/draw table t (of the same game) holds. */
ns_err ns_gsg_check_outcomes(const ns_gsg *x, const ns_table *t, ns_error *err);

/* The set of the infinite cell i (value NS_GSG_INF): *n values (borrowed
 * from x); NULL when i is not infinite. O(i): it counts the infinite cells
 * before i (tests and single look-ups). */
const uint32_t *ns_gsg_set(const ns_gsg *x, uint64_t i, uint64_t *n);

/* remoteness of a draw or a non-position */
#define NS_REMOTE_NONE UINT32_MAX

enum { NS_ENGINE_MAX = 8, NS_ENGINE_WHY = 256 };

/* Which engine runs, and why each faster one does not. */
typedef struct ns_engine_choice {
    const struct ns_engine *engine; /* NULL: none applies (a sink no engine takes) */
    int nskipped;               /* the engines before it in the table that
                                   fill this kind of table */
    const struct ns_engine *skipped[NS_ENGINE_MAX];
    char why[NS_ENGINE_MAX][NS_ENGINE_WHY];
} ns_engine_choice;

/* Plan of a solve: sizes the caller may show or check against a budget. */
typedef struct ns_engine_plan {
    uint64_t cells;
    uint64_t max_value;     /* bound on any value (1 for P/N) */
    int elem;               /* table cell width in bytes (a heap game's
                               sequence: at the start; the sequence engines
                               widen the table, ns_table_widen, when a value
                               needs more, up to the width max_value needs) */
    uint64_t table_bytes;
    int64_t levels;         /* number of rank levels */
    const struct ns_engine *engine; /* the engine that runs ... */
    ns_engine_choice choice;        /* ... and why not the faster ones */
    uint64_t line_bytes;    /* what that engine keeps besides the table
                               (line sets, flags, row bitmaps) at the start */
    uint64_t line_bytes_max;    /* the most it can grow to (the general
                               engine's sets widen, doubling, as the values
                               grow); line_bytes when it does not grow */
    int bound_checked;      /* 1: max_value is the engine's checked bound
                               (ns_engine.checked_bound) or opts.max_value,
                               below the proven one, max_value_loose */
    uint64_t max_value_loose;
} ns_engine_plan;

enum { NS_ENGINE_GRUNDY = 1, NS_ENGINE_PN = 2 };

/* An engine. Fields marked REQUIRED are never NULL. */
typedef struct ns_engine {
    const char *name;       /* REQUIRED: "tiles2d"; recorded in table files
                               (attribute engine) and checkpoints */
    const char *what;       /* REQUIRED: one line for `rules` and `solve` */
    unsigned kinds;         /* REQUIRED: the tables it fills, NS_ENGINE_GRUNDY
                               and/or NS_ENGINE_PN; the choice passes over
                               the others without a word */
    /* REQUIRED: 1 when the engine solves g (bounds set) with o (its
     * pn_only, play and sinks); else 0 and why gets a short reason
     * ("needs a P/N table (--pn-only)"). why may be NULL. */
    int (*applies)(const ns_game *g, const ns_engine_opts *o, char *why, size_t len);
    /* REQUIRED: bytes the engine allocates besides the table for g
     * (plan's cells, max_value and elem set), at the start. */
    uint64_t (*memory)(const ns_game *g, const ns_engine_plan *plan);
    /* OPTIONAL (NULL: what memory says is all it ever takes): the most it
     * can grow to, for an engine whose memory grows with the values (the
     * general engine's sets start narrow; it honours opts.memory_limit). */
    uint64_t (*memory_max)(const ns_game *g, const ns_engine_plan *plan);
    /* REQUIRED: fill t from scratch (t NULL with a sink in o). t comes from
     * ns_engine_table_new for the same g and pn_only. */
    ns_err (*run)(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                  ns_error *err);
    /* OPTIONAL (NULL: the engine cannot resume): t holds the final values
     * of units 0..units_done-1 (a checkpoint of the same game, bounds,
     * engine and kind); rebuild the per-line state from them and compute
     * the rest. The table equals an uninterrupted run's. A loopy engine
     * (retro) also takes o->remoteness as the checkpoint holds it. */
    ns_err (*resume)(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                     uint64_t units_done, ns_error *err);
    /* OPTIONAL (NULL: the engine cannot stream): the side of the tiles
     * (tile_sink) or the rows of a block (rows_sink) its sink gets. */
    int64_t (*stream_unit)(void);
    /* OPTIONAL (NULL: none): a bound on g's values tighter than the
     * number of options, not proven but checked by the engine as it runs:
     * a value above it stops the solve with NS_ERANGE (never wraps); 0
     * when the engine has none for g. The plan sizes cells and line sets
     * with it (ns_engine_plan.bound_checked); a solve in memory that
     * overflows it is redone with the loose bound (ns_engine_resume_with). */
    uint64_t (*checked_bound)(const ns_game *g);
    /* 1: an engine for loopy games (ns_game.loopy: retrograde analysis,
     * P/N/draw tables). The choice offers loopy games to these engines
     * only (the others are passed over with the reason "the game is
     * loopy") and never offers them a game that is not loopy (silently);
     * ns_engine_run_with may still force one on any game. 0 (the default):
     * an engine of games whose moves lower the rank. */
    int loopy;
    /* OPTIONAL (NULL: never): non-zero when the engine runs g (bounds set)
     * across processes with owned line sets (ns_tile_exchange's acquire
     * and release, tiles2d): 1 the symmetric case (only tiles i <= j
     * travel, each with its mirror filled where it arrives), 2 the plain
     * case (every tile travels as it is). */
    int (*owned_sets)(const ns_game *g);
} ns_engine;

/* The table: NULL-terminated, fastest first; the last entry applies to
 * every game (not to streaming, not to take-and-break heap games, which
 * only the sequence engine solves). */
extern const ns_engine *const ns_engines[];

/* The engine named name, or NULL. */
const ns_engine *ns_engine_find(const char *name);

/* Pick, once, the first engine of the table that applies to g and o. */
void ns_engine_choose(const ns_game *g, const ns_engine_opts *o, ns_engine_choice *c);

/* Work out the plan for g (bounds set) with o (pn_only and sinks matter)
 * without allocating anything: NS_EINVAL when no engine applies (a sink
 * no engine takes: the message says why). */
ns_err ns_engine_plan_for(const ns_game *g, const ns_engine_opts *o, ns_engine_plan *plan, ns_error *err);

/* Allocate the table for g (caller frees with ns_table_free), its cells
 * as wide as the plan of the engine ns_engine_choose picks in memory
 * needs (a checked bound may give narrower cells: an engine run on a
 * table narrower than its plan widens it, ns_table_widen). */
ns_table *ns_engine_table_new(const ns_game *g, int pn_only, ns_error *err);

/* Fill t by the engine ns_engine_choose picks (with a sink in opts, t is
 * NULL and the tiles or rows go to the sink). */
ns_err ns_engine_run(const ns_game *g, ns_table *t, const ns_engine_opts *opts, ns_error *err);

/* Go on from a checkpoint: t holds units 0..units_done-1 of the engine
 * ns_engine_choose picks (see ns_engine.resume). */
ns_err ns_engine_resume(const ns_game *g, ns_table *t, const ns_engine_opts *opts, uint64_t units_done,
                        ns_error *err);

/* The same with a given engine, bypassing the choice (tests and benchmarks
 * that compare engines); NS_EINVAL with the reason when e does not apply. */
ns_err ns_engine_run_with(const ns_engine *e, const ns_game *g, ns_table *t, const ns_engine_opts *opts,
                          ns_error *err);
ns_err ns_engine_resume_with(const ns_engine *e, const ns_game *g, ns_table *t, const ns_engine_opts *opts,
                             uint64_t units_done, ns_error *err);

/* Can g be solved streaming (a tile sink for Grundy tables, a rows sink
 * for P/N ones, by opts->pn_only)? Then *unit gets the tile side (tiles of
 * at most unit x unit cells, aligned to it), or for P/N the rows of a
 * block, and *line_bytes the memory the engine keeps. */
int ns_engine_can_stream(const ns_game *g, const ns_engine_opts *opts, int64_t *unit, uint64_t *line_bytes);

#endif
