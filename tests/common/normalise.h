/* Spark's golden-file normalisation of a plan string (SQLQueryTestHelper's
 * replaceNotIncludedMsg, the parts our plans can contain): expression ids
 * `#123` are written `#x` (`#123L` as `#xL`) and the ids of CTERelationDef /
 * CTERelationRef as `xxxx`. Shared by the golden runner and the corpus plan
 * comparison, so both compare plans the same way. */
#ifndef CZ_TEST_NORMALISE_H
#define CZ_TEST_NORMALISE_H

/* The normalised copy of plan, malloc'd (the caller frees). */
char *plan_normalise(const char *plan);

#endif
