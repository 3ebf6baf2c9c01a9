/* Criterion units for the daemon's codecs, without sockets: gRPC framing,
 * percent-encoding, grpc-timeout, wire depth checks before unpacking,
 * post-unpack validation, the proto3 JSON mapping, proto → IR decoding. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.pb-c.h"
#include "grpc_codec.h"
#include "pb_check.h"
#include "pb_json.h"
#include "plan_decode.h"
#include "plan_encode.h"
#include "connect_schema.h"

/* ---------------------------------------------------------------- framing */

Test(framing, header_and_parse_roundtrip) {
    uint8_t buf[5 + 3];
    grpc_frame_header(buf, 3);
    memcpy(buf + 5, "abc", 3);
    const uint8_t *msg;
    uint32_t len;
    size_t used;
    cr_assert_eq(grpc_frame_parse(buf, sizeof buf, 100, &msg, &len, &used), GRPC_FRAME_MESSAGE);
    cr_assert_eq(len, 3);
    cr_assert_eq(used, 8);
    cr_assert(memcmp(msg, "abc", 3) == 0);
}

Test(framing, partial_and_bad_input) {
    uint8_t buf[16] = {0, 0, 0, 0, 10, 'x'};
    const uint8_t *msg;
    uint32_t len;
    size_t used;
    cr_assert_eq(grpc_frame_parse(buf, 0, 100, &msg, &len, &used), GRPC_FRAME_NEED_MORE);
    cr_assert_eq(grpc_frame_parse(buf, 3, 100, &msg, &len, &used), GRPC_FRAME_NEED_MORE);
    cr_assert_eq(grpc_frame_parse(buf, 6, 100, &msg, &len, &used), GRPC_FRAME_NEED_MORE); /* truncated */
    cr_assert_eq(grpc_frame_parse(buf, 6, 5, &msg, &len, &used), GRPC_FRAME_TOO_LARGE);
    buf[0] = 1;
    cr_assert_eq(grpc_frame_parse(buf, 16, 100, &msg, &len, &used), GRPC_FRAME_COMPRESSED);
    buf[0] = 7;
    cr_assert_eq(grpc_frame_parse(buf, 16, 100, &msg, &len, &used), GRPC_FRAME_BAD_FLAG);
    uint8_t huge[5] = {0, 0xff, 0xff, 0xff, 0xff};
    cr_assert_eq(grpc_frame_parse(huge, 5, 4u << 20, &msg, &len, &used), GRPC_FRAME_TOO_LARGE);
}

/* Messages counted in a response stream however it is cut (grpc_server_msg_sent_total). */
Test(framing, count_messages_across_pieces) {
    uint8_t stream[64];
    size_t n = 0;
    const uint32_t lens[] = {3, 0, 20, 1};
    for (size_t k = 0; k < 4; k++) {
        grpc_frame_header(stream + n, lens[k]);
        n += 5;
        memset(stream + n, 0xAB, lens[k]);
        n += lens[k];
    }
    for (size_t piece = 1; piece <= n; piece++) {
        GrpcFrameCounter fc = {0};
        uint32_t total = 0;
        for (size_t off = 0; off < n; off += piece) total += grpc_frame_count(&fc, stream + off, off + piece <= n ? piece : n - off);
        cr_assert_eq(total, 4, "pieces of %zu: %u messages", piece, total);
        cr_assert_eq(fc.left, 0);
        cr_assert_eq(fc.prefix, 0);
    }
    GrpcFrameCounter fc = {0};
    cr_assert_eq(grpc_frame_count(&fc, stream, 7), 1); /* a prefix and part of its payload */
    cr_assert_eq(fc.left, 1);
}

Test(percent, encode_decode) {
    char out[64], back[64];
    grpc_percent_encode("a b%c\n\xc3\xa9", 8, out, sizeof out);
    cr_assert_str_eq(out, "a b%25c%0A%C3%A9");
    grpc_percent_decode(out, strlen(out), back, sizeof back);
    cr_assert_str_eq(back, "a b%c\n\xc3\xa9");
    /* truncation never splits an escape */
    grpc_percent_encode("\n\n\n", 3, out, 6);
    cr_assert_str_eq(out, "%0A");
    /* malformed escapes are kept */
    grpc_percent_decode("%zz%4", 5, back, sizeof back);
    cr_assert_str_eq(back, "%zz%4");
}

Test(timeout, parse) {
    int64_t ns;
    cr_assert(grpc_parse_timeout("100m", 4, &ns) && ns == 100000000);
    cr_assert(grpc_parse_timeout("2S", 2, &ns) && ns == 2000000000);
    cr_assert(grpc_parse_timeout("1H", 2, &ns) && ns == 3600000000000LL);
    cr_assert(grpc_parse_timeout("99999999H", 9, &ns) && ns > 0);
    cr_assert(!grpc_parse_timeout("10", 2, &ns));
    cr_assert(!grpc_parse_timeout("123456789S", 10, &ns));
    cr_assert(!grpc_parse_timeout("-1S", 3, &ns));
    cr_assert(!grpc_parse_timeout("1x", 2, &ns));
}

/* ---------------------------------------------------------------- wire checks */

