/* Aggregate, window and generator functions. `empty` is what an aggregate
 * returns over no rows (count → 0), which decorrelation needs. */
#include "functions.h"
#include "registry.h"
#include "core/func_sig.h"

#define DBL_AGG1(nm) {AGG(nm, 1, 1, "d", fixed, "double"), .flags = FD_NULLABLE}
#define DBL_AGG2(nm) {AGG(nm, 2, 2, "dd", fixed, "double"), .flags = FD_NULLABLE}

const FuncDef FUNCS_AGGREGATE[] = {
    {AGG("count", 0, -1, "?", count, NULL), .empty = EMPTY_ZERO, .flags = FD_NOT_NULL},
    {AGG("count_if", 1, 1, "b", count, NULL), .empty = EMPTY_ZERO, .flags = FD_NOT_NULL},
    {AGG("regr_count", 2, 2, "nn", count, NULL), .empty = EMPTY_ZERO, .flags = FD_NOT_NULL},
    {AGG("approx_count_distinct", 1, 2, "?d", count, NULL), .empty = EMPTY_ZERO, .flags = FD_TYPED_IMP | FD_NOT_NULL,
     .sql_nargs = 1 /* relativeSD is a field */},
    {AGG("sum", 1, 1, "N", sum, NULL)},
    {AGG("try_sum", 1, 1, "N", sum, NULL)},
    {AGG("avg", 1, 1, "N", avg, NULL)},
    {AGG("mean", 1, 1, "N", avg, NULL)},
    {AGG("try_avg", 1, 1, "N", avg, NULL)},
    {AGG("min", 1, 1, "?", minmax, NULL)},
    {AGG("max", 1, 1, "?", minmax, NULL)},
    {AGG("max_by", 2, 2, "??", first_last, NULL)},
    {AGG("min_by", 2, 2, "??", first_last, NULL)},
    {AGG("any_value", 1, 2, "?b", first_last, NULL), .defaults = "bfalse", .print = CS_IGNORE_NULLS},
    {AGG("first", 1, 2, "?b", first_last, NULL), .defaults = "bfalse", .print = CS_IGNORE_NULLS},
    {AGG("first_value", 1, 2, "?b", first_last, NULL), .defaults = "bfalse", .print = CS_IGNORE_NULLS},
    {AGG("last", 1, 2, "?b", first_last, NULL), .defaults = "bfalse", .print = CS_IGNORE_NULLS},
    {AGG("last_value", 1, 2, "?b", first_last, NULL), .defaults = "bfalse", .print = CS_IGNORE_NULLS},
    {AGG("bit_and", 1, 1, "I", arg0, NULL), .flags = FD_NULLABLE},
    {AGG("bit_or", 1, 1, "I", arg0, NULL), .flags = FD_NULLABLE},
    {AGG("bit_xor", 1, 1, "I", arg0, NULL), .flags = FD_NULLABLE},
    {AGG("bool_and", 1, 1, "b", fixed, "boolean"), .flags = FD_NULLABLE},
    {AGG("every", 1, 1, "b", fixed, "boolean"), .flags = FD_NULLABLE},
    {AGG("bool_or", 1, 1, "b", fixed, "boolean"), .flags = FD_NULLABLE},
    {AGG("any", 1, 1, "b", fixed, "boolean"), .flags = FD_NULLABLE},
    {AGG("some", 1, 1, "b", fixed, "boolean"), .flags = FD_NULLABLE},
    /* PivotFirst, built by ResolvePivot only (not callable by name):
       pivotfirst(pivotColumn, valueColumn, pivot values..., 0, 0) */
    {AGG("@pivotfirst", 3, -1, "?", pivot_first, NULL), .pname = "pivotfirst", .flags = FD_TYPED_IMP},
    {AGG("collect_list", 1, 1, "?", collect, NULL), .empty = EMPTY_EMPTY_ARRAY, .flags = FD_TYPED_IMP},
    {AGG("array_agg", 1, 1, "?", collect, NULL), .pname = "collect_list", .empty = EMPTY_EMPTY_ARRAY, .flags = FD_TYPED_IMP},
    {AGG("collect_set", 1, 1, "?", collect, NULL), .empty = EMPTY_EMPTY_ARRAY, .flags = FD_TYPED_IMP},
    /* CollectFrequentItems(child, size): DataFrame.stat.freqItems only (not callable by name) */
    {AGG("@collect_frequent_items", 2, 2, "?i", collect, NULL), .pname = "collect_frequent_items",
     .empty = EMPTY_EMPTY_ARRAY, .flags = FD_TYPED_IMP},
    DBL_AGG2("corr"), DBL_AGG2("covar_pop"), DBL_AGG2("covar_samp"),
    /* RegrAvgX/Y take any numeric as it is (their replacement averages it) */
    {AGG("regr_avgx", 2, 2, "nn", fixed, "double"), .flags = FD_NULLABLE},
    {AGG("regr_avgy", 2, 2, "nn", fixed, "double"), .flags = FD_NULLABLE},
    DBL_AGG2("regr_intercept"), DBL_AGG2("regr_r2"),
    DBL_AGG2("regr_slope"), DBL_AGG2("regr_sxx"), DBL_AGG2("regr_sxy"), DBL_AGG2("regr_syy"),
    DBL_AGG1("kurtosis"), DBL_AGG1("skewness"), DBL_AGG1("stddev"), DBL_AGG1("std"), DBL_AGG1("stddev_samp"),
    DBL_AGG1("stddev_pop"), DBL_AGG1("variance"), DBL_AGG1("var_samp"), DBL_AGG1("var_pop"),
    {AGG("median", 1, 1, "N", median, NULL), .flags = FD_NULLABLE},
    {AGG("approx_percentile", 2, 3, "??i", percentile_approx, NULL), .defaults = "i10000", .flags = FD_TYPED_IMP},
    {AGG("percentile_approx", 2, 3, "??i", percentile_approx, NULL), .defaults = "i10000", .flags = FD_TYPED_IMP},
    {AGG("percentile", 2, 3, "??I", percentile, NULL), .defaults = "l1", .flags = FD_TYPED_IMP},
    {AGG("percentile_cont", 1, 1, "d?", within_group, "double"), .print = CS_WITHIN_GROUP},
    {AGG("percentile_disc", 1, 1, "d?", within_group, "double"), .print = CS_WITHIN_GROUP,
     .conf_flag = "spark.sql.legacy.percentileDiscCalculation"},
    {AGG("mode", 0, 2, "??", within_group, NULL), .print = CS_WITHIN_GROUP, .flags = FD_TYPED_IMP,
     .tostring_tail = ", None"},
    {AGG("count_min_sketch", 4, 4, "?ddi", fixed, "binary"), .params = "column|epsilon|confidence|seed", .flags = FD_TYPED_IMP},
    {AGG("histogram_numeric", 2, 2, "?i", histogram, NULL), .flags = FD_TYPED_IMP},
    {AGG("hll_sketch_agg", 1, 2, "?i", fixed, "binary"), .defaults = "i12", .flags = FD_TYPED_IMP},
    {AGG("hll_union_agg", 1, 2, "Bb", fixed, "binary"), .defaults = "bfalse", .flags = FD_TYPED_IMP},
    {AGG("listagg", 1, 2, "xg", listagg, NULL), .defaults = "n", .print = CS_WITHIN_GROUP, .flags = FD_TYPED_IMP},
    {AGG("string_agg", 1, 2, "xg", listagg, NULL), .defaults = "n", .print = CS_WITHIN_GROUP, .flags = FD_TYPED_IMP},
    {AGG("bitmap_construct_agg", 1, 1, "l", fixed, "binary"), .flags = FD_TYPED_IMP},
    {AGG("bitmap_or_agg", 1, 1, "B", fixed, "binary"), .flags = FD_TYPED_IMP},
    {AGG("schema_of_variant_agg", 1, 1, "v", fixed, "string"), .flags = FD_TYPED_IMP},
    END_OF_TABLE,
};

