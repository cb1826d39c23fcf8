# Wrong: a XOR b is a + b only when no bits carry. It passes the sample
# (1 XOR 2 = 3) and fails the secret cases: samples are not enough.
a, b = map(int, input().split())
print(a ^ b)
