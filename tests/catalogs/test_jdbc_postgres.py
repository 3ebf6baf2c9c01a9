#!/usr/bin/env python3
"""Spark's JDBCTableCatalog over a real PostgreSQL (a throwaway cluster on a
loopback port), as catalyzer and catalyzerd load it:

- the type mapping (tests/catalogs/pg_types.sql -> pg_types.expected, a golden);
- RelationV2 printed as Spark prints it; names as PostgreSQL stores them;
- every TPC-DS query analyses against pg.tpcds.* with the schemas it has
  against the inline catalog (needs ../shared/workloads, else that part skips);
- each table loaded once per time to live (counted in PostgreSQL's statement log);
  a changed table seen once its cached copy expires; cacheTtlSeconds=0 reloads;
- a catalog that cannot be reached, or never answers, fails with an error that
  names the catalog, within the deadline, and the daemon keeps serving;
- the same through the daemon: catalyzer.v1 (catalyzer run --daemon) and
  Spark Connect (Config set, then AnalyzePlan).

Exit 0 pass, 1 fail, 77 skip (no PostgreSQL server binaries)."""
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(HERE, "..", ".."))
SHARED = os.environ.get("CATALYZER_SHARED", os.path.join(SOURCE, "..", "shared"))
CLI = os.environ.get("CATALYZER_CLI", "catalyzer")
JDBC = "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog"

failures = []
SANITIZER = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")
sanitizer_reports = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what + ("" if cond else "\n     " + str(detail)[:3000]))
    sys.stdout.flush()
    if not cond:
        failures.append(what)


def skip(why):
    print("test_jdbc_postgres.py: SKIP: %s: skipped, not passed" % why)
    sys.exit(77)


bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
if not bins:
    skip("no PostgreSQL server (Debian's postgresql)")
PGBIN = os.path.dirname(bins[-1])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


# ------------------------------------------------------------ the cluster
tmp = tempfile.mkdtemp(prefix="cz-jdbc-pg-")
as_postgres = []
if os.geteuid() == 0:  # PostgreSQL refuses to run as root
    if subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
    shutil.chown(tmp, "postgres")
    as_postgres = ["runuser", "-u", "postgres", "--"]
PORT = free_port()
DATA = os.path.join(tmp, "data")
LOG = os.path.join(tmp, "pg.log")
subprocess.run(as_postgres + [PGBIN + "/initdb", "-D", DATA, "-A", "trust", "-U", "postgres", "--no-sync"],
               check=True, capture_output=True)
subprocess.run(as_postgres + [PGBIN + "/pg_ctl", "-D", DATA, "-l", LOG, "-w", "-o",
                              "-k %s -c listen_addresses=127.0.0.1 -p %d -c fsync=off -c log_statement=all "
                              "-c log_min_duration_statement=0" % (tmp, PORT), "start"],
               check=True, capture_output=True)


def stop_cluster():
    subprocess.run(as_postgres + [PGBIN + "/pg_ctl", "-D", DATA, "-m", "immediate", "stop"], capture_output=True)
    shutil.rmtree(tmp, ignore_errors=True)


def psql(sql):
    r = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(PORT), "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-q",
                        "-d", "postgres"], input=sql, text=True, capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)


URL = "jdbc:postgresql://127.0.0.1:%d/postgres" % PORT


def pg_confs(name="pg", url=URL, extra=()):
    c = ["spark.sql.catalog.%s=%s" % (name, JDBC), "spark.sql.catalog.%s.url=%s" % (name, url),
         "spark.sql.catalog.%s.user=postgres" % name] + list(extra)
    return [a for kv in c for a in ("--conf", kv)]


def run_cli(statements, confs, daemon=None, timeout=300):
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(";\n".join(statements) + ";\n")
    args = [CLI, "run"] + (["--daemon", daemon] if daemon else []) + confs + [f.name]
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    os.unlink(f.name)
    if any(x in r.stderr for x in SANITIZER):
        sanitizer_reports.append(r.stderr[-3000:])
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    return lines, r


def explain(sql, confs):
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(sql + "\n")
    r = subprocess.run([CLI, "explain"] + confs + [f.name], capture_output=True, text=True, timeout=60)
    os.unlink(f.name)
    return r.stdout + r.stderr


def split_struct(schema):
    """struct<a:int,b:array<int>> -> ['a: int', 'b: array<int>'] (top-level fields)."""
    body = schema[len("struct<"):-1]
    out, depth, cur = [], 0, ""
    for ch in body:
        if ch == "<" or ch == "(":
            depth += 1
        elif ch == ">" or ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return [f.replace(":", ": ", 1) for f in out]