static size_t put_varint(uint8_t *p, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Relation{project{input: ...}} nested depth times around an empty
 * Relation.sql (field 10), as an AnalyzeRequest. */
static uint8_t *nested(uint32_t depth, size_t *len) {
    size_t cap = (size_t)depth * 12 + 32;
    uint8_t *buf = malloc(cap), *tmp = malloc(cap);
    size_t n = 0;
    buf[n++] = 0x52; /* sql */
    buf[n++] = 0;
    for (uint32_t i = 0; i < depth; i++) {
        size_t k = 0;
        tmp[k++] = 0x1a; /* Relation.project */
        uint8_t v[10];
        size_t vl = put_varint(v, n);
        size_t proj_len = 1 + vl + n;
        k += put_varint(tmp + k, proj_len);
        tmp[k++] = 0x0a; /* Project.input */
        memcpy(tmp + k, v, vl);
        k += vl;
        memmove(buf + k, buf, n);
        memcpy(buf, tmp, k);
        n += k;
    }
    size_t k = 0;
    tmp[k++] = 0x1a; /* AnalyzeRequest.plan */
    k += put_varint(tmp + k, n);
    memmove(buf + k, buf, n);
    memcpy(buf, tmp, k);
    *len = n + k;
    free(tmp);
    return buf;
}

Test(wire, depth_limit_before_unpack) {
    size_t len;
    uint8_t *b = nested(5000, &len);
    char err[256];
    PbLimits lim = {1000, 0};
    cr_assert_eq(pb_wire_check(b, len, &catalyzer__v1__analyze_request__descriptor, &lim, err, sizeof err),
                 PB_CHECK_TOO_DEEP);
    cr_assert(strstr(err, "depth"));
    free(b);
    b = nested(100, &len);
    cr_assert_eq(pb_wire_check(b, len, &catalyzer__v1__analyze_request__descriptor, &lim, err, sizeof err), PB_CHECK_OK,
                 "%s", err);
    ProtobufCMessage *m = protobuf_c_message_unpack(&catalyzer__v1__analyze_request__descriptor, NULL, len, b);
    cr_assert_not_null(m);
    protobuf_c_message_free_unpacked(m, NULL);
    PbLimits few = {1000, 50};
    cr_assert_eq(pb_wire_check(b, len, &catalyzer__v1__analyze_request__descriptor, &few, err, sizeof err),
                 PB_CHECK_TOO_MANY_NODES);
    free(b);
}

Test(wire, truncated_and_malformed) {
    size_t len;
    uint8_t *b = nested(10, &len);
    char err[256];
    PbLimits lim = {1000, 0};
    for (size_t cut = 1; cut < len; cut++)
        cr_assert_neq(pb_wire_check(b, cut, &catalyzer__v1__analyze_request__descriptor, &lim, err, sizeof err),
                      PB_CHECK_OK, "prefix of %zu bytes accepted", cut);
    free(b);
    uint8_t group[] = {0x0b, 0x0c};
    cr_assert_eq(pb_wire_check(group, 2, &catalyzer__v1__analyze_request__descriptor, &lim, err, sizeof err),
                 PB_CHECK_MALFORMED);
    uint8_t field0[] = {0x00, 0x01};
    cr_assert_eq(pb_wire_check(field0, 2, &catalyzer__v1__analyze_request__descriptor, &lim, err, sizeof err),
                 PB_CHECK_MALFORMED);
}

Test(validate, utf8_and_enums) {
    cr_assert(utf8_valid("h\xc3\xa9llo \xf0\x9f\x98\x80", 11));
    cr_assert(!utf8_valid("\xff", 1));
    cr_assert(!utf8_valid("\xc0\xaf", 2));         /* overlong */
    cr_assert(!utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
    cr_assert(!utf8_valid("\xe2\x82", 2));         /* truncated */
    char err[256];
    Catalyzer__V1__SqlQuery q = CATALYZER__V1__SQL_QUERY__INIT;
    q.query = "SELECT '\xff'";
    Catalyzer__V1__AnalyzeRequest r = CATALYZER__V1__ANALYZE_REQUEST__INIT;
    r.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_SQL;
    r.sql = &q;
    cr_assert(!pb_validate(&r.base, err, sizeof err));
    cr_assert(strstr(err, "UTF-8"));
    q.query = "SELECT 1";
    cr_assert(pb_validate(&r.base, err, sizeof err));
    r.trace_level = 99;
    cr_assert(!pb_validate(&r.base, err, sizeof err));
    cr_assert(strstr(err, "enum"));
    /* an unknown enum number deep in a Connect plan: the field and where it is */
    uint8_t wire[] = {0x2a, 0x02, 0x20, 0x63}; /* Relation.join { join_type: 99 } */
    Spark__Connect__Relation *rel = spark__connect__relation__unpack(NULL, sizeof wire, wire);
    cr_assert_not_null(rel);
    cr_assert(!pb_validate(&rel->base, err, sizeof err));
    cr_assert(strstr(err, "field join_type: unknown enum value 99") && strstr(err, "(at Relation.join)"), "%s", err);
    spark__connect__relation__free_unpacked(rel, NULL);
}

/* ---------------------------------------------------------------- JSON */

Test(json, names) {
    char out[64];
    pb_json_name("trace_level", out, sizeof out);
    cr_assert_str_eq(out, "traceLevel");
    pb_json_name("plan_id", out, sizeof out);
    cr_assert_str_eq(out, "planId");
}

Test(json, base64) {
    char *e = base64_encode((const unsigned char *)"hello!?", 7);
    cr_assert_str_eq(e, "aGVsbG8hPw==");
    unsigned char *d;
    size_t n;
    cr_assert(base64_decode(e, strlen(e), &d, &n));
    cr_assert(n == 7 && memcmp(d, "hello!?", 7) == 0);
    free(d);
    free(e);
    cr_assert(!base64_decode("a$==", 4, &d, &n));
}

/* JSON → message → bytes → message → JSON gives the same JSON. */
Test(json, roundtrip_request) {
    const char *src = "{\"sessionId\":\"s\",\"sql\":{\"query\":\"SELECT 1\",\"namedParams\":{\"a\":\"1\"},"
                      "\"positionalParams\":[\"2\"]},\"conf\":{\"spark.sql.ansi.enabled\":\"true\"},"
                      "\"traceLevel\":\"TRACE_LEVEL_ALL\",\"tracePlans\":true,"
                      "\"catalog\":{\"tables\":[{\"name\":\"t\",\"columns\":[{\"name\":\"x\",\"type\":\"int\",\"notNull\":true}]}]}}";
    json_error_t je;
    json_t *j = json_loads(src, 0, &je);
    char err[256];
    ProtobufCMessage *m = pb_from_json(j, &catalyzer__v1__analyze_request__descriptor, 64, err, sizeof err);
    cr_assert_not_null(m, "%s", err);
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n);
    protobuf_c_message_pack(m, buf);
    ProtobufCMessage *m2 = protobuf_c_message_unpack(&catalyzer__v1__analyze_request__descriptor, NULL, n, buf);
    json_t *back = pb_to_json(m2);
    cr_assert(json_equal(j, back), "%s", json_dumps(back, JSON_COMPACT));
    json_decref(back);
    json_decref(j);
    protobuf_c_message_free_unpacked(m, NULL);
    protobuf_c_message_free_unpacked(m2, NULL);
    free(buf);
}

Test(json, snake_case_int64_and_oneof_plan_id) {
    json_t *j = json_loads("{\"plan\":{\"common\":{\"plan_id\":\"42\"},\"sql\":{\"query\":\"SELECT 1\"}}}", 0, NULL);
    char err[256];
    Catalyzer__V1__AnalyzeRequest *m = (Catalyzer__V1__AnalyzeRequest *)pb_from_json(
        j, &catalyzer__v1__analyze_request__descriptor, 64, err, sizeof err);
    cr_assert_not_null(m, "%s", err);
    cr_assert_eq(m->input_case, CATALYZER__V1__ANALYZE_REQUEST__INPUT_PLAN);
    cr_assert_eq(m->plan->common->_plan_id_case, SPARK__CONNECT__RELATION_COMMON___PLAN_ID_PLAN_ID);
    cr_assert_eq(m->plan->common->plan_id, 42);
    cr_assert_eq(m->plan->rel_type_case, SPARK__CONNECT__RELATION__REL_TYPE_SQL);
    protobuf_c_message_free_unpacked(&m->base, NULL);
    json_decref(j);
}

Test(json, rejects_bad_input) {
    const char *bad[] = {
        "{\"nope\":1}",                                  /* unknown field */
        "{\"traceLevel\":\"LOUD\"}",                     /* unknown enum name */
        "{\"traceLevel\":77}",                           /* unknown enum number */
        "{\"tracePlans\":\"yes\"}",                      /* wrong type */
        "{\"sql\":{\"query\":\"a\"},\"plan\":{}}",       /* two oneof members */
        "{\"conf\":[1]}",                                /* map must be an object */
        "{\"sql\":{\"positionalParams\":\"x\"}}",        /* repeated must be an array */
    };
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = json_loads(bad[i], 0, NULL);
        cr_assert_not_null(j);
        ProtobufCMessage *m = pb_from_json(j, &catalyzer__v1__analyze_request__descriptor, 64, err, sizeof err);
        cr_assert_null(m, "accepted %s", bad[i]);
        cr_assert(err[0], "no reason for %s", bad[i]);
        json_decref(j);
    }
    /* nesting beyond the limit */
    char deep[4096] = "{\"plan\":";
    for (int i = 0; i < 100; i++) strcat(deep, "{\"project\":{\"input\":");
    strcat(deep, "{}");
    for (int i = 0; i < 100; i++) strcat(deep, "}}");
    strcat(deep, "}");
    json_t *j = json_loads(deep, 0, NULL);
    cr_assert_null(pb_from_json(j, &catalyzer__v1__analyze_request__descriptor, 50, err, sizeof err));
    cr_assert(strstr(err, "depth"), "%s", err);
    json_decref(j);
}

