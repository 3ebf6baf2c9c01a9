#!/usr/bin/env python3
"""SparkConnectService on a live catalyzerd, called as a Spark Connect client
calls it: message classes generated at test time from Spark's own protos
(../shared/reference/spark-connect/protos), over Debian's python3-grpcio.

Covers every AnalyzePlan kind, every Config operation, ExecutePlan of SQL
commands (and the refusal of a query), ReleaseExecute, ReleaseSession,
Spark's session rules (UUIDs, server_side_session_id, sessions shared with
catalyzer.v1), the rich error status (google.rpc.Status with ErrorInfo,
decoded here by hand from the wire, independently of the project's .proto
files) and bad plans. TAP; skips (exit 77) without ../shared.
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import uuid

from daemon import Daemon, Tap, grpc

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(HERE, "..", ".."))
SHARED = os.environ.get("CATALYZER_SHARED", os.path.join(SOURCE, "..", "shared"))
PROTOS = os.path.join(SHARED, "reference", "spark-connect", "protos")
SVC = "/spark.connect.SparkConnectService/"


def skip(why):
    print("%s: SKIP: %s: skipped, not passed" % (os.path.basename(__file__), why))
    sys.stdout.flush()
    sys.exit(77)


if grpc is None:
    skip("python3-grpcio not importable (use Debian's /usr/bin/python3)")
if not os.path.isdir(PROTOS):
    skip("no ../shared/reference/spark-connect/protos (Spark's protos)")

out = tempfile.mkdtemp(prefix="connect-stubs-")
files = sorted(os.path.join("spark", "connect", f) for f in os.listdir(os.path.join(PROTOS, "spark", "connect"))
               if f.endswith(".proto"))
subprocess.run(["protoc", "-I", PROTOS, "--python_out", out] + files, check=True, capture_output=True)
sys.path.insert(0, out)
from spark.connect import base_pb2 as B, commands_pb2 as C, expressions_pb2 as E, relations_pb2 as R, types_pb2 as T  # noqa

t = Tap()
d = Daemon("--workers", "2", "--max-plan-depth", "200")
ch = grpc.insecure_channel(d.grpc_addr)


def method(name, req, resp, stream=False):
    f = ch.unary_stream if stream else ch.unary_unary
    return f(SVC + name, request_serializer=req.SerializeToString, response_deserializer=resp.FromString)


config = method("Config", B.ConfigRequest, B.ConfigResponse)
analyze = method("AnalyzePlan", B.AnalyzePlanRequest, B.AnalyzePlanResponse)
execute = method("ExecutePlan", B.ExecutePlanRequest, B.ExecutePlanResponse, stream=True)
release_session = method("ReleaseSession", B.ReleaseSessionRequest, B.ReleaseSessionResponse)
release_execute = method("ReleaseExecute", B.ReleaseExecuteRequest, B.ReleaseExecuteResponse)
USER = B.UserContext(user_id="test", user_name="test")
SID = str(uuid.uuid4())


# ---------------------------------------------------------------- wire helpers

def fields(buf):
    """(field number, wire type, value) of a protobuf message, parsed by hand."""
    pos, out = 0, []
    while pos < len(buf):
        key, pos = varint(buf, pos)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, pos = varint(buf, pos)
        elif wt == 2:
            n, pos = varint(buf, pos)
            v, pos = buf[pos:pos + n], pos + n
        elif wt == 1:
            v, pos = buf[pos:pos + 8], pos + 8
        elif wt == 5:
            v, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError("wire type %d" % wt)
        out.append((num, wt, v))
    return out


def varint(buf, pos):
    shift = v = 0
    while True:
        b = buf[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos


def error_info(e):
    """The google.rpc.Status in grpc-status-details-bin, decoded from the wire:
    {code, message, details: [(type_url, {reason, domain, metadata})]}."""
    raw = dict(e.trailing_metadata() or ()).get("grpc-status-details-bin")
    assert raw, "no grpc-status-details-bin trailer (%s: %s)" % (e.code(), e.details())
    st = {"code": 0, "message": "", "details": []}
    for num, _, v in fields(raw):
        if num == 1:
            st["code"] = v
        elif num == 2:
            st["message"] = v.decode()
        elif num == 3:  # google.protobuf.Any
            any_ = dict((n, val) for n, _, val in fields(v))
            info = {"reason": "", "domain": "", "metadata": {}}
            for n, _, val in fields(any_.get(2, b"")):
                if n == 1:
                    info["reason"] = val.decode()
                elif n == 2:
                    info["domain"] = val.decode()
                elif n == 3:
                    kv = dict((k, x.decode()) for k, _, x in fields(val))
                    info["metadata"][kv.get(1, "")] = kv.get(2, "")
            st["details"].append((any_.get(1, b"").decode(), info))
    return st


def rpc_error(fn):
    try:
        fn()
    except grpc.RpcError as e:
        return e
    raise AssertionError("expected an error")


def spark_error(fn, code, error_class=None, reason=None, contains=None):
    """Calls fn, expects a gRPC error with Spark's ErrorInfo; returns the info."""
    e = rpc_error(fn)
    assert e.code() == code, (e.code(), e.details())
    st = error_info(e)
    assert st["code"] == code.value[0], st
    assert st["message"] == e.details(), (st["message"], e.details())
    (url, info), = st["details"]
    assert url == "type.googleapis.com/google.rpc.ErrorInfo", url
    assert info["domain"] == "org.apache.spark", info
    classes = json.loads(info["metadata"]["classes"])
    assert classes[0] == info["reason"] and classes[-1] == "java.lang.Object", classes
    if error_class:
        assert info["metadata"].get("errorClass") == error_class, info
        json.loads(info["metadata"]["messageParameters"])
    if reason:
        assert info["reason"] == reason, info
    if contains:
        assert contains in e.details(), e.details()
    return info


