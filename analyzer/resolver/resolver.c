/* The single-pass resolver's traversal (Spark 4's Resolver.resolve):
 * operators bottom-up, each once.
 *
 *   'Sort ['b ASC], true                      one step per operator, children first:
 *   +- 'Project ['a]                            Relation      (ResolveRelations' step)
 *      +- 'UnresolvedRelation [t]      =>       Project       (ResolveReferences, ... )
 *                                               Sort          (ResolveMissingReferences: adds b
 *                                                              to the finished Project below)
 *
 * When an operator's step starts its children are finished: they are sealed
 * (marked analysed, as a nested analysis marks its result) so that the
 * operator's step looks at the operator and its own expressions, never again
 * at the subtree below, which the fixed-point batches rescan on every rule of
 * every iteration. An operator's step applies the Resolution batch's rules
 * to the operator alone until it no longer changes (an operator-local fixed
 * point: the rules decide what applies, so what the step does is what the
 * batches would do to that operator once its children are resolved); the
 * dual run (hybrid_analyzer.c) checks that claim on every statement of the
 * corpora, and the guard (resolver_guard.c) keeps out what it does not hold
 * for. Subqueries and FROM-clause subqueries are nested analyses: inside a
 * single pass they run the single pass too. */
#include "resolver.h"

#include <time.h>

#include "resolver_guard.h"
#include "rules/rules.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "core/walk.h"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

Node *resolver_decline(Analysis *an, const Node *at, const char *reason) {
    (void)at;
    return an_fail(an, error_make(an->arena, "CATALYZER_SINGLE_PASS_DECLINED", NULL, "reason", reason, NULL));
}

typedef struct Step {
    Analysis *an;
    const ResolverHooks *h;
    const ResolverBatch *resolution;
    KindMask masks[64];
    bool tracing;
    int max_iter;
    uint32_t top_down;         /* AddMetadataColumns' place in the batch (nrules: none) */
    uint32_t windows;          /* ExtractWindowExpressions' place */
    uint32_t grouping;         /* ResolveGroupingAnalytics' place */
    bool deferred;             /* it would have changed an operator: the whole plan gets it at the end */
    Node **sealed;             /* every node seal() marked, to clear at the end */
    uint32_t nsealed, capsealed;
} Step;

/* A finished child, marked so the transforms of its parent's step skip it
 * (a copy: the original may be shared with the plan the batches see). */
static Node *seal(Step *s, Node *k) {
    /* unfinished (a windowed operator under a Sort): its parent's rules go on into it */
    if (!plan_is_resolved(k) || (k->flags & NF_ANALYZED)) return k;
    Analysis *an = s->an;
    Node *c = node_copy(an->arena, k);
    c->out = k->out; /* the same node: its output is the same */
    c->flags |= NF_ANALYZED | NF_SP_SEALED;
    if (s->nsealed == s->capsealed) {
        uint32_t cap = s->capsealed ? s->capsealed * 2 : 64;
        Node **v = ARENA_ARRAY(an->arena, Node *, cap);
        if (s->nsealed) mem_copy(v, s->sealed, sizeof(Node *) * s->nsealed);
        s->sealed = v;
        s->capsealed = cap;
    }
    s->sealed[s->nsealed++] = c;
    return c;
}

/* The resolver that handles an operator kind, as the trace names it. */
static const char *resolver_name(NodeKind k) {
    switch (k) {
    case NK_UnresolvedRelation: return "RelationResolver";
    case NK_Project: return "ProjectResolver";
    case NK_Filter: return "FilterResolver";
    case NK_Aggregate: return "AggregateResolver";
    case NK_UnresolvedHaving: return "HavingResolver";
    case NK_Sort: return "SortResolver";
    case NK_Join: return "JoinResolver";
    case NK_SubqueryAlias: return "SubqueryAliasResolver";
    case NK_GlobalLimit:
    case NK_LocalLimit: return "LimitResolver";
    case NK_Union:
    case NK_Intersect:
    case NK_Except: return "SetOperationResolver";
    case NK_WithCTE:
    case NK_CTERelationDef:
    case NK_CTERelationRef: return "CteResolver";
    case NK_Window: return "WindowResolver";
    default: return "OperatorResolver";
    }
}

