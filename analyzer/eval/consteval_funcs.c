/* The constant evaluator's functions: one row per canonical function name
 * (func_name of the Call's FuncDef), sorted, found by binary search. A row
 * is either strict (its arguments evaluated first; NULL in → NULL out unless
 * it handles nulls itself) or lazy (it evaluates its own arguments: AND,
 * OR, IF, COALESCE). Arithmetic follows Spark's ANSI mode: integer overflow
 * raises ARITHMETIC_OVERFLOW, a zero divisor DIVIDE_BY_ZERO. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "consteval_int.h"
#include "catalog/catalog_manager.h"
#include "catalog/session.h"
#include "core/func_sig.h"
#include "functions/functions.h"
#include "print/printer.h"

typedef EvStatus (*StrictFn)(Eval *ev, const Node *call, Value *args, uint32_t n, Value *out);
typedef EvStatus (*LazyFn)(Eval *ev, const Node *call, Value *out);

enum { NULLS_IN = 1 /* gets null arguments (else: any null argument → null result) */ };

typedef struct EvalFunc {
    const char *name;
    StrictFn strict;
    LazyFn lazy;
    unsigned flags;
} EvalFunc;

static Arena *A(Eval *ev) { return ev->an->arena; }

/* ---- errors ---- */

static EvStatus div_by_zero(Eval *ev, const Node *at) {
    return ev_fail(ev, error_make(A(ev), "DIVIDE_BY_ZERO", at, "config", sql_conf(A(ev), "spark.sql.ansi.enabled"), NULL));
}

static EvStatus arith_overflow(Eval *ev, const Node *at, const char *msg) {
    return ev_fail(ev, error_make(A(ev), "ARITHMETIC_OVERFLOW", at, "message", msg, "alternative", "", "config",
                                  sql_conf(A(ev), "spark.sql.ansi.enabled"), NULL));
}

/* ---- arithmetic ---- */

static EvStatus integral_result(Eval *ev, const Node *call, __int128 r, Value *out) {
    const DataType *t = call->type;
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    const char *what = "long overflow";
    if (t->id == T_INT) lo = INT32_MIN, hi = INT32_MAX, what = "integer overflow";
    else if (t->id == T_SHORT) lo = INT16_MIN, hi = INT16_MAX, what = "short overflow";
    else if (t->id == T_BYTE) lo = INT8_MIN, hi = INT8_MAX, what = "byte overflow";
    if (r < lo || r > hi) return arith_overflow(ev, call, what);
    *out = v_long(t, (int64_t)r);
    return EV_OK;
}

static EvStatus dec_out(Eval *ev, const Node *call, __int128 v, int scale, Value *out) {
    const DataType *t = call->type;
    __int128 r = dec_rescale(v, scale, t->scale);
    if (!dec_fits(r, t->precision)) {
        return ev_fail(ev, error_make(A(ev), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", call, "value", "", "precision",
                                      arena_printf(A(ev), "%d", t->precision), "scale",
                                      arena_printf(A(ev), "%d", t->scale), "config",
                                      sql_conf(A(ev), "spark.sql.ansi.enabled"), NULL));
    }
    *out = v_dec(t, r);
    return EV_OK;
}

static bool is_zero(const Value *v) {
    switch (v->type->id) {
    case T_DECIMAL: return v->u.dec == 0;
    case T_FLOAT:
    case T_DOUBLE: return v->u.d == 0;
    case T_DT_INTERVAL: return v->u.iv.micros == 0;
    default: return v->u.i == 0;
    }
}

/* op: '+', '-', '*', '/', '%', 'd' (div) */
static EvStatus arith(Eval *ev, const Node *call, Value *a, Value *b, char op, Value *out) {
    const DataType *t = call->type;
    if ((op == '/' || op == '%' || op == 'd') && is_zero(b)) return div_by_zero(ev, call);
    if (t->id == T_FLOAT || t->id == T_DOUBLE) {
        double x = value_as_double(a), y = value_as_double(b), r;
        switch (op) {
        case '+': r = x + y; break;
        case '-': r = x - y; break;
        case '*': r = x * y; break;
        case '/': r = x / y; break;
        default: r = fmod(x, y); break;
        }
        if (t->id == T_FLOAT) r = (double)(float)r;
        *out = v_double(t, r);
        return EV_OK;
    }
    if (t->id == T_DECIMAL) {
        int sa = a->type->id == T_DECIMAL ? a->type->scale : 0, sb = b->type->id == T_DECIMAL ? b->type->scale : 0;
        __int128 x = a->type->id == T_DECIMAL ? a->u.dec : a->u.i, y = b->type->id == T_DECIMAL ? b->u.dec : b->u.i;
        switch (op) {
        case '+':
        case '-': {
            int s = sa > sb ? sa : sb;
            x = dec_rescale(x, sa, s);
            y = dec_rescale(y, sb, s);
            __int128 r;
            if (op == '+' ? __builtin_add_overflow(x, y, &r) : __builtin_sub_overflow(x, y, &r))
                return dec_out(ev, call, (__int128)1 << 125, 0, out);
            return dec_out(ev, call, r, s, out);
        }
        case '*': {
            __int128 r;
            if (__builtin_mul_overflow(x, y, &r)) return dec_out(ev, call, (__int128)1 << 125, 0, out);
            return dec_out(ev, call, r, sa + sb, out);
        }
        case '/': {
            /* x/y at the result scale + 1, then round half up */
            int target = t->scale + 1;
            int shift = target - sa + sb;
            __int128 num = x;
            if (shift > 0) {
                if (__builtin_mul_overflow(num, pow10_i128(shift), &num)) return EV_NOTCONST;
            } else if (shift < 0) {
                y = dec_rescale(y, 0, -shift);
            }
            return dec_out(ev, call, num / y, target, out);
        }
        default: {
            int s = sa > sb ? sa : sb;
            x = dec_rescale(x, sa, s);
            y = dec_rescale(y, sb, s);
            return dec_out(ev, call, x % y, s, out);
        }
        }
    }
    if (type_is_integral(t)) {
        __int128 x = a->u.i, y = b->u.i, r;
        switch (op) {
        case '+': r = x + y; break;
        case '-': r = x - y; break;
        case '*': r = x * y; break;
        case 'd':
        case '/': r = x / y; break;
        default: r = x % y; break;
        }
        return integral_result(ev, call, r, out);
    }
    if (t->id == T_YM_INTERVAL && (op == '+' || op == '-')) {
        *out = v_long(t, op == '+' ? a->u.i + b->u.i : a->u.i - b->u.i);
        return EV_OK;
    }
    if (t->id == T_DT_INTERVAL && (op == '+' || op == '-')) {
        *out = (Value){.type = t};
        out->u.iv.micros = op == '+' ? a->u.iv.micros + b->u.iv.micros : a->u.iv.micros - b->u.iv.micros;
        return EV_OK;
    }
    return EV_NOTCONST;
}

static EvStatus f_add(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return arith(ev, c, &a[0], &a[1], '+', o); }
static EvStatus f_sub(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return arith(ev, c, &a[0], &a[1], '-', o); }
static EvStatus f_mul(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return arith(ev, c, &a[0], &a[1], '*', o); }
static EvStatus f_div(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return arith(ev, c, &a[0], &a[1], '/', o); }
static EvStatus f_rem(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return arith(ev, c, &a[0], &a[1], '%', o); }
static EvStatus f_intdiv(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return arith(ev, c, &a[0], &a[1], 'd', o); }

static EvStatus f_neg(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    if (n == 2) return f_sub(ev, c, a, n, o);
    const DataType *t = c->type;
    if (type_is_integral(t)) return integral_result(ev, c, -(__int128)a[0].u.i, o);
    if (t->id == T_DECIMAL) {
        *o = v_dec(t, -a[0].u.dec);
        return EV_OK;
    }
    if (t->id == T_FLOAT || t->id == T_DOUBLE) {
        *o = v_double(t, -a[0].u.d);
        return EV_OK;
    }
    if (t->id == T_YM_INTERVAL) {
        *o = v_long(t, -a[0].u.i);
        return EV_OK;
    }
    if (t->id == T_DT_INTERVAL) {
        *o = a[0];
        o->u.iv.micros = -a[0].u.iv.micros;
        return EV_OK;
    }
    return EV_NOTCONST;
}

static EvStatus f_plus(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    if (n == 2) return f_add(ev, c, a, n, o);
    *o = a[0];
    return EV_OK;
}

static EvStatus f_abs(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    bool neg = a[0].type->id == T_DECIMAL ? a[0].u.dec < 0
               : (a[0].type->id == T_FLOAT || a[0].type->id == T_DOUBLE) ? a[0].u.d < 0
                                                                          : a[0].u.i < 0;
    if (!neg) {
        *o = a[0];
        o->type = c->type;
        return EV_OK;
    }
    return f_neg(ev, c, a, n, o);
}

/* ---- comparison and logic ---- */

static EvStatus compare(const Node *c, Value *a, int want_lt, int want_eq, int want_gt, Value *o) {
    (void)c;
    int r = value_cmp(&a[0], &a[1]);
    *o = v_bool(r < 0 ? want_lt : r == 0 ? want_eq : want_gt);
    return EV_OK;
}

static EvStatus f_eq(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return compare(c, a, 0, 1, 0, o); }
static EvStatus f_ne(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return compare(c, a, 1, 0, 1, o); }
static EvStatus f_lt(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return compare(c, a, 1, 0, 0, o); }
static EvStatus f_le(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return compare(c, a, 1, 1, 0, o); }
static EvStatus f_gt(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return compare(c, a, 0, 0, 1, o); }
static EvStatus f_ge(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return compare(c, a, 0, 1, 1, o); }

static EvStatus f_eq_null_safe(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)c, (void)n;
    *o = v_bool(value_same(&a[0], &a[1]));
    return EV_OK;
}

static EvStatus f_not(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)c, (void)n;
    *o = v_bool(!a[0].u.b);
    return EV_OK;
}

