/* Session configuration by Spark's keys. The typed fields are what the
 * analyzer reads on its hot path; every key (known or not) is also kept as
 * text so SET key shows it back. */
#ifndef CZ_CONF_H
#define CZ_CONF_H

#include <stdbool.h>
#include <stdint.h>

typedef enum CtePrecedence { CTE_CORRECTED, CTE_EXCEPTION, CTE_LEGACY } CtePrecedence;

typedef struct Conf {
    bool ansi;                      /* spark.sql.ansi.enabled (true) */
    bool case_sensitive;            /* spark.sql.caseSensitive (false) */
    bool group_by_ordinal;          /* spark.sql.groupByOrdinal (true) */
    bool order_by_ordinal;          /* spark.sql.orderByOrdinal (true) */
    bool group_by_aliases;          /* spark.sql.groupByAliases (true) */
    bool lateral_alias;             /* spark.sql.lateralColumnAlias.enableImplicitResolution (true) */
    bool cross_join;                /* spark.sql.crossJoin.enabled (true) */
    bool having_without_group_by_as_where; /* spark.sql.legacy.parser.havingWithoutGroupByAsWhere (false) */
    bool legacy_setops_precedence; /* spark.sql.legacy.setopsPrecedence.enabled (false) */
    bool double_quoted_identifiers; /* spark.sql.ansi.doubleQuotedIdentifiers (false) */
    bool enforce_reserved_keywords; /* spark.sql.ansi.enforceReservedKeywords (false) */
    CtePrecedence cte_precedence;   /* spark.sql.legacy.ctePrecedencePolicy (CORRECTED) */
    bool alias_in_subquery;         /* catalyzer.aliasInSubquery.enabled (false) */
    bool decorrelate;               /* catalyzer.decorrelate (false) */
    bool finish_analysis;           /* catalyzer.explain.finishAnalysis (false): the analysed plan after
                                       Spark's ReplaceExpressions and RewriteWithExpression, printed with
                                       expression ids normalised (as Spark's Connect plan tests print it) */
    int max_iterations;             /* spark.sql.analyzer.maxIterations (100) */
    bool single_pass;               /* catalyzer.analyzer.singlePass (false): the single-pass resolver
                                       (analyzer/resolver/) where its guard covers the plan */
    bool dual_run;                  /* catalyzer.analyzer.dualRun (false): both analyzers, plans compared */
    bool rule_trace;                /* catalyzer.analyzer.ruleTrace (false): a traced request takes the
                                       fixed-point path (rule-by-rule events) even with singlePass on */
    int timestamp_type_ntz;         /* spark.sql.timestampType = TIMESTAMP_NTZ */
    /* all keys as text */
    int nentries;
    const char **keys;
    const char **values;
} Conf;

/* Whether spark.sql.session.timeZone may be set to v (Spark's isValidTimezone). */
bool conf_valid_time_zone(const char *v);
/* A boolean key as set in the session (any key, as text; dflt when unset or not a boolean). */
bool conf_get_bool(const Conf *c, const char *key, bool dflt);

#endif
