# A generator: `random.py SEED MAX` prints two integers in [0, MAX].
# generators.yaml gives each case its own seed ({seed}), so every case
# differs and `judge gen` makes the same files on every machine.
import random
import sys

seed, high = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
print(rng.randint(0, high), rng.randint(0, high))
