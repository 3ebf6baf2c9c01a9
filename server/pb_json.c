/* proto3 JSON <-> protobuf-c messages (see pb_json.h). */
#include "pb_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pb_json_name(const char *field, char *out, size_t cap) {
    size_t o = 0;
    bool up = false;
    for (const char *p = field; *p && o + 1 < cap; p++) {
        if (*p == '_') {
            up = true;
            continue;
        }
        out[o++] = (up && *p >= 'a' && *p <= 'z') ? (char)(*p - 32) : *p;
        up = false;
    }
    out[o] = '\0';
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *base64_encode(const unsigned char *p, size_t n) {
    char *out = malloc((n + 2) / 3 * 4 + 1);
    if (!out) return NULL;
    size_t o = 0, i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        out[o++] = B64[v >> 18];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = B64[(v >> 6) & 63];
        out[o++] = B64[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        out[o++] = B64[v >> 18];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = i + 1 < n ? B64[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    out[o] = '\0';
    return out;
}

static int b64val(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62; /* proto3 JSON accepts URL-safe too */
    if (c == '/' || c == '_') return 63;
    return -1;
}

bool base64_decode(const char *s, size_t n, unsigned char **out, size_t *outlen) {
    while (n > 0 && s[n - 1] == '=') n--;
    if (n % 4 == 1) return false;
    unsigned char *o = malloc(n * 3 / 4 + 1);
    if (!o) return false;
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64val(s[i]);
        if (v < 0) {
            free(o);
            return false;
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            o[k++] = (unsigned char)(acc >> bits);
        }
    }
    *out = o;
    *outlen = k;
    return true;
}

/* ---------------------------------------------------------------- output */

/* A map field: repeated message whose type is the generated XxxEntry with key = 1, value = 2. */
static bool is_map_field(const ProtobufCFieldDescriptor *fd) {
    if (fd->label != PROTOBUF_C_LABEL_REPEATED || fd->type != PROTOBUF_C_TYPE_MESSAGE) return false;
    const ProtobufCMessageDescriptor *d = fd->descriptor;
    size_t nl = strlen(d->name);
    return d->n_fields == 2 && d->fields[0].id == 1 && d->fields[1].id == 2 && strcmp(d->fields[0].name, "key") == 0 &&
           strcmp(d->fields[1].name, "value") == 0 && nl > 5 && strcmp(d->name + nl - 5, "Entry") == 0;
}

static json_t *value_to_json(const ProtobufCFieldDescriptor *fd, const void *p) {
    char buf[32];
    switch (fd->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: return json_integer(*(const int32_t *)p);
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: return json_integer(*(const uint32_t *)p);
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        snprintf(buf, sizeof buf, "%" PRId64, *(const int64_t *)p);
        return json_string(buf);
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        snprintf(buf, sizeof buf, "%" PRIu64, *(const uint64_t *)p);
        return json_string(buf);
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE: {
        double d = fd->type == PROTOBUF_C_TYPE_FLOAT ? *(const float *)p : *(const double *)p;
        if (isnan(d)) return json_string("NaN");
        if (isinf(d)) return json_string(d > 0 ? "Infinity" : "-Infinity");
        return json_real(d);
    }
    case PROTOBUF_C_TYPE_BOOL: return json_boolean(*(const protobuf_c_boolean *)p);
    case PROTOBUF_C_TYPE_ENUM: {
        const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(fd->descriptor, *(const int *)p);
        return ev ? json_string(ev->name) : json_integer(*(const int *)p);
    }
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)p;
        json_t *j = json_string(s ? s : "");
        return j ? j : json_string("\xEF\xBF\xBD"); /* invalid UTF-8 never reaches here after pb_validate */
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = p;
        char *e = base64_encode(b->data, b->len);
        json_t *j = json_string(e ? e : "");
        free(e);
        return j;
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *m = *(ProtobufCMessage *const *)p;
        return m ? pb_to_json(m) : json_object();
    }
    }
    return json_null();
}

static size_t elem_size(const ProtobufCFieldDescriptor *fd) {
    switch (fd->type) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return 8;
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(void *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    default: return 4;
    }
}

