/* Debugging aid (not a test): prints the parsed plan of each SQL argument. */
#include <stdio.h>
#include <string.h>

#include "core/errors.h"
#include "parser/parser.h"
#include "print/printer.h"

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        Arena *a = arena_new(0);
        ErrorInfo *err = NULL;
        ParserOptions po = {0};
        Node *plan = parse_statement(a, argv[i], strlen(argv[i]), &po, &err);
        if (plan)
            fputs(plan_tree_string_sql(a, plan, argv[i], strlen(argv[i])), stdout);
        else
            printf("parse error\n");
        arena_free(a);
    }
    return 0;
}
