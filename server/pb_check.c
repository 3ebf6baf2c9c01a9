/* Wire-level depth/size check and post-unpack validation (see pb_check.h). */
#include "pb_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.pb-c.h"
#include "spark/connect/expressions.pb-c.h"
#include "spark/connect/relations.pb-c.h"
#include "spark/connect/types.pb-c.h"

enum { WIRE_STACK = 64 }; /* message nesting tracked per explicit-stack block */

bool pb_is_node_message(const ProtobufCMessageDescriptor *d) {
    /* Literals count too: an array literal nests literals without an Expression between. */
    return d == &spark__connect__relation__descriptor || d == &spark__connect__expression__descriptor ||
           d == &spark__connect__expression__literal__descriptor || d == &spark__connect__data_type__descriptor ||
           d == &catalyzer__v1__data_type__descriptor || d == &catalyzer__v1__resolved_plan__descriptor ||
           d == &catalyzer__v1__resolved_expression__descriptor;
}

static bool read_varint(const uint8_t *buf, size_t end, size_t *pos, uint64_t *out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*pos >= end) return false;
        uint8_t b = buf[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

typedef struct Frame {
    size_t end;
    const ProtobufCMessageDescriptor *desc;
    uint32_t node_depth;
} Frame;

PbCheck pb_wire_check(const uint8_t *buf, size_t len, const ProtobufCMessageDescriptor *desc, const PbLimits *lim,
                      char *err, size_t errlen) {
    /* The explicit stack holds one frame per nested message. Non-node
     * messages between nodes are few (at most 3 per node level in this
     * schema), so 4 frames per allowed node level plus slack suffices; a
     * deeper input is rejected as too deep. */
    size_t cap = (size_t)lim->max_depth * 4 + 16;
    Frame small[WIRE_STACK];
    Frame *stack = small;
    Frame *heap = NULL;
    if (cap > WIRE_STACK) {
        heap = malloc(cap * sizeof(Frame));
        if (!heap) {
            snprintf(err, errlen, "out of memory");
            return PB_CHECK_MALFORMED;
        }
        stack = heap;
    } else {
        cap = WIRE_STACK;
    }
    PbCheck rc = PB_CHECK_OK;
    size_t sp = 0, pos = 0;
    uint64_t nodes = pb_is_node_message(desc) ? 1 : 0;
    stack[sp++] = (Frame){len, desc, nodes ? 1u : 0u};
    while (sp > 0) {
        Frame *f = &stack[sp - 1];
        if (pos == f->end) {
            sp--;
            continue;
        }
        uint64_t key;
        if (!read_varint(buf, f->end, &pos, &key)) {
            snprintf(err, errlen, "malformed protobuf: truncated field key in %s", f->desc->name);
            rc = PB_CHECK_MALFORMED;
            break;
        }
        uint32_t field = (uint32_t)(key >> 3);
        unsigned wt = (unsigned)(key & 7);
        if (field == 0 || key >> 3 > 0x1fffffff) {
            snprintf(err, errlen, "malformed protobuf: field number 0 in %s", f->desc->name);
            rc = PB_CHECK_MALFORMED;
            break;
        }
        uint64_t v;
        switch (wt) {
        case 0:
            if (!read_varint(buf, f->end, &pos, &v)) goto truncated;
            break;
        case 1:
            if (f->end - pos < 8) goto truncated;
            pos += 8;
            break;
        case 5:
            if (f->end - pos < 4) goto truncated;
            pos += 4;
            break;
        case 2: {
            if (!read_varint(buf, f->end, &pos, &v) || v > f->end - pos) goto truncated;
            const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(f->desc, field);
            if (fd && fd->type == PROTOBUF_C_TYPE_MESSAGE) {
                const ProtobufCMessageDescriptor *sub = fd->descriptor;
                uint32_t nd = f->node_depth;
                if (pb_is_node_message(sub)) {
                    nd++;
                    nodes++;
                    if (nd > lim->max_depth) {
                        snprintf(err, errlen, "plan nesting exceeds the maximum depth of %u", lim->max_depth);
                        rc = PB_CHECK_TOO_DEEP;
                        goto done;
                    }
                    if (lim->max_nodes && nodes > lim->max_nodes) {
                        snprintf(err, errlen, "plan exceeds the maximum of %u nodes", lim->max_nodes);
                        rc = PB_CHECK_TOO_MANY_NODES;
                        goto done;
                    }
                }
                if (sp == cap) {
                    snprintf(err, errlen, "plan nesting exceeds the maximum depth of %u", lim->max_depth);
                    rc = PB_CHECK_TOO_DEEP;
                    goto done;
                }
                stack[sp++] = (Frame){pos + (size_t)v, sub, nd};
                continue; /* pos now at the start of the submessage */
            }
            pos += (size_t)v;
            break;
        }
        default:
            snprintf(err, errlen, "malformed protobuf: wire type %u (groups are not used) in %s", wt, f->desc->name);
            rc = PB_CHECK_MALFORMED;
            goto done;
        }
        continue;
    truncated:
        snprintf(err, errlen, "malformed protobuf: truncated field %u in %s", field, f->desc->name);
        rc = PB_CHECK_MALFORMED;
        break;
    }
done:
    free(heap);
    return rc;
}

bool utf8_valid(const char *str, size_t len) {
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        unsigned cp;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (len - i <= n) return false;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

/* The path of the value being checked ("plan.root.join.join_type"), so an
 * error says where in the message it is. Recursion is bounded: pb_wire_check
 * already limited the nesting. */
typedef struct VPath {
    char buf[400];
    size_t len;
} VPath;

static size_t vpath_push(VPath *p, const char *name, long idx) {
    size_t old = p->len;
    int n = idx >= 0 ? snprintf(p->buf + p->len, sizeof p->buf - p->len, "%s%s[%ld]", old ? "." : "", name, idx)
                     : snprintf(p->buf + p->len, sizeof p->buf - p->len, "%s%s", old ? "." : "", name);
    if (n > 0) p->len = p->len + (size_t)n < sizeof p->buf ? p->len + (size_t)n : sizeof p->buf - 1;
    return old;
}

static bool validate_msg(const ProtobufCMessage *msg, VPath *path, char *err, size_t errlen);

static bool validate_value(const ProtobufCFieldDescriptor *fd, const void *p, VPath *path, char *err, size_t errlen) {
    switch (fd->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)p;
        if (s && !utf8_valid(s, strlen(s))) {
            snprintf(err, errlen, "field %s: invalid UTF-8 (at %s)", fd->name, path->buf);
            return false;
        }
        return true;
    }
    case PROTOBUF_C_TYPE_ENUM: {
        int v = *(const int *)p;
        if (!protobuf_c_enum_descriptor_get_value(fd->descriptor, v)) {
            snprintf(err, errlen, "field %s: unknown enum value %d for %s (at %s)", fd->name, v,
                     ((const ProtobufCEnumDescriptor *)fd->descriptor)->name, path->buf);
            return false;
        }
        return true;
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *m = *(ProtobufCMessage *const *)p;
        return !m || validate_msg(m, path, err, errlen);
    }
    default:
        return true;
    }
}