def conf(op, sid=SID, **kw):
    return config(B.ConfigRequest(session_id=sid, user_context=USER, operation=op, **kw), timeout=30)


def pairs(resp):
    return [(p.key, p.value if p.HasField("value") else None) for p in resp.pairs]


def sql_rel(q):
    return R.Relation(sql=R.SQL(query=q))


def plan(rel):
    return B.Plan(root=rel)


def analyze_req(sid=SID, **kw):
    return B.AnalyzePlanRequest(session_id=sid, user_context=USER, **kw)


def run_sql(sql, sid=SID, reattachable=True, **kw):
    opts = [B.ExecutePlanRequest.RequestOption(reattach_options=B.ReattachOptions(reattachable=True))] \
        if reattachable else []
    req = B.ExecutePlanRequest(session_id=sid, user_context=USER, request_options=opts,
                               plan=B.Plan(command=C.Command(sql_command=C.SqlCommand(input=sql_rel(sql)))), **kw)
    return list(execute(req, timeout=30))


# ---------------------------------------------------------------- Config

def config_set_get():
    conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(pairs=[
        B.KeyValue(key="spark.sql.ansi.enabled", value="false"),
        B.KeyValue(key="spark.sql.session.timeZone", value="America/Los_Angeles"),
        B.KeyValue(key="my.own.key", value="x")])))
    r = conf(B.ConfigRequest.Operation(get=B.ConfigRequest.Get(keys=[
        "spark.sql.ansi.enabled", "spark.sql.session.timeZone", "my.own.key", "spark.sql.shuffle.partitions",
        "spark.sql.caseSensitive"])))
    assert pairs(r) == [("spark.sql.ansi.enabled", "false"), ("spark.sql.session.timeZone", "America/Los_Angeles"),
                        ("my.own.key", "x"), ("spark.sql.shuffle.partitions", "200"),
                        ("spark.sql.caseSensitive", "false")], pairs(r)
    assert r.session_id == SID and r.server_side_session_id


t.check("Config set, then get: set values and Spark's typed defaults", config_set_get)


def config_get_unknown():
    spark_error(lambda: conf(B.ConfigRequest.Operation(get=B.ConfigRequest.Get(keys=["no.such.key"]))),
                grpc.StatusCode.INTERNAL, "SQL_CONF_NOT_FOUND", "org.apache.spark.SparkNoSuchElementException",
                '"no.such.key"')


t.check("Config get of an unknown key: SQL_CONF_NOT_FOUND, as Spark", config_get_unknown)


def config_options():
    r = conf(B.ConfigRequest.Operation(get_with_default=B.ConfigRequest.GetWithDefault(pairs=[
        B.KeyValue(key="spark.sql.ansi.enabled", value="true"), B.KeyValue(key="nope.x", value="d")])))
    assert pairs(r) == [("spark.sql.ansi.enabled", "false"), ("nope.x", "d")], pairs(r)
    r = conf(B.ConfigRequest.Operation(get_option=B.ConfigRequest.GetOption(keys=[
        "nope.y", "spark.sql.groupByOrdinal", "my.own.key"])))
    assert pairs(r) == [("nope.y", None), ("spark.sql.groupByOrdinal", "true"), ("my.own.key", "x")], pairs(r)
    r = conf(B.ConfigRequest.Operation(get_all=B.ConfigRequest.GetAll(prefix="spark.sql.")))
    got = dict(pairs(r))
    assert got.get("spark.sql.ansi.enabled") == "false" and "my.own.key" not in got, got
    r = conf(B.ConfigRequest.Operation(get_all=B.ConfigRequest.GetAll()))
    assert dict(pairs(r)).get("my.own.key") == "x"


t.check("Config get_with_default, get_option, get_all (with and without prefix)", config_options)


def config_unset_modifiable():
    conf(B.ConfigRequest.Operation(unset=B.ConfigRequest.Unset(keys=["spark.sql.ansi.enabled"])))
    r = conf(B.ConfigRequest.Operation(get=B.ConfigRequest.Get(keys=["spark.sql.ansi.enabled"])))
    assert pairs(r) == [("spark.sql.ansi.enabled", "true")], pairs(r)
    r = conf(B.ConfigRequest.Operation(is_modifiable=B.ConfigRequest.IsModifiable(keys=[
        "spark.sql.ansi.enabled", "spark.sql.warehouse.dir", "spark.executor.memory", "unknown.key"])))
    assert pairs(r) == [("spark.sql.ansi.enabled", "true"), ("spark.sql.warehouse.dir", "false"),
                        ("spark.executor.memory", "false"), ("unknown.key", "false")], pairs(r)


t.check("Config unset returns a key to its default; is_modifiable", config_unset_modifiable)


