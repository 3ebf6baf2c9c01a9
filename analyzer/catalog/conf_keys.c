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
    {"catalyzer.analyzer.singlePass", offsetof(Conf, single_pass)},
    {"catalyzer.analyzer.dualRun", offsetof(Conf, dual_run)},
    {"catalyzer.analyzer.ruleTrace", offsetof(Conf, rule_trace)},
};

/* An offset as java.time.ZoneOffset.of reads it after Spark's getZoneId
 * (`+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss`, at most 18 hours). */
static bool valid_offset(const char *v) {
    if (*v != '+' && *v != '-') return false;
    v++;
    int d[6], n = 0;
    bool colons = strchr(v, ':') != NULL;
    for (const char *q = v; *q; q++) {
        if (*q == ':') continue;
        if (*q < '0' || *q > '9' || n == 6) return false;
        d[n++] = *q - '0';
    }
    int h, m = 0, sec = 0;
    if (n == 1) h = d[0];
    else if (n == 2 || n == 4 || n == 6) {
        h = d[0] * 10 + d[1];
        if (n >= 4) m = d[2] * 10 + d[3];
        if (n == 6) sec = d[4] * 10 + d[5];
        if (colons && strlen(v) != (size_t)(n + n / 2 - 1)) return false;
    } else return false;
    return h <= 18 && m < 60 && sec < 60 && (h < 18 || (m == 0 && sec == 0));
}

/* DateTimeUtils.getZoneId succeeds: an offset, UTC/GMT/UT with or without
 * one, one of ZoneId.SHORT_IDS, or a region of the tz database (a file
 * under /usr/share/zoneinfo; every region is taken when it is missing). */
bool conf_valid_time_zone(const char *v) {
    static const char *const SHORT[] = {"ACT", "AET", "AGT", "ART", "AST", "BET", "BST", "CAT", "CNT", "CST",
                                        "CTT", "EAT", "ECT", "IET", "IST", "JST", "MIT", "NET", "NST", "PLT",
                                        "PNT", "PRT", "PST", "SST", "VST", "EST", "MST", "HST"};
    if (!v || !*v) return false;
    if (!strcmp(v, "Z") || valid_offset(v)) return true;
    for (size_t i = 0; i < sizeof SHORT / sizeof SHORT[0]; i++)
        if (!strcmp(v, SHORT[i])) return true;
    static const char *const PREFIX[] = {"UTC", "GMT", "UT"};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(PREFIX[i]);
        if (!strncmp(v, PREFIX[i], n) && (!v[n] || valid_offset(v + n))) return true;
    }
    for (const char *q = v; *q; q++)
        if (!((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || strchr("~/._+-", *q)))
            return false;
    if (strstr(v, "..") || v[0] == '/' || v[0] == '.') return false;
    FILE *dir = fopen("/usr/share/zoneinfo/UTC", "rb");
    if (!dir) return true;
    fclose(dir);
    char path[512];
    snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", v);
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char magic[4] = {0};
    bool tzif = fread(magic, 1, 4, f) == 4 && !memcmp(magic, "TZif", 4);
    fclose(f);
    return tzif;
}

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
    if (strcasecmp(key, "spark.sql.session.timeZone") == 0) return conf_valid_time_zone(value);
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
    if (s && s->default_time_zone) return arena_strdup(a, s->default_time_zone);
    char buf[128];
    cz_default_time_zone(buf, sizeof buf);
    return arena_strdup(a, buf);
}