static bool is_default(const ProtobufCFieldDescriptor *fd, const void *p) {
    switch (fd->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)p;
        return !s || !*s;
    }
    case PROTOBUF_C_TYPE_MESSAGE: return *(void *const *)p == NULL;
    case PROTOBUF_C_TYPE_BYTES: return ((const ProtobufCBinaryData *)p)->len == 0;
    case PROTOBUF_C_TYPE_FLOAT: return *(const float *)p == 0;
    case PROTOBUF_C_TYPE_DOUBLE: return *(const double *)p == 0;
    default: {
        size_t n = elem_size(fd);
        static const unsigned char zero[8];
        return memcmp(p, zero, n) == 0;
    }
    }
}

json_t *pb_to_json(const ProtobufCMessage *msg) {
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    json_t *obj = json_object();
    const char *base = (const char *)msg;
    char name[128];
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *fd = &d->fields[i];
        pb_json_name(fd->name, name, sizeof name);
        const void *p = base + fd->offset;
        if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + fd->quantifier_offset);
            if (n == 0) continue;
            const char *arr = *(char *const *)p;
            if (is_map_field(fd)) {
                json_t *m = json_object();
                const ProtobufCMessageDescriptor *ed = fd->descriptor;
                for (size_t k = 0; k < n; k++) {
                    const char *e = ((char *const *)arr)[k];
                    const ProtobufCFieldDescriptor *kf = &ed->fields[0], *vf = &ed->fields[1];
                    json_t *key = value_to_json(kf, e + kf->offset);
                    const char *ks = json_is_string(key) ? json_string_value(key) : "";
                    char kb[32];
                    if (json_is_integer(key)) {
                        snprintf(kb, sizeof kb, "%" JSON_INTEGER_FORMAT, json_integer_value(key));
                        ks = kb;
                    } else if (json_is_boolean(key)) {
                        ks = json_is_true(key) ? "true" : "false";
                    }
                    json_object_set_new(m, ks, value_to_json(vf, e + vf->offset));
                    json_decref(key);
                }
                json_object_set_new(obj, name, m);
                continue;
            }
            json_t *a = json_array();
            size_t sz = elem_size(fd);
            for (size_t k = 0; k < n; k++) json_array_append_new(a, value_to_json(fd, arr + k * sz));
            json_object_set_new(obj, name, a);
            continue;
        }
        if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            if (*(const uint32_t *)(base + fd->quantifier_offset) != fd->id) continue;
        } else if (fd->label == PROTOBUF_C_LABEL_OPTIONAL && fd->type != PROTOBUF_C_TYPE_MESSAGE &&
                   fd->type != PROTOBUF_C_TYPE_STRING) {
            if (!*(const protobuf_c_boolean *)(base + fd->quantifier_offset)) continue;
        } else if (is_default(fd, p)) {
            continue;
        }
        json_object_set_new(obj, name, value_to_json(fd, p));
    }
    return obj;
}

/* ---------------------------------------------------------------- input */

typedef struct Ctx {
    char *err;
    size_t errlen;
    unsigned max_depth;
} Ctx;

static bool fail(Ctx *c, const char *fmt, const char *a, const char *b) {
    snprintf(c->err, c->errlen, fmt, a, b);
    return false;
}

static bool json_int64(const json_t *j, bool is_unsigned, int64_t *out) {
    if (json_is_integer(j)) {
        *out = json_integer_value(j);
        return !is_unsigned || *out >= 0;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        if (d != floor(d) || fabs(d) > 9.2e18) return false;
        *out = (int64_t)d;
        return !is_unsigned || *out >= 0;
    }
    if (json_is_string(j)) {
        const char *s = json_string_value(j);
        char *end;
        errno = 0;
        if (is_unsigned) {
            if (*s == '-') return false;
            unsigned long long v = strtoull(s, &end, 10);
            *out = (int64_t)v;
        } else {
            *out = strtoll(s, &end, 10);
        }
        return *s && !*end && errno == 0;
    }
    return false;
}

static ProtobufCMessage *msg_from_json(Ctx *c, const json_t *obj, const ProtobufCMessageDescriptor *desc, unsigned depth);

