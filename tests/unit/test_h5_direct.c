/* test_h5_direct.c - the filtered direct chunk writes against HDF5 itself:
 *  - Fletcher-32: the checksum HDF5's own fletcher32 filter appends (read
 *    raw with H5Dread_chunk) equals ns_fletcher32 for chunks of odd and
 *    even byte lengths, and chunks written directly with ns_fletcher32 read
 *    back through HDF5's verification (a wrong checksum fails the read);
 *  - the whole pipeline: NS_DEFLATE_PLAIN chunks equal, byte for byte, what
 *    HDF5 writes with shuffle + deflate(1) + fletcher32;
 *  - ns_h5_write_chunks (NS_DEFLATE_PLANES) on 1-, 2- and 3-D datasets with
 *    edge chunks and several element sizes reads back exactly, the chunks
 *    do not depend on the number of threads, and a flipped byte fails;
 *  - a one-byte dataset with fill value 1 written with skip = 1: the chunks
 *    all 1 are not stored (H5Dget_num_chunks), the others are, and every
 *    reader gets the whole array back (unstored chunks as the fill value);
 *  - put mode (the rounds of placed chunks across MPI ranks) hands every
 *    chunk once, in order, and the file equals the plain write's chunk for
 *    chunk; it keeps taking rounds while other ranks have batches (also
 *    with no chunk of its own) and stops in the round that fails;
 *  - a table file of ns_h5_write is read by h5py and h5dump as they are.
 * The tests may include hdf5.h; the library's code outside ns_h5*.c not. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "store/ns_chunkfilter.h"
#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"
#include "testutil.h"

static char dir[64];

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static int rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

/* A dataset of n elements of type `type` in a new file, 1-D, one chunk of
 * n elements, with the filters asked for. */
static hid_t make_dataset(hid_t file, const char *name, hid_t type, hsize_t n, int full_pipeline)
{
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(pl, 1, &n);
    if (full_pipeline) {
        H5Pset_shuffle(pl);
        H5Pset_deflate(pl, 1);
    }
    H5Pset_fletcher32(pl);
    hid_t d = H5Dcreate2(file, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    H5Pclose(pl);
    H5Sclose(sp);
    return d;
}

/* The stored bytes of the chunk at offset 0 of d: malloc'ed, *len bytes. */
static uint8_t *read_raw_chunk(hid_t d, const hsize_t *off, size_t *len, uint32_t *mask)
{
    hsize_t sz = 0;
    *len = 0;
    if (H5Dget_chunk_storage_size(d, off, &sz) < 0 || sz == 0)
        return NULL;
    uint8_t *b = malloc((size_t)sz);
    if (b && H5Dread_chunk(d, H5P_DEFAULT, off, mask, b) < 0) {
        free(b);
        return NULL;
    }
    *len = (size_t)sz;
    return b;
}

static void fill_bytes(uint8_t *p, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++)
        p[i] = kind == 0 ? (uint8_t)ns_test_rng() : kind == 1 ? 0xFF : kind == 2 ? 0 : (uint8_t)(i / 3 % 5);
}

/* ---- Fletcher-32 as HDF5 computes it ---- */

