#!/usr/bin/env python3
"""Every kind of bad input of issue 6 item 4 against the gRPC port — garbage
bytes, truncated frames, wrong content-type, oversize, deeply nested plans,
too many nodes, unknown enum values, invalid UTF-8, HTTP/2 protocol abuse —
each must get a clear error for that call (or that connection), and each is
followed by a good call that must succeed on the same daemon."""
import collections
import shutil
import socket
import struct
import threading
import time

from daemon import (Client, Daemon, RawH2, Tap, connect_stubs, frame, grpc, grpc_headers, grpc_msg, hpack, load_stubs, nghttp,
                    skip_all)

if grpc is None:
    skip_all("python3-grpcio not importable (use Debian's /usr/bin/python3)")
if not shutil.which("nghttp"):
    skip_all("nghttp (nghttp2-client) not installed")

pb, hpb = load_stubs()
cx = connect_stubs()
t = Tap()
d = Daemon("--max-plan-depth", "1000", "--max-plan-nodes", "200000")
c = Client(d.grpc_addr, pb, hpb)
ANALYZE = "/catalyzer.v1.Analyzer/Analyze"


def varint(n):
    out = b""
    while n >= 0x80:
        out += bytes([(n & 0x7F) | 0x80])
        n >>= 7
    return out + bytes([n])


def nested_plan_request(depth):
    """AnalyzeRequest{plan: Project(Project(...(SQL "SELECT 1")))} (Spark
    Connect relations) built as wire bytes without recursion (Python's
    protobuf would recurse too)."""
    inner = b"\x52\x0a\x0a\x08SELECT 1"  # Relation.sql (field 10) = {query: "SELECT 1"}
    length = len(inner)
    prefixes = []
    for _ in range(depth):
        proj = b"\x0a" + varint(length)            # Project.input (1)
        length += len(proj)
        rel = b"\x1a" + varint(length)             # Relation.project (3)
        length += len(rel)
        prefixes.append(rel + proj)
    body = b"".join(reversed(prefixes)) + inner
    # AnalyzeRequest.plan (3); omit_resolved_plan (9): clients' parsers stop at ~100 levels
    return b"\x1a" + varint(len(body)) + body + b"\x48\x01"


def expect_code(fn, code, contains=None):
    try:
        fn()
    except grpc.RpcError as e:
        assert e.code() == code, (e.code(), e.details())
        if contains:
            assert contains in (e.details() or ""), e.details()
        return True
    raise AssertionError("expected %s" % code)


def then_good(fn):
    def run():
        r = fn()
        if r is False:
            return False
        assert d.alive(), "daemon died"
        return c.good_call()
    return run


CASES = []


def case(name):
    def deco(fn):
        CASES.append((name, fn))
        return fn
    return deco


@case("garbage bytes instead of the HTTP/2 preface close that connection")
def garbage_preface():
    h = RawH2(d.grpc_port, preface=False)
    h.send(b"\x16\x03\x01garbage garbage garbage\r\n\r\n" * 10)
    frames = h.read_frames(timeout=5)
    h.close()
    assert all(f[0] != 1 for f in frames), "no response headers on garbage"


@case("garbage protobuf bytes → INVALID_ARGUMENT")
def garbage_proto():
    return expect_code(lambda: list(c.analyze(b"\xff\xff\xff\xff\x0f\x01", timeout=10)),
                       grpc.StatusCode.INVALID_ARGUMENT)


@case("truncated gRPC frame → INTERNAL")
def truncated():
    hdrs, _ = nghttp(d.grpc_port, ANALYZE, data=b"\x00\x00\x00\x00\x64abc",
                     headers=[("content-type", "application/grpc"), ("te", "trailers")])
    assert hdrs.get("grpc-status") == "13", hdrs
    assert "truncated" in hdrs.get("grpc-message", ""), hdrs