static EvStatus l_and_or(Eval *ev, const Node *c, Value *o, bool is_and) {
    Value x, y;
    EvStatus st = ev_expr(ev, c->kids[0], &x);
    if (st) return st;
    if (!x.is_null && x.u.b != is_and) {
        *o = v_bool(!is_and);
        return EV_OK;
    }
    if ((st = ev_expr(ev, c->kids[1], &y))) return st;
    if (!y.is_null && y.u.b != is_and) *o = v_bool(!is_and);
    else if (x.is_null || y.is_null) *o = v_null(&TYPE_BOOLEAN);
    else *o = v_bool(is_and);
    return EV_OK;
}

static EvStatus l_and(Eval *ev, const Node *c, Value *o) { return l_and_or(ev, c, o, true); }
static EvStatus l_or(Eval *ev, const Node *c, Value *o) { return l_and_or(ev, c, o, false); }

static EvStatus f_isnull(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)c, (void)n;
    *o = v_bool(a[0].is_null);
    return EV_OK;
}

static EvStatus f_isnotnull(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)c, (void)n;
    *o = v_bool(!a[0].is_null);
    return EV_OK;
}

static EvStatus bitwise(const Node *c, Value *a, char op, Value *o) {
    int64_t x = a[0].u.i, y = a[1].u.i, r = op == '&' ? x & y : op == '|' ? x | y : x ^ y;
    *o = v_long(c->type, r);
    return EV_OK;
}
static EvStatus f_bitand(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return bitwise(c, a, '&', o); }
static EvStatus f_bitor(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return bitwise(c, a, '|', o); }
static EvStatus f_bitxor(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return bitwise(c, a, '^', o); }

/* ---- conditionals ---- */

static EvStatus l_if(Eval *ev, const Node *c, Value *o) {
    Value cond;
    EvStatus st = ev_expr(ev, c->kids[0], &cond);
    if (st) return st;
    st = ev_expr(ev, c->kids[!cond.is_null && cond.u.b ? 1 : 2], o);
    if (!st && o->is_null) o->type = c->type;
    return st;
}

static EvStatus l_coalesce(Eval *ev, const Node *c, Value *o) {
    for (uint32_t i = 0; i < c->nkids; i++) {
        EvStatus st = ev_expr(ev, c->kids[i], o);
        if (st) return st;
        if (!o->is_null) return EV_OK;
    }
    *o = v_null(c->type);
    return EV_OK;
}

static EvStatus f_nvl2(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = a[0].is_null ? a[2] : a[1];
    if (o->is_null) o->type = c->type;
    return EV_OK;
}

static EvStatus f_nullif(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    if (!a[0].is_null && !a[1].is_null && value_cmp(&a[0], &a[1]) == 0) *o = v_null(c->type);
    else *o = a[0];
    return EV_OK;
}

static EvStatus greatest_least(const Node *c, Value *a, uint32_t n, Value *o, int sign) {
    *o = v_null(c->type);
    for (uint32_t i = 0; i < n; i++)
        if (!a[i].is_null && (o->is_null || value_cmp(&a[i], o) * sign > 0)) *o = a[i];
    return EV_OK;
}
static EvStatus f_greatest(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev; return greatest_least(c, a, n, o, 1); }
static EvStatus f_least(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev; return greatest_least(c, a, n, o, -1); }

/* ---- strings ---- */

static EvStatus str_out(Eval *ev, const char *p, size_t len, Value *o) {
    *o = v_string(A(ev), p, (uint32_t)len);
    return EV_OK;
}

/* UTF-8 characters: byte offset of character i (clamped to the end). */
static uint32_t utf8_offset(const Value *s, int64_t chars) {
    uint32_t i = 0;
    while (i < s->u.s.len && chars > 0) {
        i++;
        while (i < s->u.s.len && ((unsigned char)s->u.s.p[i] & 0xC0) == 0x80) i++;
        chars--;
    }
    return i;
}

static int64_t utf8_length(const Value *s) {
    int64_t n = 0;
    for (uint32_t i = 0; i < s->u.s.len; i++)
        if (((unsigned char)s->u.s.p[i] & 0xC0) != 0x80) n++;
    return n;
}

static EvStatus f_concat(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    if (c->type->id == T_ARRAY) {
        uint32_t total = 0;
        for (uint32_t i = 0; i < n; i++) total += a[i].u.list.n;
        Value *items = ARENA_ARRAY(A(ev), Value, total + 1);
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < a[i].u.list.n; j++) items[k++] = a[i].u.list.items[j];
        *o = (Value){.type = c->type};
        o->u.list.items = items;
        o->u.list.n = total;
        return EV_OK;
    }
    StrBuf sb;
    sb_init(&sb, A(ev), 32);
    for (uint32_t i = 0; i < n; i++) sb_putn(&sb, a[i].u.s.p, a[i].u.s.len);
    *o = (Value){.type = c->type};
    o->u.s.p = sb.data;
    o->u.s.len = (uint32_t)sb.len;
    return EV_OK;
}

static EvStatus f_concat_ws(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    if (a[0].is_null) {
        *o = v_null(c->type);
        return EV_OK;
    }
    StrBuf sb;
    sb_init(&sb, A(ev), 32);
    bool first = true;
    for (uint32_t i = 1; i < n; i++) {
        if (a[i].is_null) continue;
        if (a[i].type->id == T_ARRAY) {
            for (uint32_t j = 0; j < a[i].u.list.n; j++) {
                const Value *x = &a[i].u.list.items[j];
                if (x->is_null) continue;
                if (!first) sb_putn(&sb, a[0].u.s.p, a[0].u.s.len);
                sb_putn(&sb, x->u.s.p, x->u.s.len);
                first = false;
            }
            continue;
        }
        if (!first) sb_putn(&sb, a[0].u.s.p, a[0].u.s.len);
        sb_putn(&sb, a[i].u.s.p, a[i].u.s.len);
        first = false;
    }
    return str_out(ev, sb.data, sb.len, o);
}

static EvStatus map_case(Eval *ev, Value *a, Value *o, bool upper) {
    char *p = arena_alloc(A(ev), a[0].u.s.len + 1);
    for (uint32_t i = 0; i < a[0].u.s.len; i++) {
        unsigned char ch = (unsigned char)a[0].u.s.p[i];
        p[i] = (char)(ch < 0x80 ? (upper ? toupper(ch) : tolower(ch)) : ch);
    }
    return str_out(ev, p, a[0].u.s.len, o);
}
static EvStatus f_upper(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)c, (void)n; return map_case(ev, a, o, true); }
static EvStatus f_lower(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)c, (void)n; return map_case(ev, a, o, false); }

/* Collate(x, name): x in the collated string type */
static EvStatus f_collate(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = a[0];
    o->type = c->type;
    return EV_OK;
}

static EvStatus f_initcap(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    char *p = arena_alloc(A(ev), a[0].u.s.len + 1);
    bool start = true;
    for (uint32_t i = 0; i < a[0].u.s.len; i++) {
        unsigned char ch = (unsigned char)a[0].u.s.p[i];
        p[i] = (char)(ch < 0x80 ? (start ? toupper(ch) : tolower(ch)) : ch);
        start = ch == ' ';
    }
    return str_out(ev, p, a[0].u.s.len, o);
}

/* substr(s, pos, len): 1-based, negative pos counts from the end (Spark's UTF8String.substringSQL). */
static EvStatus f_substr(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c;
    int64_t len = utf8_length(&a[0]);
    int64_t pos = a[1].u.i, cnt = n > 2 ? a[2].u.i : INT32_MAX;
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? len + pos : 0;
    int64_t end = cnt > INT32_MAX ? INT64_MAX : start + cnt;
    if (start < 0) start = 0;
    if (end > len) end = len;
    if (end <= start) return str_out(ev, "", 0, o);
    uint32_t b0 = utf8_offset(&a[0], start), b1 = utf8_offset(&a[0], end);
    return str_out(ev, a[0].u.s.p + b0, b1 - b0, o);
}

static EvStatus f_left(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    int64_t k = a[1].u.i;
    if (k <= 0) return str_out(ev, "", 0, o);
    uint32_t b = utf8_offset(&a[0], k);
    return str_out(ev, a[0].u.s.p, b, o);
}

static EvStatus f_right(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    int64_t k = a[1].u.i, len = utf8_length(&a[0]);
    if (k <= 0) return str_out(ev, "", 0, o);
    uint32_t b = utf8_offset(&a[0], k >= len ? 0 : len - k);
    return str_out(ev, a[0].u.s.p + b, a[0].u.s.len - b, o);
}

static EvStatus f_length(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].type->id == T_BINARY ? a[0].u.s.len : utf8_length(&a[0]));
    return EV_OK;
}

static EvStatus f_octet_length(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].u.s.len);
    return EV_OK;
}

static EvStatus f_bit_length(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, (int64_t)a[0].u.s.len * 8);
    return EV_OK;
}

static bool in_set(char ch, const Value *set) {
    if (!set) return ch == ' ';
    return memchr(set->u.s.p, ch, set->u.s.len) != NULL;
}

static EvStatus trim(Eval *ev, Value *a, uint32_t n, Value *o, bool left, bool right) {
    const Value *set = n > 1 ? &a[1] : NULL;
    const char *p = a[0].u.s.p;
    uint32_t len = a[0].u.s.len;
    if (left)
        while (len && in_set(*p, set)) p++, len--;
    if (right)
        while (len && in_set(p[len - 1], set)) len--;
    return str_out(ev, p, len, o);
}
static EvStatus f_trim(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)c; return trim(ev, a, n, o, true, true); }
static EvStatus f_ltrim(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)c; return trim(ev, a, n, o, true, false); }
static EvStatus f_rtrim(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)c; return trim(ev, a, n, o, false, true); }

