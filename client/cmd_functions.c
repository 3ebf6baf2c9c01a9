/* `catalyzer functions` — lists the built-in functions: name, family and
 * kind, tab-separated, one per line (the conformance runner groups the
 * function corpus by family with it). */
#include <stdio.h>

#include "cli_opts.h"
#include "commands.h"
#include "remote.h"
#include "functions/functions.h"

int cmd_functions(int argc, char **argv) {
    CliOpts o;
    int prc = cli_getopt(argc, argv, CLI_O_DAEMON, "functions [--daemon HOST:PORT]", false, &o);
    if (prc == 1) return 0;
    if (prc != 0 || o.nfiles) {
        fprintf(stderr, "usage: catalyzer functions [--daemon HOST:PORT]\n");
        return 2;
    }
    if (o.daemon) return cmd_functions_daemon(argc, argv);
    static const char *const KINDS[] = {"scalar", "aggregate", "window", "generator"};
    const char *const *names;
    int n = func_builtin_names(&names);
    for (int i = 0; i < n; i++) {
        const FuncDef *d = func_lookup_builtin(names[i]);
        if (!d) continue;
        printf("%s\t%s\t%s\n", names[i], func_family(d), KINDS[func_kind(d)]);
    }
    return 0;
}
