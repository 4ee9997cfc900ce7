/* ns_h5.c - see ns_h5.h. Part of the HDF5 layer (ns_h5*.c), the only code
 * that includes hdf5.h.
 *
 * Writing: one parallel pass over the table gives the summary (largest
 * value, valid cells, P-positions) and the P-positions in each range of
 * cells. /grundy and /pn are then written chunk by chunk through
 * ns_h5_write_chunks (ns_h5_chunks.c): threads gather a chunk's block of
 * the table (narrowed to the stored Grundy type when that is smaller than
 * the table's cells, with the invalid marker moved) and its P/N flags,
 * filter both as HDF5's shuffle + deflate + fletcher32 would, and the
 * calling thread writes them in order with direct chunk writes.
 * /p_positions follows, in windows of chunks: the ranges gather their
 * P-positions into the window in parallel, then the same chunk writer.
 * Threads: m->threads (the solve's; OpenMP's default when 0), at most
 * WRITE_THREADS_MAX. Memory beyond the table: ~4 MiB per thread, two
 * batches of filtered chunks (ns_h5_chunks.c) and a /p_positions window
 * of at most 32 MiB.
 * Where direct chunk writes are not possible (HDF5 < 1.10.3, a big-endian
 * host; or built with -DNS_H5_PIPELINE_WRITE) the chunks go through
 * H5Dwrite and HDF5's own pipeline on one thread, as before. The file goes
 * to "<path>.part" and is renamed over path after H5Fclose succeeded.
 *
 * Reading: the attributes and the shapes of all three datasets are checked
 * first; the table is then read with one H5Dread (HDF5 widens the stored
 * type to the table's cell type chunk by chunk) and scanned once to map the
 * invalid marker and to reject values above max_value.
 *
 * HDF5 never prints: every entry point turns the automatic error printing
 * off, and a failing call's innermost HDF5 message is appended to ours
 * (ns_h5_errors.c). */
#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <threads.h>
#include <time.h>

#include <gsl/gsl_version.h>
#include <hdf5.h>

#include "core/ns_omp.h"
#include "core/ns_version.h"

#define CHUNK_BYTES NS_H5_CHUNK_BYTES

/* the deflate level: NS_H5_DEFLATE_LEVEL in ns_h5_internal.h */

/* P-positions per range of cells in the summary pass, and the window of
 * /p_positions gathered at a time */
#define RANGE_CELLS ((uint64_t)1 << 20)
#define PP_WINDOW_BYTES ((size_t)32 << 20)

/* at most this many threads write */
#define WRITE_THREADS_MAX 64

static void close_id(hid_t *id, herr_t (*close_fn)(hid_t))
{
    if (*id >= 0)
        close_fn(*id);
    *id = H5I_INVALID_HID;
}

/* ---------------------------------------------------------------- common */

static void meta_init(ns_meta *m)
{
    memset(m, 0, sizeof *m);
}

void ns_meta_free(ns_meta *m)
{
    if (!m)
        return;
    free(m->rules_text);
    m->rules_text = NULL;
}

static char libversion[32];

static void libversion_init(void)
{
    unsigned maj = 0, min = 0, rel = 0;
    ns_h5_quiet();
    if (H5get_libversion(&maj, &min, &rel) < 0)
        snprintf(libversion, sizeof libversion, "unknown");
    else
        snprintf(libversion, sizeof libversion, "%u.%u.%u", maj, min, rel);
}

const char *ns_h5_library_version(void)
{
    static once_flag once = ONCE_FLAG_INIT;
    call_once(&once, libversion_init);
    return libversion;
}

/* Does side^n stay within budget? */
static int pow_fits(hsize_t side, int n, hsize_t budget)
{
    hsize_t p = 1;
    for (int i = 0; i < n; i++) {
        if (p > budget / side)
            return 0;
        p *= side;
    }
    return 1;
}

/* Chunk shape of about target elements for a dataset of the given dims
 * (each >= 1): tiles as square as the dims allow, sides powers of two
 * unless capped at the dims, then grown from the last dimension while the
 * product stays within target. */
void ns_h5_chunk_shape(int rank, const hsize_t *dims, hsize_t target, hsize_t *chunk)
{
    int capped[NS_MAX_DIM] = {0};
    int nfree = rank;
    hsize_t budget = target, side = 1;
    for (;;) {
        side = 1;
        while (pow_fits(side * 2, nfree, budget))
            side *= 2;
        int changed = 0;
        for (int d = 0; d < rank; d++) {
            if (!capped[d] && dims[d] <= side) {
                chunk[d] = dims[d];
                capped[d] = 1;
                nfree--;
                budget = budget / dims[d] ? budget / dims[d] : 1;
                changed = 1;
            }
        }
        if (!changed || nfree == 0)
            break;
    }
    for (int d = 0; d < rank; d++)
        if (!capped[d])
            chunk[d] = side;
    hsize_t prod = 1;
    for (int d = 0; d < rank; d++)
        prod *= chunk[d];
    for (int grown = 1; grown;) {
        grown = 0;
        for (int d = rank - 1; d >= 0; d--) {
            if (chunk[d] >= dims[d])
                continue;
            hsize_t c = chunk[d] * 2 < dims[d] ? chunk[d] * 2 : dims[d];
            if (prod / chunk[d] * c <= target) {
                prod = prod / chunk[d] * c;
                chunk[d] = c;
                grown = 1;
            }
        }
    }
}

/* "3x5x7" */
static void format_dims(int rank, const hsize_t *dims, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < rank && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, "%s%llu", d ? "x" : "", (unsigned long long)dims[d]);
}

/* ---------------------------------------------------------------- writer */

typedef struct writer {
    const char *path;   /* final path, for messages; borrowed */
    char *part;         /* "<path>.part"; owned */
    ns_error *err;
    hid_t file;
    hid_t vstr;         /* variable-length UTF-8 string type */
    hid_t scalar;       /* scalar dataspace */
    ns_table_stats *stats; /* OPTIONAL: gets the table's summary; borrowed */
    const ns_h5_par *par;  /* every rank of an MPI job writes (ns_h5_write_par); else NULL */
    char created[32];      /* created_utc when set (a parallel write: rank 0's) */
    /* rank 0 of ns_h5_write_placed; else NULL */
    ns_h5_placer *pl;
    int pl_started;        /* the others have rank 0's header */
    ns_h5_placed_report *rep;   /* borrowed */
} writer;

