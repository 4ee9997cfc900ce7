/* ns_filecheck.h - do the datasets of a table file agree with each other?
 *
 * A table file holds the same facts several times: /grundy (absent in a
 * P/N file), /pn, /p_positions and the root attributes max_value,
 * n_p_positions and invalid_value. ns_filecheck_run reads them in bands of
 * rows (never the whole table at once) and checks that
 *   - every /pn cell is 0 (P) where /grundy holds 0, 2 (not a position)
 *     where /grundy holds invalid_value, and 1 (N) where it holds another
 *     value; /pn holds no other value, /grundy nothing above max_value;
 *   - /p_positions is exactly the list of the P cells of /pn, in
 *     lexicographic (row-major) order;
 *   - max_value is the largest value stored (over positions; in a P/N file
 *     1 when some position is N, else 0), n_p_positions the number of P
 *     cells (the reader already ties it to the rows of /p_positions).
 * The first disagreement is described in one line naming the dataset (or
 * attribute) and the position. Nothing here prints. */
#ifndef NS_FILECHECK_H
#define NS_FILECHECK_H

#include <stdint.h>

#include "core/ns_error.h"

typedef struct ns_filecheck {
    int has_grundy;           /* 1 for a Grundy file, 0 for a P/N file */
    uint64_t cells;           /* cells compared */
    uint64_t n_p;             /* P cells of /pn (up to the first disagreement) */
    uint32_t max_value;       /* largest value found over positions (likewise) */
    uint64_t n_draws;         /* draws (code 3) of a loopy game's /pn (likewise) */
    int consistent;           /* 1, or 0 with why set */
    char why[NS_ERROR_MSG_LEN];   /* the first disagreement, one line, "" when consistent */
} ns_filecheck;

/* Check the table file path on up to threads OpenMP threads (>= 1) into
 * *res. Returns NS_OK when the check ran (res->consistent gives the
 * answer); an error (err set, naming the file) when the file cannot be
 * read as a table file. */
ns_err ns_filecheck_run(const char *path, int threads, ns_filecheck *res, ns_error *err);

#endif
