# Two integers in [0, 2e9] on one line, single-spaced, no leading zeros.
import re
import sys

line = sys.stdin.read()
match = re.fullmatch(r"(0|[1-9][0-9]*) (0|[1-9][0-9]*)\n", line)
assert match, "expected two numbers on one line"
a, b = int(match[1]), int(match[2])
assert 0 <= a <= 2 * 10**9 and 0 <= b <= 2 * 10**9, "values in [0, 2e9]"
sys.exit(42)
