/* The CLI's one provider (external_catalogs.h). */
#include "external_catalogs.h"

#include <stdlib.h>

#include "catalogs.h"

static CzCatalogs *process_catalogs; /* the CLI program's, freed at exit; the library holds none */

static void free_catalogs(void) { cz_catalogs_free(process_catalogs); }

/* The machine's zone, looked up once per CLI process as the JVM does: each
 * statement reading /etc/timezone again cost four system calls. */
static char process_time_zone[128];

CzSession *cli_session_new(bool with_test_tables) {
    if (!process_catalogs) {
        process_catalogs = cz_catalogs_new(NULL);
        atexit(free_catalogs);
    }
    if (!process_time_zone[0]) cz_default_time_zone(process_time_zone, sizeof process_time_zone);
    CzSession *s = cz_session_new(with_test_tables);
    cz_session_set_default_time_zone(s, process_time_zone);
    cz_session_set_catalog_provider(s, cz_catalogs_provider(process_catalogs));
    return s;
}
