/* ns_shipped_rules.h - the rule files of data/rules/ and the presets they
 * implement.
 *
 * The texts of the .rules files in data/rules/ are built into the library (CMakeLists.txt
 * generates ns_shipped_rules_text.c). A rule file that implements a preset
 * says so in its `game NAME` statement, NAME being the preset's name, and
 * has an entry in ns_rules_preset_maps: the preset and how the file's
 * parameters map to the preset's (nim.rules' k is the preset's piles).
 * tests/unit/test_rules_presets.c solves every such file and its preset
 * through this mapping and compares the tables cell by cell (Grundy and P/N,
 * normal and misere play), so a table solved from a text that is byte for
 * byte one of these files is the preset's table, and what is proven about
 * the preset applies to it. A variant, or an edited copy, is not recognised. */
#ifndef NS_SHIPPED_RULES_H
#define NS_SHIPPED_RULES_H

#include <stddef.h>

#include "core/ns_error.h"
#include "game/ns_params.h"

typedef struct ns_shipped_rules_text {
    const char *file;    /* "wythoff.rules" */
    const char *text;    /* the whole file, NUL-terminated */
} ns_shipped_rules_text;

/* Every .rules file of data/rules/, by file name; ends with {NULL, NULL}. */
extern const ns_shipped_rules_text ns_shipped_rules_texts[];

#define NS_RULES_MAP_PARAMS 4

typedef struct ns_rules_preset_map {
    const char *file;      /* "nim.rules" */
    const char *preset;    /* "nim": also the file's `game` statement */
    /* {name in the file, name in the preset}; unused entries NULL. A file
     * parameter not listed keeps its name. */
    const char *params[NS_RULES_MAP_PARAMS][2];
} ns_rules_preset_map;

/* The files that implement a preset; ends with an entry whose file is NULL. */
extern const ns_rules_preset_map ns_rules_preset_maps[];

/* The entry for a rule text that is byte for byte one of data/rules/ and
 * implements a preset; NULL otherwise (file_out, when not NULL, gets the
 * file name of a shipped text without a preset, else NULL). */
const ns_rules_preset_map *ns_shipped_rules_preset(const char *text, const char **file_out);

/* The preset's parameters for the file's parameters rule_ps (only those
 * given: the defaults are the same, which the test checks). */
ns_err ns_rules_preset_params(const ns_rules_preset_map *m, const ns_params *rule_ps, ns_params *out,
                              ns_error *err);

#endif
