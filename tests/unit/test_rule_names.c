/* test_rule_names.c - a table solved from a rule file keeps the name the
 * file declares ("game NAME") and says that it is a rule file (issue 15):
 * the game, the attributes written and read back, the label every
 * subcommand prints; a file written before (attribute game = "rules") still
 * reads and rebuilds its game, named as its stored text declares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/ns_rules.h"
#include "store/ns_h5.h"
#include "testutil.h"
#include "tsolve.h"

static const char *const TWICE = "# a variant\n"
                                 "game wythoff-twice\n"
                                 "piles x y\n"
                                 "move x -> x - t for t in 1..x\n"
                                 "move y -> y - t for t in 1..y\n"
                                 "move (x, y) -> (x - t, y - 2*t) for t in 1..min(x, y/2)\n";
static const char *const NONAME = "piles x\nmove x -> x - t for t in 1..min(x, 2)\n";

/* Write t with meta game/rules_text/rules_file to path, read its meta back. */
static int roundtrip(const char *path, const ns_table *t, const char *game, const char *text, const char *file,
                     ns_meta *back)
{
    ns_meta m;
    ns_error err = {0};
    int k = 0;
    int64_t b[NS_MAX_DIM];
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "%s", game);
    m.rules_text = (char *)text; /* borrowed: not freed here */
    snprintf(m.rules_file, sizeof m.rules_file, "%s", file);
    m.complete = 1;
    m.threads = 1;
    memset(back, 0, sizeof *back);
    if (ns_h5_write(path, t, &m, NS_H5_FORCE, &err) || ns_h5_read_meta(path, back, &k, b, &err)) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        return -1;
    }
    return 0;
}

int main(void)
{
    const int64_t b[2] = {12, 12}, b1[1] = {20};
    char label[1024];
    ns_game *g = NULL, *g2 = NULL;
    ns_error err = {0};
    char path[] = "/tmp/ns_rule_names_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);

    /* the compiled game carries the declared name; no declaration: "rules" */
    ns_table *t = ns_tsolve_rules(TWICE, 2, b, 0, 0, 1, &g);
    CHECK(t && g && g->rules_text && strcmp(g->name, "wythoff-twice") == 0);
    ns_table *t1 = ns_tsolve_rules(NONAME, 1, b1, 0, 0, 1, &g2);
    CHECK(t1 && g2 && strcmp(g2->name, "rules") == 0);
    ns_game_free(g2);
    g2 = NULL;

    /* new files: game = the declared name, rules_file = the path given */
    ns_meta m;
    if (t && roundtrip(path, t, g->name, TWICE, "data/rules/x.rules", &m) == 0) {
        CHECK(strcmp(m.game, "wythoff-twice") == 0);
        CHECK(m.rules_text && strcmp(m.rules_text, TWICE) == 0);
        CHECK(strcmp(m.rules_file, "data/rules/x.rules") == 0);
        ns_meta_game_label(&m, label, sizeof label);
        CHECKF(strcmp(label, "wythoff-twice (rule file data/rules/x.rules)") == 0, "label '%s'", label);
        CHECK(ns_game_from_meta(&m, 2, b, &g2, &err) == NS_OK && g2 && strcmp(g2->name, "wythoff-twice") == 0);
        ns_game_free(g2);
        g2 = NULL;
        ns_meta_free(&m);
    }
    /* old files: game = "rules", no rules_file; still read and rebuilt */
    if (t && roundtrip(path, t, "rules", TWICE, "", &m) == 0) {
        CHECK(strcmp(m.game, "rules") == 0 && m.rules_file[0] == '\0');
        ns_meta_game_label(&m, label, sizeof label);
        CHECKF(strcmp(label, "rules (rule file)") == 0, "label '%s'", label);
        CHECK(ns_game_from_meta(&m, 2, b, &g2, &err) == NS_OK && g2 && g2->rules_text &&
              strcmp(g2->name, "wythoff-twice") == 0);
        ns_game_free(g2);
        g2 = NULL;
        ns_meta_free(&m);
    }
    /* a preset's label is its name, whatever rules_file holds */
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "wythoff");
    snprintf(m.rules_file, sizeof m.rules_file, "ignored");
    ns_meta_game_label(&m, label, sizeof label);
    CHECK(strcmp(label, "wythoff") == 0);

    ns_table_free(t);
    ns_table_free(t1);
    ns_game_free(g);
    remove(path);
    return TEST_REPORT();
}
