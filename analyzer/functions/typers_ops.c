/* Typing helpers for operators: arithmetic (with DecimalPrecision and the
 * datetime/interval forms of + - * /), comparisons, logic, bitwise. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "catalog/conf.h"
#include "print/printer.h"

const FuncDef *func_lookup_arity(const char *name, int nargs);

static const char *const NUM_OR_INTERVAL =
    "(\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL\")";

/* AnsiStringPromotionTypeCoercion.findWiderTypeForString */
static const DataType *string_promotion(const DataType *x, const DataType *y) {
    if (type_is_string(x) && type_is_string(y)) return NULL;
    if (!type_is_string(x)) {
        if (!type_is_string(y)) return NULL;
        const DataType *t = x;
        x = y;
        y = t;
    }
    if (type_is_integral(y)) return &TYPE_LONG;
    if (y->id == T_FLOAT || y->id == T_DOUBLE || y->id == T_DECIMAL) return &TYPE_DOUBLE;
    if (y->id == T_NULL) return x;
    if (y->id == T_YM_INTERVAL || y->id == T_DT_INTERVAL || type_is_complex(y) || y->id == T_VARIANT ||
        y->id == T_CALENDAR_INTERVAL)
        return NULL;
    return y;
}

static bool is_fractional(const DataType *t) { return t->id == T_FLOAT || t->id == T_DOUBLE; }

/* String promotion, DecimalPrecision's operand widening, then the tightest
 * common type: what Spark's coercion rules do to a BinaryOperator. */
static void binop_promote(TypeCtx *c, bool arithmetic) {
    Analysis *an = c->an;
    Arena *a = an->arena;
    Node **l = &c->args[0], **r = &c->args[1];
    /* TypeCoercion.PromoteStrings (ANSI off): a string in arithmetic with a
       number is a double (2147483647 + '1' is a double) */
    if (arithmetic && !an->conf->ansi) {
        if (type_is_string((*l)->type) && type_is_numeric((*r)->type)) *l = fn_mk_cast(an, *l, &TYPE_DOUBLE);
        else if (type_is_string((*r)->type) && type_is_numeric((*l)->type)) *r = fn_mk_cast(an, *r, &TYPE_DOUBLE);
    }
    const DataType *w = string_promotion((*l)->type, (*r)->type);
    if (w) {
        *l = fn_mk_cast(an, *l, w);
        *r = fn_mk_cast(an, *r, w);
    }
    const DataType *lt = (*l)->type, *rt = (*r)->type;
    if (!type_equal(lt, rt)) {
        if (type_is_integral(lt) && rt->id == T_DECIMAL)
            *l = fn_mk_cast(an, *l, (*l)->kind == NK_Literal ? fn_decimal_of_literal(a, *l) : type_decimal_for(a, lt));
        else if (lt->id == T_DECIMAL && type_is_integral(rt))
            *r = fn_mk_cast(an, *r, (*r)->kind == NK_Literal ? fn_decimal_of_literal(a, *r) : type_decimal_for(a, rt));
        else if (is_fractional(lt) && rt->id == T_DECIMAL)
            *r = fn_mk_cast(an, *r, &TYPE_DOUBLE);
        else if (lt->id == T_DECIMAL && is_fractional(rt))
            *l = fn_mk_cast(an, *l, &TYPE_DOUBLE);
        lt = (*l)->type;
        rt = (*r)->type;
    }
    /* ImplicitTypeCasts casts a BinaryOperator's sides only when they are
       not sameType (nullability inside arrays and structs aside) */
    if (!type_same(lt, rt)) {
        if (lt->id == T_DECIMAL && rt->id == T_DECIMAL) {
            if (!arithmetic) {
                const DataType *t = fn_wider_decimal(a, lt, rt);
                *l = fn_mk_cast(an, *l, t);
                *r = fn_mk_cast(an, *r, t);
            }
            return;
        }
        const DataType *t = fn_tightest_common_type(a, lt, rt);
        if (t) {
            *l = fn_mk_cast(an, *l, t);
            *r = fn_mk_cast(an, *r, t);
        }
    }
}