/* Writes one value of field fd parsed from j into p. */
static bool value_from_json(Ctx *c, const ProtobufCFieldDescriptor *fd, const json_t *j, void *p, unsigned depth) {
    int64_t v;
    switch (fd->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
        if (!json_int64(j, false, &v) || v < INT32_MIN || v > INT32_MAX)
            return fail(c, "field %s: expected a 32-bit integer%s", fd->name, "");
        *(int32_t *)p = (int32_t)v;
        return true;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
        if (!json_int64(j, true, &v) || v > UINT32_MAX)
            return fail(c, "field %s: expected an unsigned 32-bit integer%s", fd->name, "");
        *(uint32_t *)p = (uint32_t)v;
        return true;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        if (!json_int64(j, false, &v)) return fail(c, "field %s: expected a 64-bit integer%s", fd->name, "");
        *(int64_t *)p = v;
        return true;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        if (!json_int64(j, true, &v)) return fail(c, "field %s: expected an unsigned 64-bit integer%s", fd->name, "");
        *(uint64_t *)p = (uint64_t)v;
        return true;
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE: {
        double d;
        if (json_is_number(j)) {
            d = json_number_value(j);
        } else if (json_is_string(j) && strcmp(json_string_value(j), "NaN") == 0) {
            d = NAN;
        } else if (json_is_string(j) && strcmp(json_string_value(j), "Infinity") == 0) {
            d = INFINITY;
        } else if (json_is_string(j) && strcmp(json_string_value(j), "-Infinity") == 0) {
            d = -INFINITY;
        } else {
            return fail(c, "field %s: expected a number%s", fd->name, "");
        }
        if (fd->type == PROTOBUF_C_TYPE_FLOAT)
            *(float *)p = (float)d;
        else
            *(double *)p = d;
        return true;
    }
    case PROTOBUF_C_TYPE_BOOL:
        if (!json_is_boolean(j)) return fail(c, "field %s: expected true or false%s", fd->name, "");
        *(protobuf_c_boolean *)p = json_is_true(j);
        return true;
    case PROTOBUF_C_TYPE_ENUM: {
        const ProtobufCEnumDescriptor *ed = fd->descriptor;
        if (json_is_string(j)) {
            const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value_by_name(ed, json_string_value(j));
            if (!ev) return fail(c, "field %s: unknown enum value \"%s\"", fd->name, json_string_value(j));
            *(int *)p = ev->value;
            return true;
        }
        if (json_is_integer(j) && protobuf_c_enum_descriptor_get_value(ed, (int)json_integer_value(j)) &&
            json_integer_value(j) >= INT32_MIN && json_integer_value(j) <= INT32_MAX) {
            *(int *)p = (int)json_integer_value(j);
            return true;
        }
        return fail(c, "field %s: unknown enum value for %s", fd->name, ed->name);
    }
    case PROTOBUF_C_TYPE_STRING: {
        if (!json_is_string(j)) return fail(c, "field %s: expected a string%s", fd->name, "");
        size_t n = json_string_length(j);
        if (memchr(json_string_value(j), 0, n)) return fail(c, "field %s: NUL in string%s", fd->name, "");
        char *s = malloc(n + 1);
        if (!s) return fail(c, "out of memory%s%s", "", "");
        memcpy(s, json_string_value(j), n + 1);
        *(char **)p = s;
        return true;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        if (!json_is_string(j)) return fail(c, "field %s: expected a base64 string%s", fd->name, "");
        ProtobufCBinaryData *b = p;
        unsigned char *data;
        size_t n;
        if (!base64_decode(json_string_value(j), json_string_length(j), &data, &n))
            return fail(c, "field %s: invalid base64%s", fd->name, "");
        b->data = data;
        b->len = n;
        return true;
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
        ProtobufCMessage *m = msg_from_json(c, j, fd->descriptor, depth + 1);
        if (!m) return false;
        *(ProtobufCMessage **)p = m;
        return true;
    }
    }
    return fail(c, "field %s: unsupported type%s", fd->name, "");
}

static const ProtobufCFieldDescriptor *field_by_json_name(const ProtobufCMessageDescriptor *d, const char *key) {
    const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(d, key);
    if (fd) return fd;
    char name[128];
    for (unsigned i = 0; i < d->n_fields; i++) {
        pb_json_name(d->fields[i].name, name, sizeof name);
        if (strcmp(name, key) == 0) return &d->fields[i];
    }
    return NULL;
}