static bool validate_msg(const ProtobufCMessage *msg, VPath *path, char *err, size_t errlen) {
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *fd = &d->fields[i];
        if (fd->type != PROTOBUF_C_TYPE_STRING && fd->type != PROTOBUF_C_TYPE_ENUM && fd->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        const char *base = (const char *)msg;
        if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + fd->quantifier_offset);
            const char *arr = *(char *const *)(base + fd->offset);
            size_t sz = fd->type == PROTOBUF_C_TYPE_ENUM ? sizeof(int) : sizeof(void *);
            for (size_t k = 0; k < n; k++) {
                size_t mark = vpath_push(path, fd->name, (long)k);
                bool ok = validate_value(fd, arr + k * sz, path, err, errlen);
                path->len = mark;
                path->buf[mark] = '\0';
                if (!ok) return false;
            }
            continue;
        }
        if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            if (*(const uint32_t *)(base + fd->quantifier_offset) != fd->id) continue;
        }
        size_t mark = fd->type == PROTOBUF_C_TYPE_MESSAGE ? vpath_push(path, fd->name, -1) : path->len;
        bool ok = validate_value(fd, base + fd->offset, path, err, errlen);
        path->len = mark;
        path->buf[mark] = '\0';
        if (!ok) return false;
    }
    return true;
}

bool pb_validate(const ProtobufCMessage *msg, char *err, size_t errlen) {
    VPath path;
    path.len = 0;
    snprintf(path.buf, sizeof path.buf, "%s", msg->descriptor->short_name);
    path.len = strlen(path.buf);
    return validate_msg(msg, &path, err, errlen);
}