def config_errors():
    spark_error(lambda: conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(pairs=[
        B.KeyValue(key="spark.sql.warehouse.dir", value="/tmp/x")]))),
        grpc.StatusCode.INTERNAL, "CANNOT_MODIFY_CONFIG", contains='"spark.sql.warehouse.dir"')
    spark_error(lambda: conf(B.ConfigRequest.Operation(unset=B.ConfigRequest.Unset(keys=["spark.executor.memory"]))),
                grpc.StatusCode.INTERNAL, "CANNOT_MODIFY_CONFIG")
    info = spark_error(lambda: conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(pairs=[
        B.KeyValue(key="spark.sql.caseSensitive", value="maybe")]))),
        grpc.StatusCode.INTERNAL, reason="java.lang.IllegalArgumentException",
        contains="spark.sql.caseSensitive should be boolean, but was maybe")
    assert "errorClass" not in info["metadata"], info
    spark_error(lambda: conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(pairs=[
        B.KeyValue(key="spark.sql.session.timeZone", value="Mars/Olympus")]))),
        grpc.StatusCode.INTERNAL, "INVALID_CONF_VALUE.TIME_ZONE")
    # silent: failures become warnings, the good keys are set
    r = conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(silent=True, pairs=[
        B.KeyValue(key="spark.sql.caseSensitive", value="maybe"), B.KeyValue(key="spark.sql.groupByAliases", value="false")])))
    assert len(r.warnings) == 1 and "spark.sql.caseSensitive" in r.warnings[0], r.warnings
    r = conf(B.ConfigRequest.Operation(get=B.ConfigRequest.Get(keys=["spark.sql.groupByAliases"])))
    assert pairs(r) == [("spark.sql.groupByAliases", "false")]


t.check("Config errors: static and core keys, values of the wrong type, bad zone; silent set warns", config_errors)


# ---------------------------------------------------------------- sessions

def session_rules():
    spark_error(lambda: conf(B.ConfigRequest.Operation(get=B.ConfigRequest.Get(keys=["a"])), sid="not-a-uuid"),
                grpc.StatusCode.INTERNAL, "INVALID_HANDLE.FORMAT", "org.apache.spark.SparkSQLException")
    r1 = analyze(analyze_req(spark_version=B.AnalyzePlanRequest.SparkVersion()), timeout=30)
    r2 = conf(B.ConfigRequest.Operation(get_all=B.ConfigRequest.GetAll()))
    assert r1.server_side_session_id and r1.server_side_session_id == r2.server_side_session_id
    # a client that saw another server-side session: Spark's SESSION_CHANGED
    spark_error(lambda: analyze(analyze_req(spark_version=B.AnalyzePlanRequest.SparkVersion(),
                                            client_observed_server_side_session_id="another"), timeout=30),
                grpc.StatusCode.INTERNAL, "INVALID_HANDLE.SESSION_CHANGED")
    analyze(analyze_req(spark_version=B.AnalyzePlanRequest.SparkVersion(),
                        client_observed_server_side_session_id=r1.server_side_session_id), timeout=30)


t.check("session ids are UUIDs (INVALID_HANDLE.FORMAT), server_side_session_id is stable, SESSION_CHANGED",
        session_rules)


def shared_with_catalyzer_v1():
    body = json.dumps({"sessionId": SID, "sql": "CREATE OR REPLACE TEMPORARY VIEW shared_v AS SELECT 1 AS a"})
    req = urllib.request.Request("http://127.0.0.1:%d/v1/execute" % d.http_port, data=body.encode(),
                                 headers={"content-type": "application/json"})
    res = json.loads(urllib.request.urlopen(req, timeout=30).read())
    assert res["results"][0]["ok"], res
    r = analyze(analyze_req(schema=B.AnalyzePlanRequest.Schema(plan=plan(sql_rel("SELECT a FROM shared_v")))),
                timeout=30)
    assert [f.name for f in r.schema.schema.struct.fields] == ["a"], r


t.check("a Connect session is the catalyzer.v1 session of the same id", shared_with_catalyzer_v1)


# ---------------------------------------------------------------- AnalyzePlan

def analyze_schema():
    r = analyze(analyze_req(schema=B.AnalyzePlanRequest.Schema(plan=plan(sql_rel(
        "SELECT 1 AS id, 'x' AS s, array(1, 2) AS e, CAST(1.5 AS DECIMAL(5,2)) AS d")))), timeout=30)
    f = r.schema.schema.struct.fields
    assert [x.name for x in f] == ["id", "s", "e", "d"]
    assert f[0].data_type.HasField("integer") and f[1].data_type.HasField("string")
    assert f[2].data_type.array.element_type.HasField("integer")
    assert (f[3].data_type.decimal.precision, f[3].data_type.decimal.scale) == (5, 2)
    assert not f[0].nullable
    assert r.session_id == SID and r.server_side_session_id


t.check("AnalyzePlan schema: a DataType struct with names, types, nullability", analyze_schema)


