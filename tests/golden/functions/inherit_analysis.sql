-- conf: spark.sql.session.timeZone=America/Los_Angeles
-- RuntimeReplaceable functions with InheritAnalysisRules print their
-- parameters as written: the implicit casts belong to the replacement.
SELECT nvl(NULL, 'x'), ifnull(1, 2.1D), nvl2(NULL, 1, 2.1D), get(array(1, 2), NULL), try_to_binary(NULL, 'utf-8');
SELECT try_add(2147483647, decimal(1)), try_divide(1, 0.5), try_url_decode(NULL), btrim(encode(' x ', 'utf-8'));
SELECT assert_true(NULL), assert_true(boolean(0)), raise_error(1);
SELECT raise_error('a', 'b');
-- constructor fields that come from the session: failOnError, legacy flags
SELECT parse_url('http://a/b?c=1', 'HOST'), url_decode('a%20b'), array_insert(array(1, 2), -1, 3), to_char(date'2024-01-02', 'yyyy');
SET spark.sql.legacy.negativeIndexInArrayInsert = true;
SET spark.sql.legacy.raiseErrorWithoutErrorClass = true;
SELECT array_insert(array(1, 2), -1, 3), raise_error('x');
