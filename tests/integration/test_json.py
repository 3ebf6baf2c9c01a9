#!/usr/bin/env python3
"""The JSON debugging endpoint with curl: analyze (proto3 JSON mapping and the
{"sql": ...} shorthand), execute with a session, register-catalog,
drop-session, /healthz, /metrics, and bad JSON each followed by a good call."""
import json
import shutil
import subprocess
import time

from daemon import Daemon, Tap, skip_all

if not shutil.which("curl"):
    skip_all("curl not installed")

t = Tap()
d = Daemon()
base = "http://127.0.0.1:%d" % d.http_port


def curl(path, body=None, ctype="application/json", method=None):
    cmd = ["curl", "-s", "-o", "-", "-w", "\n%{http_code}", base + path]
    if body is not None:
        cmd += ["-H", "Content-Type: " + ctype, "--data-binary", body if isinstance(body, str) else body.decode()]
    if method:
        cmd += ["-X", method]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    text, code = out.rsplit("\n", 1)
    return int(code), text


def good():
    code, text = curl("/v1/analyze", '{"sql": "SELECT 1 AS a"}')
    assert code == 200, (code, text)
    assert json.loads(text)["result"]["schema"] == "struct<a:int>"
    return True


def shorthand():
    code, text = curl("/v1/analyze", '{"sql": "SELECT 1 AS a, 2.5 AS b", "traceLevel": "TRACE_LEVEL_ALL"}')
    assert code == 200, text
    j = json.loads(text)
    assert j["result"]["ok"] is True and j["result"]["schema"] == "struct<a:int,b:decimal(2,1)>", j["result"]
    assert len(j["traceEvents"]) > 0 and "treeString" in j["result"]


t.check("POST /v1/analyze with {\"sql\": ...} answers events and result", shorthand)


def proto_json():
    body = {"sql": {"query": "SELECT x FROM t"},
            "catalog": {"tables": [{"name": "t", "columns": [{"name": "x", "type": "int"}]}]},
            "trace_level": "TRACE_LEVEL_EFFECTIVE", "omitResolvedPlan": True}
    code, text = curl("/v1/analyze", json.dumps(body))
    assert code == 200, text
    r = json.loads(text)["result"]
    assert r["schema"] == "struct<x:int>" and "plan" not in r, r


t.check("proto3 JSON mapping (camelCase and snake_case names, enums by name)", proto_json)


def analysis_error():
    code, text = curl("/v1/analyze", '{"sql": "SELECT nope FROM (SELECT 1 AS a)"}')
    assert code == 200, text
    e = json.loads(text)["result"]["error"]
    assert e["errorClass"].startswith("UNRESOLVED_COLUMN"), e


t.check("analysis errors are in-band results", analysis_error)


def session_flow():
    code, text = curl("/v1/execute", '{"sessionId": "j1", "sql": "CREATE TEMPORARY VIEW v AS SELECT 1 AS a"}')
    assert code == 200 and json.loads(text)["results"][0]["ok"], text
    code, text = curl("/v1/register-catalog",
                      '{"sessionId": "j1", "catalog": {"tables": [{"name": "u", "columns": [{"name": "k", "type": "string"}]}]}}')
    assert code == 200 and json.loads(text)["tables"] == 1, text
    code, text = curl("/v1/analyze", '{"sessionId": "j1", "sql": "SELECT * FROM v, u"}')
    assert code == 200 and json.loads(text)["result"]["schema"] == "struct<a:int,k:string>", text
    code, text = curl("/v1/drop-session", '{"sessionId": "j1"}')
    assert code == 200 and json.loads(text)["existed"] is True, text


t.check("execute / register-catalog / analyze / drop-session on one session", session_flow)


def health_metrics():
    code, text = curl("/healthz")
    assert code == 200 and json.loads(text)["status"] == "SERVING"
    code, text = curl("/metrics")
    assert code == 200
    for name in ["catalyzer_requests_total{method=\"Analyze\",status=\"OK\"}", "catalyzer_request_duration_seconds_bucket",
                 "catalyzer_queue_depth", "catalyzer_rule_runs_total", "catalyzer_rule_effective_runs_total",
                 "catalyzer_rule_seconds_total", "catalyzer_analysis_errors_total{error_class=\"UNRESOLVED_COLUMN"]:
        assert name in text, name


t.check("GET /healthz and GET /metrics (Prometheus text)", health_metrics)

