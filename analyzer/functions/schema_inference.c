/* The schema schema_of_json / schema_of_csv / schema_of_xml infer from a
 * constant text, with their default options (Spark's JsonInferSchema,
 * CSVInferSchema, XmlInferSchema). from_json(x, schema_of_json('...'))
 * takes it as its schema, as Spark evaluates the foldable schema argument
 * (ExprUtils.evalTypeExpr):
 *
 *   schema_of_json('{"c1":[0]}')    struct<c1:array<bigint>>
 *   schema_of_csv('1,abc')          struct<_c0:int,_c1:string>
 *   schema_of_xml('<p><a>1</a><a>2</a></p>')   struct<a:array<bigint>>
 *
 * What the inference cannot type (a date or timestamp pattern, an option
 * other than the CSV delimiter) is left to Spark: NULL, and the caller
 * reports the schema as not constant. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "functions.h"
#include "registry.h"

typedef struct Src {
    Arena *a;
    const char *p, *end;
    int depth;
} Src;

enum { MAX_DEPTH = 64, MAX_FIELDS = 256 };

static void skip_ws(Src *s) {
    while (s->p < s->end && isspace((unsigned char)*s->p)) s->p++;
}

/* ---- JSON ---- */

static int field_cmp(const void *x, const void *y) {
    return strcmp(((const StructField *)x)->name, ((const StructField *)y)->name);
}

static const DataType *sorted_struct(Arena *a, StructField *fs, int n) {
    qsort(fs, (size_t)n, sizeof *fs, field_cmp);
    return type_struct(a, n, fs);
}

/* JsonInferSchema.compatibleType */
static const DataType *json_compatible(Arena *a, const DataType *x, const DataType *y) {
    if (!x) return y;
    if (!y || type_same(x, y)) return x;
    if (x->id == T_NULL) return y;
    if (y->id == T_NULL) return x;
    if ((x->id == T_LONG && y->id == T_DOUBLE) || (x->id == T_DOUBLE && y->id == T_LONG)) return &TYPE_DOUBLE;
    if (x->id == T_ARRAY && y->id == T_ARRAY) return type_array(a, json_compatible(a, x->elem, y->elem), true);
    if (x->id == T_STRUCT && y->id == T_STRUCT) {
        StructField *fs = ARENA_ARRAY(a, StructField, (size_t)(x->nfields + y->nfields) + 1);
        int n = 0;
        for (int i = 0; i < x->nfields; i++) fs[n++] = x->fields[i];
        for (int j = 0; j < y->nfields; j++) {
            int k = 0;
            while (k < n && strcmp(fs[k].name, y->fields[j].name)) k++;
            if (k < n) fs[k].type = json_compatible(a, fs[k].type, y->fields[j].type);
            else fs[n++] = y->fields[j];
        }
        return sorted_struct(a, fs, n);
    }
    return &TYPE_STRING;
}

static const char *json_string(Src *s) {
    if (s->p >= s->end || *s->p != '"') return NULL;
    s->p++;
    StrBuf sb;
    sb_init(&sb, s->a, 16);
    while (s->p < s->end && *s->p != '"') {
        if (*s->p == '\\' && s->p + 1 < s->end) s->p++;
        sb_putc(&sb, *s->p++);
    }
    if (s->p >= s->end) return NULL;
    s->p++;
    return sb_str(&sb);
}

