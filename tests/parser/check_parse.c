/* See check_parse.h. */
#include "check_parse.h"

#include <criterion/criterion.h>
#include <string.h>

#include "parser/parser.h"

void parse_check_answer(Arena *a, const char *sql, size_t len) {
    ErrorInfo *err = NULL;
    Node *n = parse_statement(a, sql, len, NULL, &err);
    cr_assert(n || err, "no plan and no error for: %.*s", (int)len, sql);
    if (!n) {
        cr_assert(err->error_class && err->message, "error without class/message");
        cr_assert(err->phase && !strcmp(err->phase, "parse"), "parse error with phase %s", err->phase);
    }
    /* the other entry points on the same bytes: an answer, never a crash */
    err = NULL;
    cr_assert(parse_expression(a, sql, len, NULL, &err) || err);
    NameParts np;
    err = NULL;
    cr_assert(parse_multipart_identifier(a, sql, len, &np, &err) || err);
    err = NULL;
    cr_assert(parse_data_type(a, sql, len, &err) || err);
    arena_reset(a);
}