BAD = [
    ("malformed JSON", "/v1/analyze", '{"sql": ', 400),
    ("not an object", "/v1/analyze", '[1, 2]', 400),
    ("unknown field", "/v1/analyze", '{"sqll": "SELECT 1"}', 400),
    ("wrong type", "/v1/analyze", '{"traceLevel": true, "sql": "SELECT 1"}', 400),
    ("unknown enum name", "/v1/analyze", '{"traceLevel": "TRACE_LEVEL_LOUD", "sql": "SELECT 1"}', 400),
    ("unknown enum number", "/v1/analyze", '{"traceLevel": 99, "sql": "SELECT 1"}', 400),
    ("invalid UTF-8", "/v1/analyze", b'{"sql": "SELECT \xff\xfe"}', 400),
    ("deeply nested JSON plan", "/v1/analyze",
     '{"plan": ' + '{"project": {"input": ' * 5000 + '{"sql": {"query": "SELECT 1"}}' + '}}' * 5000 + '}', 400),
    ("wrong content-type", "/v1/analyze", '{"sql": "SELECT 1"}', 415),
    ("unknown endpoint", "/v1/nothing", '{}', 404),
    ("oversize body", "/v1/analyze", '{"sql": "SELECT \'' + "x" * (5 << 20) + '\'"}', 429),
]
for name, path, body, want in BAD:
    def bad(path=path, body=body, want=want, name=name):
        if isinstance(body, bytes):
            r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H",
                                "Content-Type: application/json", "--data-binary", "@-", base + path],
                               input=body, capture_output=True, timeout=30)
            code = int(r.stdout)
        elif len(body) > 100000:
            r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H",
                                "Content-Type: application/json", "--data-binary", "@-", base + path],
                               input=body.encode(), capture_output=True, timeout=30)
            code = int(r.stdout)
        else:
            code, text = curl(path, body, ctype="text/xml" if name == "wrong content-type" else "application/json")
        assert code == want, (code, want)
        return good()
    t.check("bad JSON input (%s) → %d, then a good call succeeds" % (name, want), bad)


def bad_http():
    import socket
    s = socket.create_connection(("127.0.0.1", d.http_port), timeout=10)
    s.sendall(b"GARBAGE\x00\x01 / HTTP/9.9\r\n\r\n")
    data = s.recv(4096)
    s.close()
    assert data.startswith(b"HTTP/1.1 400"), data
    return good()


t.check("malformed HTTP/1.1 → 400, then a good call succeeds", bad_http)


def keepalive():
    out = subprocess.run(["curl", "-s", "-H", "Content-Type: application/json", "--data-binary",
                          '{"sql": "SELECT 1 AS a"}', base + "/v1/analyze", "--next", "-H",
                          "Content-Type: application/json", "--data-binary", '{"sql": "SELECT 2 AS b"}',
                          base + "/v1/analyze"], capture_output=True, text=True, timeout=30).stdout
    lines = [json.loads(x) for x in out.splitlines() if x.strip()]
    assert [x["result"]["schema"] for x in lines] == ["struct<a:int>", "struct<b:int>"], out


t.check("two requests on one keep-alive connection", keepalive)


def pipelined():
    import socket
    s = socket.create_connection(("127.0.0.1", d.http_port), timeout=10)
    body = b'{"sql": "SELECT 1 AS a"}'
    req = b"POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
        len(body), body)
    s.sendall(req * 5)
    data = b""
    deadline = time.time() + 10
    while data.count(b"HTTP/1.1 200") < 5 and time.time() < deadline:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    s.close()
    assert data.count(b"HTTP/1.1 200") == 5, data[:300]


t.check("five pipelined requests on one connection are answered in order", pipelined)

def big_response():
    q = "SELECT " + ", ".join("%d + %d AS c%d" % (i, i, i) for i in range(3000))
    body = json.dumps({"sql": q, "traceLevel": "TRACE_LEVEL_ALL", "tracePlans": True})
    r = subprocess.run(["curl", "-s", "-m", "60", "-H", "Content-Type: application/json", "--data-binary", "@-",
                        base + "/v1/analyze"], input=body.encode(), capture_output=True, timeout=90)
    j = json.loads(r.stdout)
    assert len(r.stdout) > (1 << 20) and j["result"]["ok"] and len(j["traceEvents"]) > 0, len(r.stdout)


t.check("a response body larger than the stream buffer (1 MiB) is delivered whole", big_response)


def json_deadline():
    q = "SELECT " + ", ".join("%d + %d AS c%d" % (i, i, i) for i in range(6000))
    body = json.dumps({"sql": q, "traceLevel": "TRACE_LEVEL_ALL", "tracePlans": True})
    r = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", "grpc-timeout: 2m", "-H",
                        "Content-Type: application/json", "--data-binary", "@-", base + "/v1/analyze"],
                       input=body.encode(), capture_output=True, timeout=90)
    text, code = r.stdout.decode().rsplit("\n", 1)
    assert code == "504" and json.loads(text)["status"] == "DEADLINE_EXCEEDED", (code, text[:200])
    return good()


t.check("grpc-timeout on the JSON endpoint → 504 DEADLINE_EXCEEDED", json_deadline)

def ndjson_stream():
    out = subprocess.run(["curl", "-sN", "-H", "Accept: application/x-ndjson", "-H", "Content-Type: application/json",
                          "--data-binary", '{"sql": "SELECT 1 AS a", "traceLevel": "TRACE_LEVEL_ALL"}',
                          base + "/v1/analyze"], capture_output=True, text=True, timeout=30).stdout
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) > 1 and all("traceEvent" in x for x in lines[:-1]), out[:500]
    assert [x["traceEvent"].get("sequence", 0) for x in lines[:-1]] == list(range(len(lines) - 1))
    assert lines[-1]["result"]["schema"] == "struct<a:int>"
    code, text = curl("/v1/analyze?stream=1", '{"plan": {}}')
    assert code == 400, (code, text)
    return good()


t.check("NDJSON streaming (Accept: application/x-ndjson or ?stream=1): events as produced, then the result", ndjson_stream)

t.ok(d.alive(), "daemon alive after the JSON tests")
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0")
t.ok("ERROR: LeakSanitizer" not in d.log() and "runtime error" not in d.log(), "no sanitizer reports", d.log()[-3000:])
t.done()
