-- SET COLLATION name is SET spark.sql.session.collation.default=name
-- (visitSetCollation); the conf takes only a collation name
-- (INVALID_CONF_VALUE.DEFAULT_COLLATION with suggestions).
set collation utf8_lcase;
set collation nope;
set spark.sql.session.collation.default = unicod;
set spark.sql.session.collation.default = unicode_ci
