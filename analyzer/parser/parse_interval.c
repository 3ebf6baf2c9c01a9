/* Interval literals as Spark 4 builds them (ANSI intervals on):
 *   INTERVAL 'str'                       typed literal: the units named in the
 *                                        string decide the type
 *   INTERVAL v unit [v unit ...]         multi-unit form
 *   INTERVAL 'v' from TO to              unit-to-unit form
 * Year/month units give a year-month interval, week/day/hour/minute/second/
 * millisecond/microsecond a day-time one (start/end fields = the smallest
 * and largest unit); both families together is _LEGACY_ERROR_TEMP_0029.
 * Fractions are allowed on seconds and truncated to microseconds. The other
 * errors are Spark's (_LEGACY_ERROR_TEMP_0024/0026/0027/0062/0063 and
 * INVALID_INTERVAL_FORMAT.*). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parser_int.h"

typedef struct Iv {
    int64_t months, days, micros;
} Iv;

enum { U_YEAR, U_MONTH, U_WEEK, U_DAY, U_HOUR, U_MINUTE, U_SECOND, U_MILLI, U_MICRO, U_NANO, U_NONE };

static const char *const UNIT_NAMES[] = {"year", "month", "week", "day", "hour", "minute", "second",
                                         "millisecond", "microsecond", "nanosecond"};

static int unit_of(const char *s, size_t n) {
    if (n > 1 && (s[n - 1] == 's' || s[n - 1] == 'S')) n--; /* plural */
    for (int u = 0; u < U_NONE; u++)
        if (strlen(UNIT_NAMES[u]) == n && strncasecmp(UNIT_NAMES[u], s, n) == 0) return u;
    return U_NONE;
}

/* The ANSI field a unit contributes: year-month (ym) or day-time (dt). */
static bool unit_is_ym(int u) { return u == U_YEAR || u == U_MONTH; }
static int dt_field(int u) {
    switch (u) {
    case U_WEEK: case U_DAY: return IF_DAY;
    case U_HOUR: return IF_HOUR;
    case U_MINUTE: return IF_MINUTE;
    default: return IF_SECOND;
    }
}

/* A number `[+|-] digits [. digits]` (surrounding blanks allowed, blanks
 * after the sign too, as Spark accepts '-\t 1'). Integer part and the
 * fraction in microseconds (truncated). */
static bool parse_num(const char *s, size_t n, bool *neg, int64_t *ip, int64_t *frac_us, bool *has_frac) {
    const char *e = s + n;
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    *neg = false;
    if (s < e && (*s == '+' || *s == '-')) {
        *neg = *s == '-';
        s++;
        while (s < e && isspace((unsigned char)*s)) s++;
    }
    int64_t v = 0;
    int digits = 0;
    while (s < e && isdigit((unsigned char)*s)) {
        if (v > (INT64_MAX - 9) / 10) return false;
        v = v * 10 + (*s++ - '0');
        digits++;
    }
    int64_t f = 0;
    int fd = 0;
    *has_frac = false;
    if (s < e && *s == '.') {
        s++;
        *has_frac = true;
        while (s < e && isdigit((unsigned char)*s)) {
            if (fd < 6) f = f * 10 + (*s - '0'), fd++;
            s++;
            digits++;
        }
        while (fd < 6) f *= 10, fd++;
    }
    if (!digits || s != e) return false;
    *ip = v;
    *frac_us = f;
    return true;
}

/* Adds value (neg, ip, frac) of unit; false when the unit takes no fraction
 * or the value overflows. */
static bool iv_add(Iv *iv, int unit, bool neg, int64_t ip, int64_t frac, bool has_frac) {
    static const int64_t scale[] = {12, 1, 7, 1, 3600000000LL, 60000000LL, 1000000LL, 1000LL, 1};
    if (has_frac && frac && unit != U_SECOND) return false;
    if (unit < 0 || unit > U_MICRO) return false;
    int64_t v;
    if (__builtin_mul_overflow(ip, scale[unit], &v)) return false;
    if (unit == U_SECOND && __builtin_add_overflow(v, frac, &v)) return false;
    if (neg) v = -v;
    int64_t *slot = unit <= U_MONTH ? &iv->months : (unit <= U_DAY ? &iv->days : &iv->micros);
    return !__builtin_add_overflow(*slot, v, slot);
}

