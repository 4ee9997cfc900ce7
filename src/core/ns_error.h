/* ns_error.h - error codes and messages that travel back to the caller.
 *
 * Library functions return an ns_err (0 = NS_OK) and, on failure, fill a
 * caller-owned ns_error with a one-line message. Only the CLI prints it. */
#ifndef NS_ERROR_H
#define NS_ERROR_H

typedef int ns_err;

enum {
    NS_OK = 0,
    NS_EINVAL = 1,   /* bad input: arguments, rule files, positions */
    NS_ENOMEM = 2,   /* allocation failed or would not fit the budget */
    NS_EIO = 3,      /* file system or HDF5 failure */
    NS_EFORMAT = 4,  /* file is not a valid nimsieve table */
    NS_ERANGE = 5,   /* value or size out of the supported range */
    NS_EGAME = 6,    /* the game breaks a rule of the engine (cycle, leaves box) */
    NS_EINTR = 7,    /* interrupted by the caller (progress callback) */
    NS_EINTERNAL = 8 /* a bug: an invariant did not hold */
};

#define NS_ERROR_MSG_LEN 512

typedef struct ns_error {
    ns_err code;
    char msg[NS_ERROR_MSG_LEN];
} ns_error;

/* Record code and a printf-style message in *e (e may be NULL) and return
 * code, so callers can write `return ns_error_set(e, NS_EINVAL, ...)`. */
ns_err ns_error_set(ns_error *e, ns_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reset *e to "no error". */
void ns_error_clear(ns_error *e);

/* Short name of an error code, e.g. "invalid input". */
const char *ns_err_name(ns_err code);

#endif
