/* The name an IDENTIFIER(expr) clause builds: expr must be a constant
 * STRING, evaluated and parsed as a multi-part name (Spark's
 * IdentifierClauseUtil). Used by ResolveIdentifierClause and by the
 * statements whose target is an IDENTIFIER clause. */
#include "identifier.h"

#include "eval/consteval.h"
#include "parser/parser.h"
#include "print/printer.h"

/* NOT_A_CONSTANT_STRING.*, with Spark's parameters: the expression's SQL
 * and the type's simple name, unquoted. */
static Node *not_constant(Analysis *an, const Node *e, const char *sub, const DataType *type) {
    const char *cls = arena_printf(an->arena, "NOT_A_CONSTANT_STRING.%s", sub);
    StrBuf sb;
    sb_init(&sb, an->arena, 32);
    expr_print_sql(&sb, e);
    if (type)
        return an_fail(an, error_make(an->arena, cls, e, "expr", sb_str(&sb), "name", "IDENTIFIER", "dataType",
                                      type_catalog_string(an->arena, type), NULL));
    return an_fail(an, error_make(an->arena, cls, e, "expr", sb_str(&sb), "name", "IDENTIFIER", NULL));
}

bool identifier_name_parts(Analysis *an, const Node *e, NameParts *out) {
    if (!expr_is_constant(e)) return not_constant(an, e, "NOT_CONSTANT", NULL), false;
    if (!e->type || !type_is_string(e->type)) {
        if (e->type && e->type->id == T_NULL) return not_constant(an, e, "NULL", NULL), false;
        return not_constant(an, e, "WRONG_TYPE", e->type ? e->type : &TYPE_NULL), false;
    }
    Value v;
    if (!const_eval(an, e, &v)) {
        /* foldable, yet not computed here (a variable whose value is
           unknown, a function the evaluator lacks): Spark would know it */
        if (!an_failed(an))
            an_fail(an, error_make(an->arena, "CATALYZER_UNEVALUATED_VALUE", e, "expr", expr_sql_quoted(an->arena, e),
                                   NULL));
        return false;
    }
    if (v.is_null) return not_constant(an, e, "NULL", NULL), false;
    ErrorInfo *err = NULL;
    if (!parse_multipart_identifier(an->arena, v.u.s.p, v.u.s.len, out, &err)) {
        if (err) {
            /* Spark reports the inner parse error at the clause */
            err->start = e->start;
            err->stop = e->stop;
        }
        an_fail(an, err ? err : error_make(an->arena, "PARSE_SYNTAX_ERROR", e, "error", "''", "hint", "", NULL));
        return false;
    }
    return true;
}
