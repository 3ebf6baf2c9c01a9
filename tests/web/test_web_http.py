#!/usr/bin/env python3
"""The debugger page's HTTP side, without a browser: GET / and its assets
(content types, Content-Security-Policy, ETag revalidation, size budget),
CORS (preflight and response headers for --http-cors origins only, nothing
when the flag is absent), GET for the read-only calls (analyze, list-functions)
and its refusals, and the --http-cors flag's validation."""
import http.client
import json
import subprocess
import urllib.parse

from daemon import CATALYZERD, Daemon, Tap

t = Tap()
ALLOWED = "http://localhost:8123"
d = Daemon("--http-cors", ALLOWED + ", https://debug.example:8443")
plain = Daemon()


def req(port, method, path, body=None, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read()
    hdrs = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    return r.status, hdrs, data


ASSETS = {}


def page_and_assets():
    st, h, body = req(d.http_port, "GET", "/")
    assert st == 200 and h["content-type"].startswith("text/html"), (st, h)
    csp = h.get("content-security-policy", "")
    for part in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]:
        assert part in csp, csp
    assert "unsafe-inline" not in csp and "http" not in csp, csp
    assert h.get("x-content-type-options") == "nosniff"
    html = body.decode()
    assert "<script" in html and 'src="/assets/app.js"' in html
    assert "<style" not in html and " style=" not in html and "onclick" not in html, "inline style or script"
    ASSETS["/"] = (h, body)
    for path, ctype in [("/assets/app.js", "text/javascript"), ("/assets/app.css", "text/css"),
                        ("/assets/favicon.svg", "image/svg+xml")]:
        st, h, body = req(d.http_port, "GET", path)
        assert st == 200 and h["content-type"].startswith(ctype), (path, st, h)
        assert "content-security-policy" in h
        ASSETS[path] = (h, body)
    # nothing external referenced anywhere
    for path, (h, body) in ASSETS.items():
        text = body.decode()
        for bad in ["http://", "https://", "//cdn", "@import"]:
            if path == "/assets/favicon.svg" and bad == "http://":
                text = text.replace("http://www.w3.org/2000/svg", "")  # the SVG namespace, not a fetch
            assert bad not in text, (path, bad)
    total = sum(len(b) for _, b in ASSETS.values())
    print("# page assets: %d bytes uncompressed (%s)" % (total, ", ".join("%s %d" % (p, len(b)) for p, (_, b) in ASSETS.items())))
    assert total <= 300 * 1024, total


t.check("GET / and /assets/*: types, CSP allowing nothing external, no inline code, <= 300 KB", page_and_assets)


def etags():
    h, body = ASSETS["/assets/app.js"]
    etag = h["etag"]
    st, h2, b2 = req(d.http_port, "GET", "/assets/app.js", headers={"If-None-Match": etag})
    assert st == 304 and b2 == b"", (st, b2[:50])
    st, _, b3 = req(d.http_port, "GET", "/assets/app.js", headers={"If-None-Match": '"other"'})
    assert st == 200 and b3 == body
    st, h4, b4 = req(d.http_port, "HEAD", "/")
    assert st == 200 and b4 == b"" and int(h4["content-length"]) == len(ASSETS["/"][1]), (st, h4)
    st, _, _ = req(d.http_port, "POST", "/", body=b"{}")
    assert st == 501, st
    st, _, _ = req(d.http_port, "GET", "/assets/nope.js")
    assert st == 404, st


t.check("ETag revalidation (304), HEAD, POST refused, unknown asset 404", etags)