@case("empty request body → INTERNAL (missing message)")
def empty_body():
    hdrs, _ = nghttp(d.grpc_port, ANALYZE, data=b"", headers=[("content-type", "application/grpc")])
    assert hdrs.get("grpc-status") == "13", hdrs


@case("two messages on a unary call → UNIMPLEMENTED")
def two_messages():
    m = grpc_msg(pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1")).SerializeToString())
    hdrs, _ = nghttp(d.grpc_port, "/catalyzer.v1.Analyzer/Execute", data=m + m,
                     headers=[("content-type", "application/grpc")])
    assert hdrs.get("grpc-status") == "12", hdrs


@case("compressed flag without an encoding → INTERNAL (gRPC's doc/compression.md; test_compression.py has the rest)")
def compressed():
    hdrs, _ = nghttp(d.grpc_port, ANALYZE, data=b"\x01\x00\x00\x00\x02ab", headers=[("content-type", "application/grpc")])
    assert hdrs.get("grpc-status") == "13", hdrs


@case("wrong content-type → HTTP 415")
def wrong_ct():
    hdrs, _ = nghttp(d.grpc_port, ANALYZE, data=grpc_msg(b""), headers=[("content-type", "text/plain")])
    assert hdrs.get(":status") == "415", hdrs


@case("malformed grpc-timeout → INVALID_ARGUMENT")
def bad_timeout():
    hdrs, _ = nghttp(d.grpc_port, ANALYZE, data=grpc_msg(b""),
                     headers=[("content-type", "application/grpc"), ("grpc-timeout", "10years")])
    assert hdrs.get("grpc-status") == "3", hdrs


@case("oversize message (5 MiB > 4 MiB) → RESOURCE_EXHAUSTED")
def oversize():
    q = "SELECT '" + "x" * (5 << 20) + "'"
    return expect_code(lambda: list(c.analyze(pb.AnalyzeRequest(sql=pb.SqlQuery(query=q)), timeout=30)),
                       grpc.StatusCode.RESOURCE_EXHAUSTED)


@case("plan nested 100000 deep → INVALID_ARGUMENT before unpacking")
def deep():
    return expect_code(lambda: list(c.analyze(nested_plan_request(100000), timeout=30)),
                       grpc.StatusCode.INVALID_ARGUMENT, "depth")


@case("plan nested 900 deep (under the limit) is analysed without a crash")
def deep_ok():
    try:
        msgs = list(c.analyze(nested_plan_request(900), timeout=60))
        assert msgs[-1].WhichOneof("kind") == "result"
    except grpc.RpcError as e:  # a clear error is acceptable too, a crash is not
        assert e.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED), e


@case("a plan with too many nodes → INVALID_ARGUMENT")
def too_many_nodes():
    E = cx.expr.Expression
    lit = E(literal=E.Literal(integer=1))
    rel = cx.rel.Relation(project=cx.rel.Project(expressions=[lit] * 250000))
    return expect_code(lambda: list(c.analyze(pb.AnalyzeRequest(plan=rel), timeout=60)),
                       grpc.StatusCode.INVALID_ARGUMENT, "nodes")


@case("unknown enum value (trace_level = 99) → INVALID_ARGUMENT")
def unknown_enum():
    req = pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1"))
    req.trace_level = 99
    return expect_code(lambda: list(c.analyze(req, timeout=10)), grpc.StatusCode.INVALID_ARGUMENT, "enum")


@case("unknown enum value deep in a plan (join_type = 42) → INVALID_ARGUMENT")
def unknown_enum_nested():
    one = cx.rel.Relation(sql=cx.rel.SQL(query="SELECT 1"))
    j = cx.rel.Join(left=one, right=one)
    j.join_type = 42
    return expect_code(lambda: list(c.analyze(pb.AnalyzeRequest(plan=cx.rel.Relation(join=j)), timeout=10)),
                       grpc.StatusCode.INVALID_ARGUMENT, "unknown enum value 42")


