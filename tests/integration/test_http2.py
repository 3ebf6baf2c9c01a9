#!/usr/bin/env python3
"""The HTTP port speaks HTTP/2 too (issue 16: HAProxy's "proto h2" toward the
replicas' JSON endpoint): a connection whose first bytes are the HTTP/2
client preface is served by nghttp2, each stream through the HTTP/1.1
handlers (server/http1.c, "HTTP/2"), so it gets exactly the HTTP/1.1
answers. Checked with curl --http2-prior-knowledge, nghttp and h2load
against a live daemon: the JSON analyze (whole and NDJSON), /metrics,
/healthz, the page, errors, a body past --max-message-bytes, the header
list limit, HTTP/1.1 on the same port, and garbage after the preface
(closed, the daemon still serving)."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

from daemon import Daemon, Tap, nghttp, skip_all

if not shutil.which("curl") or not shutil.which("nghttp") or not shutil.which("h2load"):
    skip_all("curl, nghttp or h2load (nghttp2-client) is not installed")

t = Tap()
d = Daemon("--max-message-bytes", "100000")
base = "http://127.0.0.1:%d" % d.http_port
tmp = tempfile.mkdtemp(prefix="cz-h2-")


def curl(path, *args, data=None, h2=True, ctype="application/json"):
    """(http version, status, headers dict, body)."""
    cmd = ["curl", "-sS", "-i", "--max-time", "20", "--http2-prior-knowledge" if h2 else "--http1.1"]
    if data is not None:
        f = os.path.join(tmp, "body")
        with open(f, "wb") as fh:
            fh.write(data if isinstance(data, bytes) else data.encode())
        cmd += ["-H", "Content-Type: " + ctype, "--data-binary", "@" + f]
    cmd += list(args) + [base + path]
    out = subprocess.run(cmd, capture_output=True, timeout=30).stdout.decode("latin-1")
    head, _, body = out.replace("\r\n", "\n").partition("\n\n")
    lines = head.split("\n")
    ver, status = (lines[0].split() + ["?", "?"])[:2]
    hdrs = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            hdrs[k.strip().lower()] = v.strip()
    return ver, status, hdrs, body


ver, st, h, body = curl("/v1/analyze", data=json.dumps({"sql": "SELECT 1 AS a"}))
doc = json.loads(body or "{}")
t.ok(ver == "HTTP/2" and st == "200" and doc.get("result", {}).get("schema") == "struct<a:int>"
     and h.get("x-catalyzer-protocol") == "HTTP/2" and h.get("x-request-id"),
     "h2c: POST /v1/analyze answers as over HTTP/1.1 (schema %s, x-request-id %s)"
     % (doc.get("result", {}).get("schema"), h.get("x-request-id")), body[:300] + repr(h))

ver, st, h, body = curl("/v1/analyze?sql=SELECT%202%20AS%20b")
t.ok(ver == "HTTP/2" and st == "200" and "struct<b:int>" in body, "h2c: GET /v1/analyze?sql=", body[:300])

ver, st, h, body = curl("/v1/analyze", "-H", "Accept: application/x-ndjson", data=json.dumps({"sql": "SELECT 1 AS a"}))
lines = [json.loads(x) for x in body.splitlines() if x.strip()]
t.ok(st == "200" and h.get("content-type") == "application/x-ndjson" and lines and "transfer-encoding" not in h,
     "h2c: NDJSON streaming (%d lines, no Transfer-Encoding in HTTP/2)" % len(lines), body[:300] + repr(h))

ver, st, h, body = curl("/metrics")
t.ok(ver == "HTTP/2" and st == "200" and "catalyzer_requests_total" in body, "h2c: /metrics", body[:200])

ver, st, h, body = curl("/healthz")
t.ok(ver == "HTTP/2" and st == "200" and "SERVING" in body, "h2c: /healthz", body)

ver, st, h, body = curl("/")
t.ok(st == "200" and h.get("content-type", "").startswith("text/html") and h.get("etag"), "h2c: the debugger page",
     repr(h))
etag = h.get("etag", "")
ver, st, h, body = curl("/", "-H", "If-None-Match: " + etag)
t.ok(st == "304" and body == "", "h2c: the page revalidates (304)", st + body[:100])
ver, st, h, body = curl("/healthz", "-I")
t.ok(st == "200" and body == "", "h2c: HEAD /healthz has no body", st + repr(body[:100]))

ver, st, h, body = curl("/nope")
t.ok(st == "404" and json.loads(body).get("status") == "NOT_FOUND", "h2c: an unknown path is 404 NOT_FOUND", body)
ver, st, h, body = curl("/v1/analyze", data="{not json")
t.ok(st == "400" and json.loads(body).get("status") == "INVALID_ARGUMENT", "h2c: bad JSON is 400", body)
ver, st, h, body = curl("/v1/analyze", data="sql=1", ctype="application/x-www-form-urlencoded")
t.ok(st == "415", "h2c: a form post is refused (415)", st + body)
ver, st, h, body = curl("/v1/analyze", "-H", "Host: evil.example", data=json.dumps({"sql": "SELECT 1"}))
t.ok(st == "403", "h2c: a foreign :authority is refused (403, DNS rebinding guard)", st + body)
big = json.dumps({"sql": "SELECT '" + "x" * 200000 + "'"})
ver, st, h, body = curl("/v1/analyze", data=big)
t.ok(st == "429" and "100000" in body, "h2c: a body past --max-message-bytes is RESOURCE_EXHAUSTED", st + body[:200])
ver, st, h, body = curl("/v1/analyze", "-H", "X-Request-Id: h2-req-1", "-H",
                        "traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                        data=json.dumps({"sql": "SELECT 1"}))
t.ok(h.get("x-request-id") == "h2-req-1" and h.get("traceresponse", "").startswith("00-0af7651916cd43dd"),
     "h2c: x-request-id and traceparent honoured", repr(h))

# A header list past --max-header-list-bytes: that stream is reset, the connection serves on.
hdrs, out = nghttp(d.http_port, "/healthz", headers=[("x-big", "a" * 20000)])
t.ok(":status" not in hdrs and ("RST_STREAM" in hdrs or "GOAWAY" in hdrs), "nghttp: an oversize header list is refused",
     out.decode("latin-1")[-600:])

# Many streams on a few connections.
f = os.path.join(tmp, "q.json")
with open(f, "w") as fh:
    fh.write(json.dumps({"sql": "SELECT 1 AS a"}))
r = subprocess.run(["h2load", "-n", "300", "-c", "3", "-m", "20", "-d", f, "-H", "content-type: application/json",
                    base + "/v1/analyze"], capture_output=True, text=True, timeout=120)
t.ok("300 succeeded" in r.stdout and "300 2xx" in r.stdout, "h2load: 300 analyze calls, 20 streams at a time, all 200",
     r.stdout[-800:])

# HTTP/1.1 on the same port still.
ver, st, h, body = curl("/v1/analyze", h2=False, data=json.dumps({"sql": "SELECT 1 AS a"}))
t.ok(ver == "HTTP/1.1" and st == "200" and "struct<a:int>" in body and "x-catalyzer-protocol" not in h,
     "HTTP/1.1 on the same port", body[:200])


# Garbage after the preface: a GOAWAY and the connection closed, the daemon serving on.
def garbage():
    s = socket.create_connection(("127.0.0.1", d.http_port), timeout=5)
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\xff" * 64 + b"garbage" * 10)
    got = b""
    end = time.monotonic() + 5
    while time.monotonic() < end:
        b = s.recv(65536)
        if not b:
            break
        got += b
    s.close()
    # frames: 9-byte headers; GOAWAY is type 7
    types, i = [], 0
    while i + 9 <= len(got):
        n = int.from_bytes(got[i:i + 3], "big")
        types.append(got[i + 3])
        i += 9 + n
    return types


types = garbage()
t.ok(7 in types, "garbage after the preface: GOAWAY, connection closed (frames %r)" % types)
s = socket.create_connection(("127.0.0.1", d.http_port), timeout=5)
s.sendall(b"PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n")  # a broken preface
s.settimeout(5)
try:
    while s.recv(65536):
        pass
    closed = True
except OSError:
    closed = False
s.close()
t.ok(closed, "a broken preface: connection closed")
ver, st, h, body = curl("/healthz")
t.ok(d.alive() and st == "200", "the daemon still serves after both", d.log()[-500:])

rc = d.stop()
t.ok(rc == 0 and "Sanitizer" not in d.log() and "runtime error" not in d.log(),
     "the daemon drains and exits 0 (no sanitizer report)", d.log()[-1500:])
shutil.rmtree(tmp, ignore_errors=True)
t.done()
