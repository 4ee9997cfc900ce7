/* testutil.h - a tiny test helper: CHECK records a failure and goes on,
 * TEST_REPORT prints "N passed, M failed" and gives the exit code;
 * ns_test_rng is a fixed xorshift64 stream of test inputs (reproducible;
 * a test may reseed it through ns_test_rng_state()). */
#ifndef NS_TESTUTIL_H
#define NS_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>

static int ns_test_passed = 0, ns_test_failed = 0;

#define CHECK(cond) do { \
    if (cond) { ns_test_passed++; } \
    else { ns_test_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECKF(cond, ...) do { \
    if (cond) { ns_test_passed++; } \
    else { ns_test_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
           fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

static inline uint64_t *ns_test_rng_state(void)
{
    static uint64_t state = 0x9E3779B97F4A7C15ull;
    return &state;
}

static inline uint64_t ns_test_rng(void)
{
    uint64_t *s = ns_test_rng_state();
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#define TEST_REPORT() (printf("%d passed, %d failed\n", ns_test_passed, ns_test_failed), ns_test_failed ? 1 : 0)

#endif