static bool fail_wrong_type(TypeCtx *c, const char *required, const DataType *actual) {
    Arena *a = c->an->arena;
    an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                              "inputType", required, "actualDataType", sql_type_quoted(a, actual), NULL));
    return false;
}

static bool same_or_fail(TypeCtx *c) {
    const DataType *l = c->args[0]->type, *r = c->args[1]->type;
    if (l->id == T_DECIMAL && r->id == T_DECIMAL) return true;
    if (!type_same(l, r)) {
        fn_fail_binary_diff(c, l, r);
        return false;
    }
    return true;
}

/* Replaces the call by another operator/function row over the given args. */
static bool replace_with(TypeCtx *c, const char *name, Node *x, Node *y, const DataType *t) {
    Node *args[2] = {x, y};
    const FuncDef *d = func_lookup_arity(name, 2);
    if (!d) return false;
    if (!t) {
        c->replacement = fn_call_builtin(c->an, name, args, 2, c->orig);
        return c->replacement != NULL;
    }
    c->replacement = fn_mk_call(c->an, d, d->name, args, 2, t, c->orig);
    return true;
}

static bool is_ts(const DataType *t) { return t->id == T_TIMESTAMP || t->id == T_TIMESTAMP_NTZ; }
static bool is_ansi_interval(const DataType *t) { return t->id == T_YM_INTERVAL || t->id == T_DT_INTERVAL; }

/* BinaryArithmeticWithDatetimeResolver: + - * / over dates, timestamps and
 * intervals become DateAdd, TimeAdd, DateAddYMInterval, SubtractDates, ...
 * Sets c->replacement or c->result (or records an error) and *handled;
 * leaves *handled false for the numeric path. */
static bool is_day_interval(const DataType *t) {
    return t->id == T_DT_INTERVAL && t->start_field == IF_DAY && t->end_field == IF_DAY;
}

static Node *days_of(TypeCtx *c, Node *iv, bool negate) {
    Node *d = fn_call_builtin(c->an, "extractansiintervaldays", &iv, 1, c->orig);
    if (d && negate) d = fn_call_builtin(c->an, "-", &d, 1, c->orig);
    return d;
}

/* MultiplyYMInterval / DivideYMInterval return YearMonthIntervalType()
 * and their day-time forms DayTimeIntervalType(): the default fields
 * (YEAR TO MONTH, DAY TO SECOND), whatever the operand's fields were;
 * a calendar interval stays one. */
static const DataType *scaled_interval_type(Arena *a, const DataType *it) {
    if (it->id == T_YM_INTERVAL) return type_ym_interval(a, IF_YEAR, IF_MONTH);
    if (it->id == T_DT_INTERVAL) return type_dt_interval(a, IF_DAY, IF_SECOND);
    return it;
}

/* TimeAdd(start, interval) as Spark builds it for `x + interval` when x is
 * not a date: a string start is cast to timestamp (and the result back to
 * the start's type), anything else but a timestamp is a type error. */
static bool time_add(TypeCtx *c, Node *start, Node *iv, const char *row) {
    Analysis *an = c->an;
    Arena *a = an->arena;
    const DataType *st = start->type;
    Node *s = start;
    if (type_is_string(st) || st->id == T_NULL) s = fn_mk_cast(an, start, &TYPE_TIMESTAMP);
    else if (!is_ts(st)) {
        Node *args[2] = {start, iv};
        const FuncDef *d = func_lookup_arity(row, 2);
        Node *tmp = fn_mk_call(an, d, d->name, args, 2, &TYPE_NULL, c->orig);
        an_fail(an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr", expr_sql_quoted(a, tmp),
                               "paramIndex", "first", "inputSql", expr_sql_quoted(a, start), "inputType",
                               sql_type_quoted(a, st), "requiredType", "\"(TIMESTAMP OR TIMESTAMP WITHOUT TIME ZONE)\"",
                               NULL));
        return false;
    }
    /* DatetimeSub(start, interval, TimeAdd(start, -interval)) prints its
       parameters: the string start as written, the cast in the TimeAdd */
    Node *args[2] = {strcmp(row, "@dt_sub") == 0 && type_is_string(st) ? start : s, iv};
    const FuncDef *d = func_lookup_arity(row, 2);
    Node *r = fn_mk_call(an, d, d->name, args, 2, s->type, c->orig);
    c->replacement = st->id == T_NULL ? r : fn_mk_cast(an, r, st);
    return true;
}

