/* CharVarcharUtils: what a CHAR(n) column reads as. A table's CHAR and
 * VARCHAR columns are STRING attributes (replaceCharVarcharWithString);
 * a CHAR(n) value is right-padded to n on read (spark.sql.readSideCharPadding):
 *     Relation t[c]                 (c CHAR(5))
 *  →  Project [static_invoke(CharVarcharCodegenUtils.readSidePadding(c#1, 5)) AS c#2]
 *     +- Relation t[c#1]
 * and CAST(x AS CHAR(n)) / AS VARCHAR(n) is a cast to STRING. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "catalog/conf.h"

static const FuncDef READ_SIDE_PADDING = {.name = "static_invoke", .kind = FK_SCALAR, .print = CS_INVOKE};

static bool conf_is(const Analysis *an, const char *key, const char *value) {
    const Conf *cf = an->conf;
    for (int i = cf ? cf->nentries - 1 : -1; i >= 0; i--)
        if (cf->keys[i] && strcasecmp(cf->keys[i], key) == 0) return cf->values[i] && strcasecmp(cf->values[i], value) == 0;
    return false;
}

bool func_char_padding_on_read(const Analysis *an) {
    return !conf_is(an, "spark.sql.legacy.charVarcharAsString", "true") &&
           !conf_is(an, "spark.sql.readSideCharPadding", "false");
}

Node *func_char_read_padding(Analysis *an, Node *attr, int length) {
    Node *args[2] = {attr, fn_mk_int_lit(an->arena, length, &TYPE_INT)};
    Node *r = fn_mk_call(an, &READ_SIDE_PADDING, READ_SIDE_PADDING.name, args, 2, &TYPE_STRING, attr);
    if (!r) return NULL;
    Node *m = node_copy(an->arena, r);
    m->u.call.extra = "CharVarcharCodegenUtils.readSidePadding";
    if (attr->flags & NF_NULLABLE) m->flags |= NF_NULLABLE;
    else m->flags &= ~(uint32_t)NF_NULLABLE;
    return node_finish(m);
}

bool func_char_cast_as_string(const Analysis *an) {
    return !conf_is(an, "spark.sql.preserveCharVarcharTypeInfo", "true");
}