/* Spark's stringToInterval: "[interval] [+|-]N unit ...". Records the units seen. */
static bool string_to_interval(const char *s, size_t n, Iv *iv, unsigned *units) {
    const char *e = s + n;
    memset(iv, 0, sizeof *iv);
    *units = 0;
    while (s < e && isspace((unsigned char)*s)) s++;
    if (e - s >= 8 && strncasecmp(s, "interval", 8) == 0 && (e - s == 8 || isspace((unsigned char)s[8]))) s += 8;
    bool any = false;
    for (;;) {
        while (s < e && isspace((unsigned char)*s)) s++;
        if (s >= e) break;
        const char *v = s;
        if (*s == '+' || *s == '-') s++;
        while (s < e && (isdigit((unsigned char)*s) || *s == '.')) s++;
        size_t vn = (size_t)(s - v);
        while (s < e && isspace((unsigned char)*s)) s++;
        const char *u = s;
        while (s < e && isalpha((unsigned char)*s)) s++;
        int unit = unit_of(u, (size_t)(s - u));
        if (unit == U_NONE || unit == U_NANO || (s < e && !isspace((unsigned char)*s))) return false;
        bool neg, hf;
        int64_t ip, fr;
        if (!parse_num(v, vn, &neg, &ip, &fr, &hf) || !iv_add(iv, unit, neg, ip, fr, hf)) return false;
        *units |= 1u << unit;
        any = true;
    }
    return any;
}

static Node *iv_literal(Parser *p, const Iv *iv, const DataType *t, int32_t start) {
    Node *l = ps_literal_node(p, t, start);
    if (t->id == T_YM_INTERVAL) l->u.lit.v.u.i = iv->months;
    else if (t->id == T_DT_INTERVAL) l->u.lit.v.u.iv.micros = iv->days * 86400000000LL + iv->micros;
    else {
        l->u.lit.v.u.iv.months = (int32_t)iv->months;
        l->u.lit.v.u.iv.days = (int32_t)iv->days;
        l->u.lit.v.u.iv.micros = iv->micros;
    }
    return node_finish(l);
}

static const char *src(Parser *p, int32_t start, int32_t stop) {
    return arena_strndup(p->a, p->sql + start, (size_t)(stop - start + 1));
}

/* The literal for a set of units (Spark's constructMultiUnitsIntervalLiteral). */
static Node *typed_by_units(Parser *p, const Iv *iv, unsigned units, int32_t start) {
    int ylo = 9, yhi = -1, dlo = 9, dhi = -1;
    for (int u = 0; u < U_NONE; u++) {
        if (!(units & (1u << u))) continue;
        if (unit_is_ym(u)) {
            int f = u == U_YEAR ? IF_YEAR : IF_MONTH;
            if (f < ylo) ylo = f;
            if (f > yhi) yhi = f;
        } else {
            int f = dt_field(u);
            if (f < dlo) dlo = f;
            if (f > dhi) dhi = f;
        }
    }
    if (yhi >= 0 && dhi >= 0) {
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0029", start, prev_stop(p), "literal", src(p, start, prev_stop(p)),
                                  NULL));
        return ps_mk_lit_null(p, start, prev_stop(p));
    }
    int64_t dt;
    bool overflow = yhi >= 0 ? (iv->months > INT32_MAX || iv->months < INT32_MIN)
                             : (__builtin_mul_overflow(iv->days, 86400000000LL, &dt) ||
                                __builtin_add_overflow(dt, iv->micros, &dt));
    if (overflow) {
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0062", start, prev_stop(p), "msg",
                                  arena_printf(p->a, "Error parsing '%s' to interval, %s overflow",
                                               src(p, start, prev_stop(p)), yhi >= 0 ? "integer" : "long"),
                                  NULL));
        return ps_mk_lit_null(p, start, prev_stop(p));
    }
    if (yhi >= 0) return iv_literal(p, iv, type_ym_interval(p->a, ylo, yhi), start);
    if (dhi >= 0) return iv_literal(p, iv, type_dt_interval(p->a, dlo, dhi), start);
    return iv_literal(p, iv, &TYPE_CALENDAR_INTERVAL, start);
}

Node *ps_interval_from_string(Parser *p, const char *s, size_t n, int32_t start) {
    Iv iv;
    unsigned units;
    if (!string_to_interval(s, n, &iv, &units)) return NULL;
    return typed_by_units(p, &iv, units, start);
}

/* ---- unit TO unit ---- */

static const char *upper(Parser *p, const char *s) {
    char *u = arena_strdup(p->a, s);
    for (char *c = u; *c; c++) *c = (char)toupper((unsigned char)*c);
    return u;
}

