"""Test certificates made at test time with the openssl CLI (no key is ever
committed): a CA, a server certificate for localhost/127.0.0.1, client
certificates (CN = principal name) signed by that CA, and one from a rogue CA.
Also a bearer-token file with fresh random tokens."""
import os
import secrets
import subprocess
import tempfile


def _run(args, cwd):
    subprocess.run(["openssl"] + args, cwd=cwd, check=True, capture_output=True, timeout=60)


def _key_and_csr(cwd, name, cn):
    _run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", name + ".key",
          "-out", name + ".csr", "-subj", "/CN=" + cn], cwd)


def _ca(cwd, name):
    _run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", name + ".key",
          "-out", name + ".pem", "-days", "2", "-subj", "/CN=" + name], cwd)


def _sign(cwd, name, ca, ext=None):
    args = ["x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key", "-CAcreateserial",
            "-out", name + ".pem", "-days", "2"]
    if ext:
        with open(os.path.join(cwd, name + ".ext"), "w") as f:
            f.write(ext)
        args += ["-extfile", name + ".ext"]
    _run(args, cwd)


class Pki:
    def __init__(self, clients=("alice", "mallory")):
        self.dir = tempfile.mkdtemp(prefix="cz-pki-")
        _ca(self.dir, "ca")
        _ca(self.dir, "rogue-ca")
        _key_and_csr(self.dir, "server", "localhost")
        _sign(self.dir, "server", "ca", "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        for c in clients:
            _key_and_csr(self.dir, c, c)
            _sign(self.dir, c, "ca", "extendedKeyUsage=clientAuth\n")
        _key_and_csr(self.dir, "rogue", "alice")  # claims to be alice, signed by someone else
        _sign(self.dir, "rogue", "rogue-ca", "extendedKeyUsage=clientAuth\n")

    def path(self, name):
        return os.path.join(self.dir, name)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def server_flags(self, mutual=False):
        f = ["--tls-cert", self.path("server.pem"), "--tls-key", self.path("server.key")]
        if mutual:
            f += ["--tls-client-ca", self.path("ca.pem")]
        return f

    def tokens(self, principals=("alice", "bob")):
        """Writes a token file; returns (path, {principal: token})."""
        toks = {p: secrets.token_urlsafe(24) for p in principals}
        path = os.path.join(self.dir, "tokens")
        with open(path, "w") as f:
            f.write("# test tokens, made at test time\n")
            for p, t in toks.items():
                f.write("%s %s\n" % (t, p))
        os.chmod(path, 0o600)
        return path, toks

    def cleanup(self):
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)
