"""An example catalog provider (providers/python or providers/go) as a
process of the test: built if need be (Go: GOPATH mode over Debian's
/usr/share/gocode, offline), started on a free port, its call log
(one JSON line per call on stdout) collected."""
import json
import os
import shutil
import signal
import subprocess
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(HERE, "..", ".."))
PROTO = os.path.join(SOURCE, "proto")
GOCODE = "/usr/share/gocode"


def build_provider(lang):
    """(command, None), or (None, why it cannot run here)."""
    if shutil.which("protoc") is None:
        return None, "no protoc (protobuf-compiler)"
    if lang == "python":
        try:
            import grpc  # noqa: F401
        except ImportError:
            return None, "no python3-grpcio"
        return ["/usr/bin/python3", os.path.join(SOURCE, "providers", "python", "catalog_provider.py")], None
    if lang != "go":
        return None, "unknown provider language %s" % lang
    gone = [t for t in ("go", "protoc-gen-go", "protoc-gen-go-grpc") if shutil.which(t) is None]
    gone += [p for p in (GOCODE + "/src/google.golang.org/grpc", GOCODE + "/src/google.golang.org/protobuf")
             if not os.path.exists(p)]
    if gone:
        return None, "no Go toolchain / grpc-go: " + ", ".join(gone)
    root = os.path.join(os.environ.get("PROVIDER_BUILD", os.path.join(os.getcwd(), "provider-go")), "go")
    gen = os.path.join(root, "src")
    shutil.rmtree(os.path.join(gen, "catalyzer"), ignore_errors=True)
    os.makedirs(os.path.join(gen, "czprovider"), exist_ok=True)
    r = subprocess.run(["protoc", "--proto_path=" + PROTO, "--go_out=" + gen, "--go-grpc_out=" + gen,
                        "catalog_provider.proto"], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("protoc-gen-go: " + r.stderr)
    shutil.copy(os.path.join(SOURCE, "providers", "go", "main.go"), os.path.join(gen, "czprovider", "main.go"))
    env = dict(os.environ, GO111MODULE="off", GOPATH=root + ":" + GOCODE, GOFLAGS="", GOPROXY="off",
               GOCACHE=os.path.join(root, "cache"), CGO_ENABLED="0")
    exe = os.path.join(root, "czprovider")
    r = subprocess.run(["go", "build", "-o", exe, "czprovider"], env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError("go build: " + r.stderr)
    return [exe], None


class Provider:
    def __init__(self, command, args):
        self.proc = subprocess.Popen(command + ["--listen", "127.0.0.1:0"] + args, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        first = self.proc.stdout.readline()
        if not first:
            raise RuntimeError("the provider did not start: " + self.proc.stderr.read())
        self.port = json.loads(first)["listening"]
        self.events = []
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.events.append(json.loads(line))

    def mark(self):
        with self.lock:
            return len(self.events)

    def count(self, rpc, result, since=0):
        """{name: how many calls of rpc ended with result} since mark()."""
        out = {}
        with self.lock:
            for e in self.events[since:]:
                if e["rpc"] == rpc and e["result"] == result:
                    out[e["name"]] = out.get(e["name"], 0) + 1
        return out

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
