/* Output schema strings: `struct<a:int,(a + 1):int>` (Spark's
 * StructType.catalogString: names unquoted, types in catalog form). */
#include "print_internal.h"
#include "printer.h"

const char *schema_string(Arena *a, Node *const *attrs, uint32_t n) {
    StrBuf sb;
    sb_init(&sb, a, 32 + 16 * (size_t)n);
    pr_puts(&sb, "struct<");
    for (uint32_t i = 0; i < n; i++) {
        const Node *e = attrs[i];
        if (i) pr_putc(&sb, ',');
        if (!e) {
            pr_puts(&sb, ":void");
            continue;
        }
        switch (e->kind) {
        case NK_AttributeReference:
        case NK_Alias:
        case NK_NamedLambdaVariable:
        case NK_VariableReference: pr_puts(&sb, e->u.attr.name ? e->u.attr.name : ""); break;
        default: expr_print_style(&sb, e, PS_PRETTY); break;
        }
        pr_putc(&sb, ':');
        const DataType *t = e->type;
        if (!t && e->kind == NK_Alias && e->nkids && e->kids[0]) t = e->kids[0]->type;
        type_print_catalog(&sb, t ? t : &TYPE_NULL);
    }
    pr_putc(&sb, '>');
    return sb_str(&sb);
}