static ns_err attr_write(writer *w, const char *name, hid_t ftype, hid_t mtype, hid_t space,
                         const void *buf)
{
    hid_t a = H5Acreate2(w->file, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot create attribute %s", w->path, name);
    herr_t st = H5Awrite(a, mtype, buf);
    herr_t cl = H5Aclose(a);
    if (st < 0 || cl < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot write attribute %s", w->path, name);
    return NS_OK;
}

static ns_err attr_str(writer *w, const char *name, const char *value)
{
    return attr_write(w, name, w->vstr, w->vstr, w->scalar, &value);
}

static ns_err attr_i32(writer *w, const char *name, int value)
{
    return attr_write(w, name, H5T_STD_I32LE, H5T_NATIVE_INT, w->scalar, &value);
}

static ns_err attr_u32(writer *w, const char *name, uint32_t value)
{
    return attr_write(w, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, w->scalar, &value);
}

static ns_err attr_u64(writer *w, const char *name, uint64_t value)
{
    return attr_write(w, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, w->scalar, &value);
}

static ns_err attr_i64(writer *w, const char *name, int64_t value)
{
    return attr_write(w, name, H5T_STD_I64LE, H5T_NATIVE_INT64, w->scalar, &value);
}

static ns_err attr_f64(writer *w, const char *name, double value)
{
    return attr_write(w, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, w->scalar, &value);
}

static ns_err attr_i64_array(writer *w, const char *name, const int64_t *v, int n)
{
    hsize_t dim = (hsize_t)n;
    hid_t space = H5Screate_simple(1, &dim, NULL);
    if (space < 0)
        return ns_h5_fail(w->err, NS_EIO, "%s: cannot create the dataspace of attribute %s", w->path, name);
    ns_err rc = attr_write(w, name, H5T_STD_I64LE, H5T_NATIVE_INT64, space, v);
    H5Sclose(space);
    return rc;
}

static ns_err write_attributes(writer *w, int k, const int64_t *bounds, int pn_only, const ns_meta *m,
                               const ns_table_stats *st, int has_invalid, uint32_t invalid_value,
                               hid_t gtype)
{
    char created[32], params[sizeof m->params], game[sizeof m->game], rules_file[sizeof m->rules_file];
    time_t now = time(NULL);
    struct tm tm;
    if (w->created[0])
        snprintf(created, sizeof created, "%s", w->created);
    else if (!gmtime_r(&now, &tm) || !strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(created, sizeof created, "unknown");
    /* the fixed-size fields need not be terminated by a careless caller */
    snprintf(game, sizeof game, "%.*s", (int)sizeof m->game - 1, m->game);
    snprintf(params, sizeof params, "%.*s", (int)sizeof m->params - 1, m->params);
    snprintf(rules_file, sizeof rules_file, "%.*s", (int)sizeof m->rules_file - 1, m->rules_file);
    char mpi_write[sizeof m->mpi_write];
    snprintf(mpi_write, sizeof mpi_write, "%.*s", (int)sizeof m->mpi_write - 1, m->mpi_write);

    ns_err rc;
    if ((rc = attr_str(w, "game", game)) ||
        (m->rules_text && (rc = attr_str(w, "rules", m->rules_text))) ||
        (m->rules_text && m->rules_file[0] && (rc = attr_str(w, "rules_file", rules_file))) ||
        (rc = attr_str(w, "params", params)) ||
        (rc = attr_i64_array(w, "bounds", bounds, k)) ||
        (rc = attr_str(w, "play", m->play == NS_PLAY_MISERE ? "misere" : "normal")) ||
        (rc = attr_str(w, "kind", pn_only ? "pn" : "grundy")) ||
        (m->engine[0] && (rc = attr_str(w, "engine", m->engine))) ||
        (rc = attr_str(w, "nimsieve_version", NS_VERSION)) ||
        (rc = attr_str(w, "git_revision", NS_GIT_REVISION)) ||
        (rc = attr_str(w, "created_utc", created)) ||
        (rc = attr_i32(w, "threads", m->threads)) ||
        (m->mpi_ranks > 0 && (rc = attr_i32(w, "mpi_ranks", m->mpi_ranks))) ||
        (m->mpi_ranks > 0 && mpi_write[0] && (rc = attr_str(w, "mpi_write", mpi_write))) ||
        (m->mpi_sets[0] && (rc = attr_str(w, "mpi_sets", m->mpi_sets))) ||
        (rc = attr_f64(w, "wall_seconds", m->wall_seconds)) ||
        (rc = attr_str(w, "hdf5_version", ns_h5_library_version())) ||
        (rc = attr_str(w, "gsl_version", GSL_VERSION)) ||
        (rc = attr_str(w, "compiler", NS_COMPILER)) ||
        (rc = attr_str(w, "build_flags", NS_BUILD_FLAGS)) ||
        (rc = attr_u32(w, "max_value", st->max_value)) ||
        (rc = attr_u64(w, "n_p_positions", st->n_p)) ||
        (has_invalid && (rc = attr_write(w, "invalid_value", gtype, H5T_NATIVE_UINT32, w->scalar,
                                         &invalid_value))) ||
        (rc = attr_i32(w, "complete", m->complete ? 1 : 0)))
        return rc;
    if (m->loopy && ((rc = attr_i32(w, "loopy", 1)) || (rc = attr_u64(w, "n_draws", m->n_draws))))
        return rc;
    if (m->nsym > 0) {
        int64_t axes[NS_MAX_DIM];
        for (int i = 0; i < m->nsym && i < NS_MAX_DIM; i++)
            axes[i] = m->sym[i];
        if ((rc = attr_i64_array(w, "symmetric", axes, m->nsym)))
            return rc;
    }
    if (m->seq_code[0]) {
        char code[sizeof m->seq_code];
        snprintf(code, sizeof code, "%.*s", (int)sizeof m->seq_code - 1, m->seq_code);
        if ((rc = attr_str(w, "code", code)) || (rc = attr_i64(w, "argmax", m->seq_argmax)))
            return rc;
        if (m->seq_has_period &&
            ((rc = attr_i64(w, "preperiod", m->seq_preperiod)) || (rc = attr_i64(w, "period", m->seq_period)) ||
             (rc = attr_i64(w, "saltus", m->seq_saltus)) || (rc = attr_i32(w, "period_proven", m->seq_proven ? 1 : 0))))
            return rc;
        if (m->seq_rare_mask &&
            ((rc = attr_u32(w, "rare_mask", m->seq_rare_mask)) || (rc = attr_i64(w, "n_rare", m->seq_nrare))))
            return rc;
    }
    return NS_OK;
}

ns_err ns_h5_root_attrs(hid_t file, const char *path, int k, const int64_t *bounds, int pn_only, const ns_meta *m,
                        const ns_table_stats *st, int has_invalid, uint32_t invalid_value, hid_t gtype,
                        ns_error *err)
{
    writer w = {path, NULL, err, file, H5I_INVALID_HID, H5I_INVALID_HID, NULL, NULL, "", NULL, 0, NULL};
    ns_err rc;
    w.scalar = H5Screate(H5S_SCALAR);
    w.vstr = H5Tcopy(H5T_C_S1);
    if (w.scalar < 0 || w.vstr < 0 || H5Tset_size(w.vstr, H5T_VARIABLE) < 0 ||
        H5Tset_cset(w.vstr, H5T_CSET_UTF8) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot create the string type and scalar dataspace", path);
    else
        rc = write_attributes(&w, k, bounds, pn_only, m, st, has_invalid, invalid_value, gtype);
    close_id(&w.scalar, H5Sclose);
    close_id(&w.vstr, H5Tclose);
    return rc;
}

/* /rare: the m->seq_nrare rare heap sizes of a rare/common run (1-D int64;
 * an empty one gets an unlimited dimension so that it can still be chunked) */
ns_err ns_h5_write_rare(hid_t file, const char *path, const ns_meta *m, ns_error *err)
{
    const hsize_t n = (hsize_t)(m->seq_nrare > 0 ? m->seq_nrare : 0);
    const hsize_t cap = CHUNK_BYTES / sizeof(int64_t);
    hsize_t dims[1] = {n}, maxd[1] = {n ? n : H5S_UNLIMITED}, chunk[1] = {n == 0 ? 1 : n < cap ? n : cap};
    if (n && !m->seq_rare)
        return ns_error_set(err, NS_EINTERNAL, "%s: %" PRId64 " rare heap sizes announced, none given", path,
                            m->seq_nrare);
    hid_t d = ns_h5_create_chunked(file, path, "/rare", H5T_STD_I64LE, 1, dims, maxd, chunk, NULL, err);
    if (d < 0)
        return err ? err->code : NS_EIO;
    ns_err rc = NS_OK;
    if (n && H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, m->seq_rare) < 0)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot write dataset /rare", path);
    if (H5Dclose(d) < 0 && !rc)
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close dataset /rare", path);
    return rc;
}

static hid_t create_dataset(writer *w, const char *name, hid_t ftype, int rank,
                            const hsize_t *dims, const hsize_t *maxdims, const hsize_t *chunk, const void *fill)
{
    return ns_h5_create_chunked(w->file, w->path, name, ftype, rank, dims, maxdims, chunk, fill, w->err);
}

/* Write the block [start, start + count) of dataset d (whose file space is
 * fspace) from buf: prod(count) cells of memory type mtype, row-major. */
static ns_err write_block(writer *w, const char *name, hid_t d, hid_t fspace, hid_t mtype, int rank,
                          const hsize_t *start, const hsize_t *count, const void *buf)
{
    /* the memory space has the shape of the file selection: with a flat
     * one HDF5 maps the cells to chunks one by one (several times slower) */
    hid_t mspace = H5Screate_simple(rank, count, NULL);
    ns_err rc = NS_OK;
    if (mspace < 0 || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
        H5Dwrite(d, mtype, mspace, fspace, H5P_DEFAULT, buf) < 0) {
        char at[160];
        format_dims(rank, start, at, sizeof at);
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot write the block at %s of dataset %s", w->path, at, name);
    }
    close_id(&mspace, H5Sclose);
    return rc;
}

/* The file type and the invalid marker for /grundy: the smallest unsigned
 * type holding max, or holding max below its own largest value when some
 * cells are invalid (that largest value is then the marker). */
static void grundy_type(uint32_t max, int has_invalid, hid_t *type, size_t *size, uint32_t *marker)
{
    int elem = has_invalid ? ns_table_elem_for(max) : max <= 0xFFu ? 1 : max <= 0xFFFFu ? 2 : 4;
    *size = (size_t)elem;
    *type = elem == 1 ? H5T_STD_U8LE : elem == 2 ? H5T_STD_U16LE : H5T_STD_U32LE;
    *marker = elem == 1 ? 0xFFu : elem == 2 ? 0xFFFFu : 0xFFFFFFFFu;
}

static hid_t native_uint(size_t size)
{
    return size == 1 ? H5T_NATIVE_UINT8 : size == 2 ? H5T_NATIVE_UINT16 : H5T_NATIVE_UINT32;
}

/* Copy the block [o, o + e) of t into gbuf (as the stored /grundy type of
 * gsize bytes, the invalid cells as ginv; NULL for a P/N table) and its P/N
 * flags into pnbuf, both dense and row-major in the block's shape. */
static void gather_block(const ns_table *t, const hsize_t *o, const hsize_t *e, void *gbuf, size_t gsize,
                         uint32_t ginv, uint8_t *pnbuf)
{
    const int k = t->k;
    const uint64_t run = e[k - 1];
    const uint32_t tinv = ns_table_invalid(t);
    hsize_t idx[NS_MAX_DIM] = {0};   /* position in the block, dims 0..k-2 */
    uint64_t j = 0;                  /* cells gathered */
    for (;;) {
        uint64_t base = o[k - 1];
        for (int d = 0; d < k - 1; d++)
            base += (o[d] + idx[d]) * (uint64_t)t->stride[d];
        if (gbuf && gsize == (size_t)t->elem)
            memcpy((char *)gbuf + j * gsize, (const char *)t->data + base * gsize, (size_t)run * gsize);
        for (uint64_t r = 0; r < run; r++) {
            const uint32_t v = ns_table_get(t, base + r);
            pnbuf[j + r] = v == tinv ? NS_PN_INVALID : v == 0 ? NS_PN_P : t->pn_only && v == NS_PN_DRAW ? NS_PN_DRAW : NS_PN_N;
        }
        if (gbuf && gsize != (size_t)t->elem) {
            /* narrower than the table's cells: values fit, the marker moves */
            for (uint64_t r = 0; r < run; r++) {
                uint32_t v = ns_table_get(t, base + r);
                v = v == tinv ? ginv : v;
                if (gsize == 1)
                    ((uint8_t *)gbuf)[j + r] = (uint8_t)v;
                else
                    ((uint16_t *)gbuf)[j + r] = (uint16_t)v;
            }
        }
        j += run;
        int d = k - 2;
        while (d >= 0 && ++idx[d] == e[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
}

/* /p_positions, in row-major order, through a buffer of prows rows. */
static ns_err write_p_positions(writer *w, const ns_table *t, hid_t dp, hid_t pspace, uint64_t n_p,
                                hsize_t prows)
{
    const int k = t->k;
    int64_t *pbuf = malloc((size_t)prows * (size_t)k * sizeof *pbuf);
    if (!pbuf)
        return ns_error_set(w->err, NS_ENOMEM, "%s: out of memory for the /p_positions buffer", w->path);
    ns_err rc = NS_OK;
    hsize_t fill = 0, done = 0;
    for (uint64_t i = 0; i <= t->ncells; i++) {
        if (i < t->ncells && ns_table_get(t, i) == 0) {
            if (done + fill == n_p) {
                rc = ns_error_set(w->err, NS_EINTERNAL, "%s: more P-positions than counted", w->path);
                break;
            }
            ns_table_coords(t, i, pbuf + fill * (hsize_t)k);
            fill++;
        }
        if (fill == prows || (i == t->ncells && fill > 0)) {
            hsize_t start[2] = {done, 0}, count[2] = {fill, (hsize_t)k};
            if ((rc = write_block(w, "/p_positions", dp, pspace, H5T_NATIVE_INT64, 2, start, count, pbuf)))
                break;
            done += fill;
            fill = 0;
        }
    }
    if (!rc && done != n_p)
        rc = ns_error_set(w->err, NS_EINTERNAL, "%s: wrote %llu P-positions, counted %llu", w->path,
                          (unsigned long long)done, (unsigned long long)n_p);
    free(pbuf);
    return rc;
}

/* ------------------------------------------------ the direct-write path */

/* The summary of the table, and P-positions per range of RANGE_CELLS cells:
 * p_before[r] of them lie before range r (nranges + 1 entries). */
typedef struct scan {
    uint64_t nranges;
    uint64_t *p_before;     /* owned */
} scan;

/* Valid cells, P-positions and the largest valid value of cells [lo, hi)
 * (at most RANGE_CELLS): accumulators of the cells' own width, so that
 * the loop vectorises. */
static void scan_range(const ns_table *t, uint64_t lo, uint64_t hi, uint64_t *n_valid, uint64_t *n_p,
                       uint32_t *max)
{
    ns_table_stats st;
    ns_table_summarize_range(t, lo, hi, &st);
    *n_valid = st.n_valid;
    *n_p = st.n_p;
    *max = st.max_value;
}

/* ns_table_summarize's numbers, on threads, and the P-positions per range.
 * sc->p_before is owned by the caller (free). */
static ns_err scan_table(writer *w, const ns_table *t, int threads, ns_table_stats *st, scan *sc)
{
    memset(st, 0, sizeof *st);
    sc->nranges = (t->ncells + RANGE_CELLS - 1) / RANGE_CELLS;
    sc->p_before = malloc((size_t)(sc->nranges + 1) * sizeof *sc->p_before);
    uint64_t *nv = malloc((size_t)(sc->nranges + 1) * sizeof *nv);
    uint32_t *mx = malloc((size_t)(sc->nranges + 1) * sizeof *mx);
    if (!sc->p_before || !nv || !mx) {
        free(nv);
        free(mx);
        free(sc->p_before);
        sc->p_before = NULL;
        return ns_error_set(w->err, NS_ENOMEM, "%s: out of memory for the table summary", w->path);
    }
    const int64_t nr = (int64_t)sc->nranges;
    NS_OMP_FOR_DYNAMIC1(threads)
    for (int64_t r = 0; r < nr; r++) {
        const uint64_t lo = (uint64_t)r * RANGE_CELLS;
        const uint64_t hi = lo + RANGE_CELLS < t->ncells ? lo + RANGE_CELLS : t->ncells;
        scan_range(t, lo, hi, &nv[r], &sc->p_before[r + 1], &mx[r]);
    }
    sc->p_before[0] = 0;
    for (uint64_t r = 0; r < sc->nranges; r++) {
        st->n_valid += nv[r];
        st->n_p += sc->p_before[r + 1];
        sc->p_before[r + 1] = st->n_p;
        st->max_value = mx[r] > st->max_value ? mx[r] : st->max_value;
    }
    free(nv);
    free(mx);
    return NS_OK;
}

/* What fill_table_chunk needs: the table and how /grundy is stored. */
typedef struct table_fill {
    const ns_table *t;
    hsize_t dims[NS_MAX_DIM];
    hsize_t chunk[NS_MAX_DIM];
    size_t gsize;           /* bytes of a stored Grundy value; 0: no /grundy */
    uint32_t ginv;          /* its invalid marker */
} table_fill;

/* One row of run cells from src (table cells of type TS) into g (stored
 * Grundy values of type TG, NULL for none) and pn. */
#define CONVERT_ROW(TS, TG)                                                             \
    do {                                                                                \
        const TS *s = (const TS *)src;                                                  \
        const TS inv = (TS)tinv;                                                        \
        TG *gd = (TG *)g;                                                               \
        if (gd && sizeof(TS) == sizeof(TG))                                             \
            memcpy(gd, s, (size_t)run * sizeof(TS));                                    \
        else if (gd)                                                                    \
            for (uint64_t r = 0; r < run; r++)                                          \
                gd[r] = s[r] == inv ? (TG)ginv : (TG)s[r];                              \
        if (draws)                                                                      \
            for (uint64_t r = 0; r < run; r++)                                          \
                pn[r] = s[r] == inv ? NS_PN_INVALID : (uint8_t)s[r];                    \
        else                                                                            \
            for (uint64_t r = 0; r < run; r++)                                          \
                pn[r] = s[r] == inv ? NS_PN_INVALID : s[r] == 0 ? NS_PN_P : NS_PN_N;    \
    } while (0)

static void convert_row(const table_fill *f, const void *src, uint64_t run, void *g, uint8_t *pn)
{
    const uint32_t tinv = ns_table_invalid(f->t), ginv = f->ginv;
    const int te = f->t->elem;
    const int draws = f->t->pn_only; /* a P/N table: 0, 1, 3 (draw) as stored */
    const size_t ge = g ? f->gsize : 0;
    if (te == 1)
        CONVERT_ROW(uint8_t, uint8_t);
    else if (te == 2 && ge != 1)
        CONVERT_ROW(uint16_t, uint16_t);
    else if (te == 2)
        CONVERT_ROW(uint16_t, uint8_t);
    else if (ge == 1)
        CONVERT_ROW(uint32_t, uint8_t);
    else if (ge == 2)
        CONVERT_ROW(uint32_t, uint16_t);
    else
        CONVERT_ROW(uint32_t, uint32_t);
}

/* ns_h5_fill_fn of /grundy (bufs[0], when stored) and /pn (the last). */
static void fill_table_chunk(void *user, const hsize_t *off, void *const *bufs)
{
    const table_fill *f = user;
    const ns_table *t = f->t;
    const int k = t->k;
    void *gbuf = f->gsize ? bufs[0] : NULL;
    uint8_t *pnbuf = bufs[f->gsize ? 1 : 0];
    hsize_t e[NS_MAX_DIM], cstride[NS_MAX_DIM];
    uint64_t cells = 1;
    int partial = 0;
    for (int d = k - 1; d >= 0; d--) {
        e[d] = f->dims[d] - off[d] < f->chunk[d] ? f->dims[d] - off[d] : f->chunk[d];
        partial |= e[d] < f->chunk[d];
        cstride[d] = cells;
        cells *= f->chunk[d];
    }
    if (partial) {
        /* the edge of the table: HDF5 stores whole chunks, padded with 0 */
        if (gbuf)
            memset(gbuf, 0, (size_t)cells * f->gsize);
        memset(pnbuf, 0, (size_t)cells);
    }
    hsize_t idx[NS_MAX_DIM] = {0};   /* row within the block, dims 0..k-2 */
    for (;;) {
        uint64_t src = off[k - 1], dst = 0;
        for (int d = 0; d < k - 1; d++) {
            src += (off[d] + idx[d]) * (uint64_t)t->stride[d];
            dst += idx[d] * cstride[d];
        }
        convert_row(f, (const char *)t->data + src * (uint64_t)t->elem, e[k - 1],
                    gbuf ? (char *)gbuf + dst * f->gsize : NULL, pnbuf + dst);
        int d = k - 2;
        while (d >= 0 && ++idx[d] == e[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
}

/* A window of /p_positions: P-positions a..b-1 (k coordinates each). */
typedef struct pp_fill {
    const int64_t *rows;    /* (b - a) * k; borrowed */
    uint64_t a, b;
    int k;
    hsize_t prows;          /* rows per chunk */
} pp_fill;

static void fill_pp_chunk(void *user, const hsize_t *off, void *const *bufs)
{
    const pp_fill *f = user;
    const uint64_t lo = off[0], hi = lo + f->prows < f->b ? lo + f->prows : f->b;
    const size_t row = (size_t)f->k * sizeof(int64_t);
    memcpy(bufs[0], f->rows + (lo - f->a) * (uint64_t)f->k, (size_t)(hi - lo) * row);
    if (hi - lo < f->prows)
        memset((char *)bufs[0] + (size_t)(hi - lo) * row, 0, (size_t)(f->prows - (hi - lo)) * row);
}

/* The first cell in [i, hi) of the T cells at data that is 0 (a P-position),
 * or hi: blocks of 64 cells are tested at once (vectorised). */
#define NEXT_ZERO(T)                                                                    \
    do {                                                                                \
        const T *p = (const T *)data;                                                   \
        for (; i + 64 <= hi; i += 64) {                                                 \
            unsigned any = 0;                                                           \
            for (int j = 0; j < 64; j++)                                                \
                any |= p[i + (uint64_t)j] == 0;                                         \
            if (any)                                                                    \
                break;                                                                  \
        }                                                                               \
        for (; i < hi && p[i] != 0; i++)                                                \
            ;                                                                           \
    } while (0)

static uint64_t next_zero(const void *data, int elem, uint64_t i, uint64_t hi)
{
    if (elem == 1)
        NEXT_ZERO(uint8_t);
    else if (elem == 2)
        NEXT_ZERO(uint16_t);
    else
        NEXT_ZERO(uint32_t);
    return i;
}

/* The coordinates of P-positions a..b-1 into rows, on threads: each range
 * of cells holding some of them scans for its own. */
static void gather_p_positions(const ns_table *t, const scan *sc, uint64_t a, uint64_t b, int64_t *rows,
                               int threads)
{
    const int64_t nr = (int64_t)sc->nranges;
    NS_OMP_FOR_DYNAMIC1(threads)
    for (int64_t r = 0; r < nr; r++) {
        uint64_t idx = sc->p_before[r];
        if (idx >= b || sc->p_before[r + 1] <= a)
            continue;
        const uint64_t lo = (uint64_t)r * RANGE_CELLS;
        const uint64_t hi = lo + RANGE_CELLS < t->ncells ? lo + RANGE_CELLS : t->ncells;
        for (uint64_t i = next_zero(t->data, t->elem, lo, hi); i < hi && idx < b;
             i = next_zero(t->data, t->elem, i + 1, hi)) {
            if (idx >= a)
                ns_table_coords(t, i, rows + (idx - a) * (uint64_t)t->k);
            idx++;
        }
    }
}

/* The writing threads m asks for (0: OpenMP's), 1..WRITE_THREADS_MAX:
 * each holds ~4 MiB of buffers. */
static int write_threads(const ns_meta *m)
{
    const int asked = m->threads > 0 ? m->threads : ns_omp_max_threads();
    return asked < 1 ? 1 : asked > WRITE_THREADS_MAX ? WRITE_THREADS_MAX : asked;
}

/* The shape of table t (dims) and the chunk shape /grundy and /pn share
 * (gsize: bytes of a stored Grundy value). */
static void table_shape(const ns_table *t, size_t gsize, hsize_t *dims, hsize_t *chunk)
{
    for (int d = 0; d < t->k; d++)
        dims[d] = (hsize_t)t->bounds[d];
    ns_h5_chunk_shape(t->k, dims, CHUNK_BYTES / (t->pn_only ? 1 : gsize), chunk);
}

/* The chunk job of /grundy (unless P/N) and /pn of table t: every chunk
 * (first 0, count all), filled from tf (set up here). */
static void table_job(const char *path, const ns_table *t, size_t gsize, uint32_t ginv, const hsize_t *dims,
                      const hsize_t *chunk, int threads, hid_t dg, hid_t dpn, table_fill *tf, ns_h5_chunk_job *job)
{
    const int k = t->k;
    memset(tf, 0, sizeof *tf);
    memset(job, 0, sizeof *job);
    tf->t = t;
    tf->gsize = t->pn_only ? 0 : gsize;
    tf->ginv = ginv;
    job->path = path;
    job->rank = k;
    job->fill = fill_table_chunk;
    job->user = tf;
    job->threads = threads;
    for (int d = 0; d < k; d++) {
        tf->dims[d] = job->dims[d] = dims[d];
        tf->chunk[d] = job->chunk[d] = chunk[d];
    }
    if (!t->pn_only) {
        job->dset[job->n] = dg;
        job->name[job->n] = "/grundy";
        job->elem[job->n++] = gsize;
    }
    job->dset[job->n] = dpn;
    job->name[job->n] = "/pn";
    job->skip[job->n] = NS_PN_N;  /* its fill value: all-N chunks are not stored */
    job->elem[job->n++] = 1;
    job->first = 0;
    job->count = ns_h5_chunk_count(job);
}

/* /grundy (dg, when the table has Grundy values) and /pn (dpn) together,
 * then /p_positions (dp: n_p x k, chunks of prows x k). */
static ns_err write_direct(writer *w, const ns_table *t, const scan *sc, const ns_table_stats *st,
                           int threads, hid_t dg, size_t gsize, uint32_t ginv, hid_t dpn,
                           const hsize_t *dims, const hsize_t *chunk, hid_t dp, hsize_t prows)
{
    const int k = t->k;
    table_fill tf;
    ns_h5_chunk_job job;
    table_job(w->path, t, gsize, ginv, dims, chunk, threads, dg, dpn, &tf, &job);
    ns_err rc;
    if (w->pl) {
        /* the others' header: the stored width (they build the same job) */
        int64_t hdr[3] = {1, (int64_t)gsize, (int64_t)ginv};
        ns_h5_placer_bcast(w->pl, hdr, sizeof hdr);
        w->pl_started = 1;
        rc = ns_h5_placed_chunks(w->pl, w->file, &job, w->rep ? &w->rep->shared : NULL, w->rep ? &w->rep->bytes : NULL,
                                 w->rep ? &w->rep->bytes_others : NULL, w->err);
    } else {
        rc = ns_h5_write_chunks(&job, w->err);
    }
    if (rc || st->n_p == 0)
        return rc;

    /* /p_positions, a window of chunks at a time */
    const size_t chunk_bytes = (size_t)prows * (size_t)k * sizeof(int64_t);
    const uint64_t per_window = PP_WINDOW_BYTES / chunk_bytes ? PP_WINDOW_BYTES / chunk_bytes : 1;
    const uint64_t nchunks = (st->n_p + prows - 1) / prows;
    const uint64_t wrows = per_window * prows < st->n_p ? per_window * prows : st->n_p;
    int64_t *rows = malloc((size_t)wrows * (size_t)k * sizeof *rows);
    if (!rows)
        return ns_error_set(w->err, NS_ENOMEM, "%s: out of memory for the /p_positions buffer", w->path);
    pp_fill pf = {.rows = rows, .k = k, .prows = prows};
    ns_h5_chunk_job pj = {.path = w->path, .n = 1, .dset = {dp}, .name = {"/p_positions"},
                          .elem = {sizeof(int64_t)}, .rank = 2, .dims = {st->n_p, (hsize_t)k},
                          .chunk = {prows, (hsize_t)k}, .fill = fill_pp_chunk, .user = &pf,
                          .threads = threads};
    for (uint64_t c = 0; c < nchunks && !rc; c += per_window) {
        pj.first = c;
        pj.count = nchunks - c < per_window ? nchunks - c : per_window;
        pf.a = c * prows;
        pf.b = (c + pj.count) * prows < st->n_p ? (c + pj.count) * prows : st->n_p;
        gather_p_positions(t, sc, pf.a, pf.b, rows, threads);
        rc = ns_h5_write_chunks(&pj, w->err);
    }
    free(rows);
    return rc;
}

/* ------------------------------------------- the parallel path (MPI) */

/* One collective H5Dwrite of dataset d (rank dims): this rank's block
 * [start, start + count) from buf, or nothing when count is NULL (every
 * rank calls it, with or without a block). */
static ns_err par_write_block(writer *w, const char *name, hid_t d, hid_t mtype, int rank, const hsize_t *start,
                              const hsize_t *count, const void *buf)
{
    static const uint64_t none = 0;   /* a buffer for an empty selection */
    const hsize_t one = 1;
    hid_t fspace = H5Dget_space(d);
    hid_t mspace = count ? H5Screate_simple(rank, count, NULL) : H5Screate_simple(1, &one, NULL);
    ns_err rc = NS_OK;
    herr_t st = fspace < 0 || mspace < 0 ? -1
                : count ? H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL)
                        : (H5Sselect_none(fspace) < 0 ? -1 : H5Sselect_none(mspace));
    if (st < 0 || H5Dwrite(d, mtype, mspace, fspace, w->par->dxpl, count ? buf : (const void *)&none) < 0) {
        char at[160] = "nothing";
        if (count)
            format_dims(rank, start, at, sizeof at);
        rc = ns_h5_fail(w->err, NS_EIO, "%s: rank %d: cannot write the block at %s of dataset %s (collective)",
                        w->path, w->par->rank, at, name);
    }
    close_id(&mspace, H5Sclose);
    close_id(&fspace, H5Sclose);
    return rc;
}

/* /grundy (dg, unless a P/N table) and /pn, then /p_positions (dp: n_p x
 * k, chunks of prows rows), every rank its bands of chunk rows: band b
 * (chunk[0] rows along dimension 0) goes to rank b mod R; the round i
 * writes bands i R .. i R + R - 1, one collective H5Dwrite per dataset. */
static ns_err write_par(writer *w, const ns_table *t, const scan *sc, const ns_table_stats *st, int threads,
                        hid_t dg, size_t gsize, uint32_t ginv, hid_t dpn, const hsize_t *dims, const hsize_t *chunk,
                        hid_t dp, hsize_t prows)
{
    const int k = t->k, R = w->par->size, me = w->par->rank;
    const size_t gs = t->pn_only ? 0 : gsize;
    uint64_t band_cells = chunk[0];
    for (int d = 1; d < k; d++)
        band_cells *= dims[d];
    void *gbuf = gs ? malloc((size_t)band_cells * gs) : NULL;
    uint8_t *pnbuf = malloc((size_t)band_cells);
    int64_t *rows = st->n_p ? malloc((size_t)prows * (size_t)k * sizeof *rows) : NULL;
    ns_err rc = NS_OK;
    /* test hook: NS_H5_PAR_TEST_NOMEM_RANK=R, rank R finds no memory here */
    const char *hook = getenv("NS_H5_PAR_TEST_NOMEM_RANK");
    if ((gs && !gbuf) || !pnbuf || (st->n_p && !rows) || (hook && *hook && atoi(hook) == me))
        rc = ns_error_set(w->err, NS_ENOMEM, "%s: rank %d: out of memory for a band of chunks", w->path, me);
    /* a rank short of memory stops every rank here, before the collective
     * writes (every rank reaches this meeting) */
    if (ns_h5_par_max(w->par, rc) != NS_OK) {
        if (!rc)
            rc = ns_error_set(w->err, NS_ENOMEM, "%s: another rank is out of memory for its band of chunks",
                              w->path);
        goto out;
    }
    const uint64_t nb = (dims[0] + chunk[0] - 1) / chunk[0];
    for (uint64_t b0 = 0; b0 < nb && !rc; b0 += (uint64_t)R) {
        const uint64_t b = b0 + (uint64_t)me;
        hsize_t o[NS_MAX_DIM] = {0}, e[NS_MAX_DIM];
        const int mine = b < nb;
        if (mine) {
            o[0] = b * chunk[0];
            e[0] = dims[0] - o[0] < chunk[0] ? dims[0] - o[0] : chunk[0];
            for (int d = 1; d < k; d++)
                e[d] = dims[d];
            gather_block(t, o, e, gbuf, gs, ginv, pnbuf);
        }
        if (gs && (rc = par_write_block(w, "/grundy", dg, native_uint(gs), k, o, mine ? e : NULL, gbuf)))
            break;
        rc = par_write_block(w, "/pn", dpn, H5T_NATIVE_UINT8, k, o, mine ? e : NULL, pnbuf);
    }
    const uint64_t npb = st->n_p ? (st->n_p + prows - 1) / prows : 0;
    for (uint64_t b0 = 0; b0 < npb && !rc; b0 += (uint64_t)R) {
        const uint64_t b = b0 + (uint64_t)me;
        hsize_t o[2] = {0, 0}, e[2] = {0, (hsize_t)k};
        const int mine = b < npb;
        if (mine) {
            o[0] = b * prows;
            e[0] = st->n_p - o[0] < prows ? st->n_p - o[0] : prows;
            gather_p_positions(t, sc, o[0], o[0] + e[0], rows, threads);
        }
        rc = par_write_block(w, "/p_positions", dp, H5T_NATIVE_INT64, 2, o, mine ? e : NULL, rows);
    }
out:
    free(gbuf);
    free(pnbuf);
    free(rows);
    return rc;
}

/* ----------------------------------------------------- the file contents */

/* Everything between creating the .part file and closing it. */
static ns_err write_contents(writer *w, const ns_table *t, const ns_meta *m)
{
    ns_err rc = NS_OK;
    const int k = t->k;
    hid_t dg = H5I_INVALID_HID, dpn = H5I_INVALID_HID, dp = H5I_INVALID_HID;
    hid_t tspace = H5I_INVALID_HID, pspace = H5I_INVALID_HID;
    void *gbuf = NULL;
    uint8_t *pnbuf = NULL;
    scan sc = {0, NULL};
#ifdef NS_H5_PIPELINE_WRITE
    const int direct = 0;
#else
    const int direct = ns_h5_direct_ok() && !w->par;
#endif
    const int threads = write_threads(m);

    ns_table_stats st;
    if (direct || w->par) {
        if ((rc = scan_table(w, t, threads, &st, &sc)))
            return rc;
    } else {
        ns_table_summarize(t, &st, NULL, 0);
    }
    if (w->stats)
        *w->stats = st;
    const int has_invalid = st.n_valid < t->ncells;
    hid_t gtype = H5T_STD_U8LE;
    size_t gsize = 1;
    uint32_t ginv = 0xFFu;
    if (!t->pn_only)
        grundy_type(st.max_value, has_invalid, &gtype, &gsize, &ginv);

    /* /grundy and /pn share their chunk shape */
    hsize_t dims[NS_MAX_DIM], chunk[NS_MAX_DIM];
    table_shape(t, gsize, dims, chunk);
    tspace = H5Screate_simple(k, dims, NULL);
    if (tspace < 0) {
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot create the dataspace of the table", w->path);
        goto fail;
    }
    if (!t->pn_only && (dg = create_dataset(w, "/grundy", gtype, k, dims, NULL, chunk, NULL)) < 0) {
        rc = w->err ? w->err->code : NS_EIO;
        goto fail;
    }
    /* fill value N: chunks of /pn that are all N are not stored (a P/N
     * table is mostly N; readers get the fill value) */
    const uint8_t pn_fill = NS_PN_N;
    if ((dpn = create_dataset(w, "/pn", H5T_STD_U8LE, k, dims, NULL, chunk, &pn_fill)) < 0) {
        rc = w->err ? w->err->code : NS_EIO;
        goto fail;
    }

    /* /p_positions: n x k; an empty one gets an unlimited first dimension
     * so that it can still be chunked */
    hsize_t pdims[2] = {st.n_p, (hsize_t)k}, pmax[2] = {st.n_p, (hsize_t)k}, pchunk[2];
    hsize_t pshape[2] = {st.n_p ? st.n_p : 1, (hsize_t)k};
    if (st.n_p == 0)
        pmax[0] = H5S_UNLIMITED;
    ns_h5_chunk_shape(2, pshape, CHUNK_BYTES / sizeof(int64_t), pchunk);
    if ((dp = create_dataset(w, "/p_positions", H5T_STD_I64LE, 2, pdims, pmax, pchunk, NULL)) < 0) {
        rc = w->err ? w->err->code : NS_EIO;
        goto fail;
    }
    pspace = H5Screate_simple(2, pdims, pmax);
    if (pspace < 0) {
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot create the dataspace of /p_positions", w->path);
        goto fail;
    }

    if (w->par && pchunk[1] == (hsize_t)k) {
        if ((rc = write_par(w, t, &sc, &st, threads, dg, gsize, ginv, dpn, dims, chunk, dp, pchunk[0])))
            goto fail;
    } else if (w->par) {
        rc = ns_error_set(w->err, NS_EINTERNAL, "%s: /p_positions chunks of %llu x %llu cells for %d piles",
                          w->path, (unsigned long long)pchunk[0], (unsigned long long)pchunk[1], k);
        goto fail;
    } else if (w->pl && !(direct && pchunk[1] == (hsize_t)k)) {
        rc = ns_error_set(w->err, NS_EINTERNAL, "%s: placed chunks need direct chunk writes and /p_positions chunks of "
                          "whole rows", w->path);
        goto fail;
    } else if (direct && pchunk[1] == (hsize_t)k) {
        if ((rc = write_direct(w, t, &sc, &st, threads, dg, gsize, ginv, dpn, dims, chunk, dp, pchunk[0])))
            goto fail;
    } else {
        /* HDF5's pipeline, one chunk at a time */
        uint64_t chunk_cells = 1;
        for (int d = 0; d < k; d++)
            chunk_cells *= chunk[d];
        if ((!t->pn_only && !(gbuf = malloc((size_t)chunk_cells * gsize))) ||
            !(pnbuf = malloc((size_t)chunk_cells))) {
            rc = ns_error_set(w->err, NS_ENOMEM, "%s: out of memory for the chunk buffers", w->path);
            goto fail;
        }
        hsize_t o[NS_MAX_DIM] = {0}, e[NS_MAX_DIM];
        for (;;) {
            for (int d = 0; d < k; d++)
                e[d] = dims[d] - o[d] < chunk[d] ? dims[d] - o[d] : chunk[d];
            gather_block(t, o, e, gbuf, gsize, ginv, pnbuf);
            if (!t->pn_only && (rc = write_block(w, "/grundy", dg, tspace, native_uint(gsize), k, o, e, gbuf)))
                goto fail;
            if ((rc = write_block(w, "/pn", dpn, tspace, H5T_NATIVE_UINT8, k, o, e, pnbuf)))
                goto fail;
            int d = k - 1;
            while (d >= 0 && (o[d] += chunk[d]) >= dims[d])
                o[d--] = 0;
            if (d < 0)
                break;
        }
        if ((rc = write_p_positions(w, t, dp, pspace, st.n_p, pchunk[0])))
            goto fail;
    }

    ns_meta ml = *m;
    /* placed, but a rank could not open the file: rank 0 wrote it alone */
    if (w->pl && w->rep && !w->rep->shared)
        snprintf(ml.mpi_write, sizeof ml.mpi_write, "rank0");
    if (m->loopy) {
        ml.n_draws = 0;
        for (uint64_t i = 0; i < t->ncells; i++)
            ml.n_draws += t->pn_only && ns_table_get(t, i) == NS_PN_DRAW;
        if (m->remoteness && (rc = ns_h5_write_remoteness(w->file, w->path, t, m->remoteness, w->err)))
            goto fail;
        if (m->gsg_value && t->pn_only && (rc = ns_h5_write_gsg(w->file, w->path, t, m, w->err)))
            goto fail;
    }
    if (m->seq_code[0] && m->seq_rare_mask && (rc = ns_h5_write_rare(w->file, w->path, m, w->err)))
        goto fail;
    if ((rc = write_attributes(w, t->k, t->bounds, t->pn_only, &ml, &st, !t->pn_only && has_invalid, ginv, gtype)))
        goto fail;

    herr_t c1 = t->pn_only ? 0 : H5Dclose(dg), c2 = H5Dclose(dpn), c3 = H5Dclose(dp);
    dg = dpn = dp = H5I_INVALID_HID;
    if (c1 < 0 || c2 < 0 || c3 < 0)
        rc = ns_h5_fail(w->err, NS_EIO, "%s: cannot close the datasets", w->path);

fail:
    close_id(&dg, H5Dclose);
    close_id(&dpn, H5Dclose);
    close_id(&dp, H5Dclose);
    close_id(&tspace, H5Sclose);
    close_id(&pspace, H5Sclose);
    free(gbuf);
    free(pnbuf);
    free(sc.p_before);
    return rc;
}

ns_err ns_h5_write(const char *path, const ns_table *t, const ns_meta *m, int flags, ns_error *err)
{
    return ns_h5_write_stats(path, t, m, flags, NULL, err);
}

/* ns_h5_write_stats, and with par (not NULL) ns_h5_write_par's file */
static ns_err write_file(const char *path, const ns_table *t, const ns_meta *m, int flags, ns_table_stats *stats,
                         const ns_h5_par *par, writer *pw, ns_error *err)
{
    ns_h5_quiet();
    struct stat sb;
    if (!(flags & NS_H5_FORCE) && stat(path, &sb) == 0)
        return ns_error_set(err, NS_EINVAL, "%s exists; use --force to overwrite", path);
    if (t->k < 1 || t->k > NS_MAX_DIM || (t->elem != 1 && t->elem != 2 && t->elem != 4))
        return ns_error_set(err, NS_EINTERNAL, "%s: cannot write a table of rank %d with %d-byte cells",
                            path, t->k, t->elem);

    ns_err rc = NS_OK;
    writer w = {path, NULL, err, H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID, stats, par, "", NULL, 0, NULL};
    hid_t fapl = H5I_INVALID_HID;
    if (pw) {   /* rank 0 of a placed write: its placing and report */
        w.pl = pw->pl;
        w.rep = pw->rep;
    }
    w.part = ns_h5_path_plus(path, ".part");
    if (!w.part)
        return ns_error_set(err, NS_ENOMEM, "%s: out of memory", path);

    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0 || H5Zfilter_avail(H5Z_FILTER_SHUFFLE) <= 0 ||
        H5Zfilter_avail(H5Z_FILTER_FLETCHER32) <= 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: this HDF5 library lacks the deflate, shuffle or fletcher32 filter", path);
        goto out;
    }
    /* strong close: H5Fclose also closes whatever a failure left open */
    fapl = par ? H5Pcopy(par->fapl) : H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot set up the file access properties", path);
        goto out;
    }
    /* placed chunks: the driver that places a chunk without writing it */
    if (w.pl && (rc = ns_h5_direct_fapl(fapl, path, err)))
        goto out;
    errno = 0;
    w.file = H5Fcreate(w.part, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (w.file < 0) {
        int e = par ? 0 : errno;   /* MPI-IO leaves errno unrelated */
        if (e) {
            H5Eclear2(H5E_DEFAULT);
            rc = ns_error_set(err, NS_EIO, "%s: cannot create %s: %s", path, w.part, strerror(e));
        } else {
            rc = ns_h5_fail(err, NS_EIO, "%s: cannot create %s", path, w.part);
        }
        goto fail;
    }
    w.scalar = H5Screate(H5S_SCALAR);
    w.vstr = H5Tcopy(H5T_C_S1);
    if (w.scalar < 0 || w.vstr < 0 || H5Tset_size(w.vstr, H5T_VARIABLE) < 0 ||
        H5Tset_cset(w.vstr, H5T_CSET_UTF8) < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot create the string type and scalar dataspace", path);
        goto fail;
    }
    ns_meta mp = *m;
    if (par) {
        /* every rank writes the same attributes: rank 0's time and clock */
        time_t now = time(NULL);
        struct tm tm;
        if (!gmtime_r(&now, &tm) || !strftime(w.created, sizeof w.created, "%Y-%m-%dT%H:%M:%SZ", &tm))
            snprintf(w.created, sizeof w.created, "unknown");
        ns_h5_par_bcast(par, w.created, sizeof w.created);
        w.created[sizeof w.created - 1] = '\0';
        ns_h5_par_bcast(par, &mp.wall_seconds, sizeof mp.wall_seconds);
    }
    if ((rc = write_contents(&w, t, &mp)))
        goto fail;
    close_id(&w.scalar, H5Sclose);
    close_id(&w.vstr, H5Tclose);
    herr_t cl = H5Fclose(w.file);
    w.file = H5I_INVALID_HID;
    if (cl < 0) {
        rc = ns_h5_fail(err, NS_EIO, "%s: cannot close (flush) %s", path, w.part);
        goto fail;
    }
    int renamed = 0, e = 0;
    if (!par || par->rank == 0) {
        renamed = rename(w.part, path) == 0;
        e = errno;
    }
    if (par) {
        /* the others return what rank 0's rename did */
        int re[2] = {renamed, e};
        ns_h5_par_bcast(par, re, sizeof re);
        renamed = re[0];
        e = re[1];
    }
    if (!renamed) {
        rc = ns_error_set(err, NS_EIO, "%s: cannot rename %s to it%s: %s", path, w.part,
                          par && par->rank ? " (on rank 0)" : "", strerror(e));
        goto fail;
    }
    goto out;

fail:
    close_id(&w.scalar, H5Sclose);
    close_id(&w.vstr, H5Tclose);
    close_id(&w.file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
    if (!par || par->rank == 0)
        remove(w.part);
out:
    close_id(&fapl, H5Pclose);
    free(w.part);
    if (pw)
        pw->pl_started = w.pl_started;
    return rc;
}

ns_err ns_h5_write_stats(const char *path, const ns_table *t, const ns_meta *m, int flags, ns_table_stats *stats,
                         ns_error *err)
{
    return write_file(path, t, m, flags, stats, NULL, NULL, err);
}

ns_err ns_h5_write_par(const char *path, const ns_table *t, const ns_meta *m, int flags, const void *comm,
                       ns_table_stats *stats, ns_error *err)
{
    ns_h5_quiet();
    if (m->loopy || m->seq_code[0])
        return ns_error_set(err, NS_EINTERNAL, "%s: the parallel writer takes two-pile and k-pile tables only, "
                            "not a loopy game's or a heap game's file", path);
    ns_h5_par par;
    ns_err rc = ns_h5_par_open(comm, path, &par, err);
    if (!rc)
        rc = write_file(path, t, m, flags, stats, &par, NULL, err);
    ns_h5_par_close(&par);
    return rc;
}

/* ns_h5_write_placed on a rank but 0: rank 0's header, then its chunks */
static ns_err placed_follow(const char *path, const ns_table *t, const ns_meta *m, ns_h5_placer *pl,
                            ns_h5_placed_report *rep, ns_error *err)
{
    int64_t hdr[3];
    ns_err rc = ns_h5_placed_header(pl, hdr, "file", rep, err);
    if (rc)
        return rc;
    const size_t gsize = (size_t)hdr[1];
    hsize_t dims[NS_MAX_DIM], chunk[NS_MAX_DIM];
    table_shape(t, gsize, dims, chunk);
    table_fill tf;
    ns_h5_chunk_job job;
    table_job(path, t, gsize, (uint32_t)hdr[2], dims, chunk, write_threads(m), H5I_INVALID_HID, H5I_INVALID_HID, &tf,
              &job);
    return ns_h5_placed_chunks(pl, H5I_INVALID_HID, &job, &rep->shared, &rep->bytes, &rep->bytes_others, err);
}

ns_err ns_h5_write_placed(const char *path, const ns_table *t, const ns_meta *m, int flags, const void *comm,
                          ns_table_stats *stats, ns_h5_placed_report *rep, ns_error *err)
{
    ns_h5_quiet();
    ns_h5_placed_report r0;
    if (!rep)
        rep = &r0;
    memset(rep, 0, sizeof *rep);
    if (m->loopy || m->seq_code[0])
        return ns_error_set(err, NS_EINTERNAL, "%s: the placed writer takes two-pile and k-pile tables only, "
                            "not a loopy game's or a heap game's file", path);
    char *part;
    ns_h5_placer *pl;
    ns_err rc = ns_h5_placer_begin(comm, path, ".part", &pl, &part, err);
    if (rc)
        return rc;   /* the same on every rank: no MPI, no memory */
    const int me = ns_h5_placer_rank(pl);
    if (me == 0) {
        writer pw;
        memset(&pw, 0, sizeof pw);
        pw.pl = pl;
        pw.rep = rep;
        rc = write_file(path, t, m, flags, stats, NULL, &pw, err);
        if (!pw.pl_started) {   /* it failed before the others had its header */
            int64_t hdr[3] = {0, 0, 0};
            ns_h5_placer_bcast(pl, hdr, sizeof hdr);
        }
    } else {
        rc = placed_follow(path, t, m, pl, rep, err);
    }
    /* rank 0's result, the file renamed or not, on every rank */
    rc = ns_h5_placed_end(pl, rc, "file", rep, err);
    free(part);
    return rc;
}

/* ---------------------------------------------------------------- reader */

typedef struct reader {
    const char *path;        /* borrowed */
    ns_error *err;
    hid_t file;
    int k;
    int64_t bounds[NS_MAX_DIM];
    int pn_only;
    uint32_t max_value;
    uint64_t n_p;
    int has_invalid;
    uint32_t invalid_value;
    hid_t data;              /* /grundy, or /pn in a P/N file */
    size_t data_size;        /* bytes per stored cell of data */
} reader;

static ns_err bad(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* NS_EFORMAT "<path>: <what>" */
static ns_err bad(reader *r, const char *fmt, ...)
{
    char what[NS_ERROR_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    H5Eclear2(H5E_DEFAULT);
    return ns_error_set(r->err, NS_EFORMAT, "%s: %s", r->path, what);
}

/* Open root attribute name. *a is H5I_INVALID_HID and NS_OK when it is
 * absent and optional. */
static ns_err attr_open(reader *r, const char *name, int required, hid_t *a)
{
    *a = H5I_INVALID_HID;
    htri_t ex = H5Aexists(r->file, name);
    if (ex < 0)
        return ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot look up attribute %s", r->path, name);
    if (ex == 0)
        return required ? bad(r, "missing root attribute %s (not a nimsieve table file?)", name) : NS_OK;
    *a = H5Aopen(r->file, name, H5P_DEFAULT);
    if (*a < 0)
        return ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot open attribute %s", r->path, name);
    return NS_OK;
}

/* Number of elements of attribute a, and its type class. */
static ns_err attr_shape(reader *r, hid_t a, const char *name, hssize_t *npoints, H5T_class_t *cls)
{
    hid_t space = H5Aget_space(a), type = H5Aget_type(a);
    ns_err rc = NS_OK;
    *npoints = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    *cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
    if (*npoints < 0 || *cls == H5T_NO_CLASS)
        rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot inspect attribute %s", r->path, name);
    close_id(&space, H5Sclose);
    close_id(&type, H5Tclose);
    return rc;
}

/* A numeric scalar attribute, converted to mtype. *found tells whether it
 * was there (for optional ones). */
static ns_err read_num(reader *r, const char *name, int required, hid_t mtype, void *out, int *found)
{
    hid_t a;
    ns_err rc = attr_open(r, name, required, &a);
    if (found)
        *found = a >= 0;
    if (rc || a < 0)
        return rc;
    hssize_t np;
    H5T_class_t cls;
    if (!(rc = attr_shape(r, a, name, &np, &cls))) {
        if (np != 1 || (cls != H5T_INTEGER && cls != H5T_FLOAT))
            rc = bad(r, "attribute %s should be a single number", name);
        else if (H5Aread(a, mtype, out) < 0)
            rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot read attribute %s", r->path, name);
    }
    H5Aclose(a);
    return rc;
}

/* A string attribute (fixed or variable length) as a malloc'ed string in
 * *out (owned by the caller); *out stays NULL when absent and optional. */
static ns_err read_str(reader *r, const char *name, int required, char **out)
{
    *out = NULL;
    hid_t a, ftype = H5I_INVALID_HID, mtype = H5I_INVALID_HID;
    ns_err rc = attr_open(r, name, required, &a);
    if (rc || a < 0)
        return rc;
    hssize_t np;
    H5T_class_t cls;
    if ((rc = attr_shape(r, a, name, &np, &cls)))
        goto done;
    if (np != 1 || cls != H5T_STRING) {
        rc = bad(r, "attribute %s should be a single string", name);
        goto done;
    }
    ftype = H5Aget_type(a);
    mtype = H5Tcopy(H5T_C_S1);
    htri_t var = ftype >= 0 ? H5Tis_variable_str(ftype) : -1;
    H5T_cset_t cset = ftype >= 0 ? H5Tget_cset(ftype) : H5T_CSET_ERROR;
    if (mtype < 0 || var < 0 || cset == H5T_CSET_ERROR || H5Tset_cset(mtype, cset) < 0) {
        rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot inspect the string type of attribute %s", r->path, name);
        goto done;
    }
    if (var) {
        char *s = NULL;
        if (H5Tset_size(mtype, H5T_VARIABLE) < 0 || H5Aread(a, mtype, &s) < 0) {
            rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot read attribute %s", r->path, name);
            goto done;
        }
        *out = strdup(s ? s : "");
        H5free_memory(s);
    } else {
        size_t n = H5Tget_size(ftype);
        char *s = n ? calloc(1, n + 1) : NULL;
        if (!s) {
            rc = ns_error_set(r->err, NS_ENOMEM, "%s: out of memory reading attribute %s", r->path, name);
            goto done;
        }
        if (H5Tset_size(mtype, n) < 0 || H5Tset_strpad(mtype, H5T_STR_NULLPAD) < 0 ||
            H5Aread(a, mtype, s) < 0) {
            free(s);
            rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot read attribute %s", r->path, name);
            goto done;
        }
        *out = s;
    }
    if (!*out)
        rc = ns_error_set(r->err, NS_ENOMEM, "%s: out of memory reading attribute %s", r->path, name);
done:
    close_id(&ftype, H5Tclose);
    close_id(&mtype, H5Tclose);
    H5Aclose(a);
    return rc;
}

/* A string attribute copied into the fixed field dst (len bytes). Too long
 * is a format error when exact, else the text is cut. */
static ns_err read_str_into(reader *r, const char *name, int required, int exact, char *dst, size_t len)
{
    char *s;
    ns_err rc = read_str(r, name, required, &s);
    if (rc || !s)
        return rc;
    if (exact && strlen(s) >= len)
        rc = bad(r, "attribute %s is %zu characters long, at most %zu expected", name, strlen(s), len - 1);
    else
        snprintf(dst, len, "%s", s);
    free(s);
    return rc;
}

static ns_err read_bounds(reader *r)
{
    hid_t a;
    ns_err rc = attr_open(r, "bounds", 1, &a);
    if (rc)
        return rc;
    hssize_t np;
    H5T_class_t cls;
    if (!(rc = attr_shape(r, a, "bounds", &np, &cls))) {
        if (cls != H5T_INTEGER || np < 1 || np > NS_MAX_DIM)
            rc = bad(r, "attribute bounds should hold 1 to %d integers", NS_MAX_DIM);
        else if (H5Aread(a, H5T_NATIVE_INT64, r->bounds) < 0)
            rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot read attribute bounds", r->path);
    }
    H5Aclose(a);
    if (rc)
        return rc;
    r->k = (int)np;
    for (int d = 0; d < r->k; d++)
        if (r->bounds[d] < 1)
            return bad(r, "attribute bounds[%d] = %" PRId64 ", expected >= 1", d, r->bounds[d]);
    if (ns_table_bytes(r->k, r->bounds, 1) == 0)
        return bad(r, "attribute bounds gives a table size that overflows");
    return NS_OK;
}

/* The optional attribute symmetric: 2..k increasing axes of equal sizes. */
static ns_err read_symmetric(reader *r, ns_meta *m)
{
    htri_t ex = H5Aexists(r->file, "symmetric");
    if (ex < 0)
        return ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot look up attribute symmetric", r->path);
    if (ex == 0)
        return NS_OK;
    hid_t a;
    ns_err rc = attr_open(r, "symmetric", 1, &a);
    if (rc)
        return rc;
    hssize_t np;
    H5T_class_t cls;
    int64_t axes[NS_MAX_DIM];
    if (!(rc = attr_shape(r, a, "symmetric", &np, &cls))) {
        if (cls != H5T_INTEGER || np < 2 || np > r->k)
            rc = bad(r, "attribute symmetric should hold 2 to %d axes", r->k);
        else if (H5Aread(a, H5T_NATIVE_INT64, axes) < 0)
            rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot read attribute symmetric", r->path);
    }
    H5Aclose(a);
    if (rc)
        return rc;
    for (int i = 0; i < (int)np; i++) {
        if (axes[i] < 0 || axes[i] >= r->k || (i && axes[i] <= axes[i - 1]))
            return bad(r, "attribute symmetric should list increasing axes in 0..%d", r->k - 1);
        if (r->bounds[axes[i]] != r->bounds[axes[0]])
            return bad(r, "attribute symmetric lists axes %" PRId64 " and %" PRId64 " of different sizes", axes[0], axes[i]);
        m->sym[i] = (int)axes[i];
    }
    m->nsym = (int)np;
    return NS_OK;
}

/* Open dataset name and check it: rank and dims,
 * an integer type (unsigned when want_unsigned) of one of the sizes in
 * sizes (a 0-terminated list). *out: the open dataset (caller closes),
 * *size: its element size. */
static ns_err open_dataset(reader *r, const char *name, int rank, const hsize_t *dims, int want_unsigned,
                           const size_t *sizes, hid_t *out, size_t *size)
{
    *out = H5I_INVALID_HID;
    htri_t ex = H5Lexists(r->file, name, H5P_DEFAULT);
    if (ex < 0)
        return ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot look up dataset %s", r->path, name);
    if (ex == 0)
        return bad(r, "missing dataset %s", name);
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    if (d < 0)
        return ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot open dataset %s", r->path, name);
    hid_t space = H5Dget_space(d), type = H5Dget_type(d);
    ns_err rc = NS_OK;
    hsize_t got[H5S_MAX_RANK];
    int grank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    if (type < 0 || grank < 0 || grank > H5S_MAX_RANK || H5Sget_simple_extent_dims(space, got, NULL) < 0) {
        rc = ns_h5_fail(r->err, NS_EFORMAT, "%s: cannot inspect dataset %s", r->path, name);
        goto done;
    }
    if (grank != rank) {
        rc = bad(r, "dataset %s has rank %d, expected %d (from attribute bounds)", name, grank, rank);
        goto done;
    }
    for (int i = 0; i < rank; i++) {
        if (got[i] != dims[i]) {
            char gs[160], ws[160];
            format_dims(rank, got, gs, sizeof gs);
            format_dims(rank, dims, ws, sizeof ws);
            rc = bad(r, "dataset %s has shape %s, expected %s (from attributes bounds, n_p_positions)",
                     name, gs, ws);
            goto done;
        }
    }
    size_t tsize = H5Tget_size(type);
    int ok_size = 0;
    for (const size_t *s = sizes; *s; s++)
        ok_size |= *s == tsize;
    if (H5Tget_class(type) != H5T_INTEGER || !ok_size ||
        (want_unsigned && H5Tget_sign(type) != H5T_SGN_NONE)) {
        rc = bad(r, "dataset %s has an unexpected type (%s integers of %s bytes expected)", name,
                 want_unsigned ? "unsigned" : "", sizes[1] ? "1, 2 or 4" : "1");
        goto done;
    }
    *size = tsize;
    *out = d;
    d = H5I_INVALID_HID;
done:
    close_id(&space, H5Sclose);
    close_id(&type, H5Tclose);
    close_id(&d, H5Dclose);
    return rc;
}

/* Open path, read and check every attribute and the datasets' shapes.
 * On success r->file and r->data are open (see close_reader) and m is
 * filled (m->rules_text owned by m). */
static ns_err open_reader(reader *r, const char *path, ns_meta *m, ns_error *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->err = err;
    r->file = r->data = H5I_INVALID_HID;
    ns_h5_quiet();
    meta_init(m);

    struct stat sb;
    if (stat(path, &sb) != 0)
        return ns_error_set(err, NS_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return ns_error_set(err, NS_EIO, "%s: not a regular file", path);
    r->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (r->file < 0)
        return ns_h5_fail(err, NS_EFORMAT, "%s: not an HDF5 file, or truncated or damaged", path);

    ns_err rc;
    char kind[16] = "", play[16] = "";
    int complete = 0, found;
    uint32_t invalid = 0;
    if ((rc = read_bounds(r)) ||
        (rc = read_str_into(r, "kind", 1, 1, kind, sizeof kind)) ||
        (rc = read_num(r, "complete", 0, H5T_NATIVE_INT, &complete, &found)))
        goto fail;
    if (!found) {
        rc = bad(r, "incomplete table (no attribute complete, expected complete = 1): the run that wrote it "
                 "did not finish, or it is not a nimsieve table");
        goto fail;
    }
    if (strcmp(kind, "grundy") == 0)
        r->pn_only = 0;
    else if (strcmp(kind, "pn") == 0)
        r->pn_only = 1;
    else {
        rc = bad(r, "attribute kind is \"%s\", expected \"grundy\" or \"pn\"", kind);
        goto fail;
    }
    if (complete != 1) {
        if (H5Aexists(r->file, "checkpoint_units_done") > 0)
            rc = bad(r, "incomplete table (attribute complete = %d, expected 1): a checkpoint of an unfinished solve; "
                     "finish it with 'nimsieve solve ... --resume'", complete);
        else
            rc = bad(r, "incomplete table (attribute complete = %d, expected 1): the run that wrote it did not finish",
                     complete);
        goto fail;
    }
    if ((rc = read_str_into(r, "game", 1, 1, m->game, sizeof m->game)) ||
        (rc = read_str(r, "rules", 0, &m->rules_text)) ||
        (rc = read_str_into(r, "rules_file", 0, 0, m->rules_file, sizeof m->rules_file)) ||
        (rc = read_str_into(r, "params", 1, 1, m->params, sizeof m->params)) ||
        (rc = read_str_into(r, "play", 1, 1, play, sizeof play)) ||
        (rc = read_str_into(r, "engine", 0, 0, m->engine, sizeof m->engine)) ||
        (rc = read_num(r, "mpi_ranks", 0, H5T_NATIVE_INT, &m->mpi_ranks, NULL)) ||
        (rc = read_str_into(r, "mpi_write", 0, 0, m->mpi_write, sizeof m->mpi_write)) ||
        (rc = read_str_into(r, "mpi_sets", 0, 0, m->mpi_sets, sizeof m->mpi_sets)) ||
        (rc = read_num(r, "threads", 0, H5T_NATIVE_INT, &m->threads, NULL)) ||
        (rc = read_num(r, "wall_seconds", 0, H5T_NATIVE_DOUBLE, &m->wall_seconds, NULL)) ||
        (rc = read_num(r, "max_value", 1, H5T_NATIVE_UINT32, &r->max_value, NULL)) ||
        (rc = read_num(r, "n_p_positions", 1, H5T_NATIVE_UINT64, &r->n_p, NULL)) ||
        (rc = read_num(r, "invalid_value", 0, H5T_NATIVE_UINT32, &invalid, &found)) ||
        (rc = read_str_into(r, "created_utc", 0, 0, m->created_utc, sizeof m->created_utc)) ||
        (rc = read_str_into(r, "nimsieve_version", 0, 0, m->nimsieve_version, sizeof m->nimsieve_version)) ||
        (rc = read_str_into(r, "git_revision", 0, 0, m->git_revision, sizeof m->git_revision)) ||
        (rc = read_str_into(r, "hdf5_version", 0, 0, m->hdf5_version, sizeof m->hdf5_version)) ||
        (rc = read_str_into(r, "gsl_version", 0, 0, m->gsl_version, sizeof m->gsl_version)) ||
        (rc = read_str_into(r, "compiler", 0, 0, m->compiler, sizeof m->compiler)) ||
        (rc = read_symmetric(r, m)) ||
        (rc = read_str_into(r, "code", 0, 1, m->seq_code, sizeof m->seq_code)) ||
        (rc = read_num(r, "argmax", 0, H5T_NATIVE_INT64, &m->seq_argmax, NULL)) ||
        (rc = read_num(r, "period", 0, H5T_NATIVE_INT64, &m->seq_period, &m->seq_has_period)) ||
        (rc = read_num(r, "preperiod", 0, H5T_NATIVE_INT64, &m->seq_preperiod, NULL)) ||
        (rc = read_num(r, "saltus", 0, H5T_NATIVE_INT64, &m->seq_saltus, NULL)) ||
        (rc = read_num(r, "period_proven", 0, H5T_NATIVE_INT, &m->seq_proven, NULL)) ||
        (rc = read_num(r, "rare_mask", 0, H5T_NATIVE_UINT32, &m->seq_rare_mask, NULL)) ||
        (rc = read_num(r, "n_rare", 0, H5T_NATIVE_INT64, &m->seq_nrare, NULL)) ||
        (rc = read_num(r, "loopy", 0, H5T_NATIVE_INT, &m->loopy, NULL)) ||
        (rc = read_num(r, "n_draws", 0, H5T_NATIVE_UINT64, &m->n_draws, NULL)) ||
        (rc = read_num(r, "gsg_n_infinite", 0, H5T_NATIVE_UINT64, &m->gsg_ninf, &m->gsg)) ||
        (rc = read_num(r, "gsg_max_finite", 0, H5T_NATIVE_UINT32, &m->gsg_max_finite, NULL)))
        goto fail;
    if (strcmp(play, "normal") == 0)
        m->play = NS_PLAY_NORMAL;
    else if (strcmp(play, "misere") == 0)
        m->play = NS_PLAY_MISERE;
    else {
        rc = bad(r, "attribute play is \"%s\", expected \"normal\" or \"misere\"", play);
        goto fail;
    }
    m->pn_only = r->pn_only;
    m->complete = 1;
    r->has_invalid = found;
    r->invalid_value = invalid;
    m->max_value = r->max_value;
    m->n_p_positions = r->n_p;
    m->has_invalid = found;
    m->invalid_value = invalid;

    hsize_t dims[NS_MAX_DIM];
    for (int d = 0; d < r->k; d++)
        dims[d] = (hsize_t)r->bounds[d];
    static const size_t grundy_sizes[] = {1, 2, 4, 0}, byte_size[] = {1, 0}, i64_size[] = {8, 0};
    hid_t pn = H5I_INVALID_HID, pp = H5I_INVALID_HID;
    size_t pn_size, pp_size;
    if (!r->pn_only &&
        (rc = open_dataset(r, "/grundy", r->k, dims, 1, grundy_sizes, &r->data, &r->data_size)))
        goto fail;
    if ((rc = open_dataset(r, "/pn", r->k, dims, 1, byte_size, &pn, &pn_size)))
        goto fail;
    hsize_t pdims[2] = {r->n_p, (hsize_t)r->k};
    rc = open_dataset(r, "/p_positions", 2, pdims, 0, i64_size, &pp, &pp_size);
    close_id(&pp, H5Dclose);
    if (rc) {
        close_id(&pn, H5Dclose);
        goto fail;
    }
    if (r->pn_only) {
        r->data = pn;
        r->data_size = 1;
    } else {
        close_id(&pn, H5Dclose);
    }

    /* the value range the data may hold */
    const uint64_t type_max = r->pn_only ? 2 : ((uint64_t)1 << (8 * r->data_size)) - 1;
    if (r->pn_only && r->max_value > (m->loopy ? 3u : 1u)) {
        rc = bad(r, "attribute max_value = %" PRIu32 " in a P/N file, expected 0 or 1%s", r->max_value,
                 m->loopy ? " (or 3: draws of a loopy game)" : "");
        goto fail;
    }
    if (!r->pn_only && r->max_value > type_max) {
        rc = bad(r, "attribute max_value = %" PRIu32 " does not fit the type of /grundy", r->max_value);
        goto fail;
    }
    if (!r->pn_only && r->has_invalid && (r->invalid_value <= r->max_value || r->invalid_value > type_max)) {
        rc = bad(r, "attribute invalid_value = %" PRIu32 ", expected above max_value %" PRIu32
                 " and within the type of /grundy", r->invalid_value, r->max_value);
        goto fail;
    }
    return NS_OK;

fail:
    close_id(&r->data, H5Dclose);
    close_id(&r->file, H5Fclose);
    ns_meta_free(m);
    return rc;
}

static void close_reader(reader *r)
{
    close_id(&r->data, H5Dclose);
    close_id(&r->file, H5Fclose);
    H5Eclear2(H5E_DEFAULT);
}

ns_err ns_h5_read_meta(const char *path, ns_meta *m, int *k, int64_t *bounds, ns_error *err)
{
    reader r;
    ns_err rc = open_reader(&r, path, m, err);
    if (rc)
        return rc;
    *k = r.k;
    for (int d = 0; d < r.k; d++)
        bounds[d] = r.bounds[d];
    close_reader(&r);
    return NS_OK;
}

ns_err ns_h5_read(const char *path, ns_table **out, ns_meta *m, ns_error *err)
{
    *out = NULL;
    reader r;
    ns_err rc = open_reader(&r, path, m, err);
    if (rc)
        return rc;

    /* never narrower than the stored type, so no value is clipped */
    int elem = r.pn_only ? 1 : ns_table_elem_for(r.max_value);
    if (!r.pn_only && elem == 0) {
        rc = bad(&r, "attribute max_value = %" PRIu32 " is too large for a table", r.max_value);
        goto fail;
    }
    if ((size_t)elem < r.data_size)
        elem = (int)r.data_size;
    ns_table *t = ns_table_new(r.k, r.bounds, elem, r.pn_only, err);
    if (!t) {
        rc = err && err->code ? err->code : NS_ENOMEM;
        goto fail;
    }
    const char *name = r.pn_only ? "/pn" : "/grundy";
    if (H5Dread(r.data, native_uint((size_t)elem), H5S_ALL, H5S_ALL, H5P_DEFAULT, t->data) < 0) {
        rc = ns_h5_fail(err, NS_EFORMAT, "%s: cannot read dataset %s: checksum mismatch or corrupt data", path, name);
        ns_table_free(t);
        goto fail;
    }

    const uint32_t tinv = ns_table_invalid(t);
    const uint32_t finv = r.pn_only ? NS_PN_INVALID : r.invalid_value;
    const int has_invalid = r.pn_only || r.has_invalid;
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t v = ns_table_get(t, i);
        if (has_invalid && v == finv) {
            ns_table_set(t, i, tinv);
        } else if (v > r.max_value) {
            int64_t s[NS_MAX_DIM];
            char pos[256];
            ns_table_coords(t, i, s);
            ns_format_pos(t->k, s, pos, sizeof pos);
            rc = bad(&r, "dataset %s holds %" PRIu32 " at %s, above attribute max_value %" PRIu32
                     " (corrupt file)", name, v, pos, r.max_value);
            ns_table_free(t);
            goto fail;
        }
    }
    ns_sym_fill(t, m->nsym, m->sym);
    close_reader(&r);
    *out = t;
    return NS_OK;

fail:
    close_reader(&r);
    ns_meta_free(m);
    return rc;
}
