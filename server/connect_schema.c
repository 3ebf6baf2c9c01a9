/* Spark Connect types and schema texts (see connect_schema.h). */
#include "connect_schema.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/collation.h"
#include "core/strbuf.h"

typedef Spark__Connect__DataType PType;

static void *fail(char *err, size_t errlen, const char *fmt, const char *arg) {
    if (err && errlen) snprintf(err, errlen, fmt, arg ? arg : "");
    return NULL;
}

/* ---------------------------------------------------------------- encode */

#define NEWMSG(T, init)                    \
    ({                                     \
        T *m_ = arena_alloc(a, sizeof(T)); \
        init(m_);                          \
        m_;                                \
    })

Spark__Connect__DataType *connect_type_encode(Arena *a, const DataType *t) {
    PType *o = NEWMSG(PType, spark__connect__data_type__init);
    switch (t->id) {
    case T_NULL:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_NULL;
        o->null = NEWMSG(Spark__Connect__DataType__NULL, spark__connect__data_type__null__init);
        break;
    case T_BOOLEAN:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_BOOLEAN;
        o->boolean = NEWMSG(Spark__Connect__DataType__Boolean, spark__connect__data_type__boolean__init);
        break;
    case T_BYTE:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_BYTE;
        o->byte = NEWMSG(Spark__Connect__DataType__Byte, spark__connect__data_type__byte__init);
        break;
    case T_SHORT:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_SHORT;
        o->short_ = NEWMSG(Spark__Connect__DataType__Short, spark__connect__data_type__short__init);
        break;
    case T_INT:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_INTEGER;
        o->integer = NEWMSG(Spark__Connect__DataType__Integer, spark__connect__data_type__integer__init);
        break;
    case T_LONG:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_LONG;
        o->long_ = NEWMSG(Spark__Connect__DataType__Long, spark__connect__data_type__long__init);
        break;
    case T_FLOAT:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_FLOAT;
        o->float_ = NEWMSG(Spark__Connect__DataType__Float, spark__connect__data_type__float__init);
        break;
    case T_DOUBLE:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_DOUBLE;
        o->double_ = NEWMSG(Spark__Connect__DataType__Double, spark__connect__data_type__double__init);
        break;
    case T_DECIMAL:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_DECIMAL;
        o->decimal = NEWMSG(Spark__Connect__DataType__Decimal, spark__connect__data_type__decimal__init);
        o->decimal->_precision_case = SPARK__CONNECT__DATA_TYPE__DECIMAL___PRECISION_PRECISION;
        o->decimal->precision = t->precision;
        o->decimal->_scale_case = SPARK__CONNECT__DATA_TYPE__DECIMAL___SCALE_SCALE;
        o->decimal->scale = t->scale;
        break;
    case T_STRING:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_STRING;
        o->string = NEWMSG(Spark__Connect__DataType__String, spark__connect__data_type__string__init);
        /* the collation's name, as DataTypeProtoConverter sets it (left empty for UTF8_BINARY) */
        if (t->collation != COLLATION_UTF8_BINARY) o->string->collation = (char *)collation_name(a, t->collation);
        break;
    case T_CHAR:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_CHAR;
        o->char_ = NEWMSG(Spark__Connect__DataType__Char, spark__connect__data_type__char__init);
        o->char_->length = t->length;
        break;
    case T_VARCHAR:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_VAR_CHAR;
        o->var_char = NEWMSG(Spark__Connect__DataType__VarChar, spark__connect__data_type__var_char__init);
        o->var_char->length = t->length;
        break;
    case T_BINARY:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_BINARY;
        o->binary = NEWMSG(Spark__Connect__DataType__Binary, spark__connect__data_type__binary__init);
        break;
    case T_DATE:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_DATE;
        o->date = NEWMSG(Spark__Connect__DataType__Date, spark__connect__data_type__date__init);
        break;
    case T_TIMESTAMP:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_TIMESTAMP;
        o->timestamp = NEWMSG(Spark__Connect__DataType__Timestamp, spark__connect__data_type__timestamp__init);
        break;
    case T_TIMESTAMP_NTZ:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_TIMESTAMP_NTZ;
        o->timestamp_ntz =
            NEWMSG(Spark__Connect__DataType__TimestampNTZ, spark__connect__data_type__timestamp_ntz__init);
        break;
    case T_YM_INTERVAL:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_YEAR_MONTH_INTERVAL;
        o->year_month_interval =
            NEWMSG(Spark__Connect__DataType__YearMonthInterval, spark__connect__data_type__year_month_interval__init);
        o->year_month_interval->_start_field_case =
            SPARK__CONNECT__DATA_TYPE__YEAR_MONTH_INTERVAL___START_FIELD_START_FIELD;
        o->year_month_interval->start_field = t->start_field;
        o->year_month_interval->_end_field_case = SPARK__CONNECT__DATA_TYPE__YEAR_MONTH_INTERVAL___END_FIELD_END_FIELD;
        o->year_month_interval->end_field = t->end_field;
        break;
    case T_DT_INTERVAL:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_DAY_TIME_INTERVAL;
        o->day_time_interval =
            NEWMSG(Spark__Connect__DataType__DayTimeInterval, spark__connect__data_type__day_time_interval__init);
        o->day_time_interval->_start_field_case = SPARK__CONNECT__DATA_TYPE__DAY_TIME_INTERVAL___START_FIELD_START_FIELD;
        o->day_time_interval->start_field = t->start_field;
        o->day_time_interval->_end_field_case = SPARK__CONNECT__DATA_TYPE__DAY_TIME_INTERVAL___END_FIELD_END_FIELD;
        o->day_time_interval->end_field = t->end_field;
        break;
    case T_CALENDAR_INTERVAL:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_CALENDAR_INTERVAL;
        o->calendar_interval =
            NEWMSG(Spark__Connect__DataType__CalendarInterval, spark__connect__data_type__calendar_interval__init);
        break;
    case T_ARRAY:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_ARRAY;
        o->array = NEWMSG(Spark__Connect__DataType__Array, spark__connect__data_type__array__init);
        o->array->element_type = connect_type_encode(a, t->elem);
        o->array->contains_null = t->contains_null;
        break;
    case T_MAP:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_MAP;
        o->map = NEWMSG(Spark__Connect__DataType__Map, spark__connect__data_type__map__init);
        o->map->key_type = connect_type_encode(a, t->elem);
        o->map->value_type = connect_type_encode(a, t->value);
        o->map->value_contains_null = t->contains_null;
        break;
    case T_STRUCT: {
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_STRUCT;
        o->struct_ = NEWMSG(Spark__Connect__DataType__Struct, spark__connect__data_type__struct__init);
        o->struct_->n_fields = (size_t)t->nfields;
        o->struct_->fields = ARENA_ARRAY(a, Spark__Connect__DataType__StructField *, t->nfields ? t->nfields : 1);
        for (int i = 0; i < t->nfields; i++) {
            Spark__Connect__DataType__StructField *f =
                NEWMSG(Spark__Connect__DataType__StructField, spark__connect__data_type__struct_field__init);
            f->name = (char *)t->fields[i].name;
            f->data_type = connect_type_encode(a, t->fields[i].type);
            f->nullable = t->fields[i].nullable;
            if (t->fields[i].comment) {
                StrBuf sb;
                sb_init(&sb, a, 64);
                sb_puts(&sb, "{\"comment\":");
                sb_put_json_string(&sb, t->fields[i].comment, strlen(t->fields[i].comment));
                sb_putc(&sb, '}');
                f->_metadata_case = SPARK__CONNECT__DATA_TYPE__STRUCT_FIELD___METADATA_METADATA;
                f->metadata = (char *)sb_str(&sb);
            }
            o->struct_->fields[i] = f;
        }
        break;
    }
    case T_VARIANT:
        o->kind_case = SPARK__CONNECT__DATA_TYPE__KIND_VARIANT;
        o->variant = NEWMSG(Spark__Connect__DataType__Variant, spark__connect__data_type__variant__init);
        break;
    case T_COUNT_: break;
    }
    return o;
}

