CREATE TABLE employee (dept INT, salary INT, bonus DOUBLE, name STRING);
SELECT dept + salary, avg(bonus) FROM employee GROUP BY dept, salary HAVING dept = 2 ORDER BY dept, salary;
SELECT dept, avg(bonus) AS b FROM employee GROUP BY dept, salary HAVING salary > 1 ORDER BY salary, b;
SELECT dept FROM employee GROUP BY dept HAVING count(*) > 1 ORDER BY max(salary);