@case("invalid UTF-8 in a string field → INVALID_ARGUMENT")
def bad_utf8():
    q = b"SELECT '\xff\xfe'"
    sqlq = b"\x0a" + varint(len(q)) + q
    raw = b"\x12" + varint(len(sqlq)) + sqlq  # AnalyzeRequest.sql (2) { query (1) }
    return expect_code(lambda: list(c.analyze(raw, timeout=10)), grpc.StatusCode.INVALID_ARGUMENT, "UTF-8")


@case("wire type for groups → INVALID_ARGUMENT")
def groups():
    return expect_code(lambda: list(c.analyze(b"\x0b\x0c", timeout=10)), grpc.StatusCode.INVALID_ARGUMENT)


@case("a catalog with an unknown column type → INVALID_ARGUMENT")
def bad_catalog():
    cat = pb.Catalog(tables=[pb.Table(name="t", columns=[pb.Column(name="x", type="intt")])])
    return expect_code(lambda: list(c.analyze(pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1"), catalog=cat),
                                              timeout=10)), grpc.StatusCode.INVALID_ARGUMENT, "t")


@case("a bad configuration value → INVALID_ARGUMENT")
def bad_conf():
    req = pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1"))
    req.conf["spark.sql.ansi.enabled"] = "maybe"
    return expect_code(lambda: list(c.analyze(req, timeout=10)), grpc.StatusCode.INVALID_ARGUMENT, "spark.sql.ansi.enabled")


@case("an empty Execute script → INVALID_ARGUMENT")
def empty_script():
    return expect_code(lambda: c.execute(pb.ExecuteRequest(sql="  ;  "), timeout=10), grpc.StatusCode.INVALID_ARGUMENT)


@case("HTTP/2: DATA on stream 0 → GOAWAY")
def data_stream0():
    h = RawH2(d.grpc_port)
    h.send(frame(0, 0, 0, b"hello"))
    frames = h.read_frames(timeout=5)
    h.close()
    assert any(f[0] == 7 for f in frames), frames


@case("HTTP/2: header list over the advertised limit → stream reset")
def big_headers():
    h = RawH2(d.grpc_port)
    hdrs = grpc_headers(ANALYZE, extra=[("x-big", "v" * 40000)])
    block = hpack(hdrs)
    # HEADERS without END_HEADERS, then CONTINUATIONs of at most 16 KiB
    chunks = [block[i:i + 16000] for i in range(0, len(block), 16000)]
    out = frame(1, 0x1 if len(chunks) == 1 else 0x0, 1, chunks[0])
    for k, ch in enumerate(chunks[1:]):
        out += frame(9, 0x4 if k == len(chunks) - 2 else 0, 1, ch)
    h.send(out)
    frames = h.read_frames(until_stream_end=1, timeout=5)
    h.close()
    assert any(f[0] in (3, 7) for f in frames) or not any(f[0] == 1 for f in frames), frames


@case("HTTP/2: PING flood without reading → connection dropped")
def ping_flood():
    h = RawH2(d.grpc_port)
    ping = frame(6, 0, 0, b"12345678")
    try:
        h.s.settimeout(5)
        for _ in range(50):
            h.send(ping * 2000)
    except OSError:
        pass
    frames = h.read_frames(timeout=3)
    h.close()
    assert any(f[0] == 7 for f in frames) or len(frames) < 100000, len(frames)


@case("HTTP/2: rapid reset (open and RST_STREAM thousands of streams) → GOAWAY")
def rapid_reset():
    h = RawH2(d.grpc_port)
    block = hpack(grpc_headers(ANALYZE))
    out = b""
    for i in range(2000):
        sid = 1 + 2 * i
        out += frame(1, 0x4, sid, block) + frame(3, 0, sid, struct.pack(">I", 8))
    try:
        h.send(out)
    except OSError:
        pass
    frames = h.read_frames(timeout=5)
    h.close()
    assert any(f[0] == 7 for f in frames), [f[0] for f in frames][:20]


