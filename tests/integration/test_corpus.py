#!/usr/bin/env python3
"""The visible Spark corpus through the daemon gives the same answers as in
process: for every corpus file, `catalyzer run FILE` and `catalyzer run
--daemon HOST:PORT FILE` (one daemon session per file, the in-process test
tables sent as its catalog) must print identical JSON lines.

Reads the corpus from CATALYZER_SHARED (skips cleanly without it) and needs
the CLI from the same build (CATALYZER_BUILD/client/catalyzer)."""
import collections
import json
import os
import subprocess
import tempfile

from daemon import Daemon, Tap, skip_all

shared = os.environ.get("CATALYZER_SHARED", "")
corpus = os.path.join(shared, "conformance", "spark-visible.jsonl")
cli = os.path.join(os.environ.get("CATALYZER_BUILD", ""), "client", "catalyzer")
if not os.path.exists(corpus):
    skip_all("CATALYZER_SHARED corpus not found (%s)" % corpus)
if not os.access(cli, os.X_OK):
    skip_all("catalyzer CLI not built (%s)" % cli)
if subprocess.run([cli, "run", "--daemon"], capture_output=True).returncode not in (0, 1, 2) or \
        b"--daemon" not in subprocess.run([cli, "run", "--daemon"], capture_output=True).stderr:
    skip_all("this catalyzer CLI has no run --daemon")

files = collections.OrderedDict()
with open(corpus, encoding="utf-8") as f:
    for line in f:
        if line.strip():
            r = json.loads(line)
            files.setdefault(r["file"], []).append(r)

t = Tap()
d = Daemon("--log-level", "warn")
addr = "127.0.0.1:%d" % d.grpc_port
total_same = total = 0
for name, recs in files.items():
    confs = []
    for kv in (recs[0].get("file_config") or {}).get("set", []):
        confs += ["--conf", "%s=%s" % (kv[0], kv[1])]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps({"sql": r["sql"]}) + "\n")
        path = f.name
    local = subprocess.run([cli, "run", *confs, path], capture_output=True, text=True, errors="replace", timeout=300)
    remote = subprocess.run([cli, "run", "--daemon", addr, *confs, path], capture_output=True, text=True,
                            errors="replace", timeout=300)
    os.unlink(path)
    a, b = local.stdout.splitlines(), remote.stdout.splitlines()
    same = sum(1 for x, y in zip(a, b) if x == y)
    total_same += same
    total += len(recs)
    diffs = [(x, y) for x, y in zip(a, b) if x != y][:3]
    t.ok(a == b and len(a) == len(recs), "%s: %d/%d statements identical through the daemon" % (name, same, len(recs)),
         "\n".join("in process: %s\ndaemon:     %s" % p for p in diffs) + ("\n" + remote.stderr[-500:] if remote.stderr else ""))
print("# figure corpus through the daemon: %d/%d statements identical to in process" % (total_same, total))
t.ok(d.alive(), "daemon alive after the corpus")
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0")
t.ok("AddressSanitizer" not in d.log() and "LeakSanitizer" not in d.log() and "runtime error" not in d.log(),
     "no sanitizer reports", d.log()[-4000:])
t.done()
