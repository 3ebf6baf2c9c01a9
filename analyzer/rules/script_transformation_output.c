/* ScriptTransformationOutput — the output attributes Spark's AstBuilder
 * gives a SELECT TRANSFORM / MAP / REDUCE (withTransformQuerySpecification):
 * the AS columns with their types (strings when untyped), or `key` and
 * `value` strings (schema-less) when there is no AS. The parser cannot make
 * expression ids, so the node waits (NF_PENDING) until its input is resolved
 * and this rule gives it fresh attributes.
 *
 *   ScriptTransformation cat, (a, b), ...        ScriptTransformation cat, [a#3, b#4], ScriptInputOutputSchema(...)
 *   +- Project [x#1, y#2]                  =>    +- Project [x#1, y#2]
 */
#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_ScriptTransformation || !(p->flags & NF_PENDING) || !node_resolved(p->kids[0]))
        return p;
    uint32_t n = p->u.script.ncols;
    Node **out = ARENA_ARRAY(an->arena, Node *, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        const DataType *t = p->u.script.types && p->u.script.types[i] ? p->u.script.types[i] : &TYPE_STRING;
        /* CHAR and VARCHAR columns are strings (CharVarcharUtils.replaceCharVarcharWithString) */
        if (t->id == T_CHAR || t->id == T_VARCHAR) t = &TYPE_STRING;
        out[i] = attr_new(an, p->u.script.names[i], t, true, 0, (NameParts){0, NULL}, p->start, p->stop);
    }
    Node *c = node_copy(an->arena, p);
    c->flags &= ~(uint32_t)NF_PENDING;
    node_set_exprs(an->arena, c, out, n);
    return node_finish(c);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_ScriptTransformation), rewrite, an);
}

const Rule RULE_SCRIPT_TRANSFORMATION_OUTPUT = {
    .name = "ScriptTransformationOutput",
    .spark_rule = "org.apache.spark.sql.catalyst.parser.AstBuilder.withTransformQuerySpecification (output attributes)",
    .kinds = {NK_ScriptTransformation},
    .nkinds = 1,
    .apply = apply,
};
