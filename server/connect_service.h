/* spark.connect.SparkConnectService on catalyzerd's gRPC port: AnalyzePlan,
 * Config, ExecutePlan (commands), ReleaseExecute and ReleaseSession, with
 * Spark's session ids (UUIDs), its response shapes and its errors (a gRPC
 * status with google.rpc.Status details carrying ErrorInfo, see
 * connect_error.h). Sessions are the daemon's sessions: a Connect session
 * id names the same session on catalyzer.v1. */
#ifndef CZ_CONNECT_SERVICE_H
#define CZ_CONNECT_SERVICE_H

#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "job.h"

/* Loop side, before a session is looked up: Spark Connect's session ids are
 * UUIDs. False with Spark's error (INVALID_HANDLE.FORMAT): the message in
 * why, the google.rpc.Status in *details (malloc'ed; caller frees). */
bool connect_session_id_check(const char *id, char *why, size_t whylen, uint8_t **details, size_t *dlen);

/* The request message type of a SparkConnectService method. */
const ProtobufCMessageDescriptor *connect_request_descriptor(RpcMethod m);

/* Worker side: runs one call on its decoded request, emitting the responses.
 * Returns the gRPC status; on failure err holds the message and the job
 * holds the status details. a: the call's scratch arena. */
int connect_rpc_run(Job *j, ProtobufCMessage *rq, Arena *a, char *err, size_t errlen);

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (hex digits, either case). */
bool uuid_valid(const char *s);
/* A random (version 4) UUID into out[37]. */
void uuid_new(char out[37]);

#endif
