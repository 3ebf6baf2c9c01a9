/* Printing a Call or an AggregateExpression as Spark does: `sql` style for
 * output names and error parameters, toString style for plan trees. The
 * print style of each function is in its registry row; arguments are printed
 * by the caller's print_arg so attributes and literals follow its style. */
#include <ctype.h>
#include <string.h>

#include "print_internal.h"
#include "printer.h"
#include "core/func_sig.h"

/* sb_printf(sb, "PRE%sPOST", s) without printf (vsnprintf was most of
 * printing an operator or a call's name); NULL prints as glibc's "(null)". */
static void put_wrapped(StrBuf *sb, const char *pre, const char *s, const char *post) {
    pr_puts(sb, pre);
    pr_puts(sb, s ? s : "(null)");
    pr_puts(sb, post);
}

/* A string literal's text (under an implicit cast too), or NULL. */
static const char *lit_string(const Node *n) {
    if (n && n->kind == NK_Cast && (n->flags & NF_IMPLICIT) && n->nkids) n = n->kids[0];
    if (!n || n->kind != NK_Literal || n->u.lit.v.is_null || !type_is_string(n->type)) return NULL;
    return n->u.lit.v.u.s.p ? n->u.lit.v.u.s.p : "";
}

static void put_upper(StrBuf *sb, const char *s) {
    for (; *s; s++) pr_putc(sb, (char)toupper((unsigned char)*s));
}

static void print_args(StrBuf *sb, Node *const *args, uint32_t from, uint32_t to, PrintArgFn pa, void *ctx) {
    for (uint32_t i = from; i < to; i++) {
        if (i > from) pr_puts(sb, ", ");
        pa(sb, args[i], ctx);
    }
}

static const char *printed_name(const Node *call) {
    const FuncSig *d = call_sig(call);
    /* ceil/floor with a scale are RoundCeil/RoundFloor, printed lower-case */
    if (d && (d->flags & FD_SCALE_LOWER) && call->nkids == 2) return d->name;
    if (d && d->pname) return d->pname;
    if (call->u.call.name) return call->u.call.name;
    return d ? d->name : "?";
}

/* Number of kids that are arguments (a WITHIN GROUP call keeps its ordering last). */
static uint32_t nargs_of(const Node *call) {
    const FuncSig *d = call_sig(call);
    uint32_t n = call->nkids;
    if (d && d->print == CS_WITHIN_GROUP)
        while (n > 0 && call->kids[n - 1]->kind == NK_SortOrder) n--;
    if (d && d->print_nargs > 0 && n > (uint32_t)d->print_nargs) n = (uint32_t)d->print_nargs;
    return n;
}

/* Spark's toString shows the constructor fields that are not children after
 * the arguments; a row's tostring_tail spells them out, with
 *   $Z   Some(<time zone>): a TimeZoneAwareExpression's timeZoneId
 *   $A   the ANSI mode the call was built under (failOnError), $a its negation
 *   $F   the boolean configuration the row's conf_flag names, as it was when the call was built
 *   $T   the result type as DataType.toString prints it (TimestampType)
 *   $S   the call's u.call.extra as text (Collate's collation name)
 *   $?N  argument N as an Option: Some(arg), or None when it is absent
 * and a leading `$<N` meaning toString prints only the first N arguments
 * before the tail. A tail after no arguments drops its leading ", ". */
static uint32_t tail_arg_limit(const char *tail, uint32_t n) {
    if (tail && tail[0] == '$' && tail[1] == '<') {
        uint32_t lim = (uint32_t)(tail[2] - '0');
        return lim < n ? lim : n;
    }
    return n;
}

