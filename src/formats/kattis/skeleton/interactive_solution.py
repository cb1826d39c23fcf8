# An interactive submission reads what the interactor sends and flushes
# what it writes (print(..., flush=True)), or both sides wait forever.
a, b = map(int, input().split())
print(a + b, flush=True)
