#!/usr/bin/env python3
"""Who may touch what, against the real daemon: TLS, mutual TLS and bearer
tokens on both ports (python3-grpcio and curl), a wrong or missing token
gets UNAUTHENTICATED and nothing else, sessions owned by the principal that
made them (gRPC and JSON), the JSON endpoint's Host/Origin/Content-Type
checks (curl), one session-id rule on both transports (133-byte ids), the
loopback-only rule, and a log-content test (no secrets, no session ids at
the default level; a reset flood is rate-limited).

Spark Connect (spark.connect.SparkConnectService) behind the same TLS, mutual
TLS, tokens and session ownership (at the end).
Certificates and tokens are made at test time (pki.py)."""
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time

from daemon import (CATALYZERD, Client, Daemon, RawH2, Tap, frame, grpc, grpc_headers, grpc_msg, hpack, load_stubs,
                    skip_all)

if grpc is None:
    skip_all("python3-grpcio not importable (use Debian's /usr/bin/python3)")
if not shutil.which("openssl") or not shutil.which("curl"):
    skip_all("openssl and curl are needed")

from pki import Pki  # noqa: E402

pb, hpb = load_stubs()
t = Tap()
pki = Pki()
token_file, TOK = pki.tokens(("alice", "bob"))
SECRET = "123-45-6789"
A = "/catalyzer.v1.Analyzer/"


def auth(who):
    return [("authorization", "Bearer " + TOK[who])]


def tls_channel(port, cert=None):
    key = chain = None
    if cert:
        key, chain = pki.read(cert + ".key"), pki.read(cert + ".pem")
    creds = grpc.ssl_channel_credentials(pki.read("ca.pem"), key, chain)
    return grpc.secure_channel("127.0.0.1:%d" % port, creds, options=[("grpc.ssl_target_name_override", "localhost")])


def code_of(fn):
    """The gRPC status code name fn() ends with ("OK" if it returns)."""
    try:
        r = fn()
        if hasattr(r, "__iter__") and not isinstance(r, (bytes, str)):
            list(r)
        return "OK"
    except grpc.RpcError as e:
        return e.code().name


def curl(port, path, body=None, headers=(), tls=False, cert=None, ctype="application/json", method=None,
         host_header=None):
    """(HTTP status, body, response headers); status 0 when curl failed to connect."""
    scheme = "https" if tls else "http"
    cmd = ["curl", "-s", "-o", "-", "-D", "/dev/stderr", "-w", "\n%{http_code}", "--max-time", "20"]
    if tls:
        cmd += ["--cacert", pki.path("ca.pem")]
    if cert:
        cmd += ["--cert", pki.path(cert + ".pem"), "--key", pki.path(cert + ".key")]
    for k, v in headers:
        cmd += ["-H", "%s: %s" % (k, v)]
    if host_header:
        cmd += ["-H", "Host: " + host_header]
    if body is not None:
        if ctype:
            cmd += ["-H", "Content-Type: " + ctype]
        cmd += ["--data-binary", body]
    if method:
        cmd += ["-X", method]
    cmd.append("%s://%s:%d%s" % (scheme, "localhost" if tls else "127.0.0.1", port, path))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    text, _, code = r.stdout.rpartition("\n")
    return int(code or 0), text, r.stderr


def analyze_frame(sql, session_id=""):
    return grpc_msg(pb.AnalyzeRequest(session_id=session_id, sql=pb.SqlQuery(query=sql)).SerializeToString())


def curl_grpc(port, path, msg, headers=()):
    """A gRPC call with curl over HTTP/2 + TLS: (headers and trailers text, body bytes)."""
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(msg)
    out = tempfile.NamedTemporaryFile(delete=False)
    out.close()
    cmd = ["curl", "-s", "--http2", "--cacert", pki.path("ca.pem"), "-H", "content-type: application/grpc",
           "-H", "te: trailers", "--data-binary", "@" + f.name, "-D", "-", "-o", out.name, "--max-time", "20"]
    for k, v in headers:
        cmd += ["-H", "%s: %s" % (k, v)]
    cmd.append("https://localhost:%d%s" % (port, path))
    r = subprocess.run(cmd, capture_output=True, timeout=30)
    with open(out.name, "rb") as g:
        body = g.read()
    os.unlink(f.name)
    os.unlink(out.name)
    return r.stdout.decode("latin-1"), body


def wait_log(dm, text, timeout=5):
    """The daemon's stderr is read by a thread: give a line time to arrive."""
    deadline = time.time() + timeout
    while text not in dm.log() and time.time() < deadline:
        time.sleep(0.05)
    return text in dm.log()


SANITIZER = ("AddressSanitizer", "LeakSanitizer", "runtime error")
DAEMONS = []


def started(dm):
    DAEMONS.append(dm)
    return dm


def grpc_messages(body):
    out = []
    while len(body) >= 5:
        n = struct.unpack(">I", body[1:5])[0]
        out.append(body[5:5 + n])
        body = body[5 + n:]
    return out


# ---------------------------------------------------------------- TLS + tokens

d = started(Daemon(*pki.server_flags(), "--auth-token-file", token_file, "--session-idle-seconds", "1"))
ch = tls_channel(d.grpc_port)
c = Client(d.grpc_addr, pb, hpb, channel=ch)


def startup_line():
    info = d.info
    assert info["tls"] is True and info["auth"] is True, info
    wait_log(d, '"security"')
    sec = [json.loads(x) for x in d.lines[:3] if '"security"' in x]
    assert sec and sec[0]["auth"] == "bearer-token" and sec[0]["principals"] == 2, d.lines[:3]


t.check("start: the first line says TLS and tokens are on", startup_line)


