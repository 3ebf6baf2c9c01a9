#!/usr/bin/env python3
"""An example catalog provider: the catalyzer.v1.CatalogProvider service
(proto/catalog_provider.proto) that an engine runs so that catalyzerd loads
the engine's tables on demand.

It serves the tables declared in DDL files (`CREATE TABLE name (col TYPE, ...);`,
the format of ../shared/workloads/*/schema.sql), one namespace per file, read
at start-up and again whenever a file changes (its modification time): each
table's version is a digest of its definition, so an edited table gets a new
version and catalyzerd's next revalidation sees it. `--synthetic N` adds a
namespace `synthetic` of N generated tables (t0 ... tN-1).

Every call is logged as one JSON line on stdout ({"rpc": "LoadTable",
"name": "tpcds.store", "result": "loaded" | "not_modified" | "not_found"}),
which is how the tests count loads.

Usage:
  catalog_provider.py --listen 127.0.0.1:0 --schema tpcds=../shared/workloads/tpcds/schema.sql
      [--schema NS=FILE ...] [--synthetic N] [--function NS.NAME(TYPE,...)->TYPE ...]
      [--aggregate NS.NAME(TYPE,...)->TYPE ...] [--unversioned]
The first line on stdout is {"listening": PORT}.

Needs Debian's python3-grpcio and protoc (protobuf-compiler): the message
classes are generated from proto/ at start (no grpc_tools needed)."""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from concurrent import futures

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.environ.get("CATALYZER_PROTO", os.path.join(HERE, "..", "..", "proto"))


def load_messages():
    out = tempfile.mkdtemp(prefix="cz-provider-stubs-")
    subprocess.run(["protoc", "--proto_path=" + PROTO, "--python_out=" + out,
                    os.path.join(PROTO, "catalog_provider.proto")], check=True)
    sys.path.insert(0, out)
    import catalog_provider_pb2
    return catalog_provider_pb2


def split_top_level(text):
    """'a INT, b DECIMAL(7,2)' -> ['a INT', 'b DECIMAL(7,2)'] (commas outside parentheses / angle brackets)."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


COLUMN = re.compile(r"^`?(?P<name>[^`\s]+)`?\s+(?P<type>.+?)(?P<notnull>\s+NOT\s+NULL)?"
                    r"(?:\s+COMMENT\s+'(?P<comment>(?:[^']|'')*)')?$", re.I | re.S)


def spark_type(t):
    """A DDL type as Spark's catalogString writes it: lower case, no spaces ("DECIMAL(7, 2)" -> "decimal(7,2)")."""
    return re.sub(r"\s+", "", t).lower()


def parse_ddl(text):
    """{table: [(name, type, nullable, comment)]} from CREATE TABLE statements."""
    text = re.sub(r"--[^\n]*", "", text)
    tables = {}
    for m in re.finditer(r"CREATE\s+TABLE\s+`?(\w+)`?\s*\((.*?)\)\s*;", text, re.I | re.S):
        cols = []
        for c in split_top_level(m.group(2)):
            cm = COLUMN.match(c)
            if not cm:
                raise ValueError("cannot read column %r of %s" % (c, m.group(1)))
            cols.append((cm.group("name"), spark_type(cm.group("type")), not cm.group("notnull"),
                         (cm.group("comment") or "").replace("''", "'")))
        tables[m.group(1)] = cols
    return tables


def version_of(cols):
    return hashlib.sha256(json.dumps(cols).encode()).hexdigest()[:16]


