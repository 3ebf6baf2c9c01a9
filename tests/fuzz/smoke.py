#!/usr/bin/env python3
"""One fuzz target's test: its regressions (tests/fuzz/regressions/NAME, each
a past finding) and freshly generated seeds (fuzz_seeds: tests/golden and,
when present, ../shared) replayed, then a short bounded fuzzing run —
libFuzzer for FUZZ_SMOKE_SECONDS (default 20 s) with --libfuzzer, else the
plain driver's seeded mutations (2,000, at most 20 s). Fails on any crash,
sanitizer report, leak or timeout; a finding is left in the test's log (and
in the work folder it names) to add under regressions/.

Usage: smoke.py --target NAME --exe PATH --seeds-tool PATH --source DIR [--shared DIR] [--libfuzzer]"""
import argparse, os, shutil, subprocess, sys, tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--seeds-tool", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--shared")
    ap.add_argument("--libfuzzer", action="store_true")
    a = ap.parse_args()
    seconds = int(os.environ.get("FUZZ_SMOKE_SECONDS", "20"))
    work = tempfile.mkdtemp(prefix="fuzz-%s-" % a.target)
    env = dict(os.environ)
    # a UBSan report fails the run (as scripts/test.sh asks of the ASan build)
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    # the replay stays short: a sample of the seeds (scripts/fuzz.sh takes them all)
    env.setdefault("FUZZ_SEEDS_LIMIT", os.environ.get("FUZZ_SMOKE_SEEDS", "300"))
    cmd = [a.seeds_tool, os.path.join(work, "seeds"), a.source]
    if a.shared and os.path.isdir(a.shared):
        cmd.append(a.shared)
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        print("fuzz_seeds failed:\n" + r.stdout + r.stderr)
        return 1
    seeds = os.path.join(work, "seeds", a.target)
    regress = os.path.join(a.source, "tests", "fuzz", "regressions", a.target)
    nreg = len(os.listdir(regress)) if os.path.isdir(regress) else 0
    nseeds = len(os.listdir(seeds))
    print("fuzz_%s: %d regressions, %d seeds" % (a.target, nreg, nseeds))
    sys.stdout.flush()
    if a.libfuzzer:
        corpus = os.path.join(work, "corpus")
        os.mkdir(corpus)
        # replay the regressions first (each once), then fuzz from the seeds
        if nreg:
            r = subprocess.run([a.exe, "-runs=0", regress], capture_output=True, text=True, cwd=work, env=env)
            if r.returncode != 0:
                print("regression replay FAILED:\n" + r.stderr[-6000:])
                return 1
        r = subprocess.run([a.exe, "-max_total_time=%d" % seconds, "-timeout=25", "-rss_limit_mb=3072",
                            "-max_len=65536", "-print_final_stats=1", "-artifact_prefix=%s/" % work, corpus, seeds],
                           capture_output=True, text=True, cwd=work, env=env)
        tail = r.stderr[-6000:]
    else:
        args = [a.exe, "--mutate", "2000", "--seconds", str(seconds), "--crash-file",
                os.path.join(work, "crash-input")]
        if nreg:
            args.append(regress)
        args.append(seeds)
        r = subprocess.run(args, capture_output=True, text=True, cwd=work, env=env)
        tail = r.stdout + r.stderr[-6000:]
    print(tail)
    if r.returncode != 0:
        print("fuzz_%s FAILED (exit %d); the input is in %s" % (a.target, r.returncode, work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
