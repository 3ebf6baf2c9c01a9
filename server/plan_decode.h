/* Protobuf → IR: turns a spark.connect.Relation into the unresolved plan
 * the analyzer resolves, as Spark Connect's SparkConnectPlanner does
 * (transformRelation / transformExpression): each relation and expression
 * kind becomes the node Spark's planner builds for it.
 *
 * Bad input — an unknown relation or expression type, a required field
 * missing, an unknown enum value, a plan id that matches no node — is
 * refused with a one-line reason naming the field and where in the plan it
 * is ("relation.project.expressions[2].unresolved_function: ..."). A valid
 * plan of a kind Catalyzer does not decode (Python UDFs, ML, streaming
 * writes) is reported as unsupported. A SQL text inside the plan that does
 * not parse is a Spark error (ParseException), as in Spark.
 *
 * No I/O: tested directly. The wire depth was already checked (pb_check.h)
 * but the decoder counts depth and nodes itself too, so a message built in
 * memory (the JSON path) is held to the same limits. */
#ifndef CZ_PLAN_DECODE_H
#define CZ_PLAN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/errors.h"
#include "core/ir.h"
#include "spark/connect/relations.pb-c.h"

typedef struct DecodeLimits {
    uint32_t max_depth;
    uint32_t max_nodes;
} DecodeLimits;

/* What the decoder needs from the session. */
typedef struct DecodeOptions {
    bool ansi;                      /* spark.sql.ansi.enabled: a Cast without eval mode */
    bool double_quoted_identifiers; /* parser options for SQL text in the plan */
    bool enforce_reserved_keywords;
    int default_parallelism;        /* Range without num_partitions: its splits (0: not printed) */
    ExprId first_id;                /* attributes the decoder makes are numbered after this */
    const char *time_zone;          /* spark.sql.session.timeZone (NULL: the server's zone): a TIMESTAMP literal's
                                       instant becomes that zone's wall clock, as the analyzer keeps it */
} DecodeOptions;

typedef enum DecodeStatus {
    DECODE_OK,
    DECODE_INVALID,     /* malformed plan: INVALID_ARGUMENT */
    DECODE_UNSUPPORTED, /* a valid plan Catalyzer cannot analyse: UNIMPLEMENTED */
    DECODE_SPARK_ERROR, /* Spark's own error (a parse error in SQL text): `spark` */
} DecodeStatus;

typedef struct DecodeResult {
    DecodeStatus status;
    char message[512];
    const ErrorInfo *spark; /* DECODE_SPARK_ERROR: in the arena */
} DecodeResult;

/* Returns the plan (in a), or NULL with *res saying why. */
Node *plan_decode(Arena *a, const Spark__Connect__Relation *rel, const DecodeLimits *lim, const DecodeOptions *opts,
                  DecodeResult *res);

#endif
