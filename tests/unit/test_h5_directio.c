/* test_h5_directio.c - the direct-write file driver (ns_h5_direct.c)
 * against a model of the file kept in memory:
 *  - through HDF5's driver interface (H5FDopen/write/read/flush/truncate):
 *    thousands of writes, mostly appends (a streamed file's pattern), with
 *    writes below the window, across its edges, past it (holes), reads in
 *    between, flushes after which the file on disk (read through its own
 *    descriptor) must hold every byte written, and truncates; at the close
 *    the file is the model, byte for byte, its size the end of allocation.
 *    Windows of one page, three pages, 64 KiB and the default 8 MiB, with
 *    O_DIRECT and without (NS_H5_DIRECT=0, the blocks through the page
 *    cache, as where a file system refuses O_DIRECT);
 *  - through HDF5 itself: a chunked dataset written by direct chunk
 *    writes, synced half way (ns_h5_direct_sync: the chunks written so far
 *    on disk where HDF5's index says, as a checkpoint needs), closed, and
 *    read back through HDF5's default driver; ns_h5_direct_active says
 *    which way the bytes went, and 0 for a file of another driver. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "store/ns_h5.h"
#include "store/ns_h5_internal.h"

static int failures = 0, checks = 0;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        checks++;                                                                                                      \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                     \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static uint64_t below(uint64_t n) { return n ? next() % n : 0; }

/* The file at path against model[0, n): 1 when equal (bytes past the
 * file's end count as zeros) and, when exact, the file's size is n. */
static int file_is(const char *path, const uint8_t *model, size_t n, int exact)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && (!exact || (size_t)st.st_size == n);
    uint8_t *buf = calloc(n ? n : 1, 1);
    size_t got = 0;
    while (ok && got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    ok = ok && memcmp(buf, model, n) == 0;
    free(buf);
    close(fd);
    return ok;
}

static void driver_model(const char *path, const char *block, int direct, int ops)
{
    if (block)
        setenv("NS_H5_DIRECT_BLOCK", block, 1);
    else
        unsetenv("NS_H5_DIRECT_BLOCK");
    setenv("NS_H5_DIRECT", direct ? "1" : "0", 1);
    const char *tag = block ? block : "default";
    ns_error err = {0};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    CHECK(fapl >= 0 && ns_h5_direct_fapl(fapl, path, &err) == NS_OK, "block %s: the driver: %s", tag, err.msg);
    H5FD_t *f = H5FDopen(path, H5F_ACC_RDWR | H5F_ACC_CREAT | H5F_ACC_TRUNC, fapl, (haddr_t)1 << 40);
    CHECK(f != NULL, "block %s: H5FDopen failed", tag);
    if (!f)
        H5Eprint2(H5E_DEFAULT, stderr);
    H5Pclose(fapl);
    if (!f)
        return;
    const size_t cap = (size_t)6 << 20;
    uint8_t *model = calloc(cap, 1), *buf = malloc(1 << 16), *back = malloc(1 << 16);
    size_t eoa = 0, cursor = 0;
    int reads = 0, flushes = 0, low = 0, jumps = 0, op;
    for (op = 0; op < ops; op++) {
        const uint64_t r = below(100);
        if (r < 10 && eoa > 0) {
            /* a read anywhere below the end of allocation */
            const size_t a = below(eoa), n = 1 + below(eoa - a < 60000 ? eoa - a : 60000);
            herr_t st = H5FDread(f, H5FD_MEM_DRAW, H5P_DEFAULT, a, n, back);
            CHECK(st >= 0 && memcmp(back, model + a, n) == 0, "block %s: op %d: read %zu bytes at %zu", tag, op,
                  n, a);
            reads++;
            continue;
        }
        if (r < 14) {
            /* a flush, or a truncate: then the file holds every byte */
            herr_t st = r < 12 ? H5FDflush(f, H5P_DEFAULT, 0) : H5FDtruncate(f, H5P_DEFAULT, 0);
            CHECK(st >= 0 && file_is(path, model, eoa, r >= 12), "block %s: op %d: the file after a %s", tag, op,
                  r < 12 ? "flush" : "truncate");
            flushes++;
            continue;
        }
        size_t a, n = 1 + below(r < 80 ? 4000 : 3000);
        if (r < 80) {
            a = cursor + (below(4) ? 0 : below(300));   /* an append, maybe after a small gap */
        } else if (r < 95 && cursor > 0) {
            a = below(cursor);                           /* below the end: a metadata write */
            low++;
        } else {
            a = cursor + below((size_t)3 << 14);         /* far ahead: a hole */
            jumps++;
        }
        if (a + n > cap)
            break;
        for (size_t k = 0; k < n; k++)
            buf[k] = (uint8_t)next();
        if (a + n > eoa) {
            eoa = a + n;
            CHECK(H5FDset_eoa(f, H5FD_MEM_DRAW, eoa) >= 0, "block %s: set_eoa", tag);
        }
        herr_t st = H5FDwrite(f, H5FD_MEM_DRAW, H5P_DEFAULT, a, n, buf);
        CHECK(st >= 0, "block %s: op %d: write %zu bytes at %zu", tag, op, n, a);
        memcpy(model + a, buf, n);
        cursor = a + n > cursor ? a + n : cursor;
    }
    /* past the end of allocation: refused */
    CHECK(H5FDwrite(f, H5FD_MEM_DRAW, H5P_DEFAULT, eoa, 16, buf) < 0, "block %s: a write past the eoa accepted", tag);
    H5Eclear2(H5E_DEFAULT);
    CHECK(H5FDtruncate(f, H5P_DEFAULT, 1) >= 0 && H5FDclose(f) >= 0, "block %s: truncate and close", tag);
    CHECK(file_is(path, model, eoa, 1), "block %s (O_DIRECT %s): the closed file differs from the model (%zu bytes)",
          tag, direct ? "on" : "off", eoa);
    printf("driver, window %s, O_DIRECT %s: %d operations, %zu bytes, %d reads, %d flushes/truncates, %d low "
           "writes, %d holes\n", tag, direct ? "on" : "off", op, eoa, reads, flushes, low, jumps);
    free(model);
    free(buf);
    free(back);
    remove(path);
}

