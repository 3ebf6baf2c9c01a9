/* See normalise.h. */
#include "normalise.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool digits_then(const char *p, char after, const char **end) {
    const char *q = p;
    while (isdigit((unsigned char)*q)) q++;
    *end = q;
    return q > p && *q == after;
}

char *plan_normalise(const char *plan) {
    /* the result is never longer than the input plus "xxxx" per short CTE id */
    size_t cap = strlen(plan) * 2 + 16, n = 0;
    char *out = malloc(cap);
    for (const char *p = plan; *p;) {
        const char *end;
        if (*p == '#' && isdigit((unsigned char)p[1])) {
            out[n++] = '#';
            out[n++] = 'x';
            p++;
            while (isdigit((unsigned char)*p)) p++;
            continue;
        }
        /* Spark: CTERelation(Def|Ref) \d+, -> xxxx, */
        if ((!strncmp(p, "CTERelationDef ", 15) || !strncmp(p, "CTERelationRef ", 15)) && digits_then(p + 15, ',', &end)) {
            memcpy(out + n, p, 15);
            n += 15;
            memcpy(out + n, "xxxx", 4);
            n += 4;
            p = end;
            continue;
        }
        out[n++] = *p++;
    }
    out[n] = 0;
    return out;
}
