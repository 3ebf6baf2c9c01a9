/* The libFuzzer targets' shared harness (tests/fuzz/README.md): a Server with
 * catalyzerd's default configuration, no sockets and no loop, and jobs run
 * synchronously through rpc_run with their output captured (a JobSink, as a
 * worker process has) and dropped. */
#ifndef CZ_FUZZ_COMMON_H
#define CZ_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The one Server of the process, set up on first use. */
Server *fuzz_server(void);

/* A fresh session (its CzSession with the server's catalogs), and its end. */
Session *fuzz_session_new(const char *id);
void fuzz_session_free(Session *s);

/* Runs j (its request already set) to completion on this thread through
 * rpc_run; returns its gRPC status. Its output is checked for size and dropped. */
int fuzz_run_job(Job *j);
/* With FUZZ_VERBOSE set: one line per job run (method, status, message). */
void fuzz_report(const Job *j);

/* Inputs larger than this are ignored (the daemon's limits stop them earlier). */
enum { FUZZ_MAX_INPUT = 1 << 16 };

#endif
