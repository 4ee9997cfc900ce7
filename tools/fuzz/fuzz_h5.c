/* fuzz_h5.c - libFuzzer target for the HDF5 reader path.
 *
 * Fuzzing HDF5's own file-format parser would find defects of libhdf5 that
 * nimsieve cannot fix, so the input does not become the file's bytes: it
 * drives the construction, through the HDF5 API, of a well-formed HDF5 file
 * whose content is arbitrary: each root attribute of the table and
 * checkpoint schema absent, plausible, of the wrong type, of the wrong shape
 * or with a random value; datasets /grundy, /pn, /p_positions and
 * /checkpoint_table absent or present with any rank, shape, integer or
 * float type, chunked or not, with or without fletcher32, and values from
 * the input; then, optionally, a byte flipped inside a chunk. Every reader
 * entry point is then called on it (ns_h5_read_meta, ns_h5_read,
 * ns_h5_has_dataset, the region reader, ns_h5_read_region,
 * ns_h5_ckpt_read). Any crash, sanitizer report or leak fails, and so does
 * an error message that is empty, spans lines or does not name the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "store/ns_h5.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct src {
    const uint8_t *p;
    size_t n, i;
} src;

static unsigned u8(src *s)
{
    return s->i < s->n ? s->p[s->i++] : 0;
}

static uint64_t u64(src *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | u8(s);
    return v;
}

typedef enum { A_STR, A_I32, A_U32, A_U64, A_F64, A_BOUNDS } akind;

static const struct {
    const char *name;
    akind kind;
} attrs[] = {
    {"game", A_STR}, {"rules", A_STR}, {"params", A_STR}, {"bounds", A_BOUNDS}, {"play", A_STR},
    {"kind", A_STR}, {"max_value", A_U32}, {"n_p_positions", A_U64}, {"invalid_value", A_U32},
    {"complete", A_I32}, {"threads", A_I32}, {"wall_seconds", A_F64}, {"nimsieve_version", A_STR},
    {"git_revision", A_STR}, {"created_utc", A_STR}, {"hdf5_version", A_STR}, {"gsl_version", A_STR},
    {"compiler", A_STR}, {"build_flags", A_STR}, {"checkpoint_kernel", A_STR},
    {"checkpoint_units_done", A_U64}, {"checkpoint_units_total", A_U64}, {"checkpoint_seconds", A_F64},
    {"checkpoint_elem", A_I32},
};

static const char *const plausible_str[] = {"wythoff", "nim", "rules", "grundy", "pn", "normal", "misere",
                                            "general", "tiles2d", "rows-pn", "", "a=2;set=1,3,4"};

typedef struct shape {
    int k;
    hsize_t dims[3];
} shape;

static void put_attr(hid_t f, const char *name, hid_t ftype, hid_t mtype, int n, const void *buf)
{
    hsize_t d = (hsize_t)n;
    hid_t sp = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &d, NULL);
    hid_t a = H5Acreate2(f, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        H5Awrite(a, mtype, buf);
        H5Aclose(a);
    }
    H5Sclose(sp);
}

static void put_str(hid_t f, const char *name, const char *v)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    put_attr(f, name, t, t, 1, &v);
    H5Tclose(t);
}

static void make_attr(hid_t f, src *s, int i, const shape *sh)
{
    const unsigned mode = u8(s) % 6;
    const char *name = attrs[i].name;
    int64_t iv[3] = {0, 0, 0};
    char text[24];
    if (mode == 0)
        return; /* absent */
    if (mode == 3 && attrs[i].kind != A_STR) { /* a string where a number belongs */
        put_str(f, name, plausible_str[u8(s) % 12]);
        return;
    }
    if (mode == 3) { /* a number where a string belongs */
        int32_t v = (int32_t)u8(s);
        put_attr(f, name, H5T_STD_I32LE, H5T_NATIVE_INT32, 1, &v);
        return;
    }
    if (mode == 4) { /* the wrong shape: three numbers */
        for (int j = 0; j < 3; j++)
            iv[j] = (int64_t)u8(s);
        put_attr(f, name, H5T_STD_I64LE, H5T_NATIVE_INT64, 3, iv);
        return;
    }
    switch (attrs[i].kind) {
    case A_STR:
        if (mode == 5) {
            int len = (int)(u8(s) % 20);
            for (int j = 0; j < len; j++)
                text[j] = (char)(u8(s) | 1);
            text[len] = '\0';
            put_str(f, name, text);
        } else {
            put_str(f, name, plausible_str[u8(s) % 12]);
        }
        break;
    case A_BOUNDS: {
        int k = sh->k;
        for (int j = 0; j < k; j++)
            iv[j] = mode == 5 ? (int64_t)(u64(s) >> (u8(s) % 64)) - 3 : (int64_t)sh->dims[j];
        put_attr(f, name, H5T_STD_I64LE, H5T_NATIVE_INT64, k, iv);
        break;
    }
    case A_I32: {
        int32_t v = mode == 5 ? (int32_t)u64(s) : (int32_t)(u8(s) % 3);
        put_attr(f, name, H5T_STD_I32LE, H5T_NATIVE_INT32, 1, &v);
        break;
    }
    case A_U32: {
        uint32_t v = mode == 5 ? (uint32_t)u64(s) : u8(s);
        put_attr(f, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, 1, &v);
        break;
    }
    case A_U64: {
        uint64_t v = mode == 5 ? u64(s) : u8(s);
        put_attr(f, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, 1, &v);
        break;
    }
    case A_F64: {
        double v = mode == 5 ? (double)(int64_t)u64(s) * 1e-3 : u8(s) * 0.5;
        put_attr(f, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &v);
        break;
    }
    }
}

