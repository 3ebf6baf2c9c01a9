/* Until the function library's func_print is linked in, a minimal stand-in:
 * `name(args)` for calls. */
#include "functions.h"

void func_print(StrBuf *sb, const Node *call, bool sql_style, PrintArgFn print_arg, void *ctx) {
    (void)sql_style;
    const Node *c = call->kind == NK_AggregateExpression && call->nkids ? call->kids[0] : call;
    if (c->kind != NK_Call) {
        if (c != call) print_arg(sb, c, ctx);
        return;
    }
    sb_puts(sb, c->u.call.name ? c->u.call.name : "?");
    sb_putc(sb, '(');
    if (call->flags & NF_DISTINCT) sb_puts(sb, sql_style ? "DISTINCT " : "distinct ");
    for (uint32_t i = 0; i < c->nkids; i++) {
        if (i) sb_puts(sb, ", ");
        print_arg(sb, c->kids[i], ctx);
    }
    sb_putc(sb, ')');
}