static bool datetime_arith(TypeCtx *c, bool *handled);

/* Nothing matched a string beside a date or timestamp: PromoteStrings casts
 * the string to that type (findWiderTypeForString), then the datetime
 * resolution runs again (`date + '1'` → date_add(date, CAST('1' AS DATE)),
 * which then fails as Spark does; `date - '2001-09-28'` → SubtractDates). */
static bool promote_string_datetime(TypeCtx *c, bool *handled) {
    Node *l = c->args[0], *r = c->args[1];
    const DataType *lt = l->type, *rt = r->type;
    if (type_is_string(lt) && (rt->id == T_DATE || is_ts(rt))) {
        c->args[0] = fn_mk_cast(c->an, l, rt);
        return datetime_arith(c, handled);
    }
    if (type_is_string(rt) && (lt->id == T_DATE || is_ts(lt))) {
        c->args[1] = fn_mk_cast(c->an, r, lt);
        return datetime_arith(c, handled);
    }
    *handled = false;
    return true;
}

static bool legacy_interval(const Analysis *an);

static bool datetime_arith(TypeCtx *c, bool *handled) {
    Analysis *an = c->an;
    const char *op = c->def->op;
    Node *l = c->args[0], *r = c->args[1];
    const DataType *lt = l->type, *rt = r->type;
    *handled = true;
    TypeId L = lt->id, R = rt->id;
    bool l_ts = is_ts(lt), r_ts = is_ts(rt);
    switch (op[0]) {
    case '+':
        if (L == T_DATE && is_day_interval(rt)) return replace_with(c, "date_add", l, days_of(c, r, false), &TYPE_DATE);
        if (L == T_DATE && R == T_DT_INTERVAL)
            return replace_with(c, "@dt_add", fn_mk_cast(an, l, &TYPE_TIMESTAMP), r, &TYPE_TIMESTAMP);
        if (is_day_interval(lt) && R == T_DATE) return replace_with(c, "date_add", r, days_of(c, l, false), &TYPE_DATE);
        if (L == T_DT_INTERVAL && R == T_DATE)
            return replace_with(c, "@dt_add", fn_mk_cast(an, r, &TYPE_TIMESTAMP), l, &TYPE_TIMESTAMP);
        if (L == T_DATE && R == T_YM_INTERVAL) return replace_with(c, "@dt_add", l, r, &TYPE_DATE);
        if (L == T_YM_INTERVAL && R == T_DATE) return replace_with(c, "@dt_add", r, l, &TYPE_DATE);
        if (l_ts && R == T_YM_INTERVAL) return replace_with(c, "@dt_add", l, r, lt);
        if (L == T_YM_INTERVAL && r_ts) return replace_with(c, "@dt_add", r, l, rt);
        if ((L == T_CALENDAR_INTERVAL && R == T_CALENDAR_INTERVAL) || (L == T_DT_INTERVAL && R == T_DT_INTERVAL)) break;
        if (L == T_NULL && is_ansi_interval(rt)) {
            c->args[0] = fn_mk_cast(an, l, rt);
            c->result = rt;
            return true;
        }
        if (is_ansi_interval(lt) && R == T_NULL) {
            c->args[1] = fn_mk_cast(an, r, lt);
            c->result = lt;
            return true;
        }
        if (L == T_DATE && R == T_CALENDAR_INTERVAL) return replace_with(c, "@dt_add", l, r, &TYPE_DATE);
        if (R == T_CALENDAR_INTERVAL || R == T_DT_INTERVAL) return time_add(c, l, r, "@dt_add");
        if (L == T_CALENDAR_INTERVAL && R == T_DATE) return replace_with(c, "@dt_add", r, l, &TYPE_DATE);
        if (L == T_CALENDAR_INTERVAL || L == T_DT_INTERVAL) return time_add(c, r, l, "@dt_add");
        if (L == T_DATE && !type_is_string(rt)) return replace_with(c, "date_add", l, r, NULL);
        if (R == T_DATE && !type_is_string(lt)) return replace_with(c, "date_add", r, l, NULL);
        /* a timestamp beside NULL stays an Add of two types; without ANSI a
           string beside it is cast to double (PromoteStrings) first */
        if ((l_ts && R == T_NULL) || (L == T_NULL && r_ts)) return fn_fail_binary_diff(c, lt, rt), false;
        if (!an->conf->ansi && l_ts && type_is_string(rt)) return fn_fail_binary_diff(c, lt, &TYPE_DOUBLE), false;
        if (!an->conf->ansi && r_ts && type_is_string(lt)) return fn_fail_binary_diff(c, &TYPE_DOUBLE, rt), false;
        return promote_string_datetime(c, handled);
    case '-':
        if (op[1]) break;
        if (L == T_DATE && is_day_interval(rt)) return replace_with(c, "date_add", l, days_of(c, r, true), &TYPE_DATE);
        if (L == T_DATE && R == T_DT_INTERVAL) return replace_with(c, "@dt_sub", l, r, &TYPE_TIMESTAMP);
        if (L == T_DATE && R == T_YM_INTERVAL) return replace_with(c, "@dt_sub", l, r, &TYPE_DATE);
        if (l_ts && R == T_YM_INTERVAL) return replace_with(c, "@dt_sub", l, r, lt);
        if ((L == T_CALENDAR_INTERVAL && R == T_CALENDAR_INTERVAL) || (L == T_DT_INTERVAL && R == T_DT_INTERVAL)) break;
        if (L == T_NULL && is_ansi_interval(rt)) {
            c->args[0] = fn_mk_cast(an, l, rt);
            c->result = rt;
            return true;
        }
        if (is_ansi_interval(lt) && R == T_NULL) {
            c->args[1] = fn_mk_cast(an, r, lt);
            c->result = lt;
            return true;
        }
        if (L == T_DATE && R == T_CALENDAR_INTERVAL) return replace_with(c, "@dt_sub", l, r, &TYPE_DATE);
        if (R == T_CALENDAR_INTERVAL || R == T_DT_INTERVAL) return time_add(c, l, r, "@dt_sub");
        if (!an->conf->ansi && ((l_ts && type_is_string(rt)) || (r_ts && type_is_string(lt)))) {
            /* without ANSI no rule casts the string: SubtractTimestamps's input check fails */
            Arena *a = an->arena;
            bool first = type_is_string(lt);
            Node *bad = first ? l : r;
            an_fail(an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                   "paramIndex", first ? "first" : "second", "inputSql", expr_sql_quoted(a, bad),
                                   "inputType", sql_type_quoted(a, bad->type), "requiredType",
                                   "\"(TIMESTAMP OR TIMESTAMP WITHOUT TIME ZONE)\"", NULL));
            return false;
        }
        if (l_ts || r_ts) {
            /* SubtractTimestamps: the other side is cast to this side's type */
            if (!l_ts) c->args[0] = fn_mk_cast(an, l, rt);
            else if (!r_ts) c->args[1] = fn_mk_cast(an, r, lt);
            else if (!type_equal(lt, rt)) {
                c->args[0] = fn_mk_cast(an, l, &TYPE_TIMESTAMP);
                c->args[1] = fn_mk_cast(an, r, &TYPE_TIMESTAMP);
            }
            c->result = legacy_interval(an) ? &TYPE_CALENDAR_INTERVAL : type_dt_interval(an->arena, IF_DAY, IF_SECOND);
            return true;
        }
        if (R == T_DATE) {
            /* SubtractDates (ANSI: interval day) */
            if (L != T_DATE) c->args[0] = fn_mk_cast(an, l, &TYPE_DATE);
            c->result = legacy_interval(an) ? &TYPE_CALENDAR_INTERVAL : type_dt_interval(an->arena, IF_DAY, IF_DAY);
            return true;
        }
        if (L == T_DATE && !type_is_string(rt)) return replace_with(c, "date_sub", l, r, NULL);
        return promote_string_datetime(c, handled);
    case '*': {
        const DataType *it = type_is_interval(lt) ? lt : type_is_interval(rt) ? rt : NULL;
        if (!it) break;
        Node *iv = it == lt ? l : r, *num = it == lt ? r : l;
        if (type_is_string(num->type) || num->type->id == T_NULL) num = fn_mk_cast(an, num, &TYPE_DOUBLE);
        c->args[0] = iv;
        c->args[1] = num;
        c->result = scaled_interval_type(an->arena, it);
        c->nullable = 1;
        return true;
    }
    case '/':
        if (!type_is_interval(lt)) break;
        if (type_is_string(rt) || R == T_NULL) c->args[1] = fn_mk_cast(an, r, &TYPE_DOUBLE);
        c->result = scaled_interval_type(an->arena, lt);
        c->nullable = 1;
        return true;
    default: break;
    }
    *handled = false;
    return true;
}

