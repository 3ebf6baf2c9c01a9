/* The IR: expression and plan nodes of one request, in its arena.
 *
 * One struct for every kind (first-member style would need a cast per access
 * and buys nothing here): a header every kind shares — kind, source position,
 * children, expressions, the set of kinds in the subtree, resolved flags, type
 * — and a union of kind-specific fields. The per-kind layout of `kids` and
 * `exprs` is documented below and is the only thing the walker needs.
 *
 * Persistent trees: a node is never mutated once node_finish has run on it.
 * A transform that changes nothing returns the same pointer.
 *
 * Layout (kids = children; exprs = expressions of a plan node):
 *   Expressions: kids = operand expressions. Subquery expressions
 *     (ScalarSubquery, Exists, ListQuery, InSubquery, LateralSubquery) hold
 *     their plan in u.subq.plan; their kids are the outer attributes they
 *     reference (InSubquery: kids = the IN values, then outer attributes;
 *     u.subq.nvalues says how many are values).
 *   Plans: kids = child plans; exprs = the node's expressions:
 *     Project [projectList] · Filter [condition] · Aggregate [grouping...,
 *     aggregates...] (u.aggregate.ngroup) · Window [windowExprs...,
 *     partitionSpec..., orderSpec...] (u.window) · Sort [SortOrder...] ·
 *     GlobalLimit/LocalLimit/Offset/Tail [n] · Join [condition?] ·
 *     LateralJoin: kids [left], exprs [LateralSubquery, condition?] ·
 *     Relation/LocalRelation/Range/CTERelationRef/View: exprs = output
 *     attributes · Generate [generator, generator output attributes...] ·
 *     UnresolvedInlineTable [ExprList per row] · UnresolvedTableValuedFunction
 *     [args] · UnresolvedHaving [condition] · RepartitionByExpression
 *     [partition exprs] · UnresolvedIdentifierPlan [identifier expr] ·
 *     WithCTE: kids [CTERelationDef..., plan] · UnresolvedWith: kids [plan,
 *     SubqueryAlias per CTE...] · Expand: exprs = output attrs then the
 *     projections, u.expand.
 *   Statements: see u.ddl and the kinds' comments in node_kinds.def.
 */
#ifndef CZ_IR_H
#define CZ_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "types.h"

typedef enum NodeKind {
#define X(name, cat, flags) NK_##name,
#include "node_kinds.def"
#undef X
    NK_COUNT_
} NodeKind;

/* What an ALTER (or REPAIR) statement does: u.ddl.action. */
typedef enum StmtAction {
    SA_NONE,
    SA_ADD_COLUMNS,        /* ALTER TABLE t ADD COLUMN(S) (...): col_names/col_types/col_comments */
    SA_DROP_COLUMNS,       /* ALTER TABLE t DROP COLUMN(S) ...: col_names */
    SA_RENAME_COLUMN,      /* ALTER TABLE t RENAME COLUMN a TO b: col_names[0..1] */
    SA_ALTER_COLUMN,       /* ALTER TABLE t ALTER|CHANGE [COLUMN] a [TYPE t] [COMMENT c] ...: col_names[0],
                              col_types[0] (NULL: unchanged), value = comment */
    SA_REPLACE_COLUMNS,    /* ALTER TABLE t REPLACE COLUMNS (...) */
    SA_SET_PROPERTIES,     /* SET TBLPROPERTIES / SET PROPERTIES|DBPROPERTIES (...) */
    SA_UNSET_PROPERTIES,   /* UNSET TBLPROPERTIES [IF EXISTS] (...) */
    SA_SET_SERDE,          /* SET SERDE 'class' [WITH SERDEPROPERTIES (...)] | SET SERDEPROPERTIES (...) */
    SA_ADD_PARTITION,      /* ADD [IF NOT EXISTS] PARTITION (...) [LOCATION l] ... */
    SA_DROP_PARTITION,     /* DROP [IF EXISTS] PARTITION (...), ... [PURGE] */
    SA_RENAME_PARTITION,   /* PARTITION (...) RENAME TO PARTITION (...) */
    SA_SET_LOCATION,       /* [PARTITION (...)] SET LOCATION 'l': value */
    SA_RECOVER_PARTITIONS, /* RECOVER PARTITIONS */
    SA_CLUSTER_BY,         /* CLUSTER BY (...) | CLUSTER BY NONE */
    SA_SCHEMA_BINDING,     /* ALTER VIEW v WITH SCHEMA BINDING|COMPENSATION|[TYPE] EVOLUTION: value */
    SA_SET_OWNER,          /* ALTER NAMESPACE ns SET OWNER ... */
    SA_REPAIR_ADD,         /* REPAIR TABLE t [ADD|DROP|SYNC] PARTITIONS */
    SA_REPAIR_DROP,
    SA_REPAIR_SYNC,
} StmtAction;

