"""Writes one bench script's section into BENCHMARKS.md: the text between the
section's BEGIN and END markers is replaced, or the section is appended when
the file has no such markers yet. Shared by the *_report.py scripts."""
import os
import sys


def write_section(dest, lines, begin, end, if_empty):
    section = "\n".join(lines)
    if not section:
        sys.exit(if_empty)
    text = open(dest).read() if os.path.exists(dest) else ""
    if begin in text and end in text:
        pre, rest = text.split(begin, 1)
        text = pre + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(dest, "w") as f:
        f.write(text)
