#!/usr/bin/env python3
"""docker/: the images and docker/compose.yaml for real. Builds the Debian 12
base (docker/base.sh: debootstrap + docker import, cached), the images
(docker/Dockerfile's runtime, haproxy and redis targets; Docker's layer cache
makes an unchanged tree cost seconds), brings up three catalyzerd replicas +
HAProxy + Redis with docker-compose on loopback ports (host networking), and
runs scaleout.run_scenario against them: sessions moving between replicas,
one replica SIGTERM'd and one SIGKILL'd (docker-compose kill) under
catalyzer-load with sessions, the figures printed. Also checks the image:
non-root user, no compiler in the runtime image, the container HEALTHCHECK
(catalyzer health, the gRPC health service) reporting healthy.

Needs a Docker engine: as root it starts dockerd when none answers (with
--bridge=none: every container uses host networking) and stops it after.
Where there is no docker, or the engine cannot run containers here, it says
SKIP (with the reason), never pass. test_scaleout.py runs the same scenario
with processes."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from daemon import Tap, grpc, skip_all  # noqa: E402
import scaleout  # noqa: E402

if grpc is None:
    skip_all("python3-grpcio is not installed")
if not shutil.which("docker") or not shutil.which("docker-compose"):
    skip_all("docker or docker-compose is not installed (scripts/install-deps.sh installs docker.io, docker-compose)")

SOURCE = scaleout.SOURCE
COMPOSE = os.path.join(SOURCE, "docker", "compose.yaml")
tmp = tempfile.mkdtemp(prefix="cz-docker-")
started_dockerd = None


def sh(*cmd, timeout=600, env=None, check=False):
    r = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout, env=env)
    if check and r.returncode:
        raise RuntimeError("%s: rc %d\n%s\n%s" % (" ".join(cmd), r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
    return r


def docker_up():
    global started_dockerd
    if sh("docker", "info", timeout=30).returncode == 0:
        return None
    if os.geteuid() != 0 or not shutil.which("dockerd"):
        return "no Docker engine answers and this is not root with dockerd installed"
    log = open(os.path.join(tmp, "dockerd.log"), "w")
    started_dockerd = subprocess.Popen(["dockerd", "--bridge=none", "--iptables=false", "--ip6tables=false"],
                                       stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    for _ in range(60):
        if sh("docker", "info", timeout=30).returncode == 0:
            return None
        if started_dockerd.poll() is not None:
            break
        time.sleep(1)
    with open(log.name) as f:
        tail = f.read()[-400:].replace("\n", " ")
    return "dockerd does not start here: " + tail


def stop_dockerd():
    if started_dockerd and started_dockerd.poll() is None:
        started_dockerd.terminate()
        try:
            started_dockerd.wait(30)
        except subprocess.TimeoutExpired:
            started_dockerd.kill()


why = docker_up()
if why:
    stop_dockerd()
    skip_all(why)
# Can this engine run a container at all (host networking)? Busybox-free:
# the base image is built first, and a trivial container runs from it.
base = sh(os.path.join(SOURCE, "docker", "base.sh"), timeout=1200)
if base.returncode:
    stop_dockerd()
    if "debootstrap" in base.stderr and ("not installed" in base.stderr or "needs root" in base.stderr):
        skip_all("docker/base.sh: " + base.stderr.strip().splitlines()[-1])
    print("not ok 1 - docker/base.sh builds the Debian 12 base image\n# " + base.stderr[-1500:].replace("\n", "\n# "))
    print("1..1")
    sys.exit(1)
probe = sh("docker", "run", "--rm", "--network", "host", "catalyzer-base:bookworm", "true", timeout=120)
if probe.returncode:
    stop_dockerd()
    skip_all("the Docker engine cannot run containers here: " + probe.stderr.strip()[-300:].replace("\n", " "))

t = Tap()
t.ok(True, "docker/base.sh: catalyzer-base:bookworm (debootstrap --variant=minbase bookworm + docker import)")
ports = scaleout.Ports()
project = "czfailover%d" % os.getpid()
env = dict(os.environ, DOCKER_BUILDKIT="0", COMPOSE_DOCKER_CLI_BUILD="0", **ports.env())


def compose(*args, timeout=600, check=False):
    return sh("docker-compose", "-f", COMPOSE, "-p", project, *args, timeout=timeout, env=env, check=check)


class Containers:
    def __init__(self):
        self.ports = ports

    def signal(self, r, sig):
        compose("kill", "-s", sig.name, r, timeout=60, check=True)

    def restart(self, r):
        cid = compose("ps", "-q", r).stdout.strip()
        if cid:
            sh("timeout", "30", "docker", "wait", cid, timeout=40)
        compose("start", r, timeout=120, check=True)

    def log(self):
        return compose("logs", "--no-color", "--tail", "15", timeout=60).stdout[-6000:]


up = False
try:
    t0 = time.time()
    b = compose("build", timeout=3000)
    t.ok(b.returncode == 0, "docker-compose build: the catalyzerd, haproxy and redis images (%.0f s)" % (time.time() - t0),
         b.stdout[-3000:] + b.stderr[-3000:])
    if b.returncode == 0:
        user = sh("docker", "image", "inspect", "-f", "{{.Config.User}} {{json .Config.ExposedPorts}} "
                  "{{json .Config.Entrypoint}} {{json .Config.Healthcheck.Test}}", "catalyzer:latest").stdout.strip()
        t.ok(user.startswith("catalyzer:catalyzer ") and "15002/tcp" in user and "8080/tcp" in user
             and '["catalyzerd"]' in user and "catalyzer health" in user,
             "the image: non-root user, ports 15002 and 8080, catalyzerd entrypoint, gRPC health check", user)
        nocc = sh("docker", "run", "--rm", "--network", "host", "--entrypoint", "sh", "catalyzer:latest", "-c",
                  "command -v gcc cc meson; ls /usr/include/uv.h 2>/dev/null; catalyzerd --version", timeout=120)
        t.ok(nocc.returncode == 0 and nocc.stdout.strip().startswith("catalyzerd"),
             "the runtime image has no compiler and no headers, and catalyzerd runs (%s)" % nocc.stdout.strip(),
             nocc.stdout + nocc.stderr)
        u = compose("up", "-d", "--no-build", timeout=300)
        up = True
        t.ok(u.returncode == 0, "docker-compose up: redis, r1, r2, r3, haproxy on loopback (host networking)",
             u.stdout[-2000:] + u.stderr[-2000:])
        if u.returncode == 0:
            healthy, states = False, ""
            for _ in range(60):
                ids = compose("ps", "-q", "r1", "r2", "r3").stdout.split()
                states = sh("docker", "inspect", "-f", "{{.Name}} {{.State.Health.Status}}", *ids).stdout.strip()
                if len(ids) == 3 and states.count(" healthy") == 3:
                    healthy = True
                    break
                time.sleep(1)
            t.ok(healthy, "the container HEALTHCHECK (catalyzer health: grpc.health.v1) reports the replicas healthy",
                 states)
            scaleout.run_scenario(t, Containers())
except Exception:  # noqa: BLE001
    import traceback
    t.ok(False, "the docker topology ran", traceback.format_exc())
finally:
    if up:
        compose("down", "-t", "5", timeout=300)
    stop_dockerd()
t.done()