/* A KindMask has a bit for each of the first 127 kinds; every later kind
 * (the statements appended last, and anything appended after them) shares
 * bit 127. A mask is a summary for pruning walks, so a shared bit only makes
 * a walk visit a subtree it could have skipped, never miss one; no rule looks
 * for a statement inside a tree. */
#define KIND_MASK_SHARED_BIT 127u
static inline unsigned kind_mask_bit(NodeKind k) { return (unsigned)k < KIND_MASK_SHARED_BIT ? (unsigned)k : KIND_MASK_SHARED_BIT; }

typedef struct KindMask {
    uint64_t w[2];
} KindMask;

static inline KindMask kind_mask_of(NodeKind k) {
    KindMask m = {{0, 0}};
    unsigned b = kind_mask_bit(k);
    m.w[b >> 6] = (uint64_t)1 << (b & 63);
    return m;
}
static inline KindMask kind_mask_or(KindMask a, KindMask b) {
    a.w[0] |= b.w[0];
    a.w[1] |= b.w[1];
    return a;
}
static inline bool kind_mask_any(KindMask a, KindMask b) { return (a.w[0] & b.w[0]) | (a.w[1] & b.w[1]); }
static inline bool kind_mask_has(KindMask a, NodeKind k) { return kind_mask_any(a, kind_mask_of(k)); }
/* KIND_MASK(NK_A, NK_B, ...): inline, so a constant list folds to a constant. */
static inline KindMask kind_mask_list(int n, const NodeKind *kinds) {
    KindMask m = {{0, 0}};
    for (int i = 0; i < n; i++) {
        unsigned b = kind_mask_bit(kinds[i]);
        m.w[b >> 6] |= (uint64_t)1 << (b & 63);
    }
    return m;
}
#define KIND_MASK(...) \
    kind_mask_list((int)(sizeof((NodeKind[]){__VA_ARGS__}) / sizeof(NodeKind)), (NodeKind[]){__VA_ARGS__})

const char *node_kind_name(NodeKind k); /* "Project" */
bool node_kind_is_plan(NodeKind k);
bool node_kind_is_unresolved(NodeKind k);
bool node_kind_is_command(NodeKind k);

typedef uint64_t ExprId;

/* A multi-part name: `spark_catalog`.`default`.`t` → {3, {...}}. */
typedef struct NameParts {
    uint32_t n;
    const char **v;
} NameParts;

