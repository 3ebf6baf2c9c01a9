#!/usr/bin/env python3
"""The operator's conventions: every binary's --help (exit 0, usage on
stdout) and --version (the project's version), every catalyzer subcommand's
--help, getopt_long forms (--name=value, abbreviations, options after FILE),
`catalyzer -e 'SQL'` and `-` (stdin) giving what a FILE gives, in process and
through the daemon; the man pages naming every option; and `meson install`
(into a DESTDIR) putting the binaries, man pages, systemd unit, LICENSE and
libczclient (versioned SONAME, headers under include/catalyzer/) in place."""
import json
import os
import re
import shutil
import subprocess
import tempfile

from czdaemon import CATALYZERD, CLI, LOAD, Daemon, Tap

SOURCE = os.environ["CATALYZER_SOURCE"]
BUILD = os.environ["CATALYZER_BUILD"]
VERSION = os.environ["CATALYZER_VERSION"]


def run(args, stdin=None, timeout=120):
    return subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=timeout)


t = Tap()
for name, path in (("catalyzer", CLI), ("catalyzerd", CATALYZERD), ("catalyzer-load", LOAD)):
    for flag in ("--help", "-h"):
        r = run([path, flag])
        t.ok(r.returncode == 0 and r.stdout.startswith("usage: " + name) and not r.stderr,
             "%s %s: usage on stdout, exit 0" % (name, flag), r.stdout[:300] + r.stderr[:300])
    r = run([path, "--version"])
    t.ok(r.returncode == 0 and r.stdout == "%s %s\n" % (name, VERSION), "%s --version: '%s %s'" % (name, name, VERSION),
         repr(r.stdout) + r.stderr)
    r = run([path, "--no-such-option"])
    t.ok(r.returncode == 2 and r.stderr and not r.stdout, "%s --no-such-option: a message, exit 2" % name,
         "rc %d %r %r" % (r.returncode, r.stdout[:200], r.stderr[:200]))

# catalyzer's subcommands each answer --help with their own usage line.
for sub in ("parse", "run", "explain", "trace", "bench", "functions"):
    r = run([CLI, sub, "--help"])
    t.ok(r.returncode == 0 and r.stdout.startswith("usage: catalyzer " + sub), "catalyzer %s --help" % sub,
         r.stdout + r.stderr)
    r = run([CLI, sub, "--daemon", "127.0.0.1:1", "--help"])
    t.ok(r.returncode == 0 and r.stdout.startswith("usage: catalyzer " + sub), "catalyzer %s --daemon ... --help" % sub,
         r.stdout + r.stderr)
# catalyzer --help names every subcommand and the -e / - forms.
r = run([CLI, "--help"])
t.ok(all(re.search(r"^  %s " % s, r.stdout, re.M) for s in ("parse", "run", "explain", "trace", "bench", "functions"))
     and "-e 'SQL'" in r.stdout, "catalyzer --help lists the subcommands and -e", r.stdout)

