/* What every layer may know of a function without the function library:
 * its names, kind and how Spark prints a call to it. Each row of the
 * function library (functions/registry.h: FuncDef) begins with these fields,
 * so a resolved Call's `u.call.def` is also a FuncSig (first-member
 * inheritance, as PostgreSQL's Node): the printer and the IR read it here,
 * the typing rules stay in functions/. */
#ifndef CZ_CORE_FUNC_SIG_H
#define CZ_CORE_FUNC_SIG_H

#include <stdint.h>

#include "ir.h"

typedef enum FuncKind { FK_SCALAR, FK_AGGREGATE, FK_WINDOW, FK_GENERATOR } FuncKind;

typedef enum CallStyle {
    CS_FUNC = 0,     /* name(a, b) */
    CS_BINARY,       /* (a op b) */
    CS_PREFIX,       /* sql (op a); toString per def (- a → -a, NOT a) */
    CS_TILDE,        /* ~a */
    CS_POSTFIX,      /* sql (a IS NULL); toString isnull(a) */
    CS_LIKE,         /* a LIKE b [ESCAPE 'c'] */
    CS_LIKE_MULTI,   /* a LIKE ANY (p, q) */
    CS_RLIKE,        /* RLIKE(a, b) with the called name upper-cased */
    CS_IF,           /* sql (IF(c, a, b)); toString if (c) a else b */
    CS_EXTRACT,      /* name(field FROM source) */
    CS_WITHIN_GROUP, /* name(arg) WITHIN GROUP (ORDER BY x [DESC]) */
    CS_RANK,         /* sql NAME(); toString name(children) */
    CS_STRUCT,       /* sql struct(values); toString struct(name, value, ...) */
    CS_DT_ARITH,     /* a + b without parentheses (TimeAdd, DateAddInterval) */
    CS_UNARY_NAMED,  /* sql negative(a); toString -a */
    CS_SUBSCRIPT,    /* a[i], m[k] (GetArrayItem, GetMapValue) */
    CS_LAG,          /* Lag holds the negated offset (Spark's children); sql prints the user's offset */
    CS_TRIM,         /* sql trim(s) / TRIM(BOTH t FROM s); toString trim(s, None|Some(t)); op = BOTH/LEADING/TRAILING */
    CS_IGNORE_NULLS, /* last kid is ignoreNulls: sql name(x) [IGNORE NULLS]; toString name(x, flag) */
    CS_FIELD_ACCESS, /* arr.field over an array of structs (GetArrayStructFields) */
    CS_INVOKE,       /* StaticInvoke / Invoke: name(<u.call.extra>(args)), the Java method called */
} CallStyle;

enum {
    FD_NONDET = 1u << 0,       /* nondeterministic (rand, uuid, shuffle) */
    FD_NULLABLE = 1u << 1,     /* result always nullable */
    FD_NOT_NULL = 1u << 2,     /* result never null */
    FD_OPERATOR = 1u << 3,     /* an operator (arguments printed as in Spark's BinaryOperator) */
    FD_ORDERABLE = 1u << 4,    /* arguments must be orderable (min, max, greatest, least) */
    FD_ALIAS_PRINT = 1u << 5,  /* mod/negative: printed as name(args) when called by this name */
    FD_LAMBDA = 1u << 6,       /* higher-order: some arguments are lambdas */
    FD_FOLDABLE_ARGS = 1u << 7, /* later arguments must be constant */
    FD_NO_WINDOW_FRAME = 1u << 8,
    FD_WINDOW_ONLY = 1u << 9,  /* rank-like: needs an OVER clause */
    FD_TYPED_IMP = 1u << 10,   /* TypedImperativeAggregate: toString adds the buffer offsets `, 0, 0` */
    FD_SQL_SKIP_FIRST = 1u << 12, /* sql leaves out the first argument (a field operation's name: WithField(value)) */
    FD_SCALE_LOWER = 1u << 11, /* ceil/floor: with a scale argument they are RoundCeil/RoundFloor, printed by their lower-case name */
    FD_EXPECTS_INPUT = 1u << 14, /* ExpectsInputTypes: no implicit casts; a NULL becomes a typed null literal
                                    (TypeCoercion's ImplicitTypeCasts for ExpectsInputTypes) */
    FD_SQL_TAIL = 1u << 16,    /* sql prints the tostring_tail too (Collate's collation name) */
    FD_TIME_WINDOW = 1u << 17, /* window / session_window: sets NF_TIME_WINDOW_CALL (TimeWindowing acts on it) */
    FD_GROUPING = 1u << 18,    /* grouping / grouping_id: sets NF_GROUPING_CALL (ResolveGroupingAnalytics) */
    FD_INHERIT_ANALYSIS = 1u << 15, /* RuntimeReplaceable with InheritAnalysisRules: the call keeps its
                                       parameters as written (the coercion is its replacement's) */
};

#define FUNC_SIG_FIELDS                                                                                    \
    const char *name;                                                                                      \
    const char *pname;          /* printed name (NULL: the name; array_agg prints as collect_list) */      \
    FuncKind kind;                                                                                         \
    uint32_t flags;             /* FD_* */                                                                 \
    CallStyle print;                                                                                       \
    const char *op;             /* operator text (CS_BINARY, CS_PREFIX, CS_POSTFIX, CS_LIKE) */             \
    int8_t print_nargs;         /* print only the first n arguments (from_json's schema is hidden); 0: all */ \
    int8_t sql_nargs;           /* sql only: the first n arguments (the others are fields, not children); 0: all */ \
    const char *tostring_name;  /* toString only: a name other than the SQL one (Contains) */               \
    const char *tostring_tail;  /* toString only: constructor fields that are not children, printed after the arguments */

typedef struct FuncSig {
    FUNC_SIG_FIELDS
} FuncSig;

/* The signature of a resolved Call or of the call an AggregateExpression wraps; NULL if none. */
static inline const FuncSig *call_sig(const Node *call) { return (const FuncSig *)(const void *)call->u.call.def; }
static inline FuncKind func_sig_kind(const Node *call) { return call_sig(call) ? call_sig(call)->kind : FK_SCALAR; }

#endif