/* A constant value: literals, session variables, the constant evaluator. */
typedef struct Value Value;
struct Value {
    const DataType *type; /* never NULL; TYPE_NULL for an untyped NULL */
    bool is_null;
    bool unknown;         /* a session variable's value the analyzer could not compute (a query over a
                             table, a function the constant evaluator lacks): is_null is set too, and
                             whatever needs the value fails with CATALYZER_UNEVALUATED_VALUE */
    union {
        bool b;
        int64_t i;       /* integral types; date (days); timestamps (micros); ym interval (months) */
        double d;        /* float, double */
        __int128 dec;    /* decimal: unscaled, scale in type */
        struct {
            const char *p; /* string / binary bytes (not NUL-terminated for binary) */
            uint32_t len;
        } s;
        struct {
            int32_t months;
            int32_t days;
            int64_t micros; /* calendar interval; day-time interval uses micros only */
        } iv;
        struct {
            const Value *items; /* array: n items; map: 2n (k, v, k, v ...); struct: n fields */
            uint32_t n;
        } list;
    } u;
};

typedef enum JoinType {
    JOIN_INNER,
    JOIN_LEFT_OUTER,
    JOIN_RIGHT_OUTER,
    JOIN_FULL_OUTER,
    JOIN_LEFT_SEMI,
    JOIN_LEFT_ANTI,
    JOIN_CROSS,
} JoinType;

typedef enum FrameType { FRAME_ROWS, FRAME_RANGE } FrameType;
typedef enum FrameBoundType { BOUND_UNBOUNDED_PRECEDING, BOUND_UNBOUNDED_FOLLOWING, BOUND_CURRENT_ROW } FrameBoundType;

struct FuncDef; /* the function registry's entry (functions/registry.h) */
struct TableDef; /* the catalog's table (catalog.h) */

/* Node flags. */
enum {
    NF_RESOLVED = 1u << 0,      /* this node and everything below are resolved */
    NF_NULLABLE = 1u << 1,      /* expressions: may be null */
    NF_NONDETERMINISTIC = 1u << 2, /* expressions: this subtree is nondeterministic */
    NF_HAS_FILTER = 1u << 3,    /* UnresolvedFunction/AggregateExpression: last kid is FILTER (WHERE) */
    NF_DISTINCT = 1u << 4,      /* UnresolvedFunction/AggregateExpression: DISTINCT */
    NF_IMPLICIT = 1u << 5,      /* Cast inserted by coercion (not user-specified); UnresolvedStar of
                                   pipe SET (kids: names, then their replacements); UnresolvedFunction
                                   of TRIM(... FROM ...) syntax (arguments: source, trim string);
                                   WithWindowDefinition of a pipe |> SELECT (Spark's forPipeSQL) */
    NF_GENERATED_ALIAS = 1u << 6, /* Alias named by the analyzer (auto-generated) */
    NF_PENDING = 1u << 7,       /* this node itself still needs a rule (e.g. a CTERelationRef
                                   whose definition is not resolved yet); node_finish keeps it unresolved */
    NF_ANALYZED = 1u << 8,      /* plans: the root of a subtree a nested analysis finished (Spark's
                                   `analyzed`): the plan transforms skip it; node_copy clears it */
    NF_SP_SEALED = 1u << 9,     /* plans: NF_ANALYZED set by the single-pass resolver on a finished child
                                   while its parent resolves (resolver/resolver.c clears both at the end) */
    /* Tree patterns (Spark's TreePattern bits, containsPattern): node_finish
       ORs them up from kids, expressions and subquery plans, so a rule that
       only acts on such calls skips a plan without them, unwalked */
    NF_TIME_WINDOW_CALL = 1u << 10, /* a window() / session_window() Call (FD_TIME_WINDOW) */
    NF_GENERATOR_CALL = 1u << 11,   /* a resolved generator Call (FK_GENERATOR) */
    NF_GROUPING_CALL = 1u << 12,    /* a grouping() / grouping_id() Call (FD_GROUPING) */
    NF_WINDOW_FN_CALL = 1u << 13,   /* a window function Call (FK_WINDOW: row_number, rank, lag, ...) */
};
#define NF_PATTERNS ((uint32_t)(NF_TIME_WINDOW_CALL | NF_GENERATOR_CALL | NF_GROUPING_CALL | NF_WINDOW_FN_CALL))

