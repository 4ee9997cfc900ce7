/* cli_seq.h - what `solve` and `info` say about the Grundy sequence of a
 * take-and-break heap game (game/ns_octal.h): its code, largest value and
 * period (analysis/ns_period.h). */
#ifndef CLI_SEQ_H
#define CLI_SEQ_H

#include "game/ns_game.h"
#include "game/ns_table.h"
#include "store/ns_h5.h"

/* Find the period of t (the sequence of g, g->octal set) and put the
 * sequence attributes into m. Returns NS_EXIT_OK or prints an error. */
int ns_cli_seq_fill(const char *cmd, const ns_game *g, const ns_table *t, ns_meta *m);

/* Print the lines "code:", "argmax:", "period:" from m for a sequence of n
 * heap sizes (nothing when m has no code). */
void ns_cli_seq_print(const ns_meta *m, int64_t n);

#endif
