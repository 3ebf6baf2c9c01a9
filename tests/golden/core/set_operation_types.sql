SELECT map(1, 2), 'str' UNION ALL SELECT map(1, 2, 3, NULL), 1;
SELECT array(1, 2) UNION SELECT array(1, NULL);
SELECT array(1, 2) INTERSECT SELECT array(3);