static void test_fletcher_vs_hdf5(void)
{
    char p[256];
    path_in(p, sizeof p, "fletcher.h5");
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    const hsize_t lens[] = {1, 2, 3, 4, 5, 719, 720, 721, 722, 65535, 65536, 131073, 262144, 300001};
    int checked = 0, odd = 0;
    uint8_t *buf = malloc(300001 + 4), *back = malloc(300001);
    for (size_t j = 0; j < sizeof lens / sizeof lens[0]; j++) {
        for (int kind = 0; kind < 4; kind++) {
            const hsize_t n = lens[j];
            char name[64];
            snprintf(name, sizeof name, "/hdf5_%zu_%d", j, kind);
            fill_bytes(buf, (size_t)n, kind);
            /* HDF5's own filter: the stored chunk is the data and its sum */
            hid_t d = make_dataset(f, name, H5T_NATIVE_UINT8, n, 0);
            CHECK(d >= 0 && H5Dwrite(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
            hsize_t off = 0;
            size_t len = 0;
            uint32_t mask = 99;
            uint8_t *raw = read_raw_chunk(d, &off, &len, &mask);
            CHECKF(raw && len == n + 4 && mask == 0, "chunk of %llu bytes: stored %zu", (unsigned long long)n, len);
            if (raw && len == n + 4) {
                const uint32_t h = (uint32_t)raw[n] | (uint32_t)raw[n + 1] << 8 | (uint32_t)raw[n + 2] << 16 |
                                   (uint32_t)raw[n + 3] << 24;
                const uint32_t mine = ns_fletcher32(buf, (size_t)n);
                CHECKF(h == mine, "%llu bytes, kind %d: HDF5 0x%08" PRIx32 ", ns_fletcher32 0x%08" PRIx32,
                       (unsigned long long)n, kind, h, mine);
                checked++;
                odd += (int)(n & 1);
            }
            free(raw);
            H5Dclose(d);

            /* our checksum, written directly, read through HDF5's check */
            snprintf(name, sizeof name, "/direct_%zu_%d", j, kind);
            d = make_dataset(f, name, H5T_NATIVE_UINT8, n, 0);
            const uint32_t mine = ns_fletcher32(buf, (size_t)n);
            for (int b = 0; b < 4; b++)
                buf[n + (hsize_t)b] = (uint8_t)(mine >> (8 * b));
            CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 0, &off, (size_t)n + 4, buf) >= 0);
            memset(back, 0x5A, (size_t)n);
            herr_t st = H5Dread(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, back);
            CHECKF(st >= 0 && memcmp(back, buf, (size_t)n) == 0, "direct chunk of %llu bytes, kind %d",
                   (unsigned long long)n, kind);
            H5Dclose(d);

            /* a wrong checksum fails the read */
            snprintf(name, sizeof name, "/wrong_%zu_%d", j, kind);
            d = make_dataset(f, name, H5T_NATIVE_UINT8, n, 0);
            buf[n] ^= 1;
            CHECK(H5Dwrite_chunk(d, H5P_DEFAULT, 0, &off, (size_t)n + 4, buf) >= 0);
            H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
            st = H5Dread(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, back);
            CHECKF(st < 0, "a wrong checksum was accepted (%llu bytes, kind %d)", (unsigned long long)n, kind);
            H5Eclear2(H5E_DEFAULT);
            H5Dclose(d);
        }
    }
    CHECK(checked == 4 * (int)(sizeof lens / sizeof lens[0]) && odd > 0 && odd < checked);
    free(buf);
    free(back);
    H5Fclose(f);
}

/* ---- the whole pipeline, byte for byte ---- */