/* ---------------------------------------------------------------- proto → IR */

static Spark__Connect__Relation *parse_rel(const char *json) {
    json_t *j = json_loads(json, 0, NULL);
    cr_assert_not_null(j, "bad test JSON");
    char err[256];
    ProtobufCMessage *m = pb_from_json(j, &spark__connect__relation__descriptor, 1000, err, sizeof err);
    json_decref(j);
    cr_assert_not_null(m, "%s", err);
    return (Spark__Connect__Relation *)m;
}

static Node *decode(Arena *a, Spark__Connect__Relation *r, DecodeLimits lim, DecodeResult *res) {
    DecodeOptions opt = {.ansi = true};
    return plan_decode(a, r, &lim, &opt, res);
}

Test(decode, project_over_read) {
    Spark__Connect__Relation *r = parse_rel(
        "{\"common\":{\"planId\":\"3\"},\"project\":{\"input\":{\"common\":{\"planId\":\"0\"},\"read\":"
        "{\"namedTable\":{\"unparsedIdentifier\":\"db.`t x`\"}}},\"expressions\":["
        "{\"unresolvedAttribute\":{\"unparsedIdentifier\":\"a\",\"planId\":\"0\"}},"
        "{\"alias\":{\"expr\":{\"unresolvedFunction\":{\"functionName\":\"+\",\"arguments\":["
        "{\"literal\":{\"integer\":1}},{\"literal\":{\"long\":\"2\"}}]}},\"name\":[\"b\"]}},"
        "{\"unresolvedFunction\":{\"functionName\":\"upper\",\"arguments\":[{\"unresolvedAttribute\":"
        "{\"unparsedIdentifier\":\"`x.y`.z\"}}]}},"
        "{\"unresolvedStar\":{\"unparsedTarget\":\"t.*\"}}]}}");
    Arena *a = arena_new(0);
    DecodeResult res;
    Node *n = decode(a, r, (DecodeLimits){100, 1000}, &res);
    cr_assert_not_null(n, "%s", res.message);
    cr_assert_eq(n->kind, NK_Project);
    cr_assert_eq(n->plan_id, 3);
    cr_assert_eq(n->nkids, 1);
    cr_assert_eq(n->kids[0]->kind, NK_UnresolvedRelation);
    cr_assert_eq(n->kids[0]->plan_id, 0);
    cr_assert_eq(n->kids[0]->u.un.name.n, 2);
    cr_assert_str_eq(n->kids[0]->u.un.name.v[1], "t x");
    cr_assert_eq(n->nexprs, 4);
    cr_assert_eq(n->exprs[0]->kind, NK_UnresolvedAttribute);
    cr_assert_eq(n->exprs[0]->plan_id, 0);
    cr_assert_eq(n->exprs[1]->kind, NK_Alias);
    cr_assert_str_eq(n->exprs[1]->u.attr.name, "b");
    Node *f = n->exprs[1]->kids[0];
    cr_assert_eq(f->kind, NK_UnresolvedFunction);
    cr_assert(f->u.un.is_operator);
    cr_assert_eq(f->nkids, 2);
    cr_assert_eq(f->kids[1]->u.lit.v.type->id, T_LONG);
    /* an unnamed projection is wrapped in UnresolvedAlias, as Spark's planner does */
    cr_assert_eq(n->exprs[2]->kind, NK_UnresolvedAlias);
    Node *attr = n->exprs[2]->kids[0]->kids[0];
    cr_assert_eq(attr->u.un.name.n, 2);
    cr_assert_str_eq(attr->u.un.name.v[0], "x.y");
    cr_assert_eq(n->exprs[3]->kind, NK_UnresolvedStar);
    cr_assert_eq(n->exprs[3]->u.un.name.n, 1);
    arena_free(a);
    protobuf_c_message_free_unpacked(&r->base, NULL);
}

