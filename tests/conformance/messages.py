#!/usr/bin/env python3
"""Error-message fidelity: for every corpus statement where Spark's analysis
fails and `catalyzer run` fails with the same error class, are the message
parameters (objectName, proposal, sqlExpr, ...) exactly the ones Spark
printed (the golden files' messageParameters)? The judge scores the class;
this scores the message a user reads.

Prints the figure per error class (worst first) and the totals against their
floors in baseline.json: `messages` (every class-matching error) and
`messages_unresolved` (the UNRESOLVED_* classes, whose proposal lists follow
StringUtils.orderSuggestedIdentifiersBySimilarity). Records whose
error_phase is "execution" are skipped, as conformance.py does.

Usage: messages.py --cli build/client/catalyzer [--shared ../shared]
                   [--only REGEX] [--class REGEX] [--failures N] [--update]
Exits 77 (meson's SKIP) when the shared corpus is not present."""
import argparse, collections, json, os, re, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402
from conformance import CORPORA, run_file  # noqa: E402

FIGURES = [("messages", lambda cls: True), ("messages_unresolved", lambda cls: cls.startswith("UNRESOLVED_"))]


def spark_templates(shared):
    """{class or class.subclass: Spark's message template} from
    reference/spark/error-conditions.json (a subclass's text is its class's,
    a space, its own: ErrorClassesJsonReader.getMessageTemplate)."""
    path = corpus.path("reference", "spark", "error-conditions.json", shared=shared)
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        conds = json.load(f)
    out = {}
    for cls, d in conds.items():
        main = "\n".join(d.get("message", []))
        out[cls] = main
        for sub, sd in (d.get("subClass") or {}).items():
            out[cls + "." + sub] = main + " " + "\n".join(sd.get("message", []))
    return out


def spark_text(templates, cls, params):
    """The message Spark prints before its SQLSTATE suffix, for our parameters."""
    t = templates.get(cls)
    if t is None:
        return None
    text = re.sub(r"<([a-zA-Z0-9_]+)>", lambda m: params.get(m.group(1), m.group(0)), t)
    return text if cls.startswith("_LEGACY_ERROR_") else f"[{cls}] {text}"


def compare(cli, shared, only, cls_re):
    """[(class, exact?, file, index, sql, expected parameters, got parameters, our message)]"""
    out = []
    for _, name in CORPORA:
        files = corpus.by_file(name, (lambda f: re.search(only, f)) if only else None, shared)
        for fname, recs in files.items():
            if not any(r["expect"] == "error" for r in recs):
                continue
            got, _, _ = run_file(cli, recs, 600)
            for i, r in enumerate(recs):
                if r["expect"] != "error" or r.get("error_phase") == "execution":
                    continue
                g = got.get(i) or {}
                if g.get("status") != "error" or g.get("error_class") != r["error_class"]:
                    continue
                if cls_re and not re.search(cls_re, r["error_class"]):
                    continue
                want = r.get("message_parameters") or {}
                # expression ids as Spark's golden files print them (#x)
                have = {k: re.sub(r"#\d+", "#x", v) for k, v in (g.get("message_parameters") or {}).items()}
                out.append((r["error_class"], want == have, fname, i, r["sql"], want, have, g.get("message")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", default=None)
    ap.add_argument("--only", help="test files matching REGEX")
    ap.add_argument("--class", dest="cls", help="error classes matching REGEX")
    ap.add_argument("--failures", type=int, default=0)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    corpus.require("messages", a.shared)
    rows = compare(a.cli, a.shared, a.only, a.cls)
    per = collections.defaultdict(lambda: [0, 0])
    for cls, ok, *_ in rows:
        per[cls][1] += 1
        per[cls][0] += ok
    for cls, (p, n) in sorted(per.items(), key=lambda kv: (kv[1][0] - kv[1][1], kv[0])):
        print(f"  {cls:70s} {p:4d}/{n:<4d}")
    shown = 0
    for cls, ok, fname, i, sql, want, have, _ in rows:
        if not ok and shown < a.failures:
            shown += 1
            print(f"    DIFF {fname}#{i} {cls}: {sql[:100]!r}")
            for k in sorted(set(want) | set(have)):
                if want.get(k) != have.get(k):
                    print(f"      {k}: spark {want.get(k)!r}")
                    print(f"      {k:{len(k)}s}  ours  {have.get(k)!r}")
    # the text: our message against Spark's template filled with our parameters
    templates = spark_templates(a.shared)
    texts = collections.defaultdict(lambda: [0, 0, None])
    for cls, _, fname, i, _, _, have, msg in rows:
        want_text = spark_text(templates, cls, have)
        t = texts[cls]
        t[1] += 1
        if msg == want_text:
            t[0] += 1
        elif t[2] is None:
            t[2] = (f"{fname}#{i}", want_text, msg)
    bad = sorted(((c, t) for c, t in texts.items() if t[0] < t[1]), key=lambda kv: (kv[1][0] - kv[1][1], kv[0]))
    for cls, (p, n, ex) in bad[:a.failures]:
        print(f"  TEXT {cls} {p}/{n} ({ex[0]})\n      spark {ex[1]!r}\n      ours  {ex[2]!r}")
    tp, tn = sum(t[0] for t in texts.values()), sum(t[1] for t in texts.values())
    print(f"messages text (Spark's template, our parameters): {tp}/{tn}")
    if a.only or a.cls:
        return 0
    floors = corpus.baseline()
    status = 0
    for key, pick in FIGURES:
        sel = [ok for cls, ok, *_ in rows if pick(cls)]
        passed, total = sum(sel), len(sel)
        if a.update:
            floors[key] = max(floors.get(key, 0.0), corpus.floor_tenth(100.0 * passed / total if total else 0.0))
        elif not corpus.check_floor(key, passed, total, floors):
            status = 1
    if a.update:
        with open(corpus.BASELINE, "w") as f:
            json.dump(floors, f, indent=2, sort_keys=True)
            f.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