static void hdf5_file(const char *path, int direct)
{
    setenv("NS_H5_DIRECT", direct ? "1" : "0", 1);
    setenv("NS_H5_DIRECT_BLOCK", "16384", 1);
    ns_error err = {0};
    enum { N = 512, C = 64 };
    uint32_t *vals = malloc(sizeof *vals * N * N);
    for (size_t i = 0; i < (size_t)N * N; i++)
        vals[i] = (uint32_t)(i * 2654435761u);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    CHECK(ns_h5_direct_fapl(fapl, path, &err) == NS_OK, "the driver: %s", err.msg);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    CHECK(file >= 0, "H5Fcreate through the driver");
    const int how = ns_h5_direct_active(file);
    CHECK(direct ? how >= 1 : how == 1, "ns_h5_direct_active %d with NS_H5_DIRECT=%d", how, direct);
    const hsize_t dims[2] = {N, N}, chunk[2] = {C, C};
    hid_t space = H5Screate_simple(2, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunk);
    hid_t ds = H5Dcreate2(file, "/v", H5T_STD_U32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CHECK(ds >= 0, "H5Dcreate2");
    uint32_t *c = malloc(sizeof *c * C * C);
    int synced_ok = 1;
    for (int bi = 0; bi < N / C; bi++)
        for (int bj = 0; bj < N / C; bj++) {
            for (int i = 0; i < C; i++)
                memcpy(c + i * C, vals + (size_t)(bi * C + i) * N + (size_t)bj * C, sizeof *c * C);
            const hsize_t off[2] = {(hsize_t)bi * C, (hsize_t)bj * C};
            CHECK(H5Dwrite_chunk(ds, H5P_DEFAULT, 0, off, sizeof *c * C * C, c) >= 0, "chunk %d,%d", bi, bj);
        }
    /* half way, synced: the last chunk written lies on disk where HDF5's
     * index says */
    CHECK(ns_h5_direct_sync(file, path, &err) == NS_OK, "sync: %s", err.msg);
    {
        const hsize_t off[2] = {N - C, N - C};
        unsigned mask = 0;
        haddr_t addr = 0;
        hsize_t size = 0;
        CHECK(H5Dget_chunk_info_by_coord(ds, off, &mask, &addr, &size) >= 0 && size == sizeof *c * C * C,
              "the last chunk's address");
        int fd = open(path, O_RDONLY);
        uint32_t *disk = malloc(size);
        synced_ok = fd >= 0 && pread(fd, disk, size, (off_t)addr) == (ssize_t)size && memcmp(disk, c, size) == 0;
        if (fd >= 0)
            close(fd);
        free(disk);
        CHECK(synced_ok, "after ns_h5_direct_sync the last chunk is not on disk at %llu", (unsigned long long)addr);
    }
    H5Dclose(ds);
    H5Sclose(space);
    H5Pclose(dcpl);
    CHECK(H5Fclose(file) >= 0, "H5Fclose through the driver");
    /* read back with HDF5's default driver */
    hid_t f2 = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f2 >= 0, "H5Fopen with the default driver");
    CHECK(ns_h5_direct_active(f2) == 0 && ns_h5_direct_freeze(f2) == 0, "a sec2 file taken for the driver's");
    hid_t d2 = f2 >= 0 ? H5Dopen2(f2, "/v", H5P_DEFAULT) : -1;
    uint32_t *rb = calloc((size_t)N * N, sizeof *rb);
    CHECK(d2 >= 0 && H5Dread(d2, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, rb) >= 0 &&
              memcmp(rb, vals, sizeof *rb * N * N) == 0,
          "the values read back (NS_H5_DIRECT=%d)", direct);
    if (d2 >= 0)
        H5Dclose(d2);
    if (f2 >= 0)
        H5Fclose(f2);
    printf("HDF5 file through the driver (NS_H5_DIRECT=%d): written %s, read back by the default driver\n", direct,
           how == 2 ? "with O_DIRECT" : "through the page cache");
    free(vals);
    free(c);
    free(rb);
    remove(path);
}

int main(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const char *path = "test_h5_directio.bin";
    driver_model(path, "4096", 1, 4000);
    driver_model(path, "12288", 1, 4000);
    driver_model(path, "65536", 1, 3000);
    driver_model(path, "8192", 0, 3000);
    driver_model(path, NULL, 1, 1500);
    hdf5_file("test_h5_directio.h5", 1);
    hdf5_file("test_h5_directio.h5", 0);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
