"""Shared helpers for the integration tests: start the real catalyzerd on
port 0, generate Python stubs from proto/ with protoc, grpcio calls without
grpc_tools (channel.unary_stream / unary_unary with the generated message
classes), raw HTTP/2 frames for protocol-abuse tests, and TAP output.

Environment (set by tests/integration/meson.build):
  CATALYZERD        path of the daemon binary
  CATALYZER_SOURCE  source root (proto/ lives there)
"""
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
CATALYZERD = os.environ.get("CATALYZERD", "catalyzerd")


def skip_all(why):
    print("1..0 # SKIP " + why)
    sys.exit(0)


try:
    import grpc  # noqa: E402
except ImportError:  # pragma: no cover
    grpc = None


def load_stubs():
    """protoc --python_out into a temp dir; returns (catalyzer_pb2, health_pb2).
    The project's spark.connect messages (plans) are generated beside them:
    connect_stubs() returns those modules."""
    out = tempfile.mkdtemp(prefix="cz-stubs-")
    proto = os.path.join(SOURCE, "proto")
    connect = sorted(os.path.join(proto, "spark", "connect", f)
                     for f in os.listdir(os.path.join(proto, "spark", "connect")) if f.endswith(".proto"))
    subprocess.run(["protoc", "--proto_path=" + proto, "--python_out=" + out,
                    os.path.join(proto, "catalyzer.proto"), os.path.join(proto, "health.proto")] + connect,
                   check=True)
    sys.path.insert(0, out)
    import catalyzer_pb2
    import health_pb2
    return catalyzer_pb2, health_pb2


def connect_stubs():
    """The spark.connect plan messages load_stubs generated: .rel (relations_pb2), .expr, .types."""
    import types as _types
    from spark.connect import expressions_pb2, relations_pb2, types_pb2
    return _types.SimpleNamespace(rel=relations_pb2, expr=expressions_pb2, types=types_pb2)


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, detail=""):
        """A failed check is a failure: there are no TODO or expected-failure
        markers, which would hide a regression."""
        self.n += 1
        if cond:
            print("ok %d - %s" % (self.n, name))
        else:
            self.failed += 1
            print("not ok %d - %s" % (self.n, name))
            for line in str(detail).splitlines()[:40]:
                print("# " + line)
        sys.stdout.flush()
        return cond

    def check(self, name, fn):
        """Runs fn(); a raised exception is a failure with its message."""
        try:
            r = fn()
            return self.ok(r is None or bool(r), name, "" if r is None or r else "returned %r" % (r,))
        except Exception as e:  # noqa: BLE001
            import traceback
            return self.ok(False, name, traceback.format_exc())

    def done(self):
        print("1..%d" % self.n)
        sys.exit(1 if self.failed else 0)


