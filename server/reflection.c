/* gRPC server reflection over the embedded descriptor set (see reflection.h).
 *
 * The set is a google.protobuf.FileDescriptorSet; rather than link
 * descriptor.proto's generated code, the few fields reflection needs are read
 * straight off the wire: FileDescriptorProto name (1), package (2),
 * dependency (3), message_type (4), enum_type (5), service (6), extension (7);
 * DescriptorProto name (1), field (2), nested_type (3), enum_type (4),
 * extension (6); EnumDescriptorProto name (1), value (2); ServiceDescriptorProto
 * name (1), method (2); and the name (1) of fields, values and methods. */
#include "reflection.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char CZ_REFLECTION_FDS[];
extern const size_t CZ_REFLECTION_FDS_LEN;

const char *const REFLECTION_SERVICES[] = {
    "catalyzer.v1.Analyzer",
    "spark.connect.SparkConnectService",
    "grpc.health.v1.Health",
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
};
const size_t REFLECTION_SERVICE_COUNT = sizeof REFLECTION_SERVICES / sizeof REFLECTION_SERVICES[0];

enum { MAX_FILES = 64, MAX_DEPS = 32 };

typedef struct ReflFile {
    char *name;
    const uint8_t *data;
    size_t len;
    int deps[MAX_DEPS];
    int ndeps;
    char *dep_names[MAX_DEPS];
} ReflFile;

typedef struct Symbol {
    char *name;
    int file;
} Symbol;

static ReflFile files[MAX_FILES];
static int nfiles;
static Symbol *symbols;
static size_t nsymbols, symcap;
static bool init_ok;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* ---------------------------------------------------------------- wire reading */

typedef struct Field {
    uint32_t num;
    unsigned wt;
    uint64_t v;        /* varint value */
    const uint8_t *p;  /* length-delimited payload */
    size_t n;
} Field;

static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*p >= end) return false;
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* Next field of [*p, end); false at the end or on a malformed field (*bad set). */
static bool next_field(const uint8_t **p, const uint8_t *end, Field *f, bool *bad) {
    if (*p >= end) return false;
    uint64_t key;
    if (!varint(p, end, &key)) goto fail;
    f->num = (uint32_t)(key >> 3);
    f->wt = key & 7;
    switch (f->wt) {
    case 0:
        if (!varint(p, end, &f->v)) goto fail;
        return true;
    case 1:
    case 5: {
        size_t k = f->wt == 1 ? 8 : 4;
        if ((size_t)(end - *p) < k) goto fail;
        *p += k;
        return true;
    }
    case 2: {
        uint64_t n;
        if (!varint(p, end, &n) || n > (uint64_t)(end - *p)) goto fail;
        f->p = *p;
        f->n = (size_t)n;
        *p += n;
        return true;
    }
    default: goto fail;
    }
fail:
    *bad = true;
    return false;
}

