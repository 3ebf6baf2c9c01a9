/* The subcommands' options, parsed with getopt_long in one place: each
 * subcommand says which it takes. Long options may be abbreviated and
 * written --name=value; options and FILEs may come in any order; `--` ends
 * the options. FILE may be `-` (standard input); `-e SQL` gives the
 * statements on the command line instead of a FILE (see source.h). */
#ifndef CZ_CLI_OPTS_H
#define CZ_CLI_OPTS_H

#include <stdbool.h>

enum {
    CLI_O_DAEMON = 1 << 0,     /* --daemon HOST:PORT */
    CLI_O_CONF = 1 << 1,       /* --conf key=value (repeatable) */
    CLI_O_BARE = 1 << 2,       /* --bare */
    CLI_O_TRACE = 1 << 3,      /* --trace */
    CLI_O_DIFF = 1 << 4,       /* --diff */
    CLI_O_ALL = 1 << 5,        /* --all */
    CLI_O_PLAN = 1 << 6,       /* --plan */
    CLI_O_SCHEMA = 1 << 7,     /* --schema FILE */
    CLI_O_ITERATIONS = 1 << 8, /* --iterations N */
    CLI_O_JSON = 1 << 9,       /* --json */
    CLI_O_EXPR = 1 << 10,      /* -e SQL */
    CLI_O_PHASES = 1 << 11,    /* --phases */
};

enum { CLI_MAX_CONFS = 256, CLI_MAX_FILES = 4096 };

typedef struct CliOpts {
    const char *daemon;
    const char *confs[CLI_MAX_CONFS];
    int nconfs;
    bool bare, trace, diff, all, plan, json, phases;
    const char *schema;
    long iterations; /* 0 when not given */
    const char *files[CLI_MAX_FILES]; /* FILEs in order; `-e` adds SOURCE_INLINE */
    int nfiles;
} CliOpts;

/* Parses the arguments after the subcommand name (argv[-1] must be that
 * name, as it is in main's argv). Returns 0; 1 when --help/-h printed
 * "usage: catalyzer USAGE" on stdout (exit 0); -1 after a message on stderr
 * (the caller prints its usage and exits 2). quiet: no messages (a probe). */
int cli_getopt(int argc, char **argv, unsigned allowed, const char *usage, bool quiet, CliOpts *o);

#endif