/* ---------------------------------------------------------------- decode */

static const DataType *decode(Arena *a, const PType *t, unsigned depth, unsigned max_depth, char *err,
                              size_t errlen);

static const char *comment_from_metadata(Arena *a, const char *md) {
    if (!md || !*md) return NULL;
    json_error_t je;
    json_t *o = json_loads(md, 0, &je);
    const char *c = NULL;
    if (json_is_object(o) && json_is_string(json_object_get(o, "comment")))
        c = arena_strdup(a, json_string_value(json_object_get(o, "comment")));
    json_decref(o);
    return c;
}

static bool interval_fields(int has_start, int32_t start, int has_end, int32_t end, int lo, int hi, int *s, int *e) {
    *s = has_start ? start : lo;
    *e = has_end ? end : (has_start ? *s : hi);
    return *s >= lo && *s <= hi && *e >= *s && *e <= hi;
}

static const DataType *decode(Arena *a, const PType *t, unsigned depth, unsigned max_depth, char *err,
                              size_t errlen) {
    if (!t) return fail(err, errlen, "DataType missing%s", "");
    if (depth > max_depth) return fail(err, errlen, "DataType nesting exceeds the maximum depth%s", "");
    switch (t->kind_case) {
    case SPARK__CONNECT__DATA_TYPE__KIND_NULL: return &TYPE_NULL;
    case SPARK__CONNECT__DATA_TYPE__KIND_BINARY: return &TYPE_BINARY;
    case SPARK__CONNECT__DATA_TYPE__KIND_BOOLEAN: return &TYPE_BOOLEAN;
    case SPARK__CONNECT__DATA_TYPE__KIND_BYTE: return &TYPE_BYTE;
    case SPARK__CONNECT__DATA_TYPE__KIND_SHORT: return &TYPE_SHORT;
    case SPARK__CONNECT__DATA_TYPE__KIND_INTEGER: return &TYPE_INT;
    case SPARK__CONNECT__DATA_TYPE__KIND_LONG: return &TYPE_LONG;
    case SPARK__CONNECT__DATA_TYPE__KIND_FLOAT: return &TYPE_FLOAT;
    case SPARK__CONNECT__DATA_TYPE__KIND_DOUBLE: return &TYPE_DOUBLE;
    case SPARK__CONNECT__DATA_TYPE__KIND_DATE: return &TYPE_DATE;
    case SPARK__CONNECT__DATA_TYPE__KIND_TIMESTAMP: return &TYPE_TIMESTAMP;
    case SPARK__CONNECT__DATA_TYPE__KIND_TIMESTAMP_NTZ: return &TYPE_TIMESTAMP_NTZ;
    case SPARK__CONNECT__DATA_TYPE__KIND_CALENDAR_INTERVAL: return &TYPE_CALENDAR_INTERVAL;
    case SPARK__CONNECT__DATA_TYPE__KIND_VARIANT: return &TYPE_VARIANT;
    case SPARK__CONNECT__DATA_TYPE__KIND_STRING: {
        /* DataTypeProtoConverter.toCatalystStringType: StringType(collationNameToId(collation)),
           the default when empty; the qualified form SYSTEM.BUILTIN.<name> is read too. */
        const char *c = t->string->collation;
        if (!c || !*c) return &TYPE_STRING;
        if (strncasecmp(c, "SYSTEM.BUILTIN.", 15) == 0) c += 15;
        int32_t id;
        if (!collation_from_name(c, &id))
            return fail(err, errlen, "DataType.String.collation: \"%s\" is not a collation name", c);
        return type_string_collated(a, id);
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_DECIMAL: {
        const Spark__Connect__DataType__Decimal *d = t->decimal;
        int p = d->_precision_case ? d->precision : 10, s = d->_scale_case ? d->scale : 0;
        if (p < 1 || p > 38 || s < 0 || s > p) {
            char why[64];
            snprintf(why, sizeof why, "decimal(%d,%d)", p, s);
            return fail(err, errlen, "DataType.Decimal: invalid precision and scale %s", why);
        }
        return type_decimal(a, p, s);
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_CHAR:
    case SPARK__CONNECT__DATA_TYPE__KIND_VAR_CHAR: {
        bool is_char = t->kind_case == SPARK__CONNECT__DATA_TYPE__KIND_CHAR;
        int32_t n = is_char ? t->char_->length : t->var_char->length;
        if (n < 1) return fail(err, errlen, "DataType.%s.length must be positive", is_char ? "Char" : "VarChar");
        return type_char(a, is_char ? T_CHAR : T_VARCHAR, n);
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_YEAR_MONTH_INTERVAL: {
        const Spark__Connect__DataType__YearMonthInterval *i = t->year_month_interval;
        int s, e;
        if (!interval_fields(i->_start_field_case, i->start_field, i->_end_field_case, i->end_field, IF_YEAR, IF_MONTH,
                             &s, &e))
            return fail(err, errlen, "DataType.YearMonthInterval: invalid start/end field%s", "");
        return type_ym_interval(a, s, e);
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_DAY_TIME_INTERVAL: {
        const Spark__Connect__DataType__DayTimeInterval *i = t->day_time_interval;
        int s, e;
        if (!interval_fields(i->_start_field_case, i->start_field, i->_end_field_case, i->end_field, IF_DAY, IF_SECOND,
                             &s, &e))
            return fail(err, errlen, "DataType.DayTimeInterval: invalid start/end field%s", "");
        return type_dt_interval(a, s, e);
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_ARRAY: {
        const DataType *el = decode(a, t->array->element_type, depth + 1, max_depth, err, errlen);
        return el ? type_array(a, el, t->array->contains_null) : NULL;
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_MAP: {
        const DataType *k = decode(a, t->map->key_type, depth + 1, max_depth, err, errlen);
        const DataType *v = k ? decode(a, t->map->value_type, depth + 1, max_depth, err, errlen) : NULL;
        return v ? type_map(a, k, v, t->map->value_contains_null) : NULL;
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_STRUCT: {
        const Spark__Connect__DataType__Struct *st = t->struct_;
        StructField *f = ARENA_ARRAY(a, StructField, st->n_fields ? st->n_fields : 1);
        for (size_t i = 0; i < st->n_fields; i++) {
            const Spark__Connect__DataType__StructField *sf = st->fields[i];
            f[i].name = arena_strdup(a, sf->name);
            if (!(f[i].type = decode(a, sf->data_type, depth + 1, max_depth, err, errlen))) return NULL;
            f[i].nullable = sf->nullable;
            f[i].comment = sf->_metadata_case ? comment_from_metadata(a, sf->metadata) : NULL;
        }
        return type_struct(a, (int)st->n_fields, f);
    }
    case SPARK__CONNECT__DATA_TYPE__KIND_UNPARSED:
        return connect_parse_ddl(a, t->unparsed->data_type_string, err, errlen);
    case SPARK__CONNECT__DATA_TYPE__KIND_UDT:
        return fail(err, errlen, "DataType.UDT: user-defined type %s is not supported", t->udt->type);
    default: return fail(err, errlen, "DataType: no type set (kind missing or unknown)%s", "");
    }
}

const DataType *connect_type_decode(Arena *a, const Spark__Connect__DataType *t, unsigned max_depth, char *err,
                                    size_t errlen) {
    return decode(a, t, 0, max_depth ? max_depth : 1000, err, errlen);
}

/* ---------------------------------------------------------------- DDL */

static const char *skip_ws(const char *p) {
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

static bool keyword_at(const char *p, const char *kw) {
    size_t n = strlen(kw);
    return strncasecmp(p, kw, n) == 0 && !isalnum((unsigned char)p[n]) && p[n] != '_';
}

/* One column name: an identifier or a backquoted name (`` for `). */
static const char *column_name(Arena *a, const char **pp) {
    const char *p = *pp;
    StrBuf sb;
    sb_init(&sb, a, 16);
    if (*p == '`') {
        p++;
        for (;;) {
            if (!*p) return NULL;
            if (*p == '`') {
                if (p[1] != '`') break;
                p++;
            }
            sb_putc(&sb, *p++);
        }
        p++;
    } else {
        if (!isalnum((unsigned char)*p) && *p != '_') return NULL;
        while (isalnum((unsigned char)*p) || *p == '_') sb_putc(&sb, *p++);
    }
    *pp = p;
    return sb_str(&sb);
}

/* A quoted string literal ('...' or "..."), with backslash escapes. */
static const char *string_literal(Arena *a, const char **pp) {
    const char *p = *pp;
    char q = *p;
    if (q != '\'' && q != '"') return NULL;
    StrBuf sb;
    sb_init(&sb, a, 16);
    for (p++; *p && *p != q; p++) {
        if (*p == '\\' && p[1]) p++;
        sb_putc(&sb, *p);
    }
    if (*p != q) return NULL;
    *pp = p + 1;
    return sb_str(&sb);
}

/* Spark's parseTableSchema: name type [NOT NULL] [COMMENT 'text'], ... */
static const DataType *parse_table_schema(Arena *a, const char *s) {
    StructField f[256];
    int n = 0;
    const char *p = skip_ws(s);
    if (!*p) return NULL;
    for (;;) {
        if (n == (int)(sizeof f / sizeof f[0])) return NULL;
        const char *name = column_name(a, &p);
        if (!name || !isspace((unsigned char)*p)) return NULL;
        p = skip_ws(p);
        size_t used = 0;
        const char *why = NULL;
        const DataType *t = type_parse(a, p, strlen(p), &used, &why);
        if (!t || used == 0) return NULL;
        p = skip_ws(p + used);
        bool nullable = true;
        const char *comment = NULL;
        if (keyword_at(p, "NOT")) {
            p = skip_ws(p + 3);
            if (!keyword_at(p, "NULL")) return NULL;
            p = skip_ws(p + 4);
            nullable = false;
        }
        if (keyword_at(p, "COMMENT")) {
            p = skip_ws(p + 7);
            if (!(comment = string_literal(a, &p))) return NULL;
            p = skip_ws(p);
        }
        f[n++] = (StructField){name, t, nullable, comment};
        if (!*p) break;
        if (*p != ',') return NULL;
        p = skip_ws(p + 1);
    }
    return type_struct(a, n, f);
}

const DataType *connect_parse_ddl(Arena *a, const char *s, char *err, size_t errlen) {
    if (!s) s = "";
    const DataType *t = parse_table_schema(a, s);
    if (t) return t;
    const char *why = NULL;
    const char *p = skip_ws(s);
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1])) n--;
    if (n && (t = type_parse(a, p, n, NULL, &why))) return t;
    char *wrapped = arena_printf(a, "struct<%.*s>", (int)n, p);
    if (n && (t = type_parse(a, wrapped, strlen(wrapped), NULL, &why))) return t;
    return fail(err, errlen, "cannot parse the data type \"%s\"", s);
}

/* ---------------------------------------------------------------- JSON */

static const DataType *schema_json_type(Arena *a, const json_t *j, unsigned depth, char *err, size_t errlen);

static const DataType *json_named_type(Arena *a, const char *name, char *err, size_t errlen) {
    static const struct {
        const char *name;
        const DataType *t;
    } ATOMS[] = {
        {"null", &TYPE_NULL},       {"void", &TYPE_NULL},     {"boolean", &TYPE_BOOLEAN},
        {"byte", &TYPE_BYTE},       {"short", &TYPE_SHORT},   {"integer", &TYPE_INT},
        {"long", &TYPE_LONG},       {"float", &TYPE_FLOAT},   {"double", &TYPE_DOUBLE},
        {"string", &TYPE_STRING},   {"binary", &TYPE_BINARY}, {"date", &TYPE_DATE},
        {"timestamp", &TYPE_TIMESTAMP}, {"timestamp_ntz", &TYPE_TIMESTAMP_NTZ},
        {"interval", &TYPE_CALENDAR_INTERVAL}, {"variant", &TYPE_VARIANT},
    };
    for (size_t i = 0; i < sizeof ATOMS / sizeof ATOMS[0]; i++)
        if (strcmp(name, ATOMS[i].name) == 0) return ATOMS[i].t;
    if (strcmp(name, "decimal") == 0) return type_decimal(a, 10, 0);
    /* decimal(p,s), char(n), varchar(n), interval day to second, ...: the type grammar. */
    const char *why = NULL;
    const DataType *t = type_parse(a, name, strlen(name), NULL, &why);
    if (t && (t->id == T_DECIMAL || t->id == T_CHAR || t->id == T_VARCHAR || t->id == T_YM_INTERVAL ||
              t->id == T_DT_INTERVAL))
        return t;
    return fail(err, errlen, "unknown data type name \"%s\" in the JSON schema", name);
}

static const DataType *schema_json_type(Arena *a, const json_t *j, unsigned depth, char *err, size_t errlen) {
    if (depth > 1000) return fail(err, errlen, "JSON schema nesting too deep%s", "");
    if (json_is_string(j)) return json_named_type(a, json_string_value(j), err, errlen);
    if (!json_is_object(j)) return fail(err, errlen, "JSON schema: a type must be a string or an object%s", "");
    const char *kind = json_string_value(json_object_get(j, "type"));
    if (!kind) return fail(err, errlen, "JSON schema: object without \"type\"%s", "");
    if (strcmp(kind, "struct") == 0) {
        const json_t *fields = json_object_get(j, "fields");
        if (!json_is_array(fields)) return fail(err, errlen, "JSON schema: struct without \"fields\"%s", "");
        size_t n = json_array_size(fields);
        StructField *f = ARENA_ARRAY(a, StructField, n ? n : 1);
        for (size_t i = 0; i < n; i++) {
            const json_t *fj = json_array_get(fields, i);
            const char *name = json_string_value(json_object_get(fj, "name"));
            if (!name) return fail(err, errlen, "JSON schema: struct field without \"name\"%s", "");
            f[i].name = arena_strdup(a, name);
            if (!(f[i].type = schema_json_type(a, json_object_get(fj, "type"), depth + 1, err, errlen))) return NULL;
            const json_t *nl = json_object_get(fj, "nullable");
            f[i].nullable = nl ? json_is_true(nl) : true;
            const json_t *md = json_object_get(fj, "metadata");
            const char *c = json_is_object(md) ? json_string_value(json_object_get(md, "comment")) : NULL;
            f[i].comment = c ? arena_strdup(a, c) : NULL;
        }
        return type_struct(a, (int)n, f);
    }
    if (strcmp(kind, "array") == 0) {
        const DataType *el = schema_json_type(a, json_object_get(j, "elementType"), depth + 1, err, errlen);
        const json_t *cn = json_object_get(j, "containsNull");
        return el ? type_array(a, el, cn ? json_is_true(cn) : true) : NULL;
    }
    if (strcmp(kind, "map") == 0) {
        const DataType *k = schema_json_type(a, json_object_get(j, "keyType"), depth + 1, err, errlen);
        const DataType *v = k ? schema_json_type(a, json_object_get(j, "valueType"), depth + 1, err, errlen) : NULL;
        const json_t *cn = json_object_get(j, "valueContainsNull");
        return v ? type_map(a, k, v, cn ? json_is_true(cn) : true) : NULL;
    }
    if (strcmp(kind, "udt") == 0) return fail(err, errlen, "JSON schema: user-defined types are not supported%s", "");
    return fail(err, errlen, "JSON schema: unknown type \"%s\"", kind);
}

const DataType *connect_parse_json_type(Arena *a, const char *text, char *err, size_t errlen) {
    json_error_t je;
    json_t *j = json_loads(text ? text : "", JSON_DECODE_ANY, &je);
    if (!j) return fail(err, errlen, "invalid JSON schema: %s", je.text);
    const DataType *t = schema_json_type(a, j, 0, err, errlen);
    json_decref(j);
    return t;
}

const DataType *connect_parse_schema(Arena *a, const char *s, char *err, size_t errlen) {
    const DataType *t = connect_parse_ddl(a, s, err, errlen);
    if (t) return t;
    const char *p = skip_ws(s ? s : "");
    if (*p == '{' || *p == '"') return connect_parse_json_type(a, p, err, errlen);
    return NULL;
}

/* ---------------------------------------------------------------- printing */

/* QuotingUtils.quoteIfNeeded: plain names stay, others get backquotes. */
static void quote_if_needed(StrBuf *sb, const char *name) {
    bool plain = *name != '\0', digits = true;
    for (const char *p = name; *p; p++) {
        if (!isalnum((unsigned char)*p) && *p != '_') plain = false;
        if (!isdigit((unsigned char)*p)) digits = false;
    }
    if (plain && !digits)
        sb_puts(sb, name);
    else
        sb_put_quoted_ident(sb, name);
}

const char *connect_struct_to_ddl(Arena *a, const DataType *t) {
    StrBuf sb;
    sb_init(&sb, a, 64);
    if (t->id != T_STRUCT) {
        type_print_sql(&sb, t);
        return sb_str(&sb);
    }
    for (int i = 0; i < t->nfields; i++) {
        if (i) sb_putc(&sb, ',');
        quote_if_needed(&sb, t->fields[i].name);
        sb_putc(&sb, ' ');
        type_print_sql(&sb, t->fields[i].type);
        if (!t->fields[i].nullable) sb_puts(&sb, " NOT NULL");
        if (t->fields[i].comment) {
            sb_puts(&sb, " COMMENT '");
            for (const char *c = t->fields[i].comment; *c; c++) {
                if (*c == '\'' || *c == '\\') sb_putc(&sb, '\\');
                sb_putc(&sb, *c);
            }
            sb_putc(&sb, '\'');
        }
    }
    return sb_str(&sb);
}

static void type_name(StrBuf *sb, const DataType *t) {
    switch (t->id) {
    case T_NULL: sb_puts(sb, "void"); return;
    case T_BOOLEAN: sb_puts(sb, "boolean"); return;
    case T_BYTE: sb_puts(sb, "byte"); return;
    case T_SHORT: sb_puts(sb, "short"); return;
    case T_INT: sb_puts(sb, "integer"); return;
    case T_LONG: sb_puts(sb, "long"); return;
    case T_FLOAT: sb_puts(sb, "float"); return;
    case T_DOUBLE: sb_puts(sb, "double"); return;
    case T_STRING: sb_puts(sb, "string"); return;
    case T_BINARY: sb_puts(sb, "binary"); return;
    case T_DATE: sb_puts(sb, "date"); return;
    case T_TIMESTAMP: sb_puts(sb, "timestamp"); return;
    case T_TIMESTAMP_NTZ: sb_puts(sb, "timestamp_ntz"); return;
    case T_CALENDAR_INTERVAL: sb_puts(sb, "interval"); return;
    case T_ARRAY: sb_puts(sb, "array"); return;
    case T_MAP: sb_puts(sb, "map"); return;
    case T_STRUCT: sb_puts(sb, "struct"); return;
    case T_VARIANT: sb_puts(sb, "variant"); return;
    default: type_print_catalog(sb, t); return; /* decimal(p,s), char(n), interval day to second */
    }
}

const char *connect_type_name(Arena *a, const DataType *t) {
    StrBuf sb;
    sb_init(&sb, a, 16);
    type_name(&sb, t);
    return sb_str(&sb);
}

static void tree_fields(StrBuf *sb, const DataType *st, const char *prefix, int depth);

static void tree_nested(StrBuf *sb, const DataType *t, const char *prefix, int depth) {
    if (depth <= 0) return;
    if (t->id == T_STRUCT) {
        tree_fields(sb, t, prefix, depth);
    } else if (t->id == T_ARRAY) {
        sb_printf(sb, "%s-- element: ", prefix);
        type_name(sb, t->elem);
        sb_printf(sb, " (containsNull = %s)\n", t->contains_null ? "true" : "false");
        char *p = arena_printf(sb->arena, "%s    |", prefix);
        tree_nested(sb, t->elem, p, depth - 1);
    } else if (t->id == T_MAP) {
        char *p = arena_printf(sb->arena, "%s    |", prefix);
        sb_printf(sb, "%s-- key: ", prefix);
        type_name(sb, t->elem);
        sb_putc(sb, '\n');
        tree_nested(sb, t->elem, p, depth - 1);
        sb_printf(sb, "%s-- value: ", prefix);
        type_name(sb, t->value);
        sb_printf(sb, " (valueContainsNull = %s)\n", t->contains_null ? "true" : "false");
        tree_nested(sb, t->value, p, depth - 1);
    }
}

static void tree_fields(StrBuf *sb, const DataType *st, const char *prefix, int depth) {
    if (depth <= 0) return;
    for (int i = 0; i < st->nfields; i++) {
        sb_printf(sb, "%s-- ", prefix);
        /* escapeMetaCharacters: control characters shown as escapes */
        for (const char *c = st->fields[i].name; *c; c++) {
            switch (*c) {
            case '\n': sb_puts(sb, "\\n"); break;
            case '\r': sb_puts(sb, "\\r"); break;
            case '\t': sb_puts(sb, "\\t"); break;
            case '\f': sb_puts(sb, "\\f"); break;
            case '\b': sb_puts(sb, "\\b"); break;
            case '\v': sb_puts(sb, "\\v"); break;
            case '\a': sb_puts(sb, "\\a"); break;
            default: sb_putc(sb, *c);
            }
        }
        sb_puts(sb, ": ");
        type_name(sb, st->fields[i].type);
        sb_printf(sb, " (nullable = %s)\n", st->fields[i].nullable ? "true" : "false");
        char *p = arena_printf(sb->arena, "%s    |", prefix);
        tree_nested(sb, st->fields[i].type, p, depth - 1);
    }
}

const char *connect_tree_string(Arena *a, const DataType *t, int level) {
    StrBuf sb;
    sb_init(&sb, a, 256);
    sb_puts(&sb, "root\n");
    int depth = level > 0 ? level : 1 << 30;
    if (t->id == T_STRUCT) tree_fields(&sb, t, " |", depth);
    return sb_str(&sb);
}

static void type_json(StrBuf *sb, const DataType *t) {
    switch (t->id) {
    case T_STRUCT:
        sb_puts(sb, "{\"type\":\"struct\",\"fields\":[");
        for (int i = 0; i < t->nfields; i++) {
            if (i) sb_putc(sb, ',');
            sb_puts(sb, "{\"name\":");
            sb_put_json_string(sb, t->fields[i].name, strlen(t->fields[i].name));
            sb_puts(sb, ",\"type\":");
            type_json(sb, t->fields[i].type);
            sb_printf(sb, ",\"nullable\":%s,\"metadata\":{", t->fields[i].nullable ? "true" : "false");
            if (t->fields[i].comment) {
                sb_puts(sb, "\"comment\":");
                sb_put_json_string(sb, t->fields[i].comment, strlen(t->fields[i].comment));
            }
            sb_puts(sb, "}}");
        }
        sb_puts(sb, "]}");
        return;
    case T_ARRAY:
        sb_puts(sb, "{\"type\":\"array\",\"elementType\":");
        type_json(sb, t->elem);
        sb_printf(sb, ",\"containsNull\":%s}", t->contains_null ? "true" : "false");
        return;
    case T_MAP:
        sb_puts(sb, "{\"type\":\"map\",\"keyType\":");
        type_json(sb, t->elem);
        sb_puts(sb, ",\"valueType\":");
        type_json(sb, t->value);
        sb_printf(sb, ",\"valueContainsNull\":%s}", t->contains_null ? "true" : "false");
        return;
    default:
        sb_putc(sb, '"');
        type_name(sb, t);
        sb_putc(sb, '"');
    }
}

const char *connect_type_json(Arena *a, const DataType *t) {
    StrBuf sb;
    sb_init(&sb, a, 128);
    type_json(&sb, t);
    return sb_str(&sb);
}
