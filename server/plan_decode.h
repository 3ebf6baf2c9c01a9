/* Protobuf → IR: turns a catalyzer.v1.Relation (Spark Connect's vocabulary)
 * into an unresolved plan in the request arena, for cz_run_plan.
 *
 * No I/O and no sockets: tested directly. The wire depth was already
 * checked (pb_check.h) but the decoder counts depth itself too, so a message
 * built in memory (the JSON path) is held to the same limit. */
#ifndef CZ_PLAN_DECODE_H
#define CZ_PLAN_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "catalyzer.pb-c.h"
#include "core/arena.h"
#include "core/ir.h"

typedef struct DecodeLimits {
    uint32_t max_depth;
    uint32_t max_nodes;
} DecodeLimits;

/* Returns the plan, or NULL with a one-line reason in err. */
Node *plan_decode(Arena *a, const Catalyzer__V1__Relation *rel, const DecodeLimits *lim, char *err, size_t errlen);

/* A DataType message → Spark type (catalog_string wins when set). NULL + err on failure. */
const DataType *datatype_decode(Arena *a, const Catalyzer__V1__DataType *t, char *err, size_t errlen);

#endif