/* What a DataFrameOp does (u.dfop.op): the Spark Connect relations whose
 * plan its planner builds with Dataset calls against the input's schema
 * (rules/resolve_dataframe_ops.c says what each takes). */
typedef enum DataFrameOpKind {
    DF_DROP, DF_DROP_NA, DF_FILL_NA, DF_REPLACE, DF_WITH_COLUMNS, DF_WITH_COLUMNS_RENAMED, DF_TO_DF,
    DF_DEDUPLICATE, DF_UNPIVOT, DF_FREQ_ITEMS, DF_DESCRIBE, DF_COUNT_
} DataFrameOpKind;

typedef struct Node Node;
struct Node {
    NodeKind kind;
    uint32_t flags;
    int32_t start, stop;    /* Spark origin: offsets into the SQL text, stop inclusive; -1 unknown */
    uint32_t nkids, nexprs;
    Node **kids;
    Node **exprs;
    KindMask mask;          /* kinds present in this subtree, expressions and subquery plans included */
    const DataType *type;   /* expressions: result type, once resolved */
    int32_t plan_id;        /* client plan id (Spark Connect), -1 if none */
    uint32_t height;        /* levels of the tree under this node, itself included (kids, exprs, subquery
                               plans), as node_finish computes it: limits check it without recursing */
    struct OutputCache *out; /* plans: output attributes, computed once (output.c); not copied */
    union {
        /* Literal */
        struct { Value v; } lit;
        /* UnresolvedAttribute, UnresolvedNamedLambdaVariable, UnresolvedStar
           (target, n == 0 for plain `*`; kids = EXCEPT columns as
           UnresolvedAttribute), UnresolvedFunction (name; see u.fn),
           UnresolvedRelation, UnresolvedTableValuedFunction, UnresolvedWindowExpression (window name in v[0]) */
        struct {
            NameParts name;
            /* UnresolvedFunction */
            uint32_t nargs;        /* kids[0..nargs) are arguments; then FILTER if NF_HAS_FILTER;
                                      then WITHIN GROUP SortOrders (norder) */
            uint32_t norder;
            bool is_operator;      /* `a + b`: name is the operator's symbol or keyword */
            bool ignore_nulls;     /* IGNORE NULLS / RESPECT NULLS given */
            bool respect_nulls;
            bool is_streaming;
            /* UnresolvedStar standing for Spark's UnresolvedRegex (a quoted
               regex column name): the pattern, and whether it was built
               case-sensitive (name is then the table, if any) */
            const char *regex;
            bool regex_case_sensitive;
        } un;
        /* AttributeReference, NamedLambdaVariable, Alias, VariableReference */
        struct {
            const char *name;
            ExprId id;
            NameParts qualifier;   /* AttributeReference: e.g. spark_catalog.default.t;
                                      VariableReference: system.session */
            const Value *value;    /* VariableReference: the current value */
            bool metadata_col;     /* hidden (qualified-access-only) column, e.g. USING join */
            int32_t char_len;      /* a CHAR(n) column's n (Spark's __CHAR_VARCHAR_TYPE_STRING metadata), 0: none */
            uint32_t name_hash;    /* attr_name_hash(name), or 0 if not computed: a prefilter for lookups */
        } attr;
        /* SQLFunctionExpression (kids = the arguments) and SQLScalarFunction
           (kids = the inputs, the parameters' attributes, then the body) */
        struct { const struct SqlFunction *fn; const char *name; } sqlfn;
        /* LateralColumnAliasReference: kids[0] = the resolved attribute of the alias */
        struct { NameParts name; } lca;
        /* Call: a resolved function or operator */
        struct {
            const struct FuncDef *def;
            const char *name;      /* the name it was called by (e.g. "some" for bool_or) */
            const void *extra;     /* per-function data (e.g. a struct field list) */
            const char *tz;        /* the session time zone when it was resolved (Spark's ResolveTimeZone) */
            bool ansi;             /* spark.sql.ansi.enabled when it was built (failOnError, evalMode) */
        } call;
        /* Cast */
        struct { bool try_; bool ansi; } cast;
        /* CaseWhen: kids = cond1, val1, cond2, val2, ..., [else] */
        struct { bool has_else; } casew;
        /* Subquery expressions */
        struct {
            Node *plan;
            uint32_t nvalues;      /* InSubquery: leading kids that are the IN values */
            ExprId id;
        } subq;
        /* GetStructField */
        struct { int32_t ordinal; const char *name; } field;
        /* SortOrder */
        struct { bool descending; bool nulls_first; } sort_order;
        /* WindowSpecDefinition: kids = partition..., order..., [frame] */
        struct { uint32_t npartition, norder; bool has_frame; const char *ref_name; } wspec;
        /* SpecifiedWindowFrame: kids = lower, upper */
        struct { FrameType type; } frame;
        /* FrameBoundary */
        struct { FrameBoundType type; } bound;
        /* NamedArgument, NamedParameter */
        struct { const char *name; } named;
        /* PosParameter */
        struct { int32_t index; } pos;
        /* UnresolvedOrdinal */
        struct { int32_t ordinal; } ordinal;
        /* UnresolvedExtractValue: kids = child, extraction */
        struct { bool is_field; } extract;
        /* UnresolvedIdentifierExpr: kids[0] = identifier expr; if is_function, kids[1..] args */
        struct { bool is_function; bool distinct; } idexpr;

