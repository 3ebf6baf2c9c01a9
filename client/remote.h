/* The CLI over the wire: `--daemon HOST:PORT` on run, explain, bench, parse
 * and trace sends the work to catalyzerd through the client library
 * (client/lib) instead of analysing in process, with the same output. */
#ifndef CZ_CLI_REMOTE_H
#define CZ_CLI_REMOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "czclient.h"

/* The value of --daemon (or --daemon=...) in argv, NULL if absent. */
const char *cli_daemon_arg(int argc, char **argv);

/* A client of the daemon at hostport, secured from the environment for a
 * daemon with --tls-cert / --auth-token-file: CATALYZER_TLS_CA (TLS, the
 * server verified against this CA bundle), CATALYZER_TLS_CERT and
 * CATALYZER_TLS_KEY (mutual TLS), CATALYZER_TLS_SERVER_NAME,
 * CATALYZER_TOKEN_FILE (its first token is sent as a bearer token). NULL
 * and err on a bad address or file. */
CzcClient *cli_client_new(const char *hostport, char *err, size_t errlen);

/* Options shared by the subcommands: --daemon, --conf k=v, --bare, --trace,
 * --diff, --all, --plan, one FILE (or `-`, or -e SQL), parsed by cli_getopt.
 * Returns 0; 1 after --help printed "usage: catalyzer USAGE" (exit 0); -1
 * after a message on stderr. */
typedef struct RemoteOpts {
    const char *daemon;
    const char *confs[256];
    int nconfs;
    bool bare, trace, diff, all, plan;
    const char *file;
} RemoteOpts;
int remote_parse_opts(int argc, char **argv, RemoteOpts *o, const char *usage);

/* A daemon session standing for the CLI's in-process session: the same
 * --conf values and (unless bare) the tables Spark's test harness creates. */
typedef struct Remote {
    CzcClient *cl;
    char session_id[64];
} Remote;
/* 0, or 2 with a message on stderr. */
int remote_open(Remote *r, const RemoteOpts *o);
void remote_close(Remote *r);

/* Analyze one statement in the session. Returns the gRPC status; on failure
 * prints it to stderr. */
int remote_analyze(Remote *r, const char *sql, size_t len, bool want_tree, int trace_level, bool trace_plans,
                   void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev), void *ud,
                   Catalyzer__V1__AnalyzeResponse **out);

/* The same for a Spark Connect plan (--plan). On a failed call (a plan that
 * does not decode: INVALID_ARGUMENT / UNIMPLEMENTED) message gets the
 * daemon's reason and nothing is printed. */
int remote_analyze_plan(Remote *r, Spark__Connect__Relation *rel, bool want_tree, int trace_level,
                        void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev), void *ud,
                        Catalyzer__V1__AnalyzeResponse **out, char *message, size_t msgcap);

/* The `catalyzer run` JSON line of a result, as cz_result_json prints it. malloc'd. */
char *remote_result_json(const Catalyzer__V1__AnalyzeResult *res, int index);

int cmd_run_daemon(int argc, char **argv);
int cmd_explain_daemon(int argc, char **argv);
int cmd_bench_daemon(int argc, char **argv);
int cmd_functions_daemon(int argc, char **argv);
int cmd_trace(int argc, char **argv);

#endif
