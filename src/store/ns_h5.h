/* ns_h5.h - the HDF5 store: the only code that includes hdf5.h.
 *
 * File layout (the contract users, notebooks and analysis tools rely on):
 *   /grundy       k-dim, smallest unsigned integer type holding the largest
 *                 value (absent in a P/N-only file); cells outside the
 *                 game's domain hold the attribute invalid_value
 *   /pn           k-dim uint8: 0 = P, 1 = N, 2 = not a position, 3 = draw
 *                 (a loopy game only)
 *   /remoteness   (a loopy game only) see ns_h5_loopy.c
 *   /grundy_inf_offsets, /grundy_inf_values (a loopy game solved with its
 *                 generalized Sprague-Grundy values, which are then in
 *                 /grundy, of kind "pn") see ns_h5_gsg.c
 *   /p_positions  n x k int64, the P-positions in lexicographic order
 *   /rare         (a heap game solved by rare/common only) the rare heap
 *                 sizes, see ns_meta.seq_rare
 * All datasets chunked (chunks capped at the data size), shuffle + deflate
 * + fletcher32. Root attributes: see ns_meta and the README. The store never
 * computes game values; it only moves tables and metadata. */
#ifndef NS_H5_H
#define NS_H5_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

typedef struct ns_meta {
    char game[NS_NAME_LEN];   /* preset name, or a rule file's declared name
                                 ("game NAME"; "rules" when it declares none,
                                 and in files written before declared names
                                 were kept) */
    char *rules_text;         /* rule-file text or NULL; owned, see ns_meta_free.
                                 Non-NULL: a table of a rule file */
    char rules_file[512];     /* the rule file's path as given to solve, or ""
                                 (attribute rules_file, optional) */
    char params[1024];        /* ns_params_format() text */
    ns_play play;
    int pn_only;
    int threads;
    int mpi_ranks;            /* > 0: a solve across that many MPI ranks
                                 (root attribute mpi_ranks; read back) */
    char mpi_write[16];       /* with mpi_ranks > 0: who wrote the file,
                                 "rank0" (rank 0 alone), "placed" (every
                                 rank its chunks with our filters at the
                                 places rank 0 gave: ns_h5_write_placed,
                                 or a streamed table's placed chunks) or
                                 "parallel" (every rank, ns_h5_write_par);
                                 root attribute mpi_write when not "";
                                 read back (info says it) */
    char mpi_sets[16];        /* "" or, a tile solve across ranks, how the
                                 line sets were kept: "owned", "replicated"
                                 (root attribute mpi_sets; read back) */
    double wall_seconds;
    int complete;             /* 1 when the solve finished */
    char engine[32];          /* the engine that solved it (ns_engine.name);
                                 "" in files written before engines had names */
    /* a symmetric game (ns_game.h: nsym, sym): root attribute "symmetric",
     * the 0-based axes of the piles that may be permuted, written when nsym
     * > 0. /grundy and /pn then store the cells sorted along those axes; the
     * others hold the invalid marker. ns_h5_read fills them (ns_sym_fill),
     * so its table is the whole game's; n_p_positions and /p_positions count
     * and list the stored (sorted) P-positions only. */
    int nsym;
    int sym[NS_MAX_DIM];
    /* a take-and-break game's sequence (game/ns_octal.h), written when
     * seq_code[0] != '\0' and read back when present: root attributes code
     * (the canonical code, or "grundy"), argmax (the first heap size of the
     * largest value), and, when a period was observed, preperiod, period,
     * saltus (0: G(n+p) = G(n); s > 0: G(n+p) = G(n) + s, an arithmetic
     * period; 0 when a file has no saltus attribute) and period_proven (0/1:
     * the periodicity theorem proves it; never for a saltus) */
    char seq_code[80];
    int64_t seq_argmax;
    int seq_has_period;
    int64_t seq_preperiod, seq_period, seq_saltus;
    int seq_proven;
    /* a rare/common run (engine rare-common, a mask at the end): root
     * attributes rare_mask and n_rare and the 1-D int64 dataset /rare, the
     * n_rare heap sizes n, increasing, whose value is rare under the mask
     * (popcount(G(n) & rare_mask) even). Written when seq_code[0] and
     * seq_rare_mask != 0; seq_rare (seq_nrare values) is borrowed, writer
     * only; the reader fills seq_rare_mask and seq_nrare (0 when absent). */
    uint32_t seq_rare_mask;
    int64_t seq_nrare;
    const int64_t *seq_rare;
    /* provenance: filled by the writer from the build, read back by the reader */
    char created_utc[32];
    char nimsieve_version[32];
    char git_revision[64];
    char hdf5_version[32];
    char gsl_version[32];
    char compiler[128];
    /* the summary attributes, filled by the reader only (the writers take
     * them from the table): max_value, n_p_positions, invalid_value */
    uint32_t max_value;
    uint64_t n_p_positions;
    int has_invalid;          /* 1 when the file has invalid_value */
    uint32_t invalid_value;
    /* a loopy game (ns_game.loopy; ns_h5_loopy.c): root attributes loopy =
     * 1 and n_draws; /pn holds 3 (NS_PN_DRAW) for a draw, max_value is then
     * 3; remoteness (writer only, OPTIONAL, borrowed: ncells values,
     * NS_H5_REMOTE_NONE for draws and non-positions) becomes /remoteness */
    int loopy;
    uint64_t n_draws;         /* filled by the reader; the writer counts them */
    const uint32_t *remoteness;
    /* generalized Sprague-Grundy values of a loopy game (ns_h5_gsg.c):
     * /grundy, /grundy_inf_offsets, /grundy_inf_values and the root
     * attributes gsg_n_infinite and gsg_max_finite, in a file whose kind
     * stays "pn". Writer: written when gsg_value is set (borrowed: ncells
     * values, finite, NS_H5_GSG_INF or NS_H5_GSG_NONE; gsg_ninf sets at
     * gsg_inf_val[gsg_inf_off[j] .. gsg_inf_off[j+1]), borrowed). Reader:
     * gsg = 1 when the file has them, with gsg_ninf and gsg_max_finite. */
    int gsg;
    uint64_t gsg_ninf;
    uint32_t gsg_max_finite;
    const uint32_t *gsg_value;
    const uint64_t *gsg_inf_off;
    const uint32_t *gsg_inf_val;
} ns_meta;

