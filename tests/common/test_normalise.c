/* Spark's golden-file normalisation of plans, as the golden runner and the
 * corpus plan comparison apply it. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "normalise.h"

static void expect_normalised(const char *plan, const char *want) {
    char *got = plan_normalise(plan);
    cr_expect_str_eq(got, want);
    free(got);
}

Test(normalise, ids_and_cte_ids) {
    expect_normalised("Project [a#12, b#3L]\n+- CTERelationRef 4, true, [a#12], false, false",
                      "Project [a#x, b#xL]\n+- CTERelationRef xxxx, true, [a#x], false, false");
    expect_normalised(":- CTERelationDef 17, false", ":- CTERelationDef xxxx, false");
    /* as Spark's: only an id followed by a comma; a `#` without digits stays */
    expect_normalised("CTERelationDef 17 x # #a", "CTERelationDef 17 x # #a");
    expect_normalised("", "");
}