static void print_tail(StrBuf *sb, const Node *call, const char *tail, uint32_t printed, PrintArgFn pa, void *ctx) {
    if (tail[0] == '$' && tail[1] == '<') tail += 3;
    if (!printed && tail[0] == ',' && tail[1] == ' ') tail += 2;
    for (const char *p = tail; *p; p++) {
        if (*p != '$' || !p[1]) {
            pr_putc(sb, *p);
            continue;
        }
        switch (*++p) {
        case 'Z': put_wrapped(sb, "Some(", call->u.call.tz ? call->u.call.tz : "UTC", ")"); break;
        case 'A': pr_puts(sb, call->u.call.ansi ? "true" : "false"); break;
        case 'F': pr_puts(sb, call->u.call.extra ? "true" : "false"); break; /* the row's conf_flag */
        case 'a': pr_puts(sb, call->u.call.ansi ? "false" : "true"); break;
        case 'S': pr_puts(sb, call->u.call.extra ? (const char *)call->u.call.extra : ""); break;
        case 'T': type_print_scala(sb, call->type ? call->type : &TYPE_NULL); break;
        case '?': {
            uint32_t i = (uint32_t)(p[1] - '0');
            p++;
            if (i < call->nkids) {
                pr_puts(sb, "Some(");
                pa(sb, call->kids[i], ctx);
                pr_putc(sb, ')');
            } else {
                pr_puts(sb, "None");
            }
            break;
        }
        default: pr_putc(sb, '$'), pr_putc(sb, *p); break;
        }
    }
}

/* The (key,value) pairs of a constant options map, as a Scala Map flattened
 * into a case class's arguments prints them. */
static bool options_pairs(StrBuf *sb, const Node *opts, bool *first) {
    if (!opts) return true;
    if (opts->kind == NK_Call && call_sig(opts) && !strcmp(call_sig(opts)->name, "map")) {
        for (uint32_t i = 0; i + 1 < opts->nkids; i += 2) {
            const char *k = lit_string(opts->kids[i]), *v = lit_string(opts->kids[i + 1]);
            if (!k || !v) return false;
            sb_printf(sb, "%s(%s,%s)", *first ? "" : ", ", k, v);
            *first = false;
        }
        return true;
    }
    if (opts->kind == NK_Literal && opts->type && opts->type->id == T_MAP && !opts->u.lit.v.is_null) {
        const Value *m = &opts->u.lit.v;
        for (uint32_t i = 0; i < m->u.list.n; i++) {
            const Value *k = &m->u.list.items[2 * i], *v = &m->u.list.items[2 * i + 1];
            pr_puts(sb, *first ? "(" : ", (");
            value_print(sb, k);
            pr_putc(sb, ',');
            value_print(sb, v);
            pr_putc(sb, ')');
            *first = false;
        }
        return true;
    }
    return false;
}

/* JsonToStructs / CsvToStructs / XmlToStructs(schema, options, child, timeZoneId, ...) and
 * StructsToJson / StructsToCsv / StructsToXml(options, child, timeZoneId): their toString
 * flattens the schema's fields and the options' pairs into the arguments. */
static bool print_json_csv(StrBuf *sb, const Node *call, const char *name, PrintArgFn pa, void *ctx) {
    const FuncSig *d = call_sig(call);
    bool from = !strcmp(d->name, "from_json") || !strcmp(d->name, "from_csv") || !strcmp(d->name, "from_xml");
    bool to = !strcmp(d->name, "to_json") || !strcmp(d->name, "to_csv") || !strcmp(d->name, "to_xml");
    if (!strncmp(d->name, "schema_of_", 10) && call->nkids) {
        /* SchemaOfJson/Csv/Xml(child, options) */
        StrBuf b;
        sb_init(&b, sb->arena, 64);
        put_wrapped(&b, "", name, "(");
        pa(&b, call->kids[0], ctx);
        bool first = false;
        if (!options_pairs(&b, call->nkids > 1 ? call->kids[1] : NULL, &first)) return false;
        pr_putc(&b, ')');
        pr_puts(sb, b.data);
        return true;
    }
    if ((!from && !to) || !call->nkids) return false;
    StrBuf b;
    sb_init(&b, sb->arena, 64);
    bool first = true;
    put_wrapped(&b, "", name, "(");
    if (from) {
        if (!call->type) return false;
        if (call->type->id == T_STRUCT) {
            for (int i = 0; i < call->type->nfields; i++) {
                const DataType one = {.id = T_STRUCT, .nfields = 1, .fields = &call->type->fields[i]};
                if (i) pr_puts(&b, ", ");
                type_print_struct_fields(&b, &one);
            }
            first = call->type->nfields == 0;
        } else {
            type_print_scala(&b, call->type);
            first = false;
        }
    }
    if (!options_pairs(&b, call->nkids > (from ? 2u : 1u) ? call->kids[from ? 2 : 1] : NULL, &first)) return false;
    if (!first) pr_puts(&b, ", ");
    pa(&b, call->kids[0], ctx);
    put_wrapped(&b, ", Some(", call->u.call.tz ? call->u.call.tz : "UTC", ")");
    if (!strcmp(d->name, "from_json")) pr_puts(&b, ", false");
    if (!strcmp(d->name, "from_csv")) pr_puts(&b, ", None");
    pr_putc(&b, ')');
    pr_puts(sb, b.data);
    return true;
}