def timestamp_literal_in_session_zone():
    # the wire holds an instant; Spark prints the literal in the session time zone
    conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(pairs=[
        B.KeyValue(key="spark.sql.session.timeZone", value="America/Los_Angeles")])))
    ts = E.Expression(literal=E.Expression.Literal(timestamp=1677155519808000))  # 2023-02-23T12:31:59.808Z
    rel = R.Relation(project=R.Project(input=sql_rel("SELECT 1 AS one"), expressions=[ts]))
    r = analyze(analyze_req(schema=B.AnalyzePlanRequest.Schema(plan=plan(rel))), timeout=30)
    names = [f.name for f in r.schema.schema.struct.fields]
    assert names == ["TIMESTAMP '2023-02-23 04:31:59.808'"], names
    conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(pairs=[
        B.KeyValue(key="spark.sql.session.timeZone", value="Asia/Kolkata")])))
    r = analyze(analyze_req(schema=B.AnalyzePlanRequest.Schema(plan=plan(rel))), timeout=30)
    names = [f.name for f in r.schema.schema.struct.fields]
    assert names == ["TIMESTAMP '2023-02-23 18:01:59.808'"], names
    conf(B.ConfigRequest.Operation(set=B.ConfigRequest.Set(pairs=[
        B.KeyValue(key="spark.sql.session.timeZone", value="America/Los_Angeles")])))


t.check("a timestamp literal (an instant on the wire) prints in the session time zone", timestamp_literal_in_session_zone)


def analyze_explain():
    p = plan(sql_rel("SELECT 1 AS a"))
    M = B.AnalyzePlanRequest.Explain
    ext = analyze(analyze_req(explain=M(plan=p, explain_mode=M.EXPLAIN_MODE_EXTENDED)), timeout=30).explain.explain_string
    lines = ext.split("\n")
    i = lines.index("== Analyzed Logical Plan ==")
    assert lines[0] == "== Parsed Logical Plan ==" and lines[1] == "'Project [1 AS a#0]" or \
        lines[1].startswith("'Project"), ext
    assert lines[i + 1] == "a: int" and lines[i + 2].startswith("Project [1 AS a#"), ext
    assert "== Optimized Logical Plan ==" in ext and "== Physical Plan ==" in ext and "not produced" in ext, ext
    for mode in (M.EXPLAIN_MODE_SIMPLE, M.EXPLAIN_MODE_CODEGEN, M.EXPLAIN_MODE_COST, M.EXPLAIN_MODE_FORMATTED,
                 M.EXPLAIN_MODE_UNSPECIFIED):
        s = analyze(analyze_req(explain=M(plan=p, explain_mode=mode)), timeout=30).explain.explain_string
        assert "Project [1 AS a#" in s and "not produced" in s, (mode, s)


t.check("AnalyzePlan explain: EXTENDED prints Spark's parsed and analysed sections; every mode answers", analyze_explain)


def analyze_tree_string():
    p = plan(sql_rel("SELECT 1 AS a, named_struct('x', 1, 'y', array('a')) AS s"))
    full = analyze(analyze_req(tree_string=B.AnalyzePlanRequest.TreeString(plan=p)), timeout=30).tree_string.tree_string
    assert full == ("root\n |-- a: integer (nullable = false)\n |-- s: struct (nullable = false)\n"
                    " |    |-- x: integer (nullable = false)\n |    |-- y: array (nullable = false)\n"
                    " |    |    |-- element: string (containsNull = false)\n"), full
    one = analyze(analyze_req(tree_string=B.AnalyzePlanRequest.TreeString(plan=p, level=1)), timeout=30)
    assert one.tree_string.tree_string == "root\n |-- a: integer (nullable = false)\n |-- s: struct (nullable = false)\n"


t.check("AnalyzePlan tree_string, with and without level", analyze_tree_string)


def analyze_flags():
    p = plan(sql_rel("SELECT 1 AS a"))
    assert not analyze(analyze_req(is_local=B.AnalyzePlanRequest.IsLocal(plan=p)), timeout=30).is_local.is_local
    assert not analyze(analyze_req(is_streaming=B.AnalyzePlanRequest.IsStreaming(plan=p)),
                       timeout=30).is_streaming.is_streaming
    assert list(analyze(analyze_req(input_files=B.AnalyzePlanRequest.InputFiles(plan=p)),
                        timeout=30).input_files.files) == []
    v = analyze(analyze_req(spark_version=B.AnalyzePlanRequest.SparkVersion()), timeout=30).spark_version.version
    assert v.startswith("4."), v


t.check("AnalyzePlan is_local, is_streaming, input_files, spark_version", analyze_flags)


def analyze_ddl_json():
    r = analyze(analyze_req(ddl_parse=B.AnalyzePlanRequest.DDLParse(ddl_string="a INT NOT NULL, b ARRAY<STRING>")),
                timeout=30)
    f = r.ddl_parse.parsed.struct.fields
    assert [(x.name, x.nullable) for x in f] == [("a", False), ("b", True)]
    assert f[1].data_type.array.element_type.HasField("string")
    r = analyze(analyze_req(ddl_parse=B.AnalyzePlanRequest.DDLParse(ddl_string="map<string, int>")), timeout=30)
    assert r.ddl_parse.parsed.map.value_type.HasField("integer")
    spark_error(lambda: analyze(analyze_req(ddl_parse=B.AnalyzePlanRequest.DDLParse(ddl_string="a INT,,")),
                                timeout=30), grpc.StatusCode.INTERNAL, "PARSE_SYNTAX_ERROR",
                "org.apache.spark.sql.catalyst.parser.ParseException")
    js = json.dumps({"type": "struct", "fields": [
        {"name": "id", "type": "long", "nullable": False, "metadata": {}},
        {"name": "m", "type": {"type": "map", "keyType": "string", "valueType": "integer", "valueContainsNull": True},
         "nullable": True, "metadata": {}}]})
    r = analyze(analyze_req(json_to_ddl=B.AnalyzePlanRequest.JsonToDDL(json_string=js)), timeout=30)
    assert r.json_to_ddl.ddl_string == "id BIGINT NOT NULL,m MAP<STRING, INT>", r.json_to_ddl.ddl_string