static EvStatus f_replace(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c;
    const Value *s = &a[0], *from = &a[1];
    Value empty = v_string(A(ev), "", 0);
    const Value *to = n > 2 ? &a[2] : &empty;
    if (!from->u.s.len) return str_out(ev, s->u.s.p, s->u.s.len, o);
    StrBuf sb;
    sb_init(&sb, A(ev), s->u.s.len + 1);
    uint32_t i = 0;
    while (i < s->u.s.len) {
        if (i + from->u.s.len <= s->u.s.len && !memcmp(s->u.s.p + i, from->u.s.p, from->u.s.len)) {
            sb_putn(&sb, to->u.s.p, to->u.s.len);
            i += from->u.s.len;
        } else sb_putc(&sb, s->u.s.p[i++]);
    }
    return str_out(ev, sb.data, sb.len, o);
}

static EvStatus f_repeat(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    int64_t k = a[1].u.i;
    if (k <= 0 || !a[0].u.s.len) return str_out(ev, "", 0, o);
    if ((uint64_t)k * a[0].u.s.len > (1u << 24)) return EV_NOTCONST;
    StrBuf sb;
    sb_init(&sb, A(ev), (size_t)k * a[0].u.s.len + 1);
    for (int64_t i = 0; i < k; i++) sb_putn(&sb, a[0].u.s.p, a[0].u.s.len);
    return str_out(ev, sb.data, sb.len, o);
}

static EvStatus pad(Eval *ev, Value *a, uint32_t n, Value *o, bool left) {
    int64_t want = a[1].u.i, len = utf8_length(&a[0]);
    Value sp = v_string(A(ev), " ", 1);
    const Value *p = n > 2 ? &a[2] : &sp;
    if (want <= 0) return str_out(ev, "", 0, o);
    if (want <= len) return str_out(ev, a[0].u.s.p, utf8_offset(&a[0], want), o);
    if (want > (1 << 20)) return EV_NOTCONST;
    StrBuf sb;
    sb_init(&sb, A(ev), 32);
    int64_t need = want - len, plen = utf8_length(p);
    if (!left) sb_putn(&sb, a[0].u.s.p, a[0].u.s.len);
    if (plen)
        for (int64_t i = 0; i < need; i++) {
            int64_t k = i % plen;
            uint32_t b0 = utf8_offset(p, k), b1 = utf8_offset(p, k + 1);
            sb_putn(&sb, p->u.s.p + b0, b1 - b0);
        }
    if (left) sb_putn(&sb, a[0].u.s.p, a[0].u.s.len);
    return str_out(ev, sb.data, sb.len, o);
}
static EvStatus f_lpad(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)c; return pad(ev, a, n, o, true); }
static EvStatus f_rpad(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)c; return pad(ev, a, n, o, false); }

static EvStatus f_reverse(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    if (c->type->id == T_ARRAY) {
        uint32_t m = a[0].u.list.n;
        Value *items = ARENA_ARRAY(A(ev), Value, m + 1);
        for (uint32_t i = 0; i < m; i++) items[i] = a[0].u.list.items[m - 1 - i];
        *o = a[0];
        o->u.list.items = items;
        return EV_OK;
    }
    uint32_t len = a[0].u.s.len;
    char *p = arena_alloc(A(ev), len + 1);
    uint32_t i = 0;
    while (i < len) {
        uint32_t j = i + 1;
        while (j < len && ((unsigned char)a[0].u.s.p[j] & 0xC0) == 0x80) j++;
        mem_copy(p + (len - j), a[0].u.s.p + i, j - i);
        i = j;
    }
    return str_out(ev, p, len, o);
}

static EvStatus f_ascii(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].u.s.len ? (unsigned char)a[0].u.s.p[0] : 0);
    return EV_OK;
}

static EvStatus f_chr(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    int64_t v = a[0].u.i;
    if (v < 0) return str_out(ev, "", 0, o);
    char ch = (char)(v & 0xFF);
    if ((v & 0xFF) == 0) return str_out(ev, "\0", 1, o);
    if ((unsigned char)ch < 0x80) return str_out(ev, &ch, 1, o);
    char u[2] = {(char)(0xC0 | ((unsigned char)ch >> 6)), (char)(0x80 | ((unsigned char)ch & 0x3F))};
    return str_out(ev, u, 2, o);
}

static EvStatus f_space(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    int64_t k = a[0].u.i;
    if (k <= 0) return str_out(ev, "", 0, o);
    if (k > (1 << 20)) return EV_NOTCONST;
    char *p = arena_alloc(A(ev), (size_t)k + 1);
    memset(p, ' ', (size_t)k);
    return str_out(ev, p, (size_t)k, o);
}

/* 1-based character position of needle in s at or after character `from` (0 if absent). */
static int64_t find_pos(const Value *s, const Value *needle, int64_t from) {
    uint32_t b = utf8_offset(s, from);
    for (uint32_t i = b; i + needle->u.s.len <= s->u.s.len; i++)
        if (!needle->u.s.len || !memcmp(s->u.s.p + i, needle->u.s.p, needle->u.s.len)) {
            int64_t chars = 0;
            for (uint32_t k = 0; k < i; k++)
                if (((unsigned char)s->u.s.p[k] & 0xC0) != 0x80) chars++;
            return chars + 1;
        }
    return 0;
}

static EvStatus f_instr(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, find_pos(&a[0], &a[1], 0));
    return EV_OK;
}

static EvStatus f_locate(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev;
    int64_t start = n > 2 ? a[2].u.i : 1;
    *o = v_long(c->type, start < 1 ? 0 : find_pos(&a[1], &a[0], start - 1));
    return EV_OK;
}

static EvStatus contains_like(const Node *c, Value *a, int mode, Value *o) {
    (void)c;
    const Value *s = &a[0], *x = &a[1];
    bool r = false;
    if (x->u.s.len <= s->u.s.len) {
        if (mode == 0) r = find_pos(s, x, 0) > 0;
        else if (mode == 1) r = !memcmp(s->u.s.p, x->u.s.p, x->u.s.len);
        else r = !memcmp(s->u.s.p + s->u.s.len - x->u.s.len, x->u.s.p, x->u.s.len);
    }
    *o = v_bool(r);
    return EV_OK;
}
static EvStatus f_contains(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return contains_like(c, a, 0, o); }
static EvStatus f_startswith(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return contains_like(c, a, 1, o); }
static EvStatus f_endswith(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return contains_like(c, a, 2, o); }

/* LIKE with % and _ and the escape character (default '\'), without
 * recursion: on a mismatch, the last % seen takes one more byte and the
 * match resumes after it. The text between two %s matches deterministically
 * (a _ takes one UTF-8 character), and a later start never ends earlier, so
 * the leftmost match of each piece is the one to keep: O(|s| * |p|) steps
 * at worst, where trying every split at every % was exponential (and one
 * frame per %). A cancel or the deadline stops it. */
static uint32_t utf8_char_len(const char *s, uint32_t sn) {
    uint32_t k = 1;
    while (k < sn && ((unsigned char)s[k] & 0xC0) == 0x80) k++;
    return k;
}

static EvStatus like_match(Eval *ev, const char *s, uint32_t sn, const char *p, uint32_t pn, char esc, bool *out) {
    uint32_t si = 0, pi = 0, star_pi = UINT32_MAX, star_si = 0;
    uint64_t steps = 0;
    while (si < sn) {
        if ((++steps & 0xFFFFF) == 0 && an_out_of_time(ev->an)) return EV_ERROR;
        if (pi < pn) {
            char ch = p[pi];
            if (ch == esc && pi + 1 < pn) {
                if (s[si] == p[pi + 1]) {
                    si++, pi += 2;
                    continue;
                }
            } else if (ch == '%') {
                star_pi = pi++;
                star_si = si;
                continue;
            } else if (ch == '_') {
                si += utf8_char_len(s + si, sn - si);
                pi++;
                continue;
            } else if (s[si] == ch) {
                si++, pi++;
                continue;
            }
        }
        if (star_pi == UINT32_MAX) {
            *out = false;
            return EV_OK;
        }
        pi = star_pi + 1;
        si = ++star_si;
    }
    while (pi < pn && p[pi] == '%') pi++;
    *out = pi == pn;
    return EV_OK;
}

static EvStatus f_like(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c;
    char esc = n > 2 && !a[2].is_null && a[2].u.s.len ? a[2].u.s.p[0] : '\\';
    bool m;
    EvStatus st = like_match(ev, a[0].u.s.p, a[0].u.s.len, a[1].u.s.p, a[1].u.s.len, esc, &m);
    if (st != EV_OK) return st;
    *o = v_bool(m);
    return EV_OK;
}

static EvStatus f_split(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    /* only literal separators without regex metacharacters */
    const Value *s = &a[0], *sep = &a[1];
    for (uint32_t i = 0; i < sep->u.s.len; i++)
        if (strchr("\\^$.|?*+()[]{}", sep->u.s.p[i])) return EV_NOTCONST;
    uint32_t cap = s->u.s.len + 2, m = 0;
    Value *items = ARENA_ARRAY(A(ev), Value, cap);
    uint32_t st = 0;
    if (!sep->u.s.len) return EV_NOTCONST;
    for (uint32_t i = 0; i + sep->u.s.len <= s->u.s.len;) {
        if (!memcmp(s->u.s.p + i, sep->u.s.p, sep->u.s.len)) {
            items[m++] = v_string(A(ev), s->u.s.p + st, i - st);
            i += sep->u.s.len;
            st = i;
        } else i++;
    }
    items[m++] = v_string(A(ev), s->u.s.p + st, s->u.s.len - st);
    *o = (Value){.type = c->type};
    o->u.list.items = items;
    o->u.list.n = m;
    return EV_OK;
}

/* ---- collections ---- */

static EvStatus make_list(Eval *ev, const Node *c, Value *a, uint32_t n, uint32_t count, Value *o) {
    Value *items = ARENA_ARRAY(A(ev), Value, n + 1);
    mem_copy(items, a, sizeof(Value) * n);
    *o = (Value){.type = c->type};
    o->u.list.items = items;
    o->u.list.n = count;
    return EV_OK;
}