def loads_in_log(table):
    with open(LOG, errors="replace") as f:
        text = f.read()
    return len(re.findall(r'parse <unnamed>: SELECT \* FROM %s WHERE 1=0' % re.escape(table), text))


try:
    with open(os.path.join(HERE, "pg_types.sql")) as f:
        psql(f.read())

    # ------------------------------------------------------------ the mapping
    out, r = run_cli(["SELECT * FROM pg.types.all_types"], pg_confs())
    ok = out and out[0]["status"] == "ok"
    check(ok, "every mapped PostgreSQL type loads", r.stdout + r.stderr)
    if ok:
        with open(os.path.join(HERE, "pg_types.expected")) as f:
            want = f.read().split("\n")[:-1]
        got = split_struct(out[0]["schema"])
        diff = [("want " + w, "got " + g) for w, g in zip(want, got) if w != g]
        check(got == want, "the type mapping is PostgresDialect's (golden pg_types.expected)",
              diff or "%d columns, want %d" % (len(got), len(want)))

    plan = explain("SELECT c_integer FROM pg.types.all_types", pg_confs())
    check(re.search(r"RelationV2\[c_smallint#\d+, c_integer#\d+, .*\] pg\.types\.all_types types\.all_types", plan)
          is not None, "RelationV2 printed as Spark prints a JDBC table (catalog.ident, then the table's name)", plan)

    out, r = run_cli(["SELECT * FROM pg.types.unreadable", "SELECT * FROM pg.types.`MixedCase`",
                      "SELECT * FROM pg.types.mixedcase", "SELECT * FROM pg.in_public", "SELECT * FROM pg.a.b.c",
                      "USE pg.types", "SELECT c_bigint FROM all_types", "USE pg.nosuch", "SELECT 1 AS still_fine"],
                     pg_confs())
    st = [(o["status"], o.get("error_class")) for o in out]
    check(len(st) == 9, "nine answers", r.stdout + r.stderr)
    if len(st) == 9:
        check(st[0] == ("error", "FAILED_JDBC.LOAD_TABLE") and "`types`.`unreadable`" not in out[0]["message"]
              and "types.unreadable" in out[0]["message"],
              "a column type Spark cannot read (money[]) fails the load: FAILED_JDBC.LOAD_TABLE", out[0])
        check(st[1] == ("ok", None), "quoted names reach PostgreSQL as written (\"MixedCase\")", out[1])
        check(st[2] == ("error", "TABLE_OR_VIEW_NOT_FOUND"), "names are case-sensitive, as PostgreSQL's", out[2])
        check(st[3] == ("ok", None), "no namespace: PostgreSQL's search_path (public)", out[3])
        check(st[4] == ("error", "TABLE_OR_VIEW_NOT_FOUND"), "nested namespaces do not exist in JDBC", out[4])
        check(st[5:7] == [("ok", None), ("ok", None)] and out[6]["schema"] == "struct<c_bigint:bigint>",
              "USE pg.types, then unqualified names", out[5:7])
        check(st[7] == ("error", "SCHEMA_NOT_FOUND"), "USE of a schema PostgreSQL does not have", out[7])
        check(st[8] == ("ok", None), "the session goes on", out[8])

    # ------------------------------------------------------------ TPC-DS
    schema_file = os.path.join(SHARED, "workloads", "tpcds", "schema.sql")
    if not os.path.exists(schema_file):
        print("TPC-DS part: SKIP (no ../shared/workloads)")
    else:
        with open(schema_file) as f:
            ddl = f.read()
        pg_ddl = re.sub(r"\bSTRING\b", "TEXT", ddl)
        psql("CREATE SCHEMA tpcds;\nSET search_path TO tpcds;\n" + pg_ddl)
        tables = re.findall(r"CREATE TABLE (\w+)", ddl)
        queries = []
        for q in sorted(glob.glob(os.path.join(SHARED, "workloads", "tpcds", "q*.sql")),
                        key=lambda p: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", p)]):
            with open(q) as f:
                text = re.sub(r"--[^\n]*", "", f.read()).strip().rstrip(";")
            queries.append((os.path.basename(q), text))
        ddl_statements = [s.strip() for s in re.sub(r"--[^\n]*", "", ddl).split(";") if s.strip()]
        inline, r1 = run_cli(ddl_statements + [q for _, q in queries], [])
        inline = inline[len(ddl_statements):]
        before = {t: loads_in_log('"tpcds"."%s"' % t) for t in tables}
        viapg, r2 = run_cli(["USE pg.tpcds"] + [q for _, q in queries], pg_confs())
        viapg = viapg[1:]
        same = [n for (n, _), a, b in zip(queries, inline, viapg)
                if a["status"] == b["status"] == "ok" and a["schema"] == b["schema"]]
        bad = [(n, a.get("schema") or a.get("error_class"), b.get("schema") or b.get("message"))
               for (n, _), a, b in zip(queries, inline, viapg) if n not in same]
        check(len(viapg) == len(queries) and not bad,
              "every TPC-DS query (%d) analyses against pg.tpcds.* with the inline catalog's schema (%d same)"
              % (len(queries), len(same)), bad[:5] or r2.stderr[-2000:])
        loads = {t: loads_in_log('"tpcds"."%s"' % t) - before[t] for t in tables}
        used = {t: n for t, n in loads.items() if n}
        check(used and all(n == 1 for n in used.values()),
              "each table loaded once per time to live (%d tables, %d loads for %d queries)"
              % (len(used), sum(used.values()), len(queries)), loads)

        # time to live: 0 reloads every time; a changed table is seen once its copy expires
        b0 = loads_in_log('"tpcds"."store"')
        out, _ = run_cli(["SELECT s_store_sk FROM pg.tpcds.store", "SELECT s_store_sk FROM pg.tpcds.store"],
                         pg_confs(extra=["spark.sql.catalog.pg.cacheTtlSeconds=0"]))
        check(loads_in_log('"tpcds"."store"') - b0 == 2, "cacheTtlSeconds=0: every analysis loads the table")

    # ------------------------------------------------------------ through the daemon
    sys.path.insert(0, os.path.join(SOURCE, "tests", "integration"))
    from daemon import Daemon, grpc, load_stubs  # noqa: E402

    # one worker: each worker process keeps its own table cache, and the time-to-live checks
    # below need the calls to meet the same one
    d = Daemon("--workers", "1", "--default-timeout-ms", "2000")
    try:
        out, r = run_cli(["SELECT c_uuid FROM pg.types.all_types", "SELECT * FROM pg.types.nosuch"], pg_confs(),
                         daemon=d.grpc_addr)
        check([(o["status"], o.get("schema") or o.get("error_class")) for o in out] ==
              [("ok", "struct<c_uuid:string>"), ("error", "TABLE_OR_VIEW_NOT_FOUND")],
              "through catalyzer.v1 (catalyzer run --daemon --conf ...)", r.stdout + r.stderr)

        psql("CREATE TABLE types.changing (a int);")
        ttl = ["spark.sql.catalog.pg.cacheTtlSeconds=4"]  # 1 s was too short on a busy machine
        # one session on the daemon: the first analysis caches, the change shows after the TTL
        out1, _ = run_cli(["SELECT * FROM pg.types.changing"], pg_confs(extra=ttl), daemon=d.grpc_addr)
        psql("ALTER TABLE types.changing ADD COLUMN b text;")
        out2, _ = run_cli(["SELECT * FROM pg.types.changing"], pg_confs(extra=ttl), daemon=d.grpc_addr)
        time.sleep(4.2)
        out3, _ = run_cli(["SELECT * FROM pg.types.changing"], pg_confs(extra=ttl), daemon=d.grpc_addr)
        schemas = [o[0].get("schema") for o in (out1, out2, out3) if o]
        check(schemas == ["struct<a:int>", "struct<a:int>", "struct<a:int,b:string>"],
              "a changed table: the cached copy until its time to live ends, then the new columns", schemas)

        # InvalidateTable: the default time to live, the engine says the table changed
        if grpc is not None:
            pb, _ = load_stubs()
            ch = grpc.insecure_channel(d.grpc_addr)
            invalidate = ch.unary_unary("/catalyzer.v1.Analyzer/InvalidateTable",
                                        request_serializer=lambda m: m.SerializeToString(),
                                        response_deserializer=pb.InvalidateTableResponse.FromString)
            # (first drop the copy the time-to-live check left, cached for 4 s only)
            invalidate(pb.InvalidateTableRequest(catalog="pg", namespace=["types"], table="changing"), timeout=10)
            out1, _ = run_cli(["SELECT * FROM pg.types.changing"], pg_confs(), daemon=d.grpc_addr)
            psql("ALTER TABLE types.changing ADD COLUMN c date;")
            time.sleep(4.2)  # past that time to live: only the invalidation can show the change
            out2, _ = run_cli(["SELECT * FROM pg.types.changing"], pg_confs(), daemon=d.grpc_addr)
            resp = invalidate(pb.InvalidateTableRequest(catalog="pg", namespace=["types"], table="changing"),
                              timeout=10)
            out3, _ = run_cli(["SELECT * FROM pg.types.changing"], pg_confs(), daemon=d.grpc_addr)
            schemas = [o[0].get("schema") for o in (out1, out2, out3) if o]
            check(schemas == ["struct<a:int,b:string>", "struct<a:int,b:string>", "struct<a:int,b:string,c:date>"]
                  and resp.dropped == 1,
                  "InvalidateTable drops a JDBC catalog's cached table: the next analysis loads it again",
                  (schemas, resp))
            ch.close()

        # unreachable and silent catalogs
        closed = free_port()
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)  # accepts (the kernel does), never answers
        dead_url = "jdbc:postgresql://127.0.0.1:%d/postgres" % closed
        mute_url = "jdbc:postgresql://127.0.0.1:%d/postgres" % silent.getsockname()[1]
        confs = pg_confs("dead", dead_url) + pg_confs("mute", mute_url) + pg_confs()
        out, r = run_cli(["SELECT * FROM dead.s.t", "SELECT 1 AS other"], confs, daemon=d.grpc_addr)
        check(len(out) == 2 and out[0].get("error_class") == "FAILED_JDBC.UNCLASSIFIED"
              and "catalog dead" in out[0]["message"] and "cannot connect" in out[0]["message"]
              and out[1]["status"] == "ok",
              "an unreachable catalog: an error naming it and why; the next statement is fine", out or r.stderr)
        out, r = run_cli(["SELECT c_date FROM pg.types.all_types"], confs, daemon=d.grpc_addr)
        check(out and out[0]["status"] == "ok", "the daemon keeps serving other catalogs", r.stdout + r.stderr)

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
            user = B.UserContext(user_id="jdbc-test")
            pairs = [("spark.sql.catalog.pg", JDBC), ("spark.sql.catalog.pg.url", URL),
                     ("spark.sql.catalog.pg.user", "postgres")]
            config(B.ConfigRequest(session_id=sid, user_context=user, operation=B.ConfigRequest.Operation(
                set=B.ConfigRequest.Set(pairs=[B.KeyValue(key=k, value=v) for k, v in pairs]))), timeout=20)
            resp = analyze(B.AnalyzePlanRequest(
                session_id=sid, user_context=user,
                schema=B.AnalyzePlanRequest.Schema(plan=B.Plan(root=R.Relation(
                    sql=R.SQL(query="SELECT c_integer, c_numeric_7_2 FROM pg.types.all_types"))))), timeout=20)
            names = [f.name for f in resp.schema.schema.struct.fields]
            check(names == ["c_integer", "c_numeric_7_2"] and
                  resp.schema.schema.struct.fields[1].data_type.decimal.precision == 7,
                  "through Spark Connect: Config set of the catalog, then AnalyzePlan", resp)

            # a catalog that accepts connections and never answers: the call's deadline (2 s) holds
            config(B.ConfigRequest(session_id=sid, user_context=user, operation=B.ConfigRequest.Operation(
                set=B.ConfigRequest.Set(pairs=[B.KeyValue(key="spark.sql.catalog.mute", value=JDBC),
                                               B.KeyValue(key="spark.sql.catalog.mute.url", value=mute_url)]))),
                   timeout=20)
            t0 = time.time()
            try:
                analyze(B.AnalyzePlanRequest(session_id=sid, user_context=user, schema=B.AnalyzePlanRequest.Schema(
                    plan=B.Plan(root=R.Relation(sql=R.SQL(query="SELECT * FROM mute.s.t"))))), timeout=2)
                outcome = "answered"
            except grpc.RpcError as e:
                outcome = "%s %s" % (e.code(), e.details())
            took = time.time() - t0
            check(took < 3.5 and ("DEADLINE" in outcome or "deadline" in outcome),
                  "a catalog that never answers: the call ends at its deadline (2 s; took %.1f s)" % took, outcome)
            resp = analyze(B.AnalyzePlanRequest(
                session_id=sid, user_context=user,
                schema=B.AnalyzePlanRequest.Schema(plan=B.Plan(root=R.Relation(
                    sql=R.SQL(query="SELECT c_date FROM pg.types.all_types"))))), timeout=20)
            check([f.name for f in resp.schema.schema.struct.fields] == ["c_date"],
                  "the same session goes on with its other catalog", resp)
        silent.close()
        check(d.alive(), "the daemon is alive at the end")
    except Exception as e:  # say what the daemon said, then fail
        check(False, "the daemon part ran to its end: %r" % e, d.log()[-6000:])
    finally:
        d.stop()
        if any(x in d.log() for x in SANITIZER):
            sanitizer_reports.append(d.log()[-3000:])
    check(not sanitizer_reports, "no sanitizer reports from catalyzer or catalyzerd", "\n".join(sanitizer_reports))
finally:
    stop_cluster()

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
