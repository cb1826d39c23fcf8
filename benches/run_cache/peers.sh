#!/bin/bash
# The run cache against the peers, in one session on one machine
# (BENCHMARKS.md "Run cache"): `sumsq` (make.sh) judged cold and a second
# time by problemtools' `verifyproblem sumsq -p submissions` and
# BAPCtools' `bt run` (a copy whose format line says 2025-09), and by
# `judge verify sumsq` cold, unchanged, one Python submission edited, one
# .ans edited, the output validator edited. Each line: wall seconds, CPU
# seconds (user + system, children included), the tool's last line.
#
#   peers.sh JUDGE WORKDIR [PEERS_BIN]     # PEERS_BIN default /tmp/peers/bin
set -u
judge=$(realpath "${1:?usage: peers.sh JUDGE WORKDIR [PEERS_BIN]}")
work=${2:?usage: peers.sh JUDGE WORKDIR [PEERS_BIN]}
peers=${3:-/tmp/peers/bin}
here=$(dirname "$(realpath "$0")")
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
sh "$here/make.sh" sumsq
mkdir -p bt && cp -r sumsq bt/sumsq
sed -i 's/^problem_format_version:.*/problem_format_version: 2025-09/' bt/sumsq/problem.yaml
export JUDGE_CACHE_DIR="$work/cache"
t() { # label, command...: one timed run
  local label=$1; shift
  /usr/bin/time -f "%e %U %S" -o time.txt "$@" > out.txt 2>&1
  awk -v l="$label" '{printf "%-40s wall %7.2f s  cpu %7.2f s", l, $1, $2 + $3}' time.txt
  echo "   | $(grep -v '^\s*$' out.txt | tail -1 | cut -c1-100)"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
t "verifyproblem, cold" "$peers/verifyproblem" sumsq -p submissions
t "verifyproblem, second run" "$peers/verifyproblem" sumsq -p submissions
(cd bt && t "bt run, cold" "$peers/bt" run --no-bar --problem sumsq)
(cd bt && t "bt run, second run" "$peers/bt" run --no-bar --problem sumsq)
t "judge verify, builds and runs cold" "$judge" verify sumsq -q
t "judge verify, unchanged" "$judge" verify sumsq -q
echo "# edited" >> sumsq/submissions/accepted/py1.py
t "judge verify, one Python submission edited" "$judge" verify sumsq -q
echo >> sumsq/data/secret/5.ans
t "judge verify, one .ans edited" "$judge" verify sumsq -q
echo "# edited" >> sumsq/output_validator/validate.py
t "judge verify, output validator edited" "$judge" verify sumsq -q
t "judge verify --no-cache (builds cached)" "$judge" verify sumsq -q --no-cache
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