t.check("AnalyzePlan ddl_parse (schema or type; ParseException) and json_to_ddl", analyze_ddl_json)


def analyze_semantics():
    a = plan(sql_rel("SELECT 1 AS a"))
    b = plan(sql_rel("SELECT 1   AS   a"))
    c = plan(sql_rel("SELECT 2 AS a"))
    renamed = plan(sql_rel("SELECT 1 AS other_name"))  # canonicalisation erases alias names
    S = B.AnalyzePlanRequest.SameSemantics
    assert analyze(analyze_req(same_semantics=S(target_plan=a, other_plan=b)), timeout=30).same_semantics.result
    assert analyze(analyze_req(same_semantics=S(target_plan=a, other_plan=renamed)), timeout=30).same_semantics.result
    assert not analyze(analyze_req(same_semantics=S(target_plan=a, other_plan=c)), timeout=30).same_semantics.result
    h = lambda p: analyze(analyze_req(semantic_hash=B.AnalyzePlanRequest.SemanticHash(plan=p)),  # noqa: E731
                          timeout=30).semantic_hash.result
    assert h(a) == h(b) and h(a) == h(renamed) and h(a) != h(c)


t.check("AnalyzePlan same_semantics and semantic_hash", analyze_semantics)


def analyze_persist_refused():
    rel = sql_rel("SELECT 1 AS a")
    for kw in (dict(persist=B.AnalyzePlanRequest.Persist(relation=rel)),
               dict(unpersist=B.AnalyzePlanRequest.Unpersist(relation=rel)),
               dict(get_storage_level=B.AnalyzePlanRequest.GetStorageLevel(relation=rel))):
        spark_error(lambda: analyze(analyze_req(**kw), timeout=30), grpc.StatusCode.UNIMPLEMENTED,
                    reason="java.lang.UnsupportedOperationException")


t.check("AnalyzePlan persist / unpersist / get_storage_level: UNIMPLEMENTED (no data is held)", analyze_persist_refused)


def analysis_error():
    info = spark_error(lambda: analyze(analyze_req(schema=B.AnalyzePlanRequest.Schema(plan=plan(sql_rel(
        "SELECT nope FROM VALUES (1) AS t(a)")))), timeout=30),
        grpc.StatusCode.INTERNAL, "UNRESOLVED_COLUMN.WITH_SUGGESTION",
        "org.apache.spark.sql.catalyst.ExtendedAnalysisException")
    md = info["metadata"]
    assert md["sqlState"] == "42703", md
    assert json.loads(md["messageParameters"]) == {"objectName": "`nope`", "proposal": "`a`"}, md
    assert "org.apache.spark.sql.AnalysisException" in json.loads(md["classes"])
    spark_error(lambda: analyze(analyze_req(schema=B.AnalyzePlanRequest.Schema(plan=plan(sql_rel("SELEC 1")))),
                                timeout=30), grpc.StatusCode.INTERNAL, "PARSE_SYNTAX_ERROR",
                "org.apache.spark.sql.catalyst.parser.ParseException")


t.check("analysis and parse errors: INTERNAL with ErrorInfo (class, SQLSTATE, parameters, classes)", analysis_error)


# ---------------------------------------------------------------- DataFrame columns by plan id

def local(plan_id, schema):
    return R.Relation(common=R.RelationCommon(plan_id=plan_id), local_relation=R.LocalRelation(schema=schema))


def col(name, plan_id=None):
    a = E.Expression.UnresolvedAttribute(unparsed_identifier=name)
    if plan_id is not None:
        a.plan_id = plan_id
    return E.Expression(unresolved_attribute=a)


def fn(name, *args):
    return E.Expression(unresolved_function=E.Expression.UnresolvedFunction(function_name=name, arguments=list(args)))


def analysed(rel):
    r = analyze(analyze_req(explain=B.AnalyzePlanRequest.Explain(
        plan=plan(rel), explain_mode=B.AnalyzePlanRequest.Explain.EXPLAIN_MODE_EXTENDED)), timeout=30)
    text = r.explain.explain_string
    sec = text.split("== Analyzed Logical Plan ==\n", 1)[1].split("\n\n== ", 1)[0]
    return sec.strip().split("\n")[1:]  # the schema line first