/* A dataset; *flip_at gets a byte offset inside its first chunk (or 0). */
static void make_dataset(hid_t f, src *s, const char *name, const shape *sh, haddr_t *flip_at)
{
    const hid_t types[] = {H5T_STD_U8LE, H5T_STD_U16LE, H5T_STD_U32LE, H5T_STD_I64LE, H5T_STD_I8LE,
                           H5T_IEEE_F32LE};
    const unsigned mode = u8(s);
    if (mode % 4 == 0)
        return;
    shape my = *sh;
    if (mode % 4 == 3) { /* a shape of its own */
        my.k = 1 + (int)(u8(s) % 3);
        for (int d = 0; d < my.k; d++)
            my.dims[d] = 1 + u8(s) % 24;
    }
    if (strcmp(name, "/p_positions") == 0 && mode % 4 != 3) {
        my.k = 2;
        my.dims[0] = u8(s) % 16;
        my.dims[1] = (hsize_t)sh->k;
    }
    const hid_t ftype = types[(mode >> 2) % 6];
    hid_t sp = H5Screate_simple(my.k, my.dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int chunked = (mode >> 5) & 1, fl = (mode >> 6) & 1;
    hsize_t nbytes = 1;
    for (int d = 0; d < my.k; d++)
        nbytes *= my.dims[d] ? my.dims[d] : 1;
    if (chunked && nbytes > 0) {
        hsize_t ch[3];
        for (int d = 0; d < my.k; d++)
            ch[d] = my.dims[d] ? 1 + u8(s) % my.dims[d] : 1;
        H5Pset_chunk(dcpl, my.k, ch);
        if (fl)
            H5Pset_fletcher32(dcpl);
        if (mode >> 7)
            H5Pset_deflate(dcpl, 1);
    }
    hid_t ds = H5Dcreate2(f, name, ftype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds >= 0) {
        size_t n = (size_t)nbytes;
        int64_t *vals = malloc((n ? n : 1) * sizeof *vals);
        if (vals) {
            const unsigned spread = u8(s) % 4;
            for (size_t i = 0; i < n; i++)
                vals[i] = spread == 0 ? (int64_t)(u8(s) % 3) : spread == 1 ? (int64_t)u8(s)
                        : spread == 2 ? (int64_t)(i % 7) : (int64_t)u64(s);
            if (n)
                H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals);
            free(vals);
        }
        if (chunked && u8(s) % 3 == 0) {
            H5Fflush(f, H5F_SCOPE_LOCAL);
            haddr_t addr;
            hsize_t csize;
            unsigned mask;
            hsize_t off[3] = {0, 0, 0};
            if (H5Dget_chunk_info(ds, sp, 0, off, &mask, &addr, &csize) >= 0 && csize > 0)
                *flip_at = addr + u8(s) % csize;
        }
        H5Dclose(ds);
    }
    H5Pclose(dcpl);
    H5Sclose(sp);
}