def grpc_tls_token():
    msgs = list(c.analyze(pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1 AS a")), timeout=30, metadata=auth("alice")))
    assert msgs[-1].result.ok and msgs[-1].result.schema == "struct<a:int>", msgs[-1]
    r = c.execute(pb.ExecuteRequest(sql="SELECT 2 AS b"), timeout=30, metadata=auth("bob"))
    assert r.results[0].ok


t.check("gRPC over TLS (grpcio, ALPN h2) with a bearer token: Analyze and Execute", grpc_tls_token)


def grpc_no_or_wrong_token():
    for md in (None, [("authorization", "Bearer " + "x" * 32)], [("authorization", "Basic " + TOK["alice"])],
               [("authorization", TOK["alice"])], [("authorization", "Bearer " + TOK["alice"][:-1])]):
        got = []
        try:
            for m in c.analyze(pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1")), timeout=30, metadata=md):
                got.append(m)
            raise AssertionError("accepted %r" % (md,))
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.UNAUTHENTICATED, (md, e.code())
            assert e.details() == "missing or invalid bearer token", e.details()
            assert not got, "no response message without a token"
    for call, req in ((c.execute, pb.ExecuteRequest(sql="SELECT 1")),
                      (c.register, pb.RegisterCatalogRequest(session_id="x", catalog=pb.Catalog())),
                      (c.drop, pb.DropSessionRequest(session_id="x")), (c.unknown, b"")):
        assert code_of(lambda: call(req, timeout=30)) == "UNAUTHENTICATED", call
    # two authorization headers (one good): refused, not "the first wins"
    md = auth("alice") + [("authorization", "Bearer " + "y" * 30)]
    assert code_of(lambda: c.analyze(pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1")), timeout=30,
                                     metadata=md)) == "UNAUTHENTICATED"


t.check("gRPC: no, malformed or wrong token → UNAUTHENTICATED and no message, on every method (unknown ones too)",
        grpc_no_or_wrong_token)


def health_open():
    r = c.check(hpb.HealthCheckRequest(), timeout=10)
    assert r.status == hpb.HealthCheckResponse.SERVING


t.check("grpc.health.v1 Check needs no token (probes)", health_open)


def cleartext_to_tls_port():
    plain = Client(d.grpc_addr, pb, hpb)
    try:
        code = code_of(lambda: plain.execute(pb.ExecuteRequest(sql="SELECT 1"), timeout=5, metadata=auth("alice")))
    finally:
        plain.close()
    assert code == "UNAVAILABLE", code


t.check("cleartext HTTP/2 to the TLS port fails", cleartext_to_tls_port)


def alpn():
    def s_client(proto):
        r = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:%d" % d.grpc_port, "-alpn", proto,
                            "-CAfile", pki.path("ca.pem"), "-servername", "localhost"],
                           input=b"", capture_output=True, timeout=20)
        return r.stdout.decode("latin-1") + r.stderr.decode("latin-1")
    assert "ALPN protocol: h2" in s_client("h2")
    out = s_client("http/1.1")
    assert "no application protocol" in out and "ALPN protocol" not in out, out[-600:]
    for offer, want in (("h2,http/1.1", "h2"), ("http/1.1", "http/1.1")):
        r = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:%d" % d.http_port, "-alpn", offer,
                            "-CAfile", pki.path("ca.pem")], input=b"", capture_output=True, timeout=20)
        assert "ALPN protocol: %s\n" % want in r.stdout.decode("latin-1"), (offer, r.stdout[-600:])
    # and it serves HTTP/2 there (the same handlers as HTTP/1.1)
    r = subprocess.run(["curl", "-sS", "-i", "--http2", "--cacert", pki.path("ca.pem"), "--resolve",
                        "localhost:%d:127.0.0.1" % d.http_port, "https://localhost:%d/healthz" % d.http_port],
                       capture_output=True, timeout=20)
    out = r.stdout.decode("latin-1")
    assert out.startswith("HTTP/2 200") and "x-catalyzer-protocol: HTTP/2" in out, out + r.stderr.decode("latin-1")


t.check("ALPN: the gRPC port negotiates h2 and refuses a client without it; the JSON port prefers h2 (and serves "
        "HTTP/2: curl --http2 over TLS), else http/1.1", alpn)


def curl_grpc_port():
    hdrs, body = curl_grpc(d.grpc_port, A + "Analyze", analyze_frame("SELECT 1 AS a"))
    assert "grpc-status: 16" in hdrs and body == b"", (hdrs, body)
    hdrs, body = curl_grpc(d.grpc_port, A + "Analyze", analyze_frame("SELECT 1 AS a"),
                           [("authorization", "Bearer wrong-token-0123456789")])
    assert "grpc-status: 16" in hdrs and body == b"", hdrs
    hdrs, body = curl_grpc(d.grpc_port, A + "Analyze", analyze_frame("SELECT 1 AS a"), auth("alice"))
    assert "grpc-status: 0" in hdrs, hdrs
    r = pb.AnalyzeResponse.FromString(grpc_messages(body)[-1])
    assert r.result.ok and r.result.schema == "struct<a:int>", r


t.check("gRPC port with curl (HTTP/2 over TLS): no/wrong token → grpc-status 16 and no body; token → the result",
        curl_grpc_port)


def curl_json_port():
    code, text, hdrs = curl(d.http_port, "/v1/analyze", '{"sql": "SELECT 1 AS a"}', tls=True)
    assert code == 401 and json.loads(text)["status"] == "UNAUTHENTICATED", (code, text)
    assert "www-authenticate: bearer" in hdrs.lower(), hdrs
    code, text, _ = curl(d.http_port, "/v1/analyze", '{"sql": "SELECT 1 AS a"}', tls=True,
                         headers=[("Authorization", "Bearer not-a-token-at-all-0123")])
    assert code == 401 and set(json.loads(text)) == {"code", "status", "message"}, text
    code, text, _ = curl(d.http_port, "/v1/analyze", '{"sql": "SELECT 1 AS a"}', tls=True,
                         headers=[("Authorization", "Bearer " + TOK["alice"])])
    assert code == 200 and json.loads(text)["result"]["schema"] == "struct<a:int>", (code, text)
    code, _, _ = curl(d.http_port, "/metrics", tls=True)
    assert code == 401, code
    code, text, _ = curl(d.http_port, "/metrics", tls=True, headers=[("Authorization", "Bearer " + TOK["bob"])])
    assert code == 200 and "catalyzer" in text, code
    code, text, _ = curl(d.http_port, "/healthz", tls=True)
    assert code == 200, code
    code, _, _ = curl(d.http_port, "/healthz", tls=False)  # cleartext to the TLS port
    assert code == 0, code


