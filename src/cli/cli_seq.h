/* cli_seq.h - what `solve` and `info` say about the Grundy sequence of a
 * take-and-break heap game (game/ns_octal.h): its code, largest value and
 * period (analysis/ns_period.h). */
#ifndef CLI_SEQ_H
#define CLI_SEQ_H

#include "game/ns_game.h"
#include "game/ns_table.h"
#include "store/ns_h5.h"

/* Find the period of t (the sequence of g, g->octal set) and put the
 * sequence attributes into m. rare_mask != 0 (the rare-common engine's
 * final mask, engine/ns_engine.h ns_seq_stats): also the heap sizes whose
 * value is rare under it (popcount(G(n) & rare_mask) even) into *rare, a
 * new array the caller frees, borrowed by m (seq_rare, seq_nrare,
 * seq_rare_mask, written as /rare). Returns NS_EXIT_OK or prints an error. */
int ns_cli_seq_fill(const char *cmd, const ns_game *g, const ns_table *t, uint32_t rare_mask, int64_t **rare,
                    ns_meta *m);

/* Print the lines "code:", "argmax:", "period:" and, for a rare/common
 * run, "rare values:" from m for a sequence of n heap sizes (nothing when m
 * has no code). */
void ns_cli_seq_print(const ns_meta *m, int64_t n);

/* `patterns` on the sequence t of the heap game g (g->octal set): the
 * period by analysis/ns_period.h (the octal periodicity theorem, arithmetic
 * periods), as the text lines "period:", "status:" and "rule:", or (json)
 * as the body of the object "one_pile" (fields found, preperiod, period,
 * saltus, proven, needed, table_to, rule). Returns NS_EXIT_OK or prints an
 * error. */
int ns_cli_seq_patterns(const char *cmd, const ns_game *g, const ns_table *t, int json);

/* `query` (move == 0) and `move` (move == 1; all: every winning move) on
 * a position of several heaps, args[0 .. nargs), of the heap game g whose
 * sequence is in path (meta read from it). Prints the report; returns the
 * exit status (move: 0 a winning move, 1 a P-position; 2 on an error,
 * printed). */
int ns_cli_seq_heaps(const char *cmd, const char *path, const ns_game *g, const ns_meta *meta, char **args,
                     int nargs, int move, int all);

#endif
