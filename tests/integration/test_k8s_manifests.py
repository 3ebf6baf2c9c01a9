#!/usr/bin/env python3
"""docker/k8s/: the manifests checked offline with kubectl's client-side dry
run. There is no cluster here, and `kubectl apply --dry-run=client` (or
`create --dry-run=client`) still asks an API server for its resource list
before it decodes anything (printed below); `label/annotate/patch --local`
work on untyped objects and check nothing. What checks offline is
`kubectl set image --local --dry-run=client -f DOC '*=...' -o json` (and
`set selector --local` for Services): they decode each document into
kubectl's typed API objects, with no server:

* each document's apiVersion and kind are ones this kubectl knows (apps/v1
  Deployment, policy/v1 PodDisruptionBudget, autoscaling/v2
  HorizontalPodAutoscaler, ...) and every field has its type (a string where
  a number belongs is refused) — for every document;
* for the documents with a pod template (the Deployments, where nearly all
  the fields are) the typed object comes back: every key path of the input
  must be in it, since kubectl drops unknown fields silently (a misspelled
  field fails here); the same for the Services (through `kubectl set selector
  --local`, with their own selector). The PDB, the HPA, the Namespace and the
  Secret are decoded (types checked) but no local command prints them back,
  so an unknown field there is not caught;
* the pieces fit: selectors match their pod labels, the Services, the PDB and
  the HPA name what exists, the probes ask the gRPC health service on the
  container's gRPC port, the session store URL names the Redis Service.
The negative controls prove the checks bite.

Validated, not run: nothing is applied to a cluster, and no admission or
server-side validation runs. The kubectl used is printed (Debian's
kubernetes-client where it can be installed; here the machine image's own
kubectl package owns /usr/bin/kubectl, and Debian's 1.20 client predates
policy/v1, autoscaling/v2 and gRPC probes)."""
import copy
import re
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from daemon import Tap, skip_all  # noqa: E402

try:
    import yaml
except ImportError:
    skip_all("python3-yaml is not installed")
KUBECTL = shutil.which("kubectl")
if not KUBECTL:
    skip_all("kubectl is not installed (scripts/install-deps.sh installs Debian's kubernetes-client)")

SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
K8S = os.path.join(SOURCE, "docker", "k8s")
tmp = tempfile.mkdtemp(prefix="cz-k8s-")
# A kubeconfig naming a closed loopback port: nothing is ever contacted
# (without one kubectl would try localhost:8080, catalyzerd's default JSON port).
KUBECONFIG = os.path.join(tmp, "kubeconfig")
with open(KUBECONFIG, "w") as f:
    f.write("""apiVersion: v1
kind: Config
clusters: [{name: none, cluster: {server: "http://127.0.0.1:1"}}]
users: [{name: none, user: {}}]
contexts: [{name: none, context: {cluster: none, user: none}}]
current-context: none
""")
ENV = dict(os.environ, KUBECONFIG=KUBECONFIG, HOME=tmp)
t = Tap()


def kubectl(*args, stdin=None):
    return subprocess.run([KUBECTL] + list(args), input=stdin, capture_output=True, text=True, env=ENV, timeout=120)


ver = kubectl("version", "--client", "-o", "json")
try:
    print("# kubectl %s (%s)" % (json.loads(ver.stdout)["clientVersion"]["gitVersion"], KUBECTL))
except (ValueError, KeyError):
    print("# kubectl: %s" % (ver.stdout or ver.stderr).strip()[:200])


def decode(doc):
    """kubectl's offline typed decode of one document: (ok, typed object or
    None when kubectl prints none for its kind, message)."""
    path = os.path.join(tmp, "doc.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(doc, f)
    if doc.get("kind") == "Service" and doc.get("spec", {}).get("selector"):
        # a Service has no pod template; `set selector` decodes it typed and prints it back
        sel = ",".join("%s=%s" % kv for kv in sorted(doc["spec"]["selector"].items()))
        r = kubectl("set", "selector", "--local", "--dry-run=client", "-f", path, sel, "-o", "json")
    else:
        r = kubectl("set", "image", "--local", "--dry-run=client", "-f", path, "*=offline-check", "-o", "json")
    if r.returncode == 0:
        return True, json.loads(r.stdout), ""
    m = re.search(r"does not have a pod template: (\*\S+)", r.stderr)
    if m:
        return True, None, "decoded as " + m.group(1)
    return False, None, r.stderr.strip()


def paths(node, prefix=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + "/" + str(k))
        if not node:
            yield prefix
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, "%s[%d]" % (prefix, i))
    else:
        yield prefix


def dropped(doc, out):
    """Key paths of doc that kubectl's decode did not keep (unknown fields).
    Empty values (a {} or []) may be dropped by the encoder: not counted."""
    have = set(paths(out))
    return [p for p in paths(doc) if p not in have and not p.endswith("/creationTimestamp")]