static const DataType *json_value(Src *s) {
    skip_ws(s);
    if (s->p >= s->end || ++s->depth > MAX_DEPTH) return NULL;
    const DataType *t = NULL;
    char c = *s->p;
    if (c == '{') {
        s->p++;
        StructField *fs = ARENA_ARRAY(s->a, StructField, MAX_FIELDS);
        int n = 0;
        skip_ws(s);
        if (s->p < s->end && *s->p == '}') {
            s->p++;
            t = type_struct(s->a, 0, fs);
        } else {
            for (;;) {
                skip_ws(s);
                const char *name = json_string(s);
                skip_ws(s);
                if (!name || s->p >= s->end || *s->p != ':' || n == MAX_FIELDS) return NULL;
                s->p++;
                const DataType *v = json_value(s);
                if (!v) return NULL;
                int k = 0;
                while (k < n && strcmp(fs[k].name, name)) k++;
                if (k < n) fs[k].type = json_compatible(s->a, fs[k].type, v);
                else fs[n++] = (StructField){name, v, true, NULL};
                skip_ws(s);
                if (s->p < s->end && *s->p == ',') {
                    s->p++;
                    continue;
                }
                if (s->p < s->end && *s->p == '}') {
                    s->p++;
                    break;
                }
                return NULL;
            }
            t = sorted_struct(s->a, fs, n);
        }
    } else if (c == '[') {
        s->p++;
        const DataType *e = &TYPE_NULL;
        skip_ws(s);
        if (s->p < s->end && *s->p == ']') s->p++;
        else
            for (;;) {
                const DataType *v = json_value(s);
                if (!v) return NULL;
                e = json_compatible(s->a, e, v);
                skip_ws(s);
                if (s->p < s->end && *s->p == ',') {
                    s->p++;
                    continue;
                }
                if (s->p < s->end && *s->p == ']') {
                    s->p++;
                    break;
                }
                return NULL;
            }
        t = type_array(s->a, e, true);
    } else if (c == '"') {
        t = json_string(s) ? &TYPE_STRING : NULL;
    } else if (c == '-' || isdigit((unsigned char)c)) {
        bool frac = false;
        const char *b = s->p;
        if (*s->p == '-') s->p++;
        while (s->p < s->end && (isdigit((unsigned char)*s->p) || strchr(".eE+-", *s->p))) {
            if (strchr(".eE", *s->p)) frac = true;
            s->p++;
        }
        size_t digits = (size_t)(s->p - b) - (*b == '-');
        /* integers beyond a long are decimals (DecimalType(digits, 0)) */
        t = frac ? &TYPE_DOUBLE : digits > 18 ? (digits <= 38 ? type_decimal(s->a, (int)digits, 0) : &TYPE_DOUBLE) : &TYPE_LONG;
    } else if ((size_t)(s->end - s->p) >= 4 && !strncmp(s->p, "true", 4)) {
        s->p += 4;
        t = &TYPE_BOOLEAN;
    } else if ((size_t)(s->end - s->p) >= 5 && !strncmp(s->p, "false", 5)) {
        s->p += 5;
        t = &TYPE_BOOLEAN;
    } else if ((size_t)(s->end - s->p) >= 4 && !strncmp(s->p, "null", 4)) {
        s->p += 4;
        t = &TYPE_NULL;
    }
    s->depth--;
    return t;
}

/* JsonInferSchema.canonicalizeType: a type only NULLs gave is a string */
static const DataType *canonical(Arena *a, const DataType *t) {
    if (t->id == T_NULL) return &TYPE_STRING;
    if (t->id == T_ARRAY) return type_array(a, canonical(a, t->elem), true);
    if (t->id == T_STRUCT) {
        StructField *fs = ARENA_ARRAY(a, StructField, (size_t)t->nfields + 1);
        for (int i = 0; i < t->nfields; i++) {
            fs[i] = t->fields[i];
            fs[i].type = canonical(a, t->fields[i].type);
        }
        return type_struct(a, t->nfields, fs);
    }
    return t;
}

/* ---- CSV and XML values ---- */

static bool all_digits(const char *b, const char *e) {
    if (b < e && (*b == '-' || *b == '+')) b++;
    if (b >= e) return false;
    for (; b < e; b++)
        if (!isdigit((unsigned char)*b)) return false;
    return true;
}

static bool is_double(const char *b, const char *e) {
    char *end = NULL;
    char *tmp = strndup(b, (size_t)(e - b));
    if (!tmp) return false;
    bool ok = *tmp && (strtod(tmp, &end), end && *end == 0);
    free(tmp);
    return ok;
}

static bool is_bool(const char *b, const char *e) {
    size_t n = (size_t)(e - b);
    return (n == 4 && !strncasecmp(b, "true", 4)) || (n == 5 && !strncasecmp(b, "false", 5));
}

/* one CSV field (CSVInferSchema.inferField): int, bigint, double, boolean,
   else string; NULL when it may be a date or timestamp (not inferred here) */
static const DataType *csv_field(const char *b, const char *e) {
    if (b == e) return &TYPE_NULL;
    if (all_digits(b, e)) return (e - b) <= 9 ? &TYPE_INT : (e - b) <= 18 ? &TYPE_LONG : NULL;
    if (is_double(b, e)) return &TYPE_DOUBLE;
    if (is_bool(b, e)) return &TYPE_BOOLEAN;
    for (const char *p = b; p < e; p++)
        if (isdigit((unsigned char)*p)) return NULL; /* perhaps a date or a timestamp */
    return &TYPE_STRING;
}

