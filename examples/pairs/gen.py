#!/usr/bin/env python3
"""Writes cases/ for the pairs example (deterministic): python3 gen.py"""
import random, os

def write(name, values):
    n = len(values)
    best = max(range(n), key=lambda i: (values[i], -i))
    rest = max((i for i in range(n) if i != best), key=lambda i: (values[i], -i))
    i, j = sorted((best, rest))
    os.makedirs(os.path.dirname(name), exist_ok=True)
    with open(name + ".in", "w") as f:
        f.write(f"{n}\n{' '.join(map(str, values))}\n")
    with open(name + ".ans", "w") as f:
        f.write(f"{values[i] + values[j]}\n{i + 1} {j + 1}\n")

rng = random.Random(2026)
write("cases/sample/1", [3, 9, 4, 7])
for k in range(1, 4):   # subtask 1: N <= 10, values <= 100
    write(f"cases/small/{k}", [rng.randint(1, 100) for _ in range(rng.randint(2, 10))])
for k in range(1, 4):   # subtask 2: N <= 1000, values <= 2*10^9
    write(f"cases/medium/{k}", [rng.randint(1, 2 * 10**9) for _ in range(1000)])
for k in range(1, 2):   # subtask 3: N <= 100000, values <= 2*10^9
    write(f"cases/large/{k}", [rng.randint(1, 2 * 10**9) for _ in range(100000)])
