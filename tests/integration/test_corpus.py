#!/usr/bin/env python3
"""The Spark corpora (visible, functions, broad) through the daemon give the
same answers as in process: for every corpus file (its --conf values applied, as the
conformance judge runs it), `catalyzer run FILE` and `catalyzer run --daemon
HOST:PORT FILE` (one daemon session per file, the in-process test tables
sent as its catalog) must print identical JSON lines with the same exit
status, and so must the lines the CLI rebuilds from the response fields
(CATALYZER_CLI_JSON_FROM_FIELDS=1). TAP, one line a file.

Needs the CLI from the same build (CATALYZER_BUILD/client/catalyzer) and the
shared corpus: exits 77 (meson's SKIP) without ../shared."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402

corpus.require("daemon-corpus")

from daemon import Daemon, Tap  # noqa: E402

cli = os.path.join(os.environ.get("CATALYZER_BUILD", ""), "client", "catalyzer")
if not os.access(cli, os.X_OK):
    print("catalyzer CLI not built (%s)" % cli)
    sys.exit(1)
FROM_FIELDS = dict(os.environ, CATALYZER_CLI_JSON_FROM_FIELDS="1")


def run(args, env=None):
    return subprocess.run([cli] + args, capture_output=True, text=True, errors="replace", timeout=300, env=env)


t = Tap()
d = Daemon("--log-level", "warn")
addr = "127.0.0.1:%d" % d.grpc_port


def through_daemon(cname):
    total_same = total = 0
    files = corpus.by_file(cname)
    for name, recs in files.items():
        confs = corpus.conf_args(recs)
        with corpus.statements_file(r["sql"] for r in recs) as path:
            local = run(["run", *confs, path])
            remote = run(["run", "--daemon", addr, *confs, path])
            fields = run(["run", "--daemon", addr, *confs, path], FROM_FIELDS)
        a, b = local.stdout.splitlines(), remote.stdout.splitlines()
        same = sum(1 for x, y in zip(a, b) if x == y)
        total_same += same
        total += len(recs)
        diffs = [(x, y) for x, y in zip(a, b) if x != y][:3]
        detail = "\n".join("in process: %s\ndaemon:     %s" % p for p in diffs)
        if local.returncode != remote.returncode:
            detail += "\nexit status %d in process, %d through the daemon" % (local.returncode, remote.returncode)
        if fields.stdout != remote.stdout:
            detail += "\nthe lines rebuilt from the response fields differ from the daemon's JSON lines"
        t.ok(a == b and len(a) == len(recs) and local.returncode == remote.returncode and fields.stdout == remote.stdout,
             "%s %s: %d/%d statements identical through the daemon (both renderings)" % (cname, name, same, len(recs)),
             detail + ("\n" + remote.stderr[-500:] if remote.stderr else ""))
    print("# figure %s through the daemon: %d/%d statements identical to in process" % (cname, total_same, total))
    t.ok(total > 400, "the whole %s corpus ran (%d statements in %d files)" % (cname, total, len(files)))


for cname in ("spark-visible.jsonl", "spark-functions.jsonl", "spark-broad.jsonl"):
    through_daemon(cname)
t.ok(d.alive(), "daemon alive after the corpus")
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0")
t.ok("AddressSanitizer" not in d.log() and "LeakSanitizer" not in d.log() and "runtime error" not in d.log(),
     "no sanitizer reports", d.log()[-4000:])
t.done()
