-- collations(): a generator in FROM listing every collation (Collations,
-- SPARK-49611); nine string columns.
select * from collations();
select name, language from collations() where name like 'UNICODE%' and case_sensitivity = 'CASE_INSENSITIVE'
