/* gRPC server reflection (grpc.reflection.v1 and v1alpha ServerReflection,
 * doc/server-reflection.md): the FileDescriptorProtos of the services the
 * daemon serves, compiled into it at build time (protoc --descriptor_set_out
 * --include_imports over catalyzer.proto, spark/connect/base.proto,
 * health.proto and the reflection protos themselves; see proto/meson.build).
 *
 * No I/O here: reflection_answer turns one ServerReflectionRequest into its
 * ServerReflectionResponse. v1 and v1alpha share their wire format, so one
 * code path answers both. */
#ifndef CZ_REFLECTION_H
#define CZ_REFLECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grpc/reflection/v1/reflection.pb-c.h"

/* The services list_services names, in that order. */
extern const char *const REFLECTION_SERVICES[];
extern const size_t REFLECTION_SERVICE_COUNT;

/* Indexes the embedded descriptor set (once; thread-safe). False if it is
 * malformed (a build problem). */
bool reflection_init(void);

/* The response to one request (packed ServerReflectionRequest bytes): a
 * malloc'ed ServerReflectionResponse message (free with
 * reflection_response_free). NULL when the request does not unpack. */
Grpc__Reflection__V1__ServerReflectionResponse *reflection_answer(const uint8_t *req, size_t len);
void reflection_response_free(Grpc__Reflection__V1__ServerReflectionResponse *r);

/* For tests: the number of files and symbols indexed; the file declaring a
 * symbol (NULL: none). */
size_t reflection_file_count(void);
size_t reflection_symbol_count(void);
const char *reflection_file_of(const char *symbol);

#endif
