#!/usr/bin/env python3
"""Polyglot proof: a Go or Java engine calls catalyzerd with its own stock
gRPC stack. This test generates that language's stubs from proto/ with
protoc and the language's plugin, builds the client in the build directory
(clients/go or clients/java from the source tree, offline, against Debian's
packaged gRPC), starts a real catalyzerd on port 0, runs the client against
it and checks what it printed. TAP output; skips (and says why) when the
toolchain is not installed — scripts/install-deps.sh installs it.

Usage: run_client.py go|java
Environment (set by tests/polyglot/meson.build):
  CATALYZERD        the daemon binary
  CATALYZER_SOURCE  source root (proto/, clients/)
  POLYGLOT_BUILD    a build directory of this test's own
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
CATALYZERD = os.environ.get("CATALYZERD", "catalyzerd")
BUILD = os.environ.get("POLYGLOT_BUILD", os.path.join(os.getcwd(), "polyglot"))
PROTO = os.path.join(SOURCE, "proto")
SHARED = os.environ.get("CATALYZER_SHARED", os.path.join(SOURCE, "..", "shared"))
# The Spark Connect messages the engines use: Spark's own protos (what an
# engine that speaks Spark Connect has). The project's proto/spark/connect is
# wire-compatible but written for protobuf-c (explicit oneofs where Spark has
# proto3 `optional`), so the generated Go and Java accessors differ: without
# Spark's files the test skips rather than build against another API.
SPARK_PROTO = os.path.join(SHARED, "reference", "spark-connect", "protos")
GOCODE = "/usr/share/gocode"
JARS = "/usr/share/java"

# Compile-time jars for the stubs and the client; the runtime adds grpc-core
# with the netty transport (found by ManagedChannelBuilder through its
# ServiceLoader entry) and what those load. Unversioned names: Debian's
# symlinks to whatever version is installed.
JAVA_COMPILE = ["protobuf", "grpc-api", "grpc-stub", "grpc-protobuf", "grpc-protobuf-lite", "guava",
                "geronimo-annotation-1.3-spec"]  # javax.annotation.Generated, gone from JDK 11+
JAVA_RUNTIME = ["protobuf", "grpc-api", "grpc-context", "grpc-core", "grpc-stub", "grpc-protobuf",
                "grpc-protobuf-lite", "grpc-netty", "guava", "perfmark-api", "gson", "netty-common",
                "netty-buffer", "netty-transport", "netty-resolver", "netty-codec", "netty-codec-http",
                "netty-codec-http2", "netty-handler"]

EXPECTED = [
    "execute: ok session=",
    "result: ok schema=struct<id:int,doubled:decimal(5,2)>",
    "error: TABLE_OR_VIEW_NOT_FOUND",
    "connect schema: id,doubled server_side_session_id=true",
    "connect explain: Project [id#",
    "plan: ok schema=struct<id:int,doubled:decimal(5,2)>",
    "drop: existed=true",
    "connect-tour: done",
]
# The operator's conventions as grpc-go meets them (clients/go/conventions.go).
CONVENTIONS_GO = [
    "reflection list_services catalyzer.v1.Analyzer,grpc.health.v1.Health,grpc.reflection.v1.ServerReflection,"
    "grpc.reflection.v1alpha.ServerReflection,spark.connect.SparkConnectService",
    "reflection descriptors", "reflection dynamic request, NOT_FOUND, clean end",
    "gzip Analyze, x-request-id and traceresponse echoed",
]
# The Spark Connect tour (connect_tour.go, ConnectTour.java): every check it
# makes prints "connect-tour ok: NAME"; these are the ones both clients make.
TOUR = [
    "Config set then get (set values, Spark's typed defaults)", "Config get_with_default", "Config get_option",
    "Config get_all with a prefix", "Config unset returns the default", "Config is_modifiable",
    "Config get of an unknown key: SQL_CONF_NOT_FOUND", "Config set of a static key: CANNOT_MODIFY_CONFIG",
    "ExecutePlan SqlCommand: SqlCommandResult ... ResultComplete", "ExecutePlan of a query: UNIMPLEMENTED (analysis only)",
    "AnalyzePlan schema", "AnalyzePlan explain, every mode", "AnalyzePlan tree_string (level 1)", "AnalyzePlan is_local",
    "AnalyzePlan is_streaming", "AnalyzePlan input_files (a view over inline rows reads no file)",
    "AnalyzePlan spark_version", "AnalyzePlan ddl_parse", "AnalyzePlan ddl_parse of bad DDL: PARSE_SYNTAX_ERROR",
    "AnalyzePlan json_to_ddl", "AnalyzePlan same_semantics", "AnalyzePlan semantic_hash",
    "AnalyzePlan persist: UNIMPLEMENTED (no data is held)",
    "AnalyzePlan of a bad column: UNRESOLVED_COLUMN in ErrorInfo",
    "a relation without a type: INVALID_ARGUMENT naming the field", "ReleaseSession drops the session's views",
]


def spark_connect_files():
    d = os.path.join(SPARK_PROTO, "spark", "connect")
    return sorted("spark/connect/" + f for f in os.listdir(d) if f.endswith(".proto"))

n = 0
failed = 0


def ok(cond, name, detail=""):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[-40:]:
            print("# " + line)
    sys.stdout.flush()
    return cond


def skip_all(why):
    print("1..0 # SKIP " + why)
    sys.exit(0)


def bail(why):
    print("1..%d" % n)
    print("# " + why)
    sys.exit(1)


def run(cmd, env=None, timeout=120):
    t0 = time.time()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    return r, time.time() - t0


def missing_tools(lang):
    need = ["protoc"]
    if lang == "go":
        need += ["go", "protoc-gen-go", "protoc-gen-go-grpc"]
        paths = [GOCODE + "/src/google.golang.org/grpc", GOCODE + "/src/google.golang.org/protobuf",
                 # grpc-go 1.33 needs the APIv2-backed github.com/golang/protobuf 1.4+;
                 # Debian's 1.3 alternative lacks this file
                 GOCODE + "/src/github.com/golang/protobuf/proto/registry.go"]
    else:
        need += ["javac", "java", "grpc_java_plugin"]
        paths = [os.path.join(JARS, j + ".jar") for j in sorted(set(JAVA_COMPILE + JAVA_RUNTIME))]
    gone = [t for t in need if shutil.which(t) is None] + [p for p in paths if not os.path.exists(p)]
    return gone


def build_go():
    """GOPATH mode over a private tree plus Debian's /usr/share/gocode: no
    modules, no proxy, no network."""
    root = os.path.join(BUILD, "go")
    gen = os.path.join(root, "src")
    shutil.rmtree(os.path.join(gen, "catalyzer"), ignore_errors=True)
    os.makedirs(os.path.join(gen, "czclient"), exist_ok=True)
    # go_package "catalyzer/v1" puts the stubs at src/catalyzer/v1; the Spark
    # Connect files, whatever their go_package, map to src/czclient/sparkconnect.
    # The Spark protos come first on the path: catalyzer.proto's import of
    # spark/connect/relations.proto resolves to Spark's file.
    spark = spark_connect_files()
    maps = ",".join("M%s=czclient/sparkconnect" % f for f in spark)
    r, dt = run(["protoc", "--proto_path=" + SPARK_PROTO, "--proto_path=" + PROTO,
                 "--go_out=" + gen, "--go_opt=" + maps, "--go-grpc_out=" + gen, "--go-grpc_opt=" + maps,
                 "catalyzer.proto"] + spark)
    if not ok(r.returncode == 0, "protoc-gen-go + protoc-gen-go-grpc stubs (%.1fs)" % dt, r.stderr):
        bail("no stubs")
    godir = os.path.join(SOURCE, "clients", "go")
    for f in sorted(os.listdir(godir)):
        if f.endswith(".go"):
            shutil.copy(os.path.join(godir, f), os.path.join(gen, "czclient", f))
    env = dict(os.environ, GO111MODULE="off", GOPATH=root + ":" + GOCODE, GOFLAGS="", GOPROXY="off",
               GOCACHE=os.path.join(root, "cache"), CGO_ENABLED="0")
    exe = os.path.join(root, "czclient")
    r, dt = run(["go", "build", "-o", exe, "czclient"], env=env, timeout=800)
    if not ok(r.returncode == 0, "go build against /usr/share/gocode (%.1fs)" % dt, r.stderr):
        bail("no client")
    return [exe]


def build_java():
    root = os.path.join(BUILD, "java")
    gen, classes = os.path.join(root, "gen"), os.path.join(root, "classes")
    for d in (gen, classes):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    r, dt = run(["protoc", "--proto_path=" + SPARK_PROTO, "--proto_path=" + PROTO, "--java_out=" + gen,
                 "--plugin=protoc-gen-grpc-java=" + shutil.which("grpc_java_plugin"), "--grpc-java_out=" + gen,
                 # google.rpc.Status / ErrorInfo: the error details in grpc-status-details-bin
                 "catalyzer.proto", "google/rpc/status.proto", "google/rpc/error_details.proto"]
                + spark_connect_files())
    if not ok(r.returncode == 0, "protoc --java_out + grpc-java plugin stubs (%.1fs)" % dt, r.stderr):
        bail("no stubs")
    srcs = [os.path.join(d, f) for d, _, fs in os.walk(gen) for f in fs if f.endswith(".java")]
    jdir = os.path.join(SOURCE, "clients", "java", "io", "catalyzer", "example")
    srcs += [os.path.join(jdir, f) for f in sorted(os.listdir(jdir)) if f.endswith(".java")]
    cp = ":".join(os.path.join(JARS, j + ".jar") for j in JAVA_COMPILE)
    r, dt = run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", classes, "-cp", cp] + srcs, timeout=800)
    if not ok(r.returncode == 0, "javac against /usr/share/java (%.1fs)" % dt, r.stdout + r.stderr):
        bail("no client")
    cp = ":".join([classes] + [os.path.join(JARS, j + ".jar") for j in JAVA_RUNTIME])
    # C1 only: a short-lived client starts faster without the optimising JIT
    return ["java", "-XX:TieredStopAtLevel=1", "-cp", cp, "io.catalyzer.example.CatalyzerClient"]


def start_daemon():
    # debug level: only there do request lines name the session id (a
    # credential; the default level logs a tag instead)
    proc = subprocess.Popen([CATALYZERD, "--grpc", "127.0.0.1:0", "--http", "off", "--log-level", "debug"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()
    try:
        info = json.loads(first)
        port = int(info["grpc_port"])
    except (ValueError, KeyError) as e:
        proc.kill()
        ok(False, "catalyzerd started", "%s: %r %s" % (e, first, proc.stderr.read()))
        bail("no daemon")
    ok(True, "catalyzerd listening on 127.0.0.1:%d" % port)
    return proc, port


def stop_daemon(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
    log = proc.stderr.read()
    ok(rc == 0, "catalyzerd drained and exited 0 (%s)" % rc, log[-2000:])
    return log


def main():
    lang = sys.argv[1] if len(sys.argv) > 1 else ""
    if lang not in ("go", "java"):
        print("usage: run_client.py go|java", file=sys.stderr)
        sys.exit(2)
    if not os.path.isdir(os.path.join(SPARK_PROTO, "spark", "connect")):
        skip_all("Spark's Connect protos not found at %s: the example engines are built from Spark's own "
                 "spark/connect/*.proto, as an engine has them" % SPARK_PROTO)
    gone = missing_tools(lang)
    if gone:
        skip_all("%s toolchain not installed (scripts/install-deps.sh installs it): missing %s"
                 % (lang, ", ".join(gone)))
    os.makedirs(BUILD, exist_ok=True)
    client = build_go() if lang == "go" else build_java()

    proc, port = start_daemon()
    try:
        r, dt = run(client + ["127.0.0.1:%d" % port], timeout=180)
    except subprocess.TimeoutExpired as e:
        r, dt = None, 60.0
        ok(False, "%s client finished within 60s" % lang, e)
    log = stop_daemon(proc)
    if r is None:
        bail("client hung")
    out = r.stdout
    ok(r.returncode == 0, "%s client exit 0 (%.2fs)" % (lang, dt), out + r.stderr)
    lines = out.splitlines()
    for want in EXPECTED:
        ok(any(line.startswith(want) for line in lines), "printed: " + want, out)
    for check in TOUR:
        ok(any(line.startswith("connect-tour ok: " + check) for line in lines), "Spark Connect: " + check,
           out + r.stderr)
    if lang == "go":
        # grpc-go's own reflection stubs (v1alpha), encoding/gzip, metadata (clients/go/conventions.go)
        for check in CONVENTIONS_GO:
            ok(any(line.startswith("conventions ok: " + check) for line in lines), "grpc-go: " + check,
               out + r.stderr)
        reqs = [json.loads(x) for x in log.splitlines() if x.startswith("{") and '"msg":"request"' in x]
        ok(any(x.get("request_id") == "go-client-1" and x.get("trace_id") == "0af7651916cd43dd8448eb211c80319c"
               for x in reqs), "daemon log: the Go client's request id and trace on its Analyze line",
           "\n".join(map(str, reqs[-5:])))
        ok(any(x.get("method") == "Reflection.v1alpha" and x.get("status") == "OK" for x in reqs),
           "daemon log: grpc-go's reflection stream ended OK", "\n".join(map(str, reqs[-5:])))

    # events streamed before the result, numbered 0.. (the client checks the
    # numbering and fails on a message after the result)
    ev = [line for line in lines if line.startswith("events: ")]
    count = int(ev[0].split()[1]) if ev else 0
    ok(count > 0 and "in order" in ev[0], "trace events streamed in order (%d)" % count, out)
    eff = [line for line in lines if line.startswith("event ")]
    ok(any("ResolveRelations" in line for line in eff), "the session's view resolved by ResolveRelations", out)
    result_at = next((i for i, line in enumerate(lines) if line.startswith("result: ")), -1)
    ok(eff and result_at > lines.index(eff[-1]), "the result came after the events", out)

    # the daemon saw the same session for Execute and Analyze
    session = next((line.split("session=", 1)[1] for line in lines if line.startswith("execute: ok session=")), None)
    reqs = [json.loads(x) for x in log.splitlines() if x.startswith("{") and '"msg":"request"' in x]
    methods = [x.get("method") for x in reqs if session and x.get("session_id") == session]
    ok(methods[:2] == ["Execute", "Analyze"] and "Connect.AnalyzePlan" in methods and "DropSession" in methods,
       "daemon log: Execute, Analyze and Spark Connect's AnalyzePlan in session %s" % session,
       "\n".join(map(str, reqs)))

    print("1..%d" % n)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