/* Where in the fixed point's order a rule application falls: iteration,
 * then the rule's place in the batch. */
typedef struct Cursor {
    int iter;
    uint32_t rule;
} Cursor;

static bool cursor_after(Cursor a, Cursor b) { return a.iter > b.iter || (a.iter == b.iter && a.rule > b.rule); }

/* The operator's own step: its children are finished, the last of them by
 * the rule application at `start`. The fixed point applies, to the
 * operator, that same rule (its transform reaches the parent after the
 * child), then the rules after it, and so on around the batch; the
 * operator is finished once a whole round of the batch changes nothing.
 * *fin: the application that last changed it (start if none did). */
/* The kinds a rule applied to p can act on: p's, its expressions' (their
 * subquery plans included), its children's own kinds (rules match a child's
 * kind by pointer: Sort over Aggregate), and all of an unfinished child's.
 * A sealed child's subtree is skipped by every transform. */
static KindMask own_mask(const Node *p) {
    KindMask m = kind_mask_of(p->kind);
    for (uint32_t i = 0; i < p->nexprs; i++) m = kind_mask_or(m, p->exprs[i]->mask);
    for (uint32_t i = 0; i < p->nkids; i++) {
        const Node *k = p->kids[i];
        m = kind_mask_or(m, (k->flags & NF_SP_SEALED) ? kind_mask_of(k->kind) : k->mask);
    }
    if (node_kind_is_subquery(p->kind) && p->u.subq.plan) m = kind_mask_or(m, p->u.subq.plan->mask);
    return m;
}

/* The rules of the batch that can act on an operator of this mask (a bit a
 * rule); under a Sort, not the two the Sort's step applies top-down. */
static uint64_t applicable(const Step *s, KindMask mask, bool under_sort) {
    uint64_t app = 0;
    for (uint32_t r = 0; r < s->resolution->nrules; r++)
        if (kind_mask_any(mask, s->masks[r])) app |= (uint64_t)1 << r;
    /* windows and grouping analytics below an ORDER BY or HAVING are
       rewritten from the Sort (ExtractWindowExpressions and
       ResolveGroupingAnalytics go top-down: the Sort or HAVING and the
       operator under it are rewritten together) */
    if (under_sort) {
        if (s->windows < 64) app &= ~((uint64_t)1 << s->windows);
        if (s->grouping < 64) app &= ~((uint64_t)1 << s->grouping);
    }
    return app;
}

static Node *operator_step(Step *s, Node *p, Cursor start, Cursor *fin, bool under_sort) {
    Analysis *an = s->an;
    const ResolverBatch *b = s->resolution;
    const uint32_t n = b->nrules;
    Cursor at = start, last = start;
    uint32_t quiet = 0;
    KindMask mask = own_mask(p);
    uint64_t app = applicable(s, mask, under_sort);
    while (quiet < n) {
        uint32_t r = at.rule;
        uint64_t rest = app >> r;
        if (!(rest & 1)) {
            /* the rules up to the next applicable one change nothing */
            uint32_t next = rest ? r + (uint32_t)__builtin_ctzll(rest) : n;
            quiet += next - r;
            at.rule = next;
        } else {
            Node *after = b->rules[r]->apply(an, p);
            if (an_failed(an)) return NULL;
            if (!after) return resolver_decline(an, p, b->rules[r]->name);
            if (after != p && r == s->top_down) {
                /* AddMetadataColumns goes down from the top of the plan: at
                   the fixed point's next round the operators above this one
                   are there, and it adds the hidden columns once for all of
                   them (resolver_run finishes the plan with the batch) */
                s->deferred = true;
                after = p;
            }
            if (after != p) {
                p = after;
                KindMask m = own_mask(p);
                if (m.w[0] != mask.w[0] || m.w[1] != mask.w[1]) {
                    mask = m;
                    app = applicable(s, mask, under_sort);
                }
                last = at;
                quiet = 0;
            } else quiet++;
            at.rule++;
        }
        if (at.rule >= n) {
            at.rule = 0;
            if (++at.iter > s->max_iter)
                return resolver_decline(an, p, arena_printf(an->arena, "%s step did not converge (%s)",
                                                            node_kind_name(p->kind), b->rules[last.rule]->name));
        }
    }
    *fin = last;
    return p;
}