t.check("JSON port with curl over TLS: no/wrong token → 401 (WWW-Authenticate: Bearer); token → 200; "
        "/metrics needs it, /healthz does not; cleartext refused", curl_json_port)


def ownership():
    sid = "owned-by-alice"
    r = c.execute(pb.ExecuteRequest(session_id=sid, sql="DECLARE VARIABLE secret_v STRING DEFAULT 'alice-only'"),
                  timeout=30, metadata=auth("alice"))
    assert r.results[0].ok, r
    # bob, with the right id, on every call that reads, changes or drops it
    q = pb.AnalyzeRequest(session_id=sid, sql=pb.SqlQuery(query="SELECT secret_v"))
    assert code_of(lambda: c.analyze(q, timeout=30, metadata=auth("bob"))) == "PERMISSION_DENIED"
    assert code_of(lambda: c.execute(pb.ExecuteRequest(session_id=sid, sql="SET VARIABLE secret_v = 'bob'"),
                                     timeout=30, metadata=auth("bob"))) == "PERMISSION_DENIED"
    cat = pb.Catalog(views=[pb.View(name="secret_v_view", query="SELECT 'shadow' AS x")])
    assert code_of(lambda: c.register(pb.RegisterCatalogRequest(session_id=sid, catalog=cat), timeout=30,
                                      metadata=auth("bob"))) == "PERMISSION_DENIED"
    assert code_of(lambda: c.drop(pb.DropSessionRequest(session_id=sid), timeout=30,
                                  metadata=auth("bob"))) == "PERMISSION_DENIED"
    # ... and over JSON
    hb = [("Authorization", "Bearer " + TOK["bob"])]
    for path, body in (("/v1/analyze", {"sessionId": sid, "sql": "SELECT secret_v"}),
                       ("/v1/execute", {"sessionId": sid, "sql": "SET VARIABLE secret_v = 'bob'"}),
                       ("/v1/register-catalog", {"sessionId": sid, "catalog": {"views": [
                           {"name": "v2", "query": "SELECT 1 AS x"}]}}),
                       ("/v1/drop-session", {"sessionId": sid})):
        code, text, _ = curl(d.http_port, path, json.dumps(body), tls=True, headers=hb)
        assert code == 403 and json.loads(text)["status"] == "PERMISSION_DENIED", (path, code, text)
        assert "alice-only" not in text
    # alice's session is untouched
    m = list(c.analyze(q, timeout=30, metadata=auth("alice")))[-1].result
    assert m.ok, m.error
    code, text, _ = curl(d.http_port, "/v1/execute", json.dumps({"sessionId": sid, "sql": "SELECT secret_v AS v"}),
                         tls=True, headers=[("Authorization", "Bearer " + TOK["alice"])])
    assert code == 200 and json.loads(text)["results"][0]["ok"], text
    # bob's own session of another id works, and alice cannot touch it either (JSON → gRPC)
    code, text, _ = curl(d.http_port, "/v1/execute", json.dumps({"sessionId": "bobs", "sql": "SELECT 1"}), tls=True,
                         headers=hb)
    assert code == 200, text
    assert code_of(lambda: c.drop(pb.DropSessionRequest(session_id="bobs"), timeout=30,
                                  metadata=auth("alice"))) == "PERMISSION_DENIED"
    dr = c.drop(pb.DropSessionRequest(session_id=sid), timeout=30, metadata=auth("alice"))
    assert dr.existed


t.check("a second principal cannot read, change or drop the first's session, even with its id (gRPC and JSON)",
        ownership)


def session_id_rule():
    long_a, long_b = "s" * 127 + "AAAAAA", "s" * 127 + "BBBBBB"  # 133 bytes, the same first 127
    assert len(long_a) == 133
    for sid in (long_a, long_b, "has space", "tab\tid"):
        e = pb.ExecuteRequest(session_id=sid, sql="DECLARE VARIABLE v INT DEFAULT 1")
        assert code_of(lambda: c.execute(e, timeout=30, metadata=auth("alice"))) == "INVALID_ARGUMENT", sid
        code, text, _ = curl(d.http_port, "/v1/execute", json.dumps({"sessionId": sid, "sql": "SELECT 1"}), tls=True,
                             headers=[("Authorization", "Bearer " + TOK["alice"])])
        assert code == 400 and "session_id must be" in json.loads(text)["message"], (code, text)
    # 128 bytes is the limit, and it names one session across both transports
    sid = "k" * 128
    c.execute(pb.ExecuteRequest(session_id=sid, sql="DECLARE VARIABLE v128 INT DEFAULT 7"), timeout=30,
              metadata=auth("alice"))
    code, text, _ = curl(d.http_port, "/v1/analyze", json.dumps({"sessionId": sid, "sql": "SELECT v128"}), tls=True,
                         headers=[("Authorization", "Bearer " + TOK["alice"])])
    assert code == 200 and json.loads(text)["result"]["ok"], text
    code, text, _ = curl(d.http_port, "/v1/analyze", json.dumps({"sessionId": sid[:127], "sql": "SELECT v128"}),
                         tls=True, headers=[("Authorization", "Bearer " + TOK["alice"])])
    assert code == 200 and not json.loads(text)["result"].get("ok"), "a 127-byte prefix is another session"


t.check("one session-id rule on both transports: 133-byte ids refused (never truncated), 128 accepted", session_id_rule)