static EvStatus f_array(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    for (uint32_t i = 0; i < n; i++)
        if (a[i].is_null) a[i].type = c->type->elem;
    return make_list(ev, c, a, n, n, o);
}

static EvStatus f_map(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    /* keys must not be null; a repeated key is an error under the default dedup policy */
    for (uint32_t i = 0; i < n; i += 2) {
        if (a[i].is_null)
            return ev_fail(ev, error_make(A(ev), "NULL_MAP_KEY", c, NULL));
        for (uint32_t j = 0; j < i; j += 2)
            if (value_cmp(&a[i], &a[j]) == 0) {
                StrBuf sb;
                sb_init(&sb, A(ev), 16);
                value_print(&sb, &a[i]);
                return ev_fail(ev, error_make(A(ev), "DUPLICATED_MAP_KEY", c, "key", sb.data, "mapKeyDedupPolicy",
                                              sql_conf(A(ev), "spark.sql.mapKeyDedupPolicy"), NULL));
            }
        if (a[i + 1].is_null) a[i + 1].type = c->type->value;
    }
    return make_list(ev, c, a, n, n / 2, o);
}

static EvStatus f_named_struct(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    uint32_t m = n / 2;
    Value *items = ARENA_ARRAY(A(ev), Value, m + 1);
    for (uint32_t i = 0; i < m; i++) {
        items[i] = a[2 * i + 1];
        if (items[i].is_null && (int)i < c->type->nfields) items[i].type = c->type->fields[i].type;
    }
    return make_list(ev, c, items, m, m, o);
}

static EvStatus f_struct(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { return make_list(ev, c, a, n, n, o); }

static EvStatus f_size(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].is_null ? -1 : (int64_t)a[0].u.list.n);
    return EV_OK;
}

/* a[i] (0-based) / m[k]; element_at (1-based, negative from the end). */
static EvStatus subscript(Eval *ev, const Node *c, Value *a, Value *o, bool one_based, bool strict_bounds) {
    if (a[0].type->id == T_MAP) {
        for (uint32_t i = 0; i < a[0].u.list.n; i++)
            if (value_cmp(&a[0].u.list.items[2 * i], &a[1]) == 0) {
                *o = a[0].u.list.items[2 * i + 1];
                if (o->is_null) o->type = c->type;
                return EV_OK;
            }
        if (one_based && strict_bounds) {
            StrBuf sb;
            sb_init(&sb, A(ev), 16);
            value_print_sql(&sb, &a[1]);
            return ev_fail(ev, error_make(A(ev), "MAP_KEY_DOES_NOT_EXIST", c, "keyValue", sb.data, NULL));
        }
        *o = v_null(c->type);
        return EV_OK;
    }
    int64_t i = a[1].u.i, n = a[0].u.list.n;
    int64_t k = one_based ? (i > 0 ? i - 1 : i < 0 ? n + i : -1) : i;
    if (one_based && i == 0 && strict_bounds)
        return ev_fail(ev, error_make(A(ev), "INVALID_INDEX_OF_ZERO", c, NULL));
    if (k < 0 || k >= n) {
        if (!strict_bounds) {
            *o = v_null(c->type);
            return EV_OK;
        }
        return ev_fail(ev, error_make(A(ev), one_based ? "INVALID_ARRAY_INDEX_IN_ELEMENT_AT" : "INVALID_ARRAY_INDEX", c,
                                      "indexValue", arena_printf(A(ev), "%lld", (long long)i), "arraySize",
                                      arena_printf(A(ev), "%lld", (long long)n), "ansiConfig",
                                      sql_conf(A(ev), "spark.sql.ansi.enabled"), NULL));
    }
    *o = a[0].u.list.items[k];
    if (o->is_null) o->type = c->type;
    return EV_OK;
}

static EvStatus f_subscript(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    return subscript(ev, c, a, o, false, true);
}
static EvStatus f_element_at(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    return subscript(ev, c, a, o, true, true);
}
static EvStatus f_try_element_at(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    return subscript(ev, c, a, o, true, false);
}

static EvStatus f_array_contains(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)c, (void)n;
    bool saw_null = false;
    for (uint32_t i = 0; i < a[0].u.list.n; i++) {
        const Value *x = &a[0].u.list.items[i];
        if (x->is_null) saw_null = true;
        else if (value_cmp(x, &a[1]) == 0) {
            *o = v_bool(true);
            return EV_OK;
        }
    }
    *o = saw_null ? v_null(&TYPE_BOOLEAN) : v_bool(false);
    return EV_OK;
}

static EvStatus keys_values(Eval *ev, const Node *c, Value *a, Value *o, uint32_t which) {
    uint32_t m = a[0].u.list.n;
    Value *items = ARENA_ARRAY(A(ev), Value, m + 1);
    for (uint32_t i = 0; i < m; i++) items[i] = a[0].u.list.items[2 * i + which];
    *o = (Value){.type = c->type};
    o->u.list.items = items;
    o->u.list.n = m;
    return EV_OK;
}
static EvStatus f_map_keys(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return keys_values(ev, c, a, o, 0); }
static EvStatus f_map_values(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return keys_values(ev, c, a, o, 1); }

/* ---- dates ---- */

static EvStatus f_date_add(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].u.i + a[1].u.i);
    return EV_OK;
}

static EvStatus f_date_sub(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].u.i - a[1].u.i);
    return EV_OK;
}

static EvStatus f_datediff(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].u.i - a[1].u.i);
    return EV_OK;
}

static EvStatus f_make_date(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    int64_t y = a[0].u.i, m = a[1].u.i, d = a[2].u.i;
    static const unsigned D[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || d < 1 || d > (int64_t)D[m - 1] || (m == 2 && d == 29 && !leap) || y < -290000 || y > 290000)
        return ev_fail(ev, error_make(A(ev), "DATETIME_FIELD_OUT_OF_BOUNDS", c, "rangeMessage", "Invalid date",
                                      "ansiConfig", sql_conf(A(ev), "spark.sql.ansi.enabled"), NULL));
    *o = v_long(c->type, days_from_civil(y, (unsigned)m, (unsigned)d));
    return EV_OK;
}

static EvStatus date_field(const Node *c, Value *a, int which, Value *o) {
    int64_t days = a[0].type->id == T_DATE ? a[0].u.i : a[0].u.i / 86400000000LL - (a[0].u.i % 86400000000LL < 0);
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    *o = v_long(c->type, which == 0 ? y : which == 1 ? (int64_t)m : (int64_t)d);
    return EV_OK;
}
static EvStatus f_year(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return date_field(c, a, 0, o); }
static EvStatus f_month(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return date_field(c, a, 1, o); }
static EvStatus f_day(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return date_field(c, a, 2, o); }

static EvStatus f_to_date(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    if (n > 1) return EV_NOTCONST; /* format patterns: not here */
    return ev_cast(ev, &a[0], c->type, c, o);
}

static EvStatus f_dt_add(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    bool sub = n == 2 && !strcmp(func_name(c->u.call.def), "@dt_sub");
    const Value *iv = &a[1];
    int64_t us;
    if (iv->type->id == T_DT_INTERVAL) us = iv->u.iv.micros;
    else if (iv->type->id == T_CALENDAR_INTERVAL && iv->u.iv.months == 0)
        us = iv->u.iv.days * 86400000000LL + iv->u.iv.micros;
    else return EV_NOTCONST;
    if (sub) us = -us;
    Value start = a[0];
    /* DatetimeSub keeps a string start as written; its TimeAdd casts it */
    if (type_is_string(start.type)) {
        EvStatus st = ev_cast(ev, &a[0], c->type, c, &start);
        if (st) return st;
        if (start.is_null) {
            *o = v_null(c->type);
            return EV_OK;
        }
    }
    a = &start;
    if (a[0].type->id == T_DATE) {
        if (us % 86400000000LL) return EV_NOTCONST;
        *o = v_long(c->type, a[0].u.i + us / 86400000000LL);
    } else *o = v_long(c->type, a[0].u.i + us);
    return EV_OK;
}

/* catalogManager.currentNamespace.quoted */
static EvStatus f_current_database(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)a, (void)n;
    const char *ns = "default";
    CatalogRef cat;
    if (ev->an->session && !catalog_current(ev->an->arena, ev->an->session, &cat))
        ns = catalog_namespace_key(ev->an->arena, catalog_current_namespace(ev->an->arena, ev->an->session, &cat));
    return str_out(ev, ns, strlen(ns), o);
}

static EvStatus f_current_catalog(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)a, (void)n;
    CatalogRef cat = {SESSION_CATALOG, true, NULL};
    if (ev->an->session && catalog_current(ev->an->arena, ev->an->session, &cat)) return EV_NOTCONST;
    return str_out(ev, cat.name, strlen(cat.name), o);
}

static EvStatus f_current_user(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)a, (void)n;
    return str_out(ev, "spark", 5, o);
}

/* ---- math ---- */

static EvStatus f_pi(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)a, (void)n;
    *o = v_double(c->type, M_PI);
    return EV_OK;
}

static EvStatus f_e(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)a, (void)n;
    *o = v_double(c->type, M_E);
    return EV_OK;
}

/* rand(seed) as Spark draws it: java.util.Random's nextDouble over
 * XORShiftRandom(seed + partition 0), whose state is the seed hashed with
 * Scala's MurmurHash3.bytesHash (so DEFAULT 1 + rand(5) gives Spark's value). */
static uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

static uint32_t murmur_mix_last(uint32_t h, uint32_t k) {
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    k *= 0x1b873593u;
    return h ^ k;
}