static void test_plain_equals_hdf5(void)
{
    char p[256];
    path_in(p, sizeof p, "pipeline.h5");
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t types[] = {H5T_STD_U8LE, H5T_STD_U16LE, H5T_STD_U32LE, H5T_STD_I64LE};
    const size_t sizes[] = {1, 2, 4, 8};
    const hsize_t counts[] = {1, 7, 1000, 4099, 65536};
    const size_t maxb = 65536 * 8;
    uint8_t *buf = malloc(maxb), *mine = malloc(ns_chunkfilter_bound(maxb));
    ns_error err = {0};
    ns_chunkfilter *flt = ns_chunkfilter_new(maxb, 1, NS_DEFLATE_PLAIN, &err);
    CHECKF(flt != NULL, "%s", err.msg);
    int same = 0, total = 0, odd = 0;
    for (int t = 0; t < 4 && flt; t++) {
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            for (int kind = 0; kind < 4; kind++) {
                const hsize_t n = counts[c];
                const size_t nb = (size_t)n * sizes[t];
                /* values of the kind, little-endian */
                for (size_t i = 0; i < nb; i++) {
                    const size_t e = i / sizes[t], b = i % sizes[t];
                    buf[i] = kind == 0 ? (uint8_t)ns_test_rng() : kind == 1 ? (uint8_t)(b == 0 ? ns_test_rng() : e >> 9)
                           : kind == 2 ? 0 : (uint8_t)((e * e) >> (3 * b));
                }
                char name[64];
                snprintf(name, sizeof name, "/d_%d_%zu_%d", t, c, kind);
                hid_t d = make_dataset(f, name, types[t], n, 1);
                CHECK(H5Dwrite(d, types[t], H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
                hsize_t off = 0;
                size_t len = 0, mlen = 0;
                uint32_t mask = 99;
                uint8_t *raw = read_raw_chunk(d, &off, &len, &mask);
                CHECK(ns_chunkfilter_run(flt, buf, nb, sizes[t], mine, ns_chunkfilter_bound(maxb), &mlen, &err) ==
                      NS_OK);
                total++;
                if (raw && mask == 0 && len == mlen && memcmp(raw, mine, len) == 0)
                    same++;
                else
                    fprintf(stderr, "type %d, %llu values, kind %d: HDF5 stored %zu bytes (mask %u), we %zu\n", t,
                            (unsigned long long)n, kind, len, (unsigned)mask, mlen);
                odd += (int)((mlen - 4) & 1);
                free(raw);
                H5Dclose(d);
            }
        }
    }
    CHECKF(same == total && total == 80, "%d of %d chunks byte for byte as HDF5 writes them", same, total);
    CHECKF(odd > 0 && odd < total, "deflate streams of odd length: %d of %d", odd, total);
    ns_chunkfilter_free(flt);
    free(buf);
    free(mine);
    H5Fclose(f);
}

/* ---- ns_h5_write_chunks ---- */

/* A dense array of values as the source: element i at data + i * elem. */
typedef struct src_array {
    const uint8_t *data;
    size_t elem;
    int rank;
    hsize_t dims[3], chunk[3];
} src_array;

static void fill_from_array(void *user, const hsize_t *off, void *const *bufs)
{
    const src_array *s = user;
    uint8_t *out = bufs[0];
    hsize_t cells = 1;
    for (int d = 0; d < s->rank; d++)
        cells *= s->chunk[d];
    for (hsize_t c = 0; c < cells; c++) {
        /* coordinates of cell c of the chunk */
        hsize_t rest = c, idx = 0, stride = 1;
        int inside = 1;
        hsize_t pos[3];
        for (int d = s->rank - 1; d >= 0; d--) {
            pos[d] = off[d] + rest % s->chunk[d];
            rest /= s->chunk[d];
            inside &= pos[d] < s->dims[d];
        }
        for (int d = s->rank - 1; d >= 0; d--) {
            idx += pos[d] * stride;
            stride *= s->dims[d];
        }
        if (inside)
            memcpy(out + c * s->elem, s->data + idx * s->elem, s->elem);
        else
            memset(out + c * s->elem, 0, s->elem);
    }
}

/* Write the array through ns_h5_write_chunks with the given thread count
 * into dataset "/x" of path; returns 0 on success. skip: the job's skip
 * byte, also the dataset's fill value (-1: every chunk written, fill 0). */
static int write_array_skip(const char *path, const src_array *s, hid_t type, int threads, int skip)
{
    ns_error err = {0};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const uint8_t fillv = (uint8_t)skip;
    hid_t d = ns_h5_create_chunked(f, path, "/x", type, s->rank, s->dims, NULL, s->chunk, skip >= 0 ? &fillv : NULL,
                                   &err);
    CHECKF(d >= 0, "%s", err.msg);
    ns_h5_chunk_job job = {.path = path, .n = 1, .dset = {d}, .name = {"/x"}, .elem = {s->elem}, .skip = {skip},
                           .rank = s->rank, .fill = fill_from_array, .user = (void *)s, .threads = threads};
    for (int i = 0; i < s->rank; i++) {
        job.dims[i] = s->dims[i];
        job.chunk[i] = s->chunk[i];
    }
    job.first = 0;
    job.count = ns_h5_chunk_count(&job);
    ns_err rc = ns_h5_write_chunks(&job, &err);
    CHECKF(rc == NS_OK, "write_chunks: %s", err.msg);
    H5Dclose(d);
    H5Fclose(f);
    return rc != NS_OK;
}

static int write_array(const char *path, const src_array *s, hid_t type, int threads)
{
    return write_array_skip(path, s, type, threads, -1);
}

/* Every stored chunk of /x in path, concatenated (malloc'ed, *len). */
static uint8_t *all_chunks(const char *path, const src_array *s, size_t *len)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/x", H5P_DEFAULT);
    uint8_t *all = NULL;
    *len = 0;
    hsize_t grid[3], n = 1;
    for (int i = 0; i < s->rank; i++) {
        grid[i] = (s->dims[i] + s->chunk[i] - 1) / s->chunk[i];
        n *= grid[i];
    }
    for (hsize_t c = 0; c < n; c++) {
        hsize_t off[3], rest = c;
        for (int i = s->rank - 1; i >= 0; i--) {
            off[i] = rest % grid[i] * s->chunk[i];
            rest /= grid[i];
        }
        size_t l = 0;
        uint32_t mask = 0;
        uint8_t *raw = read_raw_chunk(d, off, &l, &mask);
        CHECK(raw != NULL && mask == 0);
        uint8_t *grown = realloc(all, *len + l + 1);
        if (raw && grown) {
            memcpy(grown + *len, raw, l);
            *len += l;
        }
        all = grown ? grown : all;
        free(raw);
    }
    H5Dclose(d);
    H5Fclose(f);
    return all;
}