/* A value as the JVM prints Catalyst's internal one (PivotFirst's values):
 * rows and arrays `[a,b]`, strings bare. */
static void internal_value_print(StrBuf *sb, const Value *v) {
    if (v->is_null) {
        pr_puts(sb, "null");
        return;
    }
    if (v->type->id == T_STRUCT || v->type->id == T_ARRAY) {
        pr_putc(sb, '[');
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) pr_putc(sb, ',');
            internal_value_print(sb, &v->u.list.items[i]);
        }
        pr_putc(sb, ']');
        return;
    }
    value_print(sb, v);
}

static void print_plain(StrBuf *sb, const Node *call, const char *name, bool distinct, bool sql, PrintArgFn pa,
                        void *ctx) {
    if (!sql && call_sig(call) && print_json_csv(sb, call, name, pa, ctx)) return;
    uint32_t n = nargs_of(call);
    if (sql && call_sig(call) && call_sig(call)->sql_nargs > 0 && n > (uint32_t)call_sig(call)->sql_nargs)
        n = (uint32_t)call_sig(call)->sql_nargs;
    const FuncSig *pd = call_sig(call);
    bool binary_args = n >= 1 && call->kids[0]->type && call->kids[0]->type->id == T_BINARY;
    pr_puts(sb, !sql && pd && pd->tostring_name && !binary_args ? pd->tostring_name : name);
    pr_putc(sb, '(');
    if (distinct) pr_puts(sb, sql ? "DISTINCT " : "distinct ");
    /* BinaryPad(funcName, str, len, pad) and the binary string predicates
       (StaticInvoke): their toString starts with the name */
    if (!sql && pd && call->type && call->type->id == T_BINARY &&
        (strcmp(pd->name, "lpad") == 0 || strcmp(pd->name, "rpad") == 0))
        put_wrapped(sb, "", pd->name, ", ");
    if (!sql && pd && pd->tostring_name && n == 2 && binary_args) put_wrapped(sb, "", pd->name, ", ");
    /* ToBinary(expr, format: Option, nullOnInvalidFormat) */
    if (!sql && pd && strcmp(pd->name, "to_binary") == 0 && n >= 1) {
        pa(sb, call->kids[0], ctx);
        if (n >= 2) {
            pr_puts(sb, ", Some(");
            pa(sb, call->kids[1], ctx);
            pr_puts(sb, "), false)");
        } else {
            pr_puts(sb, ", None, false)");
        }
        return;
    }
    const FuncSig *d = call_sig(call);
    if (!sql && d) n = tail_arg_limit(d->tostring_tail, n);
    if (!sql && d && strcmp(d->name, "@pivotfirst") == 0 && n >= 2) {
        /* PivotFirst(pivotColumn, valueColumn, pivotColumnValues: Seq[Any], ...) */
        print_args(sb, call->kids, 0, 2, pa, ctx);
        for (uint32_t i = 2; i < n; i++) {
            pr_puts(sb, ", ");
            if (call->kids[i]->kind == NK_Literal) internal_value_print(sb, &call->kids[i]->u.lit.v);
            else pa(sb, call->kids[i], ctx);
        }
    } else {
        print_args(sb, call->kids, sql && d && (d->flags & FD_SQL_SKIP_FIRST) ? 1 : 0, n, pa, ctx);
    }
    if (!sql && d && (d->flags & FD_TYPED_IMP)) {
        /* TypedImperativeAggregate.toString shows the buffer offsets (and
         * HyperLogLogPlusPlus its default relativeSD) */
        if (n == 1 && strcmp(d->name, "approx_count_distinct") == 0) pr_puts(sb, ", 0.05");
        pr_puts(sb, ", 0, 0");
        if (strcmp(d->name, "percentile") == 0) pr_puts(sb, ", false");
    }
    if (!sql && d && n == 2 && strcmp(d->name, "ilike") == 0) pr_puts(sb, ", \\"); /* ILike's escape char */
    if (d && d->tostring_tail && (!sql || (d->flags & FD_SQL_TAIL))) print_tail(sb, call, d->tostring_tail, n, pa, ctx);
    /* ArraysZip(children, names): the field names follow the arrays */
    if (!sql && d && strcmp(d->name, "arrays_zip") == 0 && call->type && call->type->id == T_ARRAY &&
        call->type->elem->id == T_STRUCT)
        for (int i = 0; i < call->type->elem->nfields; i++) put_wrapped(sb, ", ", call->type->elem->fields[i].name, "");
    pr_putc(sb, ')');
}

