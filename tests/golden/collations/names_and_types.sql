-- Collation names (CollationFactory): case-insensitive, printed normalised in
-- types (`string collate UTF8_LCASE`) and as written in Collate
-- (`collate(x, utf8_lcase)`); ICU locales with script and ISO3 country, and
-- the _CI/_CS/_AI/_AS/_RTRIM specifiers (LTRIM and TRIM are not names).
select 'a' collate utf8_lcase, 'b' COLLATE UNICODE, 'c' collate unicode_ci, 'd' collate UTF8_BINARY;
select 'a' collate en_usa_ai_ci, 'b' collate SR_CYRL_SRB, 'c' collate zh_hant_mac_cs_as_rtrim, 'd' collate utf8_lcase_rtrim;
select 'a' collate utf8_lcase_trim;
select 'a' collate unicode_ltrim;
-- Collate takes any atomic type by implicit cast, like ExpectsInputTypes.
select 1 collate utf8_lcase;
-- COLLATION_INVALID_NAME with the suggestions Spark computes.
select 'a' collate unicode_cii;
select 'a' collate UTF8_BS;
select 'a' collate unicode_ci_cs;
-- collation(x): the full name; ReplaceExpressions makes it a literal.
select collation('a'), collation('a' collate unicode_ci_ai), collation(cast('a' as string collate sr_latn));
-- STRING COLLATE in casts and in table columns.
select cast('a' as string collate unicode_ci), 'a'::string collate utf8_lcase, cast(array('a') as array<string collate unicode>);
create table coll_t(c1 string collate utf8_lcase, c2 string, c3 array<string collate unicode_ci>, c4 struct<f: string collate en_ci>) using parquet;
select c1, c2, c3, c4, collation(c1), collation(c4.f), collation(c3[0]) from coll_t;
select cast(c1 as string), cast(c2 as string collate utf8_lcase) from coll_t;
create table coll_bad(c string collate nope) using parquet
