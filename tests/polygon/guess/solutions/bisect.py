n = int(input())
lo, hi = 1, n
while lo < hi:
    mid = (lo + hi + 1) // 2
    print("?", mid, flush=True)
    reply = input().strip()
    if reply == "=":
        lo = hi = mid
    elif reply == "<":
        lo = mid + 1
    else:
        hi = mid - 1
print("!", lo, flush=True)
