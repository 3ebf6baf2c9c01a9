/* The libFuzzer targets' shared harness (tests/fuzz/README.md): a Server with
 * catalyzerd's default configuration, no sockets and no loop, and jobs run
 * synchronously through rpc_run with their output captured (a JobSink, as a
 * worker process has) and dropped. */
#ifndef CZ_FUZZ_COMMON_H
#define CZ_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "conn.h"
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

/* The targets that feed a connection (fuzz_h2, fuzz_http1): the Server with
 * a libuv loop and the thread pool's queue, jobs run on this thread. */
Server *fuzz_loop_server(void);
/* Runs queued jobs, the loop and the peer's reads until nothing moves. */
void fuzz_pump(Server *srv, int peer);
/* c is still open (on_closed, run by the loop, frees it and unlinks it). */
bool fuzz_conn_alive(Server *srv, const ConnHead *c);
/* Sessions the calls created go with the connection (one input, one client). */
void fuzz_drop_sessions(Server *srv);

/* Inputs larger than this are ignored (the daemon's limits stop them earlier). */
enum { FUZZ_MAX_INPUT = 1 << 16 };

#endif