class Catalog:
    """Namespaces of tables from DDL files (re-read when they change) and synthetic ones."""

    def __init__(self, schemas, synthetic, functions):
        self.schemas = schemas  # [(namespace, path)]
        self.mtimes = {}
        self.lock = threading.Lock()
        self.namespaces = {}  # ns -> {table: (cols, version)}
        self.synthetic = synthetic
        self.functions = functions  # {(ns, name): (arg types, result)}
        self.refresh()

    def refresh(self):
        with self.lock:
            for ns, path in self.schemas:
                mtime = os.stat(path).st_mtime_ns
                if self.mtimes.get(path) == mtime:
                    continue
                with open(path) as f:
                    tables = parse_ddl(f.read())
                self.namespaces[ns] = {t: (cols, version_of(cols)) for t, cols in tables.items()}
                self.mtimes[path] = mtime
            if self.synthetic and "synthetic" not in self.namespaces:
                self.namespaces["synthetic"] = {}

    def table(self, ns, name):
        self.refresh()
        if ns == ["synthetic"] and self.synthetic and re.fullmatch(r"t\d+", name) and int(name[1:]) < self.synthetic:
            i = int(name[1:])
            cols = [("id", "bigint", False, "")] + [("c%d_%d" % (i, k), t, True, "")
                                                    for k, t in enumerate(["int", "string", "decimal(12,2)", "date",
                                                                           "array<string>", "double", "timestamp"])]
            return cols, "synthetic-1"
        if len(ns) != 1:
            return None
        return self.namespaces.get(ns[0], {}).get(name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--listen", default="127.0.0.1:0")
    ap.add_argument("--schema", action="append", default=[], metavar="NS=FILE")
    ap.add_argument("--synthetic", type=int, default=0, metavar="N")
    ap.add_argument("--function", action="append", default=[], metavar="NS.NAME(TYPE,...)->TYPE")
    ap.add_argument("--aggregate", action="append", default=[], metavar="NS.NAME(TYPE,...)->TYPE")
    ap.add_argument("--unversioned", action="store_true",
                    help="tables carry no version: a revalidation always loads the table (bench/catalogs.sh's cold run)")
    args = ap.parse_args()
    pb = load_messages()
    functions = {}
    for f, aggregate in [(f, False) for f in args.function] + [(f, True) for f in args.aggregate]:
        m = re.fullmatch(r"(\w+)\.(\w+)\((.*)\)->(.+)", f.replace(" ", ""))
        if not m:
            ap.error("--function %s: expected NS.NAME(TYPE,...)->TYPE" % f)
        functions[(m.group(1), m.group(2))] = (split_top_level(m.group(3)), m.group(4), aggregate)
    catalog = Catalog([tuple(s.split("=", 1)) for s in args.schema], args.synthetic, functions)
    log_lock = threading.Lock()

    def log(rpc, name, result):
        with log_lock:
            print(json.dumps({"rpc": rpc, "name": name, "result": result}), flush=True)

    def load_table(req, ctx):
        ns, name = list(req.table.namespace), req.table.name
        ident = ".".join(ns + [name])
        found = catalog.table(ns, name)
        if found is None:
            log("LoadTable", ident, "not_found")
            ctx.abort(grpc.StatusCode.NOT_FOUND, "no table %s in catalog %s" % (ident, req.context.catalog))
        cols, version = found
        if args.unversioned:
            version = ""
        if req.known_version and req.known_version == version:
            log("LoadTable", ident, "not_modified")
            return pb.LoadTableResponse(not_modified=True)
        log("LoadTable", ident, "loaded")
        return pb.LoadTableResponse(table=pb.TableMetadata(
            name=ident, version=version, properties={"provider": "catalyzer-example-python"},
            columns=[pb.ColumnMetadata(name=n, data_type=t, nullable=nl, comment=c) for n, t, nl, c in cols]))

    def list_namespaces(req, ctx):
        catalog.refresh()
        parent = list(req.namespace)
        log("ListNamespaces", ".".join(parent), "listed")
        if not parent:
            return pb.ListNamespacesResponse(namespaces=[pb.Namespace(parts=[n]) for n in sorted(catalog.namespaces)])
        if len(parent) == 1 and parent[0] in catalog.namespaces:
            return pb.ListNamespacesResponse()
        ctx.abort(grpc.StatusCode.NOT_FOUND, "no namespace %s" % ".".join(parent))

    def list_tables(req, ctx):
        catalog.refresh()
        ns = list(req.namespace)
        log("ListTables", ".".join(ns), "listed")
        if len(ns) != 1 or ns[0] not in catalog.namespaces:
            ctx.abort(grpc.StatusCode.NOT_FOUND, "no namespace %s" % ".".join(ns))
        names = sorted(catalog.namespaces[ns[0]])
        if ns[0] == "synthetic":
            names = ["t%d" % i for i in range(catalog.synthetic)]
        return pb.ListTablesResponse(tables=[pb.Identifier(namespace=ns, name=n) for n in names])

    def load_function(req, ctx):
        ns, name = list(req.function.namespace), req.function.name
        f = functions.get((ns[0] if len(ns) == 1 else "", name))
        log("LoadFunction", ".".join(ns + [name]), "loaded" if f else "not_found")
        if not f:
            ctx.abort(grpc.StatusCode.NOT_FOUND, "no function %s" % ".".join(ns + [name]))
        return pb.LoadFunctionResponse(name=name, argument_types=f[0], result_type=f[1], deterministic=True,
                                       aggregate=f[2], version=version_of([f[0], f[1]]))

    def unary(fn, req_cls, resp_cls):
        return grpc.unary_unary_rpc_method_handler(fn, request_deserializer=req_cls.FromString,
                                                   response_serializer=resp_cls.SerializeToString)

    handler = grpc.method_handlers_generic_handler("catalyzer.v1.CatalogProvider", {
        "LoadTable": unary(load_table, pb.LoadTableRequest, pb.LoadTableResponse),
        "ListNamespaces": unary(list_namespaces, pb.ListNamespacesRequest, pb.ListNamespacesResponse),
        "ListTables": unary(list_tables, pb.ListTablesRequest, pb.ListTablesResponse),
        "LoadFunction": unary(load_function, pb.LoadFunctionRequest, pb.LoadFunctionResponse),
    })
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port(args.listen)
    server.start()
    print(json.dumps({"listening": port}), flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
