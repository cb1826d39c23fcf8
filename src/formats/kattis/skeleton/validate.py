# The input validator: an input on standard input; exit 42 if it is
# valid, 43 if not (the Kattis protocol). Be strict: one line, two
# integers in [0, 10^9], single-spaced, no leading zeros.
import re
import sys

line = sys.stdin.read()
match = re.fullmatch(r"(0|[1-9][0-9]*) (0|[1-9][0-9]*)\n", line)
if not match:
    print("expected two integers on one line", file=sys.stderr)
    sys.exit(43)
a, b = int(match[1]), int(match[2])
if not (a <= 10**9 and b <= 10**9):
    print("a and b must be at most 10^9", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
