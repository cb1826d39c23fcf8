# Right numbers, Windows line endings (PE in strict mode).
import sys

t = int(input())
for _ in range(t):
    a, b = map(int, input().split())
    sys.stdout.write(f"{a + b}\r\n")
