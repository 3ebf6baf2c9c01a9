#!/usr/bin/env python3
"""TPC-H's 22 queries as the structured plans a Spark Connect client sends:
spark.connect.Relation messages (protobuf JSON) built the way the DataFrame
API builds them — every relation with a plan id, df("c") columns carrying
their DataFrame's plan id, operators as unresolved functions, literals typed
as Scala's lit() types them. The queries are the well-known DataFrame
formulations of TPC-H (correlated subqueries written as joins and
aggregations, as DataFrame programs write them); they read the tables of
TPC-H's schema (tpch/schema.sql in the workloads).

Usage: tpch_connect.py OUTDIR   (writes q1.json ... q22.json, one plan each)
The files are checked in under bench/workloads/tpch-connect/; catalyzer-load
sends them (--service connect: AnalyzePlan; catalyzer: Analyze.plan)."""
import datetime
import json
import os
import sys


class Ids:
    next = 0


def _rel(kind, body):
    r = {"common": {"planId": str(Ids.next)}, kind: body}
    Ids.next += 1
    return r


class Col:
    def __init__(self, e):
        self.e = e

    def _op(self, name, other):
        return Col(fn(name, self, other).e)

    def __eq__(self, o): return self._op("==", o)
    def __ne__(self, o): return self._op("!=", o)
    def __lt__(self, o): return self._op("<", o)
    def __le__(self, o): return self._op("<=", o)
    def __gt__(self, o): return self._op(">", o)
    def __ge__(self, o): return self._op(">=", o)
    def __and__(self, o): return self._op("and", o)
    def __or__(self, o): return self._op("or", o)
    def __add__(self, o): return self._op("+", o)
    def __sub__(self, o): return self._op("-", o)
    def __rsub__(self, o): return Col(fn("-", o, self).e)
    def __radd__(self, o): return Col(fn("+", o, self).e)
    def __mul__(self, o): return self._op("*", o)
    def __truediv__(self, o): return self._op("/", o)
    def __invert__(self): return Col(fn("not", self).e)
    __hash__ = None

    def alias(self, name): return Col({"alias": {"expr": self.e, "name": [name]}})
    def isin(self, *vs): return Col(fn("in", self, *vs).e)
    def like(self, p): return self._op("like", p)
    def contains(self, s): return self._op("contains", s)
    def startswith(self, s): return self._op("startswith", s)
    def endswith(self, s): return self._op("endswith", s)
    def isnull(self): return Col(fn("isnull", self).e)
    def substr(self, pos, n): return Col(fn("substr", self, pos, n).e)
    def desc(self): return Order(self, "SORT_DIRECTION_DESCENDING", "SORT_NULLS_LAST")
    def asc(self): return Order(self, "SORT_DIRECTION_ASCENDING", "SORT_NULLS_FIRST")


class Order:
    def __init__(self, c, d, n):
        self.e = {"sortOrder": {"child": c.e, "direction": d, "nullOrdering": n}}


def lit(v):
    if isinstance(v, Col):
        return v
    if isinstance(v, bool):
        return Col({"literal": {"boolean": v}})
    if isinstance(v, int):
        return Col({"literal": {"integer": v}})
    if isinstance(v, float):
        return Col({"literal": {"double": v}})
    if isinstance(v, datetime.date):
        return Col({"literal": {"date": (v - datetime.date(1970, 1, 1)).days}})
    return Col({"literal": {"string": v}})


def date(s):
    return lit(datetime.date.fromisoformat(s))


def col(name):
    return Col({"unresolvedAttribute": {"unparsedIdentifier": name}})


def fn(name, *args, distinct=False):
    f = {"functionName": name, "arguments": [lit(a).e for a in args]}
    if distinct:
        f["isDistinct"] = True
    return Col({"unresolvedFunction": f})


def when(c, v, otherwise):
    return fn("when", c, v, otherwise)


def sum_(c): return fn("sum", c)
def avg(c): return fn("avg", c)
def min_(c): return fn("min", c)
def max_(c): return fn("max", c)
def count(c): return fn("count", c)
def count_distinct(c): return fn("count", c, distinct=True)
def year(c): return fn("year", c)


def star():
    return Col({"unresolvedStar": {}})


def decrease(x, y): return x * (1 - y)
def increase(x, y): return x * (1 + y)


