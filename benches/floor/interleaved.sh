#!/bin/bash
# Interleaved judge-vs-floor rounds on a shared machine (BENCHMARKS.md,
# "Against the physical floor"). Run in a directory holding ./floor
# (benches/floor/floor.c compiled), ./ab (the A+B program) and
# cases/ab/{1..1000}.{in,ans}:
#
#   interleaved.sh ROUNDS JUDGE...      # e.g. interleaved.sh 9 ./judge-before ./judge-after
#
# Each round runs the floor, every judge at -j 1, -j 1 --sandbox plain and
# -j 2, and the floor again; each run's ratio is taken to its round's mean
# floor, and the medians are printed. A round is dropped (and run again)
# when a compiler or linker (rustc, cc1, ld) runs at its start or end;
# MAXTRIES bounds the tries (default 200, 3 s apart while one runs).

R=$1; shift
BINS=("$@")
t() { local s=$(date +%s.%N); "$@" >/dev/null 2>&1; local rc=$?; local e=$(date +%s.%N); echo "$(echo "$e - $s" | bc)"; }
echo "load start: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A T
busy() { pgrep -x rustc >/dev/null || pgrep -x cc1 >/dev/null || pgrep -x ld >/dev/null; }
r=0; tries=0
while [ $r -lt $R ] && [ $tries -lt ${MAXTRIES:-200} ]; do
  tries=$((tries+1))
  if busy; then sleep 3; continue; fi
  r=$((r+1))
  f1=$(t ./floor ./ab cases/ab 1000)
  for b in "${BINS[@]}"; do
    n=$(basename $b)
    T[$n-j1,$r]=$(t $b run cases/ab --problem ab --check tokens --submission ./ab -q -j 1)
    T[$n-plain,$r]=$(t $b run cases/ab --problem ab --check tokens --submission ./ab -q -j 1 --sandbox plain)
    T[$n-j2,$r]=$(t $b run cases/ab --problem ab --check tokens --submission ./ab -q -j 2)
  done
  f2=$(t ./floor ./ab cases/ab 1000)
  T[floor,$r]=$(echo "scale=4; ($f1 + $f2) / 2" | bc)
  if busy; then r=$((r-1)); echo "round dropped (a build started) at $(date -u +%H:%M:%S)"; fi
done
echo "rounds kept: $r of $tries tries"
echo "load end: $(cut -d' ' -f1-3 /proc/loadavg)"
med() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
# per-round ratios, median
keys="floor"
for b in "${BINS[@]}"; do n=$(basename $b); keys="$keys $n-j1 $n-plain $n-j2"; done
for k in $keys; do
  times=$(for r in $(seq 1 $R); do echo ${T[$k,$r]}; done | med)
  ratios=$(for r in $(seq 1 $R); do echo "scale=4; ${T[$k,$r]} / ${T[floor,$r]}" | bc; done | med)
  printf "%-22s median %.3f s  ratio(median of per-round) %.3f\n" $k $times $ratios
done
