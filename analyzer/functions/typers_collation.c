/* The collation expressions (Spark's collationExpressions.scala):
 *
 *   x COLLATE utf8_lcase     CollateExpressionBuilder → Collate(x, "utf8_lcase"):
 *                            string collate UTF8_LCASE, printed collate(x, utf8_lcase)
 *                            with the name as written (the type prints it normalised)
 *   collation(x)             Collation(x): a string; ReplaceExpressions makes it the
 *                            literal 'SYSTEM.BUILTIN.<x's collation>' (replacements.c)
 *
 * The collation name is a field of Collate, not a child: the call keeps one
 * argument and the name in u.call.extra (printed by its `$S` tail). */
#include <string.h>

#include "core/collation.h"
#include "functions.h"
#include "print/printer.h"
#include "registry.h"

bool ty_collate(TypeCtx *c) {
    Arena *a = c->an->arena;
    Node *name_expr = c->args[1];
    const DataType *nt = name_expr->type;
    if (nt->id != T_STRING || !fn_is_foldable(name_expr)) {
        if (nt->id == T_STRING)
            an_fail(c->an, error_make(a, "NON_FOLDABLE_ARGUMENT", c->orig, "funcName", sql_ident(a, "collate"),
                                      "paramName", sql_ident(a, "collationName"), "paramType", "\"STRING\"", NULL));
        else
            an_fail(c->an, error_make(a, "UNEXPECTED_INPUT_TYPE", c->orig, "paramIndex", "second", "functionName",
                                      sql_ident(a, "collate"), "requiredType", "\"STRING\"", "inputSql",
                                      expr_sql_quoted(a, name_expr), "inputType", sql_type_quoted(a, nt), NULL));
        return false;
    }
    const char *name = fn_const_string(a, name_expr);
    if (!name) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_NULL", c->orig, "exprName",
                                  sql_ident(a, "collation"), "sqlExpr", expr_sql_quoted(a, name_expr), NULL));
        return false;
    }
    int32_t id;
    if (!collation_from_name(name, &id)) {
        an_fail(c->an, error_make(a, "COLLATION_INVALID_NAME", name_expr, "collationName", name, "proposals",
                                  collation_suggestions(a, name), NULL));
        return false;
    }
    c->nargs = 1;
    c->extra = arena_strdup(a, name);
    c->result = type_string_collated(a, id);
    return true;
}

bool ty_collation(TypeCtx *c) {
    c->result = &TYPE_STRING;
    c->nullable = 0;
    return true;
}

const char *fn_collation_full_name(Arena *a, const DataType *t) {
    StrBuf sb;
    sb_init(&sb, a, 40);
    sb_puts(&sb, "SYSTEM.BUILTIN.");
    collation_print_name(&sb, type_collation(t));
    return sb_str(&sb);
}
