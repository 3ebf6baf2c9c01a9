-- mask: its replacement arguments are one-character constants or NULL, taken
-- without implicit casts (ExpectsInputTypes), so NULL stays NullType.
SELECT mask('AbC-123'), mask(NULL, NULL, 'q', 'd', 'o'), mask('AbC', 'Q', NULL, NULL, NULL);
SELECT mask(c, r) FROM VALUES ('ab', 'a') AS t(c, r);
SELECT mask('ab', 'QQ');
SELECT mask('ab', 'Q', 'q', '');
SELECT mask('ab', 1);
