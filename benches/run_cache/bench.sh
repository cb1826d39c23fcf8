#!/bin/sh
# The run cache's numbers (BENCHMARKS.md "Run cache"): judge verify on a
# package of 20 submissions, cold, unchanged, one submission edited, one
# .ans edited, the output validator edited; then --no-cache. Each time is
# the median of 3 runs (wall clock, seconds).
# Usage: sh bench.sh JUDGE WORKDIR
set -eu
judge=$(realpath "${1:?usage: sh bench.sh JUDGE WORKDIR}")
work=${2:?usage: sh bench.sh JUDGE WORKDIR}
here=$(dirname "$(realpath "$0")")
rm -rf "$work" && mkdir -p "$work" && cd "$work"
sh "$here/make.sh" sumsq
export JUDGE_CACHE_DIR="$work/cache"
t() { # median of 3 timings of: judge verify sumsq -q (after $1, run before each)
  for _ in 1 2 3; do
    sh -c "$1"
    s=$(date +%s.%N)
    "$judge" verify sumsq -q $2 > out.txt 2>&1 || true
    e=$(date +%s.%N)
    echo "$e - $s" | bc
  done | sort -n | sed -n 2p
}
"$judge" verify sumsq -q > /dev/null 2>&1 || true   # builds cached
echo "no-cache (builds cached):   $(t true --no-cache)"
echo "cold runs (builds cached):  $(t "rm -rf cache/runs" "")"
tail -1 out.txt
echo "unchanged:                  $(t true "")"
tail -1 out.txt
n=0
echo "one submission edited:      $(t 'n=$(date +%N); echo "/* $n */" >> sumsq/submissions/accepted/c1.c' "")"
tail -1 out.txt
echo "one Python submission edited: $(t 'echo "# $(date +%N)" >> sumsq/submissions/accepted/py1.py' "")"
tail -1 out.txt
echo "one C submission's code edited: $(t 'echo "int unused_$(date +%N)(void){return 1;}" >> sumsq/submissions/accepted/c2.c' "")"
tail -1 out.txt
echo "one .ans edited:            $(t 'echo >> sumsq/data/secret/5.ans' "")"
tail -1 out.txt
echo "output validator edited:    $(t 'echo "# $(date +%N)" >> sumsq/output_validator/validate.py' "")"
tail -1 out.txt
"$judge" verify sumsq --format json 2>/dev/null | python3 -c 'import json,sys; print("last run cache:", json.load(sys.stdin)["cache"])' || true
# The cache's cost on a cold run of 1,000 one-line cases (judge run).
mkdir -p many/cases/one && cd many
i=0; while [ $i -lt 1000 ]; do echo $i > cases/one/$i.in; echo $i > cases/one/$i.ans; i=$((i + 1)); done
printf '[problem.one]\n' > judge.toml
printf '#include <stdio.h>\nint main(void){int c;while((c=getchar())!=EOF)putchar(c);return 0;}\n' > echo.c
cc -O2 -o echo echo.c
m() { for _ in 1 2 3 4 5; do sh -c "$1"; s=$(date +%s.%N); "$judge" run --submission ./echo -q $2 >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; done | sort -n | sed -n 3p; }
echo "1,000 cases --no-cache:     $(m true --no-cache)"
echo "1,000 cases cold cache:     $(m "rm -rf $JUDGE_CACHE_DIR/runs" "")"
echo "1,000 cases warm cache:     $(m true "")"