def cols(cs):
    return [col(c) if isinstance(c, str) else c for c in cs]


class DF:
    def __init__(self, plan):
        self.plan = plan
        self.id = plan["common"]["planId"]

    def __call__(self, name):  # df("c")
        return Col({"unresolvedAttribute": {"unparsedIdentifier": name, "planId": self.id}})

    def filter(self, c): return DF(_rel("filter", {"input": self.plan, "condition": c.e}))
    def select(self, *cs): return DF(_rel("project", {"input": self.plan, "expressions": [c.e for c in cols(cs)]}))

    def join(self, other, on=None, how="JOIN_TYPE_INNER"):
        j = {"left": self.plan, "right": other.plan, "joinType": how}
        if on is not None:
            j["joinCondition"] = on.e
        return DF(_rel("join", j))

    def group_by(self, *cs): return Grouped(self, cols(cs))
    def agg(self, *cs): return Grouped(self, []).agg(*cs)

    def sort(self, *os_):
        order = [(o if isinstance(o, Order) else col(o).asc() if isinstance(o, str) else o.asc()).e["sortOrder"]
                 for o in os_]
        return DF(_rel("sort", {"input": self.plan, "order": order, "isGlobal": True}))

    def limit(self, n): return DF(_rel("limit", {"input": self.plan, "limit": n}))
    def distinct(self): return DF(_rel("deduplicate", {"input": self.plan, "allColumnsAsKeys": True}))


class Grouped:
    def __init__(self, df, keys):
        self.df, self.keys = df, keys

    def agg(self, *cs):
        return DF(_rel("aggregate", {"input": self.df.plan, "groupType": "GROUP_TYPE_GROUPBY",
                                     "groupingExpressions": [k.e for k in self.keys],
                                     "aggregateExpressions": [c.e for c in cols(cs)]}))


def table(name):
    return DF(_rel("read", {"namedTable": {"unparsedIdentifier": name}}))