/* spark.sql.decimalOperations.allowPrecisionLoss (true): DecimalPrecision
 * adjusts a result wider than 38 digits keeping 6 fraction digits; off, it
 * is DecimalType.bounded (precision and scale each capped at 38). */
static bool allow_precision_loss(const TypeCtx *c) {
    const Conf *cf = c->an->conf;
    for (int i = cf ? cf->nentries - 1 : -1; i >= 0; i--)
        if (cf->keys[i] && strcasecmp(cf->keys[i], "spark.sql.decimalOperations.allowPrecisionLoss") == 0)
            return !(cf->values[i] && strcasecmp(cf->values[i], "false") == 0);
    return true;
}
/* spark.sql.legacy.interval.enabled: SubtractTimestamps and SubtractDates
 * return a CalendarInterval */
static bool legacy_interval(const Analysis *an) {
    const Conf *cf = an->conf;
    for (int i = cf ? cf->nentries - 1 : -1; i >= 0; i--)
        if (cf->keys[i] && strcasecmp(cf->keys[i], "spark.sql.legacy.interval.enabled") == 0)
            return cf->values[i] && strcasecmp(cf->values[i], "true") == 0;
    return false;
}

static const DataType *decimal_result(const TypeCtx *c, int p, int s) {
    return allow_precision_loss(c) ? fn_decimal_adjust(c->an->arena, p, s) : fn_decimal_bounded(c->an->arena, p, s);
}