static uint32_t murmur_bytes(const uint8_t *d, int n, uint32_t seed) {
    uint32_t h = seed;
    int i = 0;
    for (; n - i >= 4; i += 4) {
        uint32_t k = (uint32_t)d[i] | (uint32_t)d[i + 1] << 8 | (uint32_t)d[i + 2] << 16 | (uint32_t)d[i + 3] << 24;
        h = murmur_mix_last(h, k);
        h = rotl32(h, 13) * 5 + 0xe6546b64u;
    }
    uint32_t k = 0;
    switch (n - i) {
    case 3: k ^= (uint32_t)d[i + 2] << 16; /* fall through */
    case 2: k ^= (uint32_t)d[i + 1] << 8; /* fall through */
    case 1:
        k ^= d[i];
        h = murmur_mix_last(h, k);
        break;
    default: break;
    }
    h ^= (uint32_t)n;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static uint64_t xorshift_seed(int64_t seed) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)seed >> (56 - 8 * i)); /* big-endian, as ByteBuffer */
    uint32_t lo = murmur_bytes(b, 8, 0x3c074a61u);
    uint32_t hi = murmur_bytes(b, 8, lo);
    return (uint64_t)hi << 32 | lo;
}

static uint32_t xorshift_next(uint64_t *s, int bits) {
    uint64_t x = *s;
    x ^= x << 21;
    x ^= x >> 35;
    x ^= x << 4;
    *s = x;
    return (uint32_t)(x & ((1ull << bits) - 1));
}

static EvStatus f_rand(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev;
    int64_t seed = n && !a[0].is_null ? a[0].u.i : 0;
    uint64_t st = xorshift_seed(seed);
    uint64_t hi = xorshift_next(&st, 26), lo = xorshift_next(&st, 27);
    *o = v_double(c->type, (double)((hi << 27) + lo) * (1.0 / 9007199254740992.0));
    return EV_OK;
}

static EvStatus unary_math(const Node *c, Value *a, double (*fn)(double), Value *o) {
    *o = v_double(c->type, fn(value_as_double(&a[0])));
    return EV_OK;
}
static EvStatus f_sqrt(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return unary_math(c, a, sqrt, o); }
static EvStatus f_exp(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return unary_math(c, a, exp, o); }
static EvStatus f_ln(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return unary_math(c, a, log, o); }

static EvStatus f_pow(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_double(c->type, pow(value_as_double(&a[0]), value_as_double(&a[1])));
    return EV_OK;
}

static EvStatus ceil_floor(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o, bool up) {
    if (n > 1) return EV_NOTCONST;
    const Value *x = &a[0];
    if (type_is_integral(x->type)) {
        *o = v_long(c->type, x->u.i);
        return EV_OK;
    }
    if (x->type->id == T_DECIMAL) {
        __int128 d = pow10_i128(x->type->scale), q = x->u.dec / d, r = x->u.dec % d;
        if (r && up && x->u.dec > 0) q++;
        if (r && !up && x->u.dec < 0) q--;
        if (c->type->id == T_DECIMAL) *o = v_dec(c->type, q);
        else *o = v_long(c->type, (int64_t)q);
        return EV_OK;
    }
    double d = up ? ceil(x->u.d) : floor(x->u.d);
    if (c->type->id == T_LONG) {
        if (d != d || d >= 9.3e18 || d <= -9.3e18) return EV_NOTCONST;
        *o = v_long(c->type, (int64_t)d);
    } else *o = v_double(c->type, d);
    (void)ev;
    return EV_OK;
}
static EvStatus f_ceil(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { return ceil_floor(ev, c, a, n, o, true); }
static EvStatus f_floor(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { return ceil_floor(ev, c, a, n, o, false); }

static EvStatus f_round(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev;
    int64_t s = n > 1 && !a[1].is_null ? a[1].u.i : 0;
    const Value *x = &a[0];
    if (x->type->id == T_DECIMAL && c->type->id == T_DECIMAL) {
        if (s < -38 || s > 38) return EV_NOTCONST;
        __int128 r = s >= x->type->scale ? x->u.dec : dec_rescale(x->u.dec, x->type->scale, (int)s);
        *o = v_dec(c->type, s >= x->type->scale ? r : dec_rescale(r, (int)s, c->type->scale));
        return EV_OK;
    }
    if (type_is_integral(x->type)) {
        if (s >= 0) {
            *o = v_long(c->type, x->u.i);
            return EV_OK;
        }
        if (s < -18) return EV_NOTCONST;
        *o = v_long(c->type, (int64_t)dec_rescale(dec_rescale(x->u.i, 0, (int)s), (int)s, 0));
        return EV_OK;
    }
    if (x->type->id == T_DOUBLE || x->type->id == T_FLOAT) {
        double m = pow(10.0, (double)s), v = x->u.d * m;
        v = v < 0 ? -floor(-v + 0.5) : floor(v + 0.5);
        *o = v_double(c->type, v / m);
        return EV_OK;
    }
    return EV_NOTCONST;
}

static EvStatus f_typeof(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)a, (void)n;
    const char *t = type_catalog_string(A(ev), c->kids[0]->type);
    return str_out(ev, t, strlen(t), o);
}

static EvStatus f_assert_true(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    if (a[0].is_null || !a[0].u.b) return ev_fail(ev, error_make(A(ev), "USER_RAISED_EXCEPTION", c, NULL));
    *o = v_null(c->type);
    return EV_OK;
}

/* ---- more dates and times ---- */

static int64_t now_micros(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static EvStatus f_current_date(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)a, (void)n;
    int64_t us = now_micros();
    *o = v_long(c->type, us / 86400000000LL);
    return EV_OK;
}

static EvStatus f_current_timestamp(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)a, (void)n;
    *o = v_long(c->type, now_micros());
    return EV_OK;
}

static int64_t day_of(const Value *v) {
    if (v->type->id == T_DATE) return v->u.i;
    return v->u.i / 86400000000LL - (v->u.i % 86400000000LL < 0);
}

static EvStatus f_make_timestamp(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    if (n > 6) return EV_NOTCONST; /* an explicit time zone */
    int64_t y = a[0].u.i, m = a[1].u.i, d = a[2].u.i, h = a[3].u.i, mi = a[4].u.i;
    int64_t sec_us;
    if (a[5].type->id == T_DECIMAL) sec_us = (int64_t)dec_rescale(a[5].u.dec, a[5].type->scale, 6);
    else if (type_is_integral(a[5].type)) sec_us = a[5].u.i * 1000000;
    else sec_us = (int64_t)(value_as_double(&a[5]) * 1e6);
    static const unsigned D[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || d < 1 || d > (int64_t)D[m - 1] || (m == 2 && d == 29 && !leap) || h < 0 || h > 23 ||
        mi < 0 || mi > 59 || sec_us < 0 || sec_us > 60000000 || y < -290000 || y > 290000)
        return ev_fail(ev, error_make(A(ev), "DATETIME_FIELD_OUT_OF_BOUNDS", c, "rangeMessage", "Invalid value for a field",
                                      "ansiConfig", sql_conf(A(ev), "spark.sql.ansi.enabled"), NULL));
    int64_t days = days_from_civil(y, (unsigned)m, (unsigned)d);
    *o = v_long(c->type, days * 86400000000LL + (h * 3600 + mi * 60) * 1000000LL + sec_us);
    return EV_OK;
}

