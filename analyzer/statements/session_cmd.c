/* Session statements: SET (Spark's SetCommand), RESET (ResetCommand) and
 * ADD / LIST JAR|FILE|ARCHIVE (AddJarsCommand, ListFilesCommand, ...).
 * RESET drops what SET changed: every key, or the one named, returns to the
 * session's launch value (what the client set through the API, as Spark
 * keeps the SparkConf values) or to its default. */
#include "statements.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/collation.h"
#include "print/printer.h"
#include "rules/lib/variables.h"

Node *stmt_set_config(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    const char *key = stmt->u.ddl.text;
    if (!key || !stmt->u.ddl.value) return stmt; /* SET / SET key: shows values */
    if (strncasecmp(key, "hivevar:", 8) == 0) key += 8; /* Spark's SetCommand.VariableName */
    if (variable_is_config_key(s->state, key))
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.SET_VARIABLE_USING_SET", stmt, "variableName",
                                      variable_key_sql(an, key), NULL));
    SessionState *st = pending_state(s, pend);
    if (stmt->flags & NF_IMPLICIT) {
        /* SET TIME ZONE LOCAL: the default zone */
        char buf[128];
        if (s->state->default_time_zone) snprintf(buf, sizeof buf, "%s", s->state->default_time_zone);
        else cz_default_time_zone(buf, sizeof buf);
        Node *c = node_new(an->arena, NK_SetConfig, stmt->start, stmt->stop);
        *c = *stmt;
        c->u.ddl.value = arena_strdup(an->arena, buf);
        stmt = c;
    }
    if (!strcasecmp(key, "spark.sql.session.timeZone") && !conf_valid_time_zone(stmt->u.ddl.value))
        return an_fail(an, error_make(an->arena, "INVALID_CONF_VALUE.TIME_ZONE", stmt, "confName", key, "confValue",
                                      stmt->u.ddl.value, NULL));
    int32_t coll;
    if (!strcasecmp(key, "spark.sql.session.collation.default") && !collation_from_name(stmt->u.ddl.value, &coll))
        return an_fail(an, error_make(an->arena, "INVALID_CONF_VALUE.DEFAULT_COLLATION", stmt, "confName", key,
                                      "confValue", stmt->u.ddl.value, "proposals",
                                      collation_suggestions(an->arena, stmt->u.ddl.value), NULL));
    if (!state_set_conf(st, key, stmt->u.ddl.value))
        return an_fail(an, error_make(an->arena, "INVALID_CONF_VALUE.DEFAULT", stmt, "confValue",
                                      arena_printf(an->arena, "'%s'", stmt->u.ddl.value), "confName",
                                      sql_conf(an->arena, key), NULL));
    return stmt;
}

Node *stmt_reset_config(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)an;
    const char *key = stmt->u.ddl.text;
    SessionState *st = pending_state(s, pend);
    if (key) state_reset_conf(st, key);
    else state_reset_all_conf(st);
    return stmt;
}

/* ADD JAR|FILE|ARCHIVE paths and LIST ...: resources the engine loads when
 * the command runs; LIST has Spark's `Results` column. */
Node *stmt_resource(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)s, (void)pend;
    if (stmt->kind == NK_AddResource && !stmt->u.ddl.value)
        return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "end of input", "hint", "", NULL));
    if (stmt->kind == NK_ListResource) {
        static const char *const names[] = {"Results"};
        static const DataType *const types[] = {&TYPE_STRING};
        return stmt_with_output(an, stmt, 1, names, types);
    }
    return stmt;
}