        /* ---- plans ---- */
        /* Project: Spark's Project.hiddenOutputTag — when has_hidden, the
           metadata output (the hidden key columns of a USING/NATURAL join,
           reachable by qualified name only) instead of the child's */
        struct {
            bool has_hidden; uint32_t nhidden; Node **hidden;
            const char *pipe_clause; /* built by |> SELECT or EXTEND: the clause (ValidatePipeExpressions) */
        } project;
        /* SubqueryAlias: kids[0]; alias name (multi-part for tables: spark_catalog.default.t) */
        struct { NameParts name; } alias;
        /* UnresolvedSubqueryColumnAliases, UnresolvedInlineTable (column names; ncols 0 = default) */
        struct { uint32_t ncols; const char **cols; } cols;
        /* Relation */
        struct { NameParts name; const struct TableDef *table; } relation;
        /* LocalRelation: rows of constant values, ncols per row */
        struct { uint32_t nrows; const Value *rows; Node **row_exprs; /* nrows ExprLists, typed as the columns */ } local;
        /* Range */
        struct { int64_t start, end, step; int32_t num_slices; } range;
        /* Aggregate */
        struct { uint32_t ngroup; bool pipe; /* |> AGGREGATE: positions name the input's columns */ } aggregate;
        /* Window */
        struct { uint32_t nwindow, npartition, norder; } window;
        /* Sort */
        struct { bool global; } sort;
        /* Join, LateralJoin */
        struct { JoinType type; bool natural; uint32_t nusing; const char **using_cols; const char *hint; } join;
        /* Union, Intersect, Except */
        struct { bool is_all; bool by_name; bool allow_missing; } setop;
        /* Generate, UnresolvedGenerate */
        struct { bool outer; NameParts qualifier; uint32_t ncols; const char **cols; } generate;
        /* Expand */
        struct { uint32_t noutput; uint32_t nprojections; } expand;
        /* CTERelationDef, CTERelationRef */
        struct { int64_t id; const char *name; bool recursive; uint32_t ncols; const char **cols; } cte;
        /* View */
        struct { NameParts name; bool temporary; } view;
        /* Repartition, RepartitionByExpression (num_partitions 0: none given) */
        struct { int32_t num_partitions; bool shuffle; } repart;
        /* Sample */
        struct { double lower, upper; bool with_replacement; int64_t seed; } sample;
        /* Pivot: exprs = pivot column, nagg aggregates, nvalues values */
        struct { uint32_t nagg, nvalues; } pivot;
        /* Unpivot: the name column, the value columns, per set its alias (NULL: none) */
        struct { const char *var_name; uint32_t nvalue_cols; const char **value_cols; const char **aliases; } unpivot;
        /* ScriptTransformation: the script, the AS columns (types NULL: strings), the row
           formats as (key, value) pairs (Spark's ScriptInputOutputSchema) */
        struct {
            const char *script;
            uint32_t ncols;
            const char **names;
            const DataType **types;
            uint32_t nin, nout;
            const char **in_fmt, **out_fmt; /* 2 * nin / 2 * nout strings */
            const char *reader, *writer;    /* RECORDREADER / RECORDWRITER classes, or NULL */
            bool schema_less;
        } script;
        /* UnresolvedHint, ResolvedHint */
        struct { const char *name; } hint;
        /* DataFrameOp: kids[0] = input; exprs = expression parameters; what the op
           means is in rules/resolve_dataframe_ops.c */
        struct {
            int op;                /* DataFrameOpKind (rules/resolve_dataframe_ops.h) */
            uint32_t nnames;
            const char **names;    /* column names */
            const char **names2;   /* second names (renames: the new names) */
            const char **texts;    /* per-name text (withColumns: metadata JSON) */
            int64_t n;             /* minNonNulls (-1: none) */
            double number;         /* support, ... */
            bool flag;             /* allColumnsAsKeys, ... */
        } dfop;
        /* WithWindowDefinition: kids[0]; exprs = WindowSpecDefinition per name (wspec.ref_name holds the name) */
        /* UnresolvedIdentifierPlan: exprs[0]; builds what `builds` says; ctes: the CTE
           definitions in scope where it stands (rules/cte_scope.h), set by CTESubstitution */
        struct { NodeKind builds; const struct CteScope *ctes; } idplan;