static bool map_from_json(Ctx *c, const ProtobufCFieldDescriptor *fd, const json_t *j, char *base, unsigned depth) {
    if (!json_is_object(j)) return fail(c, "field %s: expected an object (map)%s", fd->name, "");
    const ProtobufCMessageDescriptor *ed = fd->descriptor;
    size_t n = json_object_size(j);
    ProtobufCMessage **arr = calloc(n ? n : 1, sizeof *arr);
    if (!arr) return fail(c, "out of memory%s%s", "", "");
    *(ProtobufCMessage ***)(base + fd->offset) = arr;
    size_t *count = (size_t *)(base + fd->quantifier_offset);
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)j, key, val) {
        ProtobufCMessage *e = calloc(1, ed->sizeof_message);
        if (!e) return fail(c, "out of memory%s%s", "", "");
        ed->message_init(e);
        arr[(*count)++] = e;
        const ProtobufCFieldDescriptor *kf = &ed->fields[0], *vf = &ed->fields[1];
        json_t *kj;
        if (kf->type == PROTOBUF_C_TYPE_STRING)
            kj = json_string(key);
        else if (kf->type == PROTOBUF_C_TYPE_BOOL)
            kj = strcmp(key, "true") == 0 ? json_true() : strcmp(key, "false") == 0 ? json_false() : json_null();
        else
            kj = json_string(key); /* integers: json_int64 accepts strings */
        bool ok = value_from_json(c, kf, kj, (char *)e + kf->offset, depth);
        json_decref(kj);
        if (!ok || !value_from_json(c, vf, val, (char *)e + vf->offset, depth)) return false;
    }
    return true;
}

static ProtobufCMessage *msg_from_json(Ctx *c, const json_t *obj, const ProtobufCMessageDescriptor *desc, unsigned depth) {
    if (depth > c->max_depth) {
        snprintf(c->err, c->errlen, "JSON nesting exceeds the maximum depth of %u", c->max_depth);
        return NULL;
    }
    if (!json_is_object(obj)) {
        snprintf(c->err, c->errlen, "expected a JSON object for %s", desc->name);
        return NULL;
    }
    ProtobufCMessage *msg = calloc(1, desc->sizeof_message);
    if (!msg) return NULL;
    desc->message_init(msg);
    char *base = (char *)msg;
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        const ProtobufCFieldDescriptor *fd = field_by_json_name(desc, key);
        if (!fd) {
            snprintf(c->err, c->errlen, "unknown field \"%s\" in %s", key, desc->name);
            goto bad;
        }
        if (json_is_null(val)) continue; /* proto3 JSON: null means default */
        if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
            if (*(size_t *)(base + fd->quantifier_offset) != 0) {
                snprintf(c->err, c->errlen, "field %s given twice", fd->name);
                goto bad;
            }
            if (is_map_field(fd)) {
                if (!map_from_json(c, fd, val, base, depth)) goto bad;
                continue;
            }
            if (!json_is_array(val)) {
                snprintf(c->err, c->errlen, "field %s: expected an array", fd->name);
                goto bad;
            }
            size_t n = json_array_size(val), sz = elem_size(fd);
            char *arr = calloc(n ? n : 1, sz);
            if (!arr) goto bad;
            *(char **)(base + fd->offset) = arr;
            size_t *count = (size_t *)(base + fd->quantifier_offset);
            for (size_t k = 0; k < n; k++) {
                if (!value_from_json(c, fd, json_array_get(val, k), arr + k * sz, depth)) goto bad;
                (*count)++;
            }
            continue;
        }
        if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            uint32_t *cs = (uint32_t *)(base + fd->quantifier_offset);
            if (*cs != 0) {
                snprintf(c->err, c->errlen, "field %s: another member of its oneof is already set", fd->name);
                goto bad;
            }
            if (!value_from_json(c, fd, val, base + fd->offset, depth)) goto bad;
            *cs = fd->id;
            continue;
        }
        if ((fd->type == PROTOBUF_C_TYPE_MESSAGE && *(void **)(base + fd->offset)) ||
            (fd->type == PROTOBUF_C_TYPE_STRING && *(char **)(base + fd->offset) &&
             **(char **)(base + fd->offset))) {
            snprintf(c->err, c->errlen, "field %s given twice", fd->name);
            goto bad;
        }
        if (!value_from_json(c, fd, val, base + fd->offset, depth)) goto bad;
        if (fd->label == PROTOBUF_C_LABEL_OPTIONAL && fd->quantifier_offset)
            *(protobuf_c_boolean *)(base + fd->quantifier_offset) = 1;
    }
    return msg;
bad:
    protobuf_c_message_free_unpacked(msg, NULL);
    return NULL;
}

ProtobufCMessage *pb_from_json(const json_t *obj, const ProtobufCMessageDescriptor *desc, unsigned max_depth, char *err,
                               size_t errlen) {
    Ctx c = {err, errlen, max_depth};
    err[0] = '\0';
    return msg_from_json(&c, obj, desc, 0);
}
