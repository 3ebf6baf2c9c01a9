-- sql_keywords(): a generator in FROM, filtered on its boolean column (a
-- bare attribute condition prints with its type, as Spark's simpleString).
SELECT keyword FROM sql_keywords() WHERE reserved;