SQL = "CREATE TEMPORARY VIEW v AS SELECT 1 AS a; SELECT a, a + 1 AS b FROM v; SELECT nope FROM v"
d = Daemon()
try:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "q.sql")
        with open(path, "w") as f:
            f.write(SQL)
        for sub in ("run", "explain", "parse", "trace"):
            for where, extra in (("in process", []), ("daemon", ["--daemon", d.addr])):
                want = run([CLI, sub] + extra + [path])
                t.ok(want.returncode in (0, 1) and want.stdout, "%s %s FILE works" % (sub, where), want.stderr)
                e = run([CLI, sub] + extra + ["-e", SQL])
                dash = run([CLI, sub] + extra + ["-"], stdin=SQL)
                # parse names the input on each line, trace in its first line (and prints timings)
                def norm(s, name):
                    if sub == "trace":
                        return re.sub(r"[ 0-9.]+", " ", s.split("\n", 1)[-1])
                    return s.replace(path + ":", "X:").replace(name + ":", "X:") if sub == "parse" else s
                t.ok(norm(e.stdout, "-e") == norm(want.stdout, "") and e.returncode == want.returncode,
                     "%s -e SQL (%s): the output FILE gives" % (sub, where), e.stdout[:800] + e.stderr)
                t.ok(norm(dash.stdout, "-") == norm(want.stdout, "") and dash.returncode == want.returncode,
                     "%s - (stdin, %s): the output FILE gives" % (sub, where), dash.stdout[:800] + dash.stderr)
        want = run([CLI, "run", path]).stdout
        t.ok(run([CLI, "-e", SQL]).stdout == want, "catalyzer -e SQL is catalyzer run -e SQL")
        t.ok(run([CLI, "-"], stdin=SQL).stdout == want, "catalyzer - is catalyzer run - (stdin)")
        t.ok(run([CLI, "--daemon", d.addr, "-e", SQL]).stdout == want, "catalyzer --daemon H:P -e SQL through the daemon")
        # getopt_long forms: --name=value, an unambiguous abbreviation, options after FILE.
        conf = run([CLI, "run", path, "--conf=spark.sql.caseSensitive=true", "--ba"])
        t.ok(conf.returncode == 0 and conf.stdout == run([CLI, "run", "--bare", "--conf", "spark.sql.caseSensitive=true",
                                                          path]).stdout, "getopt_long: --conf=k=v, --ba (--bare) after FILE",
             conf.stderr)
        r = run([CLI, "run", "-e", "SELECT 1", path])
        t.ok(r.returncode == 2 and "one FILE" in r.stderr, "run: -e and a FILE together is a usage error", r.stderr)
        r = run([CLI, "run", "--conf"])
        t.ok(r.returncode == 2 and "needs a value" in r.stderr, "run --conf without a value: usage error", r.stderr)
        r = run([CATALYZERD, "--grpc=127.0.0.1:0", "--http", "off", "--workers=1", "--max-sess", "5", "--version"])
        t.ok(r.returncode == 0 and r.stdout.startswith("catalyzerd "), "catalyzerd: --flag=value and abbreviations",
             r.stderr)
        r = run([CATALYZERD, "--workers"])
        t.ok(r.returncode == 2 and "--workers" in r.stderr, "catalyzerd --workers without a value: exit 2", r.stderr)
        r = run([CATALYZERD, "stray"])
        t.ok(r.returncode == 2 and "unexpected argument" in r.stderr, "catalyzerd: a stray argument, exit 2", r.stderr)
        r = run([LOAD, "--daemon=" + d.addr, "--workload", tmp, "--requests=5", "--json"])
        t.ok(r.returncode == 0 and '"requests":5' in r.stdout, "catalyzer-load with --name=value options", r.stdout + r.stderr)
        r = run([LOAD, "--daemon", d.addr, "--workload", tmp, "--duration", "1.5", "--windows", "0.5,1", "--json",
                 "--keep-sessions"])
        try:
            j = json.loads(r.stdout)
            w = j["windows"]
            good = (len(w) == 3 and sum(x["requests"] for x in w) == j["requests"] and all(x["requests"] > 0 for x in w)
                    and [x["from_s"] for x in w] == [0, 0.5, 1] and sum(x["analysis_errors"] for x in w) == j["analysis_errors"])
        except (ValueError, KeyError):
            good = False
        t.ok(good, "catalyzer-load --windows 0.5,1: three slices that add up to the run", r.stdout + r.stderr)
finally:
    d.stop()

# catalyzer health: the probe containers and orchestrators run.
r = run([CLI, "health", "--help"])
t.ok(r.returncode == 0 and r.stdout.startswith("usage: catalyzer health"), "catalyzer health --help", r.stdout + r.stderr)
r = run([CLI, "health"])
t.ok(r.returncode == 2 and "usage" in r.stderr, "catalyzer health without HOST:PORT: usage, exit 2", r.stderr)
hd = Daemon()
try:
    r = run([CLI, "health", hd.addr])
    t.ok(r.returncode == 0 and r.stdout == "SERVING\n", "catalyzer health HOST:PORT: SERVING, exit 0", r.stdout + r.stderr)
    r = run([CLI, "health", "--service", "catalyzer.v1.Analyzer", hd.addr])
    t.ok(r.returncode == 0 and r.stdout == "SERVING\n", "catalyzer health --service catalyzer.v1.Analyzer", r.stdout + r.stderr)
    r = run([CLI, "health", "--service=no.such.Service", hd.addr])
    t.ok(r.returncode == 2 and "NOT_FOUND" in r.stderr and not r.stdout, "catalyzer health, an unknown service: exit 2",
         r.stdout + r.stderr)