Test(decode, limit_join_sort_cast) {
    Spark__Connect__Relation *r = parse_rel(
        "{\"limit\":{\"limit\":5,\"input\":{\"sort\":{\"isGlobal\":true,\"order\":[{\"child\":{\"unresolvedAttribute\":"
        "{\"unparsedIdentifier\":\"x\"}},\"direction\":\"SORT_DIRECTION_DESCENDING\"}],\"input\":{\"join\":{\"left\":"
        "{\"sql\":{\"query\":\"SELECT 1 AS x\"}},\"right\":{\"read\":{\"namedTable\":{\"unparsedIdentifier\":\"t\"}}},"
        "\"joinType\":\"JOIN_TYPE_LEFT_OUTER\",\"joinCondition\":{\"cast\":{\"expr\":{\"literal\":{\"string\":\"true\"}},"
        "\"type\":{\"boolean\":{}},\"evalMode\":\"EVAL_MODE_TRY\"}}}}}}}}");
    Arena *a = arena_new(0);
    DecodeResult res;
    Node *n = decode(a, r, (DecodeLimits){100, 1000}, &res);
    cr_assert_not_null(n, "%s", res.message);
    cr_assert_eq(n->kind, NK_GlobalLimit);
    cr_assert_eq(n->kids[0]->kind, NK_LocalLimit);
    Node *s = n->kids[0]->kids[0];
    cr_assert_eq(s->kind, NK_Sort);
    cr_assert(s->u.sort.global);
    cr_assert(s->exprs[0]->u.sort_order.descending && !s->exprs[0]->u.sort_order.nulls_first);
    Node *j = s->kids[0];
    cr_assert_eq(j->kind, NK_Join);
    cr_assert_eq(j->u.join.type, JOIN_LEFT_OUTER);
    cr_assert_eq(j->exprs[0]->kind, NK_Cast);
    cr_assert(j->exprs[0]->u.cast.try_);
    cr_assert_eq(j->exprs[0]->type->id, T_BOOLEAN);
    cr_assert_eq(j->kids[0]->kind, NK_Project); /* the SQL relation, parsed */
    arena_free(a);
    protobuf_c_message_free_unpacked(&r->base, NULL);
}

Test(decode, depth_and_node_limits) {
    char buf[8192] = "";
    for (int i = 0; i < 60; i++) strcat(buf, "{\"filter\":{\"condition\":{\"literal\":{\"boolean\":true}},\"input\":");
    strcat(buf, "{\"sql\":{\"query\":\"SELECT 1\"}}");
    for (int i = 0; i < 60; i++) strcat(buf, "}}");
    Spark__Connect__Relation *r = parse_rel(buf);
    Arena *a = arena_new(0);
    DecodeResult res;
    cr_assert_null(decode(a, r, (DecodeLimits){50, 0}, &res));
    cr_assert_eq(res.status, DECODE_INVALID);
    cr_assert(strstr(res.message, "depth"), "%s", res.message);
    cr_assert_null(decode(a, r, (DecodeLimits){1000, 30}, &res));
    cr_assert(strstr(res.message, "nodes"), "%s", res.message);
    cr_assert_not_null(decode(a, r, (DecodeLimits){1000, 1000}, &res), "%s", res.message);
    arena_free(a);
    protobuf_c_message_free_unpacked(&r->base, NULL);
}