const FuncDef FUNCS_WINDOW[] = {
    {WIN("row_number", 0, 0, "", fixed, "int"), .flags = FD_NOT_NULL | FD_WINDOW_ONLY},
    {WIN("rank", 0, -1, "?", fixed, "int"), .flags = FD_NOT_NULL | FD_WINDOW_ONLY, .print = CS_RANK},
    {WIN("dense_rank", 0, -1, "?", fixed, "int"), .flags = FD_NOT_NULL | FD_WINDOW_ONLY, .print = CS_RANK},
    {WIN("percent_rank", 0, -1, "?", fixed, "double"), .flags = FD_NOT_NULL | FD_WINDOW_ONLY, .print = CS_RANK},
    {WIN("cume_dist", 0, 0, "", fixed, "double"), .flags = FD_NOT_NULL | FD_WINDOW_ONLY},
    {WIN("ntile", 0, 1, "i", fixed, "int"), .flags = FD_NULLABLE | FD_WINDOW_ONLY},
    {WIN("lag", 1, 3, "?i?", arg0, NULL), .defaults = "i1|n", .flags = FD_NULLABLE | FD_WINDOW_ONLY,
     .print = CS_LAG},
    {WIN("lead", 1, 3, "?i?", arg0, NULL), .defaults = "i1|n", .flags = FD_NULLABLE | FD_WINDOW_ONLY},
    {WIN("nth_value", 2, 3, "?ib", first_last, NULL), .defaults = "bfalse", .flags = FD_NULLABLE | FD_WINDOW_ONLY,
     .print = CS_IGNORE_NULLS},
    END_OF_TABLE,
};

const FuncDef FUNCS_GENERATOR[] = {
    {GEN("explode", 1, 1, "?", explode, NULL), .params = "collection"},
    {GEN("explode_outer", 1, 1, "?", explode, NULL), .params = "collection"},
    {GEN("posexplode", 1, 1, "?", posexplode, NULL), .params = "collection"},
    {GEN("posexplode_outer", 1, 1, "?", posexplode, NULL), .params = "collection"},
    {GEN("inline", 1, 1, "?", inline, NULL)},
    {GEN("inline_outer", 1, 1, "?", inline, NULL)},
    {GEN("stack", 1, -1, "?", stack, NULL)},
    {GEN("json_tuple", 2, -1, "s", json_tuple, NULL)},
    {GEN("variant_explode", 1, 1, "v", variant_explode, NULL), .params = "input"},
    {GEN("sql_keywords", 0, 0, "", sql_keywords, NULL)},
    {GEN("collations", 0, 0, "", collations, NULL)},
    {GEN("variant_explode_outer", 1, 1, "v", variant_explode, NULL), .params = "input"},
    END_OF_TABLE,
};