#define NS_H5_GSG_NONE UINT32_MAX          /* = NS_GSG_NONE of engine/ns_engine.h */
#define NS_H5_GSG_INF (UINT32_MAX - 1)     /* = NS_GSG_INF */

/* Generalized Sprague-Grundy value of cell s of the table file path:
 * *value gets it (finite, NS_H5_GSG_INF or NS_H5_GSG_NONE) and, when
 * infinite, *set (malloc'ed, the caller frees it) its *nset values,
 * increasing. Reads the rows 0 .. s[0] of /grundy (to find the set). */
ns_err ns_h5_read_gsg_cell(const char *path, int k, const int64_t *s, uint32_t *value, uint32_t **set,
                           uint64_t *nset, ns_error *err);

/* All of them: value gets ncells values, *ninf the infinite cells, *off
 * (ninf + 1) and *val their sets as in ns_gsg (engine/ns_engine.h);
 * *off and *val malloc'ed, the caller frees them. */
ns_err ns_h5_read_gsg_all(const char *path, uint64_t ncells, uint32_t *value, uint64_t *ninf, uint64_t **off,
                          uint32_t **val, ns_error *err);

#define NS_H5_REMOTE_NONE UINT32_MAX   /* = NS_REMOTE_NONE of engine/ns_engine.h */

/* Remoteness of cell s of the loopy table file path (/remoteness): *out gets
 * it, or NS_H5_REMOTE_NONE for a draw or a non-position. */
ns_err ns_h5_read_remoteness(const char *path, int k, const int64_t *s, uint32_t *out, ns_error *err);

/* All of /remoteness (ncells values, row-major, NS_H5_REMOTE_NONE for draws
 * and non-positions) into out, which has room for ncells values. */
ns_err ns_h5_read_remoteness_all(const char *path, uint64_t ncells, uint32_t *out, ns_error *err);

void ns_meta_free(ns_meta *m);   /* frees rules_text; *m stays usable */

enum { NS_H5_FORCE = 1 };        /* flags for ns_h5_write */

/* Write t and m to path. The file is written under "<path>.part" and renamed
 * over path only when complete; on any failure the partial file is removed
 * and nothing at path changes. Without NS_H5_FORCE an existing path is an
 * error. */
ns_err ns_h5_write(const char *path, const ns_table *t, const ns_meta *m, int flags,
                   ns_error *err);

