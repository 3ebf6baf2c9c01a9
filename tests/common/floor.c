/* See floor.h. */
#include "floor.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double floor_tenth(double pct) { return floor(pct * 10.0 + 1e-9) / 10.0; }

bool floor_check(const char *key, long pass, long total) {
    const char *src = getenv("CATALYZER_SOURCE");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/conformance/baseline.json", src ? src : ".");
    json_error_t je;
    json_t *b = json_load_file(path, 0, &je);
    json_t *v = json_object_get(b, key);
    double pct = total ? 100.0 * (double)pass / (double)total : 0.0;
    bool ok = false;
    if (!b) {
        fprintf(stderr, "figure %s: %ld/%ld (%.1f%%): cannot read %s: %s\n", key, pass, total, pct, path, je.text);
    } else if (!json_is_number(v)) {
        fprintf(stderr, "figure %s: %ld/%ld (%.1f%%): no floor \"%s\" in %s\n", key, pass, total, pct, key, path);
    } else {
        double want = json_number_value(v);
        /* the suggested floor: the figure rounded down to a tenth, as conformance.py --update writes it */
        double suggest = floor_tenth(pct);
        if (!total) fprintf(stderr, "figure %s: nothing measured\n", key);
        else if (pct + 1e-9 < want)
            fprintf(stderr, "figure %s: %ld/%ld (%.2f%%) FELL BELOW its floor %.1f%%\n", key, pass, total, pct, want);
        else if (pct > want + 1.0 + 1e-9)
            fprintf(stderr, "figure %s: %ld/%ld (%.2f%%) is more than a point above its floor %.1f%%: raise it to %.1f in %s\n",
                    key, pass, total, pct, want, suggest, path);
        else {
            fprintf(stderr, "figure %s: %ld/%ld (%.2f%%), floor %.1f%%\n", key, pass, total, pct, want);
            ok = true;
        }
    }
    json_decref(b);
    return ok;
}