def dataframe_columns():
    # df1.join(df2, df1("id") === df2("id")).select(df1("*"), df2("w")): `id` is on both sides
    df1, df2 = local(0, "id INT, v INT"), local(1, "id INT, w INT")
    join = R.Relation(common=R.RelationCommon(plan_id=2), join=R.Join(
        left=df1, right=df2, join_condition=fn("==", col("id", 0), col("id", 1)),
        join_type=R.Join.JOIN_TYPE_INNER))
    star = E.Expression(unresolved_star=E.Expression.UnresolvedStar(plan_id=0))
    rel = R.Relation(common=R.RelationCommon(plan_id=3), project=R.Project(input=join, expressions=[star, col("w", 1)]))
    lines = analysed(rel)
    assert lines == ["Project [id#1, v#2, w#4]", "+- Join Inner, (id#1 = id#3)",
                     "   :- LocalRelation <empty>, [id#1, v#2]", "   +- LocalRelation <empty>, [id#3, w#4]"], lines
    # by name the same condition is ambiguous
    byname = R.Relation(join=R.Join(left=local(0, "id INT, v INT"), right=local(1, "id INT, w INT"),
                                    join_condition=fn("==", col("id"), col("id")), join_type=R.Join.JOIN_TYPE_INNER))
    spark_error(lambda: analysed(byname), grpc.StatusCode.INTERNAL, "AMBIGUOUS_REFERENCE")
    # df.drop(df2("id")) after the join drops the right side's column only
    drop = R.Relation(common=R.RelationCommon(plan_id=4), drop=R.Drop(input=join, columns=[col("id", 1)]))
    assert analysed(drop)[0] == "Project [id#1, v#2, w#4]", analysed(drop)
    # the nearest node with the id wins: df.join(df.filter(v > 5), df("id") === filtered("id"))
    filtered = R.Relation(common=R.RelationCommon(plan_id=1), filter=R.Filter(
        input=local(0, "id INT, v INT"), condition=fn(">", col("v"), E.Expression(literal=E.Expression.Literal(integer=5)))))
    selfj = R.Relation(join=R.Join(left=local(0, "id INT, v INT"), right=filtered,
                                   join_condition=fn("==", col("id", 0), col("id", 1)), join_type=R.Join.JOIN_TYPE_INNER))
    assert analysed(selfj)[0] == "Join Inner, (id#1 = id#3)", analysed(selfj)
    # df.join(df, df("id") === df("id")): both sides are df, at the same depth
    same = R.Relation(join=R.Join(left=local(0, "id INT, v INT"), right=local(0, "id INT, v INT"),
                                  join_condition=fn("==", col("id", 0), col("id", 0)), join_type=R.Join.JOIN_TYPE_INNER))
    info = spark_error(lambda: analysed(same), grpc.StatusCode.INTERNAL, "AMBIGUOUS_COLUMN_REFERENCE")
    assert info["metadata"]["sqlState"] == "42702" and json.loads(info["metadata"]["messageParameters"]) == {
        "name": '"id"'}, info
    # a column of a DataFrame that is not below the operator: df1.union(df2.select(df1("id"), "w"))
    wrong = R.Relation(set_op=R.SetOperation(
        left_input=local(0, "id INT, v INT"), set_op_type=R.SetOperation.SET_OP_TYPE_UNION, is_all=True,
        right_input=R.Relation(common=R.RelationCommon(plan_id=2), project=R.Project(
            input=local(1, "id INT, w INT"), expressions=[col("id", 0), col("w")]))))
    info = spark_error(lambda: analysed(wrong), grpc.StatusCode.INTERNAL, "CANNOT_RESOLVE_DATAFRAME_COLUMN")
    assert info["metadata"]["sqlState"] == "42704", info
    # df.select("id").sort(df("v")): the column comes from below the projection (missing reference)
    srt = R.Relation(sort=R.Sort(input=R.Relation(common=R.RelationCommon(plan_id=1), project=R.Project(
        input=local(0, "id INT, v INT"), expressions=[col("id")])), is_global=True, order=[E.Expression.SortOrder(
            child=col("v", 0), direction=E.Expression.SortOrder.SORT_DIRECTION_ASCENDING,
            null_ordering=E.Expression.SortOrder.SORT_NULLS_FIRST)]))
    assert analysed(srt) == ["Project [id#1]", "+- Sort [v#2 ASC NULLS FIRST], true", "   +- Project [id#1, v#2]",
                             "      +- LocalRelation <empty>, [id#1, v#2]"], analysed(srt)


t.check("DataFrame columns by plan id (df(\"a\"), df[\"*\"]): resolved against their plan's node, drop, "
        "self joins, AMBIGUOUS_COLUMN_REFERENCE, CANNOT_RESOLVE_DATAFRAME_COLUMN", dataframe_columns)


# ---------------------------------------------------------------- bad plans

