/* testutil.h - a tiny test helper: CHECK records a failure and goes on,
 * TEST_REPORT prints "N passed, M failed" and gives the exit code. */
#ifndef NS_TESTUTIL_H
#define NS_TESTUTIL_H

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

#define TEST_REPORT() (printf("%d passed, %d failed\n", ns_test_passed, ns_test_failed), ns_test_failed ? 1 : 0)

#endif
