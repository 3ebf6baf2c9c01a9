#!/usr/bin/env bash
# Installs the Debian packages Catalyzer's build and tests need. Idempotent and
# quiet when everything is already there.
set -euo pipefail

PACKAGES=(
  gcc pkg-config meson ninja-build          # build
  libuv1-dev                                # daemon event loop
  libprotobuf-c-dev protobuf-c-compiler     # wire schema (C)
  libprotobuf-dev                           # google/protobuf/any.proto (Spark Connect's Any fields)
  libjansson-dev                            # JSON endpoint and codecs
  libnghttp2-dev                            # HTTP/2 for gRPC
  zlib1g-dev                                # gzip/deflate gRPC message compression (grpc-encoding)
  libhttp-parser-dev                        # HTTP/1.1 JSON endpoint
  libssl-dev openssl                        # TLS, token digests; test certificates (openssl CLI)
  libpq-dev postgresql                      # the JDBC catalog over PostgreSQL (catalogs/, libpq); its tests start a throwaway cluster
  libhiredis-dev redis-server               # shared session store for replicas (--session-store redis://); its tests start a throwaway redis-server
  haproxy                                   # scale-out: HTTP/2 load balancer in front of the replicas (docker/haproxy.cfg; tests/integration/test_scaleout.py)
  docker.io docker-compose debootstrap      # docker/: the base image (debootstrap + docker import), the image, compose.yaml (test_docker_failover.py)
  libcriterion-dev                          # unit tests
  tzdata                                    # time zones (TZif files): literals naming a zone, SET TIME ZONE
  python3 python3-grpcio python3-protobuf protobuf-compiler  # gRPC integration tests
  grpc-proto                                # gRPC's own reflection/health protos: the reflection test's client and its parity check
  python3-yaml                              # reads docker/k8s/ in its offline kubectl check
  nghttp2-client curl                       # h2load bursts, curl tests
  prometheus                                # promtool check metrics: the daemon's /metrics page is checked by Prometheus' own linter
  chromium chromium-driver python3-selenium # browser tests: cross-site checks, the debugger page (headless, nothing downloaded)
  # tests/polyglot: Go and Java engines on their stock gRPC stacks, built offline
  # from Debian's packaged sources and jars. The explicit golang-protobuf 1.5
  # keeps apt from picking the 1.3 alternative, which grpc-go 1.33 cannot use.
  golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev
  protoc-gen-go protoc-gen-go-grpc
  default-jdk-headless libgrpc-java libprotobuf-java protobuf-compiler-grpc-java-plugin
  libnetty-java libperfmark-java libgoogle-gson-java libguava-java  # grpc-netty's runtime
  libgeronimo-annotation-1.3-spec-java      # javax.annotation.Generated on the grpc-java stubs
)

# kubectl, for the offline check of docker/k8s/ (tests/integration/test_k8s_manifests.py):
# Debian's kubernetes-client, unless a kubectl is installed already (the
# machine image's Google Cloud SDK ships a package 'kubectl' whose
# /usr/bin/kubectl conflicts with Debian's).
command -v kubectl >/dev/null || PACKAGES+=(kubernetes-client)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Only promtool is wanted from the prometheus package: where systemd runs, the
# package also starts a Prometheus server (port 9090); stop the one we installed.
if [[ " ${missing[*]} " == *" prometheus "* ]] && [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
