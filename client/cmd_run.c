/* `catalyzer run [--conf key=value]... [--bare] FILE` — a stable interface:
 * runs the statements of FILE in order in one fresh in-process session
 * (with the tables Spark's SQL test harness creates, unless --bare) and
 * prints one JSON object per statement:
 *   {"index":N,"status":"ok","schema":"struct<...>"}
 *   {"index":N,"status":"error","error_class":...,"sqlstate":...,"message":...,
 *    "message_parameters":{...},"query_context":{"start":S,"stop":E,"fragment":...}}
 * Exit 0 whatever the statements did; 2 for usage or I/O errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "cli_opts.h"
#include "commands.h"
#include "external_catalogs.h"
#include "input.h"
#include "plan_input.h"
#include "remote.h"

/* run --plan: one line per Spark Connect plan. */
static int run_plans(CzSession *s, const char *path) {
    PlanList pl;
    if (plans_read(path, &pl) != 0) return 2;
    for (size_t i = 0; i < pl.n; i++) {
        char err[512];
        CzResult *r = plan_analyse(s, pl.v[i], NULL, err, sizeof err);
        if (r) {
            fputs(cz_result_json(r, (int)i), stdout);
            cz_result_free(r);
        } else {
            char *line = plan_error_json((int)i, err);
            fputs(line, stdout);
            free(line);
        }
        fputc('\n', stdout);
        fflush(stdout);
    }
    plans_free(&pl);
    return 0;
}

int cli_parse_common(int argc, char **argv, const char *usage, CzSession **session, const char **file, int *flags) {
    CliOpts o;
    int rc = cli_getopt(argc, argv, CLI_O_CONF | CLI_O_BARE | CLI_O_TRACE | CLI_O_PLAN | CLI_O_EXPR, usage, false, &o);
    if (rc != 0) return rc;
    bool bare = o.bare;
    const char *const *confs = o.confs;
    int nconfs = o.nconfs;
    *flags = (o.trace ? CLI_TRACE : 0) | (o.plan ? CLI_PLAN : 0);
    if (o.nfiles > 1) {
        fprintf(stderr, "catalyzer: one FILE expected\n");
        return -1;
    }
    if (!o.nfiles) {
        fprintf(stderr, "catalyzer: FILE expected\n");
        return -1;
    }
    const char *path = o.files[0];
    CzSession *s = cli_session_new(!bare);
    for (int i = 0; i < nconfs; i++) {
        char key[512];
        const char *eq = strchr(confs[i], '=');
        if (!eq || (size_t)(eq - confs[i]) >= sizeof key) {
            fprintf(stderr, "catalyzer: --conf expects key=value, got %s\n", confs[i]);
            cz_session_free(s);
            return -1;
        }
        memcpy(key, confs[i], (size_t)(eq - confs[i]));
        key[eq - confs[i]] = 0;
        if (!cz_session_set_conf(s, key, eq + 1)) {
            fprintf(stderr, "catalyzer: invalid value for %s: %s\n", key, eq + 1);
            cz_session_free(s);
            return -1;
        }
    }
    *session = s;
    *file = path;
    return 0;
}

int cmd_run(int argc, char **argv) {
    if (cli_daemon_arg(argc, argv)) return cmd_run_daemon(argc, argv);
    CzSession *s;
    const char *path;
    int flags;
    static const char USAGE[] = "run [--conf key=value]... [--bare] [--plan] FILE|-|-e SQL";
    int prc = cli_parse_common(argc, argv, USAGE, &s, &path, &flags);
    if (prc == 1) return 0;
    if (prc != 0) {
        fprintf(stderr, "usage: catalyzer %s\n", USAGE);
        return 2;
    }
    if (flags & CLI_PLAN) {
        int rc = run_plans(s, path);
        cz_session_free(s);
        return rc;
    }
    StatementList l;
    if (statements_read(path, &l) != 0) {
        cz_session_free(s);
        return 2;
    }
    for (size_t i = 0; i < l.n; i++) {
        CzResult *r = cz_run_sql(s, l.v[i].sql, l.v[i].len, NULL);
        fputs(cz_result_json(r, (int)i), stdout);
        fputc('\n', stdout);
        fflush(stdout);
        cz_result_free(r);
    }
    statements_free(&l);
    cz_session_free(s);
    return 0;
}