@case("HTTP/2: CONTINUATION flood → GOAWAY")
def continuation_flood():
    h = RawH2(d.grpc_port)
    out = frame(1, 0x0, 1, hpack(grpc_headers(ANALYZE)))
    for i in range(100):
        out += frame(9, 0, 1, hpack([("x-h%d" % i, "v")]))
    try:
        h.send(out)
    except OSError:
        pass
    frames = h.read_frames(timeout=5)
    h.close()
    assert any(f[0] == 7 for f in frames) or h.closed, [f[0] for f in frames][:20]


@case("HTTP/2: more concurrent streams than advertised → refused")
def too_many_streams():
    h = RawH2(d.grpc_port)
    h.read_frames(timeout=0.5)
    block = hpack(grpc_headers("/grpc.health.v1.Health/Watch"))
    msg = grpc_msg(b"")
    out = b""
    for i in range(150):
        sid = 1 + 2 * i
        out += frame(1, 0x4, sid, block) + frame(0, 0, sid, msg)  # Watch streams stay open
    h.send(out)
    frames = h.read_frames(timeout=3)
    h.close()
    assert any(f[0] == 3 or f[0] == 7 for f in frames), [f[0] for f in frames][:40]


@case("HTTP/2: GET instead of POST → 405")
def get_method():
    h = RawH2(d.grpc_port)
    hdrs = [(":method", "GET"), (":scheme", "http"), (":path", ANALYZE), (":authority", "x")]
    h.send(frame(1, 0x5, 1, hpack(hdrs)))
    frames = h.read_frames(until_stream_end=1, timeout=5)
    h.close()
    assert any(f[0] == 1 and f[2] == 1 for f in frames), frames


@case("client disconnects mid-request")
def disconnect():
    h = RawH2(d.grpc_port)
    h.send(frame(1, 0x4, 1, hpack(grpc_headers(ANALYZE))) + frame(0, 0, 1, b"\x00\x00\x00\x10\x00abc"))
    h.close()
    time.sleep(0.2)


for name, fn in CASES:
    t.check(name + "; then a good call succeeds", then_good(fn))


def concurrent_garbage():
    errs = []

    def noise():
        for _ in range(20):
            try:
                list(c.analyze(b"\x12\x05\x0a\x03\xff\xff\xff", timeout=10))
            except grpc.RpcError:
                pass

    def good():
        for _ in range(20):
            try:
                c.good_call()
            except Exception as e:  # noqa: BLE001
                errs.append(e)

    th = [threading.Thread(target=noise) for _ in range(4)] + [threading.Thread(target=good) for _ in range(4)]
    [x.start() for x in th]
    [x.join() for x in th]
    assert not errs, errs[:2]


t.check("bad and good calls interleaved concurrently: good ones all succeed", concurrent_garbage)