        /* ---- statements ---- */
        struct {
            NameParts name;          /* target: view, table, namespace, variable */
            bool or_replace, if_not_exists, if_exists, temporary, cascade, is_view, global;
            bool namespace_only;     /* USE SCHEMA|DATABASE|NAMESPACE x: a namespace of the current catalog */
            /* CreateTable: columns */
            uint32_t ncols;
            uint32_t nusing;         /* ExecuteImmediate: USING arguments */
            const char **col_names;
            const DataType **col_types;
            const char **col_comments;
            const char *provider;    /* USING x */
            const char *catalog;     /* the catalog the target resolved to (NULL as parsed) */
            const char *catalog_plugin; /* its plugin class (v2 catalogs) */
            const char *text;        /* CreateView: the query text; SetConfig: key */
            const char *value;       /* SetConfig: value (NULL: show); NF_IMPLICIT: SET TIME ZONE LOCAL */
            /* CreateView: kids[0] = query; user column list in col_names (col_types NULL)
               CreateTable AS SELECT: kids[0] = query
               DeclareVariable: col_types[0] = declared type or NULL; exprs[0] = DEFAULT or none
               SetVariable: exprs = target UnresolvedAttributes; kids[0] = source query
               ExecuteImmediate: exprs[0] = query string; exprs[1..1+nusing) = USING args;
                                 remaining exprs = INTO targets
               InsertInto: kids[0] = query; name = table
               Command: text = the statement keyword(s), name = its target */
            /* the other statements (node_kinds.def says which field each uses) */
            uint8_t action;          /* AlterTable, AlterView, AlterNamespace, RepairTable: a StmtAction */
            bool extended, as_json, local, is_table; /* DESC/SHOW EXTENDED, AS JSON, LOAD DATA LOCAL, AS SERDE */
            const struct StmtSpec *spec; /* what fewer statements say (ddl_spec), NULL: nothing */
            /* CreateFunction of a SQL function: params in col_names/col_types
               (DEFAULT texts in col_defaults), RETURNS type, the body's text */
            const DataType *ret_type;
            const char *body;
            const char **col_defaults;
            bool body_is_query;
        } ddl;
    } u;
};

