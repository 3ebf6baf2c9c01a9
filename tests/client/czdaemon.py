"""Helpers of the client tests: a real catalyzerd on port 0 (its ports are on
the first log line), TAP output, skipping. Environment (tests/client/meson.build):
CATALYZERD, CATALYZER_CLI, CATALYZER_LOAD (the shared corpus: tests/common/corpus.py)."""
import json
import os
import signal
import subprocess
import sys
import threading

CATALYZERD = os.environ.get("CATALYZERD", "catalyzerd")
CLI = os.environ.get("CATALYZER_CLI", "catalyzer")
LOAD = os.environ.get("CATALYZER_LOAD", "catalyzer-load")


class Daemon:
    def __init__(self, *args, grpc="127.0.0.1:0"):
        self.proc = subprocess.Popen([CATALYZERD, "--grpc", grpc, "--http", "off"] + list(args),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        first = self.proc.stderr.readline()
        if not first:
            raise RuntimeError("catalyzerd exited: " + self.proc.stderr.read())
        info = json.loads(first)
        assert info["msg"] == "listening", first
        self.port = info["grpc_port"]
        self.addr = "127.0.0.1:%d" % self.port
        self.lines = [first]
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append(line)

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


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, detail=""):
        self.n += 1
        print(("ok %d - %s" if cond else "not ok %d - %s") % (self.n, name))
        if not cond:
            self.failed += 1
            for line in str(detail).splitlines()[:40]:
                print("# " + line)
        sys.stdout.flush()
        return cond

    def skip(self, name, why):
        self.n += 1
        print("ok %d - %s # SKIP %s" % (self.n, name, why))
        sys.stdout.flush()

    def note(self, text):
        for line in str(text).splitlines():
            print("# " + line)
        sys.stdout.flush()

    def done(self):
        print("1..%d" % self.n)
        sys.exit(1 if self.failed else 0)


def load(*args, timeout=120):
    """Runs catalyzer-load; (exit status, stdout, stderr)."""
    p = subprocess.run([LOAD] + list(args), capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def sane_latency(j):
    """catalyzer-load --json's latency percentiles are ordered and positive."""
    lat = j["latency_us"]
    order = [lat["min"], lat["p50"], lat["p90"], lat["p99"], lat["p99.9"], lat["max"]]
    return all(a <= b for a, b in zip(order, order[1:])) and lat["p50"] > 0
