SELECT id, amount, rank() OVER (PARTITION BY customer ORDER BY amount DESC) AS r FROM orders WHERE customer IN (SELECT name FROM customers WHERE region = 'north')