static bool numeric_or_interval(const DataType *t) { return type_is_numeric(t) || type_is_interval(t); }

/* try_add & co. keep their own name (InheritAnalysisRules): a datetime
 * rewrite only gives them their type */
static bool keep_try_name(TypeCtx *c) {
    if (c->replacement && strncmp(c->def->name, "try_", 4) == 0) {
        c->result = c->replacement->type;
        c->replacement = NULL;
        c->nullable = 1;
    }
    return true;
}

/* + - * and try_add/try_subtract/try_multiply */
bool ty_arith(TypeCtx *c) {
    bool handled;
    if (!datetime_arith(c, &handled)) return false;
    if (handled) return keep_try_name(c);
    binop_promote(c, true);
    if (!same_or_fail(c)) return false;
    const DataType *l = c->args[0]->type, *r = c->args[1]->type;
    if (!numeric_or_interval(l)) return fail_wrong_type(c, NUM_OR_INTERVAL, l);
    if (l->id == T_DECIMAL) {
        int p1 = l->precision, s1 = l->scale, p2 = r->precision, s2 = r->scale;
        if (c->def->op[0] == '*') {
            c->result = decimal_result(c, p1 + p2 + 1, s1 + s2);
        } else {
            int s = s1 > s2 ? s1 : s2;
            int i1 = p1 - s1, i2 = p2 - s2;
            c->result = decimal_result(c, s + (i1 > i2 ? i1 : i2) + 1, s);
        }
        return true;
    }
    c->result = l;
    return true;
}

