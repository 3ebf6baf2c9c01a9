SELECT c.region, count(*) AS n, max(o.amount) AS top FROM orders o JOIN customers c ON o.customer = c.name GROUP BY c.region ORDER BY n DESC