/* The same, and *stats (OPTIONAL) gets ns_table_summarize's numbers, which
 * the writer works out anyway (saves the caller a pass over the table). */
ns_err ns_h5_write_stats(const char *path, const ns_table *t, const ns_meta *m, int flags,
                         ns_table_stats *stats, ns_error *err);

/* The same file written by every rank of an MPI job at once, with
 * parallel HDF5 (MPI-IO; issue 21). comm points to the job's MPI_Comm
 * (dist/ns_dist.h, ns_dist_comm); every rank of it calls this with the
 * same path, flags and table (each rank holds the whole table) and the
 * same m except wall_seconds, which is rank 0's in the file (as is
 * created_utc). Each rank filters and writes its own bands of chunk rows
 * (band b of /grundy and /pn, chunk[0] rows of the table, and of
 * /p_positions, goes to rank b mod R) with collective H5Dwrite calls:
 * HDF5's own shuffle + deflate + fletcher32 pipeline, since parallel HDF5
 * 1.10 has no direct chunk writes. The values, types, shapes, chunk
 * shapes, declared filters and attributes are ns_h5_write_stats's; the
 * compressed bytes are not, every chunk of /pn is stored (all-N ones
 * too), and the datasets are allocated early (parallel HDF5's rule). Rank
 * 0 renames the .part; every rank returns the same code. Tables only:
 * no loopy game's datasets, no heap game's /rare (NS_EINTERNAL). In a
 * build without MPI: NS_EINTERNAL. */
ns_err ns_h5_write_par(const char *path, const ns_table *t, const ns_meta *m, int flags, const void *comm,
                       ns_table_stats *stats, ns_error *err);

/* What ns_h5_write_placed did. */
typedef struct ns_h5_placed_report {
    int shared;         /* every rank wrote its chunks (0: rank 0 wrote
                           them all, a rank could not open the file) */
    uint64_t bytes;     /* rank 0, shared: the filtered bytes of /grundy
                           and /pn that the ranks wrote */
    uint64_t bytes_others;   /* rank 0, shared: of them the ranks but 0 */
    int echo;           /* the error returned is another rank's, which
                           that rank returned (and says) itself */
    int refused;        /* this rank could not open the .part: its errno,
                           or -1 (not rank 0's file); 0: it could */
} ns_h5_placed_report;

/* The same file as ns_h5_write_stats's, byte for byte in every chunk,
 * written by every rank of an MPI job at once (issue 21, item 3; comm an
 * MPI_Comm *; collective): every rank holds the same table t. Rank 0
 * creates "<path>.part" and its datasets; each rank fills and filters a
 * contiguous share of the chunks of /grundy and /pn with the
 * single-process filters and writes them into the .part at the places
 * rank 0 gives (src/store/ns_h5_placed.c); rank 0 writes /p_positions and
 * the attributes, closes and renames. A rank that cannot open the .part
 * (another file system) leaves rank 0 to write every chunk (rep->shared
 * 0). A failure on any rank fails every rank (rep->echo on the ranks whose
 * error is another's). Tables only: no loopy game's or heap game's file
 * (NS_EINTERNAL). In a build without MPI: NS_EINTERNAL. */
ns_err ns_h5_write_placed(const char *path, const ns_table *t, const ns_meta *m, int flags, const void *comm,
                          ns_table_stats *stats, ns_h5_placed_report *rep, ns_error *err);

/* Read the metadata and the shape (k, bounds) only. */
ns_err ns_h5_read_meta(const char *path, ns_meta *m, int *k, int64_t *bounds, ns_error *err);

/* Read the whole table (Grundy values when present, else P/N flags) and the
 * metadata. *out is owned by the caller (ns_table_free). The table of a
 * symmetric game is filled: every cell holds its value (m->nsym says so). */
ns_err ns_h5_read(const char *path, ns_table **out, ns_meta *m, ns_error *err);

/* ---- streaming writes (ns_h5_stream.c): tables larger than memory ----
 * A two-pile Grundy table arrives tile by tile (engine/ns_engine.h, ns_tile_fn)
 * and goes straight to the file: /grundy (elem 2 or 4 bytes a value)
 * chunked as tile x tile, /pn and /p_positions as ns_h5_write writes them,
 * the same root attributes. Only the P-positions are kept in memory. A
 * P/N table (elem 1) arrives in blocks of rows (ns_rows_fn) and gets /pn
 * and /p_positions. */
typedef struct ns_h5_stream ns_h5_stream;

