/* getopt_long for the subcommands (see cli_opts.h). */
#include "cli_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"

enum { L_DAEMON = 256, L_CONF, L_BARE, L_TRACE, L_DIFF, L_ALL, L_PLAN, L_SCHEMA, L_ITERATIONS, L_JSON, L_PHASES };

static const struct option LONGOPTS[] = {
    {"daemon", required_argument, NULL, L_DAEMON},
    {"conf", required_argument, NULL, L_CONF},
    {"bare", no_argument, NULL, L_BARE},
    {"trace", no_argument, NULL, L_TRACE},
    {"diff", no_argument, NULL, L_DIFF},
    {"all", no_argument, NULL, L_ALL},
    {"plan", no_argument, NULL, L_PLAN},
    {"schema", required_argument, NULL, L_SCHEMA},
    {"iterations", required_argument, NULL, L_ITERATIONS},
    {"json", no_argument, NULL, L_JSON},
    {"phases", no_argument, NULL, L_PHASES},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The bit each option needs, indexed by its getopt value. */
static unsigned needs(int c) {
    switch (c) {
    case L_DAEMON: return CLI_O_DAEMON;
    case L_CONF: return CLI_O_CONF;
    case L_BARE: return CLI_O_BARE;
    case L_TRACE: return CLI_O_TRACE;
    case L_DIFF: return CLI_O_DIFF;
    case L_ALL: return CLI_O_ALL;
    case L_PLAN: return CLI_O_PLAN;
    case L_SCHEMA: return CLI_O_SCHEMA;
    case L_ITERATIONS: return CLI_O_ITERATIONS;
    case L_JSON: return CLI_O_JSON;
    case L_PHASES: return CLI_O_PHASES;
    case 'e': return CLI_O_EXPR;
    default: return 0;
    }
}

int cli_getopt(int argc, char **argv, unsigned allowed, const char *usage, bool quiet, CliOpts *o) {
    memset(o, 0, sizeof *o);
    char **av = argv - 1; /* getopt wants the program name first: the subcommand's */
    int ac = argc + 1;
    optind = 0; /* glibc: a full re-initialisation, so parsing twice works */
    opterr = 0;
    bool have_expr = false;
    int c, li;
    while ((c = getopt_long(ac, av, ":he:", LONGOPTS, &li)) != -1) {
        if (c == 'h') {
            if (quiet) continue;
            printf("usage: catalyzer %s\n", usage);
            return 1;
        }
        if (c == '?' || c == ':') {
            if (!quiet) {
                const char *bad = av[optind - 1];
                if (c == ':') fprintf(stderr, "catalyzer: option %s needs a value\n", bad);
                else fprintf(stderr, "catalyzer: unknown option %s\n", bad);
            }
            return -1;
        }
        if (!(needs(c) & allowed)) {
            if (!quiet) fprintf(stderr, "catalyzer: option %s does not apply here\n", av[optind - 1]);
            return -1;
        }
        switch (c) {
        case L_DAEMON: o->daemon = optarg; break;
        case L_CONF:
            if (o->nconfs < CLI_MAX_CONFS) o->confs[o->nconfs++] = optarg;
            break;
        case L_BARE: o->bare = true; break;
        case L_TRACE: o->trace = true; break;
        case L_DIFF: o->diff = true; break;
        case L_ALL: o->all = true; break;
        case L_PLAN: o->plan = true; break;
        case L_SCHEMA: o->schema = optarg; break;
        case L_ITERATIONS: {
            char *end;
            o->iterations = strtol(optarg, &end, 10);
            if (!*optarg || *end || o->iterations < 1) {
                if (!quiet) fprintf(stderr, "catalyzer: --iterations expects a positive number, got %s\n", optarg);
                return -1;
            }
            break;
        }
        case L_JSON: o->json = true; break;
        case L_PHASES: o->phases = true; break;
        case 'e':
            if (have_expr) {
                if (!quiet) fprintf(stderr, "catalyzer: one -e SQL at most\n");
                return -1;
            }
            have_expr = true;
            source_set_inline(optarg);
            if (o->nfiles < CLI_MAX_FILES) o->files[o->nfiles++] = SOURCE_INLINE;
            break;
        }
    }
    for (int i = optind; i < ac; i++)
        if (o->nfiles < CLI_MAX_FILES) o->files[o->nfiles++] = av[i];
    return 0;
}