def mutations():
    """Random byte mutations of a valid plan request: each gets some answer, none crashes the daemon."""
    import random
    rnd = random.Random(6)
    E, R, T = cx.expr.Expression, cx.rel, cx.types
    rel = R.Relation(
        common=R.RelationCommon(plan_id=1),
        sort=R.Sort(is_global=True, order=[E.SortOrder(child=E(unresolved_attribute=E.UnresolvedAttribute(
            unparsed_identifier="x")), direction=E.SortOrder.SORT_DIRECTION_ASCENDING)], input=R.Relation(
                aggregate=R.Aggregate(
                    group_type=R.Aggregate.GROUP_TYPE_GROUPBY,
                    grouping_expressions=[E(unresolved_attribute=E.UnresolvedAttribute(unparsed_identifier="x"))],
                    aggregate_expressions=[E(alias=E.Alias(name=["n"], expr=E(unresolved_function=E.UnresolvedFunction(
                        function_name="count", arguments=[E(literal=E.Literal(long=1))]))))],
                    input=R.Relation(join=R.Join(
                        left=R.Relation(read=R.Read(named_table=R.Read.NamedTable(unparsed_identifier="t"))),
                        right=R.Relation(sql=R.SQL(query="SELECT 1.50 AS y")),
                        join_type=R.Join.JOIN_TYPE_INNER,
                        join_condition=E(cast=E.Cast(expr=E(literal=E.Literal(string="true")),
                                                     type=T.DataType(boolean=T.DataType.Boolean())))))))))
    cat = pb.Catalog(tables=[pb.Table(name="t", columns=[pb.Column(name="x", type="int")])])
    good = pb.AnalyzeRequest(plan=rel, catalog=cat, trace_level=pb.TRACE_LEVEL_ALL).SerializeToString()
    r = list(c.analyze(good, timeout=10))[-1].result
    assert r.ok, r.error
    codes = collections.Counter()
    for i in range(400):
        b = bytearray(good)
        for _ in range(rnd.randint(1, 4)):
            k = rnd.randrange(len(b))
            op = rnd.randrange(3)
            if op == 0:
                b[k] = rnd.randrange(256)
            elif op == 1:
                del b[k]
            else:
                b.insert(k, rnd.randrange(256))
        try:
            list(c.analyze(bytes(b), timeout=10))
            codes["OK"] += 1
        except grpc.RpcError as e:
            codes[e.code().name] += 1
    assert d.alive(), "daemon died"
    # a mutation may also turn a field into one Catalyzer does not decode (UNIMPLEMENTED)
    assert set(codes) <= {"OK", "INVALID_ARGUMENT", "UNIMPLEMENTED"}, codes
    print("# mutation outcomes: %s" % dict(codes))


t.check("400 random mutations of a valid plan request: OK, INVALID_ARGUMENT or UNIMPLEMENTED, never a crash; "
        "then a good call",
        then_good(mutations))


def session_limit():
    d2 = Daemon("--max-sessions", "2", "--log-level", "warn")
    c2 = Client(d2.grpc_addr, pb, hpb)
    for sid in ("a", "b"):
        c2.execute(pb.ExecuteRequest(session_id=sid, sql="SELECT 1"), timeout=10)
    try:
        c2.execute(pb.ExecuteRequest(session_id="c", sql="SELECT 1"), timeout=10)
        raise AssertionError("a third session must be refused")
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, e.code()
    c2.drop(pb.DropSessionRequest(session_id="a"), timeout=10)
    c2.execute(pb.ExecuteRequest(session_id="c", sql="SELECT 1"), timeout=10)  # room again
    c2.good_call()  # stateless calls are not limited
    c2.close()
    assert d2.stop() == 0


t.check("--max-sessions: one more session is RESOURCE_EXHAUSTED; dropping one makes room", session_limit)


def slowloris():
    d2 = Daemon("--idle-timeout-seconds", "1", "--log-level", "warn")
    a = socket.create_connection(("127.0.0.1", d2.http_port), timeout=10)
    a.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Le")  # never finished
    b = socket.create_connection(("127.0.0.1", d2.grpc_port), timeout=10)  # never says anything
    time.sleep(2.5)
    a.settimeout(5)
    b.settimeout(5)
    ra = a.recv(100)
    rb = b""
    try:
        while True:
            chunk = b.recv(65536)
            if not chunk:
                break
            rb += chunk
    except OSError:
        pass
    a.close()
    b.close()
    c2 = Client(d2.grpc_addr, pb, hpb)
    c2.good_call()
    c2.close()
    assert d2.stop() == 0
    assert ra == b"", ra
    return True


t.check("idle or half-sent connections are closed after --idle-timeout-seconds; the daemon keeps serving", slowloris)

t.ok(d.alive(), "daemon alive after every bad input")
c.close()
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0", d.log()[-2000:])
t.ok("ERROR: LeakSanitizer" not in d.log() and "runtime error" not in d.log() and "AddressSanitizer" not in d.log(),
     "no sanitizer reports (leaks, overflows, UB)", d.log()[-4000:])
t.done()
