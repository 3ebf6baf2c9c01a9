/* CACHE TABLE (Spark's CacheTable, CacheTableAsSelect), UNCACHE TABLE
 * (UncacheTable), CLEAR CACHE (ClearCacheCommand) and REFRESH TABLE /
 * FUNCTION / resource (RefreshTableCommand, RefreshFunctionCommand,
 * RefreshResource). CACHE and UNCACHE name a relation Spark resolves as a
 * query (its plan is the command's child); CACHE TABLE t AS query registers
 * a temporary view over the query. */
#include "statements.h"

#include <string.h>

#include "catalog/external_catalog.h"
#include "core/output.h"
#include "print/printer.h"

/* The statement's table as a query: UnresolvedRelation analysed. */
static Node *relation_plan(Analysis *an, const Node *stmt) {
    Node *u = node_new(an->arena, NK_UnresolvedRelation, stmt->start, stmt->stop);
    u->u.un.name = stmt->u.ddl.name;
    return an_analyze_query(an, node_finish(u));
}

Node *stmt_cache_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    if (stmt->u.ddl.extended && stmt->nkids) {
        /* CACHE TABLE t AS query: a temporary view over the query */
        if (stmt->u.ddl.name.n > 1)
            return an_fail(an, error_make(an->arena, "INVALID_SQL_SYNTAX.MULTI_PART_NAME", stmt, "statement",
                                          "CACHE TABLE", "name", sql_id_parts(an->arena, stmt->u.ddl.name), NULL));
        Node *query = an_analyze_query(an, stmt->kids[0]);
        if (!query) return NULL;
        AttrList out = plan_output(an, query);
        TempView v = {.name = stmt->u.ddl.name.v[0], .sql = stmt->u.ddl.text};
        v.nout = (int)out.n;
        v.out_names = ARENA_ARRAY(an->arena, const char *, out.n + 1);
        v.out_types = ARENA_ARRAY(an->arena, const DataType *, out.n + 1);
        for (uint32_t i = 0; i < out.n; i++) {
            v.out_names[i] = out.v[i]->u.attr.name;
            v.out_types[i] = out.v[i]->type;
        }
        if (v.sql) state_put_view(pending_state(s, pend), &v);
        return stmt_with_query(an, stmt, query);
    }
    Node *plan = relation_plan(an, stmt);
    if (!plan) return NULL;
    Node *c = node_copy(an->arena, stmt);
    node_set_kids(an->arena, c, &plan, 1);
    return node_finish(c);
}

Node *stmt_uncache_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    if (stmt->u.ddl.if_exists) {
        /* UNCACHE TABLE IF EXISTS: a missing relation is fine */
        NameParts n = stmt->u.ddl.name;
        bool temp = n.n == 1 && state_find_view(s->state, n.v[0]);
        QualifiedName q;
        bool found = temp;
        if (!found && !catalog_split_identifier(an->arena, s->state, n, &q))
            found = q.catalog.is_session ? q.ns.n == 1 && catalog_find_table(s->catalog, q.ns.v[0], q.name)
                                         : catalog_v2_find_table(s->catalog, q.catalog.name, q.ns, q.name) != NULL;
        if (!found) return stmt;
    }
    Node *plan = relation_plan(an, stmt);
    if (!plan) return NULL;
    Node *c = node_copy(an->arena, stmt);
    node_set_kids(an->arena, c, &plan, 1);
    return node_finish(c);
}

Node *stmt_clear_cache(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)an, (void)s, (void)pend;
    return stmt;
}

/* REFRESH TABLE t: a table or view (UnresolvedTableOrView). */
Node *stmt_refresh_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    /* RefreshTableExec: catalog.invalidateTable(ident) first, so an external
     * catalog forgets its cached copy and the lookup below loads it afresh */
    QualifiedName q;
    if (!catalog_split_identifier(an->arena, s->state, stmt->u.ddl.name, &q) && !q.catalog.is_session &&
        external_catalog_handles(s->state, q.catalog.plugin))
        external_invalidate_table(an->arena, s->state, &q.catalog, q.ns, q.name);
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE_OR_VIEW, "REFRESH TABLE", false, &r)) return NULL;
    return stmt_resolved_target(an, stmt, &r);
}

/* REFRESH FUNCTION f: Spark's RefreshFunctionCommand, which reloads the
 * function when it runs; a persistent function's database must exist. */
Node *stmt_refresh_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    NameParts n = stmt->u.ddl.name;
    QualifiedName q;
    if (!stmt_resolve_namespace(an, s, stmt, (NameParts){n.n - 1, n.v}, &q)) return NULL;
    return stmt_function_name(an, stmt, &q, true);
}

/* REFRESH 'path': Spark's RefreshResource (invalidates cached data under the path). */
Node *stmt_refresh_resource(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)an, (void)s, (void)pend;
    return stmt;
}
