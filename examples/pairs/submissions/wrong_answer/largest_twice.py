# Twice the largest value: a sum no two different positions make: 0 points.
import sys
data = sys.stdin.read().split()
print(2 * max(map(int, data[1:])))
print(1, 1)
