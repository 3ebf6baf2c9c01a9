-- CollationTypeCoercion: the string arguments of a comparison or a string
-- function take the collation that wins by strength: EXPLICIT (COLLATE) over
-- IMPLICIT (a column, an alias, a subquery, a session variable) over DEFAULT
-- (a literal; an expression with no string child). The others are cast.
create table coll_p(c1 string collate unicode, c2 string collate unicode_ci, c3 struct<col1: string collate utf8_lcase>, c4 string, c5 array<string collate unicode_ci>, c6 map<string collate unicode_ci, string collate unicode_ci>) using parquet;
-- implicit beats default; a function of a column is as strong as the column
select c1 || 'a', collation(c1 || 'a') from coll_p;
select collation(substring(c1, 0, 1) || 'a') from coll_p;
-- explicit beats implicit and default
select c1 = 'a' collate utf8_binary from coll_p;
select collation('a' collate unicode || 'b'), collation(substring('a' collate unicode, 0, 1) || 'b');
-- two explicit collations that differ: COLLATION_MISMATCH.EXPLICIT
select 'a' collate unicode || 'b' collate utf8_lcase;
select substring('a' collate unicode, 0, 1) || substring('b' collate utf8_lcase, 0, 1);
-- two implicit ones: COLLATION_MISMATCH.IMPLICIT (a struct field is as strong as its struct)
select c1 || c2 from coll_p;
select c1 || c3.col1 from coll_p;
select substring(c1, 0, 1) || c2 from coll_p;
select c1 = c4 from coll_p;
-- session variables are implicit
declare v1 = 'a';
declare v2 = 'b' collate utf8_lcase;
select collation(v1 || 'a'), collation(v2 || 'a'), collation(v2 || 'a' collate utf8_binary), collation(substring(v2, 0, 1) || 'a');
select v1 || v2;
-- a cast of a non-string has default strength, a cast of a string implicit (SPARK-50523)
select collation(c1 || cast(1 as string)), collation(cast('a' as string collate utf8_lcase) || 'b') from coll_p;
select collation(c1 || cast(to_char(date'2016-04-08', 'y') as string)) from coll_p;
-- arrays: array(...) and the array functions collate their elements
select collation(element_at(array('a', 'b' collate utf8_lcase), 1));
select element_at(array('a' collate unicode, 'b' collate utf8_lcase), 1);
select array_contains(c5, 'a'), array_position(c5, c4 collate unicode_ci) from coll_p;
-- IN, CASE, IF, COALESCE
select c2 in ('a', 'b'), case when c4 is null then c2 else 'x' end, if(true, c2, 'x'), coalesce(c2, 'x') from coll_p;
select c2 in ('a' collate unicode, 'b') from coll_p;
-- string functions: the result has the input's collation
select upper(c2), trim(c2), split(c2 collate utf8_lcase, 'a'), lpad(c2, 5, 'x'), replace(c2, 'a', 'b'), locate('a', c2) from coll_p;
-- LIKE, RLIKE and the regexp functions take UTF8_BINARY and UTF8_LCASE only
select c2 rlike 'a' from coll_p;
select c2 like 'a%' from coll_p;
select regexp_replace(c4 collate utf8_lcase, 'a', 'b') from coll_p;
-- a map key: a string literal is cast to the key's collation, anything else must have it
select c6['A'], c6['A' collate unicode_ci], c6[c4 collate unicode_ci] from coll_p;
select c6['A' collate unicode] from coll_p;
select c6[c4] from coll_p;
-- no implicit conversion between collations (SPARK-50060): set operations
-- need the same collation on both sides
select c1 from coll_p union select c1 from coll_p;
select c1 from coll_p union select c2 from coll_p;
select c1 from coll_p except select 'a';
select c2 from coll_p intersect select 'a' collate unicode_ci;
-- the string searches take no case-sensitive accent-insensitive collation (StringTypeNonCSAICollation)
select contains(c1 collate unicode_ai, 'a') from coll_p;
select replace(c1 collate en_ai, 'a', 'b') from coll_p;
select contains(c1 collate unicode_ci_ai, 'a'), startswith(c1 collate en_ci, 'a') from coll_p;
-- a NULL or a number among the arguments does not stop the coercion of the strings
select coalesce(c2, null, 'x'), concat(c2, null, 'x'), c2 || 1 from coll_p;
-- BETWEEN compares its input with each bound; the arguments print as written
select c2 between 'a' and 'b', c4 between 'a' collate unicode and 'b' from coll_p;
select c2 between c4 and 'b' from coll_p;
-- IN (subquery): the subquery's column is implicit
select 'a' in (select c2 from coll_p), c4 collate unicode_ci in (select c2 from coll_p) from coll_p;
select c1 in (select c2 from coll_p) from coll_p;
-- structs, maps and arrays: each string inside takes the winner at its place
select named_struct('f', 'a' collate utf8_lcase) = named_struct('f', 'a');
select named_struct('f', c1, 'g', 'x') = named_struct('f', 'y', 'g', 'z' collate utf8_lcase) from coll_p;
select c3 = named_struct('col1', 'a') from coll_p;
select array(c1) = array('a'), map('k', c2)['k'] = 'v' from coll_p