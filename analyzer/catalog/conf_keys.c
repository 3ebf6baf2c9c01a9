/* Session configuration: Spark's defaults and the keys the analyzer reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "session.h"

void conf_init_defaults(Conf *c) {
    memset(c, 0, sizeof *c);
    c->ansi = true;
    c->case_sensitive = false;
    c->group_by_ordinal = true;
    c->order_by_ordinal = true;
    c->group_by_aliases = true;
    c->lateral_alias = true;
    c->cross_join = true;
    c->cte_precedence = CTE_CORRECTED;
    c->max_iterations = 100;
}

static bool parse_bool(const char *v, bool *out) {
    while (*v == ' ') v++;
    size_t n = strlen(v);
    while (n && v[n - 1] == ' ') n--;
    if (n == 4 && strncasecmp(v, "true", 4) == 0) { *out = true; return true; }
    if (n == 5 && strncasecmp(v, "false", 5) == 0) { *out = false; return true; }
    return false;
}

typedef struct BoolKey {
    const char *key;
    size_t offset;
} BoolKey;

static const BoolKey BOOL_KEYS[] = {
    {"spark.sql.ansi.enabled", offsetof(Conf, ansi)},
    {"spark.sql.caseSensitive", offsetof(Conf, case_sensitive)},
    {"spark.sql.groupByOrdinal", offsetof(Conf, group_by_ordinal)},
    {"spark.sql.orderByOrdinal", offsetof(Conf, order_by_ordinal)},
    {"spark.sql.groupByAliases", offsetof(Conf, group_by_aliases)},
    {"spark.sql.lateralColumnAlias.enableImplicitResolution", offsetof(Conf, lateral_alias)},
    {"spark.sql.crossJoin.enabled", offsetof(Conf, cross_join)},
    {"spark.sql.legacy.parser.havingWithoutGroupByAsWhere", offsetof(Conf, having_without_group_by_as_where)},
    {"spark.sql.legacy.setopsPrecedence.enabled", offsetof(Conf, legacy_setops_precedence)},
    {"spark.sql.ansi.doubleQuotedIdentifiers", offsetof(Conf, double_quoted_identifiers)},
    {"spark.sql.ansi.enforceReservedKeywords", offsetof(Conf, enforce_reserved_keywords)},
    {"catalyzer.aliasInSubquery.enabled", offsetof(Conf, alias_in_subquery)},
    {"catalyzer.decorrelate", offsetof(Conf, decorrelate)},
    {"catalyzer.explain.finishAnalysis", offsetof(Conf, finish_analysis)},
};

bool conf_get_bool(const Conf *c, const char *key, bool dflt) {
    for (int i = c ? c->nentries - 1 : -1; i >= 0; i--)
        if (c->keys[i] && !strcasecmp(c->keys[i], key)) {
            bool b;
            return c->values[i] && parse_bool(c->values[i], &b) ? b : dflt;
        }
    return dflt;
}

/* Applies key=value to the typed fields; false if the value is invalid for a known key. */
bool conf_apply(Conf *c, const char *key, const char *value) {
    for (size_t i = 0; i < sizeof BOOL_KEYS / sizeof BOOL_KEYS[0]; i++) {
        if (strcasecmp(key, BOOL_KEYS[i].key) == 0) {
            bool b;
            if (!parse_bool(value, &b)) return false;
            *(bool *)((char *)c + BOOL_KEYS[i].offset) = b;
            return true;
        }
    }
    if (strcasecmp(key, "spark.sql.legacy.ctePrecedencePolicy") == 0) {
        if (strcasecmp(value, "CORRECTED") == 0) c->cte_precedence = CTE_CORRECTED;
        else if (strcasecmp(value, "EXCEPTION") == 0) c->cte_precedence = CTE_EXCEPTION;
        else if (strcasecmp(value, "LEGACY") == 0) c->cte_precedence = CTE_LEGACY;
        else return false;
        return true;
    }
    if (strcasecmp(key, "spark.sql.analyzer.maxIterations") == 0) {
        char *end;
        long n = strtol(value, &end, 10);
        if (*end || n < 1 || n > 100000) return false;
        c->max_iterations = (int)n;
        return true;
    }
    if (strcasecmp(key, "spark.sql.timestampType") == 0) {
        if (strcasecmp(value, "TIMESTAMP_NTZ") == 0) c->timestamp_type_ntz = 1;
        else if (strcasecmp(value, "TIMESTAMP_LTZ") == 0) c->timestamp_type_ntz = 0;
        else return false;
        return true;
    }
    return true; /* other keys are kept as text only */
}

void cz_default_time_zone(char *buf, size_t size) {
    if (!size) return;
    const char *tz = getenv("TZ");
    if (tz && *tz == ':') tz++;
    if (tz && *tz) {
        snprintf(buf, size, "%s", tz);
        return;
    }
    FILE *f = fopen("/etc/timezone", "r");
    if (f) {
        char line[128];
        bool got = fgets(line, sizeof line, f) != NULL;
        fclose(f);
        if (got) {
            line[strcspn(line, " \t\r\n")] = '\0';
            if (*line) {
                snprintf(buf, size, "%s", line);
                return;
            }
        }
    }
    snprintf(buf, size, "UTC");
}

const char *conf_session_time_zone(Arena *a, const SessionState *s) {
    const char *tz = s ? state_get_conf(s, "spark.sql.session.timeZone") : NULL;
    if (tz && *tz) return tz;
    char buf[128];
    cz_default_time_zone(buf, sizeof buf);
    return arena_strdup(a, buf);
}
