#!/usr/bin/env python3
"""gRPC server reflection (issue 16): grpc.reflection.v1 and v1alpha
ServerReflection on the live daemon, asked the way grpcio's reflection client
asks it.

Debian packages grpcio (python3-grpcio) but not grpcio-reflection, so the
client side here is written from the reflection proto: protoc --python_out
generates its messages from upstream's reflection.proto (Debian's grpc-proto,
/usr/share/grpc-proto; the project's copy in proto/grpc/reflection is checked
against it, and so is proto/health.proto), grpcio's generic stream_stream
carries them, and
ReflectionDatabase is grpcio-reflection's ProtoReflectionDescriptorDatabase
re-done: a google.protobuf DescriptorDatabase that a DescriptorPool asks for
files by name and by symbol, as grpcurl or Postman do. From the reflected
descriptors alone the test builds AnalyzeRequest and calls Analyze.

No fixed ports (the daemon binds port 0), no sleeps that assume a speed: every
wait is for an event, with timeouts generous enough for a loaded machine."""
import importlib.util
import os
import queue
import signal
import struct
import subprocess
import tempfile
import threading
import time
import urllib.request

from daemon import Daemon, RawH2, Tap, frame, grpc, grpc_headers, grpc_msg, hpack, skip_all, SOURCE

if grpc is None:
    skip_all("python3-grpcio not installed")

from google.protobuf import descriptor_pb2, descriptor_pool  # noqa: E402
from google.protobuf import descriptor_database  # noqa: E402
from google.protobuf import message_factory  # noqa: E402

PROTO = os.path.join(SOURCE, "proto")
GEN = tempfile.mkdtemp(prefix="cz-refl-")
TIMEOUT = 60  # per call: generous under load


# gRPC's own protos as Debian ships them (grpc-proto): the client is generated
# from upstream's reflection.proto, not from the project's copy, and the copy
# is checked against it below.
UPSTREAM = "/usr/share/grpc-proto"
CLIENT_PROTO = UPSTREAM if os.path.exists(os.path.join(UPSTREAM, "grpc/reflection/v1/reflection.proto")) else PROTO