/* Create "<path>.part" (without NS_H5_FORCE an existing path is an error)
 * for a bounds[0] x bounds[1] table; at most `threads` OpenMP threads (ids
 * 0..threads-1) call ns_h5_stream_tile. A thread's chunk filter and
 * buffers are made when it first stores a tile (or, P/N, a chunk of rows),
 * so slots for threads that never write cost a pointer each. NULL with err
 * set on failure. */
ns_h5_stream *ns_h5_stream_open(const char *path, const int64_t *bounds, int elem, int64_t tile, int threads,
                                int flags, ns_error *err);

/* Store the tile of nx x ny cells at (x0, y0) (x0, y0 multiples of the
 * tile; vals row-major, borrowed). Called from OpenMP threads, several at
 * once: the calling thread filters the chunks, one thread at a time writes
 * them. On failure the stream is marked failed (later calls fail at once). */
ns_err ns_h5_stream_tile(ns_h5_stream *s, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals,
                         ns_error *err);

/* The same from a thread outside the OpenMP team (an exchange's service
 * thread): it names its own slot, one the team's threads never use
 * (0 <= slot < the stream's threads, above the team's thread numbers), and
 * calls from one thread at a time for that slot. */
ns_err ns_h5_stream_tile_slot(ns_h5_stream *s, int slot, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                              const uint32_t *vals, ns_error *err);

/* P/N tables (opened with elem 1; tile: the rows of a block): store the
 * block of nrows rows at row x0 (a multiple of tile; only the last block
 * may be shorter) given as P bitmaps, words a row (see ns_rows_fn in
 * engine/ns_engine.h). Called from one thread, blocks in any order; fills and
 * filters the chunks on up to `threads` threads itself. */
ns_err ns_h5_stream_pn_rows(ns_h5_stream *s, int64_t x0, int64_t nrows, int64_t words, const uint64_t *p,
                            ns_error *err);

/* Finish: /p_positions, the attributes (m; the summary of the tiles
 * stored, also copied to *stats when not NULL), close and rename over
 * path; frees s. Fails (and removes the .part file) unless every cell was
 * stored. */
ns_err ns_h5_stream_close(ns_h5_stream *s, const ns_meta *m, ns_table_stats *stats, ns_error *err);

/* Every chunk stored so far on disk (the file's driver gathers them in
 * blocks); call before ns_h5_stream_close, so that a write that fails
 * (a full disk) fails here, where the stream can still be suspended and
 * its last checkpoint kept, not in the close, which loses the .part. */
ns_err ns_h5_stream_flush(ns_h5_stream *s, ns_error *err);

/* How the stream's file is written: 2, with O_DIRECT (8 MiB blocks by the
 * file driver's own thread); 1, the same blocks through the page cache
 * (the file system refused O_DIRECT, or NS_H5_DIRECT=0); 0, otherwise. */
int ns_h5_stream_io(const ns_h5_stream *s);

/* How many of the stream's thread slots have their worker (chunk filter
 * and buffers) made: a slot's worker is made when its thread first stores
 * a tile or a chunk of rows, not by the open, so a stream opened for more
 * threads than write to it holds only the writing threads' buffers. For
 * tests; call when no thread writes. */
int ns_h5_stream_workers_made(const ns_h5_stream *s);

/* Give up: close and remove "<path>.part"; frees s (NULL is a no-op). */
void ns_h5_stream_abort(ns_h5_stream *s);

/* Checkpoints of a streamed solve. The units of a stream: P/N, blocks of
 * `tile` rows; Grundy, tile anti-diagonals (the tiles (i, j) with i + j <
 * units_done, mirrored ones included), as the engines count them.
 * A checkpoint records where each stored chunk lies in the .part (the
 * ledger, store/ns_h5_ledger.c), so a resume never needs the .part's own
 * HDF5 metadata (a kill during HDF5's flush can damage it). */

/* Checkpoint (called when every chunk of the units done, and no other, is
 * stored and no thread writes): fsync the file, then write ckpt_path
 * (atomically, as ns_h5_ckpt_write) with m's game, c, and the record the
 * stream needs to go on: cells and chunks stored, the largest value, the
 * P-positions (dataset /checkpoint_p_positions), where the chunks lie
 * (/checkpoint_ledger); then a resume's fresh file "<path>.part.new" is
 * renamed over "<path>.part". A failure leaves the previous checkpoint
 * (and its file) usable. */
