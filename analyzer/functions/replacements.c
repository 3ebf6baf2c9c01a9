/* Spark's RuntimeReplaceable expressions: what the optimizer's first rule,
 * ReplaceExpressions ("Finish Analysis"), replaces each with. A builder gets
 * the resolved call and returns the replacement, whose own replaceable parts
 * the rule replaces in turn:
 *
 *   nvl(a, b)            coalesce(a, b)
 *   left(s, n)           substring(s, 1, n)
 *   bool_or(x)           max(x)
 *   url_decode(s)        static_invoke(UrlCodec.decode(s, true))
 *   nullif(a, b)         With(a) { r => if ((r = b)) null else r }
 *
 * The last is a With expression: its common expression is evaluated once
 * (ReplaceCtx.common hands back what to refer to it by; RewriteWithExpression
 * puts a costly one in a Project below the operator as `_common_expr_N`).
 * StaticInvoke / Invoke print as Spark prints them: the Java method they call
 * and, for Invoke, the evaluator object's toString. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "print/printer.h"

/* Internal expressions that only replacements build: not callable by name. */
static const FuncDef STATIC_INVOKE = {.name = "static_invoke", .kind = FK_SCALAR, .print = CS_INVOKE,
                                      .flags = FD_NULLABLE};
static const FuncDef INVOKE = {.name = "invoke", .kind = FK_SCALAR, .print = CS_INVOKE, .flags = FD_NULLABLE};
static const FuncDef TRY_EVAL = {.name = "tryeval", .kind = FK_SCALAR, .flags = FD_NULLABLE};
static const FuncDef KNOWN_NOT_CONTAINS_NULL = {.name = "knownnotcontainsnull", .kind = FK_SCALAR};
static const FuncDef STRING_SPLIT_SQL = {.name = "stringsplitsql", .kind = FK_SCALAR};
/* ElementAt(left, right, defaultValueOutOfBound, failOnError = false) */
static const FuncDef ELEMENT_AT_NO_FAIL = {.name = "element_at", .kind = FK_SCALAR, .flags = FD_NULLABLE,
                                           .tostring_tail = "$<2, $?2, false"};
/* GetTimestamp(left, format, dataType, funcName, timeZoneId, failOnError) */
static const FuncDef GET_TIMESTAMP = {.name = "gettimestamp", .kind = FK_SCALAR, .flags = FD_NULLABLE,
                                      .tostring_tail = ", $T, try_to_timestamp, $Z, $A"};
static const FuncDef GET_TIMESTAMP_FOR_DATE = {.name = "gettimestamp", .kind = FK_SCALAR, .flags = FD_NULLABLE,
                                               .tostring_tail = ", $T, try_to_date, $Z, $A"};
static const FuncDef REGR_REPLACEMENT = {.name = "regrreplacement", .kind = FK_AGGREGATE, .flags = FD_NULLABLE};
/* Unhex(child, failOnError = true): to_binary's hex form */
static const FuncDef UNHEX_FAILING = {.name = "unhex", .kind = FK_SCALAR, .flags = FD_NULLABLE,
                                      .tostring_tail = ", true"};

static Node *arg(const Node *c, uint32_t i) { return i < c->nkids ? c->kids[i] : NULL; }

static Node *call(ReplaceCtx *c, const char *name, Node *const *args, int n, const Node *pos) {
    return fn_call_builtin(c->an, name, args, n, pos);
}
static Node *call1(ReplaceCtx *c, const char *name, Node *a, const Node *pos) { return call(c, name, &a, 1, pos); }
static Node *call2(ReplaceCtx *c, const char *name, Node *a, Node *b, const Node *pos) {
    Node *v[2] = {a, b};
    return a && b ? call(c, name, v, 2, pos) : NULL;
}
static Node *call3(ReplaceCtx *c, const char *name, Node *a, Node *b, Node *d, const Node *pos) {
    Node *v[3] = {a, b, d};
    return a && b && d ? call(c, name, v, 3, pos) : NULL;
}

static Node *internal(ReplaceCtx *c, const FuncDef *def, Node *const *args, int n, const DataType *t, const Node *pos) {
    for (int i = 0; i < n; i++)
        if (!args[i]) return NULL;
    return fn_mk_call(c->an, def, def->name, args, n, t, pos);
}

