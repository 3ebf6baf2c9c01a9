#!/usr/bin/env python3
"""Write the growth queries: plans that double in one dimension at a time.
Each family gets DIR/<family>/<size>.sql; statements before a file's last one
(the wide tables, the SQL functions) run once in the session, the last is the timed query; every
family binds against DIR/schema.sql (t(a INT, b INT)).
Usage: growth.py DIR   (prints one line per file: family size path)"""
import os
import sys

FAMILIES = {
    # SELECT of N columns from a table with N columns
    "columns": [1000, 2000, 4000, 8000],
    # N chained projections: SELECT a + 1 AS a FROM (SELECT a + 1 AS a FROM (... t))
    "chained_projections": [250, 500, 1000, 2000],
    # N-way UNION ALL of SELECT a FROM t
    "union_all": [100, 200, 400, 800],
    # subqueries nested N deep: a IN (SELECT a FROM t WHERE a IN (...))
    "nested_subqueries": [50, 100, 200, 400],
    # N CTEs, each building on the previous
    "ctes": [100, 200, 400, 800],
    # SELECT fN(1) over N SQL functions, each calling the previous one (created
    # before the timed query): the call expands the whole chain
    "sql_function_chain": [100, 200, 400],
}


def columns(n: int) -> str:
    cols = ", ".join("c%d INT" % i for i in range(1, n + 1))
    sel = ", ".join("c%d" % i for i in range(1, n + 1))
    return "CREATE TABLE wide_%d (%s);\nSELECT %s FROM wide_%d;\n" % (n, cols, sel, n)


def chained_projections(n: int) -> str:
    sql = "SELECT a, b FROM t"
    for i in range(n):
        sql = "SELECT a + 1 AS a, b FROM (%s) s%d" % (sql, i)
    return sql + ";\n"


def union_all(n: int) -> str:
    return "\nUNION ALL ".join("SELECT a, b + %d AS b FROM t" % i for i in range(n)) + ";\n"


def nested_subqueries(n: int) -> str:
    sql = "SELECT a FROM t"
    for i in range(n):
        sql = "SELECT a FROM t WHERE b > %d AND a IN (%s)" % (i, sql)
    return sql + ";\n"


def ctes(n: int) -> str:
    defs = ["c1 AS (SELECT a, b FROM t)"]
    defs += ["c%d AS (SELECT a + 1 AS a, b FROM c%d)" % (i, i - 1) for i in range(2, n + 1)]
    return "WITH " + ",\n".join(defs) + "\nSELECT a, b FROM c%d;\n" % n


def sql_function_chain(n: int) -> str:
    defs = ["CREATE TEMPORARY FUNCTION f1(x INT) RETURNS INT RETURN x + 1;"]
    defs += ["CREATE TEMPORARY FUNCTION f%d(x INT) RETURNS INT RETURN f%d(x) + 1;" % (i, i - 1) for i in range(2, n + 1)]
    return "\n".join(defs) + "\nSELECT f%d(1);\n" % n


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "schema.sql"), "w") as f:
        f.write("CREATE TABLE t (a INT, b INT);\n")
    for family, sizes in FAMILIES.items():
        d = os.path.join(out, family)
        os.makedirs(d, exist_ok=True)
        for n in sizes:
            path = os.path.join(d, "%d.sql" % n)
            with open(path, "w") as f:
                f.write(globals()[family](n))
            print(family, n, path)


if __name__ == "__main__":
    main()