/* Why a unit-to-unit string was refused, as IntervalUtils reports it:
 * INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING (year-month) or
 * ..._WITH_NOTICE (day-time) when the string has not the form,
 * INVALID_INTERVAL_FORMAT.INTERVAL_PARSING when a year-month value is out
 * of range, _LEGACY_ERROR_TEMP_0063 (the `requirement failed` message)
 * when a day-time field is. */
typedef struct UnitErr {
    const char *cls;
    const char *msg;           /* _LEGACY_ERROR_TEMP_0063 */
    const char *format;        /* UNMATCHED_*: the supported format */
} UnitErr;

/* '[+|-]y-m' YEAR TO MONTH / '[+|-]d h:m:s.n' DAY TO SECOND ...; false + *err on error. */
static bool unit_to_unit(Parser *p, const char *str, bool outer_neg, int from, int to, Iv *iv, UnitErr *err) {
    const char *s = str, *e = str + strlen(str);
    memset(iv, 0, sizeof *iv);
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    int64_t sign = 1;
    if (s < e && (*s == '-' || *s == '+')) sign = *s++ == '-' ? -1 : 1;
    if (outer_neg) sign = -sign; /* Spark prefixes the string with the sign */
    if (to == U_MONTH) {
        int64_t y = 0, m = 0;
        const char *q = s;
        bool ok = q < e && isdigit((unsigned char)*q);
        while (ok && q < e && isdigit((unsigned char)*q)) {
            y = y * 10 + (*q++ - '0');
            if (y > INT32_MAX) break;
        }
        ok = ok && q < e && *q == '-';
        if (ok) {
            q++;
            ok = q < e && isdigit((unsigned char)*q);
            while (ok && q < e && isdigit((unsigned char)*q)) {
                m = m * 10 + (*q++ - '0');
                if (m > INT32_MAX) break;
            }
            ok = ok && q == e;
        }
        if (!ok) {
            err->cls = "INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING";
            err->format = "`[+|-]y-m`, `INTERVAL [+|-]'[+|-]y-m' YEAR TO MONTH`";
            return false;
        }
        int64_t total = y * 12 + m;
        if (m > 11 || total > (sign < 0 ? (int64_t)INT32_MAX + 1 : INT32_MAX)) {
            err->cls = "INVALID_INTERVAL_FORMAT.INTERVAL_PARSING";
            return false;
        }
        iv->months = sign * total;
        return true;
    }
    static const char *const fmts[4][4] = {
        {NULL, "[+|-]d h", "[+|-]d h:m", "[+|-]d h:m:s.n"},
        {NULL, NULL, "[+|-]h:m", "[+|-]h:m:s.n"},
        {NULL, NULL, NULL, "[+|-]m:s.n"},
        {NULL, NULL, NULL, NULL},
    };
    static const char *const fname[4] = {"day", "hour", "minute", "second"};
    static const int64_t lead_max[4] = {106751991LL, 2562047788LL, 153722867280LL, 9223372036LL};
    static const int64_t inner_max[4] = {0, 23, 59, 59};
    int fi = dt_field(from), ti = dt_field(to);
    int64_t f[4] = {0, 0, 0, 0}, frac = 0;
    const char *q = s;
    bool ok = true;
    for (int i = fi; i <= ti && ok; i++) {
        if (!(q < e && isdigit((unsigned char)*q))) {
            ok = false;
            break;
        }
        int64_t v = 0;
        while (q < e && isdigit((unsigned char)*q)) {
            v = v * 10 + (*q++ - '0');
            if (v > 1000000000000000LL) break;
        }
        f[i] = v;
        if (i == 3 && q < e && *q == '.') {
            q++;
            int k = 0;
            if (!(q < e && isdigit((unsigned char)*q))) ok = false;
            while (q < e && isdigit((unsigned char)*q)) {
                if (k < 6) frac = frac * 10 + (*q - '0'), k++;
                else if (k >= 9) {
                    ok = false;
                    break;
                }
                q++;
            }
            while (k < 6) frac *= 10, k++;
        }
        if (i < ti) {
            char sep = i == 0 ? ' ' : ':';
            if (q < e && *q == sep) q++;
            else ok = false;
        }
    }
    if (!ok || q != e) {
        const char *F = fmts[fi][ti];
        err->cls = "INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE";
        err->format = arena_printf(p->a, "`%s`, `INTERVAL [+|-]'%s' %s TO %s`", F, F, upper(p, fname[fi]),
                                   upper(p, fname[ti]));
        return false;
    }
    for (int i = fi; i <= ti; i++) {
        int64_t max = i == fi ? lead_max[i] : inner_max[i];
        if (f[i] > max) {
            err->cls = "_LEGACY_ERROR_TEMP_0063";
            err->msg = arena_printf(p->a, "requirement failed: %s %lld outside range [0, %lld]", fname[i], (long long)f[i],
                                (long long)max);
            return false;
        }
    }
    /* the most negative value, -106751991 04:00:54.775808, is a long too */
    __int128 total = ((((__int128)f[0] * 24 + f[1]) * 60 + f[2]) * 60 + f[3]) * 1000000 + frac;
    if (total > (sign < 0 ? (__int128)INT64_MAX + 1 : (__int128)INT64_MAX)) {
        err->cls = "_LEGACY_ERROR_TEMP_0063";
        err->msg = "Error parsing interval day-time string: long overflow";
        return false;
    }
    iv->micros = (int64_t)(sign * total);
    return true;
}

