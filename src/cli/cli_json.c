/* cli_json.c - see cli_json.h */
#include "cli/cli_json.h"

#include <math.h>

void ns_json_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; p && *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

void ns_json_double(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("null", out);
    else
        fprintf(out, "%.17g", v);
}
