# Wrong: a XOR b is a + b only when no bits carry (right on the sample).
a, b = map(int, input().split())
print(a ^ b, flush=True)