static bool out_of_time(Analysis *an) {
    if (an->cancel && *an->cancel) {
        an_fail(an, error_make(an->arena, "CATALYZER_CANCELLED", NULL, NULL));
        return true;
    }
    if (an->deadline_ns && now_ns() > an->deadline_ns) {
        an_fail(an, error_make(an->arena, "CATALYZER_DEADLINE_EXCEEDED", NULL, NULL));
        return true;
    }
    return false;
}

/* A FROM-clause subquery or a CTE definition whose query the batches
 * resolve in a nested analysis of its own (ResolveNestedQueries, the second
 * rule of the batch, before any other rule reaches inside): the step of p
 * runs it, through the hybrid analyzer, as a nested single pass. */
static bool is_query_root(const Node *p) {
    switch (p->kind) {
    case NK_UnresolvedRelation:
    case NK_UnresolvedIdentifierPlan:
    case NK_CTERelationRef:
    case NK_UnresolvedTableValuedFunction:
    case NK_UnresolvedInlineTable: return false;
    default: return true;
    }
}

static bool nested_query(const Node *p) {
    if (p->kind != NK_SubqueryAlias && p->kind != NK_CTERelationDef) return false;
    const Node *child = p->kids[0];
    if (plan_is_resolved(child) || !is_query_root(child)) return false;
    return !(child->kind == NK_SubqueryAlias && !is_query_root(child->kids[0]));
}

/* A Project or Aggregate with window functions or grouping analytics of its
 * own: under a Sort or HAVING, the top-down rules rewrite it from there. */
static bool top_down_child(const Node *k) {
    if (k->kind != NK_Project && k->kind != NK_Aggregate) return false;
    KindMask m = KIND_MASK(NK_WindowExpression, NK_UnresolvedWindowExpression, NK_GroupingSets, NK_Cube, NK_Rollup);
    for (uint32_t i = 0; i < k->nexprs; i++)
        if (kind_mask_any(k->exprs[i]->mask, m)) return true;
    return false;
}

/* Resolves p's subtree: the children, then p's own step. */
static Node *resolve_operator(Step *s, Node *p, Cursor *fin, bool under_sort) {
    Analysis *an = s->an;
    *fin = (Cursor){1, 0};
    if (p->flags & NF_ANALYZED) return p;
    if ((an->cancel || an->deadline_ns) && out_of_time(an)) return NULL;
    if ((uint32_t)++an->depth > an->max_depth) {
        an->depth--;
        return an_fail(an, error_make(an->arena, "CATALYZER_LIMIT_EXCEEDED", p, "limit", "nesting depth", NULL));
    }
    Node *stack[8];
    Node **kids = p->nkids <= 8 ? stack : ARENA_ARRAY(an->arena, Node *, p->nkids);
    Cursor start = {1, 0};
    bool kids_same = true;
    /* IDENTIFIER(...) builds its plan from what is below it (ResolveIdentifierClause, the batch's first
       rule): its children wait for it */
    uint32_t nkids = nested_query(p) || p->kind == NK_UnresolvedIdentifierPlan ? 0 : p->nkids;
    for (uint32_t i = nkids; i < p->nkids; i++) kids[i] = p->kids[i];
    for (uint32_t i = 0; i < nkids; i++) {
        Cursor kf;
        bool sort = (p->kind == NK_Sort || p->kind == NK_UnresolvedHaving) && i == 0 && top_down_child(p->kids[0]);
        Node *k = resolve_operator(s, p->kids[i], &kf, sort);
        if (!k) {
            an->depth--;
            return NULL;
        }
        if (cursor_after(kf, start)) start = kf;
        if (k != p->kids[i]) kids_same = false;
        /* under a Sort or HAVING, left open: the parent's top-down rules go on into it */
        kids[i] = sort ? k : seal(s, k);
    }
    an->depth--;
    Node *before = p;
    uint64_t t0 = s->tracing ? now_ns() : 0;
    if (p->nkids) p = node_with_kids(an->arena, p, kids, p->nkids);
    Node *stepped = p;
    Node *after = operator_step(s, p, start, fin, under_sort);
    if (!after) return NULL;
    /* nothing changed in the subtree: the same node, not its sealed-children
       copy (a nested analysis that changed nothing returns its plan itself,
       as the executor does, so ResolveNestedQueries sees no change) */
    if (kids_same && after == stepped) after = before;
    if (s->tracing) {
        bool effective = after != before;
        s->h->trace(an, "SinglePass", resolver_name(before->kind), fin->iter, effective, now_ns() - t0,
                    node_kind_name(before->kind), before, after);
    }
    return after;
}

