# judge: permitted AC TLE
# The same IDA* in Python: right, but whether it is fast enough depends on
# the machine, so it declares that AC and TLE are both fine (its folder
# alone would require a TLE).
import sys

LINES = [
    [0, 2, 6, 11, 15, 20, 22], [1, 3, 8, 12, 17, 21, 23],
    [10, 9, 8, 7, 6, 5, 4], [19, 18, 17, 16, 15, 14, 13],
    [23, 21, 17, 12, 8, 3, 1], [22, 20, 15, 11, 6, 2, 0],
    [13, 14, 15, 16, 17, 18, 19], [4, 5, 6, 7, 8, 9, 10],
]
CENTRE = [6, 7, 8, 11, 12, 15, 16, 17]
OPPOSITE = [5, 4, 7, 6, 1, 0, 3, 2]


def estimate(q):
    counts = [0, 0, 0, 0]
    for c in CENTRE:
        counts[q[c]] += 1
    return 8 - max(counts)


def rotate(q, m):
    cells = LINES[m]
    first = q[cells[0]]
    for i in range(6):
        q[cells[i]] = q[cells[i + 1]]
    q[cells[6]] = first


def search(q, done, last, depth, path):
    h = estimate(q)
    if done + h > depth:
        return False
    if h == 0:
        return True
    for m in range(8):
        if last >= 0 and OPPOSITE[m] == last:
            continue
        rotate(q, m)
        path.append(m)
        if search(q, done + 1, m, depth, path):
            return True
        path.pop()
        rotate(q, OPPOSITE[m])
    return False


def main():
    tokens = sys.stdin.read().split()
    out = []
    i = 0
    while i < len(tokens) and tokens[i] != "0":
        q = [int(t) for t in tokens[i:i + 24]]
        i += 24
        depth = 0
        path = []
        while not search(q, 0, -1, depth, path):
            depth += 1
        out.append("".join("ABCDEFGH"[m] for m in path) or "No moves needed")
        out.append(str(q[CENTRE[0]]))
    print("\n".join(out))


main()
