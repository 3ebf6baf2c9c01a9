/* IR → protobuf: the analysed plan as a generic ResolvedPlan tree (Catalyst
 * node names, attributes with expression ids, types, nullability,
 * qualifiers; subquery plans inline), data types, and the plan's output
 * attributes. Every message and array is allocated in the given arena, so
 * nothing is freed after packing. Strings point into the plan's arena. */
#ifndef CZ_PLAN_ENCODE_H
#define CZ_PLAN_ENCODE_H

#include "catalyzer.pb-c.h"
#include "core/arena.h"
#include "core/ir.h"

Catalyzer__V1__ResolvedPlan *plan_encode(Arena *a, const Node *plan);
/* Same, every node also carrying its output attributes and its line as the
 * tree string prints it (description): what the debugger page shows. */
Catalyzer__V1__ResolvedPlan *plan_encode_detailed(Arena *a, const Node *plan);
Catalyzer__V1__ResolvedExpression *expr_encode(Arena *a, const Node *e);
Catalyzer__V1__DataType *datatype_encode(Arena *a, const DataType *t);
Catalyzer__V1__DataType__Kind datatype_kind(TypeId id);
/* The output attributes of a resolved plan (Spark's LogicalPlan.output),
 * derived structurally; *n gets the count. */
Catalyzer__V1__Attribute **plan_output_encode(Arena *a, const Node *plan, size_t *n);
/* The expressions plan_output_encode makes its attributes of, in order (a
 * SubqueryAlias on top then requalifies them). */
const Node **plan_output_exprs(Arena *a, const Node *plan, size_t *n);
/* Levels of nested messages in m, m itself included (what a decoder's
 * recursion limit counts). */
unsigned pb_message_depth(const ProtobufCMessage *m);
/* The nesting stock protobuf decoders accept (Python's upb, C++ and Java's
 * default recursion limit): a response nested deeper cannot be read by them. */
enum { PB_STOCK_DECODER_DEPTH = 100 };


#endif