finally:
    hd.stop()
r = run([CLI, "health", hd.addr])
t.ok(r.returncode == 2 and "UNAVAILABLE" in r.stderr and not r.stdout, "catalyzer health, nothing listening: exit 2",
     r.stdout + r.stderr)

# The man pages: each names every long option its binary's --help lists.
MAN = os.path.join(SOURCE, "docs", "man")
for page, binary in (("catalyzerd.8", CATALYZERD), ("catalyzer-load.1", LOAD), ("catalyzer.1", CLI)):
    text = open(os.path.join(MAN, page)).read().replace("\\-", "-")
    flags = set(re.findall(r"--([a-z][a-z-]+)", run([binary, "--help"]).stdout))
    missing = sorted(f for f in flags if "--" + f not in text)
    t.ok(flags and not missing, "%s names every option of %s --help (%d)" % (page, os.path.basename(binary), len(flags)),
         "missing: %s" % missing)
    if shutil.which("groff"):
        g = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", os.path.join(MAN, page)], capture_output=True, text=True)
        t.ok(g.returncode == 0 and not g.stderr, "groff renders %s without warnings" % page, g.stderr)

# meson install into a DESTDIR: what an operator gets.
with tempfile.TemporaryDirectory() as dest:
    r = subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", "--destdir", dest],
                       capture_output=True, text=True, timeout=300)
    t.ok(r.returncode == 0, "meson install --destdir", r.stdout[-2000:] + r.stderr[-2000:])
    files = {os.path.relpath(os.path.join(p, f), dest) for p, _, fs in os.walk(dest) for f in fs}
    links = {os.path.relpath(os.path.join(p, f), dest) for p, ds, fs in os.walk(dest) for f in fs + ds
             if os.path.islink(os.path.join(p, f))}

    def has(suffix):
        return any(f.endswith(suffix) for f in files | links)
    for b in ("bin/catalyzer", "bin/catalyzerd", "bin/catalyzer-load"):
        t.ok(has(b), "installed: " + b)
    for m in ("man1/catalyzer.1", "man1/catalyzer-load.1", "man8/catalyzerd.8"):
        t.ok(has(m), "installed man page: " + m)
    t.ok(has("lib/systemd/system/catalyzerd.service"), "installed: the systemd unit")
    t.ok(has("doc/catalyzer/LICENSE"), "installed: LICENSE")
    t.ok(has("include/catalyzer/czclient.h") and has("include/catalyzer/catalyzer.pb-c.h"),
         "installed: czclient.h and catalyzer.pb-c.h under include/catalyzer/")
    unit = [f for f in files if f.endswith("catalyzerd.service")]
    text = open(os.path.join(dest, unit[0])).read() if unit else ""
    t.ok(re.search(r"^ExecStart=/\S+/bin/catalyzerd$", text, re.M), "the unit's ExecStart names the installed catalyzerd",
         text)
    real = [f for f in files if re.search(r"libczclient\.so\.\d+\.\d+\.\d+$", f) and f not in links]
    t.ok(real and has("libczclient.so.0") and has("libczclient.so"), "libczclient.so.X.Y.Z with .so.0 and .so links",
         sorted(f for f in files | links if "czclient" in f))
    if real:
        dyn = run(["readelf", "-d", os.path.join(dest, real[0])]).stdout
        t.ok("Library soname: [libczclient.so.0]" in dyn, "libczclient's SONAME is libczclient.so.0", dyn[:1500])
    pcs = [f for f in files if f.endswith("czclient.pc")]
    pc = open(os.path.join(dest, pcs[0])).read() if pcs else ""
    t.ok(re.search(r"^Cflags:.*-I\$\{includedir\}/catalyzer", pc, re.M), "czclient.pc's Cflags name include/catalyzer",
         pc)
t.done()
