/* The CLI's external-catalog provider (catalogs/catalogs.h): one per process,
 * made on first use, given to every session the CLI creates so that
 * --conf spark.sql.catalog.NAME=...JDBCTableCatalog works in process. */
#ifndef CZ_CLI_EXTERNAL_CATALOGS_H
#define CZ_CLI_EXTERNAL_CATALOGS_H

#include "catalyzer.h"

/* A new session (cz_session_new) with the provider attached. */
CzSession *cli_session_new(bool with_test_tables);

#endif