def tls_big_and_streamed():
    """The TLS layer under real traffic: multi-MiB responses (flow control and
    write backpressure through the encrypting writes), NDJSON chunks, and
    pipelined HTTP/1.1 requests decrypted while the endpoint is busy."""
    import ssl
    q = "SELECT " + ", ".join("%d + %d AS c%d" % (i, i, i) for i in range(3000))
    msgs = list(c.analyze(pb.AnalyzeRequest(sql=pb.SqlQuery(query=q), trace_level=pb.TRACE_LEVEL_ALL,
                                            trace_plans=True), timeout=60, metadata=auth("alice")))
    size = sum(m.ByteSize() for m in msgs)
    assert msgs[-1].result.ok and size > (256 << 10), size
    body = json.dumps({"sql": q, "traceLevel": "TRACE_LEVEL_ALL", "tracePlans": True})
    code, text, _ = curl(d.http_port, "/v1/analyze", body, tls=True, headers=[("Authorization", "Bearer " + TOK["bob"])])
    assert code == 200 and len(text) > (1 << 20) and json.loads(text)["result"]["ok"], (code, len(text))
    code, text, _ = curl(d.http_port, "/v1/analyze?stream=1", '{"sql": "SELECT 1 AS a", "traceLevel": "TRACE_LEVEL_ALL"}',
                         tls=True, headers=[("Authorization", "Bearer " + TOK["bob"])])
    lines = [json.loads(x) for x in text.splitlines()]
    assert code == 200 and len(lines) > 1 and lines[-1]["result"]["schema"] == "struct<a:int>", text[:300]
    ctx = ssl.create_default_context(cafile=pki.path("ca.pem"))
    ctx.set_alpn_protocols(["http/1.1"])
    raw = socket.create_connection(("127.0.0.1", d.http_port), timeout=20)
    s = ctx.wrap_socket(raw, server_hostname="localhost")
    one = b'{"sql": "SELECT 1 AS a"}'
    req = (b"POST /v1/analyze HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer %s\r\n"
           b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s") % (TOK["alice"].encode(), len(one), one)
    s.sendall(req * 5)
    data = b""
    deadline = time.time() + 20
    while data.count(b"HTTP/1.1 200") < 5 and time.time() < deadline:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    assert data.count(b"HTTP/1.1 200") == 5, data[:300]
    # a reader that stops reading: the daemon waits (bounded), then delivers all once it reads again
    s.sendall((b"POST /v1/analyze HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer %s\r\n"
               b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s") % (
        TOK["alice"].encode(), len(body), body.encode()))
    time.sleep(2)
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(1 << 16)
    head, rest = data.split(b"\r\n\r\n", 1)
    n = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(rest) < n:
        chunk = s.recv(1 << 20)
        assert chunk, "connection closed early"
        rest += chunk
    assert json.loads(rest)["result"]["ok"]
    s.close()


t.check("over TLS: large gRPC stream and multi-MiB JSON body, NDJSON chunks, 5 pipelined requests, a reader that pauses",
        tls_big_and_streamed)

BUILD = os.environ.get("CATALYZER_BUILD", "")


def c_clients():
    """libczclient's TLS and tokens through its two tools."""
    cli = os.path.join(BUILD, "client", "catalyzer")
    load = os.path.join(BUILD, "client", "load", "catalyzer-load")
    assert os.path.exists(cli) and os.path.exists(load), "build the client tools first (meson test does)"
    tok = os.path.join(pki.dir, "alice.token")
    with open(tok, "w") as f:
        f.write("# alice\n%s\n" % TOK["alice"])
    q = os.path.join(pki.dir, "q.sql")
    with open(q, "w") as f:
        f.write("SELECT 1 AS a;\n")
    env = dict(os.environ, CATALYZER_TLS_CA=pki.path("ca.pem"), CATALYZER_TOKEN_FILE=tok)
    r = subprocess.run([cli, "run", "--daemon", d.grpc_addr, q], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0 and '"schema":"struct<a:int>"' in r.stdout, (r.returncode, r.stdout, r.stderr)
    env.pop("CATALYZER_TOKEN_FILE")
    r = subprocess.run([cli, "run", "--daemon", d.grpc_addr, q], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode != 0 and "UNAUTHENTICATED" in r.stderr, r.stderr
    env = dict(os.environ, CATALYZER_TLS_CA=pki.path("rogue-ca.pem"), CATALYZER_TOKEN_FILE=tok)
    r = subprocess.run([cli, "run", "--daemon", d.grpc_addr, q], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode != 0 and "TLS handshake failed" in r.stderr, r.stderr
    wl = os.path.join(pki.dir, "wl")
    os.makedirs(wl, exist_ok=True)
    with open(os.path.join(wl, "schema.sql"), "w") as f:
        f.write("CREATE TABLE t (a INT, b STRING);\n")
    with open(os.path.join(wl, "q1.sql"), "w") as f:
        f.write("SELECT a, count(*) FROM t GROUP BY a;\n")
    r = subprocess.run([load, "--daemon", d.grpc_addr, "--workload", wl, "--requests", "200", "--connections", "2",
                        "--concurrency", "2", "--json", "--tls-ca", pki.path("ca.pem"), "--token-file", tok],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["ok"] == j["requests"] >= 200 and not j["errors"], j
    r = subprocess.run([load, "--daemon", d.grpc_addr, "--workload", wl, "--requests", "10", "--tls-ca",
                        pki.path("ca.pem")], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "UNAUTHENTICATED" in r.stderr, r.stderr


t.check("the C client (catalyzer CLI with CATALYZER_TLS_CA/CATALYZER_TOKEN_FILE, catalyzer-load with --tls-ca/"
        "--token-file): TLS and tokens; a wrong CA or no token fails clearly", c_clients)

c.close()
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0 (TLS daemon)", d.log()[-2000:])

# ---------------------------------------------------------------- mutual TLS

d = started(Daemon(*pki.server_flags(mutual=True)))


def mtls():
    alice = Client(d.grpc_addr, pb, hpb, channel=tls_channel(d.grpc_port, "alice"))
    mallory = Client(d.grpc_addr, pb, hpb, channel=tls_channel(d.grpc_port, "mallory"))
    nocert = Client(d.grpc_addr, pb, hpb, channel=tls_channel(d.grpc_port))
    rogue = Client(d.grpc_addr, pb, hpb, channel=tls_channel(d.grpc_port, "rogue"))
    try:
        alice.execute(pb.ExecuteRequest(session_id="m1", sql="DECLARE VARIABLE mv INT DEFAULT 1"), timeout=30)
        r = list(alice.analyze(pb.AnalyzeRequest(session_id="m1", sql=pb.SqlQuery(query="SELECT mv")), timeout=30))
        assert r[-1].result.ok
        # the certificate's name is the principal
        assert code_of(lambda: mallory.analyze(pb.AnalyzeRequest(session_id="m1", sql=pb.SqlQuery(query="SELECT mv")),
                                               timeout=30)) == "PERMISSION_DENIED"
        assert code_of(lambda: mallory.execute(pb.ExecuteRequest(sql="SELECT 1"), timeout=30)) == "OK"
        assert code_of(lambda: nocert.execute(pb.ExecuteRequest(sql="SELECT 1"), timeout=5)) == "UNAVAILABLE"
        assert code_of(lambda: rogue.execute(pb.ExecuteRequest(sql="SELECT 1"), timeout=5)) == "UNAVAILABLE"
    finally:
        for x in (alice, mallory, nocert, rogue):
            x.close()
    code, text, _ = curl(d.http_port, "/v1/analyze", json.dumps({"sessionId": "m1", "sql": "SELECT mv"}), tls=True,
                         cert="alice")
    assert code == 200 and json.loads(text)["result"]["ok"], (code, text)
    code, text, _ = curl(d.http_port, "/v1/analyze", json.dumps({"sessionId": "m1", "sql": "SELECT mv"}), tls=True,
                         cert="mallory")
    assert code == 403, (code, text)
    code, _, _ = curl(d.http_port, "/v1/analyze", '{"sql": "SELECT 1"}', tls=True)
    assert code == 0, "no client certificate: no connection"
    code, _, _ = curl(d.http_port, "/v1/analyze", '{"sql": "SELECT 1"}', tls=True, cert="rogue")
    assert code == 0, "a certificate from another CA: no connection"
    hs = [json.loads(x) for x in d.lines if '"tls handshake failed"' in x]
    assert hs, "refused handshakes are logged"


t.check("mutual TLS on both ports: a CA-signed client certificate is needed, its CN is the principal "
        "(another certificate cannot use the session)", mtls)
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0 (mutual TLS daemon)", d.log()[-2000:])

# ---------------------------------------------------------------- loopback rule, tokens in cleartext


def loopback_rule():
    r = subprocess.run([CATALYZERD, "--grpc", "0.0.0.0:0", "--http", "off"], capture_output=True, text=True,
                       timeout=20)
    assert r.returncode == 2 and "loopback only" in r.stderr, (r.returncode, r.stderr)
    r = subprocess.run([CATALYZERD, "--grpc", "127.0.0.1:0", "--http", "0.0.0.0:0"], capture_output=True, text=True,
                       timeout=20)
    assert r.returncode == 2 and "--http 0.0.0.0" in r.stderr, r.stderr
    plain = started(Daemon())
    try:
        lines = [json.loads(x) for x in plain.lines[:2]]
        assert lines[0]["tls"] is False and lines[0]["auth"] is False
        assert wait_log(plain, "loopback only"), plain.log()
    finally:
        plain.stop()
    r = subprocess.run([CATALYZERD, "--grpc", "127.0.0.1:0", "--tls-cert", pki.path("server.pem")],
                       capture_output=True, text=True, timeout=20)
    assert r.returncode == 2 and "go together" in r.stderr, r.stderr
    r = subprocess.run([CATALYZERD, "--grpc", "127.0.0.1:0", "--http", "off", "--tls-cert", pki.path("server.pem"),
                        "--tls-key", pki.path("alice.key")], capture_output=True, text=True, timeout=20)
    assert r.returncode == 1 and "cannot set up TLS" in r.stderr and "--tls-key" in r.stderr, r.stderr
    bad = os.path.join(pki.dir, "bad-tokens")
    with open(bad, "w") as f:
        f.write("short alice\n")
    r = subprocess.run([CATALYZERD, "--grpc", "127.0.0.1:0", "--http", "off", "--auth-token-file", bad],
                       capture_output=True, text=True, timeout=20)
    assert r.returncode == 1 and "line 1" in r.stderr and "short" not in r.stderr.split("line 1")[1], r.stderr


t.check("without TLS and tokens: loopback only (a wildcard address is refused, the start says so); bad TLS or "
        "token files stop the start", loopback_rule)


def tokens_cleartext():
    d2 = started(Daemon("--auth-token-file", token_file))
    try:
        c2 = Client(d2.grpc_addr, pb, hpb)
        assert code_of(lambda: c2.execute(pb.ExecuteRequest(sql="SELECT 1"), timeout=30)) == "UNAUTHENTICATED"
        assert code_of(lambda: c2.execute(pb.ExecuteRequest(sql="SELECT 1"), timeout=30, metadata=auth("bob"))) == "OK"
        c2.close()
        code, _, _ = curl(d2.http_port, "/v1/analyze", '{"sql": "SELECT 1"}')
        assert code == 401
        code, _, _ = curl(d2.http_port, "/v1/analyze", '{"sql": "SELECT 1"}',
                          headers=[("Authorization", "Bearer " + TOK["bob"])])
        assert code == 200
    finally:
        assert d2.stop() == 0


t.check("bearer tokens without TLS (loopback): both ports", tokens_cleartext)

# ---------------------------------------------------------------- JSON endpoint vs browsers (curl)

d = started(Daemon("--http-allowed-origins", "http://ui.example:3000", "--session-idle-seconds", "1"))
H = d.http_port


def cross_site():
    own = "http://127.0.0.1:%d" % H
    code, _, _ = curl(H, "/v1/execute", json.dumps({"sessionId": "victim", "sql": "SELECT 1"}))
    assert code == 200
    plant = json.dumps({"sessionId": "victim", "sql": "DECLARE VARIABLE planted INT DEFAULT 1"})
    # an HTML form can send these three types without a preflight
    for ctype in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"):
        code, text, _ = curl(H, "/v1/execute", plant, ctype=ctype)
        assert code == 415, (ctype, code, text)
        code, text, _ = curl(H, "/v1/execute", plant, ctype=ctype, headers=[("Origin", "http://evil.example")])
        assert code in (403, 415), (ctype, code)
    code, _, _ = curl(H, "/v1/execute", plant, ctype=None)  # no Content-Type
    assert code == 415
    for origin in ("http://evil.example", "null", "http://127.0.0.1:%d" % (H + 1), "https://127.0.0.1:%d" % H,
                   "http://ui.example:3001"):
        code, text, _ = curl(H, "/v1/execute", plant, headers=[("Origin", origin)])
        assert code == 403 and json.loads(text)["status"] == "PERMISSION_DENIED", (origin, code, text)
    for host in ("evil.example", "evil.example:%d" % H, "127.0.0.1.evil.example"):  # DNS rebinding
        code, _, _ = curl(H, "/v1/execute", plant, host_header=host)
        assert code == 403, (host, code)
        code, _, _ = curl(H, "/metrics", host_header=host)
        assert code == 403, host
    # nothing of that reached the session
    code, text, _ = curl(H, "/v1/analyze", json.dumps({"sessionId": "victim", "sql": "SELECT planted"}))
    r = json.loads(text)["result"]
    assert code == 200 and not r.get("ok") and "UNRESOLVED" in r["error"]["errorClass"], r
    # the endpoint's own origin and the allowed one pass
    for origin in (own, "http://ui.example:3000", "http://localhost:%d" % H):
        hh = "localhost:%d" % H if "localhost" in origin else None
        code, text, _ = curl(H, "/v1/analyze", '{"sql": "SELECT 1 AS a"}', headers=[("Origin", origin)],
                             host_header=hh)
        assert code == 200, (origin, code, text)
    code, _, _ = curl(H, "/v1/analyze", '{"sql": "SELECT 1"}', ctype="application/json; charset=utf-8")
    assert code == 200


t.check("JSON endpoint: form content types and no type → 415; a foreign, opaque or other-port Origin → 403; a "
        "foreign Host → 403; nothing reaches the session; own and allowed origins pass", cross_site)


def duplicate_headers():
    s = socket.create_connection(("127.0.0.1", H), timeout=10)
    body = b'{"sql": "SELECT 1"}'
    s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n"
              b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    data = s.recv(65536)
    s.close()
    assert data.startswith(b"HTTP/1.1 403"), data[:200]
    s = socket.create_connection(("127.0.0.1", H), timeout=10)
    s.sendall(b"POST /v1/analyze HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
        len(body), body))
    data = s.recv(65536)
    s.close()
    assert data.startswith(b"HTTP/1.1 403"), "no Host: refused"


t.check("two Host headers, or none → 403", duplicate_headers)
d.stop()

# ---------------------------------------------------------------- logs

SID_SECRET = "sess-%s-%s" % (SECRET, "Zq9")


def secret_requests(dm):
    cl = Client(dm.grpc_addr, pb, hpb)
    lit = "'%s'" % SECRET
    # analysis results with the literal, errors that quote request text
    cl.execute(pb.ExecuteRequest(session_id=SID_SECRET, sql="DECLARE VARIABLE ssn STRING DEFAULT %s" % lit),
               timeout=30)
    list(cl.analyze(pb.AnalyzeRequest(session_id=SID_SECRET,
                                      sql=pb.SqlQuery(query="SELECT * FROM people WHERE ssn = %s" % lit)), timeout=30))
    for call in (
            lambda: cl.execute(pb.ExecuteRequest(session_id=SID_SECRET, sql="SELECT 1",
                                                 conf={"spark.sql.ansi.enabled": SECRET}), timeout=30),
            lambda: cl.register(pb.RegisterCatalogRequest(session_id=SID_SECRET, catalog=pb.Catalog(views=[pb.View(
                name="v", query="SELECT FROM WHERE ssn = %s" % lit)])), timeout=30),
            lambda: cl.execute(pb.ExecuteRequest(session_id=SID_SECRET + " x", sql="SELECT %s" % lit), timeout=30),
            lambda: cl.drop(pb.DropSessionRequest(session_id=SID_SECRET), timeout=30)):
        code_of(call)
    cl.close()
    for body in ('{"sessionId": "%s", "sql": "SELECT %s"}' % (SID_SECRET, lit),
                 '{"sessionId": "%s", "sql": {"query": 7, "x": "%s"}}' % (SID_SECRET, SECRET),
                 '{"sql": "SELECT %s", "traceLevel": "%s"}' % (lit, SECRET),
                 '{"sql": "SELECT %s" ' % lit):
        curl(dm.http_port, "/v1/analyze", body)
    curl(dm.http_port, "/v1/drop-session", json.dumps({"sessionId": SID_SECRET}))


def log_content():
    dm = started(Daemon())
    secret_requests(dm)
    time.sleep(0.3)
    dm.stop()
    log = dm.log()
    assert log.count('"msg":"request"') >= 10, "the requests were logged"
    assert re.search(r'"session":"[0-9a-f]{12}"', log), "sessions appear as tags"
    assert SECRET not in log, [x for x in log.splitlines() if SECRET in x][:3]
    assert SID_SECRET not in log and "sess-" not in log, "no session id"
    assert "SELECT" not in log and "DECLARE" not in log, [x for x in log.splitlines() if "SELECT" in x][:3]
    # the same run at debug level does show them: the test would see a leak
    dd = started(Daemon("--log-level", "debug"))
    secret_requests(dd)
    time.sleep(0.3)
    dd.stop()
    assert SECRET in dd.log() and SID_SECRET in dd.log(), "debug level keeps the details"


t.check("log content: after requests with a secret literal and secret session ids, the default-level log holds "
        "neither (a tag stands for the session); debug level does", log_content)


def reset_flood():
    dm = started(Daemon("--session-idle-seconds", "1"))
    hdr = hpack(grpc_headers(A + "Analyze"))
    body = grpc_msg(pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1")).SerializeToString())
    streams = 0
    start = time.time()
    for _ in range(6):
        h = RawH2(dm.grpc_port)
        for i in range(300):
            sid = 1 + 2 * i
            # HEADERS then RST_STREAM(CANCEL) before the request ends
            h.send(frame(1, 4, sid, hdr) + frame(3, 0, sid, struct.pack(">I", 8)))
            streams += 1
        h.read_frames(timeout=0.3)
        h.close()
    seconds = time.time() - start
    time.sleep(1.5)  # the suppressed counts are reported once their second is over
    assert dm.alive()
    dm.stop()
    lines = [json.loads(x) for x in dm.lines if x.startswith("{")]
    cancelled = [x for x in lines if x.get("msg") == "request" and x.get("status") == "CANCELLED"]
    suppressed = sum(x.get("suppressed", 0) for x in lines if x.get("msg") == "log lines suppressed")
    # at most LOG_BURST_PER_SECOND (10) lines in each second the flood touched
    assert len(cancelled) <= 10 * (int(seconds) + 2), "%d lines for %d reset streams in %.1f s" % (
        len(cancelled), streams, seconds)
    assert suppressed > 0 and len(cancelled) + suppressed >= streams * 0.9, (len(cancelled), suppressed, streams)
    print("# reset flood: %d streams, %d lines written, %d counted as suppressed" % (streams, len(cancelled),
                                                                                  suppressed))
    del body


t.check("a reset flood writes a few warnings and counts the rest (rate-limited per method and status)", reset_flood)

# ---------------------------------------------------------------- Spark Connect

# spark.connect.SparkConnectService behind the same TLS, tokens and session
# ownership, called as a Spark Connect client calls it (the messages are the
# project's spark.connect schema, generated by load_stubs; connect-wire checks
# it against Spark's own, and test_connect.py drives the service from Spark's).
from spark.connect import base_pb2 as SB, commands_pb2 as SC, relations_pb2 as SR  # noqa: E402

SVC = "/spark.connect.SparkConnectService/"


def connect_methods(channel):
    def m(name, req, resp, stream=False):
        f = channel.unary_stream if stream else channel.unary_unary
        return f(SVC + name, request_serializer=req.SerializeToString, response_deserializer=resp.FromString)
    return {"config": m("Config", SB.ConfigRequest, SB.ConfigResponse),
            "analyze": m("AnalyzePlan", SB.AnalyzePlanRequest, SB.AnalyzePlanResponse),
            "execute": m("ExecutePlan", SB.ExecutePlanRequest, SB.ExecutePlanResponse, True),
            "release_session": m("ReleaseSession", SB.ReleaseSessionRequest, SB.ReleaseSessionResponse),
            "release_execute": m("ReleaseExecute", SB.ReleaseExecuteRequest, SB.ReleaseExecuteResponse),
            # a method the daemon does not serve, sent as bytes (its messages are not in the schema)
            "interrupt": channel.unary_unary(SVC + "Interrupt", request_serializer=bytes,
                                             response_deserializer=bytes)}


def uid():
    import uuid
    return str(uuid.uuid4())


USER = SB.UserContext(user_id="u", user_name="u")


def c_schema(sid, sql):
    return SB.AnalyzePlanRequest(session_id=sid, user_context=USER, schema=SB.AnalyzePlanRequest.Schema(
        plan=SB.Plan(root=SR.Relation(sql=SR.SQL(query=sql)))))


def c_sql(sid, sql):
    return SB.ExecutePlanRequest(session_id=sid, user_context=USER, plan=SB.Plan(command=SC.Command(
        sql_command=SC.SqlCommand(input=SR.Relation(sql=SR.SQL(query=sql))))))


def c_get(sid, *keys):
    return SB.ConfigRequest(session_id=sid, user_context=USER, operation=SB.ConfigRequest.Operation(
        get=SB.ConfigRequest.Get(keys=list(keys))))


def rpc_failure(fn):
    """(code name, details, trailing metadata keys, response messages) of a call that must fail."""
    got = []
    try:
        r = fn()
        if hasattr(r, "__iter__"):
            for x in r:
                got.append(x)
        return "OK", "", set(), got
    except grpc.RpcError as e:
        return e.code().name, e.details(), {k for k, _ in (e.trailing_metadata() or ())}, got


d = started(Daemon(*pki.server_flags(), "--auth-token-file", token_file))
cch = tls_channel(d.grpc_port)
cm = connect_methods(cch)


def connect_tls_token():
    sid = uid()
    r = cm["config"](SB.ConfigRequest(session_id=sid, user_context=USER, operation=SB.ConfigRequest.Operation(
        set=SB.ConfigRequest.Set(pairs=[SB.KeyValue(key="spark.sql.ansi.enabled", value="false")]))), timeout=30,
        metadata=auth("alice"))
    assert r.session_id == sid and r.server_side_session_id, r
    msgs = list(cm["execute"](c_sql(sid, "CREATE TEMPORARY VIEW cv AS SELECT 1 AS a"), timeout=30,
                              metadata=auth("alice")))
    assert msgs and msgs[0].HasField("sql_command_result"), msgs
    r = cm["analyze"](c_schema(sid, "SELECT * FROM cv"), timeout=30, metadata=auth("alice"))
    assert [f.name for f in r.schema.schema.struct.fields] == ["a"], r
    r = cm["config"](c_get(sid, "spark.sql.ansi.enabled"), timeout=30, metadata=auth("alice"))
    assert [(p.key, p.value) for p in r.pairs] == [("spark.sql.ansi.enabled", "false")], r


t.check("Spark Connect over TLS with a bearer token: Config, ExecutePlan, AnalyzePlan on one session",
        connect_tls_token)


def connect_no_or_wrong_token():
    sid = uid()
    calls = [("config", c_get(sid, "spark.sql.ansi.enabled")), ("analyze", c_schema(sid, "SELECT 1")),
             ("execute", c_sql(sid, "SELECT 1")),
             ("release_session", SB.ReleaseSessionRequest(session_id=sid, user_context=USER)),
             ("release_execute", SB.ReleaseExecuteRequest(session_id=sid, user_context=USER, operation_id=uid(),
                                                          release_all=SB.ReleaseExecuteRequest.ReleaseAll())),
             ("interrupt", SB.ReleaseSessionRequest(session_id=sid, user_context=USER).SerializeToString())]
    for md in (None, [("authorization", "Bearer " + "x" * 32)], [("authorization", TOK["bob"])]):
        for name, req in calls:
            code, details, trailers, got = rpc_failure(lambda: cm[name](req, timeout=30, metadata=md))
            assert code == "UNAUTHENTICATED", (name, md, code, details)
            assert details == "missing or invalid bearer token", details
            assert "grpc-status-details-bin" not in trailers and not got, (name, trailers, got)
    # no session was made by any of them: alice can take the id
    r = cm["analyze"](c_schema(sid, "SELECT 1 AS a"), timeout=30, metadata=auth("alice"))
    assert r.session_id == sid


t.check("Spark Connect: no or wrong token → UNAUTHENTICATED, no message and no error details, on every method "
        "(one the daemon does not serve too)", connect_no_or_wrong_token)


def connect_ownership():
    sid = uid()
    list(cm["execute"](c_sql(sid, "DECLARE VARIABLE connect_secret STRING DEFAULT 'alice-only'"), timeout=30,
                       metadata=auth("alice")))
    before = cm["analyze"](c_schema(sid, "SELECT connect_secret AS s"), timeout=30, metadata=auth("alice"))
    for name, req in (("analyze", c_schema(sid, "SELECT connect_secret")), ("config", c_get(sid, "x")),
                      ("execute", c_sql(sid, "SET VARIABLE connect_secret = 'bob'")),
                      ("release_session", SB.ReleaseSessionRequest(session_id=sid, user_context=USER)),
                      ("release_execute", SB.ReleaseExecuteRequest(
                          session_id=sid, user_context=USER, operation_id=uid(),
                          release_all=SB.ReleaseExecuteRequest.ReleaseAll()))):
        code, details, _, got = rpc_failure(lambda: cm[name](req, timeout=30, metadata=auth("bob")))
        assert code == "PERMISSION_DENIED" and not got, (name, code, details)
        assert "alice" not in details and "connect_secret" not in details, details
    # the same session through catalyzer.v1: bob is refused there too
    q = pb.AnalyzeRequest(session_id=sid, sql=pb.SqlQuery(query="SELECT connect_secret"))
    assert code_of(lambda: c.analyze(q, timeout=30, metadata=auth("bob"))) == "PERMISSION_DENIED"
    # alice's session is untouched, on both services
    after = cm["analyze"](c_schema(sid, "SELECT connect_secret AS s"), timeout=30, metadata=auth("alice"))
    assert after.server_side_session_id == before.server_side_session_id
    m = list(c.analyze(q, timeout=30, metadata=auth("alice")))[-1].result
    assert m.ok, m.error
    r = cm["release_session"](SB.ReleaseSessionRequest(session_id=sid, user_context=USER), timeout=30,
                              metadata=auth("alice"))
    assert r.session_id == sid


c = Client(d.grpc_addr, pb, hpb, channel=tls_channel(d.grpc_port))
t.check("Spark Connect: another principal cannot read, configure, change or release a session, even with its id; "
        "the session is the catalyzer.v1 session of that id (refused there too)", connect_ownership)
cch.close()
c.close()
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0 (Spark Connect over TLS and tokens)", d.log()[-2000:])

d = started(Daemon(*pki.server_flags(mutual=True)))


def connect_mtls():
    alice, mallory = tls_channel(d.grpc_port, "alice"), tls_channel(d.grpc_port, "mallory")
    try:
        a, m = connect_methods(alice), connect_methods(mallory)
        sid = uid()
        list(a["execute"](c_sql(sid, "CREATE TEMPORARY VIEW mv AS SELECT 1 AS x"), timeout=30))
        r = a["analyze"](c_schema(sid, "SELECT * FROM mv"), timeout=30)
        assert [f.name for f in r.schema.schema.struct.fields] == ["x"]
        code, _, _, _ = rpc_failure(lambda: m["analyze"](c_schema(sid, "SELECT * FROM mv"), timeout=30))
        assert code == "PERMISSION_DENIED", code
        r = m["analyze"](c_schema(uid(), "SELECT 2 AS y"), timeout=30)
        assert [f.name for f in r.schema.schema.struct.fields] == ["y"]
        nocert = tls_channel(d.grpc_port)
        code, _, _, _ = rpc_failure(lambda: connect_methods(nocert)["analyze"](c_schema(uid(), "SELECT 1"), timeout=5))
        nocert.close()
        assert code == "UNAVAILABLE", code
    finally:
        alice.close()
        mallory.close()


t.check("Spark Connect over mutual TLS: the certificate's name owns the session; no certificate, no connection",
        connect_mtls)
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0 (Spark Connect over mutual TLS)", d.log()[-2000:])

t.ok(not any(x in dm.log() for dm in DAEMONS for x in SANITIZER), "no sanitizer reports from any of the %d daemons"
     % len(DAEMONS), "\n".join(dm.log()[-3000:] for dm in DAEMONS if any(x in dm.log() for x in SANITIZER)))
pki.cleanup()
t.done()
