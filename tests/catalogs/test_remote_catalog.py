#!/usr/bin/env python3
"""The remote catalog (spark.sql.catalog.NAME=catalyzer.remote, .uri=HOST:PORT)
against a real example provider: providers/python (Debian's python3-grpcio)
or providers/go (Debian's grpc-go, built here offline), serving the TPC-DS
schema from ../shared/workloads, read at its start.

- every TPC-DS query analyses through the provider with the schemas it has
  against the inline catalog; RelationV2 printed as for a v2 table;
- the provider sees each table loaded once per time to live (counted in
  its call log); cacheTtlSeconds=0 revalidates by version every analysis
  (not_modified when current), so a changed table is seen by the next one;
- functions: LoadFunction when a query calls CATALOG.ns.f(...), typed as declared,
  loaded once per time to live;
- REFRESH TABLE drops the cached copy; so does catalyzerd's InvalidateTable,
  and both reach every analysis worker process;
- a killed provider: the error names the catalog and why, at once; a stopped
  one: the error comes at the catalog's deadline; meanwhile the daemon keeps
  serving other catalogs;
- through catalyzer.v1 (catalyzer run --daemon) and Spark Connect (Config,
  then AnalyzePlan).

Usage: test_remote_catalog.py python|go. Exit 0 pass, 1 fail, 77 skip."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from provider_process import Provider, build_provider  # noqa: E402
from catalog_cli import SANITIZER, explain, run_cli, tpcds_queries  # noqa: E402

SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(HERE, "..", ".."))
SHARED = os.environ.get("CATALYZER_SHARED", os.path.join(SOURCE, "..", "shared"))
LANG = sys.argv[1] if len(sys.argv) > 1 else "python"

failures = []
sanitizer_reports = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what + ("" if cond else "\n     " + str(detail)[:3000]))
    sys.stdout.flush()
    if not cond:
        failures.append(what)


def skip(why):
    print("test_remote_catalog.py %s: SKIP: %s: skipped, not passed" % (LANG, why))
    sys.exit(77)


SCHEMA = os.path.join(SHARED, "workloads", "tpcds", "schema.sql")
if not os.path.exists(SCHEMA):
    skip("no ../shared/workloads (the TPC-DS schema the provider serves)")
command, why = build_provider(LANG)
if not command:
    skip(why)


def remote_confs(name="rc", port=None, extra=()):
    c = ["spark.sql.catalog.%s=catalyzer.remote" % name, "spark.sql.catalog.%s.uri=127.0.0.1:%d" % (name, port)]
    return [a for kv in c + list(extra) for a in ("--conf", kv)]


def cli(statements, confs, daemon=None):
    out, r = run_cli(statements, confs, daemon)
    if any(x in r.stderr for x in SANITIZER):
        sanitizer_reports.append(r.stderr[-3000:])
    return out, r


tmp = tempfile.mkdtemp(prefix="cz-remote-")
live = os.path.join(tmp, "live.sql")
with open(live, "w") as f:
    f.write("CREATE TABLE changing (a INT);\nCREATE TABLE other (x STRING NOT NULL COMMENT 'an id');\n")

prov = Provider(command, ["--schema", "tpcds=" + SCHEMA, "--schema", "live=" + live,
                          "--function", "fns.plus1(int)->int", "--function", "fns.label(string,int)->string",
                          "--function", "fns.bad(int)->notatype", "--function", "tpcds.plus2(int)->int",
                          "--aggregate", "fns.total(decimal(7,2))->decimal(17,2)"])
try:
    P = prov.port
    # ------------------------------------------------------------ in process: TPC-DS
    queries = tpcds_queries(SHARED)
    with open(SCHEMA) as f:
        ddl = f.read()
    tables = re.findall(r"CREATE TABLE (\w+)", ddl)
    ddl_statements = [s.strip() for s in re.sub(r"--[^\n]*", "", ddl).split(";") if s.strip()]
    inline, _ = cli(ddl_statements + [q for _, q in queries], [])
    inline = inline[len(ddl_statements):]
    mark = prov.mark()
    t0 = time.time()
    viarc, r = cli(["USE rc.tpcds"] + [q for _, q in queries], remote_confs(port=P))
    took = time.time() - t0
    viarc = viarc[1:]
    bad = [(n, a.get("schema") or a.get("error_class"), b.get("schema") or b.get("message"))
           for (n, _), a, b in zip(queries, inline, viarc)
           if not (a["status"] == b["status"] == "ok" and a["schema"] == b["schema"])]
    check(len(viarc) == len(queries) and not bad,
          "every TPC-DS query (%d) analyses through the %s provider with the inline catalog's schema (%.1f s)"
          % (len(queries), LANG, took), bad[:5] or r.stderr[-2000:])
    loads = prov.count("LoadTable", "loaded", since=mark)
    check(set(loads) <= {"tpcds." + t for t in tables} and loads and all(n == 1 for n in loads.values()),
          "each table loaded once per time to live (%d tables, %d loads for %d queries)"
          % (len(loads), sum(loads.values()), len(queries)), loads)

    plan = explain("SELECT s_store_sk FROM rc.tpcds.store", remote_confs(port=P))
    check(re.search(r"RelationV2\[s_store_sk#\d+, s_store_id#\d+, .*\] rc\.tpcds\.store tpcds\.store", plan)
          is not None, "RelationV2 printed as Spark prints a v2 table (catalog.ident, then the table's name)", plan)

    out, r = cli(["SELECT * FROM rc.tpcds.nosuch", "SELECT * FROM rc.a.b.c", "USE rc.nosuch", "USE rc.live",
                  "SELECT * FROM other", "DESCRIBE TABLE rc.live.other", "SELECT 1 AS still_fine"],
                 remote_confs(port=P))
    st = [(o["status"], o.get("error_class")) for o in out]
    check(st == [("error", "TABLE_OR_VIEW_NOT_FOUND"), ("error", "TABLE_OR_VIEW_NOT_FOUND"),
                 ("error", "SCHEMA_NOT_FOUND"), ("ok", None), ("ok", None), ("ok", None), ("ok", None)],
          "NOT_FOUND from the provider: TABLE_OR_VIEW_NOT_FOUND / SCHEMA_NOT_FOUND; USE, DESCRIBE", out or r.stderr)
    if len(out) == 7:
        check(out[4]["schema"] == "struct<x:string>", "a column's type as the provider gives it", out[4])

    # ------------------------------------------------------------ functions: LoadFunction
    mark = prov.mark()
    out, r = cli(["SELECT rc.fns.plus1(s_store_sk) AS x, rc.fns.label(s_store_name, '7') AS y FROM rc.tpcds.store",
                  "SELECT rc.fns.plus1(rc.fns.plus1(1)) AS z",
                  "SELECT ss_store_sk, rc.fns.total(ss_net_paid) AS t FROM rc.tpcds.store_sales GROUP BY ss_store_sk",
                  "SELECT ss_store_sk, rc.fns.total(ss_net_paid) FROM rc.tpcds.store_sales",
                  "SELECT rc.fns.nosuch(1)", "SELECT rc.fns.plus1(1, 2)", "SELECT rc.fns.plus1(array(1))",
                  "SELECT rc.fns.bad(1)", "SELECT rc.nons.plus1(1)"], remote_confs(port=P))
    got = [(o["status"], o.get("schema") if o["status"] == "ok" else o.get("error_class")) for o in out]
    check(got == [("ok", "struct<x:int,y:string>"), ("ok", "struct<z:int>"),
                  ("ok", "struct<ss_store_sk:int,t:decimal(17,2)>"), ("error", "MISSING_GROUP_BY"),
                  ("error", "UNRESOLVED_ROUTINE"), ("error", "WRONG_NUM_ARGS.WITHOUT_SUGGESTION"),
                  ("error", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"), ("error", "REMOTE_CATALOG.INVALID_RESPONSE"),
                  ("error", "UNRESOLVED_ROUTINE")],
          "LoadFunction: a catalog's scalar and aggregate functions resolve and type as the provider declares them "
          "(arguments cast); unknown ones UNRESOLVED_ROUTINE; bad argument counts and types as for any function; "
          "a type the provider sent that is not Spark's is named", (got, out, r.stderr[-2000:]))
    fl = prov.count("LoadFunction", "loaded", since=mark)
    check(fl == {"fns.plus1": 1, "fns.label": 1, "fns.total": 1, "fns.bad": 1},
          "each function loaded once per time to live (%s)" % fl, prov.events[mark:])
    mark = prov.mark()
    out, r = cli(["USE rc.tpcds", "SELECT plus2(1) AS a, upper('x') AS u", "SELECT fns.plus1(2) AS b",
                  "SELECT nosuch(1)", "SELECT tpcds.nosuch(1)"], remote_confs(port=P))
    got = [(o["status"], o.get("schema") if o["status"] == "ok" else o.get("error_class")) for o in out]
    asked = sorted(e["name"] for e in prov.events[mark:] if e["rpc"] == "LoadFunction")
    check(got == [("ok", "struct<>"), ("ok", "struct<a:int,u:string>"), ("ok", "struct<b:int>"),
                  ("error", "UNRESOLVED_ROUTINE"), ("error", "UNRESOLVED_ROUTINE")]
          and asked == ["fns.plus1", "tpcds.nosuch", "tpcds.nosuch", "tpcds.plus2"]
          and out[3]["message_parameters"]["searchPath"] == "[`system`.`builtin`, `system`.`session`, `rc`.`tpcds`]",
          "with the remote catalog current (USE rc.tpcds), f(...) and ns.f(...) are its functions (Spark's "
          "expandIdentifier), built-ins first (never asked)", (got, asked, out))
    plan = explain("SELECT rc.fns.plus1(s_store_sk) FROM rc.tpcds.store", remote_confs(port=P))
    check(re.search(r"Project \[plus1\(s_store_sk#\d+\) AS plus1\(s_store_sk\)#\d+\]", plan) is not None,
          "a catalog function's call in the plan: its name and arguments", plan)

    out, r = cli(["SELECT * FROM rc.tpcds.store"], remote_confs(port=P, extra=["spark.sql.catalog.rc.deadlineMs=x"]))
    check(out and out[0].get("error_class") == "REMOTE_CATALOG.INVALID_OPTION" and "deadlineMs" in out[0]["message"],
          "a bad deadlineMs option is named", out or r.stderr)

    # ------------------------------------------------------------ through the daemon
    sys.path.insert(0, os.path.join(SOURCE, "tests", "integration"))
    from daemon import Client, Daemon, grpc, load_stubs  # noqa: E402

    def edit_live(text):
        # a new modification time even on coarse clocks: the provider re-reads on change
        st = os.stat(live)
        with open(live, "w") as f:
            f.write(text)
        os.utime(live, ns=(st.st_atime_ns, max(st.st_mtime_ns + 1000000, time.time_ns())))

    # one worker: each worker process keeps its own cache, and the counting below needs one
    d = Daemon("--workers", "1", "--default-timeout-ms", "5000")
    try:
        ttl0 = ["spark.sql.catalog.rc.cacheTtlSeconds=0"]
        mark = prov.mark()
        a1, r = cli(["SELECT * FROM rc.live.changing"], remote_confs(port=P, extra=ttl0), daemon=d.grpc_addr)
        a2, _ = cli(["SELECT * FROM rc.live.changing"], remote_confs(port=P, extra=ttl0), daemon=d.grpc_addr)
        edit_live("CREATE TABLE changing (a INT, b STRING);\nCREATE TABLE other (x STRING NOT NULL COMMENT 'an id');\n")
        a3, _ = cli(["SELECT * FROM rc.live.changing"], remote_confs(port=P, extra=ttl0), daemon=d.grpc_addr)
        schemas = [o[0].get("schema") for o in (a1, a2, a3) if o]
        calls = [e["result"] for e in prov.events[mark:] if e["rpc"] == "LoadTable"]
        check(schemas == ["struct<a:int>", "struct<a:int>", "struct<a:int,b:string>"]
              and calls == ["loaded", "not_modified", "loaded"],
              "cacheTtlSeconds=0: every analysis revalidates by version (not_modified while current), "
              "a new version is seen by the next analysis", (schemas, calls, r.stderr[-1000:]))

        # the default time to live: the copy stays until REFRESH TABLE drops it
        mark = prov.mark()
        b1, _ = cli(["SELECT * FROM rc.live.changing"], remote_confs(port=P), daemon=d.grpc_addr)
        edit_live("CREATE TABLE changing (a INT, b STRING, c DATE);\nCREATE TABLE other (x STRING NOT NULL);\n")
        b2, _ = cli(["SELECT * FROM rc.live.changing", "REFRESH TABLE rc.live.changing",
                     "SELECT * FROM rc.live.changing"], remote_confs(port=P), daemon=d.grpc_addr)
        schemas = [o.get("schema") for o in b1 + b2]
        check(schemas == ["struct<a:int,b:string>", "struct<a:int,b:string>", "struct<>",
                          "struct<a:int,b:string,c:date>"],
              "within its time to live the cached copy is used; REFRESH TABLE drops it", (schemas, b2))

        out, r = cli(["SELECT d_year FROM rc.tpcds.date_dim", "SELECT * FROM rc.tpcds.nosuch"], remote_confs(port=P),
                     daemon=d.grpc_addr)
        check([(o["status"], o.get("schema") or o.get("error_class")) for o in out] ==
              [("ok", "struct<d_year:int>"), ("error", "TABLE_OR_VIEW_NOT_FOUND")],
              "through catalyzer.v1 (catalyzer run --daemon --conf ...)", r.stdout + r.stderr)

        # Spark Connect: Config set, then AnalyzePlan
        if grpc is None:
            print("Spark Connect part: SKIP (python3-grpcio)")
        else:
            load_stubs()
            from spark.connect import base_pb2 as B, relations_pb2 as R  # noqa: E402
            ch = grpc.insecure_channel(d.grpc_addr)
            svc = "/spark.connect.SparkConnectService/"
            config = ch.unary_unary(svc + "Config", request_serializer=B.ConfigRequest.SerializeToString,
                                    response_deserializer=B.ConfigResponse.FromString)
            analyze = ch.unary_unary(svc + "AnalyzePlan", request_serializer=B.AnalyzePlanRequest.SerializeToString,
                                     response_deserializer=B.AnalyzePlanResponse.FromString)
            sid = str(uuid.uuid4())
            user = B.UserContext(user_id="remote-test")
            pairs = [("spark.sql.catalog.eng", "catalyzer.remote"), ("spark.sql.catalog.eng.uri", "127.0.0.1:%d" % P)]
            config(B.ConfigRequest(session_id=sid, user_context=user, operation=B.ConfigRequest.Operation(
                set=B.ConfigRequest.Set(pairs=[B.KeyValue(key=k, value=v) for k, v in pairs]))), timeout=20)
            resp = analyze(B.AnalyzePlanRequest(
                session_id=sid, user_context=user,
                schema=B.AnalyzePlanRequest.Schema(plan=B.Plan(root=R.Relation(
                    sql=R.SQL(query="SELECT i_item_sk, i_current_price FROM eng.tpcds.item"))))), timeout=20)
            fields = resp.schema.schema.struct.fields
            check([f.name for f in fields] == ["i_item_sk", "i_current_price"] and fields[1].data_type.decimal.precision == 7,
                  "through Spark Connect: Config set of the catalog, then AnalyzePlan", resp)

        check(d.alive(), "the daemon is alive at the end")
    except Exception as e:  # say what the daemon said, then fail
        import traceback
        check(False, "the daemon part ran to its end: %r" % e, traceback.format_exc() + d.log()[-6000:])
    finally:
        d.stop()
        if any(x in d.log() for x in SANITIZER):
            sanitizer_reports.append(d.log()[-3000:])

    # InvalidateTable and REFRESH TABLE reach every analysis worker: two workers, each with its own cache;
    # a call is put on worker 1 by keeping worker 0 busy (idle workers are taken in order)
    d = Daemon("--workers", "2", "--default-timeout-ms", "10000", "--enable-fault-injection")
    try:
        pb, hpb = load_stubs()
        c = Client(d.grpc_addr, pb, hpb)
        invalidate = c.channel.unary_unary("/catalyzer.v1.Analyzer/InvalidateTable",
                                           request_serializer=lambda m: m.SerializeToString(),
                                           response_deserializer=pb.InvalidateTableResponse.FromString)
        rc_conf = {"spark.sql.catalog.rc": "catalyzer.remote", "spark.sql.catalog.rc.uri": "127.0.0.1:%d" % P}

        def schema_of(sql="SELECT * FROM rc.live.changing"):
            r = c.analyze_sql(sql, conf=rc_conf)[-1].result
            return r.schema if r.ok else r.error.error_class

        import urllib.request

        def running_jobs():
            with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % d.http_port, timeout=10) as r:
                m = re.search(r"^catalyzer_jobs_running (\d+)$", r.read().decode(), re.M)
            return int(m.group(1)) if m else -1

        def on_worker1(fn):
            """fn() while worker 0 stalls in a slow call (fault injection): fn's calls run on worker 1
            (once the slow call is seen running, however busy the machine)."""
            slow = threading.Thread(target=lambda: c.analyze_sql("SELECT 1", conf={
                "catalyzer.debug.fault": "slow", "catalyzer.debug.fault.millis": "2500"}))
            slow.start()
            deadline = time.time() + 10
            while running_jobs() < 1 and time.time() < deadline:
                time.sleep(0.02)
            try:
                return fn()
            finally:
                slow.join()

        def loads_since(m):
            return prov.count("LoadTable", "loaded", since=m).get("live.changing", 0)

        edit_live("CREATE TABLE changing (a INT);\nCREATE TABLE other (x STRING NOT NULL);\n")
        mark = prov.mark()
        first = [schema_of(), on_worker1(schema_of), schema_of(), on_worker1(schema_of)]
        check(first == ["struct<a:int>"] * 4 and loads_since(mark) == 2,
              "two workers: each loads the table once into its own cache (%d loads)" % loads_since(mark),
              (first, prov.events[mark:]))
        edit_live("CREATE TABLE changing (a INT, v2 STRING);\nCREATE TABLE other (x STRING NOT NULL);\n")
        stale = [schema_of(), on_worker1(schema_of)]
        mark = prov.mark()
        resp = invalidate(pb.InvalidateTableRequest(catalog="rc", namespace=["live"], table="changing"), timeout=10)
        after = [schema_of(), on_worker1(schema_of)]
        check(stale == ["struct<a:int>"] * 2 and resp.dropped == 1 and after == ["struct<a:int,v2:string>"] * 2
              and loads_since(mark) == 2,
              "InvalidateTable (run on worker 0) drops the copies of both workers: the next analysis on either "
              "sees the new version", (stale, resp, after, prov.events[mark:]))

        edit_live("CREATE TABLE changing (a INT, v3 DATE);\nCREATE TABLE other (x STRING NOT NULL);\n")
        refreshed = on_worker1(lambda: c.execute(pb.ExecuteRequest(sql="REFRESH TABLE rc.live.changing",
                                                                   conf=rc_conf), timeout=10))
        after = [schema_of(), on_worker1(schema_of)]
        check(all(r.ok for r in refreshed.results) and after == ["struct<a:int,v3:date>"] * 2,
              "REFRESH TABLE on worker 1 reaches worker 0 too", (refreshed, after))

        edit_live("CREATE TABLE changing (a INT, v4 INT);\nCREATE TABLE other (x STRING NOT NULL);\n")
        other_before = on_worker1(lambda: schema_of("SELECT * FROM rc.live.other"))
        resp = invalidate(pb.InvalidateTableRequest(catalog="rc"), timeout=10)
        after = [schema_of(), on_worker1(schema_of)]
        check(resp.dropped >= 1 and after == ["struct<a:int,v4:int>"] * 2 and other_before == "struct<x:string>",
              "InvalidateTable with no table drops every table of the catalog, in every worker", (resp, after))

        resp = invalidate(pb.InvalidateTableRequest(catalog="elsewhere", namespace=["live"], table="changing"),
                          timeout=10)
        check(resp.dropped == 0, "InvalidateTable of another catalog's table drops nothing", resp)
        try:
            invalidate(pb.InvalidateTableRequest(table="changing"), timeout=10)
            check(False, "InvalidateTable without a catalog: INVALID_ARGUMENT", "it succeeded")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and "catalog" in e.details(),
                  "InvalidateTable without a catalog: INVALID_ARGUMENT", e)
        req = urllib.request.Request("http://127.0.0.1:%d/v1/invalidate-table" % d.http_port,
                                     data=json.dumps({"catalog": "rc", "namespace": ["live"],
                                                      "table": "changing"}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            body = json.loads(r.read())
        check(body.get("dropped") == 1, "InvalidateTable on the JSON endpoint (POST /v1/invalidate-table)", body)
        c.close()
        check(d.alive(), "the daemon is alive at the end")
    except Exception as e:  # say what the daemon said, then fail
        import traceback
        check(False, "the invalidation part ran to its end: %r" % e, traceback.format_exc() + d.log()[-6000:])
    finally:
        d.stop()
        if any(x in d.log() for x in SANITIZER):
            sanitizer_reports.append(d.log()[-3000:])

    # a stopped provider: the catalog's deadline, while another worker serves another catalog at once;
    # a killed one: the error at once; the daemon goes on
    d = Daemon("--workers", "2", "--default-timeout-ms", "5000")
    other = Provider(command, ["--schema", "tpcds=" + SCHEMA])
    try:
        both = remote_confs(port=P, extra=["spark.sql.catalog.rc.deadlineMs=1000"]) + remote_confs("rc2", other.port)
        prov.proc.send_signal(signal.SIGSTOP)
        result = {}

        def stalled():
            t = time.time()
            result["out"], _ = cli(["SELECT * FROM rc.tpcds.web_page"], both, daemon=d.grpc_addr)
            result["took"] = time.time() - t
        th = threading.Thread(target=stalled)
        th.start()
        time.sleep(0.2)
        t = time.time()
        meanwhile, _ = cli(["SELECT * FROM rc2.tpcds.item", "SELECT 1 AS x"], both, daemon=d.grpc_addr)
        meanwhile_took = time.time() - t
        pending = th.is_alive()
        th.join(10)
        prov.proc.send_signal(signal.SIGCONT)
        o = result.get("out") or [{}]
        check(o[0].get("error_class") == "REMOTE_CATALOG.DEADLINE_EXCEEDED" and "of rc at" in o[0]["message"]
              and 0.9 < result.get("took", 99) < 3.0,
              "a stopped provider: REMOTE_CATALOG.DEADLINE_EXCEEDED at the catalog's deadline (1 s; took %.2f s)"
              % result.get("took", -1), o)
        check([x["status"] for x in meanwhile] == ["ok", "ok"] and pending,
              "meanwhile the daemon serves another catalog (%.2f s, while the stalled call waited)" % meanwhile_took,
              meanwhile)

        prov.kill()
        t = time.time()
        out, r = cli(["SELECT * FROM rc.tpcds.web_site", "SELECT * FROM rc2.tpcds.item", "SELECT rc.fns.plus1(1)"],
                     both, daemon=d.grpc_addr)
        took = time.time() - t
        check(len(out) == 3 and out[0].get("error_class") == "REMOTE_CATALOG.UNREACHABLE"
              and "provider of rc at 127.0.0.1:%d" % P in out[0]["message"] and out[1]["status"] == "ok"
              and out[2].get("error_class") == "REMOTE_CATALOG.UNREACHABLE" and "LoadFunction" in out[2]["message"]
              and took < 2.0,
              "a killed provider: REMOTE_CATALOG.UNREACHABLE naming the catalog and why, for tables and "
              "functions (%.2f s); "
              "the other catalog goes on" % took, out or r.stderr)
        check(d.alive(), "the daemon is alive at the end")
    except Exception as e:  # say what the daemon said, then fail
        import traceback
        check(False, "the daemon part ran to its end: %r" % e, traceback.format_exc() + d.log()[-6000:])
    finally:
        other.stop()
        d.stop()
        if any(x in d.log() for x in SANITIZER):
            sanitizer_reports.append(d.log()[-3000:])
    check(not sanitizer_reports, "no sanitizer reports from catalyzer or catalyzerd", "\n".join(sanitizer_reports))
finally:
    prov.stop()

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
