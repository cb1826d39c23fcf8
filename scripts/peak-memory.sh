#!/usr/bin/env bash
# The judge's own peak memory on many tiny cases (BENCHMARKS.md): makes N
# one-line A+B cases and a compiled A+B, then runs `judge run` under GNU time,
# with a report file in FORMAT (json, ndjson, junit, html) if one is given.
#   scripts/peak-memory.sh [N=100000] [JOBS=all cores] [FORMAT]
# (1,000,000 cases: about 2 GB of small files and, on two cores, 10 to 30
# minutes of judging.)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
jobs=${2:-$(nproc)}
report=()
if [ -n "${3:-}" ]; then report=(--format "$3" --report "out.$3"); fi
cargo build --release -q
judge=$PWD/target/release/judge
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
printf '#include <stdio.h>\nint main(void){long long a,b;if(scanf("%%lld %%lld",&a,&b)==2)printf("%%lld\\n",a+b);return 0;}\n' > ab.c
cc -O2 -o ab ab.c
mkdir -p cases/ab
for ((i = 1; i <= n; i++)); do
  echo "$i $((3 * i))" > "cases/ab/$i.in"
  echo "$((4 * i))" > "cases/ab/$i.ans"
done
echo "$n cases, -j $jobs ${report[*]}"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "judge: %e s wall, peak memory %M KiB" \
    "$judge" run cases/ab --problem ab --check tokens --submission ./ab -j "$jobs" -q "${report[@]}"
else
  echo "(no /usr/bin/time: peak memory not measured)"
  time "$judge" run cases/ab --problem ab --check tokens --submission ./ab -j "$jobs" -q "${report[@]}"
fi
