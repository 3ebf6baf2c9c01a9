/* spark.connect.Relation → IR (see plan_decode.h). Mirrors Spark Connect's
 * SparkConnectPlanner: each Relation / Expression case builds the node the
 * planner builds. The session-dependent parts of the planner (a Dataset
 * analysed on the spot: na.fill, describe, drop, ...) become unresolved
 * nodes the analyzer expands once their input is resolved. */
#include "plan_decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "connect_arrow.h"
#include "catalog/catalog.h"
#include "functions/functions.h"
#include "connect_schema.h"
#include "core/output.h"
#include "core/tz.h"
#include "catalyzer.h"
#include "parser/parser.h"

typedef Spark__Connect__Relation Rel;
typedef Spark__Connect__Expression Expr;
typedef Spark__Connect__Expression__Literal Lit;

typedef struct PlanRef {
    int64_t id;
    char where[192];
} PlanRef;

/* The references of the WithRelations being decoded: plan id → relation. */
typedef struct RefScope {
    const struct RefScope *outer;
    size_t n;
    Spark__Connect__Relation *const *rels;
} RefScope;

typedef struct Dec {
    Arena *a;
    const DecodeLimits *lim;
    const DecodeOptions *opt;
    DecodeResult *res;
    uint32_t nodes;
    bool failed;
    char path[480];
    size_t plen;
    /* plan ids of the relations decoded, and the ones columns refer to */
    int64_t *ids;
    size_t nids, capids;
    PlanRef *refs;
    size_t nrefs, caprefs;
    const RefScope *scope;
    ExprId next_id; /* the attributes the decoder makes (a local relation's columns) */
} Dec;

/* ---------------------------------------------------------------- errors and paths */

static void *vfail(Dec *d, DecodeStatus st, const char *fmt, va_list ap) {
    if (d->failed) return NULL;
    d->failed = true;
    d->res->status = st;
    char msg[384];
    vsnprintf(msg, sizeof msg, fmt, ap);
    snprintf(d->res->message, sizeof d->res->message, "%.300s (at %.200s)", msg, d->plen ? d->path : "relation");
    return NULL;
}