def bad_plans():
    S = B.AnalyzePlanRequest.Schema
    cases = [
        (R.Relation(), grpc.StatusCode.INVALID_ARGUMENT, "rel_type is not set (at relation)"),
        (R.Relation(filter=R.Filter(input=sql_rel("SELECT 1 AS a"))), grpc.StatusCode.INVALID_ARGUMENT,
         "required expression missing (at relation.filter.condition)"),
        (R.Relation(project=R.Project(input=R.Relation(common=R.RelationCommon(plan_id=1), sql=R.SQL(query="SELECT 1 AS a")),
                                      expressions=[E.Expression(unresolved_attribute=E.Expression.UnresolvedAttribute(
                                          unparsed_identifier="a", plan_id=99))])),
         grpc.StatusCode.INVALID_ARGUMENT, "plan_id 99 matches no relation in the plan"),
        (R.Relation(map_partitions=R.MapPartitions(input=sql_rel("SELECT 1"))), grpc.StatusCode.UNIMPLEMENTED,
         "user code"),
    ]
    L = R.Relation(common=R.RelationCommon(plan_id=1), local_relation=R.LocalRelation(schema="a INT"))
    lit1 = E.Expression(literal=E.Expression.Literal(integer=1))

    def project(*es):
        return R.Relation(project=R.Project(input=L, expressions=list(es)))
    # a field number no Spark Connect relation or expression has (kept by protobuf as an unknown field)
    unknown_rel = R.Relation.FromString(b"\xca\x30\x00")  # field 777, empty
    unknown_expr = E.Expression.FromString(b"\xca\x30\x00")
    sort = R.Sort(input=L, order=[E.Expression.SortOrder(child=lit1)])
    sort.order[0].direction = 9
    cases += [
        (unknown_rel, grpc.StatusCode.INVALID_ARGUMENT, "Relation field 777 is not a Spark Connect relation type (at relation)"),
        (R.Relation(filter=R.Filter(input=unknown_rel, condition=lit1)), grpc.StatusCode.INVALID_ARGUMENT,
         "(at relation.filter.input)"),
        (project(lit1, unknown_expr), grpc.StatusCode.INVALID_ARGUMENT,
         "Expression field 777 is not a Spark Connect expression type (at relation.project.expressions[1])"),
        (R.Relation(unknown=R.Unknown()), grpc.StatusCode.INVALID_ARGUMENT, "Unknown relation not supported."),
        (project(E.Expression()), grpc.StatusCode.INVALID_ARGUMENT,
         "Expression.expr_type is not set (at relation.project.expressions[0])"),
        (project(E.Expression(literal=E.Expression.Literal())), grpc.StatusCode.INVALID_ARGUMENT,
         "literal_type is not set"),
        (project(E.Expression(cast=E.Expression.Cast(expr=lit1))), grpc.StatusCode.INVALID_ARGUMENT,
         "Cast.cast_to_type is not set (at relation.project.expressions[0].cast)"),
        (project(E.Expression(alias=E.Expression.Alias(name=["x"]))), grpc.StatusCode.INVALID_ARGUMENT,
         "(at relation.project.expressions[0].alias.expr)"),
        (R.Relation(join=R.Join(left=L, join_type=R.Join.JOIN_TYPE_INNER)), grpc.StatusCode.INVALID_ARGUMENT,
         "(at relation.join.right)"),
        (R.Relation(sort=sort), grpc.StatusCode.INVALID_ARGUMENT, "unknown enum value 9"),
        (project(E.Expression(unresolved_star=E.Expression.UnresolvedStar(plan_id=42))),
         grpc.StatusCode.INVALID_ARGUMENT, "plan_id 42 matches no relation in the plan"),
        (R.Relation(common=R.RelationCommon(plan_id=-3), local_relation=R.LocalRelation(schema="a INT")),
         grpc.StatusCode.INVALID_ARGUMENT, "plan_id -3 is out of the supported range"),
        (project(E.Expression(unresolved_attribute=E.Expression.UnresolvedAttribute(unparsed_identifier="`a"))),
         grpc.StatusCode.INVALID_ARGUMENT, "unclosed backquote"),
        (R.Relation(local_relation=R.LocalRelation(schema="a INTT")), grpc.StatusCode.INVALID_ARGUMENT,
         "(at relation.local_relation.schema)"),
        (project(*[lit1] * 250000), grpc.StatusCode.INVALID_ARGUMENT, "maximum of"),
    ]
    for rel, code, says in cases:
        spark_error(lambda: analyze(analyze_req(schema=S(plan=plan(rel))), timeout=30), code, contains=says)
        assert analyze(analyze_req(schema=S(plan=plan(sql_rel("SELECT 1 AS a")))), timeout=30).schema, says
    # a negative limit is Spark's analysis error
    spark_error(lambda: analyze(analyze_req(schema=S(plan=plan(R.Relation(limit=R.Limit(input=L, limit=-1))))),
                                timeout=30), grpc.StatusCode.INTERNAL, "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE")
    # an unknown enum number deep in the plan
    j = R.Join(left=sql_rel("SELECT 1"), right=sql_rel("SELECT 2"))
    j.join_type = 77
    spark_error(lambda: analyze(analyze_req(schema=S(plan=plan(R.Relation(join=j)))), timeout=30),
                grpc.StatusCode.INVALID_ARGUMENT, contains="unknown enum value 77")
    # deeper than --max-plan-depth 200
    rel = sql_rel("SELECT 1 AS a")
    for _ in range(300):
        rel = R.Relation(filter=R.Filter(input=rel, condition=E.Expression(literal=E.Expression.Literal(boolean=True))))
    spark_error(lambda: analyze(analyze_req(schema=S(plan=plan(rel))), timeout=30), grpc.StatusCode.INVALID_ARGUMENT,
                contains="depth")
    # a command where a relation is needed
    spark_error(lambda: analyze(analyze_req(schema=S(plan=B.Plan(command=C.Command(sql_command=C.SqlCommand(
        input=sql_rel("SELECT 1")))))), timeout=30), grpc.StatusCode.INVALID_ARGUMENT, contains="plan.root")
    assert d.alive()


t.check("bad plans: INVALID_ARGUMENT naming the field and where; unsupported kinds UNIMPLEMENTED; no crash", bad_plans)


# ---------------------------------------------------------------- ExecutePlan

