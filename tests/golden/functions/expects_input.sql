-- ExpectsInputTypes functions take their arguments without implicit casts;
-- a NULL becomes a null literal of the expected type (prints null, not a cast).
SELECT json_array_length(NULL), json_object_keys(NULL), rand(NULL), uniform(0, 1, NULL), uniform(NULL, 1, 0);
SELECT uniform(10, cast(20 as decimal(10, 3)), 0), uniform(10, 20.0F, 0), uniform(0, 10L, 0), uniform(cast(1 as decimal(10, 3)), cast(2 as decimal(11, 4)), 1);
SELECT randstr(10S, 0), randstr(1.0D, 0), arrays_zip(array(1), NULL);
SELECT json_array_length(2);
SELECT rand(1.0);
SELECT rand('1');
SELECT uniform(0, 1, 0.5);
SELECT uniform('a', 1, 0);
SELECT uniform(col, 10, 0) FROM VALUES (1) AS t(col);
SELECT randstr(10, col) FROM VALUES (1) AS t(col);
SELECT randstr(10, 1.5);
