# Finds the number, then reads once more: the validator has accepted and
# closed its side, input() meets the end of the input and raises EOFError.
# A crash after an accepting validator is still a run-time error.
lo, hi = 1, 1000
while lo <= hi:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    reply = input()
    if reply == "correct":
        break
    lo, hi = (mid + 1, hi) if reply == "higher" else (lo, mid - 1)
input()
