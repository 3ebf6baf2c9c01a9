/* Internal to the constant evaluator (consteval*.c): the evaluation
 * context, the status every step returns, and the helpers the expression
 * core, the casts and the function table share. */
#ifndef CZ_CONSTEVAL_INT_H
#define CZ_CONSTEVAL_INT_H

#include "consteval.h"
#include "core/output.h"

typedef enum EvStatus {
    EV_OK = 0,
    EV_NOTCONST, /* cannot be computed here (a table, an unsupported function); no error */
    EV_ERROR,    /* Spark's runtime error recorded with an_fail */
} EvStatus;

/* The row an expression sees: attributes by id, and the enclosing
 * queries' rows for outer references. */
typedef struct EvalEnv {
    AttrList attrs;
    const Value *row;
    const struct EvalEnv *outer;
} EvalEnv;

/* Rows of an evaluated CTE definition, by CTE id. */
typedef struct CteRows {
    int64_t id;
    bool notconst;
    uint32_t nrows, ncols;
    Value *rows;
    struct CteRows *next;
} CteRows;

typedef struct Eval {
    Analysis *an;
    const EvalEnv *env;
    CteRows *ctes;
    int depth;
    uint32_t ticks;              /* expressions evaluated: every 1024th checks cancel and the deadline */
    /* Aggregate evaluation: the rows of the current group */
    const EvalEnv *group_env;    /* attrs of the aggregate's child */
    const Value *group_rows;
    uint32_t group_nrows;
} Eval;

/* A set of rows, row-major. */
typedef struct Rows {
    uint32_t n, ncols;
    Value *v;
} Rows;

/* Bounds that keep evaluation cheap: rows of any relation, rows an
 * operator with quadratic cost here (grouping, DISTINCT, sorting, set
 * operations) accepts, subquery nesting. Beyond them: not constant. */
enum { EV_MAX_ROWS = 100000, EV_MAX_QUADRATIC = 4096, EV_MAX_DEPTH = 64 };

EvStatus ev_expr(Eval *ev, const Node *e, Value *out);
EvStatus ev_plan(Eval *ev, const Node *plan, Rows *out);
/* Records a runtime error (phase "execution"). */
EvStatus ev_fail(Eval *ev, ErrorInfo *err);

/* ANSI casts (consteval_cast.c). */
EvStatus ev_cast(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out);
/* Spark's cast-to-string text of a non-null value. */
const char *value_to_text(Arena *a, const Value *v, uint32_t *len);
/* Parsers of Spark's cast input formats; false when malformed. */
bool parse_date_text(const char *s, uint32_t n, int64_t *days);
bool parse_timestamp_text(const char *s, uint32_t n, int64_t *micros);
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

/* Value helpers. */
Value v_null(const DataType *t);
Value v_bool(bool b);
Value v_long(const DataType *t, int64_t i);
Value v_double(const DataType *t, double d);
Value v_string(Arena *a, const char *p, uint32_t len); /* copies */
Value v_dec(const DataType *t, __int128 unscaled);
/* Compares two non-null values of the same type: <0, 0, >0. */
int value_cmp(const Value *a, const Value *b);
/* Equality of two values of the same type (nulls equal each other: grouping). */
bool value_same(const Value *a, const Value *b);
/* A numeric value as a double. */
double value_as_double(const Value *v);
/* 10^n for decimals (n <= 38). */
__int128 pow10_i128(int n);
/* Rescales an unscaled decimal from scale `from` to `to`, rounding half up. */
__int128 dec_rescale(__int128 v, int from, int to);
/* Whether an unscaled value fits `precision` digits. */
bool dec_fits(__int128 v, int precision);

/* The function table (consteval_funcs.c): evaluates a Call. */
EvStatus ev_call(Eval *ev, const Node *call, Value *out);
/* Evaluates an aggregate function over the current group (AggregateExpression). */
EvStatus ev_aggregate(Eval *ev, const Node *aggexpr, Value *out);

#endif
