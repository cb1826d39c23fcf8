#!/usr/bin/env bash
# Regenerate the generated part of the shipped cases/ with `judge gen`.
# Deterministic: the same seeds give the same files, so running it again
# changes nothing. Hand-written cases (statement samples, edge cases) are
# committed as they are and not touched here.
#
#   scripts/make-cases.sh            (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
judge=target/release/judge
gen() { "$judge" gen "$@" --force 2>/dev/null; }

# Rotation: five boards of every optimal length 0..13, and 20,000 random boards.
for len in $(seq 0 13); do
  gen rotation --count 5 --seed "$((100 + len))" --length "$len" --out cases/rotation --name "$(printf 'len%02d' "$len")"
done
gen rotation --count 20000 --seed 2026 --out cases/rotation --name random-20000

# Booksort: n = 15 at every distance 0..4 and "5 or more", small shelves, and 1,000 random cases.
for k in 0 1 2 3 4 5; do
  gen booksort --count 10 --seed "$((200 + k))" --n 15 --moves "$k" --out cases/booksort --name "n15-moves$k"
done
gen booksort --count 20 --seed 210 --n 1..7 --out cases/booksort --name small-shelves
gen booksort --count 1000 --seed 2026 --n 1..15 --out cases/booksort --name random-1000

# Swap: the longest optimum (20 moves), and 40 random boards of mixed lengths.
gen swap --count 1 --seed 300 --length 20 --out cases/swap --name longest-20
gen swap --count 40 --seed 2026 --out cases/swap/random --name random

# Flip: the longest optimum (6 flips), impossible boards, and 40 random solvable boards.
gen flip --count 1 --seed 400 --length 6 --out cases/flip --name longest-6
gen flip --count 3 --seed 401 --impossible --out cases/flip --name impossible
gen flip --count 40 --seed 2026 --out cases/flip/random --name random

# Pilots: all 16 turns needed (the longest), and 40 random boards.
gen pilots --count 1 --seed 500 --turns 16 --out cases/pilots --name longest-16
gen pilots --count 40 --seed 2026 --out cases/pilots/random --name random
echo "cases regenerated; check with: $judge validate"