static void test_write_chunks(void)
{
    const struct {
        int rank;
        hsize_t dims[3], chunk[3];
        size_t elem;
        hid_t ftype, mtype;
    } cases[] = {
        {1, {100003}, {4096}, 2, H5T_STD_U16LE, H5T_NATIVE_UINT16},
        {2, {300, 517}, {64, 128}, 2, H5T_STD_U16LE, H5T_NATIVE_UINT16},
        {2, {257, 1000}, {32, 1000}, 1, H5T_STD_U8LE, H5T_NATIVE_UINT8},
        {3, {17, 33, 65}, {8, 8, 16}, 4, H5T_STD_U32LE, H5T_NATIVE_UINT32},
        {2, {5000, 3}, {1024, 3}, 8, H5T_STD_I64LE, H5T_NATIVE_INT64},
        {2, {3, 5}, {3, 5}, 2, H5T_STD_U16LE, H5T_NATIVE_UINT16},
    };
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        src_array s = {.elem = cases[ci].elem, .rank = cases[ci].rank};
        uint64_t cells = 1;
        for (int d = 0; d < s.rank; d++) {
            s.dims[d] = cases[ci].dims[d];
            s.chunk[d] = cases[ci].chunk[d];
            cells *= s.dims[d];
        }
        const size_t nb = (size_t)cells * s.elem;
        uint8_t *data = malloc(nb), *back = malloc(nb);
        /* Grundy-like: the low byte random, the higher ones slowly growing */
        for (size_t i = 0; i < nb; i++)
            data[i] = i % s.elem == 0 ? (uint8_t)ns_test_rng() : (uint8_t)((i / s.elem) >> (10 + 3 * (i % s.elem)));
        s.data = data;

        uint8_t *first = NULL;
        size_t first_len = 0;
        for (int threads = 1; threads <= 3; threads++) {
            char p[256], name[64];
            snprintf(name, sizeof name, "chunks_%zu_%d.h5", ci, threads);
            path_in(p, sizeof p, name);
            if (write_array(p, &s, cases[ci].ftype, threads))
                continue;
            hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
            hid_t d = H5Dopen2(f, "/x", H5P_DEFAULT);
            memset(back, 0xEE, nb);
            CHECKF(H5Dread(d, cases[ci].mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 &&
                   memcmp(back, data, nb) == 0, "case %zu, %d threads: read back differs", ci, threads);
            H5Dclose(d);
            H5Fclose(f);
            size_t len = 0;
            uint8_t *chunks = all_chunks(p, &s, &len);
            if (threads == 1) {
                first = chunks;
                first_len = len;
            } else {
                CHECKF(chunks && len == first_len && memcmp(chunks, first, len) == 0,
                       "case %zu: the chunks with %d threads differ from those with 1", ci, threads);
                free(chunks);
            }
        }
        free(first);
        free(data);
        free(back);
    }

    /* a flipped byte inside a chunk fails the read */
    src_array s = {.elem = 2, .rank = 2, .dims = {256, 256}, .chunk = {64, 256}};
    uint16_t *vals = malloc(256 * 256 * 2), *back = malloc(256 * 256 * 2);
    for (int i = 0; i < 256 * 256; i++)
        vals[i] = (uint16_t)((i / 256) ^ (i % 256));
    s.data = (const uint8_t *)vals;
    char p[256];
    path_in(p, sizeof p, "flip.h5");
    if (!write_array(p, &s, H5T_STD_U16LE, 2)) {
        hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t d = H5Dopen2(f, "/x", H5P_DEFAULT);
        hsize_t off[2] = {128, 0};
        haddr_t addr = HADDR_UNDEF;
        hsize_t size = 0;
        /* the chunk's place in the file: its bytes are the stored chunk */
        size_t l = 0;
        uint32_t mask;
        uint8_t *raw = read_raw_chunk(d, off, &l, &mask);
        H5Dget_chunk_storage_size(d, off, &size);
        H5Dclose(d);
        H5Fclose(f);
        FILE *g = fopen(p, "r+b");
        long at = -1;
        if (g && raw && l > 64) {
            /* find the stored chunk in the file by its first 64 bytes */
            fseek(g, 0, SEEK_END);
            long fsz = ftell(g);
            uint8_t *whole = malloc((size_t)fsz);
            fseek(g, 0, SEEK_SET);
            if (whole && fread(whole, 1, (size_t)fsz, g) == (size_t)fsz)
                for (long i = 0; i + (long)l <= fsz && at < 0; i++)
                    if (memcmp(whole + i, raw, 64) == 0)
                        at = i;
            free(whole);
            CHECK(at >= 0);
            if (at >= 0) {
                fseek(g, at + (long)l / 2, SEEK_SET);
                int c = fgetc(g);
                fseek(g, at + (long)l / 2, SEEK_SET);
                fputc(c ^ 0x01, g);
            }
        }
        if (g)
            fclose(g);
        (void)addr;
        free(raw);
        f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
        d = H5Dopen2(f, "/x", H5P_DEFAULT);
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
        CHECKF(at >= 0 && H5Dread(d, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0,
               "a flipped byte in chunk 3 was not caught");
        H5Eclear2(H5E_DEFAULT);
        H5Dclose(d);
        H5Fclose(f);
    }
    free(vals);
    free(back);
}

/* ---- h5py and h5dump read a table file as it is ---- */

/* Put mode (ns_h5_put_fn, the rounds of placed chunks across MPI ranks),
 * one process standing for rank 0 of a job whose other ranks have `extra`
 * rounds more: the fake put writes each batch itself with H5Dwrite_chunk,
 * checks that the batches follow each other and says "more" until the
 * others' rounds are done; stop_at > 0 fails the round of that number. */
typedef struct fake_put {
    hid_t d;
    uint64_t next;       /* the chunk the next batch must start at */
    int calls, lasts, extra, stop_at, empty_after_last, bad;
    const ns_h5_chunk_job *job;
} fake_put;

static ns_err put_fake(void *user, uint64_t first, uint64_t n, const size_t *len, const uint8_t *const *buf,
                       int failed, int last, int *more, ns_error *err)
{
    fake_put *f = user;
    f->calls++;
    if (failed || (f->lasts && n) || (!f->lasts && first != f->next))
        f->bad++;
    if (f->stop_at && f->calls == f->stop_at)
        return ns_error_set(err, NS_EIO, "rank 1 failed to write its chunks (test)");
    for (uint64_t i = 0; i < n; i++) {
        hsize_t off[3] = {0, 0, 0};
        ns_h5_chunk_offset(f->job, first + i, off);
        if (len[i] && H5Dwrite_chunk(f->d, H5P_DEFAULT, 0, off, len[i], buf[i]) < 0)
            f->bad++;
    }
    f->next = first + n;
    if (f->lasts)
        f->empty_after_last++;
    if (last)
        f->lasts++;
    *more = f->lasts && f->empty_after_last >= f->extra ? 0 : 1;
    return NS_OK;
}

static void test_put_mode(void)
{
    enum { N0 = 700, N1 = 450 };
    uint16_t *v = malloc((size_t)N0 * N1 * sizeof *v);
    for (size_t i = 0; i < (size_t)N0 * N1; i++)
        v[i] = (uint16_t)(i * 2654435761u >> 20);
    const src_array s = {(const uint8_t *)v, 2, 2, {N0, N1}, {64, 128}};
    char ref[256], got[256];
    path_in(ref, sizeof ref, "put_ref.h5");
    CHECK(write_array(ref, &s, H5T_STD_U16LE, 2) == 0);
    size_t rl = 0;
    uint8_t *rb = all_chunks(ref, &s, &rl);
    for (int extra = 0; extra <= 3; extra += 3)
        for (int threads = 1; threads <= 3; threads += 2)
            for (int stop_at = 0; stop_at <= 2; stop_at += 2) {
                path_in(got, sizeof got, "put_got.h5");
                ns_error err = {0};
                hid_t f = H5Fcreate(got, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
                hid_t d = ns_h5_create_chunked(f, got, "/x", H5T_STD_U16LE, 2, s.dims, NULL, s.chunk, NULL, &err);
                ns_h5_chunk_job job = {.path = got, .n = 1, .dset = {H5I_INVALID_HID}, .name = {"/x"},
                                       .elem = {2}, .skip = {-1}, .rank = 2, .dims = {N0, N1}, .chunk = {64, 128},
                                       .fill = fill_from_array, .user = (void *)&s, .threads = threads};
                job.count = ns_h5_chunk_count(&job);
                fake_put fp = {.d = d, .extra = extra, .stop_at = stop_at, .job = &job};
                job.put = put_fake;
                job.put_user = &fp;
                const ns_err rc = ns_h5_write_chunks(&job, &err);
                H5Dclose(d);
                H5Fclose(f);
                CHECKF(fp.bad == 0, "put mode (extra %d, %d threads): %d bad calls", extra, threads, fp.bad);
                if (stop_at) {
                    /* the round that stops ends the rounds on this rank too */
                    CHECKF(rc == NS_EIO && strstr(err.msg, "rank 1 failed") && fp.calls == stop_at,
                           "put mode, stopped in round %d: rc %d, %d calls, '%s'", stop_at, rc, fp.calls, err.msg);
                    continue;
                }
                CHECKF(rc == NS_OK, "put mode: %s", err.msg);
                /* every chunk once, in order, then the others' rounds empty */
                CHECKF(fp.next == job.count && fp.lasts == 1 + extra && fp.empty_after_last == extra,
                       "put mode (extra %d): next %llu of %llu, %d lasts, %d empty", extra,
                       (unsigned long long)fp.next, (unsigned long long)job.count, fp.lasts, fp.empty_after_last);
                size_t gl = 0;
                uint8_t *gb = all_chunks(got, &s, &gl);
                CHECKF(gb && gl == rl && memcmp(gb, rb, rl) == 0, "put mode (extra %d, %d threads): other chunks",
                       extra, threads);
                free(gb);
            }
    /* a rank with no chunk of its own (count 0) still takes every round */
    {
        ns_error err = {0};
        ns_h5_chunk_job job = {.path = got, .n = 1, .name = {"/x"}, .elem = {2}, .skip = {-1}, .rank = 2,
                               .dims = {N0, N1}, .chunk = {64, 128}, .fill = fill_from_array, .user = (void *)&s,
                               .threads = 2};
        fake_put fp = {.extra = 2, .job = &job};
        job.first = ns_h5_chunk_count(&job);
        job.count = 0;
        job.put = put_fake;
        job.put_user = &fp;
        fp.next = 0;   /* the ordinals of the job's chunks */
        CHECK(ns_h5_write_chunks(&job, &err) == NS_OK);
        CHECKF(fp.calls == 3 && fp.bad == 0, "put mode, no chunks: %d calls, %d bad", fp.calls, fp.bad);
    }
    free(rb);
    free(v);
}

static int have(const char *cmd)
{
    char c[300];
    snprintf(c, sizeof c, "%s >/dev/null 2>&1", cmd);
    return system(c) == 0;
}

static void test_skip_fill(void)
{
    /* 300 x 500 bytes, chunks 64 x 128: a grid of 5 x 4, the last row and
     * column of chunks at the edge. All N (1) but a few P (0) and invalid
     * (2) cells in chunks (0,0), (2,1) and the edge chunk (4,3). */
    src_array s = {.elem = 1, .rank = 2, .dims = {300, 500}, .chunk = {64, 128}};
    uint8_t *data = malloc(300 * 500), *back = malloc(300 * 500);
    memset(data, 1, 300 * 500);
    data[0] = 0;
    data[(size_t)130 * 500 + 200] = 2;
    data[(size_t)299 * 500 + 499] = 0;
    s.data = data;
    /* stored: the two interior chunks with other values and every edge
     * chunk (their cells beyond the dims are 0, not the fill) */
    hsize_t nstored_expected = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            nstored_expected += i == 4 || j == 3 || (i == 0 && j == 0) || (i == 2 && j == 1);
    for (int threads = 1; threads <= 3; threads++) {
        char p[256], name[64];
        snprintf(name, sizeof name, "skip_%d.h5", threads);
        path_in(p, sizeof p, name);
        if (write_array_skip(p, &s, H5T_STD_U8LE, threads, 1))
            continue;
        hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t d = H5Dopen2(f, "/x", H5P_DEFAULT);
        hid_t sp = H5Dget_space(d);
        hsize_t nchunks = 0;
        CHECK(H5Dget_num_chunks(d, sp, &nchunks) >= 0);
        CHECKF(nchunks == nstored_expected, "%d threads: %llu chunks stored, expected %llu", threads,
               (unsigned long long)nchunks, (unsigned long long)nstored_expected);
        memset(back, 0xEE, 300 * 500);
        CHECKF(H5Dread(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 &&
               memcmp(back, data, 300 * 500) == 0, "%d threads: read back differs", threads);
        H5Sclose(sp);
        H5Dclose(d);
        H5Fclose(f);
    }
    free(data);
    free(back);
}

static void test_readers(void)
{
    /* a 3-D uint16 table with edge chunks and invalid cells */
    int64_t b[3] = {45, 70, 300};
    ns_error err = {0};
    ns_table *t = ns_table_new(3, b, 2, 0, &err);
    CHECK(t != NULL);
    if (!t)
        return;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t v = i % 101 == 0 ? ns_table_invalid(t) : (uint32_t)((i * 7919) % 3000);
        ns_table_set(t, i, v);
        sum += v == ns_table_invalid(t) ? 0xFFFF : v;
    }
    ns_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "nim");
    m.threads = 2;
    m.complete = 1;
    char p[256];
    path_in(p, sizeof p, "table.h5");
    CHECKF(ns_h5_write(p, t, &m, 0, &err) == NS_OK, "%s", err.msg);
    ns_table *u = NULL;
    ns_meta r;
    CHECKF(ns_h5_read(p, &u, &r, &err) == NS_OK && ns_table_equal(t, u), "read back: %s", err.msg);
    ns_table_free(u);
    ns_meta_free(&r);

    if (have("/usr/bin/python3 -c 'import h5py'")) {
        char cmd[600];
        snprintf(cmd, sizeof cmd,
                 "/usr/bin/python3 -c 'import h5py,sys; f=h5py.File(\"%s\",\"r\"); g=f[\"grundy\"]; "
                 "assert g.fletcher32 and g.shuffle and g.compression==\"gzip\"; "
                 "s=int(g[...].astype(\"u8\").sum()); sys.exit(0 if s==%" PRIu64 " and f[\"pn\"][...].max()==2 "
                 "and f[\"p_positions\"].shape[1]==3 else 1)'", p, sum);
        CHECKF(system(cmd) == 0, "h5py does not read %s as written", p);
    } else {
        fprintf(stderr, "note: /usr/bin/python3 has no h5py; h5py check skipped\n");
    }
    if (have("h5dump --version")) {
        char cmd[600];
        /* one value: grundy[44][69][299], the last cell, in an edge chunk */
        uint32_t last = ns_table_get(t, t->ncells - 1);
        snprintf(cmd, sizeof cmd, "h5dump -d /grundy -s 44,69,299 -c 1,1,1 %s | grep -q '(44,69,299): %u$'", p,
                 (unsigned)last);
        CHECKF(system(cmd) == 0, "h5dump does not show grundy[44,69,299] = %u", (unsigned)last);
    } else {
        fprintf(stderr, "note: no h5dump; h5dump check skipped\n");
    }
    ns_table_free(t);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/ns_test_h5_direct_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    CHECK(ns_h5_direct_ok());
    test_fletcher_vs_hdf5();
    test_plain_equals_hdf5();
    test_write_chunks();
    test_skip_fill();
    test_put_mode();
    test_readers();
    nftw(dir, rm_cb, 8, FTW_DEPTH | FTW_PHYS);
    return TEST_REPORT();
}