struct ns_h5_ckpt;   /* below */
ns_err ns_h5_stream_checkpoint(ns_h5_stream *s, const char *ckpt_path, const ns_meta *m, const struct ns_h5_ckpt *c,
                               ns_error *err);

/* Close, keeping "<path>.part" for a resume; frees s (NULL: no-op). */
void ns_h5_stream_suspend(ns_h5_stream *s);

/* Go on with the stream of "<path>.part" from its checkpoint ckpt_path
 * (read with ns_h5_ckpt_read, matched to this solve by the caller), which
 * has units_done units: the chunks the checkpoint records (in "<path>.part",
 * or in "<path>.part.new" when a run died between its checkpoint and the
 * rename) are read where it says, each checked against its sum, and copied
 * as stored into the fresh file "<path>.part.new", which the next
 * checkpoint renames over "<path>.part"; later chunks the killed run wrote
 * are dropped. The stream then takes the later units' tiles or rows like
 * ns_h5_stream_open's. NULL with err set (the files untouched) on failure. */
ns_h5_stream *ns_h5_stream_resume(const char *path, const char *ckpt_path, const int64_t *bounds, int elem,
                                  int64_t tile, int threads, uint64_t units_done, ns_error *err);

/* The P-positions stored so far, *n pairs (x, y) (borrowed from s, valid
 * until the next call on s): a resumed P/N stream's finished rows' ones. */
const int64_t *ns_h5_stream_p_positions(const ns_h5_stream *s, uint64_t *n);

/* Read a stored tile of /grundy back (a resume's replay, ns_tile_src_fn):
 * vals row-major, nx x ny. Several threads at once (one reads at a time). */
ns_err ns_h5_stream_read_tile(ns_h5_stream *s, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals,
                              ns_error *err);

/* ---- placed chunks (ns_h5_place.c): a streamed table's chunks written
 * by the processes that computed them ----
 * The stream's file is one process's (rank 0 of an MPI job); another
 * process filters its tiles into chunks (a packer), sends the request (the
 * chunks' sizes, largest values and P-positions, no values) to the
 * stream's process, which places the chunks in the file without writing
 * them (ns_h5_stream_place) and replies with their addresses; the process
 * then writes its bytes there (ns_h5_place_write) into the same file
 * (ns_h5_stream_file, opened for writing). The file is the stream's own
 * file, byte for byte, but for where the chunks lie. */

/* A tile's placing: the request for the stream's process, and the data
 * the computing process keeps until the reply; both malloc'ed (the caller
 * frees them). (x0, y0): the computed tile (i <= j) the request covers,
 * with its mirror. */
typedef struct ns_h5_placing {
    int64_t x0, y0;
    void *req;
    size_t req_bytes;
    void *data;
    size_t data_bytes;
} ns_h5_placing;

typedef struct ns_h5_packer ns_h5_packer;

/* The packer of a bounds[0] x bounds[1] table of elem-byte values (2 or 4)
 * streamed in tiles of `tile` (the chunk shape of ns_h5_stream_open), for
 * OpenMP threads 0..threads-1; path names the table in messages. mirrored:
 * a symmetric table's tiles come in pairs (below); 0: each tile alone.
 * elem 1: a P/N table streamed in blocks of `tile` rows (not mirrored;
 * ns_h5_packer_pn_rows, on one thread, which filters on `threads`). */
ns_h5_packer *ns_h5_packer_new(const char *path, const int64_t *bounds, int elem, int64_t tile, int threads,
                               int mirrored, ns_error *err);
void ns_h5_packer_free(ns_h5_packer *p);

/* Filter the tile (a tile sink's arguments, engine/ns_engine.h) into its
 * chunks. A symmetric table's tile (i, j), i < j, comes first and its
 * mirror (j, i) next on the same thread: the pair makes one placing
 * (a packer made without mirrored: every tile makes one).
 * Returns 1 when *out holds a placing (a tile on the diagonal, or a
 * mirror), 0 when the tile waits for its mirror, -1 on failure (err). */
int ns_h5_packer_tile(ns_h5_packer *p, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals,
                      ns_h5_placing *out, ns_error *err);

/* A P/N table's packer (elem 1): the block of nrows rows from row x0 (a
 * rows sink's arguments, engine/ns_engine.h: P bitmaps of `words` words a
 * row) into its /pn chunks, those with a P-position, filtered as
 * ns_h5_stream_pn_rows does; *out gets the placing (0), or -1 on failure
 * (err). The request carries the block's P-positions. */
