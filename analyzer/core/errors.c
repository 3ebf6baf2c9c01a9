/* Error construction and the error-class table: Spark's SQLSTATE for each
 * class we raise, and our own message text with Spark's <parameters>. */
#include "errors.h"

#include <stdarg.h>
#include <string.h>

typedef struct ErrorClassDef {
    const char *cls;      /* top-level class, or a class.subclass with its own text */
    const char *sqlstate;
    const char *text;     /* with <param> placeholders */
} ErrorClassDef;

/* Sorted by nothing in particular; looked up linearly only when an error is
 * raised (never on the success path). */
static const ErrorClassDef CLASSES[] = {
    {"AMBIGUOUS_COLUMN_OR_FIELD", "42702", "Column or field <name> is ambiguous and has <n> matches."},
    {"AMBIGUOUS_COLUMN_REFERENCE", "42702", "Column <name> is ambiguous. It's because you joined several DataFrame together, and some of these DataFrames are the same.\nThis column points to one of the DataFrames but Spark is unable to figure out which one.\nPlease alias the DataFrames with different names via `DataFrame.alias` before joining them,\nand specify the column using qualified name, e.g. `df.alias(\"a\").join(df.alias(\"b\"), col(\"a.id\") > col(\"b.id\"))`."},
    {"CANNOT_RESOLVE_DATAFRAME_COLUMN", "42704", "Cannot resolve dataframe column <name>. It's probably because of illegal references like `df1.select(df2.col(\"a\"))`."},
    {"INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE", "42K0E", "The limit like expression <expr> is invalid. The <name> expression must be integer type, but got <dataType>."},
    {"INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE", "42K0E", "The limit like expression <expr> is invalid. The <name> expression must be equal to or greater than 0, but got <v>."},
    {"INVALID_LIMIT_LIKE_EXPRESSION.IS_NULL", "42K0E", "The limit like expression <expr> is invalid. The evaluated <name> expression must not be null."},
    {"INVALID_LIMIT_LIKE_EXPRESSION.IS_UNFOLDABLE", "42K0E", "The limit like expression <expr> is invalid. The <name> expression must evaluate to a constant value."},
    {"AMBIGUOUS_LATERAL_COLUMN_ALIAS", "42702", "Lateral column alias <name> is ambiguous and has <n> matches."},
    /* seed features (rules/resolve_lateral_column_alias.c, subquery_checks.c) */
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.ACCESSING_OUTER_QUERY_COLUMN_IS_NOT_ALLOWED", "0A000", "Unsupported subquery expression: Accessing outer query column is not allowed in this location:\n<treeNode>"},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES", "0A000", "Unsupported subquery expression: Found an aggregate function in a correlated predicate that has both outer and local references, which is not supported: <function>."},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.CORRELATED_REFERENCE", "0A000", "Unsupported subquery expression: Expressions referencing the outer query are not supported outside of WHERE/HAVING clauses: <sqlExprs>."},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.LATERAL_JOIN_CONDITION_NON_DETERMINISTIC", "0A000", "Unsupported subquery expression: Lateral join condition cannot be non-deterministic: <condition>."},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.MUST_AGGREGATE_CORRELATED_SCALAR_SUBQUERY", "0A000", "Unsupported subquery expression: Correlated scalar subqueries must be aggregated to return at most one row."},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES", "0A000", "Unsupported subquery expression: Non-deterministic lateral subqueries are not supported when joining with outer relations that produce more than one row:\n<treeNode>"},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_CORRELATED_SCALAR_SUBQUERY", "0A000", "Unsupported subquery expression: Correlated scalar subqueries can only be used in filters, aggregations, projections, and UPDATE/MERGE/DELETE commands:\n<treeNode>"},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_IN_EXISTS_SUBQUERY", "0A000", "Unsupported subquery expression: IN/EXISTS predicate subqueries can only be used in filters, joins, aggregations, window functions, projections, and UPDATE/MERGE/DELETE commands:\n<treeNode>"},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_CORRELATED_COLUMNS_IN_GROUP_BY", "0A000", "Unsupported subquery expression: A GROUP BY clause in a scalar correlated subquery cannot contain non-correlated columns: <value>."},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.HIGHER_ORDER_FUNCTION", "0A000", "Unsupported subquery expression: Subquery expressions are not supported within higher-order functions. Please remove all subquery expressions from higher-order functions and then try the query again."},
    {"MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT", "XX000", "Resolved attribute(s) <missingAttributes> missing from <input> in operator <operator>."},
    {"UNSUPPORTED_FEATURE.PIPE_OPERATOR_AGGREGATE_UNSUPPORTED_CASE", "0A000", "The feature is not supported: The SQL pipe operator syntax with aggregation (using |> AGGREGATE) does not support <case>."},
    {"UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC", "0A000", "The feature is not supported: Referencing a lateral column alias <lca> in the aggregate function <aggFunc>."},
    {"UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_WITH_WINDOW_AND_HAVING", "0A000", "The feature is not supported: Referencing lateral column alias <lca> in the aggregate query both with window expressions and with having clause. Please rewrite the aggregate query by removing the having clause or removing lateral alias reference in the SELECT list."},
    {"UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_GENERATOR", "0A000", "The feature is not supported: Referencing a lateral column alias <lca> in generator expression <generatorExpr>."},
    {"UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_GROUP_BY", "0A000", "The feature is not supported: Referencing a lateral column alias via GROUP BY alias/ALL is not supported yet."},
    {"UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_WINDOW", "0A000", "The feature is not supported: Referencing a lateral column alias <lca> in window expression <windowExpr>."},
    {"AMBIGUOUS_REFERENCE", "42704", "Reference <name> is ambiguous, could be: <referenceNames>."},
    {"AMBIGUOUS_REFERENCE_TO_FIELDS", "42000", "Ambiguous reference to the field <field>. It appears <count> times in the schema."},
    {"ASSIGNMENT_ARITY_MISMATCH", "42802", "The number of columns or variables assigned or aliased: <numTarget> does not match the number of source expressions: <numExpr>."},
    {"CANNOT_RESOLVE_STAR_EXPAND", "42704", "Cannot resolve <targetString>.* given input columns <columns>."},
    {"CAST_INVALID_INPUT", "22018", "The value <expression> of the type <sourceType> cannot be cast to <targetType> because it is malformed."},
    {"CAST_OVERFLOW", "22003", "The value <value> of the type <sourceType> cannot be cast to <targetType> due to an overflow."},
    {"COLUMN_ALREADY_EXISTS", "42711", "The column <columnName> already exists."},
    {"DATATYPE_MISMATCH", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch."},
    {"DEFAULT_PLACEMENT_INVALID", "42608", "A DEFAULT keyword cannot be assigned here."},
    {"DIVIDE_BY_ZERO", "22012", "Division by zero."},
    {"DUPLICATED_CTE_NAMES", "42602", "CTE definition can't have duplicate names: <duplicateNames>."},
    {"DUPLICATE_ASSIGNMENTS", "42701", "The columns or variables <nameList> appear more than once as assignment targets."},
    {"EXPRESSION_TYPE_IS_NOT_ORDERABLE", "42822", "Column expression <expr> cannot be sorted because its type <exprType> is not orderable."},
    {"GROUP_BY_AGGREGATE", "42903", "Aggregate functions are not allowed in GROUP BY, but found <sqlExpr>."},
    {"GROUP_BY_POS_AGGREGATE", "42903", "GROUP BY <index> refers to an expression <aggExpr> that contains an aggregate function."},
    {"GROUP_BY_POS_OUT_OF_RANGE", "42805", "GROUP BY position <index> is not in select list (valid range is [1, <size>])."},
    {"IDENTIFIER_TOO_MANY_NAME_PARTS", "42601", "<identifier> is not a valid identifier as it has more than 2 name parts."},
    {"INCOMPATIBLE_COLUMN_TYPE", "42825", "<operator> can only be performed on tables with compatible column types."},
    {"INCOMPATIBLE_JOIN_TYPES", "42613", "The join types <joinType1> and <joinType2> are incompatible."},
    {"INTERNAL_ERROR", "XX000", "<message>"},
    {"INVALID_DEFAULT_VALUE", "42623", "Failed to execute <statement> command because the destination column or variable <colName> has a DEFAULT value <defaultValue>, which is invalid."},
    {"INVALID_IDENTIFIER", "42602", "The unquoted identifier <ident> is invalid and must be back quoted as: `<ident>`."},
    {"INVALID_INLINE_TABLE", "42000", "Invalid inline table."},
    {"INVALID_LATERAL_JOIN_TYPE", "42613", "The <joinType> JOIN with LATERAL correlation is not allowed."},
    {"INVALID_SET_SYNTAX", "42000", "Expected format is 'SET', 'SET key', or 'SET key=value'."},
    {"INVALID_SQL_SYNTAX", "42000", "Invalid SQL syntax: <inputString>."},
    {"INVALID_SUBQUERY_EXPRESSION", "42823", "Invalid subquery."},
    {"INVALID_TEMP_OBJ_REFERENCE", "42K0F", "Cannot create the persistent object <objName> of the type <obj> because it references to the temporary object <tempObjName> of the type <tempObj>."},
    {"INVALID_TYPED_LITERAL", "42604", "The value of the typed literal <valueType> is invalid: <value>."},
    {"INVALID_WHERE_CONDITION", "42903", "The WHERE condition <condition> contains invalid expressions: <expressionList>."},
    {"INVALID_USAGE_OF_STAR_OR_REGEX", "42000", "Invalid usage of <elem> in <prettyName>."},
    {"LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC", "0A000", "Referencing a lateral column alias <lca> in the aggregate function <aggFunc> is not supported."},
    {"LATERAL_COLUMN_ALIAS_IN_AGGREGATE_WITH_WINDOW_AND_HAVING", "0A000", "Referencing lateral column alias <lca> in the aggregate query both with window expressions and with having clause is not supported."},
    {"MISSING_AGGREGATION", "42803", "The non-aggregating expression <expression> is based on columns which are not participating in the GROUP BY clause."},
    {"MISSING_GROUP_BY", "42803", "The query does not include a GROUP BY clause."},
    {"MISSING_WINDOW_SPECIFICATION", "42P20", "Window specification is not defined in the WINDOW clause for <windowName>."},
    {"NON_LITERAL_PIVOT_VALUES", "42K08", "Literal expressions required for pivot values, found <expression>."},
    {"NOT_A_CONSTANT_STRING", "42601", "The expression <expr> used for the routine or clause <name> must be a constant STRING which is NOT NULL."},
    {"NOT_A_PARTITIONED_TABLE", "42809", "Operation <operation> is not allowed for <tableIdentWithDB> because it is not a partitioned table."},
    {"NUM_COLUMNS_MISMATCH", "42826", "<operator> can only be performed on inputs with the same number of columns."},
    {"ORDER_BY_POS_OUT_OF_RANGE", "42805", "ORDER BY position <index> is not in select list (valid range is [1, <size>])."},
    {"PARSE_EMPTY_STATEMENT", "42617", "Syntax error, unexpected empty statement."},
    {"PARSE_SYNTAX_ERROR", "42601", "Syntax error at or near <error><hint>."},
    {"REQUIRES_SINGLE_PART_NAMESPACE", "42K05", "<sessionCatalog> requires a single-part namespace, but got <namespace>."},
    {"ROW_SUBQUERY_TOO_MANY_ROWS", "21000", "More than one row returned by a subquery used as a row."},
    {"SCALAR_SUBQUERY_TOO_MANY_ROWS", "21000", "More than one row returned by a subquery used as an expression."},
    {"SCHEMA_ALREADY_EXISTS", "42P06", "Cannot create schema <schemaName> because it already exists."},
    {"SCHEMA_NOT_FOUND", "42704", "The schema <schemaName> cannot be found."},
    {"CATALOG_NOT_FOUND", "42P08", "The catalog <catalogName> is not found; set the SQL config <config> to a catalog plugin class."},
    {"_LEGACY_ERROR_TEMP_2215", NULL, "Cannot find catalog plugin class for catalog '<name>': <pluginClassName>."},
    {"_LEGACY_ERROR_TEMP_1201", NULL, "Cannot resolve column name \"<colName>\" among (<fieldNames>)."},
    {"UNPIVOT_REQUIRES_VALUE_COLUMNS", "42K0A", "UNPIVOT needs at least one value column; all the columns given are ids."},
    {"UNPIVOT_VALUE_DATA_TYPE_MISMATCH", "42K09", "The UNPIVOT value columns have no least common type: [<types>]."},
    {"SCHEMA_NOT_EMPTY", "2BP01", "Cannot drop a schema <schemaName> because it contains objects."},
    {"STAR_GROUP_BY_POS", "0A000", "Star (*) is not allowed in a select list when GROUP BY an ordinal position is used."},
    {"TABLE_OR_VIEW_ALREADY_EXISTS", "42P07", "Cannot create table or view <relationName> because it already exists."},
    /* external catalogs (catalog/external_catalog.c; catalogs/ reports them as Spark's JDBCTableCatalog does) */
    {"FAILED_JDBC.TABLE_EXISTS", "HV000", "Failed JDBC <url> on the operation: Check that the table <tableName> exists."},
    {"FAILED_JDBC.LOAD_TABLE", "HV000", "Failed JDBC <url> on the operation: Load the table <tableName>."},
    {"FAILED_JDBC.NAMESPACE_EXISTS", "HV000", "Failed JDBC <url> on the operation: Check that the namespace <namespace> exists."},
    {"FAILED_JDBC.UNCLASSIFIED", "HV000", "Failed JDBC <url> on the operation: <message>"},
    /* catalyzer.remote catalogs (catalogs/remote_catalog.c): Catalyzer's own, Spark has no remote catalog */
    {"REMOTE_CATALOG.UNREACHABLE", "08001", "Cannot reach the catalog provider of <catalog> at <uri> (<operation>): <reason>"},
    {"REMOTE_CATALOG.DEADLINE_EXCEEDED", "HYT00", "The catalog provider of <catalog> at <uri> did not answer <operation> within <millis> ms."},
    {"REMOTE_CATALOG.FAILED", "HV000", "The catalog provider of <catalog> at <uri> failed <operation>: <reason>"},
    {"REMOTE_CATALOG.INVALID_RESPONSE", "HV000", "The catalog provider of <catalog> at <uri> answered <operation> with what Catalyzer cannot read: <reason>"},
    {"REMOTE_CATALOG.INVALID_OPTION", "42K06", "Catalog <catalog>: the option <option> = <value> is invalid: <reason>"},
    {"TABLE_OR_VIEW_NOT_FOUND", "42P01", "The table or view <relationName> cannot be found."},
    {"TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS", "428EK", "CREATE TEMPORARY VIEW or the corresponding Dataset APIs only accept single-part view names, but got: <actualName>."},
    /* a subclass's text is its class's, a space, its own (Spark's
       ErrorClassesJsonReader): WITHOUT_SUGGESTION's own text is empty */
    {"UNRESOLVED_COLUMN", "42703", "A column, variable, or function parameter with name <objectName> cannot be resolved."},
    {"UNRESOLVED_COLUMN.WITH_SUGGESTION", "42703", "A column, variable, or function parameter with name <objectName> cannot be resolved. Did you mean one of the following? [<proposal>]."},
    {"UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", "42703", "A column, variable, or function parameter with name <objectName> cannot be resolved. "},
    {"UNRESOLVED_FIELD", "42703", "A field with name <fieldName> cannot be resolved with the struct-type column <columnPath>."},
    {"UNRESOLVED_FIELD.WITH_SUGGESTION", "42703", "A field with name <fieldName> cannot be resolved with the struct-type column <columnPath>. Did you mean one of the following? [<proposal>]."},
    {"UNRESOLVED_FIELD.WITHOUT_SUGGESTION", "42703", "A field with name <fieldName> cannot be resolved with the struct-type column <columnPath>. "},
    {"UNRESOLVED_MAP_KEY", "42703", "Cannot resolve column <objectName> as a map key. If the key is a string literal, add the single quotes '' around it."},
    {"UNRESOLVED_MAP_KEY.WITH_SUGGESTION", "42703", "Cannot resolve column <objectName> as a map key. If the key is a string literal, add the single quotes '' around it. Otherwise did you mean one of the following column(s)? [<proposal>]."},
    {"UNRESOLVED_MAP_KEY.WITHOUT_SUGGESTION", "42703", "Cannot resolve column <objectName> as a map key. If the key is a string literal, add the single quotes '' around it. "},
    /* collations (core/collation.c, rules/collation_type_coercion.c) */
    {"COLLATION_INVALID_NAME", "42704", "The value <collationName> does not represent a correct collation name. Suggested valid collation names: [<proposals>]."},
    {"COLLATION_MISMATCH.EXPLICIT", "42P21", "Could not determine which collation to use for string functions and operators. Error occurred due to the mismatch between explicit collations: [<explicitTypes>]. Decide on a single explicit collation and remove others."},
    {"COLLATION_MISMATCH.IMPLICIT", "42P21", "Could not determine which collation to use for string functions and operators. Error occurred due to the mismatch between implicit collations: [<implicitTypes>]. Use COLLATE function to set the collation explicitly."},
    {"INDETERMINATE_COLLATION", "42P22", "Could not determine which collation to use for string operation. Use COLLATE clause to set the collation explicitly."},
    {"INDETERMINATE_COLLATION_IN_EXPRESSION", "42P22", "Data type of <expr> has indeterminate collation. Use COLLATE clause to set the collation explicitly."},
    {"INDETERMINATE_COLLATION_IN_SCHEMA", "42P22", "Schema contains indeterminate collation at: [<columnPaths>]. Use COLLATE clause to set the collation explicitly."},
    {"UNRESOLVED_ROUTINE", "42883", "Cannot resolve routine <routineName> on search path <searchPath>."},
    {"UNRESOLVED_USING_COLUMN_FOR_JOIN", "42703", "USING column <colName> cannot be resolved on the <side> side of the join. The <side>-side columns: [<suggestion>]."},
    {"UNRESOLVED_VARIABLE", "42883", "Cannot resolve variable <variableName> on search path <searchPath>."},
    {"UNSUPPORTED_FEATURE", "0A000", "The feature is not supported."},
    {"UNSUPPORTED_GENERATOR", "42K0E", "The generator is not supported."},
    {"UNSUPPORTED_GROUPING_EXPRESSION", "42K0E", "grouping()/grouping_id() are only allowed with GROUPING SETS, CUBE or ROLLUP."},
    {"GROUPING_COLUMN_MISMATCH", "42803", "The column of grouping (<grouping>) is not among the grouping columns <groupingColumns>."},
    {"GROUPING_ID_COLUMN_MISMATCH", "42803", "The columns of grouping_id (<groupingIdColumn>) differ from the grouping columns (<groupByColumns>)."},
    {"GROUPING_SIZE_LIMIT_EXCEEDED", "54000", "A GROUPING SETS list may hold at most <maxSize> grouping columns."},
    {"UDTF_ALIAS_NUMBER_MISMATCH", "42802", "The generator has <aliasesSize> output columns but the AS clause names <aliasesNames>."},
    {"MULTI_ALIAS_WITHOUT_GENERATOR", "42K0E", "The aliases (<names>) need a generator function, but <expr> is not one."},
    {"DISTINCT_WINDOW_FUNCTION_UNSUPPORTED", "0A000", "DISTINCT is not supported in a window function: <windowExpr>."},
    {"WINDOW_FUNCTION_AND_FRAME_MISMATCH", "42K0E", "<funcName> needs an ordered ROWS frame with one offset: <windowExpr>."},
    {"INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC", "42601", "<aggFunc> takes neither ORDER BY nor a window frame."},
    {"UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY", "0A000", "Unsupported subquery expression."},
    {"VARIABLE_ALREADY_EXISTS", "42723", "Cannot create the variable <variableName> because it already exists."},
    {"VARIABLE_NOT_FOUND", "42883", "The variable <variableName> cannot be found."},
    {"VIEW_NOT_FOUND", "42P01", "The view <relationName> cannot be found."},
    {"CATALYZER_UNEVALUATED_VALUE", "0A000", "The value of <expr> is needed to analyse this statement, but the analyzer cannot compute it (it depends on a table's rows or on a function the constant evaluator does not implement); Spark computes it when the statement runs."},
    {"RECURSIVE_VIEW", "42K0H", "Recursive view <viewIdent> detected (cycle: <newPath>)."},
    {"VIEW_EXCEED_MAX_NESTED_DEPTH", "54K00", "The depth of view <viewName> exceeds the maximum view resolution depth (<maxNestedDepth>).\nAnalysis is aborted to avoid errors. If you want to work around this, please try to increase the value of \"spark.sql.view.maxNestedViewDepth\"."},
    {"WRONG_NUM_ARGS", "42605", "The <functionName> requires <expectedNum> parameters but the actual number is <actualNum>."},
    {"WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE", "42601", "Window function <funcName> requires an OVER clause."},
    {"UNSUPPORTED_EXPR_FOR_WINDOW", "42P20", "Expression <sqlExpr> not supported within a window function."},
    {"UNSUPPORTED_EXPR_FOR_OPERATOR", "42K0E", "A query operator contains one or more unsupported expressions."},
    {"NESTED_AGGREGATE_FUNCTION", "42607", "It is not allowed to use an aggregate function in the argument of another aggregate function. Please use the inner aggregate function in a sub-query."},
    {"SCALAR_SUBQUERY_IS_IN_GROUP_BY_OR_AGGREGATE_FUNCTION", "0A000", "The correlated scalar subquery '<sqlExpr>' is neither present in GROUP BY, nor in an aggregate function. Add it to GROUP BY using ordinal position or wrap it in `first()` (or `first_value`) if you don't care which value you get."},
    {"AGGREGATE_FUNCTION_WITH_NONDETERMINISTIC_EXPRESSION", "42845", "Non-deterministic expression <sqlExpr> should not appear in the arguments of an aggregate function."},
    {"ALL_PARAMETERS_MUST_BE_NAMED", "07001", "Using name parameterized queries requires all parameters to be named."},
    {"UNBOUND_SQL_PARAMETER", "42P02", "Found the unbound parameter: <name>."},
    {"ARITHMETIC_OVERFLOW", "22003", "<message>."},
    {"NUMERIC_VALUE_OUT_OF_RANGE", "22003", "<value> cannot be represented as Decimal(<precision>, <scale>)."},
    {"INVALID_BOUNDARY", "22003", "The boundary <boundary> is invalid: <invalidValue>."},
    {"CANNOT_PARSE_INTERVAL", "22006", "Unable to parse <intervalString>."},
    {"INVALID_INTERVAL_FORMAT", "22006", "Error parsing <input> to interval."},
    {"_LEGACY_ERROR_TEMP", NULL, "<message>"},
    /* function library (functions/): type checks and argument errors */
    {"INVALID_AGGREGATE_FILTER.CONTAINS_AGGREGATE", "42903",
     "The FILTER expression <filterExpr> in an aggregate function is invalid. Expected a FILTER expression without an aggregation, but found <aggExpr>."},
    {"INVALID_AGGREGATE_FILTER.NOT_BOOLEAN", "42903",
     "The FILTER expression <filterExpr> in an aggregate function is invalid. Expected a FILTER expression of the BOOLEAN type."},
    {"INVALID_AGGREGATE_FILTER.CONTAINS_WINDOW_FUNCTION", "42903",
     "The FILTER expression <filterExpr> in an aggregate function is invalid. Expected a FILTER expression without a window function, but found <windowExpr>."},
    {"INVALID_AGGREGATE_FILTER.NON_DETERMINISTIC", "42903",
     "The FILTER expression <filterExpr> in an aggregate function is invalid. Expected a deterministic FILTER expression."},
    {"INVALID_WITHIN_GROUP_EXPRESSION.DISTINCT_UNSUPPORTED", "42K0K",
     "Invalid function <funcName> with WITHIN GROUP. The function does not support DISTINCT with WITHIN GROUP."},
    {"INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING", "42K0K",
     "Invalid function <funcName> with WITHIN GROUP. WITHIN GROUP is required for the function."},
    {"INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT", "42K0K",
     "Invalid function <funcName> with WITHIN GROUP. The function is invoked with DISTINCT and WITHIN GROUP but expressions <funcArg> and <orderingExpr> do not match. The WITHIN GROUP ordering expression must be picked from the function inputs."},
    {"INVALID_OPTIONS.NON_MAP_FUNCTION", "42K06", "Invalid options: Must use the `map()` function for options."},
    {"INVALID_OPTIONS.NON_STRING_TYPE", "42K06",
     "Invalid options: A type of keys and values in `map()` must be string, but got <mapType>."},
    {"INVALID_SCHEMA.NON_STRUCT_TYPE", "42K07",
     "The input schema <inputSchema> is not a valid schema string. The input expression must be a struct type, but got <dataType>."},
    {"DATATYPE_MISMATCH.MAP_ZIP_WITH_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: Input to the <functionName> should have been two maps with compatible key types, but it's [<leftType>, <rightType>]."},
    {"DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: <msg><hint>."},
    {"AVRO_NOT_LOADED_SQL_FUNCTIONS_UNUSABLE", "22KD3",
     "Cannot call the <functionName> SQL function because the Avro data source is not loaded. Please restart your job or session with the 'spark-avro' package loaded, such as by using the --packages argument on the command line, and then retry your query or command again."},
    {"DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The <exprName> must be between <valueRange> (current value = <currentValue>)."},
    {"INVALID_PARAMETER_VALUE.DATETIME_UNIT", "22023",
     "The value of parameter(s) <parameter> in <functionName> is invalid: expects one of the units without quotes YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, but got the string literal <invalidValue>."},
    {"INVALID_PARAMETER_VALUE.ZERO_INDEX", "22023",
     "The value of parameter(s) <parameter> in <functionName> is invalid: expects %1$, %2$ and so on, but got %0$."},
    {"FAILED_FUNCTION_CALL", "38000", "Failed preparing of the function <funcName> for call. Please, double check function's arguments."},
    {"UNEXPECTED_INPUT_TYPE", "42K09",
     "Parameter <paramIndex> of function <functionName> requires the <requiredType> type, however <inputSql> has the type <inputType>."},
    {"NON_FOLDABLE_ARGUMENT", "42K08",
     "The function <funcName> requires the parameter <paramName> to be a foldable expression of the type <paramType>, but the actual argument is a non-foldable."},
    {"DATATYPE_MISMATCH.UNEXPECTED_NULL", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: The <exprName> must not be null."},
    {"DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: Length of <exprName> should be 1."},
    {"INVALID_WITHIN_GROUP_EXPRESSION.WRONG_NUM_ORDERINGS", "42K0K",
     "Invalid function <funcName> with WITHIN GROUP. The function requires <expectedNum> orderings in WITHIN GROUP but got <actualNum>."},
    {"WRONG_NUM_ARGS.WITH_SUGGESTION", "42605",
     "The <functionName> requires <expectedNum> parameters but the actual number is <actualNum>. If you have to call this function with <legacyNum> parameters, set the legacy configuration <legacyConfKey> to <legacyConfValue>."},
    {"NAMED_PARAMETERS_NOT_SUPPORTED", "4274K",
     "Named parameters are not supported for function <functionName>; please retry the query with positional arguments to the function call instead."},
    {"UNEXPECTED_POSITIONAL_ARGUMENT", "4274K",
     "Cannot invoke routine <routineName> because it contains positional argument(s) following the named argument assigned to <parameterName>; please rearrange them so the positional arguments come first and then retry the query again."},
    {"UNRECOGNIZED_PARAMETER_NAME", "4274K",
     "Cannot invoke routine <routineName> because the routine call included a named argument reference for the argument named <argumentName>, but this routine does not include any signature containing an argument with this name. Did you mean one of the following? [<proposal>]."},
    {"REQUIRED_PARAMETER_NOT_FOUND", "4274K",
     "Cannot invoke routine <routineName> because the parameter named <parameterName> is required, but the routine call did not supply a value. Please update the routine call to supply an argument value (either positionally at index <index> or by name) and retry the query again."},
    {"DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.BOTH_POSITIONAL_AND_NAMED", "4274K",
     "Call to routine <routineName> is invalid because it includes multiple argument assignments to the same parameter name <parameterName>. A positional argument and named argument both referred to the same parameter. Please remove the named argument referring to this parameter."},
    {"DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.DOUBLE_NAMED_ARGUMENT_REFERENCE", "4274K",
     "Call to routine <routineName> is invalid because it includes multiple argument assignments to the same parameter name <parameterName>. More than one named argument referred to the same parameter. Please assign a value only once."},
    {"DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: Input to <functionName> should have been <dataType> followed by a value with same key type, but it's [<leftType>, <rightType>]."},
    {"DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: cannot cast <srcType> to <targetType>. To convert values from <srcType> to <targetType>, you can use the functions <functionNames> instead."},
    {"INVALID_LAMBDA_FUNCTION_CALL.NON_HIGHER_ORDER_FUNCTION", "42K0D",
     "Invalid lambda function call. A lambda function should only be used in a higher order function. However, its class is <class>, which is not a higher order function."},
    {"INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX", "42000", "Invalid SQL syntax: The function <prettyName> does not support <syntax>."},
    {"DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The <paramIndex> parameter requires the <requiredType> type, however <inputSql> has the type <inputType>."},
    {"DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: the left and right operands of the binary operator have incompatible types (<left> and <right>)."},
    {"DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: the binary operator requires the input type <inputType>, not <actualDataType>."},
    {"DATATYPE_MISMATCH.DATA_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: Input to <functionName> should all be the same type, but it's <dataType>."},
    {"DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: cannot cast <srcType> to <targetType>."},
    {"DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: cannot cast <srcType> to <targetType> with ANSI mode on. If you have to cast <srcType> to <targetType>, you can set <config> as <configVal>."},
    {"DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The <functionName> does not support ordering on type <dataType>."},
    {"DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: the input <inputName> should be a foldable <inputType> expression; however, got <inputExpr>."},
    {"DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: Input to <functionName> should have been <dataType> followed by a value with same element type, but it's [<leftType>, <rightType>]."},
    {"DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: Only foldable `STRING` expressions are allowed to appear at odd position, but they are <inputExprs>."},
    {"DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The number of columns in the left hand side of an IN subquery does not match the number of columns in the output of subquery. Left hand side columns(length: <leftLength>): [<leftColumns>], right hand side columns(length: <rightLength>): [<rightColumns>]."},
    {"DATATYPE_MISMATCH.IN_SUBQUERY_DATA_TYPE_MISMATCH", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The data type of one or more elements in the left hand side of an IN subquery is not compatible with the data type of the output of the subquery. Mismatched columns: [<mismatchedColumns>], left side: [<leftType>], right side: [<rightType>]."},
    {"DATATYPE_MISMATCH.CREATE_MAP_KEY_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The given keys of function <functionName> should all be the same type, but they are <dataType>."},
    {"DATATYPE_MISMATCH.CREATE_MAP_VALUE_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The given values of function <functionName> should all be the same type, but they are <dataType>."},
    {"DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The <functionName> should all be of type map, but it's <dataType>."},
    {"DUPLICATE_ROUTINE_PARAMETER_NAMES", "42734",
     "Found duplicate name(s) in the parameter list of the user-defined routine <routineName>: <names>."},
    {"NOT_ALLOWED_IN_FROM.UNPIVOT_WITH_PIVOT", "42601", "Not allowed in the FROM clause: UNPIVOT with PIVOT."},
    {"INCOMPATIBLE_VIEW_SCHEMA_CHANGE", "51024", "The SQL query of view <viewName> has an incompatible schema change and column <colName> cannot be resolved. Expected <expectedNum> columns named <colName> but got <actualCols>. Please try to re-create the view by running: <suggestion>."},
    {"PARTITIONS_NOT_FOUND", "428FT", "The partition(s) <partitionList> cannot be found in table <tableName>."},
    {"PARTITIONS_ALREADY_EXIST", "428FT", "Cannot ADD or RENAME TO partition(s) <partitionList> in table <tableName> because they already exist."},
    {"_LEGACY_ERROR_TEMP_1231", NULL, "<key> is not a valid partition column in table <tblName>."},
    {"_LEGACY_ERROR_TEMP_1232", NULL, "Partition spec is invalid. The spec (<specKeys>) must match the partition spec (<partitionColumnNames>) defined in table '<tableName>'."},
    {"UNRESOLVED_ALL_IN_GROUP_BY", "42803", "Cannot infer grouping columns for GROUP BY ALL based on the select clause. Please explicitly specify the grouping columns."},
    {"INVALID_FORMAT.CONT_THOUSANDS_SEPS", "42601", "The format is invalid: <format>. Thousands separators (, or G) must have digits in between them in the number format."},
    {"INVALID_FORMAT.THOUSANDS_SEPS_MUST_BEFORE_DEC", "42601", "The format is invalid: <format>. Thousands separators (, or G) may not appear after the decimal point in the number format."},
    {"ROUTINE_ALREADY_EXISTS", "42723",
     "Cannot create the <newRoutineType> <routineName> because a <existingRoutineType> of that name already exists."},
    {"WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "42605",
     "The <functionName> requires <expectedNum> parameters but the actual number is <actualNum>. Please, refer to '<docroot>/sql-ref-functions.html' for a fix."},
    {"INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH", "42K0D",
     "Invalid lambda function call. A higher order function expects <expectedNumArgs> arguments, but got <actualNumArgs>."},
    {"INVALID_SCHEMA.NON_STRING_LITERAL", "42K07",
     "The input schema <inputSchema> is not a valid schema string. The input expression must be string literal and not null."},
    {"FIELD_NOT_FOUND", "42704", "No such struct field <fieldName> in <fields>."},
    {"INVALID_EXTRACT_BASE_FIELD_TYPE", "42000", "Can't extract a value from <base>. Need a complex type [STRUCT, ARRAY, MAP] but got <other>."},
    {"DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE", "42K09",
     "Cannot resolve <sqlExpr> due to data type mismatch: The <functionName> requires return <expectedType> type, but the actual is <actualType> type."},
    /* parser (parser/): syntax and AstBuilder errors */
    {"UNCLOSED_BRACKETED_COMMENT", "42601", "Found an unclosed bracketed comment. Please, append */ at the end of the comment."},
    {"FAILED_TO_PARSE_TOO_COMPLEX", "54001", "The statement, including potential SQL functions and referenced views, was too complex to parse. To mitigate this error divide the statement into multiple, less complex chunks."},
    {"INVALID_NUMERIC_LITERAL_RANGE", "22003", "Numeric literal <rawStrippedQualifier> is outside the valid range for <typeName> with minimum value of <minValue> and maximum value of <maxValue>. Please adjust the value accordingly."},
    {"DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", "22003", "Decimal precision <precision> exceeds max precision <maxPrecision>."},
    {"UNSUPPORTED_TYPED_LITERAL", "0A000", "Literals of the type <unsupportedType> are not supported. Supported types are <supportedTypes>."},
    {"UNSUPPORTED_DATATYPE", "0A000", "Unsupported data type <typeName>."},
    {"INVALID_ESC", "42604", "Found an invalid escape string: <invalidEscape>. The escape string must contain only one character."},
    {"INVALID_SQL_SYNTAX.REPETITIVE_WINDOW_DEFINITION", "42000", "The definition of window <windowName> is repetitive."},
    {"INVALID_SQL_SYNTAX.UNRESOLVED_WINDOW_REFERENCE", "42000", "Cannot resolve window reference <windowName>."},
    {"INVALID_SQL_SYNTAX.INVALID_WINDOW_REFERENCE", "42000", "Window reference <windowName> is not a window specification."},
    {"INVALID_SQL_SYNTAX.INVALID_TABLE_VALUED_FUNC_NAME", "42000", "Table valued function cannot specify database name: <funcName>."},
    {"INVALID_SQL_SYNTAX.VARIABLE_TYPE_OR_DEFAULT_REQUIRED", "42000", "The definition of a SQL variable requires either a datatype or a DEFAULT clause. For example, use `DECLARE name STRING` or `DECLARE name = 'SQL'` instead of `DECLARE name`."},
    {"INVALID_SQL_SYNTAX.CREATE_TEMP_FUNC_WITH_DATABASE", "42000", "CREATE TEMPORARY FUNCTION with specifying a database(<database>) is not allowed."},
    {"INVALID_SQL_SYNTAX.MULTI_PART_NAME", "42000", "<statement> with multiple part name(<name>) is not allowed."},
    {"INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH", "42000", "Inline table expected <expectedNumCols> columns but found <actualNumCols> columns in row <rowIndex>."},
    {"UNSUPPORTED_FEATURE.LATERAL_JOIN_USING", "0A000", "The feature is not supported: JOIN USING with LATERAL correlation."},
    {"UNSUPPORTED_FEATURE.NATURAL_CROSS_JOIN", "0A000", "The feature is not supported: NATURAL CROSS JOIN."},
    {"UNSUPPORTED_FEATURE.COMBINATION_QUERY_RESULT_CLAUSES", "0A000", "The feature is not supported: Combination of ORDER BY/SORT BY/DISTRIBUTE BY/CLUSTER BY."},
    {"INVALID_INTERVAL_FORMAT.UNSUPPORTED_FROM_TO_EXPRESSION", "22006", "Error parsing <input> to interval. Cannot support (interval '<input>' <from> to <to>) expression."},
    {"INVALID_INTERVAL_FORMAT.INVALID_VALUE", "22006", "Error parsing <input> to interval. Invalid value <value>."},
    {"INVALID_CONF_VALUE.DEFAULT_COLLATION", "22022", "The value '<confValue>' in the config \"<confName>\" is invalid. Cannot resolve the given default collation. Suggested valid collation names: ['<proposals>']?"},
    {"INVALID_CONF_VALUE.TIME_ZONE", "22022", "The value '<confValue>' in the config \"<confName>\" is invalid. Cannot resolve the given timezone."},
    {"INVALID_INTERVAL_FORMAT.TIMEZONE_INTERVAL_OUT_OF_RANGE", "22006", "Error parsing <input> to interval. The interval value must be in the range of [-18, +18] hours with second precision."},
    {"_LEGACY_ERROR_TEMP_0045", NULL, "Invalid time zone displacement value."},
    {"NON_FOLDABLE_ARGUMENT", "42K08", "The function <funcName> requires the parameter <paramName> to be a foldable expression of the type <paramType>, but the actual argument is a non-foldable."},
    {"INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING", "22006", "Error parsing <input> to interval. Interval string does not match <intervalStr> format of <supportedFormat> when cast to <typeName>."},
    {"INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE", "22006", "Error parsing <input> to interval. Interval string does not match <intervalStr> format of <supportedFormat> when cast to <typeName>. Set \"spark.sql.legacy.fromDayTimeString.enabled\" to \"true\" to restore the behavior before Spark 3.0."},
    {"INVALID_INTERVAL_FORMAT.INTERVAL_PARSING", "22006", "Error parsing <input> to interval. Error parsing interval <interval> string."},
    {"INVALID_INTERVAL_FORMAT.INVALID_UNIT", "22006", "Error parsing <input> to interval. Invalid unit <unit>."},
    {"_LEGACY_ERROR_TEMP_0029", NULL, "Cannot mix year-month and day-time fields: <literal>."},
    {"_LEGACY_ERROR_TEMP_0064", NULL, "<msg>."},
    {"_LEGACY_ERROR_TEMP_1021", NULL,
     "count(<targetString>.*) is not allowed. Please use count(*) or expand the columns manually, e.g. count(col1, col2)."},
    {"INVALID_SQL_SYNTAX.LATERAL_WITHOUT_SUBQUERY_OR_TABLE_VALUED_FUNC", "42000", "LATERAL can only be used with subquery and table-valued functions."},
    {"_LEGACY_ERROR_TEMP_0024", NULL, "Can only have a single from-to unit in the interval literal syntax."},
    {"_LEGACY_ERROR_TEMP_0026", NULL, "Can only use numbers in the interval value part for multiple unit value pairs interval form, but got invalid value: <value>."},
    {"_LEGACY_ERROR_TEMP_0027", NULL, "The value of from-to unit must be a string."},
    {"_LEGACY_ERROR_TEMP_0028", NULL, "Intervals FROM <from> TO <to> are not supported."},
    {"_LEGACY_ERROR_TEMP_0062", NULL, "<msg>."},
    {"_LEGACY_ERROR_TEMP_0063", NULL, "<msg>."},    /* classes raised without a text of their own until now: Spark's template
       (error-conditions.json; a subclass: its class's text, a space, its own) */
    {"AMBIGUOUS_ALIAS_IN_NESTED_CTE", "42KD0", "Name <name> is ambiguous in nested CTE.\nPlease set <config> to \"CORRECTED\" so that name defined in inner CTE takes precedence. If set it to \"LEGACY\", outer CTE definitions will take precedence.\nSee '<docroot>/sql-migration-guide.html#query-engine'."},
    {"COLUMN_NOT_FOUND", "42703", "The column <colName> cannot be found. Verify the spelling and correctness of the column name according to the SQL config <caseSensitiveConfig>."},
    {"DATETIME_FIELD_OUT_OF_BOUNDS", "22023", "<rangeMessage>. If necessary set <ansiConfig> to \"false\" to bypass this error."},
    {"DESCRIBE_JSON_NOT_EXTENDED", "0A000", "DESCRIBE TABLE ... AS JSON only supported when [EXTENDED|FORMATTED] is specified.\nFor example: DESCRIBE EXTENDED <tableName> AS JSON is supported but DESCRIBE <tableName> AS JSON is not."},
    {"DUPLICATED_MAP_KEY", "23505", "Duplicate map key <key> was found, please check the input data.\nIf you want to remove the duplicated keys, you can set <mapKeyDedupPolicy> to \"LAST_WIN\" so that the key inserted at last takes precedence."},
    {"EXCEPT_NESTED_COLUMN_INVALID_TYPE", "428H2", "EXCEPT column <columnName> was resolved and expected to be StructType, but found type <dataType>."},
    {"EXCEPT_OVERLAPPING_COLUMNS", "42702", "Columns in an EXCEPT list must be distinct and non-overlapping, but got (<columns>)."},
    {"EXEC_IMMEDIATE_DUPLICATE_ARGUMENT_ALIASES", "42701", "The USING clause of this EXECUTE IMMEDIATE command contained multiple arguments with same alias (<aliases>), which is invalid; please update the command to specify unique aliases and then try it again."},
    {"EXPECT_PERMANENT_VIEW_NOT_TEMP", "42809", "'<operation>' expects a permanent view but <viewName> is a temp view."},
    {"FORBIDDEN_OPERATION", "42809", "The operation <statement> is not allowed on the <objectType>: <objectName>."},
    {"INCOMPARABLE_PIVOT_COLUMN", "42818", "Invalid pivot column <columnName>. Pivot columns must be comparable."},
    {"INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS", "21S01", "Cannot write to <tableName>, the reason is too many data columns:\nTable columns: <tableColumns>.\nData columns: <dataColumns>."},
    {"INVALID_ARRAY_INDEX", "22003", "The index <indexValue> is out of bounds. The array has <arraySize> elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead."},
    {"INVALID_INDEX_OF_ZERO", "22003", "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1)."},
    {"INVALID_PARAMETER_VALUE.LENGTH", "22023", "The value of parameter(s) <parameter> in <functionName> is invalid: Expects `length` greater than or equal to 0, but got <length>."},
    {"INVALID_PARAMETER_VALUE.START", "22023", "The value of parameter(s) <parameter> in <functionName> is invalid: Expects a positive or a negative value for `start`, but got 0."},
    {"INVALID_PARTITION_OPERATION.PARTITION_SCHEMA_IS_EMPTY", "42601", "The partition command is invalid. Table <name> is not partitioned."},
    {"INVALID_QUERY_MIXED_QUERY_PARAMETERS", "42613", "Parameterized query must either use positional, or named parameters, but not both."},
    {"INVALID_STATEMENT_FOR_EXECUTE_INTO", "07501", "The INTO clause of EXECUTE IMMEDIATE is only valid for queries but the given statement is not a query: <sqlString>."},
    {"INVALID_VARIABLE_TYPE_FOR_QUERY_EXECUTE_IMMEDIATE", "42K09", "Variable type must be string type but got <varType>."},
    {"MULTIPLE_QUERY_RESULT_CLAUSES_WITH_PIPE_OPERATORS", "42000", "<clause1> and <clause2> cannot coexist in the same SQL pipe operator using '|>'. Please separate the multiple result clauses into separate pipe operators and then retry the query again."},
    {"NESTED_EXECUTE_IMMEDIATE", "07501", "Nested EXECUTE IMMEDIATE commands are not allowed. Please ensure that the SQL query provided (<sqlString>) does not contain another EXECUTE IMMEDIATE command."},
    {"NOT_ALLOWED_IN_PIPE_OPERATOR_WHERE.WINDOW_CLAUSE", "42601", "Not allowed in the pipe WHERE clause: WINDOW clause."},
    {"NOT_SUPPORTED_CHANGE_COLUMN", "0A000", "ALTER TABLE ALTER/CHANGE COLUMN is not supported for changing <table>'s column <originName> with type <originType> to <newName> with type <newType>."},
    {"NULL_MAP_KEY", "2200E", "Cannot use null as map key."},
    {"NULL_QUERY_STRING_EXECUTE_IMMEDIATE", "22004", "Execute immediate requires a non-null variable as the query string, but the provided variable <varName> is null."},
    {"PIPE_OPERATOR_CONTAINS_AGGREGATE_FUNCTION", "0A000", "Aggregate function <expr> is not allowed when using the pipe operator |> <clause> clause; please use the pipe operator |> AGGREGATE clause instead."},
    {"PIVOT_VALUE_DATA_TYPE_MISMATCH", "42K09", "Invalid pivot value '<value>': value data type <valueType> does not match pivot column data type <pivotType>."},
    {"SHOW_COLUMNS_WITH_CONFLICT_NAMESPACE", "42K05", "SHOW COLUMNS with conflicting namespaces: <namespaceA> != <namespaceB>."},
    {"TEMP_TABLE_OR_VIEW_ALREADY_EXISTS", "42P07", "Cannot create the temporary view <relationName> because it already exists.\nChoose a different name, drop or replace the existing view,  or add the IF NOT EXISTS clause to tolerate pre-existing views."},
    {"UNPIVOT_VALUE_SIZE_MISMATCH", "428C4", "All unpivot value columns must have the same size as there are value column names (<names>)."},
    {"UNRESOLVABLE_TABLE_VALUED_FUNCTION", "42883", "Could not resolve <name> to a table-valued function.\nPlease make sure that <name> is defined as a table-valued function and that all required parameters are provided correctly.\nIf <name> is not defined, please create the table-valued function before using it.\nFor more information about defining table-valued functions, please refer to the Apache Spark documentation."},
    {"UNSUPPORTED_EXPR_FOR_PARAMETER", "42K0E", "A query parameter contains unsupported expression.\nParameters can either be variables or literals.\nInvalid expression: [<invalidExprSql>]"},
    {"_LEGACY_ERROR_TEMP_0014", NULL, "TABLESAMPLE does not accept empty inputs."},
    {"_LEGACY_ERROR_TEMP_0015", NULL, "TABLESAMPLE(<msg>) is not supported."},
    {"_LEGACY_ERROR_TEMP_0016", NULL, "<bytesStr> is not a valid byte length literal, expected syntax: DIGIT+ ('B' | 'K' | 'M' | 'G')."},
    {"_LEGACY_ERROR_TEMP_0035", NULL, "Operation not allowed: <message>."},
    {"_LEGACY_ERROR_TEMP_1006", NULL, "Aggregate expression required for pivot, but '<sql>' did not appear in any aggregate function."},
    {"_LEGACY_ERROR_TEMP_1030", NULL, "Window aggregate function with filter predicate is not supported yet."},
    {"_LEGACY_ERROR_TEMP_1034", NULL, "It is not allowed to use window functions inside <clauseName> clause."},
    {"_LEGACY_ERROR_TEMP_1035", NULL, "Cannot specify window frame for <prettyName> function."},
    {"_LEGACY_ERROR_TEMP_1036", NULL, "Window Frame <wf> must match the required frame <required>."},
    {"_LEGACY_ERROR_TEMP_1037", NULL, "Window function <wf> requires window to be ordered, please add ORDER BY clause. For example SELECT <wf>(value_expr) OVER (PARTITION BY window_partition ORDER BY window_ordering) from table."},
    /* subclasses that showed only their class's text until now: Spark's template */
    {"CANNOT_MODIFY_CONFIG", "46110", "Cannot modify the value of the Spark config: <key>.\nSee also '<docroot>/sql-migration-guide.html#ddl-statements'."},
    {"CREATE_VIEW_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS", "21S01", "Cannot create view <viewName>, the reason is not enough data columns:\nView columns: <viewColumns>.\nData columns: <dataColumns>."},
    {"CREATE_VIEW_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS", "21S01", "Cannot create view <viewName>, the reason is too many data columns:\nView columns: <viewColumns>.\nData columns: <dataColumns>."},
    {"DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: Filter expression <filter> of type <type> is not a boolean."},
    {"DATATYPE_MISMATCH.INVALID_ARG_VALUE", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: The <inputName> value must to be a <requireType> literal of <validValues>, but got <inputValue>."},
    {"DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: The data type <orderSpecType> used in the order specification does not support the data type <valueBoundaryType> which is used in the range frame."},
    {"DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: A range window frame with value boundaries cannot be used in a window specification with multiple order by expressions: <orderSpec>."},
    {"DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: A range window frame cannot be used in an unordered window specification."},
    {"DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_DIFF_TYPES", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: Window frame bounds <lower> and <upper> do not have the same type: <lowerType> <> <upperType>."},
    {"DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: Window frame upper bound <upper> does not follow the lower bound <lower>."},
    {"DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: The data type of the <location> bound <exprType> does not match the expected data type <expectedType>."},
    {"DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WITHOUT_FOLDABLE", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: Window frame <location> bound <expression> is not a literal."},
    {"DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON", "42K09", "Cannot resolve <sqlExpr> due to data type mismatch: The lower bound of a window frame must be <comparison> to the upper bound."},
    {"EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE", "42809", "'<operation>' expects a table but <viewName> is a view. "},
    {"EXPECT_TABLE_NOT_VIEW.USE_ALTER_VIEW", "42809", "'<operation>' expects a table but <viewName> is a view. Please use ALTER VIEW instead."},
    {"EXPECT_VIEW_NOT_TABLE.NO_ALTERNATIVE", "42809", "The table <tableName> does not support <operation>. "},
    {"EXPECT_VIEW_NOT_TABLE.USE_ALTER_TABLE", "42809", "The table <tableName> does not support <operation>. Please use ALTER TABLE instead."},
    {"INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS", "21S01", "Cannot write to <tableName>, the reason is not enough data columns:\nTable columns: <tableColumns>.\nData columns: <dataColumns>."},
    {"INTERVAL_DIVIDED_BY_ZERO", "22012", "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead."},
    {"INVALID_ARRAY_INDEX_IN_ELEMENT_AT", "22003", "The index <indexValue> is out of bounds. The array has <arraySize> elements. Use `try_element_at` to tolerate accessing element at invalid index and return NULL instead."},
    {"INVALID_DEFAULT_VALUE.SUBQUERY_EXPRESSION", "42623", "Failed to execute <statement> command because the destination column or variable <colName> has a DEFAULT value <defaultValue>, which contains subquery expressions."},
    {"INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE", "42000", "Invalid inline table. Cannot evaluate the expression <expr> in inline table definition."},
    {"INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE", "42000", "Invalid inline table. Found incompatible types in the column <colName> for inline table."},
    {"INVALID_SQL_SYNTAX.CREATE_ROUTINE_WITH_IF_NOT_EXISTS_AND_REPLACE", "42000", "Invalid SQL syntax: Cannot create a routine with both IF NOT EXISTS and REPLACE specified."},
    {"INVALID_SQL_SYNTAX.EMPTY_PARTITION_VALUE", "42000", "Invalid SQL syntax: Partition key <partKey> must set value."},
    {"INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN", "42823", "Invalid subquery: Scalar subquery must return only one column, but got <number>."},
    {"NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", "22003", " <value> cannot be represented as Decimal(<precision>, <scale>). If necessary set <config> to \"false\" to bypass this error, and return NULL instead."},
    {"PIPE_OPERATOR_AGGREGATE_EXPRESSION_CONTAINS_NO_AGGREGATE_FUNCTION", "0A000", "Non-grouping expression <expr> is provided as an argument to the |> AGGREGATE pipe operator but does not contain any aggregate function; please update it to include an aggregate function and then retry the query again."},
    {"SQL_CONF_NOT_FOUND", "42K0I", "The SQL config <sqlConf> cannot be found. Please verify that the config exists."},
    {"UNSUPPORTED_FEATURE.CATALOG_OPERATION", "0A000", "The feature is not supported: Catalog <catalogName> does not support <operation>."},
    {"UNSUPPORTED_FEATURE.DESC_TABLE_COLUMN_JSON", "0A000", "The feature is not supported: DESC TABLE COLUMN AS JSON not supported for individual columns."},
    {"UNSUPPORTED_FEATURE.SET_VARIABLE_USING_SET", "0A000", "The feature is not supported: <variableName> is a VARIABLE and cannot be updated using the SET statement. Use SET VARIABLE <variableName> = ... instead."},
    {"UNSUPPORTED_FEATURE.TABLE_OPERATION", "0A000", "The feature is not supported: Table <tableName> does not support <operation>. Please check the current catalog and namespace to make sure the qualified table name is expected, and also check the catalog implementation which is configured by \"spark.sql.catalog\"."},
    {"UNSUPPORTED_FEATURE.TRANSFORM_DISTINCT_ALL", "0A000", "The feature is not supported: TRANSFORM with the DISTINCT/ALL clause."},
    {"UNSUPPORTED_GENERATOR.MULTI_GENERATOR", "42K0E", "The generator is not supported: only one generator allowed per SELECT clause but found <num>: <generators>."},
    {"UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS", "42K0E", "The generator is not supported: nested in expressions <expression>."},
    {"UNSUPPORTED_GENERATOR.NOT_GENERATOR", "42K0E", "The generator is not supported: <functionName> is expected to be a generator. However, its class is <classCanonicalName>, which is not a generator."},
    {"UNSUPPORTED_GENERATOR.OUTSIDE_SELECT", "42K0E", "The generator is not supported: outside the SELECT clause, found: <plan>."},
};

const char *error_sqlstate(const char *cls) {
    size_t n = strcspn(cls, ".");
    const char *best = NULL;
    for (size_t i = 0; i < sizeof CLASSES / sizeof CLASSES[0]; i++) {
        const char *c = CLASSES[i].cls;
        if (strcmp(c, cls) == 0) return CLASSES[i].sqlstate;
        if (strlen(c) == n && strncmp(c, cls, n) == 0) best = CLASSES[i].sqlstate;
    }
    if (!best && strncmp(cls, "_LEGACY_ERROR_TEMP", 18) == 0) return NULL;
    return best ? best : "XXKCZ";
}

static const char *class_text(const char *cls) {
    size_t n = strcspn(cls, ".");
    const char *best = NULL;
    for (size_t i = 0; i < sizeof CLASSES / sizeof CLASSES[0]; i++) {
        const char *c = CLASSES[i].cls;
        if (strcmp(c, cls) == 0) return CLASSES[i].text;
        if (strlen(c) == n && strncmp(c, cls, n) == 0) best = CLASSES[i].text;
    }
    return best;
}

static const char *format_message(Arena *a, const char *cls, int n, const char *const *names, const char *const *values) {
    StrBuf sb;
    sb_init(&sb, a, 128);
    const char *t = class_text(cls);
    if (!t) {
        sb_printf(&sb, "[%s] ", cls);
        for (int i = 0; i < n; i++) sb_printf(&sb, "%s%s=%s", i ? ", " : "", names[i], values[i]);
        return sb_str(&sb);
    }
    /* SparkThrowableHelper.getMessage: no [class] prefix on a legacy class */
    if (strncmp(cls, "_LEGACY_ERROR_", 14) != 0) sb_printf(&sb, "[%s] ", cls);
    for (const char *p = t; *p;) {
        if (*p == '<') {
            const char *e = strchr(p, '>');
            if (e) {
                size_t len = (size_t)(e - p - 1);
                int found = -1;
                for (int i = 0; i < n; i++)
                    if (strlen(names[i]) == len && strncmp(names[i], p + 1, len) == 0) found = i;
                if (found >= 0) sb_puts(&sb, values[found]);
                else sb_putn(&sb, p, (size_t)(e - p + 1));
                p = e + 1;
                continue;
            }
        }
        sb_putc(&sb, *p++);
    }
    return sb_str(&sb);
}

ErrorInfo *error_make_v(Arena *a, const char *cls, int32_t start, int32_t stop, int nparams, const char *const *names,
                        const char *const *values) {
    ErrorInfo *e = ARENA_NEW(a, ErrorInfo);
    e->error_class = cls;
    e->sqlstate = error_sqlstate(cls);
    e->nparams = nparams;
    e->names = ARENA_ARRAY(a, const char *, nparams ? nparams : 1);
    e->values = ARENA_ARRAY(a, const char *, nparams ? nparams : 1);
    for (int i = 0; i < nparams; i++) {
        e->names[i] = names[i];
        e->values[i] = values[i] ? values[i] : "";
    }
    e->start = start;
    e->stop = stop;
    e->phase = "analysis";
    e->message = format_message(a, cls, nparams, e->names, e->values);
    return e;
}

static ErrorInfo *error_make_va(Arena *a, const char *cls, int32_t start, int32_t stop, va_list ap) {
    const char *names[32], *values[32];
    int n = 0;
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (!k) break;
        const char *v = va_arg(ap, const char *);
        if (n < 32) {
            names[n] = k;
            values[n] = v;
            n++;
        }
    }
    return error_make_v(a, cls, start, stop, n, names, values);
}

ErrorInfo *error_make(Arena *a, const char *cls, const Node *at, ...) {
    va_list ap;
    va_start(ap, at);
    ErrorInfo *e = error_make_va(a, cls, at ? at->start : -1, at ? at->stop : -1, ap);
    va_end(ap);
    return e;
}

ErrorInfo *error_make_at(Arena *a, const char *cls, int32_t start, int32_t stop, ...) {
    va_list ap;
    va_start(ap, stop);
    ErrorInfo *e = error_make_va(a, cls, start, stop, ap);
    va_end(ap);
    return e;
}

const char *sql_ident(Arena *a, const char *name) {
    StrBuf sb;
    sb_init(&sb, a, strlen(name) + 3);
    sb_put_quoted_ident(&sb, name);
    return sb_str(&sb);
}

const char *sql_id_parts(Arena *a, NameParts parts) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    for (uint32_t i = 0; i < parts.n; i++) {
        if (i) sb_putc(&sb, '.');
        sb_put_quoted_ident(&sb, parts.v[i]);
    }
    return sb_str(&sb);
}

const char *sql_type_quoted(Arena *a, const DataType *t) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    sb_putc(&sb, '"');
    type_print_sql(&sb, t);
    sb_putc(&sb, '"');
    return sb_str(&sb);
}

const char *sql_conf(Arena *a, const char *key) { return arena_printf(a, "\"%s\"", key); }