/* ---- INTERVAL ... ---- */

typedef struct Item {
    int32_t start, stop;      /* the value (with its sign) to the last unit */
    bool neg, is_str;
    const char *value;        /* as written (strings unescaped) */
    int unit, to;             /* to: U_NONE unless `TO unit` */
    const char *unit_text, *to_text;
} Item;

static bool at_unit(const Parser *p, int off, int *u) {
    const Token *t = tk_at(p, off);
    if (t->kind != TK_WORD) return false;
    *u = unit_of(p->sql + t->start, (size_t)(t->end - t->start));
    return *u != U_NONE;
}

/* Is there a `value unit` item at the current position? */
static bool at_item(const Parser *p) {
    int off = 0;
    if (is_op(p, OP_MINUS) || is_op(p, OP_PLUS)) off = 1;
    const Token *t = tk_at(p, off);
    int u;
    if (t->kind == TK_INT || t->kind == TK_DECIMAL) return at_unit(p, off + 1, &u);
    if (t->kind == TK_STRING && !(p->opts.double_quoted_identifiers && t->suffix == '"')) {
        while (tk_at(p, off)->kind == TK_STRING) off++;
        return at_unit(p, off, &u);
    }
    return false;
}

Node *ps_parse_interval(Parser *p, int32_t start) {
    /* INTERVAL 'str' without a unit is a typed literal */
    if (ps_at_string(p) && !at_item(p)) return ps_parse_typed_literal(p, KW_INTERVAL, start);
    Item items[64];
    int n = 0;
    bool has_to = false;
    while (at_item(p)) {
        Item it = {cur_start(p), 0, false, false, NULL, U_NONE, U_NONE, NULL, NULL};
        if (is_op(p, OP_MINUS) || is_op(p, OP_PLUS)) {
            it.neg = is_op(p, OP_MINUS);
            advance(p);
        }
        if (ps_at_string(p)) {
            it.value = ps_parse_string_lit(p, NULL);
            it.is_str = true;
        } else {
            it.value = ps_tok_text(p, tk(p));
            advance(p);
        }
        at_unit(p, 0, &it.unit);
        it.unit_text = ps_tok_text(p, tk(p));
        advance(p);
        if (is_kw(p, KW_TO)) {
            advance(p);
            if (!at_unit(p, 0, &it.to)) ps_syntax_error(p, "");
            it.to_text = ps_tok_text(p, tk(p));
            advance(p);
            has_to = true;
        }
        it.stop = prev_stop(p);
        if (n < 64) items[n++] = it;
    }
    if (!n) {
        /* `INTERVAL 1 fake_unit`: the error is at the word that is not a unit */
        int off = (is_op(p, OP_MINUS) || is_op(p, OP_PLUS)) ? 1 : 0;
        while (tk_at(p, off)->kind == TK_STRING) off++;
        if (tk_at(p, off)->kind == TK_INT || tk_at(p, off)->kind == TK_DECIMAL) off++;
        ps_syntax_error_at(p, tk_at(p, off), "");
    }
    int32_t stop = prev_stop(p);
    Node *null_lit = NULL;
#define FAIL_NULL(e) do { ps_defer_error(p, (e)); if (!null_lit) null_lit = ps_mk_lit_null(p, start, stop); return null_lit; } while (0)
    if (has_to && n > 1) FAIL_NULL(ps_perr(p, "_LEGACY_ERROR_TEMP_0024", start, stop, NULL));
    if (has_to) {
        Item *it = &items[0];
        if (!it->is_str) FAIL_NULL(ps_perr(p, "_LEGACY_ERROR_TEMP_0027", it->start, it->stop, NULL));
        int f = it->unit, t = it->to;
        bool ok = (f == U_YEAR && t == U_MONTH) || (f == U_DAY && (t == U_HOUR || t == U_MINUTE || t == U_SECOND)) ||
                  (f == U_HOUR && (t == U_MINUTE || t == U_SECOND)) || (f == U_MINUTE && t == U_SECOND);
        /* the value as IntervalUtils sees it: an outer minus is prefixed */
        const char *input = it->value;
        if (it->neg) input = input[0] == '-' ? input + 1 : arena_printf(p->a, "-%s", input);
        if (!ok) {
            char *fl = arena_strdup(p->a, it->unit_text), *tl = arena_strdup(p->a, it->to_text);
            for (char *c = fl; *c; c++) *c = (char)tolower((unsigned char)*c);
            for (char *c = tl; *c; c++) *c = (char)tolower((unsigned char)*c);
            FAIL_NULL(ps_perr(p, "INVALID_INTERVAL_FORMAT.UNSUPPORTED_FROM_TO_EXPRESSION", it->start, it->stop, "from",
                              fl, "input", input, "to", tl, NULL));
        }
        Iv iv;
        UnitErr ue = {NULL, NULL, NULL};
        if (!unit_to_unit(p, it->value, it->neg, f, t, &iv, &ue)) {
            bool ym = t == U_MONTH;
            if (!strcmp(ue.cls, "_LEGACY_ERROR_TEMP_0063"))
                FAIL_NULL(ps_perr(p, ue.cls, it->start, it->stop, "msg", ue.msg, NULL));
            if (!strcmp(ue.cls, "INVALID_INTERVAL_FORMAT.INTERVAL_PARSING"))
                FAIL_NULL(ps_perr(p, ue.cls, it->start, it->stop, "input", input, "interval", "year-month", NULL));
            const char *tn = ym ? "interval year to month"
                                : arena_printf(p->a, "interval %s to %s", UNIT_NAMES[f], UNIT_NAMES[t]);
            FAIL_NULL(ps_perr(p, ue.cls, it->start, it->stop, "input", input, "intervalStr", ym ? "year-month" : "day-time",
                              "supportedFormat", ue.format, "typeName", tn, NULL));
        }
        if (t == U_MONTH) return iv_literal(p, &iv, type_ym_interval(p->a, IF_YEAR, IF_MONTH), start);
        return iv_literal(p, &iv, type_dt_interval(p->a, dt_field(f), dt_field(t)), start);
    }
    /* multi-unit: every value a number; Spark parses " v unit v unit ..." */
    int32_t body_start = items[0].start, body_stop = items[n - 1].stop;
    StrBuf text;
    sb_init(&text, p->a, 64);
    for (int i = 0; i < n; i++) {
        bool neg, hf;
        int64_t ip, fr;
        if (!parse_num(items[i].value, strlen(items[i].value), &neg, &ip, &fr, &hf))
            FAIL_NULL(ps_perr(p, "_LEGACY_ERROR_TEMP_0026", body_start, body_stop, "value", items[i].value, NULL));
        sb_printf(&text, " %s%s %s", items[i].neg ? "-" : "", items[i].value, items[i].unit_text);
    }
    Iv iv = {0, 0, 0};
    unsigned units = 0;
    for (int i = 0; i < n; i++) {
        bool neg, hf;
        int64_t ip, fr;
        parse_num(items[i].value, strlen(items[i].value), &neg, &ip, &fr, &hf);
        if (items[i].neg) neg = !neg;
        if (items[i].unit == U_NANO)
            FAIL_NULL(ps_perr(p, "INVALID_INTERVAL_FORMAT.INVALID_UNIT", body_start, body_stop, "input", text.data, "unit",
                              items[i].unit_text, NULL));
        if (!iv_add(&iv, items[i].unit, neg, ip, fr, hf))
            FAIL_NULL(ps_perr(p, "_LEGACY_ERROR_TEMP_0062", body_start, body_stop, "msg",
                              arena_printf(p->a, "Error parsing '%s' to interval, '%s' cannot have fractional part",
                                           text.data, items[i].value), NULL));
        units |= 1u << items[i].unit;
    }
#undef FAIL_NULL
    return typed_by_units(p, &iv, units, start);
}