static const DataType *infer_csv(Arena *a, const char *text, char delim) {
    StructField *fs = ARENA_ARRAY(a, StructField, MAX_FIELDS);
    int n = 0;
    const char *p = text;
    for (;;) {
        const char *b = p, *e;
        if (*p == '"') {
            b = ++p;
            while (*p && *p != '"') p++;
            e = p;
            if (*p) p++;
        } else {
            while (*p && *p != delim && *p != '\n') p++;
            e = p;
        }
        if (n == MAX_FIELDS) return NULL;
        const DataType *t = csv_field(b, e);
        if (!t) return NULL;
        fs[n] = (StructField){arena_printf(a, "_c%d", n), t->id == T_NULL ? &TYPE_STRING : t, true, NULL};
        n++;
        if (*p != delim) break;
        p++;
    }
    return type_struct(a, n, fs);
}

/* XmlInferSchema: an element's children are its fields (a repeated one an
   array), its text a long, double, boolean or string */
static const char *xml_name(Src *s) {
    const char *b = s->p;
    while (s->p < s->end && !isspace((unsigned char)*s->p) && *s->p != '>' && *s->p != '/') s->p++;
    return s->p > b ? arena_strndup(s->a, b, (size_t)(s->p - b)) : NULL;
}

static const DataType *xml_element(Src *s, const char *name);

static const DataType *xml_text_type(const char *b, const char *e) {
    while (b < e && isspace((unsigned char)*b)) b++;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    if (b == e) return &TYPE_NULL;
    if (all_digits(b, e)) return (e - b) <= 18 ? &TYPE_LONG : NULL;
    if (is_double(b, e)) return &TYPE_DOUBLE;
    if (is_bool(b, e)) return &TYPE_BOOLEAN;
    for (const char *p = b; p < e; p++)
        if (isdigit((unsigned char)*p)) return NULL;
    return &TYPE_STRING;
}

/* after `<name`: attributes are not inferred (NULL unless there are none) */
static const DataType *xml_element(Src *s, const char *name) {
    if (++s->depth > MAX_DEPTH) return NULL;
    skip_ws(s);
    if (s->p < s->end && *s->p == '/') {
        s->p += 2;
        s->depth--;
        return &TYPE_NULL;
    }
    if (s->p >= s->end || *s->p != '>') return NULL;
    s->p++;
    StructField *fs = ARENA_ARRAY(s->a, StructField, MAX_FIELDS);
    int *count = ARENA_ARRAY(s->a, int, MAX_FIELDS);
    int n = 0;
    const char *tb = s->p, *te = s->p;
    for (;;) {
        const char *lt = memchr(s->p, '<', (size_t)(s->end - s->p));
        if (!lt) return NULL;
        if (!n) te = lt;
        s->p = lt + 1;
        if (s->p < s->end && *s->p == '/') {
            s->p++;
            const char *close = xml_name(s);
            skip_ws(s);
            if (!close || strcmp(close, name) || s->p >= s->end || *s->p != '>') return NULL;
            s->p++;
            break;
        }
        const char *child = xml_name(s);
        if (!child || n == MAX_FIELDS) return NULL;
        const DataType *t = xml_element(s, child);
        if (!t) return NULL;
        int k = 0;
        while (k < n && strcmp(fs[k].name, child)) k++;
        if (k < n) {
            fs[k].type = json_compatible(s->a, fs[k].type, t);
            count[k]++;
        } else {
            fs[n] = (StructField){child, t, true, NULL};
            count[n++] = 1;
        }
    }
    s->depth--;
    if (!n) return xml_text_type(tb, te);
    for (int i = 0; i < n; i++)
        if (count[i] > 1) fs[i].type = type_array(s->a, fs[i].type, true);
    return sorted_struct(s->a, fs, n);
}

static const DataType *infer_xml(Arena *a, const char *text) {
    Src s = {a, text, text + strlen(text), 0};
    skip_ws(&s);
    if (s.p >= s.end || *s.p != '<') return NULL;
    s.p++;
    const char *root = xml_name(&s);
    if (!root) return NULL;
    const DataType *t = xml_element(&s, root);
    if (!t || t->id != T_STRUCT) return NULL;
    return canonical(a, t);
}

/* ---- entry ---- */

const DataType *fn_infer_schema(Arena *a, const char *fn, const char *text, const char *delimiter) {
    if (!strcmp(fn, "schema_of_json")) {
        Src s = {a, text, text + strlen(text), 0};
        const DataType *t = json_value(&s);
        skip_ws(&s);
        return t && s.p == s.end ? canonical(a, t) : NULL;
    }
    if (!strcmp(fn, "schema_of_csv")) {
        if (delimiter && strlen(delimiter) != 1) return NULL;
        return infer_csv(a, text, delimiter ? delimiter[0] : ',');
    }
    if (!strcmp(fn, "schema_of_xml")) return infer_xml(a, text);
    return NULL;
}