static const char *path_for_process(void)
{
    static char path[64];
    if (!path[0]) /* in memory when /dev/shm is there: HDF5 creates a file per input */
        snprintf(path, sizeof path, "%sfuzz-h5-%ld.h5", access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : "",
                 (long)getpid());
    return path;
}

static void remove_file(void)
{
    remove(path_for_process());
}

static void check(const char *path, const ns_error *err)
{
    if (err->msg[0] == '\0' || strchr(err->msg, '\n') || !strstr(err->msg, path))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    static int registered = 0;
    if (!registered) {
        registered = 1;
        atexit(remove_file);
    }
    const char *path = path_for_process();
    src s = {data, size, 0};
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    shape sh;
    sh.k = 1 + (int)(u8(&s) % 3);
    for (int d = 0; d < sh.k; d++)
        sh.dims[d] = 1 + u8(&s) % 24;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return 0;
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        make_attr(f, &s, (int)i, &sh);
    haddr_t flip = 0;
    make_dataset(f, &s, "/grundy", &sh, &flip);
    make_dataset(f, &s, "/pn", &sh, &flip);
    make_dataset(f, &s, "/p_positions", &sh, &flip);
    make_dataset(f, &s, "/checkpoint_table", &sh, &flip);
    H5Fclose(f);
    if (flip) {
        FILE *fp = fopen(path, "r+b");
        if (fp) {
            int c;
            if (fseek(fp, (long)flip, SEEK_SET) == 0 && (c = fgetc(fp)) != EOF && fseek(fp, (long)flip, SEEK_SET) == 0)
                fputc(c ^ (int)(1 + u8(&s) % 255), fp);
            fclose(fp);
        }
    }

    ns_error err = {0};
    ns_meta m;
    memset(&m, 0, sizeof m);
    int k;
    int64_t bounds[NS_MAX_DIM];
    if (ns_h5_read_meta(path, &m, &k, bounds, &err))
        check(path, &err);
    ns_meta_free(&m);
    ns_table *t = NULL;
    memset(&m, 0, sizeof m);
    if (ns_h5_read(path, &t, &m, &err))
        check(path, &err);
    ns_table_free(t);
    ns_meta_free(&m);
    static const char *const names[] = {"grundy", "pn", "p_positions"};
    for (int i = 0; i < 3; i++) {
        int exists = 0;
        if (ns_h5_has_dataset(path, names[i], &exists, &err))
            check(path, &err);
        ns_h5_region *r = NULL;
        if (ns_h5_region_open(path, names[i], &r, &err)) {
            check(path, &err);
            continue;
        }
        const ns_h5_dsinfo *di = ns_h5_region_info(r);
        int64_t lo[NS_MAX_DIM] = {0}, cnt[NS_MAX_DIM];
        uint64_t cells = 1;
        for (int d = 0; d < di->rank; d++) {
            cnt[d] = di->dims[d] < 3 ? di->dims[d] : 3;
            cells *= (uint64_t)(cnt[d] > 0 ? cnt[d] : 1);
        }
        void *buf = malloc((size_t)cells * 8);
        if (buf && ns_h5_region_read(r, lo, cnt, NULL, buf, &err))
            check(path, &err);
        free(buf);
        ns_h5_region_close(r);
        if (i < 2) {
            ns_table *rt = NULL;
            if (ns_h5_read_region(path, names[i], lo, cnt, NULL, &rt, &err))
                check(path, &err);
            ns_table_free(rt);
        }
    }
    ns_h5_ckpt_info ci;
    memset(&ci, 0, sizeof ci);
    if (ns_h5_ckpt_read(path, &ci, NULL, &err)) {
        check(path, &err);
    } else {
        /* the table the solve would allocate, when small (the bounds come
         * from the input) */
        uint64_t cells = 1;
        for (int d = 0; d < ci.k && cells <= ((uint64_t)1 << 20); d++)
            cells *= (uint64_t)ci.bounds[d];
        ns_table *ct = cells <= ((uint64_t)1 << 20) ? ns_table_new(ci.k, ci.bounds, ci.elem, ci.meta.pn_only, &err)
                                                    : NULL;
        ns_meta_free(&ci.meta);
        if (ct) {
            if (ns_h5_ckpt_read(path, &ci, ct, &err))
                check(path, &err);
            ns_meta_free(&ci.meta);
            ns_table_free(ct);
        }
    }
    H5garbage_collect(); /* HDF5's free lists would otherwise grow run after run */
    return 0;
}
