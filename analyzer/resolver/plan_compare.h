/* The dual run's comparison of two analysed plans (plan_compare.c). */
#ifndef CZ_PLAN_COMPARE_H
#define CZ_PLAN_COMPARE_H

#include "core/analysis.h"
#include "core/ir.h"

/* NULL when a and b are the same plan up to a renaming of expression ids;
 * else the first difference, in words (in the arena). */
const char *plan_compare(Analysis *an, const Node *a, const Node *b);

#endif