static void *invalid(Dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void *invalid(Dec *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(d, DECODE_INVALID, fmt, ap);
    va_end(ap);
    return NULL;
}

static void *unsupported(Dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void *unsupported(Dec *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(d, DECODE_UNSUPPORTED, fmt, ap);
    va_end(ap);
    return NULL;
}

static void *spark_error(Dec *d, const ErrorInfo *e) {
    if (d->failed) return NULL;
    d->failed = true;
    d->res->status = DECODE_SPARK_ERROR;
    d->res->spark = e;
    snprintf(d->res->message, sizeof d->res->message, "%s", e && e->message ? e->message : "parse error");
    return NULL;
}

static size_t push(Dec *d, const char *seg) {
    size_t old = d->plen;
    int n = snprintf(d->path + d->plen, sizeof d->path - d->plen, "%s", seg);
    if (n > 0) d->plen = d->plen + (size_t)n < sizeof d->path ? d->plen + (size_t)n : sizeof d->path - 1;
    return old;
}

static size_t push_idx(Dec *d, const char *seg, size_t i) {
    char b[96];
    snprintf(b, sizeof b, "%s[%zu]", seg, i);
    return push(d, b);
}

static void pop(Dec *d, size_t len) {
    d->plen = len;
    d->path[len] = '\0';
}

static bool enter(Dec *d, uint32_t depth) {
    if (depth > d->lim->max_depth) {
        invalid(d, "plan nesting exceeds the maximum depth of %u", d->lim->max_depth);
        return false;
    }
    if (d->lim->max_nodes && ++d->nodes > d->lim->max_nodes) {
        invalid(d, "plan exceeds the maximum of %u nodes", d->lim->max_nodes);
        return false;
    }
    return true;
}

static void note_id(Dec *d, int64_t id) {
    if (d->nids == d->capids) {
        size_t nc = d->capids ? d->capids * 2 : 16;
        int64_t *v = ARENA_ARRAY(d->a, int64_t, nc);
        if (d->nids) memcpy(v, d->ids, d->nids * sizeof *v);
        d->ids = v;
        d->capids = nc;
    }
    d->ids[d->nids++] = id;
}

static void note_ref(Dec *d, int64_t id) {
    if (d->nrefs == d->caprefs) {
        size_t nc = d->caprefs ? d->caprefs * 2 : 16;
        PlanRef *v = ARENA_ARRAY(d->a, PlanRef, nc);
        if (d->nrefs) memcpy(v, d->refs, d->nrefs * sizeof *v);
        d->refs = v;
        d->caprefs = nc;
    }
    PlanRef *r = &d->refs[d->nrefs++];
    r->id = id;
    snprintf(r->where, sizeof r->where, "%.191s", d->path);
}

/* Spark's plan ids are 64-bit; the IR keeps 32 (clients number from 0). */
static bool plan_id_of(Dec *d, int64_t id, int32_t *out) {
    if (id < 0 || id > INT32_MAX) {
        invalid(d, "plan_id %lld is out of the supported range (0 .. 2147483647)", (long long)id);
        return false;
    }
    *out = (int32_t)id;
    return true;
}

/* ---------------------------------------------------------------- names */

/* Spark's UnresolvedAttribute.parseAttributeName: dots separate parts,
 * backquotes quote a part (`` is a backquote). Any other character is part
 * of a name ("count(1)" is one part). */
static bool attribute_name(Dec *d, const char *s, NameParts *out, const char *field) {
    if (!s || !*s) {
        invalid(d, "%s is empty", field);
        return false;
    }
    const char *parts[64];
    uint32_t n = 0;
    StrBuf cur;
    sb_init(&cur, d->a, 16);
    bool inq = false, quoted_part = false;
    for (const char *p = s;; p++) {
        char c = *p;
        if (inq) {
            if (!c) {
                invalid(d, "%s \"%s\": unclosed backquote", field, s);
                return false;
            }
            if (c == '`') {
                if (p[1] == '`') {
                    sb_putc(&cur, '`');
                    p++;
                } else {
                    inq = false;
                    if (p[1] && p[1] != '.') {
                        invalid(d, "%s \"%s\": a backquoted part must end at a dot", field, s);
                        return false;
                    }
                }
            } else {
                sb_putc(&cur, c);
            }
            continue;
        }
        if (c == '`' && cur.len == 0 && !quoted_part) {
            inq = quoted_part = true;
            continue;
        }
        if (c == '.' || !c) {
            if (cur.len == 0 && !quoted_part) {
                invalid(d, "%s \"%s\": empty name part", field, s);
                return false;
            }
            if (n == 64) {
                invalid(d, "%s \"%s\": too many name parts", field, s);
                return false;
            }
            parts[n++] = arena_strndup(d->a, cur.data, cur.len);
            sb_init(&cur, d->a, 16);
            quoted_part = false;
            if (!c) break;
            continue;
        }
        sb_putc(&cur, c);
    }
    *out = name_parts(d->a, n, parts);
    return true;
}

/* A (multi-part) SQL identifier, as the planner's parseMultipartIdentifier. */
static bool sql_identifier(Dec *d, const char *s, NameParts *out, const char *field) {
    if (!s || !*s) {
        invalid(d, "%s is empty", field);
        return false;
    }
    ErrorInfo *e = NULL;
    if (!parse_multipart_identifier(d->a, s, strlen(s), out, &e)) {
        if (e) spark_error(d, e);
        else invalid(d, "%s \"%s\" is not a valid identifier", field, s);
        return false;
    }
    return true;
}

static ParserOptions parser_options(Dec *d) {
    ParserOptions po = {0};
    po.double_quoted_identifiers = d->opt->double_quoted_identifiers;
    po.enforce_reserved_keywords = d->opt->enforce_reserved_keywords;
    po.max_depth = d->lim->max_depth;
    return po;
}

/* ---------------------------------------------------------------- types */

static const DataType *dtype(Dec *d, const Spark__Connect__DataType *t, const char *field) {
    char why[256] = "";
    size_t mark = push(d, field);
    const DataType *r = connect_type_decode(d->a, t, d->lim->max_depth, why, sizeof why);
    if (!r) invalid(d, "%s", why);
    pop(d, mark);
    return r;
}

/* ---------------------------------------------------------------- literals */

static Node *lit_node(Dec *d, const Value *v) {
    Node *n = node_new(d->a, NK_Literal, -1, -1);
    n->u.lit.v = *v;
    n->type = v->type;
    return node_finish(n);
}

/* Spark's Decimal(string): precision/scale from the digits unless given. */
static bool decimal_value(Dec *d, const Spark__Connect__Expression__Literal__Decimal *dl, Value *v) {
    const char *s = dl->value;
    bool neg = false, dot = false, any = false;
    int digits = 0, scale = 0;
    __int128 u = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    for (; *s; s++) {
        if (*s == '.' && !dot) {
            dot = true;
            continue;
        }
        if (*s < '0' || *s > '9') break;
        any = true;
        if (digits > 0 || *s != '0') digits++;
        if (digits > 38) break;
        u = u * 10 + (*s - '0');
        if (dot) scale++;
    }
    if (*s || !any) {
        invalid(d, "decimal literal \"%s\" is not a number", dl->value);
        return false;
    }
    int precision = digits > scale ? digits : scale;
    if (precision == 0) precision = 1;
    if (dl->_precision_case) {
        int p = dl->precision, sc = dl->_scale_case ? dl->scale : 0;
        if (p < 1 || p > 38 || sc < 0 || sc > p || precision - scale > p - sc) {
            invalid(d, "decimal literal \"%s\" does not fit decimal(%d,%d)", dl->value, p, sc);
            return false;
        }
        /* rescale to the given scale */
        while (scale < sc) u *= 10, scale++;
        if (scale > sc) {
            invalid(d, "decimal literal \"%s\" has more than %d fraction digits", dl->value, sc);
            return false;
        }
        precision = p;
    }
    v->type = type_decimal(d->a, precision, scale);
    v->u.dec = neg ? -u : u;
    return true;
}

static bool literal_value(Dec *d, const Lit *l, const DataType *want, Value *v, uint32_t depth);

/* An element of an array, map or struct literal is read as its declared
 * type: one of another kind (an int where the array holds booleans) would be
 * read through the wrong member of its value, so it is refused. (Precision,
 * scale, collation and nesting may differ: Spark's client declares
 * decimal(38,18) arrays of narrower decimals.) */
static bool literal_of(Dec *d, const Value *v, const DataType *want) {
    if (v->is_null || !want || v->type->id == want->id) return true;
    invalid(d, "a %s literal where the declared type is %s", type_catalog_string(d->a, v->type),
            type_catalog_string(d->a, want));
    return false;
}

static bool literal_list(Dec *d, Lit *const *items, size_t n, const DataType *elem, const char *field, Value **out,
                         uint32_t depth) {
    Value *vs = ARENA_ARRAY(d->a, Value, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        size_t mark = push_idx(d, field, i);
        bool ok = literal_value(d, items[i], elem, &vs[i], depth + 1) && literal_of(d, &vs[i], elem);
        pop(d, mark);
        if (!ok) return false;
    }
    *out = vs;
    return true;
}

/* Spark's LiteralValueProtoConverter.toCatalystValue with the literal's type. */
static bool literal_value(Dec *d, const Lit *l, const DataType *want, Value *v, uint32_t depth) {
    memset(v, 0, sizeof *v);
    if (!l) {
        invalid(d, "literal missing");
        return false;
    }
    if (!enter(d, depth)) return false;
    switch (l->literal_type_case) {
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_NULL:
        v->is_null = true;
        if (!(v->type = dtype(d, l->null, ".null"))) return false;
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_BINARY: {
        char *p = arena_alloc(d->a, l->binary.len + 1);
        if (l->binary.len) memcpy(p, l->binary.data, l->binary.len);
        p[l->binary.len] = '\0';
        v->type = &TYPE_BINARY;
        v->u.s.p = p;
        v->u.s.len = (uint32_t)l->binary.len;
        return true;
    }
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_BOOLEAN: v->type = &TYPE_BOOLEAN; v->u.b = l->boolean; return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_BYTE:
        if (l->byte < -128 || l->byte > 127) return invalid(d, "byte literal %d out of range", l->byte), false;
        v->type = &TYPE_BYTE;
        v->u.i = l->byte;
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_SHORT:
        if (l->short_ < -32768 || l->short_ > 32767) return invalid(d, "short literal %d out of range", l->short_), false;
        v->type = &TYPE_SHORT;
        v->u.i = l->short_;
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_INTEGER: v->type = &TYPE_INT; v->u.i = l->integer; return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_LONG: v->type = &TYPE_LONG; v->u.i = l->long_; return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_FLOAT: v->type = &TYPE_FLOAT; v->u.d = l->float_; return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_DOUBLE: v->type = &TYPE_DOUBLE; v->u.d = l->double_; return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_DECIMAL: {
        size_t mark = push(d, ".decimal");
        bool ok = decimal_value(d, l->decimal, v);
        pop(d, mark);
        return ok;
    }
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_STRING:
        v->type = &TYPE_STRING;
        v->u.s.p = arena_strdup(d->a, l->string);
        v->u.s.len = (uint32_t)strlen(l->string);
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_DATE: v->type = &TYPE_DATE; v->u.i = l->date; return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_TIMESTAMP: {
        /* the wire holds an instant (micros since the epoch, UTC); the analyzer
         * keeps a TIMESTAMP as the session zone's wall clock, which is also how
         * Spark prints the literal (Literal.toString/sql use the session zone) */
        char dflt[128];
        const char *zone = d->opt->time_zone;
        if (!zone || !*zone) { /* unset: the server's zone, Spark's default (the JVM's) */
            cz_default_time_zone(dflt, sizeof dflt);
            zone = dflt;
        }
        int64_t secs = l->timestamp / 1000000 - (l->timestamp % 1000000 < 0);
        int32_t off = 0;
        if (!tz_offset_at_instant(zone, secs, &off))
            return invalid(d, "unknown session time zone '%s' for a timestamp literal", zone), false;
        v->type = &TYPE_TIMESTAMP;
        v->u.i = l->timestamp + (int64_t)off * 1000000;
        return true;
    }
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_TIMESTAMP_NTZ:
        v->type = &TYPE_TIMESTAMP_NTZ;
        v->u.i = l->timestamp_ntz;
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_CALENDAR_INTERVAL:
        v->type = &TYPE_CALENDAR_INTERVAL;
        v->u.iv.months = l->calendar_interval->months;
        v->u.iv.days = l->calendar_interval->days;
        v->u.iv.micros = l->calendar_interval->microseconds;
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_YEAR_MONTH_INTERVAL:
        /* the type the caller expects (an array's element type), else YEAR TO MONTH */
        v->type = want && want->id == T_YM_INTERVAL ? want : type_ym_interval(d->a, IF_YEAR, IF_MONTH);
        v->u.i = l->year_month_interval;
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_DAY_TIME_INTERVAL:
        v->type = want && want->id == T_DT_INTERVAL ? want : type_dt_interval(d->a, IF_DAY, IF_SECOND);
        v->u.iv.micros = l->day_time_interval;
        v->u.i = l->day_time_interval;
        return true;
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_ARRAY: {
        const Spark__Connect__Expression__Literal__Array *ar = l->array;
        size_t mark = push(d, ".array");
        const DataType *el = ar->element_type ? dtype(d, ar->element_type, ".element_type") : NULL;
        if (!el && !d->failed) {
            /* Spark 4 infers the element type from the first element. */
            if (ar->n_elements == 0) {
                invalid(d, "element_type is required for an empty array literal");
            } else {
                Value first;
                size_t m2 = push(d, ".elements[0]");
                if (literal_value(d, ar->elements[0], NULL, &first, depth + 1)) el = first.type;
                pop(d, m2);
            }
        }
        Value *items = NULL;
        bool ok = el && literal_list(d, ar->elements, ar->n_elements, el, ".elements", &items, depth);
        pop(d, mark);
        if (!ok) return false;
        bool has_null = false;
        for (size_t i = 0; i < ar->n_elements; i++) has_null |= items[i].is_null;
        v->type = type_array(d->a, el, true);
        (void)has_null; /* Spark's ArrayType(elementType) is containsNull = true */
        v->u.list.items = items;
        v->u.list.n = (uint32_t)ar->n_elements;
        return true;
    }
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_MAP: {
        const Spark__Connect__Expression__Literal__Map *mp = l->map;
        size_t mark = push(d, ".map");
        if (mp->n_keys != mp->n_values) {
            invalid(d, "%zu keys and %zu values", mp->n_keys, mp->n_values);
            pop(d, mark);
            return false;
        }
        const DataType *kt = mp->key_type ? dtype(d, mp->key_type, ".key_type") : NULL;
        const DataType *vt = mp->value_type ? dtype(d, mp->value_type, ".value_type") : NULL;
        if ((!kt || !vt) && !d->failed) invalid(d, "key_type and value_type are required for a map literal");
        Value *ks = NULL, *vs = NULL;
        bool ok = kt && vt && literal_list(d, mp->keys, mp->n_keys, kt, ".keys", &ks, depth) &&
                  literal_list(d, mp->values, mp->n_values, vt, ".values", &vs, depth);
        pop(d, mark);
        if (!ok) return false;
        Value *items = ARENA_ARRAY(d->a, Value, 2 * mp->n_keys + 1);
        for (size_t i = 0; i < mp->n_keys; i++) {
            items[2 * i] = ks[i];
            items[2 * i + 1] = vs[i];
        }
        v->type = type_map(d->a, kt, vt, true);
        v->u.list.items = items;
        v->u.list.n = (uint32_t)mp->n_keys;
        return true;
    }
    case SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_STRUCT: {
        const Spark__Connect__Expression__Literal__Struct *st = l->struct_;
        size_t mark = push(d, ".struct");
        const DataType *t = st->struct_type ? dtype(d, st->struct_type, ".struct_type") : NULL;
        if (!t && !d->failed) invalid(d, "struct_type is required for a struct literal");
        if (t && (t->id != T_STRUCT || t->nfields != (int)st->n_elements)) {
            invalid(d, "struct_type does not match the %zu elements", st->n_elements);
            t = NULL;
        }
        Value *items = NULL;
        bool ok = t != NULL;
        for (size_t i = 0; ok && i < st->n_elements; i++) {
            if (i == 0) items = ARENA_ARRAY(d->a, Value, st->n_elements);
            size_t m2 = push_idx(d, ".elements", i);
            ok = literal_value(d, st->elements[i], t->fields[i].type, &items[i], depth + 1) &&
                 literal_of(d, &items[i], t->fields[i].type);
            pop(d, m2);
        }
        pop(d, mark);
        if (!ok) return false;
        v->type = t;
        v->u.list.items = items;
        v->u.list.n = (uint32_t)st->n_elements;
        return true;
    }
    default: invalid(d, "Literal.literal_type is not set or unknown"); return false;
    }
}

/* ---------------------------------------------------------------- expressions */

static Node *expr(Dec *d, const Expr *e, uint32_t depth);

static bool expr_list(Dec *d, Expr *const *in, size_t n, const char *field, uint32_t depth, Node ***out) {
    Node **v = ARENA_ARRAY(d->a, Node *, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        size_t mark = push_idx(d, field, i);
        v[i] = expr(d, in[i], depth);
        pop(d, mark);
        if (!v[i]) return false;
    }
    *out = v;
    return true;
}

static Node *sub_expr(Dec *d, const Expr *e, const char *field, uint32_t depth) {
    size_t mark = push(d, field);
    Node *n = e ? expr(d, e, depth) : invalid(d, "required expression missing");
    pop(d, mark);
    return n;
}

/* Spark registers operators under these names (FunctionRegistry: "+", "==",
 * "and", ...); the IR builds them as operators, as the SQL parser does. */
static bool is_operator_name(const char *s) {
    static const char *const OPS[] = {"+",  "-", "*",  "/", "%", "=", "==", "<=>", "<", "<=", ">", ">=", "!=", "<>",
                                      "&",  "|", "^",  "~", "||", "!", "and", "or", "not", "negative", "positive",
                                      "div", NULL};
    for (int i = 0; OPS[i]; i++)
        if (strcmp(OPS[i], s) == 0) return true;
    return false;
}

static Node *unresolved_function(Dec *d, const char *name, bool parse_name, Node **args, size_t nargs, bool distinct,
                                 int32_t start, int32_t stop) {
    /* CASE WHEN and IN, which the client sends as "when" / "in" calls. */
    if (!parse_name && strcmp(name, "when") == 0 && nargs >= 2) {
        Node *n = node_new(d->a, NK_CaseWhen, start, stop);
        n->u.casew.has_else = (nargs % 2) == 1;
        node_set_kids(d->a, n, args, (uint32_t)nargs);
        return n;
    }
    if (!parse_name && strcmp(name, "in") == 0 && nargs >= 1) {
        Node *n = node_new(d->a, NK_In, start, stop);
        node_set_kids(d->a, n, args, (uint32_t)nargs);
        return n;
    }
    /* from_json/from_csv/from_xml(e, schema): the client sends a StructType as its JSON
       (Spark's evalTypeExpr takes JSON or DDL); the analyzer reads DDL */
    if (!parse_name && nargs >= 2 && args[1]->kind == NK_Literal && !args[1]->u.lit.v.is_null &&
        type_is_string(args[1]->type) &&
        (!strcmp(name, "from_json") || !strcmp(name, "from_csv") || !strcmp(name, "from_xml"))) {
        const char *text = args[1]->u.lit.v.u.s.p ? args[1]->u.lit.v.u.s.p : "";
        while (*text == ' ' || *text == '\n' || *text == '\t') text++;
        char why[128];
        const DataType *t = *text == '{' ? connect_parse_json_type(d->a, text, why, sizeof why) : NULL;
        if (t) {
            Value v = args[1]->u.lit.v;
            const char *ddl = t->id == T_STRUCT ? connect_struct_to_ddl(d->a, t) : type_catalog_string(d->a, t);
            v.u.s.p = ddl;
            v.u.s.len = (uint32_t)strlen(ddl);
            Node *lit = lit_node(d, &v);
            lit->start = args[1]->start;
            lit->stop = args[1]->stop;
            args[1] = lit;
        }
    }
    Node *n = node_new(d->a, NK_UnresolvedFunction, start, stop);
    if (parse_name) {
        if (!sql_identifier(d, name, &n->u.un.name, "function_name")) return NULL;
    } else {
        const char *nm = name;
        if (strcmp(nm, "==") == 0) nm = "=";
        else if (strcmp(nm, "!") == 0) nm = "not";
        n->u.un.name = name_parts1(d->a, arena_strdup(d->a, nm));
        n->u.un.is_operator = is_operator_name(name);
    }
    n->u.un.nargs = (uint32_t)nargs;
    if (distinct) n->flags |= NF_DISTINCT;
    node_set_kids(d->a, n, args, (uint32_t)nargs);
    return n;
}

static Node *sort_order(Dec *d, const Spark__Connect__Expression__SortOrder *so, int32_t start, int32_t stop,
                        uint32_t depth) {
    Node *c = sub_expr(d, so->child, ".child", depth + 1);
    if (!c) return NULL;
    Node *n = node_new(d->a, NK_SortOrder, start, stop);
    /* The planner's mapping: only ASCENDING is ascending, only NULLS_FIRST puts nulls first. */
    n->u.sort_order.descending = so->direction != SPARK__CONNECT__EXPRESSION__SORT_ORDER__SORT_DIRECTION__SORT_DIRECTION_ASCENDING;
    n->u.sort_order.nulls_first =
        so->null_ordering == SPARK__CONNECT__EXPRESSION__SORT_ORDER__NULL_ORDERING__SORT_NULLS_FIRST;
    node_set_kids(d->a, n, &c, 1);
    return node_finish(n);
}

static Node *frame_boundary(Dec *d, const Spark__Connect__Expression__Window__WindowFrame__FrameBoundary *b,
                            bool lower, const char *field, uint32_t depth) {
    size_t mark = push(d, field);
    Node *r = NULL;
    if (!b) {
        invalid(d, "%s bound is required in WindowFrame", lower ? "lower" : "upper");
    } else if (b->boundary_case == SPARK__CONNECT__EXPRESSION__WINDOW__WINDOW_FRAME__FRAME_BOUNDARY__BOUNDARY_CURRENT_ROW ||
               b->boundary_case == SPARK__CONNECT__EXPRESSION__WINDOW__WINDOW_FRAME__FRAME_BOUNDARY__BOUNDARY_UNBOUNDED) {
        r = node_new(d->a, NK_FrameBoundary, -1, -1);
        r->u.bound.type = b->boundary_case == SPARK__CONNECT__EXPRESSION__WINDOW__WINDOW_FRAME__FRAME_BOUNDARY__BOUNDARY_CURRENT_ROW
                              ? BOUND_CURRENT_ROW
                          : lower ? BOUND_UNBOUNDED_PRECEDING
                                  : BOUND_UNBOUNDED_FOLLOWING;
        r = node_finish(r);
    } else if (b->boundary_case == SPARK__CONNECT__EXPRESSION__WINDOW__WINDOW_FRAME__FRAME_BOUNDARY__BOUNDARY_VALUE) {
        r = sub_expr(d, b->value, ".value", depth + 1);
    } else {
        invalid(d, "FrameBoundary.boundary is not set");
    }
    pop(d, mark);
    return r;
}

static Node *window(Dec *d, const Spark__Connect__Expression__Window *w, int32_t start, int32_t stop, uint32_t depth) {
    if (!w->window_function) return invalid(d, "window_function is required in a window expression");
    Node *f = sub_expr(d, w->window_function, ".window_function", depth + 1);
    if (!f) return NULL;
    Node **part, **ord = ARENA_ARRAY(d->a, Node *, w->n_order_spec + 1);
    if (!expr_list(d, w->partition_spec, w->n_partition_spec, ".partition_spec", depth + 1, &part)) return NULL;
    for (size_t i = 0; i < w->n_order_spec; i++) {
        size_t mark = push_idx(d, ".order_spec", i);
        ord[i] = enter(d, depth + 1) ? sort_order(d, w->order_spec[i], -1, -1, depth + 1) : NULL;
        pop(d, mark);
        if (!ord[i]) return NULL;
    }
    Node *frame = NULL;
    if (w->frame_spec) {
        const Spark__Connect__Expression__Window__WindowFrame *fs = w->frame_spec;
        size_t mark = push(d, ".frame_spec");
        if (fs->frame_type != SPARK__CONNECT__EXPRESSION__WINDOW__WINDOW_FRAME__FRAME_TYPE__FRAME_TYPE_ROW &&
            fs->frame_type != SPARK__CONNECT__EXPRESSION__WINDOW__WINDOW_FRAME__FRAME_TYPE__FRAME_TYPE_RANGE) {
            invalid(d, "unknown frame_type %d", (int)fs->frame_type);
            pop(d, mark);
            return NULL;
        }
        Node *lo = frame_boundary(d, fs->lower, true, ".lower", depth + 1);
        Node *hi = lo ? frame_boundary(d, fs->upper, false, ".upper", depth + 1) : NULL;
        pop(d, mark);
        if (!hi) return NULL;
        frame = node_new(d->a, NK_SpecifiedWindowFrame, -1, -1);
        frame->u.frame.type =
            fs->frame_type == SPARK__CONNECT__EXPRESSION__WINDOW__WINDOW_FRAME__FRAME_TYPE__FRAME_TYPE_ROW ? FRAME_ROWS
                                                                                                         : FRAME_RANGE;
        Node *fk[2] = {lo, hi};
        node_set_kids(d->a, frame, fk, 2);
        frame = node_finish(frame);
    }
    size_t nk = w->n_partition_spec + w->n_order_spec + (frame ? 1 : 0);
    Node **kids = ARENA_ARRAY(d->a, Node *, nk + 1);
    memcpy(kids, part, w->n_partition_spec * sizeof(Node *));
    memcpy(kids + w->n_partition_spec, ord, w->n_order_spec * sizeof(Node *));
    if (frame) kids[nk - 1] = frame;
    Node *spec = node_new(d->a, NK_WindowSpecDefinition, -1, -1);
    spec->u.wspec.npartition = (uint32_t)w->n_partition_spec;
    spec->u.wspec.norder = (uint32_t)w->n_order_spec;
    spec->u.wspec.has_frame = frame != NULL;
    node_set_kids(d->a, spec, kids, (uint32_t)nk);
    spec = node_finish(spec);
    Node *we = node_new(d->a, NK_WindowExpression, start, stop);
    Node *k2[2] = {f, spec};
    node_set_kids(d->a, we, k2, 2);
    return we;
}

static Node *lambda_variable(Dec *d, const Spark__Connect__Expression__UnresolvedNamedLambdaVariable *v) {
    if (!v || v->n_name_parts == 0) return invalid(d, "UnresolvedNamedLambdaVariable requires at least one name part");
    Node *n = node_new(d->a, NK_UnresolvedNamedLambdaVariable, -1, -1);
    const char **parts = ARENA_ARRAY(d->a, const char *, v->n_name_parts);
    for (size_t i = 0; i < v->n_name_parts; i++) parts[i] = arena_strdup(d->a, v->name_parts[i]);
    n->u.un.name = name_parts(d->a, (uint32_t)v->n_name_parts, parts);
    return n;
}

static Node *cast(Dec *d, const Spark__Connect__Expression__Cast *c, int32_t start, int32_t stop, uint32_t depth) {
    Node *child = sub_expr(d, c->expr, ".expr", depth + 1);
    if (!child) return NULL;
    const DataType *t = NULL;
    if (c->cast_to_type_case == SPARK__CONNECT__EXPRESSION__CAST__CAST_TO_TYPE_TYPE) {
        t = dtype(d, c->type, ".type");
    } else if (c->cast_to_type_case == SPARK__CONNECT__EXPRESSION__CAST__CAST_TO_TYPE_TYPE_STR) {
        ErrorInfo *e = NULL;
        t = parse_data_type(d->a, c->type_str, strlen(c->type_str), &e);
        if (!t) return e ? spark_error(d, e) : invalid(d, "type_str \"%s\" is not a data type", c->type_str);
    } else {
        return invalid(d, "Cast.cast_to_type is not set");
    }
    if (!t) return NULL;
    /* CharVarcharUtils.replaceCharVarcharWithStringForCast */
    if (t->id == T_CHAR || t->id == T_VARCHAR) t = &TYPE_STRING;
    Node *n = node_new(d->a, NK_Cast, start, stop);
    n->type = t;
    switch (c->eval_mode) {
    case SPARK__CONNECT__EXPRESSION__CAST__EVAL_MODE__EVAL_MODE_LEGACY: n->u.cast.ansi = false; break;
    case SPARK__CONNECT__EXPRESSION__CAST__EVAL_MODE__EVAL_MODE_ANSI: n->u.cast.ansi = true; break;
    case SPARK__CONNECT__EXPRESSION__CAST__EVAL_MODE__EVAL_MODE_TRY: n->u.cast.try_ = true; n->u.cast.ansi = true; break;
    default: n->u.cast.ansi = d->opt->ansi; break;
    }
    node_set_kids(d->a, n, &child, 1);
    return n;
}

static Node *internal_call(Dec *d, const char *name, Node **args, uint32_t n, int32_t start, int32_t stop) {
    Node *c = node_new(d->a, NK_UnresolvedFunction, start, stop);
    c->u.un.name = name_parts1(d->a, name);
    c->u.un.nargs = n;
    node_set_kids(d->a, c, args, n);
    return node_finish(c);
}

static Node *str_lit_node(Dec *d, const char *s) {
    Value v = {.type = &TYPE_STRING, .u.s = {arena_strdup(d->a, s), (uint32_t)strlen(s)}};
    return lit_node(d, &v);
}

/* UpdateFields.updateFieldsHelper: the operation on field name[from] of
 * strct; a dotted name nests it as WithField(part, UpdateFields(strct.part,
 * ...)). An operation on an UpdateFields joins its list of operations
 * (dropFields("a", "c") is update_fields(d, dropfield(a), dropfield(c))). */
static Node *field_update(Dec *d, Node *strct, NameParts name, uint32_t from, Node *value, int32_t start,
                          int32_t stop) {
    Node *fname = str_lit_node(d, name.v[from]);
    if (!fname) return NULL;
    Node *op;
    if (from + 1 == name.n) {
        Node *args[2] = {fname, value};
        op = value ? internal_call(d, "@withfield", args, 2, start, stop) : internal_call(d, "@dropfield", args, 1, start, stop);
    } else {
        Node *k[2] = {strct, str_lit_node(d, name.v[from])};
        Node *inner = node_new(d->a, NK_UnresolvedExtractValue, start, stop);
        node_set_kids(d->a, inner, k, 2);
        Node *nested = field_update(d, node_finish(inner), name, from + 1, value, start, stop);
        if (!nested) return NULL;
        Node *args[2] = {fname, nested};
        op = internal_call(d, "@withfield", args, 2, start, stop);
    }
    if (strct->kind == NK_UnresolvedFunction && strct->u.un.name.n == 1 &&
        strcmp(strct->u.un.name.v[0], "@update_fields") == 0) {
        Node **args = ARENA_ARRAY(d->a, Node *, strct->nkids + 1);
        memcpy(args, strct->kids, sizeof(Node *) * strct->nkids);
        args[strct->nkids] = op;
        return internal_call(d, "@update_fields", args, strct->nkids + 1, strct->start, strct->stop);
    }
    Node *args[2] = {strct, op};
    return internal_call(d, "@update_fields", args, 2, start, stop);
}

static Node *update_fields(Dec *d, const Spark__Connect__Expression__UpdateFields *u, int32_t start, int32_t stop,
                           uint32_t depth) {
    NameParts name;
    if (!attribute_name(d, u->field_name, &name, "field_name")) return NULL;
    Node *strct = sub_expr(d, u->struct_expression, ".struct_expression", depth + 1);
    if (!strct) return NULL;
    Node *value = NULL;
    if (u->value_expression && !(value = sub_expr(d, u->value_expression, ".value_expression", depth + 1))) return NULL;
    return field_update(d, strct, name, 0, value, start, stop);
}

static const Rel *find_reference(Dec *d, int64_t id) {
    for (const RefScope *s = d->scope; s; s = s->outer)
        for (size_t i = 0; i < s->n; i++)
            if (s->rels[i]->common && s->rels[i]->common->_plan_id_case && s->rels[i]->common->plan_id == id)
                return s->rels[i];
    return NULL;
}

static Node *rel(Dec *d, const Rel *r, uint32_t depth);

static Node *expr(Dec *d, const Expr *e, uint32_t depth) {
    if (!e) return invalid(d, "expression missing");
    if (!enter(d, depth)) return NULL;
    int32_t start = -1, stop = -1;
    Node *n = NULL;
    switch (e->expr_type_case) {
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_LITERAL: {
        Value v;
        size_t mark = push(d, ".literal");
        bool ok = literal_value(d, e->literal, NULL, &v, depth);
        pop(d, mark);
        return ok ? lit_node(d, &v) : NULL;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_ATTRIBUTE: {
        const Spark__Connect__Expression__UnresolvedAttribute *u = e->unresolved_attribute;
        size_t mark = push(d, ".unresolved_attribute");
        n = node_new(d->a, NK_UnresolvedAttribute, start, stop);
        bool ok = attribute_name(d, u->unparsed_identifier, &n->u.un.name, "unparsed_identifier");
        if (ok && u->_plan_id_case) {
            ok = plan_id_of(d, u->plan_id, &n->plan_id);
            if (ok) note_ref(d, u->plan_id);
        }
        if (ok && u->_is_metadata_column_case && u->is_metadata_column)
            ok = unsupported(d, "metadata columns (is_metadata_column) are not supported") != NULL;
        pop(d, mark);
        if (!ok) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_FUNCTION: {
        const Spark__Connect__Expression__UnresolvedFunction *f = e->unresolved_function;
        size_t mark = push(d, ".unresolved_function");
        Node **args = NULL;
        if (!f->function_name || !*f->function_name) n = invalid(d, "function_name is empty");
        else if (expr_list(d, f->arguments, f->n_arguments, ".arguments", depth + 1, &args))
        {
            /* internal functions (Column.internalFn) live apart from the SQL ones: "@name" */
            const char *fname = f->function_name;
            if (f->is_internal) {
                const char *internal = arena_printf(d->a, "@%s", fname);
                if (func_lookup_builtin(internal)) fname = internal;
            }
            n = unresolved_function(d, fname, f->is_user_defined_function, args, f->n_arguments, f->is_distinct,
                                    start, stop);
        }
        pop(d, mark);
        if (!n) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_CALL_FUNCTION: {
        const Spark__Connect__CallFunction *f = e->call_function;
        size_t mark = push(d, ".call_function");
        Node **args = NULL;
        if (expr_list(d, f->arguments, f->n_arguments, ".arguments", depth + 1, &args))
            n = unresolved_function(d, f->function_name, true, args, f->n_arguments, false, start, stop);
        pop(d, mark);
        if (!n) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_EXPRESSION_STRING: {
        const char *s = e->expression_string->expression;
        ParserOptions po = parser_options(d);
        ErrorInfo *err = NULL;
        n = parse_expression(d->a, s, strlen(s), &po, &err);
        if (!n) return err ? spark_error(d, err) : invalid(d, "expression_string \"%s\" does not parse", s);
        return n; /* finished by the parser; its positions point into the string */
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_STAR: {
        const Spark__Connect__Expression__UnresolvedStar *s = e->unresolved_star;
        size_t mark = push(d, ".unresolved_star");
        bool ok = true;
        if (s->_unparsed_target_case && s->_plan_id_case) {
            ok = invalid(d, "UnresolvedStar with both target and plan id is not supported") != NULL;
        } else if (s->_plan_id_case) {
            /* dataframe.col("*"): the output of the node with that plan id */
            n = node_new(d->a, NK_UnresolvedStar, start, stop);
            ok = plan_id_of(d, s->plan_id, &n->plan_id);
            if (ok) note_ref(d, s->plan_id);
        } else {
            n = node_new(d->a, NK_UnresolvedStar, start, stop);
            if (s->_unparsed_target_case) {
                size_t len = strlen(s->unparsed_target);
                if (len < 2 || strcmp(s->unparsed_target + len - 2, ".*") != 0) {
                    ok = invalid(d, "unparsed_target \"%s\" must end with '.*'", s->unparsed_target) != NULL;
                } else {
                    char *t = arena_strndup(d->a, s->unparsed_target, len - 2);
                    ok = attribute_name(d, t, &n->u.un.name, "unparsed_target");
                }
            }
        }
        pop(d, mark);
        if (!ok) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_ALIAS: {
        const Spark__Connect__Expression__Alias *al = e->alias;
        size_t mark = push(d, ".alias");
        Node *c = NULL;
        if (al->n_name == 0) invalid(d, "Alias.name is empty");
        else if (al->n_name > 1 && al->_metadata_case)
            invalid(d, "Alias expressions with more than 1 identifier must not use optional metadata");
        else c = sub_expr(d, al->expr, ".expr", depth + 1);
        pop(d, mark);
        if (!c) return NULL;
        if (al->n_name == 1) {
            n = node_new(d->a, NK_Alias, start, stop);
            n->u.attr.name = arena_strdup(d->a, al->name[0]);
        } else {
            n = node_new(d->a, NK_MultiAlias, start, stop);
            n->u.cols.ncols = (uint32_t)al->n_name;
            n->u.cols.cols = ARENA_ARRAY(d->a, const char *, al->n_name);
            for (size_t i = 0; i < al->n_name; i++) n->u.cols.cols[i] = arena_strdup(d->a, al->name[i]);
        }
        node_set_kids(d->a, n, &c, 1);
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_CAST: {
        size_t mark = push(d, ".cast");
        n = cast(d, e->cast, start, stop, depth);
        pop(d, mark);
        if (!n) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_REGEX: {
        const Spark__Connect__Expression__UnresolvedRegex *rx = e->unresolved_regex;
        size_t mark = push(d, ".unresolved_regex");
        size_t len = strlen(rx->col_name);
        bool quoted = len >= 2 && rx->col_name[len - 1] == '`' && strchr(rx->col_name, '`') != rx->col_name + len - 1;
        if (quoted) {
            n = unsupported(d, "column regular expressions (colRegex) are not supported");
        } else {
            n = node_new(d->a, NK_UnresolvedAttribute, start, stop);
            if (!attribute_name(d, rx->col_name, &n->u.un.name, "col_name")) n = NULL;
            else if (rx->_plan_id_case) {
                if (!plan_id_of(d, rx->plan_id, &n->plan_id)) n = NULL;
                else note_ref(d, rx->plan_id);
            }
        }
        pop(d, mark);
        if (!n) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_SORT_ORDER: {
        size_t mark = push(d, ".sort_order");
        n = sort_order(d, e->sort_order, start, stop, depth);
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_LAMBDA_FUNCTION: {
        const Spark__Connect__Expression__LambdaFunction *lf = e->lambda_function;
        size_t mark = push(d, ".lambda_function");
        if (lf->n_arguments == 0 || lf->n_arguments > 3) {
            invalid(d, "LambdaFunction requires 1 ~ 3 arguments, but got %zu ones!", lf->n_arguments);
            pop(d, mark);
            return NULL;
        }
        Node **kids = ARENA_ARRAY(d->a, Node *, lf->n_arguments + 1);
        kids[0] = sub_expr(d, lf->function, ".function", depth + 1);
        for (size_t i = 0; kids[0] && i < lf->n_arguments; i++) {
            size_t m2 = push_idx(d, ".arguments", i);
            Node *v = lambda_variable(d, lf->arguments[i]);
            pop(d, m2);
            if (!v) {
                kids[0] = NULL;
                break;
            }
            kids[i + 1] = node_finish(v);
        }
        pop(d, mark);
        if (!kids[0]) return NULL;
        n = node_new(d->a, NK_LambdaFunction, start, stop);
        node_set_kids(d->a, n, kids, (uint32_t)lf->n_arguments + 1);
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_NAMED_LAMBDA_VARIABLE: {
        size_t mark = push(d, ".unresolved_named_lambda_variable");
        n = lambda_variable(d, e->unresolved_named_lambda_variable);
        pop(d, mark);
        if (!n) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_WINDOW: {
        size_t mark = push(d, ".window");
        n = window(d, e->window, start, stop, depth);
        pop(d, mark);
        if (!n) return NULL;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_EXTRACT_VALUE: {
        size_t mark = push(d, ".unresolved_extract_value");
        Node *k[2] = {sub_expr(d, e->unresolved_extract_value->child, ".child", depth + 1), NULL};
        if (k[0]) k[1] = sub_expr(d, e->unresolved_extract_value->extraction, ".extraction", depth + 1);
        pop(d, mark);
        if (!k[1]) return NULL;
        n = node_new(d->a, NK_UnresolvedExtractValue, start, stop);
        node_set_kids(d->a, n, k, 2);
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_NAMED_ARGUMENT_EXPRESSION: {
        const Spark__Connect__NamedArgumentExpression *na = e->named_argument_expression;
        size_t mark = push(d, ".named_argument_expression");
        Node *v = NULL;
        if (!na->key || !*na->key) invalid(d, "key is empty");
        else v = sub_expr(d, na->value, ".value", depth + 1);
        pop(d, mark);
        if (!v) return NULL;
        n = node_new(d->a, NK_NamedArgument, start, stop);
        n->u.named.name = arena_strdup(d->a, na->key);
        node_set_kids(d->a, n, &v, 1);
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_LAZY_EXPRESSION: {
        /* LazyExpression is a marker the analyzer drops (EliminateLazyExpression). */
        size_t mark = push(d, ".lazy_expression");
        n = sub_expr(d, e->lazy_expression->child, ".child", depth + 1);
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_SUBQUERY_EXPRESSION: {
        const Spark__Connect__SubqueryExpression *sq = e->subquery_expression;
        size_t mark = push(d, ".subquery_expression");
        NodeKind k = sq->subquery_type == SPARK__CONNECT__SUBQUERY_EXPRESSION__SUBQUERY_TYPE__SUBQUERY_TYPE_SCALAR ? NK_ScalarSubquery
                     : sq->subquery_type == SPARK__CONNECT__SUBQUERY_EXPRESSION__SUBQUERY_TYPE__SUBQUERY_TYPE_EXISTS ? NK_Exists
                                                                                                                     : NK_COUNT_;
        const Rel *ref = find_reference(d, sq->plan_id);
        Node *plan = NULL;
        if (k == NK_COUNT_) invalid(d, "subquery_type %d is not a known subquery type", (int)sq->subquery_type);
        else if (!ref)
            invalid(d, "plan_id %lld names no relation of the enclosing WithRelations", (long long)sq->plan_id);
        else {
            size_t m2 = push(d, "<reference>");
            plan = rel(d, ref, depth + 1);
            pop(d, m2);
        }
        pop(d, mark);
        if (!plan) return NULL;
        n = node_new(d->a, k, start, stop);
        n->u.subq.plan = plan;
        break;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UPDATE_FIELDS: {
        size_t mark = push(d, ".update_fields");
        n = update_fields(d, e->update_fields, start, stop, depth);
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_COMMON_INLINE_USER_DEFINED_FUNCTION:
        return unsupported(d, "inline user-defined functions (%s) cannot be analysed without their code",
                           e->common_inline_user_defined_function->function_name);
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_MERGE_ACTION:
        return invalid(d, "merge_action is only valid inside a MergeIntoTableCommand");
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_TYPED_AGGREGATE_EXPRESSION:
        return unsupported(d, "typed aggregate expressions (Scala aggregators) are not supported");
    case SPARK__CONNECT__EXPRESSION__EXPR_TYPE_EXTENSION:
        return unsupported(d, "expression extensions (%s) are not supported", e->extension->type_url);
    default:
        if (e->base.n_unknown_fields)
            return invalid(d, "Expression field %u is not a Spark Connect expression type", e->base.unknown_fields[0].tag);
        return invalid(d, "Expression.expr_type is not set");
    }
    return node_finish(n);
}

/* ---------------------------------------------------------------- relations */

/* A new attribute, as the planner's DataTypeUtils.toAttributes makes them:
 * the analysis numbers its own ids after the decoder's (cz_run_plan). */
static Node *attribute(Dec *d, const char *name, const DataType *t, bool nullable) {
    Node *n = node_new(d->a, NK_AttributeReference, -1, -1);
    n->u.attr.name = name;
    n->u.attr.id = ++d->next_id;
    n->u.attr.name_hash = attr_name_hash(name);
    n->type = t;
    if (nullable) n->flags |= NF_NULLABLE;
    return node_finish(n);
}

static Node **attributes_of(Dec *d, const DataType *st) {
    Node **v = ARENA_ARRAY(d->a, Node *, st->nfields ? st->nfields : 1);
    for (int i = 0; i < st->nfields; i++)
        v[i] = attribute(d, st->fields[i].name, st->fields[i].type, st->fields[i].nullable);
    return v;
}

/* A schema string (DDL or JSON) as a struct: a non-struct type T is the
 * struct of one column `value` (the planner's rule for local relations). */
static const DataType *schema_struct(Dec *d, const char *text, const char *field) {
    char why[256];
    const DataType *t = connect_parse_schema(d->a, text, why, sizeof why);
    if (!t) {
        size_t mark = push(d, field);
        invalid(d, "%s", why);
        pop(d, mark);
        return NULL;
    }
    if (t->id == T_STRUCT) return t;
    StructField f = {"value", t, true, NULL};
    return type_struct(d->a, 1, &f);
}

static Node *local_relation(Dec *d, const Spark__Connect__LocalRelation *lr) {
    const DataType *schema = NULL;
    if (lr->_schema_case && !(schema = schema_struct(d, lr->schema, ".schema"))) return NULL;
    uint64_t rows = 0;
    if (lr->_data_case) {
        if (!schema)
            return unsupported(d, "LocalRelation.data without a schema: Catalyzer takes the columns from "
                                  "LocalRelation.schema, not from the Arrow schema");
        char why[256];
        if (!arrow_stream_rows(lr->data.data, lr->data.len, &rows, why, sizeof why)) return invalid(d, "%s", why);
    } else if (!schema) {
        return invalid(d, "Schema for LocalRelation is required when the input data is not provided.");
    }
    Node *n = node_new(d->a, NK_LocalRelation, -1, -1);
    node_set_exprs(d->a, n, attributes_of(d, schema), (uint32_t)schema->nfields);
    n->u.local.nrows = rows > UINT32_MAX ? UINT32_MAX : (uint32_t)rows; /* the values are not read */
    return n;
}

static Node *lit_int(Dec *d, int64_t v, const DataType *t) {
    Value val = {.type = t};
    val.u.i = v;
    return lit_node(d, &val);
}

/* Spark's toNamedExpression: a projection item that is not named gets an UnresolvedAlias. */
static Node *named(Dec *d, Node *e) {
    switch (e->kind) {
    case NK_Alias:
    case NK_MultiAlias:
    case NK_UnresolvedAttribute:
    case NK_UnresolvedStar:
    case NK_UnresolvedAlias: return e;
    default: {
        Node *u = node_new(d->a, NK_UnresolvedAlias, e->start, e->stop);
        node_set_kids(d->a, u, &e, 1);
        return node_finish(u);
    }
    }
}

static Node *input(Dec *d, const Rel *in, uint32_t depth) {
    size_t mark = push(d, ".input");
    Node *c = in ? rel(d, in, depth + 1) : invalid(d, "input relation is required");
    pop(d, mark);
    return c;
}

static Node *unary(Dec *d, NodeKind k, const Rel *in, uint32_t depth) {
    Node *c = input(d, in, depth);
    if (!c) return NULL;
    Node *n = node_new(d->a, k, -1, -1);
    node_set_kids(d->a, n, &c, 1);
    return n;
}

static bool names_list(Dec *d, char *const *in, size_t n, const char ***out) {
    const char **v = ARENA_ARRAY(d->a, const char *, n ? n : 1);
    for (size_t i = 0; i < n; i++) v[i] = arena_strdup(d->a, in[i]);
    *out = v;
    return true;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* SQL.args / pos_args: older clients send them */
static Node *decode_sql(Dec *d, const Spark__Connect__SQL *sql, uint32_t depth) {
    const char *q = sql->query;
    ParserOptions po = parser_options(d);
    ErrorInfo *err = NULL;
    Node *n = parse_statement(d->a, q, strlen(q), &po, &err);
    if (!n) return err ? spark_error(d, err) : invalid(d, "query does not parse");
    if (sql->n_args || sql->n_pos_args || sql->n_named_arguments || sql->n_pos_arguments)
        return unsupported(d, "parameters of a SQL relation are not supported yet");
    (void)depth;
    return n;
}
#pragma GCC diagnostic pop

static Node *aggregate(Dec *d, const Spark__Connect__Aggregate *ag, uint32_t depth) {
    Node *child = input(d, ag->input, depth);
    if (!child) return NULL;
    Node **g, **aggs;
    if (!expr_list(d, ag->grouping_expressions, ag->n_grouping_expressions, ".grouping_expressions", depth + 1, &g))
        return NULL;
    if (!expr_list(d, ag->aggregate_expressions, ag->n_aggregate_expressions, ".aggregate_expressions", depth + 1,
                   &aggs))
        return NULL;
    size_t ng = ag->n_grouping_expressions, na = ag->n_aggregate_expressions;
    /* The planner's aliasedAgg: the grouping expressions, then the aggregates, each named. */
    Node **out = ARENA_ARRAY(d->a, Node *, ng + na + 1);
    for (size_t i = 0; i < ng; i++) out[i] = named(d, g[i]);
    for (size_t i = 0; i < na; i++) out[ng + i] = named(d, aggs[i]);
    Node **grouping = g;
    size_t ngroup = ng;
    switch (ag->group_type) {
    case SPARK__CONNECT__AGGREGATE__GROUP_TYPE__GROUP_TYPE_GROUPBY: break;
    case SPARK__CONNECT__AGGREGATE__GROUP_TYPE__GROUP_TYPE_ROLLUP:
    case SPARK__CONNECT__AGGREGATE__GROUP_TYPE__GROUP_TYPE_CUBE: {
        /* Rollup(groupingExprs.map(Seq(_))): each expression its own set */
        Node **sets = ARENA_ARRAY(d->a, Node *, ng ? ng : 1);
        for (size_t i = 0; i < ng; i++) {
            Node *l = node_new(d->a, NK_ExprList, -1, -1);
            node_set_kids(d->a, l, &g[i], 1);
            sets[i] = node_finish(l);
        }
        Node *w = node_new(d->a, ag->group_type == SPARK__CONNECT__AGGREGATE__GROUP_TYPE__GROUP_TYPE_ROLLUP ? NK_Rollup
                                                                                                         : NK_Cube,
                           -1, -1);
        node_set_kids(d->a, w, sets, (uint32_t)ng);
        w->u.un.nargs = (uint32_t)ng;
        grouping = ARENA_ARRAY(d->a, Node *, 1);
        grouping[0] = node_finish(w);
        ngroup = 1;
        break;
    }
    case SPARK__CONNECT__AGGREGATE__GROUP_TYPE__GROUP_TYPE_GROUPING_SETS: {
        size_t ns = ag->n_grouping_sets;
        Node **kids = ARENA_ARRAY(d->a, Node *, ns + ng + 1);
        for (size_t i = 0; i < ns; i++) {
            Node **set;
            size_t mark = push_idx(d, ".grouping_sets", i);
            bool ok = expr_list(d, ag->grouping_sets[i]->grouping_set, ag->grouping_sets[i]->n_grouping_set,
                                ".grouping_set", depth + 1, &set);
            pop(d, mark);
            if (!ok) return NULL;
            Node *l = node_new(d->a, NK_ExprList, -1, -1);
            node_set_kids(d->a, l, set, (uint32_t)ag->grouping_sets[i]->n_grouping_set);
            kids[i] = node_finish(l);
        }
        memcpy(kids + ns, g, ng * sizeof(Node *));
        Node *gs = node_new(d->a, NK_GroupingSets, -1, -1);
        node_set_kids(d->a, gs, kids, (uint32_t)(ns + ng));
        gs->u.un.nargs = (uint32_t)ns;
        grouping = ARENA_ARRAY(d->a, Node *, 1);
        grouping[0] = node_finish(gs);
        ngroup = 1;
        break;
    }
    case SPARK__CONNECT__AGGREGATE__GROUP_TYPE__GROUP_TYPE_PIVOT:
        if (!ag->pivot) return invalid(d, "Aggregate with GROUP_TYPE_PIVOT requires a Pivot");
        return unsupported(d, "pivot is not supported yet");
    default: return invalid(d, "Aggregate.group_type %d is not a known group type", (int)ag->group_type);
    }
    Node *n = node_new(d->a, NK_Aggregate, -1, -1);
    node_set_kids(d->a, n, &child, 1);
    Node **all = ARENA_ARRAY(d->a, Node *, ngroup + ng + na + 1);
    memcpy(all, grouping, ngroup * sizeof(Node *));
    memcpy(all + ngroup, out, (ng + na) * sizeof(Node *));
    node_set_exprs(d->a, n, all, (uint32_t)(ngroup + ng + na));
    n->u.aggregate.ngroup = (uint32_t)ngroup;
    return n;
}

static Node *join(Dec *d, const Spark__Connect__Join *j, uint32_t depth) {
    if (j->_join_data_type_case) return unsupported(d, "joinWith (join_data_type) is not supported");
    if (j->join_condition && j->n_using_columns)
        return invalid(d, "Using columns or join conditions cannot be set at the same time in Join");
    Node *k[2];
    size_t mark = push(d, ".left");
    k[0] = j->left ? rel(d, j->left, depth + 1) : invalid(d, "Both join sides must be present");
    pop(d, mark);
    if (!k[0]) return NULL;
    mark = push(d, ".right");
    k[1] = j->right ? rel(d, j->right, depth + 1) : invalid(d, "Both join sides must be present");
    pop(d, mark);
    if (!k[1]) return NULL;
    Node *cond = NULL;
    if (j->join_condition && !(cond = sub_expr(d, j->join_condition, ".join_condition", depth + 1))) return NULL;
    JoinType jt;
    switch (j->join_type) {
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_UNSPECIFIED: /* the planner's default */
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_INNER: jt = JOIN_INNER; break;
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_FULL_OUTER: jt = JOIN_FULL_OUTER; break;
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_LEFT_OUTER: jt = JOIN_LEFT_OUTER; break;
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_RIGHT_OUTER: jt = JOIN_RIGHT_OUTER; break;
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_LEFT_ANTI: jt = JOIN_LEFT_ANTI; break;
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_LEFT_SEMI: jt = JOIN_LEFT_SEMI; break;
    case SPARK__CONNECT__JOIN__JOIN_TYPE__JOIN_TYPE_CROSS: jt = JOIN_CROSS; break;
    default: return invalid(d, "Join.join_type %d is not a known join type", (int)j->join_type);
    }
    Node *n = node_new(d->a, NK_Join, -1, -1);
    node_set_kids(d->a, n, k, 2);
    if (cond) node_set_exprs(d->a, n, &cond, 1);
    n->u.join.type = jt;
    if (j->n_using_columns) {
        n->u.join.nusing = (uint32_t)j->n_using_columns;
        names_list(d, j->using_columns, j->n_using_columns, &n->u.join.using_cols);
    }
    return n;
}

static Node *set_operation(Dec *d, const Spark__Connect__SetOperation *s, uint32_t depth) {
    if (!s->left_input || !s->right_input) return invalid(d, "Set operation must have 2 inputs");
    bool is_all = s->_is_all_case && s->is_all, by_name = s->_by_name_case && s->by_name;
    bool allow_missing = s->_allow_missing_columns_case && s->allow_missing_columns;
    NodeKind k;
    switch (s->set_op_type) {
    case SPARK__CONNECT__SET_OPERATION__SET_OP_TYPE__SET_OP_TYPE_UNION: k = NK_Union; break;
    case SPARK__CONNECT__SET_OPERATION__SET_OP_TYPE__SET_OP_TYPE_INTERSECT: k = NK_Intersect; break;
    case SPARK__CONNECT__SET_OPERATION__SET_OP_TYPE__SET_OP_TYPE_EXCEPT: k = NK_Except; break;
    default: return invalid(d, "SetOperation.set_op_type %d is not a known set operation", (int)s->set_op_type);
    }
    if (k != NK_Union && by_name)
        return invalid(d, "%s does not support union_by_name", k == NK_Intersect ? "Intersect" : "Except");
    if (k == NK_Union && !by_name && allow_missing)
        return invalid(d, "UnionByName `allowMissingCol` can be true only if `byName` is true.");
    Node *kk[2];
    size_t mark = push(d, ".left_input");
    kk[0] = rel(d, s->left_input, depth + 1);
    pop(d, mark);
    if (!kk[0]) return NULL;
    mark = push(d, ".right_input");
    kk[1] = rel(d, s->right_input, depth + 1);
    pop(d, mark);
    if (!kk[1]) return NULL;
    Node *n = node_new(d->a, k, -1, -1);
    node_set_kids(d->a, n, kk, 2);
    n->u.setop.is_all = is_all;
    n->u.setop.by_name = by_name;
    n->u.setop.allow_missing = allow_missing;
    if (k == NK_Union && !is_all) {
        /* Union's DISTINCT form: Distinct(Union(...)) */
        Node *u = node_finish(n);
        n = node_new(d->a, NK_Distinct, -1, -1);
        node_set_kids(d->a, n, &u, 1);
    }
    return n;
}

/* ---- relations the Connect planner builds with Dataset calls (the analyzer's DataFrameOp) ---- */

static Node *df_op(Dec *d, DataFrameOpKind op, const Rel *in, uint32_t depth) {
    Node *n = unary(d, NK_DataFrameOp, in, depth);
    if (n) {
        n->u.dfop.op = op;
        n->u.dfop.n = -1;
    }
    return n;
}

static void df_names(Dec *d, Node *n, char *const *names, size_t count) {
    names_list(d, names, count, &n->u.dfop.names);
    n->u.dfop.nnames = (uint32_t)count;
}

static bool literal_exprs(Dec *d, Lit *const *lits, size_t n, const char *field, Node **out) {
    for (size_t i = 0; i < n; i++) {
        Value v;
        size_t mark = push_idx(d, field, i);
        bool ok = literal_value(d, lits[i], NULL, &v, 1);
        pop(d, mark);
        if (!ok) return false;
        out[i] = lit_node(d, &v);
    }
    return true;
}

static Node *repartition(Dec *d, const Spark__Connect__Repartition *r, uint32_t depth) {
    if (r->num_partitions <= 0) return invalid(d, "num_partitions must be positive, got %d", r->num_partitions);
    Node *n = unary(d, NK_Repartition, r->input, depth);
    if (!n) return NULL;
    n->u.repart.num_partitions = r->num_partitions;
    n->u.repart.shuffle = r->_shuffle_case && r->shuffle; /* without shuffle: coalesce */
    return n;
}

/* Dataset.repartition(cols) / repartitionByRange(sort orders): all sort orders or none */
static Node *repartition_by_expression(Dec *d, const Spark__Connect__RepartitionByExpression *r, uint32_t depth) {
    Node **es = NULL;
    if (!expr_list(d, r->partition_exprs, r->n_partition_exprs, ".partition_exprs", depth + 1, &es)) return NULL;
    size_t orders = 0;
    for (size_t i = 0; i < r->n_partition_exprs; i++) orders += es[i]->kind == NK_SortOrder;
    if (orders && orders != r->n_partition_exprs)
        return invalid(d, "partition_exprs mixes sort orders and expressions (repartitionByRange takes sort orders only)");
    if (r->_num_partitions_case && r->num_partitions <= 0)
        return invalid(d, "num_partitions must be positive, got %d", r->num_partitions);
    Node *n = unary(d, NK_RepartitionByExpression, r->input, depth);
    if (!n) return NULL;
    node_set_exprs(d->a, n, es, (uint32_t)r->n_partition_exprs);
    n->u.repart.num_partitions = r->_num_partitions_case ? r->num_partitions : 0;
    return n;
}

static Node *sample(Dec *d, const Spark__Connect__Sample *s, uint32_t depth) {
    if (s->deterministic_order)
        return unsupported(d, "sample with deterministic_order (randomSplit) is not supported yet");
    if (!(s->upper_bound >= s->lower_bound))
        return invalid(d, "upper_bound (%g) must not be below lower_bound (%g)", s->upper_bound, s->lower_bound);
    Node *n = unary(d, NK_Sample, s->input, depth);
    if (!n) return NULL;
    n->u.sample.lower = s->lower_bound;
    n->u.sample.upper = s->upper_bound;
    n->u.sample.with_replacement = s->_with_replacement_case && s->with_replacement;
    /* without a seed Spark draws a random one; an analysis has no use for randomness */
    n->u.sample.seed = s->_seed_case ? s->seed : 0;
    return n;
}

static Node *hint(Dec *d, const Spark__Connect__Hint *h, uint32_t depth) {
    if (!h->name || !*h->name) return invalid(d, "name is empty");
    Node **ps = NULL;
    if (!expr_list(d, h->parameters, h->n_parameters, ".parameters", depth + 1, &ps)) return NULL;
    Node *n = unary(d, NK_UnresolvedHint, h->input, depth);
    if (!n) return NULL;
    n->u.hint.name = arena_strdup(d->a, h->name);
    node_set_exprs(d->a, n, ps, (uint32_t)h->n_parameters);
    return n;
}

static Node *drop_columns(Dec *d, const Spark__Connect__Drop *dr, uint32_t depth) {
    Node **es = NULL;
    if (!expr_list(d, dr->columns, dr->n_columns, ".columns", depth + 1, &es)) return NULL;
    Node *n = df_op(d, DF_DROP, dr->input, depth);
    if (!n) return NULL;
    node_set_exprs(d->a, n, es, (uint32_t)dr->n_columns);
    df_names(d, n, dr->column_names, dr->n_column_names);
    return n;
}

static Node *with_columns(Dec *d, const Spark__Connect__WithColumns *w, uint32_t depth) {
    Node **es = ARENA_ARRAY(d->a, Node *, w->n_aliases + 1);
    const char **names = ARENA_ARRAY(d->a, const char *, w->n_aliases + 1);
    const char **meta = ARENA_ARRAY(d->a, const char *, w->n_aliases + 1);
    for (size_t i = 0; i < w->n_aliases; i++) {
        const Spark__Connect__Expression__Alias *al = w->aliases[i];
        size_t mark = push_idx(d, ".aliases", i);
        if (al->n_name != 1) {
            invalid(d, "a column added by withColumns has one name part, not %zu", al->n_name);
            pop(d, mark);
            return NULL;
        }
        names[i] = arena_strdup(d->a, al->name[0]);
        meta[i] = al->_metadata_case ? arena_strdup(d->a, al->metadata) : NULL;
        es[i] = sub_expr(d, al->expr, ".expr", depth + 1);
        pop(d, mark);
        if (!es[i]) return NULL;
    }
    Node *n = df_op(d, DF_WITH_COLUMNS, w->input, depth);
    if (!n) return NULL;
    node_set_exprs(d->a, n, es, (uint32_t)w->n_aliases);
    n->u.dfop.names = names;
    n->u.dfop.texts = meta;
    n->u.dfop.nnames = (uint32_t)w->n_aliases;
    return n;
}

static Node *with_columns_renamed(Dec *d, const Spark__Connect__WithColumnsRenamed *w, uint32_t depth) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* rename_columns_map: older clients send it */
    size_t count = w->n_renames ? w->n_renames : w->n_rename_columns_map;
    const char **from = ARENA_ARRAY(d->a, const char *, count + 1), **to = ARENA_ARRAY(d->a, const char *, count + 1);
    for (size_t i = 0; i < count; i++) {
        from[i] = arena_strdup(d->a, w->n_renames ? w->renames[i]->col_name : w->rename_columns_map[i]->key);
        to[i] = arena_strdup(d->a, w->n_renames ? w->renames[i]->new_col_name : w->rename_columns_map[i]->value);
    }
#pragma GCC diagnostic pop
    Node *n = df_op(d, DF_WITH_COLUMNS_RENAMED, w->input, depth);
    if (!n) return NULL;
    n->u.dfop.names = from;
    n->u.dfop.names2 = to;
    n->u.dfop.nnames = (uint32_t)count;
    return n;
}

static Node *unpivot(Dec *d, const Spark__Connect__Unpivot *u, uint32_t depth) {
    size_t nvals = u->_values_case && u->values ? u->values->n_values : 0;
    Node **ids = NULL, **vals = NULL;
    if (!expr_list(d, u->ids, u->n_ids, ".ids", depth + 1, &ids)) return NULL;
    if (nvals) {
        size_t mark = push(d, ".values");
        bool ok = expr_list(d, u->values->values, nvals, ".values", depth + 1, &vals);
        pop(d, mark);
        if (!ok) return NULL;
    }
    Node *n = df_op(d, DF_UNPIVOT, u->input, depth);
    if (!n) return NULL;
    Node **all = ARENA_ARRAY(d->a, Node *, u->n_ids + nvals + 1);
    for (size_t i = 0; i < u->n_ids; i++) all[i] = ids[i];
    for (size_t i = 0; i < nvals; i++) all[u->n_ids + i] = vals[i];
    node_set_exprs(d->a, n, all, (uint32_t)(u->n_ids + nvals));
    n->u.dfop.n = (int64_t)u->n_ids;
    n->u.dfop.flag = u->_values_case && u->values;
    char *names[2] = {u->variable_column_name, u->value_column_name};
    df_names(d, n, names, 2);
    return n;
}

static Node *na_fill(Dec *d, const Spark__Connect__NAFill *f, uint32_t depth) {
    if (!f->n_values) return invalid(d, "values must contains at least 1 item!");
    if (f->n_values > 1 && f->n_values != f->n_cols)
        return invalid(d, "When values contains more than 1 items, values and cols should have the same length!");
    Node **vs = ARENA_ARRAY(d->a, Node *, f->n_values);
    if (!literal_exprs(d, f->values, f->n_values, ".values", vs)) return NULL;
    Node *n = df_op(d, DF_FILL_NA, f->input, depth);
    if (!n) return NULL;
    node_set_exprs(d->a, n, vs, (uint32_t)f->n_values);
    df_names(d, n, f->cols, f->n_cols);
    return n;
}

static Node *na_drop(Dec *d, const Spark__Connect__NADrop *dr, uint32_t depth) {
    Node *n = df_op(d, DF_DROP_NA, dr->input, depth);
    if (!n) return NULL;
    df_names(d, n, dr->cols, dr->n_cols);
    n->u.dfop.n = dr->_min_non_nulls_case ? dr->min_non_nulls : -1;
    return n;
}

static Node *na_replace(Dec *d, const Spark__Connect__NAReplace *r, uint32_t depth) {
    Node **vs = ARENA_ARRAY(d->a, Node *, 2 * r->n_replacements + 1);
    for (size_t i = 0; i < r->n_replacements; i++) {
        size_t mark = push_idx(d, ".replacements", i);
        Lit *pair[2] = {r->replacements[i]->old_value, r->replacements[i]->new_value};
        bool ok = literal_exprs(d, &pair[0], 1, ".old_value", &vs[2 * i]) &&
                  literal_exprs(d, &pair[1], 1, ".new_value", &vs[2 * i + 1]);
        pop(d, mark);
        if (!ok) return NULL;
    }
    Node *n = df_op(d, DF_REPLACE, r->input, depth);
    if (!n) return NULL;
    node_set_exprs(d->a, n, vs, (uint32_t)(2 * r->n_replacements));
    df_names(d, n, r->cols, r->n_cols);
    return n;
}

/* Dataset parsed from a Dataset[String] (spark.read.csv/json(ds)): the rows come from the
   client, so the plan is a LogicalRDD with the schema it was given */
static Node *parse(Dec *d, const Spark__Connect__Parse *p, uint32_t depth) {
    if (p->format != SPARK__CONNECT__PARSE__PARSE_FORMAT__PARSE_FORMAT_CSV &&
        p->format != SPARK__CONNECT__PARSE__PARSE_FORMAT__PARSE_FORMAT_JSON)
        return invalid(d, "format must be PARSE_FORMAT_CSV or PARSE_FORMAT_JSON");
    if (!p->_schema_case || !p->schema)
        return unsupported(d, "parse without a schema infers it from the data; Catalyzer does not read data");
    Node *in = input(d, p->input, depth);
    if (!in) return NULL;
    const DataType *t = dtype(d, p->schema, ".schema");
    if (!t) return NULL;
    if (t->id != T_STRUCT) return invalid(d, "the schema of a parsed Dataset must be a struct");
    Node *n = node_new(d->a, NK_LogicalRDD, -1, -1);
    node_set_exprs(d->a, n, attributes_of(d, t), (uint32_t)t->nfields);
    return n;
}

/* spark.read.format(f).schema(s).load(paths): a file relation of that format and schema */
static Node *data_source(Dec *d, const Spark__Connect__Read__DataSource *ds) {
    const char *fmt = ds->_format_case ? ds->format : "parquet"; /* spark.sql.sources.default */
    if (ds->n_predicates) return unsupported(d, "JDBC partition predicates are not supported");
    if (!ds->_schema_case || !*ds->schema)
        return unsupported(d, "a data source read without a schema infers it from the files; Catalyzer does not read data");
    const DataType *t = schema_struct(d, ds->schema, ".schema");
    if (!t) return NULL;
    TableDef *td = ARENA_NEW(d->a, TableDef);
    td->catalog = "";
    td->ns = "";
    td->name = "";
    td->provider = arena_strdup(d->a, fmt);
    Node *n = node_new(d->a, NK_Relation, -1, -1);
    n->u.relation.name = (NameParts){0, NULL};
    n->u.relation.table = td;
    node_set_exprs(d->a, n, attributes_of(d, t), (uint32_t)t->nfields);
    return n;
}

static Node *rel_body(Dec *d, const Rel *r, uint32_t depth);

static Node *rel(Dec *d, const Rel *r, uint32_t depth) {
    if (!r) return invalid(d, "relation missing");
    if (!enter(d, depth)) return NULL;
    Node *n = rel_body(d, r, depth);
    if (!n) return NULL;
    /* rel_body hands back an unfinished node (or a copy of a finished one). */
    if (r->common && r->common->_plan_id_case) {
        if (!plan_id_of(d, r->common->plan_id, &n->plan_id)) return NULL;
        note_id(d, r->common->plan_id);
    }
    return node_finish(n);
}

static Node *rel_body(Dec *d, const Rel *r, uint32_t depth) {
    Node *n = NULL;
    size_t mark;
    switch (r->rel_type_case) {
    case SPARK__CONNECT__RELATION__REL_TYPE_READ: {
        const Spark__Connect__Read *rd = r->read;
        mark = push(d, ".read");
        if (rd->read_type_case == SPARK__CONNECT__READ__READ_TYPE_NAMED_TABLE) {
            size_t m2 = push(d, ".named_table");
            n = node_new(d->a, NK_UnresolvedRelation, -1, -1);
            if (!sql_identifier(d, rd->named_table->unparsed_identifier, &n->u.un.name, "unparsed_identifier")) n = NULL;
            else n->u.un.is_streaming = rd->is_streaming;
            pop(d, m2);
        } else if (rd->read_type_case == SPARK__CONNECT__READ__READ_TYPE_DATA_SOURCE) {
            size_t m2 = push(d, ".data_source");
            n = rd->is_streaming ? unsupported(d, "streaming reads are not supported") : data_source(d, rd->data_source);
            pop(d, m2);
        } else {
            n = invalid(d, "Read.read_type is not set");
        }
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_PROJECT: {
        const Spark__Connect__Project *p = r->project;
        mark = push(d, ".project");
        Node *c = p->input ? input(d, p->input, depth) : node_finish(node_new(d->a, NK_OneRowRelation, -1, -1));
        Node **es = NULL;
        if (c && expr_list(d, p->expressions, p->n_expressions, ".expressions", depth + 1, &es)) {
            for (size_t i = 0; i < p->n_expressions; i++) es[i] = named(d, es[i]);
            n = node_new(d->a, NK_Project, -1, -1);
            node_set_kids(d->a, n, &c, 1);
            node_set_exprs(d->a, n, es, (uint32_t)p->n_expressions);
        }
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_FILTER: {
        mark = push(d, ".filter");
        Node *cond = NULL;
        if ((n = unary(d, NK_Filter, r->filter->input, depth)) &&
            (cond = sub_expr(d, r->filter->condition, ".condition", depth + 1)))
            node_set_exprs(d->a, n, &cond, 1);
        pop(d, mark);
        return cond ? n : NULL;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_JOIN:
        mark = push(d, ".join");
        n = join(d, r->join, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_SET_OP:
        mark = push(d, ".set_op");
        n = set_operation(d, r->set_op, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_SORT: {
        const Spark__Connect__Sort *s = r->sort;
        mark = push(d, ".sort");
        Node **o = ARENA_ARRAY(d->a, Node *, s->n_order ? s->n_order : 1);
        bool ok = s->n_order > 0 || invalid(d, "'order' must be present and contain elements.");
        if (ok && !(n = unary(d, NK_Sort, s->input, depth))) ok = false;
        for (size_t i = 0; ok && i < s->n_order; i++) {
            size_t m2 = push_idx(d, ".order", i);
            o[i] = enter(d, depth + 1) ? sort_order(d, s->order[i], -1, -1, depth + 1) : NULL;
            pop(d, m2);
            ok = o[i] != NULL;
        }
        pop(d, mark);
        if (!ok) return NULL;
        node_set_exprs(d->a, n, o, (uint32_t)s->n_order);
        n->u.sort.global = s->_is_global_case && s->is_global;
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_LIMIT: {
        mark = push(d, ".limit");
        /* Limit(n, child) = GlobalLimit(n, LocalLimit(n, child)) */
        Node *local = unary(d, NK_LocalLimit, r->limit->input, depth);
        pop(d, mark);
        if (!local) return NULL;
        Node *l1 = lit_int(d, r->limit->limit, &TYPE_INT);
        node_set_exprs(d->a, local, &l1, 1);
        local = node_finish(local);
        n = node_new(d->a, NK_GlobalLimit, -1, -1);
        node_set_kids(d->a, n, &local, 1);
        Node *l2 = lit_int(d, r->limit->limit, &TYPE_INT);
        node_set_exprs(d->a, n, &l2, 1);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_OFFSET:
    case SPARK__CONNECT__RELATION__REL_TYPE_TAIL: {
        bool tail = r->rel_type_case == SPARK__CONNECT__RELATION__REL_TYPE_TAIL;
        mark = push(d, tail ? ".tail" : ".offset");
        n = unary(d, tail ? NK_Tail : NK_Offset, tail ? r->tail->input : r->offset->input, depth);
        pop(d, mark);
        if (!n) return NULL;
        Node *l = lit_int(d, tail ? r->tail->limit : r->offset->offset, &TYPE_INT);
        node_set_exprs(d->a, n, &l, 1);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_AGGREGATE:
        mark = push(d, ".aggregate");
        n = aggregate(d, r->aggregate, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_SQL:
        mark = push(d, ".sql");
        n = decode_sql(d, r->sql, depth);
        pop(d, mark);
        if (n) n = node_copy(d->a, n); /* finished by the parser; rel() may set its plan id */
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_SUBQUERY_ALIAS: {
        const Spark__Connect__SubqueryAlias *s = r->subquery_alias;
        mark = push(d, ".subquery_alias");
        if (!s->alias || !*s->alias) n = invalid(d, "alias is empty");
        else if ((n = unary(d, NK_SubqueryAlias, s->input, depth))) {
            const char **parts = ARENA_ARRAY(d->a, const char *, s->n_qualifier + 1);
            for (size_t i = 0; i < s->n_qualifier; i++) parts[i] = arena_strdup(d->a, s->qualifier[i]);
            parts[s->n_qualifier] = arena_strdup(d->a, s->alias);
            n->u.alias.name = name_parts(d->a, (uint32_t)s->n_qualifier + 1, parts);
        }
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_DEDUPLICATE: {
        const Spark__Connect__Deduplicate *dd = r->deduplicate;
        bool all = dd->_all_columns_as_keys_case && dd->all_columns_as_keys;
        mark = push(d, ".deduplicate");
        if (!dd->input) n = invalid(d, "Deduplicate needs a plan input");
        else if (all && dd->n_column_names) n = invalid(d, "Cannot deduplicate on both all columns and a subset of columns");
        else if (!all && !dd->n_column_names)
            n = invalid(d, "Deduplicate requires to either deduplicate on all columns or a subset of columns");
        else if (dd->_within_watermark_case && dd->within_watermark)
            n = unsupported(d, "dropDuplicatesWithinWatermark is a streaming operation");
        else if ((n = df_op(d, DF_DEDUPLICATE, dd->input, depth))) {
            n->u.dfop.flag = all;
            df_names(d, n, dd->column_names, dd->n_column_names);
        }
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_WITH_RELATIONS: {
        const Spark__Connect__WithRelations *w = r->with_relations;
        mark = push(d, ".with_relations");
        for (size_t i = 0; i < w->n_references; i++)
            if (!w->references[i]->common || !w->references[i]->common->_plan_id_case) {
                push_idx(d, ".references", i);
                n = invalid(d, "Invalid WithRelation reference: a reference needs a plan id");
                pop(d, mark);
                return NULL;
            }
        RefScope scope = {d->scope, w->n_references, w->references};
        d->scope = &scope;
        size_t m2 = push(d, ".root");
        Node *root = w->root ? rel(d, w->root, depth + 1) : invalid(d, "root is required");
        pop(d, m2);
        d->scope = scope.outer;
        pop(d, mark);
        if (!root) return NULL;
        if (w->root->rel_type_case == SPARK__CONNECT__RELATION__REL_TYPE_SQL)
            return unsupported(d, "SQL with DataFrame references (WithRelations over SQL) is not supported yet");
        /* The planner wraps the root in Project [*] to keep its plan id. */
        Node *star = node_finish(node_new(d->a, NK_UnresolvedStar, -1, -1));
        n = node_new(d->a, NK_Project, -1, -1);
        node_set_kids(d->a, n, &root, 1);
        node_set_exprs(d->a, n, &star, 1);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_UNRESOLVED_TABLE_VALUED_FUNCTION: {
        const Spark__Connect__UnresolvedTableValuedFunction *f = r->unresolved_table_valued_function;
        mark = push(d, ".unresolved_table_valued_function");
        Node **args;
        if (expr_list(d, f->arguments, f->n_arguments, ".arguments", depth + 1, &args)) {
            n = node_new(d->a, NK_UnresolvedTableValuedFunction, -1, -1);
            if (!sql_identifier(d, f->function_name, &n->u.un.name, "function_name")) n = NULL;
            else {
                n->u.un.nargs = (uint32_t)f->n_arguments;
                node_set_exprs(d->a, n, args, (uint32_t)f->n_arguments);
            }
        }
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_LATERAL_JOIN:
        return unsupported(d, "lateral_join is not supported yet");
    case SPARK__CONNECT__RELATION__REL_TYPE_LOCAL_RELATION:
        mark = push(d, ".local_relation");
        n = local_relation(d, r->local_relation);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_RANGE: {
        const Spark__Connect__Range *rg = r->range;
        mark = push(d, ".range");
        if (rg->step == 0) n = invalid(d, "requirement failed: step (0) cannot be 0");
        else {
            n = node_new(d->a, NK_Range, -1, -1);
            n->u.range.start = rg->_start_case ? rg->start : 0;
            n->u.range.end = rg->end;
            n->u.range.step = rg->step;
            /* without num_partitions Spark takes the session's leaf-node parallelism */
            n->u.range.num_slices = rg->_num_partitions_case ? rg->num_partitions : d->opt->default_parallelism;
            Node *id = attribute(d, "id", &TYPE_LONG, false);
            node_set_exprs(d->a, n, &id, 1);
        }
        pop(d, mark);
        return n;
    }
    case SPARK__CONNECT__RELATION__REL_TYPE_SAMPLE:
        mark = push(d, ".sample");
        n = sample(d, r->sample, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_REPARTITION:
        mark = push(d, ".repartition");
        n = repartition(d, r->repartition, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_REPARTITION_BY_EXPRESSION:
        mark = push(d, ".repartition_by_expression");
        n = repartition_by_expression(d, r->repartition_by_expression, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_TO_DF:
        mark = push(d, ".to_df");
        if ((n = df_op(d, DF_TO_DF, r->to_df->input, depth))) df_names(d, n, r->to_df->column_names, r->to_df->n_column_names);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_WITH_COLUMNS_RENAMED:
        mark = push(d, ".with_columns_renamed");
        n = with_columns_renamed(d, r->with_columns_renamed, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_WITH_COLUMNS:
        mark = push(d, ".with_columns");
        n = with_columns(d, r->with_columns, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_DROP:
        mark = push(d, ".drop");
        n = drop_columns(d, r->drop, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_HINT:
        mark = push(d, ".hint");
        n = hint(d, r->hint, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_UNPIVOT:
        mark = push(d, ".unpivot");
        n = unpivot(d, r->unpivot, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_TO_SCHEMA: return unsupported(d, "to_schema is not supported yet");
    case SPARK__CONNECT__RELATION__REL_TYPE_PARSE:
        mark = push(d, ".parse");
        n = parse(d, r->parse, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_FILL_NA:
        mark = push(d, ".fill_na");
        n = na_fill(d, r->fill_na, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_DROP_NA:
        mark = push(d, ".drop_na");
        n = na_drop(d, r->drop_na, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_REPLACE:
        mark = push(d, ".replace");
        n = na_replace(d, r->replace, depth);
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_FREQ_ITEMS:
        mark = push(d, ".freq_items");
        if ((n = df_op(d, DF_FREQ_ITEMS, r->freq_items->input, depth))) {
            df_names(d, n, r->freq_items->cols, r->freq_items->n_cols);
            n->u.dfop.number = r->freq_items->_support_case ? r->freq_items->support : 0.01;
        }
        pop(d, mark);
        return n;
    case SPARK__CONNECT__RELATION__REL_TYPE_SUMMARY:
    case SPARK__CONNECT__RELATION__REL_TYPE_DESCRIBE:
    case SPARK__CONNECT__RELATION__REL_TYPE_CROSSTAB:
    case SPARK__CONNECT__RELATION__REL_TYPE_COV:
    case SPARK__CONNECT__RELATION__REL_TYPE_CORR:
    case SPARK__CONNECT__RELATION__REL_TYPE_SAMPLE_BY:
        return unsupported(d, "DataFrame statistics functions are not supported yet");
    case SPARK__CONNECT__RELATION__REL_TYPE_APPROX_QUANTILE:
        return unsupported(d, "approx_quantile computes its result from the data; Catalyzer does not execute plans");
    case SPARK__CONNECT__RELATION__REL_TYPE_SHOW_STRING:
    case SPARK__CONNECT__RELATION__REL_TYPE_HTML_STRING:
        return unsupported(d, "show_string / html_string render data; Catalyzer does not execute plans");
    case SPARK__CONNECT__RELATION__REL_TYPE_WITH_WATERMARK:
        return unsupported(d, "with_watermark is a streaming operation; streaming is not supported");
    case SPARK__CONNECT__RELATION__REL_TYPE_CACHED_LOCAL_RELATION:
    case SPARK__CONNECT__RELATION__REL_TYPE_CACHED_REMOTE_RELATION:
        return unsupported(d, "cached relations (artifacts, checkpoints) are not supported");
    case SPARK__CONNECT__RELATION__REL_TYPE_MAP_PARTITIONS:
    case SPARK__CONNECT__RELATION__REL_TYPE_GROUP_MAP:
    case SPARK__CONNECT__RELATION__REL_TYPE_CO_GROUP_MAP:
    case SPARK__CONNECT__RELATION__REL_TYPE_APPLY_IN_PANDAS_WITH_STATE:
    case SPARK__CONNECT__RELATION__REL_TYPE_COMMON_INLINE_USER_DEFINED_TABLE_FUNCTION:
    case SPARK__CONNECT__RELATION__REL_TYPE_COMMON_INLINE_USER_DEFINED_DATA_SOURCE:
        return unsupported(d, "relations defined by user code (UDFs, UDTFs, data sources) are not supported");
    case SPARK__CONNECT__RELATION__REL_TYPE_COLLECT_METRICS: return unsupported(d, "collect_metrics is not supported yet");
    case SPARK__CONNECT__RELATION__REL_TYPE_AS_OF_JOIN: return unsupported(d, "as_of_join is not supported");
    case SPARK__CONNECT__RELATION__REL_TYPE_TRANSPOSE: return unsupported(d, "transpose is not supported");
    case SPARK__CONNECT__RELATION__REL_TYPE_CATALOG: return unsupported(d, "Catalog API relations are not supported yet");
    case SPARK__CONNECT__RELATION__REL_TYPE_EXTENSION:
        return unsupported(d, "relation extensions (%s) are not supported", r->extension->type_url);
    case SPARK__CONNECT__RELATION__REL_TYPE_UNKNOWN: return invalid(d, "Unknown relation not supported.");
    default:
        if (r->base.n_unknown_fields) {
            /* Spark 4.0's ml_relation is a relation Catalyzer does not take;
               any other field number is no relation type at all */
            unsigned tag = r->base.unknown_fields[0].tag;
            if (tag == 300) return unsupported(d, "Relation field 300 (ml_relation) is not a relation type Catalyzer decodes");
            return invalid(d, "Relation field %u is not a Spark Connect relation type", tag);
        }
        return invalid(d, "Relation.rel_type is not set");
    }
}

Node *plan_decode(Arena *a, const Spark__Connect__Relation *r, const DecodeLimits *lim, const DecodeOptions *opts,
                  DecodeResult *res) {
    DecodeOptions dflt = {.ansi = true};
    Dec d = {.a = a, .lim = lim, .opt = opts ? opts : &dflt, .res = res, .next_id = opts ? opts->first_id : 0};
    memset(res, 0, sizeof *res);
    snprintf(d.path, sizeof d.path, "relation");
    d.plen = strlen(d.path);
    Node *n = rel(&d, r, 1);
    if (d.failed) return NULL;
    /* Every plan id a column names must be the id of a relation in the plan. */
    for (size_t i = 0; i < d.nrefs; i++) {
        bool found = false;
        for (size_t k = 0; k < d.nids && !found; k++) found = d.ids[k] == d.refs[i].id;
        if (!found) {
            snprintf(d.path, sizeof d.path, "%s", d.refs[i].where);
            d.plen = strlen(d.path);
            invalid(&d, "plan_id %lld matches no relation in the plan", (long long)d.refs[i].id);
            return NULL;
        }
    }
    res->status = DECODE_OK;
    return n;
}