int ns_h5_packer_pn_rows(ns_h5_packer *p, int64_t x0, int64_t nrows, int64_t words, const uint64_t *bits,
                         ns_h5_placing *out, ns_error *err);

/* Write a placing's data where the reply puts it, into the open file fd
 * (file names it in messages). */
ns_err ns_h5_place_write(int fd, const void *data, size_t data_bytes, const void *reply, size_t reply_bytes,
                         const char *file, ns_error *err);

/* The stream's process: from now on the file takes other processes'
 * chunks (its own writes go out at once, buffered: they must not cover
 * another's chunk). Call before any tile. */
ns_err ns_h5_stream_share(ns_h5_stream *s, ns_error *err);

/* The file the stream writes now ("<path>.part", or a resume's
 * "<path>.part.new"; borrowed): the other processes open it. */
const char *ns_h5_stream_file(const ns_h5_stream *s);

/* Place the chunks of a request (req_bytes bytes) in the shared stream's
 * file, as ns_h5_stream_tile (a P/N stream: ns_h5_stream_pn_rows, in the
 * order of the rows) stores them but without their bytes, and
 * take its P-positions and values into the stream's summary; *reply
 * (malloc'ed, the caller frees it) gets the addresses. Several threads at
 * once. The chunks count as stored: a checkpoint must wait until their
 * process has written them. */
ns_err ns_h5_stream_place(ns_h5_stream *s, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes,
                          ns_error *err);

/* HDF5 library version "1.10.8". */
const char *ns_h5_library_version(void);

/* ---- partial reads (ns_h5_region.c, issue 6) ----
 * For code that reads only what it needs of a large table (plots): open one
 * dataset, read hyperslabs of it, close. The chunk cache of the open dataset
 * holds two rows of chunks along dimension 0, so reading in bands of rows,
 * in order, decompresses each chunk once. */

typedef struct ns_h5_region ns_h5_region;   /* opaque: an open dataset */

typedef struct ns_h5_dsinfo {
    int rank;
    int64_t dims[NS_MAX_DIM];
    int64_t chunk[NS_MAX_DIM];  /* chunk shape; all 0 when not chunked */
    int elem;                   /* bytes per value: 1, 2, 4 or 8 */
    int is_signed;              /* int64 /p_positions */
    int has_invalid;            /* some cells are not positions */
    uint32_t invalid;           /* their marker as stored (2 in /pn; /remoteness:
                                   its none_value, draws included) */
    uint32_t max_value;         /* root attribute max_value (1 for /pn;
                                   /remoteness: none_value - 1) */
    int nsym;                   /* a symmetric game's file: the root attribute */
    int sym[NS_MAX_DIM];        /* symmetric (ns_meta); else 0. /p_positions
                                   lists the sorted P-positions only */
} ns_h5_dsinfo;

/* Does path hold a dataset called name ("grundy", "pn", "p_positions",
 * with or without the leading '/')? *exists gets 0 or 1. */
ns_err ns_h5_has_dataset(const char *path, const char *name, int *exists, ns_error *err);

/* Open dataset name of the table file path for partial reads. *out is owned
 * by the caller (ns_h5_region_close). */
ns_err ns_h5_region_open(const char *path, const char *name, ns_h5_region **out, ns_error *err);

/* Shape, type and markers of the open dataset; the pointer is into r. */
const ns_h5_dsinfo *ns_h5_region_info(const ns_h5_region *r);

/* Read the cells lo[d] + i*stride[d], 0 <= i < count[d] (d < rank; stride
 * NULL means 1) into buf: prod(count) values of info.elem bytes in native
 * byte order, row-major, markers not mapped. The cells of the whole game:
 * in a symmetric game's table (info.nsym > 0) a mirrored cell, stored as
 * the invalid marker, gets the value of its sorted image, as ns_h5_read
 * gives it. */
ns_err ns_h5_region_read(ns_h5_region *r, const int64_t *lo, const int64_t *count,
                         const int64_t *stride, void *buf, ns_error *err);

/* The same cells exactly as stored: a symmetric game's mirrored cells hold
 * the marker (for code that checks the file itself, ns_filecheck.c). */
ns_err ns_h5_region_read_stored(ns_h5_region *r, const int64_t *lo, const int64_t *count,
                                const int64_t *stride, void *buf, ns_error *err);

