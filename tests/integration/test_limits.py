#!/usr/bin/env python3
"""The daemon's own limits (issue 13, item 4), each against the live daemon,
each a case the daemon got wrong before:

* session state is bounded per session (--max-session-state-bytes) and in
  total (--max-total-session-state-bytes): a request past either gets
  RESOURCE_EXHAUSTED naming the flag and its changes are not kept (a 4 MB
  DECLARE used to be kept, whatever its size);
* sessions come into being only with a call that succeeds: rejected requests
  leave none behind (they used to create one each);
* a client's grpc-timeout cannot outlast --max-timeout-ms (a 1-hour timeout
  used to defeat every deadline);
* each port has its own connection limit: connections held open on the JSON
  port cannot lock gRPC clients out (one limit used to cover both);
* the idle timer counts calls, not bytes: a connection trickling a byte at a
  time is closed (every byte used to reset it);
* per HTTP/2 connection, only --max-pinned-calls calls may wait on a
  flow-control window the client never opens (more used to pin every worker)."""
import re
import select
import socket
import time
import urllib.request

from daemon import (Client, Daemon, RawH2, Tap, frame, grpc, grpc_headers, grpc_msg, hpack, load_stubs,
                    skip_all)

if grpc is None:
    skip_all("python3-grpcio not importable (use Debian's /usr/bin/python3)")

pb, hpb = load_stubs()
t = Tap()


def metric(d, name):
    body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % d.http_port, timeout=10).read().decode()
    m = re.search(r"^%s (\S+)$" % re.escape(name), body, re.M)
    return float(m.group(1)) if m else None


def execute(c, session, sql, timeout=30):
    try:
        r = c.execute(pb.ExecuteRequest(session_id=session, sql=sql), timeout=timeout)
        return grpc.StatusCode.OK, r
    except grpc.RpcError as e:
        return e.code(), e.details()


def analyze(c, session, sql, timeout=30, conf=None):
    req = pb.AnalyzeRequest(session_id=session, sql=pb.SqlQuery(query=sql))
    for k, v in (conf or {}).items():
        req.conf[k] = v
    start = time.monotonic()
    try:
        return grpc.StatusCode.OK, list(c.analyze(req, timeout=timeout))[-1].result, time.monotonic() - start
    except grpc.RpcError as e:
        return e.code(), e.details(), time.monotonic() - start


# ---------------------------------------------------------------- session state
d = Daemon("--workers", "2", "--max-session-state-bytes", "3000000", "--max-total-session-state-bytes", "5000000",
           "--max-timeout-ms", "1000", "--enable-fault-injection")
c = Client(d.grpc_addr, pb, hpb)
code, r = execute(c, "A", "DECLARE small = 1")
t.ok(code == grpc.StatusCode.OK, "a small DECLARE is kept", r)
code, r = execute(c, "A", "DECLARE big = repeat('x', 4000000)")
t.ok(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "--max-session-state-bytes" in str(r),
     "a 4 MB DECLARE on a 3 MB session limit: RESOURCE_EXHAUSTED naming the flag", "%s %s" % (code, r))
code, r, _ = analyze(c, "A", "SELECT big")
t.ok(code == grpc.StatusCode.OK and not r.ok, "... and the variable was not kept", r)
code, r, _ = analyze(c, "A", "SELECT small")
t.ok(code == grpc.StatusCode.OK and r.ok, "... while the session's earlier state is intact", r)
for s in ("B", "C"):
    code, r = execute(c, s, "DECLARE v = repeat('y', 2000000)")
    t.ok(code == grpc.StatusCode.OK, "session %s: a 2 MB DECLARE fits" % s, "%s %s" % (code, r))
code, r = execute(c, "D", "DECLARE v = repeat('z', 2000000)")
t.ok(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "--max-total-session-state-bytes" in str(r),
     "the third 2 MB session passes the 5 MB total: RESOURCE_EXHAUSTED naming the flag", "%s %s" % (code, r))
code, r, _ = analyze(c, "D", "SELECT v")
t.ok(code == grpc.StatusCode.OK and not r.ok, "... and its variable was not kept", r)
c.drop(pb.DropSessionRequest(session_id="B"), timeout=30)
code, r = execute(c, "D", "DECLARE v = repeat('z', 2000000)")
t.ok(code == grpc.StatusCode.OK, "once a session is dropped its share is free again", "%s %s" % (code, r))

# ---------------------------------------------------------------- sessions only for valid requests
before = metric(d, "catalyzer_sessions")
for i in range(30):
    try:
        list(c.analyze(pb.AnalyzeRequest(session_id="rejected-%d" % i), timeout=30))  # neither sql nor plan
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e
after = metric(d, "catalyzer_sessions")
t.ok(after == before, "30 rejected requests with new session ids create no session (%s → %s)" % (before, after))
code, r, _ = analyze(c, "accepted", "SELECT 1")
t.ok(metric(d, "catalyzer_sessions") == before + 1, "a valid one creates its session")

# ---------------------------------------------------------------- grpc-timeout capped
code, r, secs = analyze(c, "slow", "SELECT 1", timeout=3600,
                        conf={"catalyzer.debug.fault": "slow", "catalyzer.debug.fault.millis": "5000"})
t.ok(code == grpc.StatusCode.DEADLINE_EXCEEDED and secs < 3,
     "a 1-hour grpc-timeout is cut to --max-timeout-ms 1000 (%s after %.1fs)" % (code.name, secs))