static bool lit_true(const Node *n) {
    while (n->kind == NK_Cast && n->nkids) n = n->kids[0];
    return n->kind == NK_Literal && !n->u.lit.v.is_null && n->type->id == T_BOOLEAN && n->u.lit.v.u.b;
}

static void print_call(StrBuf *sb, const Node *call, bool distinct, bool sql, bool in_agg, PrintArgFn pa, void *ctx) {
    const FuncSig *d = call_sig(call);
    const char *name = printed_name(call);
    CallStyle style = d ? d->print : CS_FUNC;
    Node *const *k = call->kids;
    uint32_t n = call->nkids;
    switch (style) {
    case CS_BINARY:
        if (n != 2) break;
        pr_putc(sb, '(');
        pa(sb, k[0], ctx);
        put_wrapped(sb, " ", d->op, " ");
        pa(sb, k[1], ctx);
        pr_putc(sb, ')');
        return;
    case CS_PREFIX:
        if (n != 1) break;
        if (sql) {
            put_wrapped(sb, "(", d->op, " ");
            pa(sb, k[0], ctx);
            pr_putc(sb, ')');
        } else if (strcmp(d->op, "-") == 0) {
            pr_putc(sb, '-');
            pa(sb, k[0], ctx);
        } else if (strcmp(d->op, "+") == 0) {
            pr_puts(sb, "positive(");
            pa(sb, k[0], ctx);
            pr_putc(sb, ')');
        } else {
            put_wrapped(sb, "", d->op, " ");
            pa(sb, k[0], ctx);
        }
        return;
    case CS_UNARY_NAMED:
        if (!sql && n == 1 && !strcmp(d->name, "negative")) {
            /* UnaryMinus.toString is -child whatever name called it */
            pr_putc(sb, '-');
            pa(sb, k[0], ctx);
            return;
        }
        print_plain(sb, call, name, false, sql, pa, ctx);
        return;
    case CS_TILDE:
        if (n != 1) break;
        pr_putc(sb, '~');
        pa(sb, k[0], ctx);
        return;
    case CS_POSTFIX:
        if (n != 1) break;
        if (sql) {
            pr_putc(sb, '(');
            pa(sb, k[0], ctx);
            put_wrapped(sb, " ", d->op, ")");
        } else {
            print_plain(sb, call, d->name, false, sql, pa, ctx);
        }
        return;
    case CS_LIKE:
        if (n < 2) break;
        pa(sb, k[0], ctx);
        put_wrapped(sb, " ", d->op, " ");
        pa(sb, k[1], ctx);
        if (n > 2) {
            const char *esc = lit_string(k[2]);
            if (esc && strcmp(esc, "\\") != 0) put_wrapped(sb, " ESCAPE '", esc, "'");
        }
        return;
    case CS_LIKE_MULTI:
        /* LikeAny/NotLikeAll...: the patterns are not children, so Spark's
         * sql is likeany(child); toString lists them */
        if (n < 1) break;
        for (const char *p = name; *p; p++)
            if (*p != ' ') pr_putc(sb, *p);
        pr_putc(sb, '(');
        print_args(sb, k, 0, sql ? 1 : n, pa, ctx);
        pr_putc(sb, ')');
        return;
    case CS_RLIKE:
        if (sql) put_upper(sb, name);
        else pr_puts(sb, "RLIKE");
        pr_putc(sb, '(');
        print_args(sb, k, 0, n, pa, ctx);
        pr_putc(sb, ')');
        return;
    case CS_IF:
        if (n != 3) break;
        if (sql) {
            pr_puts(sb, "(IF(");
            print_args(sb, k, 0, 3, pa, ctx);
            pr_puts(sb, "))");
        } else {
            pr_puts(sb, "if (");
            pa(sb, k[0], ctx);
            pr_puts(sb, ") ");
            pa(sb, k[1], ctx);
            pr_puts(sb, " else ");
            pa(sb, k[2], ctx);
        }
        return;
    case CS_EXTRACT:
        if (n != 2) break;
        put_wrapped(sb, "", name, "(");
        {
            const char *f = lit_string(k[0]);
            if (f) pr_puts(sb, f);
            else pa(sb, k[0], ctx);
        }
        pr_puts(sb, " FROM ");
        pa(sb, k[1], ctx);
        pr_putc(sb, ')');
        return;
    case CS_WITHIN_GROUP: {
        /* the WITHIN GROUP orderings are the trailing SortOrder kids
           (functions/within_group.c says how each function holds them) */
        uint32_t na = n;
        while (na > 0 && k[na - 1]->kind == NK_SortOrder) na--;
        bool mode = strcmp(d->name, "mode") == 0, pct = strncmp(d->name, "percentile_", 11) == 0;
        const Node *so = na < n ? k[na] : NULL;
        if (sql && !in_agg) {
            /* Expression.sql of the bare function (CheckAnalysis messages):
               its children, the ordering's child first for Mode and the percentiles */
            put_wrapped(sb, "", name, "(");
            bool first = true;
            if (so && (mode || pct)) {
                pa(sb, so->nkids ? so->kids[0] : so, ctx);
                first = false;
            }
            for (uint32_t i = 0; i < n; i++) {
                if ((mode || pct) && k[i]->kind == NK_SortOrder) continue;
                if (!first) pr_puts(sb, ", ");
                pa(sb, k[i], ctx);
                first = false;
            }
            pr_putc(sb, ')');
            return;
        }
        if (!sql && so && pct) {
            /* PercentileCont(child, percentage, reverse), PercentileDisc(..., reverse, offsets, legacyCalculation) */
            put_wrapped(sb, "", name, "(");
            pa(sb, so->nkids ? so->kids[0] : so, ctx);
            for (uint32_t i = 0; i < na; i++) {
                pr_puts(sb, ", ");
                pa(sb, k[i], ctx);
            }
            pr_puts(sb, so->u.sort_order.descending ? ", true" : ", false");
            if (strcmp(d->name, "percentile_disc") == 0)
                pr_puts(sb, call->u.call.extra ? ", 0, 0, true" : ", 0, 0, false");
            pr_putc(sb, ')');
            return;
        }
        if (!sql && so && mode) {
            /* Mode(child, offsets, reverseOpt = Some(descending)) */
            put_wrapped(sb, "", name, "(");
            pa(sb, so->nkids ? so->kids[0] : so, ctx);
            put_wrapped(sb, ", 0, 0, Some(", so->u.sort_order.descending ? "true" : "false", "))");
            return;
        }
        if (!sql && !mode && !pct) {
            /* ListAgg(child, delimiter, orderExpressions, offsets) */
            put_wrapped(sb, "", name, "(");
            if (distinct) pr_puts(sb, "distinct ");
            print_args(sb, k, 0, n, pa, ctx);
            pr_puts(sb, ", 0, 0)");
            return;
        }
        print_plain(sb, call, name, distinct, sql, pa, ctx);
        if (sql && so) {
            pr_puts(sb, " WITHIN GROUP (ORDER BY ");
            if (mode || pct) {
                pa(sb, so->nkids ? so->kids[0] : so, ctx);
                if (so->u.sort_order.descending) pr_puts(sb, " DESC");
            } else {
                print_args(sb, k, na, n, pa, ctx); /* ListAgg: each SortOrder's sql */
            }
            pr_putc(sb, ')');
        }
        return;
    }
    case CS_INVOKE:
        sb_printf(sb, "%s(%s(", name, call->u.call.extra ? (const char *)call->u.call.extra : "?");
        print_args(sb, k, 0, n, pa, ctx);
        pr_puts(sb, "))");
        return;
    case CS_RANK:
        if (sql) {
            put_upper(sb, name);
            pr_puts(sb, "()");
        } else {
            print_plain(sb, call, name, false, sql, pa, ctx);
        }
        return;
    case CS_STRUCT:
        if (!sql) break;
        put_wrapped(sb, "", name, "(");
        for (uint32_t i = 1; i < n; i += 2) {
            if (i > 1) pr_puts(sb, ", ");
            pa(sb, k[i], ctx);
        }
        pr_putc(sb, ')');
        return;
    case CS_DT_ARITH:
        if (n != 2) break;
        pa(sb, k[0], ctx);
        put_wrapped(sb, " ", d->op, " ");
        pa(sb, k[1], ctx);
        return;
    case CS_LAG: {
        /* once the window frame is resolved, lag's offset child is negated
         * (lag(v#1, -1, null)); its sql shows the offset the user wrote */
        if (!sql || n != 3) break;
        const Node *o = k[1];
        while (o->kind == NK_Cast && (o->flags & NF_IMPLICIT) && o->nkids) o = o->kids[0];
        if (o->kind != NK_Literal || o->u.lit.v.is_null || !type_is_integral(o->type)) break;
        put_wrapped(sb, "", name, "(");
        pa(sb, k[0], ctx);
        sb_printf(sb, ", %lld, ", (long long)-o->u.lit.v.u.i);
        pa(sb, k[2], ctx);
        pr_putc(sb, ')');
        return;
    }
    case CS_TRIM:
        if (n == 2 && sql) {
            put_wrapped(sb, "TRIM(", d->op, " ");
            pa(sb, k[1], ctx);
            pr_puts(sb, " FROM ");
            pa(sb, k[0], ctx);
            pr_putc(sb, ')');
            return;
        }
        if (sql || n < 1) break;
        put_wrapped(sb, "", name, "(");
        pa(sb, k[0], ctx);
        if (n == 2) {
            pr_puts(sb, ", Some(");
            pa(sb, k[1], ctx);
            pr_puts(sb, "))");
        } else {
            pr_puts(sb, ", None)");
        }
        return;
    case CS_IGNORE_NULLS:
        if (!sql || n < 2) break;
        put_wrapped(sb, "", name, "(");
        if (distinct) pr_puts(sb, "DISTINCT ");
        print_args(sb, k, 0, n - 1, pa, ctx);
        pr_putc(sb, ')');
        if (lit_true(k[n - 1])) pr_puts(sb, " IGNORE NULLS");
        return;
    case CS_SUBSCRIPT:
        if (n != 2) break;
        pa(sb, k[0], ctx);
        pr_putc(sb, '[');
        pa(sb, k[1], ctx);
        pr_putc(sb, ']');
        return;
    case CS_FIELD_ACCESS:
        if (n != 2) break;
        pa(sb, k[0], ctx);
        pr_putc(sb, '.');
        pr_puts(sb, lit_string(k[1]) ? lit_string(k[1]) : "?");
        return;
    case CS_FUNC:
        break;
    }
    print_plain(sb, call, name, distinct, sql, pa, ctx);
}

void func_print(StrBuf *sb, const Node *call, bool sql_style, PrintArgFn print_arg, void *ctx) {
    if (call->kind == NK_AggregateExpression) {
        const Node *inner = call->nkids ? call->kids[0] : NULL;
        if (!inner) return;
        if (inner->kind == NK_Call)
            print_call(sb, inner, (call->flags & NF_DISTINCT) != 0, sql_style, true, print_arg, ctx);
        else print_arg(sb, inner, ctx);
        if ((call->flags & NF_HAS_FILTER) && call->nkids > 1) {
            pr_puts(sb, " FILTER (WHERE ");
            print_arg(sb, call->kids[1], ctx);
            pr_putc(sb, ')');
        }
        return;
    }
    print_call(sb, call, false, sql_style, false, print_arg, ctx);
}