static char *dup_n(const uint8_t *p, size_t n) {
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* The name (field 1) of a descriptor message. */
static bool name_of(const uint8_t *p, size_t n, const uint8_t **name, size_t *nl) {
    const uint8_t *q = p, *end = p + n;
    Field f = {0};
    bool bad = false;
    *name = NULL;
    *nl = 0;
    while (next_field(&q, end, &f, &bad))
        if (f.num == 1 && f.wt == 2) {
            *name = f.p;
            *nl = f.n;
        }
    return !bad && *name;
}

static bool add_symbol(const char *scope, const uint8_t *name, size_t nl, int file, char **full) {
    size_t sl = strlen(scope);
    char *s = malloc(sl + 1 + nl + 1);
    if (!s) return false;
    if (sl) {
        memcpy(s, scope, sl);
        s[sl] = '.';
        memcpy(s + sl + 1, name, nl);
        s[sl + 1 + nl] = '\0';
    } else {
        memcpy(s, name, nl);
        s[nl] = '\0';
    }
    if (nsymbols == symcap) {
        size_t nc = symcap ? symcap * 2 : 512;
        Symbol *ns = realloc(symbols, nc * sizeof *ns);
        if (!ns) {
            free(s);
            return false;
        }
        symbols = ns;
        symcap = nc;
    }
    symbols[nsymbols].name = s;
    symbols[nsymbols].file = file;
    nsymbols++;
    if (full) *full = s;
    return true;
}

/* Children named by field 1 of each length-delimited field `num`: fields,
 * enum values, methods. */
static bool index_leaves(const uint8_t *p, size_t n, uint32_t num, const char *scope, int file) {
    const uint8_t *q = p, *end = p + n;
    Field f = {0};
    bool bad = false;
    while (next_field(&q, end, &f, &bad)) {
        if (f.num != num || f.wt != 2) continue;
        const uint8_t *nm;
        size_t nl;
        if (!name_of(f.p, f.n, &nm, &nl) || !add_symbol(scope, nm, nl, file, NULL)) return false;
    }
    return !bad;
}

/* An enum at scope: the enum, and its values beside it (protobuf's C++ scoping). */
static bool index_enum(const uint8_t *p, size_t n, const char *scope, int file) {
    const uint8_t *nm;
    size_t nl;
    return name_of(p, n, &nm, &nl) && add_symbol(scope, nm, nl, file, NULL) && index_leaves(p, n, 2, scope, file);
}

static bool index_message(const uint8_t *p, size_t n, const char *scope, int file, int depth) {
    const uint8_t *nm;
    size_t nl;
    char *full;
    if (depth > 32 || !name_of(p, n, &nm, &nl) || !add_symbol(scope, nm, nl, file, &full)) return false;
    const uint8_t *q = p, *end = p + n;
    Field f = {0};
    bool bad = false;
    while (next_field(&q, end, &f, &bad)) {
        if (f.wt != 2) continue;
        const uint8_t *cn;
        size_t cl;
        bool ok = true;
        if (f.num == 2 || f.num == 6) ok = name_of(f.p, f.n, &cn, &cl) && add_symbol(full, cn, cl, file, NULL);
        else if (f.num == 3) ok = index_message(f.p, f.n, full, file, depth + 1);
        else if (f.num == 4) ok = index_enum(f.p, f.n, full, file);
        if (!ok) return false;
    }
    return !bad;
}

static bool index_file(int fi) {
    ReflFile *rf = &files[fi];
    const uint8_t *q = rf->data, *end = rf->data + rf->len;
    Field f = {0};
    bool bad = false;
    char *pkg = NULL;
    /* The package first: the symbols need it whatever the field order. */
    while (next_field(&q, end, &f, &bad)) {
        if (f.wt != 2) continue;
        if (f.num == 1) {
            free(rf->name);
            rf->name = dup_n(f.p, f.n);
        } else if (f.num == 2) {
            free(pkg);
            pkg = dup_n(f.p, f.n);
        } else if (f.num == 3 && rf->ndeps < MAX_DEPS) {
            rf->dep_names[rf->ndeps++] = dup_n(f.p, f.n);
        }
    }
    if (bad || !rf->name) {
        free(pkg);
        return false;
    }
    const char *scope = pkg ? pkg : "";
    bool ok = true;
    q = rf->data;
    while (ok && next_field(&q, end, &f, &bad)) {
        if (f.wt != 2) continue;
        if (f.num == 4) ok = index_message(f.p, f.n, scope, fi, 0);
        else if (f.num == 5) ok = index_enum(f.p, f.n, scope, fi);
        else if (f.num == 7) {
            const uint8_t *nm;
            size_t nl;
            ok = name_of(f.p, f.n, &nm, &nl) && add_symbol(scope, nm, nl, fi, NULL);
        } else if (f.num == 6) {
            const uint8_t *nm;
            size_t nl;
            char *svc;
            ok = name_of(f.p, f.n, &nm, &nl) && add_symbol(scope, nm, nl, fi, &svc) && index_leaves(f.p, f.n, 2, svc, fi);
        }
    }
    free(pkg);
    return ok && !bad;
}

static int file_index(const char *name) {
    for (int i = 0; i < nfiles; i++)
        if (strcmp(files[i].name, name) == 0) return i;
    return -1;
}

static void do_init(void) {
    const uint8_t *q = CZ_REFLECTION_FDS, *end = CZ_REFLECTION_FDS + CZ_REFLECTION_FDS_LEN;
    Field f = {0};
    bool bad = false;
    while (next_field(&q, end, &f, &bad)) {
        if (f.num != 1 || f.wt != 2) continue; /* FileDescriptorSet.file */
        if (nfiles == MAX_FILES) return;
        files[nfiles].data = f.p;
        files[nfiles].len = f.n;
        if (!index_file(nfiles)) return;
        nfiles++;
    }
    if (bad) return;
    for (int i = 0; i < nfiles; i++)
        for (int d = 0; d < files[i].ndeps; d++) {
            int k = files[i].dep_names[d] ? file_index(files[i].dep_names[d]) : -1;
            if (k < 0) return; /* --include_imports puts every dependency in the set */
            files[i].deps[d] = k;
        }
    init_ok = true;
}

bool reflection_init(void) {
    pthread_once(&once, do_init);
    return init_ok;
}

size_t reflection_file_count(void) { return reflection_init() ? (size_t)nfiles : 0; }
size_t reflection_symbol_count(void) { return reflection_init() ? nsymbols : 0; }

static int symbol_file(const char *name) {
    if (*name == '.') name++; /* a fully-qualified ".pkg.Type" */
    for (size_t i = 0; i < nsymbols; i++)
        if (strcmp(symbols[i].name, name) == 0) return symbols[i].file;
    return -1;
}

const char *reflection_file_of(const char *symbol) {
    if (!reflection_init()) return NULL;
    int k = symbol_file(symbol);
    return k < 0 ? NULL : files[k].name;
}

/* ---------------------------------------------------------------- answers */

typedef Grpc__Reflection__V1__ServerReflectionRequest Req;
typedef Grpc__Reflection__V1__ServerReflectionResponse Resp;

/* The file, then its transitive dependencies (each once), as grpc-go sends them. */
static void collect(int fi, bool *seen, int *order, int *n) {
    if (seen[fi]) return;
    seen[fi] = true;
    order[(*n)++] = fi;
    for (int d = 0; d < files[fi].ndeps; d++) collect(files[fi].deps[d], seen, order, n);
}

static void answer_files(Resp *r, int fi) {
    bool seen[MAX_FILES] = {0};
    int order[MAX_FILES], n = 0;
    collect(fi, seen, order, &n);
    Grpc__Reflection__V1__FileDescriptorResponse *fd = malloc(sizeof *fd);
    ProtobufCBinaryData *list = calloc((size_t)n, sizeof *list);
    if (!fd || !list) {
        free(fd);
        free(list);
        return;
    }
    grpc__reflection__v1__file_descriptor_response__init(fd);
    for (int i = 0; i < n; i++) {
        list[i].data = (uint8_t *)files[order[i]].data; /* borrowed: the embedded set outlives the response */
        list[i].len = files[order[i]].len;
    }
    fd->n_file_descriptor_proto = (size_t)n;
    fd->file_descriptor_proto = list;
    r->message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_FILE_DESCRIPTOR_RESPONSE;
    r->file_descriptor_response = fd;
}

static void answer_error(Resp *r, int code, const char *fmt, const char *what) {
    Grpc__Reflection__V1__ErrorResponse *e = malloc(sizeof *e);
    if (!e) return;
    grpc__reflection__v1__error_response__init(e);
    e->error_code = code;
    size_t n = strlen(fmt) + strlen(what) + 1;
    e->error_message = malloc(n);
    if (e->error_message) snprintf(e->error_message, n, fmt, what);
    else e->error_message = (char *)protobuf_c_empty_string;
    r->message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ERROR_RESPONSE;
    r->error_response = e;
}

static void answer_services(Resp *r) {
    Grpc__Reflection__V1__ListServiceResponse *l = malloc(sizeof *l);
    Grpc__Reflection__V1__ServiceResponse *s = calloc(REFLECTION_SERVICE_COUNT, sizeof *s);
    Grpc__Reflection__V1__ServiceResponse **ps = calloc(REFLECTION_SERVICE_COUNT, sizeof *ps);
    if (!l || !s || !ps) {
        free(l);
        free(s);
        free(ps);
        return;
    }
    grpc__reflection__v1__list_service_response__init(l);
    for (size_t i = 0; i < REFLECTION_SERVICE_COUNT; i++) {
        grpc__reflection__v1__service_response__init(&s[i]);
        s[i].name = (char *)REFLECTION_SERVICES[i];
        ps[i] = &s[i];
    }
    l->n_service = REFLECTION_SERVICE_COUNT;
    l->service = ps;
    r->message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_LIST_SERVICES_RESPONSE;
    r->list_services_response = l;
}

static void answer_extensions(Resp *r, const char *type) {
    if (symbol_file(type) < 0) return answer_error(r, 5 /* NOT_FOUND */, "type not found: %s", type);
    Grpc__Reflection__V1__ExtensionNumberResponse *x = malloc(sizeof *x);
    if (!x) return;
    grpc__reflection__v1__extension_number_response__init(x);
    x->base_type_name = strdup(type);
    if (!x->base_type_name) x->base_type_name = (char *)protobuf_c_empty_string;
    /* The served protos declare no extensions (proto3). */
    r->message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ALL_EXTENSION_NUMBERS_RESPONSE;
    r->all_extension_numbers_response = x;
}

Resp *reflection_answer(const uint8_t *req, size_t len) {
    Req *q = grpc__reflection__v1__server_reflection_request__unpack(NULL, len, req);
    if (!q) return NULL;
    Resp *r = malloc(sizeof *r);
    if (!r) {
        grpc__reflection__v1__server_reflection_request__free_unpacked(q, NULL);
        return NULL;
    }
    grpc__reflection__v1__server_reflection_response__init(r);
    r->valid_host = q->host; /* owned by q, freed with it */
    r->original_request = q;
    if (!reflection_init()) {
        answer_error(r, 13 /* INTERNAL */, "%sthe daemon's descriptor set is malformed", "");
        return r;
    }
    int fi;
    switch (q->message_request_case) {
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_BY_FILENAME:
        fi = file_index(q->file_by_filename);
        if (fi < 0) answer_error(r, 5, "file not found: %s", q->file_by_filename);
        else answer_files(r, fi);
        break;
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_SYMBOL:
        fi = symbol_file(q->file_containing_symbol);
        if (fi < 0) answer_error(r, 5, "symbol not found: %s", q->file_containing_symbol);
        else answer_files(r, fi);
        break;
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_EXTENSION:
        answer_error(r, 5, "extension not found%s", ""); /* none declared */
        break;
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_ALL_EXTENSION_NUMBERS_OF_TYPE:
        answer_extensions(r, q->all_extension_numbers_of_type);
        break;
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_LIST_SERVICES:
        answer_services(r);
        break;
    default:
        answer_error(r, 3 /* INVALID_ARGUMENT */, "%sthe request names no message_request", "");
        break;
    }
    return r;
}

void reflection_response_free(Resp *r) {
    if (!r) return;
    switch (r->message_response_case) {
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_FILE_DESCRIPTOR_RESPONSE:
        free(r->file_descriptor_response->file_descriptor_proto);
        free(r->file_descriptor_response);
        break;
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ERROR_RESPONSE:
        if (r->error_response->error_message != protobuf_c_empty_string) free(r->error_response->error_message);
        free(r->error_response);
        break;
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_LIST_SERVICES_RESPONSE:
        if (r->list_services_response->n_service) free(r->list_services_response->service[0]);
        free(r->list_services_response->service);
        free(r->list_services_response);
        break;
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ALL_EXTENSION_NUMBERS_RESPONSE:
        if (r->all_extension_numbers_response->base_type_name != protobuf_c_empty_string)
            free(r->all_extension_numbers_response->base_type_name);
        free(r->all_extension_numbers_response);
        break;
    default: break;
    }
    if (r->original_request) grpc__reflection__v1__server_reflection_request__free_unpacked(r->original_request, NULL);
    free(r);
}
