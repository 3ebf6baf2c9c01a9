/* Operators: arithmetic, comparison, logic, bitwise, null tests, LIKE. The
 * parser names them by symbol or keyword (UnresolvedFunction.is_operator). */
#include "functions.h"
#include "registry.h"
#include "core/func_sig.h"

#define OP (FD_OPERATOR)

const FuncDef FUNCS_OPERATORS[] = {
    /* arithmetic (BinaryArithmetic; DecimalPrecision; datetime forms) */
    {SCALAR("+", 2, 2, "??", arith, NULL), .flags = OP, .print = CS_BINARY, .op = "+"},
    {SCALAR("-", 2, 2, "??", arith, NULL), .flags = OP, .print = CS_BINARY, .op = "-"},
    {SCALAR("*", 2, 2, "??", arith, NULL), .flags = OP, .print = CS_BINARY, .op = "*"},
    {SCALAR("/", 2, 2, "??", div, NULL), .flags = OP, .print = CS_BINARY, .op = "/"},
    {SCALAR("%", 2, 2, "??", rem, NULL), .flags = OP, .print = CS_BINARY, .op = "%"},
    {SCALAR("div", 2, 2, "??", intdiv, NULL), .flags = OP, .print = CS_BINARY, .op = "div"},
    {SCALAR("-", 1, 1, "?", unary_num, NULL), .flags = OP, .print = CS_PREFIX, .op = "-"},
    {SCALAR("+", 1, 1, "?", unary_num, NULL), .flags = OP, .print = CS_PREFIX, .op = "+"},
    /* comparison */
    {SCALAR("=", 2, 2, "??", eq, NULL), .flags = OP, .print = CS_BINARY, .op = "="},
    {SCALAR("==", 2, 2, "??", eq, NULL), .flags = OP, .print = CS_BINARY, .op = "="},
    {SCALAR("<=>", 2, 2, "??", eq, NULL), .flags = OP | FD_NOT_NULL, .print = CS_BINARY, .op = "<=>"},
    {SCALAR("!=", 2, 2, "??", neq, NULL), .flags = OP},
    {SCALAR("<>", 2, 2, "??", neq, NULL), .flags = OP},
    {SCALAR("<", 2, 2, "??", cmp, NULL), .flags = OP, .print = CS_BINARY, .op = "<"},
    {SCALAR("<=", 2, 2, "??", cmp, NULL), .flags = OP, .print = CS_BINARY, .op = "<="},
    {SCALAR(">", 2, 2, "??", cmp, NULL), .flags = OP, .print = CS_BINARY, .op = ">"},
    {SCALAR(">=", 2, 2, "??", cmp, NULL), .flags = OP, .print = CS_BINARY, .op = ">="},
    /* logic */
    {SCALAR("and", 2, 2, "??", logic, NULL), .flags = OP, .print = CS_BINARY, .op = "AND"},
    {SCALAR("or", 2, 2, "??", logic, NULL), .flags = OP, .print = CS_BINARY, .op = "OR"},
    {SCALAR("not", 1, 1, "?", not, NULL), .flags = OP, .print = CS_PREFIX, .op = "NOT"},
    {SCALAR("!", 1, 1, "?", not, NULL), .flags = OP, .print = CS_PREFIX, .op = "NOT"},
    /* bitwise */
    {SCALAR("&", 2, 2, "??", bitwise, NULL), .flags = OP, .print = CS_BINARY, .op = "&"},
    {SCALAR("|", 2, 2, "??", bitwise, NULL), .flags = OP, .print = CS_BINARY, .op = "|"},
    {SCALAR("^", 2, 2, "??", bitwise, NULL), .flags = OP, .print = CS_BINARY, .op = "^"},
    {SCALAR("~", 1, 1, "?", bitnot, NULL), .flags = OP, .print = CS_TILDE},
    {SCALAR("<<", 2, 2, "?i", shift, NULL), .pname = "shiftleft", .flags = OP},
    {SCALAR(">>", 2, 2, "?i", shift, NULL), .pname = "shiftright", .flags = OP},
    {SCALAR(">>>", 2, 2, "?i", shift, NULL), .pname = "shiftrightunsigned", .flags = OP},
    /* null tests */
    {SCALAR("isnull", 1, 1, "?", fixed, "boolean"), .flags = OP | FD_NOT_NULL, .print = CS_POSTFIX, .op = "IS NULL"},
    {SCALAR("isnotnull", 1, 1, "?", fixed, "boolean"), .flags = OP | FD_NOT_NULL, .print = CS_POSTFIX,
     .op = "IS NOT NULL"},
    /* pattern matching */
    {SCALAR("like", 2, 3, "ss?", fixed, "boolean"), .flags = OP, .print = CS_LIKE, .op = "LIKE"},
    {SCALAR("ilike", 2, 3, "ss?", fixed, "boolean"), .flags = OP, .sql_nargs = 2 /* the escape is a field */},
    {SCALAR("rlike", 2, 2, "ss", fixed, "boolean"), .flags = OP, .print = CS_RLIKE},
    {SCALAR("regexp", 2, 2, "ss", fixed, "boolean"), .print = CS_RLIKE},
    {SCALAR("regexp_like", 2, 2, "ss", fixed, "boolean"), .print = CS_RLIKE},
    {SCALAR("like any", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "LIKE ANY"},
    {SCALAR("like all", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "LIKE ALL"},
    {SCALAR("not like any", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "NOT LIKE ANY"},
    {SCALAR("not like all", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "NOT LIKE ALL"},
    {SCALAR("ilike any", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "ILIKE ANY"},
    {SCALAR("ilike all", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "ILIKE ALL"},
    {SCALAR("not ilike any", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "NOT ILIKE ANY"},
    {SCALAR("not ilike all", 1, -1, "s", fixed, "boolean"), .flags = OP, .print = CS_LIKE_MULTI, .op = "NOT ILIKE ALL"},
    {SCALAR("||", 0, -1, "?", concat, NULL), .pname = "concat", .flags = OP},
    {SCALAR("between", 3, 3, "???", between, NULL)},
    /* datetime arithmetic forms Spark prints without parentheses (TimeAdd, DateAddInterval) */
    {SCALAR("@dt_add", 2, 2, "??", arg0, NULL), .flags = OP | FD_NULLABLE, .print = CS_DT_ARITH, .op = "+"},
    {SCALAR("@dt_sub", 2, 2, "??", arg0, NULL), .flags = OP | FD_NULLABLE, .print = CS_DT_ARITH, .op = "-"},
    {SCALAR("extractansiintervaldays", 1, 1, "?", fixed, "int")},
    /* extraction: a[i], m[k], arr.field */
    {SCALAR("@subscript", 2, 2, "??", arg0, NULL), .flags = OP | FD_NULLABLE, .print = CS_SUBSCRIPT},
    {SCALAR("@array_field", 2, 2, "??", arg0, NULL), .flags = OP | FD_NULLABLE, .print = CS_FIELD_ACCESS},
    END_OF_TABLE,
};
