/* The `catalyzer` command line tool: dispatches to a subcommand. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "remote.h"

typedef struct Subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} Subcommand;

/* One line per subcommand. */
static const Subcommand SUBCOMMANDS[] = {
    {"parse", cmd_parse, "parse FILE...          print the unresolved plan of each statement (.sql or .jsonl)"},
    {"run", cmd_run, "run [--conf k=v]... [--bare] [--plan] FILE   analyse each statement (--plan: Spark Connect plan) in one session; JSON line each"},
    {"bench", cmd_bench, "bench [--schema FILE] [--iterations N] [--json] [--phases] QUERY.sql...   in-process timing"},
    {"functions", cmd_functions, "functions          list the built-in functions (name, family, kind)"},
    {"trace", cmd_trace, "trace [--daemon H:P] [--diff] [--all] FILE   per-rule timeline of the last statement's analysis"},
    {"explain", cmd_explain, "explain [--conf k=v]... [--bare] [--trace] [--plan] FILE   print each analysed plan (and rule trace)"},
    {"health", cmd_health, HEALTH_USAGE_LINE},
};

static int usage(FILE *f) {
    fprintf(f, "usage: catalyzer <command> [args]\n"
               "       catalyzer [run options] -e 'SQL' | -     (the same as catalyzer run -e 'SQL' | -)\n"
               "       catalyzer --help | --version\n"
               "commands (each takes --daemon HOST:PORT to work through catalyzerd, --help for its usage;\n"
               "FILE may be - for standard input, or -e 'SQL' the statements themselves):\n");
    for (size_t i = 0; i < sizeof SUBCOMMANDS / sizeof SUBCOMMANDS[0]; i++) fprintf(f, "  %s\n", SUBCOMMANDS[i].usage);
    fprintf(f, "a daemon with TLS or tokens: CATALYZER_TLS_CA, CATALYZER_TLS_CERT, CATALYZER_TLS_KEY,\n"
               "CATALYZER_TLS_SERVER_NAME, CATALYZER_TOKEN_FILE in the environment\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage(stderr);
    static const struct option TOP[] = {{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    int c = getopt_long(argc, argv, "+hV", TOP, NULL); /* "+": stop at the subcommand */
    if (c == 'h') {
        usage(stdout);
        return 0;
    }
    if (c == 'V') {
        printf("catalyzer %s\n", CATALYZER_VERSION);
        return 0;
    }
    /* Options before any subcommand (-e 'SQL', --conf, --daemon ...) or `-`: run's. */
    if (c == '?' || c == ':' || !strcmp(argv[1], "-")) return cmd_run(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof SUBCOMMANDS / sizeof SUBCOMMANDS[0]; i++)
        if (!strcmp(argv[1], SUBCOMMANDS[i].name)) return SUBCOMMANDS[i].run(argc - 2, argv + 2);
    fprintf(stderr, "catalyzer: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