def load_reflection(version):
    """reflection_pb2 of grpc.reflection.<version>, imported from its file
    (the package path grpc/ would shadow grpcio's own grpc module)."""
    rel = "grpc/reflection/%s/reflection.proto" % version
    out = os.path.join(GEN, "client")
    os.makedirs(out, exist_ok=True)
    subprocess.run(["protoc", "--proto_path=" + CLIENT_PROTO, "--python_out=" + out, rel], check=True)
    path = os.path.join(out, "grpc", "reflection", version, "reflection_pb2.py")
    spec = importlib.util.spec_from_file_location("cz_reflection_%s_pb2" % version, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


R = {"v1": load_reflection("v1"), "v1alpha": load_reflection("v1alpha")}
SERVICES = {"catalyzer.v1.Analyzer", "spark.connect.SparkConnectService", "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"}


def message_class(pool, name):
    desc = pool.FindMessageTypeByName(name)
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(desc)
    return message_factory.MessageFactory(pool).GetPrototype(desc)


class Reflection:
    """One ServerReflectionInfo method of one version, on a channel."""

    def __init__(self, channel, version="v1", metadata=None, compression=None):
        self.pb = R[version]
        self.metadata = metadata
        self.compression = compression
        self.rpc = channel.stream_stream("/grpc.reflection.%s.ServerReflection/ServerReflectionInfo" % version,
                                         request_serializer=self.pb.ServerReflectionRequest.SerializeToString,
                                         response_deserializer=self.pb.ServerReflectionResponse.FromString)

    def req(self, **kw):
        return self.pb.ServerReflectionRequest(**kw)

    def ask(self, *reqs, timeout=TIMEOUT):
        """The requests on one stream, half-closed after the last: the responses."""
        return list(self.rpc(iter(reqs), timeout=timeout, metadata=self.metadata, compression=self.compression))

    def one(self, **kw):
        """grpcio-reflection's way: one request per stream."""
        out = self.ask(self.req(**kw))
        assert len(out) == 1, out
        return out[0]


class ReflectionDatabase(descriptor_database.DescriptorDatabase):
    """grpcio-reflection's ProtoReflectionDescriptorDatabase, from the proto:
    a pool's misses become file_by_filename / file_containing_symbol calls, and
    every FileDescriptorProto a response carries is added."""

    def __init__(self, refl):
        super().__init__()
        self.refl = refl
        self.known = set()
        self.calls = 0

    def _add(self, response):
        kind = response.WhichOneof("message_response")
        if kind != "file_descriptor_response":
            raise KeyError(str(response.error_response))
        for raw in response.file_descriptor_response.file_descriptor_proto:
            fd = descriptor_pb2.FileDescriptorProto.FromString(raw)
            if fd.name not in self.known:
                self.known.add(fd.name)
                super().Add(fd)

    def FindFileByName(self, name):
        if name not in self.known:
            self.calls += 1
            self._add(self.refl.one(file_by_filename=name))
        return super().FindFileByName(name)

    def FindFileContainingSymbol(self, symbol):
        try:
            return super().FindFileContainingSymbol(symbol)
        except KeyError:
            self.calls += 1
            self._add(self.refl.one(file_containing_symbol=symbol))
            return super().FindFileContainingSymbol(symbol)

    def get_services(self):
        r = self.refl.one(list_services="")
        return [s.name for s in r.list_services_response.service]


t = Tap()


def descriptor(root, rel):
    out = os.path.join(GEN, "one.pb")
    subprocess.run(["protoc", "--proto_path=" + root, "--descriptor_set_out=" + out, rel], check=True)
    return descriptor_pb2.FileDescriptorSet.FromString(open(out, "rb").read()).file[0]


def shape(fd):
    """What the wire and the stubs depend on: messages (fields by number, with
    names, types, labels, oneofs), enums, services (methods, streaming)."""
    def msg(m):
        return (m.name, sorted((f.number, f.name, f.type, f.label, f.type_name.rsplit(".", 1)[-1],
                                f.HasField("oneof_index") and m.oneof_decl[f.oneof_index].name) for f in m.field),
                sorted(msg(n) for n in m.nested_type), sorted(enum(e) for e in m.enum_type))

    def enum(e):
        return (e.name, sorted((v.number, v.name) for v in e.value))
    return (fd.package, sorted(msg(m) for m in fd.message_type), sorted(enum(e) for e in fd.enum_type),
            sorted((sv.name, sorted((x.name, x.input_type.rsplit(".", 1)[-1], x.output_type.rsplit(".", 1)[-1],
                                     x.client_streaming, x.server_streaming) for x in sv.method)) for sv in fd.service))


def upstream_parity():
    assert CLIENT_PROTO == UPSTREAM, "Debian's grpc-proto is missing (scripts/install-deps.sh installs it)"
    for mine, theirs in (("grpc/reflection/v1/reflection.proto", "grpc/reflection/v1/reflection.proto"),
                         ("grpc/reflection/v1alpha/reflection.proto", "grpc/reflection/v1alpha/reflection.proto"),
                         ("health.proto", "grpc/health/v1/health.proto")):
        a, b = shape(descriptor(PROTO, mine)), shape(descriptor(UPSTREAM, theirs))
        assert a == b, (mine, a, b)
    return True


t.check("the project's reflection (v1, v1alpha) and health protos have upstream's shape (Debian's grpc-proto): "
        "messages, field numbers, types, oneofs, services", upstream_parity)
d = Daemon()
ch = grpc.insecure_channel(d.grpc_addr)


def fetch_metrics():
    return urllib.request.urlopen("http://127.0.0.1:%d/metrics" % d.http_port, timeout=TIMEOUT).read().decode()


# ---------------------------------------------------------------- list_services, both versions
for v in ("v1", "v1alpha"):
    def list_services(v=v):
        r = Reflection(ch, v).one(host="localhost", list_services="*")
        names = [s.name for s in r.list_services_response.service]
        assert set(names) == SERVICES and len(names) == len(SERVICES), names
        assert r.valid_host == "localhost" and r.original_request.list_services == "*", r
    t.check("grpc.reflection.%s: list_services names the five served services" % v, list_services)


# ---------------------------------------------------------------- a pool fed by reflection (grpcio-reflection's client)
def pool_from_reflection():
    db = ReflectionDatabase(Reflection(ch, "v1"))
    pool = descriptor_pool.DescriptorPool(db)
    return db, pool


def services_resolve():
    db, pool = pool_from_reflection()
    assert set(db.get_services()) == SERVICES
    want = {
        "catalyzer.v1.Analyzer": {"Analyze": (False, True), "Execute": (False, False), "RegisterCatalog": (False, False),
                                  "DropSession": (False, False), "ListFunctions": (False, False),
                                  "InvalidateTable": (False, False)},
        "spark.connect.SparkConnectService": {"ExecutePlan": (False, True), "AnalyzePlan": (False, False),
                                              "Config": (False, False), "ReleaseExecute": (False, False),
                                              "ReleaseSession": (False, False)},
        "grpc.health.v1.Health": {"Check": (False, False), "Watch": (False, True)},
        "grpc.reflection.v1.ServerReflection": {"ServerReflectionInfo": (True, True)},
        "grpc.reflection.v1alpha.ServerReflection": {"ServerReflectionInfo": (True, True)},
    }
    for name, methods in want.items():
        svc = pool.FindServiceByName(name)
        got = {m.name for m in svc.methods}
        assert got == set(methods), (name, got)
        # streaming flags from the FileDescriptorProto (MethodDescriptor lacks them in older protobuf)
        fdp = descriptor_pb2.FileDescriptorProto()
        svc.file.CopyToProto(fdp)
        sp = [s for s in fdp.service if s.name == svc.name][0]
        for m in sp.method:
            assert (m.client_streaming, m.server_streaming) == methods[m.name], (name, m)
        for m in svc.methods:  # every input and output type resolves, through the imports
            assert m.input_type.fields is not None and m.output_type.full_name, m.full_name
    an = pool.FindMethodByName("catalyzer.v1.Analyzer.Analyze")
    assert an.input_type.full_name == "catalyzer.v1.AnalyzeRequest", an.input_type.full_name
    assert an.output_type.full_name == "catalyzer.v1.AnalyzeResponse"
    assert pool.FindMessageTypeByName("spark.connect.Relation").fields_by_name["read"]
    assert db.calls >= 2, db.calls
    return True


t.check("a DescriptorPool over a reflection database (grpcio-reflection's client) resolves every served service, "
        "its methods, streaming flags and message types", services_resolve)


def dynamic_call():
    """What grpcurl does: the request built from reflected descriptors only."""
    _, pool = pool_from_reflection()
    Req = message_class(pool, "catalyzer.v1.AnalyzeRequest")
    Resp = message_class(pool, "catalyzer.v1.AnalyzeResponse")
    req = Req()
    req.sql.query = "SELECT 1 AS a, 'x' AS b"
    call = ch.unary_stream("/catalyzer.v1.Analyzer/Analyze", request_serializer=Req.SerializeToString,
                           response_deserializer=Resp.FromString)
    msgs = list(call(req, timeout=TIMEOUT))
    r = msgs[-1].result
    assert r.ok and r.schema == "struct<a:int,b:string>", msgs[-1]
    Hc = message_class(pool, "grpc.health.v1.HealthCheckRequest")
    Hr = message_class(pool, "grpc.health.v1.HealthCheckResponse")
    h = ch.unary_unary("/grpc.health.v1.Health/Check", request_serializer=Hc.SerializeToString,
                       response_deserializer=Hr.FromString)(Hc(service="catalyzer.v1.Analyzer"), timeout=TIMEOUT)
    assert Hr.DESCRIPTOR.enum_values_by_name["SERVING"].number == h.status == 1, h
    return True


t.check("a call built from the reflected descriptors alone: Analyze answers struct<a:int,b:string>; Health.Check "
        "SERVING", dynamic_call)


def same_as_protoc():
    """The served descriptors are protoc's own for the project's protos."""
    out = os.path.join(GEN, "set.pb")
    subprocess.run(["protoc", "--proto_path=" + PROTO, "--include_imports", "--descriptor_set_out=" + out,
                    "catalyzer.proto", "health.proto", "spark/connect/base.proto"], check=True)
    fds = descriptor_pb2.FileDescriptorSet.FromString(open(out, "rb").read())
    mine = {f.name: f for f in fds.file}
    refl = Reflection(ch, "v1")
    for name in ("catalyzer.proto", "health.proto", "spark/connect/base.proto", "spark/connect/relations.proto"):
        r = refl.one(file_by_filename=name)
        got = [descriptor_pb2.FileDescriptorProto.FromString(b) for b in r.file_descriptor_response.file_descriptor_proto]
        assert got[0].name == name, (name, got[0].name)
        for fd in got:  # the file first, then its transitive imports, each once
            assert fd == mine[fd.name], fd.name
        assert len({fd.name for fd in got}) == len(got)
        deps = set()
        stack = [name]
        while stack:
            for dep in mine[stack.pop()].dependency:
                if dep not in deps:
                    deps.add(dep)
                    stack.append(dep)
        assert {fd.name for fd in got[1:]} == deps, (name, [fd.name for fd in got])
    return True


t.check("file_by_filename: protoc's FileDescriptorProto for the file, then its transitive imports once each",
        same_as_protoc)


def symbols():
    refl = Reflection(ch, "v1alpha")
    cases = {
        "catalyzer.v1.Analyzer": "catalyzer.proto",
        "catalyzer.v1.Analyzer.Execute": "catalyzer.proto",
        "catalyzer.v1.AnalyzeRequest": "catalyzer.proto",
        "catalyzer.v1.AnalyzeRequest.session_id": "catalyzer.proto",
        "grpc.health.v1.HealthCheckResponse.ServingStatus": "health.proto",
        "spark.connect.SparkConnectService.ExecutePlan": "spark/connect/base.proto",
        "spark.connect.Expression.Literal": "spark/connect/expressions.proto",
        "google.protobuf.Any": "google/protobuf/any.proto",
        "grpc.reflection.v1.ServerReflection": "grpc/reflection/v1/reflection.proto",
    }
    for sym, fname in cases.items():
        r = refl.one(file_containing_symbol=sym)
        first = descriptor_pb2.FileDescriptorProto.FromString(r.file_descriptor_response.file_descriptor_proto[0])
        assert first.name == fname, (sym, first.name)
    return True


t.check("file_containing_symbol (v1alpha): services, methods, messages, fields, nested enums and messages, "
        "imports", symbols)


def errors_keep_the_stream():
    refl = Reflection(ch, "v1")
    rs = refl.ask(refl.req(file_containing_symbol="no.such.Symbol"), refl.req(file_by_filename="no/such.proto"),
                  refl.req(all_extension_numbers_of_type="no.such.Type"),
                  refl.req(file_containing_extension=refl.pb.ExtensionRequest(containing_type="catalyzer.v1.AnalyzeRequest",
                                                                                 extension_number=100)),
                  refl.req(all_extension_numbers_of_type="catalyzer.v1.AnalyzeRequest"),
                  refl.req(list_services=""))
    kinds = [r.WhichOneof("message_response") for r in rs]
    assert kinds == ["error_response"] * 4 + ["all_extension_numbers_response", "list_services_response"], kinds
    assert all(r.error_response.error_code == 5 for r in rs[:4]), [r.error_response for r in rs[:4]]
    assert "no.such.Symbol" in rs[0].error_response.error_message
    assert rs[4].all_extension_numbers_response.base_type_name == "catalyzer.v1.AnalyzeRequest"
    assert list(rs[4].all_extension_numbers_response.extension_number) == []
    assert [r.original_request for r in rs][1].file_by_filename == "no/such.proto"
    return True


t.check("unknowns answer NOT_FOUND (5) in an ErrorResponse and the stream goes on; a type's extensions: none",
        errors_keep_the_stream)


def bidi_interleaved():
    """Each answer comes before the next request is sent (and before the client half-closes): a real bidi stream."""
    refl = Reflection(ch, "v1")
    q = queue.Queue()

    def gen():
        while True:
            item = q.get()
            if item is None:
                return
            yield item
    responses = refl.rpc(gen(), timeout=TIMEOUT)
    got = []
    for sym in ("catalyzer.v1.Analyzer", "grpc.health.v1.Health", "spark.connect.SparkConnectService"):
        q.put(refl.req(file_containing_symbol=sym))
        r = next(responses)  # blocks until the daemon answers this one
        got.append(descriptor_pb2.FileDescriptorProto.FromString(r.file_descriptor_response.file_descriptor_proto[0]).name)
    q.put(None)
    rest = list(responses)
    assert got == ["catalyzer.proto", "health.proto", "spark/connect/base.proto"] and rest == [], (got, rest)
    assert responses.code() == grpc.StatusCode.OK
    return True


t.check("one stream, request / answer / request ...: each answered while the stream is open", bidi_interleaved)


def pipelined_raw():
    """Three requests in one DATA frame, then END_STREAM: three answers in order, then OK."""
    pb = R["v1"]
    body = b"".join(grpc_msg(pb.ServerReflectionRequest(file_by_filename=n).SerializeToString())
                    for n in ("health.proto", "nope.proto", "catalyzer.proto"))
    h2 = RawH2(d.grpc_port)
    try:
        h2.send(frame(1, 4, 1, hpack(grpc_headers("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"))))
        h2.send(frame(0, 1, 1, body))
        msgs, clean = h2.read_stream(1, timeout=TIMEOUT)
    finally:
        h2.close()
    rs = [pb.ServerReflectionResponse.FromString(m) for m in msgs]
    kinds = [r.WhichOneof("message_response") for r in rs]
    assert clean and kinds == ["file_descriptor_response", "error_response", "file_descriptor_response"], (clean, kinds)
    return True


t.check("raw HTTP/2: three pipelined requests in one DATA frame answered in order, stream ends cleanly",
        pipelined_raw)


def gzip_requests():
    for comp in (grpc.Compression.Gzip, grpc.Compression.Deflate):
        r = Reflection(ch, "v1", compression=comp).one(file_containing_symbol="spark.connect.Relation")
        assert len(r.file_descriptor_response.file_descriptor_proto) >= 3
    return True


t.check("compressed reflection requests (grpcio gzip and deflate) are answered", gzip_requests)


def correlation():
    refl = Reflection(ch, "v1", metadata=[("x-request-id", "refl-req-7"),
                                          ("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")])
    it = refl.rpc(iter([refl.req(list_services="")]), timeout=TIMEOUT, metadata=refl.metadata)
    list(it)
    md = dict(it.initial_metadata())
    assert md.get("x-request-id") == "refl-req-7", md
    assert md.get("traceresponse", "").startswith("00-0af7651916cd43dd8448eb211c80319c-"), md
    return True


t.check("x-request-id and traceparent on a reflection stream: echoed in its response headers", correlation)


def counted():
    text = fetch_metrics()
    for v in ("v1", "v1alpha"):
        line = ('grpc_server_handled_total{grpc_type="bidi_stream",grpc_service="grpc.reflection.%s.ServerReflection",'
                'grpc_method="ServerReflectionInfo",grpc_code="OK"} ' % v)
        vals = [ln for ln in text.splitlines() if ln.startswith(line)]
        assert vals and int(vals[0].split()[-1]) >= 2, (v, vals)
    recv = [ln for ln in text.splitlines() if ln.startswith('grpc_server_msg_received_total{grpc_type="bidi_stream",'
                                                            'grpc_service="grpc.reflection.v1.ServerReflection"')]
    assert recv and int(recv[0].split()[-1]) >= 10, recv
    return True


t.check("/metrics: grpc_server_handled_total and msg_received_total count the reflection streams (bidi_stream)",
        counted)
ch.close()


# ---------------------------------------------------------------- deadline, drain
def deadline():
    c2 = grpc.insecure_channel(d.grpc_addr)
    refl = Reflection(c2, "v1")
    q = queue.Queue()
    it = refl.rpc(iter(q.get, None), timeout=10)  # the first answer comes well within it, even under load
    q.put(refl.req(list_services=""))
    first = next(it)
    try:
        list(it)
        code = it.code()
    except grpc.RpcError as e:
        code = e.code()
    q.put(None)
    c2.close()
    assert first.list_services_response.service and code == grpc.StatusCode.DEADLINE_EXCEEDED, code
    return True


t.check("a reflection stream left open past its grpc-timeout ends DEADLINE_EXCEEDED", deadline)
rc = d.stop()
t.ok(rc == 0, "the daemon stops cleanly after the reflection streams (exit 0: no sanitizer report)", d.log()[-3000:])

tok_dir = tempfile.mkdtemp(prefix="cz-refl-tok-")
tok_file = os.path.join(tok_dir, "tokens")
with open(tok_file, "w") as f:
    f.write("refl-secret-token alice\n")
os.chmod(tok_file, 0o600)
da = Daemon("--auth-token-file", tok_file, "--drain-timeout-ms", "120000")
try:
    ca = grpc.insecure_channel(da.grpc_addr)

    def needs_token():
        try:
            Reflection(ca, "v1").one(list_services="")
            return False
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.UNAUTHENTICATED, e
        r = Reflection(ca, "v1", metadata=[("authorization", "Bearer refl-secret-token")]).one(list_services="")
        return len(r.list_services_response.service) == len(SERVICES)
    t.check("--auth-token-file: reflection needs the bearer token like the other services", needs_token)

    def drain():
        """SIGTERM while a reflection stream is open: the stream ends UNAVAILABLE, the daemon stops at once
        (an open stream does not hold the drain up to its timeout)."""
        refl = Reflection(ca, "v1", metadata=[("authorization", "Bearer refl-secret-token")])
        q = queue.Queue()
        it = refl.rpc(iter(q.get, None), timeout=TIMEOUT, metadata=refl.metadata)
        q.put(refl.req(list_services=""))
        next(it)
        t0 = time.monotonic()
        da.proc.send_signal(signal.SIGTERM)
        try:
            list(it)
            code = it.code()
        except grpc.RpcError as e:
            code = e.code()
        q.put(None)
        rc = da.proc.wait(TIMEOUT)
        took = time.monotonic() - t0
        assert code == grpc.StatusCode.UNAVAILABLE and rc == 0, (code, rc)
        assert took < TIMEOUT / 2, took
        return True
    t.check("SIGTERM with a reflection stream open: UNAVAILABLE, and the daemon exits 0 without waiting on it", drain)
    ca.close()
finally:
    da.stop()
t.done()