static Node *lit_str(ReplaceCtx *c, const char *s) { return fn_mk_str_lit(c->an->arena, s); }
static Node *lit_int(ReplaceCtx *c, int64_t v) { return fn_mk_int_lit(c->an->arena, v, &TYPE_INT); }
static Node *lit_bool(ReplaceCtx *c, bool b) {
    Node *n = fn_mk_literal(c->an->arena, &TYPE_BOOLEAN, false);
    n->u.lit.v.u.b = b;
    return node_finish(n);
}
static Node *lit_null(ReplaceCtx *c, const DataType *t) { return node_finish(fn_mk_literal(c->an->arena, t, true)); }

/* if (cond) a else b */
static Node *if_(ReplaceCtx *c, Node *cond, Node *a, Node *b, const Node *pos) { return call3(c, "if", cond, a, b, pos); }

/* StaticInvoke(cls, method, args) / Invoke(evaluator, "evaluate", args): `target` is what
   Spark prints before the arguments (`UrlCodec.decode`, `ParseUrlEvaluator(...).evaluate`). */
static Node *invoke(ReplaceCtx *c, bool is_static, const char *target, Node *const *args, int n, const DataType *t,
                    const Node *pos) {
    Node *r = internal(c, is_static ? &STATIC_INVOKE : &INVOKE, args, n, t, pos);
    if (!r) return NULL;
    Node *m = node_copy(c->an->arena, r);
    m->u.call.extra = arena_strdup(c->an->arena, target);
    return node_finish(m);
}

/* The call with failOnError given explicitly (its tail prints $A as this). */
static Node *with_fail_on_error(ReplaceCtx *c, Node *call_node, bool fail) {
    if (!call_node || call_node->kind != NK_Call) return call_node;
    Node *m = node_copy(c->an->arena, call_node);
    m->u.call.ansi = fail;
    return node_finish(m);
}

static const char *lit_text(const Node *n) { return n ? fn_lit_string(n) : NULL; }

/* ---- conditional and null functions ---- */

static Node *r_coalesce(ReplaceCtx *c, Node *e) { return call2(c, "coalesce", arg(e, 0), arg(e, 1), e); }

static Node *r_nullif(ReplaceCtx *c, Node *e) {
    Node *ref = c->common(c, arg(e, 0));
    if (!ref) return NULL;
    return if_(c, call2(c, "=", ref, arg(e, 1), e), lit_null(c, ref->type), ref, e);
}

static Node *r_nvl2(ReplaceCtx *c, Node *e) { return if_(c, call1(c, "isnotnull", arg(e, 0), e), arg(e, 1), arg(e, 2), e); }

static Node *r_between(ReplaceCtx *c, Node *e) {
    Node *ref = c->common(c, arg(e, 0));
    if (!ref) return NULL;
    return call2(c, "and", call2(c, ">=", ref, arg(e, 1), e), call2(c, "<=", ref, arg(e, 2), e), e);
}

static Node *r_assert_true(ReplaceCtx *c, Node *e) {
    Node *msg = arg(e, 1);
    if (!msg) {
        StrBuf sb;
        sb_init(&sb, c->an->arena, 32);
        sb_putc(&sb, '\'');
        expr_print_sql(&sb, arg(e, 0));
        sb_puts(&sb, "' is not true!");
        msg = lit_str(c, sb.data);
    }
    Node *raise = call2(c, "raise_error", lit_str(c, "USER_RAISED_EXCEPTION"),
                        call2(c, "map", lit_str(c, "errorMessage"), msg, e), e);
    return if_(c, arg(e, 0), lit_null(c, &TYPE_NULL), raise, e);
}

static Node *r_positive(ReplaceCtx *c, Node *e) {
    (void)c;
    return arg(e, 0);
}

/* ---- aggregates ---- */