static EvStatus f_add_months(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    int64_t y;
    unsigned m, d;
    civil_from_days(a[0].u.i, &y, &m, &d);
    int64_t total = y * 12 + (m - 1) + a[1].u.i;
    int64_t ny = total >= 0 ? total / 12 : (total - 11) / 12;
    unsigned nm = (unsigned)(total - ny * 12) + 1;
    static const unsigned D[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    unsigned md = D[nm - 1] + (nm == 2 && ((ny % 4 == 0 && ny % 100 != 0) || ny % 400 == 0));
    *o = v_long(c->type, days_from_civil(ny, nm, d > md ? md : d));
    return EV_OK;
}

static EvStatus f_last_day(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    int64_t y;
    unsigned m, d;
    civil_from_days(a[0].u.i, &y, &m, &d);
    int64_t first_next = m == 12 ? days_from_civil(y + 1, 1, 1) : days_from_civil(y, m + 1, 1);
    *o = v_long(c->type, first_next - 1);
    return EV_OK;
}

static EvStatus f_dayofweek(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    int64_t z = day_of(&a[0]);
    int64_t w = ((z + 4) % 7 + 7) % 7; /* 1970-01-01 was a Thursday; 0 = Sunday */
    *o = v_long(c->type, w + 1);
    return EV_OK;
}

static EvStatus f_quarter(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    int64_t y;
    unsigned m, d;
    civil_from_days(day_of(&a[0]), &y, &m, &d);
    *o = v_long(c->type, (m - 1) / 3 + 1);
    return EV_OK;
}

static EvStatus time_field(const Node *c, Value *a, int64_t unit, int64_t mod, Value *o) {
    int64_t us = a[0].u.i % 86400000000LL;
    if (us < 0) us += 86400000000LL;
    *o = v_long(c->type, us / unit % mod);
    return EV_OK;
}
static EvStatus f_hour(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return time_field(c, a, 3600000000LL, 24, o); }
static EvStatus f_minute(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return time_field(c, a, 60000000LL, 60, o); }
static EvStatus f_second(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return time_field(c, a, 1000000LL, 60, o); }

static EvStatus f_unix_date(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = v_long(c->type, a[0].u.i);
    return EV_OK;
}

static EvStatus f_timestamp_seconds(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    int64_t us;
    if (type_is_integral(a[0].type)) {
        if (__builtin_mul_overflow(a[0].u.i, (int64_t)1000000, &us)) return arith_overflow(ev, c, "long overflow");
    } else us = (int64_t)(value_as_double(&a[0]) * 1e6);
    *o = v_long(c->type, us);
    return EV_OK;
}

/* ---- more strings ---- */

static EvStatus f_translate(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    StrBuf sb;
    sb_init(&sb, A(ev), a[0].u.s.len + 1);
    for (uint32_t i = 0; i < a[0].u.s.len; i++) {
        char ch = a[0].u.s.p[i];
        const char *hit = a[1].u.s.len ? memchr(a[1].u.s.p, ch, a[1].u.s.len) : NULL;
        if (!hit) {
            sb_putc(&sb, ch);
            continue;
        }
        uint32_t k = (uint32_t)(hit - a[1].u.s.p);
        if (k < a[2].u.s.len) sb_putc(&sb, a[2].u.s.p[k]);
    }
    return str_out(ev, sb.data, sb.len, o);
}

static EvStatus f_substring_index(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    const Value *s = &a[0], *d = &a[1];
    int64_t cnt = a[2].u.i;
    if (!cnt || !d->u.s.len) return str_out(ev, "", 0, o);
    if (cnt > 0) {
        uint32_t i = 0;
        for (int64_t k = 0; i + d->u.s.len <= s->u.s.len; i++)
            if (!memcmp(s->u.s.p + i, d->u.s.p, d->u.s.len) && ++k == cnt) return str_out(ev, s->u.s.p, i, o);
        return str_out(ev, s->u.s.p, s->u.s.len, o);
    }
    int64_t k = 0;
    for (int64_t i = (int64_t)s->u.s.len - d->u.s.len; i >= 0; i--)
        if (!memcmp(s->u.s.p + i, d->u.s.p, d->u.s.len) && ++k == -cnt)
            return str_out(ev, s->u.s.p + i + d->u.s.len, s->u.s.len - (uint32_t)i - d->u.s.len, o);
    return str_out(ev, s->u.s.p, s->u.s.len, o);
}

static EvStatus f_elt(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    int64_t k = a[0].u.i;
    if (k < 1 || k >= (int64_t)n)
        return ev_fail(ev, error_make(A(ev), "INVALID_ARRAY_INDEX", c, "indexValue", arena_printf(A(ev), "%lld", (long long)k),
                                      "arraySize", arena_printf(A(ev), "%u", n - 1), "ansiConfig",
                                      sql_conf(A(ev), "spark.sql.ansi.enabled"), NULL));
    *o = a[k];
    if (o->is_null) o->type = c->type;
    return EV_OK;
}

static EvStatus f_hex(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    char buf[64];
    if (type_is_integral(a[0].type)) {
        int len = snprintf(buf, sizeof buf, "%llX", (unsigned long long)a[0].u.i);
        return str_out(ev, buf, (size_t)len, o);
    }
    if (!type_is_string(a[0].type) && a[0].type->id != T_BINARY) return EV_NOTCONST;
    StrBuf sb;
    sb_init(&sb, A(ev), a[0].u.s.len * 2 + 1);
    for (uint32_t i = 0; i < a[0].u.s.len; i++) sb_printf(&sb, "%02X", (unsigned char)a[0].u.s.p[i]);
    return str_out(ev, sb.data, sb.len, o);
}

static EvStatus f_bin(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c, (void)n;
    char buf[72];
    uint64_t v = (uint64_t)a[0].u.i;
    int len = 0;
    do {
        buf[len++] = (char)('0' + (v & 1));
        v >>= 1;
    } while (v);
    for (int i = 0; i < len / 2; i++) {
        char t = buf[i];
        buf[i] = buf[len - 1 - i];
        buf[len - 1 - i] = t;
    }
    return str_out(ev, buf, (size_t)len, o);
}

/* ---- more math ---- */

static EvStatus f_sign(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    double d = value_as_double(&a[0]);
    *o = v_double(c->type, d > 0 ? 1.0 : d < 0 ? -1.0 : d);
    return EV_OK;
}

static EvStatus f_pmod(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    EvStatus st = f_rem(ev, c, a, n, o);
    if (st || o->is_null) return st;
    Value r = *o;
    bool neg = r.type->id == T_DECIMAL ? r.u.dec < 0 : (r.type->id == T_FLOAT || r.type->id == T_DOUBLE) ? r.u.d < 0 : r.u.i < 0;
    if (!neg) return EV_OK;
    Value args[2] = {r, a[1]};
    st = f_add(ev, c, args, 2, o);
    if (st) return st;
    args[0] = *o;
    return f_rem(ev, c, args, 2, o);
}

static EvStatus f_log10(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    double d = value_as_double(&a[0]);
    *o = d <= 0 ? v_null(c->type) : v_double(c->type, log10(d));
    return EV_OK;
}

static EvStatus f_log2(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    double d = value_as_double(&a[0]);
    *o = d <= 0 ? v_null(c->type) : v_double(c->type, log2(d));
    return EV_OK;
}

static EvStatus f_isnan(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)c, (void)n;
    *o = v_bool(!a[0].is_null && (a[0].type->id == T_DOUBLE || a[0].type->id == T_FLOAT) && a[0].u.d != a[0].u.d);
    return EV_OK;
}

static EvStatus f_nanvl(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    bool nan = !a[0].is_null && a[0].u.d != a[0].u.d;
    *o = nan ? a[1] : a[0];
    if (o->is_null) o->type = c->type;
    return EV_OK;
}

static EvStatus f_zeroifnull(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    if (!a[0].is_null) {
        *o = a[0];
        return EV_OK;
    }
    Value zero = v_long(&TYPE_INT, 0);
    return ev_cast(ev, &zero, c->type, c, o);
}

static EvStatus f_nullifzero(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    *o = is_zero(&a[0]) ? v_null(c->type) : a[0];
    return EV_OK;
}

static EvStatus f_bit_count(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    uint64_t v = a[0].type->id == T_BOOLEAN ? a[0].u.b : (uint64_t)a[0].u.i;
    if (a[0].type->id == T_INT) v &= 0xFFFFFFFFull;
    else if (a[0].type->id == T_SHORT) v &= 0xFFFFull;
    else if (a[0].type->id == T_BYTE) v &= 0xFFull;
    *o = v_long(c->type, __builtin_popcountll(v));
    return EV_OK;
}

static EvStatus f_shift(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    const char *nm = func_name(c->u.call.def);
    bool is_long = c->type->id == T_LONG;
    int sh = (int)(a[1].u.i & (is_long ? 63 : 31));
    int64_t v = a[0].u.i, r;
    if (!strcmp(nm, "<<") || !strcmp(nm, "shiftleft")) r = is_long ? (int64_t)((uint64_t)v << sh) : (int32_t)((uint32_t)v << sh);
    else if (!strcmp(nm, ">>>") || !strcmp(nm, "shiftrightunsigned"))
        r = is_long ? (int64_t)((uint64_t)v >> sh) : (int32_t)((uint32_t)v >> sh);
    else r = v >> sh;
    *o = v_long(c->type, r);
    return EV_OK;
}

/* try_add and friends: the operator they stand for, NULL instead of its
 * error. The call holds its arguments as written (InheritAnalysisRules), so
 * the operator is built again over the values (its coercion, its datetime
 * forms) and evaluated with ANSI errors, as EvalMode.TRY does. */
static EvStatus try_arith(Eval *ev, const Node *c, Value *a, char op, Value *o) {
    (void)op;
    ErrorInfo *saved = ev->an->error;
    Node *copy = node_new(A(ev), NK_Call, c->start, c->stop);
    *copy = *c;
    Node *lits[2];
    for (int i = 0; i < 2; i++) {
        lits[i] = node_new(A(ev), NK_Literal, c->kids[i]->start, c->kids[i]->stop);
        lits[i]->u.lit.v = a[i];
        lits[i]->type = a[i].type;
        if (a[i].is_null) lits[i]->flags |= NF_NULLABLE;
        lits[i] = node_finish(lits[i]);
    }
    node_set_kids(A(ev), copy, lits, 2);
    ReplaceCtx rc = {.an = ev->an};
    Node *e = fn_runtime_replacement(&rc, node_finish(copy));
    EvStatus st = EV_ERROR;
    if (e) {
        if (e->kind == NK_Call) e->u.call.ansi = true;
        st = ev_expr(ev, e, o);
    }
    if (st == EV_ERROR) {
        ev->an->error = saved;
        *o = v_null(c->type);
        return EV_OK;
    }
    return st;
}
static EvStatus f_try_add(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return try_arith(ev, c, a, '+', o); }
static EvStatus f_try_subtract(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return try_arith(ev, c, a, '-', o); }
static EvStatus f_try_multiply(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return try_arith(ev, c, a, '*', o); }
static EvStatus f_try_divide(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)n; return try_arith(ev, c, a, '/', o); }

/* ---- more collections ---- */

static EvStatus list_out(Eval *ev, const Node *c, const Value *items, uint32_t n, Value *o) {
    (void)ev;
    *o = (Value){.type = c->type};
    o->u.list.items = items;
    o->u.list.n = n;
    return EV_OK;
}

static EvStatus f_array_join(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)c;
    StrBuf sb;
    sb_init(&sb, A(ev), 32);
    bool first = true;
    for (uint32_t i = 0; i < a[0].u.list.n; i++) {
        const Value *x = &a[0].u.list.items[i];
        const Value *put = x;
        if (x->is_null) {
            if (n < 3 || a[2].is_null) continue;
            put = &a[2];
        }
        if (!first) sb_putn(&sb, a[1].u.s.p, a[1].u.s.len);
        uint32_t len;
        const char *t = type_is_string(put->type) ? put->u.s.p : value_to_text(A(ev), put, &len);
        if (type_is_string(put->type)) len = put->u.s.len;
        sb_putn(&sb, t, len);
        first = false;
    }
    return str_out(ev, sb.data, sb.len, o);
}

static EvStatus f_sort_array(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    bool asc = n < 2 || a[1].u.b;
    uint32_t m = a[0].u.list.n;
    Value *items = ARENA_ARRAY(A(ev), Value, m + 1);
    mem_copy(items, a[0].u.list.items, sizeof(Value) * m);
    for (uint32_t i = 1; i < m; i++) {
        Value x = items[i];
        uint32_t j = i;
        while (j > 0) {
            int cmp = value_cmp(&items[j - 1], &x); /* nulls first ascending */
            if (!asc) cmp = -cmp;
            if (cmp <= 0) break;
            items[j] = items[j - 1];
            j--;
        }
        items[j] = x;
    }
    return list_out(ev, c, items, m, o);
}

