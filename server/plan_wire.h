/* IR → protobuf wire bytes, directly: the ResolvedPlan message plan_encode
 * (or plan_encode_detailed) would build, packed as plan_pack packs it, but
 * written straight from the analysed plan — no protobuf-c structs built,
 * then read again. What the daemon's gRPC path and `catalyzer bench
 * --phases` use; JSON still goes through the structs. The bytes are those
 * of pb_prepend_resolved_plan(plan_encode(...)), which
 * tests/integration/test_plan_pack.c checks over many plans and every
 * workload query.
 *
 * The nesting depth (pb_message_depth of the same message) is computed on
 * the way, so the daemon's depth limit needs no second walk. */
#ifndef CZ_PLAN_WIRE_H
#define CZ_PLAN_WIRE_H

#include <stdbool.h>

#include "core/arena.h"
#include "core/ir.h"
#include "catalyzer.pb-c.h"
#include "plan_pack.h"

/* Prepends plan's ResolvedPlan fields (no tag or length) to w; strings the
 * encoder prints (types, literals, descriptions) go in a. Returns the
 * message's depth: levels of nested messages, itself included. */
unsigned plan_wire_prepend_plan(PbRevWriter *w, Arena *a, const Node *plan, bool details);
/* plan_output_encode's attributes packed, each one's fields (no tag or
 * length) back to back, the first first; *n gets their count. Returns the
 * deepest one's depth (0 if none). */
unsigned plan_wire_prepend_output(PbRevWriter *w, Arena *a, const Node *plan, size_t *n);
/* The same attributes as carriers (plan_pack.h's attribute_carrier), for an
 * AnalyzeResult's output; *depth gets the deepest one's. NULL on failure. */
Catalyzer__V1__Attribute **plan_wire_output(Arena *a, const Node *plan, size_t *n, unsigned *depth);

#endif