static Node *r_max(ReplaceCtx *c, Node *e) { return call1(c, "max", arg(e, 0), e); }
static Node *r_min(ReplaceCtx *c, Node *e) { return call1(c, "min", arg(e, 0), e); }
static Node *r_any_value(ReplaceCtx *c, Node *e) { return call2(c, "first", arg(e, 0), arg(e, 1) ? arg(e, 1) : lit_bool(c, false), e); }
static Node *r_median(ReplaceCtx *c, Node *e) {
    Node *half = fn_mk_literal(c->an->arena, &TYPE_DOUBLE, false);
    half->u.lit.v.u.d = 0.5;
    return call2(c, "percentile", arg(e, 0), node_finish(half), e);
}
static Node *r_count_if(ReplaceCtx *c, Node *e) {
    /* Count(NullIf(child, false)), the NullIf replaced in turn */
    Node *x = arg(e, 0);
    Node *nullif = if_(c, call2(c, "=", x, lit_bool(c, false), e), lit_null(c, &TYPE_BOOLEAN), x, e);
    return call1(c, "count", nullif, e);
}
static Node *r_regr_count(ReplaceCtx *c, Node *e) { return call2(c, "count", arg(e, 0), arg(e, 1), e); }
/* RegrAvgY / RegrAvgX: the average of one side over rows where both are non-null */
static Node *regr_avg(ReplaceCtx *c, Node *e, int side) {
    Node *both = call2(c, "and", call1(c, "isnotnull", arg(e, 0), e), call1(c, "isnotnull", arg(e, 1), e), e);
    Node *v = arg(e, (uint32_t)side);
    return v ? call1(c, "avg", if_(c, both, v, lit_null(c, v->type), e), e) : NULL;
}
static Node *r_regr_avgy(ReplaceCtx *c, Node *e) { return regr_avg(c, e, 0); }
static Node *r_regr_avgx(ReplaceCtx *c, Node *e) { return regr_avg(c, e, 1); }
/* RegrSXX / RegrSYY: RegrReplacement over one side where neither is null */
static Node *regr_moment(ReplaceCtx *c, Node *e, int side) {
    Node *either = call2(c, "or", call1(c, "isnull", arg(e, 0), e), call1(c, "isnull", arg(e, 1), e), e);
    Node *v = arg(e, (uint32_t)side);
    if (!v) return NULL;
    Node *x = if_(c, either, lit_null(c, &TYPE_DOUBLE), v, e);
    return internal(c, &REGR_REPLACEMENT, &x, 1, &TYPE_DOUBLE, e);
}
static Node *r_regr_sxx(ReplaceCtx *c, Node *e) { return regr_moment(c, e, 1); }
static Node *r_regr_syy(ReplaceCtx *c, Node *e) { return regr_moment(c, e, 0); }

/* ---- strings ---- */

static Node *r_left(ReplaceCtx *c, Node *e) { return call3(c, "substring", arg(e, 0), lit_int(c, 1), arg(e, 1), e); }

static Node *r_right(ReplaceCtx *c, Node *e) {
    Node *s = arg(e, 0), *n = arg(e, 1);
    Node *sub = call2(c, "substring", s, call1(c, "negative", n, e), e);
    Node *inner = if_(c, call2(c, "<=", n, lit_int(c, 0), e), lit_str(c, ""), sub, e);
    return if_(c, call1(c, "isnull", s, e), lit_null(c, &TYPE_STRING), inner, e);
}

static Node *r_btrim(ReplaceCtx *c, Node *e) {
    return e->nkids == 1 ? call1(c, "trim", arg(e, 0), e) : call2(c, "trim", arg(e, 0), arg(e, 1), e);
}

static Node *r_ilike(ReplaceCtx *c, Node *e) {
    Node *l = call1(c, "lower", arg(e, 0), e), *r = call1(c, "lower", arg(e, 1), e);
    return e->nkids >= 3 ? call3(c, "like", l, r, arg(e, 2), e) : call2(c, "like", l, r, e);
}

static Node *r_regexp_count(ReplaceCtx *c, Node *e) {
    Node *all = call3(c, "regexp_extract_all", arg(e, 0), arg(e, 1), lit_int(c, 0), e);
    /* Size(..., legacySizeOfNull = false) */
    return with_fail_on_error(c, call1(c, "size", all, e), true);
}

