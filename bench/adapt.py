#!/usr/bin/env python3
"""Copy a workload (schema.sql + q*.sql) for the peer engines, applying only
the small mechanical adaptations listed in BENCHMARKS.md, so every peer sees
the same text:
  1. `backtick` identifiers become "double-quoted" identifiers;
  2. Spark's unquoted interval literal INTERVAL 30 days becomes INTERVAL '30 days';
  3. in the schema, Spark's STRING type becomes VARCHAR;
  4. a trailing semicolon is dropped (the peers prepare one statement).
Usage: adapt.py SRC_DIR DST_DIR   (writes DST_DIR/schema.sql and DST_DIR/q*.sql)"""
import os
import re
import sys

INTERVAL = re.compile(r"\binterval\s+(\d+)\s+(days?|months?|years?|hours?|minutes?|seconds?)\b", re.I)


def adapt_query(sql: str) -> str:
    sql = sql.replace("`", '"')
    sql = INTERVAL.sub(lambda m: "INTERVAL '%s %s'" % (m.group(1), m.group(2)), sql)
    return sql.strip().rstrip(";").rstrip()


def adapt_schema(sql: str) -> str:
    return re.sub(r"\bSTRING\b", "VARCHAR", sql, flags=re.I)


def main() -> None:
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith(".sql"):
            continue
        with open(os.path.join(src, name)) as f:
            text = f.read()
        text = adapt_schema(text) if name == "schema.sql" else adapt_query(text)
        with open(os.path.join(dst, name), "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
