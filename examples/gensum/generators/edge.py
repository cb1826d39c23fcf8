# An edge case by name: zero, max or equal.
import sys
kind = sys.argv[1]
print({"zero": "0 0", "max": "2000000000 2000000000", "equal": "7 7"}[kind])