bool ty_div(TypeCtx *c) {
    bool handled;
    if (!datetime_arith(c, &handled)) return false;
    if (handled) return keep_try_name(c);
    /* `x / interval`: no coercion applies (Divide does not accept an
       interval, so ImplicitTypeCasts leaves it), the operand types differ */
    if (type_is_interval(c->args[1]->type) && !type_equal(c->args[0]->type, c->args[1]->type)) {
        fn_fail_binary_diff(c, c->args[0]->type, c->args[1]->type);
        return false;
    }
    /* Divide takes double or decimal: a string operand is cast to double */
    for (int i = 0; i < 2; i++)
        if (type_is_string(c->args[i]->type) && !type_is_string(c->args[1 - i]->type))
            c->args[i] = fn_mk_cast(c->an, c->args[i], &TYPE_DOUBLE);
    /* TypeCoercion.Division (both rule sets): a numeric division whose left
       side is not a double casts each side to double as it is */
    {
        const DataType *l0 = c->args[0]->type, *r0 = c->args[1]->type;
        bool num = (type_is_numeric(l0) || l0->id == T_NULL) && (type_is_numeric(r0) || r0->id == T_NULL);
        if (num && l0->id != T_DOUBLE && l0->id != T_DECIMAL && r0->id != T_DECIMAL) {
            for (int i = 0; i < 2; i++) {
                /* ANSI's rule leaves a double as it is; the legacy one casts it too */
                if (c->an->conf->ansi && c->args[i]->type->id == T_DOUBLE) continue;
                Node *x = node_new(c->an->arena, NK_Cast, c->args[i]->start, c->args[i]->stop);
                node_set_kids(c->an->arena, x, &c->args[i], 1);
                x->type = &TYPE_DOUBLE;
                x->u.cast.ansi = c->an->conf->ansi;
                x->flags |= NF_IMPLICIT | (fn_expr_nullable(c->args[i]) ? NF_NULLABLE : 0);
                c->args[i] = node_finish(x);
            }
            c->result = &TYPE_DOUBLE;
            c->nullable = 1;
            return true;
        }
    }
    binop_promote(c, true);
    const DataType *l = c->args[0]->type, *r = c->args[1]->type;
    if (l->id == T_DECIMAL && r->id == T_DECIMAL) {
        int p1 = l->precision, s1 = l->scale, p2 = r->precision, s2 = r->scale;
        int s = s1 + p2 + 1;
        if (s < 6) s = 6;
        if (allow_precision_loss(c)) {
            c->result = fn_decimal_adjust(c->an->arena, p1 - s1 + s2 + s, s);
        } else {
            /* the integral digits first; an excess takes half from each side */
            int int_dig = p1 - s1 + s2 < 38 ? p1 - s1 + s2 : 38, dec_dig = s < 38 ? s : 38;
            int diff = int_dig + dec_dig - 38;
            if (diff > 0) {
                dec_dig -= diff / 2 + 1;
                int_dig = 38 - dec_dig;
            }
            c->result = fn_decimal_bounded(c->an->arena, int_dig + dec_dig, dec_dig);
        }
        c->nullable = 1;
        return true;
    }
    if ((type_is_numeric(l) || l->id == T_NULL) && (type_is_numeric(r) || r->id == T_NULL)) {
        c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_DOUBLE);
        c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_DOUBLE);
        c->result = &TYPE_DOUBLE;
        c->nullable = 1;
        return true;
    }
    if (!same_or_fail(c)) return false;
    return fail_wrong_type(c, "(\"DOUBLE\" or \"DECIMAL\")", l);
}

bool ty_intdiv(TypeCtx *c) {
    const DataType *l0 = c->args[0]->type, *r0 = c->args[1]->type;
    if ((l0->id == T_YM_INTERVAL && r0->id == T_YM_INTERVAL) || (l0->id == T_DT_INTERVAL && r0->id == T_DT_INTERVAL)) {
        /* IntegralDivide over ANSI intervals: both cast to the one type that
           covers their fields (AnsiTypeCoercion's findWiderTypeForTwo) */
        int s = l0->start_field < r0->start_field ? l0->start_field : r0->start_field;
        int e = l0->end_field > r0->end_field ? l0->end_field : r0->end_field;
        const DataType *w = l0->id == T_YM_INTERVAL ? type_ym_interval(c->an->arena, s, e)
                                                    : type_dt_interval(c->an->arena, s, e);
        for (int i = 0; i < 2; i++) c->args[i] = fn_mk_cast(c->an, c->args[i], w);
        c->result = &TYPE_LONG;
        c->nullable = 1;
        return true;
    }
    binop_promote(c, true);
    for (int i = 0; i < 2; i++) {
        const DataType *t = c->args[i]->type;
        if (type_is_integral(t) || t->id == T_NULL) c->args[i] = fn_mk_cast(c->an, c->args[i], &TYPE_LONG);
        else if (is_fractional(t)) c->args[i] = fn_mk_cast(c->an, c->args[i], &TYPE_LONG);
    }
    const DataType *l = c->args[0]->type;
    if (!same_or_fail(c)) return false;
    if (l->id != T_LONG && l->id != T_DECIMAL) return fail_wrong_type(c, "(\"BIGINT\" or \"DECIMAL\")", l);
    c->result = &TYPE_LONG;
    c->nullable = 1;
    return true;
}

