/* Printing plans and expressions the way Spark does.
 *  - plan_tree_string: Spark's treeString (`Project [a#1, (a#1 + 1) AS b#2]`
 *    / `+- Relation ...`), for resolved and unresolved plans alike.
 *  - expr_print: an expression's toString, as inside treeString (`a#1`, `'a`,
 *    `(a#1 + 1) AS b#2`, `outer(a#1)`).
 *  - expr_print_sql / expr_auto_name: Spark's toPrettySQL, the name Spark
 *    gives an unaliased select item (`(a + 1)`, `count(1)`, `CAST(a AS INT)`,
 *    `scalarsubquery()`, `sum(x) OVER (...)`).
 *  - schema_string: `struct<a:int,(a + 1):int>` from output attributes.
 * Unresolved plan nodes print with Spark's `'` prefix; subquery plans print
 * as innerChildren (`:  +- ...`) under their node; statements print as the
 * analyzed command Spark shows (`CreateViewCommand ...`, `SetVariable [...]`).
 * Numbers print as JDK 17 prints them (Spark's golden files come from it).
 * Output is linear in its size: the tree prefix is one growing buffer.
 * All results live in the given arena (or the StrBuf's); nothing else is
 * allocated. Resolved calls are printed by print_call.c from their FuncSig (core/func_sig.h). */
#ifndef CZ_PRINTER_H
#define CZ_PRINTER_H

#include "core/ir.h"
#include "core/strbuf.h"

const char *plan_tree_string(Arena *a, const Node *plan);
void plan_tree_print(StrBuf *sb, const Node *plan);
/* The same, given the statement's SQL text: commands that echo source text
 * (a view's query text, a variable's DEFAULT) slice it by node positions. */
void plan_tree_print_sql(StrBuf *sb, const Node *plan, const char *sql, size_t sql_len);
const char *plan_tree_string_sql(Arena *a, const Node *plan, const char *sql, size_t sql_len);
/* One node's own line, without children (`Project [a#1]`). */
void plan_node_print(StrBuf *sb, const Node *plan);

/* toString: `a#1`, `'a`, `cast(a#1 as bigint)`. Spark names some internal
 * aliases with it (e.g. aggregates pulled out of HAVING: `max(id#3L)`). */
void expr_print(StrBuf *sb, const Node *e);
const char *expr_to_string(Arena *a, const Node *e);
/* toPrettySQL (expr_print_sql), and the output name of an unaliased select
 * item (expr_auto_name: Spark's ResolveAliases — a named expression or a
 * cast of one keeps that name, anything else is named by toPrettySQL). */
void expr_print_sql(StrBuf *sb, const Node *e);
const char *expr_auto_name(Arena *a, const Node *e);
/* Expression.sql: attributes qualified, no pretty rewrite (`sum(t.a)`,
 * `(t.a + 1) AS b`); Spark names some generated columns with it (PIVOT). */
const char *expr_sql(Arena *a, const Node *e);
/* Spark's toSQLId of a dotted string: each part between dots backquoted. */
const char *sql_id_dotted(Arena *a, const char *s);
/* Spark's toSQLExpr for error parameters: the sql form in double quotes. */
const char *expr_sql_quoted(Arena *a, const Node *e);

/* Literal values: toString (`1`, `abc`, `2020-01-01`) and sql (`1L`, `'abc'`, `DATE '2020-01-01'`). */
void value_print(StrBuf *sb, const Value *v);
void value_print_sql(StrBuf *sb, const Value *v);

/* `struct<name:type,...>` from n attributes (AttributeReference or Alias-ish named nodes). */
const char *schema_string(Arena *a, Node *const *attrs, uint32_t n);

#endif
