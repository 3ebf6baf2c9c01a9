/* What a plan node's expressions read (lib/plan_inputs.c). */
#ifndef CZ_RULES_LIB_PLAN_INPUTS_H
#define CZ_RULES_LIB_PLAN_INPUTS_H

#include <stdbool.h>

#include "core/analysis.h"
#include "core/output.h"

/* Children of plan all resolved (Spark's childrenResolved). */
bool children_resolved(const Node *plan);
/* The input attributes of plan's expressions: its children's output (arena when several). */
AttrList plan_input(Analysis *an, const Node *plan);
/* Whether every attribute e references (outside subqueries and outer references) is one of attrs. */
bool expr_refs_within(const Node *e, AttrList attrs);

#endif
