#!/usr/bin/env python3
"""Wire compatibility of proto/spark/connect with Spark 4.0's own protos.

Compiles the project's .proto files and Spark's (../shared/reference/
spark-connect/protos) into descriptor sets with protoc and checks, for every
message, field, enum, oneof and service method the project declares, that
Spark declares the same: field numbers, names, types (scalar kind or the
full name of the message/enum), labels, the oneof a field belongs to, enum
value names and numbers, method request/response types and streaming.

One deliberate spelling difference is accepted: a field Spark marks proto3
`optional` is, in the project, the only field of a oneof named `_<field>`
(protoc-c 1.4 has no proto3 optional). That is exactly how protoc represents
proto3 optional on the wire and in descriptors (a synthetic oneof of that
name), so the encoded bytes are identical.

The project may declare less than Spark (a subset), never something else.
TAP output; skips (exit 77) when ../shared is absent.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(HERE, "..", ".."))
OURS = os.path.join(SOURCE, "proto")
SHARED = os.environ.get("CATALYZER_SHARED", os.path.join(SOURCE, "..", "shared"))
SPARK = os.path.join(SHARED, "reference", "spark-connect", "protos")


def skip(why):
    print("%s: SKIP: %s: skipped, not passed" % (os.path.basename(__file__), why))
    sys.stdout.flush()
    sys.exit(77)


def descriptor_set(root, files):
    from google.protobuf import descriptor_pb2
    out = os.path.join(tempfile.mkdtemp(prefix="connect-wire-"), "set.pb")
    r = subprocess.run(["protoc", "-I", root, "-I", "/usr/include", "--include_imports",
                        "--descriptor_set_out=" + out] + files, cwd=root, capture_output=True, text=True)
    if r.returncode != 0:
        print("Bail out! protoc failed on %s: %s" % (root, r.stderr.strip()[:2000]))
        sys.exit(1)
    fds = descriptor_pb2.FileDescriptorSet()
    with open(out, "rb") as f:
        fds.ParseFromString(f.read())
    return fds


def index(fds, package):
    """full name -> ('message'|'enum', proto, file) for one package, plus services."""
    types, services = {}, {}

    def add_message(prefix, m, fname):
        name = prefix + "." + m.name
        types[name] = ("message", m, fname)
        for n in m.nested_type:
            if not n.options.map_entry:
                add_message(name, n, fname)
        for e in m.enum_type:
            types[name + "." + e.name] = ("enum", e, fname)

    for fd in fds.file:
        if fd.package != package:
            continue
        for m in fd.message_type:
            add_message("." + package, m, fd.name)
        for e in fd.enum_type:
            types["." + package + "." + e.name] = ("enum", e, fd.name)
        for s in fd.service:
            services["." + package + "." + s.name] = s
    return types, services


def map_entry_shape(msg, field):
    """For a map field, (key type, value type) from its entry message."""
    for n in msg.nested_type:
        if n.options.map_entry and field.type_name.endswith("." + n.name):
            k, v = n.field
            return (k.type, k.type_name, v.type, v.type_name)
    return None


def compare_message(name, ours, spark, problems):
    sfields = {f.number: f for f in spark.field}
    for f in ours.field:
        where = "%s.%s (= %d)" % (name, f.name, f.number)
        s = sfields.get(f.number)
        if s is None:
            problems.append(where + ": Spark has no field with this number")
            continue
        for attr in ("name", "type", "label"):
            if getattr(f, attr) != getattr(s, attr):
                problems.append("%s: %s is %r, Spark's is %r" % (where, attr, getattr(f, attr), getattr(s, attr)))
        if f.type_name != s.type_name:
            om, sm = map_entry_shape(ours, f), map_entry_shape(spark, s)
            if om is None or om != sm:
                problems.append("%s: type %s, Spark's is %s" % (where, f.type_name, s.type_name))
        ours_oneof = ours.oneof_decl[f.oneof_index].name if f.HasField("oneof_index") else None
        spark_oneof = spark.oneof_decl[s.oneof_index].name if s.HasField("oneof_index") else None
        if s.proto3_optional:
            members = [g for g in ours.field if g.HasField("oneof_index") and g.oneof_index == f.oneof_index]
            if ours_oneof != "_" + s.name or len(members) != 1:
                problems.append("%s: Spark's field is optional; expected it alone in oneof _%s" % (where, s.name))
        elif ours_oneof != spark_oneof:
            problems.append("%s: in oneof %r, Spark's in %r" % (where, ours_oneof, spark_oneof))
        if s.options.deprecated != f.options.deprecated:
            problems.append("%s: deprecated flag differs from Spark's" % where)
    if list(ours.reserved_range) and [(r.start, r.end) for r in ours.reserved_range] != \
            [(r.start, r.end) for r in spark.reserved_range]:
        problems.append(name + ": reserved ranges differ from Spark's")


def compare_enum(name, ours, spark, problems):
    svals = {v.name: v.number for v in spark.value}
    for v in ours.value:
        if v.name not in svals:
            problems.append("%s.%s: Spark has no such value" % (name, v.name))
        elif svals[v.name] != v.number:
            problems.append("%s.%s = %d, Spark's = %d" % (name, v.name, v.number, svals[v.name]))
    if len(ours.value) != len(spark.value):
        problems.append("%s: %d values, Spark has %d (an enum must be complete: a client may send any)"
                        % (name, len(ours.value), len(spark.value)))


def main():
    if not os.path.isdir(SPARK):
        skip("no ../shared/reference/spark-connect (Spark's protos)")
    try:
        import google.protobuf  # noqa: F401
    except ImportError:
        skip("python3-protobuf is not installed")
    ours_files = sorted(os.path.join("spark", "connect", f) for f in os.listdir(os.path.join(OURS, "spark", "connect"))
                        if f.endswith(".proto"))
    spark_files = sorted(os.path.join("spark", "connect", f)
                         for f in os.listdir(os.path.join(SPARK, "spark", "connect")) if f.endswith(".proto"))
    ours_types, ours_services = index(descriptor_set(OURS, ours_files), "spark.connect")
    spark_types, spark_services = index(descriptor_set(SPARK, spark_files), "spark.connect")

    checks = []  # (name, [problems])
    for name in sorted(ours_types):
        kind, o, fname = ours_types[name]
        problems = []
        if name not in spark_types:
            problems.append("%s (%s): Spark declares no such %s" % (name, fname, kind))
        else:
            skind, s, _ = spark_types[name]
            if skind != kind:
                problems.append("%s: a %s here, a %s in Spark" % (name, kind, skind))
            elif kind == "message":
                compare_message(name, o, s, problems)
            else:
                compare_enum(name, o, s, problems)
        checks.append((kind + " " + name[1:], problems))
    for sname, svc in sorted(ours_services.items()):
        spark_svc = spark_services.get(sname)
        for m in svc.method:
            problems = []
            sm = next((x for x in spark_svc.method if x.name == m.name), None) if spark_svc else None
            if sm is None:
                problems.append("Spark's %s has no method %s" % (sname, m.name))
            else:
                for attr in ("input_type", "output_type", "client_streaming", "server_streaming"):
                    if getattr(m, attr) != getattr(sm, attr):
                        problems.append("%s: %s %r, Spark's %r" % (m.name, attr, getattr(m, attr), getattr(sm, attr)))
            checks.append(("rpc %s/%s" % (sname[1:], m.name), problems))

    # The relations, expressions and types the decoder reads must all be declared.
    for required in (".spark.connect.Relation", ".spark.connect.Expression", ".spark.connect.DataType",
                     ".spark.connect.AnalyzePlanRequest", ".spark.connect.ConfigRequest",
                     ".spark.connect.ExecutePlanRequest", ".spark.connect.ReleaseSessionRequest"):
        checks.append(("declared " + required[1:], [] if required in ours_types else ["not declared"]))

    print("1..%d" % len(checks))
    failed = 0
    for i, (name, problems) in enumerate(checks, 1):
        if problems:
            failed += 1
            print("not ok %d - %s" % (i, name))
            for p in problems:
                print("# " + p)
        else:
            print("ok %d - %s" % (i, name))
    nfields = sum(len(o.field) for k, o, _ in ours_types.values() if k == "message")
    print("# %d messages/enums, %d fields, %d methods compared with Spark's" %
          (len(ours_types), nfields, sum(len(s.method) for s in ours_services.values())))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