static Node *r_regexp_substr(ReplaceCtx *c, Node *e) {
    Node *ref = c->common(c, call3(c, "regexp_extract", arg(e, 0), arg(e, 1), lit_int(c, 0), e));
    if (!ref) return NULL;
    return if_(c, call2(c, "=", ref, lit_str(c, ""), e), lit_null(c, &TYPE_STRING), ref, e);
}

static Node *r_split_part(ReplaceCtx *c, Node *e) {
    Node *parts[2] = {arg(e, 0), arg(e, 1)};
    Node *split = internal(c, &STRING_SPLIT_SQL, parts, 2, type_array(c->an->arena, &TYPE_STRING, true), e);
    Node *args[3] = {split, arg(e, 2), lit_str(c, "")};
    return internal(c, &ELEMENT_AT_NO_FAIL, args, 3, &TYPE_STRING, e);
}

static Node *r_decode(ReplaceCtx *c, Node *e) {
    Node *args[4] = {arg(e, 0), arg(e, 1), lit_bool(c, false), lit_bool(c, false)};
    return invoke(c, true, "StringDecode.decode", args, 4, &TYPE_STRING, e);
}

static Node *encode_utf(ReplaceCtx *c, Node *s, Node *charset, const Node *pos) {
    Node *args[4] = {s, charset, lit_bool(c, false), lit_bool(c, false)};
    return invoke(c, true, "Encode.encode", args, 4, &TYPE_BINARY, pos);
}
static Node *r_encode(ReplaceCtx *c, Node *e) { return encode_utf(c, arg(e, 0), arg(e, 1), e); }

/* ToBinary: by format hex (default), utf-8 / utf8, base64 */
static Node *to_binary(ReplaceCtx *c, Node *e) {
    const char *fmt = e->nkids >= 2 ? lit_text(arg(e, 1)) : "hex";
    if (!fmt) return NULL;
    if (!strcasecmp(fmt, "hex")) return internal(c, &UNHEX_FAILING, e->kids, 1, &TYPE_BINARY, e);
    if (!strcasecmp(fmt, "utf-8") || !strcasecmp(fmt, "utf8")) return encode_utf(c, arg(e, 0), lit_str(c, "UTF-8"), e);
    if (!strcasecmp(fmt, "base64")) return with_fail_on_error(c, call1(c, "unbase64", arg(e, 0), e), true);
    return NULL;
}
static Node *r_to_binary(ReplaceCtx *c, Node *e) { return to_binary(c, e); }
static Node *r_try_to_binary(ReplaceCtx *c, Node *e) {
    Node *b = to_binary(c, e);
    return b ? internal(c, &TRY_EVAL, &b, 1, &TYPE_BINARY, e) : NULL;
}

static Node *r_url_decode(ReplaceCtx *c, Node *e) {
    Node *args[2] = {arg(e, 0), lit_bool(c, true)};
    return invoke(c, true, "UrlCodec.decode", args, 2, &TYPE_STRING, e);
}
static Node *r_try_url_decode(ReplaceCtx *c, Node *e) {
    Node *args[2] = {arg(e, 0), lit_bool(c, false)};
    return invoke(c, true, "UrlCodec.decode", args, 2, &TYPE_STRING, e);
}
static Node *r_url_encode(ReplaceCtx *c, Node *e) { return invoke(c, true, "UrlCodec.encode", e->kids, 1, &TYPE_STRING, e); }

/* ParseUrlEvaluator(url, part, pattern, failOnError): the constant arguments, null otherwise */
static Node *parse_url(ReplaceCtx *c, Node *e, bool fail) {
    StrBuf sb;
    sb_init(&sb, c->an->arena, 64);
    sb_puts(&sb, "ParseUrlEvaluator(");
    for (uint32_t i = 0; i < 3; i++) {
        const char *v = lit_text(arg(e, i));
        sb_puts(&sb, v ? v : "null");
        sb_putc(&sb, ',');
    }
    sb_printf(&sb, "%s).evaluate", fail ? "true" : "false");
    return invoke(c, false, sb.data, e->kids, (int)e->nkids, &TYPE_STRING, e);
}
static Node *r_parse_url(ReplaceCtx *c, Node *e) { return parse_url(c, e, e->u.call.ansi); }
static Node *r_try_parse_url(ReplaceCtx *c, Node *e) { return parse_url(c, e, false); }