def queries():
    lineitem, order, customer, nation = table("lineitem"), table("orders"), table("customer"), table("nation")
    region, supplier, part, partsupp = table("region"), table("supplier"), table("part"), table("partsupp")
    q = {}
    q[1] = (lineitem.filter(col("l_shipdate") <= date("1998-09-02"))
            .group_by("l_returnflag", "l_linestatus")
            .agg(sum_(col("l_quantity")), sum_(col("l_extendedprice")),
                 sum_(decrease(col("l_extendedprice"), col("l_discount"))),
                 sum_(increase(decrease(col("l_extendedprice"), col("l_discount")), col("l_tax"))),
                 avg(col("l_quantity")), avg(col("l_extendedprice")), avg(col("l_discount")), count(col("l_quantity")))
            .sort("l_returnflag", "l_linestatus"))

    europe = (region.filter(col("r_name") == "EUROPE")
              .join(nation, col("r_regionkey") == nation("n_regionkey"))
              .join(supplier, col("n_nationkey") == supplier("s_nationkey"))
              .join(partsupp, supplier("s_suppkey") == partsupp("ps_suppkey")))
    brass = (part.filter((part("p_size") == 15) & part("p_type").endswith("BRASS"))
             .join(europe, europe("ps_partkey") == col("p_partkey")))
    min_cost = brass.group_by(brass("ps_partkey")).agg(min_(col("ps_supplycost")).alias("min"))
    q[2] = (brass.join(min_cost, brass("ps_partkey") == min_cost("ps_partkey"))
            .filter(brass("ps_supplycost") == min_cost("min"))
            .select("s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone", "s_comment")
            .sort(col("s_acctbal").desc(), "n_name", "s_name", "p_partkey")
            .limit(100))

    fcust = customer.filter(col("c_mktsegment") == "BUILDING")
    forders = order.filter(col("o_orderdate") < date("1995-03-15"))
    flineitems = lineitem.filter(col("l_shipdate") > date("1995-03-15"))
    q[3] = (fcust.join(forders, col("c_custkey") == forders("o_custkey"))
            .select("o_orderkey", "o_orderdate", "o_shippriority")
            .join(flineitems, col("o_orderkey") == flineitems("l_orderkey"))
            .select(col("l_orderkey"), decrease(col("l_extendedprice"), col("l_discount")).alias("volume"),
                    col("o_orderdate"), col("o_shippriority"))
            .group_by("l_orderkey", "o_orderdate", "o_shippriority")
            .agg(sum_(col("volume")).alias("revenue"))
            .sort(col("revenue").desc(), "o_orderdate")
            .limit(10))

    forders = order.filter((col("o_orderdate") >= date("1993-07-01")) & (col("o_orderdate") < date("1993-10-01")))
    flineitems = lineitem.filter(col("l_commitdate") < col("l_receiptdate")).select("l_orderkey").distinct()
    q[4] = (flineitems.join(forders, col("l_orderkey") == forders("o_orderkey"))
            .group_by("o_orderpriority").agg(count(col("o_orderpriority")))
            .sort("o_orderpriority"))

    forders = order.filter((col("o_orderdate") < date("1995-01-01")) & (col("o_orderdate") >= date("1994-01-01")))
    q[5] = (region.filter(col("r_name") == "ASIA")
            .join(nation, col("r_regionkey") == nation("n_regionkey"))
            .join(supplier, col("n_nationkey") == supplier("s_nationkey"))
            .join(lineitem, col("s_suppkey") == lineitem("l_suppkey"))
            .select("n_name", "l_extendedprice", "l_discount", "l_orderkey", "s_nationkey")
            .join(forders, col("l_orderkey") == forders("o_orderkey"))
            .join(customer, (col("o_custkey") == customer("c_custkey")) & (col("s_nationkey") == customer("c_nationkey")))
            .select(col("n_name"), decrease(col("l_extendedprice"), col("l_discount")).alias("value"))
            .group_by("n_name").agg(sum_(col("value")).alias("revenue"))
            .sort(col("revenue").desc()))

    q[6] = (lineitem.filter((col("l_shipdate") >= date("1994-01-01")) & (col("l_shipdate") < date("1995-01-01"))
                            & (col("l_discount") >= 0.05) & (col("l_discount") <= 0.07) & (col("l_quantity") < 24))
            .agg(sum_(col("l_extendedprice") * col("l_discount"))))

    fnation = nation.filter((col("n_name") == "FRANCE") | (col("n_name") == "GERMANY"))
    fline = lineitem.filter((col("l_shipdate") >= date("1995-01-01")) & (col("l_shipdate") <= date("1996-12-31")))
    sup_nation = (fnation.join(supplier, col("n_nationkey") == supplier("s_nationkey"))
                  .join(fline, col("s_suppkey") == fline("l_suppkey"))
                  .select(col("n_name").alias("supp_nation"), col("l_orderkey"), col("l_extendedprice"),
                          col("l_discount"), col("l_shipdate")))
    q[7] = (fnation.join(customer, col("n_nationkey") == customer("c_nationkey"))
            .join(order, col("c_custkey") == order("o_custkey"))
            .select(col("n_name").alias("cust_nation"), col("o_orderkey"))
            .join(sup_nation, col("o_orderkey") == sup_nation("l_orderkey"))
            .filter(((col("supp_nation") == "FRANCE") & (col("cust_nation") == "GERMANY"))
                    | ((col("supp_nation") == "GERMANY") & (col("cust_nation") == "FRANCE")))
            .select(col("supp_nation"), col("cust_nation"), year(col("l_shipdate")).alias("l_year"),
                    decrease(col("l_extendedprice"), col("l_discount")).alias("volume"))
            .group_by("supp_nation", "cust_nation", "l_year").agg(sum_(col("volume")).alias("revenue"))
            .sort("supp_nation", "cust_nation", "l_year"))

    fregion = region.filter(col("r_name") == "AMERICA")
    forder = order.filter((col("o_orderdate") <= date("1996-12-31")) & (col("o_orderdate") >= date("1995-01-01")))
    fpart = part.filter(col("p_type") == "ECONOMY ANODIZED STEEL")
    nat = nation.join(supplier, col("n_nationkey") == supplier("s_nationkey"))
    line = (lineitem.select(col("l_partkey"), col("l_suppkey"), col("l_orderkey"),
                            decrease(col("l_extendedprice"), col("l_discount")).alias("volume"))
            .join(fpart, col("l_partkey") == fpart("p_partkey"))
            .join(nat, col("l_suppkey") == nat("s_suppkey")))
    q[8] = (nation.join(fregion, col("n_regionkey") == fregion("r_regionkey"))
            .select("n_nationkey")
            .join(customer, col("n_nationkey") == customer("c_nationkey"))
            .select("c_custkey")
            .join(forder, col("c_custkey") == forder("o_custkey"))
            .select("o_orderkey", "o_orderdate")
            .join(line, col("o_orderkey") == line("l_orderkey"))
            .select(year(col("o_orderdate")).alias("o_year"), col("volume"),
                    when(col("n_name") == "BRAZIL", col("volume"), 0).alias("case_volume"))
            .group_by("o_year").agg(sum_(col("case_volume")) / sum_(col("volume")))
            .sort("o_year"))

    line_part = part.filter(col("p_name").contains("green")).join(lineitem, col("p_partkey") == lineitem("l_partkey"))
    nat_sup = nation.join(supplier, col("n_nationkey") == supplier("s_nationkey"))
    q[9] = (line_part.join(nat_sup, col("l_suppkey") == nat_sup("s_suppkey"))
            .join(partsupp, (col("l_suppkey") == partsupp("ps_suppkey")) & (col("l_partkey") == partsupp("ps_partkey")))
            .join(order, col("l_orderkey") == order("o_orderkey"))
            .select(col("n_name"), year(col("o_orderdate")).alias("o_year"),
                    (decrease(col("l_extendedprice"), col("l_discount"))
                     - col("ps_supplycost") * col("l_quantity")).alias("amount"))
            .group_by("n_name", "o_year").agg(sum_(col("amount")))
            .sort("n_name", col("o_year").desc()))

    flineitem = lineitem.filter(col("l_returnflag") == "R")
    q[10] = (order.filter((col("o_orderdate") < date("1994-01-01")) & (col("o_orderdate") >= date("1993-10-01")))
             .join(customer, col("o_custkey") == customer("c_custkey"))
             .join(nation, col("c_nationkey") == nation("n_nationkey"))
             .join(flineitem, col("o_orderkey") == flineitem("l_orderkey"))
             .select(col("c_custkey"), col("c_name"), decrease(col("l_extendedprice"), col("l_discount")).alias("volume"),
                     col("c_acctbal"), col("n_name"), col("c_address"), col("c_phone"), col("c_comment"))
             .group_by("c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment")
             .agg(sum_(col("volume")).alias("revenue"))
             .sort(col("revenue").desc())
             .limit(20))

    tmp = (nation.filter(col("n_name") == "GERMANY")
           .join(supplier, col("n_nationkey") == supplier("s_nationkey"))
           .select("s_suppkey")
           .join(partsupp, col("s_suppkey") == partsupp("ps_suppkey"))
           .select(col("ps_partkey"), (col("ps_supplycost") * col("ps_availqty")).alias("value")))
    sum_res = tmp.agg(sum_(col("value")).alias("total_value"))
    q[11] = (tmp.group_by("ps_partkey").agg(sum_(col("value")).alias("part_value"))
             .join(sum_res, col("part_value") > col("total_value") * 0.0001)
             .sort(col("part_value").desc()))

    high = lambda c: when((c == "1-URGENT") | (c == "2-HIGH"), 1, 0)  # noqa: E731
    low = lambda c: when((c != "1-URGENT") & (c != "2-HIGH"), 1, 0)  # noqa: E731
    q[12] = (lineitem.filter(((col("l_shipmode") == "MAIL") | (col("l_shipmode") == "SHIP"))
                             & (col("l_commitdate") < col("l_receiptdate")) & (col("l_shipdate") < col("l_commitdate"))
                             & (col("l_receiptdate") >= date("1994-01-01")) & (col("l_receiptdate") < date("1995-01-01")))
             .join(order, col("l_orderkey") == order("o_orderkey"))
             .select("l_shipmode", "o_orderpriority")
             .group_by("l_shipmode")
             .agg(sum_(high(col("o_orderpriority"))).alias("sum_highorderpriority"),
                  sum_(low(col("o_orderpriority"))).alias("sum_loworderpriority"))
             .sort("l_shipmode"))

    q[13] = (customer.join(order, (col("c_custkey") == order("o_custkey"))
                           & ~order("o_comment").like("%special%requests%"), "JOIN_TYPE_LEFT_OUTER")
             .group_by("c_custkey")
             .agg(count(col("o_orderkey")).alias("c_count"))
             .group_by("c_count")
             .agg(count(star()).alias("custdist"))
             .sort(col("custdist").desc(), col("c_count").desc()))

    q[14] = (part.join(lineitem, (col("l_partkey") == col("p_partkey")) & (col("l_shipdate") >= date("1995-09-01"))
                       & (col("l_shipdate") < date("1995-10-01")))
             .select(col("p_type"), decrease(col("l_extendedprice"), col("l_discount")).alias("value"))
             .agg(sum_(when(col("p_type").startswith("PROMO"), col("value"), 0)) * 100 / sum_(col("value"))))

    revenue = (lineitem.filter((col("l_shipdate") >= date("1996-01-01")) & (col("l_shipdate") < date("1996-04-01")))
               .select(col("l_suppkey"), decrease(col("l_extendedprice"), col("l_discount")).alias("value"))
               .group_by("l_suppkey").agg(sum_(col("value")).alias("total")))
    q[15] = (revenue.agg(max_(col("total")).alias("max_total"))
             .join(revenue, col("max_total") == revenue("total"))
             .join(supplier, col("l_suppkey") == supplier("s_suppkey"))
             .select("s_suppkey", "s_name", "s_address", "s_phone", "total")
             .sort("s_suppkey"))

    fparts = (part.filter((col("p_brand") != "Brand#45") & ~col("p_type").startswith("MEDIUM POLISHED")
                          & col("p_size").isin(49, 14, 23, 45, 19, 3, 36, 9))
              .select("p_partkey", "p_brand", "p_type", "p_size"))
    q[16] = (supplier.filter(~col("s_comment").like("%Customer%Complaints%"))
             .join(partsupp, col("s_suppkey") == partsupp("ps_suppkey"))
             .select("ps_partkey", "ps_suppkey")
             .join(fparts, col("ps_partkey") == fparts("p_partkey"))
             .group_by("p_brand", "p_type", "p_size")
             .agg(count_distinct(col("ps_suppkey")).alias("supplier_count"))
             .sort(col("supplier_count").desc(), "p_brand", "p_type", "p_size"))

    fpart = (part.filter((col("p_brand") == "Brand#23") & (col("p_container") == "MED BOX"))
             .select("p_partkey")
             .join(lineitem, col("p_partkey") == lineitem("l_partkey"), "JOIN_TYPE_LEFT_OUTER"))
    q[17] = (fpart.group_by("p_partkey")
             .agg((avg(col("l_quantity")) * 0.2).alias("avg_quantity"))
             .select(col("p_partkey").alias("key"), col("avg_quantity"))
             .join(fpart, col("key") == fpart("p_partkey"))
             .filter(col("l_quantity") < col("avg_quantity"))
             .agg(sum_(col("l_extendedprice")) / 7.0))

    q[18] = (lineitem.group_by("l_orderkey")
             .agg(sum_(col("l_quantity")).alias("sum_quantity"))
             .filter(col("sum_quantity") > 300)
             .select(col("l_orderkey").alias("key"), col("sum_quantity"))
             .join(order, order("o_orderkey") == col("key"))
             .join(lineitem, col("o_orderkey") == lineitem("l_orderkey"))
             .join(customer, customer("c_custkey") == col("o_custkey"))
             .select("l_quantity", "c_name", "c_custkey", "o_orderkey", "o_orderdate", "o_totalprice")
             .group_by("c_name", "c_custkey", "o_orderkey", "o_orderdate", "o_totalprice")
             .agg(sum_(col("l_quantity")))
             .sort(col("o_totalprice").desc(), "o_orderdate")
             .limit(100))

    def size_case(brand, containers, lo, hi, size):
        return ((col("p_brand") == brand) & col("p_container").isin(*containers) & (col("l_quantity") >= lo)
                & (col("l_quantity") <= hi) & (col("p_size") >= 1) & (col("p_size") <= size))
    q[19] = (part.join(lineitem, col("l_partkey") == col("p_partkey"))
             .filter(((col("l_shipmode") == "AIR") | (col("l_shipmode") == "AIR REG"))
                     & (col("l_shipinstruct") == "DELIVER IN PERSON"))
             .filter(size_case("Brand#12", ("SM CASE", "SM BOX", "SM PACK", "SM PKG"), 1, 11, 5)
                     | size_case("Brand#23", ("MED BAG", "MED BOX", "MED PKG", "MED PACK"), 10, 20, 10)
                     | size_case("Brand#34", ("LG CASE", "LG BOX", "LG PACK", "LG PKG"), 20, 30, 15))
             .select(decrease(col("l_extendedprice"), col("l_discount")).alias("volume"))
             .agg(sum_(col("volume"))))

    flineitem = (lineitem.filter((col("l_shipdate") >= date("1994-01-01")) & (col("l_shipdate") < date("1995-01-01")))
                 .group_by("l_partkey", "l_suppkey")
                 .agg((sum_(col("l_quantity")) * 0.5).alias("sum_quantity")))
    fnation = nation.filter(col("n_name") == "CANADA")
    nat_supp = (supplier.select("s_suppkey", "s_name", "s_nationkey", "s_address")
                .join(fnation, col("s_nationkey") == fnation("n_nationkey")))
    q[20] = (part.filter(col("p_name").startswith("forest"))
             .select("p_partkey").distinct()
             .join(partsupp, col("p_partkey") == partsupp("ps_partkey"))
             .join(flineitem, (col("ps_suppkey") == flineitem("l_suppkey")) & (col("ps_partkey") == flineitem("l_partkey")))
             .filter(col("ps_availqty") > col("sum_quantity"))
             .select("ps_suppkey").distinct()
             .join(nat_supp, col("ps_suppkey") == nat_supp("s_suppkey"))
             .select("s_name", "s_address")
             .sort("s_name"))

    fsupplier = supplier.select("s_suppkey", "s_nationkey", "s_name")
    plineitem = lineitem.select("l_suppkey", "l_orderkey", "l_receiptdate", "l_commitdate")
    flineitem = plineitem.filter(col("l_receiptdate") > col("l_commitdate"))

    def suppliers_of(df):
        return (df.group_by("l_orderkey")
                .agg(count_distinct(col("l_suppkey")).alias("suppkey_count"), max_(col("l_suppkey")).alias("suppkey_max"))
                .select(col("l_orderkey").alias("key"), col("suppkey_count"), col("suppkey_max")))
    line1, line2 = suppliers_of(plineitem), suppliers_of(flineitem)
    forder = order.select("o_orderkey", "o_orderstatus").filter(col("o_orderstatus") == "F")
    q[21] = (nation.filter(col("n_name") == "SAUDI ARABIA")
             .join(fsupplier, col("n_nationkey") == fsupplier("s_nationkey"))
             .join(flineitem, col("s_suppkey") == flineitem("l_suppkey"))
             .join(forder, col("l_orderkey") == forder("o_orderkey"))
             .join(line1, col("l_orderkey") == line1("key"))
             .filter((col("suppkey_count") > 1) | ((col("suppkey_count") == 1) & (col("l_suppkey") == col("suppkey_max"))))
             .select("s_name", "l_orderkey", "l_suppkey")
             .join(line2, col("l_orderkey") == line2("key"), "JOIN_TYPE_LEFT_OUTER")
             .select("s_name", "l_orderkey", "l_suppkey", "suppkey_count", "suppkey_max")
             .filter((col("suppkey_count") == 1) & (col("l_suppkey") == col("suppkey_max")))
             .group_by("s_name")
             .agg(count(col("l_suppkey")).alias("numwait"))
             .sort(col("numwait").desc(), "s_name")
             .limit(100))

    fcustomer = (customer.select(col("c_acctbal"), col("c_custkey"), col("c_phone").substr(1, 2).alias("cntrycode"))
                 .filter(col("cntrycode").isin("13", "31", "23", "29", "30", "18", "17")))
    avg_customer = fcustomer.filter(col("c_acctbal") > 0.0).agg(avg(col("c_acctbal")).alias("avg_acctbal"))
    q[22] = (order.group_by("o_custkey").agg(col("o_custkey")).select("o_custkey")
             .join(fcustomer, col("o_custkey") == fcustomer("c_custkey"), "JOIN_TYPE_RIGHT_OUTER")
             .filter(col("o_custkey").isnull())
             .join(avg_customer)
             .filter(col("c_acctbal") > col("avg_acctbal"))
             .group_by("cntrycode")
             .agg(count(col("c_acctbal")).alias("numcust"), sum_(col("c_acctbal")))
             .sort("cntrycode"))
    return q


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for n, df in sorted(queries().items()):
        with open(os.path.join(out, "q%d.json" % n), "w") as f:
            json.dump(df.plan, f, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()
