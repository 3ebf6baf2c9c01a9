/* Outer-reference helpers (lib/outer_refs.c). */
#ifndef CZ_RULES_LIB_OUTER_REFS_H
#define CZ_RULES_LIB_OUTER_REFS_H

#include "core/analysis.h"

/* e with every OuterReference replaced by the attribute it wraps (arena; e itself when none). */
Node *strip_outer_references(Analysis *an, Node *e);

#endif