/* % mod pmod try_mod */
bool ty_rem(TypeCtx *c) {
    binop_promote(c, true);
    if (!same_or_fail(c)) return false;
    const DataType *l = c->args[0]->type, *r = c->args[1]->type;
    if (!type_is_numeric(l)) return fail_wrong_type(c, "\"NUMERIC\"", l);
    if (l->id == T_DECIMAL) {
        int p1 = l->precision, s1 = l->scale, p2 = r->precision, s2 = r->scale;
        int s = s1 > s2 ? s1 : s2;
        int i1 = p1 - s1, i2 = p2 - s2;
        c->result = decimal_result(c, (i1 < i2 ? i1 : i2) + s, s);
    } else {
        c->result = l;
    }
    c->nullable = 1;
    return true;
}

static int char_len_of(const Node *e) {
    if (e->kind == NK_OuterReference && e->nkids) e = e->kids[0];
    return e->kind == NK_AttributeReference ? e->u.attr.char_len : 0;
}

static Node *rpad_to(TypeCtx *c, Node *e, int n) {
    Node *args[3] = {e, fn_mk_int_lit(c->an->arena, n, &TYPE_INT), fn_mk_str_lit(c->an->arena, " ")};
    Node *r = fn_call_builtin(c->an, "rpad", args, 3, c->orig);
    if (!r || r->kind != NK_Call) return e;
    /* inserted after the names are given: the column is named by its input */
    Node *m = node_copy(c->an->arena, r);
    m->flags |= NF_IMPLICIT;
    return node_finish(m);
}

/* ApplyCharTypePadding: a comparison of two CHAR columns of different
 * lengths pads the shorter (rpad(c7, 8, ' ') = c8); a CHAR(n) column beside a
 * string constant longer than n is padded to the constant's length. */
static void char_type_padding(TypeCtx *c) {
    int ll = char_len_of(c->args[0]), rl = char_len_of(c->args[1]);
    if (ll && rl) {
        if (ll < rl) c->args[0] = rpad_to(c, c->args[0], rl);
        else if (rl < ll) c->args[1] = rpad_to(c, c->args[1], ll);
        return;
    }
    for (int i = 0; i < 2; i++) {
        int n = i == 0 ? ll : rl;
        const Node *o = c->args[1 - i];
        if (!n || o->kind != NK_Literal || o->u.lit.v.is_null || !type_is_string(o->type)) continue;
        int len = (int)o->u.lit.v.u.s.len;
        if (len > n) c->args[i] = rpad_to(c, c->args[i], len);
    }
}

static bool cmp_common(TypeCtx *c, bool ordering) {
    char_type_padding(c);
    binop_promote(c, false);
    const DataType *l = c->args[0]->type, *r = c->args[1]->type;
    if (!type_same(l, r)) {
        const DataType *w = coerce_wider_type(c->an->arena, l, r);
        if (w && (type_is_complex(l) || type_is_complex(r))) {
            c->args[0] = fn_mk_cast(c->an, c->args[0], w);
            c->args[1] = fn_mk_cast(c->an, c->args[1], w);
        } else {
            fn_fail_binary_diff(c, l, r);
            return false;
        }
    }
    const DataType *t = c->args[0]->type;
    if (ordering ? !fn_type_orderable(t) : !fn_type_comparable_eq(t)) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "functionName", sql_ident(a, c->def->op ? c->def->op : c->def->name), "dataType",
                                  sql_type_quoted(a, t), NULL));
        return false;
    }
    c->result = &TYPE_BOOLEAN;
    return true;
}

