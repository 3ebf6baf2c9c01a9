SELECT customer, sum(amount) AS total FROM orders WHERE amount > min_amount GROUP BY customer
