-- Lateral column aliases: cases from Spark's LateralColumnAliasSuite (columns win, chains, HAVING / ORDER BY, nested types)
CREATE TABLE employee (dept INT, name STRING, salary INT, bonus INT, properties STRUCT<joinYear: INT, mostRecentEmployer: STRING>) USING parquet;
select salary * 2 as salary, (salary + bonus) * 2 as bonus, salary + bonus as prev_income, prev_income + bonus + salary from employee where name = 'amy';
SELECT named_struct('joinYear', 2022) AS properties, properties.joinYear FROM employee WHERE name = 'amy';
SELECT sum(salary) AS s, s + sum(bonus) AS total FROM employee;
SELECT dept, sum(salary) AS salary_sum, salary_sum + sum(bonus) AS salary_total, salary_total * 1.5 AS new_total, new_total - salary_sum FROM employee GROUP BY dept ORDER BY dept;
SELECT dept as a, a FROM employee GROUP BY dept ORDER BY max(name);
SELECT sum(salary) AS d, d, 10 AS d FROM employee GROUP BY dept ORDER BY dept;
SELECT avg(bonus) AS a, a FROM employee GROUP BY dept HAVING a > 1200;
SELECT dept, avg(salary) AS a, a + 10 FROM employee GROUP BY dept HAVING max(bonus) > 1200;
SELECT named_struct('a', named_struct('b', 1)) AS foo, foo.a.b + 1 AS bar;
SELECT array(1, 2, 3) AS foo, foo[1] AS bar, bar + 1;
SELECT salary AS new_salary, New_Salary + 1 FROM employee WHERE name = 'jen';
SELECT * FROM range(1, 7) WHERE (SELECT id2 FROM (SELECT 1 AS id, id + 1 AS id2)) > 5 ORDER BY id;
-- errors
SELECT 10000 AS lca, count(lca) FROM employee GROUP BY dept;
SELECT sum(salary) AS a, avg(a) FROM employee;
SELECT salary * 1.5 AS d, d, 10000 AS d, d + 1 FROM employee;
SELECT explode(split(name , ',')) AS new_name, new_name like 'a%' FROM employee;
select dept as d, d, rank() over (partition by dept order by avg(salary)) as rank from employee group by dept having dept < 10;
SELECT dept AS d, d AS new_dept, new_dep + 1 AS newer_dept FROM employee;