files = sorted(f for f in os.listdir(K8S) if f.endswith(".yaml"))
docs = {}
for name in files:
    with open(os.path.join(K8S, name)) as f:
        ins = [d for d in yaml.safe_load_all(f) if d]
    fails, notes = [], []
    for d in ins:
        what = "%s %s/%s" % (d.get("apiVersion"), d.get("kind"), d.get("metadata", {}).get("name"))
        ok, out, msg = decode(d)
        if not ok:
            fails.append("%s: %s" % (what, msg))
        elif out is None:
            notes.append("%s types checked (%s)" % (what, msg))
        else:
            lost = dropped(d, out)
            if lost:
                fails.append("%s: unknown fields %s" % (what, lost))
            notes.append("%s types and fields checked" % what)
        docs[(d["kind"], d["metadata"]["name"])] = d
    t.ok(ins and not fails, "%s: kubectl decodes every document offline (%d)" % (name, len(ins)),
         "\n".join(fails))
    for n in notes:
        print("#   " + n)

# what `kubectl apply --dry-run=client` does here: it needs the server's resource list
r = kubectl("apply", "--dry-run=client", "--validate=false", "-f", os.path.join(K8S, "namespace.yaml"))
print("# kubectl apply --dry-run=client without a cluster: rc %d (%s)"
      % (r.returncode, (r.stderr.strip().splitlines() or [""])[-1][:160]))

# negative controls: the checks above catch a misspelled field and a wrong type
base = docs[("Deployment", "catalyzerd")]
bad = copy.deepcopy(base)
bad["spec"]["replica"] = bad["spec"].pop("replicas")
ok, out, msg = decode(bad)
t.ok(ok and out and dropped(bad, out) == ["/spec/replica"],
     "negative control: a misspelled field (spec.replica) is caught as unknown", msg)
bad = copy.deepcopy(base)
bad["spec"]["replicas"] = "three"
ok, out, msg = decode(bad)
t.ok(not ok and "int32" in msg, "negative control: a wrong type (replicas: \"three\") is refused", msg)
bad = copy.deepcopy(docs[("Service", "catalyzerd")])
bad["spec"]["ports"][0]["port"] = "grpc"
ok, out, msg = decode(bad)
t.ok(not ok and "ServicePort" in msg, "negative control: a wrong type in a Service (port: \"grpc\") is refused", msg)
bad = copy.deepcopy(docs[("Service", "catalyzerd")])
bad["spec"]["selectr"] = {"a": "b"}
ok, out, msg = decode(bad)
t.ok(ok and out and dropped(bad, out) == ["/spec/selectr/a"],
     "negative control: a misspelled field in a Service (spec.selectr) is caught as unknown", msg)


def fits():
    ns = {d["metadata"].get("namespace") for d in docs.values() if d["kind"] != "Namespace"}
    assert ns == {"catalyzer"} and ("Namespace", "catalyzer") in docs, ns
    deps = {n: d for (k, n), d in docs.items() if k == "Deployment"}
    for n, d in deps.items():
        sel = d["spec"]["selector"]["matchLabels"]
        labels = d["spec"]["template"]["metadata"]["labels"]
        assert all(labels.get(k) == v for k, v in sel.items()), (n, sel, labels)

    def selects(sel):
        return [n for n, d in deps.items()
                if all(d["spec"]["template"]["metadata"]["labels"].get(k) == v for k, v in sel.items())]
    for (k, n), d in docs.items():
        if k == "Service":
            assert selects(d["spec"]["selector"]), ("service selects nothing", n)
            dep = deps[selects(d["spec"]["selector"])[0]]
            names = {p["name"] for c in dep["spec"]["template"]["spec"]["containers"] for p in c.get("ports", [])}
            for p in d["spec"]["ports"]:
                assert p["targetPort"] in names, (n, p)
        if k == "PodDisruptionBudget":
            assert selects(d["spec"]["selector"]["matchLabels"]) == ["catalyzerd"], n
            assert d["spec"]["minAvailable"] < deps["catalyzerd"]["spec"]["replicas"], n
        if k == "HorizontalPodAutoscaler":
            ref = d["spec"]["scaleTargetRef"]
            assert ref["kind"] == "Deployment" and ref["name"] in deps, ref
            assert d["spec"]["minReplicas"] <= deps[ref["name"]]["spec"]["replicas"] <= d["spec"]["maxReplicas"]
    c = deps["catalyzerd"]["spec"]["template"]["spec"]["containers"][0]
    grpc_port = [p["containerPort"] for p in c["ports"] if p["name"] == "grpc"][0]
    for probe in ("readinessProbe", "livenessProbe"):
        assert c[probe]["grpc"]["port"] == grpc_port, (probe, c[probe])
    env = {e["name"]: e.get("value") for e in c["env"]}
    assert env["CATALYZERD_GRPC"].endswith(":%d" % grpc_port), env
    assert env["CATALYZERD_SESSION_STORE"] == "redis://catalyzer-redis:%d" % (
        docs[("Service", "catalyzer-redis")]["spec"]["ports"][0]["port"]), env
    assert int(env["CATALYZERD_DRAIN_DELAY_MS"]) < 1000 * deps["catalyzerd"]["spec"]["template"]["spec"][
        "terminationGracePeriodSeconds"], env
    # off loopback catalyzerd needs TLS or tokens: the token file is mounted
    mounts = {m["mountPath"] for m in c["volumeMounts"]}
    assert os.path.dirname(env["CATALYZERD_AUTH_TOKEN_FILE"]) in mounts, (env, mounts)
    return True


t.check("the manifests fit together: selectors, Services, PDB, HPA, gRPC health probes, Redis URL, token mount",
        fits)
t.done()