body = b'{"sessionId": "slow-json", "sql": "SELECT 1", "conf": {"catalyzer.debug.fault": "slow", ' \
       b'"catalyzer.debug.fault.millis": "5000"}}'
start = time.monotonic()
try:
    urllib.request.urlopen(urllib.request.Request(
        "http://127.0.0.1:%d/v1/analyze" % d.http_port, data=body, method="POST",
        headers={"Content-Type": "application/json", "grpc-timeout": "1H"}), timeout=30).read()
    got = "OK"
except urllib.error.HTTPError as e:
    got = e.read().decode()
t.ok("DEADLINE_EXCEEDED" in got and time.monotonic() - start < 3, "the same on the JSON port", got)
c.close()
t.ok(d.stop() == 0, "exit 0")

# ---------------------------------------------------------------- connections per port, idle timer
d = Daemon("--workers", "1", "--max-connections", "24", "--max-http-connections", "4", "--idle-timeout-seconds", "1")
held = [socket.create_connection(("127.0.0.1", d.http_port), timeout=5) for _ in range(20)]
time.sleep(0.3)


def open_conn(s):
    s.settimeout(0.2)
    try:
        return s.recv(1) != b""
    except socket.timeout:
        return True
    except OSError:
        return False


def count_open(socks):
    """Open connections among socks, probed together in one 0.2 s wait (one
    by one, 0.2 s each, the last ones outlived the 1 s idle timer)."""
    readable, _, _ = select.select(socks, [], [], 0.2)
    closed = 0
    for s in readable:
        try:
            closed += s.recv(1) == b""
        except OSError:
            closed += 1
    return len(socks) - closed


n_open = count_open(held)
t.ok(n_open == 4, "the JSON port keeps --max-http-connections 4 of 20 connections (%d)" % n_open)
c = Client(d.grpc_addr, pb, hpb)
t.check("gRPC clients still get in while the JSON port is full", c.good_call)
c.close()
for s in held:
    s.close()
time.sleep(0.3)

# A byte every 0.3 s never completes a request: closed after about a second.
s = socket.create_connection(("127.0.0.1", d.http_port), timeout=5)
start = time.monotonic()
closed_after = None
for ch in b"POST /v1/analyze HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 40:
    try:
        s.sendall(bytes([ch]))
    except OSError:
        closed_after = time.monotonic() - start
        break
    if not open_conn(s):
        closed_after = time.monotonic() - start
        break
    time.sleep(0.1)
    if time.monotonic() - start > 6:
        break
t.ok(closed_after is not None and closed_after < 4,
     "JSON port: trickling bytes do not reset the idle timer (closed after %s s)" % closed_after)
s.close()
h = RawH2(d.grpc_port)
start = time.monotonic()
closed_after = None
ping = frame(6, 0, 0, b"12345678")
while time.monotonic() - start < 6:
    for b in ping:
        try:
            h.send(bytes([b]))
        except OSError:
            closed_after = time.monotonic() - start
            break
        time.sleep(0.05)
    if closed_after is not None:
        break
    h.read_frames(timeout=0.05)
    if h.closed:
        closed_after = time.monotonic() - start
        break
t.ok(closed_after is not None and closed_after < 4,
     "gRPC port: a trickle of PING frames without calls does not keep the connection (closed after %s s)"
     % closed_after)
h.close()
t.ok(d.stop() == 0, "exit 0")

# ---------------------------------------------------------------- calls pinned by an unread window
d = Daemon("--workers", "2", "--stream-buffer-bytes", "16384")
ANALYZE = "/catalyzer.v1.Analyzer/Analyze"
heavy = "SELECT " + ", ".join("%d + %d AS c%d" % (i, i, i) for i in range(3000))
big = pb.AnalyzeRequest(sql=pb.SqlQuery(query=heavy), trace_level=pb.TRACE_LEVEL_ALL, trace_plans=True)
h = RawH2(d.grpc_port, initial_window=1024)
h.read_frames(timeout=0.3)


def call(sid, req):
    body = grpc_msg(req.SerializeToString())
    chunks = [body[i:i + 16384] for i in range(0, len(body), 16384)] or [b""]
    out = frame(1, 0x4, sid, hpack(grpc_headers(ANALYZE)))
    for k, ch in enumerate(chunks):
        out += frame(0, 0x1 if k == len(chunks) - 1 else 0, sid, ch)
    h.send(out)


call(1, big)
time.sleep(1.5)  # its output now waits on the 1 KiB window the client never opens
call(3, big)
frames = h.read_frames(until_stream_end=3, timeout=10)
s3 = [(ft, fl) for ft, fl, sid, _ in frames if sid == 3]
t.ok(s3 and s3[0][0] == 1 and s3[0][1] & 1 and not any(ft == 0 for ft, _ in s3),
     "a second call on the connection is refused at once (Trailers-Only)", s3)
time.sleep(0.2)
t.ok(re.search(r'"method":"Analyze".*"status":"RESOURCE_EXHAUSTED"', d.log()) is not None,
     "... with RESOURCE_EXHAUSTED", d.log()[-1500:])
c = Client(d.grpc_addr, pb, hpb)
t.check("other connections are served meanwhile", c.good_call)
c.close()
h.close()
t.ok(d.stop() == 0, "exit 0")
t.done()