/* The parts of a statement only some kinds have (u.ddl.spec). */
typedef struct StmtSpec {
    NameParts name2;         /* RenameTable: new name; CreateTableLike: source; DescribeRelation: column;
                                ShowColumns: FROM namespace; CreateIndex/DropIndex: the index */
    uint32_t nprops;         /* TBLPROPERTIES / PROPERTIES / OPTIONS / SERDEPROPERTIES */
    uint32_t npart;          /* PARTITION (k = v, ...): v NULL for `PARTITION (k)`; CreateTable: PARTITIONED BY */
    const char **prop_keys;
    const char **prop_values; /* NULL for UNSET TBLPROPERTIES (keys only) */
    const char **part_keys;
    const char **part_values;
    /* once analysed: what the name resolved to (printing) */
    bool rel_temp;           /* a temporary view */
    bool rel_view;           /* a persistent view */
    uint32_t nrel_cols;      /* a table's columns (ResolvedTable's output) */
    const char **rel_cols;
    bool has_collation;      /* CREATE TABLE / ALTER TABLE ... DEFAULT COLLATION name */
    int32_t collation;
} StmtSpec;

/* A statement's spec, or an empty one. */
static inline const StmtSpec *ddl_spec(const Node *n) {
    static const StmtSpec none = {{0, NULL}, 0, 0, NULL, NULL, NULL, NULL, false, false, 0, NULL};
    return n->u.ddl.spec ? n->u.ddl.spec : &none;
}

/* ---- construction ---- */

/* A fresh node of kind k with position [start, stop]; zeroed; plan_id -1. */
Node *node_new(Arena *a, NodeKind k, int32_t start, int32_t stop);
/* Copies n (shallow: arrays shared) so the copy can be changed before finish. */
Node *node_copy(Arena *a, const Node *n);
/* Copies kids/exprs into the arena and sets them. */
void node_set_kids(Arena *a, Node *n, Node *const *kids, uint32_t nkids);
void node_set_exprs(Arena *a, Node *n, Node *const *exprs, uint32_t nexprs);
/* Computes the derived header fields (mask, NF_RESOLVED, NF_NONDETERMINISTIC)
 * from the node and its kids/exprs/subquery plan. Call after the last change.
 * Returns n. */
Node *node_finish(Node *n);

/* Copy-on-write helpers: return n itself when nothing differs, else a finished copy. */
Node *node_with_kids(Arena *a, Node *n, Node *const *kids, uint32_t nkids);
Node *node_with_exprs(Arena *a, Node *n, Node *const *exprs, uint32_t nexprs);
Node *node_with_kid(Arena *a, Node *n, uint32_t i, Node *kid);

static inline bool node_resolved(const Node *n) { return (n->flags & NF_RESOLVED) != 0; }
static inline bool node_is_plan(const Node *n) { return node_kind_is_plan(n->kind); }
/* n's kids / expressions from index i on; NULL when the node has none (an
 * empty list may be a NULL array, and NULL + 0 is undefined behaviour). */
static inline Node **node_kids_from(const Node *n, uint32_t i) { return n->kids ? n->kids + i : NULL; }
static inline Node **node_exprs_from(const Node *n, uint32_t i) { return n->exprs ? n->exprs + i : NULL; }

NameParts name_parts(Arena *a, uint32_t n, const char *const *parts); /* copies the array, not the strings */
NameParts name_parts1(Arena *a, const char *part);

/* ScalarSubquery, Exists, ListQuery, InSubquery, LateralSubquery: the
 * expressions that hold a plan (u.subq.plan). */
bool node_kind_is_subquery(NodeKind k);

extern const KindMask KIND_MASK_ALL;

#endif
