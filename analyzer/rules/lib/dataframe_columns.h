/* DataFrame column references (lib/dataframe_columns.c): Spark's
 * ColumnResolutionHelper.tryResolveDataFrameColumns. A Spark Connect client
 * that writes df("a") or df["*"] sends the column with the plan id of df's
 * plan; such a column resolves against the plan node carrying that id, not
 * by name against whatever the operator's input is. */
#ifndef CZ_RULES_LIB_DATAFRAME_COLUMNS_H
#define CZ_RULES_LIB_DATAFRAME_COLUMNS_H

#include <stdbool.h>

#include "core/analysis.h"
#include "core/output.h"

/* Whether e holds a column reference or star with a client plan id. */
bool has_dataframe_columns(const Node *e);

/* e with every UnresolvedAttribute that carries a plan id resolved against
 * the node with that id below plans[0..n) (Spark's resolveDataFrameColumn):
 * the nearest such node wins, a node whose output no longer carries the
 * attribute does not count, two at the same depth are
 * AMBIGUOUS_COLUMN_REFERENCE, and no node with that id at all is
 * CANNOT_RESOLVE_DATAFRAME_COLUMN (error recorded, e returned). A column the
 * node has no attribute for stays unresolved, for name resolution. */
Node *resolve_dataframe_columns(Analysis *an, Node *e, Node *const *plans, uint32_t n);

/* The columns df["*"] stands for (Spark's resolveDataFrameStar: the output of
 * the node with the star's plan id). false with an error recorded when no
 * node below plans[0..n) has the id or two do. */
bool expand_dataframe_star(Analysis *an, const Node *star, Node *const *plans, uint32_t n, AttrList *out);

#endif