static Node *r_sentences(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "ExpressionImplUtils.getSentences", e->kids, (int)e->nkids, e->type, e);
}

static Node *r_aes_encrypt(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "ExpressionImplUtils.aesEncrypt", e->kids, (int)e->nkids, &TYPE_BINARY, e);
}
static Node *r_aes_decrypt(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "ExpressionImplUtils.aesDecrypt", e->kids, (int)e->nkids, &TYPE_BINARY, e);
}
static Node *r_try_aes_decrypt(ReplaceCtx *c, Node *e) {
    Node *d = r_aes_decrypt(c, e);
    return d ? internal(c, &TRY_EVAL, &d, 1, &TYPE_BINARY, e) : NULL;
}

/* XPath*Evaluator(path).evaluate(xml) */
static Node *xpath(ReplaceCtx *c, Node *e, const char *evaluator) {
    const char *path = lit_text(arg(e, 1));
    if (!path) return NULL;
    return invoke(c, false, arena_printf(c->an->arena, "%s(%s).evaluate", evaluator, path), e->kids, 1, e->type, e);
}
static Node *r_xpath(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathListEvaluator"); }
static Node *r_xpath_boolean(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathBooleanEvaluator"); }
static Node *r_xpath_string(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathStringEvaluator"); }
static Node *r_xpath_long(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathLongEvaluator"); }
static Node *r_xpath_int(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathIntEvaluator"); }
static Node *r_xpath_short(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathShortEvaluator"); }
static Node *r_xpath_float(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathFloatEvaluator"); }
static Node *r_xpath_double(ReplaceCtx *c, Node *e) { return xpath(c, e, "XPathDoubleEvaluator"); }

/* Map(k -> v, ...) of a constant map(...) options argument (Scala's Map.toString) */
static const char *options_map(ReplaceCtx *c, const Node *opts) {
    StrBuf sb;
    sb_init(&sb, c->an->arena, 64);
    sb_puts(&sb, "Map(");
    if (opts && opts->kind == NK_Call && call_sig(opts) && !strcmp(call_sig(opts)->name, "map")) {
        for (uint32_t i = 0; i + 1 < opts->nkids; i += 2) {
            const char *k = lit_text(opts->kids[i]), *v = lit_text(opts->kids[i + 1]);
            if (!k || !v) return NULL;
            sb_printf(&sb, "%s%s -> %s", i ? ", " : "", k, v);
        }
    } else if (opts) {
        return NULL;
    }
    sb_putc(&sb, ')');
    return sb.data;
}

static Node *schema_of(ReplaceCtx *c, Node *e, const char *evaluator) {
    const char *m = options_map(c, arg(e, 1));
    if (!m) return NULL;
    return invoke(c, false, arena_printf(c->an->arena, "%s(%s).evaluate", evaluator, m), e->kids, 1, e->type, e);
}
static Node *r_schema_of_csv(ReplaceCtx *c, Node *e) { return schema_of(c, e, "SchemaOfCsvEvaluator"); }
static Node *r_schema_of_json(ReplaceCtx *c, Node *e) { return schema_of(c, e, "SchemaOfJsonEvaluator"); }
static Node *r_schema_of_xml(ReplaceCtx *c, Node *e) { return schema_of(c, e, "SchemaOfXmlEvaluator"); }

/* StructsToJsonEvaluator(options, inputSchema, timeZoneId).evaluate(child) */
static Node *r_to_json(ReplaceCtx *c, Node *e) {
    const char *m = options_map(c, arg(e, 1));
    Node *x = arg(e, 0);
    if (!m || !x || !x->type) return NULL;
    StrBuf sb;
    sb_init(&sb, c->an->arena, 128);
    sb_printf(&sb, "StructsToJsonEvaluator(%s,", m);
    type_print_scala(&sb, x->type);
    sb_printf(&sb, ",Some(%s)).evaluate", e->u.call.tz ? e->u.call.tz : "UTC");
    return invoke(c, false, sb.data, e->kids, 1, &TYPE_STRING, e);
}

/* ---- variants, bitmaps ---- */

static Node *parse_json(ReplaceCtx *c, Node *e, bool fail) {
    Node *args[3] = {arg(e, 0), lit_bool(c, false), lit_bool(c, fail)};
    return invoke(c, true, "VariantExpressionEvalUtils.parseJson", args, 3, &TYPE_VARIANT, e);
}
static Node *r_parse_json(ReplaceCtx *c, Node *e) { return parse_json(c, e, true); }
static Node *r_try_parse_json(ReplaceCtx *c, Node *e) { return parse_json(c, e, false); }
static Node *r_is_variant_null(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "VariantExpressionEvalUtils.isVariantNull", e->kids, 1, &TYPE_BOOLEAN, e);
}
static Node *r_schema_of_variant(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "SchemaOfVariant.schemaOfVariant", e->kids, 1, &TYPE_STRING, e);
}
static Node *r_bitmap_bit_position(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "BitmapExpressionUtils.bitmapBitPosition", e->kids, 1, e->type, e);
}
static Node *r_bitmap_bucket_number(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "BitmapExpressionUtils.bitmapBucketNumber", e->kids, 1, e->type, e);
}
static Node *r_bitmap_count(ReplaceCtx *c, Node *e) {
    return invoke(c, true, "BitmapExpressionUtils.bitmapCount", e->kids, 1, e->type, e);
}

/* ---- collections ---- */

static Node *r_get(ReplaceCtx *c, Node *e) { return call2(c, "@subscript", arg(e, 0), arg(e, 1), e); }

static Node *r_array_append(ReplaceCtx *c, Node *e) {
    return call3(c, "array_insert", arg(e, 0), lit_int(c, -1), arg(e, 1), e);
}

/* KnownNotContainsNull(ArrayFilter(a, x -> isnotnull(x))) */
static Node *r_array_compact(ReplaceCtx *c, Node *e) {
    Node *a = arg(e, 0);
    if (!a || !a->type || a->type->id != T_ARRAY) return NULL;
    Arena *ar = c->an->arena;
    Node *v = node_new(ar, NK_NamedLambdaVariable, -1, -1);
    v->u.attr.name = "arg";
    v->u.attr.id = an_new_id(c->an);
    v->type = a->type->elem;
    v->flags |= NF_NULLABLE;
    v = node_finish(v);
    Node *body = call1(c, "isnotnull", v, e);
    if (!body) return NULL;
    Node *lam = node_new(ar, NK_LambdaFunction, -1, -1);
    Node *lk[2] = {body, v};
    node_set_kids(ar, lam, lk, 2);
    lam->type = body->type;
    lam = node_finish(lam);
    Node *f = call2(c, "filter", a, lam, e);
    if (!f) return NULL;
    return internal(c, &KNOWN_NOT_CONTAINS_NULL, &f, 1, type_array(ar, a->type->elem, false), e);
}

static Node *r_try_element_at(ReplaceCtx *c, Node *e) { return internal(c, &ELEMENT_AT_NO_FAIL, e->kids, 2, e->type, e); }

/* ---- arithmetic ---- */

static Node *try_arith(ReplaceCtx *c, Node *e, const char *op) { return call2(c, op, arg(e, 0), arg(e, 1), e); }
static Node *r_try_add(ReplaceCtx *c, Node *e) { return try_arith(c, e, "+"); }
static Node *r_try_subtract(ReplaceCtx *c, Node *e) { return try_arith(c, e, "-"); }
static Node *r_try_multiply(ReplaceCtx *c, Node *e) { return try_arith(c, e, "*"); }
static Node *r_try_divide(ReplaceCtx *c, Node *e) { return try_arith(c, e, "/"); }
static Node *r_try_mod(ReplaceCtx *c, Node *e) { return try_arith(c, e, "%"); }

/* ---- date and time ---- */

/* DatePart.parseExtractField: the field's function on the source */
static Node *r_date_part(ReplaceCtx *c, Node *e) {
    static const char *const FIELDS[][2] = {
        {"YEAR", "year"},       {"Y", "year"},          {"YEARS", "year"},        {"YR", "year"},
        {"YRS", "year"},        {"QUARTER", "quarter"}, {"QTR", "quarter"},       {"MONTH", "month"},
        {"MON", "month"},       {"MONS", "month"},      {"MONTHS", "month"},      {"WEEK", "weekofyear"},
        {"W", "weekofyear"},    {"WEEKS", "weekofyear"}, {"DAY", "day"},          {"D", "day"},
        {"DAYS", "day"},        {"DAYOFWEEK", "dayofweek"}, {"DOW", "dayofweek"}, {"DOY", "dayofyear"},
        {"HOUR", "hour"},       {"H", "hour"},          {"HOURS", "hour"},        {"HR", "hour"},
        {"HRS", "hour"},        {"MINUTE", "minute"},   {"M", "minute"},          {"MIN", "minute"},
        {"MINS", "minute"},     {"MINUTES", "minute"},
    };
    const char *field = lit_text(arg(e, 0));
    Node *src = arg(e, 1);
    if (!field || !src || !src->type || src->type->id == T_YM_INTERVAL || src->type->id == T_DT_INTERVAL ||
        src->type->id == T_CALENDAR_INTERVAL)
        return NULL;
    for (size_t i = 0; i < sizeof FIELDS / sizeof FIELDS[0]; i++)
        if (!strcasecmp(field, FIELDS[i][0])) return call1(c, FIELDS[i][1], src, e);
    return NULL;
}

/* ParseToDate / ParseToTimestamp: a cast without a format, GetTimestamp with one */
static Node *parse_to_timestamp(ReplaceCtx *c, Node *e, const DataType *t, bool fail) {
    if (e->nkids == 1) return fn_mk_cast(c->an, arg(e, 0), t);
    Node *args[2] = {arg(e, 0), arg(e, 1)};
    return with_fail_on_error(c, internal(c, &GET_TIMESTAMP, args, 2, t, e), fail);
}
static Node *r_to_timestamp(ReplaceCtx *c, Node *e) { return parse_to_timestamp(c, e, e->type, e->u.call.ansi); }
static Node *r_try_to_timestamp(ReplaceCtx *c, Node *e) { return parse_to_timestamp(c, e, e->type, false); }
static Node *r_to_date(ReplaceCtx *c, Node *e) {
    if (e->nkids == 1) return fn_mk_cast(c->an, arg(e, 0), &TYPE_DATE);
    Node *args[2] = {arg(e, 0), arg(e, 1)};
    Node *ts = internal(c, &GET_TIMESTAMP_FOR_DATE, args, 2, &TYPE_TIMESTAMP, e);
    return ts ? fn_mk_cast(c->an, ts, &TYPE_DATE) : NULL;
}

static Node *with_args(ReplaceCtx *c, const char *name, Node *e, bool fail) {
    return with_fail_on_error(c, call(c, name, e->kids, (int)e->nkids, e), fail);
}
static Node *r_try_make_interval(ReplaceCtx *c, Node *e) { return with_args(c, "make_interval", e, false); }
static Node *r_try_make_timestamp(ReplaceCtx *c, Node *e) { return with_args(c, "make_timestamp", e, false); }
static Node *r_try_reflect(ReplaceCtx *c, Node *e) {
    Node *r = call(c, "reflect", e->kids, (int)e->nkids, e);
    if (!r) return NULL;
    static const FuncDef REFLECT_NO_FAIL = {.name = "reflect", .kind = FK_SCALAR, .flags = FD_NULLABLE | FD_NONDET,
                                            .tostring_tail = ", false"};
    Node *m = node_copy(c->an->arena, r);
    m->u.call.def = &REFLECT_NO_FAIL;
    return node_finish(m);
}

static Node *r_collation(ReplaceCtx *c, Node *e) {
    return lit_str(c, fn_collation_full_name(c->an->arena, e->kids[0]->type));
}

typedef Node *(*ReplaceFn)(ReplaceCtx *c, Node *call);

static const struct {
    const char *name;
    ReplaceFn fn;
} REPLACEMENTS[] = {
    {"ifnull", r_coalesce}, {"nvl", r_coalesce}, {"nullif", r_nullif}, {"nvl2", r_nvl2},
    {"between", r_between}, {"assert_true", r_assert_true}, {"positive", r_positive},
    {"any", r_max}, {"some", r_max}, {"bool_or", r_max}, {"every", r_min}, {"bool_and", r_min},
    {"any_value", r_any_value}, {"median", r_median}, {"count_if", r_count_if}, {"regr_count", r_regr_count},
    {"regr_avgx", r_regr_avgx}, {"regr_avgy", r_regr_avgy}, {"regr_sxx", r_regr_sxx}, {"regr_syy", r_regr_syy},
    {"left", r_left}, {"right", r_right}, {"btrim", r_btrim}, {"ilike", r_ilike},
    {"regexp_count", r_regexp_count}, {"regexp_substr", r_regexp_substr}, {"split_part", r_split_part},
    {"decode", r_decode}, {"encode", r_encode}, {"to_binary", r_to_binary}, {"try_to_binary", r_try_to_binary},
    {"url_decode", r_url_decode}, {"try_url_decode", r_try_url_decode}, {"url_encode", r_url_encode},
    {"parse_url", r_parse_url}, {"try_parse_url", r_try_parse_url}, {"sentences", r_sentences},
    {"aes_encrypt", r_aes_encrypt}, {"aes_decrypt", r_aes_decrypt}, {"try_aes_decrypt", r_try_aes_decrypt},
    {"xpath", r_xpath}, {"xpath_boolean", r_xpath_boolean}, {"xpath_string", r_xpath_string},
    {"xpath_long", r_xpath_long}, {"xpath_int", r_xpath_int}, {"xpath_short", r_xpath_short},
    {"xpath_float", r_xpath_float}, {"xpath_double", r_xpath_double}, {"xpath_number", r_xpath_double},
    {"schema_of_csv", r_schema_of_csv}, {"schema_of_json", r_schema_of_json}, {"schema_of_xml", r_schema_of_xml},
    {"to_json", r_to_json}, {"parse_json", r_parse_json}, {"try_parse_json", r_try_parse_json},
    {"is_variant_null", r_is_variant_null}, {"schema_of_variant", r_schema_of_variant},
    {"bitmap_bit_position", r_bitmap_bit_position}, {"bitmap_bucket_number", r_bitmap_bucket_number},
    {"bitmap_count", r_bitmap_count}, {"get", r_get}, {"array_append", r_array_append},
    {"array_compact", r_array_compact}, {"try_element_at", r_try_element_at}, {"try_add", r_try_add},
    {"try_subtract", r_try_subtract}, {"try_multiply", r_try_multiply}, {"try_divide", r_try_divide},
    {"try_mod", r_try_mod}, {"date_part", r_date_part}, {"datepart", r_date_part}, {"extract", r_date_part},
    {"to_timestamp", r_to_timestamp}, {"to_timestamp_ltz", r_to_timestamp}, {"to_timestamp_ntz", r_to_timestamp},
    {"try_to_timestamp", r_try_to_timestamp}, {"to_date", r_to_date}, {"try_make_interval", r_try_make_interval},
    {"try_make_timestamp", r_try_make_timestamp}, {"try_reflect", r_try_reflect}, {"collation", r_collation},
};

Node *fn_runtime_replacement(ReplaceCtx *c, Node *e) {
    if (e->kind != NK_Call || !e->u.call.def) return NULL;
    const FuncDef *d = e->u.call.def;
    if (!d->name || d->print == CS_INVOKE) return NULL;
    /* UnaryPositive (+a) is its child */
    if (!strcmp(d->name, "+") && e->nkids == 1) return e->kids[0];
    ReplaceFn fn = NULL;
    for (size_t i = 0; i < sizeof REPLACEMENTS / sizeof REPLACEMENTS[0] && !fn; i++)
        if (!strcmp(d->name, REPLACEMENTS[i].name)) fn = REPLACEMENTS[i].fn;
    if (!fn) return NULL;
    /* a replacement that cannot be typed leaves the call as it is */
    ErrorInfo *before = c->an->error;
    Node *r = fn(c, e);
    if (c->an->error != before) {
        c->an->error = before;
        return NULL;
    }
    return r;
}

bool func_expr_foldable(const Node *e) { return fn_is_foldable(e); }
