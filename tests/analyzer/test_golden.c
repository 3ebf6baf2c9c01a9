/* Golden plan tests: each tests/golden/NAME.sql runs in a fresh session;
 * the analysed tree string of every statement (ids normalised to #x), or its
 * error class, must equal tests/golden/NAME.plan. CATALYZER_UPDATE_GOLDEN=1
 * rewrites the .plan files. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "golden.h"
#include "core/arena.h"
#include "core/strbuf.h"

static void print_result(StrBuf *out, int index, const char *stmt, size_t len, void *result) {
    (void)stmt;
    (void)len;
    CzResult *r = result;
    sb_printf(out, "-- statement %d\n", index);
    if (cz_result_status(r) == CZ_OK) golden_normalise_ids(out, cz_result_tree(r));
    else sb_printf(out, "error %s", cz_result_error(r)->error_class);
    sb_putc(out, '\n');
}

Test(golden, plans) { cr_expect_gt(golden_check_dir("tests/golden", print_result), 0); }