static EvStatus f_array_distinct(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    uint32_t m = 0;
    Value *items = ARENA_ARRAY(A(ev), Value, a[0].u.list.n + 1);
    for (uint32_t i = 0; i < a[0].u.list.n; i++) {
        bool dup = false;
        for (uint32_t k = 0; k < m && !dup; k++) dup = value_same(&items[k], &a[0].u.list.items[i]);
        if (!dup) items[m++] = a[0].u.list.items[i];
    }
    return list_out(ev, c, items, m, o);
}

static EvStatus array_extreme(const Node *c, Value *a, Value *o, int sign) {
    *o = v_null(c->type);
    for (uint32_t i = 0; i < a[0].u.list.n; i++) {
        const Value *x = &a[0].u.list.items[i];
        if (!x->is_null && (o->is_null || value_cmp(x, o) * sign > 0)) *o = *x;
    }
    return EV_OK;
}
static EvStatus f_array_max(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return array_extreme(c, a, o, 1); }
static EvStatus f_array_min(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) { (void)ev, (void)n; return array_extreme(c, a, o, -1); }

static EvStatus f_array_position(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)ev, (void)n;
    for (uint32_t i = 0; i < a[0].u.list.n; i++)
        if (!a[0].u.list.items[i].is_null && value_cmp(&a[0].u.list.items[i], &a[1]) == 0) {
            *o = v_long(c->type, i + 1);
            return EV_OK;
        }
    *o = v_long(c->type, 0);
    return EV_OK;
}

static EvStatus f_array_remove(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    uint32_t m = 0;
    Value *items = ARENA_ARRAY(A(ev), Value, a[0].u.list.n + 1);
    for (uint32_t i = 0; i < a[0].u.list.n; i++) {
        const Value *x = &a[0].u.list.items[i];
        if (x->is_null || value_cmp(x, &a[1]) != 0) items[m++] = *x;
    }
    return list_out(ev, c, items, m, o);
}

static EvStatus f_array_append(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    if (a[0].is_null) {
        *o = v_null(c->type);
        return EV_OK;
    }
    uint32_t m = a[0].u.list.n;
    Value *items = ARENA_ARRAY(A(ev), Value, m + 2);
    mem_copy(items, a[0].u.list.items, sizeof(Value) * m);
    items[m] = a[1];
    if (items[m].is_null) items[m].type = c->type->elem;
    return list_out(ev, c, items, m + 1, o);
}

static EvStatus f_flatten(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    uint32_t total = 0;
    for (uint32_t i = 0; i < a[0].u.list.n; i++) {
        if (a[0].u.list.items[i].is_null) {
            *o = v_null(c->type);
            return EV_OK;
        }
        total += a[0].u.list.items[i].u.list.n;
    }
    Value *items = ARENA_ARRAY(A(ev), Value, total + 1);
    uint32_t k = 0;
    for (uint32_t i = 0; i < a[0].u.list.n; i++)
        for (uint32_t j = 0; j < a[0].u.list.items[i].u.list.n; j++) items[k++] = a[0].u.list.items[i].u.list.items[j];
    return list_out(ev, c, items, total, o);
}

static EvStatus f_slice(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    (void)n;
    int64_t m = a[0].u.list.n, start = a[1].u.i, len = a[2].u.i;
    if (start == 0)
        return ev_fail(ev, error_make(A(ev), "INVALID_PARAMETER_VALUE.START", c, "parameter", "`start`", "functionName",
                                      "`slice`", NULL));
    if (len < 0)
        return ev_fail(ev, error_make(A(ev), "INVALID_PARAMETER_VALUE.LENGTH", c, "parameter", "`length`", "length",
                                      arena_printf(A(ev), "%lld", (long long)len), "functionName", "`slice`", NULL));
    int64_t b = start > 0 ? start - 1 : m + start;
    if (b < 0 || b >= m) return list_out(ev, c, NULL, 0, o);
    int64_t e = b + len > m ? m : b + len;
    return list_out(ev, c, a[0].u.list.items + b, (uint32_t)(e - b), o);
}

static EvStatus f_sequence(Eval *ev, const Node *c, Value *a, uint32_t n, Value *o) {
    if (!type_is_integral(a[0].type) || !type_is_integral(a[1].type)) return EV_NOTCONST;
    int64_t s0 = a[0].u.i, s1 = a[1].u.i, st = n > 2 ? a[2].u.i : (s1 >= s0 ? 1 : -1);
    if (st == 0 || (st > 0 && s1 < s0) || (st < 0 && s1 > s0)) return EV_NOTCONST;
    /* in 128 bits: sequence(-9223372036854775808, 9223372036854775806) spans more than a long holds */
    __int128 cnt = ((__int128)s1 - s0) / st + 1;
    if (cnt > EV_MAX_ROWS) return EV_NOTCONST;
    Value *items = ARENA_ARRAY(A(ev), Value, (size_t)cnt + 1);
    for (int64_t i = 0; i < (int64_t)cnt; i++) items[i] = v_long(c->type->elem, (int64_t)((__int128)s0 + (__int128)i * st));
    return list_out(ev, c, items, (uint32_t)cnt, o);
}

/* ---- the table (sorted by name: strcmp order) ---- */

static const EvalFunc FUNCS[] = {
    {"!", f_not, NULL, 0},
    {"!=", f_ne, NULL, 0},
    {"%", f_rem, NULL, 0},
    {"&", f_bitand, NULL, 0},
    {"*", f_mul, NULL, 0},
    {"+", f_plus, NULL, 0},
    {"-", f_neg, NULL, 0},
    {"/", f_div, NULL, 0},
    {"<", f_lt, NULL, 0},
    {"<<", f_shift, NULL, 0},
    {"<=", f_le, NULL, 0},
    {"<=>", f_eq_null_safe, NULL, NULLS_IN},
    {"<>", f_ne, NULL, 0},
    {"=", f_eq, NULL, 0},
    {"==", f_eq, NULL, 0},
    {">", f_gt, NULL, 0},
    {">=", f_ge, NULL, 0},
    {">>", f_shift, NULL, 0},
    {">>>", f_shift, NULL, 0},
    {"@dt_add", f_dt_add, NULL, 0},
    {"@dt_sub", f_dt_add, NULL, 0},
    {"@subscript", f_subscript, NULL, 0},
    {"^", f_bitxor, NULL, 0},
    {"abs", f_abs, NULL, 0},
    {"add_months", f_add_months, NULL, 0},
    {"and", NULL, l_and, 0},
    {"array", f_array, NULL, NULLS_IN},
    {"array_append", f_array_append, NULL, NULLS_IN},
    {"array_contains", f_array_contains, NULL, 0},
    {"array_distinct", f_array_distinct, NULL, 0},
    {"array_join", f_array_join, NULL, NULLS_IN},
    {"array_max", f_array_max, NULL, 0},
    {"array_min", f_array_min, NULL, 0},
    {"array_position", f_array_position, NULL, 0},
    {"array_remove", f_array_remove, NULL, 0},
    {"ascii", f_ascii, NULL, 0},
    {"assert_true", f_assert_true, NULL, NULLS_IN},
    {"bin", f_bin, NULL, 0},
    {"bit_count", f_bit_count, NULL, 0},
    {"bit_length", f_bit_length, NULL, 0},
    {"btrim", f_trim, NULL, 0},
    {"cardinality", f_size, NULL, NULLS_IN},
    {"ceil", f_ceil, NULL, 0},
    {"ceiling", f_ceil, NULL, 0},
    {"char", f_chr, NULL, 0},
    {"char_length", f_length, NULL, 0},
    {"character_length", f_length, NULL, 0},
    {"chr", f_chr, NULL, 0},
    {"coalesce", NULL, l_coalesce, 0},
    {"collate", f_collate, NULL, 0},
    {"concat", f_concat, NULL, 0},
    {"concat_ws", f_concat_ws, NULL, NULLS_IN},
    {"contains", f_contains, NULL, 0},
    {"current_catalog", f_current_catalog, NULL, 0},
    {"current_database", f_current_database, NULL, 0},
    {"current_date", f_current_date, NULL, 0},
    {"current_schema", f_current_database, NULL, 0},
    {"current_timestamp", f_current_timestamp, NULL, 0},
    {"current_user", f_current_user, NULL, 0},
    {"date_add", f_date_add, NULL, 0},
    {"date_from_unix_date", f_unix_date, NULL, 0},
    {"date_sub", f_date_sub, NULL, 0},
    {"dateadd", f_date_add, NULL, 0},
    {"datediff", f_datediff, NULL, 0},
    {"day", f_day, NULL, 0},
    {"dayofmonth", f_day, NULL, 0},
    {"dayofweek", f_dayofweek, NULL, 0},
    {"div", f_intdiv, NULL, 0},
    {"e", f_e, NULL, 0},
    {"element_at", f_element_at, NULL, 0},
    {"elt", f_elt, NULL, NULLS_IN},
    {"endswith", f_endswith, NULL, 0},
    {"equal_null", f_eq_null_safe, NULL, NULLS_IN},
    {"exp", f_exp, NULL, 0},
    {"flatten", f_flatten, NULL, 0},
    {"floor", f_floor, NULL, 0},
    {"greatest", f_greatest, NULL, NULLS_IN},
    {"hex", f_hex, NULL, 0},
    {"hour", f_hour, NULL, 0},
    {"if", NULL, l_if, 0},
    {"ifnull", NULL, l_coalesce, 0},
    {"initcap", f_initcap, NULL, 0},
    {"instr", f_instr, NULL, 0},
    {"isnan", f_isnan, NULL, NULLS_IN},
    {"isnotnull", f_isnotnull, NULL, NULLS_IN},
    {"isnull", f_isnull, NULL, NULLS_IN},
    {"last_day", f_last_day, NULL, 0},
    {"lcase", f_lower, NULL, 0},
    {"least", f_least, NULL, NULLS_IN},
    {"left", f_left, NULL, 0},
    {"len", f_length, NULL, 0},
    {"length", f_length, NULL, 0},
    {"like", f_like, NULL, 0},
    {"ln", f_ln, NULL, 0},
    {"localtimestamp", f_current_timestamp, NULL, 0},
    {"locate", f_locate, NULL, 0},
    {"log10", f_log10, NULL, 0},
    {"log2", f_log2, NULL, 0},
    {"lower", f_lower, NULL, 0},
    {"lpad", f_lpad, NULL, 0},
    {"ltrim", f_ltrim, NULL, 0},
    {"make_date", f_make_date, NULL, 0},
    {"make_timestamp", f_make_timestamp, NULL, 0},
    {"make_timestamp_ntz", f_make_timestamp, NULL, 0},
    {"map", f_map, NULL, NULLS_IN},
    {"map_keys", f_map_keys, NULL, 0},
    {"map_values", f_map_values, NULL, 0},
    {"minute", f_minute, NULL, 0},
    {"mod", f_rem, NULL, 0},
    {"month", f_month, NULL, 0},
    {"named_struct", f_named_struct, NULL, NULLS_IN},
    {"nanvl", f_nanvl, NULL, NULLS_IN},
    {"negative", f_neg, NULL, 0},
    {"not", f_not, NULL, 0},
    {"now", f_current_timestamp, NULL, 0},
    {"nullif", f_nullif, NULL, NULLS_IN},
    {"nullifzero", f_nullifzero, NULL, 0},
    {"nvl", NULL, l_coalesce, 0},
    {"nvl2", f_nvl2, NULL, NULLS_IN},
    {"octet_length", f_octet_length, NULL, 0},
    {"or", NULL, l_or, 0},
    {"pi", f_pi, NULL, 0},
    {"pmod", f_pmod, NULL, 0},
    {"position", f_locate, NULL, 0},
    {"positive", f_plus, NULL, 0},
    {"pow", f_pow, NULL, 0},
    {"power", f_pow, NULL, 0},
    {"quarter", f_quarter, NULL, 0},
    {"rand", f_rand, NULL, NULLS_IN},
    {"random", f_rand, NULL, NULLS_IN},
    {"repeat", f_repeat, NULL, 0},
    {"replace", f_replace, NULL, 0},
    {"reverse", f_reverse, NULL, 0},
    {"right", f_right, NULL, 0},
    {"round", f_round, NULL, 0},
    {"rpad", f_rpad, NULL, 0},
    {"rtrim", f_rtrim, NULL, 0},
    {"second", f_second, NULL, 0},
    {"sequence", f_sequence, NULL, 0},
    {"shiftleft", f_shift, NULL, 0},
    {"shiftright", f_shift, NULL, 0},
    {"shiftrightunsigned", f_shift, NULL, 0},
    {"sign", f_sign, NULL, 0},
    {"signum", f_sign, NULL, 0},
    {"size", f_size, NULL, NULLS_IN},
    {"slice", f_slice, NULL, 0},
    {"sort_array", f_sort_array, NULL, 0},
    {"space", f_space, NULL, 0},
    {"split", f_split, NULL, 0},
    {"sqrt", f_sqrt, NULL, 0},
    {"startswith", f_startswith, NULL, 0},
    {"struct", f_struct, NULL, NULLS_IN},
    {"substr", f_substr, NULL, 0},
    {"substring", f_substr, NULL, 0},
    {"substring_index", f_substring_index, NULL, 0},
    {"timestamp_seconds", f_timestamp_seconds, NULL, 0},
    {"to_date", f_to_date, NULL, 0},
    {"translate", f_translate, NULL, 0},
    {"trim", f_trim, NULL, 0},
    {"try_add", f_try_add, NULL, 0},
    {"try_divide", f_try_divide, NULL, 0},
    {"try_element_at", f_try_element_at, NULL, 0},
    {"try_multiply", f_try_multiply, NULL, 0},
    {"try_subtract", f_try_subtract, NULL, 0},
    {"typeof", f_typeof, NULL, NULLS_IN},
    {"ucase", f_upper, NULL, 0},
    {"unix_date", f_unix_date, NULL, 0},
    {"upper", f_upper, NULL, 0},
    {"year", f_year, NULL, 0},
    {"zeroifnull", f_zeroifnull, NULL, NULLS_IN},
    {"|", f_bitor, NULL, 0},
    {"||", f_concat, NULL, 0},
};

