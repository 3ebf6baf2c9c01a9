/* Internal interface between the printer's files (not for other modules). */
#ifndef CZ_PRINT_INTERNAL_H
#define CZ_PRINT_INTERNAL_H

#include <string.h>

#include "printer.h"

/* sb_putn / sb_puts / sb_putc with the common case (room left) inline: the
 * printers append a few bytes at a time, hundreds of thousands of times per
 * plan, and the out-of-line call (and strlen of a constant) cost more than
 * the bytes. Same result as the StrBuf functions, which take the rest. */
static inline void pr_putn(StrBuf *sb, const char *s, size_t n) {
    if (sb->len + n < sb->cap) {
        memcpy(sb->data + sb->len, s, n);
        sb->len += n;
        sb->data[sb->len] = 0;
        return;
    }
    sb_putn(sb, s, n);
}
static inline void pr_puts(StrBuf *sb, const char *s) { pr_putn(sb, s, strlen(s)); }
static inline void pr_putc(StrBuf *sb, char c) {
    if (sb->len + 1 < sb->cap) {
        sb->data[sb->len++] = c;
        sb->data[sb->len] = 0;
        return;
    }
    sb_putc(sb, c);
}

/* How an expression is printed:
 *  PS_STRING  Spark's toString, as inside treeString (`a#1`, `cast(a#1 as int)`)
 *  PS_PRETTY  toPrettySQL = usePrettyExpression(e).sql: attributes by name,
 *             numeric/string literals bare, implicit casts dropped
 *  PS_SQL     Expression.sql without the pretty rewrite (attributes qualified),
 *             used under OuterReference and for literal `sql` forms */
typedef enum PrintStyle { PS_STRING, PS_PRETTY, PS_SQL } PrintStyle;

void expr_print_style(StrBuf *sb, const Node *e, PrintStyle style);

/* spark.sql.debug.maxToStringFields: lists in plan lines show this many items
 * and then `... N more fields`. */
enum { PRINT_MAX_FIELDS = 25 };

/* `[a, b, c]` with each item in the given style (Spark's Seq formatting inside
 * plans, truncated after PRINT_MAX_FIELDS items). */
void expr_list_print(StrBuf *sb, Node *const *v, uint32_t n, PrintStyle style);

/* A multi-part name joined with '.', each part backquoted if it needs it
 * (Spark's `quoted`); `raw` joins without quoting. */
void name_parts_print(StrBuf *sb, NameParts np, bool quote_if_needed);
/* Spark's quoteIfNeeded for one part. */
void ident_print_if_needed(StrBuf *sb, const char *s);

/* One plan node's line (without prefix and newline): `Project [a#1]`.
 * sql: the statement text, for commands that echo parts of it (may be NULL). */
void plan_node_line_sql(StrBuf *sb, const Node *n, const char *sql, size_t sql_len);
/* The single child line Spark prints under some analyzed commands
 * (`ResolvedNamespace V2SessionCatalog(spark_catalog), [db]`), or NULL. */
const char *plan_synthetic_child(Arena *a, const Node *n, const char *sql, size_t sql_len);
/* Whether the kids of this statement node are innerChildren in Spark (printed
 * under the node with "   +- ") rather than children. */
bool plan_kids_are_inner(const Node *n);

/* A statement's line as Spark prints the command (statement_print.c); false
 * for a kind it does not print. */
bool statement_print(StrBuf *sb, const Node *n, const char *sql, size_t len);
/* The ResolvedTable / ResolvedNamespace child line of such a command, or NULL. */
const char *statement_synthetic_child(Arena *a, const Node *n);

/* Java's Double.toString / Float.toString. */
void java_double_print(StrBuf *sb, double d);
/* printf's %lld and %llu, without printf. */
void print_int64(StrBuf *sb, long long v);
void print_uint64(StrBuf *sb, unsigned long long u);
void java_float_print(StrBuf *sb, float f);

/* Java BigDecimal.toString of unscaled × 10^-scale (scientific when Java uses it). */
void decimal_print(StrBuf *sb, __int128 unscaled, int scale);
/* BigDecimal.valueOf(v, scale).stripTrailingZeros.toPlainString. */
void decimal_print_plain_stripped(StrBuf *sb, __int128 unscaled, int scale);

/* Date (days since epoch) as yyyy-MM-dd; timestamp (micros, UTC) as
 * yyyy-MM-dd HH:mm:ss[.ffffff] with trailing fraction zeros removed. */
void date_print(StrBuf *sb, int64_t days);
void timestamp_print(StrBuf *sb, int64_t micros);
/* ANSI interval literals: `INTERVAL '1-2' YEAR TO MONTH`, `INTERVAL '3' DAY`. */
void ym_interval_print(StrBuf *sb, int64_t months, int start, int end);
void dt_interval_print(StrBuf *sb, int64_t micros, int start, int end);
/* CalendarInterval.toString: `1 years 2 days 3 hours`. */
void calendar_interval_print(StrBuf *sb, int32_t months, int32_t days, int64_t micros);

/* Prints a Call (and AggregateExpression's inner call) as Spark does: `sql`
 * style for output names (`(a + 1)`, `ACOS(1)`, `count(DISTINCT b)`), or
 * toString style for plans (`(a#1 + 1)`, `count(b#2)`); print_arg prints each
 * argument in the same style. The print form comes from the call's FuncSig. */
typedef void (*PrintArgFn)(StrBuf *sb, const Node *arg, void *ctx);
void func_print(StrBuf *sb, const Node *call, bool sql_style, PrintArgFn print_arg, void *ctx);

#endif