void ns_h5_region_close(ns_h5_region *r);

/* One-shot: read that hyperslab of /grundy or /pn into a new table of shape
 * count[] (*out owned by the caller, ns_table_free). The table follows
 * ns_table's conventions: cells that are not positions hold
 * ns_table_invalid(), a /pn read gives a pn_only table. */
ns_err ns_h5_read_region(const char *path, const char *name, const int64_t *lo,
                         const int64_t *count, const int64_t *stride, ns_table **out,
                         ns_error *err);

/* ---- checkpoints of a solve in progress (ns_h5_ckpt.c, issue 7) ----
 * A checkpoint file holds the game's metadata (complete = 0), the kernel's
 * progress (see engine/ns_engine.h, checkpoints) and the working table. It is
 * written atomically: to "<path>.tmp", synced, renamed over path; a failure
 * leaves the previous checkpoint intact. */

typedef struct ns_h5_ckpt {
    char kernel[32];          /* the engine's name (ns_engine.name) */
    uint64_t units_done;      /* units whose cells are final */
    uint64_t units_total;
    double seconds;           /* solving time spent up to this checkpoint */
} ns_h5_ckpt;

/* Write t (rank, bounds, elem and pn_only as in memory) with m's game,
 * rules, params and play, and c; for a loopy game (m->loopy with
 * m->remoteness) its remoteness too, as in memory. */
ns_err ns_h5_ckpt_write(const char *path, const ns_table *t, const ns_meta *m, const ns_h5_ckpt *c,
                        ns_error *err);

/* The same checkpoint written by every rank of an MPI job at once (issue
 * 21, item 3; comm an MPI_Comm *; collective): every rank holds the same
 * table t (the general engine's ranks after a level). Rank 0 creates
 * "<path>.tmp" with the record, each rank filters and writes its share of
 * the chunks of the table (chunk c to rank c mod R, at the places rank 0
 * gives, as ns_h5_write_placed), then rank 0 syncs it and renames it over
 * path. A rank that cannot open the .tmp leaves its chunks to rank 0 (*rep
 * says so: refused, shared 0). A failure on any rank fails every rank
 * (rep->echo on those whose error is another's) and leaves the previous
 * checkpoint at path. Not a loopy game's (NS_EINTERNAL); an HDF5 library
 * without direct chunk writes: rank 0 writes it alone. In a build without
 * MPI: NS_EINTERNAL. */
ns_err ns_h5_ckpt_write_placed(const char *path, const ns_table *t, const ns_meta *m, const ns_h5_ckpt *c,
                               const void *comm, ns_h5_placed_report *rep, ns_error *err);

typedef struct ns_h5_ckpt_info {
    ns_meta meta;             /* game, rules_text (owned: ns_meta_free), params, play, pn_only */
    ns_h5_ckpt ckpt;
    int k;
    int64_t bounds[NS_MAX_DIM];
    int elem;                 /* bytes per cell of the stored table */
    int streamed;             /* 1: the record of a streamed solve (no table;
                                 see ns_h5_stream_checkpoint) */
    int64_t stream_tile;      /* its tile (P/N: rows of a block) */
    int loopy;                /* 1: a loopy game's, with its remoteness
                                 (ns_h5_ckpt_read_remoteness) */
    int seq_streamed;         /* 1: the record of a streamed sequence (no
                                 table; see ns_h5_seq_checkpoint) */
} ns_h5_ckpt_info;

/* Read a checkpoint's attributes into *info and, when t is not NULL, its
 * table into t, which must have the checkpoint's rank, bounds, elem and
 * kind. *info is overwritten: free a meta it holds first (ns_meta_free).
 * On failure info->meta holds nothing to free. */
ns_err ns_h5_ckpt_read(const char *path, ns_h5_ckpt_info *info, ns_table *t, ns_error *err);

/* The remoteness a loopy game's checkpoint holds (info.loopy) into rem,
 * t->ncells values in t's shape (the table the checkpoint was read into);
 * NS_EFORMAT when the checkpoint has none or it is damaged. */
