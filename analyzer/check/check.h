/* CheckAnalysis (check/check.c): after the last batch, whatever is still
 * unresolved or invalid becomes the error Spark would raise. */
#ifndef CZ_CHECK_CHECK_H
#define CZ_CHECK_CHECK_H

#include <stdbool.h>

#include "core/analysis.h"

/* false with an->error set when plan is not a valid analysed plan. */
bool check_analysis(Analysis *an, const Node *plan);

#endif
