/* The `catalyzer` CLI's subcommands: one file each, listed in catalyzer.c. */
#ifndef CZ_CLI_COMMANDS_H
#define CZ_CLI_COMMANDS_H

/* Each gets the arguments after the subcommand name and returns the exit status
 * (0 ok, 1 a statement failed, 2 usage or I/O error). */
int cmd_parse(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_functions(int argc, char **argv);
/* Exit 0 if the daemon at HOST:PORT reports SERVING, 1 for another status, 2 for none. */
int cmd_health(int argc, char **argv);
#define HEALTH_USAGE_LINE "health HOST:PORT   is the daemon serving? (grpc.health.v1; exit 0 if SERVING; --service NAME)"

/* Options shared by run/explain: --conf k=v, --bare, --trace, --plan (FILE
 * holds Spark Connect plans, see plan_input.h); FILE may be `-` or -e SQL.
 * Creates the session. Returns 0; 1 after --help printed "usage: catalyzer
 * USAGE" (exit 0); -1 after a message on stderr. */
struct CzSession;
enum { CLI_TRACE = 1, CLI_PLAN = 2 };
int cli_parse_common(int argc, char **argv, const char *usage, struct CzSession **session, const char **file, int *flags);

#endif
