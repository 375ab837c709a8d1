#!/usr/bin/env python3
"""The known-disagreements list of a conformance run (tests/oracle/known-2.14.txt).

Usage: known_disagreements.py CONFORMANCE_OUTPUT [HEADER_FILE] > known.txt

Reads dtypeflow_conformance's per-op lines (`KEY N cases ... we-reject A
torch-rejects B ...`, `CONFIG: ...`) and writes `KEY A B` or `KEY config` for
each op that disagrees. An op with a wrong answer is never listed: it is
reported on stderr and the exit code is 1 (scope its rule away instead).
"""
import re
import sys

LINE = re.compile(r"^(\S+::\S+)\s+\d+ cases\s+agree\s+\d+\s+unknown\s+\d+\s+wrong (\d+)\s+we-reject (\d+)\s+"
                  r"torch-rejects (\d+).*?(CONFIG: .*)?$")


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    if len(sys.argv) > 2:
        sys.stdout.write(open(sys.argv[2], encoding="utf-8").read())
    status = 0
    for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        key, wrong, we_reject, torch_rejects, config = m.groups()
        if int(wrong):
            print(f"{key}: {wrong} wrong answers: not listed (a wrong answer is never accepted)", file=sys.stderr)
            status = 1
        elif config:
            print(f"{key} config")
        elif int(we_reject) or int(torch_rejects):
            print(f"{key} {we_reject} {torch_rejects}")
    return status


if __name__ == "__main__":
    sys.exit(main())