bool ty_cmp(TypeCtx *c) { return cmp_common(c, true); }
bool ty_eq(TypeCtx *c) {
    if (!cmp_common(c, false)) return false;
    if (strcmp(c->def->op ? c->def->op : "", "<=>") == 0 || strcmp(c->def->name, "equal_null") == 0) c->nullable = 0;
    return true;
}

bool ty_logic(TypeCtx *c) {
    binop_promote(c, false);
    if (!same_or_fail(c)) return false;
    const DataType *l = c->args[0]->type;
    if (l->id != T_BOOLEAN && l->id != T_NULL) return fail_wrong_type(c, "\"BOOLEAN\"", l);
    for (int i = 0; i < 2; i++) c->args[i] = fn_mk_cast(c->an, c->args[i], &TYPE_BOOLEAN);
    c->result = &TYPE_BOOLEAN;
    return true;
}

bool ty_bitwise(TypeCtx *c) {
    binop_promote(c, false);
    if (!same_or_fail(c)) return false;
    const DataType *l = c->args[0]->type;
    if (!type_is_integral(l)) return fail_wrong_type(c, "\"INTEGRAL\"", l);
    c->result = l;
    return true;
}

/* shiftleft(int|bigint, int): byte and short widen to int */
bool ty_shift(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id == T_BYTE || t->id == T_SHORT || t->id == T_NULL) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_INT);
    else if (type_is_string(t)) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_LONG);
    /* legacy (ANSI off) ImplicitTypeCasts: any number casts to the collection's first type, int */
    else if (!c->an->conf->ansi && type_is_numeric(t) && t->id != T_LONG) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_INT);
    t = c->args[0]->type;
    if (t->id != T_INT && t->id != T_LONG) return fn_typer_error(c, 0, 'j') != NULL;
    c->result = t;
    return true;
}

/* negative, positive, unary - and + */
bool ty_unary_num(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (type_is_string(t)) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_DOUBLE);
    else if (t->id == T_NULL) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_DOUBLE);
    t = c->args[0]->type;
    if (!numeric_or_interval(t)) return fn_typer_error(c, 0, 'U') != NULL;
    c->result = t;
    return true;
}

bool ty_bitnot(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id == T_NULL) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_INT);
    else if (type_is_string(t)) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_LONG);
    if (!type_is_integral(c->args[0]->type)) return fn_typer_error(c, 0, 'I') != NULL;
    c->result = c->args[0]->type;
    return true;
}

bool ty_not(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id == T_NULL || type_is_string(t)) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_BOOLEAN);
    if (c->args[0]->type->id != T_BOOLEAN) return fn_typer_error(c, 0, 'b') != NULL;
    c->result = &TYPE_BOOLEAN;
    return true;
}

/* a != b, a <> b: NOT (a = b) */
bool ty_neq(TypeCtx *c) {
    Node *eq = fn_call_builtin(c->an, "=", c->args, 2, c->orig);
    if (!eq) return false;
    c->replacement = fn_call_builtin(c->an, "not", &eq, 1, c->orig);
    return c->replacement != NULL;
}

/* try_add, try_subtract, try_multiply, try_divide, try_mod are
 * RuntimeReplaceable with InheritAnalysisRules: the operator they stand for
 * (Add(l, r, TRY), TryEval(...)) is their child and takes the coercion,
 * while the call prints its parameters as written:
 *     try_add(2147483647, "1")  →  try_add(2147483647, 1)   (a bigint)
 * not try_add(cast(2147483647 as bigint), cast(1 as bigint)). So the call
 * keeps its arguments uncoerced and the operator's type; ReplaceExpressions
 * (replacements.c) builds the coerced operator again. */
static bool try_typed(TypeCtx *c, TyperFn op) {
    Node *orig[2] = {c->args[0], c->args[1]};
    if (!op(c)) return false;
    if (c->replacement) return true;
    c->args[0] = orig[0];
    c->args[1] = orig[1];
    return true;
}
bool ty_try_arith(TypeCtx *c) { return try_typed(c, ty_arith); }
bool ty_try_div(TypeCtx *c) { return try_typed(c, ty_div); }
bool ty_try_rem(TypeCtx *c) { return try_typed(c, ty_rem); }