Test(decode, errors_name_the_field_and_position) {
    static const struct {
        const char *json;
        DecodeStatus status;
        const char *says; /* in the message */
    } bad[] = {
        {"{}", DECODE_INVALID, "rel_type is not set (at relation)"},
        {"{\"project\":{\"expressions\":[{\"literal\":{\"integer\":1}},{}]}}", DECODE_INVALID,
         "expr_type is not set (at relation.project.expressions[1])"},
        {"{\"read\":{}}", DECODE_INVALID, "read_type is not set (at relation.read)"},
        {"{\"subqueryAlias\":{\"input\":{\"sql\":{\"query\":\"SELECT 1\"}}}}", DECODE_INVALID,
         "alias is empty (at relation.subquery_alias)"},
        {"{\"project\":{\"expressions\":[{\"alias\":{\"expr\":{\"literal\":{\"integer\":1}}}}]}}", DECODE_INVALID,
         "Alias.name is empty (at relation.project.expressions[0].alias)"},
        {"{\"project\":{\"expressions\":[{\"literal\":{\"decimal\":{\"value\":\"1.2.3\"}}}]}}", DECODE_INVALID,
         "(at relation.project.expressions[0].literal.decimal)"},
        {"{\"project\":{\"expressions\":[{\"unresolvedAttribute\":{\"unparsedIdentifier\":\"a\",\"planId\":\"7\"}}],"
         "\"input\":{\"common\":{\"planId\":\"1\"},\"sql\":{\"query\":\"SELECT 1 AS a\"}}}}",
         DECODE_INVALID, "plan_id 7 matches no relation in the plan (at relation.project.expressions[0].unresolved_attribute)"},
        {"{\"filter\":{\"input\":{\"sql\":{\"query\":\"SELECT 1\"}}}}", DECODE_INVALID,
         "required expression missing (at relation.filter.condition)"},
        {"{\"mapPartitions\":{\"input\":{\"sql\":{\"query\":\"SELECT 1\"}}}}", DECODE_UNSUPPORTED, "user code"},
        {"{\"project\":{\"expressions\":[{\"expressionString\":{\"expression\":\"a +\"}}]}}", DECODE_SPARK_ERROR,
         "PARSE_SYNTAX_ERROR"},
        /* a fuzzer finding: elements of another kind than declared were read as it (a bool of value 2) */
        {"{\"project\":{\"expressions\":[{\"literal\":{\"array\":{\"elementType\":{\"boolean\":{}},"
         "\"elements\":[{\"boolean\":true},{\"integer\":2}]}}}]}}",
         DECODE_INVALID, "a int literal where the declared type is boolean (at relation.project.expressions[0].literal"
                         ".array.elements[1])"},
        {"{\"project\":{\"expressions\":[{\"literal\":{\"struct\":{\"structType\":{\"struct\":{\"fields\":"
         "[{\"name\":\"x\",\"dataType\":{\"boolean\":{}}}]}},\"elements\":[{\"string\":\"t\"}]}}}]}}",
         DECODE_INVALID, "a string literal where the declared type is boolean"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Spark__Connect__Relation *r = parse_rel(bad[i].json);
        Arena *a = arena_new(0);
        DecodeResult res;
        cr_assert_null(decode(a, r, (DecodeLimits){100, 1000}, &res), "accepted %s", bad[i].json);
        cr_assert_eq(res.status, bad[i].status, "%s: status %d (%s)", bad[i].json, res.status, res.message);
        cr_assert(strstr(res.message, bad[i].says), "%s: said \"%s\"", bad[i].json, res.message);
        arena_free(a);
        protobuf_c_message_free_unpacked(&r->base, NULL);
    }
}

Test(decode, unknown_relation_field) {
    /* Relation field 300 (Spark's ml_relation) is not declared: it stays an unknown field. */
    uint8_t wire[] = {0xe2, 0x12, 0x00}; /* field 300, wire type 2, length 0 */
    Spark__Connect__Relation *r = spark__connect__relation__unpack(NULL, sizeof wire, wire);
    cr_assert_not_null(r);
    Arena *a = arena_new(0);
    DecodeResult res;
    cr_assert_null(decode(a, r, (DecodeLimits){100, 1000}, &res));
    cr_assert_eq(res.status, DECODE_UNSUPPORTED);
    cr_assert(strstr(res.message, "field 300"), "%s", res.message);
    arena_free(a);
    spark__connect__relation__free_unpacked(r, NULL);
}

Test(encode, connect_datatype_roundtrip) {
    Arena *a = arena_new(0);
    const char *types[] = {"int", "decimal(10,2)", "array<string>", "map<string,bigint>", "struct<a:int,b:array<double>>",
                           "varchar(5)", "interval day to second", "interval year", "timestamp_ntz", "binary"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        const char *why = NULL;
        const DataType *t = type_parse(a, types[i], strlen(types[i]), NULL, &why);
        cr_assert_not_null(t, "%s", types[i]);
        Spark__Connect__DataType *p = connect_type_encode(a, t);
        char err[256];
        const DataType *back = connect_type_decode(a, p, 100, err, sizeof err);
        cr_assert_not_null(back, "%s: %s", types[i], err);
        cr_assert(type_equal(t, back), "%s came back as %s", types[i], type_catalog_string(a, back));
        /* and through Spark's JSON form */
        const DataType *j = connect_parse_json_type(a, connect_type_json(a, t), err, sizeof err);
        cr_assert_not_null(j, "%s: %s", types[i], err);
        cr_assert(type_equal(t, j), "%s came back from JSON as %s", types[i], type_catalog_string(a, j));
    }
    arena_free(a);
}

Test(schema, ddl_tree_string_and_json) {
    Arena *a = arena_new(0);
    char err[256];
    const DataType *t = connect_parse_ddl(a, "id BIGINT NOT NULL, `a b` INT COMMENT 'x', m MAP<STRING, ARRAY<INT>>", err,
                                          sizeof err);
    cr_assert_not_null(t, "%s", err);
    cr_assert_str_eq(connect_struct_to_ddl(a, t), "id BIGINT NOT NULL,`a b` INT COMMENT 'x',m MAP<STRING, ARRAY<INT>>");
    cr_assert_str_eq(connect_tree_string(a, t, 0),
                     "root\n |-- id: long (nullable = false)\n |-- a b: integer (nullable = true)\n"
                     " |-- m: map (nullable = true)\n |    |-- key: string\n"
                     " |    |-- value: array (valueContainsNull = true)\n"
                     " |    |    |-- element: integer (containsNull = true)\n");
    cr_assert_str_eq(connect_tree_string(a, t, 1),
                     "root\n |-- id: long (nullable = false)\n |-- a b: integer (nullable = true)\n"
                     " |-- m: map (nullable = true)\n");
    /* a plain type, and the fields of a struct without `struct<>` */
    cr_assert_eq(connect_parse_ddl(a, "array<int>", err, sizeof err)->id, T_ARRAY);
    cr_assert_eq(connect_parse_ddl(a, "a: int, b: string", err, sizeof err)->nfields, 2);
    cr_assert_null(connect_parse_ddl(a, "not a type (", err, sizeof err));
    const DataType *j = connect_parse_schema(
        a, "{\"type\":\"struct\",\"fields\":[{\"name\":\"value\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}",
        err, sizeof err);
    cr_assert_not_null(j, "%s", err);
    cr_assert_str_eq(type_catalog_string(a, j), "struct<value:string>");
    arena_free(a);
}

/* ---------------------------------------------------------------- random JSON */

/* Random JSON shaped like requests (keys drawn from the schema's field names)
 * through pb_from_json → pb_validate → plan_decode: every input gets an
 * answer, none crashes or leaks (run under ASan in the sanitizer build). */
static const char *const KEYS[] = {
    "plan", "sql", "query", "project", "input", "expressions", "filter", "condition", "read", "namedTable",
    "unparsedIdentifier", "literal", "integer", "long", "string", "decimal", "value", "precision",
    "scale", "unresolvedAttribute", "unresolvedFunction", "functionName", "arguments", "alias", "name", "cast",
    "expr", "type", "typeStr", "evalMode", "array", "elementType", "elements", "join", "left", "right", "joinType",
    "sort", "order", "child", "direction", "limit", "subqueryAlias", "localRelation", "schema", "values",
    "aggregate", "groupType", "groupingExpressions", "aggregateExpressions", "setOp", "leftInput", "rightInput",
    "setOpType", "common", "planId", "expressionString", "expression", "traceLevel", "window", "windowFunction",
    "conf", "catalog", "tables", "null", "fields", "range", "end", "step", "lambdaFunction", "bogus"};

static json_t *rand_json(unsigned *seed, int depth) {
    int r = (int)(rand_r(seed) % (depth > 6 ? 6 : 9));
    switch (r) {
    case 0: return json_integer((json_int_t)(rand_r(seed) % 200) - 100);
    case 1: return json_string(KEYS[rand_r(seed) % (sizeof KEYS / sizeof KEYS[0])]);
    case 2: return json_boolean(rand_r(seed) & 1);
    case 3: return json_null();
    case 4: return json_string("12.50");
    case 5: return json_real(1.5);
    case 6:
    case 7: {
        json_t *o = json_object();
        int n = (int)(rand_r(seed) % 3) + 1;
        for (int i = 0; i < n; i++)
            json_object_set_new(o, KEYS[rand_r(seed) % (sizeof KEYS / sizeof KEYS[0])], rand_json(seed, depth + 1));
        return o;
    }
    default: {
        json_t *a = json_array();
        int n = (int)(rand_r(seed) % 3);
        for (int i = 0; i < n; i++) json_array_append_new(a, rand_json(seed, depth + 1));
        return a;
    }
    }
}

/* Mostly well-formed plans, with a random wrong turn now and then. */
static json_t *rand_expr(unsigned *seed, int depth);
static json_t *rand_rel(unsigned *seed, int depth) {
    if (rand_r(seed) % 23 == 0) return rand_json(seed, depth);
    int k = depth > 5 ? (int)(rand_r(seed) % 2) : (int)(rand_r(seed) % 9);
    switch (k) {
    case 0: return json_pack("{s:{s:s}}", "sql", "query", rand_r(seed) % 2 ? "SELECT 1 AS x" : "SELEC x");
    case 1: return json_pack("{s:{s:{s:s}}}", "read", "namedTable", "unparsedIdentifier", rand_r(seed) % 2 ? "t" : "a.`b`");
    case 2: return json_pack("{s:{s:o,s:[o,o]}}", "project", "input", rand_rel(seed, depth + 1), "expressions",
                             rand_expr(seed, depth + 1), rand_expr(seed, depth + 1));
    case 3: return json_pack("{s:{s:o,s:o}}", "filter", "input", rand_rel(seed, depth + 1), "condition", rand_expr(seed, depth + 1));
    case 4: return json_pack("{s:{s:o,s:o,s:s,s:o}}", "join", "left", rand_rel(seed, depth + 1), "right",
                             rand_rel(seed, depth + 1), "joinType", rand_r(seed) % 2 ? "JOIN_TYPE_INNER" : "JOIN_TYPE_LEFT_SEMI",
                             "joinCondition", rand_expr(seed, depth + 1));
    case 5: return json_pack("{s:{s:o,s:i}}", "limit", "input", rand_rel(seed, depth + 1), "limit", (int)(rand_r(seed) % 5) - 1);
    case 6: return json_pack("{s:{s:o,s:[o],s:[o]}}", "aggregate", "input", rand_rel(seed, depth + 1),
                             "groupingExpressions", rand_expr(seed, depth + 1), "aggregateExpressions", rand_expr(seed, depth + 1));
    case 7: return json_pack("{s:{s:o,s:s}}", "subqueryAlias", "input", rand_rel(seed, depth + 1), "alias", "q");
    default: return json_pack("{s:{s:o,s:o,s:s}}", "setOp", "leftInput", rand_rel(seed, depth + 1), "rightInput",
                              rand_rel(seed, depth + 1), "setOpType", "SET_OP_TYPE_UNION");
    }
}

static json_t *rand_expr(unsigned *seed, int depth) {
    if (rand_r(seed) % 23 == 0) return rand_json(seed, depth);
    int k = depth > 6 ? (int)(rand_r(seed) % 3) : (int)(rand_r(seed) % 8);
    switch (k) {
    case 0: return json_pack("{s:{s:i}}", "literal", "integer", (int)(rand_r(seed) % 100));
    case 1: return json_pack("{s:{s:s}}", "unresolvedAttribute", "unparsedIdentifier", rand_r(seed) % 2 ? "x" : "t.x");
    case 2: return json_pack("{s:{s:{s:s}}}", "literal", "decimal", "value", rand_r(seed) % 2 ? "1.25" : "-0.5");
    case 3: return json_pack("{s:{s:s,s:[o,o]}}", "unresolvedFunction", "functionName", rand_r(seed) % 2 ? "+" : "coalesce",
                             "arguments", rand_expr(seed, depth + 1), rand_expr(seed, depth + 1));
    case 4: return json_pack("{s:{s:o,s:[s]}}", "alias", "expr", rand_expr(seed, depth + 1), "name", "n");
    case 5: return json_pack("{s:{s:o,s:s}}", "cast", "expr", rand_expr(seed, depth + 1), "typeStr",
                             rand_r(seed) % 2 ? "bigint" : "array<int");
    case 6: return json_pack("{s:{s:s}}", "expressionString", "expression", rand_r(seed) % 2 ? "x + 1" : "x +");
    default: return json_pack("{s:{s:s}}", "unresolvedStar", "unparsedTarget", rand_r(seed) % 2 ? "" : "t.*");
    }
}

Test(fuzz, random_json_requests) {
    unsigned seed = 6;
    int accepted = 0, decoded = 0;
    for (int i = 0; i < 20000; i++) {
        json_t *j = json_object();
        if (i % 2)
            json_object_set_new(j, "plan", rand_rel(&seed, 0));
        else
            json_object_set_new(j, KEYS[rand_r(&seed) % (sizeof KEYS / sizeof KEYS[0])], rand_json(&seed, 0));
        char err[256];
        ProtobufCMessage *m = pb_from_json(j, &catalyzer__v1__analyze_request__descriptor, 64, err, sizeof err);
        json_decref(j);
        if (!m) {
            cr_assert(err[0]);
            continue;
        }
        accepted++;
        if (pb_validate(m, err, sizeof err)) {
            Catalyzer__V1__AnalyzeRequest *rq = (Catalyzer__V1__AnalyzeRequest *)m;
            /* bytes round trip and the wire check agree with the in-memory message */
            size_t n = protobuf_c_message_get_packed_size(m);
            uint8_t *buf = malloc(n + 1);
            protobuf_c_message_pack(m, buf);
            PbLimits lim = {64, 0};
            cr_assert_eq(pb_wire_check(buf, n, &catalyzer__v1__analyze_request__descriptor, &lim, err, sizeof err),
                         PB_CHECK_OK, "%s", err);
            free(buf);
            if (rq->input_case == CATALYZER__V1__ANALYZE_REQUEST__INPUT_PLAN) {
                Arena *a = arena_new(0);
                DecodeResult res;
                if (decode(a, rq->plan, (DecodeLimits){64, 10000}, &res)) decoded++;
                else cr_assert(res.message[0]);
                arena_free(a);
            }
        }
        protobuf_c_message_free_unpacked(m, NULL);
    }
    cr_log_info("random JSON: %d accepted, %d plans decoded", accepted, decoded);
    cr_assert(accepted > 0);
}

/* ---------------------------------------------------------------- correlation (x-request-id, traceparent) */

#include "trace.h"

Test(trace, request_id_rule) {
    cr_assert(request_id_valid("0f8fad5b-d9cb-469f-a165-70867728950e", 36));
    cr_assert(request_id_valid("svc:a/b+c=d@e.f_g", 17));
    cr_assert(!request_id_valid("", 0));
    cr_assert(!request_id_valid("has space", 9));
    cr_assert(!request_id_valid("quote\"", 6));
    cr_assert(!request_id_valid("line\nbreak", 10));
    char long_id[REQUEST_ID_MAX + 2];
    memset(long_id, 'a', sizeof long_id);
    cr_assert(request_id_valid(long_id, REQUEST_ID_MAX));
    cr_assert(!request_id_valid(long_id, REQUEST_ID_MAX + 1));
}

Test(trace, traceparent_valid) {
    TraceContext tc;
    const char *tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    cr_assert(trace_parse(&tc, tp, strlen(tp)));
    cr_assert_str_eq(tc.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
    cr_assert_str_eq(tc.parent_id, "00f067aa0ba902b7");
    cr_assert_eq(tc.flags, 1);
    cr_assert_eq(strlen(tc.span_id), 16);
    cr_assert_str_neq(tc.span_id, "0000000000000000");
    char child[56];
    trace_format_child(&tc, child);
    cr_assert_eq(strlen(child), 55);
    cr_assert(strncmp(child, "00-4bf92f3577b34da6a3ce929d0e0e4736-", 36) == 0);
    cr_assert(strcmp(child + 36 + 16, "-01") == 0);
    cr_assert(strncmp(child + 36, tc.span_id, 16) == 0);
    /* A later version may add fields after a '-'. */
    const char *v1 = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-future";
    cr_assert(trace_parse(&tc, v1, strlen(v1)));
    cr_assert_eq(tc.flags, 0);
}

Test(trace, traceparent_invalid) {
    const char *bad[] = {
        "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",               /* no flags */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",               /* v00 is exactly 55 */
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",                /* version ff */
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",                /* zero trace id */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",                /* zero parent id */
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",                /* uppercase */
        "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",                /* separators */
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",                /* not hex */
        "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",                /* version not hex */
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",               /* v01: longer needs a '-' */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",                /* flags not hex */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TraceContext tc;
        cr_assert(!trace_parse(&tc, bad[i], strlen(bad[i])), "accepted: %s", bad[i]);
        cr_assert(!tc.valid);
    }
}

/* ---------------------------------------------------------------- compression */

#include "grpc_compress.h"

Test(compress, names_and_accept_lists) {
    cr_assert_eq(grpc_encoding_parse("gzip", 4), GRPC_ENC_GZIP);
    cr_assert_eq(grpc_encoding_parse("deflate", 7), GRPC_ENC_DEFLATE);
    cr_assert_eq(grpc_encoding_parse("identity", 8), GRPC_ENC_IDENTITY);
    cr_assert_eq(grpc_encoding_parse("snappy", 6), GRPC_ENC_UNKNOWN);
    cr_assert_eq(grpc_encoding_parse("GZIP", 4), GRPC_ENC_UNKNOWN);
    const char *l = "identity, deflate ,gzip";
    cr_assert(grpc_accept_has(l, strlen(l), GRPC_ENC_GZIP));
    cr_assert(grpc_accept_has(l, strlen(l), GRPC_ENC_DEFLATE));
    cr_assert(!grpc_accept_has("identity", 8, GRPC_ENC_GZIP));
    cr_assert(!grpc_accept_has("gzipx", 5, GRPC_ENC_GZIP));
}

Test(compress, roundtrip_both_encodings) {
    uint8_t msg[10000];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)("SELECT a FROM t "[i % 16]);
    for (int e = GRPC_ENC_GZIP; e <= GRPC_ENC_DEFLATE; e++) {
        uint8_t *z, *back;
        size_t zn, bn;
        cr_assert(grpc_deflate((GrpcEncoding)e, msg, sizeof msg, &z, &zn));
        cr_assert_lt(zn, sizeof msg / 10);
        if (e == GRPC_ENC_GZIP) cr_assert(z[0] == 0x1f && z[1] == 0x8b, "a gzip member");
        cr_assert_eq(grpc_inflate((GrpcEncoding)e, z, zn, sizeof msg, &back, &bn), GRPC_INFLATE_OK);
        cr_assert_eq(bn, sizeof msg);
        cr_assert(memcmp(back, msg, bn) == 0);
        free(back);
        /* One byte under the size: refused while decompressing. */
        cr_assert_eq(grpc_inflate((GrpcEncoding)e, z, zn, sizeof msg - 1, &back, &bn), GRPC_INFLATE_TOO_LARGE);
        cr_assert_null(back);
        /* Truncated, or with bytes after the stream: corrupt. */
        cr_assert_eq(grpc_inflate((GrpcEncoding)e, z, zn - 3, sizeof msg, &back, &bn), GRPC_INFLATE_CORRUPT);
        uint8_t *extra = malloc(zn + 1);
        memcpy(extra, z, zn);
        extra[zn] = 0;
        cr_assert_eq(grpc_inflate((GrpcEncoding)e, extra, zn + 1, sizeof msg, &back, &bn), GRPC_INFLATE_CORRUPT);
        free(extra);
        free(z);
    }
    uint8_t *out;
    size_t on;
    cr_assert_eq(grpc_inflate(GRPC_ENC_GZIP, (const uint8_t *)"not gzip", 8, 100, &out, &on), GRPC_INFLATE_CORRUPT);
    /* Empty messages compress too. */
    uint8_t *z;
    size_t zn;
    cr_assert(grpc_deflate(GRPC_ENC_GZIP, msg, 0, &z, &zn));
    cr_assert_eq(grpc_inflate(GRPC_ENC_GZIP, z, zn, 0, &out, &on), GRPC_INFLATE_OK);
    cr_assert_eq(on, 0);
    free(out);
    free(z);
}

/* A "zip bomb": 64 MiB of zeros in ~64 KiB, bounded at 1 MiB while decompressing. */
Test(compress, bomb_is_bounded) {
    size_t big = 64u << 20;
    uint8_t *zeros = calloc(big, 1);
    uint8_t *z, *out;
    size_t zn, on;
    cr_assert(grpc_deflate(GRPC_ENC_GZIP, zeros, big, &z, &zn));
    free(zeros);
    cr_assert_lt(zn, 1u << 20);
    cr_assert_eq(grpc_inflate(GRPC_ENC_GZIP, z, zn, 1u << 20, &out, &on), GRPC_INFLATE_TOO_LARGE);
    free(z);
}

/* ---------------------------------------------------------------- reflection */

#include "reflection.h"

static Grpc__Reflection__V1__ServerReflectionResponse *ask(Grpc__Reflection__V1__ServerReflectionRequest *q) {
    size_t n = grpc__reflection__v1__server_reflection_request__get_packed_size(q);
    uint8_t *b = malloc(n ? n : 1);
    grpc__reflection__v1__server_reflection_request__pack(q, b);
    Grpc__Reflection__V1__ServerReflectionResponse *r = reflection_answer(b, n);
    free(b);
    cr_assert_not_null(r);
    return r;
}

Test(reflection, the_set_indexes) {
    cr_assert(reflection_init());
    cr_assert_geq(reflection_file_count(), 12, "catalyzer, health, 7 spark/connect, any, 2 reflection: %zu",
                  reflection_file_count());
    cr_assert_gt(reflection_symbol_count(), 500);
    for (size_t i = 0; i < REFLECTION_SERVICE_COUNT; i++)
        cr_assert_not_null(reflection_file_of(REFLECTION_SERVICES[i]), "served but not described: %s",
                           REFLECTION_SERVICES[i]);
    cr_assert_str_eq(reflection_file_of("catalyzer.v1.Analyzer.Analyze"), "catalyzer.proto");
    cr_assert_str_eq(reflection_file_of(".catalyzer.v1.AnalyzeRequest"), "catalyzer.proto");
    cr_assert_str_eq(reflection_file_of("grpc.health.v1.HealthCheckResponse.ServingStatus"), "health.proto");
    cr_assert_str_eq(reflection_file_of("grpc.health.v1.HealthCheckResponse.SERVING"), "health.proto");
    cr_assert_str_eq(reflection_file_of("spark.connect.Relation"), "spark/connect/relations.proto");
    cr_assert_str_eq(reflection_file_of("google.protobuf.Any"), "google/protobuf/any.proto");
    cr_assert_str_eq(reflection_file_of("grpc.reflection.v1alpha.ServerReflection"),
                     "grpc/reflection/v1alpha/reflection.proto");
    cr_assert_null(reflection_file_of("catalyzer.v1.NoSuchThing"));
    cr_assert_null(reflection_file_of("catalyzer"));
}

Test(reflection, answers) {
    Grpc__Reflection__V1__ServerReflectionRequest q = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__INIT;
    q.host = "h";
    q.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_LIST_SERVICES;
    q.list_services = "";
    Grpc__Reflection__V1__ServerReflectionResponse *r = ask(&q);
    cr_assert_eq(r->message_response_case,
                 GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_LIST_SERVICES_RESPONSE);
    cr_assert_eq(r->list_services_response->n_service, REFLECTION_SERVICE_COUNT);
    cr_assert_str_eq(r->valid_host, "h");
    cr_assert_not_null(r->original_request);
    reflection_response_free(r);

    q.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_SYMBOL;
    q.file_containing_symbol = "spark.connect.SparkConnectService";
    r = ask(&q);
    cr_assert_eq(r->message_response_case,
                 GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_FILE_DESCRIPTOR_RESPONSE);
    /* base.proto first, then what it imports, transitively, each once */
    cr_assert_geq(r->file_descriptor_response->n_file_descriptor_proto, 8);
    cr_assert(memmem(r->file_descriptor_response->file_descriptor_proto[0].data,
                     r->file_descriptor_response->file_descriptor_proto[0].len, "spark/connect/base.proto", 24));
    reflection_response_free(r);

    q.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_BY_FILENAME;
    q.file_by_filename = "health.proto";
    r = ask(&q);
    cr_assert_eq(r->file_descriptor_response->n_file_descriptor_proto, 1, "health.proto imports nothing");
    reflection_response_free(r);

    q.file_by_filename = "nope.proto";
    r = ask(&q);
    cr_assert_eq(r->message_response_case, GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ERROR_RESPONSE);
    cr_assert_eq(r->error_response->error_code, 5);
    reflection_response_free(r);

    q.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_ALL_EXTENSION_NUMBERS_OF_TYPE;
    q.all_extension_numbers_of_type = "catalyzer.v1.AnalyzeRequest";
    r = ask(&q);
    cr_assert_eq(r->message_response_case,
                 GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ALL_EXTENSION_NUMBERS_RESPONSE);
    cr_assert_str_eq(r->all_extension_numbers_response->base_type_name, "catalyzer.v1.AnalyzeRequest");
    cr_assert_eq(r->all_extension_numbers_response->n_extension_number, 0);
    reflection_response_free(r);

    q.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST__NOT_SET;
    r = ask(&q);
    cr_assert_eq(r->error_response->error_code, 3);
    reflection_response_free(r);

    cr_assert_null(reflection_answer((const uint8_t *)"\xff\xff\xff", 3), "garbage does not unpack");
}