ns_err ns_h5_ckpt_read_remoteness(const char *path, const ns_table *t, uint32_t *rem, ns_error *err);
/* ---- streamed sequences (ns_h5_seq.c, issue 17) ----
 * A take-and-break game's Grundy sequence (a 1-D table, game/ns_octal.h)
 * goes to "<path>.part" while the sequence engine computes it: every
 * whole chunk of /grundy (and of /pn) as soon as its heap sizes are final,
 * the last chunk, /p_positions, /rare and the attributes at the close. The
 * file equals ns_h5_write's of the same table and meta: datasets, types,
 * chunk shapes and attributes. /grundy's width is the smallest holding the
 * values so far; when a value outgrows it, the chunks stored are rewritten
 * wider (into a new .part, synced and renamed over the old one; at most
 * twice). The table stays the caller's: the stream reads it at each call
 * (its cell width may grow between calls). Checkpoints sync the .part and
 * record the heap sizes its whole chunks hold and the finished values
 * after them (less than a chunk), never the whole table. */
typedef struct ns_h5_seq ns_h5_seq;

/* Create "<path>.part" for a sequence of n heap sizes (without
 * NS_H5_FORCE an existing path is an error); up to `threads` threads
 * filter its chunks. NULL with err set on failure. */
ns_h5_seq *ns_h5_seq_open(const char *path, int64_t n, int threads, int flags, ns_error *err);

/* G(0 .. done - 1) in t (1-D, n cells) are final: store the whole chunks
 * among them not stored yet (all of them when done == n). */
ns_err ns_h5_seq_append(ns_h5_seq *s, const ns_table *t, int64_t done, ns_error *err);

/* Checkpoint with G(0 .. done - 1) final and appended: sync the file, then
 * write ckpt_path (atomically, as ns_h5_ckpt_write) with m's game, c and
 * the record (heap sizes stored, where their chunks lie, the values after
 * them), then rename a fresh file (a resume's or a widening's,
 * "<path>.part.new") over the .part. A failure leaves the previous
 * checkpoint and its file usable. */
ns_err ns_h5_seq_checkpoint(ns_h5_seq *s, const ns_table *t, int64_t done, const char *ckpt_path, const ns_meta *m,
                            const ns_h5_ckpt *c, ns_error *err);

/* Go on from the checkpoint ckpt_path (read with ns_h5_ckpt_read, matched
 * to this solve by the caller; seq_streamed) with G(0 .. done - 1) final:
 * read them into t (from the chunks the record's ledger locates, each
 * checked against its sum, and the record's tail), write them into the
 * fresh file "<path>.part.new" (which the next checkpoint renames over the
 * .part: chunks the killed run wrote after its checkpoint are dropped) and
 * return the stream. NULL with err set on failure. */
ns_h5_seq *ns_h5_seq_resume(const char *path, const char *ckpt_path, ns_table *t, int threads, int64_t done,
                            ns_error *err);

/* Finish with t complete: the rest of /grundy and /pn, /p_positions,
 * /rare (m->seq_rare_mask), the attributes (m; t's summary, also to
 * *stats when not NULL); close and rename over path; frees s. On failure
 * the .part is removed. */
ns_err ns_h5_seq_close(ns_h5_seq *s, const ns_table *t, const ns_meta *m, ns_table_stats *stats, ns_error *err);

/* Close, keeping "<path>.part" as its last checkpoint left it, for a
 * resume; frees s (NULL: no-op). */
void ns_h5_seq_suspend(ns_h5_seq *s);

/* Give up: close and remove "<path>.part"; frees s (NULL: no-op). */
void ns_h5_seq_abort(ns_h5_seq *s);

/* How many files a suspend (ns_h5_stream_suspend, ns_h5_seq_suspend: a
 * stop or a failed write) left half closed in HDF5: their close had to
 * fail so that the .part stays as its checkpoint left it. HDF5's own
 * shutdown crashes on such a file (1.10: H5F__close_cb), and in an MPI
 * build MPI_Finalize runs that shutdown: the caller must then end the
 * process without it. */
int ns_h5_files_left_open(void);

/* How a table's game is named for a reader, the same in every subcommand:
 * "wythoff" for a preset, "wythoff-twice (rule file data/rules/x.rules)" for
 * a rule file ("(rule file)" when its path was not recorded). */
void ns_meta_game_label(const ns_meta *m, char *buf, size_t len);

/* Rebuild the game a table file was made from (preset + params, or the
 * stored rule text + params), with its play convention and bounds. A rule
 * game is named as its text declares, also in files whose attribute game
 * says "rules" (written before declared names were kept). */
ns_err ns_game_from_meta(const ns_meta *m, int k, const int64_t *bounds, ns_game **out,
                         ns_error *err);

#endif
