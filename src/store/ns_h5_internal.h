/* ns_h5_internal.h - shared by the files of the HDF5 layer only
 * (ns_h5*.c); not for the rest of the code. */
#ifndef NS_H5_INTERNAL_H
#define NS_H5_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <hdf5.h>

#include "core/ns_error.h"
#include "store/ns_h5.h"
#include "game/ns_table.h"

/* Every entry point of the HDF5 layer calls this first: HDF5 prints
 * nothing (errors come back through ns_h5_fail) and installs no exit
 * handler. */
void ns_h5_quiet(void);

/* Set err to the formatted message plus " (HDF5: innermost message)" when
 * HDF5 left one on its error stack, clear the stack, and return code. */
ns_err ns_h5_fail(ns_error *err, ns_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A new string: path followed by suffix (".part", ".part.new", ...);
 * NULL when out of memory. Caller frees. (ns_h5_errors.c) */
char *ns_h5_path_plus(const char *path, const char *suffix);

/* Scalar attributes of obj (ns_h5_attr.c; path names the file in errors):
 * any type, a variable-length string, a little-endian int64; and the
 * provenance of a file written in one go: nimsieve_version, git_revision,
 * hdf5_version, created_utc (census, sweep). */
ns_err ns_h5_attr_scalar(hid_t obj, const char *path, const char *name, hid_t ftype, hid_t mtype, const void *v,
                         ns_error *err);
ns_err ns_h5_attr_text(hid_t obj, const char *path, const char *name, const char *v, ns_error *err);
ns_err ns_h5_attr_i64(hid_t obj, const char *path, const char *name, int64_t v, ns_error *err);
ns_err ns_h5_attr_provenance(hid_t obj, const char *path, ns_error *err);

/* ---- chunked datasets written by direct chunk writes (ns_h5_chunks.c) ----
 *
 * The datasets of a table file declare the filters shuffle + deflate +
 * fletcher32, so that any HDF5 reader decodes them with no setting. The
 * writer does not let HDF5 run that pipeline (one thread, 11 s for 512 MiB
 * of uint16): threads gather and filter whole chunks (ns_chunkfilter.h)
 * into buffers, and one thread hands them to HDF5 in chunk order with
 * direct chunk writes (H5Dwrite_chunk, HDF5 >= 1.10.3). The file does not
 * depend on the number of threads. */

/* deflate level of the byte planes worth compressing (NS_DEFLATE_PLANES:
 * those run-length + Huffman coded, near-random planes stored). Measured on
 * the 16384^2 Wythoff Grundy table (uint16, 512 MiB, 2-core machine of
 * issue 4): the file is 0.61 of the raw size, HDF5's own shuffle +
 * deflate(1) gives 0.60; the write takes 2.9 s on 1 thread, 1.5 s on 2,
 * against 11.3 s through HDF5's pipeline (8.8 s on 1 thread with plain
 * level-1 deflate done here). Z_RLE ignores the level beyond 1.
 * -DNS_H5_DEFLATE_LEVEL=n overrides it. */
#ifndef NS_H5_DEFLATE_LEVEL
#define NS_H5_DEFLATE_LEVEL 1
#endif

/* Bytes per chunk of a table file's datasets: 1 MiB is HDF5's (and
 * h5py's) default chunk cache, so a chunk read by a user slicing the data
 * stays cached. That is 1M cells of uint8, 512K of uint16, 256K of uint32,
 * 128K int64. */
#define NS_H5_CHUNK_BYTES ((hsize_t)1 << 20)

/* Chunk shape of about target elements for a dataset of the given dims
 * (each >= 1): tiles as square as the dims allow, sides powers of two
 * unless capped at the dims, then grown from the last dimension while the
 * product stays within target. The shape of every table file's datasets. */
void ns_h5_chunk_shape(int rank, const hsize_t *dims, hsize_t target, hsize_t *chunk);

/* /rare of a heap game's file (m->seq_nrare values of m->seq_rare). */
ns_err ns_h5_write_rare(hid_t file, const char *path, const ns_meta *m, ns_error *err);

/* The file access properties of a streamed .part file (ns_h5_stream.c):
 * metadata (the chunk index, the superblock) reaches the file only when
 * flushed (the close; a sweep's flushes), never evicted in between. The
 * caller closes it (H5Pclose); H5I_INVALID_HID with err set on failure. */
hid_t ns_h5_stream_fapl(const char *path, ns_error *err);

/* ---- the direct-write driver (ns_h5_direct.c) ----
 * For files written front to back (streamed tables): the bytes are
 * gathered into blocks that a writer thread writes with O_DIRECT (through
 * the page cache where the file system refuses it), off the computing
 * threads. The files are plain HDF5 files. */

/* Make fapl use the driver (path names the file in errors). */
ns_err ns_h5_direct_fapl(hid_t fapl, const char *path, ns_error *err);

/* Everything written to file so far on disk (before a checkpoint records
 * where its chunks lie); a no-op for a file of another driver. */
ns_err ns_h5_direct_sync(hid_t file, const char *path, ns_error *err);

/* For a file of the driver: let the blocks under way land, then refuse
 * every later write (a close then fails and leaves the file as the
 * last checkpoint knows it); 1. For any other file: 0, nothing done. */
int ns_h5_direct_freeze(hid_t file);

/* 3: shared (ns_h5_direct_share); 2: the file is written with O_DIRECT;
 * 1: by the driver's writer thread through the page cache (the file
 * system refused O_DIRECT, or NS_H5_DIRECT=0); 0: not by this driver. */
int ns_h5_direct_active(hid_t file);

/* A file of the driver shared with other processes that write chunks
 * into it at addresses this one places (ns_h5_stream_place): the window
 * is written out and from now on every write goes at once to the file
 * through the page cache (a window would cover, and overwrite, the other
 * processes' chunks). */
ns_err ns_h5_direct_share(hid_t file, const char *path, ns_error *err);

/* Shared files only: on = 1, raw data written from now on is not written
 * (another process writes it); on = 0 ends that and gives where the last
 * raw data skipped lies (*addr, *len): NS_EINTERNAL when none was. */
ns_err ns_h5_direct_skip(hid_t file, int on, uint64_t *addr, uint64_t *len);

/* ---- a file written by every rank of an MPI job (ns_h5_par.c) ---- */
typedef struct ns_h5_par {
    const void *comm;   /* the MPI_Comm (pointer to one); borrowed */
    int rank, size;     /* this rank in comm, and the number of ranks */
    hid_t fapl;         /* MPI-IO file access, strong close */
    hid_t dxpl;         /* collective transfers */
} ns_h5_par;

/* Set p up for comm (an MPI_Comm *): NS_EINTERNAL in a build without MPI
 * and parallel HDF5. ns_h5_par_close frees the property lists (also after
 * a failure). */
ns_err ns_h5_par_open(const void *comm, const char *path, ns_h5_par *p, ns_error *err);
void ns_h5_par_close(ns_h5_par *p);

/* Rank 0's n bytes at buf on every rank (collective). */
void ns_h5_par_bcast(const ns_h5_par *p, void *buf, size_t n);

/* The largest v of all ranks (collective): a code every rank agrees on. */
int ns_h5_par_max(const ns_h5_par *p, int v);

/* Close file (a streamed .part, path) without writing to it: the metadata
 * of chunks written since the last flush does not reach the disk, so the
 * .part stays as its last checkpoint left it. */
void ns_h5_close_frozen(hid_t file, const char *part);

/* Does this HDF5 library and host allow direct chunk writes of
 * little-endian data as stored (H5Dwrite_chunk exists, native order is
 * little-endian)? When not, write with H5Dwrite through HDF5's pipeline. */
int ns_h5_direct_ok(void);

/* Create dataset name in loc: type ftype, shape dims (maxdims may be NULL),
 * chunked as chunk, filters shuffle + deflate(NS_H5_DEFLATE_LEVEL) +
 * fletcher32. fill: NULL for HDF5's fill value 0, else the fill value as a
 * native value of type ftype's size (the value every reader gets for a
 * chunk never written). path is for messages. Returns the open dataset
 * (the caller closes it) or H5I_INVALID_HID with err set. */
hid_t ns_h5_create_chunked(hid_t loc, const char *path, const char *name, hid_t ftype, int rank,
                           const hsize_t *dims, const hsize_t *maxdims, const hsize_t *chunk,
                           const void *fill, ns_error *err);

/* The root attributes of a table file (see ns_h5.h) on the open file:
 * shape, kind, m's fields, st's summary, invalid_value (of type gtype) when
 * has_invalid. Used by ns_h5.c and the streaming writer. */
ns_err ns_h5_root_attrs(hid_t file, const char *path, int k, const int64_t *bounds, int pn_only, const ns_meta *m,
                        const ns_table_stats *st, int has_invalid, uint32_t invalid_value, hid_t gtype,
                        ns_error *err);

/* /remoteness of a loopy table (ns_h5_loopy.c): rem has t->ncells values. */
ns_err ns_h5_write_remoteness(hid_t file, const char *path, const ns_table *t, const uint32_t *rem, ns_error *err);

/* /grundy and the sets of a loopy table's generalized Sprague-Grundy values
 * (ns_h5_gsg.c), from m->gsg_* (t: the shape). */
ns_err ns_h5_write_gsg(hid_t file, const char *path, const ns_table *t, const ns_meta *m, ns_error *err);

enum { NS_H5_GROUP_MAX = 4 };

/* Fill the raw chunk at element offset offset[] (a multiple of the chunk
 * shape) of every dataset of a job: bufs[j] has room for one whole chunk
 * of dataset j (chunk cells x its elem bytes), row-major in the chunk's
 * shape, little-endian values as stored. Cells beyond the datasets' dims
 * (edge chunks) must be set to 0, HDF5's fill value. Called on several
 * threads at once, each with its own buffers: must not call HDF5. */
typedef void (*ns_h5_fill_fn)(void *user, const hsize_t *offset, void *const *bufs);

/* A round of placed chunks across MPI ranks (ns_h5_write_placed): the
 * calling thread of ns_h5_write_chunks hands each batch of filtered chunks
 * to put instead of writing them; every rank calls it the same number of
 * times (a collective). len[i * n + j] and buf[i * n + j] are the job's
 * chunk number first + i (its ordinal: chunk job.first + (first + i)
 * job.stride of the grid) of dataset j (n the job's datasets; len 0: not
 * stored); failed: this
 * rank failed (every rank stops in this round); last: no batch of this
 * rank follows. *more gets whether some rank still has batches: the
 * writer then calls put with no chunks (nchunks 0, last 1) until none has.
 * A round that stops returns an error on every rank. */
typedef ns_err (*ns_h5_put_fn)(void *user, uint64_t first, uint64_t nchunks, const size_t *len,
                               const uint8_t *const *buf, int failed, int last, int *more, ns_error *err);

typedef struct ns_h5_chunk_job {
    const char *path;            /* the file, for messages; borrowed */
    int n;                       /* datasets written together, 1..NS_H5_GROUP_MAX */
    hid_t dset[NS_H5_GROUP_MAX]; /* from ns_h5_create_chunked; borrowed */
    const char *name[NS_H5_GROUP_MAX];   /* for messages */
    size_t elem[NS_H5_GROUP_MAX];        /* bytes per stored value */
    /* skip[j] >= 0 (one-byte datasets only): a chunk all of whose bytes are
     * skip[j], the dataset's fill value, is not written at all (readers get
     * the fill value for it; Wythoff's /pn is almost all N = 1); -1: write
     * every chunk. 0, as in a zeroed job, matches HDF5's default fill. */
    int skip[NS_H5_GROUP_MAX];
    int rank;                    /* all datasets share rank, dims, chunk */
    hsize_t dims[H5S_MAX_RANK];
    hsize_t chunk[H5S_MAX_RANK];
    uint64_t first, count;       /* chunks first.. first+count-1, numbered
                                  * row-major over the grid of chunks */
    uint64_t stride;             /* 0 or 1: those; else the job's k-th chunk
                                  * is chunk first + k stride (put mode only) */
    ns_h5_fill_fn fill;
    void *user;                  /* passed to fill; borrowed */
    int threads;                 /* OpenMP threads, >= 1 */
    ns_h5_put_fn put;            /* NULL: H5Dwrite_chunk into dset[] */
    void *put_user;              /* passed to put; borrowed */
} ns_h5_chunk_job;

/* Number of chunks in the grid of a job (its dims and chunk). */
uint64_t ns_h5_chunk_count(const ns_h5_chunk_job *job);

/* Element offset of chunk number c (row-major over the grid of chunks). */
void ns_h5_chunk_offset(const ns_h5_chunk_job *job, uint64_t c, hsize_t *off);

/* Write the chunks of job: each is filled and filtered on some thread,
 * batch by batch (memory: two batches of filtered chunks, a few per
 * thread), and written in chunk order by the calling thread while the
 * others filter the next batch. */
ns_err ns_h5_write_chunks(const ns_h5_chunk_job *job, ns_error *err);

/* ---- the chunk ledger of a streamed .part (ns_h5_ledger.c) ----
 *
 * A checkpoint of a streamed solve records where each finished chunk of
 * its .part lies, and a resume reads them there with plain reads, each
 * checked against its Fletcher-32 sum: the .part's own metadata (written
 * in place by HDF5, damaged by a kill during a flush) is never needed. */
typedef struct ns_h5_ledger_entry {
    uint64_t ds;            /* the dataset: the writer's index */
    uint64_t off[2];        /* the chunk's element offset (1-D: off[1] = 0) */
    uint64_t addr, size;    /* where it lies in the file; size 0: not
                               stored (readers get the fill value) */
    uint64_t sum;           /* its Fletcher-32: its last 4 bytes */
} ns_h5_ledger_entry;

enum { NS_H5_LEDGER_COLS = 6 };   /* uint64 fields of an entry, in order */

typedef struct ns_h5_ledger {
    ns_h5_ledger_entry *e;  /* owned */
    uint64_t n, cap;
    uint64_t nres;          /* e[0 .. nres) have addr, size and sum */
} ns_h5_ledger;

/* Note the chunk at (off0, off1) of dataset ds as written (NS_ENOMEM). */
ns_err ns_h5_ledger_add(ns_h5_ledger *l, int ds, uint64_t off0, uint64_t off1);
void ns_h5_ledger_free(ns_h5_ledger *l);

/* Look up the address, size and sum of every entry noted since the last
 * call, in the open file (named file; dsets[ds] its datasets). */
ns_err ns_h5_ledger_resolve(ns_h5_ledger *l, const hid_t *dsets, const char *path, const char *file, ns_error *err);

/* Read entry e's chunk (e->size > 0) from fd into *buf (grown to *cap),
 * checked: its size, its last 4 bytes equal to e->sum and to the
 * Fletcher-32 of the rest. NS_EFORMAT naming file otherwise. */
ns_err ns_h5_ledger_read(int fd, const ns_h5_ledger_entry *e, void **buf, size_t *cap, const char *file,
                         ns_error *err);

/* After a checkpoint that records the pending fresh file: rename it over
 * part (and sync the directory). */
ns_err ns_h5_ledger_promote(const char *pending, const char *part, const char *path, ns_error *err);

/* Make part the file that holds the n chunks e records: part itself, or
 * pending (a run's fresh file that its checkpoint records but that the run
 * did not live to rename), renamed over part. An error (NS_EINVAL: neither
 * exists; NS_EFORMAT: neither holds them) leaves both as they were. */
ns_err ns_h5_ledger_locate(const ns_h5_ledger_entry *e, uint64_t n, const char *part, const char *pending,
                           const char *path, const char *ckpt_path, ns_error *err);

/* ---- checkpoints (ns_h5_ckpt.c) ---- */

/* fsync path (a directory when dir is set; filesystems that cannot sync a
 * directory are let off). */
ns_err ns_h5_sync_path(const char *path, int dir, ns_error *err);

/* fsync the directory that holds path (after a rename into it). */
ns_err ns_h5_sync_dir_of(const char *path, ns_error *err);

/* Test hook: sleep the seconds the environment variable var gives (none:
 * no sleep), so that a test can kill a run at that moment. */
void ns_h5_test_delay(const char *var);

/* The record of a streamed solve (ns_h5_stream.c) that a checkpoint file
 * holds instead of a table: what the stream had stored when the units done
 * were finished. */
typedef struct ns_h5_stream_rec {
    int64_t tile;           /* the stream's tile (P/N: rows of a block) */
    uint64_t cells;         /* cells stored */
    uint64_t chunks;        /* chunks stored (/grundy and /pn together) */
    uint32_t max_value;     /* largest value stored */
    const int64_t *pp;      /* the P-positions stored, npp pairs (x, y);
                               borrowed when written, owned (free) when read */
    uint64_t npp;
    const ns_h5_ledger_entry *ledger;   /* where the chunks lie in the .part;
                               borrowed when written, owned when read */
    uint64_t nledger;
} ns_h5_stream_rec;

/* Write a checkpoint (atomically, as ns_h5_ckpt_write) holding m's game,
 * c and r for a bounds[0] x bounds[1] table of elem-byte values (1: P/N). */
ns_err ns_h5_ckpt_write_stream(const char *path, const int64_t *bounds, int elem, const ns_meta *m,
                               const ns_h5_ckpt *c, const ns_h5_stream_rec *r, ns_error *err);

/* Read the record back (rec->pp malloc'ed: the caller frees it). */
ns_err ns_h5_ckpt_read_stream(const char *path, ns_h5_stream_rec *rec, ns_error *err);

/* The record of a streamed sequence (ns_h5_seq.c) that a checkpoint file
 * holds instead of a table: the heap sizes stored in whole chunks of the
 * .part file, their width, and the finished values after them (less than
 * a chunk). */
typedef struct ns_h5_seq_rec {
    int64_t stored;         /* G(0 .. stored - 1) are in the .part */
    int elem;               /* stored as elem-byte values */
    const uint32_t *tail;   /* G(stored .. stored + ntail - 1); borrowed
                               when written, owned (free) when read */
    int64_t ntail;
    const ns_h5_ledger_entry *ledger;   /* where the /grundy chunks of
                               G(0 .. stored - 1) lie in the .part; borrowed
                               when written, owned when read */
    uint64_t nledger;
} ns_h5_seq_rec;

/* Write a checkpoint (atomically, as ns_h5_ckpt_write) holding m's game, c
 * and r for a sequence of n heap sizes. */
ns_err ns_h5_ckpt_write_seq(const char *path, int64_t n, const ns_meta *m, const ns_h5_ckpt *c,
                            const ns_h5_seq_rec *r, ns_error *err);

/* Read the record back (rec->tail malloc'ed: the caller frees it). */
ns_err ns_h5_ckpt_read_seq(const char *path, ns_h5_seq_rec *rec, ns_error *err);

/* ---- placed chunks (ns_h5_place.c) ---- */

struct ns_chunkfilter;

/* A tile's stored chunks, as ns_h5_stream_tile stores them. */
typedef struct ns_h5_tile_chunks {
    size_t glen, plen;      /* filtered bytes of /grundy's chunk and /pn's
                               (plen 0: no P-position, /pn's not stored) */
    uint32_t max_value;
    uint64_t zeros;         /* P-positions */
} ns_h5_tile_chunks;

/* Rank 0 places a chunk of len bytes at off of dataset ds in file (a
 * shared direct-I/O file, ns_h5_direct_share) without writing it: HDF5
 * allocates and indexes it, handed dummy (len bytes, not written); *addr
 * gets where it lies (ns_h5_place.c). */
ns_err ns_h5_place_chunk(hid_t file, hid_t ds, const hsize_t *off, uint64_t len, const void *dummy, uint64_t *addr,
                         const char *path, ns_error *err);

/* ---- a table in memory on every rank, written by all of them into one
 * file with the single-process filters (ns_h5_placed.c; ns_h5_write_placed) */
typedef struct ns_h5_placer ns_h5_placer;

/* Collective over comm (an MPI_Comm *): path the file, part its .part
 * (borrowed, kept). NS_EINTERNAL in a build without MPI. */
ns_err ns_h5_placer_new(const void *comm, const char *path, const char *part, ns_h5_placer **out, ns_error *err);
void ns_h5_placer_free(ns_h5_placer *p);
/* ns_h5_placer_new for the file written first as path + suffix (*name,
 * malloc'ed: the caller frees it after ns_h5_placer_free; NULL on
 * failure). */
ns_err ns_h5_placer_begin(const void *comm, const char *path, const char *suffix, ns_h5_placer **out, char **name,
                          ns_error *err);
int ns_h5_placer_rank(const ns_h5_placer *p);
int ns_h5_placer_size(const ns_h5_placer *p);
/* the last failure returned on this rank was another rank's (said there) */
int ns_h5_placer_echo(const ns_h5_placer *p);
/* this rank could not open rank 0's .part: its errno, -1 (another file);
 * 0: it could */
int ns_h5_placer_refused(const ns_h5_placer *p);
/* rank 0's n bytes at buf on every rank */
void ns_h5_placer_bcast(const ns_h5_placer *p, void *buf, size_t n);

/* Collective: rank 0 shares its open file (the .part, through the direct
 * driver; its datasets and grid in job, kept), every other rank opens it
 * for writing. *shared: every rank could (else rank 0 writes alone). A
 * failure of rank 0 reaches every rank (its message on rank 0). */
ns_err ns_h5_placer_share(ns_h5_placer *p, hid_t file, const ns_h5_chunk_job *job, int *shared, ns_error *err);

/* The put of a chunk job across the ranks (ns_h5_put_fn; user: the
 * placing): a round as described in ns_h5_placed.c. */
ns_err ns_h5_placed_put(void *user, uint64_t first, uint64_t nchunks, const size_t *len, const uint8_t *const *buf,
                        int failed, int last, int *more, ns_error *err);

/* Collective, after the rounds: the ranks close their descriptors and agree on
 * failure (rc: this rank's code so far; the result is every rank's: a
 * failed rank's message, or one naming the lowest rank that failed).
 * *bytes (rank 0) gets the filtered bytes every rank wrote, *others
 * those of the ranks but 0. */
ns_err ns_h5_placed_finish(ns_h5_placer *p, ns_err rc, uint64_t *bytes, uint64_t *others, ns_error *err);

/* Collective: share file (rank 0's, H5I_INVALID_HID elsewhere), then
 * every rank writes its share of job's chunks (chunk c of the grid to
 * rank c mod R, put mode) and the ranks finish together; or, when a rank
 * cannot open the file, rank 0 writes every chunk (*shared 0). job is the
 * same on every rank but for its dataset ids (rank 0's only). *bytes and
 * *others as ns_h5_placed_finish's (each may be NULL). */
ns_err ns_h5_placed_chunks(ns_h5_placer *pl, hid_t file, ns_h5_chunk_job *job, int *shared, uint64_t *bytes,
                           uint64_t *others, ns_error *err);

/* Collective, the end of a placed write: rank 0's result (rc there: its
 * file renamed or not) on every rank (a rank whose own rc is 0 gets rank
 * 0's failure, "rank 0 could not write the <what>", rep->echo set), then
 * rep->refused, and pl freed. Returns this rank's result. */
ns_err ns_h5_placed_end(ns_h5_placer *pl, ns_err rc, const char *what, ns_h5_placed_report *rep, ns_error *err);

/* Collective, a rank but 0 at the start of a placed write: rank 0's header
 * into hdr (hdr[0] 0: rank 0 failed before its chunks, "rank 0 could not
 * write the <what>", rep->echo set; else its two numbers in hdr[1 .. 2]). */
ns_err ns_h5_placed_header(ns_h5_placer *pl, int64_t hdr[3], const char *what, ns_h5_placed_report *rep,
                           ns_error *err);

/* Filter the nx x ny tile vals into its c0 x c1 chunks of elem-byte
 * values: /grundy's into gout (gcap bytes), /pn's (through pnraw, c0 x c1
 * bytes) into pout (pcap) when it has a P-position. A value over 16 bits
 * with elem 2 is an error (path names it). */
ns_err ns_h5_tile_pack(struct ns_chunkfilter *f, uint8_t *pnraw, uint8_t *gout, size_t gcap, uint8_t *pout,
                       size_t pcap, int64_t c0, int64_t c1, int elem, int64_t nx, int64_t ny, const uint32_t *vals,
                       ns_h5_tile_chunks *out, const char *path, ns_error *err);

/* A tile of a placing request (ns_h5_place.c's format). */
typedef struct ns_h5_place_tile {
    int64_t x0, y0, nx, ny;
    uint64_t glen, plen, zeros, max_value;
    const int64_t *pp;      /* zeros P-positions (x, y); borrowed from the request */
} ns_h5_place_tile;

/* The tiles (1 or 2) of a request of `bytes` bytes, each checked against
 * the table's bounds and the tile; NS_EINTERNAL when malformed. */
ns_err ns_h5_place_parse(const void *req, size_t bytes, int64_t bounds0, int64_t bounds1, int64_t tile,
                         ns_h5_place_tile *tiles, int *n, const char *path, ns_error *err);

/* Columns of a streamed /pn chunk of a P/N table: a block's rows x 4 KiB
 * (ns_h5_stream.c, and the packer of ns_h5_place.c). */
enum { NS_H5_PN_COLS = 1024 };

/* A P/N block's placing request (ns_h5_packer_pn_rows), parsed. */
typedef struct ns_h5_place_rows {
    int64_t x0, nrows;
    int64_t nch;            /* /pn chunks stored (those with a P-position) */
    const int64_t *ch;      /* nch pairs (y0, filtered bytes), y0 rising */
    uint64_t npp;
    const int64_t *pp;      /* npp P-positions (x, y), rows then columns */
} ns_h5_place_rows;

/* The block of a request of `bytes` bytes (one whose first word is
 * NS_H5_PLACE_ROWS), checked against the bounds and the chunk shape c0 x
 * c1 (pbound: the most a filtered chunk may take); NS_EINTERNAL when
 * malformed. */
enum { NS_H5_PLACE_ROWS = -1 };
ns_err ns_h5_place_parse_rows(const void *req, size_t bytes, int64_t bounds0, int64_t bounds1, int64_t c0,
                              int64_t c1, size_t pbound, ns_h5_place_rows *out, const char *path, ns_error *err);

#endif