static Node *run_once(Analysis *an, const ResolverBatch *b, Node *plan) {
    KindMask masks[64];
    for (uint32_t r = 0; r < b->nrules && r < 64; r++)
        masks[r] = b->rules[r]->nkinds ? kind_mask_list(b->rules[r]->nkinds, b->rules[r]->kinds) : KIND_MASK_ALL;
    for (uint32_t r = 0; r < b->nrules; r++) {
        if (r < 64 && !kind_mask_any(plan->mask, masks[r])) continue;
        Node *after = b->rules[r]->apply(an, plan);
        if (an_failed(an)) return NULL;
        if (!after) return resolver_decline(an, plan, b->rules[r]->name);
        plan = after;
    }
    return plan;
}

/* The batch over the whole plan to a fixed point, as the executor runs it:
 * what a deferred top-down rule still has to do. */
static Node *run_to_fixed_point(Step *s, Node *plan) {
    Analysis *an = s->an;
    const ResolverBatch *b = s->resolution;
    for (int iter = 1;; iter++) {
        Node *start = plan;
        for (uint32_t r = 0; r < b->nrules; r++) {
            if (r < 64 && !kind_mask_any(plan->mask, s->masks[r])) continue;
            Node *after = b->rules[r]->apply(an, plan);
            if (an_failed(an)) return NULL;
            if (!after) return resolver_decline(an, plan, b->rules[r]->name);
            plan = after;
        }
        if (plan == start) return plan;
        if (iter >= s->max_iter) return resolver_decline(an, plan, "the batch did not converge");
    }
}

Node *resolver_run(Analysis *an, Node *plan, const ResolverHooks *h) {
    const char *why = resolver_guard_declines(an, plan);
    if (why) return resolver_decline(an, plan, why);
    for (uint32_t bi = 0; bi < h->nbatches; bi++)
        if (!h->batches[bi].once && h->batches[bi].nrules > 64)
            return resolver_decline(an, plan, "a batch of more than 64 rules");
    for (uint32_t bi = 0; bi < h->nbatches; bi++) {
        const ResolverBatch *b = &h->batches[bi];
        if (b->once) {
            plan = run_once(an, b, plan);
            if (!plan) return NULL;
            continue;
        }
        Step s = {.an = an, .h = h, .resolution = b, .tracing = h->tracing && h->tracing(an),
                  .max_iter = an->conf->max_iterations};
        for (uint32_t r = 0; r < b->nrules && r < 64; r++)
            s.masks[r] = b->rules[r]->nkinds ? kind_mask_list(b->rules[r]->nkinds, b->rules[r]->kinds) : KIND_MASK_ALL;
        s.top_down = s.windows = s.grouping = b->nrules;
        for (uint32_t r = 0; r < b->nrules; r++) {
            if (b->rules[r] == &RULE_ADD_METADATA_COLUMNS) s.top_down = r;
            if (b->rules[r] == &RULE_EXTRACT_WINDOW_EXPRESSIONS) s.windows = r;
            if (b->rules[r] == &RULE_RESOLVE_GROUPING_ANALYTICS) s.grouping = r;
        }
        Cursor fin;
        plan = resolve_operator(&s, plan, &fin, false);
        if (!plan) return NULL;
        /* the marks go (a sealed node a rule copied is unmarked already) */
        for (uint32_t i = 0; i < s.nsealed; i++) s.sealed[i]->flags &= ~(uint32_t)(NF_SP_SEALED | NF_ANALYZED);
        if (s.deferred) {
            plan = run_to_fixed_point(&s, plan);
            if (!plan) return NULL;
        }
    }
    return plan;
}