def execute_command():
    msgs = run_sql("CREATE OR REPLACE TEMPORARY VIEW v1 AS SELECT 1 AS a, 'x' AS b")
    kinds = [m.WhichOneof("response_type") for m in msgs]
    assert kinds == ["sql_command_result", None, "result_complete"], kinds
    assert msgs[1].HasField("metrics"), msgs[1]
    assert msgs[0].sql_command_result.relation.HasField("local_relation"), msgs[0]
    ops = {m.operation_id for m in msgs}
    assert len(ops) == 1 and uuid.UUID(ops.pop()), ops
    assert len({m.response_id for m in msgs}) == 3
    assert all(m.session_id == SID and m.server_side_session_id for m in msgs)
    r = analyze(analyze_req(schema=B.AnalyzePlanRequest.Schema(plan=plan(sql_rel("SELECT * FROM v1")))), timeout=30)
    assert [f.name for f in r.schema.schema.struct.fields] == ["a", "b"]
    # SET, DECLARE, USE run on the session too
    for q in ("SET spark.sql.groupByOrdinal=false", "DECLARE VARIABLE conn_v INT DEFAULT 5",
              "CREATE NAMESPACE IF NOT EXISTS conn_ns", "USE conn_ns"):
        k = [m.WhichOneof("response_type") for m in run_sql(q)]
        assert k[0] == "sql_command_result" and k[-1] == "result_complete", (q, k)
    r = conf(B.ConfigRequest.Operation(get=B.ConfigRequest.Get(keys=["spark.sql.groupByOrdinal"])))
    assert pairs(r) == [("spark.sql.groupByOrdinal", "false")]
    # without reattach options Spark sends no ResultComplete
    k = [m.WhichOneof("response_type") for m in run_sql("SET spark.sql.groupByOrdinal=true", reattachable=False)]
    assert k == ["sql_command_result", None], k


t.check("ExecutePlan SqlCommand: command result, metrics, ResultComplete; the command changes the session",
        execute_command)


def execute_query_and_errors():
    msgs = run_sql("SELECT 1 AS a")
    assert [m.WhichOneof("response_type") for m in msgs] == ["sql_command_result", "result_complete"]
    assert msgs[0].sql_command_result.relation.sql.query == "SELECT 1 AS a", msgs[0]
    spark_error(lambda: run_sql("SELECT * FROM no_such_table"), grpc.StatusCode.INTERNAL, "TABLE_OR_VIEW_NOT_FOUND")
    spark_error(lambda: list(execute(B.ExecutePlanRequest(session_id=SID, user_context=USER,
                                                          plan=plan(sql_rel("SELECT 1 AS a"))), timeout=30)),
                grpc.StatusCode.UNIMPLEMENTED, contains="does not execute")
    spark_error(lambda: run_sql("SELECT 1", operation_id="op-1"), grpc.StatusCode.INTERNAL, "INVALID_HANDLE.FORMAT")
    spark_error(lambda: list(execute(B.ExecutePlanRequest(session_id=SID, user_context=USER, plan=B.Plan(
        command=C.Command(write_operation=C.WriteOperation(input=sql_rel("SELECT 1"))))), timeout=30)),
        grpc.StatusCode.UNIMPLEMENTED, contains="write_operation")
    op = str(uuid.uuid4())
    msgs = run_sql("SELECT 2", operation_id=op)
    assert all(m.operation_id == op for m in msgs)
    r = release_execute(B.ReleaseExecuteRequest(session_id=SID, user_context=USER, operation_id=op,
                                                release_all=B.ReleaseExecuteRequest.ReleaseAll()), timeout=30)
    assert r.operation_id == op and r.server_side_session_id


t.check("ExecutePlan: a query in SqlCommand is handed back, not run; a query root is UNIMPLEMENTED; errors; "
        "ReleaseExecute", execute_query_and_errors)


def release():
    sid = str(uuid.uuid4())
    run_sql("CREATE TEMPORARY VIEW gone AS SELECT 1 AS a", sid=sid)
    before = analyze(analyze_req(sid=sid, spark_version=B.AnalyzePlanRequest.SparkVersion()), timeout=30)
    r = release_session(B.ReleaseSessionRequest(session_id=sid, user_context=USER), timeout=30)
    assert r.session_id == sid and r.server_side_session_id == before.server_side_session_id
    spark_error(lambda: analyze(analyze_req(sid=sid, schema=B.AnalyzePlanRequest.Schema(
        plan=plan(sql_rel("SELECT * FROM gone")))), timeout=30), grpc.StatusCode.INTERNAL, "TABLE_OR_VIEW_NOT_FOUND")
    # releasing a session that does not exist is a no-op, as in Spark
    r = release_session(B.ReleaseSessionRequest(session_id=str(uuid.uuid4()), user_context=USER), timeout=30)
    assert r.session_id


t.check("ReleaseSession drops the session (its views are gone); a missing session is a no-op", release)


def catalyzer_v1_rich_status():
    # catalyzer.v1 errors carry the same google.rpc.Status details
    bad = b"\x1a\x00"  # AnalyzeRequest.plan = Relation{} (no relation type)
    e = rpc_error(lambda: ch.unary_stream("/catalyzer.v1.Analyzer/Analyze", request_serializer=lambda b: b,
                                          response_deserializer=lambda b: b)(bad, timeout=30).__next__())
    assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e
    st = error_info(e)
    (_, info), = st["details"]
    assert info["reason"] == "org.apache.spark.sql.connect.common.InvalidPlanInput", info


t.check("catalyzer.v1 failures carry the same rich status", catalyzer_v1_rich_status)

t.ok(d.alive(), "daemon alive after everything")
ch.close()
d.stop()
t.done()