class Daemon:
    def __init__(self, *args, env=None):
        e = dict(os.environ)
        e.update(env or {})
        self.proc = subprocess.Popen([CATALYZERD, "--grpc", "127.0.0.1:0", "--http", "127.0.0.1:0"] + list(args),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, text=True)
        self.lines = []
        first = self.proc.stderr.readline()
        if not first:
            raise RuntimeError("catalyzerd exited: " + self.proc.stderr.read())
        self.lines.append(first)
        info = json.loads(first)
        assert info["msg"] == "listening", first
        self.grpc_port = info["grpc_port"]
        self.http_port = info["http_port"]
        self.info = info
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.grpc_addr = "127.0.0.1:%d" % self.grpc_port

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append(line)

    def log(self):
        return "".join(self.lines)

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=20):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self._reader.join(5)
        return rc

    def children(self):
        """(pid, CPU seconds) of each process the daemon started: its workers."""
        out = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % pid) as f:
                    st = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(st[1]) == self.proc.pid:  # ppid
                out.append((int(pid), (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK")))
        return out

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1


class Client:
    """grpcio calls by method path, with the generated message classes."""

    def __init__(self, addr, pb, hpb, channel=None):
        self.pb, self.hpb = pb, hpb
        self.channel = channel or grpc.insecure_channel(addr, options=[("grpc.max_receive_message_length", 64 << 20)])
        ser = lambda m: m if isinstance(m, (bytes, bytearray)) else m.SerializeToString()  # noqa: E731
        A = "/catalyzer.v1.Analyzer/"
        self.analyze = self.channel.unary_stream(A + "Analyze", request_serializer=ser,
                                                 response_deserializer=pb.AnalyzeResponse.FromString)
        self.execute = self.channel.unary_unary(A + "Execute", request_serializer=ser,
                                                response_deserializer=pb.ExecuteResponse.FromString)
        self.register = self.channel.unary_unary(A + "RegisterCatalog", request_serializer=ser,
                                                 response_deserializer=pb.RegisterCatalogResponse.FromString)
        self.drop = self.channel.unary_unary(A + "DropSession", request_serializer=ser,
                                             response_deserializer=pb.DropSessionResponse.FromString)
        self.check = self.channel.unary_unary("/grpc.health.v1.Health/Check", request_serializer=ser,
                                              response_deserializer=hpb.HealthCheckResponse.FromString)
        self.watch = self.channel.unary_stream("/grpc.health.v1.Health/Watch", request_serializer=ser,
                                               response_deserializer=hpb.HealthCheckResponse.FromString)
        self.unknown = self.channel.unary_unary(A + "NoSuchMethod", request_serializer=ser,
                                                response_deserializer=lambda b: b)

    def analyze_sql(self, sql, **kw):
        req = self.pb.AnalyzeRequest(sql=self.pb.SqlQuery(query=sql), **kw)
        msgs = list(self.analyze(req, timeout=30))
        return msgs

    def good_call(self):
        """The call every bad-input test follows with: must succeed."""
        msgs = self.analyze_sql("SELECT 1 AS a")
        r = msgs[-1].result
        assert r.ok and r.schema == "struct<a:int>", msgs[-1]
        return True

    def close(self):
        self.channel.close()


# ---------------------------------------------------------------- raw HTTP/2

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def frame(ftype, flags, sid, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", sid) + payload


def hpack_int(v, prefix_bits, first=0):
    limit = (1 << prefix_bits) - 1
    if v < limit:
        return bytes([first | v])
    out = [first | limit]
    v -= limit
    while v >= 128:
        out.append((v & 127) | 128)
        v >>= 7
    out.append(v)
    return bytes(out)


def hpack(headers):
    """Literal header fields without indexing, no Huffman: enough for tests."""
    out = b""
    for k, v in headers:
        k = k.encode() if isinstance(k, str) else k
        v = v.encode() if isinstance(v, str) else v
        out += b"\x00" + hpack_int(len(k), 7) + k + hpack_int(len(v), 7) + v
    return out


def grpc_headers(path, content_type="application/grpc", extra=()):
    return [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
            ("content-type", content_type), ("te", "trailers")] + list(extra)


def grpc_msg(body):
    return b"\x00" + struct.pack(">I", len(body)) + body


class RawH2:
    """A bare HTTP/2 connection: send frames, read frames."""

    def __init__(self, port, preface=True, initial_window=None):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        self.closed = False
        if preface:
            settings = b"" if initial_window is None else struct.pack(">HI", 4, initial_window)
            self.s.sendall(PREFACE + frame(4, 0, 0, settings))

    def read_stream(self, sid, timeout=30):
        """Reads stream sid to its end, granting flow-control window as data
        arrives. Returns (gRPC message payloads, ended_cleanly)."""
        data = b""
        deadline = time.time() + timeout
        big = struct.pack(">I", 1 << 28)
        self.send(frame(8, 0, 0, big) + frame(8, 0, sid, big))  # open the windows wide
        while time.time() < deadline:
            frames = self.read_frames(timeout=1)
            for ft, fl, fsid, payload in frames:
                if ft == 0 and fsid == sid:
                    data += payload
                if fsid == sid and ft == 3:
                    return _grpc_split(data), False
                if fsid == sid and ft == 1 and fl & 1:
                    return _grpc_split(data), True
            if self.closed and not frames:
                break
        return _grpc_split(data), False

    def send(self, data):
        self.s.sendall(data)

    def read_frames(self, until_stream_end=None, timeout=10):
        """Frames until the given stream ends (END_STREAM or RST) or the connection closes."""
        frames = []
        deadline = time.time() + timeout
        while time.time() < deadline:
            while len(self.buf) >= 9:
                ln = int.from_bytes(self.buf[:3], "big")
                if len(self.buf) < 9 + ln:
                    break
                ft, fl = self.buf[3], self.buf[4]
                sid = int.from_bytes(self.buf[5:9], "big") & 0x7FFFFFFF
                payload = self.buf[9:9 + ln]
                self.buf = self.buf[9 + ln:]
                frames.append((ft, fl, sid, payload))
                if ft == 4 and not (fl & 1):
                    try:
                        self.send(frame(4, 1, 0))  # ACK their SETTINGS
                    except OSError:
                        pass
                if until_stream_end is not None and sid == until_stream_end and (ft == 3 or (fl & 1 and ft in (0, 1))):
                    return frames
                if ft == 7:  # GOAWAY
                    return frames
            try:
                self.s.settimeout(max(0.05, deadline - time.time()))
                d = self.s.recv(65536)
            except socket.timeout:
                break
            except OSError:
                break
            if not d:
                self.closed = True
                break
            self.buf += d
        return frames

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


def _grpc_split(data):
    out = []
    while len(data) >= 5:
        n = struct.unpack(">I", data[1:5])[0]
        out.append(data[5:5 + n])
        data = data[5 + n:]
    return out


def nghttp(port, path, data=None, headers=(), timeout=15):
    """One request with nghttp2's CLI client; returns (response headers and
    trailers as a dict, body bytes). nghttp prints decoded frames with -v."""
    cmd = ["nghttp", "-v", "-n", "-t", str(timeout), "-H", ":method: POST"]
    for k, v in headers:
        cmd += ["-H", "%s: %s" % (k, v)]
    tmp = None
    if data is not None:
        tmp = tempfile.NamedTemporaryFile(delete=False)
        tmp.write(data)
        tmp.close()
        cmd += ["-d", tmp.name]
    cmd.append("http://127.0.0.1:%d%s" % (port, path))
    r = subprocess.run(cmd, capture_output=True, timeout=timeout + 5)
    if tmp:
        os.unlink(tmp.name)
    hdrs = {}
    for line in r.stdout.decode("latin-1").splitlines():
        line = line.strip()
        # "[  0.001] recv (stream_id=13) grpc-status: 3"
        if "recv (stream_id=" in line and ") " in line:
            kv = line.split(") ", 1)[1]
            if ": " in kv:
                k, v = kv.split(": ", 1)
                hdrs[k] = v
        if "recv RST_STREAM" in line:
            hdrs["RST_STREAM"] = line
        if "recv GOAWAY" in line:
            hdrs["GOAWAY"] = line
    return hdrs, r.stdout