static int func_cmp(const void *key, const void *row) { return strcmp(key, ((const EvalFunc *)row)->name); }

static const EvalFunc *find_func(const char *name) {
    return bsearch(name, FUNCS, sizeof FUNCS / sizeof FUNCS[0], sizeof FUNCS[0], func_cmp);
}

/* For the unit tests: whether the table is sorted (bsearch needs it). */
bool consteval_table_sorted(void);
bool consteval_table_sorted(void) {
    for (size_t i = 1; i < sizeof FUNCS / sizeof FUNCS[0]; i++)
        if (strcmp(FUNCS[i - 1].name, FUNCS[i].name) >= 0) return false;
    return true;
}

EvStatus ev_call(Eval *ev, const Node *call, Value *out) {
    const struct FuncDef *def = call->u.call.def;
    if (!def || (call->type == NULL)) return EV_NOTCONST;
    if (func_kind(def) != FK_SCALAR) return EV_NOTCONST;
    const EvalFunc *f = find_func(func_name(def));
    if (!f || (!f->strict && !f->lazy)) return EV_NOTCONST;
    if (f->lazy) return f->lazy(ev, call, out);
    uint32_t n = call->nkids;
    Value *args = ARENA_ARRAY(A(ev), Value, n + 1);
    bool any_null = false;
    for (uint32_t i = 0; i < n; i++) {
        EvStatus st = ev_expr(ev, call->kids[i], &args[i]);
        if (st) return st;
        if (args[i].is_null) any_null = true;
        if (!args[i].type) args[i].type = call->kids[i]->type ? call->kids[i]->type : &TYPE_NULL;
    }
    if (any_null && !(f->flags & NULLS_IN)) {
        *out = v_null(call->type);
        return EV_OK;
    }
    EvStatus st = f->strict(ev, call, args, n, out);
    if (st == EV_OK && !out->is_null && !out->type) out->type = call->type;
    if (st == EV_OK && out->is_null) out->type = call->type;
    return st;
}

/* ---- aggregates over the current group ---- */

EvStatus ev_aggregate(Eval *ev, const Node *ae, Value *out) {
    if (!ev->group_env) return EV_NOTCONST;
    const Node *call = ae->kids[0];
    if (call->kind != NK_Call || !call->u.call.def) return EV_NOTCONST;
    const char *name = func_name(call->u.call.def);
    bool distinct = (ae->flags & NF_DISTINCT) != 0;
    if (distinct && ev->group_nrows > EV_MAX_QUADRATIC) return EV_NOTCONST;
    const Node *filter = (ae->flags & NF_HAS_FILTER) && ae->nkids > 1 ? ae->kids[1] : NULL;
    const EvalEnv *saved = ev->env;
    uint32_t nrows = ev->group_nrows, ncols = ev->group_env->attrs.n;
    Value *vals = ARENA_ARRAY(A(ev), Value, nrows + 1);
    uint32_t m = 0;
    for (uint32_t r = 0; r < nrows; r++) {
        EvalEnv env = {ev->group_env->attrs, ev->group_rows + (size_t)r * ncols, ev->group_env->outer};
        ev->env = &env;
        EvStatus st = EV_OK;
        if (filter) {
            Value fv;
            st = ev_expr(ev, filter, &fv);
            if (!st && (fv.is_null || !fv.u.b)) {
                ev->env = saved;
                continue;
            }
        }
        Value v = v_bool(true);
        if (!st && call->nkids) st = ev_expr(ev, call->kids[0], &v);
        ev->env = saved;
        if (st) return st;
        if (v.is_null) continue;
        if (distinct) {
            bool dup = false;
            for (uint32_t k = 0; k < m && !dup; k++) dup = value_same(&vals[k], &v);
            if (dup) continue;
        }
        vals[m++] = v;
    }
    const DataType *t = ae->type ? ae->type : call->type;
    if (!strcmp(name, "count")) {
        *out = v_long(t, m);
        return EV_OK;
    }
    if (!strcmp(name, "min") || !strcmp(name, "max")) {
        int sign = name[1] == 'a' ? 1 : -1;
        *out = v_null(t);
        for (uint32_t i = 0; i < m; i++)
            if (out->is_null || value_cmp(&vals[i], out) * sign > 0) *out = vals[i];
        return EV_OK;
    }
    if (!strcmp(name, "first") || !strcmp(name, "any_value") || !strcmp(name, "first_value")) {
        *out = m ? vals[0] : v_null(t);
        return EV_OK;
    }
    if (!strcmp(name, "sum") || !strcmp(name, "avg") || !strcmp(name, "mean")) {
        if (!m) {
            *out = v_null(t);
            return EV_OK;
        }
        bool avg = strcmp(name, "sum") != 0;
        if (t->id == T_DECIMAL) {
            __int128 s = 0;
            int sc = vals[0].type->id == T_DECIMAL ? vals[0].type->scale : 0;
            for (uint32_t i = 0; i < m; i++)
                if (__builtin_add_overflow(s, vals[i].type->id == T_DECIMAL ? vals[i].u.dec : vals[i].u.i, &s))
                    return EV_NOTCONST;
            if (avg) {
                __int128 num = dec_rescale(s, sc, t->scale + 1);
                *out = v_dec(t, dec_rescale(num / m, t->scale + 1, t->scale));
            } else *out = v_dec(t, dec_rescale(s, sc, t->scale));
            return EV_OK;
        }
        if (type_is_integral(t)) {
            __int128 s = 0;
            for (uint32_t i = 0; i < m; i++) s += vals[i].u.i;
            if (s > INT64_MAX || s < INT64_MIN) return arith_overflow(ev, ae, "long overflow");
            *out = v_long(t, (int64_t)s);
            return EV_OK;
        }
        double s = 0;
        for (uint32_t i = 0; i < m; i++) s += value_as_double(&vals[i]);
        *out = v_double(t, avg ? s / m : s);
        return EV_OK;
    }
    return EV_NOTCONST;
}