def preflight():
    h = {"Origin": ALLOWED, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    st, hd, body = req(d.http_port, "OPTIONS", "/v1/analyze", headers=h)
    assert st == 204 and body == b"", (st, hd)
    assert hd["access-control-allow-origin"] == ALLOWED and "POST" in hd["access-control-allow-methods"], hd
    assert "content-length" not in hd
    st, hd, _ = req(d.http_port, "OPTIONS", "/v1/execute",
                    headers=dict(h, Origin="https://debug.example:8443", **{"Access-Control-Request-Method": "GET"}))
    assert st == 204 and hd["access-control-allow-origin"] == "https://debug.example:8443", (st, hd)
    for bad in [dict(h, Origin="http://evil.example"), dict(h, Origin="null"),
                dict(h, **{"Access-Control-Request-Method": "DELETE"}),
                dict(h, **{"Access-Control-Request-Headers": "content-type, x-secret"})]:
        st, hd, _ = req(d.http_port, "OPTIONS", "/v1/analyze", headers=bad)
        assert st == 403 and "access-control-allow-origin" not in hd, (bad, st, hd)
    st, hd, _ = req(plain.http_port, "OPTIONS", "/v1/analyze", headers=h)
    assert st == 403 and not any(k.startswith("access-control") for k in hd), (st, hd)


t.check("CORS preflight: 204 for configured origins, 403 otherwise and when --http-cors is absent", preflight)


def cors_responses():
    body = b'{"sql": "SELECT 1 AS a"}'
    ct = {"Content-Type": "application/json"}
    st, hd, _ = req(d.http_port, "POST", "/v1/analyze", body, dict(ct, Origin=ALLOWED))
    assert st == 200 and hd["access-control-allow-origin"] == ALLOWED and hd["vary"] == "Origin", hd
    st, hd, _ = req(d.http_port, "POST", "/v1/analyze?stream=1", body, dict(ct, Origin=ALLOWED))
    assert st == 200 and hd["access-control-allow-origin"] == ALLOWED and hd["content-type"] == "application/x-ndjson", hd
    # other origins are refused by the admission check (--http-allowed-origins), without CORS headers
    st, hd, _ = req(d.http_port, "POST", "/v1/analyze", body, dict(ct, Origin="http://evil.example"))
    assert st == 403 and "access-control-allow-origin" not in hd, (st, hd)
    st, hd, _ = req(plain.http_port, "POST", "/v1/analyze", body, dict(ct, Origin=ALLOWED))
    assert st == 403 and not any(k.startswith("access-control") for k in hd), (st, hd)
    # the page's own origin needs no CORS
    own = "http://127.0.0.1:%d" % plain.http_port
    st, hd, _ = req(plain.http_port, "POST", "/v1/analyze", body, dict(ct, Origin=own))
    assert st == 200 and not any(k.startswith("access-control") for k in hd), (st, hd)


t.check("CORS response headers only for --http-cors origins (also on NDJSON streams); others refused by the Origin check",
        cors_responses)


def get_calls():
    q = urllib.parse.urlencode({"sql": "SELECT 1 AS a, a + 1 AS b", "traceLevel": "TRACE_LEVEL_EFFECTIVE", "omitResolvedPlan": "true"})
    st, _, body = req(d.http_port, "GET", "/v1/analyze?" + q)
    j = json.loads(body)
    assert st == 200 and j["result"]["schema"] == "struct<a:int,b:int>" and "plan" not in j["result"], j
    assert any(e["rule"] == "ResolveLateralColumnAliasReference" for e in j["traceEvents"]), j["traceEvents"]
    # the whole request as JSON, streamed
    full = json.dumps({"sql": {"query": "SELECT x FROM t"}, "catalog": {"tables": [{"name": "t", "columns": [{"name": "x", "type": "bigint"}]}]}})
    st, hd, body = req(d.http_port, "GET", "/v1/analyze?stream=1&request=" + urllib.parse.quote(full))
    lines = [json.loads(x) for x in body.decode().splitlines()]
    assert st == 200 and hd["content-type"] == "application/x-ndjson" and lines[-1]["result"]["schema"] == "struct<x:bigint>", lines[-1]
    # conf entries (stateless: this call only)
    st, _, body = req(d.http_port, "GET", "/v1/analyze?sql=SELECT+1+AS+A,+a&conf.spark.sql.caseSensitive=true")
    r = json.loads(body)["result"]
    assert st == 200 and not r.get("ok") and r["error"]["errorClass"].startswith("UNRESOLVED_COLUMN"), r
    st, _, body = req(d.http_port, "GET", "/v1/list-functions")
    assert st == 200 and any(f["name"] == "sum" for f in json.loads(body)["functions"])
    # a long query in the URL (TPC-DS sized)
    long_sql = "SELECT " + ", ".join("%d AS c%d" % (i, i) for i in range(1500))
    st, _, body = req(d.http_port, "GET", "/v1/analyze?omitResolvedPlan=true&omitTreeString=true&sql=" + urllib.parse.quote(long_sql))
    assert st == 200 and json.loads(body)["result"]["ok"], body[:200]


t.check("GET /v1/analyze (sql=, request=, conf.KEY=, stream=1, long URLs) and GET /v1/list-functions", get_calls)


def get_refusals():
    for path, code in [("/v1/execute?sql=SET+x%3D1", 405), ("/v1/drop-session?sessionId=s", 405),
                       ("/v1/register-catalog", 405),
                       ("/v1/analyze?sessionId=s1&conf.spark.sql.caseSensitive=true&sql=SELECT+1", 400),
                       ("/v1/analyze?sql=%ZZ", 400), ("/v1/analyze?sql=a%00b", 400), ("/v1/analyze?request=%7B", 400),
                       ("/v1/analyze?traceLevel=NOPE&sql=SELECT+1", 400),
                       ("/v1/analyze?sql=SELECT+1&sql=SELECT+2", 400)]:
        st, hd, body = req(d.http_port, "GET", path)
        assert st == code, (path, st, body)
        if code == 405:
            assert hd.get("allow") == "POST", hd
        else:
            assert "message" in json.loads(body), body
    st, _, body = req(d.http_port, "GET", "/v1/analyze?sql=" + "x" * (70 << 10))
    assert st == 414, st
    st, _, body = req(d.http_port, "GET", "/v1/analyze?sql=SELECT+1+AS+a")
    assert st == 200 and json.loads(body)["result"]["ok"]


t.check("GET refused for session-changing calls, conf on a session, bad escapes; 414 past 64 KiB; good call after", get_refusals)


def plan_details():
    body = json.dumps({"sql": "SELECT a, a + 1 AS b FROM (SELECT 1 AS a)", "planDetails": True}).encode()
    st, _, out = req(d.http_port, "POST", "/v1/analyze", body, {"Content-Type": "application/json"})
    p = json.loads(out)["result"]["plan"]
    assert p["description"].startswith("Project [a#"), p
    assert [a["name"] for a in p["output"]] == ["a", "b"] and p["output"][1]["type"]["catalogString"] == "int", p["output"]
    kid = p["children"][0]
    assert kid["description"].startswith("SubqueryAlias") and kid["output"][0]["exprId"] == p["output"][0]["exprId"]
    st, _, out = req(d.http_port, "POST", "/v1/analyze", b'{"sql": "SELECT 1 AS a"}', {"Content-Type": "application/json"})
    p = json.loads(out)["result"]["plan"]
    assert "description" not in p and "output" not in p, p


t.check("planDetails: every node's description (tree-string line) and output attributes; off by default", plan_details)


def flag_validation():
    for bad in ["localhost", "http://x/path", "*", "http://a,ftp:/b"]:
        r = subprocess.run([CATALYZERD, "--http-cors", bad, "--grpc", "127.0.0.1:0", "--http", "127.0.0.1:0"],
                           capture_output=True, text=True, timeout=10)
        assert r.returncode != 0 and "http-cors" in r.stderr, (bad, r.returncode, r.stderr)
    r = subprocess.run([CATALYZERD, "--help"], capture_output=True, text=True, timeout=10)
    assert "--http-cors" in r.stdout and "CATALYZERD_HTTP_CORS" in r.stdout


t.check("--http-cors rejects what is not an origin; --help lists it", flag_validation)

for x in (d, plain):
    t.ok(x.alive(), "daemon alive after the checks")
    t.ok(x.stop() == 0, "daemon drains and exits 0", x.log()[-2000:])
t.done()
