/* cli_json.h - writing JSON by hand: strings escaped per RFC 8259, numbers
 * that stay valid JSON (no NaN or infinity). Used by `check --json` and
 * `patterns --json`. */
#ifndef NS_CLI_JSON_H
#define NS_CLI_JSON_H

#include <stdio.h>

/* "text" with quotes, backslashes and control characters escaped. */
void ns_json_string(FILE *out, const char *text);

/* A double with enough digits to round-trip, or null when not finite. */
void ns_json_double(FILE *out, double v);

#endif
